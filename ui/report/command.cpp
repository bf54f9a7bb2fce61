// `qcert report --results FILE [--html FILE [--replies FILE]] [--width N]`:
// the options checked, the files read, the HTML page written, the table
// printed (ui/report.hpp, runReport).
#include <cstdlib>
#include <optional>
#include <ostream>
#include <sstream>
#include <stdexcept>

#include "prover/output_file.hpp"
#include "ui/report.hpp"
#include "ui/text_file.hpp"

namespace qcert::ui {
namespace {

// The file an option names, read whole (ui/text_file.hpp); false, with the
// one line that says why on err, when it cannot be.
bool readNamedFile(const std::string& option, const std::string& path, std::string& text, std::ostream& err) {
  if (path.empty()) {
    err << "qcert report: " << option << " is empty: give a file\n";
    return false;
  }
  try {
    text = readTextFile(path);
    return true;
  } catch (const std::invalid_argument& e) {
    err << "qcert report: " << path << ": " << e.what() << "\n";
    return false;
  }
}

}  // namespace

int runReport(const std::map<std::string, std::string>& options, std::ostream& out, std::ostream& err) {
  if (!options.count("results")) {
    err << "qcert report: --results FILE is required (tools/audit.sh writes out/audit/results.tsv)\n";
    return 2;
  }
  if (options.count("html")) {  // "--html ''" too; checked before anything is read
    try {
      checkOutputFile("--html", options.at("html"));
    } catch (const OutputRefused& e) {
      err << "qcert report: " << e.what() << "\n";
      return 2;
    }
  }
  std::string results;
  if (!readNamedFile("--results", options.at("results"), results, err)) return 2;
  AuditResults r;
  try {
    std::istringstream in(results);
    r = readAuditResults(in);
  } catch (const std::invalid_argument& e) {
    err << "qcert report: " << options.at("results") << ": " << e.what() << "\n";
    return 2;
  }
  int width = 100;
  if (options.count("width")) {
    const std::string& w = options.at("width");
    char* end = nullptr;
    const long v = std::strtol(w.c_str(), &end, 10);
    if (w.empty() || *end || v < 72 || v > 400) {
      err << "qcert report: --width must be a whole number from 72 to 400, got '" << w << "'\n";
      return 2;
    }
    width = int(v);
  }
  const std::string html = options.count("html") ? options.at("html") : "";
  std::optional<ReplyTableFile> replies;
  if (options.count("replies")) {
    const std::string& path = options.at("replies");
    if (html.empty()) {
      err << "qcert report: --replies draws the reply table in the HTML report: give --html FILE too\n";
      return 2;
    }
    std::string text;
    if (!readNamedFile("--replies", path, text, err)) return 2;
    try {
      std::istringstream rin(text);
      replies = readReplyTableFile(rin);
    } catch (const std::invalid_argument& e) {
      err << "qcert report: " << path << ": " << e.what() << "\n";
      return 2;
    }
  }
  if (!html.empty()) {
    try {
      writeFileReplacing(html, auditHtml(r, 20, replies ? &*replies : nullptr));
    } catch (const std::exception& e) {
      err << "qcert report: " << e.what() << "\n";
      return 2;
    }
  }
  out << auditTable(r, width, html);
  return 0;
}

}  // namespace qcert::ui
