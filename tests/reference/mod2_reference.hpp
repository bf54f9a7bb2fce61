// A reference model of the mod-2 game (docs/mod2-game.md), written from the
// doc's rules alone: plain loops over squares, no symmetry tricks, slow on
// purpose. The checker's mod-2 tests (tests/mod2_checker_test.cpp) and the
// mod-2 fuzz target (fuzz/fuzz_mod2_certificate.cpp) take their expected
// answers from it. It includes nothing of prover/ or checker/ (nor the
// schema), so a mistake there cannot also be a mistake here.
//
// Squares are r * n + c, 0-based (paper (i, j) is (i - 1) * n + (j - 1)).
// Rules, by number: 0 standard (a queen goes on an empty square seen by an
// even number of queens), 1 alternate universe (seen by an odd number),
// 2 complementary (a queen is taken off a square seen by an even number).
#pragma once
#include <algorithm>
#include <bit>
#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <tuple>
#include <utility>
#include <vector>

namespace mod2ref {

// Does square a see square b: a != b on one row, column or diagonal?
inline bool sees(int n, int a, int b) {
  const int r1 = a / n, c1 = a % n, r2 = b / n, c2 = b % n;
  return a != b && (r1 == r2 || c1 == c2 || r1 - r2 == c1 - c2 || r1 - r2 == c2 - c1);
}

// A play of the standard game on a board of any size: the queens in the order placed.
struct Play {
  int n;
  std::vector<bool> q;      // q[s]: a queen on s
  std::vector<int> placed;  // the queens, in order
  explicit Play(int size) : n(size), q(size_t(size * size)) {}
  // How many queens see square s.
  int att(int s) const {
    int k = 0;
    for (int t : placed) k += sees(n, s, t);
    return k;
  }
  void place(int s) { q[s] = true, placed.push_back(s); }
  bool open(int s) const { return !q[s] && att(s) % 2 == 0; }
  int count() const { return int(std::count(q.begin(), q.end(), true)); }
  bool anyOpen() const {
    for (int s = 0; s < n * n; ++s)
      if (open(s)) return true;
    return false;
  }
};

// Positions of a board of at most 64 squares as masks of queens (bit s: a
// queen on s), for the exhaustive searches (n <= 4 or so).
struct Masks {
  int n;
  explicit Masks(int size) : n(size) {}

  // How many queens of p see square s.
  int att(uint64_t p, int s) const {
    int k = 0;
    for (int t = 0; t < n * n; ++t) k += (p >> t & 1) && sees(n, s, t);
    return k;
  }
  bool move(int rule, uint64_t p, int s) const {
    const bool occupied = p >> s & 1;
    return rule == 2 ? occupied && att(p, s) % 2 == 0 : !occupied && att(p, s) % 2 == rule;
  }
  uint64_t after(int rule, uint64_t p, int s) const { return rule == 2 ? p & ~(uint64_t(1) << s) : p | uint64_t(1) << s; }
  bool hasMove(int rule, uint64_t p) const {
    for (int s = 0; s < n * n; ++s)
      if (move(rule, p, s)) return true;
    return false;
  }
  // Every position of the standard game reachable from the empty board.
  std::set<uint64_t> legal() const {
    std::set<uint64_t> seen{0};
    std::vector<uint64_t> todo{0};
    while (!todo.empty()) {
      const uint64_t p = todo.back();
      todo.pop_back();
      for (int s = 0; s < n * n; ++s)
        if (move(0, p, s) && seen.insert(after(0, p, s)).second) todo.push_back(after(0, p, s));
    }
    return seen;
  }
  // The least image of p under the square's 8 rotations and reflections.
  uint64_t canonical(uint64_t p) const {
    uint64_t best = p;
    for (int k = 0; k < 8; ++k) {
      uint64_t img = 0;
      for (int s = 0; s < n * n; ++s)
        if (p >> s & 1) {
          int r = s / n, c = s % n;
          if (k & 4) c = n - 1 - c;
          for (int t = 0; t < (k & 3); ++t) std::tie(r, c) = std::make_pair(c, n - 1 - r);
          img |= uint64_t(1) << (r * n + c);
        }
      best = std::min(best, img);
    }
    return best;
  }
  // The distinct plays of the standard game from p to a position with no move.
  uint64_t plays(uint64_t p, std::map<uint64_t, uint64_t>& memo) const {
    if (auto it = memo.find(p); it != memo.end()) return it->second;
    uint64_t total = 0;
    for (int s = 0; s < n * n; ++s)
      if (move(0, p, s)) total += plays(after(0, p, s), memo);
    return memo[p] = total ? total : 1;
  }
  // A play of the standard game of exactly k moves from the empty board that
  // ends locked (no move, the board not full), or empty when there is none:
  // depth first, each position tried once.
  std::vector<uint16_t> lockingPlay(int k) const {
    const uint64_t full = n * n == 64 ? ~uint64_t(0) : (uint64_t(1) << n * n) - 1;
    std::set<uint64_t> tried;
    std::vector<uint16_t> play;
    std::function<bool(uint64_t)> dfs = [&](uint64_t p) {
      if (int(play.size()) == k) return p != full && !hasMove(0, p);
      if (!tried.insert(p).second) return false;
      for (int s = 0; s < n * n; ++s)
        if (move(0, p, s)) {
          play.push_back(uint16_t(s));
          if (dfs(after(0, p, s))) return true;
          play.pop_back();
        }
      return false;
    };
    return dfs(0) ? play : std::vector<uint16_t>{};
  }
};

// The legal positions of the standard game on the n x n board, counted.
struct Census {
  std::vector<uint64_t> totals, classes;  // by number of queens 0..n^2: positions, and up to symmetry
  uint64_t most = 0;                      // the most queens in a legal position
  uint64_t fewestLocking = UINT64_MAX;    // the fewest in one with no move and the board not full (none: UINT64_MAX)
};
inline Census census(int n) {
  const Masks b(n);
  Census c;
  c.totals.assign(size_t(n * n + 1), 0);
  c.classes.assign(size_t(n * n + 1), 0);
  std::set<uint64_t> orbits;
  for (uint64_t p : b.legal()) {
    const int k = std::popcount(p);
    ++c.totals[size_t(k)];
    if (orbits.insert(b.canonical(p)).second) ++c.classes[size_t(k)];
    c.most = std::max<uint64_t>(c.most, uint64_t(k));
    if (k < n * n && !b.hasMove(0, p)) c.fewestLocking = std::min<uint64_t>(c.fewestLocking, uint64_t(k));
  }
  return c;
}

// The game under one rule, with a Nim heap beside the board: minimax over
// the board's moves and the heap's.
struct Game {
  Masks board;
  int rule = 0;
  std::map<std::pair<uint64_t, uint32_t>, bool> memo;  // (queens, heap) -> the player to move wins

