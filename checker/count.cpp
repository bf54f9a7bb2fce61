// Count certificates (docs/count-certificates.md).  A count has no short proof,
// so the checker does three things of its own:
//   1. coverage: it lists the admissible prefixes of depth d itself and
//      requires the certificate's cells to be exactly that list, in order;
//   2. sums: the claim must be the sum of the cells;
//   3. recount: every cell (or a sample of cells) is counted again by a plain
//      search written here, and compared field by field.
// The searches are deliberately simple: no symmetry tricks, nothing shared
// with the prover.
#include "checker/count.hpp"

#include "checker/board.hpp"     // Rejection
#include "checker/limits.hpp"
#include "checker/parallel.hpp"
#include "schema/qcert.capnp.h"

#include <capnp/serialize.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <numeric>
#include <ostream>
#include <random>
#include <vector>

namespace qcert::checker {
namespace {

constexpr size_t kMaxCells = size_t(1) << 20;

// splitmix64's finaliser and the piece keys of the spec's fingerprint.
uint64_t mix(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}
uint64_t pieceMix(unsigned n, unsigned square, bool hole) {
  return mix((uint64_t(n) << 32) | (uint64_t(square) << 1) | (hole ? 1 : 0));
}

std::string dec(unsigned __int128 x) {  // sums may exceed 64 bits
  std::string s;
  do s.insert(s.begin(), char('0' + unsigned(x % 10))), x /= 10;
  while (x);
  return s;
}
std::string hex(uint64_t x) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%llx", (unsigned long long)x);
  return text;
}
std::string rowsText(const std::vector<uint64_t>& rows) {
  if (rows.empty()) return "the empty prefix";
  std::string s = "rows ";
  for (size_t i = 0; i < rows.size(); ++i) s += (i ? "," : "") + hex(rows[i]);
  return s;
}

std::vector<uint64_t> toVector(capnp::List<uint64_t>::Reader list) {
  std::vector<uint64_t> v;
  for (uint64_t x : list) v.push_back(x);
  return v;
}

enum class Problem { nQueens, nPlusK, torus, endPositions, hp71b };

struct Params {
  Problem problem;
  unsigned n, k, maxQueens, depth;
  size_t totalsLen, classesLen;  // the claim's shape, by problem
};

struct Counts {  // what a cell states, or what its recount finds
  std::vector<uint64_t> totals, classes;
  uint64_t checksum = 0;
};

struct Cell {  // copied out of the message once: plain data for the threads
  std::vector<uint64_t> rows;
  Counts counts;
};

// ---- Ranges and shapes (the spec's problem table) ------------------------

Params readParams(CountClaim::Reader claim) {
  Params p{};
  p.n = claim.getBoardSize(), p.k = claim.getHoles(), p.maxQueens = claim.getMaxQueens(), p.depth = claim.getCellDepth();
  unsigned maxN = 0;
  switch (claim.getProblem()) {
    case CountProblem::N_QUEENS: p.problem = Problem::nQueens, maxN = 27; break;
    case CountProblem::N_PLUS_K: p.problem = Problem::nPlusK, maxN = 12; break;
    case CountProblem::TORUS: p.problem = Problem::torus, maxN = 27; break;
    case CountProblem::END_POSITIONS: p.problem = Problem::endPositions, maxN = 12; break;
    case CountProblem::HP71B: p.problem = Problem::hp71b, maxN = 16; break;
    default: throw Rejection("unknown count problem " + std::to_string(unsigned(claim.getProblem())));
  }
  if (p.n < 1 || p.n > maxN)
    throw Rejection("board size " + std::to_string(p.n) + " is outside 1.." + std::to_string(maxN) + " for this problem");
  if (p.problem == Problem::nPlusK ? (p.k < 1 || p.k > 4) : p.k != 0)
    throw Rejection("holes " + std::to_string(p.k) + ": must be 1..4 for nPlusK and 0 otherwise");
  if (p.problem == Problem::endPositions ? p.maxQueens > p.n : p.maxQueens != 0)
    throw Rejection("maxQueens " + std::to_string(p.maxQueens) + ": must be 0..n for endPositions and 0 otherwise");
  if (p.depth > std::min(p.n, 3u) || (p.problem == Problem::hp71b && p.depth != 0))
    throw Rejection("cellDepth " + std::to_string(p.depth) + " is outside 0..min(n,3) (0 for hp71b)");
  const size_t sizes = (p.maxQueens ? p.maxQueens : p.n) + 1;  // endPositions: one entry per size 0..L
  switch (p.problem) {
    case Problem::nQueens: case Problem::nPlusK: p.totalsLen = 1, p.classesLen = 1; break;
    case Problem::torus: p.totalsLen = 1, p.classesLen = 0; break;
    case Problem::endPositions: p.totalsLen = sizes, p.classesLen = sizes; break;
    case Problem::hp71b: p.totalsLen = 2, p.classesLen = 0; break;  // solutions, nodes
  }
  return p;
}

// ---- Coverage: the admissible prefixes --------------------------------------

// The words a row may hold (the spec's row form), in increasing order.
std::vector<uint64_t> rowForms(const Params& p) {
  std::vector<uint64_t> forms;
  if (p.problem == Problem::endPositions) forms.push_back(0);  // at most one queen
  if (p.problem != Problem::nPlusK) {
    for (unsigned c = 0; c < p.n; ++c) forms.push_back(uint64_t(1) << c);
    return forms;
  }
  // nPlusK: q0 < h1 < q1 < ... < hm < qm with m <= k.  From column c on: the
  // next queen at q, then the row ends or a hole at h and another queen follow.
  auto extend = [&](auto& self, uint64_t word, unsigned c, unsigned holes) -> void {
    for (unsigned q = c; q < p.n; ++q) {
      const uint64_t w = word | uint64_t(1) << q;
      forms.push_back(w);
      if (holes < p.k)
        for (unsigned h = q + 1; h + 1 < p.n; ++h) self(self, w | uint64_t(1) << (32 + h), h + 1, holes + 1);
    }
  };
  extend(extend, 0, 0, 0);
  std::sort(forms.begin(), forms.end());
  return forms;
}

// Is `rows` (at most 3 of them) an admissible prefix: every row of the row
// form, at most k holes, and no two of its queens breaking the problem's rule?
bool admissible(const Params& p, const std::vector<uint64_t>& forms, const std::vector<uint64_t>& rows) {
  struct Square { int r, c; };
  std::array<Square, 3 * 32> queens;
  size_t queenCount = 0;
  bool hole[3][32] = {};
  unsigned holes = 0;
  for (size_t r = 0; r < rows.size(); ++r) {
    if (!std::binary_search(forms.begin(), forms.end(), rows[r])) return false;
    for (unsigned c = 0; c < p.n; ++c) {
      if (rows[r] >> c & 1) queens[queenCount++] = {int(r), int(c)};
      if (rows[r] >> (32 + c) & 1) hole[r][c] = true, ++holes;
    }
  }
  if (holes > p.k) return false;
  const int n = int(p.n);
  for (size_t i = 0; i < queenCount; ++i)
    for (size_t j = i + 1; j < queenCount; ++j) {
      const auto [r1, c1] = queens[i];
      const auto [r2, c2] = queens[j];
      if (p.problem == Problem::torus) {
        if (r1 == r2 || c1 == c2 || (r1 + c1) % n == (r2 + c2) % n || (r1 - c1 + 2 * n) % n == (r2 - c2 + 2 * n) % n) return false;
        continue;
      }
      if (r1 != r2 && c1 != c2 && r1 + c1 != r2 + c2 && r1 - c1 != r2 - c2) continue;  // no common line
      bool blocked = false;  // nPlusK: a hole strictly between them on their line
      if (p.problem == Problem::nPlusK) {
        const int dr = (r2 > r1) - (r2 < r1), dc = (c2 > c1) - (c2 < c1);
        for (int r = r1 + dr, c = c1 + dc; r != r2 || c != c2; r += dr, c += dc) blocked = blocked || hole[r][c];
      }
      if (!blocked) return false;
    }
  return true;
}

// The admissible prefixes of depth d in increasing order (extending rows by
// words in increasing order lists them lexicographically), at most `limit`.
std::vector<std::vector<uint64_t>> admissiblePrefixes(const Params& p, const std::vector<uint64_t>& forms, size_t limit) {
  std::vector<std::vector<uint64_t>> out;
  std::vector<uint64_t> rows;
  auto extend = [&](auto& self) -> void {
    if (rows.size() == p.depth) return out.push_back(rows);
    for (uint64_t w : forms) {
      if (out.size() >= limit) return;
      rows.push_back(w);
      if (admissible(p, forms, rows)) self(self);  // a prefix of an admissible prefix is admissible
      rows.pop_back();
    }
  };
  extend(extend);
  return out;
}

void checkCoverage(const Params& p, const std::vector<Cell>& cells) {
  const auto forms = rowForms(p);
  const auto expected = admissiblePrefixes(p, forms, cells.size() + 1);  // one more shows a missing cell
  for (size_t i = 0; i < std::max(cells.size(), expected.size()); ++i) {
    if (i >= cells.size())
      throw Rejection("cell missing: the admissible prefix " + rowsText(expected[i]) + " (the certificate lists only " + std::to_string(i) + " cells)");
    const auto& rows = cells[i].rows;
    if (!admissible(p, forms, rows))
      throw Rejection("cell " + std::to_string(i) + " (" + rowsText(rows) + ") is not an admissible prefix");
    if (i >= expected.size())
      throw Rejection("cell " + std::to_string(i) + " (" + rowsText(rows) + ") is extra: a repeated or out-of-order cell");
    if (rows < expected[i])
      throw Rejection("cell " + std::to_string(i) + " (" + rowsText(rows) + ") is repeated or out of order (expected " + rowsText(expected[i]) + ")");
    if (rows != expected[i])
      throw Rejection("the admissible prefix " + rowsText(expected[i]) + " is missing or out of order (cell " + std::to_string(i) + " has " + rowsText(rows) + ")");
  }
}

// ---- Recount: nQueens and torus, plain bitwise row-by-row backtracking ----

template <bool Torus>
struct QueenCounter {
  unsigned n;
  uint32_t full;           // the n column bits
  bool wantClasses;
  uint64_t key[27][27];    // pieceMix of a queen on (r,c): the fingerprint is mix(sum of these)
  unsigned col[27];        // the queen's column in each row on the current path
  Counts out{{0}, {0}, 0};

