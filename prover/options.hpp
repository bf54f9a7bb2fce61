// Command-line helpers every prover command shares (prove, grundy, count,
// mod2, partizan): numeric options with a named range, and the refusal of
// option names Boost cannot report.
#pragma once
#include <boost/program_options.hpp>
#include <string>

namespace qcert {

// The whole of `text` as a decimal number in lo..hi, else std::invalid_argument
// "--heap must be a number between 0 and 255, got '-1'".
long long parseNumberOption(const std::string& option, const std::string& text, long long lo, long long hi);

// A numeric option, read as text and converted by parseNumberOption when the
// options are notified: program_options itself reads "-1" into an unsigned
// type as 2^64 - 1, and names no range.
template <class T>
boost::program_options::typed_value<std::string>* numberOption(T* target, const std::string& option, long long lo,
                                                               long long hi) {
  return boost::program_options::value<std::string>()->notifier(
      [=](const std::string& text) { *target = T(parseNumberOption(option, text, lo, hi)); });
}

// Throws boost::program_options::error for an argument that looks like an
// option and holds a '%': Boost 1.74 fills its error messages by replacing
// "%canonical_option%" and the like until none is left, which never ends when
// the option's own name holds one ("--%canonical_option%" hung the prover).
void refuseOptionPlaceholders(int argc, char** argv);

// Reads argv into vm and notifies it: the options `visible`, plus one
// positional word (a command or an action) stored as the string option
// `word`.  Refuses placeholders first; throws as Boost's store and notify do.
void storeCommandLine(int argc, char** argv, const boost::program_options::options_description& visible, const char* word,
                      boost::program_options::variables_map& vm);

}  // namespace qcert
