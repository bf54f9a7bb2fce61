// `prover mod2 ACTION`: the mod-2 queens game of Brown and Ladha (docs/mod2-game.md).
#include <unistd.h>

#include <boost/program_options.hpp>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <new>
#include <numeric>
#include <optional>

#include "prover/memory.hpp"
#include "prover/mod2/mod2.hpp"
#include "prover/options.hpp"
#include "prover/output_file.hpp"

namespace po = boost::program_options;

namespace qcert::mod2 {
namespace {

const char* kUsage = R"(prover mod2: the mod-2 queens game of Brown and Ladha, certificates for `checker`.

Usage:
  prover mod2 play --n N (--construction C | --moves LIST) [--out FILE]
  prover mod2 structure --n N --fact no-complete|at-most-all-but-two [--out FILE]
  prover mod2 count --n N [--out FILE]            legal positions, by queens and up to symmetry (n <= 6;
                                                  n = 6: 8 GiB of memory, a few minutes)
  prover mod2 most --n N [--out FILE]             the most queens in a legal position (n <= 6)
  prover mod2 outcome --n N [--out FILE]          who wins from the empty board, by a pass over every set
                                                  (n <= 6; n = 6: 8 GiB, a few minutes)
  prover mod2 outcome --n N --rule alternate --moves SQUARE [--out FILE]
                                                  the same for the alternate-universe game started with
                                                  a queen on SQUARE
  prover mod2 fewest-locking --n N [--out FILE]   the fewest queens in a locked legal position (n <= 8)
  prover mod2 complement-map --n N [--out FILE]   Lemma 3's complement map is an isomorphism (n <= 4)
  prover mod2 plays --n N [--out FILE]            distinct plays from the empty board to the end (n <= 5)
  prover mod2 count-prefix --n N --squares B      legal positions using squares 0..B-1 only (n <= 6; a
                                                  measurement, no certificate: docs/mod2-game.md, n = 6)
  prover mod2 prove --n N [--rule R] [--moves LIST] [--heap H] [--out FILE]
  prover mod2 grundy --n N [--rule R] [--moves LIST] [--out FILE] [--table]

Rules (docs/mod2-game.md): a square is attacked by every queen on its row,
column and diagonals (nothing blocks). standard: place a queen on an empty
square attacked by an even number of queens, from the empty board.
alternate: place on a square attacked by an odd number; --moves names the
given first queen, then the moves. complementary: from the full board,
remove a queen attacked by an even number; --moves lists the removals.

play constructions (standard rule):
  brown-ladha-3.1   Claim 3.1's order, odd n: fills the board
  brown-ladha-4.1   Claim 4.1's order, odd n: locks it with 2n-1 queens
  brown-ladha-4.2   Claim 4.2's position, even n > 2, stage by stage: 2n-3 queens
  all-but-two       qcert's even-n construction (Claim 3.3): n*n-2 queens, locked
  fewest-locking    a locked legal position with the fewest queens (n <= 8)
The prover replays every play itself and writes its true end: complete,
locked, the number of queens, or (named orders only) the first illegal move.
An illegal --moves list is an error naming the move, unless --allow-illegal.

prove decides whether the player to move wins (position plus a Nim heap of
H); grundy finds the Grundy value g and certifies "position + heap g is a
loss". Squares are algebraic: file letter = column, rank = row + 1; the
paper's (i, j) is the square in column j, rank i (its (2,3) is c2).

Exit status: 0 done (and written); 1 a claim is false (a fact the prover
evaluates does not hold); 2 nothing decided: bad arguments, an illegal move,
an --out path that cannot be written (tried before any work), out of memory,
a certificate past the checker's limits (one line "prover mod2: ..." on
stderr); 3 interrupted by SIGINT/SIGTERM (nothing is kept).
)";

char gTmp[4096];
extern "C" void onMod2Signal(int) {
  if (gTmp[0]) unlink(gTmp);
  static const char msg[] = "prover mod2: interrupted; nothing is kept\n";
  [[maybe_unused]] const ssize_t w = write(STDERR_FILENO, msg, sizeof msg - 1);
  _exit(3);
}

