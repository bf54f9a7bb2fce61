// The trusted checker as a library: this header is its door.  It holds the
// command line's options and a check of one file that returns its verdict;
// the checker's main() prints the verdict, the front end (ui/) and the fuzz
// targets read it.  The other headers are the checker's inside: its tests
// use them, and so does the front end's checker side (ui/certified.cpp,
// ui/replies_cert.cpp, ui/describe.cpp), which reads certificates and
// replies with the checker's own parts.
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

namespace qcert::checker {

struct Certificate;     // certificate_file.hpp
struct ReplayedShards;  // manifest.hpp

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

struct CheckOptions {
  std::string path;  // "-": standard input (not a manifest: its shards are named relative to it)
  bool quiet = false;
  bool verbose = false;   // the statistics' details (cut-off, tokens, memo, producer)
  bool json = false;      // fill Verdict::claimJson
  std::string expect;     // non-empty: a verified statement other than this one is REJECTED
  bool progress = false;  // recounts and manifests: progress on stderr (main: when it is a terminal)
  unsigned jobs = 1;
  uint64_t sample = 0, seed = 0;  // --sample K --seed S
  uint64_t part = 0, parts = 0;   // --part I --of K
  double timeLimitSeconds = 0;    // 0 = none
  uint64_t maxMemoryMiB = 0;      // 0 = the default (limits.hpp)
  uint64_t maxCpuHours = 0;       // 0 = the default ceiling of an estimated recount or search (limits.hpp)
  const ReplyObserver* observer = nullptr;  // front ends only; the command line sets none
  // export-table only (the command line sets none): replay a single
  // certificate for the observer without solving the positions at or below
  // its cut-off.  Nothing is then proved, so the verdict is NotChecked,
  // never Verified (an untrusted table writer wants the replies, not a proof).
  bool repliesOnly = false;
  ReplayedShards* replayed = nullptr;       // several files in one run (main): shards replayed once (manifest.hpp)
};

struct ParsedArgs {
  CheckOptions options;       // options.path: the first file (json: --json was given)
  std::vector<std::string> paths;  // every file, in order
  std::string help;   // non-empty: --help was given, print this and exit 0
  std::string error;  // non-empty: a usage error, exit 2
};
ParsedArgs parseCheckerArgs(int argc, const char* const* argv, unsigned defaultJobs);

// What a check decided, and the line that says it on stdout:
//   Verified    "VERIFIED: <statement>", exit 0: the claim is proved
//   Rejected    "REJECTED: <reason>", exit 1: the certificate does not prove its claim
//   NotChecked  "NOT CHECKED: <reason>", exit 2: out of time, memory or threads; nothing decided
//   Unread      no verdict line, "checker: <reason>" on stderr, exit 2: a missing, unreadable
//               or special file, or --sample or --part for a certificate that is not a count
//   Sampled     "SAMPLED: <reason>", exit 3: the cells drawn agree; <statement> is NOT verified
//   Part        "PART: <reason>", exit 3: this part's cells agree; <statement> is not verified
// With o.expect, a statement other than o.expect is Rejected (its reason says both).
// With several files (checker a b ...) each line follows its file's name, and
// an Unread file's line is "NOT CHECKED: the file could not be read ...".
struct Verdict {
  enum class Kind { Verified, Rejected, NotChecked, Unread, Sampled, Part };
  Kind kind = Kind::NotChecked;
  std::string statement;  // the claim in words (Verified, Sampled, Part)
  std::string reason;     // why (Rejected, NotChecked, Unread); what was recounted (Sampled, Part)
  std::string report;     // unless quiet: statistics for stderr, after the verdict line
  uint64_t bytes = 0;     // the file's size (a manifest's own, not its shards'), once read
  std::string sha256;     // the SHA-256 of those bytes in hex, once read
  std::string claimJson;  // json: the header's claim as a JSON object, once read
  bool repliesRead = false;  // CheckOptions::repliesOnly: every reply was read (kind NotChecked: nothing proved)
  int exitStatus() const;
  std::string line() const;  // the verdict line, without its newline; empty for Unread
};

// Checks o.path.  Unless o.quiet, says on `err` what it is about to do before
// doing it (o.progress: progress on stderr as it goes); the rest is in the verdict.
Verdict check(const CheckOptions& o, std::ostream& err);

// The claim of a game certificate (not count, mod-2 or partizan) in the words
// VERIFIED prints; `qcert describe` shows it, marked not verified.
std::string claimInWords(const Certificate& cert);

}  // namespace qcert::checker
