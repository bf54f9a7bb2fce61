// Partizan game search: negamax with an exact, bounded memo (canonical
// under the symmetries of the square and under the exchange of Left and
// Right), and the winner's replies for a certificate.
#include <algorithm>
#include <unordered_map>

#include "prover/partizan/partizan.hpp"

namespace qcert::partizan {

namespace {
inline uint64_t mix(uint64_t a, uint64_t b) {
  uint64_t x = a * 0x9E3779B97F4A7C15ull ^ (b + 0x632BE59BD9B4E019ull) * 0xC2B2AE3D27D4EB4Full;
  x ^= x >> 31;
  x *= 0xD6E8FEB86659FD93ull;
  return x ^ (x >> 32);
}
constexpr size_t kFirstSlots = size_t{1} << 12;

struct PairHash {
  size_t operator()(const std::pair<uint64_t, uint64_t>& p) const { return size_t(mix(p.first, p.second)); }
};

// A set of positions (left, right), open addressing: one cache line a
// lookup, where std::unordered_set's nodes cost several (the proof's time
// went there). No position is (~0, ~0): that marks an empty slot.
class PositionSet {
 public:
  PositionSet() : slots_(size_t{1} << 16, Slot{kEmpty, kEmpty}) {}
  bool contains(uint64_t a, uint64_t b) const {
    for (size_t i = index(a, b);; i = (i + 1) & (slots_.size() - 1)) {
      if (slots_[i].a == a && slots_[i].b == b) return true;
      if (slots_[i].a == kEmpty && slots_[i].b == kEmpty) return false;
    }
  }
  // True when (a, b) was not in the set.
  bool insert(uint64_t a, uint64_t b) {
    if ((size_ + 1) * 10 > slots_.size() * 7) grow();
    size_t i = index(a, b);
    for (; !(slots_[i].a == kEmpty && slots_[i].b == kEmpty); i = (i + 1) & (slots_.size() - 1))
      if (slots_[i].a == a && slots_[i].b == b) return false;
    slots_[i] = {a, b};
    ++size_;
    return true;
  }

