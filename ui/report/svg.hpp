// Boards as inline SVG for `qcert report`'s HTML page, and the page's
// escaping of text.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "ui/board_view.hpp"

namespace qcert::ui::report {

// Text for HTML: & < > " escaped.
std::string esc(const std::string& s);
// An id or anchor name: letters, digits, '-' and '_', every other byte '-'.
std::string htmlId(const std::string& s);
// The fill of a square whose move has Grundy value v (0: green, the move wins; 6 and above share one).
std::string valueColour(uint32_t v);

struct SvgBoard {
  Picture picture;
  std::vector<std::string> fill;    // per square, "" = the default
  std::vector<std::string> label;   // per square, drawn over it
  std::vector<bool> dashed;         // per square: a dashed outline
  std::vector<std::pair<int, int>> arrows;  // from square, to square
};

// The board as one <svg> element with the given id and title, `cell` pixels a square.
std::string svgOf(const SvgBoard& b, const std::string& id, const std::string& title, int cell = 26);

}  // namespace qcert::ui::report
