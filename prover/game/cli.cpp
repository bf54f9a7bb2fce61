// `prover prove` and `prover grundy`: the queens game and its variants
// (other pieces, the torus, rectangles, holes), in one run or in work units.
#include "prover/game/cli.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <boost/program_options.hpp>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>
#include <system_error>

#include "prover/game/prove.hpp"
#include "prover/memory.hpp"
#include "prover/options.hpp"
#include "prover/output_file.hpp"

namespace po = boost::program_options;

namespace qcert {
namespace {

std::atomic<bool> gStop{false};
constexpr int kMaxWorkers = 1000000;  // --of: far past any batch array
extern "C" void onSignal(int) { gStop.store(true); }

// prove and grundy: what each is, then only its options (runProve).
const char* kProveUsage = R"(Usage: prover prove --n N [--queens LIST] [--heap H] [--out FILE] [options]

Decides whether the player to move wins the queens game (two players take
turns placing a queen on a free square, one no queen on the board attacks;
who cannot move loses) on the N x N board after the queens in LIST, with a
Nim heap of H added (a move then either places a queen or lowers the heap).
Prints "RESULT: first player wins on ..., e.g. by d4" (a winning move) or
"RESULT: second player wins ...". With --out FILE it writes a certificate that
`checker FILE` verifies; without --out nothing is written.
)";
const char* kGrundyUsage = R"(Usage: prover grundy --n N [--queens LIST] [--out FILE] [options]

Finds the Grundy value g of the position: the least heap size g such that the
position plus a Nim heap of g is lost for the player to move (G = 0: the
player to move loses). With --out FILE it certifies that loss, which proves
G = g (the wins with the smaller heaps are part of the same certificate).
)";
const char* kUnitsUsage = R"(
Work units (resumable, parallel, shardable): with --jobs J > 1 or --units
DIR the claim is split after each move the losing side can make (one unit
per move, up to the board's symmetries); threads prove units and write each
as its own certificate under DIR (default <out>.units), and --out becomes a
manifest tying them together (`checker` verifies manifests and their shards).
SIGINT/SIGTERM stop the run keeping every finished unit; the same command
resumes. For a batch scheduler, run `--unit I --of K` for I = 0..K-1 (each
proves every K-th unit), then the plain command once more to write the
manifest. Under MPI (`mpirun -np K prover prove ... --out M`) rank r proves
every K-th unit from r and rank 0 writes the manifest; all ranks need the
same file system.
)";
const char* kProverExit = R"(
Exit status: 0 done (proved, written); 1 a claim is false: --win-by SQ does
not win ("REFUTED: SQ does not win: ..." on stdout, naming the reply that beats
it); 2 nothing decided: bad arguments, an output path that cannot be written
(tried before any work), out of memory or threads, an internal error (one line
"prover: ..." on stderr, "prover: not done: ..." for resources); 3 interrupted
by SIGINT/SIGTERM (finished work units are kept; the same command resumes).
)";

// --board square|torus|MxN, --piece, --holes: the game to play.
Variant parseVariant(const std::string& board, const std::string& piece, const std::string& holes, int n, bool haveN) {
  Variant v;
  if (board == "square" || board == "torus") {
    if (!haveN) throw std::invalid_argument("--n is required");
    v.rows = v.cols = n;
    v.torus = board == "torus";
  } else {
    const size_t x = board.find('x');
    int rows = 0, cols = 0;
    auto number = [&](const std::string& t, int& into) {
      if (t.empty() || t.size() > 2 || t.find_first_not_of("0123456789") != std::string::npos) return false;
      into = std::stoi(t);
      return into >= 1 && into <= kMaxBoard;
    };
    if (x == std::string::npos || !number(board.substr(0, x), rows) || !number(board.substr(x + 1), cols))
      throw std::invalid_argument("--board must be square, torus or MxN (M rows, N columns, each 1.." +
                                  std::to_string(kMaxBoard) + "), got '" + board + "'");
    if (haveN) throw std::invalid_argument("--n does not combine with --board MxN (the board gives the size)");
    v.rows = rows, v.cols = cols;
  }
  auto p = parsePiece(piece);
  if (!p) throw std::invalid_argument("--piece must be queen, rook, bishop, king or knight, got '" + piece + "'");
  v.piece = *p;
  v.holes = parseSquareList(v, holes);  // named on the board without holes
  std::sort(v.holes.begin(), v.holes.end());
  for (size_t i = 1; i < v.holes.size(); ++i)
    if (v.holes[i] == v.holes[i - 1]) throw std::invalid_argument("--holes names " + squareName(v.cols, v.holes[i]) + " twice");
  return v;
}

