// qcert: the people-facing front end (ui/cli.hpp). Not part of the trusted
// checker: it uses the checker library to verify a certificate before using
// its replies, and the prover library to prove small positions on the spot.
#include <unistd.h>

#include <iostream>

#include "ui/cli.hpp"
#include "version/version.hpp"

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (!args.empty() && args[0] == "--version") {  // here, not in runQcert: only the program links the version line
    if (args.size() > 1) {
      std::cerr << "qcert: --version takes nothing else, got '" << args[1] << "'\n";
      return 2;
    }
    std::cout << qcert::versionLine("qcert") << "\n";
    return 0;
  }
  return qcert::ui::runQcert(args, std::cin, std::cout, std::cerr, isatty(STDERR_FILENO) == 1);
}
