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
  for (uint64_t x : v) t += x;  // at most 2^36 sets: no overflow
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

// legal[P] for every set P of squares reachable from `start` by `rule`'s
// placements (complementMap, n <= 4), in one pass in increasing order of
// masks: a reached P reaches P + s for every move s.  P + s > P, so each set
// is final before it is read.
std::vector<bool> legalSets(const Small& b, Rule rule, uint64_t start) {
  const uint64_t sets = uint64_t(1) << b.squares;
  std::vector<bool> legal(sets, false);
  legal[start] = true;
  for (uint64_t p = start; p < sets; ++p) {
    if ((p & 0xffff) == 0) limits::checkTime();
    if (!legal[p]) continue;
    for (uint64_t m = b.moves(rule, p); m; m &= m - 1) legal[b.after(rule, p, unsigned(std::countr_zero(m)))] = true;
  }
  return legal;
}

// Every set of squares as one bit, 64 sets to a word (boards up to 6x6): word
// u holds the sets whose queens on squares 6, 7, ... ("high" squares; square
// 6 + t is bit t of u) are u's, bit l the set whose queens on squares 0..5
// are l's.  (Below 6 squares, one word of 2^(n^2) bits.)  So set P is bit
// P % 64 of word P / 64.  A queen placed on a low square s turns bit l into
// bit l + 2^s of the same word; one on high square 6 + t turns word u into
// word u + 2^t, same bit: both passes below move whole words at a time.
//
// Whether a square s is open in a set depends on the parity of the queens
// on its lines, which is the XOR of the high queens' part and the low
// queens' part.  The low part, as a mask over the 64 bits l, is the same for
// every word: it is tabled once per square.  The high part is the XOR of
// three table entries, each for 10 high squares.
class Words {
 public:
  explicit Words(const Small& board) : b(board), low(std::min(board.squares, 6u)) {
    count = uint64_t(1) << (b.squares - low);
    used = low == 6 ? ~uint64_t(0) : (uint64_t(1) << (1u << low)) - 1;
    oddLow.assign(b.squares, 0);
    for (unsigned l = 0; l < (1u << low); ++l) {
      for (unsigned s = 0; s < b.squares; ++s) oddLow[s] |= uint64_t(std::popcount(l & b.lines[s]) & 1) << l;
      for (unsigned s = 0; s < low; ++s) lacks[s] |= uint64_t(~l >> s & 1) << l;
      layer[std::popcount(l)] |= uint64_t(1) << l;
    }
    for (unsigned first = low; first < b.squares; first += 10) {
      std::array<uint64_t, 1024> t{};
      for (unsigned v = 0; v < 1024; ++v)
        for (unsigned k = 0; k < 10 && first + k < b.squares; ++k)
          if (v >> k & 1) t[v] ^= b.lines[first + k];
      oddHigh.push_back(t);
    }
  }
  // even[s], for every square: bit l set when s is attacked by an even
  // number of the queens of set (u, l) (s itself may hold one); with
  // `oddParity`, by an odd number (the alternate-universe rule's open squares).
  void evenMasks(uint64_t u, uint64_t* even, bool oddParity = false) const {
    uint64_t odd = 0;
    for (size_t c = 0; c < oddHigh.size(); ++c) odd ^= oddHigh[c][(u >> (10 * c)) & 1023];
    if (oddParity) odd = ~odd;
    for (unsigned s = 0; s < b.squares; ++s) even[s] = (odd >> s & 1 ? oddLow[s] : ~oddLow[s]) & used;
  }
  static bool has(const Bitmap& words, uint64_t p) { return words[p >> 6] >> (p & 63) & 1; }
  void tick(uint64_t u, std::ostream* progress) const {
    if ((u & 0x3fff) != 0) return;
    limits::checkTime();
    if (progress && count >= (uint64_t(1) << 24) && (u & (count / 8 - 1)) == 0 && u)
      *progress << "  ... " << u * 100 / count << "% of the words" << std::endl;
  }

  const Small& b;
  const unsigned low;      // squares 0..low-1 are a word's bits
  uint64_t count, used;    // the words; the bits of a word in use
  uint64_t lacks[6] = {};  // [s]: bit l set when l has no queen on low square s
  uint64_t layer[7] = {};  // [k]: bit l set when l has k queens
 private:
  std::vector<uint64_t> oddLow;                     // [s]: bit l set when s is attacked an odd number of times by l
  std::vector<std::array<uint64_t, 1024>> oddHigh;  // [c][10 high queens]: the squares they attack an odd number of times
};

