// The mod-2 game prover (prover/mod2, docs/mod2-game.md):
//  1. differential: GameSolver's Grundy values and outcomes against a
//     brute-force minimax written here from the rule text (board moves and
//     heap moves, no Sprague-Grundy), all three rules, random positions n <= 4
//     and positions near the end for n = 5;
//  2. RapidCheck properties: Lemma 1 (deg formula, parity n+1), Lemma 2
//     (attacking pairs stay even along legal plays), Lemma 3 (complement
//     correspondence), the 8 symmetries;
//  3. the constructions (Claims 3.1, 3.3, 4.1, 4.2) and the small counts;
//  4. the command line: an illegal --moves list, certificates the checker
//     verifies with the prover's statement.
// Seeds: RC_PARAMS for the properties, QCERT_TEST_SEED for the rest.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <unordered_map>

#include "prover/mod2/mod2.hpp"
#include "tests/reference/mod2_reference.hpp"
#include "tests/support.hpp"

using namespace qcert::mod2;

namespace {

// ---------------------------------------------------------------- the rules, naively
bool shareLine(int n, int s, int t) {
  const int r = s / n, c = s % n, r2 = t / n, c2 = t % n;
  return s != t && (r == r2 || c == c2 || r - c == r2 - c2 || r + c == r2 + c2);
}
int naiveAtt(int n, uint64_t P, int s) {
  int k = 0;
  for (int t = 0; t < n * n; ++t)
    if (P >> t & 1 && shareLine(n, s, t)) ++k;
  return k;
}
uint64_t fullOf(int n) { return n == 8 ? ~0ull : (1ull << (n * n)) - 1; }
// The rule text: standard places on an empty square attacked an even number
// of times; alternate an odd number; complementary removes a queen attacked
// an even number of times.
std::vector<uint64_t> naiveChildren(int n, Rule r, uint64_t P) {
  std::vector<uint64_t> out;
  for (int s = 0; s < n * n; ++s) {
    const bool queen = P >> s & 1;
    const int a = naiveAtt(n, P, s);
    if (r == Rule::standard && !queen && a % 2 == 0) out.push_back(P | 1ull << s);
    if (r == Rule::alternate && !queen && a % 2 == 1) out.push_back(P | 1ull << s);
    if (r == Rule::complementary && queen && a % 2 == 0) out.push_back(P & ~(1ull << s));
  }
  return out;
}
uint64_t pairsOf(int n, uint64_t P) {
  uint64_t k = 0;
  for (int s = 0; s < n * n; ++s)
    for (int t = s + 1; t < n * n; ++t)
      if (P >> s & 1 && P >> t & 1 && shareLine(n, s, t)) ++k;
  return k;
}

// Direct minimax over (position, heap): the player to move wins iff some
// move (a board move or lowering the heap) leads to a position the opponent
// loses.
class Minimax {
 public:
  Minimax(int n, Rule r) : n_(n), r_(r) {}
  bool wins(uint64_t P, uint32_t h) {
    const auto key = std::make_pair(P, h);
    if (auto it = memo_.find(key); it != memo_.end()) return it->second;
    bool w = false;
    for (uint32_t k = 0; k < h && !w; ++k) w = !wins(P, k);
    if (!w)
      for (uint64_t c : naiveChildren(n_, r_, P))
        if (!wins(c, h)) {
          w = true;
          break;
        }
    memo_[key] = w;
    return w;
  }
  // Grundy value from outcomes: the least h with (P, h) lost.
  int grundy(uint64_t P) {
    for (uint32_t h = 0;; ++h)
      if (!wins(P, h)) return int(h);
  }

