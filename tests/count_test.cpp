// Counting (docs/count-certificates.md): the prover's counters against brute
// force written here from the definitions, and the properties the cell
// certificates rest on (cells partition the placements; folded cells agree
// with their images).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <map>
#include <numeric>

#include "prover/count/count.hpp"
#include "prover/count/count_cli.hpp"

using namespace qcert;

namespace {

// A placement as a board: 0 empty, 1 queen, 2 hole.
using Board = std::vector<int>;

uint64_t mix(uint64_t x) {  // splitmix64's finaliser, as the spec states it
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

uint64_t fingerprint(int n, const Board& b) {
  uint64_t sum = 0;
  for (int s = 0; s < n * n; ++s)
    if (b[s]) sum += mix((uint64_t(n) << 32) | (uint64_t(s) << 1) | (b[s] == 2 ? 1 : 0));
  return mix(sum);
}

Board image(int n, const Board& b, int g) {
  Board out(b.size());
  const int m = n - 1;
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) {
      int ir = r, ic = c;
      switch (g) {
        case 1: ic = m - c; break;
        case 2: ir = m - r; break;
        case 3: ir = m - r, ic = m - c; break;
        case 4: ir = c, ic = r; break;
        case 5: ir = c, ic = m - r; break;
        case 6: ir = m - c, ic = r; break;
        case 7: ir = m - c, ic = m - r; break;
        default: break;
      }
      out[ir * n + ic] = b[r * n + c];
    }
  return out;
}

bool least(int n, const Board& b) {
  for (int g = 1; g < 8; ++g)
    if (image(n, b, g) < b) return false;
  return true;
}

std::vector<uint64_t> prefixOf(int n, const Board& b, int depth) {
  std::vector<uint64_t> rows;
  for (int r = 0; r < depth; ++r) {
    uint64_t w = 0;
    for (int c = 0; c < n; ++c) w |= b[r * n + c] == 1 ? uint64_t(1) << c : b[r * n + c] == 2 ? uint64_t(1) << (32 + c) : 0;
    rows.push_back(w);
  }
  return rows;
}

// Does the piece at a see the piece at b along a line (no hole between)?
bool sees(int n, const Board& board, int a, int b, bool torus) {
  const int r1 = a / n, c1 = a % n, r2 = b / n, c2 = b % n;
  if (torus)
    return r1 == r2 || c1 == c2 || (r1 + c1) % n == (r2 + c2) % n || ((r1 - c1) % n + n) % n == ((r2 - c2) % n + n) % n;
  const int dr = r2 - r1, dc = c2 - c1;
  if (!(dr == 0 || dc == 0 || dr == dc || dr == -dc)) return false;
  const int steps = std::max(std::abs(dr), std::abs(dc)), sr = (dr > 0) - (dr < 0), sc = (dc > 0) - (dc < 0);
  for (int i = 1; i < steps; ++i)
    if (board[(r1 + i * sr) * n + c1 + i * sc] == 2) return false;
  return true;
}

struct Expected {
  std::map<std::vector<uint64_t>, CountCell> cells;
  void add(int n, const Board& b, int depth, size_t slot, size_t shape, bool classes) {
    CountCell& c = cells[prefixOf(n, b, depth)];
    c.totals.resize(shape), c.classes.resize(classes ? shape : 0);
    c.totals[slot] += 1;
    if (classes && least(n, b)) c.classes[slot] += 1;
    c.checksum += fingerprint(n, b);
  }
};

// Every cell with something in it must appear with exactly these numbers;
// the others must be empty.
void expectCells(const CountResult& got, const Expected& want, const std::string& what) {
  size_t nonEmpty = 0;
  for (size_t i = 0; i < got.cells.size(); ++i) {
    const CountCell& c = got.cells[i];
    if (i) {
      EXPECT_LT(got.cells[i - 1].rows, c.rows) << what << ": cells out of order";
    }
    const bool empty = std::all_of(c.totals.begin(), c.totals.end(), [](uint64_t x) { return x == 0; });
    auto it = want.cells.find(c.rows);
    if (it == want.cells.end()) {
      EXPECT_TRUE(empty) << what << ": cell " << i << " holds placements brute force does not find";
      continue;
    }
    ++nonEmpty;
    EXPECT_EQ(c.totals, it->second.totals) << what << " cell " << i;
    if (!it->second.classes.empty()) {
      EXPECT_EQ(c.classes, it->second.classes) << what << " cell " << i;
    }
    EXPECT_EQ(c.checksum, it->second.checksum) << what << " cell " << i;
  }
  EXPECT_EQ(nonEmpty, want.cells.size()) << what << ": brute force finds placements in cells the counter does not list";
}

// n-queens and torus solutions by permutations (no backtracking).
Expected bruteQueens(int n, int depth, bool torus) {
  Expected e;
  std::vector<int> p(n);
  std::iota(p.begin(), p.end(), 0);
  do {
    Board b(n * n, 0);
    for (int r = 0; r < n; ++r) b[r * n + p[r]] = 1;
    bool ok = true;
    for (int r1 = 0; r1 < n && ok; ++r1)
      for (int r2 = r1 + 1; r2 < n && ok; ++r2) ok = !sees(n, b, r1 * n + p[r1], r2 * n + p[r2], torus);
    if (ok) e.add(n, b, depth, 0, 1, !torus);
  } while (std::next_permutation(p.begin(), p.end()));
  return e;
}

CountSpec spec(CountProblem p, int n, int depth, int holes = 0, int maxQueens = 0) {
  CountSpec s;
  s.problem = p, s.n = n, s.depth = depth, s.holes = holes, s.maxQueens = maxQueens, s.threads = 2;
  return s;
}

uint64_t sum(const CountResult& r, size_t slot = 0, bool classes = false) {
  uint64_t t = 0;
  for (const auto& c : r.cells) t += classes ? c.classes.at(slot) : c.totals.at(slot);
  return t;
}

}  // namespace

