#include "prover/board.hpp"

#include <cctype>

namespace qcert {

const char* pieceName(Piece p, bool plural) {
  switch (p) {
    case Piece::queen: return plural ? "queens" : "queen";
    case Piece::rook: return plural ? "rooks" : "rook";
    case Piece::bishop: return plural ? "bishops" : "bishop";
    case Piece::king: return plural ? "kings" : "king";
    default: return plural ? "knights" : "knight";
  }
}

std::optional<Piece> parsePiece(const std::string& text) {
  for (Piece p : {Piece::queen, Piece::rook, Piece::bishop, Piece::king, Piece::knight})
    if (text == pieceName(p, false) || text == pieceName(p, true)) return p;
  return std::nullopt;
}

std::string squareName(int cols, int s) {
  const int c = s % cols, r = s / cols;
  std::string file = c < 26 ? std::string(1, char('a' + c)) : std::string("a") + char('a' + c - 26);
  return file + std::to_string(r + 1);
}

std::optional<int> parseSquare(int rows, int cols, const std::string& text) {
  size_t i = 0;  // the file's letters
  while (i < text.size() && std::isalpha(static_cast<unsigned char>(text[i]))) ++i;
  if (i == 0 || i > 2 || i == text.size() || text.size() - i > 2) return std::nullopt;
  int c = 0;
  if (i == 1) c = std::tolower(static_cast<unsigned char>(text[0])) - 'a';
  else {
    if (std::tolower(static_cast<unsigned char>(text[0])) != 'a') return std::nullopt;
    c = 26 + std::tolower(static_cast<unsigned char>(text[1])) - 'a';
  }
  if (c < 0 || c >= cols) return std::nullopt;
  if (text[i] == '0') return std::nullopt;
  int rank = 0;
  for (size_t k = i; k < text.size(); ++k) {
    if (!std::isdigit(static_cast<unsigned char>(text[k]))) return std::nullopt;
    rank = rank * 10 + (text[k] - '0');
  }
  if (rank < 1 || rank > rows) return std::nullopt;
  return (rank - 1) * cols + c;
}

}  // namespace qcert