// The legal positions of the standard game, in increasing order of words.
// A legal set P makes P + s legal for every open s; every word a word's
// sets reach by a high move is a later word, so a word is complete (every
// earlier word has added its sets) when its turn comes, and then its own
// low moves are repeated until they add nothing more.
Bitmap legalWords(const Words& w, std::ostream* progress) {
  limits::reserve(w.count * 8, "the bitmap of legal positions");
  Bitmap legal(w.count);
  legal[0] = 1;  // the empty board
  uint64_t even[64];
  for (uint64_t u = 0; u < w.count; ++u) {
    w.tick(u, progress);
    uint64_t word = legal[u];
    if (word == 0) continue;
    w.evenMasks(u, even);
    for (uint64_t before = 0; before != word;) {
      before = word;
      for (unsigned s = 0; s < w.low; ++s) word |= (word & w.lacks[s] & even[s]) << (1u << s);
    }
    legal[u] = word;
    for (uint64_t free = ~u & (w.count - 1); free; free &= free - 1) {
      const unsigned t = unsigned(std::countr_zero(free));
      legal[u | uint64_t(1) << t] |= word & even[w.low + t];
    }
  }
  return legal;
}

// The sets (legal or not) whose player to move wins the standard game (or,
// with `alternate`, the alternate-universe game: open = attacked an odd
// number of times): P is won when some open s makes P + s lost.  Words in
// decreasing order, so a high move's word is final; within a word, sets with
// more low queens first.
Bitmap winWords(const Words& w, bool alternate, std::ostream* progress) {
  limits::reserve(w.count * 8, "the bitmap of won positions");
  Bitmap won(w.count);
  uint64_t even[64];
  for (uint64_t u = w.count; u-- > 0;) {
    w.tick(w.count - 1 - u, progress);
    w.evenMasks(u, even, alternate);
    uint64_t word = 0;
    for (uint64_t free = ~u & (w.count - 1); free; free &= free - 1) {
      const unsigned t = unsigned(std::countr_zero(free));
      word |= even[w.low + t] & ~won[u | uint64_t(1) << t];
    }
    for (unsigned k = w.low + 1; k-- > 0;)  // bit l + 2^s of ~word: P + s is lost
      for (unsigned s = 0; s < w.low; ++s) word |= w.layer[k] & w.lacks[s] & even[s] & (~word >> (1u << s));
    won[u] = word & w.used;
  }
  return won;
}

// Burnside's lemma: the legal positions of k queens fall into classes under
// the square's 8 symmetries (each maps legal positions onto legal positions:
// it preserves lines, so attacks, so moves), and their number is the average
// over the 8 of the legal positions of k queens each maps onto themselves.
// A set fixed by a symmetry is a union of its cycles of squares: at most
// 2^21 of them on 6x6, where the identity's are the totals themselves.
std::vector<uint64_t> classesByBurnside(const Small& b, const Bitmap& legal, const std::vector<uint64_t>& totals) {
  std::vector<uint64_t> fixed = totals;
  const auto g = symmetries(b.n);
  for (unsigned t = 1; t < 8; ++t) {
    std::vector<uint64_t> cycles;
    uint64_t seen = 0;
    for (unsigned s = 0; s < b.squares; ++s) {
      if (seen >> s & 1) continue;
      uint64_t cycle = 0;
      for (unsigned x = s; !(cycle >> x & 1); x = g[t][x]) cycle |= uint64_t(1) << x;
      seen |= cycle, cycles.push_back(cycle);
    }
    for (uint64_t pick = 0; pick < uint64_t(1) << cycles.size(); ++pick) {
      if ((pick & 0xffff) == 0) limits::checkTime();
      uint64_t p = 0;
      for (size_t c = 0; c < cycles.size(); ++c)
        if (pick >> c & 1) p |= cycles[c];
      fixed[std::popcount(p)] += Words::has(legal, p);
    }
  }
  for (uint64_t& f : fixed) {
    if (f % 8) throw Rejection("the checker's count of fixed legal positions is not a multiple of 8 (Burnside's lemma fails)");
    f /= 8;
  }
  return fixed;
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

}  // namespace

