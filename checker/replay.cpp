#include "checker/replay.hpp"

#include "checker/board.hpp"
#include "checker/limits.hpp"
#include "checker/tiny_graph_table.hpp"

#include <pthread.h>
#include <xxhash.h>

#include <algorithm>
#include <cstring>
#include <exception>
#include <functional>

namespace qcert::checker {
namespace {

std::string heapText(uint32_t h) { return h ? " and a heap of " + std::to_string(h) : ""; }
std::string liveText(unsigned m) { return std::to_string(m) + (m == 1 ? " live square" : " live squares"); }

// Exhaustive win/loss solver for positions with at most 32 live squares,
// relabelled to local indices of a frame: a set F of at most 32 squares that
// contains the position.  (mask, h): mask = live local squares, h = Nim heap.
// The memo holds exact positions of the current frame and is forgotten when
// the frame changes; the replay makes each loser position's live set the
// frame for its children, so siblings share one memo.
class SmallSolver {
 public:
  template <int W>
  void setFrame(const Geometry<W>& geo, const Bits<W>& F) {  // caller guarantees |F| <= 32
    frame_.fill(0);
    for (int k = 0; k < W; ++k) frame_[k] = F.w[k];
    unsigned m = 0;
    F.forEach([&](unsigned s) {
      square_[m] = s;
      adj_[m++] = local(geo.attack[s]);  // row: the frame squares s attacks, s included
    });
    clearTable();
  }
  template <int W>
  bool inFrame(const Bits<W>& L) const {
    bool inside = framed_;
    for (int k = 0; k < W; ++k) inside &= (L.w[k] & ~frame_[k]) == 0;
    return inside;
  }
  // Does the player to move win (L, h)?  With `winningSquare`, a won
  // position also reports a square whose queen wins it (-1 when only a heap
  // move does), trying the squares in `prefer` first, then the highest.
  template <int W>
  bool wins(const Geometry<W>& geo, const Bits<W>& L, uint32_t h, uint64_t& nodes, int* winningSquare = nullptr,
            const Bits<W>& prefer = Bits<W>()) {
    if (!inFrame(L)) setFrame(geo, L);
    const uint64_t before = nodes_;
    const uint32_t mask = local(L), preferred = local(prefer);
    bool result = false;
    if (winningSquare) {
      *winningSquare = -1;
      // Order: tiny preferred, tiny other (table lookups), then the rest
      // likewise; within each, the smaller options first (see win()).
      const unsigned tiny = 6;  // with 7 here, fewer wins pair with a sibling (+1% solves)
      uint32_t bySize[32] = {};
      for (uint32_t x = mask; x; x &= x - 1)
        bySize[std::popcount(mask & ~adj_[std::countr_zero(x)])] |= x & -x;
      for (unsigned pass = 0; pass < 4 && !result; ++pass)
        for (unsigned k = pass < 2 ? 0 : tiny + 1; k <= (pass < 2 ? tiny : 31) && !result; ++k)
          for (uint32_t x = bySize[k] & (pass % 2 ? ~preferred : preferred); x && !result; x &= x - 1) {
            const unsigned i = unsigned(std::countr_zero(x));
            if (!win(mask & ~adj_[i], h)) result = true, *winningSquare = int(square_[i]);
          }
    }
    if (!result) result = win(mask, h);
    nodes += nodes_ - before;
    return result;
  }