struct Failure {  // the prover's own evaluation refutes the fact: exit 1
  std::string why;
};

std::string joined(const std::vector<uint64_t>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s;
}

void requireRange(int n, int lo, int hi, const std::string& action) {
  if (n < lo || n > hi)
    throw std::invalid_argument(action + ": --n must be between " + std::to_string(lo) + " and " + std::to_string(hi) +
                                ", got " + std::to_string(n));
}

void requireStandard(Rule r, const std::string& action) {
  if (r != Rule::standard) throw std::invalid_argument(action + " is about the standard rule (no --rule " + ruleName(r) + ")");
}

// What the command line asked for.
struct Args {
  int n = 0;
  uint32_t heap = 0, squares = 0;
  std::string action, ruleText = "standard", out, construction, movesText, fact;
  Rule rule = Rule::standard;
  po::variables_map vm;
  bool given(const char* option) const { return vm.count(option) > 0; }
};

// One action's run: the certificate it states, the action's fields of the
// STATS line, and the clock and progress display they share.
struct Run {
  explicit Run(const Args& args) : a(args) {}
  const Args& a;
  Mod2Spec spec;
  std::string producer;
  std::string stats;  // action-specific fields of the STATS line
  bool showProgress = false;
  std::chrono::steady_clock::time_point t0 = std::chrono::steady_clock::now();
  double seconds() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); }
  Progress progress() const {
    return [this](double f) {
      if (showProgress) std::fprintf(stderr, "\r  %.1f%%, %.1f s ", 100 * f, seconds());
    };
  }
  void endProgress() const {
    if (showProgress) std::fprintf(stderr, "\r%40s\r", "");
  }
  // fewestLocking, with its own progress words.
  FewestLocking fewestLocking() const {
    const FewestLocking f = mod2::fewestLocking(a.n, [this](double f) {
      if (showProgress) std::fprintf(stderr, "\r  %.0f%% of the current size, %.1f s ", 100 * f, seconds());
    });
    endProgress();
    if (!f.found)
      throw Failure{"no legal position of the " + std::to_string(a.n) + "x" + std::to_string(a.n) + " board is locked"};
    return f;
  }
};

// ---- each action: its checks before any work, then its work ---------------
// prepare refuses what it can without work (before --out is probed); run
// fills the spec and the STATS fields, or prints its own result and returns
// the exit status (the baselines and count-prefix write no certificate).

void preparePlay(const Args& a, const std::vector<int>& moves, Run& run) {
  const int n = a.n;
  requireStandard(a.rule, "play");
  if (a.given("construction") == a.given("moves")) throw std::invalid_argument("play takes one of --construction and --moves");
  if (a.given("moves")) {
    run.spec.moves = moves;
    const PlayOutcome p = replayStandard(n, moves);
    if (p.end == End::illegalAt && !a.given("allow-illegal"))
      throw std::invalid_argument("move " + std::to_string(p.failedMove) + ", " + squareName(n, p.failedSquare) + ", " + p.why);
    run.producer += " --moves " + a.movesText;
    return;
  }
  const std::string& c = a.construction;
  if (c == "brown-ladha-3.1" || c == "brown-ladha-4.1") {
    run.spec.sequence = c == "brown-ladha-3.1" ? Sequence::brownLadhaComplete : Sequence::brownLadhaLocked;
    if (n % 2 == 0) throw std::invalid_argument(c + " is for odd n, got n = " + std::to_string(n));
  } else if (c == "brown-ladha-4.2") {
    run.spec.moves = brownLadhaEvenLockedOrder(n);
  } else if (c == "all-but-two") {
    run.spec.moves = allButTwoOrder(n);
  } else if (c == "fewest-locking") {
    requireRange(n, 1, kMaxSmallBoard, "play --construction fewest-locking");
  } else {
    throw std::invalid_argument("unknown --construction '" + c + "'");
  }
  run.producer += " --construction " + c;
}

