// The fast n-queens counter: a symmetric bitwise backtracking in the family
// of Takaken's (one member of each symmetry class is searched), which at each
// class's representative expands the class into its distinct members and
// books each member into its cell (docs/count-certificates.md): total,
// whether it is the least of its class (its row-major string, queen = 1, is
// <= those of its images), and its fingerprint.  Also the bench's baseline,
// a plain bitwise counter that halves the first row.
//
// Orientation.  The row word of a queen in column c is 1 << c, and bit c of
// the search's masks is column c.  In the row-major string a queen further
// right in row 0 comes later, so the string is smaller: the least member of a
// class is the one whose column sequence (row 0 first) is lexicographically
// the LARGEST.
//
// Which member is searched (n >= 6; smaller boards are enumerated plainly).
// Each of the four edges (row 0, row n-1, column 0, column n-1) holds one
// queen; its corner distance is min(i, n-1-i) for its position i along the
// edge.  The 8 symmetries permute the edges, so the largest distance b over
// the four is a class invariant, and some member has that edge on top with
// its queen in the left half: row 0's queen in column b, 1 <= b <= (n-1)/2
// (b = 0 would need four corner queens).  The search fixes row 0 = b and
// demands that the other edges be no farther from their corners:
//  - columns 0 and n-1 take no queen in rows b+1 .. n-2-b,
//  - row n-1's queen lies in columns 0..b or n-1-b..n-1,
//  - odd n with b the centre column: the mirror image has its top queen there
//    too; only the one with row 1's queen left of the centre is searched.
// Every member with row 0's queen in column b (row 1's left of the centre
// when b is the centre) satisfies these and is met once; at a leaf the
// member with the lexicographically largest column sequence among them
// stands for the class, and the leaf tells the class size from its own
// symmetry (half turn: 4 members, quarter turn: 2; no n-queens solution for
// n > 1 is symmetric under a reflection).
//
// Why not Takaken's own choice (the SMALLEST corner distance on top, corner
// queens apart): its unconstrained subtree is column 1's, and the small
// distances it excludes from the side columns (rows near the top and the
// bottom) prune little; excluding the large distances (the middle rows)
// prunes far more.  Measured: 24% fewer nodes and 1.3x faster at n = 16..17,
// with the centre halving for odd n.  Takaken's version is in this file's
// history (2928cfc).
//
// The search is iterative; the last three rows are one table lookup
// (Finish3Table).  Work is split into tasks at row 3 (4 from n = 20), taken
// by the threads from a shared counter; each thread books into its own cell
// array, summed at the end.  Progress counts finished tasks.
//
// Nodes: one per placement the search makes in rows 1..n-4 (a task's first
// row counted once), the three rows the table decides not counted.
#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <random>
#include <stdexcept>
#include <system_error>
#include <thread>

#if defined(__BMI2__)
#include <immintrin.h>
#endif

#include "prover/count/count.hpp"

namespace qcert {

namespace {

struct CellAcc {
  uint64_t total = 0, classes = 0, checksum = 0;
};

// What every worker reads: keys and the cell index.
struct Tables {
  int n = 0, depth = 0, keyDigits = 0;
  uint64_t codeTop = 0;  // n^depth - 1: the code of the digitwise complement is codeTop - code
  uint64_t keyTop = 0;   // n^keyDigits - 1
  // key8[(r*n + c)*8 + g] = queenKey of the image of (r, c) under symmetry g
  // (docs' order): a solution's 8 image fingerprints are 8 column sums.
  std::vector<uint64_t> key8;
  // cellOf[code]: the index of the cell whose prefix columns, as base-n digits
  // (row 0 most significant), make `code`; -1 where not admissible.
  std::vector<int32_t> cellOf;
  std::vector<CountCell> cells;  // rows filled, counts empty

