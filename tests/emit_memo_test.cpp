// The proof emitter's memo is kept by a work unit's thread and reused for
// all its units (emptied by a new generation, not reallocated). Reuse must
// not change a single token: a stale entry taken for a current one would
// drop a subtree the checker needs.
#include <gtest/gtest.h>

#include <vector>

#include "prover/geometry.hpp"
#include "prover/game/graph.hpp"
#include "prover/game/proof.hpp"
#include "prover/game/search.hpp"
#include "prover/game/tt.hpp"

using namespace qcert;

namespace {

struct RecordingSink : ProofSink {
  std::vector<uint32_t> tokens;
  void reply(uint32_t token) override { tokens.push_back(token); }
};

struct Emitted {
  std::vector<uint32_t> tokens;
  EmitStats stats;
};

// Emits (live, heap) with a fresh solver and table, so that only the memo
// differs between two calls.
Emitted emitOnce(const Graph<1>& g, const Bits<1>& live, uint32_t heap, EmitMemo<1>* memo) {
  TranspositionTable tt(8);
  Solver<1> solver(g, tt, SearchOptions{});
  const bool win = solver.wins(live, heap);
  RecordingSink sink;
  ProofEmitter<1> emitter(g, solver, sink, EmitOptions{4, true}, memo);
  emitter.emit(live, heap, win);
  return {sink.tokens, emitter.stats};
}

TEST(EmitMemo, ReusedMemoEmitsExactlyWhatAFreshOneDoes) {
  const Geometry geo = queensGeometry(8);
  const Graph<1> g(geo);
  // Positions after one queen, both outcomes among them, plus heaps; the
  // empty board first so the shared memo has grown (and rehashed) before
  // the smaller positions reuse it.
  std::vector<std::pair<Bits<1>, uint32_t>> positions{{g.all, 0}};
  for (int s : {0, 1, 9, 18, 27, 7, 63})
    for (uint32_t heap : {0u, 2u}) positions.push_back({g.all.andNot(g.kill[s]), heap});
  EmitMemo<1> shared;
  size_t nonEmpty = 0;
  for (int round = 0; round < 2; ++round)  // the second round meets its own old entries
    for (const auto& [live, heap] : positions) {
      const Emitted fresh = emitOnce(g, live, heap, nullptr);
      const Emitted reused = emitOnce(g, live, heap, &shared);
      EXPECT_EQ(reused.tokens, fresh.tokens) << "round " << round << ", heap " << heap;
      EXPECT_EQ(reused.stats.lossNodes, fresh.stats.lossNodes);
      EXPECT_EQ(reused.stats.memoEntries, fresh.stats.memoEntries);
      nonEmpty += !fresh.tokens.empty();
    }
  EXPECT_GT(nonEmpty, positions.size());  // the test emitted real proofs, not empty ones
}

}  // namespace

// A halt (SIGINT, a lost sibling unit) can land inside a search the emitter
// starts for a winning move; that search's answer is void. The emitter must
// then abandon and say so, not report a broken proof: on 2026-11-28 a
// SIGINT to a 16-thread torus run ended in "internal error: proof emission:
// a position the search called won has no winning move". A node budget
// halts the solver the same way, at a point this test can choose.
TEST(EmitMemo, HaltedSolverAbandonsWithoutError) {
  const Geometry geo = queensGeometry(10);
  const Graph<2> g(geo);
  const Bits<2> afterA1 = g.all.andNot(g.kill[0]);
  int abandoned = 0;
  for (uint64_t budget : {uint64_t{1}, uint64_t{3000}, uint64_t{100000}, uint64_t{1} << 40}) {
    TranspositionTable tt(8);
    Solver<2> cold(g, tt, SearchOptions{});  // nothing solved yet: emission searches
    cold.setNodeBudget(budget);
    RecordingSink sink;
    ProofEmitter<2> emitter(g, cold, sink, EmitOptions{4, false});  // no mirror default: every reply searched
    bool complete = true;
    EXPECT_NO_THROW(complete = emitter.emit(afterA1, 0, true)) << "budget " << budget;
    EXPECT_EQ(complete, !cold.overBudget()) << "budget " << budget;
    abandoned += !complete;
  }
  EXPECT_GT(abandoned, 0);  // the small budgets really did halt the emission
  EXPECT_LT(abandoned, 4);  // and the large one let it finish
}