// ", e.g. by d4": a winning move of a won root, for the RESULT line. From
// --win-by, the unit found lost, the search (without --out) or the
// certificate's first decision (the root's, when the root has more free
// squares than the cut-off); otherwise, when the search was quick, each move
// is tried with a search of its own.
std::string winningMoveWords(const Geometry& geo, const ProveRequest& req, const ProveResult& res) {
  std::vector<int> live;  // the root's free squares, increasing
  std::vector<char> free(size_t(geo.squares));
  for (int s = 0; s < geo.squares; ++s) free[size_t(s)] = !geo.isHole[size_t(s)];
  for (int q : req.queens)
    for (int t : geo.kills[size_t(q)]) free[size_t(t)] = 0;
  for (int s = 0; s < geo.squares; ++s)
    if (free[size_t(s)]) live.push_back(s);
  auto heapWords = [](uint32_t to) { return ", e.g. by lowering the heap to " + std::to_string(to); };
  if (req.winBy >= 0) return ", e.g. by " + geo.squareName(req.winBy);
  if (res.units.losingMove >= 0)
    return isHeapMove(res.units.losingMove) ? heapWords(uint32_t(res.units.losingMove - kHeapMove))
                                            : ", e.g. by " + geo.squareName(res.units.losingMove);
  if (res.winningMove >= 0)
    return isHeapMove(res.winningMove) ? heapWords(uint32_t(res.winningMove - kHeapMove))
                                       : ", e.g. by " + geo.squareName(res.winningMove);
  const uint32_t t = res.cert.firstToken;
  if (!req.out.empty() && t >= 1 && t <= live.size()) return ", e.g. by " + geo.squareName(live[t - 1]);
  if (!req.out.empty() && t > live.size() && t <= live.size() + req.heap) return heapWords(uint32_t(t - live.size() - 1));
  if (res.rootLive > 32 && res.searchSeconds > 1.0) return " (a winning move is named when --out writes the certificate)";
  ProveRequest child = req;  // quick: each move in turn, the first that leaves a loss
  child.out.clear(), child.unitsDir.clear(), child.jobs = 1, child.select = {}, child.winBy = -1;
  child.progress = false, child.progressEvery = 0, child.byMirrorLemma = false, child.splitAboveNodes = 0, child.deterministicUnits = false;
  for (int v : live) {
    child.queens = req.queens;
    child.queens.push_back(v);
    child.heap = req.heap;
    if (!prove(geo, child).win) return ", e.g. by " + geo.squareName(v);
  }
  for (uint32_t h = 0; h < req.heap; ++h) {
    child.queens = req.queens;
    child.heap = h;
    if (!prove(geo, child).win) return heapWords(h);
  }
  return "";
}

// The command line of prove and grundy: what the options are read into,
// and the option groups. Option groups: `prover prove --help` and `prover
// grundy --help` show only their own; every group is parsed for both, so a
// misplaced option gets its own error ("--heap does not apply to grundy").
// The options write into the members: an Args stays where it was made.
struct Args {
  int n = 0;
  std::string queens, out, winBy, board = "square", piece = "queen", holes, mirror = "half-turn", interleave, near;
  uint32_t heap = 0;
  ProveRequest req;
  std::string command;  // prove or grundy
  po::variables_map vm;
  po::options_description game, heapOption, cert{"The certificate"}, search{"The search"}, units, winByOption, general{"Other"};
  bool given(const char* option) const { return vm.count(option) > 0; }
};