// Lemma 4 (line parities; docs/mod2-game.md).  An empty square t is attacked
// by every queen on its row, its column and its two diagonals (two squares
// share at most one line), so att(t, P) is odd exactly when the parities
// |P & line| mod 2 of t's four lines add up to 1.  Choose a parity for each
// of the 6n-2 lines; the squares whose four parities add up to 0 must all
// hold queens in a locked P with those parities (an empty one would be
// open), and P's other queens lie on the other squares, with the parities
// that are still missing.  So every locked set of at most `most` queens is
// found, once (from its own parities), by trying every choice of parities
// with at most `most` such forced squares and then every completion.
//
// The choices are not tried one by one (2^46 at n = 8).  Rows and columns
// first; then a square's two diagonals have its colour (r - c and r + c are
// both even or both odd), so the forced squares of each colour depend on that
// colour's diagonals alone: each colour's choices are listed apart, keeping
// those within `most` less the other colour's fewest, and paired.
LockedSets::LockedSets(const Small& board) : b(board) {
  const unsigned n = b.n;
  lineMask.assign(6 * n - 2, 0);
  for (unsigned s = 0; s < b.squares; ++s) {
    const unsigned r = s / n, c = s % n;
    const unsigned ids[4] = {r, n + c, 2 * n + r + (n - 1) - c, 4 * n - 1 + r + c};
    for (unsigned k = 0; k < 4; ++k) {
      lineMask[ids[k]] |= uint64_t(1) << s;
      linesOf[s] |= uint64_t(1) << ids[k];
      family[k] |= uint64_t(1) << ids[k];
    }
    colour[(r + c) % 2] |= uint64_t(1) << s;
  }
  for (unsigned l = 2 * n; l < 6 * n - 2; ++l) (l < 4 * n - 1 ? falling : rising)[(lineMask[l] & colour[0]) ? 0 : 1].push_back(l);
  // Each colour's fewest forced squares for each choice of rows and columns:
  // the same for every `most`, and most choices are ruled out by it alone.
  std::vector<Half> none;
  fewest.resize(size_t(1) << (2 * n));
  for (uint64_t rc = 0; rc < fewest.size(); ++rc) {
    if ((rc & 255) == 0) limits::checkTime();
    for (unsigned k = 0; k < 2; ++k) fewest[rc][k] = colourChoices(k, oddSquares(rc), 0, false, none);
  }
}

uint64_t LockedSets::oddSquares(uint64_t rc) const {
  uint64_t odd = 0;
  for (uint64_t x = rc; x; x &= x - 1) odd ^= lineMask[std::countr_zero(x)];
  return odd;
}

uint64_t LockedSets::parities(uint64_t p) const {
  uint64_t v = 0;
  for (; p; p &= p - 1) v ^= linesOf[std::countr_zero(p)];
  return v;
}

// Colour k's choices: for each set of its falling diagonals with parity 1,
// each rising diagonal's parity by a search bounded by the fewest forced
// squares the diagonals after it can have.  `odd`: the squares whose row and
// column parities add up to 1.  With keep = false only the fewest is wanted.
unsigned LockedSets::colourChoices(unsigned k, uint64_t odd, unsigned budget, bool keep, std::vector<Half>& out) const {
  unsigned fewest = ~0u;
  const std::vector<unsigned>& rise = rising[k];
  for (uint64_t f = 0; f < (uint64_t(1) << falling[k].size()); ++f) {
    uint64_t o = odd, bits = 0;
    for (size_t i = 0; i < falling[k].size(); ++i)
      if (f >> i & 1) o ^= lineMask[falling[k][i]], bits |= uint64_t(1) << falling[k][i];
    std::array<std::array<unsigned, 2>, 16> forced{};  // forced squares on rise[i] if its parity is 0 / 1
    std::array<unsigned, 17> rest{};                   // the fewest on rise[i..]
    for (size_t i = rise.size(); i-- > 0;) {
      const uint64_t line = lineMask[rise[i]] & colour[k];
      forced[i] = {unsigned(std::popcount(line & ~o)), unsigned(std::popcount(line & o))};
      rest[i] = rest[i + 1] + std::min(forced[i][0], forced[i][1]);
    }
    fewest = std::min(fewest, rest[0]);
    if (!keep || rest[0] > budget) continue;
    // Depth first over the rising diagonals' parities; h.forced holds the
    // odd squares until the last one is chosen.
    std::vector<std::pair<size_t, Half>> stack{{0, Half{bits, o, 0}}};
    while (!stack.empty()) {
      auto [i, h] = stack.back();
      stack.pop_back();
      if (i == rise.size()) {
        h.forced = colour[k] & ~h.forced;
        out.push_back(h);
        continue;
      }
      for (unsigned p = 0; p < 2; ++p)
        if (h.count + forced[i][p] + rest[i + 1] <= budget)
          stack.push_back({i + 1, Half{p ? h.bits | uint64_t(1) << rise[i] : h.bits, p ? h.forced ^ lineMask[rise[i]] : h.forced,
                                       h.count + forced[i][p]}});
    }
  }
  return fewest;
}

