// `qcert`: the people-facing front end (board, explain, play). main() is
// runQcert on the process's streams; tests call it on string streams.
#pragma once
#include <iosfwd>
#include <string>
#include <vector>

namespace qcert::ui {

// Exit status: 0 done; 1 a certificate given with --cert was REJECTED by the
// checker; 2 nothing decided: bad arguments (one line naming what is wrong),
// an unreadable certificate, or a value not proved within --time-limit.
int runQcert(const std::vector<std::string>& args, std::istream& in, std::ostream& out, std::ostream& err);
// errIsTerminal: err is a terminal (main: isatty(2)), where qcert replies
// shows its progress as one line redrawn.
int runQcert(const std::vector<std::string>& args, std::istream& in, std::ostream& out, std::ostream& err, bool errIsTerminal);

}  // namespace qcert::ui
