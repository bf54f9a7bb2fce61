// The game and position a command works on, from the command line (--n,
// --board, --piece, --holes, --queens, --heap) or from a certificate
// (--cert, verified by the checker library first), and their words.
#pragma once
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "prover/geometry.hpp"
#include "ui/certified.hpp"
#include "ui/command_line.hpp"

namespace qcert::ui {

// The game and the position of the command line, or of the certificate.
struct Setup {
  Geometry geo;
  std::vector<int> pieces;
  uint32_t heap = 0;
  std::unique_ptr<Certified> cert;
  std::vector<int> certPieces;  // the certificate's own position (a prefix of pieces)
  // A Grundy certificate "G(P) = g" is about P with a heap of g; explain and
  // play show P itself (no heap), so its replies, all with heap g, are not
  // looked up there.
  std::optional<bool> certRootWins;  // the player to move at certPieces (no heap) wins
  double seconds = 10;
  bool unicode = false;
};

// --n, --board, --piece, --holes: the game. defaultN = 0: --n is required.
Variant variantOf(const Values& v, int defaultN);
// The setup of the command line; with --cert, writes the verified line on `out`.
Setup setupOf(const Values& v, int defaultN, std::ostream& out);
// "d4, a2".
std::string listSquares(const Geometry& geo, const std::vector<int>& squares);
// "the queens game on the 8x8 board, after queens d4, a2, with a Nim heap of 1".
std::string positionWords(const Setup& s);
// "1.25 s".
std::string seconds(double t);

}  // namespace qcert::ui
