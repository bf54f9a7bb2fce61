// qcert checker: the trusted verifier of queens-game and count certificates.
#include "checker/checker.hpp"
#include "checker/manifest.hpp"
#include "checker/parallel.hpp"
#include "version/version.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <iostream>
#include <sstream>
#include <thread>

using qcert::checker::Verdict;

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "--version") == 0) {
    if (argc > 2) {
      std::cerr << "checker: --version takes nothing else, got '" << argv[2] << "'\n";
      return 2;
    }
    std::cout << qcert::versionLine("checker") << "\n";
    return 0;
  }
  const qcert::checker::ParsedArgs args = qcert::checker::parseCheckerArgs(argc, argv, std::max(1u, std::thread::hardware_concurrency()));
  if (!args.help.empty()) {
    std::cout << args.help;
    return 0;
  }
  if (!args.error.empty()) {
    std::cerr << "checker: " << args.error << " (try checker --help)\n";
    return 2;
  }
  qcert::checker::CheckOptions options = args.options;
  options.progress = !options.quiet && isatty(STDERR_FILENO);
  if (args.paths.size() == 1) {
    const Verdict v = qcert::checker::check(options, std::cerr);
    if (v.kind == Verdict::Kind::Unread) std::cerr << "checker: " << v.reason << std::endl;
    else std::cout << v.line() << std::endl;
    std::cerr << v.report;
    return v.exitStatus();
  }

  // Several files: each in turn, its verdict line after its name (after the
  // statistics); the time limit is the run's; the status is the worst
  // (REJECTED, then undecided, then SAMPLED or PART, then VERIFIED).
  qcert::checker::ReplayedShards replayed;
  options.replayed = &replayed;
  const auto start = std::chrono::steady_clock::now();
  const double limit = options.timeLimitSeconds;
  auto rank = [](int status) { return status == 1 ? 3 : status == 2 ? 2 : status == 3 ? 1 : 0; };
  int worst = 0;
  for (const std::string& path : args.paths) {
    options.path = path;
    Verdict v;
    const double left = limit - std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (limit > 0 && left < 1) {
      std::ostringstream reason;
      reason << "time limit of " << limit << " s reached (--time-limit); nothing was decided";
      v = {Verdict::Kind::NotChecked, "", reason.str(), ""};
    } else {
      if (limit > 0) options.timeLimitSeconds = left;
      v = qcert::checker::check(options, std::cerr);
    }
    if (v.kind == Verdict::Kind::Unread) std::cerr << "checker: " << v.reason << std::endl;
    std::cerr << v.report;
    std::istringstream lines((v.kind == Verdict::Kind::Unread ? "NOT CHECKED: the file could not be read (the message above says why)" : v.line()) + "\n");
    for (std::string line; std::getline(lines, line);) std::cout << qcert::checker::printableText(path) << ": " << line << std::endl;
    if (rank(v.exitStatus()) > rank(worst)) worst = v.exitStatus();
  }
  return worst;
}
