#include "prover/geometry.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>

namespace qcert {

Variant squareVariant(int n) {
  Variant v;
  v.rows = v.cols = n;
  return v;
}

const char* mirrorName(Mirror m) {
  switch (m) {
    case Mirror::none: return "none";
    case Mirror::halfTurn: return "half-turn";
    case Mirror::files: return "files";
    case Mirror::ranks: return "ranks";
    case Mirror::diagonal: return "diagonal";
    default: return "antidiagonal";
  }
}

std::optional<Mirror> parseMirror(const std::string& text) {
  for (Mirror m : {Mirror::none, Mirror::halfTurn, Mirror::files, Mirror::ranks, Mirror::diagonal, Mirror::antiDiagonal})
    if (text == mirrorName(m)) return m;
  return std::nullopt;
}

namespace {

// Sliding pieces attack along lines; on the torus a line wraps, so two
// squares share it when the line's index agrees modulo n.
bool onLine(const Variant& v, int r1, int c1, int r2, int c2, bool straight, bool diagonal) {
  const int n = v.cols;
  auto same = [&](int a, int b) { return v.torus ? ((a - b) % n + n) % n == 0 : a == b; };
  return (straight && (r1 == r2 || c1 == c2)) || (diagonal && (same(r1 + c1, r2 + c2) || same(r1 - c1, r2 - c2)));
}

// Leapers: the displacement, wrapped on the torus, is one of the steps.
bool leaps(const Variant& v, int r1, int c1, int r2, int c2, const std::vector<std::pair<int, int>>& steps) {
  for (auto [dr, dc] : steps) {
    int r = r1 + dr, c = c1 + dc;
    if (v.torus) r = ((r % v.rows) + v.rows) % v.rows, c = ((c % v.cols) + v.cols) % v.cols;
    if (r == r2 && c == c2) return true;
  }
  return false;
}

bool attacks(const Variant& v, int r1, int c1, int r2, int c2) {
  static const std::vector<std::pair<int, int>> king = {{-1, -1}, {-1, 0}, {-1, 1}, {0, -1}, {0, 1}, {1, -1}, {1, 0}, {1, 1}};
  static const std::vector<std::pair<int, int>> knight = {{-2, -1}, {-2, 1}, {-1, -2}, {-1, 2}, {1, -2}, {1, 2}, {2, -1}, {2, 1}};
  switch (v.piece) {
    case Piece::queen: return onLine(v, r1, c1, r2, c2, true, true);
    case Piece::rook: return onLine(v, r1, c1, r2, c2, true, false);
    case Piece::bishop: return onLine(v, r1, c1, r2, c2, false, true);
    case Piece::king: return leaps(v, r1, c1, r2, c2, king);
    default: return leaps(v, r1, c1, r2, c2, knight);
  }
}

// Is the map an automorphism: holes to holes, attacks to attacks?
bool preserves(const Geometry& g, const std::vector<int>& map, const std::vector<std::vector<char>>& adj) {
  for (int s = 0; s < g.squares; ++s)
    if (g.isHole[s] != g.isHole[map[s]]) return false;
  for (int s = 0; s < g.squares; ++s) {
    if (g.isHole[s]) continue;
    for (int t : g.kills[s])
      if (!g.isHole[t] && !adj[map[s]][map[t]]) return false;
  }
  return true;  // a bijection mapping attacks into attacks on a finite graph maps onto them
}

}  // namespace

Geometry variantGeometry(const Variant& v) {
  if (v.rows < 1 || v.cols < 1 || v.rows > kMaxBoard || v.cols > kMaxBoard)
    throw std::invalid_argument("board sides must be between 1 and " + std::to_string(kMaxBoard));
  if (v.torus && v.rows != v.cols) throw std::invalid_argument("the torus must be square");
  Geometry g;
  g.ruleset = "queens";
  g.variant = v;
  g.n = v.cols;
  g.rows = v.rows;
  g.squares = v.rows * v.cols;
  g.isHole.assign(g.squares, 0);
  for (size_t i = 0; i < v.holes.size(); ++i) {
    if (v.holes[i] < 0 || v.holes[i] >= g.squares) throw std::invalid_argument("hole square out of range");
    if (i && v.holes[i] <= v.holes[i - 1]) throw std::invalid_argument("holes must be distinct and increasing");
    g.isHole[v.holes[i]] = 1;
  }
  g.kills.resize(g.squares);
  std::vector<std::vector<char>> adj(g.squares, std::vector<char>(g.squares, 0));
  for (int s = 0; s < g.squares; ++s)
    for (int t = 0; t < g.squares; ++t)
      if (s == t || attacks(v, s / g.n, s % g.n, t / g.n, t % g.n)) {
        g.kills[s].push_back(t);
        adj[s][t] = 1;
      }

  // Candidates: a map about the centre (g = 0..7, the transposing ones only
  // on a square board), then on the torus a shift.
  const int R = v.rows, C = v.cols;
  std::vector<int> identity(g.squares);
  for (int s = 0; s < g.squares; ++s) identity[s] = s;
  g.group.push_back(identity);
  g.symOf.assign(g.squares, {});
  for (int s = 0; s < g.squares; ++s) g.symOf[s].fill(s);
  const int shifts = v.torus ? g.squares : 1;
  std::set<std::vector<int>> seen = {identity};  // tiny boards and the torus repeat maps
  for (int k = 0; k < kSymmetries; ++k) {
    if (R != C && (k == 1 || k == 3 || k == 6 || k == 7)) continue;
    for (int shift = 0; shift < shifts; ++shift) {
      if (k == 0 && shift == 0) continue;  // the identity, already first
      std::vector<int> map(g.squares);
      for (int s = 0; s < g.squares; ++s) {
        auto [r, c] = d4Image(k, R, C, s / C, s % C);
        r = (r + shift / C) % R, c = (c + shift % C) % C;
        map[s] = r * C + c;
      }
      if (!preserves(g, map, adj)) continue;
      if (shift == 0)
        for (int s = 0; s < g.squares; ++s) g.symOf[s][k] = map[s];
      if (!seen.insert(map).second) continue;
      g.group.push_back(map);
    }
  }
  for (const auto& map : g.group) {
    bool found = false;
    for (int k = 0; k < kSymmetries && !found; ++k) {
      found = true;
      for (int s = 0; s < g.squares && found; ++s) found = g.symOf[s][k] == map[s];
    }
    g.groupInSlots &= found;
  }
  return g;
}

Geometry queensGeometry(int n) {
  if (n < 1 || n > kMaxBoard)
    throw std::invalid_argument("board size must be between 1 and " + std::to_string(kMaxBoard));
  return variantGeometry(squareVariant(n));
}

// Slot 2 is the half turn on boards that have one; a board without it keeps
// the identity there, and then no square passes the mirror lemma's test.
int Geometry::mirror180(int s) const { return symOf[s][2]; }

int Geometry::mirrorImage(Mirror m, int s) const {
  // The maps as symmetries of the square (board.hpp): the half turn is 2,
  // the mirrors in the files and ranks 4 and 5, in the diagonals 6 and 7.
  static constexpr int kSymmetryOf[] = {-1, 2, 4, 5, 6, 7};  // by Mirror
  const int g = kSymmetryOf[int(m)];
  if (g < 0 || (g >= 6 && rows != n)) return -1;  // none, or a transposition of a rectangle
  const auto [r, c] = d4Image(g, rows, n, s / n, s % n);
  return r * n + c;
}

std::string boardWords(const Variant& v) {
  std::string size = std::to_string(v.rows) + "x" + std::to_string(v.cols);
  std::string s = "the " + size + (v.torus ? " torus" : " board");
  if (v.rows != v.cols) s += " (" + std::to_string(v.rows) + " rows, " + std::to_string(v.cols) + " columns)";
  if (!v.holes.empty()) {
    s += v.holes.size() == 1 ? " with a hole at " : " with holes at ";
    for (size_t i = 0; i < v.holes.size(); ++i) {
      const int sq = v.holes[i];
      s += (i ? "," : "") + squareName(v.cols, sq);
    }
  }
  return s;
}

std::vector<int> parseSquareList(const Geometry& geo, const std::string& list) { return parseSquareList(geo.variant, list); }

std::vector<int> parseSquareList(const Variant& v, const std::string& list) {
  std::vector<int> out;
  if (list.empty()) return out;
  size_t start = 0;
  for (;;) {
    const size_t comma = list.find(',', start);
    const std::string item = list.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (item.empty()) throw std::invalid_argument("the square list '" + list + "' has an empty item (a doubled or trailing comma)");
    const auto sq = parseSquare(v.rows, v.cols, item);
    if (!sq)
      throw std::invalid_argument("'" + item + "' is not a square of " + boardWords(v) + " (use a1.." +
                                  squareName(v.cols, v.rows * v.cols - 1) + ")");
    out.push_back(*sq);
    if (comma == std::string::npos) return out;
    start = comma + 1;
  }
}

std::string Geometry::squareName(int s) const { return qcert::squareName(n, s); }

std::string Geometry::squarePaper(int s) const {
  return "(" + std::to_string(s / n) + "," + std::to_string(s % n) + ")";
}

std::optional<int> Geometry::parseSquare(const std::string& text) const { return qcert::parseSquare(rows, n, text); }

}  // namespace qcert
