#include "ui/cli.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <istream>
#include <map>
#include <memory>
#include <ostream>
#include <sstream>
#include <stdexcept>

#include "ui/analysis.hpp"
#include "ui/board_view.hpp"
#include "ui/certified.hpp"
#include "ui/describe.hpp"
#include "ui/progress_lines.hpp"
#include "ui/replies.hpp"
#include "ui/report.hpp"

namespace qcert::ui {
namespace {

// A bad command line: one line, exit status 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct OptionSpec {
  const char* name;
  const char* value;  // nullptr: a flag
  const char* help;
};

const OptionSpec kBoardOptions[] = {
    {"n", "N", "the N x N board, 1..22 (default 8 for board and explain; play asks)"},
    {"board", "KIND", "square (default), torus (with --n: ranks, files and diagonals wrap around) or MxN (M ranks, N files, e.g. 5x7)"},
    {"piece", "P", "the piece both players place: queen (default), rook, bishop, king, knight"},
    {"holes", "LIST", "squares that are not part of the board, e.g. b1,c3 (lines of attack pass over them)"},
    {"queens", "LIST", "pieces already placed, in order, e.g. d4,a2 (each on a free square); with --cert: moves after the certificate's position"},
};
const OptionSpec kHeap = {"heap", "H", "explain: add a Nim heap of H (0..255); a move either places a piece or lowers the heap"};
const OptionSpec kCert = {"cert", "FILE", "a certificate (prover prove or grundy --out FILE): verified in full by the checker library first; its replies are then used"};
const OptionSpec kTime = {"time-limit", "S", "seconds for proving on the spot (1..3600; default 10): explain in all, play per move; also the checker's limit for --cert"};
const OptionSpec kSide = {"side", "SIDE", "first or second: the side you play (play asks when not given)"};
const OptionSpec kUnicode = {"unicode", nullptr, "draw with Unicode chess glyphs instead of plain ASCII"};
const OptionSpec kHelp = {"help", nullptr, "show this help"};

struct Command {
  const char* name;
  const char* usage;
  const char* about;
  std::vector<OptionSpec> options;
  bool takesFile = false;  // one argument that is not an option: the certificate (describe, replies)
};

std::vector<OptionSpec> boardOptions() { return {std::begin(kBoardOptions), std::end(kBoardOptions)}; }
std::vector<OptionSpec> with(std::vector<OptionSpec> v, std::initializer_list<OptionSpec> more) {
  v.insert(v.end(), more);
  return v;
}

const std::vector<Command>& commands() {
  static const std::vector<Command> list = {
      {"board", "qcert board [--n N | --board KIND] [--piece P] [--holes LIST] [--queens LIST] [--unicode]",
       "Draws a position: ranks and files labelled (a1 bottom left), the pieces, the free squares\n"
       "(where a piece may still go) and the attacked ones.",
       with(boardOptions(), {kUnicode, kHelp})},
      {"explain", "qcert explain [--n N | --board KIND] [--piece P] [--holes LIST] [--queens LIST] [--heap H]\n"
                  "              [--cert FILE] [--time-limit S] [--unicode]",
       "Says who wins a position and what every move is worth, on the board: the value of\n"
       "each free square is the Grundy value of the position a piece there leaves (0: the\n"
       "move wins), as in Noon's Figure 6.0. Small positions are proved on the spot by the\n"
       "prover's exact search within --time-limit; with --cert the certificate is verified\n"
       "by the checker library first and its proved values are marked W and L. Each value\n"
       "says where it comes from.",
       with(boardOptions(), {kHeap, kCert, kTime, kUnicode, kHelp})},
      {"play", "qcert play [--n N | --board KIND] [--piece P] [--holes LIST] [--queens LIST] [--side SIDE]\n"
               "           [--cert FILE] [--time-limit S] [--unicode]",
       "A game against the computer in the terminal. You pick the board and a side; the\n"
       "computer plays the other side. When it holds the side proved winning it plays the\n"
       "certificate's replies (--cert, verified first) or moves its exact search proves on\n"
       "the spot, so it does not lose; when you hold the winning side it plays the move that\n"
       "makes the game last longest. Type a square (d4) to move, or undo, hint, quit.",
       with(boardOptions(), {kSide, kCert, kTime, kUnicode, kHelp})},
      {"report", "qcert report --results FILE [--html FILE [--replies FILE]] [--width N]",
       "Prints the results of make audit (tools/audit.sh writes out/audit/results.tsv) as a\n"
       "table, one section per source, with notes, a legend, totals and the refutations in\n"
       "full; with --html also writes one self-contained HTML page (boards as inline SVG).",
       {{"results", "FILE", "the audit's results file (out/audit/results.tsv)"},
        {"html", "FILE", "also write the HTML report to FILE"},
        {"replies", "FILE", "the n = 16 round-1 reply table (qcert replies certs/rudd-n16.qcert --tsv writes it, from the verified certificate), drawn on the board in the HTML report"},
        {"width", "N", "columns of the table (72..400; default 100)"},
        kHelp}},
      {"describe", "qcert describe FILE [--all-shards] [--time-limit S]",
       "Prints what a certificate file says about itself, without checking it: the claim (in\n"
       "the checker's words), the board and position, the cut-off, the default reply, the\n"
       "number and size of the stored replies, a manifest's shards with their claims and\n"
       "sizes, a count's cells, the format version. NOTHING it prints is verified: only the\n"
       "file's framing, seal and header are read, as the checker reads them before replaying\n"
       "(a file the checker would reject there is refused: exit 1). checker FILE verifies.",
       {{"all-shards", nullptr, "list every shard of a manifest (default: the first 40)"},
        {"time-limit", "S", "stop reading the file after S seconds (1..86400; default 10), exit 2"},
        kHelp},
       true},
      {"replies", "qcert replies FILE [--jobs N] [--time-limit S] [--unicode | --tsv]",
       "The winner's reply to every first move of the loser, up to symmetry, from a\n"
       "certificate of the placing game (prover prove or grundy --out FILE), as a table, on\n"
       "the board and, for square boards up to 16x16, as Jenrich's table T (Jenrich 2014, 5.1;\n"
       "for the empty 16x16 board it is his round-1 table). The certificate is verified in\n"
       "full by the checker library first (the same check as checker FILE); replies it leaves\n"
       "to the checker's own search (positions at or below its cut-off) are proved on the spot\n"
       "and marked so.",
       {{"jobs", "N", "shards of a manifest verified at a time (1..64; default 1)"},
        {"time-limit", "S", "stop the check after S seconds (1..86400; default none), exit 2; also the time for each reply proved on the spot (default 10)"},
        {"progress-every", "S", "while the certificate is verified (minutes for the large ones), a line on stderr every S seconds (1..3600; default 10), the first after 2 s"},
        kUnicode,
        {"tsv", nullptr, "print only the table, tab-separated, for programs (qcert report --replies reads it): a line per move of the loser with the move, the reply, 1 if the reply is the move's half-turn image (else 0) and where the reply comes from (certificate, on-the-spot); the format is in ui/replies.hpp"},
        kHelp},
       true},
  };
  return list;
}

std::string overview() {
  return "qcert: see and play the queens game and its variants.\n"
         "\n"
         "usage: qcert board   ...   draw a position\n"
         "       qcert explain ...   who wins, and the value of every move, drawn on the board\n"
         "       qcert play    ...   play against the computer (and its proofs)\n"
         "       qcert report  ...   the table and HTML report of make audit\n"
         "       qcert describe FILE  what a certificate file contains (NOT verified)\n"
         "       qcert replies FILE   the winner's reply to each first move, from a verified certificate\n"
         "       qcert COMMAND --help   the options of one command\n"
         "       qcert --version      version, commit and build type\n"
         "\n"
         "Squares are named as in chess: file letter = column, rank = row + 1, a1 bottom left.\n"
         "Exit status: 0 done; 1 the certificate given with --cert was rejected by the checker;\n"
         "2 nothing decided: bad arguments, an unreadable certificate, or not proved in time.\n";
}

std::string helpOf(const Command& c) {
  std::string s = "usage: " + std::string(c.usage) + "\n\n" + c.about + "\n\nOptions:\n";
  for (const OptionSpec& o : c.options) {
    std::string head = "  --" + std::string(o.name) + (o.value ? " " + std::string(o.value) : "");
    if (head.size() < 20) head.resize(20, ' ');
    else head += "\n" + std::string(20, ' ');
    // The help text wrapped at 79 columns, under its first line.
    std::istringstream words(o.help);
    size_t column = 20;
    bool first = true;
    for (std::string w; words >> w; first = false) {
      if (!first && column + 1 + w.size() > 79) head += "\n" + std::string(20, ' '), column = 20;
      else if (!first) head += " ", ++column;
      head += w, column += w.size();
    }
    s += head + "\n";
  }
  return s;
}

using Values = std::map<std::string, std::string>;

Values parseOptions(const Command& c, const std::vector<std::string>& args) {
  Values v;
  for (size_t i = 1; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (c.takesFile && a.rfind("--", 0) != 0 && !a.empty() && !v.count("file")) {
      v["file"] = a;
      continue;
    }
    if (a.rfind("--", 0) != 0 || a.size() == 2)
      throw UsageError("unexpected argument '" + a + "' (options start with --; see qcert " + c.name + " --help)");
    std::string name = a.substr(2), value;
    const size_t eq = name.find('=');
    const bool inlineValue = eq != std::string::npos;
    if (inlineValue) value = name.substr(eq + 1), name = name.substr(0, eq);
    const auto spec = std::find_if(c.options.begin(), c.options.end(), [&](const OptionSpec& o) { return name == o.name; });
    if (spec == c.options.end())
      throw UsageError("unknown option '--" + name + "' (qcert " + c.name + " --help lists its options)");
    if (v.count(name)) throw UsageError("--" + name + " is given twice");
    if (spec->value && !inlineValue) {
      if (i + 1 >= args.size()) throw UsageError("--" + name + " needs a value (" + spec->value + ")");
      value = args[++i];
    } else if (!spec->value && inlineValue) {
      throw UsageError("--" + name + " takes no value");
    }
    v[name] = value;
  }
  return v;
}

long wholeNumber(const std::string& option, const std::string& text, long min, long max) {
  long value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || value < min || value > max)
    throw UsageError("--" + option + " must be a whole number from " + std::to_string(min) + " to " + std::to_string(max) +
                     ", got '" + text + "'");
  return value;
}

