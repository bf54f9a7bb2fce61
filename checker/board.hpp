// Board geometry for the trusted checker: square sets as fixed-size bitsets,
// the attack masks of each piece on each board (docs/variants.md) and the
// board's symmetry group, derived here and checked map by map.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace qcert::checker {

// Any doubt about a certificate: the message becomes "REJECTED: <what>".
struct Rejection : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// "c3 (2,2)": file letter = column, rank = row + 1, then the 0-based (r,c).
// n: the number of columns.
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

// The game's board and piece as the claim states them (docs/variants.md).
// Pieces are numbered as schema Piece: 0 queen, 1 rook, 2 bishop, 3 king,
// 4 knight.  Squares are r*cols + c.
struct Board {
  unsigned rows = 0, cols = 0;
  bool torus = false;
  unsigned piece = 0;
  std::vector<unsigned> holes;  // strictly increasing
  bool operator==(const Board&) const = default;
  bool plainQueens() const { return piece == 0 && !torus && rows == cols && holes.empty(); }
};
inline Board squareBoard(unsigned n) { return Board{n, n, false, 0, {}}; }

// Does a piece on (r1,c1) attack (r2,c2)?  From the rules, square by square.
// On the torus differences count modulo n, so lines and steps wrap around.
inline bool attacks(const Board& b, int r1, int c1, int r2, int c2) {
  int dr = r2 - r1, dc = c2 - c1;
  const int n = int(b.cols);
  auto zero = [&](int d) { return b.torus ? ((d % n) + n) % n == 0 : d == 0; };
  auto is = [&](int d, int k) { return zero(d - k) || zero(d + k); };  // d = +-k
  const bool straight = dr == 0 || dc == 0;  // rows and columns wrap onto themselves
  const bool diagonal = zero(dr - dc) || zero(dr + dc);
  switch (b.piece) {
    case 0: return straight || diagonal;
    case 1: return straight;
    case 2: return diagonal;
    case 3: return (zero(dr) || is(dr, 1)) && (zero(dc) || is(dc, 1));
    default: return (is(dr, 1) && is(dc, 2)) || (is(dr, 2) && is(dc, 1));
  }
}

template <int W>
struct Geometry {
  unsigned n = 0, rows = 0, squares = 0;          // n: columns
  Board board;
  Bits<W> onBoard;                                // every square but the holes
  std::vector<Bits<W>> attack;                    // attack[s]: s and every square a piece on s attacks
  // The symmetry group: every candidate map (the square's 8 maps about its
  // centre, a rectangle's 4, on the torus each followed by each of the n*n
  // shifts) that maps holes to holes and attacks onto attacks, each once.
  // sym[0] is the identity; sym[g][s] is the image of square s.
  std::vector<std::vector<uint16_t>> sym;

  explicit Geometry(unsigned boardSize) : Geometry(squareBoard(boardSize)) {}
  explicit Geometry(const Board& b) : n(b.cols), rows(b.rows), squares(b.rows * b.cols), board(b) {
    static_assert(W >= 1);
    if (n < 1 || rows < 1 || squares > unsigned(W) * 64) throw std::logic_error("board too large for W");
    attack.resize(squares);
    for (unsigned s = 0; s < squares; ++s) {
      onBoard.set(s);
      for (unsigned t = 0; t < squares; ++t)
        if (s == t || attacks(b, int(s / n), int(s % n), int(t / n), int(t % n))) attack[s].set(t);
    }
    for (unsigned h : b.holes) onBoard.reset(h);
    const int R = int(rows) - 1, C = int(n) - 1;
    for (int k = 0; k < 8; ++k) {
      if (rows != n && k != 0 && k != 2 && k != 4 && k != 5) continue;  // transposes need a square
      for (unsigned shift = 0; shift < (b.torus ? squares : 1); ++shift) {
        std::vector<uint16_t> map(squares);
        for (int r = 0; r < int(rows); ++r)
          for (int c = 0; c < int(n); ++c) {
            const int images[8][2] = {{r, c},     {c, R - r}, {R - r, C - c}, {C - c, r},
                                      {r, C - c}, {R - r, c}, {c, r},         {C - c, R - r}};
            const int r2 = (images[k][0] + int(shift / n)) % int(rows), c2 = (images[k][1] + int(shift % n)) % int(n);
            map[r * n + c] = uint16_t(r2 * int(n) + c2);
          }
        if (isAutomorphism(map) && std::find(sym.begin(), sym.end(), map) == sym.end()) sym.push_back(map);
      }
    }
    if (sym.empty() || sym[0][squares - 1] != squares - 1) throw std::logic_error("the identity must come first");
  }

  // Holes to holes, and for every square s on the board, the image of its
  // attacked squares on the board is exactly the attacked set of g(s).
  bool isAutomorphism(const std::vector<uint16_t>& g) const {
    for (unsigned s = 0; s < squares; ++s)
      if (onBoard.test(s) != onBoard.test(g[s])) return false;
    for (unsigned s = 0; s < squares; ++s) {
      if (!onBoard.test(s)) continue;
      Bits<W> img;
      attack[s].forEach([&](unsigned t) { if (onBoard.test(t)) img.set(g[t]); });
      Bits<W> want = attack[g[s]];
      for (unsigned h : board.holes) want.reset(h);
      if (!(img == want)) return false;
    }
    return true;
  }

  Bits<W> image(size_t g, const Bits<W>& L) const {
    Bits<W> out;
    L.forEach([&](unsigned s) { out.set(sym[g][s]); });
    return out;
  }
  // All images at once (out[g] = g(L), out[0] = L): one pass over the squares.
  void images(const Bits<W>& L, Bits<W>* out) const {
    for (size_t g = 0; g < sym.size(); ++g) out[g] = Bits<W>();
    L.forEach([&](unsigned s) {
      for (size_t g = 0; g < sym.size(); ++g) out[g].set(sym[g][s]);
    });
  }
};

}  // namespace qcert::checker
