// What a request writes into each certificate's header: the claim it proves
// and the producer text (the settings that made its bytes).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "prover/game/prove.hpp"

namespace qcert {

// The claim of the position after `queens` with a heap of `heap`, in the request's game.
ClaimSpec claimOf(const ProveRequest& req, const std::vector<int>& queens, uint32_t heap, bool win, bool grundy);

// searched: false for certificates the mirror lemma makes without a search;
// units: false for a run without work units.
std::string producerText(const ProveRequest& req, bool searched = true, bool units = true);

}  // namespace qcert
