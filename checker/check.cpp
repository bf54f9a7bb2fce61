// The checker's command line and the flow from a file to a verdict.
// Exit status: 0 VERIFIED, 1 REJECTED, 2 not checked (usage, unreadable or
// special file, out of time or memory), 3 SAMPLED or PART.
#include "checker/checker.hpp"

#include "checker/board.hpp"
#include "checker/certificate_file.hpp"
#include "checker/count.hpp"
#include "checker/limits.hpp"
#include "checker/manifest.hpp"
#include "checker/mod2/mod2.hpp"
#include "checker/partizan/partizan.hpp"
#include "checker/parts.hpp"
#include "checker/parallel.hpp"
#include "checker/replay.hpp"

#include <boost/program_options.hpp>
#include <capnp/compat/json.h>
#include <capnp/dynamic.h>
#include <capnp/serialize.h>
#include "schema/qcert.capnp.h"
#include <sys/resource.h>
#include <sys/stat.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ostream>
#include <sstream>
#include <thread>
#include <vector>

namespace po = boost::program_options;

namespace qcert::checker {
namespace {

const char* kUsage =
    "usage: checker [--quiet | --verbose] [--jobs N] [--time-limit S] [--max-memory MiB] [--max-cpu-hours H]\n"
    "               [--sample K [--seed S] | --part I --of K] FILE...\n"
    "       checker [options] [--json] [--expect STATEMENT | --expect-file F] FILE\n"
    "       checker --version\n"
    "\n"
    "FILE '-' is standard input (a single certificate, not a manifest: a manifest's\n"
    "shards are named relative to its own directory; at most 1 GiB).\n"
    "\n"
    "Each FILE is checked in turn (a manifest brings its shards).  With one FILE the verdict\n"
    "line is as below; with several, each verdict line starts with its file's name and\n"
    "': ', --time-limit is for the whole run, and the exit status is the first of 1, 2,\n"
    "3, 0 that some file has.  A shard that an earlier file of the run replayed in full\n"
    "(the same bytes, by its seal, against the same obligation) is not replayed again:\n"
    "two manifests over the same shards cost one replay.\n"
    "\n"
    "Verifies a qcert certificate for the queens game (Node-Kayles on the n x n\n"
    "queen graph, optionally plus a Nim heap) by replaying it in full.  Variants\n"
    "(docs/variants.md): rooks, bishops, kings or knights instead of queens, the torus,\n"
    "M x N rectangles, holes; the checker derives each board's symmetries itself and\n"
    "checks each is an automorphism of its own attack relation before using it.  A\n"
    "mirror-lemma certificate has no replies: the checker checks the lemma's conditions.\n"
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
    "A mod-2 certificate (Header with mod2 set, then Seal; docs/mod2-game.md) states a\n"
    "fact about Brown and Ladha's mod-2 queens game (a queen goes on a square attacked by\n"
    "an even number of queens): a play (the checker replays the moves, or generates the\n"
    "paper's orders itself), a structure fact (the checker counts each square's lines),\n"
    "an exhaustive fact (the checker's own search over all positions, n <= 5 or 8) or a\n"
    "game outcome (the winner's replies are read, the loser's moves generated).\n"
    "--sample and --part do not apply.\n"
    "\n"
    "A partizan certificate (Header with partizan set, then Seal; docs/partizan-game.md)\n"
    "states who wins Noon's partizan placing game (Left and Right each place their own\n"
    "pieces on squares no opposing piece attacks) from a position, Left or Right moving\n"
    "first: the winner's replies are read, every move of the loser is generated.\n"
    "--sample and --part do not apply.\n"
    "\n"
    "Before replaying or recounting, the checker says on stderr what it is about to\n"
    "do (replies, shards, cells and the placements they state).  Memory: a replay\n"
    "uses at most about (2R+1) x 16/3 x (8w+12) bytes for its memo (R reply tokens,\n"
    "w = 1, 2, 4, 8 words for n <= 8, 11, 16, 22), 192 MiB for its solver's memo,\n"
    "64 MiB of stack, 128 MiB of chunk buffers and the path's images (at most 8 sets a\n"
    "level, 8n^2 on the n x n torus: under 120 MiB), one replay per --jobs for\n"
    "manifests; a recount a few KiB per job plus about 100 bytes per cell.  Past\n"
    "--max-memory or --time-limit the checker stops with 'NOT CHECKED: ...': no verdict.\n"
    "Without --time-limit, a recount whose cost, estimated from the header (the\n"
    "problem, n, the cells recounted), is above --max-cpu-hours of one core is not\n"
    "started: 'NOT CHECKED: ... would take about ...'.\n"
    "\n"
    "Prints 'VERIFIED: <claim>' on stdout and exits 0, or 'REJECTED: <reason>' and\n"
    "exits 1.  With --expect, a claim other than STATEMENT is 'REJECTED: the certificate\n"
    "proves \"<claim>\", not the statement expected (--expect): \"<STATEMENT>\"', exit 1.\n"
    "With --json, stdout is one JSON object instead (docs/programs.md): the verdict, the\n"
    "statement, the claim's fields, the file's bytes and SHA-256, the checker's version,\n"
    "wall time and peak memory, the reason; the exit status is the same.  The details on\n"
    "stderr name the file's SHA-256 (a manifest's own bytes: it pins its shards' seals).\n"
    "\n"
    "Options";

const char* kExitStatus =
    "\nExit status (the same convention as the prover's):\n"
    "  0  VERIFIED: the claim printed is proved\n"
    "  1  REJECTED: the certificate does not prove its claim (the reason follows)\n"
    "  2  nothing decided: bad arguments, a missing, unreadable or special file\n"
    "     (FIFO, device, socket, directory) as certificate or shard, or 'NOT CHECKED:'\n"
    "     out of time (--time-limit), memory (--max-memory) or threads\n"
    "  3  SAMPLED or PART (count certificates with --sample or --part): those cells\n"
    "     agree; the claim is not verified\n"
    "  130  interrupted (Ctrl-C, SIGINT): nothing decided\n";

// The board and piece in words: "the 8x8 board", "the 7x7 torus", "the 5x7
// board (5 rows, 7 columns)", "... with a hole at b1"; "kings" etc.
std::string boardInWords(const Board& b) {
  std::string s = "the " + std::to_string(b.rows) + "x" + std::to_string(b.cols) + (b.torus ? " torus" : " board");
  if (b.rows != b.cols) s += " (" + std::to_string(b.rows) + " rows, " + std::to_string(b.cols) + " columns)";
  for (size_t i = 0; i < b.holes.size(); ++i)
    s += (i ? "," : b.holes.size() == 1 ? " with a hole at " : " with holes at ") +
         std::string(1, char('a' + b.holes[i] % b.cols)) + std::to_string(b.holes[i] / b.cols + 1);
  return s;
}

}  // namespace

std::string claimInWords(const Certificate& c) {
  static const char* const kPieces[] = {"queens", "rooks", "bishops", "kings", "knights"};
  const bool plain = c.board.plainQueens();
  const std::string where = boardInWords(c.board);
  std::string board;
  if (c.queens.empty()) {
    board = "the empty " + where.substr(4);
  } else {
    board = where + " after " + kPieces[c.board.piece] + " ";
    for (size_t i = 0; i < c.queens.size(); ++i)
      board += (i ? ", " : "") + (plain ? squareName(c.boardSize, c.queens[i]) : squareName(c.board.cols, c.queens[i]).substr(0, squareName(c.board.cols, c.queens[i]).find(' ')));
  }
  const std::string game = plain ? " (queens game)" : std::string(c.board.holes.empty() ? " with " : ", playing ") + kPieces[c.board.piece];
  static const char* const kMaps[] = {"", "half turn", "mirror in the files", "mirror in the ranks", "mirror in the diagonal", "mirror in the antidiagonal"};
  const std::string lemma = c.mirrorLemma ? std::string(", by the mirror lemma (") + kMaps[c.defaultReply] + ")" : "";
  // The queens game on the square keeps its statements: "(queens game)" last.
  const std::string tail = plain ? game + lemma : lemma, mid = plain ? "" : game;
  if (c.grundy) return "the Grundy value of " + board + mid + " is " + std::to_string(c.heap) + tail;
  const std::string heap = c.heap ? " with a Nim heap of " + std::to_string(c.heap) + " added" : "";
  if (c.queens.empty()) return std::string(c.claimWin ? "first" : "second") + " player wins on " + board + mid + heap + tail;
  return std::string("the player to move ") + (c.claimWin ? "wins" : "loses") + " on " + board + mid + heap + tail;
}

namespace {

// The producer text is untrusted: its first 200 bytes, '?' for any byte not
// printable.
std::string producer(const std::string& text) { return printableText(text.substr(0, 200), '?'); }

// Whole numbers only: boost would read "-1" into an unsigned as 2^64 - 1.
uint64_t wholeNumber(const std::string& option, const std::string& text, uint64_t min, uint64_t max) {
  uint64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || value < min || value > max)
    throw po::error("--" + option + " must be a whole number from " + std::to_string(min) + " to " + std::to_string(max) +
                    ", got '" + text + "'");
  return value;
}

std::string timeAndMemory(std::chrono::steady_clock::time_point start) {
  char text[96];
  struct rusage ru {};
  getrusage(RUSAGE_SELF, &ru);
  std::snprintf(text, sizeof text, "%.2f s, peak RSS %.1f MiB",
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), ru.ru_maxrss / 1024.0);
  return text;
}

}  // namespace