 private:
  // Does the player to move win (mask, h)?  Plain negamax with a memo.
  // code: the table code of mask's graph when the caller knows it (at most
  // kCoded live squares), else kNoCode.
  static constexpr uint64_t kNoCode = ~uint64_t(0);
  bool win(uint32_t mask, uint32_t h, uint64_t code = kNoCode) {
    // A position with k live squares has at most k board options, so its
    // Grundy value G is at most k; for h > k the mover wins by moving the
    // heap to G (Sprague-Grundy: (mask, G) is a loss).  This bounds h by 32.
    const unsigned live = unsigned(std::popcount(mask)), tiny = TinyGraphTable::limit(h);
    if (h > live) return true;
    if (mask == 0) return false;  // no board move and (h <= 0) no heap move
    // Sprague-Grundy again: (mask, h) is lost exactly when G(mask) = h.
    if (live <= tiny) return !(code == kNoCode ? tiny_.lost(mask, adj_, h) : tiny_.lostCoded(live, uint32_t(code), h));
    // The options with at most `tiny` live squares are decided by the table
    // as they come: one that is lost for the opponent wins.  The others are
    // searched after the memo is asked, grouped by size, smallest first
    // (more often lost): bigger[k] has bit i when the queen on i leaves k.
    const bool coded = live <= TinyGraphTable::kCoded;
    if (coded && code == kNoCode) code = TinyGraphTable::codeOf64(mask, adj_);
    uint32_t option[32], bigger[33], sizes = 0;
    for (uint32_t x = mask; x; x &= x - 1) {
      const unsigned i = unsigned(std::countr_zero(x));
      const uint32_t o = option[i] = mask & ~adj_[i];
      const unsigned k = unsigned(std::popcount(o));
      if (k <= tiny) {
        if (coded ? tiny_.lostCoded(k, uint32_t(tiny_.subsetCode(code, mask, o)), h) : tiny_.lost(o, adj_, h)) return true;
      } else {
        bigger[k] = (sizes >> k & 1 ? bigger[k] : 0) | (x & -x);
        sizes |= uint32_t(1) << k;
      }
    }
    const uint64_t key = mask | uint64_t(h) << 32;
    if (int known = lookup(key); known >= 0) return known;
    ++nodes_;
    limits::checkTime();
    bool result = false;
    for (; sizes && !result; sizes &= sizes - 1)
      for (uint32_t x = bigger[std::countr_zero(sizes)]; x && !result; x &= x - 1) {
        const uint32_t o = option[std::countr_zero(x)];
        result = !win(o, h, coded ? tiny_.subsetCode(code, mask, o) : kNoCode);
      }
    for (uint32_t h2 = 0; h2 < h && !result; ++h2) result = !win(mask, h2);
    store(key, result);
    return result;
  }

  // The frame squares in S, as local indices.
  template <int W>
  uint32_t local(const Bits<W>& S) const {
    uint64_t packed = 0;
    for (unsigned k = 0, below = 0; k < unsigned(W); below += std::popcount(frame_[k]), ++k)
      packed |= compress(S.w[k], frame_[k]) << below;
    return uint32_t(packed);
  }

  // The memo: open addressing (linear probing) over the first 2^bits_ slots
  // of table_.  A slot holds stamp << 39 | outcome << 38 | key, key = mask |
  // h << 32 (h <= 32); it is empty unless its stamp is gen_, so taking the
  // next stamp empties the table at once.  Each frame starts with a small
  // table, which stays in cache, and doubles it as it fills.
  static constexpr uint64_t kKeyMask = (uint64_t(1) << 38) - 1;
  void clearTable() {
    framed_ = true;
    bits_ = kMinBits;
    used_ = 0;
    nextStamp();
  }
  void nextStamp() {
    if (++gen_ == uint32_t(1) << 25) std::fill(table_.begin(), table_.end(), 0), gen_ = 1;
  }
  bool occupied(size_t i) const { return table_[i] >> 39 == gen_; }
  size_t slot(uint64_t key) const { return size_t((key * 0x9E3779B97F4A7C15ull) >> (64 - bits_)); }
  size_t next(size_t i) const { return (i + 1) & ((size_t(1) << bits_) - 1); }
  int lookup(uint64_t key) const {
    for (size_t i = slot(key); occupied(i); i = next(i))
      if ((table_[i] & kKeyMask) == key) return int(table_[i] >> 38 & 1);
    return -1;
  }
  void store(uint64_t key, bool value) {
    if (2 * (used_ + 1) > size_t(1) << bits_) {
      if (bits_ == kMaxBits) return;  // full: forget it (the memo only saves time)
      grow();
    }
    size_t i = slot(key);
    while (occupied(i) && (table_[i] & kKeyMask) != key) i = next(i);
    used_ += !occupied(i);
    table_[i] = uint64_t(gen_) << 39 | uint64_t(value) << 38 | key;
  }
  void grow() {  // doubles the table; its entries move to the next stamp
    const bool bigger = table_.size() < size_t(2) << bits_;
    limits::reserve((used_ + (bigger ? size_t(2) << bits_ : 0)) * sizeof(uint64_t), "the exhaustive solver's memo");
    std::vector<uint64_t> live;
    for (size_t i = 0; i < size_t(1) << bits_; ++i)
      if (occupied(i)) live.push_back(table_[i]);
    if (bigger) table_.resize(size_t(2) << bits_, 0);
    ++bits_;
    nextStamp();
    used_ = 0;
    for (uint64_t e : live) store(e & kKeyMask, e >> 38 & 1);
  }

