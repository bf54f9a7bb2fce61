#include "ui/report/svg.hpp"

#include <algorithm>
#include <cctype>
#include <sstream>

namespace qcert::ui::report {

std::string esc(const std::string& s) {
  std::string o;
  for (char ch : s) {
    switch (ch) {
      case '&': o += "&amp;"; break;
      case '<': o += "&lt;"; break;
      case '>': o += "&gt;"; break;
      case '"': o += "&quot;"; break;
      default: o += ch;
    }
  }
  return o;
}

std::string htmlId(const std::string& s) {
  std::string o;
  for (char ch : s) o += (std::isalnum(static_cast<unsigned char>(ch)) || ch == '-' || ch == '_') ? ch : '-';
  return o;
}

namespace {
const char* const kValueColours[] = {"#2e7d32", "#90caf9", "#ffe082", "#ffab91", "#ce93d8", "#80cbc4", "#b0bec5"};
}  // namespace

std::string valueColour(uint32_t v) { return kValueColours[std::min<uint32_t>(v, 6)]; }

std::string svgOf(const SvgBoard& b, const std::string& id, const std::string& title, int cell) {
  const Picture& p = b.picture;
  const int margin = 18;
  const int w = margin * 2 + p.cols * cell, h = margin * 2 + p.rows * cell;
  std::ostringstream s;
  s << "<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"" << esc(id) << "\" class=\"board\" role=\"img\" width=\"" << w
    << "\" height=\"" << h << "\" viewBox=\"0 0 " << w << " " << h << "\"><title>" << esc(title) << "</title>";
  auto x0 = [&](int c) { return margin + c * cell; };
  auto y0 = [&](int r) { return margin + (p.rows - 1 - r) * cell; };
  for (int r = 0; r < p.rows; ++r)
    for (int c = 0; c < p.cols; ++c) {
      const size_t sq = size_t(r * p.cols + c);
      const Square& q = p.squares[sq];
      std::string fill = sq < b.fill.size() && !b.fill[sq].empty() ? b.fill[sq]
                         : q.mark == Mark::hole                    ? "#37474f"
                         : q.mark == Mark::attacked                ? "#aebcc3"
                                                                   : ((r + c) % 2 ? "#fffdf6" : "#f3ecda");
      s << "<rect x=\"" << x0(c) << "\" y=\"" << y0(r) << "\" width=\"" << cell << "\" height=\"" << cell << "\" fill=\"" << fill
        << "\" stroke=\"#8d8d8d\" stroke-width=\"0.5\"/>";
      if (sq < b.dashed.size() && b.dashed[sq])
        s << "<rect x=\"" << x0(c) + 2 << "\" y=\"" << y0(r) + 2 << "\" width=\"" << cell - 4 << "\" height=\"" << cell - 4
          << "\" fill=\"none\" stroke=\"#333\" stroke-width=\"1\" stroke-dasharray=\"3,2\"/>";
      if (q.mark == Mark::hole)
        s << "<path d=\"M" << x0(c) + 4 << " " << y0(r) + 4 << "l" << cell - 8 << " " << cell - 8 << "M" << x0(c) + cell - 4 << " "
          << y0(r) + 4 << "l" << -(cell - 8) << " " << cell - 8 << "\" stroke=\"#eceff1\" stroke-width=\"2\"/>";
      const std::string text = sq < b.label.size() ? b.label[sq] : "";
      const double cx = x0(c) + cell / 2.0, cy = y0(r) + cell / 2.0;
      if (q.mark == Mark::piece) {
        s << "<circle cx=\"" << cx << "\" cy=\"" << cy << "\" r=\"" << cell * 0.38 << "\" fill=\""
          << (q.highlight ? "#b71c1c" : "#263238") << "\"/>";
        s << "<text x=\"" << cx << "\" y=\"" << cy + cell * 0.16 << "\" text-anchor=\"middle\" font-size=\"" << cell * (text.size() > 2 ? 0.34 : 0.46)
          << "\" fill=\"#fff\">" << esc(text.empty() ? std::string(1, q.piece) : text) << "</text>";
      } else if (!text.empty()) {
        const bool dark = fill == kValueColours[0] || fill == "#37474f";
        s << "<text x=\"" << cx << "\" y=\"" << cy + cell * 0.17 << "\" text-anchor=\"middle\" font-size=\"" << cell * (text.size() > 2 ? 0.36 : 0.48)
          << "\" fill=\"" << (dark ? "#fff" : "#212121") << "\">" << esc(text) << "</text>";
      }
    }
  for (const auto& [from, to] : b.arrows) {
    const int fr = from / p.cols, fc = from % p.cols, tr = to / p.cols, tc = to % p.cols;
    s << "<line x1=\"" << x0(fc) + cell / 2.0 << "\" y1=\"" << y0(fr) + cell / 2.0 << "\" x2=\"" << x0(tc) + cell / 2.0 << "\" y2=\""
      << y0(tr) + cell / 2.0 << "\" stroke=\"#b71c1c\" stroke-width=\"2\" stroke-dasharray=\"5,3\" opacity=\"0.8\"/>";
  }
  for (int c = 0; c < p.cols; ++c)
    s << "<text x=\"" << x0(c) + cell / 2.0 << "\" y=\"" << h - 5 << "\" text-anchor=\"middle\" font-size=\"11\" fill=\"#555\">"
      << esc(fileName(c)) << "</text>";
  for (int r = 0; r < p.rows; ++r)
    s << "<text x=\"" << margin / 2.0 << "\" y=\"" << y0(r) + cell / 2.0 + 4 << "\" text-anchor=\"middle\" font-size=\"11\" fill=\"#555\">"
      << r + 1 << "</text>";
  s << "</svg>";
  return s.str();
}

}  // namespace qcert::ui::report
