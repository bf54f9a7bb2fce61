// The checker's side of the game variants (docs/variants.md): its own attack
// rule `attacks(Board, ...)`, the attack masks of `Geometry<W>(const Board&)`
// and the symmetry group `sym` it derives, against tests/variants_reference.hpp
// (written from the definitions: rays walked over holes and round the torus,
// king and knight steps).  tests/variants_test.cpp holds the prover's
// geometry to the same reference, so the two sides find the same group as a
// set of permutations, which the certificate's token order depends on (orbit
// leaders under the stabiliser, canonical forms under the group).
//
//  1. attacks: every piece on squares 1..7, tori 1..8, rectangles 1..5 x 1..7,
//     each also with random holes (vref::allBoards);
//  2. the group: every candidate map (the square's 8 about its centre, the
//     rectangle's 4, on the torus each followed by each shift) that maps holes
//     to holes and attacks onto attacks, each exactly once, identity first;
//     its size on known boards; RapidCheck: isAutomorphism agrees with the
//     reference on candidates and on arbitrary transpositions, every element
//     preserves attacks and holes, and Grundy values (naive mex) of random
//     positions are invariant under every element.
// Checker code only (checker_core); seeds: RC_PARAMS, QCERT_TEST_SEED.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <set>

#include "checker/board.hpp"
#include "tests/variants_reference.hpp"

namespace {

using vref::Perm;

qcert::checker::Board toChecker(const vref::Board& b) {
  qcert::checker::Board c;
  c.rows = unsigned(b.rows), c.cols = unsigned(b.cols), c.torus = b.torus, c.piece = unsigned(b.piece);
  for (int h : b.holes) c.holes.push_back(unsigned(h));
  return c;
}

template <int W>
std::set<Perm> groupOf(const qcert::checker::Geometry<W>& geo) {
  std::set<Perm> out;
  for (const auto& m : geo.sym) out.insert(Perm(m.begin(), m.end()));
  return out;
}

vref::Board drawBoard(std::mt19937_64& g) {
  vref::BoardDraw d;
  d.maxSide = 7, d.maxRows = 5, d.maxCols = 7;
  return vref::randomBoard(g, d);
}

}  // namespace

TEST(CheckerVariantGeometry, AttacksFollowTheRules) {
  size_t boards = 0, pairs = 0;
  for (const vref::Board& b : vref::allBoards(vref::seedFromEnv(0x7a1a47))) {
    SCOPED_TRACE(b.describe());
    const qcert::checker::Board cb = toChecker(b);
    const qcert::checker::Geometry<1> geo(cb);
    ASSERT_EQ(geo.squares, unsigned(b.squares()));
    ASSERT_EQ(geo.rows, unsigned(b.rows));
    ASSERT_EQ(geo.n, unsigned(b.cols));
    for (int s = 0; s < b.squares(); ++s) {
      ASSERT_EQ(geo.onBoard.test(unsigned(s)), !b.isHole(s)) << "square " << b.name(s);
      const std::set<int> want = vref::attacked(b, s);
      for (int t = 0; t < b.squares(); ++t) {
        ++pairs;
        const bool w = s == t || want.count(t);
        ASSERT_EQ(geo.attack[s].test(unsigned(t)), w) << b.name(s) << " -> " << b.name(t);
        if (s != t) {
          ASSERT_EQ(qcert::checker::attacks(cb, s / b.cols, s % b.cols, t / b.cols, t % b.cols), bool(want.count(t)))
              << b.name(s) << " -> " << b.name(t);
        }
      }
    }
    ++boards;
  }
  EXPECT_EQ(boards, 5u * 88u);  // 45 boards per piece, 43 again with holes (not the two of one square)
  RecordProperty("boards", int(boards));
  RecordProperty("pairs", int(pairs));
}

