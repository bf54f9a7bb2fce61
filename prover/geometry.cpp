#include "geometry.hpp"

#include <cctype>
#include <stdexcept>

namespace qcert {

std::pair<int, int> d4Image(int g, int n, int r, int c) {
  const int m = n - 1;
  switch (g) {
    case 0: return {r, c};
    case 1: return {c, m - r};
    case 2: return {m - r, m - c};
    case 3: return {m - c, r};
    case 4: return {r, m - c};
    case 5: return {m - r, c};
    case 6: return {c, r};
    default: return {m - c, m - r};
  }
}

Geometry queensGeometry(int n) {
  if (n < 1 || n > kMaxBoard)
    throw std::invalid_argument("board size must be between 1 and " + std::to_string(kMaxBoard));
  Geometry g;
  g.ruleset = "queens";
  g.n = n;
  g.squares = n * n;
  g.kills.resize(g.squares);
  g.symOf.resize(g.squares);
  for (int s = 0; s < g.squares; ++s) {
    const int r = s / n, c = s % n;
    for (int t = 0; t < g.squares; ++t) {
      const int r2 = t / n, c2 = t % n;
      if (r == r2 || c == c2 || r + c == r2 + c2 || r - c == r2 - c2) g.kills[s].push_back(t);
    }
    for (int k = 0; k < kSymmetries; ++k) {
      auto [ri, ci] = d4Image(k, n, r, c);
      g.symOf[s][k] = ri * n + ci;
    }
  }
  return g;
}

// Slot 2 is the half turn on boards that have one; a board without it keeps
// the identity there, and then no square passes the mirror lemma's test.
int Geometry::mirror180(int s) const { return symOf[s][2]; }

std::string Geometry::squareName(int s) const {
  return std::string(1, char('a' + s % n)) + std::to_string(s / n + 1);
}

std::string Geometry::squarePaper(int s) const {
  return "(" + std::to_string(s / n) + "," + std::to_string(s % n) + ")";
}

std::optional<int> Geometry::parseSquare(const std::string& text) const {
  if (text.size() < 2 || text.size() > 3) return std::nullopt;
  const char f = char(std::tolower(static_cast<unsigned char>(text[0])));
  if (f < 'a' || f >= 'a' + n) return std::nullopt;
  int rank = 0;
  for (size_t i = 1; i < text.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(text[i]))) return std::nullopt;
    rank = rank * 10 + (text[i] - '0');
  }
  if (text[1] == '0' || rank < 1 || rank > n) return std::nullopt;
  return (rank - 1) * n + (f - 'a');
}

}  // namespace qcert
