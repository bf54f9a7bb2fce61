#include "prover/game/tiny_graphs.hpp"

namespace qcert {

const TinyGraphs& TinyGraphs::get() {
  static const TinyGraphs table;
  return table;
}

TinyGraphs::TinyGraphs() {
  uint32_t size = 0;
  for (int k = 0; k <= kTinyVertices; ++k) offset_[k] = size, size += uint32_t{1} << tri(k);
  values_.assign(size, 0);
  // pairBits_[S]: the code bits of the edges between members of vertex set S.
  pairBits_.assign(size_t{1} << kCodedVertices, 0);
  for (uint32_t s = 0; s < pairBits_.size(); ++s)
    for (int j = 1; j < kCodedVertices; ++j)
      for (int i = 0; i < j; ++i)
        if ((s >> i & 1) && (s >> j & 1)) pairBits_[s] |= uint64_t{1} << (tri(j) + i);
  // A code on k vertices is the code of the first k-1 plus the row of the
  // last one's lower neighbours; decode the prefix once per 2^(k-1) rows.
  for (int k = 1; k <= kTinyVertices; ++k) {
    const int last = k - 1;
    const uint32_t all = (1u << k) - 1;
    for (uint32_t prefix = 0; prefix < (1u << tri(last)); ++prefix) {
      // Entries from `last` on are never read (the last vertex's row is
      // `row`), which the compiler cannot see: zeroed, not left to chance.
      uint32_t closed[kTinyVertices] = {};
      for (int v = 0; v < last; ++v) closed[v] = 1u << v;
      for (int j = 1; j < last; ++j)
        for (int i = 0; i < j; ++i)
          if (prefix >> (tri(j) + i) & 1) closed[i] |= 1u << j, closed[j] |= 1u << i;
      for (uint32_t row = 0; row < (1u << last); ++row) {
        const uint32_t code = prefix | row << tri(last);
        uint32_t seen = 0;  // Grundy values of the options (at most k < 32)
        for (int v = 0; v < k; ++v) {
          const uint32_t nbhd = v == last ? row | 1u << last : closed[v] | (row >> v & 1) << last;
          const uint32_t rest = all & ~nbhd;
          seen |= 1u << grundy(std::popcount(rest), uint32_t(extractBits(code, pairBits_[rest])));
        }
        values_[offset_[k] + code] = uint8_t(std::countr_one(seen));
      }
    }
  }
  lostBits_.assign((size + 63) / 64, 0);
  for (uint32_t i = 0; i < size; ++i)
    if (values_[i] == 0) lostBits_[i >> 6] |= uint64_t{1} << (i & 63);
}

}  // namespace qcert
