// The mod-2 queens game (docs/mod2-game.md), as the checker reads it: the
// board's lines, "attacked by k queens", the three rules' moves, the names in
// statements, and the kinds' entry points.  Written from the doc alone; no
// code is shared with the prover.
#pragma once

#include "checker/board.hpp"  // Rejection
#include "schema/qcert.capnp.h"

#include <array>
#include <bit>
#include <functional>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <iosfwd>
#include <string>
#include <vector>

namespace qcert::checker::mod2 {

enum class Rule { standard, alternate, complementary };

// Squares a and b (a != b) share a line: row, column or one of the diagonals.
inline bool sharesLine(unsigned n, unsigned a, unsigned b) {
  const int r1 = int(a / n), c1 = int(a % n), r2 = int(b / n), c2 = int(b % n);
  return r1 == r2 || c1 == c2 || r1 - c1 == r2 - c2 || r1 + c1 == r2 + c2;
}

// Boards up to 8x8 as 64-bit sets (bit s = square s).  lines[s] holds every
// other square on a line of s, so att(s, P) = popcount(P & lines[s]): two
// distinct squares share at most one line, and nothing blocks.
struct Small {
  unsigned n = 0, squares = 0;
  uint64_t full = 0;
  std::vector<uint64_t> lines;

  explicit Small(unsigned size) : n(size), squares(size * size), lines(size * size, 0) {
    full = squares == 64 ? ~uint64_t(0) : (uint64_t(1) << squares) - 1;
    for (unsigned a = 0; a < squares; ++a)
      for (unsigned b = 0; b < squares; ++b)
        if (a != b && sharesLine(n, a, b)) lines[a] |= uint64_t(1) << b;
  }
  unsigned att(uint64_t queens, unsigned s) const { return unsigned(std::popcount(queens & lines[s])); }
  // A move on s from `queens` by `rule`: standard places on an empty square
  // attacked by an even number, alternate by an odd number; complementary
  // removes a queen attacked by an even number of the others.
  bool legal(Rule rule, uint64_t queens, unsigned s) const {
    const bool occupied = queens >> s & 1;
    switch (rule) {
      case Rule::standard: return !occupied && att(queens, s) % 2 == 0;
      case Rule::alternate: return !occupied && att(queens, s) % 2 == 1;
      case Rule::complementary: return occupied && att(queens, s) % 2 == 0;
    }
    return false;
  }
  // Every legal move of `rule` from `queens`, as a set of squares.  A queen
  // flips the parity of every square on its lines, so the squares attacked by
  // an odd number of queens are the XOR of the queens' lines.
  uint64_t moves(Rule rule, uint64_t queens) const {
    uint64_t odd = 0;
    for (uint64_t x = queens; x; x &= x - 1) odd ^= lines[std::countr_zero(x)];
    switch (rule) {
      case Rule::standard: return full & ~queens & ~odd;
      case Rule::alternate: return full & ~queens & odd;
      case Rule::complementary: return queens & ~odd;
    }
    return 0;
  }
  uint64_t after(Rule rule, uint64_t queens, unsigned s) const {
    return rule == Rule::complementary ? queens & ~(uint64_t(1) << s) : queens | uint64_t(1) << s;
  }
};

// Every locked set of at most `most` queens, each once, found from the
// parities of its lines (Lemma 4, search.cpp) rather than by walking every
// set: n = 8, at most 11 queens, in about a second instead of 90 minutes.
class LockedSets {
 public:
  explicit LockedSets(const Small& board);
  void each(unsigned most, const std::function<void(uint64_t)>& found) const;

 private:
  struct Half {
    uint64_t bits;    // the colour's diagonals with parity 1
    uint64_t forced;  // the colour's squares whose four parities add up to 0
    unsigned count;   // how many
  };
  uint64_t parities(uint64_t p) const;    // line l's parity as bit l
  uint64_t oddSquares(uint64_t rc) const;  // squares whose row and column parities (rc) add up to 1
  unsigned colourChoices(unsigned k, uint64_t odd, unsigned budget, bool keep, std::vector<Half>& out) const;
  void completions(uint64_t free, uint64_t want, unsigned room, uint64_t y, bool report,
                   const std::function<void(uint64_t)>& found) const;

