// Fuzz target: the checker's command line.  The input is split at NUL bytes
// into argv[1..] (argv[0] = "checker", at most 64 arguments) and given to
// qcert::checker::parseCheckerArgs, the parser checker's main() uses.  It must return
// (never throw or crash), and options it accepts must be within the ranges
// `checker --help` states.
#include "checker/checker.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {
[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "\nqcert fuzz FINDING: %s\n", what.c_str());
  __builtin_trap();
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 4096) return 0;
  std::vector<std::string> args{"checker"};
  std::string current;
  for (size_t i = 0; i < size; ++i) {
    if (data[i] == 0) {
      args.push_back(current), current.clear();
      if (args.size() > 64) break;
    } else {
      current += char(data[i]);
    }
  }
  if (!current.empty() && args.size() <= 64) args.push_back(current);
  // QFUZZ_ARGS_SKIP_PERCENT=1: skip arguments with '%', to fuzz a checker
  // without the fix past the hang of Boost's error messages on option names
  // holding "%canonical_option%" (corpus/fuzz_checker_args/crash-boost-placeholder-hang).
  static const bool skipPercent = std::getenv("QFUZZ_ARGS_SKIP_PERCENT") != nullptr;
  if (skipPercent)
    for (const auto& a : args)
      if (a.find('%') != std::string::npos) return 0;
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  argv.push_back(nullptr);
  const unsigned defaultJobs = 1 + (size ? data[0] % 8 : 0);
  const qcert::checker::ParsedArgs r = qcert::checker::parseCheckerArgs(int(args.size()), argv.data(), defaultJobs);
  if (!r.help.empty()) {
    if (!r.error.empty()) fail("both help and an error");
    return 0;
  }
  if (!r.error.empty()) return 0;
  const qcert::checker::CheckOptions& o = r.options;
  const uint64_t kMax = uint64_t(1) << 20;
  if (o.path.empty()) fail("accepted without a certificate file");
  if (r.paths.empty() || r.paths[0] != o.path) fail("the first of the files is not the one checked first");
  if (o.jobs < 1 || o.jobs > 4096) fail("jobs " + std::to_string(o.jobs) + " outside 1..4096");
  if (o.sample > kMax) fail("sample " + std::to_string(o.sample) + " above 2^20");
  if (o.parts > kMax) fail("parts " + std::to_string(o.parts) + " above 2^20");
  if (o.parts && o.part >= o.parts) fail("part " + std::to_string(o.part) + " not below parts " + std::to_string(o.parts));
  if (!o.parts && o.part) fail("part without --of");
  if (o.sample && o.parts) fail("--sample and --part together");
  if (o.seed && !o.sample) fail("--seed without --sample");
  if (o.timeLimitSeconds != 0 && !(o.timeLimitSeconds >= 1 && o.timeLimitSeconds <= 365.0 * 24 * 3600))
    fail("time limit " + std::to_string(o.timeLimitSeconds) + " outside 1..31536000");
  if (o.maxMemoryMiB != 0 && (o.maxMemoryMiB < 16 || o.maxMemoryMiB > (uint64_t(1) << 24)))
    fail("max-memory " + std::to_string(o.maxMemoryMiB) + " outside 16..16777216");
  if (o.maxCpuHours > 1000000) fail("max-cpu-hours " + std::to_string(o.maxCpuHours) + " above 1000000");
  if (o.progress) fail("the parser set progress (main decides it from the terminal)");
  if ((o.json || !o.expect.empty()) && r.paths.size() != 1) fail("--json or --expect with " + std::to_string(r.paths.size()) + " files");
  if (o.expect.find_first_of("\r\n") != std::string::npos) fail("an expected statement of more than one line");
  return 0;
}
