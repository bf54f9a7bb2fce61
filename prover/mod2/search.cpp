// Mod-2 game: exhaustive passes (legal positions, most queens, fewest
// locking queens, the complement map) and the game solver with the winner's
// replies for a certificate.
#include <algorithm>
#include <stdexcept>
#include <unordered_set>

#include "prover/mod2/mod2.hpp"

namespace qcert::mod2 {

namespace {
void requireDense(int n, const char* what) {
  if (n < 1 || n > kMaxDenseBoard)
    throw std::invalid_argument(std::string(what) + " passes over all 2^(n*n) sets: n must be between 1 and 5, got " +
                                std::to_string(n));
}
inline int popcount(uint64_t x) { return __builtin_popcountll(x); }
}  // namespace

LegalCount countLegal(int n, const Progress& progress) { return countLegalPrefix(n, n * n, progress); }

// Masks in increasing order, so the masks below 2^bits (the positions whose
// queens all lie on squares 0..bits-1) are a closed family: every subset of
// such a mask is one too. Their pass is the prefix of the whole pass, which is
// what makes it a measurement of the whole (n = 6).
LegalCount countLegalPrefix(int n, int bits, const Progress& progress) {
  if (!(n <= 6 && bits >= 0 && bits <= n * n)) requireDense(n, "the legal-position count");
  const Small g(n);
  const bool whole = bits == g.sq;
  const uint64_t masks = uint64_t{1} << bits;
  std::vector<uint64_t> legal((masks + 63) / 64, 0);
  legal[0] = 1;  // the empty board
  LegalCount out;
  out.totals.assign(size_t(g.sq) + 1, 0);
  out.classes.assign(size_t(g.sq) + 1, 0);
  out.masks = masks;
  for (uint64_t w = 0; w < legal.size(); ++w) {
    if (progress && (w & 0xffff) == 0) progress(double(w) / double(legal.size()));
    // Marks go to larger masks only, but possibly into this same word: reread it.
    for (int b = 0; b < 64; ++b) {
      if (!(legal[w] >> b & 1)) continue;
      const uint64_t P = w * 64 + uint64_t(b);
      if (P >= masks) break;
      const int q = popcount(P);
      ++out.legal;
      ++out.totals[size_t(q)];
      if (whole && g.isLeast(P)) ++out.classes[size_t(q)];
      out.mostQueens = std::max(out.mostQueens, q);
      uint64_t open = g.moves(P, Rule::standard) & (masks - 1);
      while (open) {
        const uint64_t next = P | (open & -open);
        open &= open - 1;
        legal[next >> 6] |= uint64_t{1} << (next & 63);
      }
    }
  }
  return out;
}

LegalCount countLegalBaseline(int n) {
  requireDense(n, "the legal-position count");
  const Small g(n);
  const uint64_t masks = uint64_t{1} << g.sq;
  std::vector<uint8_t> legal(masks, 0);
  legal[0] = 1;
  LegalCount out;
  out.totals.assign(size_t(g.sq) + 1, 0);
  out.masks = masks;
  out.totals[0] = 1;
  out.legal = 1;
  for (uint64_t P = 1; P < masks; ++P) {
    // P is legal iff some queen q of P was a legal last move: P less q legal
    // and q attacked by an even number of the other queens.
    for (uint64_t rest = P; rest; rest &= rest - 1) {
      const int q = __builtin_ctzll(rest);
      const uint64_t before = P & ~(uint64_t{1} << q);
      if (legal[before] && g.att(before, q) % 2 == 0) {
        legal[P] = 1;
        ++out.legal;
        ++out.totals[size_t(popcount(P))];
        out.mostQueens = std::max(out.mostQueens, popcount(P));
        break;
      }
    }
  }
  return out;
}

namespace {

// A legal order of the queens of P, found backwards: P is legal iff it is
// empty or some queen q is attacked by an even number of the others and P
// less q is legal (q was the last move). Memoised on subsets of P's queens
// (P has at most a dozen queens here). Returns false when P is not legal.
bool legalOrder(const Small& g, uint64_t P, std::unordered_map<uint64_t, bool>& memo, std::vector<int>& order) {
  if (P == 0) return true;
  if (auto it = memo.find(P); it != memo.end() && !it->second) return false;
  for (uint64_t rest = P; rest; rest &= rest - 1) {
    const int q = __builtin_ctzll(rest);
    const uint64_t before = P & ~(uint64_t{1} << q);
    if (g.att(before, q) % 2 == 0 && legalOrder(g, before, memo, order)) {
      order.push_back(q);
      return true;
    }
  }
  memo[P] = false;
  return false;
}

// Every locked set of at most `most` queens, each once, from its line
// parities (docs/mod2-game.md, Lemma 4): an empty square t is attacked by
// the queens on its four lines, so t is open exactly when the parities
// pi(line) = |P & line| mod 2 of its row, column and two diagonals add up
// to 0.  For a vector pi of line parities let Z(pi) be those squares: a
// locked P with parities pi holds a queen on each of them, and its other
// queens Y lie on the rest, with parities pi + parities(Z(pi)).  So: every
// pi with |Z(pi)| <= most, then every such Y.  A square's colour (r + c
// even or odd) is its diagonals' colour, so given the rows and columns each
// colour's diagonals are chosen apart ("halves") and the sum of the two
// halves' zeros bounds the pairs.  n = 8, most = 12: 3.5 s.
class LockedSets {
 public:
  LockedSets(const Small& g, int most) : g_(g), most_(most), lines_(6 * g.n - 2) {
    mask_.assign(size_t(lines_), 0);
    for (int s = 0; s < g.sq; ++s)
      for (int k = 0; k < 4; ++k) {
        const int l = lineId(g.n, s, k);
        mask_[size_t(l)] |= uint64_t{1} << s;
        flips_[size_t(s)] |= uint64_t{1} << l;
        family_[k] |= uint64_t{1} << l;
        if (k == 0) colour_[(s / g.n + s % g.n) & 1] |= uint64_t{1} << s;
      }
    for (int l = 2 * g.n; l < lines_; ++l) {
      const int k = (mask_[size_t(l)] & colour_[0]) ? 0 : 1;
      (l < 4 * g.n - 1 ? diffs_ : sums_)[k].push_back(l);
    }
  }

