// Partizan game certificates (docs/partizan-game.md): a Header with
// `partizan` set, then a Seal.  Written from the doc alone; no code is
// shared with the prover.
#pragma once

#include "checker/certificate_file.hpp"

#include <iosfwd>
#include <string>

namespace qcert::checker {

// `cert` is a partizan certificate (cert.isPartizan).  Returns the statement
// that VERIFIED: is followed by; throws Rejection when the claim is not
// discharged, NotChecked when time or memory run out.  announce (may be
// null): one line on the work ahead, before it starts.
std::string verifyPartizanCertificate(const Certificate& cert, std::ostream* announce);

}  // namespace qcert::checker
