// qcert play: a game against the computer in the terminal.
#include "ui/commands.hpp"

#include <istream>
#include <memory>
#include <ostream>

#include "prover/output_file.hpp"
#include "ui/analysis.hpp"
#include "ui/board_view.hpp"
#include "ui/play_record.hpp"
#include "ui/setup.hpp"
#include "ui/text_file.hpp"

namespace qcert::ui {
namespace {

struct Played {
  int move;
  bool byPerson;
};

class Game {
 public:
  Game(Setup& s, std::istream& in, std::ostream& out, std::string recordPath)
      : s_(s), in_(in), out_(out), solver_(OnTheSpot::make(s.geo, 64)), recordPath_(std::move(recordPath)) {}

  // `resumed`: the moves of a record (--from), checked here before anything
  // is proved; `recordSide`: its side, used when --side is not given.
  int run(const Values& v, const std::vector<PlayRecord::Move>& resumed = {}, const std::string& recordSide = "") {
    std::vector<int> replayed;
    for (const PlayRecord::Move& m : resumed) {
      const auto sq = s_.geo.parseSquare(m.square);
      const std::string where = "--from " + v.at("from") + ", line " + std::to_string(m.line) + ": ";
      if (!sq) throw UsageError(where + "'" + m.square + "' is not a square of " + boardWords(s_.geo.variant));
      std::vector<int> p = s_.pieces;
      p.insert(p.end(), replayed.begin(), replayed.end());
      p.push_back(*sq);
      try {
        liveAfter(s_.geo, p);
      } catch (const std::invalid_argument& e) {
        throw UsageError(where + "the move " + s_.geo.squareName(*sq) + " cannot be played there: " + e.what());
      }
      replayed.push_back(*sq);
    }
    const Live start = liveAfter(s_.geo, s_.pieces);
    // Who wins the starting position, and from where we know it.
    std::string how;
    std::optional<bool> firstWins;
    if (s_.cert && s_.cert->reply(start, 0)) firstWins = true, how = "from the verified certificate";
    else if (s_.cert && s_.cert->provedLost(start, 0)) firstWins = false, how = "from the verified certificate";
    else if (s_.cert && s_.pieces == s_.certPieces && s_.certRootWins) firstWins = *s_.certRootWins, how = "from the verified certificate";
    else {
      solver_->setDeadline(Clock::now() + budget());
      firstWins = solver_->wins(start, 0);
      how = "proved on the spot";
    }
    if (!firstWins) {
      throw UsageError("cannot tell who wins " + gameWords(s_.geo.variant) + " within --time-limit " +
                       std::to_string(int(s_.seconds)) + " s: too big to prove on the spot; give a certificate (--cert FILE) or a smaller board");
    }
    const std::string who = s_.pieces.empty() ? (*firstWins ? "The first player wins" : "The second player wins")
                                              : (*firstWins ? "The player to move wins" : "The player to move loses");
    out_ << "The game: " << positionWords(s_) << ".\nPlayers take turns placing a " << pieceName(s_.geo.variant.piece, false)
         << " on a free square (one no piece attacks); who cannot move loses.\n";
    out_ << who << " (" << how << ").\n";
    // The side.
    std::string side = v.count("side") ? v.at("side") : recordSide;  // runPlay has refused any other value
    while (side != "first" && side != "second") {
      out_ << "Do you want to move first or second? [first/second]: " << std::flush;
      std::string line;
      if (!readLine(line)) return 0;
      side = lower(trim(line));
      if (side == "1") side = "first";
      if (side == "2") side = "second";
      if (side == "quit") return 0;
      if (side != "first" && side != "second") out_ << "Please type first or second.\n";
    }
    personFirst_ = side == "first";
    const bool personWins = personFirst_ == *firstWins;
    out_ << "You move " << side << ". "
         << (personWins ? "You hold the winning side: I will make the game last as long as I can.\n"
                        : std::string("I hold the winning side: ") + (s_.cert ? "my replies come from the verified certificate,\n"
                                                                                "and from my exact search where it has none.\n"
                                                                    : "my moves are proved on the spot by my exact search.\n"));
    for (size_t i = 0; i < replayed.size(); ++i) history_.push_back({replayed[i], (i % 2 == 0) == personFirst_});
    if (!replayed.empty())
      out_ << "Resumed from " << v.at("from") << " after " << plural(long(replayed.size()), "move", "moves") << ": "
           << listMoves() << ".\n";
    saveRecord();
    if (!recordPath_.empty()) out_ << "Every move is recorded in " << recordPath_ << " (qcert play --from " << recordPath_ << " resumes the game).\n";
    const int status = loop();
    if (!history_.empty()) {
      out_ << "The moves of the game, one a line:\n";
      for (size_t i = 0; i < history_.size(); ++i)
        out_ << "  " << (i + 1) << ". " << s_.geo.squareName(history_[i].move) << (history_[i].byPerson ? " (you)" : " (me)") << "\n";
    }
    return status;
  }

