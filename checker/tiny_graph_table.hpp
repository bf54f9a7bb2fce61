// Small-graph tables for the checker's exhaustive solver (trusted code; kept
// in a header of its own so that a unit test can compare every entry with a
// brute-force Grundy computation).
#pragma once

#if defined(__BMI2__)
#include <immintrin.h>
#endif

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdint>
#include <memory>
#include <vector>

namespace qcert::checker {

// The bits of x at the positions of mask's set bits, packed to the bottom
// (the BMI2 instruction pext, or the same by a loop).
inline uint64_t compress(uint64_t x, uint64_t mask) {
#if defined(__BMI2__)
  return _pext_u64(x, mask);
#else
  uint64_t packed = 0;
  for (unsigned out = 0; mask; mask &= mask - 1, ++out) packed |= (x >> std::countr_zero(mask) & 1) << out;
  return packed;
#endif
}

// Which small graphs are lost for the player to move, by table.  A graph on
// vertices 0..k-1 is coded by one bit per pair: pair (i, j), i < j, is bit
// j*(j-1)/2 + i, set when i and j are adjacent.  Most exhaustive-solver
// positions are this small.  Grundy values (mex over the options, smallest
// graphs first) are kept for graphs on at most 6 vertices, and one lost bit
// (Grundy value 0: what a claim without a heap asks) for those on at most 7.
// The 7-vertex bits, 2^21 of them, take about 0.1 s to compute, which small
// certificates should not pay: each 64-bit word of them is computed when
// first needed, by whichever thread needs it (racing threads store the same).
class TinyGraphTable {
 public:
  // The largest vertex count the table decides for a heap of h.
  static constexpr unsigned limit(uint32_t h) { return h == 0 ? 7 : 6; }
  TinyGraphTable() {
    for (unsigned k = 0; k <= 6; ++k) {
      grundy_[k].resize(size_t(1) << pairs(k));
      for (uint32_t code = 0; code < grundy_[k].size(); ++code) {
        uint32_t closed[33] = {1, 2, 4, 8, 16, 32};  // closed[v]: v and its neighbours
        addEdges(code, k, closed);
        uint64_t optionValues = 0;
        for (unsigned v = 0; v < k; ++v) {
          const uint32_t rest = ((uint32_t(1) << k) - 1) & ~closed[v];
          optionValues |= uint64_t(1) << grundy_[std::popcount(rest)][codeOf(rest, closed)];
        }
        grundy_[k][code] = uint8_t(std::countr_one(optionValues));
      }
    }
  }
  // Is (mask, h) lost, for the graph induced by the vertex set `mask` (at most
  // limit(h) members) of a graph with closed neighbourhoods closed[0..31]?
  // closed[32] must be 0 (see codeOf).
  bool lost(uint32_t mask, const uint32_t* closed, uint32_t h) const {
    return lostCoded(unsigned(std::popcount(mask)), codeOf(mask, closed), h);
  }
  // The same for the k-vertex graph with this code (k <= limit(h)).
  bool lostCoded(unsigned k, uint32_t code, uint32_t h) const {
    if (k == 7) {
      const uint32_t w = code / 64;
      if (!(sevenReady_[w / 64].load(std::memory_order_acquire) >> w % 64 & 1)) {
        sevenLost_[w].store(sevenWord(w), std::memory_order_relaxed);
        sevenReady_[w / 64].fetch_or(uint64_t(1) << w % 64, std::memory_order_release);
      }
      return sevenLost_[w].load(std::memory_order_relaxed) >> code % 64 & 1;
    }
    return grundy_[k][code] == h;
  }