// A few attack counts worked out by hand, so the reference itself is pinned.
TEST(CheckerVariantGeometry, HandCountedAttacks) {
  auto count = [](const vref::Board& b, int s) { return qcert::checker::Geometry<1>(toChecker(b)).attack[s].count() - 1; };
  EXPECT_EQ(count(vref::square(8, vref::kQueen), 0), 21u);           // a1 on 8x8
  EXPECT_EQ(count(vref::square(8, vref::kQueen), 27), 27u);          // d4 on 8x8
  EXPECT_EQ(count(vref::square(5, vref::kQueen, true), 0), 16u);     // torus: 4 lines of 4 others
  EXPECT_EQ(count(vref::square(4, vref::kBishop, true), 0), 5u);     // 4x4 torus: b2 c3 d4, d2 b4 (c3 on both)
  EXPECT_EQ(count(vref::square(3, vref::kKing, true), 4), 8u);       // 3x3 torus king: everything
  EXPECT_EQ(count(vref::square(4, vref::kKnight, true), 0), 4u);     // (1,2) and (1,-2) coincide mod 4
  EXPECT_EQ(count(vref::square(5, vref::kKnight, true), 0), 8u);
  EXPECT_EQ(count(vref::square(3, vref::kKnight), 4), 0u);           // the centre of 3x3
  EXPECT_EQ(count(vref::Board{2, 3, false, vref::kKnight, {}}, 0), 1u);  // a1 -> c2
  EXPECT_EQ(count(vref::Board{3, 5, false, vref::kBishop, {}}, 7), 4u);  // c2 on 3 rows
  // Lines pass over holes: a rook on a1 still attacks c1 past a hole on b1.
  const qcert::checker::Geometry<1> holed(toChecker(vref::square(3, vref::kRook, false, {1})));
  EXPECT_TRUE(holed.attack[0].test(2));
  EXPECT_FALSE(holed.onBoard.test(1));
}

TEST(CheckerVariantGeometry, WidthDoesNotChangeTheGeometry) {
  std::mt19937_64 g(vref::seedFromEnv(0x3d1d7));
  for (int i = 0; i < 40; ++i) {
    const vref::Board b = drawBoard(g);
    SCOPED_TRACE(b.describe());
    const qcert::checker::Geometry<1> a(toChecker(b));
    const qcert::checker::Geometry<4> c(toChecker(b));
    ASSERT_EQ(a.sym, c.sym);
    for (int s = 0; s < b.squares(); ++s)
      for (int t = 0; t < b.squares(); ++t) ASSERT_EQ(a.attack[s].test(t), c.attack[s].test(t));
  }
}

TEST(CheckerVariantSymmetry, GroupIsEveryCandidateAutomorphismOnce) {
  size_t boards = 0, elements = 0;
  for (const vref::Board& b : vref::allBoards(vref::seedFromEnv(0x7a1a47))) {
    SCOPED_TRACE(b.describe());
    const qcert::checker::Geometry<1> geo(toChecker(b));
    ASSERT_FALSE(geo.sym.empty());
    ASSERT_EQ(Perm(geo.sym[0].begin(), geo.sym[0].end()), vref::identity(b.squares()));
    const std::set<Perm> have = groupOf(geo), want = vref::bruteGroup(b);
    ASSERT_EQ(have.size(), geo.sym.size()) << "a map listed twice";
    ASSERT_EQ(have, want);
    if (b.holes.empty()) { ASSERT_EQ(have.size(), vref::expectedGroupSize(b)); }
    ++boards, elements += have.size();
  }
  RecordProperty("boards", int(boards));
  RecordProperty("elements", int(elements));
}

TEST(CheckerVariantSymmetry, GroupSizesOnKnownBoards) {
  auto size = [](const vref::Board& b) {
    if (b.squares() <= 64) return qcert::checker::Geometry<1>(toChecker(b)).sym.size();
    return qcert::checker::Geometry<8>(toChecker(b)).sym.size();
  };
  for (int piece = 0; piece < 5; ++piece) {
    SCOPED_TRACE(vref::pieceWord(piece, true));
    EXPECT_EQ(size(vref::square(1, piece)), 1u);
    for (int n = 2; n <= 12; ++n) EXPECT_EQ(size(vref::square(n, piece)), 8u) << n;
    for (auto [r, c] : {std::pair{2, 3}, {3, 5}, {5, 4}, {4, 9}, {7, 3}}) EXPECT_EQ(size(vref::Board{r, c, false, piece, {}}), 4u);
    EXPECT_EQ(size(vref::Board{1, 6, false, piece, {}}), 2u);
    EXPECT_EQ(size(vref::square(2, piece, true)), 8u);
    for (int n = 3; n <= 9; ++n) EXPECT_EQ(size(vref::square(n, piece, true)), size_t(8 * n * n)) << "torus " << n;
    // A hole at a corner leaves the mirror in the diagonal through it.
    for (int n = 2; n <= 7; ++n) {
      EXPECT_EQ(size(vref::square(n, piece, false, {0})), 2u) << n;
      EXPECT_EQ(size(vref::square(n, piece, false, {n - 1})), 2u) << n;
    }
    // A hole at the centre of an odd square keeps all 8; on the torus any
    // one hole keeps the 8 maps about it.
    for (int n : {3, 5, 7}) EXPECT_EQ(size(vref::square(n, piece, false, {n * n / 2})), 8u);
    for (int n = 3; n <= 7; ++n) EXPECT_EQ(size(vref::square(n, piece, true, {n + 1})), 8u) << "torus " << n;
  }
}