std::optional<int> runPlay(const Args& a, Run& run) {
  const int n = a.n;
  Mod2Spec& spec = run.spec;
  spec.kind = Mod2Spec::Kind::play;
  if (a.construction == "fewest-locking") spec.moves = run.fewestLocking().order;
  std::vector<int> order = spec.moves;
  if (spec.sequence == Sequence::brownLadhaComplete) order = brownLadhaCompleteOrder(n);
  if (spec.sequence == Sequence::brownLadhaLocked) order = brownLadhaLockedOrder(n);
  const PlayOutcome p = replayStandard(n, order);
  spec.end = p.end;
  if (p.end == End::queens) spec.count = uint32_t(p.queens);
  if (p.end == End::illegalAt) {
    spec.count = uint32_t(p.failedMove);
    std::printf("NOTE: move %d of %zu, %s (the paper's (%d,%d)), %s: the order as written is not a legal play\n",
                p.failedMove, order.size(), squareName(n, p.failedSquare).c_str(), p.failedSquare / n + 1,
                p.failedSquare % n + 1, p.why.c_str());
  }
  run.stats = "moves=" + std::to_string(order.size()) + " queens=" + std::to_string(p.queens) + " end=" +
              (p.end == End::complete ? "complete" : p.end == End::locked ? "locked" : p.end == End::queens ? "queens" : "illegalAt");
  return std::nullopt;
}

void prepareStructure(const Args& a, const std::vector<int>&, Run& run) {
  const int n = a.n;
  requireStandard(a.rule, "structure");
  if (a.fact != "no-complete" && a.fact != "at-most-all-but-two")
    throw std::invalid_argument(a.fact.empty() ? "structure needs --fact no-complete or --fact at-most-all-but-two"
                                               : "unknown --fact '" + a.fact + "'");
  if (n % 2)
    throw std::invalid_argument("structure facts are about even n; on the " + std::to_string(n) + "x" + std::to_string(n) +
                                " board (odd) the board can be filled (Claim 3.1: prover mod2 play --construction brown-ladha-3.1)");
  run.producer += " --fact " + a.fact;
}

std::optional<int> runStructure(const Args& a, Run& run) {
  run.spec.kind = Mod2Spec::Kind::structure;
  run.spec.atMostAllButTwo = a.fact == "at-most-all-but-two";
  const StructureFacts f = structureFacts(a.n);
  if (!f.everyDegOdd) throw Failure{"some square's degree is even"};
  if (run.spec.atMostAllButTwo && f.pairsFull % 2) throw Failure{"pairs(full) = " + std::to_string(f.pairsFull) + " is odd"};
  run.stats = "pairs_full=" + std::to_string(f.pairsFull) + " every_deg_odd=1";
  return std::nullopt;
}

// count and most: one pass over every mask.
void prepareLegalCount(const Args& a, const std::vector<int>&, Run&) {
  requireStandard(a.rule, a.action);
  requireRange(a.n, 1, a.given("baseline") ? kMaxDenseBoard : kMaxWordBoard, a.action);
}

std::optional<int> runLegalCount(const Args& a, Run& run) {
  const int n = a.n;
  Mod2Spec& spec = run.spec;
  spec.kind = Mod2Spec::Kind::exhaustive;
  if (a.given("baseline")) {
    const LegalCount c = countLegalBaseline(n);
    const double workSeconds = run.seconds();
    std::printf("BASELINE: the mod-2 game on the %dx%d board has %llu legal positions; the most queens is %d\n", n, n,
                (unsigned long long)c.legal, c.mostQueens);
    std::printf("STATS action=%s-baseline n=%d legal=%llu masks=%llu totals=%s most=%d work_s=%.3f wall_s=%.3f peak_rss_kib=%ld\n",
                a.action.c_str(), n, (unsigned long long)c.legal, (unsigned long long)c.masks, joined(c.totals).c_str(),
                c.mostQueens, workSeconds, run.seconds(), peakRssKiB());
    return 0;
  }
  const LegalCount c = countLegalWords(n, run.progress());
  run.endProgress();
  if (a.action == "count") {
    spec.exhaustive = Mod2Spec::Exhaustive::legalCount;
    spec.totals = c.totals;
    spec.classes = c.classes;
  } else {
    spec.exhaustive = Mod2Spec::Exhaustive::mostQueens;
    spec.count = uint32_t(c.mostQueens);
  }
  run.stats = "legal=" + std::to_string(c.legal) + " masks=" + std::to_string(c.masks) + " totals=" + joined(c.totals) +
              " classes=" + joined(c.classes) + " most=" + std::to_string(c.mostQueens);
  return std::nullopt;
}

