// Differential tests: the prover's search (Solver, prove()) against the naive
// solver of support.hpp (plain recursion over exact live sets: no symmetry,
// no hashed transposition table) on random positions, n <= 8.
//
// Positions per run: kPositionsPerRun (at least 10,000, checked at compile
// time), split over the tests below: kSolverConfigs x kSolverPositionsPerConfig
// in SolverVsNaive and kProvePositions in ProveVsNaive.OutcomeAndGrundyModes.
// Each test asserts that it checked exactly its share and that every board
// size 1..7 met every heap 0..5, and prints its count.  Fixed seeds unless
// QCERT_TEST_SEED is set.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <map>
#include <memory>
#include <set>
#include <tuple>

#include "prover/geometry.hpp"
#include "prover/game/graph.hpp"
#include "prover/game/prove.hpp"
#include "prover/game/search.hpp"
#include "tests/support.hpp"
#include "prover/game/tt.hpp"

using namespace qcert;

namespace {

// ------------------------------------------------------- positions per run
constexpr int kMaxHeap = 5;         // heaps 0..kMaxHeap, each board size meets each
constexpr int kSolverConfigs = 5;   // the instantiations of SolverVsNaive below
// Few on the small boards, which have few positions (duplicates are
// counted: each test prints how many of its draws were distinct).
constexpr int solverPositions(int n) { return n <= 3 ? 60 : n == 4 ? 200 : n <= 7 ? 500 : 300; }
constexpr int solverPositionsPerConfig() {
  int s = 0;
  for (int n = 1; n <= 8; ++n) s += solverPositions(n);
  return s;
}
constexpr int kSolverPositionsPerConfig = solverPositionsPerConfig();
constexpr int kProvePositions = 840;  // n = 1..7 in turn: 120 each
constexpr int kPositionsPerRun = kSolverConfigs * kSolverPositionsPerConfig + kProvePositions;
static_assert(kPositionsPerRun >= 10000, "the differential tests must reach 10,000 positions per run");

// Heaps 0..kMaxHeap in a fresh random order every kMaxHeap + 1 draws, so that
// every board size meets every heap however the seed falls.
class HeapCycle {
 public:
  uint32_t next(std::mt19937_64& rng) {
    if (i_ == heaps_.size()) {
      for (size_t k = 0; k < heaps_.size(); ++k) heaps_[k] = uint32_t(k);
      std::shuffle(heaps_.begin(), heaps_.end(), rng);
      i_ = 0;
    }
    return heaps_[i_++];
  }