// Every y within `free` of at most `room` squares whose parities are `want`,
// in increasing order of squares; `report`: y not reported yet.
void LockedSets::completions(uint64_t free, uint64_t want, unsigned room, uint64_t y, bool report,
                             const std::function<void(uint64_t)>& found) const {
  if (report && want == 0) found(y);
  if (room == 0 || free == 0) return;
  for (unsigned k = 0; k < 4; ++k)  // a queen mends one line of each family
    if (unsigned(std::popcount(want & family[k])) > room) return;
  for (uint64_t w = want; w; w &= w - 1)
    if ((lineMask[std::countr_zero(w)] & free) == 0) return;
  const uint64_t s = free & -free;
  completions(free ^ s, want ^ linesOf[std::countr_zero(s)], room - 1, y | s, true, found);
  completions(free ^ s, want, room, y, false, found);
}

void LockedSets::each(unsigned most, const std::function<void(uint64_t)>& found) const {
  std::vector<Half> choices[2];
  for (uint64_t rc = 0; rc < fewest.size(); ++rc) {
    if ((rc & 255) == 0) limits::checkTime();
    if (fewest[rc][0] + fewest[rc][1] > most) continue;
    choices[0].clear(), choices[1].clear();
    colourChoices(0, oddSquares(rc), most - fewest[rc][1], true, choices[0]);
    colourChoices(1, oddSquares(rc), most - fewest[rc][0], true, choices[1]);
    std::sort(choices[1].begin(), choices[1].end(), [](const Half& x, const Half& y) { return x.count < y.count; });
    for (const Half& a : choices[0])
      for (const Half& c : choices[1]) {
        if (a.count + c.count > most) break;
        const uint64_t forced = a.forced | c.forced;
        completions(b.full & ~forced, rc ^ a.bits ^ c.bits ^ parities(forced), most - a.count - c.count, 0, true,
                    [&](uint64_t y) { if ((forced | y) != b.full) found(forced | y); });
      }
  }
}

namespace {

// The fewest queens of a legal locked position is `count`: the witness
// `moves` is a legal play that locks the board with `count` queens, and no
// set of fewer queens is both locked and legal.  The locked sets come from
// their line parities (Lemma 4 above); only they are tested for legality.
// The sizes go up from 1, so a false count (the claim is the certificate's
// word) is refuted at the true one, by the smallest counterexample, and
// neither the search nor the legality test, exponential in the queens, ever
// sees a set larger than that.
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
  const LockedSets locked(b);
  for (unsigned size = 1; size < count; ++size)
    locked.each(size, [&](uint64_t p) {
      std::unordered_set<uint64_t> refuted;
      if (unsigned(std::popcount(p)) == size && legalSet(b, p, refuted))
        throw Rejection("a legal position with " + queensText(size) + " is locked: " + squareList(b.n, [&] {
                          std::vector<unsigned> v;
                          for (uint64_t x = p; x; x &= x - 1) v.push_back(unsigned(std::countr_zero(x)));
                          return v;
                        }()));
    });
}

}  // namespace

Bitmap legalBitmap(const Small& b, std::ostream* progress) { return legalWords(Words(b), progress); }
Bitmap wonBitmap(const Small& b, bool alternate, std::ostream* progress) { return winWords(Words(b), alternate, progress); }