// --n, --board, --piece, --holes: the game. n = 0: not given.
Variant variantOf(const Values& v, int defaultN) {
  Variant var;
  const std::string board = v.count("board") ? v.at("board") : "square";
  const bool haveN = v.count("n") > 0;
  const int n = haveN ? int(wholeNumber("n", v.at("n"), 1, kMaxBoard)) : defaultN;
  if (board == "square" || board == "torus") {
    if (n == 0) throw UsageError("no board given: use --n N (or --board MxN)");
    var.rows = var.cols = n;
    var.torus = board == "torus";
  } else {
    const size_t x = board.find('x');
    auto number = [](const std::string& t) {
      long k = 0;
      const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), k);
      return (t.empty() || ec != std::errc() || end != t.data() + t.size() || k < 1 || k > kMaxBoard) ? 0 : int(k);
    };
    const int rows = x == std::string::npos ? 0 : number(board.substr(0, x));
    const int cols = x == std::string::npos ? 0 : number(board.substr(x + 1));
    if (!rows || !cols)
      throw UsageError("--board must be square, torus or MxN (M ranks, N files, each 1.." + std::to_string(kMaxBoard) +
                       "), got '" + board + "'");
    if (haveN) throw UsageError("--n does not combine with --board MxN (the board gives the size)");
    var.rows = rows, var.cols = cols;
  }
  if (v.count("piece")) {
    const auto p = parsePiece(v.at("piece"));
    if (!p) throw UsageError("--piece must be queen, rook, bishop, king or knight, got '" + v.at("piece") + "'");
    var.piece = *p;
  }
  if (v.count("holes")) {
    const Geometry plain = variantGeometry(var);
    try {
      var.holes = parseSquareList(plain, v.at("holes"));
    } catch (const std::invalid_argument& e) {
      throw UsageError(std::string("--holes: ") + e.what());
    }
    std::sort(var.holes.begin(), var.holes.end());
    for (size_t i = 1; i < var.holes.size(); ++i)
      if (var.holes[i] == var.holes[i - 1]) throw UsageError("--holes names " + plain.squareName(var.holes[i]) + " twice");
    // Holes on every square are a game too, as the checker verifies it and
    // the prover proves it: the first player has no move and loses.
  }
  return var;
}

