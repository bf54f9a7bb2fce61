// `prover partizan`: the partizan placing game of Noon 2002, section 7.3
// (docs/partizan-game.md).
#include <unistd.h>

#include <algorithm>
#include <boost/program_options.hpp>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <new>
#include <optional>

#include "prover/memory.hpp"
#include "prover/options.hpp"
#include "prover/output_file.hpp"
#include "prover/partizan/partizan.hpp"

namespace po = boost::program_options;

namespace qcert::partizan {
namespace {

const char* kUsage = R"(prover partizan: the partizan placing game of Noon 2002 (section 7.3), certificates for `checker`.

Usage:
  prover partizan --n N [--piece P] [--rule R] [--first left|right]
                  [--left LIST] [--right LIST] [--out FILE] [--quiet]
  prover partizan --n N [--piece P] [--rule R] [--first left|right]
                  --by-mirror-lemma [--out FILE] [--quiet]
  prover partizan --classes --n N [--piece P] [--rule R] [--left LIST] [--right LIST]
  prover partizan --classes --n-max M [--piece P] [--rule R]

The game (docs/partizan-game.md): Left and Right each place pieces of their
own, all of one kind P (queen, rook, bishop, king or knight; default queen),
on the n x n board (1 <= N <= 8). A player may place a piece on an empty
square that no opposing piece attacks (the player's own pieces do not
matter); pieces are never removed. The player who cannot move loses.
Rules R: open (default): lines of attack pass over pieces, which makes the
game Snort on the piece's attack graph; blocking: Noon's chess convention,
a queen's, rook's or bishop's line of attack stops at the first piece on it,
of either colour (kings and knights do not slide: nothing changes for them).

The first form decides whether the player named by --first (default left)
wins when moving first from the position: the empty board, or Left's pieces
on --left LIST and Right's on --right LIST (squares like a1,c2; no piece may
be attacked by an opposing piece). It prints "RESULT: <statement>", the
statement `checker` prints for the certificate written with --out: the
winner's reply at every position the loser can force.

--by-mirror-lemma decides the empty board without search when a map of the
square (the half turn, the mirror in the files or ranks, in a diagonal)
meets Lemma 3 of docs/partizan-game.md: with no fixed square and no square
attacked from its image the second player wins by answering each move with
its image; with one fixed square z, every other square attacked from its
image being attacked from z, the first player wins by z and then the same.
The certificate names the map and holds no replies; the checker verifies the
conditions on the board. No map qualifies (queens and kings on even boards):
exit 2.

--classes prints the outcome class of the position (both first movers):
L (Left wins whoever starts), R (Right wins whoever starts), N (the first
player wins) or P (the second player, the previous player, wins). With
--n-max M it does so for the empty board of every size 1..M. No certificate:
run the first form with --first left and --first right for those.

Squares are algebraic: file letter = column, rank = row + 1; a1 = (0,0),
b1 = (0,1), a2 = (1,0) in 0-based (row, column).

Exit status: 0 done (and written); 2 nothing decided: bad arguments, an
illegal position, an --out path that cannot be written (tried before any
work), the memo past --memo-mb or a certificate past the checker's 2^22
replies ("prover partizan: not done: ..."), out of memory (one line
"prover partizan: ..." on stderr); 3 interrupted by SIGINT/SIGTERM (nothing
is kept). Progress goes to stderr when it is a terminal and a run is long.
)";

char gTmp[4096];
extern "C" void onPartizanSignal(int) {
  if (gTmp[0]) unlink(gTmp);
  static const char msg[] = "prover partizan: interrupted; nothing is kept\n";
  [[maybe_unused]] const ssize_t w = write(STDERR_FILENO, msg, sizeof msg - 1);
  _exit(3);
}

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

struct ProgressState {
  Clock::time_point t0;
  const Solver* solver = nullptr;
  bool shown = false;
};
void showProgress(void* arg, uint64_t nodes) {
  auto* p = static_cast<ProgressState*>(arg);
  const double s = since(p->t0);
  if (s < 2) return;
  std::fprintf(stderr, "\r  %llu nodes, %llu positions, %zu MiB memo, %.0f s ", (unsigned long long)nodes,
               (unsigned long long)p->solver->positions(), p->solver->memoBytes() >> 20, s);
  p->shown = true;
}
void endProgress(ProgressState& p) {
  if (p.shown) std::fprintf(stderr, "\r%60s\r", "");
  p.shown = false;
}