 private:
  struct Slot {
    uint64_t a, b;
  };
  static constexpr uint64_t kEmpty = ~uint64_t{0};
  size_t index(uint64_t a, uint64_t b) const { return size_t(mix(a, b)) & (slots_.size() - 1); }
  void grow() {
    std::vector<Slot> old(slots_.size() * 2, Slot{kEmpty, kEmpty});
    old.swap(slots_);
    size_ = 0;
    for (const Slot& s : old)
      if (!(s.a == kEmpty && s.b == kEmpty)) insert(s.a, s.b);
  }
  std::vector<Slot> slots_;
  size_t size_ = 0;
};
}  // namespace

Solver::Solver(const Rules& rules, size_t memoBytes, bool symmetry) : r_(rules), symmetry_(symmetry) {
  memoMiB_ = memoBytes >> 20;
  maxSlots_ = memoBytes / (sizeof(Key) + 1);
  if (maxSlots_ < kFirstSlots) maxSlots_ = kFirstSlots;
  keys_.assign(kFirstSlots, Key{0, 0});
  vals_.assign(kFirstSlots, 0);
}

Solver::Key Solver::canonical(uint64_t mover, uint64_t other) const {
  Key best{mover, other};
  if (!symmetry_) return best;
  for (int g = 1; g < 8; ++g) {
    const uint64_t a = r_.image(g, mover);
    if (a > best.a) continue;
    const uint64_t b = r_.image(g, other);
    if (a < best.a || b < best.b) best = {a, b};
  }
  return best;
}

int Solver::lookup(const Key& k) const {
  const size_t mask = keys_.size() - 1;
  for (size_t i = size_t(mix(k.a, k.b)) & mask;; i = (i + 1) & mask) {
    if (!vals_[i]) return -1;
    if (keys_[i].a == k.a && keys_[i].b == k.b) return vals_[i] - 1;
  }
}

void Solver::grow() {
  const size_t slots = keys_.size() * 2;
  if (slots > maxSlots_)
    throw TooLarge("the search's memo holds " + std::to_string(used_) + " positions in " +
                   std::to_string((keys_.size() * (sizeof(Key) + 1)) >> 20) + " MiB and doubling it would pass --memo-mb " +
                   std::to_string(memoMiB_) + "; this game is beyond the search with that much memory");
  std::vector<Key> keys(slots, Key{0, 0});
  std::vector<uint8_t> vals(slots, 0);
  for (size_t j = 0; j < keys_.size(); ++j) {
    if (!vals_[j]) continue;
    size_t i = size_t(mix(keys_[j].a, keys_[j].b)) & (slots - 1);
    while (vals[i]) i = (i + 1) & (slots - 1);
    keys[i] = keys_[j], vals[i] = vals_[j];
  }
  keys_.swap(keys);
  vals_.swap(vals);
}

void Solver::store(const Key& k, bool win) {
  if ((used_ + 1) * 10 > keys_.size() * 7) grow();  // load at most 0.7
  const size_t mask = keys_.size() - 1;
  size_t i = size_t(mix(k.a, k.b)) & mask;
  while (vals_[i] && !(keys_[i].a == k.a && keys_[i].b == k.b)) i = (i + 1) & mask;
  if (!vals_[i]) ++used_;
  keys_[i] = k, vals_[i] = uint8_t(win ? 2 : 1);
}

int Solver::known(uint64_t mover, uint64_t other) const { return lookup(canonical(mover, other)); }

bool Solver::wins(uint64_t mover, uint64_t other) {
  const Key key = canonical(mover, other);
  if (const int v = lookup(key); v >= 0) return v == 1;
  if ((++nodes_ & 0xfffff) == 0 && tick_) tick_(tickArg_, nodes_);
  const uint64_t moves = r_.moves(mover, other);
  bool win = false;
  // A move to a position already known lost wins at once.
  for (uint64_t m = moves; m && !win; m &= m - 1) win = known(other, mover | (m & -m)) == 0;
  if (!win && moves) {
    // Moves that take the most squares from the opponent first: the
    // opponent's moves after ours are fewest there.
    const uint64_t theirs = r_.moves(other, mover);
    std::array<std::pair<int, int>, 64> order;
    int k = 0;
    for (uint64_t m = moves; m; m &= m - 1) {
      const int s = __builtin_ctzll(m);
      const uint64_t bit = uint64_t{1} << s;
      const int taken = __builtin_popcountll(theirs & (r_.attacks(s, mover | other | bit) | bit));
      order[size_t(k++)] = {-taken, s};
    }
    std::sort(order.begin(), order.begin() + k);
    for (int i = 0; i < k && !win; ++i) win = !wins(other, mover | uint64_t{1} << order[size_t(i)].second);
  }
  store(key, win);
  return win;
}

bool naiveWins(const Rules& rules, uint64_t mover, uint64_t other) {
  struct Naive {
    const Rules& r;
    std::unordered_map<std::pair<uint64_t, uint64_t>, bool, PairHash> memo;
    bool wins(uint64_t me, uint64_t them) {
      if (auto it = memo.find({me, them}); it != memo.end()) return it->second;
      bool w = false;
      for (uint64_t m = r.moves(me, them); m && !w; m &= m - 1) w = !wins(them, me | (m & -m));
      memo[{me, them}] = w;
      return w;
    }
  } naive{rules, {}};
  return naive.wins(mover, other);
}

GameProof gameProof(Solver& solver, uint64_t left, uint64_t right, Player first, size_t maxReplies) {
  const Rules& r = solver.rules();
  struct Node {
    uint64_t left, right;
    bool leftMoves;
  };
  GameProof out;
  const bool leftFirst = first == Player::left;
  out.moverWins = leftFirst ? solver.wins(left, right) : solver.wins(right, left);
  const bool leftWins = out.moverWins == leftFirst;
  PositionSet seen;  // positions on the way (who moves follows from them)
  std::vector<Node> stack{{left, right, leftFirst}};
  seen.insert(left, right);
  auto after = [](const Node& p, int s) {
    const uint64_t bit = uint64_t{1} << s;
    return p.leftMoves ? Node{p.left | bit, p.right, false} : Node{p.left, p.right | bit, true};
  };
  while (!stack.empty()) {
    const Node p = stack.back();
    stack.pop_back();
    const uint64_t mover = p.leftMoves ? p.left : p.right, other = p.leftMoves ? p.right : p.left;
    const uint64_t moves = r.moves(mover, other);
    if (p.leftMoves != leftWins) {  // the loser moves: the checker tries every move
      ++out.loserPositions;
      for (uint64_t m = moves; m; m &= m - 1) {
        const Node q = after(p, __builtin_ctzll(m));
        if (seen.insert(q.left, q.right)) stack.push_back(q);
      }
      continue;
    }
    // The winner moves. A move to a position already on the way costs
    // nothing; else among the moves known to win, the one leaving the loser
    // fewest moves; else the first the search finds, trying the moves that
    // leave the loser fewest moves first. (Answering by a mirror image, the
    // strategies of docs/partizan-game.md, made larger certificates.)
    int best = -1;
    for (uint64_t m = moves; m && best < 0; m &= m - 1) {
      const Node q = after(p, __builtin_ctzll(m));
      if (seen.contains(q.left, q.right)) best = __builtin_ctzll(m);
    }
    std::array<std::pair<int, int>, 64> order;  // (the loser's moves after it, the move)
    int k = 0;
    for (uint64_t m = best < 0 ? moves : 0; m; m &= m - 1)
      order[size_t(k++)] = {__builtin_popcountll(r.moves(other, mover | (m & -m))), __builtin_ctzll(m)};
    std::sort(order.begin(), order.begin() + k);
    for (int i = 0; i < k && best < 0; ++i)
      if (solver.known(other, mover | uint64_t{1} << order[size_t(i)].second) == 0) best = order[size_t(i)].second;
    for (int i = 0; i < k && best < 0; ++i)
      if (!solver.wins(other, mover | uint64_t{1} << order[size_t(i)].second)) best = order[size_t(i)].second;
    if (best < 0) throw std::logic_error("partizan proof: a won position without a winning move");
    out.replies.push_back({p.left, p.right, best});
    if (out.replies.size() > maxReplies)
      throw TooLarge("the certificate would need more than " + std::to_string(maxReplies) + " replies (the checker's limit)");
    const Node q = after(p, best);
    if (seen.insert(q.left, q.right)) stack.push_back(q);
  }
  std::sort(out.replies.begin(), out.replies.end(),
            [](const Reply& a, const Reply& b) { return a.left != b.left ? a.left < b.left : a.right < b.right; });
  return out;
}

}  // namespace qcert::partizan