 private:
  // A line typed at a prompt; false at the end of input (or a line too long
  // to be one typed), which is said on a line of its own, so that the
  // shell's prompt starts on its own.
  bool readLine(std::string& line) {
    const InputLine got = readInputLine(in_, line);
    if (got == InputLine::line) return true;
    out_ << (got == InputLine::end ? "\nEnd of input: the game stops here.\n"
                                   : "\nA line of input longer than 4096 characters: the game stops here.\n");
    return false;
  }
  static std::string lower(std::string t) {
    for (char& c : t)
      if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
    return t;
  }
  std::string listMoves() const {
    std::string s;
    for (const Played& m : history_) s += (s.empty() ? "" : ", ") + s_.geo.squareName(m.move);
    return s;
  }
  // The record file (--record), rewritten whole after every move and undo.
  void saveRecord() const {
    if (recordPath_.empty()) return;
    PlayRecord r;
    r.game = gameOptions(s_.geo.variant, s_.pieces);
    r.side = personFirst_ ? "first" : "second";
    for (const Played& m : history_) r.moves.push_back({s_.geo.squareName(m.move), 0});
    writeFileReplacing(recordPath_, formatPlayRecord(r, positionWords(s_)));
  }
  void played(int move, bool byPerson, const std::string& why = "") {
    history_.push_back({move, byPerson});
    out_ << "Move " << history_.size() << ": " << (byPerson ? "you play " : "I play ") << s_.geo.squareName(move)
         << (why.empty() ? "" : " (" + why + ")") << ".\n";
    saveRecord();
  }
  std::chrono::milliseconds budget() const { return std::chrono::milliseconds(long(s_.seconds * 1000)); }
  static std::string trim(const std::string& t) {
    const size_t a = t.find_first_not_of(" \t\r"), b = t.find_last_not_of(" \t\r");
    return a == std::string::npos ? "" : t.substr(a, b - a + 1);
  }
  std::vector<int> pieces() const {
    std::vector<int> p = s_.pieces;
    for (const Played& m : history_) p.push_back(m.move);
    return p;
  }
  bool personToMove() const { return (history_.size() % 2 == 0) == personFirst_; }

  void show() {
    const std::vector<int> p = pieces();
    Picture pic = pictureOf(s_.geo, p);
    if (!history_.empty()) pic.squares[size_t(history_.back().move)].highlight = true;
    out_ << "\n" << drawBoard(pic, DrawOptions{s_.unicode, true, "last move"});
    const std::vector<int> free = liveSquares(liveAfter(s_.geo, p));
    if (free.size() <= 48) out_ << "Free squares (" << free.size() << "): " << (free.empty() ? "none" : listSquares(s_.geo, free)) << "\n";
    else out_ << plural(long(free.size()), "free square", "free squares") << "\n";
  }

  // The best move for the player to move, and why.
  struct Choice {
    int move = kNoMove;
    bool wins = false, known = true;
    std::string why;
  };
  Choice choose(const Live& live) {
    Choice c;
    if (s_.cert) {
      if (auto r = s_.cert->reply(live, 0)) {
        c.move = *r, c.wins = true, c.why = "the certificate's reply, verified by the checker";
        return c;
      }
    }
    const bool lostByCert = s_.cert && s_.cert->provedLost(live, 0);
    std::optional<int> m;
    if (!lostByCert) {
      solver_->setDeadline(Clock::now() + budget());
      m = solver_->winningMove(live, 0);
    }
    if (m && *m != kNoMove) {
      c.move = *m, c.wins = true, c.why = "a winning move proved on the spot";
      return c;
    }
    const auto [move, left] = solver_->longestMove(live);
    c.move = move;
    c.known = lostByCert || m.has_value();
    if (!c.known)
      c.why = "not proved: out of time; it leaves the most free squares";
    else if (left >= 0)
      c.why = std::string("every move loses against best play") + (lostByCert ? " (the certificate proves it)" : "") +
              "; this one lasts longest, " + plural(left, "more move", "more moves") + " after it";
    else
      c.why = std::string("every move loses against best play") + (lostByCert ? " (the certificate proves it)" : "") +
              "; this one leaves the most free squares";
    return c;
  }

  int loop() {
    for (;;) {
      const std::vector<int> p = pieces();
      const Live live = liveAfter(s_.geo, p);
      if (personToMove() || liveCount(live) == 0) show();  // the computer's move is drawn after it
      if (liveCount(live) == 0) {
        const long moves = long(history_.size());
        if (personToMove())
          out_ << "No free square is left: you cannot move, so you lose (" << plural(moves, "move", "moves") << " played). Type undo or quit.\n";
        else
          out_ << "No free square is left: I cannot move, so you win (" << plural(moves, "move", "moves") << " played)! Type undo or quit.\n";
        if (!command(/*over=*/true)) return 0;
        continue;
      }
      if (!personToMove()) {
        const Choice c = choose(live);
        played(c.move, false, c.why);
        continue;
      }
      if (!command(false)) return 0;
    }
  }

