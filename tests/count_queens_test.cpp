// The fast symmetric n-queens counter (prover/count/count_queens.cpp) against a
// plain enumeration written here from docs/count-certificates.md: every
// solution, its 8 images as row-major strings, its fingerprint, its cell.
// The counter searches one member per symmetry class and books the others;
// any slip in the class expansion, the least-member test or the cell index
// shows up here cell by cell.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "prover/count/count.hpp"

using namespace qcert;

namespace {

uint64_t specMix(uint64_t x) {  // the spec's mix, written out again
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

struct RefCell {
  uint64_t total = 0, classes = 0, checksum = 0;
};

// Every admissible prefix of `depth` rows (one queen each, none attacking),
// sorted as the spec orders cells.
std::vector<std::vector<uint64_t>> refPrefixes(int n, int depth) {
  std::vector<std::vector<uint64_t>> out;
  std::vector<int> col;
  auto rec = [&](auto&& self) -> void {
    if (int(col.size()) == depth) {
      std::vector<uint64_t> rows;
      for (int c : col) rows.push_back(uint64_t(1) << c);
      out.push_back(rows);
      return;
    }
    const int r = int(col.size());
    for (int c = 0; c < n; ++c) {
      bool ok = true;
      for (int i = 0; i < r; ++i) ok = ok && col[i] != c && std::abs(col[i] - c) != r - i;
      if (!ok) continue;
      col.push_back(c);
      self(self);
      col.pop_back();
    }
  };
  rec(rec);
  std::sort(out.begin(), out.end());
  return out;
}

// Every solution by plain backtracking, booked into its cell.
std::map<std::vector<uint64_t>, RefCell> refCells(int n, int depth) {
  std::map<std::vector<uint64_t>, RefCell> cells;
  for (const auto& rows : refPrefixes(n, depth)) cells[rows];
  std::vector<int> p;
  auto solution = [&]() {
    std::string s(size_t(n) * n, '0');
    uint64_t sum = 0;
    for (int r = 0; r < n; ++r) {
      s[size_t(r) * n + p[r]] = '1';
      sum += specMix((uint64_t(n) << 32) | (uint64_t(r * n + p[r]) << 1));
    }
    bool least = true;
    for (int g = 1; g < 8; ++g) {
      std::string img(size_t(n) * n, '0');
      for (int r = 0; r < n; ++r) {
        const int c = p[r], m = n - 1;
        const int im[8][2] = {{r, c}, {r, m - c}, {m - r, c}, {m - r, m - c}, {c, r}, {c, m - r}, {m - c, r}, {m - c, m - r}};
        img[size_t(im[g][0]) * n + im[g][1]] = '1';
      }
      least = least && s <= img;
    }
    std::vector<uint64_t> prefix;
    for (int r = 0; r < depth; ++r) prefix.push_back(uint64_t(1) << p[r]);
    RefCell& cell = cells.at(prefix);
    cell.total += 1;
    cell.classes += least;
    cell.checksum += specMix(sum);
  };
  auto rec = [&](auto&& self) -> void {
    const int r = int(p.size());
    if (r == n) return solution();
    for (int c = 0; c < n; ++c) {
      bool ok = true;
      for (int i = 0; i < r; ++i) ok = ok && p[i] != c && std::abs(p[i] - c) != r - i;
      if (!ok) continue;
      p.push_back(c);
      self(self);
      p.pop_back();
    }
  };
  rec(rec);
  return cells;
}

void expectSame(const CountResult& got, const std::map<std::vector<uint64_t>, RefCell>& want, const std::string& what) {
  ASSERT_EQ(got.cells.size(), want.size()) << what;
  size_t i = 0;
  for (const auto& [rows, ref] : want) {
    const CountCell& c = got.cells[i++];
    ASSERT_EQ(c.rows, rows) << what << " cell " << i - 1;
    ASSERT_EQ(c.totals, std::vector<uint64_t>{ref.total}) << what << " cell " << i - 1;
    ASSERT_EQ(c.classes, std::vector<uint64_t>{ref.classes}) << what << " cell " << i - 1;
    ASSERT_EQ(c.checksum, ref.checksum) << what << " cell " << i - 1;
  }
}

uint64_t sumTotals(const CountResult& r, bool classes = false) {
  uint64_t s = 0;
  for (const auto& c : r.cells) s += classes ? c.classes.at(0) : c.totals.at(0);
  return s;
}

}  // namespace

TEST(CountQueens, CellsMatchPlainEnumeration) {
  for (int n = 1; n <= 10; ++n)
    for (int depth = 0; depth <= std::min(n, 3); ++depth) {
      const auto want = refCells(n, depth);
      for (int threads : {1, 3}) {
        const std::string what = "n=" + std::to_string(n) + " depth=" + std::to_string(depth) + " threads=" + std::to_string(threads);
        expectSame(countNQueens(n, depth, threads), want, what);
      }
    }
  for (int n = 11; n <= 12; ++n)  // more first-row columns and corner rows
    for (int depth = 2; depth <= 3; ++depth)
      expectSame(countNQueens(n, depth, 2), refCells(n, depth), "n=" + std::to_string(n) + " depth=" + std::to_string(depth));
}

// Larger boards: the published totals and fundamental counts (OEIS A000170,
// A002562); the cells' sums do not depend on the depth or the threads.
TEST(CountQueens, KnownCountsAndSplitIndependence) {
  const uint64_t totals[] = {0, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596};
  const uint64_t classes[] = {0, 1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787, 9233, 45752};
  for (int n = 1; n <= 14; ++n) {
    uint64_t nodes = 0;
    EXPECT_EQ(countNQueensHalving(n, &nodes), totals[n]) << "halving n=" << n;
    EXPECT_GT(nodes, 0u);
  }
  for (int n = 11; n <= 13; ++n) {
    const CountResult whole = countNQueens(n, 0, 1);
    ASSERT_EQ(whole.cells.size(), 1u);
    EXPECT_EQ(whole.cells[0].totals[0], totals[n]) << "n=" << n;
    EXPECT_EQ(whole.cells[0].classes[0], classes[n]) << "n=" << n;
    EXPECT_GT(whole.nodes, 0u);
    for (int depth = 1; depth <= 3; ++depth) {
      const CountResult split = countNQueens(n, depth, depth);  // 1..3 threads
      EXPECT_EQ(sumTotals(split), totals[n]) << "n=" << n << " depth=" << depth;
      EXPECT_EQ(sumTotals(split, true), classes[n]) << "n=" << n << " depth=" << depth;
      uint64_t checksum = 0;
      for (const auto& c : split.cells) checksum += c.checksum;
      EXPECT_EQ(checksum, whole.cells[0].checksum) << "n=" << n << " depth=" << depth;
    }
  }
}

TEST(CountQueens, ProgressReachesTheEnd) {
  size_t lastDone = 0, lastAll = 0, calls = 0;
  countNQueens(12, 2, 2, [&](size_t done, size_t all) {
    EXPECT_LE(done, all);
    lastDone = done, lastAll = all, ++calls;
  });
  EXPECT_GT(calls, 0u);
  EXPECT_EQ(lastDone, lastAll);
}

// The search folds the left-right mirror (it searches one member of each
// class and books the others): a cell and its mirror image hold as many
// solutions.
RC_GTEST_PROP(CountQueensProperty, MirroredCellsHoldEqualTotals, ()) {
  const int n = *rc::gen::inRange(4, 12);
  const int depth = *rc::gen::inRange(1, 3);
  const int threads = *rc::gen::inRange(1, 4);
  const CountResult r = countNQueens(n, depth, threads);
  std::map<std::vector<uint64_t>, uint64_t> byRows;
  for (const auto& c : r.cells) byRows[c.rows] = c.totals.at(0);
  RC_ASSERT(byRows.size() == r.cells.size());
  for (const auto& [rows, total] : byRows) {
    std::vector<uint64_t> mirrored;
    for (uint64_t w : rows) mirrored.push_back(uint64_t(1) << (n - 1 - __builtin_ctzll(w)));
    RC_ASSERT(byRows.at(mirrored) == total);
  }
}