// A measurement for docs, not a certificate.
void prepareCountPrefix(const Args& a, const std::vector<int>&, Run&) {
  requireStandard(a.rule, a.action);
  requireRange(a.n, 1, 6, a.action);
  if (a.given("out")) throw std::invalid_argument("count-prefix writes no certificate (a measurement only)");
  if (a.squares < 1 || a.squares > uint32_t(a.n * a.n)) throw std::invalid_argument("count-prefix needs --squares B, 1..n*n");
}

std::optional<int> runCountPrefix(const Args& a, Run& run) {
  const int n = a.n;
  const LegalCount c = countLegalPrefix(n, int(a.squares), run.progress());
  run.endProgress();
  std::printf("PREFIX: %llu legal positions of the %dx%d board have their queens on squares 0..%u (of %llu sets); by queens: %s; %.3f s, peak RSS %ld KiB\n",
              (unsigned long long)c.legal, n, n, a.squares - 1, (unsigned long long)c.masks, joined(c.totals).c_str(),
              run.seconds(), peakRssKiB());
  if (a.squares == uint32_t(n * n))  // the whole board: classes too
    std::printf("CLASSES: %llu up to symmetry; by queens: %s\n",
                (unsigned long long)std::accumulate(c.classes.begin(), c.classes.end(), uint64_t{0}), joined(c.classes).c_str());
  return 0;
}

// The standard game from the empty board, or the alternate-universe game
// from its given queen (--moves names that one square, nothing more).
void prepareOutcome(const Args& a, const std::vector<int>& moves, Run& run) {
  requireRange(a.n, 1, kMaxWordBoard, a.action);
  if (a.rule == Rule::complementary) throw std::invalid_argument("outcome is about the standard or the alternate rule (no --rule complementary)");
  if (a.rule == Rule::standard && !moves.empty()) throw std::invalid_argument("outcome with the standard rule is about the empty board (no --moves)");
  if (a.rule == Rule::alternate && moves.size() != 1)
    throw std::invalid_argument("outcome --rule alternate needs --moves naming the given queen's square, one square");
  run.spec.start = moves;
  if (a.rule == Rule::alternate) run.producer += " --rule alternate --moves " + a.movesText;
}

std::optional<int> runOutcome(const Args& a, Run& run) {
  run.spec.kind = Mod2Spec::Kind::exhaustive;
  run.spec.exhaustive = Mod2Spec::Exhaustive::outcome;
  const bool alternate = a.rule == Rule::alternate;
  run.spec.win = firstPlayerWinsWords(a.n, run.progress(), alternate, alternate ? uint64_t{1} << run.spec.start[0] : 0);
  run.endProgress();
  run.stats = std::string("first_player=") + (run.spec.win ? "wins" : "loses") + " sets=" + std::to_string(uint64_t{1} << (a.n * a.n));
  return std::nullopt;
}

void preparePlays(const Args& a, const std::vector<int>&, Run&) {
  requireStandard(a.rule, a.action);
  requireRange(a.n, 1, 5, a.action);
}

std::optional<int> runPlays(const Args& a, Run& run) {
  run.spec.kind = Mod2Spec::Kind::exhaustive;
  run.spec.exhaustive = Mod2Spec::Exhaustive::playCount;
  run.spec.totals = {countPlays(a.n)};
  run.stats = "plays=" + std::to_string(run.spec.totals[0]);
  return std::nullopt;
}

void prepareFewestLocking(const Args& a, const std::vector<int>&, Run&) {
  requireStandard(a.rule, a.action);
  requireRange(a.n, 1, kMaxSmallBoard, a.action);
}