namespace {

// --expect-file: a regular file of at most 64 KiB, one line (its newline is
// not part of the statement).
std::string expectedStatement(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) throw po::error("--expect-file: cannot open " + path + ": " + std::strerror(errno));
  if (!S_ISREG(st.st_mode)) throw po::error("--expect-file: " + path + " is not a regular file");  // a FIFO would block
  if (st.st_size > 65536) throw po::error("--expect-file " + path + " is larger than 64 KiB");
  FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) throw po::error("--expect-file: cannot open " + path + ": " + std::strerror(errno));
  std::string text(65537, '\0');
  text.resize(std::fread(text.data(), 1, text.size(), f));
  std::fclose(f);
  if (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

}  // namespace

ParsedArgs parseCheckerArgs(int argc, const char* const* argv, unsigned defaultJobs) {
  ParsedArgs r;
  for (int i = 1; i < argc; ++i) r.options.json |= std::strcmp(argv[i], "--json") == 0;  // a usage error is JSON too
  CheckOptions& o = r.options;
  std::string jobs = std::to_string(defaultJobs), sample, seed, part, of, timeLimit, maxMemory, maxCpuHours;
  po::options_description visible(kUsage);
  std::string expectFile;
  visible.add_options()("help,h", "show this help")("quiet,q", "print only the verdict line (no statistics)")(
      "verbose,v", "statistics in full: cut-off, reply tokens, nodes, memo, the producer's text")(
      "json", "stdout: one JSON object instead of the verdict line (one FILE)")(
      "expect", po::value<std::string>(&o.expect), "exit 1 (REJECTED) unless the statement verified is exactly this (one FILE)")(
      "expect-file", po::value<std::string>(&expectFile), "the same, the statement read from this file (one line)")(
      "jobs,j", po::value<std::string>(&jobs)->default_value(jobs), "shards (manifests) or cells (count certificates) checked at a time (1..4096)")(
      "time-limit", po::value<std::string>(&timeLimit), "stop after this many seconds (1..31536000) with NOT CHECKED, exit 2")(
      "max-memory", po::value<std::string>(&maxMemory),
      "stop with NOT CHECKED, exit 2, before the resident memory would pass this many MiB (16..16777216; default 90% of physical memory)")(
      "max-cpu-hours", po::value<std::string>(&maxCpuHours),
      "without --time-limit: refuse with NOT CHECKED, exit 2, before starting, a recount that the header says "
      "takes longer than this many hours of one core (1..1000000; default 24)")(
      "sample", po::value<std::string>(&sample), "count certificates: recount only K random cells (exit 3: not a verification)")(
      "seed", po::value<std::string>(&seed), "with --sample: seed of the cell draw (std::mt19937_64; default 0)")(
      "part", po::value<std::string>(&part), "count certificates: recount only the cells i with i % K == I (exit 3)")(
      "of", po::value<std::string>(&of), "with --part: the number of parts K (1..1048576, the most cells a certificate has)");
  po::options_description all;
  std::vector<std::string> files;  // all of them, to name how many were given when more than one
  all.add(visible).add_options()("file", po::value<std::vector<std::string>>(&files));
  po::positional_options_description positional;
  positional.add("file", -1);
  try {
    // Boost 1.74 fills "%canonical_option%" into its messages until none is
    // left: an option name holding one made it loop forever.
    for (int i = 1; i < argc; ++i)
      if (argv[i][0] == '-' && std::strchr(argv[i], '%'))
        throw po::error(std::string("unrecognised option '") + argv[i] + "' (no option or option value holds a '%')");
    po::variables_map vm;
    po::store(po::command_line_parser(argc, const_cast<char**>(argv)).options(all).positional(positional).run(), vm);
    po::notify(vm);
    if (vm.count("help")) {
      std::ostringstream text;
      text << visible << kExitStatus;
      r.help = text.str();
      return r;
    }
    o.quiet = vm.count("quiet") > 0;
    o.verbose = vm.count("verbose") > 0;
    o.json = vm.count("json") > 0;
    if (o.quiet && o.verbose) throw po::error("--quiet and --verbose do not combine");
    if (vm.count("expect") && vm.count("expect-file")) throw po::error("--expect and --expect-file do not combine");
    if (vm.count("expect-file")) o.expect = expectedStatement(expectFile);
    if ((vm.count("expect") || vm.count("expect-file")) && (o.expect.empty() || o.expect.find_first_of("\r\n") != std::string::npos))
      throw po::error("the statement expected must be one line, not empty");
    if ((o.json || !o.expect.empty()) && files.size() > 1) throw po::error("--json, --expect and --expect-file take one FILE");
    if (std::count(files.begin(), files.end(), "-") > 1) throw po::error("standard input ('-') can be read once");
    r.paths = files;
    if (!files.empty()) o.path = files[0];
    if (o.path.empty()) throw po::error("no certificate file given");
    o.jobs = unsigned(wholeNumber("jobs", jobs, 1, 4096));
    constexpr uint64_t kMaxCells = uint64_t(1) << 20;
    if (vm.count("sample")) o.sample = wholeNumber("sample", sample, 1, kMaxCells);
    if (vm.count("seed")) {
      if (!vm.count("sample")) throw po::error("--seed needs --sample");
      o.seed = wholeNumber("seed", seed, 0, UINT64_MAX);
    }
    if (vm.count("part") != vm.count("of")) throw po::error("--part I and --of K go together");
    if (vm.count("of")) {
      o.parts = wholeNumber("of", of, 1, kMaxCells);
      o.part = wholeNumber("part", part, 0, o.parts - 1);
    }
    if (vm.count("of") && vm.count("sample")) throw po::error("--sample and --part do not combine");
    if (vm.count("time-limit")) o.timeLimitSeconds = double(wholeNumber("time-limit", timeLimit, 1, 365 * 24 * 3600));
    if (vm.count("max-memory")) o.maxMemoryMiB = wholeNumber("max-memory", maxMemory, 16, uint64_t(1) << 24);
    if (vm.count("max-cpu-hours")) o.maxCpuHours = wholeNumber("max-cpu-hours", maxCpuHours, 1, 1000000);
  } catch (const po::error& e) {
    r.error = e.what();
  }
  return r;
}

