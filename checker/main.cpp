// qcert checker: the trusted verifier of queens-game and count certificates.
// Exit status: 0 VERIFIED, 1 REJECTED, 2 usage or I/O error, 3 SAMPLED.
#include "board.hpp"
#include "certificate_file.hpp"
#include "count.hpp"
#include "manifest.hpp"
#include "replay.hpp"

#include <boost/program_options.hpp>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <thread>

namespace po = boost::program_options;
using namespace qcert;

namespace {

const char* kUsage =
    "usage: checker [--quiet] [--jobs N] [--sample K [--seed S] | --part I --of K] FILE\n"
    "\n"
    "Verifies a qcert certificate for the queens game (Node-Kayles on the n x n\n"
    "queen graph, optionally plus a Nim heap) by replaying it in full.\n"
    "Format: Cap'n Proto messages Header, ReplyChunk x chunkCount, Seal (schema/qcert.capnp);\n"
    "chunks hold zstd-compressed LEB128 winner replies, the Seal is XXH3-128 of all bytes before it.\n"
    "\n"
    "A shard manifest (header with a plan, no chunks) splits a claim into shard\n"
    "certificates (paths relative to the manifest, seals pinned): the checker walks\n"
    "the plan with its own move rules and replays every shard in full, --jobs at a time.\n"
    "\n"
    "A count certificate (Header with count set, then Seal; docs/count-certificates.md)\n"
    "states how many solutions a queens problem has (n-queens, n+k queens with holes,\n"
    "torus, end positions of the queens game, the HP-71B program's solutions and nodes),\n"
    "split into cells (the first rows' contents).  The checker lists the cells itself,\n"
    "recounts every cell with its own plain search, --jobs cells at a time, and sums them.\n"
    "With --sample K only K cells drawn at random (seeded by --seed) are recounted: that\n"
    "prints 'SAMPLED: ...' and exits 3, and does NOT verify the claim.  With --part I --of K\n"
    "only the cells i with i % K == I are recounted (one of K processes, e.g. batch jobs):\n"
    "'PART: ...', exit 3; the claim is verified when all K parts of the same file pass.\n"
    "\n"
    "Prints 'VERIFIED: <claim>' on stdout and exits 0, or 'REJECTED: <reason>' and\n"
    "exits 1.  Usage and I/O errors (missing or unreadable file) exit 2.\n"
    "\n"
    "Options";

std::string claimInWords(const Certificate& c) {
  const std::string size = std::to_string(c.boardSize) + "x" + std::to_string(c.boardSize);
  std::string board;
  if (c.queens.empty()) {
    board = "the empty " + size + " board";
  } else {
    board = "the " + size + " board after queens ";
    for (size_t i = 0; i < c.queens.size(); ++i) board += (i ? ", " : "") + squareName(c.boardSize, c.queens[i]);
  }
  if (c.grundy) return "the Grundy value of " + board + " is " + std::to_string(c.heap) + " (queens game)";
  const std::string heap = c.heap ? " with a Nim heap of " + std::to_string(c.heap) + " added" : "";
  if (c.queens.empty()) return std::string(c.claimWin ? "first" : "second") + " player wins on " + board + heap + " (queens game)";
  return std::string("the player to move ") + (c.claimWin ? "wins" : "loses") + " on " + board + heap + " (queens game)";
}

std::string printable(std::string s) {  // the producer text is untrusted
  if (s.size() > 200) s.resize(200);
  for (char& ch : s)
    if (ch < 0x20 || ch > 0x7e) ch = '?';
  return s;
}

int rejected(const std::string& why) {
  std::cout << "REJECTED: " << why << std::endl;
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  std::string path;
  bool quiet = false;
  unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
  uint64_t sample = 0, seed = 0, part = 0, parts = 0;
  po::options_description visible(kUsage);
  visible.add_options()("help,h", "show this help")("quiet,q", "print only the verdict line (no statistics)")(
      "jobs,j", po::value<unsigned>(&jobs)->default_value(jobs), "shards (manifests) or cells (count certificates) checked at a time (1..4096)")(
      "sample", po::value<uint64_t>(&sample), "count certificates: recount only K random cells (exit 3: not a verification)")(
      "seed", po::value<uint64_t>(&seed)->default_value(seed), "with --sample: seed of the cell draw (std::mt19937_64)")(
      "part", po::value<uint64_t>(&part), "count certificates: recount only the cells i with i % K == I (exit 3)")(
      "of", po::value<uint64_t>(&parts), "with --part: the number of parts K");
  po::options_description all;
  all.add(visible).add_options()("file", po::value<std::string>(&path));
  po::positional_options_description positional;
  positional.add("file", 1);
  try {
    po::variables_map vm;
    po::store(po::command_line_parser(argc, argv).options(all).positional(positional).run(), vm);
    po::notify(vm);
    if (vm.count("help")) {
      std::cout << visible << "\nExit status: 0 verified, 1 rejected, 2 usage or I/O error, 3 sampled (count\n"
                              "certificates with --sample or --part: those cells agree; the claim is not verified).\n";
      return 0;
    }
    quiet = vm.count("quiet") > 0;
    if (path.empty()) throw po::error("no certificate file given");
    if (jobs < 1 || jobs > 4096) throw po::error("--jobs must be 1..4096");
    if (vm.count("sample") && sample < 1) throw po::error("--sample must be at least 1");
    if (!vm["seed"].defaulted() && !vm.count("sample")) throw po::error("--seed needs --sample");
    if (vm.count("part") != vm.count("of") || (vm.count("of") && (parts < 1 || part >= parts)))
      throw po::error("--part I and --of K go together, with 0 <= I < K");
    if (vm.count("of") && vm.count("sample")) throw po::error("--sample and --part do not combine");
  } catch (const po::error& e) {
    std::cerr << "checker: " << e.what() << "\n(try checker --help)\n";
    return 2;
  }

  const auto start = std::chrono::steady_clock::now();
  auto timeAndMemory = [&] {
    char text[96];
    struct rusage ru {};
    getrusage(RUSAGE_SELF, &ru);
    std::snprintf(text, sizeof text, "%.2f s, peak RSS %.1f MiB",
                  std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), ru.ru_maxrss / 1024.0);
    return std::string(text);
  };
  try {
    MappedFile file(path);
    const Certificate cert = readCertificate(file);
    if ((sample || parts) && !cert.isCount) {
      std::cerr << "checker: --sample and --part apply only to count certificates\n";
      return 2;
    }
    if (cert.isCount) {
      const CountResult r = verifyCountCertificate(cert, jobs, sample, seed, part, parts, !quiet && isatty(STDERR_FILENO));
      if (parts)
        std::cout << "PART: part " << part << " of " << parts << ": " << r.recounted << " of " << r.cells
                  << " cells recounted and equal; the claim is verified only when every part 0.." << parts - 1
                  << " of this file passes" << std::endl;
      else if (sample)
        std::cout << "SAMPLED: " << r.recounted << " of " << r.cells << " cells recounted and equal; the claim is NOT verified "
                  << "(only these cells were recounted; the other cells' counts are the prover's word)" << std::endl;
      else
        std::cout << "VERIFIED: " << r.statement << std::endl;
      if (!quiet)
        std::fprintf(stderr, "  producer: %s\n  count: %llu cells, %llu recounted in %.2f s (--jobs %u%s), %s\n%s",
                     printable(r.producer.empty() ? cert.producer : r.producer).c_str(), (unsigned long long)r.cells,
                     (unsigned long long)r.recounted, r.recountSeconds, jobs,
                     sample ? (", --seed " + std::to_string(seed)).c_str() : "", timeAndMemory().c_str(),
                     sample ? ("  the claim, NOT verified: " + r.statement + "\n").c_str() : "");
      return sample || parts ? 3 : 0;
    }
    if (cert.hasPlan) {
      const ManifestStats stats = verifyManifest(cert, path, jobs);
      std::cout << "VERIFIED: " << claimInWords(cert) << std::endl;
      if (!quiet)
        std::fprintf(stderr, "  manifest: %llu shards, tokens %llu, nodes %llu (over all shards), %s\n",
                     (unsigned long long)stats.shards, (unsigned long long)stats.tokens,
                     (unsigned long long)stats.nodes, timeAndMemory().c_str());
      return 0;
    }
    TokenStream tokens(cert);
    const ReplayStats stats = replayCertificate(cert, tokens);
    std::cout << "VERIFIED: " << claimInWords(cert) << std::endl;
    if (!quiet)
      std::fprintf(stderr,
                   "  producer: %s\n  cutoff %u, tokens %llu, nodes %llu, memo entries %llu, memo hits %llu\n"
                   "  exhaustive solves %llu (%llu solver nodes), wins paired with a sibling's %llu, %s\n",
                   printable(cert.producer).c_str(), cert.cutoff, (unsigned long long)tokens.consumed(),
                   (unsigned long long)stats.nodes, (unsigned long long)stats.memoEntries,
                   (unsigned long long)stats.memoHits, (unsigned long long)stats.cutoffSolves,
                   (unsigned long long)stats.solverNodes, (unsigned long long)stats.pairedWins,
                   timeAndMemory().c_str());
    return 0;
  } catch (const IoError& e) {
    std::cerr << "checker: " << e.what() << "\n";
    return 2;
  } catch (...) {
    return rejected(currentErrorText());
  }
}
