// Proof emission through a narrow tracer interface, as CaDiCaL does: the
// emitter walks the proof in exactly the order the checker will replay it
// (docs/certificate-format.md, "Replay") and reports each winner decision to
// a ProofSink. Nothing here knows about Cap'n Proto or compression.
#pragma once
#include <algorithm>
#include <bit>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "prover/game/search.hpp"

namespace qcert {

class ProofSink {
 public:
  virtual ~ProofSink() = default;
  // One winner decision in replay order: 0 = default reply, 1..m = the t-th
  // live square, m+1.. = heap move to t-m-1 (m = number of live squares).
  virtual void reply(uint32_t token) = 0;
};

struct EmitOptions {
  int cutoff = 20;             // positions with <= cutoff live squares: checker solves
  bool mirrorDefault = false;  // use token 0 whenever the mirror reply wins
  Mirror mirror = Mirror::halfTurn;  // which map the default reply names
};

struct EmitStats {
  uint64_t decisions = 0;       // tokens written
  uint64_t defaultReplies = 0;  // of which token 0
  uint64_t lossNodes = 0;       // loser positions expanded
  uint64_t memoEntries = 0;
};

// The positions a proof emission has already emitted, with their outcome:
// open addressing on whole keys (exact: a false match would drop a subtree
// the checker needs), hashed by the canonical image's Zobrist hash the
// emitter already has. A node-based map was a twentieth of a work unit's
// time (n = 16). A work unit's thread keeps one for all its units: reset()
// empties it by a new generation, so the next unit neither allocates nor
// zeroes its slots again (a fresh memo per unit, grown to tens of MiB and
// freed, cost n = 16 about 5% in page faults and zeroing).
template <int W>
class EmitMemo {
 public:
  struct Key {
    Bits<W> live;
    uint32_t heap;
    bool operator==(const Key&) const = default;
  };
  struct Slot {
    Key key{};
    uint64_t hash = 0;
    uint32_t generation = 0;  // the slot is empty unless this is the memo's
    uint8_t state = 0;        // 1 lost, 2 won
  };
  size_t size() const { return used_; }
  void reset() {
    used_ = 0;
    if (++generation_ == 0) {  // wrapped: old tags could match again
      std::fill(slots_.begin(), slots_.end(), Slot{});
      generation_ = 1;
    }
  }
  // The outcome stored for key: 0 none, 1 lost, 2 won.
  uint8_t lookup(const Key& key, uint64_t hash) {
    const Slot& s = find(key, hash);
    return s.generation == generation_ ? s.state : 0;
  }
  void insert(const Key& key, uint64_t hash, bool win) {
    if (2 * (used_ + 1) > slots_.size()) grow();
    Slot& s = find(key, hash);
    if (s.generation == generation_) return;
    s = Slot{key, hash, generation_, uint8_t(win ? 2 : 1)};
    ++used_;
  }

 private:
  static constexpr int kFirstBits = 10;
  // The slot holding key, or the empty slot where it would go.
  Slot& find(const Key& key, uint64_t hash) {
    if (slots_.empty()) grow();
    const size_t mask = slots_.size() - 1;
    for (size_t i = size_t((hash * 0x9E3779B97F4A7C15ull) >> shift_);; i = (i + 1) & mask) {
      Slot& s = slots_[i];
      if (s.generation != generation_ || (s.hash == hash && s.key == key)) return s;
    }
  }
  void grow() {
    std::vector<Slot> old(slots_.empty() ? size_t{1} << kFirstBits : 2 * slots_.size());
    shift_ = 64 - std::countr_zero(old.size());
    old.swap(slots_);
    for (const Slot& s : old)
      if (s.generation == generation_) find(s.key, s.hash) = s;
  }
  std::vector<Slot> slots_;
  int shift_ = 64 - kFirstBits;
  uint32_t generation_ = 1;
  size_t used_ = 0;
};

template <int W>
class ProofEmitter {
 public:
  // memo: one to reuse (emptied here), or none for a memo of its own.
  ProofEmitter(const Graph<W>& g, Solver<W>& solver, ProofSink& sink, EmitOptions opt, EmitMemo<W>* memo = nullptr)
      : g_(g), solver_(solver), sink_(sink), opt_(opt), memo_(memo ? *memo : ownMemo_) {
    memo_.reset();
  }

