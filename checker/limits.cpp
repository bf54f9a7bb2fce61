#include "checker/limits.hpp"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <cinttypes>
#include <cstdio>

namespace qcert::checker::limits {

std::atomic<bool> gTimeUp{false};

namespace {

using Clock = std::chrono::steady_clock;
std::atomic<double> gSeconds{0};
std::atomic<uint64_t> gMemoryLimit{0};
std::atomic<double> gWorkCeiling{0};

// One watchdog thread for the process, started with the first time limit: it
// sleeps until the deadline (which a later setTimeLimit may move) and raises
// gTimeUp.  Hot loops then read a flag instead of the clock.
struct Watchdog {
  std::mutex mutex;
  std::condition_variable changed;
  Clock::time_point deadline = Clock::time_point::max();
  bool started = false;

  void run() {
    std::unique_lock lock(mutex);
    for (;;) {
      if (deadline == Clock::time_point::max()) changed.wait(lock);
      else if (changed.wait_until(lock, deadline) == std::cv_status::timeout && Clock::now() >= deadline)
        gTimeUp = true, deadline = Clock::time_point::max();  // raised once; then wait for the next limit
    }
  }
  void set(Clock::time_point when) {
    std::lock_guard lock(mutex);
    gTimeUp = false;
    deadline = when;
    if (!started && when != Clock::time_point::max()) {
      std::thread([this] { run(); }).detach();  // a resource failure here throws system_error: not checked
      started = true;
    }
    changed.notify_all();
  }
};
Watchdog& watchdog() {
  static Watchdog* w = new Watchdog;  // never destroyed: the detached thread uses it until exit
  return *w;
}

uint64_t physicalMemory() {
  const long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && size > 0 ? uint64_t(pages) * uint64_t(size) : uint64_t(1) << 32;
}

// Resident set size from /proc (statm's second field, in pages); 0 if unknown.
uint64_t residentBytes() {
  FILE* f = std::fopen("/proc/self/statm", "r");
  if (!f) return 0;
  unsigned long long total = 0, resident = 0;
  const bool ok = std::fscanf(f, "%llu %llu", &total, &resident) == 2;
  std::fclose(f);
  return ok ? resident * uint64_t(sysconf(_SC_PAGE_SIZE)) : 0;
}

std::string mib(uint64_t bytes) { return std::to_string((bytes + (1u << 20) - 1) >> 20) + " MiB"; }

// 90 -> "about 1.5 minutes"; up to years.
std::string durationText(double seconds) {
  static const struct { double seconds; const char* unit; } kUnits[] = {
      {365.25 * 86400, "years"}, {86400, "days"}, {3600, "hours"}, {60, "minutes"}, {1, "seconds"}};
  for (const auto& u : kUnits)
    if (seconds >= u.seconds || u.seconds == 1) {  // under a second: "about 0.5 seconds"
      char text[64];
      const double value = seconds / u.seconds;
      std::snprintf(text, sizeof text, value < 10 ? "about %.1f %s" : "about %.0f %s", value, u.unit);
      return text;
    }
  return "";
}

}  // namespace

void setTimeLimit(double seconds) {
  const bool watching = gSeconds.exchange(seconds) > 0 || gTimeUp;  // a deadline may still be pending
  if (seconds > 0)
    watchdog().set(Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds)));
  else if (watching)
    watchdog().set(Clock::time_point::max());  // also lowers the flag
}

double timeLimit() { return gSeconds.load(); }

void throwTimeUp() {
  char text[64];
  std::snprintf(text, sizeof text, "%g", gSeconds.load());
  throw NotChecked(std::string("time limit of ") + text + " s reached (--time-limit); nothing was decided");
}

void setWorkCeiling(double seconds) { gWorkCeiling = seconds; }

void refuseLongerThanCeiling(double seconds, const std::string& what) {
  const double ceiling = gWorkCeiling > 0 ? gWorkCeiling.load() : 24 * 3600.0;
  if (timeLimit() == 0 && seconds > ceiling) {  // a --time-limit bounds the run itself
    char hours[32];
    std::snprintf(hours, sizeof hours, "%.0f", ceiling / 3600);
    throw NotChecked(what + " would take " + durationText(seconds) + " of one core (estimated from the header), more than --max-cpu-hours " +
                     hours + "; nothing was decided");
  }
}

void setMemoryLimit(uint64_t bytes) { gMemoryLimit = bytes; }

uint64_t memoryLimit() {
  const uint64_t set = gMemoryLimit.load();
  return set ? set : physicalMemory() / 10 * 9;
}

void reserve(uint64_t bytes, const char* what) {
  const uint64_t limit = memoryLimit(), resident = residentBytes();
  if (bytes > limit || resident > limit - bytes)
    throw NotChecked(std::string("needs more than ") + mib(limit) + " of memory (--max-memory): " + what + " would grow by " +
                     mib(bytes) + " with " + mib(resident) + " in use");
}

std::string outOfMemoryText() {
  return "out of memory (the system refused an allocation or a thread; limit " + mib(memoryLimit()) + ")";
}

}  // namespace qcert::checker::limits
