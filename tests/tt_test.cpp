// The transposition table's two regions (tt.hpp): a position's entry lives in
// the region its live-square count picks, the regions never see each other's
// entries, and every key, however its high bits fall, lands inside the far
// region whose bucket count is not a power of two.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>

#include "prover/game/tt.hpp"

using qcert::TranspositionTable;

TEST(TranspositionTable, SplitTableSizesAddUpToTheRequest) {
  TranspositionTable whole(8);
  EXPECT_EQ(whole.bytes(), size_t{8} << 20);
  EXPECT_EQ(whole.nearBytes(), 0u);
  TranspositionTable split(8, 3);  // 3 MiB rounds down to 2 MiB of near buckets; the far region takes the other 6
  EXPECT_EQ(split.bytes(), size_t{8} << 20);
  EXPECT_EQ(split.nearBytes(), size_t{2} << 20);
  EXPECT_THROW(TranspositionTable(4, 4), std::invalid_argument);
}

TEST(TranspositionTable, RegionsKeepTheirOwnEntries) {
  const int near = TranspositionTable::kNearMaxLive;
  TranspositionTable tt(4, 1);
  std::mt19937_64 rng(0x77);
  for (int i = 0; i < 2000; ++i) {
    const uint64_t key = i % 4 == 0 ? ~uint64_t(i) : rng();  // all-ones high bits: the far index's edge
    tt.store(key, near, true, uint16_t(i & 0x7fff), 1);
    tt.store(key, near + 1, false, TranspositionTable::kNoMove, 1);
    const auto inNear = tt.probe(key, near), inFar = tt.probe(key, near + 1);
    ASSERT_TRUE(inNear.found && inNear.win) << i;
    EXPECT_EQ(inNear.move, uint16_t(i & 0x7fff));
    ASSERT_TRUE(inFar.found && !inFar.win) << i;
    EXPECT_TRUE(tt.probe(key, 0).win) << "count 0 is near, so it reads the near entry";
  }
  tt.clear();
  EXPECT_FALSE(tt.probe(~uint64_t{0}, near).found);
  EXPECT_FALSE(tt.probe(~uint64_t{0}, near + 1).found);
  // Unsplit, every count shares the one region.
  TranspositionTable whole(1);
  whole.store(42, 3, true, 7, 1);
  EXPECT_TRUE(whole.probe(42, 200).found);
}