  // Blocked columns of the next row from a line through a queen: for
  // r+c = const the column moves left, for r-c = const right; the torus wraps.
  uint32_t nextA(uint32_t a) const { return Torus ? a >> 1 | (a & 1) << (n - 1) : a >> 1; }
  uint32_t nextB(uint32_t b) const { return (Torus ? b << 1 | b >> (n - 1) : b << 1) & full; }

  void search(unsigned r, uint32_t cols, uint32_t a, uint32_t b, uint64_t sum) {
    if (limits::timeUp()) return;  // run() throws: no count is read from a stopped search
    if (r == n) {
      ++out.totals[0];
      out.checksum += mix(sum);
      if (wantClasses && leastOfClass()) ++out.classes[0];
      return;
    }
    for (uint32_t avail = full & ~(cols | a | b); avail; avail &= avail - 1) {
      const uint32_t bit = avail & -avail;
      col[r] = unsigned(std::countr_zero(bit));
      search(r + 1, cols | bit, nextA(a | bit), nextB(b | bit), sum + key[r][col[r]]);
    }
  }

  // Least of its class: its string <= each image's.  Both have one queen per
  // row; at the first row where the columns differ, the string whose queen
  // stands further left has its 1 first and is the greater.  So: at the first
  // differing row, col[r] > the image's column.  Row r of each image (m = n-1,
  // inv = inverse permutation): (r,m-c): m-col[r]; (m-r,c): col[m-r];
  // (m-r,m-c): m-col[m-r]; (c,r): inv[r]; (c,m-r): m-inv[r]; (m-c,r): inv[m-r];
  // (m-c,m-r): m-inv[m-r].  Most solutions fail at row 0 or 1.
  bool leastOfClass() const {
    const unsigned m = n - 1;
    auto notAbove = [&](auto image) {
      for (unsigned r = 0; r < n; ++r)
        if (col[r] != image(r)) return col[r] > image(r);
      return true;
    };
    if (!notAbove([&](unsigned r) { return m - col[r]; }) || !notAbove([&](unsigned r) { return col[m - r]; }) ||
        !notAbove([&](unsigned r) { return m - col[m - r]; }))
      return false;
    unsigned inv[27];
    for (unsigned r = 0; r < n; ++r) inv[col[r]] = r;
    return notAbove([&](unsigned r) { return inv[r]; }) && notAbove([&](unsigned r) { return m - inv[r]; }) &&
           notAbove([&](unsigned r) { return inv[m - r]; }) && notAbove([&](unsigned r) { return m - inv[m - r]; });
  }

