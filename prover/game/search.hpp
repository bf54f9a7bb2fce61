// Negamax on live sets (Node-Kayles) with an optional Nim heap.
//
// Above `smallLimit` live squares: transposition table keyed by the
// symmetry-invariant hash, moves reduced by the position's stabiliser,
// enhanced transposition cutoffs (any child already known lost wins at once),
// then children ordered most-forcing-first (fewest live squares left).
// At or below it: an exact solver on a relabelled local graph of at most 32
// vertices with a per-call memo, which is where almost all nodes are.
//
// The search knows nothing about certificates; ProofEmitter asks it
// questions (wins? which move wins?) and does the bookkeeping.
#pragma once
#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdint>
#include <deque>
#include <vector>

#include "prover/game/graph.hpp"
#include "prover/game/tiny_graphs.hpp"
#include "prover/game/tt.hpp"

namespace qcert {

constexpr int kHeapMove = 0x4000;  // move codes: board square s, or kHeapMove + h'
inline bool isHeapMove(int m) { return m >= kHeapMove; }

struct SearchStats {
  uint64_t nodes = 0;       // positions visited, small-solver ones included
  uint64_t smallNodes = 0;  // of which inside the exact small solver
  uint64_t searchCalls = 0; // calls of the main search (each small-solver call counts once)
  uint64_t ttHits = 0;
  uint64_t etcCutoffs = 0;
  void add(const SearchStats& o) {
    nodes += o.nodes;
    smallNodes += o.smallNodes;
    searchCalls += o.searchCalls;
    ttHits += o.ttHits;
    etcCutoffs += o.etcCutoffs;
  }
};

// Switches for the search enhancements, so the bench can measure each
// against a plain baseline in the same invocation.
struct SearchOptions {
  int smallLimit = 20;   // exact small solver at <= this many live squares
  bool symmetry = true;  // canonical TT keys and stabiliser move reduction
  bool etc = true;       // enhanced transposition cutoffs
  bool ordering = true;  // most-forcing-first
  bool mirrorLemma = true;
  // Above this many live squares (0: never; kInterleaveHalfBoard: half the
  // board's squares + 2, i.e. 130 at n = 16, 164 at n = 18) children are
  // tried alternately from the most- and the least-forcing end of that order
  // (see Solver::interleaves).
  static constexpr int kInterleaveHalfBoard = -1;
  int interleaveAbove = kInterleaveHalfBoard;
  // The threshold on a board of this many squares.
  int interleaveThreshold(int squares) const {
    return interleaveAbove == kInterleaveHalfBoard ? squares / 2 + 2 : interleaveAbove;
  }
};

template <int W>
class Solver {
 public:
  Solver(const Graph<W>& g, TranspositionTable& tt, SearchOptions opt)
      : g_(g), tt_(tt), opt_(opt), interleaveAbove_(opt.interleaveThreshold(g.squares)), smallLimit_(std::clamp(opt.smallLimit, 0, 32)), plies_(g.squares + 2),
        memo_(kMemoSize) {}

  // lastMove: the move that led here, if known (its mirror is tried first).
  bool wins(const Bits<W>& live, uint32_t heap, int lastMove = -1) {
    return solve(live, heap, g_.hashOf(live), live.count(), 0, lastMove);
  }

  // A winning move from a won position, or -1 when the position is lost.
  int winningMove(const Bits<W>& live, uint32_t heap, int lastMove = -1) {
    const int cnt = live.count();
    if (cnt <= smallLimit_) return smallWinningMove(live, heap, cnt);
    const Hash8 h = g_.hashOf(live);
    if (!solve(live, heap, h, cnt, 0, lastMove)) return -1;
    auto hit = tt_.probe(keyOf(h, heap), cnt);
    if (hit.found && hit.win && hit.move != TranspositionTable::kNoMove) {
      int m = fromCanonical(h, hit.move);
      if (m >= 0 && moveLoses(live, heap, m)) return m;
    }
    for (uint32_t k = 0; k < heap; ++k)
      if (!wins(live, k)) return kHeapMove + int(k);
    int found = -1;
    live.forEach([&](int v) {
      if (found < 0 && !wins(live.andNot(g_.kill[v]), heap, v)) found = v;
    });
    return found;
  }

  // True when playing m leaves the opponent lost.
  bool moveLoses(const Bits<W>& live, uint32_t heap, int m) {
    if (isHeapMove(m)) return uint32_t(m - kHeapMove) < heap && !wins(live, uint32_t(m - kHeapMove));
    return m < g_.squares && live.test(m) && !wins(live.andNot(g_.kill[m]), heap, m);
  }

