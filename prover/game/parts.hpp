// Independent parts (docs/parts.md). Once the live squares split into groups
// of which no square attacks a square of another, a position is the sum of
// its groups, and its Grundy value the XOR of theirs (Sprague-Grundy). The
// PartsSolver values a position that way: every connected group it meets is
// valued once, by the mex over its options, and kept in a table keyed by its
// normal form; each newly valued group is written to a ProofSink as a table
// entry after every group its options split into, which is the order the
// checker reads them in.
//
// Normal form: on a board without holes and without wrap-around the attack
// relation between two squares depends only on their difference, so a group
// moved to the board's corner (its least row and least column 0) is the same
// game; elsewhere a group is kept where it lies. A symmetry of the board maps
// a group onto the same game too, so the table's key is the least of the
// normal forms of a group's images under the board's symmetry group.
#pragma once
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <unordered_map>

#include "prover/bitboard.hpp"
#include "prover/game/graph.hpp"
#include "prover/game/proof.hpp"

namespace qcert {

template <int W>
class PartsSolver {
 public:
  // sink: receives the table (null: value only).
  PartsSolver(const Graph<W>& g, ProofSink* sink) : g_(g), sink_(sink) {
    const Variant& v = g.geo->variant;
    translate_ = !v.torus && v.holes.empty();
  }

  // The Grundy value of the position `live` (no heap).
  uint32_t value(const Bits<W>& live) {
    uint32_t x = 0;
    forEachPart(live, [&](const Bits<W>& part) { x ^= partValue(key(part)); });
    return x;
  }

  uint64_t parts() const { return table_.size(); }
  uint64_t options = 0;        // options looked at while valuing new parts
  std::atomic<bool>* stop = nullptr;  // set: give up (value() then throws)

 private:
  // Calls f(part) for each connected group of `rest` (by attack), in order
  // of its least square.
  template <class F>
  void forEachPart(Bits<W> rest, F&& f) const {
    while (!rest.empty()) {
      Bits<W> part, frontier = Bits<W>::single(lowest(rest));
      while (!frontier.empty()) {
        part = part | frontier;
        Bits<W> reach;
        frontier.forEach([&](int s) { reach = reach | g_.kill[s]; });
        frontier = (reach & rest).andNot(part);
      }
      rest = rest.andNot(part);
      f(part);
    }
  }

  static int lowest(const Bits<W>& b) {
    for (int i = 0; i < W; ++i)
      if (b.w[i]) return i * 64 + std::countr_zero(b.w[i]);
    return -1;
  }

  // Of the images, the one whose sum of 2^s over its squares s is least
  // (Bits::operator< compares that way): the form docs/parts.md fixes.
  Bits<W> key(const Bits<W>& part) const {
    Bits<W> best = normal(part);
    for (size_t g = 1; g < g_.geo->group.size(); ++g) {
      Bits<W> image;
      part.forEach([&](int s) { image.set(g_.geo->group[g][size_t(s)]); });
      if (const Bits<W> k = normal(image); k < best) best = k;
    }
    return best;
  }

  Bits<W> normal(const Bits<W>& part) const {
    if (!translate_) return part;
    const int n = g_.geo->n, first = lowest(part);
    int minCol = n;
    part.forEach([&](int s) { minCol = std::min(minCol, s % n); });
    return shiftDown(part, (first / n) * n + minCol);
  }

  // The set with every index lowered by k (no member is below k).
  static Bits<W> shiftDown(const Bits<W>& b, int k) {
    Bits<W> r;
    const int words = k / 64, bits = k % 64;
    for (int i = 0; i + words < W; ++i) {
      uint64_t x = b.w[i + words] >> bits;
      if (bits && i + words + 1 < W) x |= b.w[i + words + 1] << (64 - bits);
      r.w[i] = x;
    }
    return r;
  }

  uint32_t partValue(const Bits<W>& part) {
    if (auto it = table_.find(part); it != table_.end()) return it->second;
    if (stop && stop->load(std::memory_order_relaxed)) throw std::runtime_error("stopped");
    // A part of k squares has at most k options, so its value is at most k.
    std::vector<bool> seen(size_t(part.count()) + 2, false);
    part.forEach([&](int v) {
      ++options;
      const uint32_t x = value(part.andNot(g_.kill[v]));
      if (x < seen.size()) seen[x] = true;
    });
    uint32_t g = 0;
    while (seen[g]) ++g;
    table_.emplace(part, g);
    if (sink_) write(part, g);
    return g;
  }

  // One entry: the number of squares, the first square, the gaps to each
  // next one (each >= 1), then the value.
  void write(const Bits<W>& part, uint32_t g) {
    sink_->reply(uint32_t(part.count()));
    int last = -1;
    part.forEach([&](int s) {
      sink_->reply(uint32_t(last < 0 ? s : s - last));
      last = s;
    });
    sink_->reply(g);
  }

  const Graph<W>& g_;
  ProofSink* sink_;
  bool translate_ = false;
  std::unordered_map<Bits<W>, uint32_t, BitsHash<W>> table_;
};

}  // namespace qcert
