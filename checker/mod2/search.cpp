// Exhaustive claims (docs/mod2-game.md, "exhaustive"): the checker's own
// searches over the legal positions of small boards; nothing in the
// certificate but the claim.
#include "rules.hpp"

#include "limits.hpp"

#include <algorithm>
#include <ostream>

namespace qcert::mod2 {
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

// The fewest queens of a legal locked position is `count`: levels 0..count-1
// (every legal set with that many queens) have no locked position, and some
// child of level count-1 (level count) is locked.  A level keeps one set per
// symmetry class, its least image: the 8 symmetries map legal sets to legal
// sets and open squares to open squares (docs/mod2-game.md, "Symmetry"), so a
// class is locked or not as a whole, and the images of a set's children are
// the children of its images.
void checkFewestLocking(const Small& b, uint64_t count) {
  const auto g = symmetries(b.n);
  auto locked = [&](uint64_t p) { return p != b.full && b.moves(Rule::standard, p) == 0; };  // complete is not locked
  if (count == 0) throw Rejection("the empty board is not locked");
  std::vector<uint64_t> level{0}, next;
  for (uint64_t k = 0; k < count; ++k) {
    if (level.empty()) throw Rejection("no legal position has " + queensText(k));
    next.clear();
    // Children go in with duplicates; when the vector is full it is sorted
    // and deduplicated before it may grow, so it stays near twice the level.
    auto add = [&](uint64_t child) {
      if (next.size() == next.capacity()) {
        std::sort(next.begin(), next.end());
        next.erase(std::unique(next.begin(), next.end()), next.end());
        if (next.size() * 2 > next.capacity()) {
          const size_t grow = std::max<size_t>(1 << 16, next.capacity());
          limits::reserve(grow * 8 * 2, "a level of legal positions");  // old and new buffer while it moves
          next.reserve(next.capacity() + grow);
        }
      }
      next.push_back(child);
    };
    for (uint64_t p : level) {
      limits::checkTime();
      const uint64_t open = b.moves(Rule::standard, p);
      if (!open && p != b.full) throw Rejection("a legal position with " + queensText(k) + " is locked (mask " + std::to_string(p) + ")");
      if (k + 1 == count) {
        for (uint64_t m = open; m; m &= m - 1)
          if (locked(p | (m & -m))) return;  // level `count` holds a locked position
        continue;
      }
      uint64_t images[8] = {};
      for (unsigned t = 0; t < 8; ++t)
        for (uint64_t x = p; x; x &= x - 1) images[t] |= uint64_t(1) << g[t][std::countr_zero(x)];
      for (uint64_t m = open; m; m &= m - 1) {
        const unsigned s = unsigned(std::countr_zero(m));
        uint64_t least = ~uint64_t(0);
        for (unsigned t = 0; t < 8; ++t) least = std::min(least, images[t] | uint64_t(1) << g[t][s]);
        add(least);
      }
    }
    std::sort(next.begin(), next.end());
    next.erase(std::unique(next.begin(), next.end()), next.end());
    level.swap(next);
  }
  throw Rejection("no legal position with " + queensText(count) + " is locked");
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
      *announce << "  mod-2 fewestLocking: every legal position of " << board << " with 0.." << count
                << " queens, level by level, one per symmetry class (at most C(" << b.squares << ", k) each)" << std::endl;
    checkFewestLocking(b, count);
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

}  // namespace qcert::mod2
