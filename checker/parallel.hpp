// Shards and cells are checked independently on a pool of threads; this is
// that pool, and how a failure inside it becomes the checker's answer.
#pragma once

#include <cstddef>
#include <functional>
#include <string>

namespace qcert::checker {

// What a failure means for the exit status: a verdict on the certificate
// (REJECTED, exit 1) or no verdict at all (exit 2: unreadable input, out of
// time, memory or threads, or a fault of the checker itself).
enum class FailureKind { rejected, ioError, notChecked };
struct Failure {
  FailureKind kind;
  std::string text;
};

// Failure texts quote the file (Cap'n Proto's messages echo its bytes, a plan
// names shard paths), and verdict lines name files: a byte outside printable
// ASCII becomes \xNN, so that a verdict is one line of text whatever it holds.
// With `replacement` (the statistics' producer text), it becomes that byte.
std::string printableText(const std::string& text, char replacement = 0);

// The failure being handled (call inside a catch block).  Malformed Cap'n
// Proto data can only come from the file, so it rejects; anything the
// checker does not expect is "not checked", never a verdict either way.
Failure currentFailure();
// Throws the exception of that kind (Rejection, IoError or NotChecked).
[[noreturn]] void throwFailure(const Failure& failure);

// Runs body(i) for i = 0 .. items-1 on up to `jobs` threads (fewer if the
// system refuses more), taking i in order; after a failure no new i starts.
// Then throws the failure of the lowest failing i, its text prefixed by
// label(i) + ": ".
void forEachItem(unsigned jobs, size_t items, const std::function<void(size_t)>& body,
                 const std::function<std::string(size_t)>& label);

}  // namespace qcert::checker