std::vector<int> sortedSide(int n, const std::string& text, const char* option) {
  std::vector<int> v = parseSquareList(n, text);
  std::sort(v.begin(), v.end());
  for (size_t i = 1; i < v.size(); ++i)
    if (v[i] == v[i - 1]) throw std::invalid_argument(squareName(n, v[i]) + " appears twice in " + option);
  return v;
}

// Throws std::invalid_argument naming the first piece an opposing piece attacks.
void requireLegal(const Rules& r, const std::vector<int>& left, const std::vector<int>& right) {
  const int n = r.n();
  for (int s : left)
    if (std::binary_search(right.begin(), right.end(), s))
      throw std::invalid_argument(squareName(n, s) + " is in both --left and --right");
  const uint64_t L = maskOf(left), R = maskOf(right), occ = L | R;
  for (int who = 0; who < 2; ++who)
    for (int s : who ? right : left)
      for (int t : who ? left : right)
        if (r.attacks(t, occ) >> s & 1)
          throw std::invalid_argument(std::string("not a position of the game: ") + (who ? "Right" : "Left") + "'s " +
                                      pieceName(r.piece()) + " on " + squareName(n, s) + " is attacked by " +
                                      (who ? "Left" : "Right") + "'s " + pieceName(r.piece()) + " on " + squareName(n, t));
}

const char* className(bool leftFirstWins, bool rightFirstWins) {
  if (leftFirstWins && rightFirstWins) return "N (the first player wins)";
  if (!leftFirstWins && !rightFirstWins) return "P (the second player, the previous player, wins)";
  // Left moving first wins and Right moving first loses: Left wins either way.
  return leftFirstWins ? "L (Left wins whoever moves first)" : "R (Right wins whoever moves first)";
}

}  // namespace