  static constexpr unsigned kMinBits = 10, kMaxBits = 24;  // at most 16M entries: 128 MiB
  static inline const TinyGraphTable tiny_;
  std::array<uint64_t, 8> frame_{};  // the frame's squares (W <= 8 words)
  bool framed_ = false;
  uint32_t adj_[33] = {};  // adj_[32] = 0: see TinyGraphTable::codeOf
  unsigned square_[32];  // frame index -> board square
  unsigned bits_ = kMinBits;
  std::vector<uint64_t> table_ = std::vector<uint64_t>(size_t(1) << kMinBits, 0);
  uint32_t gen_ = 0;
  size_t used_ = 0;
  uint64_t nodes_ = 0;
};

// Verified positions: canonical live set + heap -> outcome.  Open addressing
// with linear probing; keys are compared in full, never by hash alone.
template <int W>
class VerifiedSet {
 public:
  struct Key {
    Bits<W> live;
    uint64_t heap;
    bool operator==(const Key&) const = default;
  };
  // -1: not verified yet, and now entered with outcome `win`; else the
  // outcome verified before (0 loss, 1 win).  One probe does both.
  int findOrInsert(const Key& k, bool win) {
    if (4 * (used_ + 1) > 3 * tags_.size()) grow();  // load factor at most 3/4
    const uint64_t hash = XXH3_64bits(&k, sizeof k);
    const uint32_t tag = uint32_t(hash >> 34 << 2);
    size_t i = hash & (tags_.size() - 1);
    for (; tags_[i] != 0; i = (i + 1) & (tags_.size() - 1))
      if ((tags_[i] & ~3u) == tag && keys_[i] == k) return int(tags_[i] & 3) - 1;
    keys_[i] = k, tags_[i] = tag | (win ? 2 : 1);
    ++used_;
    return -1;
  }
  size_t size() const { return used_; }

 private:
  void grow() {
    limits::reserve(uint64_t(keys_.size()) * 2 * (sizeof(Key) + sizeof(uint32_t)), "the memo of verified positions");
    std::vector<Key> keys(keys_.size() * 2);
    std::vector<uint32_t> tags(tags_.size() * 2, 0);
    keys.swap(keys_), tags.swap(tags_);  // keys, tags: now the old table
    used_ = 0;
    for (size_t i = 0; i < tags.size(); ++i)
      if (tags[i] != 0) findOrInsert(keys[i], (tags[i] & 3) == 2);
  }
  // Slot i is empty when tags_[i] = 0, else it holds keys_[i] and tags_[i] =
  // the top 30 bits of its hash (a filter before the full comparison, in an
  // array small enough to stay in cache), then 2 bits: 1 loss, 2 win.
  std::vector<Key> keys_ = std::vector<Key>(1024);
  std::vector<uint32_t> tags_ = std::vector<uint32_t>(1024, 0);
  size_t used_ = 0;
};

template <int W>
class Replayer {
  using B = Bits<W>;
  using Key = typename VerifiedSet<W>::Key;

 public:
  Replayer(const Certificate& cert, TokenStream& tokens, const ReplyObserver* observer, bool repliesOnly)
      : cert_(cert), geo_(cert.board), tokens_(tokens), observer_(observer), repliesOnly_(repliesOnly),
        images_(geo_.squares + size_t(cert.heap) + 2), stabilisers_(images_.size()) {}

  ReplayStats run() {
    B root = geo_.onBoard;
    for (unsigned q : cert_.queens) {
      if (!root.test(q)) throw Rejection("claim queen " + squareName(geo_.n, q) + " is not live when placed");
      root = root.without(geo_.attack[q]);
    }
    if (cert_.mirrorLemma) {
      checkMirrorLemma(root);
    } else {
      verify(root, cert_.heap, cert_.claimWin, -1, nullptr);
    }
    if (tokens_.remaining() != 0)
      throw Rejection(std::to_string(tokens_.remaining()) + " unused reply tokens after the proof was complete");
    stats_.memoEntries = memo_.size();
    return stats_;
  }

