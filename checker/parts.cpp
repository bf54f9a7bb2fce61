#include "checker/parts.hpp"

#include "checker/board.hpp"
#include "checker/limits.hpp"

#include <xxhash.h>

#include <string>
#include <unordered_map>
#include <vector>

namespace qcert::checker {
namespace {

// What this check relies on (docs/parts.md; tests/parts_test.cpp checks both
// against exhaustive search on random boards, pieces and positions):
//  1. Sums.  If the live set L is the union of A and B and no square of A
//     attacks a square of B, a queen on a square of A leaves B as it was, and
//     the other way round, so L is the disjunctive sum of A and B and (Sprague-
//     Grundy) G(L) = G(A) xor G(B).  With a heap h, (L, h) is lost exactly
//     when G(L) = h.
//  2. Translation.  On a board without holes and without wrap-around, whether
//     a piece on one square attacks another depends only on the difference of
//     the squares (attacks() in board.hpp), so a set of squares moved within
//     the board is the same game.
//  3. Symmetry.  A map in geo_.sym (each checked to map attacks onto attacks
//     and holes onto holes) maps a set of squares onto the same game.
// So the table keeps each part in one form of its class, its key: the least
// of its images under geo_.sym, each moved to the board's corner (2) where
// the board allows it.
template <int W>
class TableCheck {
  using B = Bits<W>;
  struct Hash {
    size_t operator()(const B& b) const { return size_t(XXH3_64bits(&b, sizeof b)); }
  };

 public:
  TableCheck(const Certificate& cert, TokenStream& tokens)
      : cert_(cert), geo_(cert.board), tokens_(tokens), translate_(!cert.board.torus && cert.board.holes.empty()) {}

  PartsStats run() {
    B root = geo_.onBoard;
    for (unsigned q : cert_.queens) {
      if (!root.test(q)) throw Rejection("claim queen " + squareName(geo_.n, q) + " is not live when placed");
      root = root.without(geo_.attack[q]);
    }
    while (tokens_.remaining() > 0) readEntry();
    const uint32_t g = valueOf(root, -1);
    if (cert_.grundy && g != cert_.heap)
      throw Rejection("the table gives the root the Grundy value " + std::to_string(g) + ", not the claimed " + std::to_string(cert_.heap));
    if (!cert_.grundy && ((g ^ cert_.heap) != 0) != cert_.claimWin)
      throw Rejection("the table gives the root the Grundy value " + std::to_string(g) + (cert_.heap ? " (heap " + std::to_string(cert_.heap) + ")" : "") +
                      ", so the player to move " + ((g ^ cert_.heap) ? "wins" : "loses") + ", against the claim");
    return stats_;
  }

 private:
  uint32_t next(const std::string& what) {
    if (tokens_.remaining() == 0) throw Rejection(entryName() + ": the tokens end before " + what);
    return tokens_.next();
  }
  std::string entryName() const { return "table entry #" + std::to_string(stats_.parts + 1); }

  // An entry: k, the first square, the k - 1 gaps to each next square (each
  // at least 1), the claimed value.
  void readEntry() {
    const uint32_t k = next("its size");
    if (k == 0 || k > geo_.onBoard.count()) throw Rejection(entryName() + ": size " + std::to_string(k) + " is not 1.." + std::to_string(geo_.onBoard.count()));
    B part;
    uint64_t s = 0;
    for (uint32_t i = 0; i < k; ++i) {
      const uint32_t step = next("its squares");
      if (i > 0 && step == 0) throw Rejection(entryName() + ": squares must increase (a gap of 0)");
      s = i == 0 ? step : s + step;
      if (s >= geo_.squares || !geo_.onBoard.test(unsigned(s)))
        throw Rejection(entryName() + ": square index " + std::to_string(s) + " is off the board or a hole");
      part.set(unsigned(s));
    }
    const uint32_t claimed = next("its value");
    if (!(key(part) == part)) throw Rejection(entryName() + ": the part is not in its key form (docs/parts.md)");
    if (table_.count(part)) throw Rejection(entryName() + ": repeats an earlier entry");
    // At most k options, so the mex is at most k.
    std::vector<bool> seen(size_t(k) + 1, false);
    part.forEach([&](unsigned v) {
      limits::checkTime();
      ++stats_.options;
      const uint32_t x = valueOf(part.without(geo_.attack[v]), int(v));
      if (x <= k) seen[x] = true;
    });
    uint32_t mex = 0;
    while (seen[mex]) ++mex;
    if (mex != claimed)
      throw Rejection(entryName() + ": claims the value " + std::to_string(claimed) + " for a part of " + std::to_string(k) +
                      (k == 1 ? " square" : " squares") + ", but the mex of its options' values is " + std::to_string(mex));
    if (table_.size() + 1 > table_.bucket_count())  // the next insert may rehash: about twice the table
      limits::reserve(2 * table_.size() * (sizeof(B) + 32), "the table of parts");
    table_.emplace(part, claimed);
    ++stats_.parts;
  }