  template <class Found>
  void run(Found&& found, const Progress* progress) {
    std::vector<Half> halves[2];
    const uint64_t rowsAndColumns = uint64_t{1} << (2 * g_.n);
    for (uint64_t rc = 0; rc < rowsAndColumns; ++rc) {
      if (progress && *progress && (rc & 1023) == 0) (*progress)(double(rc) / double(rowsAndColumns));
      uint64_t odd = 0;  // squares whose row and column parities add up to 1
      for (uint64_t x = rc; x; x &= x - 1) odd ^= mask_[size_t(__builtin_ctzll(x))];
      const int least0 = leastZeros(0, odd), least1 = leastZeros(1, odd);
      if (least0 + least1 > most_) continue;
      collect(0, odd, most_ - least1, halves[0]);
      collect(1, odd, most_ - least0, halves[1]);
      std::sort(halves[1].begin(), halves[1].end(), [](const Half& a, const Half& b) { return a.count < b.count; });
      for (const Half& a : halves[0])
        for (const Half& b : halves[1]) {
          if (a.count + b.count > most_) break;
          const uint64_t Z = a.zeros | b.zeros;
          auto withZ = [&](uint64_t Y) { found(Z | Y); };
          extras(g_.full & ~Z, rc ^ a.bits ^ b.bits ^ a.parity ^ b.parity, most_ - a.count - b.count, 0, true, withZ);
        }
    }
  }

 private:
  struct Half {
    uint64_t bits;    // the colour's diagonal parities that are 1
    uint64_t zeros;   // the colour's squares whose four parities add up to 0
    int count;        // popcount(zeros)
    uint64_t parity;  // parities(zeros)
  };

