// The checker library, as the front end uses it: verify a certificate in
// full (telling an observer every reply it reads), and list the loser's
// moves in the checker's own order. Included only by files that already
// build on the checker's headers (certified.hpp stays free of them).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "checker/board.hpp"
#include "checker/checker.hpp"

namespace qcert::ui {

// Runs the checker on `path` (quietly, with `observer`); returns the verified
// statement ("VERIFIED: " removed). Throws CertificateError (certified.hpp)
// with status 1 when rejected, 2 when nothing was decided, naming why.
// progress: the checker's own progress on stderr (where it has any).
std::string verifiedStatement(const std::string& path, unsigned jobs, double timeLimitSeconds,
                              const checker::ReplyObserver* observer, bool progress = false);

// The loser's moves at (L, heap) as the checker generates them: board squares
// least in their orbit under the stabiliser of L, increasing, then heap moves
// (as -1 - h', h' = 0, 1, ...).
std::vector<int> loserMovesInCheckerOrder(const checker::Geometry<8>& geo, const checker::Bits<8>& L, uint32_t heap);

}  // namespace qcert::ui
