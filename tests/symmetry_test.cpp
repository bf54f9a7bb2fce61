// Properties of the board symmetries, canonical forms, hash keys and the
// half-turn (mirror) lemma.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <array>
#include <set>

#include "prover/geometry.hpp"
#include "prover/game/graph.hpp"
#include "tests/support.hpp"

using namespace qcert;
using qtest::withWidth;

namespace {

using Perm = std::vector<int>;

Perm permOf(const Geometry& geo, int g) {
  Perm p(geo.squares);
  for (int s = 0; s < geo.squares; ++s) p[s] = geo.image(g, s);
  return p;
}
Perm compose(const Perm& a, const Perm& b) {  // a after b
  Perm c(b.size());
  for (size_t s = 0; s < b.size(); ++s) c[s] = a[b[s]];
  return c;
}
Perm identity(int squares) {
  Perm p(squares);
  for (int s = 0; s < squares; ++s) p[s] = s;
  return p;
}

// A random reachable position: queens placed by `choices` (each an index
// into the current live squares), stopping early when the board fills up.
template <int W>
Bits<W> playChoices(const Graph<W>& g, const std::vector<uint32_t>& choices, std::vector<int>* played = nullptr) {
  Bits<W> live = g.all;
  for (uint32_t ch : choices) {
    const int cnt = live.count();
    if (cnt == 0) break;
    const auto sq = qtest::toList(live);
    const int v = sq[ch % cnt];
    if (played) played->push_back(v);
    live = live.andNot(g.kill[v]);
  }
  return live;
}

}  // namespace

RC_GTEST_PROP(D4, SymmetriesFormTheDihedralGroupOfOrder8, ()) {
  const int n = *rc::gen::inRange(1, kMaxBoard + 1);
  const Geometry geo = queensGeometry(n);
  std::array<Perm, 8> p;
  for (int g = 0; g < 8; ++g) {
    p[g] = permOf(geo, g);
    // Each is a permutation of the squares and agrees with d4Image.
    RC_ASSERT(std::set<int>(p[g].begin(), p[g].end()).size() == size_t(geo.squares));
    for (int s = 0; s < geo.squares; ++s) {
      auto [r, c] = d4Image(g, n, s / n, s % n);
      RC_ASSERT(p[g][s] == r * n + c);
    }
  }
  const Perm id = identity(geo.squares);
  RC_ASSERT(p[0] == id);
  if (n == 1) {
    for (int g = 0; g < 8; ++g) RC_ASSERT(p[g] == id);
    return;
  }
  // Exactly 8 distinct permutations.
  RC_ASSERT(std::set<Perm>(p.begin(), p.end()).size() == 8u);
  // Closure and inverses: the composition of two symmetries is a symmetry;
  // each has an inverse among them.  The composition table is a Latin square.
  for (int a = 0; a < 8; ++a) {
    std::set<int> row;
    bool hasInverse = false;
    for (int b = 0; b < 8; ++b) {
      const Perm ab = compose(p[a], p[b]);
      int found = -1;
      for (int c = 0; c < 8; ++c)
        if (p[c] == ab) found = c;
      RC_ASSERT(found >= 0);
      row.insert(found);
      hasInverse |= found == 0;
    }
    RC_ASSERT(row.size() == 8u);
    RC_ASSERT(hasInverse);
  }
  // The search's inverse table (search.hpp kInverse) is right.
  constexpr int kInverse[8] = {0, 3, 2, 1, 4, 5, 6, 7};
  for (int g = 0; g < 8; ++g) RC_ASSERT(compose(p[g], p[kInverse[g]]) == id);
  // Dihedral relations: r = quarter turn (g=1) has order 4, g=2 is r^2 (the
  // half turn), g=3 is r^3; g=4..7 are reflections (order 2); s r s = r^-1;
  // and {r^k, s r^k} is the whole group.
  const Perm& r = p[1];
  const Perm r2 = compose(r, r), r3 = compose(r2, r);
  RC_ASSERT(r != id);
  RC_ASSERT(r2 != id);
  RC_ASSERT(compose(r3, r) == id);
  RC_ASSERT(r2 == p[2]);
  RC_ASSERT(r3 == p[3]);
  for (int g = 4; g < 8; ++g) {
    RC_ASSERT(p[g] != id);
    RC_ASSERT(compose(p[g], p[g]) == id);
    RC_ASSERT(compose(compose(p[g], r), p[g]) == r3);
  }
  std::set<Perm> generated;
  Perm rk = id;
  for (int k = 0; k < 4; ++k) {
    generated.insert(rk);
    generated.insert(compose(p[4], rk));
    rk = compose(r, rk);
  }
  RC_ASSERT(generated == std::set<Perm>(p.begin(), p.end()));
  // The half turn is Geometry::mirror180.
  for (int s = 0; s < geo.squares; ++s) RC_ASSERT(geo.mirror180(s) == p[2][s]);
}

