// Drawing a position as a board in the terminal, for every game qcert plays:
// ranks and files labelled like chess (a1 bottom-left, file letter = column,
// rank = row + 1), the pieces, the squares still free, the squares attacked,
// holes, and optionally a short value on each square (e.g. the Grundy value
// of the move there). Plain ASCII by default, Unicode glyphs on request.
// It knows nothing about the rules: callers say what each square shows, so
// later games (the partizan game's two colours, the mod-2 game) reuse it.
#pragma once
#include <string>
#include <vector>

namespace qcert::ui {

enum class Mark {
  free,      // empty and unattacked: a move may go here
  attacked,  // empty but attacked (or otherwise not playable)
  hole,      // not part of the board
  piece,     // a piece stands here
};

struct Square {
  Mark mark = Mark::free;
  // Pieces: Q R B K N (upper case: the first or only kind of player; lower
  // case: the other player's pieces in a partizan game).
  char piece = 'Q';
  // Shown instead of the mark's symbol when not empty: a value, a move
  // letter. Printable ASCII, at most 4 characters.
  std::string value;
  bool highlight = false;  // bracketed: the last move, a suggested move
};

struct Picture {
  int rows = 0, cols = 0;  // 1..26 each
  bool torus = false;      // adds a note: lines wrap around
  std::vector<Square> squares;  // rows * cols, square r * cols + c
};

struct DrawOptions {
  bool unicode = false;
  bool legend = true;  // a line naming the symbols used
  std::string highlightMeaning = "last move";  // the legend's words for [ ]
};

// The board as lines ending in '\n'. Throws std::invalid_argument for a
// picture that is not well formed (size, square count, value text).
std::string drawBoard(const Picture& picture, const DrawOptions& options);

// "a" for column 0, ... (files), as in square names.
std::string fileName(int column);

}  // namespace qcert::ui