  // The default reply's map (schema DefaultReply 1..5) applied to square s.
  unsigned mirror(unsigned s) const {
    const unsigned r = s / geo_.n, c = s % geo_.n, R = geo_.rows - 1, C = geo_.n - 1;
    switch (cert_.defaultReply) {
      case 1: return (R - r) * geo_.n + (C - c);
      case 2: return r * geo_.n + (C - c);
      case 3: return (R - r) * geo_.n + c;
      case 4: return c * geo_.n + r;  // square boards only (checked when reading)
      default: return (C - c) * geo_.n + (R - r);
    }
  }

  // The mirror lemma.  Let sigma be a symmetry of the game (an automorphism
  // of the attack relation mapping holes to holes) with sigma(sigma(s)) = s,
  // L a live set with sigma(L) = L, and no square s of L attacking sigma(s)
  // (attack[s] includes s, so sigma fixes no live square).  Then the player to
  // move at (L, heap 0) loses.  Proof, by induction on |L|: a move v in L
  // leaves L' = L - attack[v]; sigma(v) is in L' (it is in L, and v does not
  // attack it), and the answer sigma(v) leaves L'' = L - attack[v] -
  // attack[sigma(v)] = sigma(L''), with the hypothesis inherited by the subset
  // L''; when L is empty the player to move has no move.  (tests/variants_test.cpp
  // checks it against exhaustive search on random boards and pieces.)
  void checkMirrorLemma(const B& L) {
    std::vector<uint16_t> sigma(geo_.squares);
    for (unsigned s = 0; s < geo_.squares; ++s) sigma[s] = uint16_t(mirror(s));
    if (std::find(geo_.sym.begin(), geo_.sym.end(), sigma) == geo_.sym.end())
      throw Rejection("mirror lemma: the default reply's map is not a symmetry of this board and piece");
    L.forEach([&](unsigned s) {
      if (sigma[sigma[s]] != s) throw Rejection("mirror lemma: the map is not an involution");
      if (!L.test(sigma[s])) throw Rejection("mirror lemma: " + squareName(geo_.n, s) + " is live but its image " + squareName(geo_.n, sigma[s]) + " is not");
      if (geo_.attack[s].test(sigma[s])) throw Rejection("mirror lemma: " + squareName(geo_.n, s) + " attacks (or is) its own image");
    });
  }

 private:
  [[noreturn]] void reject(const std::string& what) const {
    std::string path;
    const size_t first = path_.size() > 30 ? path_.size() - 30 : 0;
    for (size_t i = first; i < path_.size(); ++i)
      path += (path.empty() ? "" : ", ") + (path_[i] >= 0 ? squareName(geo_.n, path_[i]) : "heap to " + std::to_string(-path_[i] - 1));
    throw Rejection(what + (path_.empty() ? " (at the root)"
                                          : " (after replay moves " + std::string(first ? "..., " : "") + path + ")"));
  }

  // Moves are recorded for messages only: >= 0 board square, < 0 heap to -move-1.
  // img: the eight images of L (see verify()).
  void play(const B& L, const B* img, uint32_t h, bool wantWin, int move) {
    path_.push_back(move);
    if (move >= 0) verify(L.without(geo_.attack[move]), h, wantWin, move, img);
    else verify(L, uint32_t(-move - 1), wantWin, -1, img);
    path_.pop_back();
  }