  Counts run(const Params& p, const std::vector<uint64_t>& prefix) {
    n = p.n, full = uint32_t((uint64_t(1) << n) - 1), wantClasses = !Torus;
    for (unsigned r = 0; r < n; ++r)
      for (unsigned c = 0; c < n; ++c) key[r][c] = pieceMix(n, r * n + c, false);
    uint32_t cols = 0, a = 0, b = 0;
    uint64_t sum = 0;
    for (unsigned r = 0; r < prefix.size(); ++r) {  // the cell's rows: admissible, one queen each
      const uint32_t bit = uint32_t(prefix[r]);
      col[r] = unsigned(std::countr_zero(bit));
      cols |= bit, a = nextA(a | bit), b = nextB(b | bit), sum += key[r][col[r]];
    }
    search(unsigned(prefix.size()), cols, a, b, sum);
    limits::checkTime();
    if (Torus) out.classes.clear();
    return out;
  }
};

// ---- Recount: nPlusK and endPositions, a board array with ray walks ----

enum : uint8_t { kEmpty = 0, kQueen = 1, kHole = 2 };  // the digits of a placement's string

struct BoardCounter {
  const Params& p;
  int n;
  size_t sizes;                  // totals entries: 1, or L+1 for endPositions
  std::vector<uint8_t> board;    // row-major: kEmpty, kQueen or kHole
  std::vector<int> attacked;     // endPositions: queens attacking each square
  std::array<std::vector<unsigned>, 8> sym;  // sym[g][s]: image of square s under the g-th symmetry
  unsigned holes = 0, queens = 0;
  Counts out;

