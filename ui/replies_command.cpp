// qcert replies FILE: the winner's reply to each first move, from a verified certificate.
#include "ui/commands.hpp"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <ostream>

#include "ui/progress_lines.hpp"
#include "ui/replies.hpp"

namespace qcert::ui {

int runReplies(const Values& v, std::ostream& out, std::ostream& err, bool errIsTerminal) {
  const std::string file = fileArgument(v);
  const unsigned jobs = v.count("jobs") ? unsigned(wholeNumber("jobs", v.at("jobs"), 1, 64)) : 1;
  const double limit = v.count("time-limit") ? double(wholeNumber("time-limit", v.at("time-limit"), 1, 86400)) : 0;
  const bool tsv = v.count("tsv") > 0;
  if (tsv && v.count("unicode")) throw UsageError("--tsv and --unicode do not go together (--tsv draws no board)");
  const bool quiet = v.count("quiet") > 0, log = v.count("progress-every") > 0;
  if (quiet && log) throw UsageError("--quiet and --progress-every contradict each other: choose one");
  const double every = log ? double(wholeNumber("progress-every", v.at("progress-every"), 1, 3600)) : 1;
  ReplyTable table;
  {
    // The check prints nothing until it is done: say what is going on, on
    // stderr only, and only on a terminal unless --progress-every asks for
    // whole lines (for a log). A manifest's check draws its own line (shards
    // verified, time left); a single certificate's has none, so this one.
    std::optional<ProgressLines> lines;
    bool checkerProgress = false;
    if (log) {
      lines.emplace(
          err,
          [&, first = true](double t) mutable {
            const std::string text = (first ? "qcert replies: verifying " + file + " in full with the checker library before reading its replies, "
                                            : "qcert replies: still verifying " + file + ", ") +
                                     std::to_string(long(t + 0.5)) + " s so far";
            first = false;
            return text;
          },
          std::min(2.0, every), every);
    } else if (!quiet && errIsTerminal) {
      checkerProgress = isShardManifest(file);
      if (!checkerProgress)
        lines.emplace(
            err,
            [&](double t) {
              char text[32];
              std::snprintf(text, sizeof text, "%.1f s", t);
              return "qcert replies: verifying " + file + " with the checker library, " + text;
            },
            0.5, 0.5, ProgressLines::Style::redrawn);
    }
    table = loadReplyTable(file, jobs, limit, checkerProgress);
  }
  if (!tsv) out << "Certificate " << file << ": VERIFIED by the checker library: " << table.claim.statement << "\n";
  const bool complete = fillOnTheSpot(table, limit > 0 ? limit : 10);
  out << (tsv ? formatReplyTableTsv(table, file) : formatReplyTable(table, v.count("unicode") > 0));
  if (!complete) {
    err << "qcert replies: some replies were not proved on the spot in time (marked ?); give more --time-limit\n";
    return 2;
  }
  return 0;
}

}  // namespace qcert::ui
