// prover: untrusted, fast search that writes certificates for the checker.
#define OMPI_SKIP_MPICXX 1  // the C API only
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>

#include <boost/program_options.hpp>
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <system_error>

#include "prover/count/count_cli.hpp"
#include "prover/game/prove.hpp"
#include "prover/memory.hpp"
#include "prover/mod2/mod2.hpp"
#include "prover/options.hpp"
#include "prover/output_file.hpp"
#include "prover/partizan/partizan.hpp"
#include "version/version.hpp"

namespace po = boost::program_options;
using namespace qcert;

namespace {

std::atomic<bool> gStop{false};
constexpr int kMaxWorkers = 1000000;  // --of: far past any batch array
extern "C" void onSignal(int) { gStop.store(true); }

// Every command main() and runProver() dispatch, for "unknown command".
const char* kCommands = "prove, grundy, count, table-check, mod2 or partizan";

const char* kUsage = R"(prover: proves claims about the queens game and writes certificates for `checker`.

The game: two players take turns placing a queen on a square of the n x n
board that no queen already on the board attacks (along a row, a column or a
diagonal); the player who cannot place one loses. Other pieces and boards
(--piece, --board, --holes) keep these rules.

Usage:
  prover prove  --n N [--queens LIST] [--heap H] [--out FILE] [options]  (prover prove --help)
  prover grundy --n N [--queens LIST] [--out FILE] [options]             (prover grundy --help)
  prover count --problem P --n N [--out FILE] [options]   (prover count --help)
  prover table-check 'STATEMENT'                          (prover table-check --help)
  prover mod2 ACTION --n N [options]                      (prover mod2 --help)
  prover partizan --n N [--piece P] [--rule R] [options]  (prover partizan --help)
  prover --version                                        (version, commit, build type)

  prove   decides whether the player to move wins (after the queens in LIST,
          with a Nim heap of H added) and names a winning move; with --out it
          writes a certificate the checker verifies (without --out, nothing
          is written).
  grundy  finds the Grundy value g of the position (the least heap g such
          that position + heap g is a loss) and certifies that loss, which
          proves G = g.
  count   counts solutions of queens problems (n-queens, n+k queens with
          holes, torus, end positions of the game, seed 001's HP-71B
          program) and writes a count certificate.
  table-check  checks a published count against rules every count obeys.
  mod2    the mod-2 queens game of seed 003: plays, structure facts, counts
          of legal positions, outcomes and Grundy values (docs/mod2-game.md).
  partizan  the partizan placing game of seed 004 (Left and Right each place
          their own pieces on squares no opposing piece attacks): outcomes,
          outcome classes, certificates (docs/partizan-game.md).

Squares are algebraic: file letter = column, rank = row + 1; a1 is the
papers' 0-based (row, column) = (0,0), b1 = (0,1), a2 = (1,0).
LIST is comma-separated, e.g. --queens e5,a1. 1 <= N <= 22.
A free square is an empty square no queen attacks: where the next queen may go.
)";

// prove and grundy: what each is, then only its options (runProver).
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

std::vector<int> parseSquares(const std::string& list, const Geometry& geo) { return parseSquareList(geo, list); }

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
  const Geometry plain = variantGeometry(v);
  v.holes = parseSquares(holes, plain);
  std::sort(v.holes.begin(), v.holes.end());
  for (size_t i = 1; i < v.holes.size(); ++i)
    if (v.holes[i] == v.holes[i - 1]) throw std::invalid_argument("--holes names " + plain.squareName(v.holes[i]) + " twice");
  return v;
}

// ", e.g. by d4": a winning move of a won root, for the RESULT line. From
// --win-by, the unit found lost, the search (without --out) or the
// certificate's first decision (the root's, when the root has more free
// squares than the cut-off); otherwise, when the search was quick, each move
// is tried with a search of its own.
std::string winningMoveWords(const ProveRequest& req, const ProveResult& res) {
  const Geometry geo = variantGeometry(requestVariant(req));
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
    if (!prove(child).win) return ", e.g. by " + geo.squareName(v);
  }
  for (uint32_t h = 0; h < req.heap; ++h) {
    child.queens = req.queens;
    child.heap = h;
    if (!prove(child).win) return heapWords(h);
  }
  return "";
}

}  // namespace

