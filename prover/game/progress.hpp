// A run's clock, and the progress line the prover prints on stderr while it
// searches (the terminal's rewritten line, or --progress-every's whole lines).
#pragma once
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace qcert {

using Clock = std::chrono::steady_clock;
inline double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// Prints nodes and rate on stderr every second once a run passes two
// seconds, rewriting one terminal line; or, with everySeconds > 0, as a
// whole line every that many seconds, for the log of a run of hours.
class ProgressReporter {
 public:
  ProgressReporter(bool enabled, int everySeconds, std::function<uint64_t()> nodes)
      : nodes_(std::move(nodes)), every_(everySeconds) {
    if (enabled || every_ > 0) thread_ = std::thread([this] { loop(); });
  }
  ~ProgressReporter() {
    {
      std::lock_guard lk(m_);
      done_ = true;
    }
    cv_.notify_all();
    if (thread_.joinable()) thread_.join();
  }
  void phase(const char* name) { phase_.store(name); }
  // Replaces the node counter (nullptr: back to the one given at construction).
  void nodes(std::function<uint64_t()> f) {
    std::lock_guard lk(m_);
    override_ = std::move(f);
  }
  // Extra text for each report; the reporter reads it under the same lock.
  void extra(std::function<std::string()> f) {
    std::lock_guard lk(m_);
    extra_ = std::move(f);
  }

 private:
  void loop();
  std::function<uint64_t()> nodes_, override_;
  int every_;
  std::atomic<const char*> phase_{"search"};
  std::function<std::string()> extra_;
  std::thread thread_;
  std::mutex m_;
  std::condition_variable cv_;
  bool done_ = false, printed_ = false;
};

}  // namespace qcert