// isAutomorphism against the reference on the candidates, on candidates
// spoiled by a transposition, and on bare transpositions (which can be
// automorphisms: two isolated knight squares, twin squares of a small board).
RC_GTEST_PROP(CheckerVariantSymmetry, IsAutomorphismIsExact, (uint64_t seed)) {
  std::mt19937_64 g(seed);
  const vref::Board b = drawBoard(g);
  RC_LOG() << b.describe() << "\n";
  const qcert::checker::Geometry<1> geo(toChecker(b));
  const vref::Relation rel = vref::relation(b);
  const std::set<Perm> cands = vref::candidates(b);
  std::vector<Perm> tries(cands.begin(), cands.end());
  std::uniform_int_distribution<int> sq(0, b.squares() - 1);
  for (int i = 0; i < 20; ++i) {
    Perm p = i % 2 ? tries[std::uniform_int_distribution<size_t>(0, cands.size() - 1)(g)] : vref::identity(b.squares());
    std::swap(p[sq(g)], p[sq(g)]);
    tries.push_back(p);
  }
  bool spoiledYetAutomorphism = false;
  for (size_t i = 0; i < tries.size(); ++i) {
    const std::vector<uint16_t> m(tries[i].begin(), tries[i].end());
    const bool want = vref::isAutomorphism(b, rel, tries[i]);
    RC_ASSERT(geo.isAutomorphism(m) == want);
    spoiledYetAutomorphism |= want && i >= cands.size() && !cands.count(tries[i]);
  }
  RC_TAG(spoiledYetAutomorphism ? "a spoiled map was an automorphism" : "spoiled maps were not");
}

RC_GTEST_PROP(CheckerVariantSymmetry, EveryElementPreservesAttacksAndHoles, (uint64_t seed)) {
  std::mt19937_64 g(seed);
  const vref::Board b = drawBoard(g);
  RC_LOG() << b.describe() << "\n";
  const qcert::checker::Geometry<1> geo(toChecker(b));
  const vref::Relation rel = vref::relation(b);
  for (const auto& m : geo.sym) {
    for (int s = 0; s < b.squares(); ++s) {
      RC_ASSERT(b.isHole(s) == b.isHole(m[s]));
      for (int t = 0; t < b.squares(); ++t)
        if (s != t && !b.isHole(s) && !b.isHole(t)) RC_ASSERT(rel[s][t] == rel[m[s]][m[t]]);
    }
    RC_ASSERT(std::set<int>(m.begin(), m.end()).size() == size_t(b.squares()));
  }
}

// Grundy values by naive mex on boards with at most 16 live squares after
// the random pieces: equal at a position and at each of its images.
RC_GTEST_PROP(CheckerVariantSymmetry, GrundyValuesAreInvariant, (uint64_t seed)) {
  std::mt19937_64 g(seed);
  vref::Board b;
  vref::Position p;
  do {
    b = drawBoard(g);
    p = vref::randomPosition(b, 3, g);
  } while (__builtin_popcountll(p.live) > 16);
  RC_LOG() << b.describe() << ", " << p.pieces.size() << " pieces\n";
  const qcert::checker::Geometry<1> geo(toChecker(b));
  vref::NaiveKayles game(b);
  const int want = game.grundy(p.live);
  for (const auto& m : geo.sym) RC_ASSERT(game.grundy(vref::imageMask(Perm(m.begin(), m.end()), p.live)) == want);
  RC_TAG(geo.sym.size() > 8 ? "more than 8 symmetries" : "at most 8");
}