int runProver(int argc, char** argv, int rank, int ranks) {
  int n = 0;
  std::string queens, out, winBy, board = "square", piece = "queen", holes, mirror = "half-turn", interleave, near;
  uint32_t heap = 0;
  ProveRequest req;
  // Option groups: `prover prove --help` and `prover grundy --help` show only
  // their own; every group is parsed for both, so a misplaced option gets its
  // own error ("--heap does not apply to grundy").
  po::options_description game, heapOption, cert("The certificate"), search("The search"),
      units, winByOption, general("Other");
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
    ("plain", "baseline for benchmarks: no symmetry, no enhanced transposition cutoffs, no move ordering, no mirror lemma in the search");
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
    ("progress-every", numberOption(&req.progressEvery, "--progress-every", 1, 86400), "print a progress line (nodes, rate, memory, units) every this many seconds, also when stderr is not a terminal: for the log of a long run (without it, progress shows only on a terminal)")
    ("help,h", "show this help");
  po::options_description opts;
  opts.add(game).add(heapOption).add(cert).add(search).add(units).add(winByOption).add(general);
  po::options_description hidden;
  hidden.add_options()("command", po::value<std::string>(), "");
  po::options_description all;
  all.add(opts).add(hidden);
  po::positional_options_description pos;
  pos.add("command", 1);
  po::variables_map vm;
  try {
    refuseOptionPlaceholders(argc, argv);
    po::store(po::command_line_parser(argc, argv).options(all).positional(pos).run(), vm);
    po::notify(vm);
  } catch (const std::exception& e) {
    std::cerr << "prover: " << e.what() << " (see prover --help)\n";
    return 2;
  }
  const std::string command = vm.count("command") ? vm["command"].as<std::string>() : "";
  if (vm.count("help") && (command == "prove" || command == "grundy")) {  // that command's own options only
    po::options_description position("The position");
    position.add(game);
    if (command == "prove") position.add(heapOption);
    po::options_description shownUnits("Work units (see below)");
    shownUnits.add(units);
    if (command == "prove") shownUnits.add(winByOption);
    std::cout << (command == "prove" ? kProveUsage : kGrundyUsage) << "\n" << position << "\n" << cert << "\n" << search << "\n"
              << shownUnits << "\n" << general << kUnitsUsage << kProverExit;
    return 0;
  }
  if (vm.count("help")) {
    std::cout << kUsage << kProverExit;
    return 0;
  }
  if (argc == 1) {
    std::cerr << kUsage << "\nprover: no command given\n";
    return 2;
  }
  if (command != "prove" && command != "grundy") {
    std::cerr << "prover: unknown command '" << command << "' (expected " << kCommands << "; see prover --help)\n";
    return 2;
  }
  try {
    const Variant variant = parseVariant(board, piece, holes, n, vm.count("n") > 0);
    const Geometry geo = variantGeometry(variant);
    if (!vm.count("n")) n = variant.rows == variant.cols ? variant.rows : 0;
    if (command == "grundy" && heap) throw std::invalid_argument("--heap does not apply to grundy");
    if (command == "grundy" && !winBy.empty()) throw std::invalid_argument("--win-by applies to prove, not grundy");
    // Every table page a search touches costs a page fault and zeroing, so
    // small boards get small tables unless told otherwise.
    if (!vm.count("tt-mb")) req.ttMegabytes = geo.squares <= 100 ? 16 : geo.squares <= 144 ? 64 : 256;
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
    if (vm.count("plain")) req.search.symmetry = req.search.etc = req.search.ordering = req.search.mirrorLemma = false;
    if (req.select.index >= req.select.count)
      throw std::invalid_argument("--unit must be a number between 0 and " + std::to_string(req.select.count - 1) +
                                  " (below --of " + std::to_string(req.select.count) + "), got '" +
                                  std::to_string(req.select.index) + "'");
    req.n = n;
    req.variant = variant;
    req.queens = parseSquares(queens, geo);
    for (int q : req.queens)
      if (geo.isHole[q]) throw std::invalid_argument("--queens: " + geo.squareName(q) + " is a hole");
    if (!winBy.empty()) {
      const auto squares = parseSquares(winBy, geo);
      if (squares.size() != 1) throw std::invalid_argument("--win-by takes one square");
      req.winBy = squares[0];
    }
    req.heap = heap;
    req.grundy = command == "grundy";
    req.out = out;
    // Work units are files tied together by a manifest: refuse before any
    // search, naming the option that asked for them. A --unit/--of worker
    // with --units DIR writes no manifest; MPI ranks are refused below; the
    // mirror lemma's --win-by writes no units.
    if (vm.count("out") && out.empty()) checkOutputFile("--out", out);  // an unset variable: say so before what it was for
    if (out.empty() && ranks <= 1 && !vm.count("by-mirror-lemma") && (req.select.count == 1 || req.unitsDir.empty())) {
      if (req.select.count > 1)
        throw std::invalid_argument("--unit/--of needs --units DIR (where this worker's units go) or --out FILE");
      if (req.winBy >= 0)
        throw std::invalid_argument("--win-by " + winBy + " needs --out FILE: the claim that " + winBy +
                                    " wins is a manifest over work units (without --win-by, prove alone says who wins)");
      if (req.jobs > 1)
        throw std::invalid_argument("--jobs " + std::to_string(req.jobs) +
                                    " proves work units and needs --out FILE for their manifest (without --out, give --jobs 1)");
      if (!req.unitsDir.empty())
        throw std::invalid_argument("--units " + req.unitsDir + " needs --out FILE for the manifest that ties the units together");
    }
    if (vm.count("no-mirror") && vm.count("mirror"))
      throw std::invalid_argument("--no-mirror and --mirror " + mirror +
                                  " contradict each other: choose one (--mirror none is the same as --no-mirror)");
    const auto mirrorMap = parseMirror(mirror);
    if (!mirrorMap) throw std::invalid_argument("--mirror must be half-turn, files, ranks, diagonal, antidiagonal or none, got '" + mirror + "'");
    req.mirror = *mirrorMap == Mirror::none ? Mirror::halfTurn : *mirrorMap;
    req.mirrorDefault = !vm.count("no-mirror") && *mirrorMap != Mirror::none;
    if (req.mirrorDefault && geo.mirrorImage(req.mirror, 0) < 0)
      throw std::invalid_argument(std::string("--mirror ") + mirror + " needs a square board");
    req.byMirrorLemma = vm.count("by-mirror-lemma") > 0;
    req.deterministicUnits = vm.count("deterministic") > 0;
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
    if (req.byMirrorLemma && *mirrorMap == Mirror::none) throw std::invalid_argument("--by-mirror-lemma needs a map: --mirror half-turn, files, ranks, diagonal or antidiagonal");
    if (req.byMirrorLemma && (req.jobs > 1 || !req.unitsDir.empty() || req.select.count > 1 || heap))
      throw std::invalid_argument("--by-mirror-lemma takes no heap and no work units (but --win-by SQ: that move, then the lemma)");
    if (vm.count("quiet") && req.progressEvery > 0) throw std::invalid_argument("--quiet and --progress-every contradict each other: choose one");
    req.progress = !vm.count("quiet") && isatty(STDERR_FILENO);
  } catch (const std::exception& e) {
    std::cerr << "prover: " << e.what() << "\n";
    return 2;
  }
  std::signal(SIGINT, onSignal);
  std::signal(SIGTERM, onSignal);
  req.stop = &gStop;
  if (ranks > 1) {
    if (req.select.count > 1) {
      std::cerr << "prover: --unit/--of and MPI ranks do not combine\n";
      return 2;
    }
    if (out.empty()) {
      std::cerr << "prover: under MPI, --out (the manifest) is required\n";
      return 2;
    }
    req.select = {rank, ranks};
    if (req.unitsDir.empty()) req.unitsDir = out + ".units";  // so rank 0's final pass is a unit run too
  }
  try {
    // Given but empty ("--out $UNSET") is refused, not read as "no --out": a long proof must not vanish.
    if (vm.count("out")) checkOutputFile("--out", out);
    if (req.byMirrorLemma && req.winBy >= 0 && !out.empty()) checkOutputFile("the lemma shard", out + ".lemma.qcert");
    if (vm.count("units")) checkOutputDirectory("--units", req.unitsDir);
    else if (req.sharded() && !req.byMirrorLemma && !out.empty())  // the lemma's win-by writes one shard, no units
      checkOutputDirectory("the units directory", out + ".units");
  } catch (const std::exception& e) {
    std::cerr << "prover: " << e.what() << "\n";
    return 2;
  }
  ProveResult res;
  try {
    res = prove(req);
    if (ranks > 1 && req.splitAboveNodes) {  // every unit is decided: each rank's share of the split units
      MPI_Barrier(MPI_COMM_WORLD);
      res = prove(req);
    }
    if (ranks > 1) {  // every rank has written its units; rank 0 ties them together
      MPI_Barrier(MPI_COMM_WORLD);
      if (rank != 0) return 0;
      req.select = {0, 1};
      res = prove(req);
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
  // A worker's units: all won so far (--win-by included), or one found lost.
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
  std::string example;
  try {
    if (res.win && !req.grundy) example = winningMoveWords(req, res);
  } catch (const std::exception& e) {  // only the example is missing: the result stands
    example = " (no winning move named: " + std::string(e.what()) + ")";
  }
  std::printf("RESULT: %s%s\n", describeClaim(req, res).c_str(), example.c_str());
  if (!vm.count("quiet")) {
    const double wall = res.searchSeconds + res.emitSeconds;
    std::printf("search: %llu nodes (%llu above the small solver) in %.3f s (%.3g nodes/s), %llu TT hits, %llu ETC cutoffs, TT %zu MiB%s\n",
                (unsigned long long)res.search.nodes, (unsigned long long)(res.search.nodes - res.search.smallNodes),
                res.searchSeconds,
                res.search.nodes / std::max(res.searchSeconds, 1e-9), (unsigned long long)res.search.ttHits,
                (unsigned long long)res.search.etcCutoffs, res.ttBytes >> 20,
                res.ttNearBytes ? (" (" + std::to_string(res.ttNearBytes >> 20) + " MiB of it near)").c_str() : "");
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
    if (!out.empty())
      std::printf("certificate: %s, %llu bytes, %llu winner decisions%s (%s%llu by default reply, %llu loser positions), "
                  "%.2f bytes/decision, cutoff %d, written in %.3f s\n",
                  out.c_str(), (unsigned long long)res.cert.bytes, (unsigned long long)res.cert.tokens, manifestWords.c_str(),
                  manifestWords.empty() ? "" : "of those proved in this run: ",
                  (unsigned long long)res.emit.defaultReplies, (unsigned long long)res.emit.lossNodes,
                  res.cert.tokens ? double(res.cert.bytes) / res.cert.tokens : 0.0, req.cutoff, res.emitSeconds);
    // grundy= only where a Grundy value was found: a won position's value is
    // some g > 0 that `prove` does not compute (n = 8: a win, G = 3).
    const std::string grundyField = req.grundy ? " grundy=" + std::to_string(res.grundy) : "";
    std::printf("STATS outcome=%s%s nodes=%llu wall_s=%.3f search_s=%.3f emit_s=%.3f peak_rss_kib=%ld cert_bytes=%llu decisions=%llu\n",
                res.win ? "win" : "loss", grundyField.c_str(), (unsigned long long)res.search.nodes, wall, res.searchSeconds,
                res.emitSeconds, peakRssKiB(), (unsigned long long)res.cert.bytes,
                (unsigned long long)res.cert.tokens);
  }
  return 0;
}

// Under mpirun (detected from the launcher's environment) the ranks share the
// work units; otherwise MPI is never initialised.
int main(int argc, char** argv) try {
  if (argc > 1 && std::strcmp(argv[1], "--version") == 0) {
    if (argc > 2) {
      std::fprintf(stderr, "prover: --version takes nothing else, got '%s'\n", argv[2]);
      return 2;
    }
    std::printf("%s\n", versionLine("prover").c_str());
    return 0;
  }
  if (argc > 1 && std::strcmp(argv[1], "count") == 0) return runCount(argc - 1, argv + 1);
  if (argc > 1 && std::strcmp(argv[1], "table-check") == 0) return runTableCheck(argc - 1, argv + 1);
  if (argc > 1 && std::strcmp(argv[1], "mod2") == 0) return mod2::runMod2(argc - 1, argv + 1);
  if (argc > 1 && std::strcmp(argv[1], "partizan") == 0) return partizan::runPartizan(argc - 1, argv + 1);
  const bool underMpi = std::getenv("OMPI_COMM_WORLD_SIZE") || std::getenv("PMIX_RANK") || std::getenv("PMI_SIZE");
  if (!underMpi) return runProver(argc, argv, 0, 1);
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const int code = runProver(argc, argv, rank, ranks);
  if (code != 0 && ranks > 1) MPI_Abort(MPI_COMM_WORLD, code);  // the barrier would wait for it forever
  MPI_Finalize();
  return code;
} catch (const std::bad_alloc&) {  // the commands catch their own; this is what escapes them
  std::fprintf(stderr, "prover: not done: out of memory\n");
  return 2;
} catch (const std::exception& e) {
  std::fprintf(stderr, "prover: internal error: %s\n", e.what());
  return 2;
}