  // The winner's move a search cut short by its node budget was trying (a
  // work unit's second split level): the first move in the search's own
  // order that the table does not already know to lose. It is a guess, not a
  // proof; the split units below it prove or refute it.
  int likelyWinningMove(const Bits<W>& live, uint32_t heap, int lastMove = -1) {
    for (uint32_t k = 0; k < heap; ++k) {
      auto hit = tt_.probe(keyOf(g_.hashOf(live), k), live.count());
      if (!(hit.found && hit.win)) return kHeapMove + int(k);
    }
    const Hash8 h = g_.hashOf(live);
    unsigned stab = 1;
    for (int k = 1; k < kSymmetries && opt_.symmetry; ++k)
      if (h.h[k] == h.h[0]) stab |= 1u << k;
    const int mirrorMove = (opt_.ordering && lastMove >= 0) ? g_.geo->mirror180(lastMove) : -1;
    std::vector<std::pair<int, int>> order;  // (rank, move): solve's order
    const int cnt = live.count();
    live.forEach([&](int v) {
      if (stab != 1 && !g_.orbitLeader(stab, v)) return;
      const int left = cnt - (live & g_.kill[v]).count();
      order.push_back({opt_.ordering ? (v == mirrorMove ? -1 : left) : 0, v});
    });
    std::stable_sort(order.begin(), order.end(), [](auto a, auto b) { return a.first < b.first; });
    if (interleaves(cnt)) interleave(order.data(), order.size(), !order.empty() && order[0].first < 0);
    for (auto [rank, v] : order) {
      const Bits<W> child = live.andNot(g_.kill[v]);
      if (child.count() <= smallLimit_) {
        if (!wins(child, heap, v)) return v;
        continue;
      }
      auto hit = tt_.probe(keyOf(g_.hashOf(child), heap), child.count());
      if (!(hit.found && hit.win)) return v;
    }
    return order.empty() ? -1 : order.front().second;
  }

  SearchStats stats;
  std::atomic<uint64_t> publishedNodes{0};  // stats.nodes, refreshed every 2^16 nodes for progress
  std::atomic<bool>* stop = nullptr;  // optional: abandon the search when set
  // Optional node budget: past it (checked every 2^10 nodes) the search is
  // abandoned as by `stop`, and overBudget() says so. Answers after that are void.
  void setNodeBudget(uint64_t nodes) {
    nodeLimit_ = nodes ? stats.nodes + nodes : UINT64_MAX;
    overBudget_ = false;
  }
  bool overBudget() const { return overBudget_; }
  // Over budget or stopped: every answer since is void.
  bool halted() const { return overBudget_ || (stop && stop->load(std::memory_order_relaxed)); }

 private:
  struct Child {
    int move;
    int count;
    int rank;  // sort key: live squares left, the mirror reply first
    Bits<W> live;
    Hash8 hash;
  };
  static constexpr int kInverse[kSymmetries] = {0, 3, 2, 1, 4, 5, 6, 7};
  static constexpr size_t kMemoSize = size_t{1} << 14;
  static constexpr size_t kMaxChildren = 22 * 22;

  // Most-forcing-first (fewest live squares left to the opponent) finds the
  // refutation quickly low in the tree, where forcing moves decide. High in
  // the tree it was measured to be wrong: at n = 16 the winning replies to
  // the second player's early moves were mostly quiet corner and edge
  // squares, which that order tries after 60 to 150 others (the reply to
  // b1 was the 26th child tried, the 25 before it 87% of the unit's nodes).
  // Least-forcing-first everywhere above 130 squares halved those units but
  // doubled others; alternating the two ends keeps both kinds of winner near
  // the front (n = 16 one thread: nodes -34%, wall -30%; six n = 18 units:
  // CPU -39%; docs/n18-plan.md). The threshold scales with the board: above
  // 130 squares was best of 100..160 at n = 16, above 165 beat 130 at n = 18.
  bool interleaves(int cnt) const {
    return opt_.ordering && interleaveAbove_ > 0 && cnt > interleaveAbove_;
  }
  // Reorders seq[keep..n) as first, last, second, second-to-last, ...;
  // seq[0..keep) (the mirror reply, when there is one) stays in front.
  template <class T>
  static void interleave(T* seq, size_t n, size_t keep) {
    if (n <= keep + 2) return;
    T out[kMaxChildren];
    size_t k = 0, front = keep, back = n;
    for (; k < keep; ++k) out[k] = seq[k];
    for (bool fromFront = true; front < back; fromFront = !fromFront)
      out[k++] = fromFront ? seq[front++] : seq[--back];
    std::copy(out, out + n, seq);
  }