 private:
  int n_;
  Rule r_;
  std::map<std::pair<uint64_t, uint32_t>, bool> memo_;
};

std::mt19937_64& rng() {
  static std::mt19937_64 g(qtest::testSeed(20240603));
  return g;
}

// A random position reached by `moves` legal moves of the rule from its start
// (alternate: a random given queen first); fewer if the game ends.
uint64_t randomPosition(int n, Rule r, int moves, std::mt19937_64& g) {
  uint64_t P = r == Rule::complementary ? fullOf(n) : 0;
  if (r == Rule::alternate) P = 1ull << std::uniform_int_distribution<int>(0, n * n - 1)(g);
  for (int i = 0; i < moves; ++i) {
    const auto ch = naiveChildren(n, r, P);
    if (ch.empty()) break;
    P = ch[std::uniform_int_distribution<size_t>(0, ch.size() - 1)(g)];
  }
  return P;
}

const Rule kRules[] = {Rule::standard, Rule::alternate, Rule::complementary};

// ---------------------------------------------------------------- 1. differential
TEST(Mod2Differential, SolverAgreesWithMinimaxSmallBoards) {
  int checked = 0;
  for (Rule r : kRules)
    for (int n = 1; n <= 4; ++n) {
      GameSolver solver(n, r);
      Minimax naive(n, r);
      for (int i = 0; i < 150; ++i) {
        const uint64_t P = randomPosition(n, r, std::uniform_int_distribution<int>(0, n * n)(rng()), rng());
        const uint32_t h = std::uniform_int_distribution<uint32_t>(0, 3)(rng());
        ASSERT_EQ(solver.grundy(P) != int(h), naive.wins(P, h)) << ruleName(r) << " n=" << n << " P=" << P << " h=" << h;
        ASSERT_EQ(solver.grundy(P), naive.grundy(P)) << ruleName(r) << " n=" << n << " P=" << P;
        ++checked;
      }
      // The roots themselves.
      if (r != Rule::alternate) {
        const uint64_t root = r == Rule::complementary ? fullOf(n) : 0;
        ASSERT_EQ(solver.grundy(root), naive.grundy(root)) << ruleName(r) << " n=" << n;
      }
    }
  std::printf("  %d random positions (n 1..4, 3 rules) agree with the minimax\n", checked);
}

TEST(Mod2Differential, SolverAgreesWithMinimaxNearTheEndOn5x5) {
  int checked = 0;
  for (Rule r : kRules) {
    GameSolver solver(5, r);
    for (int i = 0; i < 40; ++i) {
      // Play on until few moves remain, so that the minimax stays small.
      uint64_t P = randomPosition(5, r, 25, rng());
      for (int tries = 0; tries < 200; ++tries) {
        P = randomPosition(5, r, std::uniform_int_distribution<int>(6, 25)(rng()), rng());
        if (naiveChildren(5, r, P).size() <= 7) break;
      }
      if (naiveChildren(5, r, P).size() > 7) continue;
      Minimax naive(5, r);
      const uint32_t h = std::uniform_int_distribution<uint32_t>(0, 2)(rng());
      ASSERT_EQ(solver.grundy(P) != int(h), naive.wins(P, h)) << ruleName(r) << " P=" << P << " h=" << h;
      ASSERT_EQ(solver.grundy(P), naive.grundy(P)) << ruleName(r) << " P=" << P;
      ++checked;
    }
  }
  EXPECT_GE(checked, 60);
  std::printf("  %d positions near the end of the 5x5 games agree with the minimax\n", checked);
}

TEST(Mod2Differential, BaselineGrundyPassAgreesWithTheSolver) {
  for (Rule r : kRules)
    for (int n = 1; n <= 4; ++n) {
      GameSolver solver(n, r);
      for (int i = 0; i < 20; ++i) {
        const uint64_t P = randomPosition(n, r, std::uniform_int_distribution<int>(0, n * n)(rng()), rng());
        ASSERT_EQ(grundyBaseline(n, r, P), solver.grundy(P)) << ruleName(r) << " n=" << n;
        GameSolver passes(n, r);  // the two-pass solve, then lookups only
        passes.solveFrom(P);
        const uint64_t before = passes.nodes();
        ASSERT_EQ(passes.grundy(P), solver.grundy(P)) << ruleName(r) << " n=" << n;
        ASSERT_EQ(passes.nodes(), before);
      }
    }
}

// The winner's replies: every recorded move is legal and leads to a lost
// position; every loser move from a lost position reached is answered.
TEST(Mod2Differential, GameProofRepliesAreWinningMoves) {
  for (Rule r : kRules)
    for (int n = 1; n <= 4; ++n)
      for (int i = 0; i < 5; ++i) {
        GameSolver solver(n, r);
        const Small& g = solver.geo();
        const uint64_t P = randomPosition(n, r, std::uniform_int_distribution<int>(0, 3)(rng()), rng());
        const uint32_t h = std::uniform_int_distribution<uint32_t>(0, 2)(rng());
        const GameProof proof = gameProof(solver, P, h);
        std::map<std::pair<uint64_t, uint32_t>, uint32_t> reply;
        for (const Reply& x : proof.replies) ASSERT_TRUE(reply.emplace(std::make_pair(x.queens, x.heap), x.move).second);
        ASSERT_TRUE(std::is_sorted(proof.replies.begin(), proof.replies.end(), [](const Reply& a, const Reply& b) {
          return a.queens != b.queens ? a.queens < b.queens : a.heap < b.heap;
        }));
        // Replay the claim the way the checker does.
        std::map<std::pair<uint64_t, uint32_t>, bool> done;
        std::function<void(uint64_t, uint32_t, bool)> walk = [&](uint64_t Q, uint32_t k, bool won) {
          if (!done.emplace(std::make_pair(Q, k), won).second) return;
          if (won) {
            auto it = reply.find({Q, k});
            ASSERT_NE(it, reply.end());
            const uint32_t m = it->second;
            if (m > uint32_t(g.sq)) {
              ASSERT_LT(m - g.sq - 1, k);
              walk(Q, m - g.sq - 1, false);
            } else {
              ASSERT_TRUE(g.moves(Q, r) >> (m - 1) & 1);
              walk(g.after(Q, int(m - 1), r), k, false);
            }
          } else {
            for (uint64_t mv = g.moves(Q, r); mv; mv &= mv - 1) walk(g.after(Q, __builtin_ctzll(mv), r), k, true);
            for (uint32_t j = 0; j < k; ++j) walk(Q, j, true);
          }
        };
        walk(P, h, proof.win);
        Minimax naive(n, r);
        EXPECT_EQ(proof.win, naive.wins(P, h));
      }
}

// ---------------------------------------------------------------- 2. properties
RC_GTEST_PROP(Mod2Lemmas, Lemma1DegreeFormulaAndParity, ()) {
  const int n = *rc::gen::inRange(1, 33);
  const int s = *rc::gen::inRange(0, n * n);
  int count = 0;
  for (int t = 0; t < n * n; ++t) count += shareLine(n, s, t);
  RC_ASSERT(degFormula(n, s / n, s % n) == count);
  RC_ASSERT(degCount(n, s) == count);
  RC_ASSERT(count % 2 == (n + 1) % 2);
}

// A standard move from P drawn by RapidCheck, or -1 when there is none.
int randomStandardMove(const Small& g, uint64_t P) {
  std::vector<int> opts;
  for (uint64_t x = g.moves(P, Rule::standard); x; x &= x - 1) opts.push_back(__builtin_ctzll(x));
  return opts.empty() ? -1 : *rc::gen::elementOf(opts);
}

RC_GTEST_PROP(Mod2Lemmas, Lemma2PairsStayEvenAlongLegalPlays, ()) {
  const int n = *rc::gen::inRange(1, 9);
  const Small g(n);
  uint64_t P = 0;
  const int steps = *rc::gen::inRange(0, n * n + 1);
  for (int i = 0; i < steps; ++i) {
    const int s = randomStandardMove(g, P);
    if (s < 0) break;
    const uint64_t before = pairsOf(n, P);
    RC_ASSERT(naiveAtt(n, P, s) % 2 == 0);
    P |= 1ull << s;
    RC_ASSERT(pairsOf(n, P) == before + uint64_t(naiveAtt(n, P & ~(1ull << s), s)));
    RC_ASSERT(pairsOf(n, P) % 2 == 0);
  }
}

RC_GTEST_PROP(Mod2Lemmas, Lemma3ComplementCorrespondence, ()) {
  const int n = *rc::gen::inRange(1, 7);
  const Small g(n);
  const uint64_t R = *rc::gen::arbitrary<uint64_t>() & g.full;
  const uint64_t C = g.full & ~R;
  for (int s = 0; s < n * n; ++s) {
    if (R >> s & 1) continue;
    RC_ASSERT(naiveAtt(n, C, s) == degCount(n, s) - naiveAtt(n, R, s));
  }
  // Removals from F\R are the rule's placements on R: standard for odd n,
  // alternate for even n.
  RC_ASSERT(g.moves(C, Rule::complementary) == g.moves(R, n % 2 ? Rule::standard : Rule::alternate));
}

RC_GTEST_PROP(Mod2Lemmas, SymmetriesMapLegalToLegalAndOpenToOpen, ()) {
  const int n = *rc::gen::inRange(1, 7);
  const Small g(n);
  std::vector<int> play;
  uint64_t P = 0;
  const int steps = *rc::gen::inRange(0, n * n + 1);
  for (int i = 0; i < steps; ++i) {
    const int s = randomStandardMove(g, P);
    if (s < 0) break;
    play.push_back(s);
    P |= 1ull << s;
  }
  for (int k = 0; k < 8; ++k) {
    // The image of the play is a legal play (each move open when made) ...
    std::vector<int> image;
    for (int s : play) image.push_back(__builtin_ctzll(g.image(k, 1ull << s)));
    RC_ASSERT(replayStandard(n, image).end != End::illegalAt);
    RC_ASSERT(replayStart(g, Rule::standard, image) == g.image(k, P));
    // ... and the open squares of the image are the images of the open squares.
    for (Rule r : kRules) RC_ASSERT(g.moves(g.image(k, P), r) == g.image(k, g.moves(P, r)));
  }
}

// ---------------------------------------------------------------- 3. constructions
TEST(Mod2Constructions, BrownLadha31FillsOddBoards) {
  for (int n = 1; n <= 31; n += 2) {
    const auto order = brownLadhaCompleteOrder(n);
    ASSERT_EQ(order.size(), size_t(n * n));
    EXPECT_EQ(replayStandard(n, order).end, End::complete) << n;
  }
}

TEST(Mod2Constructions, AllButTwoLocksEvenBoardsWithNSquaredMinusTwo) {
  for (int n = 4; n <= 32; n += 2) {
    const PlayOutcome p = replayStandard(n, allButTwoOrder(n));
    EXPECT_EQ(p.end, End::locked) << n;
    EXPECT_EQ(p.queens, n * n - 2) << n;
  }
  EXPECT_THROW(allButTwoOrder(2), std::invalid_argument);  // one queen locks the 2x2 board
}

TEST(Mod2Constructions, BrownLadha41And42Lock) {
  for (int n = 3; n <= 31; n += 2) {
    const PlayOutcome p = replayStandard(n, brownLadhaLockedOrder(n));
    EXPECT_EQ(p.end, End::locked) << n;
    EXPECT_EQ(p.queens, 2 * n - 1) << n;
  }
  for (int n = 4; n <= 32; n += 2) {
    const PlayOutcome p = replayStandard(n, brownLadhaEvenLockedOrder(n));
    EXPECT_EQ(p.end, End::locked) << n;
    EXPECT_EQ(p.queens, 2 * n - 3) << n;
  }
}

TEST(Mod2Constructions, StructureFactsHoldForEvenBoards) {
  for (int n = 2; n <= 32; n += 2) {
    const StructureFacts f = structureFacts(n);
    EXPECT_TRUE(f.everyDegOdd) << n;
    EXPECT_EQ(f.pairsFull % 2, 0u) << n;
  }
}

// The word pass (words.cpp) against the set-by-set pass, classes included
// (Burnside's lemma there, least images here), and against the baseline.
TEST(Mod2Exhaustive, WordPassAgreesWithTheSetBySetPass) {
  for (int n = 1; n <= 5; ++n) {
    const LegalCount words = countLegalWords(n), sets = countLegal(n);
    EXPECT_EQ(words.totals, sets.totals) << n;
    EXPECT_EQ(words.classes, sets.classes) << n;
    EXPECT_EQ(words.mostQueens, sets.mostQueens) << n;
    EXPECT_EQ(words.legal, sets.legal) << n;
  }
  EXPECT_EQ(countLegalWords(5).legal, 16792742u);
  EXPECT_THROW(countLegalWords(7), std::invalid_argument);
}

// The outcome pass against the game solver's Grundy value of the empty board.
TEST(Mod2Exhaustive, OutcomePassAgreesWithTheSolver) {
  for (int n = 1; n <= 5; ++n) {
    GameSolver s(n, Rule::standard);
    EXPECT_EQ(firstPlayerWinsWords(n), s.grundy(0) != 0) << n;
    // The alternate-universe game from each given queen: the same pass with
    // the odd parity open.  (n = 2..4: every square wins, n = 5 none: a pass
    // that ignored the rule would give the standard game's sets instead.)
    // One square per class up to symmetry (row <= column <= the middle).
    GameSolver alt(n, Rule::alternate);
    for (int g = 0; g < n * n; ++g)
      if (g / n <= g % n && g % n <= (n - 1) / 2)
        EXPECT_EQ(firstPlayerWinsWords(n, {}, true, uint64_t{1} << g), alt.grundy(uint64_t{1} << g) != 0) << n << " " << g;
  }
  EXPECT_THROW(firstPlayerWinsWords(0), std::invalid_argument);
  EXPECT_THROW(firstPlayerWinsWords(3, {}, true, uint64_t{1} << 9), std::invalid_argument);  // off the board
}

TEST(Mod2Exhaustive, CountsAgreeWithTheBaselineAndKnownValues) {
  for (int n = 1; n <= 4; ++n) {
    const LegalCount a = countLegal(n), b = countLegalBaseline(n);
    EXPECT_EQ(a.totals, b.totals) << n;
    EXPECT_EQ(a.mostQueens, b.mostQueens) << n;
  }
  EXPECT_EQ(countLegal(3).totals, (std::vector<uint64_t>{1, 9, 8, 40, 44, 60, 40, 8, 8, 1}));
  EXPECT_EQ(countLegal(4).mostQueens, 14);  // Question 3.4 for n = 4
  // A prefix pass (queens on squares 0..B-1 only) counts exactly the legal
  // positions of the whole pass that lie in those squares: the family is
  // closed under subsets, so nothing outside it is needed.
  for (int n = 3; n <= 4; ++n)
    for (int bits = 1; bits <= n * n; bits += 3) {
      uint64_t inPrefix = 0;
      const Small g(n);
      std::vector<uint8_t> legal(size_t{1} << g.sq, 0);
      legal[0] = 1;
      for (uint64_t P = 0; P < legal.size(); ++P)
        if (legal[P]) {
          inPrefix += P < (uint64_t{1} << bits);
          for (uint64_t m = g.moves(P, Rule::standard); m; m &= m - 1) legal[P | (m & -m)] = 1;
        }
      EXPECT_EQ(countLegalPrefix(n, bits).legal, inPrefix) << n << " " << bits;
    }
  for (int n = 1; n <= 4; ++n) EXPECT_EQ(complementMap(n).failure, "") << n;
}

// The locked sets from line parities (docs/mod2-game.md, Lemma 4) are exactly
// those of the reference's walk of every set, each once; the fewest locking
// queens for n = 1..7 are the values certified before the parities were used
// (n = 1: nothing is locked), each with a play that replays to a lock.
TEST(Mod2Exhaustive, LockedSetsAndFewestLockingQueens) {
  for (int n = 1; n <= 6; ++n) {
    const int most = n <= 4 ? n * n : n == 5 ? 8 : 6;
    std::vector<uint64_t> found;
    lockedSets(n, most, [&](uint64_t P) { found.push_back(P); });
    std::sort(found.begin(), found.end());
    EXPECT_EQ(found, mod2ref::lockedSetsByWalk(n, most)) << n;
  }
  const int fewest[] = {0, 0, 1, 1, 5, 5, 5, 9};
  EXPECT_FALSE(fewestLocking(1).found);
  for (int n = 2; n <= 7; ++n) {
    const FewestLocking f = fewestLocking(n);
    ASSERT_TRUE(f.found) << n;
    EXPECT_EQ(f.queens, fewest[n]) << n;
    const PlayOutcome p = replayStandard(n, f.order);
    EXPECT_EQ(p.end, End::locked) << n;
    EXPECT_EQ(p.queens, fewest[n]) << n;
    for (int k = 1; k < f.queens && n <= 6; ++k)  // the locked sets of each size below, none legal
      EXPECT_EQ(f.levelSizes[size_t(k)], mod2ref::lockedSetsByWalk(n, k).size() - mod2ref::lockedSetsByWalk(n, k - 1).size()) << n << " " << k;
  }
}

// ---------------------------------------------------------------- 4. command line
#ifdef QCERT_PROVER
qtest::RunResult prover(std::vector<std::string> args) {
  args.insert(args.begin(), {QCERT_PROVER, "mod2"});
  return qtest::runProgram(args, 60);
}

TEST(Mod2Cli, IllegalMovesAreOneLineErrorsNamingTheMove) {
  const auto attacked = prover({"play", "--n", "5", "--moves", "c3,c4,e5"});
  EXPECT_EQ(attacked.exitCode, 2) << attacked.describe();
  EXPECT_EQ(attacked.err, "prover mod2: move 2, c4, is attacked by 1 queen\n");
  EXPECT_EQ(attacked.out, "");
  const auto occupied = prover({"play", "--n", "5", "--moves", "c3,c3"});
  EXPECT_EQ(occupied.exitCode, 2) << occupied.describe();
  EXPECT_EQ(occupied.err, "prover mod2: move 2, c3, is occupied\n");
  const auto start = prover({"prove", "--n", "4", "--moves", "a1,b1"});
  EXPECT_EQ(start.exitCode, 2) << start.describe();
  EXPECT_EQ(start.err, "prover mod2: move 2, b1, is attacked by 1 queen\n");
  const auto alternate = prover({"prove", "--n", "4", "--rule", "alternate"});
  EXPECT_EQ(alternate.exitCode, 2) << alternate.describe();
  // outcome: the alternate rule needs its one given queen, the standard rule none.
  for (const std::vector<std::string>& bad : {std::vector<std::string>{"outcome", "--n", "4", "--rule", "alternate"},
                                              {"outcome", "--n", "4", "--rule", "alternate", "--moves", "a1,b2"},
                                              {"outcome", "--n", "4", "--moves", "a1"},
                                              {"outcome", "--n", "4", "--rule", "complementary"},
                                              {"outcome", "--n", "7", "--rule", "alternate", "--moves", "a1"}}) {
    const auto r = prover(bad);
    EXPECT_EQ(r.exitCode, 2) << r.describe();
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.describe();
  }
  const auto odd = prover({"structure", "--n", "5", "--fact", "no-complete"});
  EXPECT_EQ(odd.exitCode, 2) << odd.describe();
  const auto help = prover({"--help"});
  EXPECT_EQ(help.exitCode, 0);
}

#ifdef QCERT_CHECKER
TEST(Mod2Cli, CertificatesVerifyWithTheProversStatement) {
  qtest::TempDir dir;
  const std::vector<std::vector<std::string>> cases = {
      {"play", "--n", "7", "--construction", "brown-ladha-3.1"},
      {"play", "--n", "7", "--construction", "brown-ladha-4.1"},
      {"play", "--n", "6", "--construction", "brown-ladha-4.2"},
      {"play", "--n", "6", "--construction", "all-but-two"},
      {"play", "--n", "5", "--construction", "fewest-locking"},
      {"play", "--n", "4", "--moves", "a1,c2"},
      {"structure", "--n", "8", "--fact", "at-most-all-but-two"},
      {"count", "--n", "3"},
      {"count", "--n", "5"},
      {"most", "--n", "4"},
      {"outcome", "--n", "4"},
      {"outcome", "--n", "4", "--rule", "alternate", "--moves", "b1"},
      {"outcome", "--n", "5", "--rule", "alternate", "--moves", "c3"},
      {"fewest-locking", "--n", "4"},
      {"complement-map", "--n", "3"},
      {"complement-map", "--n", "4"},
      {"prove", "--n", "4"},
      {"prove", "--n", "4", "--moves", "a1", "--heap", "2"},
      {"grundy", "--n", "3", "--rule", "alternate", "--moves", "b2"},
      {"grundy", "--n", "3", "--rule", "complementary", "--moves", "a1"},
  };
  for (size_t i = 0; i < cases.size(); ++i) {
    const std::string cert = dir.file("c" + std::to_string(i));
    auto args = cases[i];
    args.insert(args.end(), {"--out", cert, "-q"});
    const auto p = prover(args);
    ASSERT_EQ(p.exitCode, 0) << p.describe();
    ASSERT_TRUE(qtest::startsWith(p.out, "RESULT: ")) << p.out;
    const auto c = qtest::runProgram({QCERT_CHECKER, cert}, 60);
    EXPECT_EQ(c.exitCode, 0) << c.describe();
    EXPECT_EQ(qtest::firstLine(c.out).substr(std::string("VERIFIED: ").size()), qtest::firstLine(p.out).substr(8))
        << p.out << c.out;
  }
}
#endif
#endif

// Boards past 5x5 memoise in a map; a bound turns a search that would fill
// the memory into "not done" (TooLarge), not an OOM kill.
TEST(Mod2Game, SparseSearchStopsAtItsBound) {
  GameSolver s(6, Rule::standard, 1000);
  EXPECT_THROW(s.grundy(0), TooLarge);
  GameSolver near(6, Rule::standard, 1000);  // 33 queens placed legally: a handful of positions left
  const std::vector<int> order = allButTwoOrder(6);
  uint64_t P = 0;
  for (size_t i = 0; i + 1 < order.size(); ++i) P |= uint64_t{1} << order[i];
  EXPECT_EQ(near.grundy(P), 1);  // one move left (the last of the construction), then locked
}

}  // namespace
