// Work units: a claim split at the loser's turn into independent positions,
// each proved and written as its own shard certificate, tied together by a
// manifest (docs/certificate-format.md, "Sharded certificates").
//
// Every child of a loser position must be searched anyway, so threads and
// processes (MPI ranks, or batch jobs given --unit I --of K) take units from
// one deterministic list and no work is speculative unless the position turns
// out not to be lost after all. A unit is finished exactly when its file
// exists (written atomically), which is what makes stop-and-resume safe.
#pragma once
#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "prover/game/certificate.hpp"
#include "prover/game/proof.hpp"

namespace qcert {

// The moves the checker's loser rule generates at (live, heap), in its order:
// orbit leaders under the exact stabiliser by square, then heap moves.
template <int W>
std::vector<int> loserMoves(const Graph<W>& g, const Bits<W>& live, uint32_t heap) {
  std::vector<int> moves;
  if (g.bigGroup()) {
    moves = g.groupOrbitLeaders(live);
    for (uint32_t k = 0; k < heap; ++k) moves.push_back(kHeapMove + int(k));
    return moves;
  }
  const unsigned stab = g.stabiliser(live);
  live.forEach([&](int v) {
    if (g.orbitLeader(stab, v)) moves.push_back(v);
  });
  for (uint32_t k = 0; k < heap; ++k) moves.push_back(kHeapMove + int(k));
  return moves;
}

struct UnitSelection {
  int index = 0;  // this worker proves units i with i % count == index
  int count = 1;
};

struct UnitOutcome {
  size_t units = 0;        // units in the plan
  size_t mine = 0;         // units this worker is responsible for
  size_t resumed = 0;      // of mine, already finished before this run
  size_t proved = 0;       // of mine, proved in this run
  size_t splitUnits = 0;   // units over --split-above, proved by sub-units instead
  size_t subUnits = 0;     // of their sub-units, this worker's
  size_t refutedSplits = 0;  // split units whose guessed move a sub-unit refuted (proved whole instead)
  size_t undecided = 0;    // units of other workers not yet proved, split or found lost
  int losingMove = -1;     // a unit found lost: the parent is a win by this move
  bool interrupted = false;
  EmitStats emit;
  uint64_t certBytes = 0;
};

inline std::string unitFileName(size_t i) {
  char name[32];
  std::snprintf(name, sizeof name, "u%05zu.qcert", i);
  return name;
}
inline std::string lostMarkerName(size_t i) {
  char name[32];
  std::snprintf(name, sizeof name, "u%05zu.lost", i);
  return name;
}

}  // namespace qcert
