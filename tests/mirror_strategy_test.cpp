// Exhaustive replay of the centre-then-mirror strategy on odd boards: after
// the first player's centre queen, every opponent move v is answered by its
// half-turn image, which must always be legal; the walk covers all opponent
// replies (memo over canonical positions) until the opponent cannot move.
#include <gtest/gtest.h>

#include <unordered_set>

#include "prover/geometry.hpp"
#include "prover/game/graph.hpp"
#include "prover/game/search.hpp"
#include "tests/support.hpp"
#include "prover/game/tt.hpp"

using namespace qcert;

namespace {

template <int W>
struct MirrorWalk {
  const Geometry& geo;
  Graph<W> gr;
  std::unordered_set<Bits<W>, BitsHash<W>> seen;  // canonical forms
  uint64_t positions = 0, replies = 0, terminal = 0;
  bool failed = false;

  explicit MirrorWalk(const Geometry& g) : geo(g), gr(g) {}

  // The opponent is to move at L, which is half-turn symmetric.
  void walk(const Bits<W>& L) {
    if (failed) return;
    if (!seen.insert(gr.canonical(L)).second) return;
    ++positions;
    ASSERT_EQ(gr.image(2, L), L) << "position lost its half-turn symmetry";
    if (L.empty()) {
      ++terminal;  // the opponent cannot move: the mirror player has won
      return;
    }
    L.forEach([&](int v) {
      if (failed) return;
      const int m = geo.mirror180(v);
      const Bits<W> after = L.andNot(gr.kill[v]);
      if (m == v || !after.test(m)) {
        failed = true;
        ADD_FAILURE() << "mirror reply " << geo.squareName(m) << " to " << geo.squareName(v) << " is not legal";
        return;
      }
      ++replies;
      walk(after.andNot(gr.kill[m]));
    });
  }
};

class MirrorStrategy : public ::testing::TestWithParam<int> {};

TEST_P(MirrorStrategy, CentreThenHalfTurnWinsAgainstEveryReply) {
  const int n = GetParam();
  const Geometry geo = queensGeometry(n);
  const int centre = (n / 2) * n + n / 2;
  qtest::withWidth(n, [&]<int W>() {
    MirrorWalk<W> w(geo);
    const Bits<W> root = w.gr.all.andNot(w.gr.kill[centre]);
    w.walk(root);
    EXPECT_FALSE(w.failed);
    EXPECT_GT(w.terminal, 0u);
    RecordProperty("positions", std::to_string(w.positions));
    std::printf("n=%d: %llu symmetric positions, %llu mirror replies checked\n", n,
                (unsigned long long)w.positions, (unsigned long long)w.replies);
    // Consistency with the search: the opponent is lost after the centre.
    if (n <= 9) {
      TranspositionTable tt(16);
      Solver<W> s(w.gr, tt, SearchOptions{});
      EXPECT_FALSE(s.wins(root, 0));
      EXPECT_TRUE(s.wins(w.gr.all, 0));
    }
  });
}

INSTANTIATE_TEST_SUITE_P(OddBoards, MirrorStrategy, ::testing::Values(1, 3, 5, 7, 9, 11, 13, 15, 17),
                         [](const auto& info) { return "n" + std::to_string(info.param); });

}  // namespace
