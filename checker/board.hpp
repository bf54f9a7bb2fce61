// Board geometry for the trusted checker: square sets as fixed-size bitsets,
// queen attack masks and the 8 symmetries of the square board (group D4).
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace qcert {

// Any doubt about a certificate: the message becomes "REJECTED: <what>".
struct Rejection : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// "c3 (2,2)": file letter = column, rank = row + 1, then the 0-based (r,c).
inline std::string squareName(unsigned n, unsigned s) {
  unsigned r = s / n, c = s % n;
  return std::string(1, char('a' + c)) + std::to_string(r + 1) + " (" + std::to_string(r) + "," +
         std::to_string(c) + ")";
}

// A set of squares, bit s = square s.  W 64-bit words hold W*64 squares.
template <int W>
struct Bits {
  std::array<uint64_t, W> w{};

  bool test(unsigned s) const { return (w[s / 64] >> (s % 64)) & 1; }
  void set(unsigned s) { w[s / 64] |= uint64_t(1) << (s % 64); }
  void reset(unsigned s) { w[s / 64] &= ~(uint64_t(1) << (s % 64)); }
  unsigned count() const {
    unsigned k = 0;
    for (uint64_t x : w) k += std::popcount(x);
    return k;
  }
  Bits without(const Bits& o) const {  // this \ o
    Bits r;
    for (int i = 0; i < W; ++i) r.w[i] = w[i] & ~o.w[i];
    return r;
  }
  bool operator==(const Bits&) const = default;
  bool operator<(const Bits& o) const { return w < o.w; }  // any total order will do
  // Calls f(s) for every square s in the set, in increasing index order.
  template <class F>
  void forEach(F&& f) const {
    for (int i = 0; i < W; ++i)
      for (uint64_t x = w[i]; x; x &= x - 1) f(unsigned(i * 64 + std::countr_zero(x)));
  }
};

template <int W>
struct Geometry {
  unsigned n = 0, squares = 0;
  std::vector<Bits<W>> attack;                   // attack[s]: s and every square a queen on s attacks
  std::array<std::vector<uint16_t>, 8> sym;      // sym[g][s]: image of square s under symmetry g

  explicit Geometry(unsigned boardSize) : n(boardSize), squares(boardSize * boardSize) {
    static_assert(W >= 1);
    if (n < 1 || squares > unsigned(W) * 64) throw std::logic_error("board too large for W");
    const int m = int(n) - 1;
    attack.resize(squares);
    for (int r1 = 0; r1 < int(n); ++r1)
      for (int c1 = 0; c1 < int(n); ++c1)
        for (int r2 = 0; r2 < int(n); ++r2)
          for (int c2 = 0; c2 < int(n); ++c2)
            if (r1 == r2 || c1 == c2 || r1 + c1 == r2 + c2 || r1 - c1 == r2 - c2)
              attack[r1 * n + c1].set(r2 * n + c2);
    for (auto& perm : sym) perm.resize(squares);
    for (int r = 0; r < int(n); ++r)
      for (int c = 0; c < int(n); ++c) {
        const int images[8][2] = {{r, c},     {c, m - r}, {m - r, m - c}, {m - c, r},
                                  {r, m - c}, {m - r, c}, {c, r},         {m - c, m - r}};
        for (int g = 0; g < 8; ++g) sym[g][r * n + c] = uint16_t(images[g][0] * n + images[g][1]);
      }
  }

  unsigned mirror180(unsigned s) const { return sym[2][s]; }  // (r,c) -> (n-1-r, n-1-c)

  Bits<W> image(int g, const Bits<W>& L) const {
    Bits<W> out;
    L.forEach([&](unsigned s) { out.set(sym[g][s]); });
    return out;
  }
  // All eight images at once (out[0] = L): one pass over the squares, eight
  // independent writes per square instead of eight dependent passes.
  void images(const Bits<W>& L, Bits<W> (&out)[8]) const {
    for (auto& b : out) b = Bits<W>();
    L.forEach([&](unsigned s) {
      for (int g = 0; g < 8; ++g) out[g].set(sym[g][s]);
    });
  }
};

}  // namespace qcert