  BoardCounter(const Params& params) : p(params), n(int(params.n)), sizes(params.totalsLen) {
    board.assign(n * n, kEmpty), attacked.assign(n * n, 0);
    out.totals.assign(sizes, 0), out.classes.assign(sizes, 0);
    const int m = n - 1;
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < n; ++c) {
        const int images[8][2] = {{r, c}, {r, m - c}, {m - r, c}, {m - r, m - c}, {c, r}, {c, m - r}, {m - c, r}, {m - c, m - r}};
        for (int g = 0; g < 8; ++g) sym[g].push_back(unsigned(images[g][0] * n + images[g][1]));
      }
  }
  uint8_t& at(int r, int c) { return board[r * n + c]; }

  // For each g, s -> board[sym[g][s]] is the string of an image (g runs over a
  // group, so its inverses are all there too); the least is <= every image.
  bool leastOfClass() const {
    for (int g = 1; g < 8; ++g)
      for (size_t s = 0; s < board.size(); ++s)
        if (board[s] != board[sym[g][s]]) {
          if (board[s] > board[sym[g][s]]) return false;
          break;
        }
    return true;
  }
  void countPlacement(size_t entry) {
    uint64_t sum = 0;
    for (size_t s = 0; s < board.size(); ++s)
      if (board[s] != kEmpty) sum += pieceMix(p.n, unsigned(s), board[s] == kHole);
    ++out.totals[entry];
    out.checksum += mix(sum);
    if (leastOfClass()) ++out.classes[entry];
  }

