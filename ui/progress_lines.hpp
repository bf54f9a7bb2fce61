// Progress while a long step runs (qcert replies: the full check of a large
// certificate takes minutes and prints nothing else): on a terminal one line
// redrawn in place and wiped at the end; for a log, whole lines. A step that
// ends before the first line is due prints nothing, so quick runs and their
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
  enum class Style { lines, redrawn };
  // line(seconds so far) is written to `out`, first after `firstAfter`
  // seconds, then every `every` seconds until destruction: with a newline
  // (lines), or over the last one ("\r", the line, clear to its end; wiped
  // when the step ends).
  ProgressLines(std::ostream& out, std::function<std::string(double)> line, double firstAfter, double every,
                Style style = Style::lines);
  ~ProgressLines();  // stops the lines and waits for the thread: nothing is written after it
  ProgressLines(const ProgressLines&) = delete;
  ProgressLines& operator=(const ProgressLines&) = delete;

 private:
  std::ostream& out_;
  std::function<std::string(double)> line_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool done_ = false;
  bool drawn_ = false;  // a redrawn line is on the terminal
  Style style_;
  std::thread thread_;
};

}  // namespace qcert::ui
