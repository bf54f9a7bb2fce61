// What the checker may spend: wall time and memory.  Running out of either is
// "not checked" (exit 2), never a verdict: the certificate may be valid.
#pragma once

#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace qcert::checker {

// Out of time, memory or threads: the message becomes "NOT CHECKED: <what>".
struct NotChecked : std::runtime_error {
  using std::runtime_error::runtime_error;
};

namespace limits {

// --time-limit: 0 = none.  Starts the clock now; a watchdog thread raises
// the flag below when the time is up.
void setTimeLimit(double seconds);
double timeLimit();  // seconds, 0 = none

extern std::atomic<bool> gTimeUp;
// One relaxed load: cheap enough for a search's inner loop.
inline bool timeUp() { return gTimeUp.load(std::memory_order_relaxed); }
[[noreturn]] void throwTimeUp();
// Throws NotChecked once the time limit has passed.
inline void checkTime() {
  if (timeUp()) throwTimeUp();
}

// --max-memory in bytes; 0 = the default, 90% of physical memory.
void setMemoryLimit(uint64_t bytes);
uint64_t memoryLimit();
// Before a structure grows by `bytes`: throws NotChecked when the resident
// set plus `bytes` would pass the limit.  `what` names the structure.
void reserve(uint64_t bytes, const char* what);

// --max-cpu-hours: with no --time-limit, a recount or search whose cost,
// estimated from the header before it starts, is above this ceiling is
// refused (NOT CHECKED) rather than left to run for years.  (A time limit
// bounds the run itself, within a second.)  0 = the default, one day of one
// core.
void setWorkCeiling(double seconds);
// Throws NotChecked naming `what` and the estimate when `seconds` of one core
// exceed the ceiling.
void refuseLongerThanCeiling(double seconds, const std::string& what);

// The "NOT CHECKED" text for an allocation or thread start that failed.
std::string outOfMemoryText();

}  // namespace limits
}  // namespace qcert::checker