RC_GTEST_PROP(D4, SymmetriesAreAutomorphismsOfTheQueenGraph, ()) {
  const int n = *rc::gen::inRange(1, kMaxBoard + 1);
  const int g = *rc::gen::inRange(0, 8);
  const Geometry geo = queensGeometry(n);
  for (int s = 0; s < geo.squares; ++s) {
    std::set<int> mapped;
    for (int t : geo.kills[s]) mapped.insert(geo.image(g, t));
    const auto& k = geo.kills[geo.image(g, s)];
    RC_ASSERT(mapped == std::set<int>(k.begin(), k.end()));
  }
}

RC_GTEST_PROP(D4, KillSetsFollowTheQueenRule, ()) {
  const int n = *rc::gen::inRange(1, kMaxBoard + 1);
  const Geometry geo = queensGeometry(n);
  RC_ASSERT(geo.squares == n * n);
  for (int s = 0; s < geo.squares; ++s) {
    std::set<int> want{s};
    for (int t = 0; t < geo.squares; ++t)
      if (t != s && qtest::queensAttack(n, s, t)) want.insert(t);
    RC_ASSERT(std::set<int>(geo.kills[s].begin(), geo.kills[s].end()) == want);
  }
}

RC_GTEST_PROP(D4, SymmetriesCommuteWithMoves, (const std::vector<uint32_t>& choices)) {
  const int n = *rc::gen::inRange(1, 13);
  const Geometry geo = queensGeometry(n);
  withWidth(n, [&]<int W>() {
    Graph<W> gr(geo);
    const Bits<W> live = playChoices(gr, choices);
    for (int g = 0; g < 8; ++g) {
      const Bits<W> imgLive = gr.image(g, live);
      RC_ASSERT(imgLive.count() == live.count());
      live.forEach([&](int v) {
        const int gv = geo.image(g, v);
        RC_ASSERT(imgLive.test(gv));
        RC_ASSERT(gr.image(g, live.andNot(gr.kill[v])) == imgLive.andNot(gr.kill[gv]));
      });
    }
  });
}

RC_GTEST_PROP(D4, CanonicalFormAndHashKeyAreSymmetryInvariant, (const std::vector<uint32_t>& choices)) {
  const int n = *rc::gen::inRange(1, 13);
  const uint32_t heap = *rc::gen::inRange<uint32_t>(0, 70);
  const Geometry geo = queensGeometry(n);
  withWidth(n, [&]<int W>() {
    Graph<W> gr(geo);
    const Bits<W> live = playChoices(gr, choices);
    const Bits<W> canon = gr.canonical(live);
    const uint64_t key = gr.key(gr.hashOf(live), heap);
    bool canonIsImage = false;
    unsigned stab = 0;
    for (int g = 0; g < 8; ++g) {
      const Bits<W> img = gr.image(g, live);
      RC_ASSERT(gr.canonical(img) == canon);
      RC_ASSERT(!(img < canon));
      RC_ASSERT(gr.key(gr.hashOf(img), heap) == key);
      canonIsImage |= img == canon;
      if (img == live) stab |= 1u << g;
    }
    RC_ASSERT(canonIsImage);
    RC_ASSERT(gr.stabiliser(live) == stab);
    // Incremental hashing agrees with hashing from scratch.
    live.forEach([&](int v) {
      const Hash8 inc = gr.without(gr.hashOf(live), live & gr.kill[v]);
      const Hash8 full = gr.hashOf(live.andNot(gr.kill[v]));
      for (int k = 0; k < 8; ++k) RC_ASSERT(inc.h[k] == full.h[k]);
    });
  });
}

