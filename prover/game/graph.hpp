// A Geometry compiled for a fixed bitboard width: kill masks, symmetry tables
// and the per-square Zobrist keys of all 8 symmetric images, so that one XOR
// pass per removed square keeps the hashes of all 8 images up to date.
#pragma once
#include <cstdint>
#include <random>
#include <vector>

#include "prover/bitboard.hpp"
#include "prover/geometry.hpp"

namespace qcert {

struct Hash8 {
  uint64_t h[kSymmetries];
};

template <int W>
struct Graph {
  const Geometry* geo = nullptr;
  int squares = 0;
  Bits<W> all;
  std::vector<Bits<W>> kill;
  std::vector<Hash8> zobrist8;  // zobrist8[s].h[g] = key of square image(g, s)
  // Squares that attack (or are) their own half-turn image: the centre lines
  // on odd boards, the two long diagonals on even ones.
  Bits<W> selfMirrorAttack;
  static constexpr int kHalfTurn = 2;  // symmetry slot of the half turn

  explicit Graph(const Geometry& g) : geo(&g), squares(g.squares), kill(g.squares), zobrist8(g.squares) {
    std::mt19937_64 rng(0x51ce57a9e1ull);
    std::vector<uint64_t> key(g.squares);
    for (auto& k : key) k = rng();
    for (int s = 0; s < g.squares; ++s) {
      if (g.isHole.empty() || !g.isHole[s]) all.set(s);  // hand-built geometries (tests) have no holes
      for (int t : g.kills[s]) kill[s].set(t);
      for (int k = 0; k < kSymmetries; ++k) zobrist8[s].h[k] = key[g.image(k, s)];
    }
    for (int s = 0; s < g.squares; ++s)
      if (kill[s].test(g.image(kHalfTurn, s))) selfMirrorAttack.set(s);
  }

  Hash8 hashOf(const Bits<W>& live) const {
    Hash8 h{};
    live.forEach([&](int s) { xorInto(h, s); });
    return h;
  }
  void xorInto(Hash8& h, int s) const {
    for (int k = 0; k < kSymmetries; ++k) h.h[k] ^= zobrist8[s].h[k];
  }
  // Hashes after removing the set `gone` (a subset of the live squares).
  Hash8 without(Hash8 h, const Bits<W>& gone) const {
    gone.forEach([&](int s) { xorInto(h, s); });
    return h;
  }
  static int canonicalFrame(const Hash8& h) {
    int best = 0;
    for (int k = 1; k < kSymmetries; ++k)
      if (h.h[k] < h.h[best]) best = k;
    return best;
  }
  // The heap enters through a bijective mixer, so distinct heaps never share
  // a key component.
  static uint64_t heapKey(uint32_t heap) {
    uint64_t z = uint64_t(heap) + 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  uint64_t keyInFrame(const Hash8& h, int frame, uint32_t heap) const { return h.h[frame] ^ heapKey(heap); }
  // Symmetry-invariant key: the hash of the canonical image, plus the heap.
  uint64_t key(const Hash8& h, uint32_t heap) const { return keyInFrame(h, canonicalFrame(h), heap); }

  // The mirror lemma (Jenrich 2014 section 4, Noon 2002 section 4.1): if the live
  // set is invariant under the half turn and no live square attacks its own
  // image, every move v can be answered by its image, which is still live
  // and restores the symmetry; so the player to move loses (without a heap).
  bool mirrorLemmaLoss(const Bits<W>& live) const {
    return (live & selfMirrorAttack).empty() && image(kHalfTurn, live) == live;
  }
  bool mirrorLemmaLoss(const Bits<W>& live, const Hash8& h) const {  // hash test, for search only
    return h.h[kHalfTurn] == h.h[0] && (live & selfMirrorAttack).empty();
  }

  // The whole group, when the 8 hashing slots do not hold it (the torus's shifts):
  // proof emission and work units must use exactly the checker's group.
  bool bigGroup() const { return !geo->groupInSlots; }
  Bits<W> groupImage(size_t k, const Bits<W>& b) const {
    Bits<W> r;
    const std::vector<int>& map = geo->group[k];
    b.forEach([&](int s) { r.set(map[s]); });
    return r;
  }
  Bits<W> groupCanonical(const Bits<W>& b) const {
    Bits<W> best = b;
    for (size_t k = 1; k < geo->group.size(); ++k) {
      Bits<W> c = groupImage(k, b);
      if (c < best) best = c;
    }
    return best;
  }
  // Squares v of b that are least in their orbit under the stabiliser of b.
  std::vector<int> groupOrbitLeaders(const Bits<W>& b) const {
    std::vector<size_t> stab;
    for (size_t k = 1; k < geo->group.size(); ++k)
      if (groupImage(k, b) == b) stab.push_back(k);
    std::vector<int> out;
    b.forEach([&](int v) {
      for (size_t k : stab)
        if (geo->group[k][v] < v) return;
      out.push_back(v);
    });
    return out;
  }

  // Exact image of a square set under symmetry g.
  Bits<W> image(int g, const Bits<W>& b) const {
    Bits<W> r;
    b.forEach([&](int s) { r.set(geo->image(g, s)); });
    return r;
  }
  // Exact canonical representative: the least of the 8 images.
  Bits<W> canonical(const Bits<W>& b) const {
    Bits<W> best = b;
    for (int g = 1; g < kSymmetries; ++g) {
      Bits<W> c = image(g, b);
      if (c < best) best = c;
    }
    return best;
  }
  // Symmetries fixing b, as a bit mask over g (bit 0 always set).
  unsigned stabiliser(const Bits<W>& b) const {
    unsigned m = 1;
    for (int g = 1; g < kSymmetries; ++g)
      if (image(g, b) == b) m |= 1u << g;
    return m;
  }
  // True when v is the least square of its orbit under the stabiliser.
  bool orbitLeader(unsigned stab, int v) const {
    for (int g = 1; g < kSymmetries; ++g)
      if ((stab >> g & 1) && geo->image(g, v) < v) return false;
    return true;
  }
};

}  // namespace qcert
