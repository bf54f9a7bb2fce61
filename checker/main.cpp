// qcert checker: the trusted verifier of queens-game and count certificates.
#include "checker/checker.hpp"
#include "checker/manifest.hpp"
#include "checker/parallel.hpp"
#include "version/version.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <sstream>
#include <thread>

using qcert::checker::Verdict;

namespace {

// A JSON string: quotes, backslashes and control bytes escaped; valid UTF-8
// kept; any other byte (the reason may quote the file) becomes U+FFFD.
std::string jsonString(const std::string& text) {
  std::string out = "\"";
  for (size_t i = 0; i < text.size();) {
    const unsigned char c = text[i];
    const unsigned length = c < 0x80 ? 1 : c >= 0xc2 && c < 0xe0 ? 2 : c >= 0xe0 && c < 0xf0 ? 3 : c >= 0xf0 && c < 0xf5 ? 4 : 0;
    uint32_t point = length == 1 ? c : length ? c & (0x7f >> length) : 0;
    bool valid = length > 0 && i + length <= text.size();
    for (unsigned k = 1; valid && k < length; ++k)
      valid = (text[i + k] & 0xc0) == 0x80, point = point << 6 | (text[i + k] & 0x3f);
    valid = valid && !(length == 3 && (point < 0x800 || (point >= 0xd800 && point < 0xe000))) && !(length == 4 && (point < 0x10000 || point > 0x10ffff));
    char escaped[8];
    if (!valid) out += "\\ufffd", ++i;
    else if (c == '"' || c == '\\') out += '\\', out += char(c), ++i;
    else if (c < 0x20 || c == 0x7f) std::snprintf(escaped, sizeof escaped, "\\u%04x", c), out += escaped, ++i;
    else out.append(text, i, length), i += length;
  }
  return out + "\"";
}

std::string orNull(const std::string& text, bool null) { return null ? "null" : jsonString(text); }

// --json: the verdict as one object on stdout (docs/programs.md, "--json").
void printJson(const std::string& path, const std::string& expect, const Verdict& v, std::chrono::steady_clock::time_point start) {
  static const char* const kWords[] = {"VERIFIED", "REJECTED", "NOT CHECKED", "NOT CHECKED", "SAMPLED", "PART"};
  const std::string version = qcert::versionLine("checker");  // "checker 0.1.0 (commit 1a2b3c, Release)"
  const size_t space = version.find(' '), paren = version.find(" (commit "), comma = version.find(", ", paren);
  struct rusage ru {};
  getrusage(RUSAGE_SELF, &ru);
  const bool read = !v.sha256.empty(), hasStatement = !v.statement.empty();
  std::cout << "{\"verdict\":" << jsonString(kWords[int(v.kind)]) << ",\"exit_status\":" << v.exitStatus()
            << ",\"file\":" << orNull(path, path.empty()) << ",\"statement\":" << orNull(v.statement, !hasStatement)
            << ",\"expected\":" << orNull(expect, expect.empty()) << ",\"reason\":" << orNull(v.reason, v.reason.empty())
            << ",\"claim\":" << (v.claimJson.empty() ? "null" : v.claimJson) << ",\"certificate\":"
            << (read ? "{\"bytes\":" + std::to_string(v.bytes) + ",\"sha256\":\"" + v.sha256 + "\"}" : "null")
            << ",\"checker\":{\"version\":" << jsonString(version.substr(space + 1, paren - space - 1))
            << ",\"commit\":" << jsonString(version.substr(paren + 9, comma - paren - 9))
            << ",\"build\":" << jsonString(version.substr(comma + 2, version.size() - comma - 3)) << "}"
            << ",\"wall_seconds\":" << std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()
            << ",\"peak_rss_mib\":" << ru.ru_maxrss / 1024.0 << "}" << std::endl;
}

}  // namespace

int main(int argc, char** argv) {
  const auto start = std::chrono::steady_clock::now();
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
    Verdict usage;  // NOT CHECKED
    usage.reason = "usage: " + args.error;
    if (args.options.json) printJson("", "", usage, start);
    return 2;
  }
  qcert::checker::CheckOptions options = args.options;
  options.progress = !options.quiet && isatty(STDERR_FILENO);
  if (args.paths.size() == 1) {
    const Verdict v = qcert::checker::check(options, std::cerr);
    if (v.kind == Verdict::Kind::Unread) std::cerr << "checker: " << v.reason << std::endl;
    if (options.json) printJson(options.path, options.expect, v, start);
    else if (v.kind != Verdict::Kind::Unread) std::cout << v.line() << std::endl;
    std::cerr << v.report;
    return v.exitStatus();
  }

  // Several files: each in turn, its verdict line after its name (after the
  // statistics); the time limit is the run's; the status is the worst
  // (REJECTED, then undecided, then SAMPLED or PART, then VERIFIED).
  qcert::checker::ReplayedShards replayed;
  options.replayed = &replayed;
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
      v.reason = reason.str();  // NOT CHECKED
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
