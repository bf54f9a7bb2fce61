// Mod-2 game: the passes over every set of squares of a board up to 6x6,
// 64 sets to a machine word (the 6x6 board's 2^36 sets in an 8 GiB bitmap,
// about two minutes a pass where the set-by-set pass took 34 minutes).
//
// Word u holds the sets whose queens on squares 6, 7, ... are u's (square
// 6 + t is bit t of u) and whose queens on squares 0..5 are the bit's index
// l: set P is bit P % 64 of word P / 64. A placement on one of the six low
// squares s moves bit l to bit l | 2^s of the same word, one on a high
// square 6 + t moves word u to word u | 2^t: a word's 64 sets move together.
// Boards of fewer than six squares are one word of 2^(n*n) bits.
#include <bit>
#include <cstdlib>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>

#include "prover/mod2/mod2.hpp"

namespace qcert::mod2 {

namespace {

struct WordBoard {
  const Small& g;
  int low;                      // squares 0..low-1 index a word's bits
  uint64_t words, inUse;        // word count; the bits a word uses
  std::array<uint64_t, 64> lowParity{};  // [s]: bit l when the low queens l attack s an odd number of times
  std::array<uint64_t, 6> freeLow{};     // [s]: bit l when l has no queen on s
  std::array<uint64_t, 7> byQueens{};    // [k]: bit l when l has k queens

