// Mod-2 game: squares, boards, replay of plays, the named constructions and
// the structure facts (docs/mod2-game.md).
#include <algorithm>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

#include "prover/mod2/mod2.hpp"

namespace qcert::mod2 {

const char* ruleName(Rule r) {
  switch (r) {
    case Rule::standard: return "standard";
    case Rule::alternate: return "alternate";
    case Rule::complementary: return "complementary";
  }
  return "?";
}

std::string gameName(Rule r) {
  switch (r) {
    case Rule::standard: return "mod-2 game";
    case Rule::alternate: return "alternate-universe mod-2 game";
    case Rule::complementary: return "complementary mod-2 game";
  }
  return "?";
}

std::vector<int> parseSquareList(int n, const std::string& list) {
  std::vector<int> out;
  if (list.empty()) return out;
  std::stringstream ss(list);
  std::string item;
  while (std::getline(ss, item, ',')) {
    auto sq = parseSquare(n, n, item);
    if (!sq)
      throw std::invalid_argument("'" + item + "' is not a square of the " + std::to_string(n) + "x" + std::to_string(n) +
                                  " board (use a1.." + squareName(n, n * n - 1) + ")");
    out.push_back(*sq);
  }
  if (list.back() == ',') throw std::invalid_argument("the square list '" + list + "' ends with a comma");
  if (out.size() > kMaxMoves) throw std::invalid_argument("more than " + std::to_string(kMaxMoves) + " moves");
  return out;
}

int degFormula(int n, int r, int c) {
  return 2 * (n - 1) + (n - 1 - std::abs(r - c)) + (n - 1 - std::abs(r + c - (n - 1)));
}

int degCount(int n, int s) {
  const int r = s / n, c = s % n;
  int d = 0;
  for (int t = 0; t < n * n; ++t) {
    if (t == s) continue;
    const int r2 = t / n, c2 = t % n;
    if (r == r2 || c == c2 || r - c == r2 - c2 || r + c == r2 + c2) ++d;
  }
  return d;
}

// ---- Board ------------------------------------------------------------------

Board::Board(int n) : n_(n), occ_(size_t(n) * size_t(n), 0), lineCount_(size_t(6 * n - 2), 0) {
  if (n < 1 || n > kMaxPlayBoard) throw std::invalid_argument("board size must be between 1 and 32");
}

int lineId(int n, int s, int k) {
  const int r = s / n, c = s % n;
  switch (k) {
    case 0: return r;
    case 1: return n + c;
    case 2: return 2 * n + (r - c + n - 1);
    default: return 2 * n + (2 * n - 1) + (r + c);
  }
}

int Board::lineOf(int s, int k) const { return lineId(n_, s, k); }

int Board::att(int s) const {
  int a = 0;
  for (int k = 0; k < 4; ++k) a += lineCount_[size_t(lineOf(s, k))];
  return has(s) ? a - 4 : a;
}

void Board::place(int s) {
  occ_[size_t(s)] = 1;
  ++queens_;
  for (int k = 0; k < 4; ++k) ++lineCount_[size_t(lineOf(s, k))];
}

void Board::remove(int s) {
  occ_[size_t(s)] = 0;
  --queens_;
  for (int k = 0; k < 4; ++k) --lineCount_[size_t(lineOf(s, k))];
}

bool Board::anyOpen() const {
  for (int s = 0; s < squares(); ++s)
    if (open(s)) return true;
  return false;
}

static std::string attackedBy(int k) { return "is attacked by " + std::to_string(k) + (k == 1 ? " queen" : " queens"); }

PlayOutcome replayStandard(int n, const std::vector<int>& moves) {
  Board b(n);
  PlayOutcome out;
  for (size_t i = 0; i < moves.size(); ++i) {
    const int s = moves[i];
    if (s < 0 || s >= n * n) throw std::invalid_argument("square " + std::to_string(s) + " is off the board");
    std::string why;
    if (b.has(s)) why = "is occupied";
    else if (b.att(s) % 2) why = attackedBy(b.att(s));
    if (!why.empty()) {
      out.end = End::illegalAt;
      out.failedMove = int(i + 1);
      out.failedSquare = s;
      out.why = why;
      out.queens = b.queens();
      return out;
    }
    b.place(s);
  }
  out.queens = b.queens();
  out.end = b.complete() ? End::complete : b.locked() ? End::locked : End::queens;
  return out;
}

// ---- the named orders ---------------------------------------------------------

namespace {
// Figure 3a as qcert reads it (docs/mod2-game.md): the first eight queens.
constexpr int kFigure3a[8][2] = {{1, 1}, {2, 3}, {1, 2}, {3, 2}, {2, 2}, {1, 3}, {3, 1}, {2, 1}};
// The paper's Steps 1-4 for k (paper coordinates of the current part).
void steps(std::vector<std::pair<int, int>>& v, int k, bool all4) {
  v.push_back({2, 2 * k + 2}), v.push_back({1, 2 * k + 2});  // Step 1
  v.push_back({2 * k + 2, 1}), v.push_back({2 * k + 2, 2});  // Step 2
  if (!all4) return;
  v.push_back({1, 2 * k + 3}), v.push_back({2, 2 * k + 3});  // Step 3
  v.push_back({2 * k + 3, 2}), v.push_back({2 * k + 3, 1});  // Step 4
}
void put(std::vector<int>& out, int n, int o, const std::vector<std::pair<int, int>>& v) {
  for (auto [i, j] : v) out.push_back(paper(n, i + o, j + o));
}
void requireOdd(int n, const char* what) {
  if (n < 1 || n > kMaxPlayBoard || n % 2 == 0)
    throw std::invalid_argument(std::string(what) + " is for odd n (1..31), got n = " + std::to_string(n));
}
}  // namespace

std::vector<int> brownLadhaCompleteOrder(int n) {
  requireOdd(n, "Brown-Ladha Claim 3.1's order");
  std::vector<int> out;
  for (int m = n; m >= 3; m -= 2) {
    const int o = n - m;
    std::vector<std::pair<int, int>> v;
    for (auto& q : kFigure3a) v.push_back({q[0], q[1]});
    for (int k = 1; k <= (m - 3) / 2; ++k) steps(v, k, true);
    put(out, n, o, v);
  }
  out.push_back(paper(n, n, n));
  return out;
}

std::vector<int> brownLadhaLockedOrder(int n) {
  requireOdd(n, "Brown-Ladha Claim 4.1's order");
  std::vector<int> out;
  for (int i = 2; i <= n - 1; i += 2)
    for (auto [r, c] : {std::pair{i, 1}, {1, i + 1}, {i + 1, 1}, {1, i}}) out.push_back(paper(n, r, c));
  out.push_back(paper(n, 1, 1));
  return out;
}

std::vector<int> brownLadhaEvenLockedOrder(int n) {
  if (n < 4 || n > kMaxPlayBoard || n % 2)
    throw std::invalid_argument("Brown-Ladha Claim 4.2 is for even n > 2 (4..32), got n = " + std::to_string(n));
  std::vector<int> out;
  for (int i = 2; i <= n - 2; i += 2)
    for (auto [r, c] : {std::pair{i, 1}, {1, i + 1}, {i + 1, 1}, {1, i}}) out.push_back(paper(n, r, c));
  out.push_back(paper(n, n, n));
  return out;
}

std::vector<int> allButTwoOrder(int n) {
  if (n < 4 || n > kMaxPlayBoard || n % 2)
    throw std::invalid_argument("the all-but-two construction is for even n >= 4 (4..32), got n = " + std::to_string(n) +
                                (n == 2 ? " (on the 2x2 board one queen locks the board: 1 queen is the most, not 2)" : ""));
  std::vector<int> out;
  for (int m = n; m >= 6; m -= 2) {
    std::vector<std::pair<int, int>> v;
    for (auto& q : kFigure3a) v.push_back({q[0], q[1]});
    for (int k = 1; k <= (m - 4) / 2; ++k) steps(v, k, true);
    steps(v, (m - 2) / 2, false);  // 2k + 2 = m: Steps 1 and 2 once more
    put(out, n, n - m, v);
  }
  static const int core[14][2] = {{1, 1}, {2, 3}, {1, 2}, {3, 2}, {1, 4}, {1, 3}, {2, 1},
                                  {2, 2}, {3, 4}, {2, 4}, {4, 2}, {3, 3}, {4, 1}, {4, 3}};
  std::vector<std::pair<int, int>> v;
  for (auto& q : core) v.push_back({q[0], q[1]});
  put(out, n, n - 4, v);
  return out;
}

StructureFacts structureFacts(int n) {
  if (n < 1 || n > kMaxPlayBoard) throw std::invalid_argument("board size must be between 1 and 32");
  StructureFacts f;
  uint64_t sum = 0;
  for (int s = 0; s < n * n; ++s) {
    const int d = degCount(n, s);
    sum += uint64_t(d);
    if (d % 2 == 0) f.everyDegOdd = false;
  }
  f.pairsFull = sum / 2;
  return f;
}

// ---- Small ------------------------------------------------------------------

Small::Small(int n_) : n(n_), sq(n_ * n_) {
  if (n < 1 || n > kMaxSmallBoard) throw std::invalid_argument("board size must be between 1 and 8 here");
  full = sq == 64 ? ~uint64_t{0} : (uint64_t{1} << sq) - 1;
  for (int s = 0; s < sq; ++s) {
    const int r = s / n, c = s % n;
    for (int t = 0; t < sq; ++t) {
      const int r2 = t / n, c2 = t % n;
      if (t != s && (r == r2 || c == c2 || r - c == r2 - c2 || r + c == r2 + c2)) lines[size_t(s)] |= uint64_t{1} << t;
    }
  }
  for (int g = 0; g < 8; ++g)
    for (int b = 0; b < 8; ++b)
      for (int v = 0; v < 256; ++v) {
        uint64_t m = 0;
        for (int k = 0; k < 8; ++k)
          if (v >> k & 1 && 8 * b + k < sq) m |= uint64_t{1} << d4Square(g, n, 8 * b + k);
        symTable_[size_t(g)][size_t(b)][size_t(v)] = m;
      }
}

int Small::line(int s, int k) const { return lineId(n, s, k); }

uint64_t Small::moves(uint64_t P, Rule r) const {
  uint64_t out = 0;
  uint64_t cand = r == Rule::complementary ? P : full & ~P;
  const int want = r == Rule::alternate ? 1 : 0;
  while (cand) {
    const int s = __builtin_ctzll(cand);
    cand &= cand - 1;
    if ((__builtin_popcountll(P & lines[size_t(s)]) & 1) == want) out |= uint64_t{1} << s;
  }
  return out;
}

uint64_t Small::image(int g, uint64_t P) const {
  uint64_t m = 0;
  const auto& t = symTable_[size_t(g)];
  for (int b = 0; P; ++b, P >>= 8) m |= t[size_t(b)][P & 255];
  return m;
}

uint64_t Small::canonical(uint64_t P) const {
  uint64_t best = P;
  for (int g = 1; g < 8; ++g) best = std::min(best, image(g, P));
  return best;
}

bool Small::isLeast(uint64_t P) const {
  for (int g = 1; g < 8; ++g)
    if (image(g, P) < P) return false;
  return true;
}

uint64_t replayStart(const Small& g, Rule r, const std::vector<int>& start) {
  uint64_t P = r == Rule::complementary ? g.full : 0;
  if (r == Rule::alternate && start.empty())
    throw std::invalid_argument("the alternate-universe game starts with one given queen: name it first in --moves");
  for (size_t i = 0; i < start.size(); ++i) {
    const int s = start[i];
    const uint64_t bit = uint64_t{1} << s;
    const std::string head = "move " + std::to_string(i + 1) + ", " + squareName(g.n, s) + ", ";
    if (r == Rule::alternate && i == 0) {
      P |= bit;  // the given queen
      continue;
    }
    if (r == Rule::complementary) {
      if (!(P & bit)) throw std::invalid_argument(head + "is empty (nothing to remove)");
      if (g.att(P, s) % 2) throw std::invalid_argument(head + attackedBy(g.att(P, s)) + " (a removal needs an even number)");
      P &= ~bit;
      continue;
    }
    if (P & bit) throw std::invalid_argument(head + "is occupied");
    const int a = g.att(P, s);
    if (r == Rule::standard && a % 2) throw std::invalid_argument(head + attackedBy(a));
    if (r == Rule::alternate && a % 2 == 0)
      throw std::invalid_argument(head + attackedBy(a) + " (the alternate-universe rule needs an odd number)");
    P |= bit;
  }
  return P;
}

}  // namespace qcert::mod2