std::optional<int> runFewestLocking(const Args& a, Run& run) {
  run.spec.kind = Mod2Spec::Kind::exhaustive;
  run.spec.exhaustive = Mod2Spec::Exhaustive::fewestLocking;
  const FewestLocking f = run.fewestLocking();
  run.spec.count = uint32_t(f.queens);
  run.spec.moves = f.order;
  std::string order;
  for (int s : f.order) order += (order.empty() ? "" : ",") + squareName(a.n, s);
  run.stats = "fewest=" + std::to_string(f.queens) + " locked_sets_by_size=" + joined(f.levelSizes) +
              " legal_locked_sets=" + std::to_string(f.legalAtFewest) + " example=" + order;
  return std::nullopt;
}

void prepareComplementMap(const Args& a, const std::vector<int>&, Run&) {
  if (a.given("rule") && a.rule != Rule::complementary)
    throw std::invalid_argument("complement-map relates the complementary game to the standard (odd n) or alternate (even n) one");
  requireRange(a.n, 1, 4, a.action);
}

std::optional<int> runComplementMap(const Args& a, Run& run) {
  Mod2Spec& spec = run.spec;
  spec.kind = Mod2Spec::Kind::exhaustive;
  spec.exhaustive = Mod2Spec::Exhaustive::complementMap;
  spec.rule = Rule::complementary;
  spec.otherRule = a.n % 2 ? Rule::standard : Rule::alternate;
  const ComplementMapResult r = complementMap(a.n);
  if (!r.failure.empty()) throw Failure{r.failure};
  run.stats = "positions=" + std::to_string(r.positionsA) + " complementary_positions=" + std::to_string(r.positionsB) +
              " moves=" + std::to_string(r.moves);
  return std::nullopt;
}

// prove and grundy: a position of the rule's game, plus a Nim heap.
void prepareGame(const Args& a, const std::vector<int>& moves, Run& run) {
  requireRange(a.n, 1, kMaxSmallBoard, a.action);
  if (a.given("baseline")) requireRange(a.n, 1, kMaxDenseBoard, a.action + " --baseline");
  const Small g(a.n);
  replayStart(g, a.rule, moves);  // throws naming the first illegal move
  run.spec.start = moves;
  run.producer += " --rule " + std::string(ruleName(a.rule)) + (a.movesText.empty() ? "" : " --moves " + a.movesText);
}

std::optional<int> runGame(const Args& a, Run& run) {
  const int n = a.n;
  const Rule rule = a.rule;
  Mod2Spec& spec = run.spec;
  const bool grundy = a.action == "grundy";
  spec.kind = Mod2Spec::Kind::game;
  const Small g(n);
  const uint64_t P = replayStart(g, rule, spec.start);
  if (a.given("baseline")) {
    uint64_t masks = 0;
    const int v = grundyBaseline(n, rule, P, &masks);
    const double workSeconds = run.seconds();
    spec.grundy = grundy;
    spec.heap = grundy ? uint32_t(v) : a.heap;
    spec.win = !grundy && uint32_t(v) != a.heap;
    std::printf("BASELINE: %s\n", statement(spec).c_str());
    std::printf("STATS action=%s-baseline n=%d rule=%s grundy_value=%d positions=%llu work_s=%.3f wall_s=%.3f peak_rss_kib=%ld\n",
                a.action.c_str(), n, ruleName(rule), v, (unsigned long long)masks, workSeconds, run.seconds(), peakRssKiB());
    return 0;
  }
  GameSolver solver(n, rule);
  solver.solveFrom(P);
  const int v = solver.grundy(P);
  const double solveSeconds = run.seconds();
  spec.grundy = grundy;
  spec.heap = grundy ? uint32_t(v) : a.heap;
  if (grundy && spec.heap > kMaxHeap) throw TooLarge("the Grundy value " + std::to_string(v) + " is past the heap limit 64");
  const GameProof proof = gameProof(solver, P, spec.heap);
  spec.win = proof.win;
  spec.replies = proof.replies;
  if (a.given("table")) {
    for (uint64_t m = g.moves(P, rule); m; m &= m - 1) {
      const int s = __builtin_ctzll(m);
      std::printf("  %s %s: Grundy value %d\n", rule == Rule::complementary ? "removing" : "after", squareName(n, s).c_str(),
                  solver.grundy(g.after(P, s, rule)));
    }
  }
  char buf[256];
  std::snprintf(buf, sizeof buf, "grundy_value=%d positions=%llu nodes=%llu replies=%zu loss_positions=%llu solve_s=%.3f", v,
                (unsigned long long)solver.positions(), (unsigned long long)solver.nodes(), proof.replies.size(),
                (unsigned long long)proof.lossPositions, solveSeconds);
  run.stats = std::string("rule=") + ruleName(rule) + " heap=" + std::to_string(spec.heap) + " " + buf;
  return std::nullopt;
}