  // With symmetry off every position is its own frame (identity).
  int frameOf(const Hash8& h) const { return opt_.symmetry ? Graph<W>::canonicalFrame(h) : 0; }
  uint64_t keyOf(const Hash8& h, uint32_t heap) const {
    return g_.keyInFrame(h, opt_.symmetry ? Graph<W>::canonicalFrame(h) : 0, heap);
  }

  int fromCanonical(const Hash8& h, uint16_t stored) const {
    if (stored & 0x8000) return kHeapMove + (stored & 0x7fff);
    if (stored >= g_.squares) return -1;
    return g_.geo->image(kInverse[frameOf(h)], stored);
  }
  uint16_t toCanonical(const Hash8& h, int m) const {
    if (isHeapMove(m)) return uint16_t(0x8000 | (m - kHeapMove));
    return uint16_t(g_.geo->image(frameOf(h), m));
  }

  void countNode() {
    if ((++stats.nodes & 0x3ff) == 0) {
      if (stats.nodes >= nodeLimit_) overBudget_ = true;
      if ((stats.nodes & 0xffff) == 0) publishedNodes.store(stats.nodes, std::memory_order_relaxed);
    }
  }

  // lastMove: the opponent's move into this position (-1: none or a heap
  // move); its half-turn image is tried first, since on a symmetric board it
  // is the move most likely to win (the mirror lemma's strategy).
  bool solve(const Bits<W>& live, uint32_t heap, const Hash8& h, int cnt, int ply, int lastMove = -1) {
    countNode();
    ++stats.searchCalls;
    if (cnt == 0) return heap > 0;
    if (cnt <= smallLimit_) return smallSolve(live, heap, cnt);
    if (cnt <= 32 && !inFrame(live)) setFrame(live, cnt);  // the small solves below share it
    if (opt_.mirrorLemma && heap == 0 && g_.mirrorLemmaLoss(live, h)) return false;
    const uint64_t key = keyOf(h, heap);
    if (auto hit = tt_.probe(key, cnt); hit.found) {
      ++stats.ttHits;
      return hit.win;
    }
    // The table's replacement weight: the subtree's main-search calls, not
    // its small-solver nodes, so that how the small solver gets its exact
    // answers (its memo, its own pruning) cannot change what the table keeps,
    // the replies the emitter takes, or a deterministic unit's bytes.
    const uint64_t callsBefore = stats.searchCalls;

    // Stabiliser from the hashes: g fixes L iff the image under g hashes alike.
    unsigned stab = 1;
    for (int k = 1; k < kSymmetries && opt_.symmetry; ++k)
      if (h.h[k] == h.h[0]) stab |= 1u << k;

    if (size_t(ply) >= plies_.size()) plies_.resize(ply + 1);  // deque: no dangling
    std::vector<Child>& kids = plies_[ply];
    kids.clear();
    int winMove = -1;
    const int mirrorMove = (opt_.ordering && lastMove >= 0) ? g_.geo->mirror180(lastMove) : -1;
    live.forEach([&](int v) {
      if (winMove >= 0 || (stab != 1 && !g_.orbitLeader(stab, v))) return;
      const Bits<W> gone = live & g_.kill[v];
      const int count = cnt - gone.count();
      if (count == 0 && heap == 0) {
        winMove = v;  // last queen placed: opponent cannot move
        return;
      }
      Child& c = kids.emplace_back();  // built in place: no copy of its bitboard and hashes
      c.move = v;
      c.live = live.andNot(gone);
      c.count = count;
      c.rank = v == mirrorMove ? -1 : count;
      if (count > smallLimit_) {  // the small solver needs no hash
        c.hash = g_.without(h, gone);
        if (opt_.etc) tt_.prefetch(keyOf(c.hash, heap), count);
      }
    });
    // Enhanced transposition cutoffs, once all the children's buckets are on their way.
    for (size_t i = 0; i < kids.size() && winMove < 0 && opt_.etc; ++i) {
      if (kids[i].count <= smallLimit_) continue;
      // A child the mirror lemma loses (the centre on an odd board, for
      // queens and kings alike) wins at once, before any deep search.
      if (opt_.mirrorLemma && heap == 0 && g_.mirrorLemmaLoss(kids[i].live, kids[i].hash)) {
        winMove = kids[i].move;
        break;
      }
      auto hit = tt_.probe(keyOf(kids[i].hash, heap), kids[i].count);
      if (hit.found && !hit.win) {
        ++stats.etcCutoffs;
        winMove = kids[i].move;
      }
    }
    if (winMove < 0) {
      for (uint32_t k = 0; k < heap && winMove < 0; ++k)
        if (!solve(live, k, h, cnt, ply + 1)) winMove = kHeapMove + int(k);
    }
    if (winMove < 0) {
      // Order by (rank, index) with a counting sort: ranks are live counts
      // within a few dozen of each other (std::sort was 8% of n = 16).
      uint16_t order[kMaxChildren];
      const size_t kidCount = kids.size();
      if (!opt_.ordering) {
        for (size_t i = 0; i < kidCount; ++i) order[i] = uint16_t(i);
      } else {
        int lo = kids.empty() ? 0 : kids[0].rank, hi = lo;
        for (const Child& c : kids) lo = std::min(lo, c.rank), hi = std::max(hi, c.rank);
        uint16_t start[kMaxChildren + 3];  // ranks lie in [-1, kMaxChildren]
        std::fill(start, start + (hi - lo + 2), uint16_t(0));
        for (const Child& c : kids) ++start[c.rank - lo + 1];
        for (int r = 1; r <= hi - lo + 1; ++r) start[r] += start[r - 1];
        for (size_t i = 0; i < kidCount; ++i) order[start[kids[i].rank - lo]++] = uint16_t(i);
        if (interleaves(cnt)) interleave(order, kidCount, kidCount > 0 && kids[order[0]].rank < 0);
      }
      for (size_t i = 0; i < kidCount; ++i) {
        const Child& c = kids[order[i]];  // stays put: deeper plies use other buffers
        if (halted()) return false;
        if (!solve(c.live, heap, c.hash, c.count, ply + 1, c.move)) {
          winMove = c.move;
          break;
        }
      }
    }
    const bool win = winMove >= 0;
    if (halted()) return win;
    tt_.store(key, cnt, win, win ? toCanonical(h, winMove) : TranspositionTable::kNoMove,
              unsigned(std::bit_width(stats.searchCalls - callsBefore)));
    return win;
  }

