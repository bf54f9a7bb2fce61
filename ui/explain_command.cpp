// qcert explain: who wins, and the value of every move, drawn on the board.
#include "ui/commands.hpp"

#include <ostream>

#include "ui/analysis.hpp"
#include "ui/board_view.hpp"
#include "ui/setup.hpp"

namespace qcert::ui {

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
      out << "proved on the spot in " << seconds(e.grundySeconds) << ").\n";
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

}  // namespace qcert::ui
