#include "ui/progress_lines.hpp"

#include <chrono>
#include <system_error>

namespace qcert::ui {

ProgressLines::ProgressLines(std::ostream& out, std::function<std::string(double)> line, double firstAfter, double every)
    : out_(out), line_(std::move(line)) {
  using Clock = std::chrono::steady_clock;
  auto seconds = [](double s) { return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s)); };
  try {
    thread_ = std::thread([this, firstAfter, every, seconds] {
      const auto start = Clock::now();
      auto due = start + seconds(firstAfter);
      std::unique_lock lock(mutex_);
      while (!wake_.wait_until(lock, due, [this] { return done_; })) {
        out_ << line_(std::chrono::duration<double>(Clock::now() - start).count()) << std::endl;  // flushed: a log shows it at once
        due += seconds(every);
      }
    });
  } catch (const std::system_error&) {
    // No thread to spare: the step runs all the same, only silently.
  }
}

ProgressLines::~ProgressLines() {
  {
    std::lock_guard lock(mutex_);
    done_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

}  // namespace qcert::ui
