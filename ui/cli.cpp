#include "ui/cli.hpp"

#include <algorithm>
#include <ostream>

#include "ui/certified.hpp"
#include "ui/command_line.hpp"
#include "ui/commands.hpp"
#include "ui/report.hpp"
#include "prover/geometry.hpp"

namespace qcert::ui {
namespace {

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
               "           [--cert FILE] [--time-limit S] [--record FILE] [--from FILE] [--unicode]",
       "A game against the computer in the terminal. You pick the board and a side; the\n"
       "computer plays the other side. When it holds the side proved winning it plays the\n"
       "certificate's replies (--cert, verified first) or moves its exact search proves on\n"
       "the spot, so it does not lose; when you hold the winning side it plays the move that\n"
       "makes the game last longest. Type a square (d4) to move, or undo, hint, quit (in any\n"
       "case). Each move is printed as it is played, and the whole game at the end.",
       with(boardOptions(), {kSide, kCert, kTime,
                             {"record", "FILE", "write the game to FILE after every move: the game's options, your side, one move a line (square names)"},
                             {"from", "FILE", "resume the game a --record FILE holds: its moves are played first (the game's options are the record's unless given; they must agree)"},
                             kUnicode, kHelp})},
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
      {"replies", "qcert replies FILE [--jobs N] [--time-limit S] [--unicode | --tsv] [--quiet | --progress-every S]",
       "The winner's reply to every first move of the loser, up to symmetry, from a\n"
       "certificate of the placing game (prover prove or grundy --out FILE), as a table, on\n"
       "the board and, for square boards up to 16x16, as Jenrich's table T (Jenrich 2014, 5.1;\n"
       "for the empty 16x16 board it is his round-1 table). The certificate is verified in\n"
       "full by the checker library first (the same check as checker FILE); replies it leaves\n"
       "to the checker's own search (positions at or below its cut-off) are proved on the spot\n"
       "and marked so.",
       {{"jobs", "N", "shards of a manifest verified at a time (1..64; default 1)"},
        {"time-limit", "S", "stop the check after S seconds (1..86400; default none), exit 2; also the time for each reply proved on the spot (default 10)"},
        {"progress-every", "S", "while the certificate is verified (minutes for the large ones), a whole line on stderr every S seconds (1..3600), the first after 2 s at most, also when stderr is not a terminal: for a log (without it, progress shows only on a terminal, as one line redrawn)"},
        {"quiet", nullptr, "no progress on stderr (-q too)"},
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

}  // namespace

int runQcert(const std::vector<std::string>& args, std::istream& in, std::ostream& out, std::ostream& err) {
  return runQcert(args, in, out, err, false);
}

int runQcert(const std::vector<std::string>& args, std::istream& in, std::ostream& out, std::ostream& err, bool errIsTerminal) {
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
    if (c->name == std::string("replies")) return runReplies(v, out, err, errIsTerminal);
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
