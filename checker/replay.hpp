// The replay of docs/certificate-format.md ("Replay"): verify(P, want, lastMove)
// with the checker's own exhaustive solver below the cutoff, its own D4
// canonical form for the memo and its own stabiliser for the symmetry skip.
#pragma once

#include "checker/certificate_file.hpp"
#include "checker/checker.hpp"  // ReplyObserver

#include <cstdint>

namespace qcert::checker {

struct ReplayStats {
  uint64_t nodes = 0;         // verify() calls
  uint64_t memoEntries = 0;
  uint64_t memoHits = 0;
  uint64_t cutoffSolves = 0;  // positions handed to the exhaustive solver
  uint64_t solverNodes = 0;   // positions the exhaustive solver expanded
  uint64_t pairedWins = 0;    // cutoff wins known from a sibling's solve (no solve)
};

// An upper bound on the memory one replay of `cert` uses, from its header
// (board size, replyCount): the function documented in `checker --help`.
uint64_t replayMemoryBound(const Certificate& cert);

// Builds the root from the claim and replays the whole certificate, consuming
// `tokens`.  Returns normally only if the claim is verified and every token
// was consumed; otherwise throws Rejection.
// `observer` (may be null): see ReplyObserver (checker.hpp).  `repliesOnly`
// (CheckOptions::repliesOnly): the positions at or below the cut-off are not
// solved, so a normal return then proves nothing.
ReplayStats replayCertificate(const Certificate& cert, TokenStream& tokens, const ReplyObserver* observer = nullptr,
                              bool repliesOnly = false);

}  // namespace qcert::checker