  // Reads commands until one changes the position; false: quit.
  bool command(bool over) {
    for (;;) {
      out_ << (over ? "> " : "Your move (a square such as " + exampleSquare() + "; or undo, hint, quit): ") << std::flush;
      std::string line;
      if (!readLine(line)) return false;
      const std::string t = lower(trim(line));  // squares are read in any case too
      if (t == "quit" || t == "q" || t == "exit") {
        out_ << "Bye.\n";
        return false;
      }
      if (t == "undo") {
        if (!undo()) {
          out_ << "Nothing to undo.\n";
          continue;
        }
        saveRecord();
        return true;
      }
      if (over) {
        out_ << "The game is over: type undo or quit.\n";
        continue;
      }
      const Live live = liveAfter(s_.geo, pieces());
      if (t == "hint") {
        const Choice c = choose(live);
        out_ << "Hint: " << s_.geo.squareName(c.move) << " (" << c.why << ").\n";
        continue;
      }
      if (t.empty()) continue;
      const auto sq = s_.geo.parseSquare(t);
      if (!sq) {
        out_ << "'" << t << "' is not a move: type a square of " << boardWords(s_.geo.variant) << " (a1.."
             << s_.geo.squareName(s_.geo.squares - 1) << "), or undo, hint, quit.\n";
        continue;
      }
      if (!live[size_t(*sq)]) {
        std::vector<int> p = pieces();
        p.push_back(*sq);
        try {
          liveAfter(s_.geo, p);
        } catch (const std::invalid_argument& e) {
          out_ << "You cannot play there: " << e.what() << ".\n";
        }
        continue;
      }
      played(*sq, true);
      return true;
    }
  }

  bool undo() {
    size_t k = history_.size();
    while (k > 0 && !history_[k - 1].byPerson) --k;
    if (k == 0) return false;
    history_.resize(k - 1);
    return true;
  }

  std::string exampleSquare() const {
    const std::vector<int> free = liveSquares(liveAfter(s_.geo, pieces()));
    return free.empty() ? "a1" : s_.geo.squareName(free[free.size() / 2]);
  }

  Setup& s_;
  std::istream& in_;
  std::ostream& out_;
  std::unique_ptr<OnTheSpot> solver_;
  std::vector<Played> history_;
  bool personFirst_ = true;
  std::string recordPath_;  // --record FILE; empty: none
};

}  // namespace

int runPlay(const Values& v, std::istream& in, std::ostream& out) {
  // Before anything is asked, verified or proved.
  if (v.count("side") && v.at("side") != "first" && v.at("side") != "second")
    throw UsageError("--side must be first or second, got '" + v.at("side") + "'");
  if (v.count("record")) checkOutputFile("--record", v.at("record"));  // a FIFO, device, folder or "" refused now
  Values options = v;
  bool gameGiven = false;
  for (const char* o : {"cert", "n", "board", "piece", "holes", "queens"}) gameGiven |= v.count(o) > 0;
  PlayRecord record;
  if (v.count("from")) {
    record = readPlayRecord(v.at("from"));
    if (!gameGiven) {
      for (const auto& [name, value] : gameValues(record.game)) options[name] = value;
    }
  }
  if (!options.count("cert") && !options.count("n") && !options.count("board")) {
    for (;;) {
      out << "Board size? (N for the N x N board, 1.." << kMaxBoard << "; e.g. 6): " << std::flush;
      std::string line;
      const InputLine got = readInputLine(in, line);
      if (got != InputLine::line) {
        out << (got == InputLine::end ? "\nEnd of input: the game stops here.\n"
                                      : "\nA line of input longer than 4096 characters: the game stops here.\n");
        return 0;
      }
      try {
        wholeNumber("n", line, 1, kMaxBoard);
        options["n"] = line;
        break;
      } catch (const UsageError&) {
        out << "Please type a whole number from 1 to " << kMaxBoard << ".\n";
      }
    }
  }
  Setup s = setupOf(options, 0, out);
  if (s.heap) throw UsageError("play has no Nim heap: the certificate's claim has a heap of " + std::to_string(s.heap) + " (qcert explain shows it)");
  if (v.count("from") && gameOptions(s.geo.variant, s.pieces) != record.game)
    throw UsageError("--from " + v.at("from") + " records the game " + record.game + ", not this one (" +
                     gameOptions(s.geo.variant, s.pieces) + "): give the record's options, or none");
  Game game(s, in, out, v.count("record") ? v.at("record") : "");
  return game.run(options, record.moves, record.side);
}

}  // namespace qcert::ui