 private:
  std::array<uint32_t, kMaxHeap + 1> heaps_{};
  size_t i_ = kMaxHeap + 1;
};

// Which (n, heap) pairs a test met, and how many distinct positions.
struct Coverage {
  int met[9][kMaxHeap + 1] = {};
  std::set<std::tuple<int, uint64_t, uint32_t>> distinct;
  void add(int n, uint64_t live, uint32_t heap) {
    if (heap <= uint32_t(kMaxHeap)) ++met[n][heap];
    distinct.emplace(n, live, heap);
  }
  void expectAllSizesAndHeaps(int maxN) const {
    for (int n = 1; n <= maxN; ++n)
      for (int h = 0; h <= kMaxHeap; ++h) EXPECT_GT(met[n][h], 0) << "n=" << n << " heap=" << h << " never met";
  }
};

double secondsSince(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}
double cpuSecondsSince(std::clock_t t) { return double(std::clock() - t) / CLOCKS_PER_SEC; }

qtest::NaiveGame& naiveFor(int n) {
  static std::map<int, std::unique_ptr<qtest::NaiveGame>> games;
  auto& g = games[n];
  if (!g) g = std::make_unique<qtest::NaiveGame>(qtest::NaiveGame::queens(n));
  return *g;
}

Bits<1> bitsOf(uint64_t x) {
  Bits<1> b;
  b.w[0] = x;
  return b;
}

std::string describe(int n, const std::vector<int>& queens, uint32_t heap) {
  const Geometry geo = queensGeometry(n);
  std::string s = "n=" + std::to_string(n) + " queens=";
  for (size_t i = 0; i < queens.size(); ++i) s += (i ? "," : "") + geo.squareName(queens[i]);
  return s + " heap=" + std::to_string(heap);
}

struct Config {
  const char* name;
  SearchOptions opt;
};
void PrintTo(const Config& c, std::ostream* os) { *os << c.name; }  // test names, not pointer bytes
// interleaveAbove: the default is half the board's squares + 2 (above 34
// live squares on 8x8, where few random positions reach it), so one
// configuration lowers it to 12 to test the interleaved order on most.
SearchOptions options(int smallLimit, bool enhancements,
                      int interleaveAbove = SearchOptions::kInterleaveHalfBoard) {
  SearchOptions o;
  o.smallLimit = smallLimit;
  o.interleaveAbove = interleaveAbove;
  o.symmetry = o.etc = o.ordering = o.mirrorLemma = enhancements;
  return o;
}

// A position reached by pairs (v, half-turn image of v) from the empty
// board, optionally after the centre queen on odd boards: these positions
// are where the search's mirror lemma applies.
qtest::RandomPosition randomMirrorPosition(int n, std::mt19937_64& rng) {
  qtest::NaiveGame& g = naiveFor(n);
  qtest::RandomPosition p;
  p.live = g.all();
  auto play = [&](int v) {
    p.queens.push_back(v);
    p.live = g.after(p.live, v);
  };
  if (n % 2 == 1 && rng() % 2) play((n / 2) * n + n / 2);
  const int pairs = std::uniform_int_distribution<int>(0, n / 2)(rng);
  for (int i = 0; i < pairs && p.live; ++i) {
    std::vector<int> options;
    for (uint64_t x = p.live; x; x &= x - 1) options.push_back(std::countr_zero(x));
    const int v = options[rng() % options.size()];
    const int m = n * n - 1 - v;
    play(v);
    if (!(p.live >> m & 1)) break;
    play(m);
  }
  return p;
}

// Up to n random legal queens placed one by one, except that a queen which
// would leave no live square is placed only one time in eight: dead boards
// are all one position, so this keeps the positions varied.
qtest::RandomPosition randomOpenPosition(int n, std::mt19937_64& rng) {
  qtest::NaiveGame& g = naiveFor(n);
  qtest::RandomPosition p;
  p.live = g.all();
  const int k = std::uniform_int_distribution<int>(0, n)(rng);
  for (int i = 0; i < k && p.live; ++i) {
    std::vector<int> options;
    for (uint64_t x = p.live; x; x &= x - 1) options.push_back(std::countr_zero(x));
    const int v = options[std::uniform_int_distribution<size_t>(0, options.size() - 1)(rng)];
    if (g.after(p.live, v) == 0 && rng() % 8) break;
    p.queens.push_back(v);
    p.live = g.after(p.live, v);
  }
  return p;
}

class SolverVsNaive : public ::testing::TestWithParam<Config> {};

// One Solver (and one transposition table) per board size, queried on many
// random positions so that table entries from earlier queries are reused.
TEST_P(SolverVsNaive, OutcomesGrundyValuesAndWinningMoves) {
  const SearchOptions opt = GetParam().opt;
  std::mt19937_64 rng(qtest::testSeed(0x5eed0000 + opt.smallLimit) + (opt.symmetry ? 0 : 0x100));
  const auto start = std::chrono::steady_clock::now();
  const std::clock_t cpu = std::clock();
  int checked = 0;
  Coverage cover;
  for (int n = 1; n <= 8; ++n) {
    const Geometry geo = queensGeometry(n);
    Graph<1> gr(geo);
    // Odd boards and n = 8 split the table at half their squares, so that
    // both regions serve the search (tt.hpp).
    const bool split = n % 2 == 1 || n == 8;
    TranspositionTable tt(4, split ? 1 : 0, n * n / 2);
    Solver<1> solver(gr, tt, opt);
    qtest::NaiveGame& naive = naiveFor(n);
    HeapCycle heaps;
    for (int i = 0; i < solverPositions(n); ++i) {
      const auto pos = i % 3 == 2 ? randomMirrorPosition(n, rng) : randomOpenPosition(n, rng);
      const uint32_t heap = heaps.next(rng);
      cover.add(n, pos.live, heap);
      const Bits<1> live = bitsOf(pos.live);
      SCOPED_TRACE(describe(n, pos.queens, heap) + " config " + GetParam().name);
      const bool want = naive.wins(pos.live, heap);
      ASSERT_EQ(solver.wins(live, heap), want);
      // Grundy value: least h with a lost (L, h); agrees with the mex rule.
      uint32_t g = 0;
      while (solver.wins(live, g)) ASSERT_LT(++g, 64u);
      ASSERT_EQ(int(g), naive.grundy(pos.live));
      ASSERT_EQ(want, g != heap);
      // A winning move really wins (by the naive solver); none when lost.
      const int m = solver.winningMove(live, heap);
      if (!want) {
        ASSERT_EQ(m, -1);
      } else if (isHeapMove(m)) {
        ASSERT_LT(uint32_t(m - kHeapMove), heap);
        ASSERT_FALSE(naive.wins(pos.live, uint32_t(m - kHeapMove)));
      } else {
        ASSERT_GE(m, 0);
        ASSERT_TRUE(pos.live >> m & 1);
        ASSERT_FALSE(naive.wins(naive.after(pos.live, m), heap));
      }
      ++checked;
    }
  }
  ASSERT_EQ(checked, kSolverPositionsPerConfig);
  cover.expectAllSizesAndHeaps(8);
  std::printf("SolverVsNaive/%s: %d random positions (%zu distinct), n = 1..8, heaps 0..%d, in %.2f s (%.2f s CPU); "
              "%d positions per run over all differential tests\n",
              GetParam().name, checked, cover.distinct.size(), kMaxHeap, secondsSince(start), cpuSecondsSince(cpu),
              kPositionsPerRun);
}

const Config kConfigs[] = {{"small0", options(0, true)},        {"small8_interleave12", options(8, true, 12)},
                           {"small20", options(20, true)},      {"plain_small0", options(0, false)},
                           {"plain_small8", options(8, false)}};
static_assert(std::size(kConfigs) == kSolverConfigs, "kPositionsPerRun counts kSolverConfigs configurations");

INSTANTIATE_TEST_SUITE_P(Configs, SolverVsNaive, ::testing::ValuesIn(kConfigs),
                         [](const auto& info) { return std::string(info.param.name); });

// The library entry point prove() (no certificate), outcome and Grundy mode.
TEST(ProveVsNaive, OutcomeAndGrundyModes) {
  std::mt19937_64 rng(qtest::testSeed(0xd1ff));
  const auto start = std::chrono::steady_clock::now();
  const std::clock_t cpu = std::clock();
  const int smallLimits[] = {0, 8, 20};
  int checked = 0;
  Coverage cover;
  HeapCycle heaps[8];
  for (int i = 0; i < kProvePositions; ++i) {
    const int n = 1 + i % 7;
    const auto pos = randomOpenPosition(n, rng);
    const uint32_t heap = heaps[n].next(rng);
    cover.add(n, pos.live, heap);
    ProveRequest req;
    req.n = n;
    req.queens = pos.queens;
    req.heap = heap;
    req.ttMegabytes = 1;
    req.search.smallLimit = smallLimits[i % 3];
    if (i % 5 == 2) req.search.interleaveAbove = 10;
    if (i % 4 == 1) req.ttMegabytes = 2, req.nearMegabytes = 1;  // a split table (all these boards' positions go near)
    if (i % 5 == 4) req.search.symmetry = req.search.etc = req.search.ordering = req.search.mirrorLemma = false;
    SCOPED_TRACE(describe(n, pos.queens, heap) + " smallLimit=" + std::to_string(req.search.smallLimit) +
                 " interleaveAbove=" + std::to_string(req.search.interleaveAbove) + " near=" + std::to_string(req.nearMegabytes) +
                 (req.search.symmetry ? "" : " plain"));
    qtest::NaiveGame& naive = naiveFor(n);
    const ProveResult r = prove(req);
    ASSERT_EQ(r.rootLive, std::popcount(pos.live));
    ASSERT_EQ(r.win, naive.wins(pos.live, heap));
    req.grundy = true;
    req.heap = 0;
    const ProveResult rg = prove(req);
    ASSERT_FALSE(rg.win);
    ASSERT_EQ(int(rg.grundy), naive.grundy(pos.live));
    ++checked;
  }
  ASSERT_EQ(checked, kProvePositions);
  cover.expectAllSizesAndHeaps(7);
  std::printf("ProveVsNaive: %d random positions (%zu distinct), n = 1..7, heaps 0..%d, in %.2f s (%.2f s CPU); "
              "%d positions per run over all differential tests\n",
              checked, cover.distinct.size(), kMaxHeap, secondsSince(start), cpuSecondsSince(cpu), kPositionsPerRun);
}

// Known values: Grundy values of the empty n x n boards, n = 1..8, by the
// naive solver and by prove().
TEST(ProveVsNaive, EmptyBoards) {
  for (int n = 1; n <= 8; ++n) {
    qtest::NaiveGame& naive = naiveFor(n);
    ProveRequest req;
    req.n = n;
    req.grundy = true;
    req.ttMegabytes = 4;
    EXPECT_EQ(int(prove(req).grundy), naive.grundy(naive.all())) << "n=" << n;
  }
}

TEST(ProveVsNaive, RejectsBadRequests) {
  ProveRequest req;
  req.n = 0;
  EXPECT_THROW(prove(req), std::invalid_argument);
  req.n = kMaxBoard + 1;
  EXPECT_THROW(prove(req), std::invalid_argument);
  req.n = 4;
  req.queens = {0, 0};
  EXPECT_THROW(prove(req), std::invalid_argument);
  req.queens = {16};
  EXPECT_THROW(prove(req), std::invalid_argument);
  req.queens = {-1};
  EXPECT_THROW(prove(req), std::invalid_argument);
  req.queens = {};
  req.heap = 256;
  EXPECT_THROW(prove(req), std::invalid_argument);
  req.heap = 0;
  req.cutoff = 33;
  EXPECT_THROW(prove(req), std::invalid_argument);
  req.cutoff = -1;
  EXPECT_THROW(prove(req), std::invalid_argument);
}

// Heaps of 64 and more with the transposition-table path. Regression: the
// table key once folded heap h and h + 64 together, so the search's answers
// got mixed up and certificate emission failed (prover prove --n 6 --heap 65).
TEST(ProveVsNaive, LargeHeapsWithTranspositionTable) {
  qtest::TempDir dir;
  for (int n : {4, 5, 6}) {
    qtest::NaiveGame& naive = naiveFor(n);
    for (uint32_t heap : {63u, 64u, 65u, 66u, 67u, 128u, 129u, 255u}) {
      ProveRequest req;
      req.n = n;
      req.heap = heap;
      req.ttMegabytes = 1;
      req.search.smallLimit = 0;
      req.cutoff = 0;
      req.out = dir.file("h.qc");
      SCOPED_TRACE(describe(n, {}, heap));
      ProveResult r;
      ASSERT_NO_THROW(r = prove(req));
      EXPECT_EQ(r.win, uint32_t(naive.grundy(naive.all())) != heap);
    }
  }
}

}  // namespace
