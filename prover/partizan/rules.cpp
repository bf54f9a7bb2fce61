// Partizan game rules (docs/partizan-game.md, "The rules"): attack masks of
// the five pieces (the shared geometry's), the blocking rule's rays, and the
// 8 symmetries of the square as maps of square sets.
#include <sstream>

#include "prover/geometry.hpp"
#include "prover/partizan/partizan.hpp"

namespace qcert::partizan {

namespace {
// Directions (dr, dc): rook lines 0..3, bishop lines 4..7.
constexpr int kDir[8][2] = {{0, 1}, {0, -1}, {1, 0}, {-1, 0}, {1, 1}, {-1, -1}, {1, -1}, {-1, 1}};
}  // namespace

const char* ruleName(Rule r) { return r == Rule::open ? "open" : "blocking"; }
const char* playerName(Player p) { return p == Player::left ? "Left" : "Right"; }

std::optional<Rule> parseRule(const std::string& t) {
  if (t == "open") return Rule::open;
  if (t == "blocking") return Rule::blocking;
  return std::nullopt;
}

// Square lists as the queens game reads them (prover/geometry.hpp).
std::vector<int> parseSquareList(int n, const std::string& list) { return qcert::parseSquareList(squareVariant(n), list); }

uint64_t maskOf(const std::vector<int>& squares) {
  uint64_t m = 0;
  for (int s : squares) m |= uint64_t{1} << s;
  return m;
}

std::vector<int> squaresOf(uint64_t mask) {
  std::vector<int> v;
  for (; mask; mask &= mask - 1) v.push_back(__builtin_ctzll(mask));
  return v;
}

Rules::Rules(int n, Piece piece, Rule rule) : n_(n), sq_(n * n), piece_(piece), rule_(rule) {
  if (n < 1 || n > kMaxBoard) throw std::invalid_argument("the board size must be between 1 and 8, got " + std::to_string(n));
  full_ = sq_ == 64 ? ~uint64_t{0} : (uint64_t{1} << sq_) - 1;
  const bool rookLines = piece == Piece::queen || piece == Piece::rook;
  const bool bishopLines = piece == Piece::queen || piece == Piece::bishop;
  for (int d = 0; d < 8; ++d) {
    rayUp_[size_t(d)] = kDir[d][0] > 0 || (kDir[d][0] == 0 && kDir[d][1] > 0);
    rayUsed_[size_t(d)] = d < 4 ? rookLines : bishopLines;
  }
  // The open attacks: the piece's kill sets on the plain n x n board.
  Variant board = squareVariant(n);
  board.piece = piece;
  const Geometry geo = variantGeometry(board);
  for (int s = 0; s < sq_; ++s)
    for (int t : geo.kills[size_t(s)])
      if (t != s) lines_[size_t(s)] |= uint64_t{1} << t;
  for (int s = 0; s < sq_; ++s) {
    const int r = s / n, c = s % n;
    for (int d = 0; d < 8; ++d) {
      uint64_t ray = 0;
      for (int rr = r + kDir[d][0], cc = c + kDir[d][1]; rr >= 0 && rr < n && cc >= 0 && cc < n; rr += kDir[d][0], cc += kDir[d][1])
        ray |= uint64_t{1} << (rr * n + cc);
      rays_[size_t(s)][size_t(d)] = ray;
    }
  }
  for (int g = 0; g < 8; ++g)
    for (int byte = 0; byte < 8; ++byte)
      for (int v = 0; v < 256; ++v) {
        uint64_t img = 0;
        for (int b = 0; b < 8; ++b) {
          const int s = byte * 8 + b;
          if (v >> b & 1 && s < sq_) img |= uint64_t{1} << imageSquare(g, s);
        }
        symTable_[size_t(g)][size_t(byte)][size_t(v)] = img;
      }
}

int Rules::imageSquare(int g, int s) const { return d4Square(g, n_, s); }

uint64_t Rules::image(int g, uint64_t set) const {
  uint64_t img = 0;
  for (int byte = 0; set; ++byte, set >>= 8) img |= symTable_[size_t(g)][size_t(byte)][set & 0xff];
  return img;
}

uint64_t Rules::attacks(int s, uint64_t occupied) const {
  const bool sliding = piece_ == Piece::queen || piece_ == Piece::rook || piece_ == Piece::bishop;
  if (rule_ == Rule::open || !sliding) return lines_[size_t(s)];
  uint64_t att = 0;
  for (int d = 0; d < 8; ++d) {
    if (!rayUsed_[size_t(d)]) continue;
    const uint64_t ray = rays_[size_t(s)][size_t(d)];
    const uint64_t blockers = ray & occupied;
    if (!blockers) {
      att |= ray;
      continue;
    }
    // The first piece on the ray: nearest to s, the lowest square going up,
    // the highest going down. It is attacked; what lies beyond it is not.
    const int b = rayUp_[size_t(d)] ? __builtin_ctzll(blockers) : 63 - __builtin_clzll(blockers);
    att |= ray & ~rays_[size_t(b)][size_t(d)];
  }
  return att;
}

uint64_t Rules::attackedBy(uint64_t pieces, uint64_t occupied) const {
  uint64_t att = 0;
  for (; pieces; pieces &= pieces - 1) att |= attacks(__builtin_ctzll(pieces), occupied);
  return att;
}

bool Rules::legal(uint64_t left, uint64_t right) const {
  if (left & right) return false;
  const uint64_t occ = left | right;
  return !(attackedBy(right, occ) & left) && !(attackedBy(left, occ) & right);
}

const char* mirrorName(int map) {
  static const char* const kNames[] = {"", "half turn", "mirror in the files", "mirror in the ranks", "mirror in the diagonal",
                                       "mirror in the antidiagonal"};
  return map >= 1 && map <= 5 ? kNames[map] : "";
}

MirrorLemma findMirrorLemma(const Rules& rules) {
  const int n = rules.n(), m = n - 1;
  for (int map = 1; map <= 5; ++map) {
    std::vector<int> image(size_t(n * n));
    int fixedCount = 0, fixedSquare = -1;
    for (int s = 0; s < n * n; ++s) {
      const int r = s / n, c = s % n;
      const int to[6][2] = {{r, c}, {m - r, m - c}, {r, m - c}, {m - r, c}, {c, r}, {m - c, m - r}};
      image[size_t(s)] = to[map][0] * n + to[map][1];
      if (image[size_t(s)] == s) ++fixedCount, fixedSquare = s;
    }
    if (fixedCount > 1) continue;
    bool holds = true;
    for (int s = 0; s < n * n && holds; ++s) {
      const bool hit = rules.attacks(image[size_t(s)], 0) >> s & 1;
      holds = !hit || (fixedCount == 1 && (rules.attacks(fixedSquare, 0) >> s & 1));
    }
    if (holds) return {map, fixedCount == 1, fixedSquare};
  }
  return {};
}

}  // namespace qcert::partizan