struct Action {
  const char* name;
  void (*prepare)(const Args&, const std::vector<int>& moves, Run&);
  std::optional<int> (*run)(const Args&, Run&);
};
const Action kActions[] = {
    {"play", preparePlay, runPlay},
    {"structure", prepareStructure, runStructure},
    {"count", prepareLegalCount, runLegalCount},
    {"most", prepareLegalCount, runLegalCount},
    {"fewest-locking", prepareFewestLocking, runFewestLocking},
    {"complement-map", prepareComplementMap, runComplementMap},
    {"plays", preparePlays, runPlays},
    {"outcome", prepareOutcome, runOutcome},
    {"prove", prepareGame, runGame},
    {"grundy", prepareGame, runGame},
    {"count-prefix", prepareCountPrefix, runCountPrefix},
};

const Action* findAction(const std::string& name) {
  for (const Action& a : kActions)
    if (name == a.name) return &a;
  return nullptr;
}

// The options, and the checks that need no action's knowledge. Returns an
// exit status when the run ends here (--help, a bad command line).
std::optional<int> parseArgs(int argc, char** argv, Args& a) {
  po::options_description opts("Options");
  opts.add_options()("help,h", "show this help")("n", numberOption(&a.n, "--n", 1, kMaxPlayBoard), "board size N (1..32; see each action)")(
      "rule", po::value<std::string>(&a.ruleText), "standard (default), alternate or complementary (prove, grundy)")(
      "construction", po::value<std::string>(&a.construction), "play: brown-ladha-3.1, brown-ladha-4.1, brown-ladha-4.2, all-but-two, fewest-locking")(
      "moves", po::value<std::string>(&a.movesText), "play: the moves; prove/grundy: the position's moves, e.g. a1,c2")(
      "allow-illegal", "play --moves: an illegal move is written as the end (illegalAt) instead of an error")(
      "fact", po::value<std::string>(&a.fact), "structure: no-complete or at-most-all-but-two")(
      "heap", numberOption(&a.heap, "--heap", 0, kMaxHeap)->default_value("0"), "prove: add a Nim heap of this size (0..64)")(
      "table", "prove/grundy: also print the Grundy value after each move")(
      "squares", numberOption(&a.squares, "--squares", 1, 36), "count-prefix: only queens on squares 0..B-1 (a measured slice, no certificate)")(
      "baseline", "count, prove, grundy: the plain baseline for benchmarks (no certificate)")(
      "out,o", po::value<std::string>(&a.out), "write the certificate here")("quiet,q", "print only the result line")(
      "stats", "after the result, one machine-readable line: STATS key=value ... (for scripts and benchmarks)");
  try {
    storeCommandLine(argc, argv, opts, "action", a.vm);
    if (a.given("action")) a.action = a.vm["action"].as<std::string>();
    if (a.given("help")) {
      std::cout << kUsage << "\n" << opts;
      return 0;
    }
    const std::string& action = a.action;
    if (action.empty()) throw std::invalid_argument("no action given");
    if (!findAction(action)) throw std::invalid_argument("unknown action '" + action + "'");
    if (!a.given("n")) throw std::invalid_argument("--n is required");
    if (a.ruleText == "standard") a.rule = Rule::standard;
    else if (a.ruleText == "alternate") a.rule = Rule::alternate;
    else if (a.ruleText == "complementary") a.rule = Rule::complementary;
    else throw std::invalid_argument("unknown --rule '" + a.ruleText + "' (standard, alternate or complementary)");
    if (a.given("heap") && a.heap && action != "prove") throw std::invalid_argument("--heap applies to prove");
    if (a.given("construction") && action != "play") throw std::invalid_argument("--construction applies to play");
    if (a.given("fact") && action != "structure") throw std::invalid_argument("--fact applies to structure");
    if (a.given("moves") && action != "play" && action != "prove" && action != "grundy" && action != "outcome")
      throw std::invalid_argument("--moves applies to play, prove, grundy and outcome");
    if (a.given("baseline") && action != "count" && action != "prove" && action != "grundy")
      throw std::invalid_argument("--baseline applies to count, prove and grundy");
    if (a.given("baseline") && a.given("out")) throw std::invalid_argument("--baseline writes no certificate (no --out)");
    if (a.given("quiet") && a.given("stats")) throw std::invalid_argument("--quiet and --stats contradict each other: choose one");
  } catch (const std::exception& e) {
    std::cerr << "prover mod2: " << e.what() << " (see prover mod2 --help)\n";
    return 2;
  }
  return std::nullopt;
}