TEST(Count, QueensAndTorusMatchPermutationBruteForce) {
  for (int n = 1; n <= 8; ++n)
    for (int depth = 0; depth <= std::min(n, 2); ++depth) {
      const std::string what = "n=" + std::to_string(n) + " depth=" + std::to_string(depth);
      const Expected q = bruteQueens(n, depth, false), t = bruteQueens(n, depth, true);
      expectCells(countGeneric(spec(CountProblem::nQueens, n, depth)), q, "generic queens " + what);
      expectCells(countPlacements(spec(CountProblem::nQueens, n, depth)), q, "fast queens " + what);
      expectCells(countGeneric(spec(CountProblem::torus, n, depth)), t, "torus " + what);
    }
}

TEST(Count, NineQueensTotalsByPermutations) {
  const Expected q = bruteQueens(9, 1, false);
  expectCells(countPlacements(spec(CountProblem::nQueens, 9, 1)), q, "fast queens n=9");
  uint64_t total = 0;
  for (const auto& [rows, cell] : q.cells) total += cell.totals[0];
  EXPECT_EQ(total, 352u);
}

// n+k queens by brute force over hole sets and queen sets, straight from the
// definition (n+k queens, k holes, no two queens see each other).
TEST(Count, NPlusKMatchesBruteForce) {
  // (no n+k solution exists below n = 6, seed 002 Theorem 3.1, so start there)
  for (auto [n, k] : {std::pair{6, 1}, std::pair{7, 1}, std::pair{7, 2}}) {
      Expected e;
      const int squares = n * n, queens = n + k, holeCount = k;
      std::vector<int> holes(holeCount);
      std::function<void(int, int)> chooseHoles = [&](int from, int i) {
        if (i == holeCount) {
          Board b(squares, 0);
          for (int h : holes) b[h] = 2;
          std::vector<int> qs;
          std::function<void(int)> chooseQueens = [&](int s) {
            if (int(qs.size()) == queens) {
              e.add(n, b, 2, 0, 1, true);
              return;
            }
            if (squares - s < queens - int(qs.size())) return;
            for (int t = s; t < squares; ++t) {
              if (b[t]) continue;
              bool ok = true;
              for (int q : qs) ok = ok && !sees(n, b, q, t, false);
              if (!ok) continue;
              b[t] = 1, qs.push_back(t);
              chooseQueens(t + 1);
              b[t] = 0, qs.pop_back();
            }
          };
          chooseQueens(0);
          return;
        }
        for (int h = from; h < squares; ++h) holes[i] = h, chooseHoles(h + 1, i + 1);
      };
      chooseHoles(0, 0);
      EXPECT_FALSE(e.cells.empty());
      expectCells(countGeneric(spec(CountProblem::nPlusK, n, 2, k)), e, "n+k n=" + std::to_string(n) + " k=" + std::to_string(k));
    }
}

// End positions: every non-attacking set of squares, kept when maximal.
TEST(Count, EndPositionsMatchBruteForce) {
  for (int n = 1; n <= 6; ++n) {
    Expected all, bounded;
    const int limit = 4;
    Board b(n * n, 0);
    std::vector<int> qs;
    std::function<void(int)> go = [&](int s) {
      if (s == n * n) {
        for (int t = 0; t < n * n; ++t) {
          if (b[t]) continue;
          bool attacked = false;
          for (int q : qs) attacked = attacked || sees(n, b, q, t, false);
          if (!attacked) return;
        }
        all.add(n, b, 2 > n ? n : 2, qs.size(), size_t(n) + 1, true);
        if (int(qs.size()) <= limit) bounded.add(n, b, 2 > n ? n : 2, qs.size(), size_t(std::min(limit, n)) + 1, true);
        return;
      }
      go(s + 1);
      for (int q : qs)
        if (sees(n, b, q, s, false)) return;
      b[s] = 1, qs.push_back(s);
      go(s + 1);
      b[s] = 0, qs.pop_back();
    };
    go(0);
    const int depth = std::min(n, 2);
    expectCells(countGeneric(spec(CountProblem::endPositions, n, depth)), all, "end n=" + std::to_string(n));
    expectCells(countGeneric(spec(CountProblem::endPositions, n, depth, 0, std::min(limit, n))), bounded,
                "end n=" + std::to_string(n) + " max 4");
  }
}