  // Exact solver on at most 32 live squares, relabelled to a local frame:
  // the live set of the largest recent position with at most 32 live
  // squares that contains this one. Every position below it is a submask of
  // the frame, so sibling subtrees share the frame's memo.
  bool inFrame(const Bits<W>& live) const { return framed_ && live.andNot(frameLive_).empty(); }
  void setFrame(const Bits<W>& live, int cnt) {
    frameLive_ = live;
    framed_ = true;
    int k = 0;
    live.forEach([&](int s) { smallSquare_[k++] = s; });
    // Row i: the frame squares square i kills, compressed to local indices.
    for (int w = 0, below = 0; w < W; below += std::popcount(live.w[w]), ++w) frameShift_[w] = below;
    for (int i = 0; i < cnt; ++i) adj_[i] = toLocal(g_.kill[smallSquare_[i]]);
    // The memo tags hold 24 bits of the frame generation: wipe on wrap-around
    // so an entry from another frame can never match.
    if ((++generation_ & 0xffffff) == 0) std::fill(memo_.begin(), memo_.end(), 0);
  }
  uint32_t toLocal(const Bits<W>& set) const {
    uint32_t local = 0;
    for (int w = 0; w < W; ++w) local |= uint32_t(extractBits(set.w[w], frameLive_.w[w]) << frameShift_[w]);
    return local;
  }
  uint32_t localOf(const Bits<W>& live, int cnt) {
    if (!inFrame(live)) setFrame(live, cnt);
    return toLocal(live);
  }
  bool smallSolve(const Bits<W>& live, uint32_t heap, int cnt) { return smallWins(localOf(live, cnt), heap, kNoCode); }
  int smallWinningMove(const Bits<W>& live, uint32_t heap, int cnt) {
    const uint32_t all = localOf(live, cnt);
    for (uint32_t k = 0; k < heap; ++k)
      if (!smallWins(all, k, kNoCode)) return kHeapMove + int(k);
    for (uint32_t m = all; m; m &= m - 1) {
      const int v = std::countr_zero(m);
      if (!smallWins(all & ~adj_[v], heap, kNoCode)) return smallSquare_[v];
    }
    return -1;
  }