RC_GTEST_PROP(D4, OrbitLeadersCoverEveryOrbitOnce, (const std::vector<uint32_t>& choices)) {
  const int n = *rc::gen::inRange(1, 13);
  const Geometry geo = queensGeometry(n);
  withWidth(n, [&]<int W>() {
    Graph<W> gr(geo);
    const Bits<W> live = playChoices(gr, choices);
    const unsigned stab = gr.stabiliser(live);
    // Every live square has exactly one leader in its orbit under stab.
    live.forEach([&](int v) {
      std::set<int> orbit;
      for (int g = 0; g < 8; ++g)
        if (stab >> g & 1) orbit.insert(geo.image(g, v));
      int leaders = 0;
      for (int w : orbit) {
        RC_ASSERT(live.test(w));
        leaders += gr.orbitLeader(stab, w);
      }
      RC_ASSERT(leaders == 1);
      RC_ASSERT(gr.orbitLeader(stab, *orbit.begin()));
    });
  });
}

// Mirror lemma: on an odd board, after the centre queen and any number of
// (move, half-turn image) pairs, every legal move's image is legal after it,
// and playing both restores half-turn symmetry.
RC_GTEST_PROP(Mirror, HalfTurnReplyIsAlwaysLegalOnOddBoards, (const std::vector<uint32_t>& choices)) {
  const int n = 2 * *rc::gen::inRange(1, 7) + 1;  // 3..13
  const Geometry geo = queensGeometry(n);
  withWidth(n, [&]<int W>() {
    Graph<W> gr(geo);
    const int centre = (n / 2) * n + n / 2;
    RC_ASSERT(geo.mirror180(centre) == centre);
    Bits<W> live = gr.all.andNot(gr.kill[centre]);
    auto checkPosition = [&](const Bits<W>& L) {
      RC_ASSERT(gr.image(2, L) == L);
      RC_ASSERT(!L.test(centre));
      L.forEach([&](int v) {
        const int m = geo.mirror180(v);
        RC_ASSERT(m != v);
        const Bits<W> after = L.andNot(gr.kill[v]);
        RC_ASSERT(after.test(m));
        RC_ASSERT(gr.image(2, after.andNot(gr.kill[m])) == after.andNot(gr.kill[m]));
      });
    };
    checkPosition(live);
    for (uint32_t ch : choices) {
      if (live.empty()) break;
      const auto sq = qtest::toList(live);
      const int v = sq[ch % sq.size()];
      live = live.andNot(gr.kill[v]);
      live = live.andNot(gr.kill[geo.mirror180(v)]);
      checkPosition(live);
    }
  });
}

// The search's mirror lemma (Graph::mirrorLemmaLoss): whenever it declares a
// position lost (heap 0), the naive solver agrees; the hash-based test used
// by the search agrees with the exact one.  Positions come from (move,
// half-turn image) pairs, after the centre queen on odd boards or not.
RC_GTEST_PROP(Mirror, MirrorLemmaLossIsSound, (const std::vector<uint32_t>& choices)) {
  const int n = *rc::gen::inRange(1, 9);
  const bool centre = *rc::gen::arbitrary<bool>();
  const Geometry geo = queensGeometry(n);
  Graph<1> gr(geo);
  qtest::NaiveGame naive = qtest::NaiveGame::queens(n);
  Bits<1> live = gr.all;
  if (centre && n % 2 == 1) live = live.andNot(gr.kill[(n / 2) * n + n / 2]);
  for (uint32_t ch : choices) {
    if (live.empty()) break;
    const auto sq = qtest::toList(live);
    const int v = sq[ch % sq.size()];
    const int m = geo.mirror180(v);
    live = live.andNot(gr.kill[v]);
    if (!live.test(m)) break;
    live = live.andNot(gr.kill[m]);
  }
  const bool lemma = gr.mirrorLemmaLoss(live);
  RC_ASSERT(gr.mirrorLemmaLoss(live, gr.hashOf(live)) == lemma);
  RC_TAG(lemma ? "lemma applies" : "lemma does not apply");
  if (lemma) RC_ASSERT(!naive.wins(live.w[0], 0));
}