void defineOptions(Args& a) {
  ProveRequest& req = a.req;
  int& n = a.n;
  uint32_t& heap = a.heap;
  std::string &queens = a.queens, &out = a.out, &winBy = a.winBy, &board = a.board, &piece = a.piece, &holes = a.holes,
              &mirror = a.mirror, &interleave = a.interleave, &near = a.near;
  po::options_description &game = a.game, &heapOption = a.heapOption, &cert = a.cert, &search = a.search, &units = a.units,
                          &winByOption = a.winByOption, &general = a.general;
  game.add_options()
    ("n", numberOption(&n, "--n", 1, kMaxBoard), "board size N (1..22): the N x N board or torus")
    ("queens", po::value<std::string>(&queens), "queens already placed, in order, e.g. e5,a1 (each on a free square)")
    ("board", po::value<std::string>(&board), "square (default), torus (rows, columns and both diagonals wrap around; with --n) or MxN: M rows and N columns, e.g. 5x7 (no --n)")
    ("piece", po::value<std::string>(&piece), "the piece both players place: queen (default), rook, bishop, king, knight (a knight may neither attack nor be attacked)")
    ("holes", po::value<std::string>(&holes), "squares no piece may occupy, e.g. b1,c3; lines of attack pass over them");
  heapOption.add_options()
    ("heap", numberOption(&heap, "--heap", 0, 255)->default_value("0"), "add a Nim heap of this size (0..255): a move either places a queen or lowers the heap");
  cert.add_options()
    ("out,o", po::value<std::string>(&out), "write the certificate here (without --out nothing is written)")
    ("cutoff", numberOption(&req.cutoff, "--cutoff", 0, 32)->default_value("20"), "certificate cut-off K (0..32): positions with at most K free squares get no stored replies; the checker solves them itself (smaller files, slower checks)")
    ("mirror", po::value<std::string>(&mirror), "the default reply's map (one byte in the certificate for \"answer the last move by its image\"): half-turn (default), files (r,c)->(r,N-1-c), ranks (r,c)->(M-1-r,c), diagonal, antidiagonal, none")
    ("no-mirror", "do not use the default reply in the certificate")
    ("by-mirror-lemma", "certify that the player to move loses by the mirror lemma for --mirror (a symmetry of order 2 under which no free square attacks its own image: answer every move by its image), or with --win-by SQ that SQ wins because the lemma applies after it (a manifest and one shard, OUT.lemma.qcert); no search")
    ("zstd-level", numberOption(&req.zstdLevel, "--zstd-level", 1, 19)->default_value("12"), "zstd compression level of the stored replies (1..19)");
  search.add_options()
    ("tt-mb", numberOption(&req.ttMegabytes, "--tt-mb", 1, 1 << 20), "transposition table (memory of positions already decided) in MiB, 1..1048576 and at most the machine's memory (default: 16 for N <= 10, 64 for N <= 12, else 256; n = 16 wants about 4096)")
    ("near-mb", po::value<std::string>(&near)->default_value("auto"), "of the table, this many MiB hold only positions with at most 60 free squares, almost all of its look-ups, so that they stay within memory this machine reads faster (about 220 ns against 400 ns a random read here): a number below --tt-mb (0: one table for all, the layout of every prover before this option; give 0 to regenerate shards made before it, with --interleave-above 0 for those before 2026-11-25) or auto (half the table, at most 256)")
    ("small", numberOption(&req.search.smallLimit, "--small", 0, 32)->default_value("20"), "the search switches to its exact small solver at positions with at most this many free squares (0..32)")
    ("interleave-above", po::value<std::string>(&interleave)->default_value("auto"), "at positions with more than this many free squares the search tries moves alternately from the most- and the least-forcing end of its order: a number 0..65536 (0: never, the order before 2026-11-25; give 0 to regenerate shards made before then, such as certs/rudd-n18.qcert.units, with --near-mb 0) or auto (half the board's squares + 2: 130 at n = 16)")
    ("plain", "baseline for benchmarks: no symmetry, no enhanced transposition cutoffs, no move ordering, no mirror lemma in the search")
    ("parts", "value the position as a sum of independent parts instead of searching it: each group of free squares that attacks no other group is valued once, by the mex over its options, and the values are XORed (docs/parts.md); with --out the certificate is the table of those values. One thread, no symmetry; --tt-mb, --small and --cutoff do not apply");
  units.add_options()
    ("jobs,j", numberOption(&req.jobs, "--jobs", 1, 1024)->default_value("1"), "threads proving work units, 1..1024 (> 1 implies work units)")
    ("units", po::value<std::string>(&req.unitsDir), "directory for work-unit certificates (implies work units)")
    ("unit", numberOption(&req.select.index, "--unit", 0, kMaxWorkers - 1)->default_value("0"), "with --of: prove only units i with i % of == unit (0..of-1)")
    ("of", numberOption(&req.select.count, "--of", 1, kMaxWorkers)->default_value("1"), "number of independent workers sharing the units (1..1000000)")
    ("split-above", numberOption(&req.splitAboveNodes, "--split-above", 0, 1000000000000000000LL)->default_value("0"), "a unit whose search passes this many nodes is split once more, below the winning move it was trying, into sub-units spread over all workers (0: never)")
    ("deterministic", "prove each unit with an emptied table of --tt-mb (one per thread: --jobs x --tt-mb in all), so proving a unit again with the same --tt-mb gives a byte-identical shard; costs the positions units share");
  winByOption.add_options()
    ("win-by", po::value<std::string>(&winBy), "the position is won by this move: prove the position after it in work units (the manifest claims the win; exit 1 if the move does not win)");
  general.add_options()
    ("quiet,q", "print only the result line")
    ("verbose,v", "after the result, the search's and the certificate's figures in full (table hits, cut-offs, decisions, bytes per decision)")
    ("stats", "after the result, one machine-readable line: STATS key=value ... (for scripts and benchmarks)")
    ("progress-every", numberOption(&req.progressEvery, "--progress-every", 1, 86400), "print a progress line (nodes, rate, memory, units) every this many seconds, also when stderr is not a terminal: for the log of a long run (without it, progress shows only on a terminal)")
    ("help,h", "show this help");
}

