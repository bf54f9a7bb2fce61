// One function per qcert subcommand, each in its own file
// (ui/COMMAND_command.cpp; report: ui/report/command.cpp): the options
// parsed (ui/command_line.hpp) to the exit status. They throw UsageError
// for a bad command line and CertificateError for a certificate not used;
// runQcert (ui/cli.cpp) prints them.
#pragma once
#include <iosfwd>

#include "ui/command_line.hpp"

namespace qcert::ui {

int runBoard(const Values& v, std::ostream& out);
int runExplain(const Values& v, std::ostream& out, std::ostream& err);
int runPlay(const Values& v, std::istream& in, std::ostream& out);
int runDescribe(const Values& v, std::ostream& out);
// errIsTerminal: progress on err while the certificate is verified (one
// line redrawn), unless --quiet.
int runReplies(const Values& v, std::ostream& out, std::ostream& err, bool errIsTerminal);

}  // namespace qcert::ui
