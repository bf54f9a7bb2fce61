// Board primitives every prover family shares (the queens game and its
// variants, the counters, the mod-2 and the partizan games): the pieces and
// their names, the names of squares, and the eight symmetries of the square.
// Nothing here knows a game's rules; prover/geometry.hpp builds those on top.
#pragma once
#include <optional>
#include <string>
#include <utility>

namespace qcert {

enum class Piece { queen, rook, bishop, king, knight };

const char* pieceName(Piece p, bool plural = false);  // "queen" / "queens"
// A piece by its name, singular or plural ("queen", "queens").
std::optional<Piece> parsePiece(const std::string& text);

// ---- squares ------------------------------------------------------------------
// Square s = r*cols + c, row r and column c 0-based. Its name is the file
// letter (the column: a..z, then aa..af on boards past 26 columns) and the
// rank (row + 1): a1 = (0,0), b1 = (0,1), a2 = (1,0).
std::string squareName(int cols, int s);
// The square a name denotes on a rows x cols board (the file letter in
// either case), or nothing: "a0", "a01", an unknown file, a rank past rows.
std::optional<int> parseSquare(int rows, int cols, const std::string& text);

// ---- the eight symmetries of the square (D4) -----------------------------------
constexpr int kSymmetries = 8;

// (r, c) under symmetry g about the board's centre, numbered as in
// docs/certificate-format.md: 0 the identity, 1 (c, m-r), 2 the half turn
// (m-r, m-c), 3 (m-c, r), 4 the mirror in the files (r, m-c), 5 the mirror in
// the ranks (m-r, c), 6 the diagonal (c, r), 7 the antidiagonal (m-c, m-r),
// m = n-1. On a rows x cols rectangle 0, 2, 4 and 5 are its maps too; the
// transposing 1, 3, 6 and 7 are maps of square boards only.
constexpr std::pair<int, int> d4Image(int g, int rows, int cols, int r, int c) {
  const int mr = rows - 1 - r, mc = cols - 1 - c;
  switch (g) {
    case 0: return {r, c};
    case 1: return {c, mr};
    case 2: return {mr, mc};
    case 3: return {mc, r};
    case 4: return {r, mc};
    case 5: return {mr, c};
    case 6: return {c, r};
    default: return {mc, mr};
  }
}
// The same on the n x n board.
constexpr std::pair<int, int> d4Image(int g, int n, int r, int c) { return d4Image(g, n, n, r, c); }
// Square s of the n x n board under symmetry g.
constexpr int d4Square(int g, int n, int s) {
  const auto [r, c] = d4Image(g, n, s / n, s % n);
  return r * n + c;
}

}  // namespace qcert