// Seed 001's program, transcribed line by line (R, C, T, N, B as there).
TEST(Count, Hp71bNodesMatchTheProgram) {
  bool tenthOfFive = false;
  for (int s = 1; s <= 9; ++s) {
    std::vector<int> B(s + 1, 0);
    int R = 0, C = 0, T = 0;
    uint64_t F = 0, N = 0;
    int line = 90;
    for (bool running = true; running;) switch (line) {
        case 90: R = R + 1; line = R > s ? 190 : 100; break;
        case 100: C = 0; line = 110; break;
        case 110: C = C + 1; line = C > s ? 170 : 120; break;
        case 120: T = 0; N = N + 1; line = 140; break;
        case 140: T = T + 1; line = T >= R ? 160 : 150; break;
        case 150: line = (B[T] == C || std::abs(B[T] - C) == R - T) ? 110 : 140; break;
        case 160: B[R] = C; line = 90; break;
        case 170: R = R - 1; line = R == 0 ? 230 : 180; break;
        case 180: C = B[R]; line = 110; break;
        case 190:
          F = F + 1;
          if (s == 5 && F == 10) {  // the post's example output line "Found 53142 (10)"
            EXPECT_EQ(std::vector<int>(B.begin() + 1, B.end()), (std::vector<int>{5, 3, 1, 4, 2}));
            tenthOfFive = true;
          }
          R = R - 1;
          line = 110;
          break;
        default: running = false; break;
      }
    const CountResult r = countGeneric(spec(CountProblem::hp71b, s, 0));
    ASSERT_EQ(r.cells.size(), 1u);
    EXPECT_EQ(r.cells[0].totals[0], F) << "n=" << s;
    EXPECT_EQ(r.cells[0].totals[1], N) << "n=" << s;
  }
  EXPECT_TRUE(tenthOfFive);
}

// The cells of every depth partition the same placements: their sums equal
// the one cell of depth 0, whatever the problem.
RC_GTEST_PROP(CountProperty, CellsPartitionThePlacements, ()) {
  const int kind = *rc::gen::inRange(0, 4);
  const CountProblem problem = kind == 0 ? CountProblem::nQueens : kind == 1 ? CountProblem::torus
                             : kind == 2 ? CountProblem::nPlusK : CountProblem::endPositions;
  const int n = *rc::gen::inRange(1, problem == CountProblem::nPlusK || problem == CountProblem::endPositions ? 7 : 10);
  const int holes = problem == CountProblem::nPlusK ? *rc::gen::inRange(1, 3) : 0;
  const int depth = *rc::gen::inRange(1, std::min(n, 3) + 1);
  const CountResult whole = countGeneric(spec(problem, n, 0, holes)), split = countGeneric(spec(problem, n, depth, holes));
  RC_ASSERT(whole.cells.size() == 1u);
  for (size_t slot = 0; slot < whole.cells[0].totals.size(); ++slot) {
    RC_ASSERT(sum(split, slot) == whole.cells[0].totals[slot]);
    if (!whole.cells[0].classes.empty()) RC_ASSERT(sum(split, slot, true) == whole.cells[0].classes[slot]);
  }
  uint64_t checksum = 0;
  for (const auto& c : split.cells) checksum += c.checksum;
  RC_ASSERT(checksum == whole.cells[0].checksum);
  if (problem == CountProblem::nQueens) {  // the fast counter's cells are the plain search's
    const CountResult fast = countPlacements(spec(problem, n, depth));
    RC_ASSERT(fast.cells.size() == split.cells.size());
    for (size_t i = 0; i < fast.cells.size(); ++i) {
      RC_ASSERT(fast.cells[i].rows == split.cells[i].rows);
      RC_ASSERT(fast.cells[i].totals == split.cells[i].totals);
      RC_ASSERT(fast.cells[i].classes == split.cells[i].classes);
      RC_ASSERT(fast.cells[i].checksum == split.cells[i].checksum);
    }
  }
}