  uint64_t parities(uint64_t P) const {
    uint64_t v = 0;
    for (; P; P &= P - 1) v ^= flips_[size_t(__builtin_ctzll(P))];
    return v;
  }
  // `odd` with the colour-k difference diagonals of `d` flipped; its bits.
  uint64_t withDiffs(int k, uint64_t d, uint64_t odd, uint64_t& bits) const {
    bits = 0;
    for (size_t i = 0; i < diffs_[k].size(); ++i)
      if (d >> i & 1) odd ^= mask_[size_t(diffs_[k][i])], bits |= uint64_t{1} << diffs_[k][i];
    return odd;
  }
  // Zeros on sum diagonal l of colour k when its parity is p.
  int zerosOn(int l, uint64_t odd, int k, int p) const {
    return __builtin_popcountll(mask_[size_t(l)] & colour_[k] & (p ? odd : ~odd));
  }
  int leastZeros(int k, uint64_t odd) const {
    int least = 1 << 20;
    for (uint64_t d = 0; d < (uint64_t{1} << diffs_[k].size()); ++d) {
      uint64_t bits;
      const uint64_t o = withDiffs(k, d, odd, bits);
      int sum = 0;
      for (int l : sums_[k]) sum += std::min(zerosOn(l, o, k, 0), zerosOn(l, o, k, 1));
      least = std::min(least, sum);
    }
    return least;
  }
  // Every choice of colour k's diagonal parities with at most `budget` zeros.
  void collect(int k, uint64_t odd, int budget, std::vector<Half>& out) const {
    out.clear();
    const auto& sums = sums_[k];
    for (uint64_t d = 0; d < (uint64_t{1} << diffs_[k].size()); ++d) {
      uint64_t bits;
      const uint64_t o = withDiffs(k, d, odd, bits);
      int zeros[2][16], after[17];  // after[i]: the least zeros on sums i.. (a bound)
      after[sums.size()] = 0;
      for (size_t i = sums.size(); i-- > 0;) {
        zeros[0][i] = zerosOn(sums[i], o, k, 0), zeros[1][i] = zerosOn(sums[i], o, k, 1);
        after[i] = after[i + 1] + std::min(zeros[0][i], zeros[1][i]);
      }
      if (after[0] <= budget) chooseSums(k, 0, 0, bits, o, zeros, after, budget, out);
    }
  }
  void chooseSums(int k, size_t i, int count, uint64_t bits, uint64_t odd, const int (&zeros)[2][16], const int* after,
                  int budget, std::vector<Half>& out) const {
    if (i == sums_[k].size()) {
      const uint64_t z = colour_[k] & ~odd;
      out.push_back({bits, z, count, parities(z)});
      return;
    }
    const int l = sums_[k][i];
    for (int p = 0; p < 2; ++p)
      if (count + zeros[p][i] + after[i + 1] <= budget)
        chooseSums(k, i + 1, count + zeros[p][i], p ? bits | uint64_t{1} << l : bits, p ? odd ^ mask_[size_t(l)] : odd,
                   zeros, after, budget, out);
  }
  // Every Y within `free` of at most `room` squares with parities(Y) = want,
  // squares taken in increasing order; `fresh`: Y not yet reported.
  template <class Found>
  void extras(uint64_t free, uint64_t want, int room, uint64_t Y, bool fresh, Found& found) const {
    if (fresh && want == 0) found(Y);
    if (room == 0 || free == 0) return;
    for (int k = 0; k < 4; ++k)  // each square mends one line of each family
      if (__builtin_popcountll(want & family_[k]) > room) return;
    for (uint64_t w = want; w; w &= w - 1)
      if (!(mask_[size_t(__builtin_ctzll(w))] & free)) return;  // an odd line with no square left
    const int s = __builtin_ctzll(free);
    extras(free & (free - 1), want ^ flips_[size_t(s)], room - 1, Y | uint64_t{1} << s, true, found);
    extras(free & (free - 1), want, room, Y, false, found);
  }