std::vector<int> squaresOption(const Geometry& geo, const Values& v, const std::string& name) {
  if (!v.count(name)) return {};
  try {
    return parseSquareList(geo, v.at(name));
  } catch (const std::invalid_argument& e) {
    throw UsageError("--" + name + ": " + e.what());
  }
}

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

Variant variantOfCertificate(const CertifiedClaim& c) {
  Variant v;
  v.rows = int(c.rows), v.cols = int(c.cols), v.torus = c.torus;
  v.piece = Piece(c.piece);
  for (unsigned h : c.holes) v.holes.push_back(int(h));
  return v;
}

const char* kBoardWithCert[] = {"n", "board", "piece", "holes", "heap"};

Setup setupOf(const Values& v, int defaultN, std::ostream& out) {
  Setup s;
  s.unicode = v.count("unicode") > 0;
  if (v.count("time-limit")) s.seconds = double(wholeNumber("time-limit", v.at("time-limit"), 1, 3600));
  if (v.count("cert")) {
    for (const char* o : kBoardWithCert)
      if (v.count(o)) throw UsageError(std::string("--") + o + " does not combine with --cert (the certificate names the board and position)");
    s.cert = Certified::load(v.at("cert"), 1, s.seconds);
    const CertifiedClaim& c = s.cert->claim();
    out << "Certificate " << v.at("cert") << ": VERIFIED by the checker library: " << c.statement << "\n";
    s.geo = variantGeometry(variantOfCertificate(c));
    for (unsigned q : c.queens) s.certPieces.push_back(int(q));
    s.pieces = s.certPieces;
    s.heap = c.grundy ? 0 : c.heap;
    if (c.grundy) s.certRootWins = c.heap != 0;
    else if (c.heap == 0) s.certRootWins = c.win;
  } else {
    Variant var;
    try {
      var = variantOf(v, defaultN);
      s.geo = variantGeometry(var);
    } catch (const std::invalid_argument& e) {
      throw UsageError(e.what());
    }
    if (v.count("heap")) s.heap = uint32_t(wholeNumber("heap", v.at("heap"), 0, 255));
  }
  const std::vector<int> more = squaresOption(s.geo, v, "queens");
  s.pieces.insert(s.pieces.end(), more.begin(), more.end());
  try {
    liveAfter(s.geo, s.pieces);
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("--queens: ") + e.what());
  }
  return s;
}

