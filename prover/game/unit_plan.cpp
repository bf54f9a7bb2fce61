#include "prover/game/unit_plan.hpp"

#include <fstream>
#include <stdexcept>

#include "prover/output_file.hpp"

namespace qcert {

int readSplitMove(const std::filesystem::path& file) {
  if (!regularFileExists(file.string())) throw std::runtime_error(file.string() + " is missing");
  std::ifstream in(file);
  std::string word;
  long long m = -1;
  if (!(in >> word >> m) || word != "move" || m < 0 || m > 0xffff)
    throw std::runtime_error(file.string() + " is not a split marker (want: move <code>)");
  return int(m);
}

}  // namespace qcert
