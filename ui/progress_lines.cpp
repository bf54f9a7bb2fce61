#include "ui/progress_lines.hpp"

#include <chrono>
#include <system_error>

namespace qcert::ui {

ProgressLines::ProgressLines(std::ostream& out, std::function<std::string(double)> line, double firstAfter, double every, Style style)
    : out_(out), line_(std::move(line)), style_(style) {
  using Clock = std::chrono::steady_clock;
  auto seconds = [](double s) { return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s)); };
  try {
    thread_ = std::thread([this, firstAfter, every, seconds] {
      const auto start = Clock::now();
      auto due = start + seconds(firstAfter);
      std::unique_lock lock(mutex_);
      while (!wake_.wait_until(lock, due, [this] { return done_; })) {
        const std::string text = line_(std::chrono::duration<double>(Clock::now() - start).count());
        if (style_ == Style::lines) out_ << text << std::endl;  // flushed: a log shows it at once
        else out_ << '\r' << text << "\033[K" << std::flush, drawn_ = true;
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
  if (drawn_) out_ << "\r\033[K" << std::flush;  // what follows starts on a clean line
}

}  // namespace qcert::ui