  Tables(int n_, int depth_) : n(n_), depth(depth_) {
    keyDigits = std::min(n, 6);
    uint64_t pd = 1, pk = 1;
    for (int i = 0; i < depth; ++i) pd *= uint64_t(n);
    for (int i = 0; i < keyDigits; ++i) pk *= uint64_t(n);
    codeTop = pd - 1;
    keyTop = pk - 1;
    key8.resize(size_t(n) * n * 8);
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < n; ++c) {
        for (int g = 0; g < 8; ++g) {
          const auto [ir, ic] = d4Image(kCountSymmetry[g], n, r, c);
          key8[(size_t(r) * n + c) * 8 + g] = queenKey(n, ir * n + ic);
        }
      }
    cellOf.assign(pd, -1);
    // Admissible prefixes in increasing order of their row words (1 << c):
    // lexicographic in the columns.
    std::vector<int> col(depth);
    auto rec = [&](auto&& self, int r) -> void {
      if (r == depth) {
        uint64_t code = 0;
        CountCell cell;
        for (int i = 0; i < depth; ++i) code = code * n + col[i], cell.rows.push_back(uint64_t(1) << col[i]);
        cellOf[code] = int32_t(cells.size());
        cells.push_back(std::move(cell));
        return;
      }
      for (int c = 0; c < n; ++c) {
        bool ok = true;
        for (int i = 0; i < r && ok; ++i) ok = col[i] != c && std::abs(col[i] - c) != r - i;
        if (!ok) continue;
        col[r] = c;
        self(self, r + 1);
      }
    };
    rec(rec, 0);
  }
};

// One solution, given by its columns p (row -> column), expanded: the codes
// and keys of its 8 images.  Image g's column sequence, by docs' order:
//   0: p[i]  1: n-1-p[i]  2: p[n-1-i]  3: n-1-p[n-1-i]
//   4: q[i]  5: n-1-q[i]  6: q[n-1-i]  7: n-1-q[n-1-i]      (q = p^-1)
// Odd images are the digitwise complements of the even ones.
struct Images {
  int n;
  const uint8_t* p;
  const uint8_t* q;
  int col(int g, int i) const {
    int v;
    switch (g >> 1) {
      case 0: v = p[i]; break;
      case 1: v = p[n - 1 - i]; break;
      case 2: v = q[i]; break;
      default: v = q[n - 1 - i]; break;
    }
    return (g & 1) ? n - 1 - v : v;
  }
  // Is image a's column sequence lexicographically larger than b's (a's
  // string smaller)?
  int compare(int a, int b) const {
    for (int i = 0; i < n; ++i) {
      const int x = col(a, i), y = col(b, i);
      if (x != y) return x > y ? 1 : -1;
    }
    return 0;
  }
};

// Book the distinct members `members[0..m)` of the class of the solution whose
// row words are board[0..n).
inline void bookClass(const Tables& t, const uint32_t* board, const int* members, int m, CellAcc* acc) {
  const int n = t.n;
  uint8_t p[32], q[32];
  alignas(64) uint64_t s[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  for (int r = 0; r < n; ++r) {
    const int c = __builtin_ctz(board[r]);
    p[r] = uint8_t(c);
    q[c] = uint8_t(r);
    const uint64_t* k = &t.key8[(size_t(r) * n + c) * 8];
    for (int g = 0; g < 8; ++g) s[g] += k[g];
  }
  // Prefix codes (the first `depth` digits) and longer keys (keyDigits) of
  // the four even images.
  uint64_t code[8], key[8];
  {
    uint64_t a = 0, b = 0, c = 0, d = 0;
    for (int i = 0; i < t.keyDigits; ++i) {
      if (i == t.depth) code[0] = a, code[2] = b, code[4] = c, code[6] = d;  // the prefix so far
      a = a * n + p[i];
      b = b * n + p[n - 1 - i];
      c = c * n + q[i];
      d = d * n + q[n - 1 - i];
    }
    if (t.depth >= t.keyDigits) code[0] = a, code[2] = b, code[4] = c, code[6] = d;
    key[0] = a, key[2] = b, key[4] = c, key[6] = d;
    for (int g = 0; g < 8; g += 2) code[g + 1] = t.codeTop - code[g], key[g + 1] = t.keyTop - key[g];
  }
  // The least member: the largest column sequence.
  int best = members[0];
  bool tie = false;
  for (int j = 1; j < m; ++j) {
    const int g = members[j];
    if (key[g] > key[best]) best = g, tie = false;
    else if (key[g] == key[best]) tie = true;
  }
  if (tie) {
    const Images im{n, p, q};
    for (int j = 0; j < m; ++j) {
      const int g = members[j];
      if (g != best && key[g] == key[best] && im.compare(g, best) > 0) best = g;
    }
  }
  for (int j = 0; j < m; ++j) {
    const int g = members[j];
    CellAcc& a = acc[t.cellOf[code[g]]];
    a.total += 1;
    a.classes += g == best;
    a.checksum += countMix(s[g]);
  }
}

constexpr int kMembers8[8] = {0, 1, 2, 3, 4, 5, 6, 7};
constexpr int kMembers4[4] = {0, 1, 4, 5};  // symmetric under the half turn (image 3): 2=1, 3=0, 6=5, 7=4
constexpr int kMembers2[2] = {0, 1};        // under the quarter turns (5, 6) too: 0=3=5=6, 1=2=4=7

// The last three rows at once.  With three columns f0 < f1 < f2 left, a
// placement of rows n-3, n-2, n-1 is one of 6 permutations; which are valid
// depends only on which of the three columns each row may take (9 bits) and
// on whether f1-f0 and f2-f1 are 1 or 2 (4 bits): a table of 2^13 entries,
// bit j for permutation kPerm3[j].  This replaces the deepest search levels
// (about a quarter of the nodes, each a likely branch miss) by a lookup.
constexpr uint8_t kPerm3[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};

struct Finish3Table {
  uint8_t valid[1 << 13];
  Finish3Table() {
    for (int idx = 0; idx < (1 << 13); ++idx) {
      const bool g1is1 = idx & 1, g2is1 = idx & 2, f0plus2 = idx & 4, g2is2 = idx & 8;
      // Column differences as 1, 2 or "more" (3): enough to decide attacks
      // between rows at most 2 apart.
      const int g1 = g1is1 ? 1 : f0plus2 ? 2 : 3, g2 = g2is1 ? 1 : g2is2 ? 2 : 3;
      const int pos[3] = {0, g1, g1 + g2};
      uint8_t v = 0;
      for (int j = 0; j < 6; ++j) {
        bool ok = true;
        for (int k = 0; k < 3 && ok; ++k) ok = (idx >> (4 + 3 * k + kPerm3[j][k])) & 1;
        for (int a = 0; a < 3 && ok; ++a)
          for (int b = a + 1; b < 3 && ok; ++b) ok = std::abs(pos[kPerm3[j][a]] - pos[kPerm3[j][b]]) != b - a;
        if (ok) v |= uint8_t(1u << j);
      }
      valid[idx] = v;
    }
  }
};
const Finish3Table kFinish3;

// The bits of x at the three set bits of f, packed (pext).
inline uint32_t pick3(uint32_t x, uint32_t f) {
#if defined(__BMI2__)
  return _pext_u32(x, f);
#else
  const int f0 = __builtin_ctz(f), f1 = __builtin_ctz(f & (f - 1)), f2 = 31 - __builtin_clz(f);
  return ((x >> f0) & 1) | (((x >> f1) & 1) << 1) | (((x >> f2) & 1) << 2);
#endif
}

// A piece of work: the search state after the first `y` rows.
struct Task {
  int b;  // row 0's column
  int y;
  uint32_t left, down, right;
  uint32_t board[4];
};
// Tasks start at row 3 (n >= 6: the table's row n-3 is not above it); from
// n = 20 on at row 4, so that tasks stay small (a few hundred thousand of
// them, well under a second each at n = 20).
inline int splitRow(int n) { return n >= 20 ? 4 : 3; }

class EdgeSearch {
 public:
  EdgeSearch(const Tables& t) : t_(t), n_(t.n), last_(n_ - 1), mask_((1u << n_) - 1), side_(1u | (1u << (n_ - 1))) {
    acc.assign(t.cells.size(), CellAcc{});
  }

  std::vector<CellAcc> acc;
  uint64_t nodes = 0;
  std::vector<Task>* tasks = nullptr;

  void setB(int b) {
    b_ = b;
    for (int y = 0; y < n_; ++y) rowMask_[y] = (y > b && y < n_ - 1 - b) ? mask_ & ~side_ : mask_;
    const uint32_t near = (2u << b) - 1;  // columns 0..b
    rowMask_[last_] = near | (near << (n_ - 1 - b));
    rowMask_[last_] &= mask_;
    // Odd n, b the centre column: the mirror image has its top queen there
    // too; of the two, search the one with row 1's queen left of centre.
    centre_ = (n_ & 1) && 2 * b == n_ - 1;
    if (centre_) rowMask_[1] &= (1u << b) - 1;
  }

  void expand(std::vector<Task>& out) {
    tasks = &out;
    for (int b = 1; b <= (n_ - 1) / 2; ++b) {
      setB(b);
      const uint32_t bit = 1u << b;
      board_[0] = bit;
      split(1, bit << 1, bit, bit >> 1);
    }
    tasks = nullptr;
  }

  void run(const Task& k) {
    setB(k.b);
    for (int i = 0; i < k.y; ++i) board_[i] = k.board[i];
    search(k.y, k.left, k.down, k.right);
  }

 private:
  const Tables& t_;
  const int n_, last_;
  const uint32_t mask_, side_;
  int b_ = 0;
  bool centre_ = false;
  uint32_t rowMask_[32];
  uint32_t board_[32];

  void split(int y, uint32_t left, uint32_t down, uint32_t right) {
    ++nodes;
    if (y == splitRow(n_)) {
      Task k{b_, y, left, down, right, {}};
      // y <= 4 (splitRow); the bound says so to the compiler too.
      for (int i = 0; i < y && i < int(std::size(k.board)); ++i) k.board[i] = board_[i];
      tasks->push_back(k);
      return;
    }
    uint32_t bitmap = rowMask_[y] & ~(left | down | right);
    while (bitmap) {
      const uint32_t bit = bitmap & -bitmap;
      bitmap ^= bit;
      board_[y] = bit;
      split(y + 1, (left | bit) << 1, down | bit, (right | bit) >> 1);
    }
  }

  void search(int y0, uint32_t left0, uint32_t down0, uint32_t right0) {
    uint32_t bm[32], ls[32], ds[32], rs[32];
    const int fin = last_ - 2;  // row n-3: the table takes over
    const uint32_t* rowMask = rowMask_;
    uint64_t nd = 1;
    const uint32_t a0 = rowMask[fin], a1 = rowMask[fin + 1], a2 = rowMask[fin + 2];
    auto finish3 = [&](uint32_t l, uint32_t d, uint32_t r) {
      const uint32_t f = mask_ & ~d;
      const uint32_t idx = (pick3(f & (f >> 1), f) & 3) | ((pick3(f & (f >> 2), f) & 3) << 2) |
                           (pick3(a0 & ~(l | r), f) << 4) | (pick3(a1 & ~((l << 1) | (r >> 1)), f) << 7) |
                           (pick3(a2 & ~((l << 2) | (r >> 2)), f) << 10);
      uint32_t v = kFinish3.valid[idx];
      if (__builtin_expect(!v, 1)) return;
      uint32_t col[3];
      col[0] = f & -f;
      col[1] = (f & (f - 1)) & -(f & (f - 1));
      col[2] = f ^ col[0] ^ col[1];
      for (; v; v &= v - 1) {
        const int j = __builtin_ctz(v);
        for (int k = 0; k < 3; ++k) board_[fin + k] = col[kPerm3[j][k]];
        leaf();
      }
    };
    if (y0 == fin) {
      finish3(left0, down0, right0);
      nodes += nd;
      return;
    }
    int y = y0;
    ls[y] = left0, ds[y] = down0, rs[y] = right0;
    bm[y] = rowMask[y] & ~(left0 | down0 | right0);
    for (;;) {
      const uint32_t b = bm[y];
      if (!b) {
        if (--y < y0) break;
        continue;
      }
      const uint32_t bit = b & -b;
      bm[y] = b ^ bit;
      board_[y] = bit;
      const uint32_t l = (ls[y] | bit) << 1, d = ds[y] | bit, r = (rs[y] | bit) >> 1;
      ++nd;
      const int z = y + 1;
      if (z == fin) {
        finish3(l, d, r);
        continue;
      }
      const uint32_t nb = rowMask[z] & ~(l | d | r);
      if (!nb) continue;
      y = z;
      ls[y] = l, ds[y] = d, rs[y] = r, bm[y] = nb;
    }
    nodes += nd;
  }

  // A solution whose top edge has the largest corner distance of its four
  // edges (b), its queen in the left half.  Every image with row 0's queen
  // in column b is also searched; the one with the largest column sequence
  // stands for the class.
  void leaf() {
    const int n = n_;
    uint8_t p[32], q[32];
    for (int r = 0; r < n; ++r) {
      const int c = __builtin_ctz(board_[r]);
      p[r] = uint8_t(c), q[c] = uint8_t(r);
    }
    const Images im{n, p, q};
    const int b = b_, m = n - 1;
    const int c0[8] = {p[0], m - p[0], p[m], m - p[m], q[0], m - q[0], q[m], m - q[m]};
    bool rot180 = false, rot90 = false;
    for (int g = 1; g < 8; ++g) {
      if (c0[g] != b || (centre_ && im.col(g, 1) > b)) continue;
      const int cmp = im.compare(g, 0);
      if (cmp > 0) return;
      if (cmp == 0) {
        if (g == 3) rot180 = true;
        if (g == 5) rot90 = true;
      }
    }
    if (rot90) bookClass(t_, board_, kMembers2, 2, acc.data());
    else if (rot180) bookClass(t_, board_, kMembers4, 4, acc.data());
    else bookClass(t_, board_, kMembers8, 8, acc.data());
  }
};

// Small boards: every solution, booked alone (its own least-ness decided over
// all 8 images).
void plainCount(const Tables& t, std::vector<CellAcc>& acc, uint64_t& nodes) {
  const int n = t.n;
  const uint32_t mask = (1u << n) - 1;
  uint32_t board[32];
  auto rec = [&](auto&& self, int y, uint32_t left, uint32_t down, uint32_t right) -> void {
    ++nodes;
    if (y == n) {
      // A solution fills every row and column, so entries 0..n-1 are all
      // written below; zeroed because the compiler cannot see that.
      uint8_t p[32] = {}, q[32] = {};
      uint64_t s = 0;
      for (int r = 0; r < n; ++r) {
        const int c = __builtin_ctz(board[r]);
        p[r] = uint8_t(c), q[c] = uint8_t(r);
        s += t.key8[(size_t(r) * n + c) * 8];
      }
      const Images im{n, p, q};
      bool least = true;
      for (int g = 1; g < 8 && least; ++g) least = im.compare(0, g) >= 0;
      uint64_t code = 0;
      for (int i = 0; i < t.depth; ++i) code = code * n + p[i];
      CellAcc& a = acc[t.cellOf[code]];
      a.total += 1;
      a.classes += least;
      a.checksum += countMix(s);
      return;
    }
    uint32_t bitmap = mask & ~(left | down | right);
    while (bitmap) {
      const uint32_t bit = bitmap & -bitmap;
      bitmap ^= bit;
      board[y] = bit;
      self(self, y + 1, (left | bit) << 1, down | bit, (right | bit) >> 1);
    }
  };
  rec(rec, 0, 0, 0, 0);
}

uint64_t halvingRec(uint32_t mask, uint32_t left, uint32_t down, uint32_t right, uint64_t& nodes) {
  ++nodes;
  if (down == mask) return 1;
  uint64_t count = 0;
  uint32_t bitmap = mask & ~(left | down | right);
  while (bitmap) {
    const uint32_t bit = bitmap & -bitmap;
    bitmap ^= bit;
    count += halvingRec(mask, (left | bit) << 1, down | bit, (right | bit) >> 1, nodes);
  }
  return count;
}

}  // namespace

CountResult countNQueens(int n, int depth, int threads, const CountProgress& progress) {
  if (n < 1 || n > 27) throw std::invalid_argument("countNQueens: n must be 1..27");
  if (depth < 0 || depth > std::min(n, 3)) throw std::invalid_argument("countNQueens: depth must be 0..min(n,3)");
  threads = std::max(threads, 1);
  const Tables t(n, depth);
  CountResult res;
  res.cells = t.cells;
  std::vector<CellAcc> total(t.cells.size());

  if (n < 6) {
    plainCount(t, total, res.nodes);
    if (progress) progress(1, 1);
  } else {
    std::vector<Task> tasks;
    {
      EdgeSearch ex(t);
      ex.expand(tasks);
      res.nodes += ex.nodes - tasks.size();  // a task's first node is counted by its run
    }
    // In the order expand() makes them the small tasks come first (n = 17:
    // the first 44% of the tasks took 10% of the time), so the progress
    // line's time left, which assumes the tasks left are like those done,
    // was far too short (n = 18: "about 7 s left" for a minute). Shuffled
    // (a fixed seed: the same order every run), the tasks done are a fair
    // sample. The totals are sums, so the order changes nothing else.
    std::shuffle(tasks.begin(), tasks.end(), std::mt19937_64(0x5eed));
    const size_t all = tasks.size();
    threads = int(std::min<size_t>(size_t(threads), all));
    std::atomic<size_t> next{0}, done{0};
    std::vector<EdgeSearch> workers;
    workers.reserve(threads);
    for (int i = 0; i < threads; ++i) workers.emplace_back(t);
    std::mutex mu;
    std::condition_variable finished;
    auto work = [&](EdgeSearch& w) {
      for (size_t k; (k = next.fetch_add(1, std::memory_order_relaxed)) < all;) {
        w.run(tasks[k]);
        if (done.fetch_add(1, std::memory_order_acq_rel) + 1 == all) {
          std::lock_guard<std::mutex> lock(mu);
          finished.notify_all();
        }
      }
    };
    std::vector<std::thread> pool;
    auto startWorkers = [&](int from) {  // fewer threads will do: the workers share the tasks
      for (int i = from; i < threads; ++i) try {
          pool.emplace_back(work, std::ref(workers[i]));
        } catch (const std::system_error&) {
          break;
        }
    };
    if (progress) startWorkers(0);
    if (progress && !pool.empty()) {
      // The calling thread only reports (every 250 ms), the workers search.
      std::unique_lock<std::mutex> lock(mu);
      while (done.load(std::memory_order_acquire) < all) {
        finished.wait_for(lock, std::chrono::milliseconds(250));
        const size_t d = done.load(std::memory_order_acquire);
        if (d < all) progress(d, all);
      }
    } else {
      if (!progress) startWorkers(1);
      work(workers[0]);
    }
    for (auto& th : pool) th.join();
    for (auto& w : workers) {
      res.nodes += w.nodes;
      for (size_t i = 0; i < total.size(); ++i) {
        total[i].total += w.acc[i].total;
        total[i].classes += w.acc[i].classes;
        total[i].checksum += w.acc[i].checksum;
      }
    }
    if (progress) progress(all, all);
  }
  for (size_t i = 0; i < total.size(); ++i) {
    res.cells[i].totals = {total[i].total};
    res.cells[i].classes = {total[i].classes};
    res.cells[i].checksum = total[i].checksum;
  }
  return res;
}

uint64_t countNQueensHalving(int n, uint64_t* nodes) {
  if (n < 1 || n > 27) throw std::invalid_argument("countNQueensHalving: n must be 1..27");
  const uint32_t mask = (1u << n) - 1;
  uint64_t count = 0, nd = 1;  // the root
  for (int c = 0; c < n / 2; ++c) {
    const uint32_t bit = 1u << c;
    count += halvingRec(mask, bit << 1, bit, bit >> 1, nd);
  }
  count *= 2;
  if (n & 1) {
    const uint32_t bit = 1u << (n / 2);
    count += halvingRec(mask, bit << 1, bit, bit >> 1, nd);
  }
  if (nodes) *nodes = nd;
  return count;
}

}  // namespace qcert