// Parses the command line; answers --help, a missing and an unknown
// command. Returns the exit status when the run ends here.
std::optional<int> parseCommandLine(int argc, char** argv, Args& a, const ProverHelp& help) {
  po::options_description opts;
  opts.add(a.game).add(a.heapOption).add(a.cert).add(a.search).add(a.units).add(a.winByOption).add(a.general);
  try {
    storeCommandLine(argc, argv, opts, "command", a.vm);
  } catch (const std::exception& e) {
    std::cerr << "prover: " << e.what() << " (see prover --help)\n";
    return 2;
  }
  const std::string command = a.given("command") ? a.vm["command"].as<std::string>() : "";
  a.command = command;
  if (a.given("help") && (command == "prove" || command == "grundy")) {  // that command's own options only
    po::options_description position("The position");
    position.add(a.game);
    if (command == "prove") position.add(a.heapOption);
    po::options_description shownUnits("Work units (see below)");
    shownUnits.add(a.units);
    if (command == "prove") shownUnits.add(a.winByOption);
    std::cout << (command == "prove" ? kProveUsage : kGrundyUsage) << "\n" << position << "\n" << a.cert << "\n" << a.search << "\n"
              << shownUnits << "\n" << a.general << kUnitsUsage << kProverExit;
    return 0;
  }
  if (a.given("help")) {
    std::cout << help.usage << kProverExit;
    return 0;
  }
  if (argc == 1) {
    std::cerr << help.usage << "\nprover: no command given\n";
    return 2;
  }
  if (command.empty()) {  // options but no command: `prover --n 8`
    std::cerr << "prover: no command before the options: name one of " << help.commands
              << " first, e.g. prover prove --n 8 (see prover --help)\n";
    return 2;
  }
  if (command != "prove" && command != "grundy") {
    std::cerr << "prover: unknown command '" << command << "' (expected " << help.commands << "; see prover --help)\n";
    return 2;
  }
  return std::nullopt;
}

// --tt-mb, --near-mb, --interleave-above and --plain: the table and the search.
void readSearchOptions(Args& a, const Geometry& geo) {
  ProveRequest& req = a.req;
  const std::string &near = a.near, &interleave = a.interleave;
  // Every table page a search touches costs a page fault and zeroing, so
  // small boards get small tables unless told otherwise.
  if (!a.given("tt-mb")) req.ttMegabytes = geo.squares <= 100 ? 16 : geo.squares <= 144 ? 64 : 256;
  if (near == "auto") {
    req.nearMegabytes = std::min<size_t>(256, req.ttMegabytes / 2);
  } else {
    try {
      req.nearMegabytes = size_t(parseNumberOption("--near-mb", near, 0, 1 << 20));
    } catch (const std::invalid_argument&) {
      throw std::invalid_argument("--near-mb must be auto or a number of MiB, got '" + near + "'");
    }
    if (req.nearMegabytes > 0 && req.nearMegabytes >= req.ttMegabytes)
      throw std::invalid_argument("--near-mb " + near + " must be below --tt-mb " + std::to_string(req.ttMegabytes) + " (the near part is carved out of the table)");
  }
  if (interleave != "auto") {
    try {
      req.search.interleaveAbove = int(parseNumberOption("--interleave-above", interleave, 0, 1 << 16));
    } catch (const std::invalid_argument&) {
      throw std::invalid_argument("--interleave-above must be auto or a number between 0 and 65536, got '" + interleave + "'");
    }
  }
  if (a.given("plain")) req.search.symmetry = req.search.etc = req.search.ordering = req.search.mirrorLemma = false;
}