  // code: the TinyGraphs code of mask's induced graph when it has at most
  // kCodedVertices vertices and the caller knows it, else kNoCode.
  static constexpr uint64_t kNoCode = ~uint64_t{0};
  bool smallWins(uint32_t mask, uint32_t heap, uint64_t code) {
    countNode();
    ++stats.smallNodes;
    const int cnt = std::popcount(mask);
    if (cnt <= kTinyVertices) return tiny_.wins(cnt, code != kNoCode ? uint32_t(code) : TinyGraphs::codeOf(adj_, mask), heap);
    if (heap > uint32_t(cnt)) return true;  // G <= cnt: move the heap to G
    // Memo entry: generation (24 bits) | heap (7) | win (1) | mask (32).
    const uint64_t tag = (uint64_t(generation_ & 0xffffff) << 40) | (uint64_t(heap) << 33) | mask;
    constexpr uint64_t kWinBit = uint64_t{1} << 32;
    const size_t slot = (mask * 0x9E3779B1u ^ heap * 0x85EBCA77u) & (kMemoSize - 1);
    if ((memo_[slot] & ~kWinBit) == tag) return memo_[slot] & kWinBit;
    // Tiny options first, by table (a win when one has Grundy value `heap`,
    // i.e. leaves the opponent a zero sum); the rest by recursion.
    // Deep options (more than kTinyVertices squares) are bucketed by size for
    // most-forcing order: those leaving the fewest squares first (n = 14: 15%
    // fewer nodes than square order). Only speed: the answer is exact either
    // way, and the main search never sees the order.
    // At most kCodedVertices squares: every child's code is one extract
    // from this code, instead of a pass over the child's rows.
    const bool coded = cnt <= kCodedVertices;
    if (coded && code == kNoCode) code = TinyGraphs::codeOf64(adj_, mask);
    uint32_t deep[32];
    uint64_t deepCode[32];
    uint8_t deepSize[32];
    int deepCount = 0;
    int sizeCount[33] = {};
    bool win = false;
    for (uint32_t m = mask; m && !win; m &= m - 1) {
      const uint32_t child = mask & ~adj_[std::countr_zero(m)];
      const int childCount = std::popcount(child);
      const uint64_t childCode =
          coded ? extractBits(code, tiny_.pairBits(uint32_t(extractBits(child, mask)))) : kNoCode;
      if (childCount <= kTinyVertices) {
        win = !tiny_.wins(childCount, coded ? uint32_t(childCode) : TinyGraphs::codeOf(adj_, child), heap);
      } else {
        deep[deepCount] = child;
        deepCode[deepCount] = childCode;
        deepSize[deepCount++] = uint8_t(childCount);
        ++sizeCount[childCount];
      }
    }
    for (uint32_t k = 0; k < heap && !win; ++k) win = !smallWins(mask, k, code);
    if (!win && deepCount > 0) {
      uint8_t ordered[32];
      // Only the sizes kTinyVertices + 1 .. cnt - 1 occur, but the compiler
      // cannot know that deepSize holds no other: zeroed, not left to chance.
      int start[33] = {};
      for (int c = kTinyVertices + 1, at = 0; c < cnt; ++c) start[c] = at, at += sizeCount[c];
      for (int i = 0; i < deepCount; ++i) ordered[start[deepSize[i]]++] = uint8_t(i);
      for (int i = 0; i < deepCount && !win; ++i) win = !smallWins(deep[ordered[i]], heap, deepCode[ordered[i]]);
    }
    memo_[slot] = tag | (win ? kWinBit : 0);
    return win;
  }

  const Graph<W>& g_;
  TranspositionTable& tt_;
  SearchOptions opt_;
  int interleaveAbove_;
  int smallLimit_;
  std::deque<std::vector<Child>> plies_;  // per-ply child buffers
  const TinyGraphs& tiny_ = TinyGraphs::get();
  uint32_t adj_[32];
  int smallSquare_[32];
  Bits<W> frameLive_;
  bool framed_ = false;  // false: no frame yet
  int frameShift_[W] = {};
  uint64_t generation_ = 0;
  std::vector<uint64_t> memo_;
  uint64_t nodeLimit_ = UINT64_MAX;
  bool overBudget_ = false;
};

}  // namespace qcert
