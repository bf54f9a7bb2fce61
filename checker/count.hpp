// Count certificates (docs/count-certificates.md): the checker enumerates the
// cells itself, recounts them with its own plain searches and sums them.
#pragma once

#include "checker/certificate_file.hpp"

#include <cstdint>
#include <iosfwd>
#include <string>

namespace qcert::checker {

struct CountResult {
  std::string statement;     // what VERIFIED: is followed by (the claim, in words)
  uint64_t cells = 0;        // M: cells in the certificate
  uint64_t recounted = 0;    // cells recounted (M, or K in sample mode)
  double recountSeconds = 0;
  std::string producer;      // CountClaim.producer (untrusted, informational)
};

// `cert` is a count certificate (cert.isCount).  sample = 0: recount every
// cell; sample = K > 0: recount K distinct cells drawn with mt19937_64(seed).
// Coverage and sums are checked in full either way.  Returns normally only if
// everything recounted agrees; otherwise throws Rejection.
// parts = K > 0: recount only the cells i with i % K == part (one of K
// processes sharing the work; none of them alone verifies the claim).
// progress: report cells recounted on stderr about once a second.
// announce (may be null): one line on the work ahead, before recounting.
// Throws NotChecked when the cells' stated totals cannot be recounted within
// the time limit (limits.hpp), or when time or memory run out.
CountResult verifyCountCertificate(const Certificate& cert, unsigned jobs, uint64_t sample, uint64_t seed,
                                   uint64_t part = 0, uint64_t parts = 0, bool progress = false,
                                   std::ostream* announce = nullptr);

}  // namespace qcert::checker
