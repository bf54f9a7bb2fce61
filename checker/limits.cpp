#include "limits.hpp"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cinttypes>
#include <cstdio>

namespace qcert::limits {
namespace {

using Clock = std::chrono::steady_clock;
std::atomic<int64_t> gDeadline{0};  // steady_clock ticks; 0 = no limit
std::atomic<double> gSeconds{0};
std::atomic<uint64_t> gMemoryLimit{0};

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

}  // namespace

void setTimeLimit(double seconds) {
  gSeconds = seconds;
  gDeadline = seconds > 0 ? (Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds)))
                                .time_since_epoch()
                                .count()
                          : 0;
}

double timeLimit() { return gSeconds.load(); }

void checkTime() {
  const int64_t deadline = gDeadline.load(std::memory_order_relaxed);
  if (deadline != 0 && Clock::now().time_since_epoch().count() >= deadline) {
    char text[64];
    std::snprintf(text, sizeof text, "%g", gSeconds.load());
    throw NotChecked(std::string("time limit of ") + text + " s reached (--time-limit); nothing was decided");
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

}  // namespace qcert::limits
