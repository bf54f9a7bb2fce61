// The line `--version` prints for prover, checker and qcert: the release,
// the commit the binary was built from and the build type, so that a verdict
// or a timing can be traced to the code that produced it. The definition is
// generated at build time (stamp.cmake), the only code the three programs
// share besides what schema/ generates.
#pragma once
#include <string>

namespace qcert {

// "prover 0.1.0 (commit 1a2b3c4d5e6f, Release)": "-dirty" after the commit
// when tracked files differed from it, "commit unknown" when the sources
// were not a git clone (a tarball).
std::string versionLine(const std::string& program);

}  // namespace qcert
