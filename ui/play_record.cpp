#include "ui/play_record.hpp"

#include <sstream>
#include <stdexcept>

#include "prover/board.hpp"
#include "ui/text_file.hpp"

namespace qcert::ui {
namespace {

const char* const kGameOptions[] = {"n", "board", "piece", "holes", "queens"};

std::string squareList(const Variant& v, const std::vector<int>& squares) {
  std::string s;
  for (int q : squares) s += (s.empty() ? "" : ",") + squareName(v.cols, q);
  return s;
}

}  // namespace

std::string gameOptions(const Variant& v, const std::vector<int>& pieces) {
  std::string s = v.torus ? "--board torus --n " + std::to_string(v.rows)
                  : v.rows == v.cols ? "--n " + std::to_string(v.rows)
                                     : "--board " + std::to_string(v.rows) + "x" + std::to_string(v.cols);
  if (v.piece != Piece::queen) s += std::string(" --piece ") + pieceName(v.piece, false);
  if (!v.holes.empty()) s += " --holes " + squareList(v, v.holes);
  if (!pieces.empty()) s += " --queens " + squareList(v, pieces);
  return s;
}

Values gameValues(const std::string& options) {
  Values v;
  std::istringstream words(options);
  for (std::string name, value; words >> name;) {
    bool known = false;
    for (const char* o : kGameOptions) known |= name == std::string("--") + o;
    if (!known) throw UsageError("'" + name + "' is not an option of the game (--n, --board, --piece, --holes, --queens)");
    if (!(words >> value)) throw UsageError(name + " has no value");
    if (!v.emplace(name.substr(2), value).second) throw UsageError(name + " is given twice");
  }
  if (!v.count("n") && !v.count("board")) throw UsageError("no board (--n or --board)");
  return v;
}

PlayRecord readPlayRecord(const std::string& path) {
  std::string text;
  try {
    text = readTextFile(path, size_t(1) << 20, 4096);
  } catch (const std::invalid_argument& e) {
    throw UsageError("--from " + path + ": " + e.what());
  }
  PlayRecord r;
  std::istringstream lines(text);
  int number = 0;
  auto bad = [&](const std::string& why) { return UsageError("--from " + path + ", line " + std::to_string(number) + ": " + why); };
  for (std::string line; std::getline(lines, line);) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const size_t tab = line.find('\t');
    const std::string key = line.substr(0, tab), value = tab == std::string::npos ? "" : line.substr(tab + 1);
    if (number == 1) {
      if (key != "#qcert-play" || value != "1") {
        throw bad("not a record of qcert play (its first line is #qcert-play, a tab, 1; qcert play --record FILE writes one)");
      }
      continue;
    }
    if (key == "#game") {
      try {
        gameValues(value);
      } catch (const UsageError& e) {
        throw bad(std::string("#game: ") + e.what());
      }
      r.game = value;
    } else if (key == "#side") {
      if (value != "first" && value != "second") throw bad("#side must be first or second, got '" + value + "'");
      r.side = value;
    } else if (!line.empty() && line[0] == '#') {
      continue;  // a comment
    } else {
      const size_t a = line.find_first_not_of(" \t"), b = line.find_last_not_of(" \t");
      if (a == std::string::npos) continue;
      r.moves.push_back({line.substr(a, b - a + 1), number});
    }
  }
  if (number == 0) throw bad("the file is empty: not a record of qcert play");
  if (r.game.empty()) throw UsageError("--from " + path + ": no #game line (the options of the game)");
  if (r.side.empty()) throw UsageError("--from " + path + ": no #side line (first or second)");
  return r;
}

std::string formatPlayRecord(const PlayRecord& r, const std::string& gameInWords) {
  std::string s = "#qcert-play\t1\n#game\t" + r.game + "\n#side\t" + r.side + "\n# " + gameInWords +
                  "; the moves follow, one a line (qcert play --from FILE resumes the game)\n";
  for (const PlayRecord::Move& m : r.moves) s += m.square + "\n";
  return s;
}

}  // namespace qcert::ui