std::string verifyExhaustive(Mod2Claim::Reader claim, unsigned n, std::ostream* announce) {
  const Small b(n);
  const std::string board = boardText(n), game = "the mod-2 game on " + board;
  const auto what = claim.getExhaustive();
  const uint64_t count = claim.getCount();
  if ((what == Mod2Exhaustive::MOST_QUEENS || what == Mod2Exhaustive::FEWEST_LOCKING) && count > b.squares)
    throw Rejection("count " + std::to_string(count) + " exceeds the " + std::to_string(b.squares) + " squares");

  if (what == Mod2Exhaustive::FEWEST_LOCKING) {
    if (announce)
      *announce << "  mod-2 fewestLocking: the witness play, then every locked set of " << board << " with at most "
                << queensText(count - 1) << ", by size, from the parities of its lines" << std::endl;
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

  // legalCount, mostQueens, playCount and outcome: one pass over all 2^(n^2) sets.
  const bool plays = what == Mod2Exhaustive::PLAY_COUNT, outcome = what == Mod2Exhaustive::OUTCOME;
  const auto statedTotals = claim.getTotals(), statedClasses = claim.getClasses();
  const size_t length = what == Mod2Exhaustive::LEGAL_COUNT ? b.squares + 1 : plays ? 1 : 0;
  if (statedTotals.size() != length || statedClasses.size() != (plays ? 0 : length))
    throw Rejection("totals and classes must have " + std::to_string(length) + " and " + std::to_string(plays ? 0 : length) + " entries");
  const auto said = claim.getOutcome();
  if (said != Outcome::WIN && said != Outcome::LOSS) throw Rejection("unknown outcome " + std::to_string(unsigned(said)));
  const Words w(b);
  if (announce) {
    const uint64_t bytes = w.count * 8;
    *announce << "  mod-2 exhaustive: one pass over the 2^" << b.squares << " sets of " << board << " ("
              << (bytes >> 30 ? std::to_string(bytes >> 30) + " GiB" : bytes >> 10 ? std::to_string(bytes >> 10) + " KiB" : std::to_string(bytes) + " bytes") << " bitmap"
              << (outcome ? ", who wins each" : ", which are legal") << ")" << std::endl;
  }
  if (outcome) {
    // The standard game starts from the empty board, the alternate-universe
    // game from its one given queen (mod2.cpp admits no other rule or start).
    const bool alternate = claim.getRule() == Mod2Rule::ALTERNATE;
    const auto start = claim.getStart();
    if (start.size() != (alternate ? 1u : 0u))
      throw Rejection(alternate ? "an alternate-universe outcome claim names exactly one given queen (start)"
                                : "a standard outcome claim is about the empty board (no start)");
    if (alternate && start[0] >= b.squares) throw Rejection("the given queen's square " + std::to_string(start[0]) + " is off " + board);
    const uint64_t position = alternate ? uint64_t(1) << start[0] : 0;
    const std::string where = alternate ? "the alternate-universe mod-2 game on " + board + " started with a queen on " + square(n, start[0]) : game;
    const bool wins = Words::has(winWords(w, alternate, announce), position);
    if (wins != (said == Outcome::WIN))
      throw Rejection(std::string("the player to move ") + (alternate ? "after the given queen " : "at the empty board ") + (wins ? "wins" : "loses") +
                      ", the claim says " + (wins ? "loses" : "wins"));
    return std::string("the player to move ") + (wins ? "wins" : "loses") + " " + where;
  }
  const Bitmap legal = legalWords(w, announce);

  if (plays) {
    // plays(P) = 1 when P has no move, else the sum over P's moves of
    // plays(P + s): larger masks first.  Only legal sets are read.  n <= 5:
    // 2^25 counts, 256 MiB; a sum past 2^64 rejects.
    limits::reserve((uint64_t(1) << b.squares) * 8, "the play counts");
    std::vector<uint64_t> count(uint64_t(1) << b.squares, 0);
    for (uint64_t p = b.full + 1; p-- > 0;) {
      if ((p & 0xffff) == 0) limits::checkTime();
      if (!Words::has(legal, p)) continue;
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

  std::vector<uint64_t> totals(b.squares + 1, 0);
  for (uint64_t u = 0; u < w.count; ++u) {
    w.tick(u, nullptr);
    for (unsigned k = 0; k <= w.low; ++k) totals[std::popcount(u) + k] += unsigned(std::popcount(legal[u] & w.layer[k]));
  }
  if (what == Mod2Exhaustive::MOST_QUEENS) {
    uint64_t most = b.squares;
    while (totals[most] == 0) --most;  // totals[0] = 1: the empty board
    if (most != count) throw Rejection("the most queens in a legal position is " + std::to_string(most) + ", the claim says " + std::to_string(count));
    return "the most queens in a legal position of " + game + " is " + std::to_string(most);
  }
  const std::vector<uint64_t> classes = classesByBurnside(b, legal, totals);
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