  explicit WordBoard(const Small& board) : g(board), low(std::min(board.sq, 6)) {
    words = uint64_t{1} << (g.sq - low);
    inUse = low == 6 ? ~uint64_t{0} : (uint64_t{1} << (1 << low)) - 1;
    for (uint64_t l = 0; l < (uint64_t{1} << low); ++l) {
      const uint64_t bit = uint64_t{1} << l;
      for (int s = 0; s < g.sq; ++s)
        if (std::popcount(l & g.lines[size_t(s)]) % 2) lowParity[size_t(s)] |= bit;
      for (int s = 0; s < low; ++s)
        if (!(l >> s & 1)) freeLow[size_t(s)] |= bit;
      byQueens[size_t(std::popcount(l))] |= bit;
    }
  }
  // The squares the high queens u attack an odd number of times.
  uint64_t highParity(uint64_t u) const {
    uint64_t odd = 0;
    for (uint64_t x = u; x; x &= x - 1) odd ^= g.lines[size_t(low + std::countr_zero(x))];
    return odd;
  }
  // Bit l of open[s]: square s is attacked an even number of times in the set
  // (u, l), or with `oddOpen` an odd number; `odd` is highParity(u).
  void openMasks(uint64_t odd, uint64_t* open, bool oddOpen = false) const {
    if (oddOpen) odd = ~odd;
    for (int s = 0; s < g.sq; ++s) open[s] = inUse & (odd >> s & 1 ? lowParity[size_t(s)] : ~lowParity[size_t(s)]);
  }
};

// A bitmap of `words` zero words. calloc, not std::vector: the system hands
// big blocks over as fresh zeroed pages, so the 8 GiB of a 6x6 pass are not
// written once before the pass starts (and its progress with it) but zeroed
// as the pass first touches them.
struct FreeWords {
  void operator()(uint64_t* p) const { std::free(p); }
};
std::unique_ptr<uint64_t[], FreeWords> zeroedWords(uint64_t words) {
  auto* p = static_cast<uint64_t*>(std::calloc(size_t(words), sizeof(uint64_t)));
  if (!p) throw std::bad_alloc();
  return std::unique_ptr<uint64_t[], FreeWords>(p);
}

void requireWordBoard(int n, const char* what) {
  if (n < 1 || n > 6)
    throw std::invalid_argument(std::string(what) + " passes over all 2^(n*n) sets: n must be between 1 and 6, got " + std::to_string(n));
}

}  // namespace

// Forward: the empty board is legal; a legal set P makes P + s legal for
// each open s. Words in increasing order: a high placement goes to a later
// word. Within a word, sets by number of low queens, fewest first: a low
// placement adds one. The parity of the high queens is kept as u counts up:
// u and u - 1 differ in the bits of u ^ (u - 1).
LegalCount countLegalWords(int n, const Progress& progress) {
  requireWordBoard(n, "the legal-position count");
  const Small g(n);
  const WordBoard w(g);
  const auto legal = zeroedWords(w.words);
  legal[0] = 1;
  LegalCount out;
  out.totals.assign(size_t(g.sq) + 1, 0);
  out.masks = uint64_t{1} << g.sq;
  uint64_t odd = 0, open[64];
  for (uint64_t u = 0; u < w.words; ++u) {
    if (progress && (u & 0xfffff) == 0) progress(double(u) / double(w.words));
    if (u) odd ^= w.highParity(u ^ (u - 1));
    uint64_t word = legal[u];
    if (!word) continue;
    w.openMasks(odd, open);
    for (int k = 0; k < w.low; ++k) {
      const uint64_t from = word & w.byQueens[size_t(k)];
      for (int s = 0; s < w.low; ++s) word |= (from & w.freeLow[size_t(s)] & open[s]) << (1 << s);
    }
    legal[u] = word;
    const int high = std::popcount(u);
    for (int k = 0; k <= w.low; ++k) out.totals[size_t(high + k)] += uint64_t(std::popcount(word & w.byQueens[size_t(k)]));
    for (int t = 0; t < g.sq - w.low; ++t)
      if (!(u >> t & 1)) legal[u | uint64_t{1} << t] |= word & open[w.low + t];
  }
  if (progress) progress(1.0);
  for (size_t k = 0; k < out.totals.size(); ++k) {
    out.legal += out.totals[k];
    if (out.totals[k]) out.mostQueens = int(k);
  }
  // Classes by Burnside's lemma (the symmetries map legal sets to legal
  // sets): the average over the 8 symmetries of the legal sets each fixes.
  // A fixed set is a union of the symmetry's orbits of squares.
  std::vector<uint64_t> fixedSum = out.totals;  // the identity fixes every set
  for (int sym = 1; sym < 8; ++sym) {
    std::vector<uint64_t> orbit;
    uint64_t covered = 0;
    for (int s = 0; s < g.sq; ++s) {
      if (covered >> s & 1) continue;
      uint64_t o = uint64_t{1} << s;
      for (uint64_t next = g.image(sym, o); next != o; next = g.image(sym, o)) o |= next;
      covered |= o;
      orbit.push_back(o);
    }
    // Gray code: one orbit flips per step.
    uint64_t P = 0;
    for (uint64_t i = 0; i < uint64_t{1} << orbit.size(); ++i) {
      if (i) P ^= orbit[size_t(std::countr_zero(i))];
      if (legal[P >> 6] >> (P & 63) & 1) ++fixedSum[size_t(std::popcount(P))];
    }
  }
  out.classes.assign(fixedSum.size(), 0);
  for (size_t k = 0; k < fixedSum.size(); ++k) {
    if (fixedSum[k] % 8) throw std::logic_error("Burnside's sum is not a multiple of 8");
    out.classes[k] = fixedSum[k] / 8;
  }
  return out;
}

// Backward: P is won when some open s makes P + s lost (whether P is legal
// or not). Words in decreasing order, within a word most low queens first.
// The alternate rule differs only in which squares are open.
bool firstPlayerWinsWords(int n, const Progress& progress, bool alternate, uint64_t start) {
  requireWordBoard(n, "the outcome");
  if (start >> (n * n)) throw std::invalid_argument("the outcome's start set has a queen off the board");
  const Small g(n);
  const WordBoard w(g);
  const auto won = zeroedWords(w.words);
  uint64_t odd = w.highParity(w.words - 1), open[64];
  for (uint64_t u = w.words; u-- > 0;) {
    if (progress && (u & 0xfffff) == 0) progress(double(w.words - u) / double(w.words));
    if (u + 1 < w.words) odd ^= w.highParity(u ^ (u + 1));
    w.openMasks(odd, open, alternate);
    uint64_t word = 0;
    for (int t = 0; t < g.sq - w.low; ++t)
      if (!(u >> t & 1)) word |= open[w.low + t] & ~won[u | uint64_t{1} << t];
    for (int k = w.low - 1; k >= 0; --k) {
      uint64_t add = 0;
      for (int s = 0; s < w.low; ++s) add |= w.freeLow[size_t(s)] & open[s] & ~(word >> (1 << s));
      word |= add & w.byQueens[size_t(k)];
    }
    won[u] = word & w.inUse;
  }
  if (progress) progress(1.0);
  return won[start >> 6] >> (start & 63) & 1;
}

}  // namespace qcert::mod2
