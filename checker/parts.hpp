// A table of independent parts (docs/parts.md): a game certificate whose
// tokens are parts of positions with their Grundy values instead of replies.
#pragma once

#include "checker/certificate_file.hpp"

#include <cstdint>

namespace qcert::checker {

struct PartsStats {
  uint64_t parts = 0;    // table entries verified
  uint64_t options = 0;  // options whose value was recomputed
};

// Verifies every entry in order (its value is the mex of its options'
// values, each the XOR of earlier entries), then the claim from the root's
// parts.  Returns normally only if the claim is verified and every token was
// read; otherwise throws Rejection.
PartsStats verifyPartsTable(const Certificate& cert, TokenStream& tokens);

}  // namespace qcert::checker
