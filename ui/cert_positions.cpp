#include "ui/cert_positions.hpp"

#include <algorithm>
#include <bit>

namespace qcert::ui {

PositionKey PositionKey::fromWords(const uint64_t* words, unsigned count, uint32_t heap) {
  PositionKey k;
  std::copy(words, words + std::min(count, 8u), k.live.begin());
  k.heap = heap;
  return k;
}

size_t PositionKeyHash::operator()(const PositionKey& k) const {
  uint64_t h = 0x9e3779b97f4a7c15ull ^ k.heap;
  for (uint64_t w : k.live) h = (h ^ w) * 0xbf58476d1ce4e5b9ull, h ^= h >> 29;
  return size_t(h);
}

TokenMove decodeToken(const LiveWords& live, uint32_t heap, uint32_t token) {
  unsigned m = 0;
  for (uint64_t w : live) m += unsigned(std::popcount(w));
  TokenMove move;
  if (token >= 1 && token <= m) {
    unsigned k = token;  // the k-th live square, counting from 1
    for (unsigned i = 0; i < live.size(); ++i) {
      const unsigned here = unsigned(std::popcount(live[i]));
      if (k > here) {
        k -= here;
        continue;
      }
      uint64_t x = live[i];
      for (unsigned j = 1; j < k; ++j) x &= x - 1;
      move.kind = TokenMove::Kind::square;
      move.to = i * 64 + unsigned(std::countr_zero(x));
      break;
    }
  } else if (token > m && uint64_t(token) <= uint64_t(m) + heap) {
    move.kind = TokenMove::Kind::heap;
    move.to = token - m - 1;
  }
  return move;
}

}  // namespace qcert::ui