namespace {

// What `prover partizan`'s command line asked for. The options write into
// the members: a PartizanArgs stays where it was made.
struct PartizanArgs {
  int n = 0, nMax = 0;
  size_t memoMiB = kDefaultMemoMiB;
  std::string pieceText = "queen", ruleText = "open", firstText = "left", leftText, rightText, out;
  po::variables_map vm;
  Piece piece = Piece::queen;
  Rule rule = Rule::open;
  Player first = Player::left;
  std::vector<int> left, right;
  bool classes = false, byMirrorLemma = false;
};

// Reads and checks the options and the position, and tries --out. Returns
// the exit status when the run ends here (--help, a bad command line).
std::optional<int> parsePartizanArgs(int argc, char** argv, PartizanArgs& a) {
  int &n = a.n, &nMax = a.nMax;
  std::string &pieceText = a.pieceText, &ruleText = a.ruleText, &firstText = a.firstText, &leftText = a.leftText,
              &rightText = a.rightText, &out = a.out;
  po::variables_map& vm = a.vm;
  po::options_description opts("Options");
  opts.add_options()("help,h", "show this help")("n", numberOption(&n, "--n", 1, kMaxBoard), "board size N (1..8)")(
      "n-max", numberOption(&nMax, "--n-max", 1, kMaxBoard), "--classes: every empty board of size 1..M")(
      "piece", po::value<std::string>(&pieceText), "queen (default), rook, bishop, king or knight")(
      "rule", po::value<std::string>(&ruleText), "open (default) or blocking")(
      "first", po::value<std::string>(&firstText), "who moves first: left (default) or right")(
      "left", po::value<std::string>(&leftText), "Left's pieces at the start, e.g. a1,c2")(
      "right", po::value<std::string>(&rightText), "Right's pieces at the start")(
      "classes", "print the outcome class (both first movers) instead; no certificate")(
      "by-mirror-lemma", "the empty board by Lemma 3 (a map of the square), no search")(
      "memo-mb", numberOption(&a.memoMiB, "--memo-mb", 1, 1 << 20), "the search memo's bound in MiB (default 4096)")(
      "out,o", po::value<std::string>(&out), "write the certificate here")("quiet,q", "print only the result line")(
      "stats", "after the result, one machine-readable line: STATS key=value ... (for scripts and benchmarks)");
  try {
    refuseOptionPlaceholders(argc, argv);
    po::store(po::command_line_parser(argc, argv).options(opts).run(), vm);
    po::notify(vm);
    if (vm.count("help")) {
      std::cout << kUsage << "\n" << opts;
      return 0;
    }
    a.classes = vm.count("classes") > 0;
    const bool classes = a.classes;
    const auto p = parsePiece(pieceText);  // the singular name only ("queen", not "queens")
    if (!p || pieceText != pieceName(*p)) throw std::invalid_argument("unknown --piece '" + pieceText + "' (queen, rook, bishop, king or knight)");
    a.piece = *p;
    const auto r = parseRule(ruleText);
    if (!r) throw std::invalid_argument("unknown --rule '" + ruleText + "' (open or blocking)");
    a.rule = *r;
    if (firstText != "left" && firstText != "right") throw std::invalid_argument("unknown --first '" + firstText + "' (left or right)");
    a.first = firstText == "left" ? Player::left : Player::right;
    if (vm.count("n") && vm.count("n-max")) throw std::invalid_argument("give --n or --n-max, not both");
    if (vm.count("n-max") && !classes) throw std::invalid_argument("--n-max applies to --classes");
    if (!vm.count("n") && !vm.count("n-max")) throw std::invalid_argument(classes ? "--n or --n-max is required" : "--n is required");
    if (vm.count("quiet") && vm.count("stats")) throw std::invalid_argument("--quiet and --stats contradict each other: choose one");
    if (classes && vm.count("out")) throw std::invalid_argument("--classes writes no certificate (no --out)");
    if (classes && vm.count("first")) throw std::invalid_argument("--classes decides both first movers (no --first)");
    a.byMirrorLemma = vm.count("by-mirror-lemma") > 0;
    if (a.byMirrorLemma && (classes || vm.count("left") || vm.count("right")))
      throw std::invalid_argument("--by-mirror-lemma decides the empty board (no --classes, --left or --right)");
    if (vm.count("n-max") && (vm.count("left") || vm.count("right")))
      throw std::invalid_argument("--n-max is about the empty boards (no --left or --right)");
    if (vm.count("n")) {
      a.left = sortedSide(n, leftText, "--left");
      a.right = sortedSide(n, rightText, "--right");
      requireLegal(Rules(n, a.piece, a.rule), a.left, a.right);
    }
    if (vm.count("out")) checkOutputFile("--out", out);
  } catch (const std::exception& e) {
    std::cerr << "prover partizan: " << e.what() << "\n";
    return 2;
  }
  return std::nullopt;
}

}  // namespace

