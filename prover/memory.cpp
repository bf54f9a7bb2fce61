#include "prover/memory.hpp"

#include <sys/resource.h>

namespace qcert {

long peakRssKiB() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_maxrss;
}

}  // namespace qcert