  // The XOR of the table's values of L's parts (its groups connected by
  // attack), each looked up by its key.  L is the root (after = -1) or the
  // option of the entry being read after a piece on square `after`.
  uint32_t valueOf(B rest, int after) const {
    uint32_t x = 0;
    while (rest.count()) {
      B part, frontier;
      frontier.set(lowest(rest));
      while (frontier.count()) {
        B reach;
        frontier.forEach([&](unsigned s) {
          part.set(s);
          for (int i = 0; i < W; ++i) reach.w[i] |= geo_.attack[s].w[i];
        });
        for (int i = 0; i < W; ++i) frontier.w[i] = reach.w[i] & rest.w[i] & ~part.w[i];
      }
      rest = rest.without(part);
      const auto it = table_.find(key(part));
      if (it == table_.end())
        throw Rejection((after < 0 ? std::string("the root") : entryName() + ", after " + squareName(geo_.n, unsigned(after))) +
                        ": a part of " + std::to_string(part.count()) + (part.count() == 1 ? " square" : " squares") +
                        " is not in the table before it is used");
      x ^= it->second;
    }
    return x;
  }

  static unsigned lowest(const B& b) {
    for (int i = 0; i < W; ++i)
      if (b.w[i]) return unsigned(i * 64 + std::countr_zero(b.w[i]));
    return 0;  // not reached: callers pass a non-empty set
  }

  // Of the images, the one whose sum of 2^s over its squares s is least.
  B key(const B& part) const {
    B best = normal(part);
    for (size_t g = 1; g < geo_.sym.size(); ++g) {
      const B k = normal(geo_.image(g, part));
      int i = W - 1;
      while (i > 0 && k.w[i] == best.w[i]) --i;
      if (k.w[i] < best.w[i]) best = k;
    }
    return best;
  }

  // The part moved to the board's corner (translation), or as it is.
  B normal(const B& part) const {
    if (!translate_) return part;
    unsigned minRow = geo_.rows, minCol = geo_.n;
    part.forEach([&](unsigned s) { minRow = std::min(minRow, s / geo_.n), minCol = std::min(minCol, s % geo_.n); });
    B moved;
    part.forEach([&](unsigned s) { moved.set(s - minRow * geo_.n - minCol); });
    return moved;
  }

  const Certificate& cert_;
  const Geometry<W> geo_;
  TokenStream& tokens_;
  const bool translate_;
  std::unordered_map<B, uint32_t, Hash> table_;
  PartsStats stats_;
};

}  // namespace

PartsStats verifyPartsTable(const Certificate& cert, TokenStream& tokens) {
  const unsigned squares = cert.board.rows * cert.board.cols;
  if (squares <= 64) return TableCheck<1>(cert, tokens).run();
  if (squares <= 128) return TableCheck<2>(cert, tokens).run();
  if (squares <= 256) return TableCheck<4>(cert, tokens).run();
  if (squares <= 512) return TableCheck<8>(cert, tokens).run();
  throw Rejection("board size out of range");
}

}  // namespace qcert::checker