int runPartizan(int argc, char** argv) {
  PartizanArgs a;
  if (const std::optional<int> done = parsePartizanArgs(argc, argv, a)) return *done;
  const int n = a.n, nMax = a.nMax;
  const size_t memoMiB = a.memoMiB;
  const std::string &firstText = a.firstText, &leftText = a.leftText, &rightText = a.rightText, &out = a.out;
  const po::variables_map& vm = a.vm;
  const Piece piece = a.piece;
  const Rule rule = a.rule;
  const Player first = a.first;
  const std::vector<int> &left = a.left, &right = a.right;
  const bool classes = a.classes;
  const bool quiet = vm.count("quiet") > 0, tty = !quiet && isatty(STDERR_FILENO);
  if (const std::string tmp = out.empty() ? "" : temporaryPathFor(out); tmp.size() < sizeof gTmp)
    std::memcpy(gTmp, tmp.c_str(), tmp.size() + 1);
  std::signal(SIGINT, onPartizanSignal);
  std::signal(SIGTERM, onPartizanSignal);
  const auto t0 = Clock::now();
  try {
    const int from = vm.count("n") ? n : 1, to = vm.count("n") ? n : nMax;
    for (int size = from; size <= to; ++size) {
      const auto t1 = Clock::now();
      const Rules rules(size, piece, rule);
      Solver solver(rules, memoMiB << 20);
      ProgressState progress{t1, &solver, false};
      if (tty) solver.setTick(showProgress, &progress);
      PartizanSpec spec;
      spec.n = size, spec.piece = piece, spec.rule = rule, spec.left = left, spec.right = right, spec.toMove = first;
      const uint64_t L = maskOf(left), R = maskOf(right);
      char stats[512];
      if (classes) {
        const bool leftFirst = solver.wins(L, R), rightFirst = solver.wins(R, L);
        endProgress(progress);
        std::printf("CLASS: %s: %s; Left, moving first, %s; Right, moving first, %s\n", className(leftFirst, rightFirst),
                    gameText(spec).c_str(), leftFirst ? "wins" : "loses", rightFirst ? "wins" : "loses");
        std::snprintf(stats, sizeof stats, "STATS n=%d piece=%s rule=%s positions=%llu nodes=%llu memo_mib=%zu wall_s=%.3f peak_rss_kib=%ld",
                      size, pieceName(piece), ruleName(rule), (unsigned long long)solver.positions(),
                      (unsigned long long)solver.nodes(), solver.memoBytes() >> 20, since(t1), peakRssKiB());
        if (vm.count("stats")) std::printf("%s\n", stats);
        std::fflush(stdout);
        continue;
      }
      const bool leftMoves = first == Player::left;
      if (a.byMirrorLemma) {
        spec.mirror = findMirrorLemma(rules);
        if (spec.mirror.map == 0)
          throw std::invalid_argument("no map of the square meets the mirror lemma's conditions for " + gameText(spec) +
                                      " (run without --by-mirror-lemma to search)");
        spec.moverWins = spec.mirror.moverWins;
        uint64_t bytes = 0;
        if (!out.empty())
          bytes = writePartizanCertificate(out, spec, "qcert prover partizan --n " + std::to_string(size) + " --piece " + pieceName(piece) +
                                                          " --rule " + ruleName(rule) + " --first " + firstText + " --by-mirror-lemma");
        std::printf("RESULT: %s\n", statement(spec).c_str());
        std::snprintf(stats, sizeof stats, "STATS n=%d piece=%s rule=%s first=%s mirror=%d wall_s=%.3f cert_bytes=%llu", size,
                      pieceName(piece), ruleName(rule), firstText.c_str(), spec.mirror.map, since(t0), (unsigned long long)bytes);
        if (vm.count("stats")) std::printf("%s\n", stats);
        continue;
      }
      spec.moverWins = leftMoves ? solver.wins(L, R) : solver.wins(R, L);
      const double solveSeconds = since(t1);
      GameProof proof;
      uint64_t bytes = 0;
      if (!out.empty()) {
        proof = gameProof(solver, L, R, first);
        spec.replies = std::move(proof.replies);
      }
      endProgress(progress);
      const double proofSeconds = since(t1) - solveSeconds;
      if (!out.empty()) {
        const std::string producer = "qcert prover partizan --n " + std::to_string(size) + " --piece " + pieceName(piece) +
                                     " --rule " + ruleName(rule) + " --first " + firstText +
                                     (leftText.empty() ? "" : " --left " + leftText) +
                                     (rightText.empty() ? "" : " --right " + rightText);
        bytes = writePartizanCertificate(out, spec, producer);
      }
      std::printf("RESULT: %s\n", statement(spec).c_str());
      std::snprintf(stats, sizeof stats,
                    "STATS n=%d piece=%s rule=%s first=%s positions=%llu nodes=%llu replies=%zu loser_positions=%llu "
                    "solve_s=%.3f proof_s=%.3f wall_s=%.3f peak_rss_kib=%ld cert_bytes=%llu",
                    size, pieceName(piece), ruleName(rule), firstText.c_str(), (unsigned long long)solver.positions(),
                    (unsigned long long)solver.nodes(), spec.replies.size(), (unsigned long long)proof.loserPositions,
                    solveSeconds, proofSeconds, since(t0), peakRssKiB(), (unsigned long long)bytes);
      if (vm.count("stats")) std::printf("%s\n", stats);
    }
  } catch (const TooLarge& e) {
    if (tty) std::fprintf(stderr, "\r%60s\r", "");
    std::cerr << "prover partizan: not done: " << e.what() << "\n";
    return 2;
  } catch (const std::bad_alloc&) {
    std::cerr << "prover partizan: not done: out of memory\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "prover partizan: " << e.what() << "\n";
    return 2;
  }
  return 0;
}

}  // namespace qcert::partizan