std::string listSquares(const Geometry& geo, const std::vector<int>& squares) {
  std::string s;
  for (size_t i = 0; i < squares.size(); ++i) s += (i ? ", " : "") + geo.squareName(squares[i]);
  return s;
}

std::string positionWords(const Setup& s) {
  std::string w = gameWords(s.geo.variant) + ", ";
  const char* piece = pieceName(s.geo.variant.piece, s.pieces.size() != 1);
  w += s.pieces.empty() ? std::string("empty") : "after " + std::string(piece) + " " + listSquares(s.geo, s.pieces);
  if (s.heap) w += ", with a Nim heap of " + std::to_string(s.heap);
  return w;
}

std::string seconds(double t) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f s", t);
  return text;
}

// ---------------------------------------------------------------- board

int runBoard(const Values& v, std::ostream& out) {
  Setup s = setupOf(v, 8, out);
  const int free = liveCount(liveAfter(s.geo, s.pieces));
  out << drawBoard(pictureOf(s.geo, s.pieces), DrawOptions{s.unicode, true, "last move"});
  out << "Position: " << positionWords(s) << "; " << plural(free, "free square", "free squares") << ".\n";
  return 0;
}

// ---------------------------------------------------------------- explain

int runExplain(const Values& v, std::ostream& out, std::ostream& err) {
  Setup s = setupOf(v, 8, out);
  const auto start = Clock::now();
  const Live live = liveAfter(s.geo, s.pieces);
  auto solver = OnTheSpot::make(s.geo, 64);
  solver->setDeadline(start + std::chrono::milliseconds(long(s.seconds * 1000)));
  Picture pic = pictureOf(s.geo, s.pieces);
  if (!s.pieces.empty()) pic.squares[size_t(s.pieces.back())].highlight = true;

  out << "Position: " << positionWords(s) << ".\n";
  const bool empty = s.pieces.empty() && s.heap == 0;
  const std::string mover = empty ? "the first player" : "the player to move";
  std::vector<int> fromCert, onSpot, undecided;
  bool complete = true;
  if (s.cert) {
    // Values the verified certificate proves, then the rest on the spot.
    const bool atRoot = s.pieces == s.certPieces;
    const CertifiedClaim& c = s.cert->claim();
    if (atRoot && c.grundy)
      out << "Value: " << mover << (c.heap ? " wins" : " loses") << ": Grundy value " << c.heap << " (from the verified certificate"
          << (c.heap ? ": with a heap of " + std::to_string(c.heap) + " added the player to move loses" : std::string()) << ").\n";
    else if (atRoot || s.cert->reply(live, s.heap) || s.cert->provedLost(live, s.heap)) {
      const bool win = atRoot ? c.win : s.cert->reply(live, s.heap).has_value();
      out << "Value: " << mover << (win ? " wins" : " loses") << " (from the verified certificate).\n";
    } else if (auto g = solver->grundy(live)) {
      const uint32_t value = *g ^ s.heap;
      out << "Value: " << mover << (value ? " wins" : " loses") << ": Grundy value " << value
          << " (proved on the spot; the certificate's proof does not reach this position).\n";
    } else {
      out << "Value: not decided (the certificate's proof does not reach this position, and it is too big to prove on the spot in "
          << s.seconds << " s).\n";
      complete = false;
    }
    for (int m : liveSquares(live)) {
      const Live after = liveAfterMove(s.geo, live, m);
      Square& sq = pic.squares[size_t(m)];
      if (s.cert->provedLost(after, s.heap)) sq.value = "W", fromCert.push_back(m);
      else if (s.cert->reply(after, s.heap)) sq.value = "L", fromCert.push_back(m);
    }
    for (int m : liveSquares(live)) {
      Square& sq = pic.squares[size_t(m)];
      if (!sq.value.empty()) continue;
      if (auto g = solver->grundy(liveAfterMove(s.geo, live, m))) sq.value = std::to_string(*g ^ s.heap), onSpot.push_back(m);
      else sq.value = "?", undecided.push_back(m);
    }
    out << "\nEach move: W wins, L loses (from the verified certificate); a number is the Grundy value of the\n"
           "position the move leaves, proved on the spot (0: the move wins); ? not decided.\n";
  } else {
    const Explanation e = explainOnTheSpot(s.geo, live, s.heap, *solver);
    if (e.grundy) {
      const uint32_t value = *e.grundy ^ s.heap;
      out << "Value: " << mover << (value ? " wins" : " loses") << ": Grundy value " << value << " (";
      if (s.heap) out << "the board's " << *e.grundy << " xor the heap's " << s.heap << "; ";
      out << "proved on the spot in " << seconds(std::chrono::duration<double>(Clock::now() - start).count()) << ").\n";
    } else {
      out << "Value: not decided: too big to prove on the spot within " << s.seconds << " s.\n";
    }
    for (int m : liveSquares(live)) {
      Square& sq = pic.squares[size_t(m)];
      if (e.moveValue[size_t(m)]) sq.value = std::to_string(*e.moveValue[size_t(m)]), onSpot.push_back(m);
      else sq.value = "?", undecided.push_back(m);
    }
    complete = e.complete;
    out << "\nEach move: the Grundy value of the position it leaves" << (s.heap ? " (heap included)" : "")
        << ", proved on the spot (0: the move wins); ? not decided.\n";
  }
  out << drawBoard(pic, DrawOptions{s.unicode, true, "last piece placed"});
  std::vector<int> winning;
  for (int m : liveSquares(live))
    if (pic.squares[size_t(m)].value == "0" || pic.squares[size_t(m)].value == "W") winning.push_back(m);
  if (liveSquares(live).empty()) out << "No free square: " << (s.heap ? "only heap moves are left.\n" : "the player to move has no move and loses.\n");
  else if (winning.empty() && undecided.empty()) out << "No board move wins.\n";
  else if (!winning.empty()) out << "Winning " << (winning.size() == 1 ? "move: " : "moves: ") << listSquares(s.geo, winning) << ".\n";
  for (uint32_t h = 0; h < s.heap; ++h) {  // heap moves: the board stays, the heap goes to h
    if (h == 0) out << "Heap moves (proved on the spot):";
    if (auto g = solver->grundy(live)) out << " to " << h << " leaves value " << (*g ^ h) << (*g == h ? " (wins)" : "");
    else out << " to " << h << " not decided";
    out << (h + 1 < s.heap ? ";" : ".\n");
  }
  if (s.cert)
    out << "From the verified certificate: " << plural(long(fromCert.size()), "move", "moves") << "; proved on the spot: "
        << plural(long(onSpot.size()), "move", "moves") << "; not decided: " << plural(long(undecided.size()), "move", "moves") << ".\n";
  if (!complete || !undecided.empty()) {
    err << "qcert explain: not everything was decided within --time-limit " << s.seconds << " s ("
        << plural(long(undecided.size()), "move", "moves") << " of " << liveSquares(live).size()
        << " left open): the position is too big to prove on the spot; give a certificate (--cert) or more time\n";
    return 2;
  }
  return 0;
}