  const Small& g_;
  int most_, lines_;
  std::vector<uint64_t> mask_;
  std::array<uint64_t, 64> flips_{};
  uint64_t family_[4] = {0, 0, 0, 0}, colour_[2] = {0, 0};
  std::vector<int> diffs_[2], sums_[2];
};

}  // namespace

void lockedSets(int n, int most, const std::function<void(uint64_t)>& found, const Progress& progress) {
  if (n < 1 || n > kMaxSmallBoard) throw std::invalid_argument("locked sets: n must be between 1 and 8, got " + std::to_string(n));
  const Small g(n);
  LockedSets(g, most).run([&](uint64_t P) { if (P != g.full) found(P); }, &progress);
}

// The locked sets of 1, 2, ... queens until one is legal (legality tested
// backwards, only for locked sets): by line parities, not by walking every
// set (n = 8: the 9.2 * 10^11 sets of at most 11 queens would take about 90
// minutes; the parities find the 232 locked ones in 1 s).  At each size the
// numerically least legal set is kept, so a run is reproducible, and the
// legal ones of the last size are counted.
FewestLocking fewestLocking(int n, const Progress& progress) {
  if (n < 1 || n > kMaxSmallBoard)
    throw std::invalid_argument("fewest locking queens: n must be between 1 and 8, got " + std::to_string(n));
  const Small g(n);
  FewestLocking out;
  out.levelSizes.assign(size_t(g.sq) + 1, 0);
  for (int size = 1; size < g.sq && !out.found; ++size) {
    LockedSets(g, size).run(
        [&](uint64_t P) {
          if (__builtin_popcountll(P) != size || P == g.full) return;
          ++out.levelSizes[size_t(size)];
          std::unordered_map<uint64_t, bool> memo;
          std::vector<int> order;
          if (!legalOrder(g, P, memo, order)) return;
          ++out.legalAtFewest;
          if (!out.found || P < out.position) out.found = true, out.queens = size, out.position = P, out.order = order;
        },
        &progress);
  }
  return out;
}

uint64_t countPlays(int n) {
  if (n < 1 || n > 5) throw std::invalid_argument("plays: n must be between 1 and 5, got " + std::to_string(n));
  const Small g(n);
  // plays(P) = 1 without a move, else the sum over moves; every move adds a
  // queen, so decreasing masks see their successors first. n = 5: 256 MiB.
  std::vector<uint64_t> plays(size_t{1} << g.sq);
  for (uint64_t P = g.full + 1; P-- > 0;) {
    const uint64_t m = g.moves(P, Rule::standard);
    if (m == 0) {
      plays[P] = 1;
      continue;
    }
    uint64_t sum = 0;
    for (uint64_t rest = m; rest; rest &= rest - 1)
      if (__builtin_add_overflow(sum, plays[P | (rest & -rest)], &sum)) throw TooLarge("more than 2^64 plays");
    plays[P] = sum;
  }
  return plays[0];
}

ComplementMapResult complementMap(int n) {
  if (n < 1 || n > 4)
    throw std::invalid_argument("the complement map is checked for n between 1 and 4, got " + std::to_string(n));
  const Small g(n);
  const uint64_t masks = uint64_t{1} << g.sq;
  const Rule other = n % 2 ? Rule::standard : Rule::alternate;
  auto reach = [&](Rule r, const std::vector<uint64_t>& starts) {
    std::vector<uint8_t> seen(masks, 0);
    std::vector<uint64_t> stack(starts);
    for (uint64_t s : starts) seen[s] = 1;
    while (!stack.empty()) {
      const uint64_t P = stack.back();
      stack.pop_back();
      for (uint64_t m = g.moves(P, r); m; m &= m - 1) {
        const uint64_t Q = g.after(P, __builtin_ctzll(m), r);
        if (!seen[Q]) seen[Q] = 1, stack.push_back(Q);
      }
    }
    return seen;
  };
  std::vector<uint64_t> startsA, startsB;
  if (n % 2) {
    startsA = {0};
    startsB = {g.full};
  } else {
    for (int s = 0; s < g.sq; ++s) startsA.push_back(uint64_t{1} << s), startsB.push_back(g.full & ~(uint64_t{1} << s));
  }
  const auto A = reach(other, startsA), B = reach(Rule::complementary, startsB);
  ComplementMapResult out;
  for (uint64_t P = 0; P < masks; ++P) {
    out.positionsA += A[P];
    out.positionsB += B[P];
    if (A[P] != B[g.full & ~P] && out.failure.empty())
      out.failure = std::string(A[P] ? "a position of the " + gameName(other) : "the complement of a position of the complementary game") +
                    " has no image (mask " + std::to_string(P) + ")";
    if (!A[P]) continue;
    const uint64_t ma = g.moves(P, other), mb = g.moves(g.full & ~P, Rule::complementary);
    out.moves += uint64_t(popcount(ma));
    if (ma != mb && out.failure.empty())
      out.failure = "the moves at mask " + std::to_string(P) + " differ from the removals at its complement";
  }
  return out;
}

// ---- games ---------------------------------------------------------------------

GameSolver::GameSolver(int n, Rule rule, size_t maxSparse) : g_(n), rule_(rule), maxSparse_(maxSparse) {
  if (n <= kMaxDenseBoard) dense_.assign(size_t{1} << g_.sq, 0xff);
}

int GameSolver::lookup(uint64_t P) const {
  if (!dense_.empty()) return dense_[P] == 0xff ? -1 : dense_[P];
  auto it = map_.find(P);
  return it == map_.end() ? -1 : it->second;
}

void GameSolver::store(uint64_t P, int v) {
  ++positions_;
  if (!dense_.empty()) dense_[P] = uint8_t(v);
  else {
    // n >= 6 from a position with few queens reaches billions of positions:
    // stop with "not done" long before the memory runs out.
    if (map_.size() >= maxSparse_)
      throw TooLarge("more than " + std::to_string(maxSparse_) + " positions in the game search's memo (about " +
                     std::to_string((maxSparse_ * 48) >> 30) + " GiB); from fewer queens the " + std::to_string(g_.n) + "x" +
                     std::to_string(g_.n) + " game is beyond this search (docs/mod2-game.md, \"Beyond n = 5\")");
    map_.emplace(P, uint8_t(v));
  }
}

int GameSolver::grundy(uint64_t P) {
  const int known = lookup(P);
  if (known >= 0) return known;
  uint64_t seen[2] = {0, 0};  // Grundy values 0..64 of the options
  for (uint64_t m = g_.moves(P, rule_); m; m &= m - 1) {
    ++nodes_;
    const int v = grundy(g_.after(P, __builtin_ctzll(m), rule_));
    seen[v >> 6] |= uint64_t{1} << (v & 63);
  }
  const int mex = ~seen[0] ? __builtin_ctzll(~seen[0]) : 64 + __builtin_ctzll(~seen[1]);
  store(P, mex);
  return mex;
}

void GameSolver::solveFrom(uint64_t P0) {
  if (dense_.empty()) return;
  const uint64_t masks = uint64_t{1} << g_.sq;
  std::vector<uint64_t> reach((masks + 63) / 64, 0);
  auto mark = [&](uint64_t P) { reach[P >> 6] |= uint64_t{1} << (P & 63); };
  auto marked = [&](uint64_t P) { return reach[P >> 6] >> (P & 63) & 1; };
  mark(P0);
  const bool up = rule_ != Rule::complementary;  // placements make larger masks
  // Only masks on P0's side can be reached: the loops start at P0.
  auto forward = [&](uint64_t P) {
    if (!marked(P)) return;
    for (uint64_t m = g_.moves(P, rule_); m; m &= m - 1) mark(g_.after(P, __builtin_ctzll(m), rule_));
  };
  if (up) {
    for (uint64_t P = P0; P < masks; ++P) forward(P);
    for (uint64_t P = masks; P-- > P0;)
      if (marked(P) && dense_[P] == 0xff) grundy(P);
  } else {
    for (uint64_t P = P0 + 1; P-- > 0;) forward(P);
    for (uint64_t P = 0; P <= P0; ++P)
      if (marked(P) && dense_[P] == 0xff) grundy(P);
  }
}

int grundyBaseline(int n, Rule rule, uint64_t P0, uint64_t* masksVisited) {
  requireDense(n, "the baseline Grundy pass");
  const Small g(n);
  const uint64_t masks = uint64_t{1} << g.sq;
  std::vector<uint8_t> G(masks, 0);
  auto one = [&](uint64_t P) {
    uint64_t seen[2] = {0, 0};
    for (uint64_t m = g.moves(P, rule); m; m &= m - 1) {
      const int v = G[g.after(P, __builtin_ctzll(m), rule)];
      seen[v >> 6] |= uint64_t{1} << (v & 63);
    }
    G[P] = uint8_t(~seen[0] ? __builtin_ctzll(~seen[0]) : 64 + __builtin_ctzll(~seen[1]));
  };
  // Every option of P is a larger mask (placements) or a smaller one (removals).
  if (rule == Rule::complementary)
    for (uint64_t P = 0; P < masks; ++P) one(P);
  else
    for (uint64_t P = masks; P-- > 0;) one(P);
  if (masksVisited) *masksVisited = masks;
  return G[P0];
}

namespace {
struct Key {
  uint64_t P;
  uint32_t h;
  bool operator==(const Key& o) const { return P == o.P && h == o.h; }
};
struct KeyHash {
  size_t operator()(const Key& k) const { return size_t((k.P ^ (uint64_t(k.h) << 58)) * 0x9E3779B97F4A7C15ull >> 7); }
};
}  // namespace

GameProof gameProof(GameSolver& s, uint64_t P0, uint32_t h0, size_t maxReplies) {
  const Small& g = s.geo();
  const Rule r = s.rule();
  GameProof out;
  out.win = s.grundy(P0) != int(h0);
  // Positions already on the way: a bitmap per heap size for n <= 5 (heaps
  // only go down from h0), else a hash set.
  const bool dense = g.sq <= kMaxDenseBoard * kMaxDenseBoard;
  std::vector<std::vector<uint64_t>> bits(dense ? size_t(h0) + 1 : 0);
  std::unordered_set<Key, KeyHash> hashed;
  auto contains = [&](Key k) {
    if (!dense) return hashed.count(k) > 0;
    const auto& b = bits[k.h];
    return !b.empty() && (b[k.P >> 6] >> (k.P & 63) & 1);
  };
  auto insert = [&](Key k) {
    if (!dense) return hashed.insert(k).second;
    auto& b = bits[k.h];
    if (b.empty()) b.assign(((uint64_t{1} << g.sq) + 63) / 64, 0);
    const bool fresh = !(b[k.P >> 6] >> (k.P & 63) & 1);
    b[k.P >> 6] |= uint64_t{1} << (k.P & 63);
    return fresh;
  };
  std::vector<Key> stack{{P0, h0}};
  insert({P0, h0});
  auto push = [&](Key k) {
    if (insert(k)) stack.push_back(k);
  };
  while (!stack.empty()) {
    const Key k = stack.back();
    stack.pop_back();
    const int v = s.grundy(k.P);
    const uint64_t moves = g.moves(k.P, r);
    if (v == int(k.h)) {  // lost for the player to move: the checker tries every move
      ++out.lossPositions;
      for (uint64_t m = moves; m; m &= m - 1) push({g.after(k.P, __builtin_ctzll(m), r), k.h});
      for (uint32_t h = 0; h < k.h; ++h) push({k.P, h});
      continue;
    }
    // Won: a move to a lost position. Prefer one already on the way (free),
    // else the one whose lost position has the fewest moves.
    Key best{};
    uint32_t bestMove = 0;
    int bestCost = 1 << 30;
    auto consider = [&](Key to, uint32_t move) {
      const int cost = contains(to) ? -1 : popcount(g.moves(to.P, r)) + int(to.h);
      if (cost < bestCost) best = to, bestMove = move, bestCost = cost;
    };
    if (v < int(k.h)) consider({k.P, uint32_t(v)}, uint32_t(g.sq + 1 + v));
    for (uint64_t m = moves; m; m &= m - 1) {
      const int sq = __builtin_ctzll(m);
      const uint64_t Q = g.after(k.P, sq, r);
      if (s.grundy(Q) == int(k.h)) consider({Q, k.h}, uint32_t(sq + 1));
    }
    if (!bestMove) throw std::logic_error("game proof: a won position without a winning move");
    out.replies.push_back({k.P, k.h, bestMove});
    if (out.replies.size() > maxReplies)
      throw TooLarge("the certificate would need more than " + std::to_string(maxReplies) +
                     " winner replies (the checker's limit is 2^22)");
    push(best);
  }
  std::sort(out.replies.begin(), out.replies.end(),
            [](const Reply& a, const Reply& b) { return a.queens != b.queens ? a.queens < b.queens : a.heap < b.heap; });
  return out;
}

}  // namespace qcert::mod2
