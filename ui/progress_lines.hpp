// Whole lines on a stream while a long step runs, for a person waiting at a
// terminal or reading a log later (qcert replies: the full check of a large
// certificate takes minutes and prints nothing else). A step that ends
// before the first line is due prints nothing, so quick runs and their
// one-line errors stay as they are.
#pragma once
#include <condition_variable>
#include <functional>
#include <mutex>
#include <ostream>
#include <string>
#include <thread>

namespace qcert::ui {

class ProgressLines {
 public:
  // line(seconds so far) is written to `out`, with a newline, first after
  // `firstAfter` seconds, then every `every` seconds until destruction.
  ProgressLines(std::ostream& out, std::function<std::string(double)> line, double firstAfter, double every);
  ~ProgressLines();  // stops the lines and waits for the thread: nothing is written after it
  ProgressLines(const ProgressLines&) = delete;
  ProgressLines& operator=(const ProgressLines&) = delete;

 private:
  std::ostream& out_;
  std::function<std::string(double)> line_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool done_ = false;
  std::thread thread_;
};

}  // namespace qcert::ui
