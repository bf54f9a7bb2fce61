// Game claims (docs/mod2-game.md, "game"): the outcome or Grundy value of a
// position of one of the three rules plus a Nim heap, n <= 8.  Depth-first
// search: where the claim's winner moves, the certificate's reply is looked
// up and played; where the loser moves, the checker generates every move.
#include "checker/mod2/rules.hpp"

#include "checker/limits.hpp"

#include <algorithm>
#include <ostream>
#include <unordered_set>

namespace qcert::checker::mod2 {
namespace {

constexpr size_t kMaxMoves = 1024;
constexpr size_t kMaxReplies = size_t(1) << 22;
constexpr uint32_t kMaxHeap = 64;

struct Reply {
  uint64_t queens;
  uint32_t heap, move;
};

struct Position {
  uint64_t queens;
  uint32_t heap;
  bool operator==(const Position& o) const { return queens == o.queens && heap == o.heap; }
};
struct PositionHash {
  size_t operator()(const Position& p) const {
    uint64_t x = p.queens * 0x9E3779B97F4A7C15ull ^ p.heap;
    return size_t(x ^ x >> 29);
  }
};

struct Search {
  const Small& b;
  Rule rule;
  std::vector<Reply> replies;  // sorted strictly by (queens, heap)
  std::unordered_set<Position, PositionHash> won, lost;  // proved so far

  std::string where(const Position& p) const {
    std::vector<unsigned> squares;
    for (uint64_t x = p.queens; x; x &= x - 1) squares.push_back(unsigned(std::countr_zero(x)));
    return "at the position with queens {" + squareList(b.n, squares) + "} and heap " + std::to_string(p.heap);
  }
  void remember(std::unordered_set<Position, PositionHash>& set, const Position& p) {
    // About 64 bytes a node: ask before every 2^16 more.
    if ((won.size() + lost.size()) % (1 << 16) == 0) limits::reserve(uint64_t(64) << 16, "the game search's memo");
    set.insert(p);
  }

  // The player to move at p wins: the certificate's reply leads to a loss.
  void proveWon(const Position& p) {
    limits::checkTime();
    if (won.count(p)) return;
    const auto it = std::lower_bound(replies.begin(), replies.end(), p, [](const Reply& r, const Position& q) {
      return r.queens != q.queens ? r.queens < q.queens : r.heap < q.heap;
    });
    if (it == replies.end() || it->queens != p.queens || it->heap != p.heap) throw Rejection("no reply " + where(p));
    const uint64_t m = it->move;
    Position next = p;
    if (m >= 1 && m <= b.squares) {
      const unsigned s = unsigned(m - 1);
      if (!b.legal(rule, p.queens, s)) throw Rejection("the reply " + square(b.n, s) + " is not a legal move " + where(p));
      next.queens = b.after(rule, p.queens, s);
    } else if (m > b.squares && m - b.squares - 1 < p.heap) {
      next.heap = uint32_t(m - b.squares - 1);
    } else {
      throw Rejection("the reply " + std::to_string(m) + " is neither a square nor a smaller heap " + where(p));
    }
    proveLost(next);
    remember(won, p);
  }

  // The player to move at p loses: every move leads to a win.
  void proveLost(const Position& p) {
    limits::checkTime();
    if (lost.count(p)) return;
    for (uint64_t m = b.moves(rule, p.queens); m; m &= m - 1) proveWon({b.after(rule, p.queens, unsigned(std::countr_zero(m))), p.heap});
    for (uint32_t h = 0; h < p.heap; ++h) proveWon({p.queens, h});
    remember(lost, p);
  }
};

}  // namespace

std::string verifyGame(Mod2Claim::Reader claim, unsigned n, Rule rule, std::ostream* announce) {
  const Small b(n);
  const auto start = claim.getStart();
  const auto list = claim.getReplies();
  const uint32_t heap = claim.getHeap();
  const auto outcome = claim.getOutcome();
  if (start.size() > kMaxMoves) throw Rejection(std::to_string(start.size()) + " start moves: more than 1024");
  if (list.size() > kMaxReplies) throw Rejection(std::to_string(list.size()) + " replies: more than 2^22");
  if (heap > kMaxHeap) throw Rejection("heap " + std::to_string(heap) + " exceeds 64");
  if (outcome != Outcome::WIN && outcome != Outcome::LOSS) throw Rejection("unknown outcome " + std::to_string(unsigned(outcome)));
  if (claim.getGrundy() && outcome != Outcome::LOSS) throw Rejection("a Grundy claim has outcome loss");

  // The root: the rule's start, then `start` replayed (for alternate,
  // start[0] is the given queen, placed freely).
  std::vector<unsigned> moves;
  for (unsigned i = 0; i < start.size(); ++i) {
    if (start[i] >= b.squares) throw Rejection("start move " + std::to_string(i + 1) + " is square " + std::to_string(start[i]) + ", off the board");
    moves.push_back(start[i]);
  }
  uint64_t queens = rule == Rule::complementary ? b.full : 0;
  size_t first = 0;
  if (rule == Rule::alternate) {
    if (moves.empty()) throw Rejection("the alternate-universe game starts with a given queen: start must not be empty");
    queens = uint64_t(1) << moves[0], first = 1;
  }
  for (size_t i = first; i < moves.size(); ++i) {
    const unsigned s = moves[i];
    if (!b.legal(rule, queens, s)) {
      const bool occupied = queens >> s & 1;
      const std::string why = occupied != (rule == Rule::complementary) ? (occupied ? "is occupied" : "holds no queen")
                                                                         : "is attacked by " + queensText(b.att(queens, s));
      throw Rejection("start move " + std::to_string(i + 1) + ", " + square(n, s) + ", " + why + ": not a move of the " + gameName(rule));
    }
    queens = b.after(rule, queens, moves[i]);
  }

  // The replies, checked sorted before the binary search relies on it.
  limits::reserve(uint64_t(list.size()) * sizeof(Reply), "the replies");
  Search search{b, rule, {}, {}, {}};
  search.replies.reserve(list.size());
  for (unsigned i = 0; i < list.size(); ++i) {
    const Reply r{list[i].getQueens(), list[i].getHeap(), list[i].getMove()};
    if (i > 0) {
      const Reply& q = search.replies.back();
      if (r.queens < q.queens || (r.queens == q.queens && r.heap <= q.heap))
        throw Rejection("replies " + std::to_string(i - 1) + " and " + std::to_string(i) + " are not in strictly increasing (queens, heap) order");
    }
    search.replies.push_back(r);
  }

  // The statement, then the proof.
  std::string position = gameName(rule) + " on " + boardText(n);
  if (rule == Rule::alternate) position += " started with a queen on " + square(n, moves[0]);
  if (moves.size() > first) {
    position += rule == Rule::complementary ? " after removing " : " after ";
    position += squareList(n, std::vector<unsigned>(moves.begin() + long(first), moves.end()));
  }
  if (announce)
    *announce << "  mod-2 game: " << position << (heap ? " plus a Nim heap of " + std::to_string(heap) : "") << "; " << list.size()
              << " replies; every move of the loser is tried (at most about 64 bytes a position)" << std::endl;
  const bool win = outcome == Outcome::WIN;
  if (win) search.proveWon({queens, heap});
  else search.proveLost({queens, heap});
  if (claim.getGrundy()) return "the Grundy value of the " + position + " is " + std::to_string(heap);
  return std::string("the player to move ") + (win ? "wins" : "loses") + " the " + position + (heap ? " plus a Nim heap of " + std::to_string(heap) : "");
}

}  // namespace qcert::checker::mod2
