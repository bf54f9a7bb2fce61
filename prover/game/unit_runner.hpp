// The unit runner: proves (or finds lost) a worker's share of the work
// units below a loser position, on --jobs threads, each unit written as its
// own shard (unit_plan.hpp: the plan and its files; sharded.hpp: the manifest).
#pragma once
#include <filesystem>
#include <vector>

#include "prover/game/progress.hpp"
#include "prover/game/prove.hpp"

namespace qcert {

// The units below the loser position (root, heap), `req.select`'s share of
// them proved or found lost, in dir (created here, with its parents).
// searchTotal: every solver's figures added.
template <int W>
UnitOutcome runUnits(const Graph<W>& g, const Bits<W>& root, const std::vector<int>& rootQueens, uint32_t heap,
                     TranspositionTable& tt, const ProveRequest& req, const std::filesystem::path& dir,
                     SearchStats& searchTotal, ProgressReporter& progress);

}  // namespace qcert