// The symmetries the counters fold: the torus's column shift (cell (c0, c1)
// holds as many solutions as (c0+t, c1+t)) and the board's left-right mirror
// for n-queens and n+k queens.
RC_GTEST_PROP(CountProperty, FoldedCellsAgreeWithTheirImages, ()) {
  const int n = *rc::gen::inRange(4, 12);
  const int depth = *rc::gen::inRange(1, 3);
  auto byRows = [](const CountResult& r) {
    std::map<std::vector<uint64_t>, uint64_t> m;
    for (const auto& c : r.cells) m[c.rows] = c.totals[0];
    return m;
  };
  const auto torus = byRows(countGeneric(spec(CountProblem::torus, n, depth)));
  const int t = *rc::gen::inRange(1, n);
  for (const auto& [rows, count] : torus) {
    std::vector<uint64_t> shifted;
    for (uint64_t w : rows) shifted.push_back(uint64_t(1) << ((__builtin_ctzll(w) + t) % n));
    RC_ASSERT(torus.at(shifted) == count);
  }
  auto mirrored = [n](const std::vector<uint64_t>& rows) {
    std::vector<uint64_t> out;
    for (uint64_t w : rows) {
      uint64_t m = 0;
      for (int c = 0; c < n; ++c) {
        if ((w >> c) & 1) m |= uint64_t(1) << (n - 1 - c);
        if ((w >> (32 + c)) & 1) m |= uint64_t(1) << (32 + n - 1 - c);
      }
      out.push_back(m);
    }
    return out;
  };
  const auto queens = byRows(countPlacements(spec(CountProblem::nQueens, n, depth)));
  for (const auto& [rows, count] : queens) RC_ASSERT(queens.at(mirrored(rows)) == count);
  if (n <= 7) {
    const auto nk = byRows(countGeneric(spec(CountProblem::nPlusK, n, depth, 1)));
    for (const auto& [rows, count] : nk) RC_ASSERT(nk.at(mirrored(rows)) == count);
  }
}

// 64-bit sums: counts reach 2.3e17 at n = 27 (no overflow in the checks).
TEST(TableCheck, RulesOnPublishedCounts) {
  EXPECT_EQ(tableCheck("the 8-queens problem has 92 solutions, 12 up to symmetry"), "");
  EXPECT_EQ(tableCheck("the 27-queens problem has 234907967154122528 solutions, 29363495934315694 up to symmetry"), "");
  // Seed 002's n = 26 line: fewer classes than solutions/8.
  EXPECT_NE(tableCheck("the 26-queens problem has 22317699616364044 solutions, 278971246651089 up to symmetry"), "");
  EXPECT_NE(tableCheck("the 8-queens problem has 93 solutions, 12 up to symmetry"), "");   // odd
  EXPECT_NE(tableCheck("the 8-queens problem has 92 solutions, 47 up to symmetry"), "");   // > 92/2
  EXPECT_EQ(tableCheck("the 8-queens problem has * solutions, 12 up to symmetry"), "");
  EXPECT_EQ(tableCheck("the 1-queens problem has 1 solution, 1 up to symmetry"), "");
  EXPECT_EQ(tableCheck("the 1-queens problem has 1 solutions, 1 up to symmetry"), "");  // as some tables print it
  EXPECT_EQ(tableCheck("the 19-queens problem on the torus has 820496 solutions"), "");
  EXPECT_NE(tableCheck("the 19-queens problem on the torus has 820497 solutions"), "");
  EXPECT_NE(tableCheck("the 9-queens problem on the torus has 18 solutions"), "");
  EXPECT_NE(tableCheck("the 7-queens problem on the torus has 0 solutions"), "");
  EXPECT_EQ(tableCheck("the 8+1 queens problem has 128 solutions, 16 up to symmetry"), "");
  EXPECT_NE(tableCheck("the 8+1 queens problem has 129 solutions, 16 up to symmetry"), "");
  EXPECT_NE(tableCheck("at least 2 non-attacking queens are needed to leave no square of the 8x8 board free; with 2: * placements, 91 up to symmetry"), "");
  EXPECT_NE(tableCheck("the HP-71B program on the 8x8 board finds 92 solutions and examines 15721 nodes"), "");
  EXPECT_EQ(tableCheck("the HP-71B program on the 8x8 board finds 92 solutions and examines 15720 nodes"), "");
  EXPECT_THROW(tableCheck("the 8-queens problem has 1000000000000000000000000000000000000000 solutions, 1 up to symmetry"),
               std::invalid_argument);
  // 2^64 and beyond are compared exactly (128-bit): 18446744073709551616 / 8 = 2305843009213693952.
  EXPECT_EQ(tableCheck("the 27-queens problem has 18446744073709551616 solutions, 2305843009213693952 up to symmetry"), "");
  EXPECT_NE(tableCheck("the 27-queens problem has 18446744073709551616 solutions, 2305843009213693951 up to symmetry"), "");
}
