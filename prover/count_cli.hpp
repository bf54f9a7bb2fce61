// The prover's counting commands (prover count, prover table-check), and the
// command-line helpers every prover command shares.
#pragma once
#include <boost/program_options.hpp>
#include <string>
#include <vector>

#include "prover/count.hpp"

namespace qcert {
int runCount(int argc, char** argv);       // argv[0] = "count"
int runTableCheck(int argc, char** argv);  // argv[0] = "table-check"
// The statement the checker prints after "VERIFIED: " for this count.
std::string countStatement(const CountSpec& spec, const std::vector<uint64_t>& totals, const std::vector<uint64_t>& classes);
// "" if a published statement passes the consistency rules, else the reason it
// cannot hold. Throws std::invalid_argument for text that is none of the
// statement forms, or a number out of range: no verdict either way.
std::string tableCheck(const std::string& statement);

// ---- shared by every prover command -----------------------------------------

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
}  // namespace qcert
