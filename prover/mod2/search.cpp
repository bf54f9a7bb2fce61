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

struct LockSearch {
  const Small& g;
  int limit;                      // sets of at most this many queens
  uint64_t nodes = 0;
  int bestQueens = 1 << 30;       // fewest queens of a legal locked set so far
  uint64_t best = 0;
  std::vector<uint64_t> lockedBySize;
  const Progress* progress;

  // Every set of queens on squares >= from added to P (k queens so far);
  // parity bit s = att(P, s) mod 2, kept by XOR of each queen's lines.
  void walk(int from, int k, uint64_t P, uint64_t parity) {
    ++nodes;
    if (((P | parity) & g.full) == g.full && P != g.full) {  // locked
      ++lockedBySize[size_t(k)];
      if (k < bestQueens) {
        std::unordered_map<uint64_t, bool> memo;
        std::vector<int> order;
        if (legalOrder(g, P, memo, order)) {
          bestQueens = k;
          best = P;
        }
      }
    }
    if (k >= limit || k >= bestQueens) return;  // a larger set cannot be fewer
    for (int s = from; s < g.sq; ++s) {
      if (k == 0 && progress && *progress) (*progress)(double(s) / g.sq);
      walk(s + 1, k + 1, P | (uint64_t{1} << s), parity ^ g.lines[size_t(s)]);
    }
  }
};

}  // namespace

// Every set of queens, smallest sizes first by iterative deepening, tested
// for "locked" with one parity word; only locked sets (rare) are tested for
// legality, backwards. Far cheaper than walking all legal positions level by
// level (n = 7: 9 queens; the legal positions with 8 queens number about
// 10^9, the sets of at most 8 queens 5.6 * 10^8 but each is one XOR).
FewestLocking fewestLocking(int n, size_t maxSets, const Progress& progress) {
  if (n < 1 || n > kMaxSmallBoard)
    throw std::invalid_argument("fewest locking queens: n must be between 1 and 8, got " + std::to_string(n));
  const Small g(n);
  FewestLocking out;
  LockSearch search{g, 0, 0, 1 << 30, 0, std::vector<uint64_t>(size_t(g.sq) + 1), &progress};
  // Iterative deepening keeps the walk to the sizes needed: stop at the first
  // size with a legal locked set.
  for (int limit = 0; limit < g.sq && search.bestQueens > g.sq; ++limit) {
    double c = 1, sets = 1;  // sets of at most limit+1 queens: the next walk
    for (int j = 1; j <= limit + 1; ++j) c = c * (g.sq - j + 1) / j, sets += c;
    if (sets > double(maxSets))
      throw TooLarge("more than " + std::to_string(maxSets) + " sets of at most " + std::to_string(limit + 1) +
                     " queens to walk");
    search.limit = limit + 1;
    std::fill(search.lockedBySize.begin(), search.lockedBySize.end(), 0);
    search.walk(0, 0, 0, 0);
  }
  out.levelSizes = search.lockedBySize;  // locked sets (legal or not) by size
  if (search.bestQueens > g.sq) return out;
  out.found = true;
  out.queens = search.bestQueens;
  out.position = search.best;
  std::unordered_map<uint64_t, bool> memo;
  if (!legalOrder(g, out.position, memo, out.order)) throw std::logic_error("fewest locking: the legal set lost its order");
  return out;
}

uint64_t countPlays(int n) {
  if (n < 1 || n > 4) throw std::invalid_argument("plays: n must be between 1 and 4, got " + std::to_string(n));
  const Small g(n);
  // plays(P) = 1 without a move, else the sum over moves; every move adds a
  // queen, so decreasing masks see their successors first.
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