  // nPlusK.  The first piece from (r,c) going (dr,dc), or kEmpty at the edge.
  uint8_t firstPiece(int r, int c, int dr, int dc) {
    for (r += dr, c += dc; r >= 0 && r < n && c >= 0 && c < n; r += dr, c += dc)
      if (at(r, c) != kEmpty) return at(r, c);
    return kEmpty;
  }
  // Rows fill in order and each row left to right, so every piece placed so
  // far lies left, up, up-left or up-right of (r,c): those four lines decide.
  bool queenFits(int r, int c) {
    return firstPiece(r, c, 0, -1) != kQueen && firstPiece(r, c, -1, 0) != kQueen &&
           firstPiece(r, c, -1, -1) != kQueen && firstPiece(r, c, -1, 1) != kQueen;
  }
  // Row r from column c on, in the row form q0 < h1 < q1 < ... < hm < qm.
  void plusKRow(int r, int c) {
    for (int q = c; q < n; ++q) {
      if (!queenFits(r, q)) continue;
      at(r, q) = kQueen;
      plusKFrom(r + 1);  // the row ends with this queen ...
      for (int h = q + 1; holes < p.k && h + 1 < n; ++h) {  // ... or a hole and another queen follow
        at(r, h) = kHole, ++holes;
        plusKRow(r, h + 1);
        at(r, h) = kEmpty, --holes;
      }
      at(r, q) = kEmpty;
    }
  }
  void plusKFrom(int r) {
    limits::checkTime();
    if (r < n) return plusKRow(r, 0);
    if (holes == p.k) countPlacement(0);  // every row has one queen more than holes: n+k queens
  }

  // endPositions.  A queen on (r,c) attacks along its 8 rays (no blocking).
  void attack(int r, int c, int delta) {
    for (int dr = -1; dr <= 1; ++dr)
      for (int dc = -1; dc <= 1; ++dc)
        if (dr || dc)
          for (int rr = r + dr, cc = c + dc; rr >= 0 && rr < n && cc >= 0 && cc < n; rr += dr, cc += dc) attacked[rr * n + cc] += delta;
  }
  void endFrom(int r) {
    limits::checkTime();
    if (queens >= sizes) return;  // more than L queens: never counted (a cell's prefix may hold that many)
    if (r == n) {
      for (size_t s = 0; s < board.size(); ++s)
        if (board[s] == kEmpty && attacked[s] == 0) return;  // not maximal: a queen still fits there
      return countPlacement(queens);
    }
    endFrom(r + 1);  // row r stays empty
    for (int c = 0; c < n; ++c)
      if (board[r * n + c] == kEmpty && attacked[r * n + c] == 0) {
        at(r, c) = kQueen, ++queens, attack(r, c, +1);
        endFrom(r + 1);
        at(r, c) = kEmpty, --queens, attack(r, c, -1);
      }
  }

  Counts run(const std::vector<uint64_t>& prefix) {
    for (int r = 0; r < int(prefix.size()); ++r)  // the cell's rows (admissible)
      for (int c = 0; c < n; ++c) {
        if (prefix[r] >> (32 + c) & 1) at(r, c) = kHole, ++holes;
        if (prefix[r] >> c & 1) {
          at(r, c) = kQueen, ++queens;
          if (p.problem == Problem::endPositions) attack(r, c, +1);
        }
      }
    if (p.problem == Problem::nPlusK) plusKFrom(int(prefix.size()));
    else endFrom(int(prefix.size()));
    return out;
  }
};

// ---- Recount: hp71b, seed 001's program line by line ----------------------
// Lines 10-80 set up (B(1..S) with OPTION BASE 1; R, F, N = 0), 200-210 only
// display a solution (the checksum takes its fingerprint there instead), 230-
// 240 print F and N.  Every other line is here, with its number.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-label"
Counts runHp71b(unsigned size) {
  const int S = int(size);
  int B[17] = {}, R = 0, C = 0, T = 0;
  uint64_t F = 0, N = 0, checksum = 0;
L90:  R = R + 1; if (R > S) goto L190;
L100: C = 0;
L110: C = C + 1; if (C > S) goto L170;
L120: T = 0;
L130: N = N + 1; limits::checkTime();
L140: T = T + 1; if (T >= R) goto L160;
L150: if (B[T] == C || std::abs(B[T] - C) == R - T) goto L110; else goto L140;
L160: B[R] = C; goto L90;
L170: R = R - 1; if (R == 0) goto L230;
L180: C = B[R]; goto L110;
L190: F = F + 1;
L200: {  // the solution: a queen in column B(K) of row K, K = 1..S
    uint64_t sum = 0;
    for (int K = 1; K <= S; ++K) sum += pieceMix(size, unsigned((K - 1) * S + B[K] - 1), false);
    checksum += mix(sum);
  }
L220: R = R - 1; goto L110;
L230: return Counts{{F, N}, {}, checksum};
}
#pragma GCC diagnostic pop

