// The prover's side of qcert replies (replies.hpp): positions the certificate
// leaves to the checker's own search are proved on the spot, and the table is
// laid out as text, as a board and (square boards up to 16x16) as Jenrich's
// table T.
#include "ui/replies.hpp"

#include <cstdio>
#include <sstream>

#include "ui/analysis.hpp"
#include "ui/board_view.hpp"

namespace qcert::ui {
namespace {

Geometry geometryOf(const CertifiedClaim& c) {
  Variant v;
  v.rows = int(c.rows), v.cols = int(c.cols), v.torus = c.torus;
  v.piece = Piece(c.piece);
  for (unsigned h : c.holes) v.holes.push_back(int(h));
  return variantGeometry(v);
}

std::string moveName(const Geometry& geo, int move) {
  if (move < 0) return "heap to " + std::to_string(-1 - move);
  return geo.squareName(move) + " " + geo.squarePaper(move);
}

std::string fromWords(FirstReply::From from, bool belowCutoff) {
  switch (from) {
    case FirstReply::From::certificate: return "the certificate";
    case FirstReply::From::onTheSpot:
      return belowCutoff ? "proved on the spot (at or below the cut-off: the checker solves it itself)" : "proved on the spot";
    case FirstReply::From::none: break;
  }
  return "not decided in time";
}

// The half-turn image of a square of the board (-1 off the board or a hole).
int halfTurn(const Geometry& geo, int s) {
  const int r = s / geo.n, c = s % geo.n, t = (geo.rows - 1 - r) * geo.n + (geo.n - 1 - c);
  return t >= 0 && t < geo.squares && !geo.isHole[size_t(t)] ? t : -1;
}

std::string tsvMove(const Geometry& geo, int move) { return move < 0 ? "heap-" + std::to_string(-1 - move) : geo.squareName(move); }

const char* tsvFrom(FirstReply::From from) {
  switch (from) {
    case FirstReply::From::certificate: return "certificate";
    case FirstReply::From::onTheSpot: return "on-the-spot";
    case FirstReply::From::none: break;
  }
  return "none";
}

}  // namespace

bool fillOnTheSpot(ReplyTable& table, double secondsPerPosition) {
  const Geometry geo = geometryOf(table.claim);
  auto solver = OnTheSpot::make(geo, 64);
  auto deadline = [&] { return Clock::now() + std::chrono::milliseconds(long(secondsPerPosition * 1000)); };
  bool complete = true;
  std::vector<int> pieces(table.before.begin(), table.before.end());
  if (table.winnerMovesFirst && !table.winnerFirst) {  // the root is at or below the cut-off, or nothing is stored
    const bool belowCutoff = table.noStoredMoves.empty();
    solver->setDeadline(deadline());
    const auto m = solver->winningMove(liveAfter(geo, pieces), table.heap);
    if (!m || *m == kNoMove) return false;
    table.winnerFirst = *m;
    table.winnerFirstFrom = FirstReply::From::onTheSpot;
    if (*m >= 0) table.before.push_back(unsigned(*m)), pieces.push_back(*m);
    else table.heap = heapTarget(*m);
    // The loser's moves: the same rule as the checker's (the stabiliser's
    // orbit leaders, then heap moves), from the prover's computed group.
    const Live live = liveAfter(geo, pieces);
    std::vector<const std::vector<int>*> stabiliser;
    for (const auto& g : geo.group) {
      bool fixes = true;
      for (int s = 0; s < geo.squares && fixes; ++s) fixes = live[size_t(s)] == live[size_t(g[size_t(s)])];
      if (fixes) stabiliser.push_back(&g);
    }
    for (int v : liveSquares(live)) {
      bool least = true;
      for (const auto* g : stabiliser) least &= (*g)[size_t(v)] >= v;
      if (least) table.rows.push_back(FirstReply{v, std::nullopt, FirstReply::From::none, belowCutoff});
    }
    for (uint32_t h = 0; h < table.heap; ++h) table.rows.push_back(FirstReply{heapMove(h), std::nullopt, FirstReply::From::none, belowCutoff});
  }
  const Live live = liveAfter(geo, pieces);
  for (FirstReply& row : table.rows) {
    if (row.reply) continue;
    solver->setDeadline(deadline());
    const Live after = row.move >= 0 ? liveAfterMove(geo, live, row.move) : live;
    const uint32_t heap = row.move >= 0 ? table.heap : heapTarget(row.move);
    const auto m = solver->winningMove(after, heap);
    if (m && *m != kNoMove) row.reply = *m, row.from = FirstReply::From::onTheSpot;
    else complete = false;  // out of time (a verified certificate leaves no lost position here)
  }
  return complete;
}

std::string formatReplyTable(const ReplyTable& t, bool unicode) {
  const Geometry geo = geometryOf(t.claim);
  std::ostringstream out;
  const bool emptyStart = t.claim.queens.empty() && t.claim.heap == 0;
  const std::string winner = t.winnerMovesFirst ? (emptyStart ? "the first player" : "the player to move")
                                                : (emptyStart ? "the second player" : "the player not to move");
  const std::string loser = t.winnerMovesFirst ? (emptyStart ? "the second player" : "the opponent")
                                               : (emptyStart ? "the first player" : "the player to move");
  if (!t.noStoredMoves.empty()) out << "No move below comes from the certificate: " << t.noStoredMoves << ".\n";
  if (t.winnerMovesFirst) {
    out << "The winner, " << winner << ", moves first: "
        << (t.winnerFirst ? moveName(geo, *t.winnerFirst) + " (" + fromWords(t.winnerFirstFrom, false) + ")" : std::string("not decided"))
        << ".\n";
  }
  out << "The loser, " << loser << ", has " << t.rows.size() << (t.rows.size() == 1 ? " move" : " moves")
      << " up to symmetry; " << winner << "'s reply to each:\n\n";
  out << "  loser's move      winner's reply    from\n";
  size_t fromCert = 0, halfTurns = 0;
  for (const FirstReply& r : t.rows) {
    char line[64];
    std::snprintf(line, sizeof line, "  %-17s %-17s ", moveName(geo, r.move).c_str(), r.reply ? moveName(geo, *r.reply).c_str() : "?");
    const bool half = r.move >= 0 && r.reply && *r.reply >= 0 && halfTurn(geo, r.move) == *r.reply;
    out << line << fromWords(r.from, r.belowCutoff) << (half ? "; the half-turn image" : "") << "\n";
    fromCert += r.from == FirstReply::From::certificate;
    halfTurns += half;
  }
  out << "\n" << fromCert << " of " << t.rows.size() << " replies from the verified certificate";
  if (fromCert < t.rows.size()) out << ", the others proved on the spot by qcert's own search";
  out << "; " << halfTurns << (halfTurns == 1 ? " is" : " are") << " the half-turn image of the move.\n\n";

  // The board: each of the loser's moves shows the reply; [ ] the half-turn image.
  std::vector<int> pieces(t.before.begin(), t.before.end());
  Picture pic = pictureOf(geo, pieces);
  bool anyHalf = false;
  for (const FirstReply& r : t.rows) {
    if (r.move < 0) continue;
    Square& sq = pic.squares[size_t(r.move)];
    sq.value = !r.reply ? "?" : *r.reply < 0 ? "h" + std::to_string(-1 - *r.reply) : geo.squareName(*r.reply);
    if (sq.value.size() > 4) sq.value = "?";
    sq.highlight = r.reply && *r.reply >= 0 && halfTurn(geo, r.move) == *r.reply;
    anyHalf |= sq.highlight;
  }
  out << "On the board: each move of the loser (one per symmetry class) shows the winner's reply to it.\n";
  out << drawBoard(pic, DrawOptions{unicode, true, "the reply is the half-turn image of the move"});
  (void)anyHalf;

  // Jenrich's layout (Jenrich 2014, 5.1, table T of the round-1 table): the
  // first move (r0, c0) indexes the table, 0-based; an entry is the reply as
  // one hexadecimal byte, row in the upper and column in the lower half;
  // $FF: not one of the moves considered.
  if (geo.variant.isSquare() && geo.n <= 16 && !t.rows.empty()) {
    int maxR = -1, maxC = -1;
    for (const FirstReply& r : t.rows)
      if (r.move >= 0) maxR = std::max(maxR, r.move / geo.n), maxC = std::max(maxC, r.move % geo.n);
    if (maxR >= 0) {
      std::vector<std::string> cell(size_t((maxR + 1) * (maxC + 1)), "$FF");
      for (const FirstReply& r : t.rows) {
        if (r.move < 0) continue;
        const char* digits = "0123456789ABCDEF";
        const std::string hex = r.reply && *r.reply >= 0 ? std::string("$") + digits[*r.reply / geo.n % 16] + digits[*r.reply % geo.n % 16] : "$??";
        cell[size_t((r.move / geo.n) * (maxC + 1) + r.move % geo.n)] = hex;
      }
      out << "\nAs Jenrich's table T (Jenrich 2014, 5.1): row r0 and column c0 of the loser's move (0-based), each\n"
             "entry the reply as a hexadecimal byte, upper half the row, lower half the column; $FF: not a move\n"
             "of the table (another member of a move's symmetry class).\n";
      out << std::string(9, ' ');
      char text[32];
      for (int c = 0; c <= maxC; ++c) std::snprintf(text, sizeof text, "%6s", ("c0=" + std::to_string(c)).c_str()), out << text;
      out << "\n";
      for (int r = 0; r <= maxR; ++r) {
        std::snprintf(text, sizeof text, "  r0=%-4d", r);
        out << text;
        for (int c = 0; c <= maxC; ++c) std::snprintf(text, sizeof text, "%6s", cell[size_t(r * (maxC + 1) + c)].c_str()), out << text;
        out << "\n";
      }
    }
  }
  return out.str();
}

std::string formatReplyTableTsv(const ReplyTable& t, const std::string& certPath) {
  const Geometry geo = geometryOf(t.claim);
  auto oneLine = [](std::string s) {
    for (char& ch : s)
      if (ch == '\t' || ch == '\n' || ch == '\r') ch = ' ';
    return s;
  };
  std::ostringstream out;
  out << "#qcert-replies\t1\n#claim\t" << oneLine(t.claim.statement) << "\n#board\t" << t.claim.rows << "x" << t.claim.cols;
  if (t.claim.torus) out << "\ttorus";
  auto list = [&](const auto& squares) {
    std::string s;
    for (auto q : squares) s += (s.empty() ? "" : ",") + geo.squareName(int(q));
    return s;
  };
  if (!t.claim.holes.empty()) out << "\tholes=" << list(t.claim.holes);
  if (!t.before.empty()) out << "\tbefore=" << list(t.before);
  out << "\n#cert\t" << oneLine(certPath) << "\n";
  if (t.winnerMovesFirst)
    out << "#first\t" << (t.winnerFirst ? tsvMove(geo, *t.winnerFirst) : "-") << "\t" << tsvFrom(t.winnerFirstFrom) << "\n";
  out << "move\treply\thalf_turn\tfrom\n";
  for (const FirstReply& r : t.rows) {
    const bool half = r.move >= 0 && r.reply && *r.reply >= 0 && halfTurn(geo, r.move) == *r.reply;
    out << tsvMove(geo, r.move) << "\t" << (r.reply ? tsvMove(geo, *r.reply) : "-") << "\t" << (half ? 1 : 0) << "\t"
        << tsvFrom(r.reply ? r.from : FirstReply::From::none) << "\n";
  }
  return out.str();
}

}  // namespace qcert::ui
