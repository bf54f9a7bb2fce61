// The replay of docs/certificate-format.md ("Replay"): verify(P, want, lastMove)
// with the checker's own exhaustive solver below the cutoff, its own D4
// canonical form for the memo and its own stabiliser for the symmetry skip.
#pragma once

#include "checker/certificate_file.hpp"

#include <cstdint>
#include <functional>

namespace qcert::checker {

// A read-only hook for front ends (ui/: `qcert explain` and `qcert play` use
// a certificate's replies).  Called once for every winner decision the check
// reads (a reply token, or a manifest's winBy move) with the position it is
// read at and the move it names: the live squares as bit s of words[s / 64]
// (`count` words), the heap, and the move (a square >= 0, or -1 - h' for the
// heap move to h').  It is called before that move is verified, so a
// decision is proved only when the whole check ends VERIFIED.  A manifest's
// shards replay on --jobs threads: calls may then be concurrent.  The hook
// sees copies and cannot change the replay.
using ReplyObserver = std::function<void(const uint64_t* words, unsigned count, uint32_t heap, int move)>;

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
// `observer` (may be null): see ReplyObserver.
ReplayStats replayCertificate(const Certificate& cert, TokenStream& tokens, const ReplyObserver* observer = nullptr);

}  // namespace qcert::checker