Counts recount(const Params& p, const std::vector<uint64_t>& prefix) {
  switch (p.problem) {
    case Problem::nQueens: return QueenCounter<false>().run(p, prefix);
    case Problem::torus: return QueenCounter<true>().run(p, prefix);
    case Problem::hp71b: return runHp71b(p.n);  // its one cell is the empty prefix
    default: return BoardCounter(p).run(prefix);
  }
}

// Seconds of one core that recounting every cell takes, from the header's
// problem and n alone (never the cells' totals, which are the prover's word):
// the user time measured at one n with --jobs 1 (n-queens and torus: README's
// "Counting"; nPlusK at k = 4, the most holes, and endPositions with no bound
// on the queens, the costliest forms), times at least the growth measured
// per unit of n.  It guards against a recount of years (--max-cpu-hours), so
// it leans high.
double fullRecountSeconds(const Params& p) {
  struct Measured { unsigned n; double seconds, growth; };
  Measured m{};
  switch (p.problem) {
    case Problem::nQueens: m = {18, 330, 8}; break;
    case Problem::torus: m = {19, 40, 6}; break;
    case Problem::nPlusK: m = {11, 15, 15}; break;
    case Problem::endPositions: m = {10, 2, 11}; break;
    case Problem::hp71b: m = {12, 0.2, 7}; break;
  }
  return m.seconds * std::pow(m.growth, double(p.n) - double(m.n));
}

// "" when the recount agrees with the cell, else what differs.
std::string compareCell(const Cell& cell, const Counts& got) {
  auto lists = [&](const char* name, const std::vector<uint64_t>& stated, const std::vector<uint64_t>& found) -> std::string {
    for (size_t j = 0; j < stated.size(); ++j)
      if (j >= found.size() || stated[j] != found[j])
        return name + std::string("[") + std::to_string(j) + "] is " + std::to_string(stated[j]) + ", recount gives " +
               (j < found.size() ? std::to_string(found[j]) : "nothing");
    return stated.size() == found.size() ? "" : name + std::string(": recount has more entries");
  };
  std::string why = lists("totals", cell.counts.totals, got.totals);
  if (why.empty()) why = lists("classes", cell.counts.classes, got.classes);
  if (why.empty() && cell.counts.checksum != got.checksum)
    why = "checksum is " + hex(cell.counts.checksum) + ", recount gives " + hex(got.checksum);
  return why;
}

// "1 solution", "92 solutions": statements are read by people.
std::string counted(unsigned __int128 x, const std::string& noun) { return dec(x) + " " + noun + (x == 1 ? "" : "s"); }

std::string statement(const Params& p, const std::vector<unsigned __int128>& totals, const std::vector<unsigned __int128>& classes) {
  const std::string n = std::to_string(p.n), board = n + "x" + n;
  switch (p.problem) {
    case Problem::nQueens:
      return "the " + n + "-queens problem has " + counted(totals[0], "solution") + ", " + dec(classes[0]) + " up to symmetry";
    case Problem::nPlusK:
      return "the " + n + "+" + std::to_string(p.k) + " queens problem has " + counted(totals[0], "solution") + ", " + dec(classes[0]) +
             " up to symmetry";
    case Problem::torus: return "the " + n + "-queens problem on the torus has " + counted(totals[0], "solution");
    case Problem::hp71b:
      return "the HP-71B program on the " + board + " board finds " + counted(totals[0], "solution") + " and examines " +
             counted(totals[1], "node");
    case Problem::endPositions: break;
  }
  if (p.maxQueens == 0)
    return "the " + board + " queens game has " + counted(std::accumulate(totals.begin(), totals.end(), (unsigned __int128)0), "end position") +
           ", " + dec(std::accumulate(classes.begin(), classes.end(), (unsigned __int128)0)) + " up to symmetry";
  for (size_t s = 0; s < totals.size(); ++s)
    if (totals[s] != 0)
      return "at least " + counted(s, "non-attacking queen") + (s == 1 ? " is" : " are") + " needed to leave no square of the " + board +
             " board free; with " + std::to_string(s) + ": " + counted(totals[s], "placement") + ", " + dec(classes[s]) + " up to symmetry";
  return "no " + std::to_string(p.maxQueens) + " or fewer non-attacking queens leave no square of the " + board + " board free";
}

}  // namespace