  const Small& b;
  std::vector<uint64_t> lineMask;             // rows, columns, falling (r - c), rising (r + c) diagonals
  std::array<uint64_t, 64> linesOf{};         // the four lines of each square, as line bits
  uint64_t family[4] = {}, colour[2] = {};    // line bits of each family; squares of each colour
  std::vector<unsigned> falling[2], rising[2];  // diagonals by colour
  std::vector<std::array<unsigned, 2>> fewest;  // [rc][colour]: the fewest forced squares
};

// Memory that comes zeroed from the system (calloc maps a block this large
// fresh), page by page as a pass first touches it: a plain vector would spend
// 17 s clearing 8 GiB before the pass could first look at the clock.
template <class T>
struct ZeroedPages {
  using value_type = T;
  ZeroedPages() = default;
  template <class U> ZeroedPages(const ZeroedPages<U>&) {}
  T* allocate(size_t n) {
    if (void* p = std::calloc(n, sizeof(T))) return static_cast<T*>(p);
    throw std::bad_alloc();
  }
  void deallocate(T* p, size_t) { std::free(p); }
  template <class U> void construct(U*) {}  // already zero
  bool operator==(const ZeroedPages&) const = default;
};
using Bitmap = std::vector<uint64_t, ZeroedPages<uint64_t>>;

// Every set of squares of a board up to 6x6 as one bit, set P at bit P % 64
// of word P / 64 (search.cpp, 8 GiB at n = 6): the legal positions of the
// standard game, and the sets (legal or not) whose player to move wins it
// (with `alternate`, wins the alternate-universe game).  `progress` gets a
// line per eighth of a long pass.
Bitmap legalBitmap(const Small& b, std::ostream* progress = nullptr);
Bitmap wonBitmap(const Small& b, bool alternate = false, std::ostream* progress = nullptr);

// qcert's name of square s: file letter (column), rank (row + 1).  Columns
// past z (n > 26, play claims only) continue aa, ab, ... like a spreadsheet.
inline std::string square(unsigned n, unsigned s) {
  const unsigned c = s % n;
  std::string file = c < 26 ? std::string(1, char('a' + c)) : std::string{char('a' + c / 26 - 1), char('a' + c % 26)};
  return file + std::to_string(s / n + 1);
}
inline std::string squareList(unsigned n, const std::vector<unsigned>& squares) {
  std::string s;
  for (size_t i = 0; i < squares.size(); ++i) s += (i ? ", " : "") + square(n, squares[i]);
  return s;
}
inline std::string queensText(uint64_t k) { return std::to_string(k) + (k == 1 ? " queen" : " queens"); }
inline std::string boardText(unsigned n) { return "the " + std::to_string(n) + "x" + std::to_string(n) + " board"; }
inline std::string gameName(Rule rule) {
  return rule == Rule::standard ? "mod-2 game" : rule == Rule::alternate ? "alternate-universe mod-2 game" : "complementary mod-2 game";
}

// The kinds.  Each gets a claim whose unused fields mod2.cpp has already
// checked to be empty, and whose board size is in the kind's range; each
// returns the statement or throws Rejection (NotChecked when out of time or
// memory).
std::string verifyPlay(Mod2Claim::Reader claim, unsigned n);
std::string verifyStructure(Mod2Claim::Reader claim, unsigned n);
std::string verifyExhaustive(Mod2Claim::Reader claim, unsigned n, std::ostream* announce);
std::string verifyGame(Mod2Claim::Reader claim, unsigned n, Rule rule, std::ostream* announce);

}  // namespace qcert::checker::mod2
