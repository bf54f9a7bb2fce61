// The prover's counting commands (prover count, prover table-check).
#pragma once
#include <string>
#include <vector>

#include "prover/count/count.hpp"

namespace qcert {
int runCount(int argc, char** argv);       // argv[0] = "count"
int runTableCheck(int argc, char** argv);  // argv[0] = "table-check"
// The statement the checker prints after "VERIFIED: " for this count.
std::string countStatement(const CountSpec& spec, const std::vector<uint64_t>& totals, const std::vector<uint64_t>& classes);
// "" if a published statement passes the consistency rules, else the reason it
// cannot hold. Throws std::invalid_argument for text that is none of the
// statement forms, or a number out of range: no verdict either way.
std::string tableCheck(const std::string& statement);

}  // namespace qcert
