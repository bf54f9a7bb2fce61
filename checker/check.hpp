// From a command line to a verdict: what checker's main() does, callable by
// the fuzz targets with the same code path.
#pragma once

#include "checker/manifest.hpp"
#include "checker/replay.hpp"

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace qcert::checker {

struct CheckOptions {
  std::string path;
  bool quiet = false;
  bool progress = false;  // recounts and manifests: progress on stderr (main: when it is a terminal)
  unsigned jobs = 1;
  uint64_t sample = 0, seed = 0;  // --sample K --seed S
  uint64_t part = 0, parts = 0;   // --part I --of K
  double timeLimitSeconds = 0;    // 0 = none
  uint64_t maxMemoryMiB = 0;      // 0 = the default (limits.hpp)
  uint64_t maxCpuHours = 0;       // 0 = the default ceiling of an estimated recount or search (limits.hpp)
  const ReplyObserver* observer = nullptr;  // front ends only (replay.hpp); the command line sets none
  ReplayedShards* replayed = nullptr;       // several files in one run (main): shards replayed once (manifest.hpp)
};

struct ParsedArgs {
  CheckOptions options;       // options.path: the first file
  std::vector<std::string> paths;  // every file, in order
  std::string help;   // non-empty: --help was given, print this and exit 0
  std::string error;  // non-empty: a usage error, exit 2
};
ParsedArgs parseCheckerArgs(int argc, const char* const* argv, unsigned defaultJobs);

// The claim of a game certificate (not count, mod-2 or partizan) in the words
// VERIFIED prints; `qcert describe` shows it, marked not verified.
std::string claimInWords(const Certificate& cert);

// Checks o.path: the verdict line on `out` (VERIFIED, REJECTED, NOT CHECKED,
// SAMPLED, PART), the announcement, statistics and I/O errors on `err`.
// Returns the exit status (check.cpp's kExitStatus).
int runCheck(const CheckOptions& o, std::ostream& out, std::ostream& err);

}  // namespace qcert::checker