// The position (--queens, --heap, --win-by) and the certificate's path.
void readPosition(Args& a, const Variant& variant, const Geometry& geo) {
  ProveRequest& req = a.req;
  req.n = a.n;
  req.variant = variant;
  req.queens = parseSquareList(geo, a.queens);
  for (int q : req.queens)
    if (geo.isHole[q]) throw std::invalid_argument("--queens: " + geo.squareName(q) + " is a hole");
  if (!a.winBy.empty()) {
    const auto squares = parseSquareList(geo, a.winBy);
    if (squares.size() != 1) throw std::invalid_argument("--win-by takes one square");
    req.winBy = squares[0];
  }
  req.heap = a.heap;
  req.grundy = a.command == "grundy";
  req.out = a.out;
}

// Work units are files tied together by a manifest: refuse before any
// search, naming the option that asked for them. A --unit/--of worker
// with --units DIR writes no manifest; MPI ranks are refused below; the
// mirror lemma's --win-by writes no units.
void requireManifestPath(const Args& a, int ranks) {
  const ProveRequest& req = a.req;
  if (a.given("out") && a.out.empty()) checkOutputFile("--out", a.out);  // an unset variable: say so before what it was for
  if (!a.out.empty() || ranks > 1 || a.given("by-mirror-lemma") || (req.select.count != 1 && !req.unitsDir.empty())) return;
  if (req.select.count > 1)
    throw std::invalid_argument("--unit/--of needs --units DIR (where this worker's units go) or --out FILE");
  if (req.winBy >= 0)
    throw std::invalid_argument("--win-by " + a.winBy + " needs --out FILE: the claim that " + a.winBy +
                                " wins is a manifest over work units (without --win-by, prove alone says who wins)");
  if (req.jobs > 1)
    throw std::invalid_argument("--jobs " + std::to_string(req.jobs) +
                                " proves work units and needs --out FILE for their manifest (without --out, give --jobs 1)");
  if (!req.unitsDir.empty())
    throw std::invalid_argument("--units " + req.unitsDir + " needs --out FILE for the manifest that ties the units together");
}

// --mirror and --no-mirror: the default reply's map. Returns the map as given.
Mirror readMirror(Args& a, const Geometry& geo) {
  ProveRequest& req = a.req;
  const std::string& mirror = a.mirror;
  if (a.given("no-mirror") && a.given("mirror"))
    throw std::invalid_argument("--no-mirror and --mirror " + mirror +
                                " contradict each other: choose one (--mirror none is the same as --no-mirror)");
  const auto mirrorMap = parseMirror(mirror);
  if (!mirrorMap) throw std::invalid_argument("--mirror must be half-turn, files, ranks, diagonal, antidiagonal or none, got '" + mirror + "'");
  req.mirror = *mirrorMap == Mirror::none ? Mirror::halfTurn : *mirrorMap;
  req.mirrorDefault = !a.given("no-mirror") && *mirrorMap != Mirror::none;
  if (req.mirrorDefault && geo.mirrorImage(req.mirror, 0) < 0)
    throw std::invalid_argument(std::string("--mirror ") + mirror + " needs a square board");
  return *mirrorMap;
}

// --split-above, --deterministic and --by-mirror-lemma: what they combine with.
void checkUnitOptions(Args& a, Mirror mirrorMap, int ranks) {
  ProveRequest& req = a.req;
  req.byMirrorLemma = a.given("by-mirror-lemma");
  req.deterministicUnits = a.given("deterministic");
  if (req.splitAboveNodes && !req.sharded() && ranks <= 1)
    throw std::invalid_argument("--split-above applies to work units (--jobs J > 1, --units DIR, --unit/--of or --win-by)");
  if (req.deterministicUnits && !req.sharded() && ranks <= 1)
    throw std::invalid_argument("--deterministic applies to work units (--jobs J > 1, --units DIR, --unit/--of or --win-by)");
  if (req.deterministicUnits && req.jobs > 1) {  // one table per thread: refuse now what cannot fit
    const long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGE_SIZE);
    const uint64_t physicalMiB = pages > 0 && pageSize > 0 ? (uint64_t(pages) * uint64_t(pageSize)) >> 20 : UINT64_MAX;
    if (uint64_t(req.jobs) * req.ttMegabytes > physicalMiB)
      throw std::invalid_argument("--deterministic --jobs " + std::to_string(req.jobs) + " needs " + std::to_string(req.jobs) +
                                  " tables of --tt-mb " + std::to_string(req.ttMegabytes) + " MiB, more than this machine's " +
                                  std::to_string(physicalMiB) + " MiB of memory");
  }
  req.parts = a.given("parts");
  if (req.parts && (req.sharded() || ranks > 1 || req.byMirrorLemma))
    throw std::invalid_argument("--parts writes one table: it takes no --jobs above 1, --units, --unit/--of, --win-by, MPI ranks or --by-mirror-lemma");
  if (req.byMirrorLemma && mirrorMap == Mirror::none) throw std::invalid_argument("--by-mirror-lemma needs a map: --mirror half-turn, files, ranks, diagonal or antidiagonal");
  if (req.byMirrorLemma && (req.jobs > 1 || !req.unitsDir.empty() || req.select.count > 1 || a.heap))
    throw std::invalid_argument("--by-mirror-lemma takes no heap and no work units (but --win-by SQ: that move, then the lemma)");
}

