// Shard manifests (docs/certificate-format.md, "Sharded certificates"): walk
// the plan from the claim's root with the checker's own move rules, then
// verify every referenced shard certificate in full, in parallel.
#pragma once

#include "certificate_file.hpp"

#include <cstdint>
#include <functional>
#include <string>

namespace qcert {

struct ManifestStats {
  uint64_t shards = 0;
  uint64_t tokens = 0;  // over all shards
  uint64_t nodes = 0;   // replay verify() calls over all shards
};

// `cert` is a manifest (cert.hasPlan) read from `manifestPath`; shard paths are
// relative to its directory.  Throws Rejection ("shard <path>: ..." for a bad shard).
ManifestStats verifyManifest(const Certificate& cert, const std::string& manifestPath, unsigned jobs);

// The rejection text for the exception being handled (call inside a catch block).
std::string currentErrorText();

// Runs `worker` on up to `jobs` threads (at most `items`; fewer if the system
// refuses more) and waits for them.
void runWorkers(unsigned jobs, size_t items, const std::function<void()>& worker);

}  // namespace qcert