  // Emits the proof that the player to move at (root, heap) wins (wantWin)
  // or loses. Throws if the search's answers do not add up to such a proof.
  // Returns false when the solver was halted meanwhile (a signal, a lost
  // sibling, a node budget): its answers are then void, the proof may be cut
  // short or wrong, and the caller must discard what was written.
  bool emit(const Bits<W>& root, uint32_t heap, bool wantWin) {
    visit(root, heap, wantWin, -1);
    stats.memoEntries = memo_.size();
    return !solver_.halted();
  }

  EmitStats stats;

 private:
  using Key = typename EmitMemo<W>::Key;

  void visit(const Bits<W>& live, uint32_t heap, bool wantWin, int lastMove) {
    // Halted: abandon; emit() says so and the caller keeps nothing. A halt
    // can also land inside a search below, whose void answer must then not
    // be reported as a broken proof (it was, on SIGINT, 2026-11-28).
    if (solver_.halted()) return;
    const int cnt = live.count();
    if (cnt <= opt_.cutoff) return;
    // Any exact image chosen the same way for every member of the class will
    // do as the memo key (the checker's own choice may differ; only the
    // classes must agree): the image in the frame of least hash.
    const Hash8 h = g_.hashOf(live);
    const bool big = g_.bigGroup();  // the torus: canonical under all its shifts too
    const int frame = Graph<W>::canonicalFrame(h);
    const Key key{big ? g_.groupCanonical(live) : g_.image(frame, live), heap};
    const uint64_t keyHash = (big ? BitsHash<W>{}(key.live) : h.h[frame]) ^ Graph<W>::heapKey(heap);
    if (const uint8_t state = memo_.lookup(key, keyHash); state != 0) {
      if ((state == 2) != wantWin) {
        if (solver_.halted()) return;
        throw std::logic_error("proof emission: position needed with both outcomes");
      }
      return;
    }
    if (wantWin) {
      int move = -1;
      uint32_t token = 0;
      if (opt_.mirrorDefault && lastMove >= 0) {
        const int m = g_.geo->mirrorImage(opt_.mirror, lastMove);
        const bool halfTurn = opt_.mirror == Mirror::halfTurn;
        if (m >= 0 && live.test(m) &&
            ((halfTurn && heap == 0 && g_.mirrorLemmaLoss(live.andNot(g_.kill[m]))) || solver_.moveLoses(live, heap, m)))
          move = m;
      }
      if (move >= 0) {
        ++stats.defaultReplies;
      } else {
        move = solver_.winningMove(live, heap, lastMove);
        if (move < 0) {
          if (solver_.halted()) return;
          throw std::logic_error("proof emission: a position the search called won has no winning move");
        }
        token = isHeapMove(move) ? uint32_t(cnt + 1 + (move - kHeapMove)) : uint32_t(live.countBelow(move) + 1);
      }
      ++stats.decisions;
      sink_.reply(token);
      if (isHeapMove(move))
        visit(live, uint32_t(move - kHeapMove), false, -1);
      else
        visit(live.andNot(g_.kill[move]), heap, false, move);
    } else {
      ++stats.lossNodes;
      if (big) {
        for (int v : g_.groupOrbitLeaders(live)) visit(live.andNot(g_.kill[v]), heap, true, v);
        for (uint32_t k = 0; k < heap; ++k) visit(live, k, true, -1);
        memo_.insert(key, keyHash, wantWin);
        return;
      }
      unsigned stab = 1;  // exact: a hash match is confirmed by the image
      for (int k = 1; k < kSymmetries; ++k)
        if (h.h[k] == h.h[0] && g_.image(k, live) == live) stab |= 1u << k;
      live.forEach([&](int v) {
        if (g_.orbitLeader(stab, v)) visit(live.andNot(g_.kill[v]), heap, true, v);
      });
      for (uint32_t k = 0; k < heap; ++k) visit(live, k, true, -1);
    }
    memo_.insert(key, keyHash, wantWin);
  }

  const Graph<W>& g_;
  Solver<W>& solver_;
  ProofSink& sink_;
  EmitOptions opt_;
  EmitMemo<W> ownMemo_;
  EmitMemo<W>& memo_;
};

}  // namespace qcert
