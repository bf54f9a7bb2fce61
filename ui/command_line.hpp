// The command line of qcert's subcommands: each command's options, parsed
// into name -> value, and the one error a bad command line gives (one line,
// exit status 2). ui/cli.cpp holds the list of commands; each command's
// run* is in its own file (ui/commands.hpp).
#pragma once
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace qcert::ui {

// A bad command line: one line, exit status 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct OptionSpec {
  const char* name;
  const char* value;  // nullptr: a flag
  const char* help;
};

struct Command {
  const char* name;
  const char* usage;
  const char* about;
  std::vector<OptionSpec> options;
  bool takesFile = false;  // one argument that is not an option: the certificate (describe, replies)
};

using Values = std::map<std::string, std::string>;

// The command's help: usage, what it does, its options wrapped at 79 columns.
std::string helpOf(const Command& c);
// args[0] is the command's name; throws UsageError.
Values parseOptions(const Command& c, const std::vector<std::string>& args);
// text as a whole number in min..max, else UsageError naming --option.
long wholeNumber(const std::string& option, const std::string& text, long min, long max);
// The file argument of describe and replies; UsageError when none was given.
std::string fileArgument(const Values& v);

}  // namespace qcert::ui
