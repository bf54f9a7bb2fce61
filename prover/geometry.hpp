// The ruleset seam. A ruleset is reduced to what search and proof emission
// need: a numbered set of squares, which squares a move on each square kills
// (Node-Kayles: the square itself and every square it attacks), the
// symmetries of the board, and how squares are written. Adding the torus,
// rectangles, blocked squares or other pieces means building another
// Geometry; the search core does not change.
#pragma once
#include <array>
#include <optional>
#include <string>
#include <vector>

namespace qcert {

constexpr int kMaxBoard = 22;  // 484 squares fit the widest bitboard (512)
constexpr int kSymmetries = 8;

struct Geometry {
  std::string ruleset;  // "queens"
  int n = 0;            // board side; squares are r*n + c
  int squares = 0;
  std::vector<std::vector<int>> kills;  // kills[s] contains s itself
  // sym[g][s]: image of square s under symmetry g; sym[0] is the identity.
  // A board with fewer symmetries repeats the identity in the unused slots.
  std::vector<std::array<int, kSymmetries>> symOf;  // symOf[s][g]
  int image(int g, int s) const { return symOf[s][g]; }
  int mirror180(int s) const;  // half-turn image, used by the default reply

  std::string squareName(int s) const;   // "d4"
  std::string squarePaper(int s) const;  // "(3,3)", 0-based (row, column)
  std::optional<int> parseSquare(const std::string& text) const;
};

// Queens on the n x n board, 1 <= n <= kMaxBoard.
Geometry queensGeometry(int n);

// The 8 symmetries of the square: index g maps (r, c) as documented in
// docs/certificate-format.md.
std::pair<int, int> d4Image(int g, int n, int r, int c);

}  // namespace qcert
