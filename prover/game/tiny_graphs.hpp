// Grundy values of every labelled graph on at most kTinyVertices vertices,
// computed once at start-up. The bottom of the search tree is where almost all
// nodes are (positions with 1..7 live squares were 9 in 10 of the small
// solver's nodes at n=14), so the small solver looks these up instead of
// recursing into them.
//
// A graph on k vertices 0..k-1 is coded by its lower-triangular adjacency:
// the edge {i, j}, i < j, is bit tri(j) + i. Deleting vertices keeps the
// order of the rest, so the code of an induced subgraph is the parent code
// with the surviving pair bits extracted (pext) in place.
#pragma once
#include <bit>
#include <cstdint>
#include <vector>

#if defined(__BMI2__)
#include <immintrin.h>
#endif

namespace qcert {

constexpr int kTinyVertices = 7;
// Graphs on at most this many vertices have codes of at most 55 bits, so the
// small solver carries a position's code down the tree: a child's code is
// one extract from its parent's (see pairBits).
constexpr int kCodedVertices = 11;

constexpr int tri(int j) { return j * (j - 1) / 2; }

inline uint64_t extractBits(uint64_t x, uint64_t mask) {
#if defined(__BMI2__)
  return _pext_u64(x, mask);
#else
  uint64_t r = 0;
  for (uint64_t bit = 1; mask; mask &= mask - 1, bit <<= 1)
    if (x & mask & -mask) r |= bit;
  return r;
#endif
}

class TinyGraphs {
 public:
  // The table, built on first use (about 20 ms; thread-safe).
  static const TinyGraphs& get();

  // Grundy value of the k-vertex graph with the given code.
  uint8_t grundy(int k, uint32_t code) const { return values_[offset_[k] + code]; }
  // Whether that graph is lost for the player to move (Grundy value 0):
  // the same table at one bit per graph, 256 KiB, which stays in cache.
  bool lost(int k, uint32_t code) const {
    const uint32_t i = offset_[k] + code;
    return lostBits_[i >> 6] >> (i & 63) & 1;
  }
  // Whether (graph, heap) is won for the player to move: G != heap.
  bool wins(int k, uint32_t code, uint32_t heap) const { return heap == 0 ? !lost(k, code) : grundy(k, code) != heap; }

  // The code bits of the edges among the vertex set `survivors` (a subset of
  // 0..kCodedVertices-1): extracting them from a graph's code gives the code
  // of the subgraph those vertices induce.
  uint64_t pairBits(uint32_t survivors) const { return pairBits_[survivors]; }

  // Code of the subgraph induced by `mask` (at most kCodedVertices bits), as codeOf.
  static uint64_t codeOf64(const uint32_t* rows, uint32_t mask) {
    uint64_t code = 0;
    uint32_t m = mask & (mask - 1);
    for (int j = 1, shift = 0; m; m &= m - 1, shift += j, ++j)
      code |= (extractBits(rows[std::countr_zero(m)], mask) & ((uint64_t{1} << j) - 1)) << shift;
    return code;
  }

  // Code of the subgraph induced by `mask` (at most kTinyVertices bits) in a
  // local graph whose vertex u has neighbourhood rows[u] (self bit ignored).
  static uint32_t codeOf(const uint32_t* rows, uint32_t mask) {
    // Vertex j's row holds its edges to vertices 0..j-1 at bits tri(j)..; the
    // first vertex has none, and the shift grows by j (this loop is a third
    // of the prover's instructions).
    uint32_t code = 0;
    uint32_t m = mask & (mask - 1);
    for (int j = 1, shift = 0; m; m &= m - 1, shift += j, ++j)
      code |= uint32_t(extractBits(rows[std::countr_zero(m)], mask) & ((1u << j) - 1)) << shift;
    return code;
  }

 private:
  TinyGraphs();
  std::vector<uint8_t> values_;
  std::vector<uint64_t> lostBits_;
  std::vector<uint64_t> pairBits_;
  uint32_t offset_[kTinyVertices + 1];
};

}  // namespace qcert