// The action's work, its failures turned into exit statuses.
std::optional<int> runAction(const Action& action, const Args& a, Run& run, double& workSeconds) {
  try {
    if (const std::optional<int> done = action.run(a, run)) return done;
    workSeconds = run.seconds();
  } catch (const Failure& f) {
    run.endProgress();
    std::printf("FALSE: %s\n", f.why.c_str());
    return 1;
  } catch (const TooLarge& e) {
    run.endProgress();
    std::cerr << "prover mod2: not done: " << e.what() << "\n";
    return 2;
  } catch (const std::bad_alloc&) {
    std::cerr << "prover mod2: not done: out of memory\n";
    return 2;
  } catch (const std::invalid_argument& e) {
    std::cerr << "prover mod2: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "prover mod2: internal error: " << e.what() << "\n";
    return 2;
  }
  return std::nullopt;
}

}  // namespace

int runMod2(int argc, char** argv) {
  Args a;
  if (const std::optional<int> done = parseArgs(argc, argv, a)) return *done;
  const Action& action = *findAction(a.action);
  const bool quiet = a.given("quiet");
  Run run(a);
  run.showProgress = !quiet && isatty(STDERR_FILENO);
  run.spec.n = a.n;
  run.spec.rule = a.rule;
  run.producer = "qcert prover mod2 " + a.action + " --n " + std::to_string(a.n);
  try {
    // Everything that can be refused without work is refused here, before --out is probed.
    const std::vector<int> moves = parseSquareList(a.n, a.movesText);
    action.prepare(a, moves, run);
    if (a.given("out")) checkOutputFile("--out", a.out);  // "--out ''" too: an unset variable must not lose the work
  } catch (const std::exception& e) {
    std::cerr << "prover mod2: " << e.what() << "\n";
    return 2;
  }
  if (const std::string tmp = a.out.empty() ? "" : temporaryPathFor(a.out); tmp.size() < sizeof gTmp)
    std::memcpy(gTmp, tmp.c_str(), tmp.size() + 1);
  std::signal(SIGINT, onMod2Signal);
  std::signal(SIGTERM, onMod2Signal);
  double workSeconds = 0;
  if (const std::optional<int> done = runAction(action, a, run, workSeconds)) return *done;
  uint64_t bytes = 0;
  if (!a.out.empty()) {
    try {
      bytes = writeMod2Certificate(a.out, run.spec, run.producer);
    } catch (const std::bad_alloc&) {
      std::cerr << "prover mod2: not done: out of memory\n";
      return 2;
    } catch (const std::exception& e) {
      std::cerr << "prover mod2: " << e.what() << "\n";
      return 2;
    }
  }
  std::printf("RESULT: %s\n", statement(run.spec).c_str());
  if (a.given("stats"))
    std::printf("STATS action=%s n=%d %s work_s=%.3f wall_s=%.3f peak_rss_kib=%ld cert_bytes=%llu\n", a.action.c_str(), a.n,
                run.stats.c_str(), workSeconds, run.seconds(), peakRssKiB(), (unsigned long long)bytes);
  return 0;
}

}  // namespace qcert::mod2
