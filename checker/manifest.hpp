// Shard manifests (docs/certificate-format.md, "Sharded certificates"): walk
// the plan from the claim's root with the checker's own move rules, then
// verify every referenced shard certificate in full, in parallel.
#pragma once

#include "checker/certificate_file.hpp"
#include "checker/replay.hpp"

#include <array>
#include <cstdint>
#include <iosfwd>
#include <mutex>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace qcert::checker {

// The plan's rule for a shard path: relative, non-empty, at most 1024
// characters of [A-Za-z0-9._/-] without "..".  Front ends ask it before
// opening a shard, so that no file the checker would refuse is opened.
bool shardPathAllowed(const std::string& path);

struct ManifestStats {
  uint64_t shards = 0;
  uint64_t tokens = 0;  // over all shards
  uint64_t nodes = 0;   // replay verify() calls over all shards
  uint64_t replayedBefore = 0;  // shards not replayed again (ReplayedShards)
};

// The shards replayed in full so far in one run of several files (checker
// a.qcert b.qcert): a shard whose bytes (its seal, read again from the file)
// and obligation (queens, heap, outcome) are those of one replayed before is
// not replayed again. Sound because a replay's verdict is a function of the
// bytes and the obligation alone; the file is still opened, its seal and
// claim still checked.
struct ReplayedShards {
  using Key = std::tuple<std::array<unsigned char, 16>, std::vector<unsigned>, uint32_t, bool>;
  std::mutex lock;
  std::set<Key> done;
};

// `cert` is a manifest (cert.hasPlan) read from `manifestPath`; shard paths are
// relative to its directory.  Throws Rejection ("shard <path>: ..." for a bad
// shard), IoError for a shard that is not a readable regular file, NotChecked.
// `announce` (may be null) gets one line on the work ahead before replaying.
// `observer` (may be null) is told the plan's winBy moves and every shard's
// replies (checker.hpp, ReplyObserver). `progress`: a line on stderr as shards
// finish (main: when stderr is a terminal); it reports, it decides nothing.
// `replayed` (may be null; not with an observer, which must see every reply):
// shards replayed earlier in this run are skipped, the rest added.
ManifestStats verifyManifest(const Certificate& cert, const std::string& manifestPath, unsigned jobs, std::ostream* announce,
                             const ReplyObserver* observer = nullptr, bool progress = false,
                             ReplayedShards* replayed = nullptr);

}  // namespace qcert::checker
