// qcert checker: the trusted verifier of queens-game and count certificates.
#include "check.hpp"
#include "version.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <iostream>
#include <thread>

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "--version") == 0) {
    if (argc > 2) {
      std::cerr << "checker: --version takes nothing else, got '" << argv[2] << "'\n";
      return 2;
    }
    std::cout << qcert::versionLine("checker") << "\n";
    return 0;
  }
  const qcert::ParsedArgs args = qcert::parseCheckerArgs(argc, argv, std::max(1u, std::thread::hardware_concurrency()));
  if (!args.help.empty()) {
    std::cout << args.help;
    return 0;
  }
  if (!args.error.empty()) {
    std::cerr << "checker: " << args.error << " (try checker --help)\n";
    return 2;
  }
  qcert::CheckOptions options = args.options;
  options.progress = !options.quiet && isatty(STDERR_FILENO);
  return qcert::runCheck(options, std::cout, std::cerr);
}
