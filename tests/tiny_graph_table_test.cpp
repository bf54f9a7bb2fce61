// The checker's small-graph table (checker/tiny_graph_table.hpp) against a
// brute-force Grundy recursion written here from the definition, for every
// graph on 7 vertices and the induced subgraphs the solver asks about.  The
// table is trusted code: one wrong bit could let the checker accept a false
// claim, and the certificates in the other tests touch only some entries.
#include "checker/tiny_graph_table.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <thread>
#include <vector>

namespace {

// closed[v]: v and its neighbours, for the graph on 0..6 whose pair (i, j),
// i < j, is adjacent when bit j*(j-1)/2 + i of code is set.
// closed[7..32] = 0 (lost() reads closed[32]).
void closedNeighbourhoods(uint32_t code, uint32_t (&closed)[33]) {
  std::fill(closed, closed + 33, 0);
  for (unsigned v = 0; v < 7; ++v) {
    closed[v] = uint32_t(1) << v;
    for (unsigned u = 0; u < 7; ++u) {
      const unsigned a = std::min(u, v), b = std::max(u, v);
      if (u != v && (code >> (b * (b - 1) / 2 + a) & 1)) closed[v] |= uint32_t(1) << u;
    }
  }
}

// G(S) = mex { G(S - N[v]) : v in S }.
unsigned bruteGrundy(uint32_t set, const uint32_t (&closed)[33]) {
  uint64_t seen = 0;
  for (uint32_t x = set; x; x &= x - 1) seen |= uint64_t(1) << bruteGrundy(set & ~closed[std::countr_zero(x)], closed);
  return unsigned(std::countr_one(seen));
}

// A random graph on 32 vertices (each pair adjacent with probability 1/3),
// as closed neighbourhoods, closed[32] = 0; and a source of random words.
struct RandomFrames {
  uint64_t state;
  uint64_t next() { return state ^= state << 13, state ^= state >> 7, state ^= state << 17; }
  void graph(uint32_t (&closed)[33]) {
    std::fill(closed, closed + 33, 0);
    for (unsigned v = 0; v < 32; ++v) closed[v] |= uint32_t(1) << v;
    for (unsigned v = 0; v < 32; ++v)
      for (unsigned u = v + 1; u < 32; ++u)
        if (next() % 3 == 0) closed[v] |= uint32_t(1) << u, closed[u] |= uint32_t(1) << v;
  }
  uint32_t set(unsigned size) {  // `size` distinct vertices
    uint32_t s = 0;
    while (unsigned(std::popcount(s)) < size) s |= uint32_t(1) << (next() % 32);
    return s;
  }
};

// The Grundy value of the graph that `set` (at most 7 vertices) induces,
// by brute force over its members relabelled 0..k-1.
unsigned inducedGrundy(const uint32_t (&closed)[33], uint32_t set) {
  uint32_t member[7], local[33] = {};
  unsigned k = 0;
  for (uint32_t x = set; x; x &= x - 1) member[k++] = unsigned(std::countr_zero(x));
  for (unsigned a = 0; a < k; ++a)
    for (unsigned b = 0; b < k; ++b)
      if (closed[member[a]] >> member[b] & 1) local[a] |= uint32_t(1) << b;
  return bruteGrundy((uint32_t(1) << k) - 1, local);
}

TEST(TinyGraphTable, LimitIsSevenWithoutHeapSixWithOne) {
  EXPECT_EQ(qcert::checker::TinyGraphTable::limit(0), 7u);
  EXPECT_EQ(qcert::checker::TinyGraphTable::limit(1), 6u);
  EXPECT_EQ(qcert::checker::TinyGraphTable::limit(5), 6u);
}

TEST(TinyGraphTable, EverySevenVertexGraphIsLostExactlyWhenItsGrundyValueIsZero) {
  const qcert::checker::TinyGraphTable table;
  size_t wrong = 0, lost = 0;
  for (uint32_t code = 0; code < (uint32_t(1) << 21); ++code) {
    uint32_t closed[33];
    closedNeighbourhoods(code, closed);
    const bool expected = bruteGrundy(0x7f, closed) == 0;
    lost += expected;
    wrong += table.lost(0x7f, closed, 0) != expected;
  }
  EXPECT_EQ(wrong, 0u);
  // Not a constant table: both answers occur (335205 lost graphs, counted by
  // the brute force above when the table was written).
  EXPECT_EQ(lost, 335205u);
}

TEST(TinyGraphTable, InducedSubgraphsWithHeaps) {
  // Every 97th graph on 7 vertices, each subset of at most 6 vertices (the
  // order of a subset's vertices is the order of their numbers), heaps 0..7.
  const qcert::checker::TinyGraphTable table;
  size_t wrong = 0, asked = 0;
  for (uint32_t code = 0; code < (uint32_t(1) << 21); code += 97) {
    uint32_t closed[33];
    closedNeighbourhoods(code, closed);
    for (uint32_t set = 0; set < 128; ++set) {
      if (std::popcount(set) > 6) continue;
      const unsigned g = bruteGrundy(set, closed);
      for (uint32_t h = 0; h < 8; ++h, ++asked) wrong += table.lost(set, closed, h) != (g == h);
    }
  }
  EXPECT_EQ(wrong, 0u);
  EXPECT_GT(asked, 1000000u);
}

TEST(TinyGraphTable, InducedSubgraphsAnywhereInAThirtyTwoVertexFrame) {
  // The solver asks about vertex sets spread over a frame of up to 32
  // vertices (bit 31 included) whose other vertices have edges of their own:
  // random graphs on 32 vertices, random sets of at most 7, heaps 0..2.
  const qcert::checker::TinyGraphTable table;
  RandomFrames random{0x9E3779B97F4A7C15ull};
  size_t wrong = 0, asked = 0, lost = 0;
  for (int round = 0; round < 20000; ++round) {
    uint32_t closed[33];
    random.graph(closed);
    const unsigned k = unsigned(random.next() % 8);
    const uint32_t set = random.set(k);
    const unsigned g = inducedGrundy(closed, set);
    for (uint32_t h = 0; h < 3; ++h) {
      if (k > qcert::checker::TinyGraphTable::limit(h)) continue;
      ++asked, lost += g == h;
      wrong += table.lost(set, closed, h) != (g == h);
    }
  }
  EXPECT_EQ(wrong, 0u);
  EXPECT_GT(asked, 50000u);
  EXPECT_GT(lost, 5000u);  // both answers occur
}

TEST(TinyGraphTable, CarriedCodesAreTheCodesOfTheInducedSubgraphs) {
  // The solver carries a position's code (at most kCoded vertices) to its
  // options (subsetCode).  That must be the option's own code, and the table
  // read through it must agree with the brute force.
  using qcert::checker::TinyGraphTable;
  const TinyGraphTable table;
  RandomFrames random{0x2545F4914F6CDD1Dull};
  size_t wrong = 0, asked = 0;
  for (int round = 0; round < 20000; ++round) {
    uint32_t closed[33];
    random.graph(closed);
    const uint32_t parent = random.set(unsigned(random.next() % (TinyGraphTable::kCoded + 1)));
    uint32_t child = 0;
    for (uint32_t x = parent; x; x &= x - 1)
      if (random.next() % 2) child |= x & -x;
    const uint64_t carried = table.subsetCode(TinyGraphTable::codeOf64(parent, closed), parent, child);
    wrong += carried != TinyGraphTable::codeOf64(child, closed);
    if (const unsigned k = unsigned(std::popcount(child)); k <= 7) {
      const unsigned g = inducedGrundy(closed, child);
      for (uint32_t h = 0; h < 3; ++h)
        if (k <= TinyGraphTable::limit(h)) ++asked, wrong += table.lostCoded(k, uint32_t(carried), h) != (g == h);
    }
  }
  EXPECT_EQ(wrong, 0u);
  EXPECT_GT(asked, 10000u);
}

TEST(TinyGraphTable, TwoThreadsFillingTheSevenVertexWordsAgree) {
  // The 7-vertex words are computed on first use by whichever thread asks;
  // two threads asking in opposite orders must both see the brute-force answer.
  const qcert::checker::TinyGraphTable table;
  std::vector<uint32_t> codes;
  std::vector<uint8_t> expected;
  for (uint32_t code = 0; code < (uint32_t(1) << 21); code += 13) {
    uint32_t closed[33];
    closedNeighbourhoods(code, closed);
    codes.push_back(code);
    expected.push_back(bruteGrundy(0x7f, closed) == 0);
  }
  size_t wrong[2] = {0, 0};
  auto ask = [&](int thread) {
    for (size_t i = 0; i < codes.size(); ++i) {
      const size_t k = thread == 0 ? i : codes.size() - 1 - i;
      uint32_t closed[33];
      closedNeighbourhoods(codes[k], closed);
      wrong[thread] += table.lost(0x7f, closed, 0) != (expected[k] != 0);
    }
  };
  std::thread a(ask, 0), b(ask, 1);
  a.join(), b.join();
  EXPECT_EQ(wrong[0], 0u);
  EXPECT_EQ(wrong[1], 0u);
}

}  // namespace