// The request the options describe, and its game's geometry (built once,
// here, for the whole run). Throws std::invalid_argument naming the first
// option that is wrong.
Geometry buildRequest(Args& a, int ranks) {
  ProveRequest& req = a.req;
  const Variant variant = parseVariant(a.board, a.piece, a.holes, a.n, a.given("n"));
  Geometry geo = variantGeometry(variant);
  if (!a.given("n")) a.n = variant.rows == variant.cols ? variant.rows : 0;
  if (a.command == "grundy" && a.heap) throw std::invalid_argument("--heap does not apply to grundy");
  if (a.command == "grundy" && !a.winBy.empty()) throw std::invalid_argument("--win-by applies to prove, not grundy");
  readSearchOptions(a, geo);
  if (req.select.index >= req.select.count)
    throw std::invalid_argument("--unit must be a number between 0 and " + std::to_string(req.select.count - 1) +
                                " (below --of " + std::to_string(req.select.count) + "), got '" +
                                std::to_string(req.select.index) + "'");
  readPosition(a, variant, geo);
  requireManifestPath(a, ranks);
  const Mirror mirrorMap = readMirror(a, geo);
  checkUnitOptions(a, mirrorMap, ranks);
  if (a.given("quiet") && req.progressEvery > 0) throw std::invalid_argument("--quiet and --progress-every contradict each other: choose one");
  for (const char* more : {"verbose", "stats"})
    if (a.given("quiet") && a.given(more))
      throw std::invalid_argument(std::string("--quiet and --") + more + " contradict each other: choose one");
  req.progress = !a.given("quiet") && isatty(STDERR_FILENO);
  return geo;
}

// Under MPI the ranks share the units and rank 0 writes the manifest; then
// every path the run will write is tried before any work. Returns the exit
// status when the run ends here.
std::optional<int> prepareOutputs(Args& a, const Ranks& ranks) {
  ProveRequest& req = a.req;
  const std::string& out = a.out;
  if (ranks.count > 1) {
    if (req.select.count > 1) {
      std::cerr << "prover: --unit/--of and MPI ranks do not combine\n";
      return 2;
    }
    if (out.empty()) {
      std::cerr << "prover: under MPI, --out (the manifest) is required\n";
      return 2;
    }
    req.select = {ranks.rank, ranks.count};
    if (req.unitsDir.empty()) req.unitsDir = out + ".units";  // so rank 0's final pass is a unit run too
  }
  try {
    // Given but empty ("--out $UNSET") is refused, not read as "no --out": a long proof must not vanish.
    if (a.given("out")) checkOutputFile("--out", out);
    if (req.byMirrorLemma && req.winBy >= 0 && !out.empty()) checkOutputFile("the lemma shard", out + ".lemma.qcert");
    if (a.given("units")) checkOutputDirectory("--units", req.unitsDir);
    else if (req.sharded() && !req.byMirrorLemma && !out.empty())  // the lemma's win-by writes one shard, no units
      checkOutputDirectory("the units directory", out + ".units");
  } catch (const std::exception& e) {
    std::cerr << "prover: " << e.what() << "\n";
    return 2;
  }
  return std::nullopt;
}

