// The record of a game of qcert play: what --record FILE writes after every
// move and --from FILE reads to resume. Text, one move a line:
//
//   #qcert-play<TAB>1
//   #game<TAB>--n 8 --piece king          (the options that give the game and
//                                          its starting position; --queens last)
//   #side<TAB>first                       (the side the person plays)
//   # any other line starting with '#' is a comment
//   d4                                    (the moves in order, square names,
//   e1                                     a1 bottom left, any case)
#pragma once
#include <string>
#include <vector>

#include "prover/geometry.hpp"
#include "ui/command_line.hpp"

namespace qcert::ui {

struct PlayRecord {
  std::string game;  // the #game options, "--n 8 --piece king"
  std::string side;  // first | second
  struct Move {
    std::string square;  // as written
    int line = 0;        // its line in the file
  };
  std::vector<Move> moves;
};

// The options that give this game and position: --n or --board, then
// --piece, --holes and --queens where they are not the defaults.
std::string gameOptions(const Variant& v, const std::vector<int>& pieces);
// The #game options as command-line values (n, board, piece, holes, queens);
// throws UsageError naming what is wrong.
Values gameValues(const std::string& options);

// Reads the record at path (a regular file: ui/text_file.hpp); throws
// UsageError, one line naming the file, the line and what is wrong.
PlayRecord readPlayRecord(const std::string& path);
std::string formatPlayRecord(const PlayRecord& record, const std::string& gameInWords);

}  // namespace qcert::ui