int Verdict::exitStatus() const {
  static const int kStatus[] = {0, 1, 2, 2, 3, 3};
  return kStatus[int(kind)];
}

std::string Verdict::line() const {
  static const char* const kWords[] = {"VERIFIED: ", "REJECTED: ", "NOT CHECKED: ", "", "SAMPLED: ", "PART: "};
  return kind == Kind::Unread ? "" : kWords[int(kind)] + (kind == Kind::Verified ? statement : reason);
}

namespace {

// The header's claim (of whichever family) as a JSON object, for --json:
// every field (schema/qcert.capnp's names) but free text (the producer's)
// and the evidence (a count's cells, a game's replies).
std::string claimAsJson(const Certificate& cert) {
  capnp::ReaderOptions options;
  options.traversalLimitInWords = uint64_t(1) << 26;
  capnp::FlatArrayMessageReader reader(cert.header, options);
  const capnp::DynamicStruct::Reader header = capnp::toDynamic(reader.getRoot<Header>());
  const char* family = cert.isCount ? "count" : cert.isMod2 ? "mod2" : cert.isPartizan ? "partizan" : "claim";
  const capnp::DynamicStruct::Reader claim = header.get(family).as<capnp::DynamicStruct>();
  capnp::JsonCodec codec;
  std::string json = std::string("{\"family\":\"") + (cert.isCount || cert.isMod2 || cert.isPartizan ? family : "game") + "\"";
  for (const capnp::StructSchema::Field field : claim.getSchema().getFields()) {
    if (!claim.has(field)) continue;
    const capnp::DynamicValue::Reader value = claim.get(field);
    const std::string name = field.getProto().getName().cStr();
    if (value.getType() == capnp::DynamicValue::TEXT || name == "cells" || name == "replies") continue;
    json += ",\"" + name + "\":" + codec.encode(value, field.getType()).cStr();
  }
  return json + "}";
}

// A long replay's progress on stderr (main: when it is a terminal), redrawn
// every half second by a thread of its own: the replay only counts tokens.
class ReplayProgress {
 public:
  ReplayProgress(const TokenStream& tokens, uint64_t total) : thread_([this, &tokens, total] { run(tokens, total); }) {}
  ~ReplayProgress() {
    {
      std::lock_guard guard(lock_);
      stop_ = true;
    }
    wake_.notify_one();
    thread_.join();
  }

