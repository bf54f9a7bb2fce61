// `prover prove` and `prover grundy`: the queens game and its variants
// (docs/variants.md), searched in one run or in work units, which threads,
// batch workers or MPI ranks share.
#pragma once
#include <functional>

namespace qcert {

// What `prover --help`, a bare `prover` and an unknown command print: the
// words main() keeps about every command.
struct ProverHelp {
  const char* usage;     // the whole prover's usage
  const char* commands;  // "prove, grundy, ...": the commands there are
};

// The MPI ranks sharing a run's work units (count 1: no MPI); barrier waits
// for all of them, and is called only when there are several.
struct Ranks {
  int rank = 0, count = 1;
  std::function<void()> barrier;
};

// argv as main() has it: argv[1] is the command (prove or grundy) or an
// option. Returns the exit status (`prover prove --help` lists them).
int runProve(int argc, char** argv, const ProverHelp& help, const Ranks& ranks);

}  // namespace qcert