// ---------------------------------------------------------------- play

struct Played {
  int move;
  bool byPerson;
};

class Game {
 public:
  Game(Setup& s, std::istream& in, std::ostream& out) : s_(s), in_(in), out_(out), solver_(OnTheSpot::make(s.geo, 64)) {}

  int run(const Values& v) {
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
    std::string side = v.count("side") ? v.at("side") : "";  // runPlay has refused any other value
    while (side != "first" && side != "second") {
      out_ << "Do you want to move first or second? [first/second]: " << std::flush;
      std::string line;
      if (!std::getline(in_, line)) {
        endOfInput();
        return 0;
      }
      side = trim(line);
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
    return loop();
  }

 private:
  // Input ended at a prompt: end the prompt's line, so that the shell's
  // prompt starts on its own.
  void endOfInput() { out_ << "\n"; }
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
        history_.push_back({c.move, false});
        out_ << "I play " << s_.geo.squareName(c.move) << " (" << c.why << ").\n";
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
      if (!std::getline(in_, line)) {
        endOfInput();
        return false;
      }
      const std::string t = trim(line);
      if (t == "quit" || t == "q" || t == "exit") {
        out_ << "Bye.\n";
        return false;
      }
      if (t == "undo") {
        if (!undo()) {
          out_ << "Nothing to undo.\n";
          continue;
        }
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
      history_.push_back({*sq, true});
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
};

int runPlay(const Values& v, std::istream& in, std::ostream& out) {
  // Before anything is asked, verified or proved.
  if (v.count("side") && v.at("side") != "first" && v.at("side") != "second")
    throw UsageError("--side must be first or second, got '" + v.at("side") + "'");
  Values options = v;
  if (!v.count("cert") && !v.count("n") && !v.count("board")) {
    for (;;) {
      out << "Board size? (N for the N x N board, 1.." << kMaxBoard << "; e.g. 6): " << std::flush;
      std::string line;
      if (!std::getline(in, line)) {
        out << "\n";  // end the prompt's line
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
  Game game(s, in, out);
  return game.run(options);
}

// ---------------------------------------------------------------- describe, replies

std::string fileArgument(const Values& v) {
  if (!v.count("file")) throw UsageError("no certificate file given");
  return v.at("file");
}

int runDescribe(const Values& v, std::ostream& out) {
  DescribeOptions o;
  o.allShards = v.count("all-shards") > 0;
  if (v.count("time-limit")) o.timeLimitSeconds = double(wholeNumber("time-limit", v.at("time-limit"), 1, 86400));
  out << describeCertificate(fileArgument(v), o);
  return 0;
}

int runReplies(const Values& v, std::ostream& out, std::ostream& err) {
  const std::string file = fileArgument(v);
  const unsigned jobs = v.count("jobs") ? unsigned(wholeNumber("jobs", v.at("jobs"), 1, 64)) : 1;
  const double limit = v.count("time-limit") ? double(wholeNumber("time-limit", v.at("time-limit"), 1, 86400)) : 0;
  const bool tsv = v.count("tsv") > 0;
  if (tsv && v.count("unicode")) throw UsageError("--tsv and --unicode do not go together (--tsv draws no board)");
  const double every = v.count("progress-every") ? double(wholeNumber("progress-every", v.at("progress-every"), 1, 3600)) : 10;
  ReplyTable table;
  {
    // The check prints nothing until it is done: say what is going on, as
    // whole lines (stderr may be a log file).
    ProgressLines lines(
        err,
        [&, first = true](double t) mutable {
          const std::string text = (first ? "qcert replies: verifying " + file + " in full with the checker library before reading its replies, "
                                          : "qcert replies: still verifying " + file + ", ") +
                                   std::to_string(long(t + 0.5)) + " s so far";
          first = false;
          return text;
        },
        std::min(2.0, every), every);
    table = loadReplyTable(file, jobs, limit);
  }
  if (!tsv) out << "Certificate " << file << ": VERIFIED by the checker library: " << table.claim.statement << "\n";
  const bool complete = fillOnTheSpot(table, limit > 0 ? limit : 10);
  out << (tsv ? formatReplyTableTsv(table, file) : formatReplyTable(table, v.count("unicode") > 0));
  if (!complete) {
    err << "qcert replies: some replies were not proved on the spot in time (marked ?); give more --time-limit\n";
    return 2;
  }
  return 0;
}

}  // namespace

int runQcert(const std::vector<std::string>& args, std::istream& in, std::ostream& out, std::ostream& err) {
  if (args.empty()) {
    err << "qcert: no command given (expected board, explain, play, report, describe or replies; see qcert --help)\n";
    return 2;
  }
  if (args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    out << overview();
    return 0;
  }
  const auto& list = commands();
  const auto c = std::find_if(list.begin(), list.end(), [&](const Command& k) { return args[0] == k.name; });
  if (c == list.end()) {
    err << "qcert: unknown command '" << args[0] << "' (expected board, explain, play, report, describe or replies; see qcert --help)\n";
    return 2;
  }
  try {
    const Values v = parseOptions(*c, args);
    if (v.count("help")) {
      out << helpOf(*c);
      return 0;
    }
    if (c->name == std::string("board")) return runBoard(v, out);
    if (c->name == std::string("explain")) return runExplain(v, out, err);
    if (c->name == std::string("report")) return runReport(v, out, err);
    if (c->name == std::string("describe")) return runDescribe(v, out);
    if (c->name == std::string("replies")) return runReplies(v, out, err);
    return runPlay(v, in, out);
  } catch (const UsageError& e) {
    err << "qcert " << c->name << ": " << e.what() << "\n";
    return 2;
  } catch (const CertificateError& e) {
    err << "qcert " << c->name << ": certificate not used: " << e.what() << "\n";
    return e.status;
  } catch (const std::exception& e) {
    err << "qcert " << c->name << ": " << e.what() << "\n";
    return 2;
  }
}

}  // namespace qcert::ui