 private:
  static constexpr unsigned pairs(unsigned k) { return k * (k - 1) / 2; }
  static unsigned pairBit(unsigned a, unsigned b) { return a < b ? pairs(b) + a : pairs(a) + b; }
  // Adds to closed[0..k-1] the edges among vertices 0..k-1 that code sets.
  static void addEdges(uint32_t code, unsigned k, uint32_t* closed) {
    for (unsigned v = 0; v < k; ++v)
      for (unsigned u = 0; u < k; ++u)
        if (u != v && (code >> pairBit(u, v) & 1)) closed[v] |= uint32_t(1) << u;
  }
  // Member j's row: its adjacency to members 0..j-1, squeezed out of closed[]
  // by the bits of mask (bit j of the squeezed word is j itself).  Always six
  // steps, for members 1..6 (member 0 has no row): past the last member x is
  // 0, whose countr_zero is 32, and closed[32] = 0 adds nothing.  So the
  // loop has no data-dependent exit, and a graph's code does not depend on
  // how many vertices come after its own.
  static uint32_t codeOf(uint32_t mask, const uint32_t* closed) {
    uint32_t code = 0, x = mask & (mask - 1);
#pragma GCC unroll 6
    for (unsigned j = 1; j < 7; ++j, x &= x - 1)
      code |= uint32_t(compress(closed[std::countr_zero(x)], mask) & ((uint32_t(1) << j) - 1)) << pairs(j);
    return code;
  }
 public:
  // Codes of graphs on up to kCoded vertices (55 bits), for the solver to
  // carry down: deleting vertices keeps the order of the others, so the code
  // of the graph a subset `rel` of them induces is the pairs of members of
  // `rel` taken out of the whole code: compress(code, pairBits_[rel]).
  static constexpr unsigned kCoded = 11;
  static uint64_t codeOf64(uint32_t mask, const uint32_t* closed) {
    uint64_t code = 0;
    uint32_t x = mask & (mask - 1);
    for (unsigned j = 1, shift = 0; x; shift += j, ++j, x &= x - 1)
      code |= (compress(closed[std::countr_zero(x)], mask) & ((uint64_t(1) << j) - 1)) << shift;
    return code;
  }
  // The code of the graph induced by `subset` of `mask`, from mask's code.
  uint64_t subsetCode(uint64_t code, uint32_t mask, uint32_t subset) const {
    return compress(code, pairBits_[compress(subset, mask)]);
  }

 private:
  // A 7-vertex graph is lost when every option (at most 6 vertices) is won.
  // Word w holds the codes 64 w .. 64 w + 63: its bits 0..5 are the pairs
  // among vertices 0..3, the word index all other pairs.
  [[gnu::noinline]] uint64_t sevenWord(uint32_t w) const {
    uint32_t outer[33] = {1, 2, 4, 8, 16, 32, 64};  // closed neighbourhoods by the other pairs only
    addEdges(64 * w, 7, outer);
    uint64_t word = 0;
    for (uint32_t inner = 0; inner < 64; ++inner) {
      uint32_t closed[33];
      std::copy(outer, outer + 33, closed);
      addEdges(inner, 4, closed);
      bool lost = true;
      for (unsigned v = 0; v < 7 && lost; ++v) lost = !this->lost(0x7f & ~closed[v], closed, 0);
      word |= uint64_t(lost) << inner;
    }
    return word;
  }
  std::vector<uint8_t> grundy_[7];
  std::vector<uint64_t> pairBits_ = [] {
    std::vector<uint64_t> bits(size_t(1) << kCoded, 0);
    for (uint32_t rel = 0; rel < bits.size(); ++rel)
      for (unsigned j = 1; j < kCoded; ++j)
        for (unsigned i = 0; i < j; ++i)
          if ((rel >> i & 1) && (rel >> j & 1)) bits[rel] |= uint64_t(1) << (pairs(j) + i);
    return bits;
  }();
  mutable std::unique_ptr<std::atomic<uint64_t>[]> sevenLost_{new std::atomic<uint64_t>[size_t(1) << pairs(6)]{}};
  mutable std::unique_ptr<std::atomic<uint64_t>[]> sevenReady_{new std::atomic<uint64_t>[size_t(1) << (pairs(6) - 6)]{}};
};

}  // namespace qcert::checker
