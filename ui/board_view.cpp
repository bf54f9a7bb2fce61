#include "ui/board_view.hpp"

#include <algorithm>
#include <stdexcept>

namespace qcert::ui {
namespace {

// The symbol of a square without a value: ASCII or Unicode (each one
// terminal column wide).
std::string symbol(const Square& s, bool unicode) {
  switch (s.mark) {
    case Mark::free: return unicode ? "\u00b7" : ".";
    case Mark::attacked: return unicode ? "\u00d7" : "x";
    case Mark::hole: return unicode ? "\u25a0" : "#";
    case Mark::piece: break;
  }
  if (!unicode) return std::string(1, s.piece);
  switch (s.piece) {  // black glyphs for the first player, white for the second
    case 'Q': return "\u265b";
    case 'R': return "\u265c";
    case 'B': return "\u265d";
    case 'K': return "\u265a";
    case 'N': return "\u265e";
    case 'q': return "\u2655";
    case 'r': return "\u2656";
    case 'b': return "\u2657";
    case 'k': return "\u2654";
    case 'n': return "\u2658";
    default: return std::string(1, s.piece);
  }
}

const char* pieceWord(char p) {
  switch (p) {
    case 'Q': case 'q': return "queen";
    case 'R': case 'r': return "rook";
    case 'B': case 'b': return "bishop";
    case 'K': case 'k': return "king";
    case 'N': case 'n': return "knight";
    default: return "piece";
  }
}

}  // namespace

std::string fileName(int column) { return std::string(1, char('a' + column)); }

std::string drawBoard(const Picture& p, const DrawOptions& o) {
  if (p.rows < 1 || p.cols < 1 || p.rows > 26 || p.cols > 26)
    throw std::invalid_argument("a board has 1 to 26 ranks and files");
  if (p.squares.size() != size_t(p.rows) * size_t(p.cols))
    throw std::invalid_argument("the picture has " + std::to_string(p.squares.size()) + " squares, the board " +
                                std::to_string(p.rows * p.cols));
  size_t width = 1;  // of a square's text, in terminal columns
  for (const Square& s : p.squares) {
    if (s.value.size() > 4 || std::any_of(s.value.begin(), s.value.end(), [](char ch) { return ch < 0x21 || ch > 0x7e; }))
      throw std::invalid_argument("a square's value must be 1 to 4 printable characters");
    width = std::max(width, s.value.size());
  }
  const int rankWidth = p.rows >= 10 ? 2 : 1;
  const std::string margin(size_t(rankWidth) + 2, ' ');
  std::string files = margin;
  for (int c = 0; c < p.cols; ++c) files += " " + std::string(width - 1, ' ') + fileName(c) + " ";
  while (!files.empty() && files.back() == ' ') files.pop_back();
  files += "\n";

  std::string out = files;
  for (int r = p.rows - 1; r >= 0; --r) {
    std::string rank = std::to_string(r + 1);
    std::string line = std::string(size_t(rankWidth) - rank.size() + 1, ' ') + rank + " ";
    for (int c = 0; c < p.cols; ++c) {
      const Square& s = p.squares[size_t(r) * size_t(p.cols) + size_t(c)];
      const std::string text = s.value.empty() ? symbol(s, o.unicode) : s.value;
      const size_t shown = s.value.empty() ? 1 : s.value.size();
      line += (s.highlight ? "[" : " ") + std::string(width - shown, ' ') + text + (s.highlight ? "]" : " ");
    }
    out += line + " " + rank + "\n";
  }
  out += files;
  if (p.torus) out += "(a torus: ranks, files and diagonals wrap around the edges)\n";
  if (o.legend) {
    std::vector<std::string> parts;
    std::string pieces;
    for (const Square& s : p.squares)
      if (s.mark == Mark::piece && pieces.find(s.piece) == std::string::npos) pieces += s.piece;
    for (char piece : pieces) parts.push_back(symbol(Square{Mark::piece, piece, "", false}, o.unicode) + " " + pieceWord(piece));
    auto plain = [](Mark m) {
      Square s;
      s.mark = m;
      return s;
    };
    auto used = [&](Mark m) {
      return std::any_of(p.squares.begin(), p.squares.end(), [&](const Square& s) { return s.mark == m && s.value.empty(); });
    };
    if (used(Mark::free)) parts.push_back(symbol(plain(Mark::free), o.unicode) + " free");
    if (used(Mark::attacked)) parts.push_back(symbol(plain(Mark::attacked), o.unicode) + " attacked");
    if (used(Mark::hole)) parts.push_back(symbol(plain(Mark::hole), o.unicode) + " hole");
    if (std::any_of(p.squares.begin(), p.squares.end(), [](const Square& s) { return s.highlight; }))
      parts.push_back("[ ] " + o.highlightMeaning);
    std::string legend;
    for (size_t i = 0; i < parts.size(); ++i) legend += (i ? ", " : "") + parts[i];
    if (!legend.empty()) out += legend + "\n";
  }
  return out;
}

}  // namespace qcert::ui
