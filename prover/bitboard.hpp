// Fixed-width square sets. The width W (64-bit words) is a template
// parameter chosen once per run from the board size, so no per-node branch
// depends on it: W=1 covers n<=8, 2 covers n<=11, 4 covers n<=16, 8 n<=22.
#pragma once
#include <array>
#include <bit>
#include <cstdint>

namespace qcert {

template <int W>
struct Bits {
  std::array<uint64_t, W> w{};

  static Bits single(int s) {
    Bits b;
    b.w[s >> 6] = uint64_t{1} << (s & 63);
    return b;
  }
  bool test(int s) const { return (w[s >> 6] >> (s & 63)) & 1; }
  void set(int s) { w[s >> 6] |= uint64_t{1} << (s & 63); }
  void reset(int s) { w[s >> 6] &= ~(uint64_t{1} << (s & 63)); }
  int count() const {
    int c = 0;
    for (int i = 0; i < W; ++i) c += std::popcount(w[i]);
    return c;
  }
  bool empty() const {
    uint64_t x = 0;
    for (int i = 0; i < W; ++i) x |= w[i];
    return x == 0;
  }
  Bits operator&(const Bits& o) const {
    Bits r;
    for (int i = 0; i < W; ++i) r.w[i] = w[i] & o.w[i];
    return r;
  }
  Bits operator|(const Bits& o) const {
    Bits r;
    for (int i = 0; i < W; ++i) r.w[i] = w[i] | o.w[i];
    return r;
  }
  Bits andNot(const Bits& o) const {
    Bits r;
    for (int i = 0; i < W; ++i) r.w[i] = w[i] & ~o.w[i];
    return r;
  }
  // Number of members with index below s: the rank used by reply tokens.
  int countBelow(int s) const {
    int c = 0;
    for (int i = 0; i < (s >> 6); ++i) c += std::popcount(w[i]);
    if (s & 63) c += std::popcount(w[s >> 6] & ((uint64_t{1} << (s & 63)) - 1));
    return c;
  }
  bool operator==(const Bits& o) const = default;
  bool operator<(const Bits& o) const {
    for (int i = W - 1; i >= 0; --i)
      if (w[i] != o.w[i]) return w[i] < o.w[i];
    return false;
  }
  template <class F>
  void forEach(F&& f) const {
    for (int i = 0; i < W; ++i)
      for (uint64_t x = w[i]; x; x &= x - 1) f(i * 64 + std::countr_zero(x));
  }
};

template <int W>
struct BitsHash {
  size_t operator()(const Bits<W>& b) const {
    uint64_t h = 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < W; ++i) {
      h ^= b.w[i];
      h *= 0xbf58476d1ce4e5b9ull;
      h ^= h >> 31;
    }
    return h;
  }
};

}  // namespace qcert