  Game(int n, int r) : board(n), rule(r) {}
  bool wins(uint64_t p, uint32_t h) {
    if (auto it = memo.find({p, h}); it != memo.end()) return it->second;
    bool win = false;
    for (int s = 0; s < board.n * board.n && !win; ++s) win = board.move(rule, p, s) && !wins(board.after(rule, p, s), h);
    for (uint32_t g = 0; g < h && !win; ++g) win = !wins(p, g);
    return memo[{p, h}] = win;
  }
  // The first winning move at (p, h) as a certificate names it: 1 + s for
  // square s, n^2 + 1 + g for lowering the heap to g; 0 when (p, h) is lost.
  uint32_t winningMove(uint64_t p, uint32_t h) {
    const uint32_t squares = uint32_t(board.n * board.n);
    for (int s = 0; s < board.n * board.n; ++s)
      if (board.move(rule, p, s) && !wins(board.after(rule, p, s), h)) return 1 + uint32_t(s);
    for (uint32_t g = 0; g < h; ++g)
      if (!wins(p, g)) return squares + 1 + g;
    return 0;
  }
  // winningMove of every position reachable from (p, h), lost ones included (0).
  void replies(uint64_t p, uint32_t h, std::map<std::pair<uint64_t, uint32_t>, uint32_t>& out) {
    if (out.count({p, h})) return;
    out[{p, h}] = winningMove(p, h);
    for (int s = 0; s < board.n * board.n; ++s)
      if (board.move(rule, p, s)) replies(board.after(rule, p, s), h, out);
    for (uint32_t g = 0; g < h; ++g) replies(p, g, out);
  }
};

// The doc's named orders for odd n: Brown-Ladha Claim 3.1's (complete: it
// fills the board) or Claim 4.1's (it locks the board with 2n - 1 queens),
// each step paper (i, j) -> (i - 1 + o) * n + (j - 1 + o).
inline std::vector<int> namedOrder(int n, bool complete) {
  std::vector<int> m;
  auto add = [&](int i, int j, int o) { m.push_back((i - 1 + o) * n + (j - 1 + o)); };
  if (complete) {
    for (int size = n; size >= 3; size -= 2) {
      const int o = n - size;
      for (auto [i, j] : {std::pair{1, 1}, {2, 3}, {1, 2}, {3, 2}, {2, 2}, {1, 3}, {3, 1}, {2, 1}}) add(i, j, o);
      for (int k = 1; k <= (size - 3) / 2; ++k)
        for (auto [i, j] : {std::pair{2, 2 * k + 2}, {1, 2 * k + 2}, {2 * k + 2, 1}, {2 * k + 2, 2}, {1, 2 * k + 3}, {2, 2 * k + 3},
                            {2 * k + 3, 2}, {2 * k + 3, 1}})
          add(i, j, o);
    }
    add(n, n, 0);
  } else {
    for (int i = 2; i + 1 <= n; i += 2) add(i, 1, 0), add(1, i + 1, 0), add(i + 1, 1, 0), add(1, i, 0);
    add(1, 1, 0);
  }
  return m;
}

// Every locked set of at most `most` queens (an empty square seen by an odd
// number of queens everywhere, the board not full), in increasing order, by
// walking every set: a queen flips the parity of every square it sees.  What
// the line-parity searches of the prover and the checker are tested against.
inline std::vector<uint64_t> lockedSetsByWalk(int n, int most) {
  const int squares = n * n;
  const uint64_t full = squares == 64 ? ~uint64_t(0) : (uint64_t(1) << squares) - 1;
  std::vector<uint64_t> seen(size_t(squares), 0), out;
  for (int a = 0; a < squares; ++a)
    for (int b = 0; b < squares; ++b)
      if (sees(n, a, b)) seen[size_t(a)] |= uint64_t(1) << b;
  std::function<void(int, int, uint64_t, uint64_t)> walk = [&](int from, int k, uint64_t p, uint64_t odd) {
    if (((p | odd) & full) == full && p != full) out.push_back(p);
    if (k == most) return;
    for (int s = from; s < squares; ++s) walk(s + 1, k + 1, p | uint64_t(1) << s, odd ^ seen[size_t(s)]);
  };
  walk(0, 0, 0, 0);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace mod2ref
