// Mod-2 game certificates (docs/mod2-game.md): a Header with `mod2` set, then
// a Seal.  The checker replays, evaluates or searches each claim itself.
#pragma once

#include "checker/certificate_file.hpp"

#include <iosfwd>
#include <string>

namespace qcert::checker {

// `cert` is a mod-2 certificate (cert.isMod2).  Returns the statement that
// VERIFIED: is followed by; throws Rejection when the claim is not
// discharged, NotChecked when time or memory run out.  announce (may be
// null): one line on the work ahead, before it starts.
std::string verifyMod2Certificate(const Certificate& cert, std::ostream* announce);

}  // namespace qcert::checker