// The search (under MPI: each rank's share, then rank 0's manifest), its
// failures turned into exit statuses. Returns the exit status when the run
// ends here: an error, or an MPI rank other than 0 done.
std::optional<int> runRequest(ProveRequest& req, const Geometry& geo, const Ranks& ranks, ProveResult& res) {
  try {
    res = prove(geo, req);
    if (ranks.count > 1 && req.splitAboveNodes) {  // every unit is decided: each rank's share of the split units
      ranks.barrier();
      res = prove(geo, req);
    }
    if (ranks.count > 1) {  // every rank has written its units; rank 0 ties them together
      ranks.barrier();
      if (ranks.rank != 0) return 0;
      req.select = {0, 1};
      res = prove(geo, req);
    }
  } catch (const Interrupted& e) {
    std::cerr << "prover: " << e.what() << "\n";
    return 3;
  } catch (const Refuted& e) {  // the claim is false: a verdict, on stdout like RESULT
    std::printf("REFUTED: %s\n", e.what());
    return 1;
  } catch (const std::invalid_argument& e) {
    std::cerr << "prover: " << e.what() << "\n";
    return 2;
  } catch (const ResourceError& e) {
    std::cerr << "prover: not done: " << e.what() << "\n";
    return 2;
  } catch (const std::bad_alloc&) {
    std::cerr << "prover: not done: out of memory\n";
    return 2;
  } catch (const std::filesystem::filesystem_error& e) {
    std::cerr << "prover: " << e.what() << "\n";
    return 2;
  } catch (const std::system_error& e) {  // threads, locks: the machine's limits, not the request
    std::cerr << "prover: not done: " << e.what() << "\n";
    return 2;
  } catch (const std::logic_error& e) {
    std::cerr << "prover: internal error: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {  // I/O past the probes: a full disk, a vanished directory
    std::cerr << "prover: " << e.what() << "\n";
    return 2;
  }
  return std::nullopt;
}

// A worker's units: all won so far (--win-by included), or one found lost.
// Returns the exit status when this worker's report is all there is.
std::optional<int> reportWorker(const ProveRequest& req, const ProveResult& res) {
  const bool unitLost = res.units.losingMove >= 0;
  if (res.sharded && !res.manifestWritten && !unitLost && res.units.undecided > 0) {
    std::printf("UNITS: %zu of %zu units of this worker done (%zu resumed); %zu units of other workers are not "
                "decided yet: run this worker again once they are, for its share of their split units\n",
                res.units.resumed + res.units.proved, res.units.mine, res.units.resumed, res.units.undecided);
    return 3;
  }
  if (res.sharded && !res.manifestWritten && !unitLost) {
    const std::string split = res.units.splitUnits ? std::to_string(res.units.splitUnits) + " units split, " +
                                                         std::to_string(res.units.subUnits) + " of their sub-units this worker's; "
                                                   : "";
    std::printf("UNITS: %zu of %zu units of this worker done (%zu resumed), %zu units in all; %s"
                "run without --unit/--of to write the manifest once all are done\n",
                res.units.resumed + res.units.proved, res.units.mine, res.units.resumed, res.units.units, split.c_str());
    return 0;
  }
  if (res.sharded && unitLost && !res.manifestWritten && req.select.count > 1) {
    std::printf("UNITS: a unit is lost for the player to move there: the position is a win, not a loss; "
                "rerun without --unit/--of to prove that\n");
    return 0;
  }
  return std::nullopt;
}

// The lines after RESULT. By default a plain summary: what was searched,
// the work units, the certificate written; --verbose gives the search's and
// the certificate's figures in full, --stats the machine-readable STATS line.
struct FigureLines {
  bool verbose = false, stats = false;
};

void printPartsFigures(const ProveRequest& req, const ProveResult& res, const std::string& out, FigureLines lines) {
  const double wall = res.searchSeconds + res.emitSeconds;
  std::printf("parts: %llu valued (%llu options looked at) in %.3f s\n", (unsigned long long)res.parts,
              (unsigned long long)res.search.nodes, res.searchSeconds);
  if (!out.empty())
    std::printf("certificate: %s, %llu bytes, a table of %llu %s\n", out.c_str(), (unsigned long long)res.cert.bytes,
                (unsigned long long)res.parts, res.parts == 1 ? "part" : "parts");
  if (lines.stats)
    std::printf("STATS outcome=%s%s parts=%llu nodes=%llu wall_s=%.3f peak_rss_kib=%ld cert_bytes=%llu\n", res.win ? "win" : "loss",
                req.grundy ? (" grundy=" + std::to_string(res.grundy)).c_str() : "", (unsigned long long)res.parts,
                (unsigned long long)res.search.nodes, wall, peakRssKiB(), (unsigned long long)res.cert.bytes);
}

