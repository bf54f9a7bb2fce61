// A claim proved in work units: the unit runner's passes (per heap, for a
// Grundy value), then the manifest that ties the shards together, or, when
// a unit is lost, one ordinary certificate of the win it shows.
#pragma once
#include "prover/game/prove.hpp"

namespace qcert {

// The sharded run of req (req.sharded()) from the position `root` of g;
// tt: the table the units share (unless --deterministic).
template <int W>
ProveResult proveSharded(const Geometry& geo, const Graph<W>& g, const Bits<W>& root, TranspositionTable& tt,
                         const ProveRequest& req);

}  // namespace qcert
