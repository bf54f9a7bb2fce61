// qcert board: draws a position.
#include "ui/commands.hpp"

#include <ostream>

#include "ui/analysis.hpp"
#include "ui/board_view.hpp"
#include "ui/setup.hpp"

namespace qcert::ui {

int runBoard(const Values& v, std::ostream& out) {
  Setup s = setupOf(v, 8, out);
  const int free = liveCount(liveAfter(s.geo, s.pieces));
  out << drawBoard(pictureOf(s.geo, s.pieces), DrawOptions{s.unicode, true, "last move"});
  out << "Position: " << positionWords(s) << "; " << plural(free, "free square", "free squares") << ".\n";
  return 0;
}

}  // namespace qcert::ui