  // want: true = the player to move at (L, h) wins, false = loses.
  // parentImg: the images of the position before lastMove (of L itself when
  // lastMove < 0), or null at the root.
  void verify(const B& L, uint32_t h, bool wantWin, int lastMove, const B* parentImg) {
    ++stats_.nodes;
    limits::checkTime();
    const unsigned m = L.count();
    const char* want = wantWin ? "win" : "loss";
    if (m <= cert_.cutoff) {
      if (repliesOnly_) return;  // no token is read there: the walk of the tokens is the same
      ++stats_.cutoffSolves;
      if (solver_.wins(geo_, L, h, stats_.solverNodes, wantWin ? &winningSquare_ : nullptr, partnersWanted_) != wantWin)
        reject(std::string("claimed ") + want + " but the exhaustive solver finds a " + (wantWin ? "loss" : "win") +
               " at a position with " + liveText(m) + heapText(h));
      return;
    }
    // Canonical form: the least of the group's images of L (with h).
    // Stabiliser: the symmetries g with g(L) = L.  Both use per-depth
    // buffers, so no node allocates.
    const size_t depth = path_.size(), G = geo_.sym.size();
    if (depth >= images_.size()) reject("replay deeper than its bound");  // cannot happen: each move shrinks L or h
    std::vector<B>& imgs = images_[depth];
    std::vector<uint16_t>& stabiliser = stabilisers_[depth];
    imgs.resize(G);
    stabiliser.clear();
    B* img = imgs.data();  // img[g] = g(L); g(P - N[v]) = g(P) - N[g(v)], as g maps attacks to attacks
    Key key{L, h};
    if (!parentImg)
      geo_.images(L, img);
    else
      for (size_t g = 0; g < G; ++g)
        img[g] = lastMove < 0 ? parentImg[g] : parentImg[g].without(geo_.attack[geo_.sym[g][unsigned(lastMove)]]);
    for (size_t g = 1; g < G; ++g) {
      if (img[g] == L) stabiliser.push_back(uint16_t(g));
      if (img[g] < key.live) key.live = img[g];
    }
    // Entered now, before its subtree is verified: no position below it can
    // be an image of it (every move shrinks L or h), and if the subtree
    // fails, the whole replay is rejected.
    if (const int known = memo_.findOrInsert(key, wantWin); known >= 0) {
      ++stats_.memoHits;
      if (known != int(wantWin))
        reject("memo conflict: a position with " + liveText(m) + heapText(h) +
               " was verified as a " + (wantWin ? "loss" : "win") + " and is now claimed a " + want);
      return;
    }
    if (wantWin) {
      if (tokens_.remaining() == 0)
        reject("ran out of reply tokens at a winner position with " + liveText(m) + heapText(h));
      const uint64_t index = tokens_.consumed();
      auto at = [&] { return "token #" + std::to_string(index + 1) + ": "; };
      const uint32_t t = tokens_.next();
      const auto tell = [&](int move) { if (observer_ && *observer_) (*observer_)(L.w.data(), unsigned(W), h, move); };
      if (t == 0) {
        if (cert_.defaultReply == 0) reject(at() + "token 0 (default reply) but the default reply rule is none");
        if (lastMove < 0) reject(at() + "default reply but there is no opponent board move made in this replay to answer");
        const unsigned v = mirror(unsigned(lastMove));
        if (!L.test(v)) reject(at() + "default reply: board move on square " + squareName(geo_.n, v) + " is not live");
        tell(int(v));
        play(L, img, h, false, int(v));
      } else if (t <= m) {
        unsigned v = 0, i = 0;
        L.forEach([&](unsigned s) { if (++i == t) v = s; });
        tell(int(v));
        play(L, img, h, false, int(v));
      } else if (t - m <= h) {
        tell(-int(t - m));
        play(L, img, h, false, -int(t - m));  // heap move to t - m - 1
      } else {
        reject(at() + "value " + std::to_string(t) + " names no move (" + liveText(m) + heapText(h) + ")");
      }
    } else {
      if (m <= 32 && !repliesOnly_ && !solver_.inFrame(L)) solver_.setFrame(geo_, L);  // its small children share a memo
      // When the solver shows a child L - N[v] won by the queen on u, the
      // grandchild L - N[v] - N[u] is lost for the player to move; it is also
      // L - N[u] - N[v], so the child L - N[u] is won by v: no second solve.
      // Such a u is sought first among the siblings still to be solved.
      B alsoWon, toSolve;
      const auto leader = [&](unsigned v) {
        for (uint16_t g : stabiliser)
          if (geo_.sym[g][v] < v) return false;  // covered by the smaller image
        return true;
      };
      const auto solved = [&](unsigned v) { return L.without(geo_.attack[v]).count() <= cert_.cutoff; };
      L.forEach([&](unsigned v) {
        if (leader(v) && solved(v)) toSolve.set(v);
      });
      L.forEach([&](unsigned v) {
        if (!leader(v)) return;
        if (toSolve.test(v) && alsoWon.test(v)) {
          ++stats_.pairedWins;
          return;
        }
        toSolve.reset(v);
        partnersWanted_ = toSolve.without(alsoWon);
        winningSquare_ = -1;
        play(L, img, h, true, int(v));
        if (solved(v) && winningSquare_ >= 0) {  // and so are the children symmetric to L - N[u]
          alsoWon.set(unsigned(winningSquare_));
          for (uint16_t g : stabiliser) alsoWon.set(geo_.sym[g][unsigned(winningSquare_)]);
        }
      });
      for (uint32_t h2 = 0; h2 < h; ++h2) play(L, img, h, true, -int(h2) - 1);
    }
  }