 private:
  void run(const TokenStream& tokens, uint64_t total) {
    const auto start = std::chrono::steady_clock::now();
    bool drawn = false;
    std::unique_lock lock(lock_);
    while (!wake_.wait_for(lock, std::chrono::milliseconds(500), [this] { return stop_; })) {
      const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      const uint64_t done = tokens.consumed();
      std::fprintf(stderr, "\r  replayed %llu of %llu winning replies, %.0f s", (unsigned long long)done, (unsigned long long)total, t);
      if (done > 0 && done < total) std::fprintf(stderr, ", about %.0f s left", t / double(done) * double(total - done));
      std::fprintf(stderr, "   ");
      drawn = true;
    }
    if (drawn) std::fprintf(stderr, "\r%79s\r", "");
  }
  std::mutex lock_;
  std::condition_variable wake_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace

Verdict check(const CheckOptions& o, std::ostream& err) {
  const auto start = std::chrono::steady_clock::now();
  limits::setTimeLimit(o.timeLimitSeconds);
  limits::setMemoryLimit(o.maxMemoryMiB << 20);
  limits::setWorkCeiling(double(o.maxCpuHours) * 3600);
  std::ostream* announce = o.quiet ? nullptr : &err;
  Verdict v;
  v.kind = Verdict::Kind::Verified;
  std::ostringstream report, details;  // details: --verbose only
  try {
    MappedFile file(o.path);
    v.bytes = file.size();
    v.sha256 = sha256Hex(file.data(), file.size());
    const Certificate cert = readCertificate(file);
    if (o.json) v.claimJson = claimAsJson(cert);
    if ((o.sample || o.parts) && !cert.isCount) throw IoError("--sample and --part apply only to count certificates");
    if (cert.hasPlan && o.path == "-")
      throw IoError("a manifest cannot be read from standard input: its shards are named relative to its own directory; give its path");
    if (cert.isPartizan || cert.isMod2) {
      v.statement = cert.isPartizan ? verifyPartizanCertificate(cert, announce) : verifyMod2Certificate(cert, announce);
      details << "  producer: " << producer(cert.producer) << "\n";
    } else if (cert.isCount) {
      const CountResult r = verifyCountCertificate(cert, o.jobs, o.sample, o.seed, o.part, o.parts, o.progress, announce);
      v.statement = r.statement;
      const std::string recounted = std::to_string(r.recounted) + " of " + std::to_string(r.cells) + " cells recounted and equal; ";
      if (o.parts)
        v.kind = Verdict::Kind::Part, v.reason = "part " + std::to_string(o.part) + " of " + std::to_string(o.parts) + ": " + recounted +
             "the claim is verified only when every part 0.." + std::to_string(o.parts - 1) + " of this file passes";
      else if (o.sample)
        v.kind = Verdict::Kind::Sampled, v.reason = recounted + "the claim is NOT verified "
             "(only these cells were recounted; the other cells' counts are the prover's word)";
      char text[160];
      std::snprintf(text, sizeof text, "%llu cells, %llu recounted in %.2f s (--jobs %u%s)", (unsigned long long)r.cells,
                    (unsigned long long)r.recounted, r.recountSeconds, o.jobs,
                    o.sample ? (", --seed " + std::to_string(o.seed)).c_str() : "");
      details << "  producer: " << producer(r.producer.empty() ? cert.producer : r.producer) << "\n";
      report << "  count: " << text << "\n";
      if (o.sample) report << "  the claim, NOT verified: " << r.statement << "\n";
    } else {
      v.statement = claimInWords(cert);
      if (announce) *announce << "  checking: " << v.statement << std::endl;
      if (cert.hasPlan) {
        const ManifestStats stats = verifyManifest(cert, o.path, o.jobs, announce, o.observer, o.progress, o.replayed);
        const std::string before = stats.replayedBefore ? ", " + std::to_string(stats.replayedBefore) + " of them replayed earlier in this run" : "";
        details << "  manifest: " << stats.shards << " shards, tokens " << stats.tokens << ", nodes " << stats.nodes
                << " (over all shards" << before << ")\n";
        report << "  manifest: " << stats.shards << (stats.shards == 1 ? " shard" : " shards") << " verified" << before << "\n";
      } else if (cert.parts) {
        if (announce) *announce << "  parts: a table of " << cert.replyCount << " tokens" << std::endl;
        TokenStream tokens(cert);
        const PartsStats stats = verifyPartsTable(cert, tokens);
        details << "  producer: " << producer(cert.producer) << "\n  parts " << stats.parts << ", options " << stats.options << "\n";
      } else {
        if (announce && o.verbose)
          *announce << "  replay: cut-off " << cert.cutoff << ", " << cert.replyCount << (cert.replyCount == 1 ? " reply token in " : " reply tokens in ")
                    << cert.chunks.size() << (cert.chunks.size() == 1 ? " chunk" : " chunks") << "; memory at most about " << (replayMemoryBound(cert) >> 20) << " MiB (--max-memory "
                    << (limits::memoryLimit() >> 20) << " MiB)" << std::endl;
        else if (announce)
          *announce << "  replaying " << cert.replyCount << (cert.replyCount == 1 ? " winning reply" : " winning replies")
                    << " and every reply of the loser; memory at most about " << (replayMemoryBound(cert) >> 20) << " MiB" << std::endl;
        TokenStream tokens(cert);
        std::optional<ReplayProgress> progress;
        if (o.progress) progress.emplace(tokens, cert.replyCount);
        const ReplayStats stats = replayCertificate(cert, tokens, o.observer, o.repliesOnly);
        progress.reset();
        char text[400];
        std::snprintf(text, sizeof text,
                      "  cutoff %u, tokens %llu, nodes %llu, memo entries %llu, memo hits %llu\n"
                      "  exhaustive solves %llu (%llu solver nodes), wins paired with a sibling's %llu\n",
                      cert.cutoff, (unsigned long long)tokens.consumed(), (unsigned long long)stats.nodes,
                      (unsigned long long)stats.memoEntries, (unsigned long long)stats.memoHits,
                      (unsigned long long)stats.cutoffSolves, (unsigned long long)stats.solverNodes,
                      (unsigned long long)stats.pairedWins);
        details << "  producer: " << producer(cert.producer) << "\n" << text;
      }
    }
    if (!o.expect.empty() && v.statement != o.expect)
      v.kind = Verdict::Kind::Rejected, v.reason = "the certificate proves \"" + v.statement + "\", not the statement expected (--expect): \"" +
                                                   printableText(o.expect) + "\"";
    report << (cert.hasPlan ? "  manifest file: " : "  certificate: ") << v.bytes << " bytes, SHA-256 " << v.sha256
           << (cert.hasPlan ? " (its shards are pinned in it by their seals)" : "") << "\n";
    if (!o.quiet) v.report = (o.verbose ? details.str() : "") + report.str() + "  checked in " + timeAndMemory(start) + "\n";
    if (o.repliesOnly)
      v.kind = Verdict::Kind::NotChecked, v.repliesRead = true,
      v.reason = "the replies were read for an observer; nothing at or below the cut-off was solved";
    return v;
  } catch (...) {
    const Failure f = currentFailure();
    using K = Verdict::Kind;
    v.kind = f.kind == FailureKind::rejected ? K::Rejected : f.kind == FailureKind::ioError ? K::Unread : K::NotChecked;
    v.statement.clear(), v.reason = f.text;
    return v;
  }
}

}  // namespace qcert::checker