CountResult verifyCountCertificate(const Certificate& cert, unsigned jobs, uint64_t sample, uint64_t seed,
                                   uint64_t part, uint64_t parts, bool progress, std::ostream* announce) {
  // Every list is length-checked before its elements are read, so traversal
  // stays near the message size; the limit only has to admit 2^20 cells.
  capnp::ReaderOptions options;
  options.traversalLimitInWords = uint64_t(1) << 30;
  capnp::FlatArrayMessageReader reader(cert.header, options);
  const auto claim = reader.getRoot<Header>().getCount();
  const Params p = readParams(claim);

  // Shapes, and a plain copy of the cells.
  auto copyCounts = [&](const std::string& what, auto totals, auto classes, uint64_t checksum) {
    if (totals.size() != p.totalsLen || classes.size() != p.classesLen)
      throw Rejection(what + " has " + std::to_string(totals.size()) + " totals and " + std::to_string(classes.size()) +
                      " classes entries; this problem needs " + std::to_string(p.totalsLen) + " and " + std::to_string(p.classesLen));
    return Counts{toVector(totals), toVector(classes), checksum};
  };
  const Counts stated = copyCounts("the claim", claim.getTotals(), claim.getClasses(), claim.getChecksum());
  const auto list = claim.getCells();
  if (list.size() > kMaxCells) throw Rejection(std::to_string(list.size()) + " cells: more than 2^20");
  limits::reserve(uint64_t(list.size()) * (sizeof(Cell) + 8 * (p.depth + p.totalsLen + p.classesLen) + 64), "the cells");
  const uint64_t allowedBits = ((uint64_t(1) << p.n) - 1) * (p.problem == Problem::nPlusK ? 0x100000001ull : 1);
  std::vector<Cell> cells(list.size());
  for (size_t i = 0; i < cells.size(); ++i) {
    const std::string what = "cell " + std::to_string(i);
    const auto rows = list[i].getRows();
    if (rows.size() != p.depth)
      throw Rejection(what + " has " + std::to_string(rows.size()) + " rows, cellDepth is " + std::to_string(p.depth));
    cells[i].rows = toVector(rows);
    for (uint64_t w : cells[i].rows)
      if (w & ~allowedBits)
        throw Rejection(what + " (" + rowsText(cells[i].rows) + "): a row word has bits outside the " + std::to_string(p.n) +
                        " columns" + (p.problem == Problem::nPlusK ? "" : " or a hole bit (holes exist only in nPlusK)"));
    cells[i].counts = copyCounts(what + " (" + rowsText(cells[i].rows) + ")", list[i].getTotals(), list[i].getClasses(), list[i].getChecksum());
  }

  // 1. Coverage.
  checkCoverage(p, cells);

  // 2. Sums (128-bit: 2^20 cells of 64-bit counts cannot overflow them).
  std::vector<unsigned __int128> totals(p.totalsLen, 0), classes(p.classesLen, 0);
  uint64_t checksum = 0;  // mod 2^64 by definition
  for (const Cell& cell : cells) {
    for (size_t j = 0; j < p.totalsLen; ++j) totals[j] += cell.counts.totals[j];
    for (size_t j = 0; j < p.classesLen; ++j) classes[j] += cell.counts.classes[j];
    checksum += cell.counts.checksum;
  }
  for (size_t j = 0; j < p.totalsLen; ++j)
    if (totals[j] != stated.totals[j])
      throw Rejection("claim totals[" + std::to_string(j) + "] is " + std::to_string(stated.totals[j]) + ", the cells sum to " + dec(totals[j]));
  for (size_t j = 0; j < p.classesLen; ++j)
    if (classes[j] != stated.classes[j])
      throw Rejection("claim classes[" + std::to_string(j) + "] is " + std::to_string(stated.classes[j]) + ", the cells sum to " + dec(classes[j]));
  if (checksum != stated.checksum)
    throw Rejection("claim checksum is " + hex(stated.checksum) + ", the cells sum to " + hex(checksum));

  // 3. Recount: all cells, or K distinct ones by a partial Fisher-Yates
  //    shuffle.  rng() % range rather than std::uniform_int_distribution, whose
  //    algorithm differs between standard libraries: a seed names the same
  //    cells everywhere (the bias is below 2^-43 for <= 2^20 cells).
  std::vector<size_t> todo(cells.size());
  std::iota(todo.begin(), todo.end(), size_t(0));
  if (sample > 0) {
    if (sample > cells.size())
      throw IoError("--sample " + std::to_string(sample) + " exceeds the certificate's " + std::to_string(cells.size()) + " cells");
    std::mt19937_64 rng(seed);
    for (size_t i = 0; i < sample; ++i) std::swap(todo[i], todo[i + size_t(rng() % (todo.size() - i))]);
    todo.resize(sample);
  }
  if (parts > 0)
    todo.erase(std::remove_if(todo.begin(), todo.end(), [&](size_t i) { return i % parts != part; }), todo.end());
  // Largest stated cells first so the long ones do not end up last; the
  // stated (untrusted) numbers only steer this schedule.
  auto weight = [&](size_t i) { return std::accumulate(cells[i].counts.totals.begin(), cells[i].counts.totals.end(), (unsigned __int128)0); };
  std::stable_sort(todo.begin(), todo.end(), [&](size_t x, size_t y) { return weight(x) > weight(y); });

  // Announce the work before doing it: the cells' own (untrusted) totals say
  // how many placements the recount will visit at least.  The 1e9 a second
  // per job is optimistic, so a refusal here never stops a check that fits.
  unsigned __int128 placements = 0;
  for (size_t i : todo) placements += weight(i);
  const double seconds = double(placements) / 1e9 / std::max(1u, std::min<unsigned>(jobs, unsigned(std::min<size_t>(todo.size(), 4096))));
  if (announce)
    *announce << "  recount: " << todo.size() << " of " << cells.size() << (cells.size() == 1 ? " cell" : " cells") << " of depth "
              << p.depth << " on the " << p.n << "x" << p.n << " board; they state " << dec(placements)
              << " placements in all (the certificate's word), each of which the recount visits" << std::endl;
  const std::string which = todo.size() == cells.size() ? "every cell" : std::to_string(todo.size()) + " of the " + std::to_string(cells.size()) + " cells";
  if (!todo.empty())
    limits::refuseLongerThanCeiling(fullRecountSeconds(p) * double(todo.size()) / double(cells.size()),
                                    "recounting " + which + " on the " + std::to_string(p.n) + "x" + std::to_string(p.n) + " board");
  if (limits::timeLimit() > 0 && seconds > limits::timeLimit())
    throw NotChecked("the cells state " + dec(placements) + " placements: recounting them takes longer than --time-limit " +
                     std::to_string(limits::timeLimit()) + " s (over " + std::to_string(uint64_t(seconds)) + " s even at 1e9 a second)");

  const auto start = std::chrono::steady_clock::now();
  std::mutex mutex;
  size_t done = 0;
  double lastReport = 0;
  forEachItem(
      jobs, todo.size(),
      [&](size_t t) {
        const size_t i = todo[t];
        if (const std::string why = compareCell(cells[i], recount(p, cells[i].rows)); !why.empty()) throw Rejection(why);
        if (progress) {  // long recounts (n = 18: minutes) show where they are
          std::lock_guard lock(mutex);
          const double now = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
          if (now >= lastReport + 1) lastReport = now, std::fprintf(stderr, "\r  recounted %zu of %zu cells, %.0f s ", ++done, todo.size(), now);
          else ++done;
        }
      },
      [&](size_t t) { return "cell " + std::to_string(todo[t]) + " (" + rowsText(cells[todo[t]].rows) + ")"; });
  if (progress && lastReport > 0) std::fprintf(stderr, "\r%60s\r", "");

  CountResult result;
  result.statement = statement(p, totals, classes);
  result.cells = cells.size();
  result.recounted = todo.size();
  result.recountSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  result.producer = claim.getProducer();
  return result;
}

}  // namespace qcert::checker
