// The ruleset seam. A ruleset is reduced to what search and proof emission
// need: a numbered set of squares, which squares a move on each square kills
// (Node-Kayles: the square itself and every square it attacks), the
// symmetries of the board, and how squares are written. The variants of
// Noon 2002 section 7.2 (docs/variants.md: other pieces, the torus,
// rectangles, holes) are other Geometries; the search core does not change.
#pragma once
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "prover/board.hpp"

namespace qcert {

constexpr int kMaxBoard = 22;  // 484 squares fit the widest bitboard (512)

// Maps of a board onto itself a default reply may name (schema DefaultReply).
enum class Mirror { none, halfTurn, files, ranks, diagonal, antiDiagonal };

// Which game: the piece and the board. The defaults are the queens game on a
// square board; squares are r*cols + c.
struct Variant {
  Piece piece = Piece::queen;
  bool torus = false;        // square boards only
  int rows = 0, cols = 0;    // rows == cols: a square board
  std::vector<int> holes;    // increasing; never live; lines pass over them
  bool plainQueens() const { return piece == Piece::queen && !torus && rows == cols && holes.empty(); }
  bool isSquare() const { return rows == cols; }
};

Variant squareVariant(int n);
const char* mirrorName(Mirror m);  // "half-turn", "files", ...
std::optional<Mirror> parseMirror(const std::string& text);
// "the 8x8 board", "the 8x8 torus", "the 5x7 board (5 rows, 7 columns)",
// "the 5x5 board with a hole at b1"; pieces are not named here.
std::string boardWords(const Variant& v);

struct Geometry {
  std::string ruleset;  // "queens"
  Variant variant;
  int n = 0;            // columns: squares are r*n + c
  int rows = 0;
  int squares = 0;      // rows * n, holes included
  std::vector<char> isHole;
  std::vector<std::vector<int>> kills;  // kills[s] contains s itself
  // The board's symmetry group, computed (not assumed): every candidate map
  // that maps holes to holes and preserves the attack relation. Candidates:
  // the 8 maps of the square about its centre (4 on a rectangle), and on the
  // torus each of them followed by each of the n*n shifts. group[0] is the
  // identity; group[g][s] is the image of square s.
  std::vector<std::vector<int>> group;
  // True when every element of `group` is one of the 8 slots below, so the
  // slots' hashes give exactly the group's classes; false on most tori (the
  // shifts), also on a torus with holes whose group is small.
  bool groupInSlots = true;
  // The hashing slots of the search: slot g is the square's symmetry g about
  // the centre (docs/certificate-format.md) when it is in the group, else the
  // identity; so the slots always form a subgroup.
  std::vector<std::array<int, kSymmetries>> symOf;  // symOf[s][g]
  int image(int g, int s) const { return symOf[s][g]; }
  int mirror180(int s) const;  // half-turn image, used by the default reply
  int mirrorImage(Mirror m, int s) const;  // -1 for none or a map the board lacks

  std::string squareName(int s) const;   // "d4"
  std::string squarePaper(int s) const;  // "(3,3)", 0-based (row, column)
  std::optional<int> parseSquare(const std::string& text) const;
};

// A comma-separated list of square names ("e5,a1"); throws
// std::invalid_argument naming the first item that is not a square of the
// board, or an empty item ("a1,,b2", a trailing comma).
std::vector<int> parseSquareList(const Variant& v, const std::string& list);
std::vector<int> parseSquareList(const Geometry& geo, const std::string& list);

// Queens on the n x n board, 1 <= n <= kMaxBoard.
Geometry queensGeometry(int n);
// Any variant; throws std::invalid_argument naming what is wrong.
Geometry variantGeometry(const Variant& v);

}  // namespace qcert