  const Certificate& cert_;
  const Geometry<W> geo_;
  TokenStream& tokens_;
  const ReplyObserver* observer_;  // may be null
  const bool repliesOnly_;
  VerifiedSet<W> memo_;
  SmallSolver solver_;
  std::vector<int> path_;
  // By depth (never resized, so references stay valid): the images of that
  // depth's L, and the g > 0 fixing it.
  std::vector<std::vector<B>> images_;
  std::vector<std::vector<uint16_t>> stabilisers_;
  ReplayStats stats_;
  int winningSquare_ = -1;  // set by a cutoff solve of a claimed win
  B partnersWanted_;        // squares such a solve should try first
};

// The recursion is at most (board moves <= n) + (heap moves <= heap) deep, so
// the replay runs on a thread whose stack is sized for that.
ReplayStats runOnBigStack(size_t depthBound, const std::function<ReplayStats()>& body) {
  struct Job {
    const std::function<ReplayStats()>* body;
    ReplayStats result;
    std::exception_ptr error;
  } job{&body, {}, nullptr};
  auto entry = [](void* p) -> void* {
    auto* j = static_cast<Job*>(p);
    try {
      j->result = (*j->body)();
    } catch (...) {
      j->error = std::current_exception();
    }
    return nullptr;
  };
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, (size_t(64) << 20) + depthBound * 2048);
  pthread_t thread;
  const int rc = pthread_create(&thread, &attr, entry, &job);
  pthread_attr_destroy(&attr);
  if (rc != 0) throw NotChecked(std::string("cannot start the replay thread (") + std::strerror(rc) + "; it needs a " +
                                std::to_string(((size_t(64) << 20) + depthBound * 2048) >> 20) + " MiB stack)");
  pthread_join(thread, nullptr);
  if (job.error) std::rethrow_exception(job.error);
  return job.result;
}

}  // namespace

uint64_t replayMemoryBound(const Certificate& cert) {
  // Every verify() above the cut-off that is not a memo hit consumes a token
  // (winner) or is the one child of a winner or the root (loser), so the memo
  // holds at most 2 * replyCount + 1 keys; its table is at most 8/3 times that
  // at a load of 3/4, twice during a doubling.  The solver's memo has at most
  // 2^24 slots, the stack 64 MiB plus the depth, and two chunk buffers.  The
  // images of the positions on the path: at most one level per square, each
  // a set per symmetry (8 at most, 8 n^2 on the torus).
  const unsigned squares = cert.board.rows * cert.board.cols, words = squares <= 64 ? 1 : squares <= 128 ? 2 : squares <= 256 ? 4 : 8;
  const uint64_t memo = (2 * cert.replyCount + 1) * 16 / 3 * (8 * words + 8 + 4);
  const uint64_t solver = (uint64_t(1) << 24) * 8 * 3 / 2;
  const uint64_t images = uint64_t(squares + 2) * (cert.board.torus ? 8 * squares : 8) * (8 * words + 2);
  return memo + solver + images + (uint64_t(64) << 20) + 2 * uint64_t(kMaxRawSize);
}

ReplayStats replayCertificate(const Certificate& cert, TokenStream& tokens, const ReplyObserver* observer, bool repliesOnly) {
  const unsigned squares = cert.board.rows * cert.board.cols;
  const size_t depth = squares + size_t(cert.heap) + 16;  // kings on a big board: up to squares/4 moves
  if (squares <= 64) return runOnBigStack(depth, [&] { return Replayer<1>(cert, tokens, observer, repliesOnly).run(); });
  if (squares <= 128) return runOnBigStack(depth, [&] { return Replayer<2>(cert, tokens, observer, repliesOnly).run(); });
  if (squares <= 256) return runOnBigStack(depth, [&] { return Replayer<4>(cert, tokens, observer, repliesOnly).run(); });
  if (squares <= 512) return runOnBigStack(depth, [&] { return Replayer<8>(cert, tokens, observer, repliesOnly).run(); });
  throw Rejection("board size out of range");
}

}  // namespace qcert::checker
