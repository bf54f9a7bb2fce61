// Exhaustive claims (docs/mod2-game.md, "exhaustive"): the checker's own
// searches over the legal positions of small boards; nothing in the
// certificate but the claim.
#include "checker/mod2/rules.hpp"

#include "checker/limits.hpp"

#include <algorithm>
#include <ostream>
#include <unordered_set>

namespace qcert::checker::mod2 {
namespace {

std::string list(const std::vector<uint64_t>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s;
}
uint64_t sum(const std::vector<uint64_t>& v) {
  uint64_t t = 0;
  for (uint64_t x : v) t += x;  // at most 2^25 sets: no overflow
  return t;
}

// The 8 symmetries of the square as permutations of the squares.
std::vector<std::vector<unsigned>> symmetries(unsigned n) {
  std::vector<std::vector<unsigned>> g(8, std::vector<unsigned>(n * n));
  for (unsigned r = 0; r < n; ++r)
    for (unsigned c = 0; c < n; ++c) {
      const unsigned s = r * n + c, m = n - 1;
      const unsigned to[8][2] = {{r, c}, {c, m - r}, {m - r, m - c}, {m - c, r}, {r, m - c}, {m - r, c}, {c, r}, {m - c, m - r}};
      for (unsigned k = 0; k < 8; ++k) g[k][s] = to[k][0] * n + to[k][1];
    }
  return g;
}

// legal[P] for every set P of squares (n <= 5), in one pass in increasing
// order of masks: the empty set is legal, and a legal P makes P + s legal
// for every open s.  P + s > P, so each set is final before it is read.
std::vector<bool> legalSets(const Small& b, Rule rule = Rule::standard, uint64_t start = 0) {
  const uint64_t sets = uint64_t(1) << b.squares;
  limits::reserve(sets / 8 + (1 << 20), "the bitmap of legal positions");
  std::vector<bool> legal(sets, false);
  legal[start] = true;
  for (uint64_t p = start; p < sets; ++p) {
    if ((p & 0xffff) == 0) limits::checkTime();
    if (!legal[p]) continue;
    for (uint64_t m = b.moves(rule, p); m; m &= m - 1) legal[b.after(rule, p, unsigned(std::countr_zero(m)))] = true;
  }
  return legal;
}

// The same for removals from `start` (the complementary rule): P - s < P, so
// the pass goes in decreasing order.
std::vector<bool> removalSets(const Small& b, uint64_t start) {
  std::vector<bool> reached(uint64_t(1) << b.squares, false);
  reached[start] = true;
  for (uint64_t p = start + 1; p-- > 0;) {
    if ((p & 0xffff) == 0) limits::checkTime();
    if (!reached[p]) continue;
    for (uint64_t m = b.moves(Rule::complementary, p); m; m &= m - 1) reached[p & ~(m & -m)] = true;
  }
  return reached;
}

// `other` (standard from the empty board, or alternate from {g}) reaches
// exactly the complements of what the complementary game reaches from
// F \ start, and a move P -> P+s is legal exactly when F\P -> F\P-s is.
void checkComplement(const Small& b, Rule other, uint64_t start, const std::string& where) {
  const std::vector<bool> placed = legalSets(b, other, start), removed = removalSets(b, b.full & ~start);
  for (uint64_t p = 0; p <= b.full; ++p) {
    const uint64_t q = b.full & ~p;
    if (placed[p] != removed[q])
      throw Rejection(where + ": the set " + std::to_string(p) + " is " + (placed[p] ? "" : "not ") + "reachable but its complement " +
                      (removed[q] ? "is" : "is not"));
    if (placed[p] && b.moves(other, p) != b.moves(Rule::complementary, q))
      throw Rejection(where + ": at the set " + std::to_string(p) + " the moves " + std::to_string(b.moves(other, p)) +
                      " and its complement's removals " + std::to_string(b.moves(Rule::complementary, q)) + " differ");
  }
}

// A set P of queens is legal iff it is empty or some queen q of P is
// attacked by an even number of the others and P - q is legal (q was the
// last move).  Only asked of locked sets of the smallest size not yet ruled
// out; `refuted` remembers subsets already refuted (up to 2^k of them for k
// queens, hence a hash set and the clock).
bool legalSet(const Small& b, uint64_t p, std::unordered_set<uint64_t>& refuted) {
  if (p == 0) return true;
  if (refuted.count(p)) return false;
  limits::checkTime();
  for (uint64_t x = p; x; x &= x - 1) {
    const unsigned q = unsigned(std::countr_zero(x));
    if (b.att(p & ~(uint64_t(1) << q), q) % 2 == 0 && legalSet(b, p & ~(uint64_t(1) << q), refuted)) return true;
  }
  refuted.insert(p);
  return false;
}

// Every set of exactly `size` queens on squares >= from added to p (k queens
// so far); parity holds att(p, s) mod 2 for every square, one XOR of a
// queen's lines per step.  A set is locked when every empty square is
// attacked an odd number of times (and it is not full); a legal one refutes
// the claim.
void walkSets(const Small& b, unsigned size, unsigned from, unsigned k, uint64_t p, uint64_t parity, uint64_t& steps) {
  if (k == size) {
    if (((p | parity) & b.full) != b.full || p == b.full) return;
    std::unordered_set<uint64_t> refuted;
    if (legalSet(b, p, refuted))
      throw Rejection("a legal position with " + queensText(k) + " is locked: " + squareList(b.n, [&] {
                        std::vector<unsigned> v;
                        for (uint64_t x = p; x; x &= x - 1) v.push_back(unsigned(std::countr_zero(x)));
                        return v;
                      }()));
    return;
  }
  for (unsigned s = from; s + (size - k) <= b.squares; ++s) {
    if ((++steps & 0xffffff) == 0) limits::checkTime();
    walkSets(b, size, s + 1, k + 1, p | uint64_t(1) << s, parity ^ b.lines[s], steps);
  }
}

// How fast the walk below goes on one core: 6.7e8 sets in 3.9 s of user time
// on 7x7 with count 9.
constexpr double kWalkedSetsPerSecond = 1.7e8;

// The sets the walk below visits for `count`, an upper bound: for each size
// j < count, every set of at most j queens.
double walkedSets(unsigned squares, uint64_t count) {
  double total = 0, atMost = 1, c = 1;
  for (uint64_t j = 1; j < count; ++j) c = c * double(squares - j + 1) / double(j), atMost += c, total += atMost;
  return total;
}

// The fewest queens of a legal locked position is `count`: the witness
// `moves` is a legal play that locks the board with `count` queens, and no
// set of fewer queens is both locked and legal.  Every set is walked, legal
// or not, because testing "locked" costs one XOR per queen and locked sets
// are rare; only they are tested for legality.  The sizes go up from 1, so a
// false count (the claim is the certificate's word) is refuted at the true
// one, by the smallest counterexample, and the legality test, exponential in
// the queens, never sees a set larger than that.
void checkFewestLocking(const Small& b, uint64_t count, capnp::List<uint16_t>::Reader witness) {
  if (count == 0) throw Rejection("the empty board is not locked");
  if (witness.size() != count) throw Rejection("fewestLocking: the witness play must have exactly count moves");
  uint64_t p = 0;
  for (unsigned i = 0; i < witness.size(); ++i) {
    const unsigned s = witness[i];
    if (s >= b.squares) throw Rejection("fewestLocking: witness move " + std::to_string(i + 1) + " is off the board");
    if (!b.legal(Rule::standard, p, s))
      throw Rejection("fewestLocking: witness move " + std::to_string(i + 1) + ", " + square(b.n, s) +
                      (p >> s & 1 ? ", is occupied" : ", is attacked by " + queensText(b.att(p, s))));
    p |= uint64_t(1) << s;
  }
  if (p == b.full || b.moves(Rule::standard, p) != 0) throw Rejection("fewestLocking: the witness play does not lock the board");
  limits::refuseLongerThanCeiling(walkedSets(b.squares, count) / kWalkedSetsPerSecond,
                                  "walking every set of at most " + queensText(count - 1) + " on " + boardText(b.n));
  uint64_t steps = 0;
  limits::checkTime();
  for (unsigned size = 1; size < count; ++size) walkSets(b, size, 0, 0, 0, 0, steps);
}

}  // namespace

std::string verifyExhaustive(Mod2Claim::Reader claim, unsigned n, std::ostream* announce) {
  const Small b(n);
  const std::string board = boardText(n), game = "the mod-2 game on " + board;
  const auto what = claim.getExhaustive();
  const uint64_t count = claim.getCount();
  if ((what == Mod2Exhaustive::MOST_QUEENS || what == Mod2Exhaustive::FEWEST_LOCKING) && count > b.squares)
    throw Rejection("count " + std::to_string(count) + " exceeds the " + std::to_string(b.squares) + " squares");

  if (what == Mod2Exhaustive::FEWEST_LOCKING) {
    if (announce)
      *announce << "  mod-2 fewestLocking: the witness play, then every set of " << board << " with at most " << count - 1
                << " queens, by size (at most " << walkedSets(b.squares, count) << " sets visited)" << std::endl;
    checkFewestLocking(b, count, claim.getMoves());
    return "the fewest queens in a legal locked position of " + game + " is " + std::to_string(count);
  }

  if (what == Mod2Exhaustive::COMPLEMENT_MAP) {
    const Rule other = Rule(unsigned(claim.getOtherRule()));
    if (claim.getRule() != Mod2Rule::COMPLEMENTARY || (n % 2 ? other != Rule::standard : other != Rule::alternate))
      throw Rejection("complementMap: rule must be complementary and otherRule standard for odd n, alternate for even n");
    if (announce)
      *announce << "  mod-2 complementMap: every set of " << board << " (2^" << b.squares << "), "
                << (n % 2 ? "once" : "once per starting square") << std::endl;
    if (n % 2) {
      checkComplement(b, Rule::standard, 0, "from the empty board");
      return "the complement map is an isomorphism between the standard and the complementary mod-2 games on " + board;
    }
    for (unsigned g = 0; g < b.squares; ++g) checkComplement(b, Rule::alternate, uint64_t(1) << g, "started on " + square(n, g));
    return "the complement map is an isomorphism between the alternate-universe mod-2 game started with a queen on g and the "
           "complementary mod-2 game started from the full board less g, for every square g of " + board;
  }

  // legalCount, mostQueens and playCount: the one pass over all 2^(n^2) sets.
  const bool plays = what == Mod2Exhaustive::PLAY_COUNT;
  const auto statedTotals = claim.getTotals(), statedClasses = claim.getClasses();
  const size_t length = what == Mod2Exhaustive::LEGAL_COUNT ? b.squares + 1 : plays ? 1 : 0;
  if (statedTotals.size() != length || statedClasses.size() != (plays ? 0 : length))
    throw Rejection("totals and classes must have " + std::to_string(length) + " and " + std::to_string(plays ? 0 : length) + " entries");
  if (announce)
    *announce << "  mod-2 exhaustive: one pass over the 2^" << b.squares << " sets of " << board << " ("
              << ((uint64_t(1) << b.squares) / 8 >> 10) << " KiB bitmap)" << std::endl;
  const std::vector<bool> legal = legalSets(b);

  if (plays) {
    // plays(P) = 1 when P has no move, else the sum over P's moves of
    // plays(P + s): larger masks first.  Only legal sets are read.
    limits::reserve((uint64_t(1) << b.squares) * 8, "the play counts");
    std::vector<uint64_t> count(uint64_t(1) << b.squares, 0);
    for (uint64_t p = b.full + 1; p-- > 0;) {
      if (!legal[p]) continue;
      const uint64_t open = b.moves(Rule::standard, p);
      uint64_t total = open ? 0 : 1;
      for (uint64_t m = open; m; m &= m - 1)
        if (__builtin_add_overflow(total, count[p | (m & -m)], &total)) throw Rejection("the number of plays exceeds 2^64");
      count[p] = total;
    }
    if (statedTotals[0] != count[0])
      throw Rejection("the claim says " + std::to_string(statedTotals[0]) + " plays, the checker counts " + std::to_string(count[0]));
    return game + " has " + std::to_string(count[0]) + (count[0] == 1 ? " distinct play" : " distinct plays") +
           " from the empty board to a position with no move";
  }

  std::vector<uint64_t> totals(b.squares + 1, 0), classes(b.squares + 1, 0);
  const auto g = symmetries(n);
  for (uint64_t p = 0; p <= b.full; ++p) {
    if ((p & 0xffff) == 0) limits::checkTime();
    if (!legal[p]) continue;
    const unsigned k = unsigned(std::popcount(p));
    ++totals[k];
    bool least = true;  // p is its class's representative: no image is smaller
    for (unsigned t = 1; t < 8 && least; ++t) {
      uint64_t image = 0;
      for (uint64_t x = p; x; x &= x - 1) image |= uint64_t(1) << g[t][std::countr_zero(x)];
      least = image >= p;
    }
    classes[k] += least;
  }
  if (what == Mod2Exhaustive::MOST_QUEENS) {
    uint64_t most = b.squares;
    while (totals[most] == 0) --most;  // totals[0] = 1: the empty board
    if (most != count) throw Rejection("the most queens in a legal position is " + std::to_string(most) + ", the claim says " + std::to_string(count));
    return "the most queens in a legal position of " + game + " is " + std::to_string(most);
  }
  for (size_t k = 0; k < length; ++k) {
    if (statedTotals[k] != totals[k])
      throw Rejection("totals[" + std::to_string(k) + "] is " + std::to_string(statedTotals[k]) + ", the checker counts " + std::to_string(totals[k]));
    if (statedClasses[k] != classes[k])
      throw Rejection("classes[" + std::to_string(k) + "] is " + std::to_string(statedClasses[k]) + ", the checker counts " + std::to_string(classes[k]));
  }
  return game + " has " + std::to_string(sum(totals)) + " legal positions (" + std::to_string(sum(classes)) +
         " up to symmetry); by number of queens 0.." + std::to_string(b.squares) + ": " + list(totals) + "; up to symmetry: " + list(classes);
}

}  // namespace qcert::checker::mod2