void printFigures(const ProveRequest& req, const ProveResult& res, const std::string& out, FigureLines lines) {
  if (req.parts) return printPartsFigures(req, res, out, lines);
  const double wall = res.searchSeconds + res.emitSeconds;
  if (lines.verbose)
    std::printf("search: %llu nodes (%llu above the small solver) in %.3f s (%.3g nodes/s), %llu TT hits, %llu ETC cutoffs, TT %zu MiB%s\n",
                (unsigned long long)res.search.nodes, (unsigned long long)(res.search.nodes - res.search.smallNodes),
                res.searchSeconds,
                res.search.nodes / std::max(res.searchSeconds, 1e-9), (unsigned long long)res.search.ttHits,
                (unsigned long long)res.search.etcCutoffs, res.ttBytes >> 20,
                res.ttNearBytes ? (" (" + std::to_string(res.ttNearBytes >> 20) + " MiB of it near)").c_str() : "");
  else
    std::printf("search: %llu positions visited in %.3f s\n", (unsigned long long)res.search.nodes, res.searchSeconds);
  if (res.sharded)
    std::printf("units: %zu (%zu resumed, %zu proved now%s) in %s, manifest %s\n", res.units.units,
                res.units.resumed, res.units.proved,
                res.units.splitUnits ? (", " + std::to_string(res.units.splitUnits) + " split into " +
                                        std::to_string(res.units.subUnits) + " sub-units")
                                           .c_str()
                                     : "",
                (req.unitsDir.empty() ? out + ".units" : req.unitsDir).c_str(), out.c_str());
  // A manifest's bytes and decisions are its shards', those of units an
  // earlier run finished included (what the checker reads); how they
  // split into default replies and loser positions only this run's
  // emission knows.
  const std::string manifestWords =
      res.manifestWritten && res.shards.files
          ? " in " + std::to_string(res.shards.files) + (res.shards.files == 1 ? " shard" : " shards") + " and the manifest"
          : "";
  if (!out.empty() && lines.verbose)
    std::printf("certificate: %s, %llu bytes, %llu winner decisions%s (%s%llu by default reply, %llu loser positions), "
                "%.2f bytes/decision, cutoff %d, written in %.3f s\n",
                out.c_str(), (unsigned long long)res.cert.bytes, (unsigned long long)res.cert.tokens, manifestWords.c_str(),
                manifestWords.empty() ? "" : "of those proved in this run: ",
                (unsigned long long)res.emit.defaultReplies, (unsigned long long)res.emit.lossNodes,
                res.cert.tokens ? double(res.cert.bytes) / res.cert.tokens : 0.0, req.cutoff, res.emitSeconds);
  else if (!out.empty())
    std::printf("certificate: %s, %llu bytes%s, written in %.3f s\n", out.c_str(), (unsigned long long)res.cert.bytes,
                manifestWords.c_str(), res.emitSeconds);
  if (!lines.stats) return;
  // grundy= only where a Grundy value was found: a won position's value is
  // some g > 0 that `prove` does not compute (n = 8: a win, G = 3).
  const std::string grundyField = req.grundy ? " grundy=" + std::to_string(res.grundy) : "";
  std::printf("STATS outcome=%s%s nodes=%llu wall_s=%.3f search_s=%.3f emit_s=%.3f peak_rss_kib=%ld cert_bytes=%llu decisions=%llu\n",
              res.win ? "win" : "loss", grundyField.c_str(), (unsigned long long)res.search.nodes, wall, res.searchSeconds,
              res.emitSeconds, peakRssKiB(), (unsigned long long)res.cert.bytes,
              (unsigned long long)res.cert.tokens);
}

}  // namespace

int runProve(int argc, char** argv, const ProverHelp& help, const Ranks& ranks) {
  Args a;
  defineOptions(a);
  if (const std::optional<int> done = parseCommandLine(argc, argv, a, help)) return *done;
  Geometry geo;
  try {
    geo = buildRequest(a, ranks.count);
  } catch (const std::exception& e) {
    std::cerr << "prover: " << e.what() << "\n";
    return 2;
  }
  ProveRequest& req = a.req;
  std::signal(SIGINT, onSignal);
  std::signal(SIGTERM, onSignal);
  req.stop = &gStop;
  if (const std::optional<int> done = prepareOutputs(a, ranks)) return *done;
  ProveResult res;
  if (const std::optional<int> done = runRequest(req, geo, ranks, res)) return *done;
  if (const std::optional<int> done = reportWorker(req, res)) return *done;
  std::string example;
  try {
    if (res.win && !req.grundy) example = winningMoveWords(geo, req, res);
  } catch (const std::exception& e) {  // only the example is missing: the result stands
    example = " (no winning move named: " + std::string(e.what()) + ")";
  }
  std::printf("RESULT: %s%s\n", describeClaim(geo, req, res).c_str(), example.c_str());
  if (!a.given("quiet")) printFigures(req, res, a.out, FigureLines{a.given("verbose") > 0, a.given("stats") > 0});
  return 0;
}

}  // namespace qcert
