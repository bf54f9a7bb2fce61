// Shard manifests (docs/certificate-format.md, "Sharded certificates"): walk
// the plan from the claim's root with the checker's own move rules, then
// verify every referenced shard certificate in full, in parallel.
#pragma once

#include "certificate_file.hpp"
#include "replay.hpp"

#include <cstdint>
#include <iosfwd>
#include <string>

namespace qcert {

// The plan's rule for a shard path: relative, non-empty, at most 1024
// characters of [A-Za-z0-9._/-] without "..".  Front ends ask it before
// opening a shard, so that no file the checker would refuse is opened.
bool shardPathAllowed(const std::string& path);

struct ManifestStats {
  uint64_t shards = 0;
  uint64_t tokens = 0;  // over all shards
  uint64_t nodes = 0;   // replay verify() calls over all shards
};

// `cert` is a manifest (cert.hasPlan) read from `manifestPath`; shard paths are
// relative to its directory.  Throws Rejection ("shard <path>: ..." for a bad
// shard), IoError for a shard that is not a readable regular file, NotChecked.
// `announce` (may be null) gets one line on the work ahead before replaying.
// `observer` (may be null) is told the plan's winBy moves and every shard's
// replies (replay.hpp, ReplyObserver). `progress`: a line on stderr as shards
// finish (main: when stderr is a terminal); it reports, it decides nothing.
ManifestStats verifyManifest(const Certificate& cert, const std::string& manifestPath, unsigned jobs, std::ostream* announce,
                             const ReplyObserver* observer = nullptr, bool progress = false);

}  // namespace qcert
