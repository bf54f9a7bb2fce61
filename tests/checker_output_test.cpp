// What the checker prints for people and for scripts (issue 40): --json (one
// object, parsed here), --expect and --expect-file, '-' for standard input,
// the file's SHA-256 against sha256sum, the messages for trailing bytes and a
// repeated square, the plain default details (jargon behind --verbose), the
// progress line (a terminal only, never stdout) and exit 130 on Ctrl-C.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <regex>

#include "tests/certfile.hpp"
#include "tests/support.hpp"

using qtest::contains;
using qtest::kChecker;
using qtest::kProver;
using qtest::RunResult;
using qtest::runProgram;

namespace {

const std::string k6 = "first player wins on the empty 6x6 board (queens game)";
const std::string k10 = "second player wins on the empty 10x10 board (queens game)";

// A strict JSON reader, written for this test: the object's scalars by path
// ("claim.boardSize", "claim.queens.0"), strings decoded, other scalars as
// written.  Throws on anything that is not JSON (RFC 8259), invalid UTF-8 or a
// raw control byte in a string included.
struct Json {
  std::string text;
  size_t at = 0;
  std::map<std::string, std::string> values;

  [[noreturn]] void fail(const std::string& what) { throw std::runtime_error("not JSON at byte " + std::to_string(at) + ": " + what); }
  void space() { while (at < text.size() && std::strchr(" \t\r\n", text[at])) ++at; }
  void expect(char c) {
    space();
    if (at >= text.size() || text[at] != c) fail(std::string("expected '") + c + "'");
    ++at;
  }
  std::string string() {
    expect('"');
    std::string out;
    for (;;) {
      if (at >= text.size()) fail("unterminated string");
      const unsigned char c = text[at++];
      if (c == '"') return out;
      if (c < 0x20) fail("raw control byte in a string");
      if (c >= 0x80) {  // UTF-8: a lead byte and its continuation bytes
        const int more = c >= 0xf0 && c < 0xf5 ? 3 : c >= 0xe0 ? 2 : c >= 0xc2 && c < 0xe0 ? 1 : -1;
        if (more < 0 || at + more > text.size()) fail("invalid UTF-8");
        out += char(c);
        for (int k = 0; k < more; ++k, ++at) {
          if ((text[at] & 0xc0) != 0x80) fail("invalid UTF-8");
          out += text[at];
        }
      } else if (c != '\\') {
        out += char(c);
      } else {
        const char e = at < text.size() ? text[at++] : 0;
        const char* plain = std::strchr("\"\\/bfnrt", e);
        if (!e || !plain) {
          if (e != 'u' || at + 4 > text.size()) fail("bad escape");
          const unsigned code = std::stoul(text.substr(at, 4), nullptr, 16);
          at += 4;
          if (code < 0x80) out += char(code);
          else if (code < 0x800) out += char(0xc0 | code >> 6), out += char(0x80 | (code & 63));
          else out += char(0xe0 | code >> 12), out += char(0x80 | (code >> 6 & 63)), out += char(0x80 | (code & 63));
        } else {
          out += "\"\\/\b\f\n\r\t"[plain - "\"\\/bfnrt"];
        }
      }
    }
  }
  void value(const std::string& path) {
    space();
    if (at >= text.size()) fail("value expected");
    if (text[at] == '{' || text[at] == '[') {
      const bool object = text[at++] == '{';
      space();
      if (at < text.size() && text[at] == (object ? '}' : ']')) return void(++at);
      for (int i = 0;; ++i) {
        const std::string key = object ? string() : std::to_string(i);
        if (object) expect(':');
        value(path.empty() ? key : path + "." + key);
        space();
        if (at < text.size() && text[at] == ',') { ++at; continue; }
        return expect(object ? '}' : ']');
      }
    }
    if (text[at] == '"') return void(values[path] = string());
    const size_t end = text.find_first_of(",}] \n", at);
    const std::string token = text.substr(at, end - at);
    if (!(token == "true" || token == "false" || token == "null" ||
          std::regex_match(token, std::regex("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][-+]?[0-9]+)?"))))
      fail("bad scalar '" + token + "'");
    values[path] = token;
    at = end;
  }
  explicit Json(const std::string& t) : text(t) {
    space();
    if (at >= text.size() || text[at] != '{') fail("not an object");
    value("");
    space();
    if (at != text.size()) fail("more than one value");
  }
};

class CheckerOutput : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new qtest::TempDir;
    for (const auto& args : std::vector<std::vector<std::string>>{
             {"prove", "--n", "6", "-q", "--out", file("w6.qc")},
             {"prove", "--n", "10", "-q", "--jobs", "2", "--out", file("m10.qc")}}) {
      std::vector<std::string> argv = args;
      argv.insert(argv.begin(), kProver);
      const RunResult r = runProgram(argv, 120);
      if (r.exitCode != 0) throw std::runtime_error("prover failed: " + r.describe());
    }
    std::vector<uint8_t> bytes = qtest::readFile(file("w6.qc"));
    bytes.back() ^= 1;  // in the seal
    qtest::writeFile(file("flipped.qc"), bytes);
  }
  static void TearDownTestSuite() { delete dir_; }
  static std::string file(const std::string& name) { return dir_->file(name); }
  static RunResult checker(std::vector<std::string> args, double timeout = 30) {
    args.insert(args.begin(), kChecker);
    return runProgram(args, timeout);
  }
  static RunResult shell(const std::string& command, double timeout = 30) { return runProgram({"/bin/sh", "-c", command}, timeout); }
  static std::string sha256sum(const std::string& path) { return shell("sha256sum '" + path + "'").out.substr(0, 64); }
  static std::string quoted(const std::string& s) { return "'" + s + "'"; }
  static qtest::TempDir* dir_;
};
qtest::TempDir* CheckerOutput::dir_ = nullptr;

// -------------------------------------------------------------------- --json

TEST_F(CheckerOutput, JsonIsOneObjectWithTheVerdictAndItsDetails) {
  const RunResult r = checker({"--json", file("w6.qc")});
  ASSERT_EQ(r.exitCode, 0) << r.describe();
  ASSERT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << "one line: " << r.out;
  const Json j(r.out);
  const std::map<std::string, std::string> want = {
      {"verdict", "VERIFIED"}, {"exit_status", "0"}, {"file", file("w6.qc")}, {"statement", k6}, {"expected", "null"},
      {"reason", "null"}, {"claim.family", "game"}, {"claim.boardSize", "6"}, {"claim.outcome", "win"}, {"claim.kind", "outcome"},
      {"claim.piece", "queen"}, {"claim.heap", "0"}, {"certificate.bytes", std::to_string(qtest::readFile(file("w6.qc")).size())},
      {"certificate.sha256", sha256sum(file("w6.qc"))}};
  for (const auto& [key, value] : want) EXPECT_EQ(j.values.count(key) ? j.values.at(key) : "(absent)", value) << key << " in " << r.out;
  const std::string version = runProgram({kChecker, "--version"}).out;  // "checker 0.1.0 (commit X, Release)"
  EXPECT_EQ(version, "checker " + j.values.at("checker.version") + " (commit " + j.values.at("checker.commit") + ", " +
                         j.values.at("checker.build") + ")\n");
  EXPECT_GT(std::stod(j.values.at("wall_seconds")), 0);
  EXPECT_GT(std::stod(j.values.at("peak_rss_mib")), 1);
}

TEST_F(CheckerOutput, JsonWhenNothingIsDecidedOrRejected) {
  const RunResult missing = checker({"--json", file("missing.qc")});
  EXPECT_EQ(missing.exitCode, 2) << missing.describe();
  const Json m(missing.out);
  EXPECT_EQ(m.values.at("verdict"), "NOT CHECKED");
  EXPECT_EQ(m.values.at("exit_status"), "2");
  EXPECT_TRUE(contains(m.values.at("reason"), "cannot open")) << missing.out;
  EXPECT_EQ(m.values.at("certificate"), "null");
  EXPECT_TRUE(contains(missing.err, "cannot open")) << "stderr keeps its line";

  for (const std::vector<std::string>& usage : {std::vector<std::string>{"--json", "--jobs", "0", file("w6.qc")},
                                                {"--json", "--no-such-option", file("w6.qc")},
                                                {"--json", file("w6.qc"), file("w6.qc")}}) {
    const RunResult u = checker(usage);
    EXPECT_EQ(u.exitCode, 2) << u.describe();
    const Json j(u.out);
    EXPECT_EQ(j.values.at("verdict"), "NOT CHECKED") << u.out;
    EXPECT_TRUE(qtest::startsWith(j.values.at("reason"), "usage: ")) << u.out;
  }

  const RunResult rejected = checker({"--json", file("flipped.qc")});
  EXPECT_EQ(rejected.exitCode, 1) << rejected.describe();
  const Json j(rejected.out);
  EXPECT_EQ(j.values.at("verdict"), "REJECTED");
  EXPECT_EQ(j.values.at("statement"), "null");
  EXPECT_TRUE(contains(j.values.at("reason"), "seal mismatch")) << rejected.out;
  EXPECT_EQ(j.values.at("certificate.sha256"), sha256sum(file("flipped.qc")));
}

// A file name holding a quote, a backslash, a newline, a control byte, valid
// UTF-8 and an invalid byte: the object stays JSON and names it.
TEST_F(CheckerOutput, JsonEscapesWhatItQuotes) {
  const std::string name = file(std::string("a\"b\\c\nd\x01 \xc3\xa9 \xff.qc"));
  qtest::writeFile(name, qtest::readFile(file("w6.qc")));
  const RunResult ok = checker({"--json", "--expect", "quote \" and tab\t", name});
  EXPECT_EQ(ok.exitCode, 1) << ok.describe();
  const Json j(ok.out);
  EXPECT_EQ(j.values.at("file"), file(std::string("a\"b\\c\nd\x01 \xc3\xa9 \xef\xbf\xbd.qc")));
  EXPECT_EQ(j.values.at("expected"), "quote \" and tab\t");
  EXPECT_EQ(j.values.at("statement"), k6);
}

// ------------------------------------------------------------------ --expect

TEST_F(CheckerOutput, ExpectPassesOnlyTheSameStatement) {
  const RunResult same = checker({"--expect", k6, file("w6.qc")});
  EXPECT_EQ(same.exitCode, 0) << same.describe();
  EXPECT_EQ(same.out, "VERIFIED: " + k6 + "\n");

  const std::string other = "second player wins on the empty 6x6 board (queens game)";
  const RunResult mismatch = checker({"-q", "--expect", other, file("w6.qc")});
  EXPECT_EQ(mismatch.exitCode, 1) << mismatch.describe();
  EXPECT_EQ(mismatch.out, "REJECTED: the certificate proves \"" + k6 + "\", not the statement expected (--expect): \"" + other + "\"\n");
  EXPECT_EQ(checker({"-q", "--expect", k6 + " ", file("w6.qc")}).exitCode, 1) << "exactly the statement, not a prefix";

  qtest::writeFile(file("expect.txt"), std::vector<uint8_t>(k6.begin(), k6.end()));
  EXPECT_EQ(checker({"-q", "--expect-file", file("expect.txt"), file("w6.qc")}).exitCode, 0);
  const std::string line = k6 + "\n";
  qtest::writeFile(file("expect-line.txt"), std::vector<uint8_t>(line.begin(), line.end()));
  EXPECT_EQ(checker({"-q", "--expect-file", file("expect-line.txt"), file("w6.qc")}).exitCode, 0) << "a trailing newline is not part of it";
  qtest::writeFile(file("expect-other.txt"), std::vector<uint8_t>(other.begin(), other.end()));
  EXPECT_EQ(checker({"-q", "--expect-file", file("expect-other.txt"), file("w6.qc")}).exitCode, 1);

  // A rejection stays a rejection whatever is expected.
  EXPECT_EQ(checker({"-q", "--expect", k6, file("flipped.qc")}).exitCode, 1);
}

TEST_F(CheckerOutput, ExpectUsageErrors) {
  const std::string two = k6 + "\n" + k6 + "\n";
  qtest::writeFile(file("expect-two.txt"), std::vector<uint8_t>(two.begin(), two.end()));
  qtest::writeFile(file("expect-empty.txt"), {});
  const std::string big(70000, 'x');
  qtest::writeFile(file("expect-big.txt"), std::vector<uint8_t>(big.begin(), big.end()));
  ASSERT_EQ(mkfifo(file("expect-fifo").c_str(), 0600), 0);
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--expect", k6, "--expect-file", file("expect.txt")}, "--expect and --expect-file do not combine"},
      {{"--expect", ""}, "must be one line, not empty"},
      {{"--expect", "a\nb"}, "must be one line, not empty"},
      {{"--expect-file", file("expect-empty.txt")}, "must be one line, not empty"},
      {{"--expect-file", file("expect-two.txt")}, "must be one line, not empty"},
      {{"--expect-file", file("expect-big.txt")}, "larger than 64 KiB"},
      {{"--expect-file", file("expect-fifo")}, "--expect-file: " + file("expect-fifo") + " is not a regular file"},
      {{"--expect-file", dir_->path()}, "is not a regular file"},
      {{"--expect-file", file("none.txt")}, "cannot open"},
      {{"--expect", k6, file("w6.qc")}, "take one FILE"}};
  for (const auto& [args, mention] : cases) {
    std::vector<std::string> argv = args;
    argv.push_back(file("w6.qc"));
    const RunResult r = checker(argv, 10);
    EXPECT_EQ(r.exitCode, 2) << r.describe();
    EXPECT_EQ(r.out, "") << r.describe();
    EXPECT_TRUE(contains(r.err, mention)) << "should mention '" << mention << "'\n" << r.describe();
  }
}

// ------------------------------------------------------------ standard input

TEST_F(CheckerOutput, StandardInputIsOneCertificate) {
  const RunResult piped = shell("cat " + quoted(file("w6.qc")) + " | " + quoted(kChecker) + " -");
  EXPECT_EQ(piped.exitCode, 0) << piped.describe();
  EXPECT_EQ(piped.out, "VERIFIED: " + k6 + "\n");
  EXPECT_TRUE(contains(piped.err, "SHA-256 " + sha256sum(file("w6.qc")))) << piped.describe();
  const RunResult redirected = shell(quoted(kChecker) + " -q - < " + quoted(file("flipped.qc")));
  EXPECT_EQ(redirected.exitCode, 1) << redirected.describe();
  EXPECT_TRUE(contains(redirected.out, "REJECTED: seal mismatch")) << redirected.describe();

  const RunResult manifest = shell(quoted(kChecker) + " - < " + quoted(file("m10.qc")));
  EXPECT_EQ(manifest.exitCode, 2) << manifest.describe();
  EXPECT_EQ(manifest.out, "");
  EXPECT_TRUE(contains(manifest.err, "checker: a manifest cannot be read from standard input")) << manifest.describe();

  const RunResult empty = shell(quoted(kChecker) + " - < /dev/null");
  EXPECT_EQ(empty.exitCode, 1) << empty.describe();
  EXPECT_EQ(empty.out, "REJECTED: standard input is empty: no certificate\n");
  EXPECT_EQ(checker({"-", "-"}).exitCode, 2);
  // A terminal as standard input would wait for typing: refused at once.
  const RunResult tty = runProgram({"/usr/bin/script", "-qec", quoted(kChecker) + " -; echo status $?", "/dev/null"}, 20);
  EXPECT_TRUE(contains(tty.out, "checker: standard input is a terminal")) << tty.describe();
  EXPECT_TRUE(contains(tty.out, "status 2")) << tty.describe();
}

TEST_F(CheckerOutput, StandardInputIsBounded) {
  // 256 MiB of zeros against --max-memory 32: stopped while reading, not after.
  const RunResult big = shell("head -c 268435456 /dev/zero | " + quoted(kChecker) + " --max-memory 32 -", 60);
  EXPECT_EQ(big.exitCode, 2) << big.describe();
  EXPECT_TRUE(contains(big.out, "NOT CHECKED: needs more than 32 MiB")) << big.describe();
  // A writer that never finishes: --time-limit still ends it.
  const RunResult slow = shell("sleep 8 | " + quoted(kChecker) + " --time-limit 1 -", 20);
  EXPECT_EQ(slow.exitCode, 2) << slow.describe();
  EXPECT_TRUE(contains(slow.out, "NOT CHECKED: time limit of 1 s")) << slow.describe();
}

TEST_F(CheckerOutput, CtrlCExits130) {
  const RunResult r = shell("sleep 8 | timeout -s INT --preserve-status 0.5 " + quoted(kChecker) + " -; echo status $?", 20);
  EXPECT_EQ(r.out, "status 130\n") << r.describe();
  EXPECT_TRUE(contains(runProgram({kChecker, "--help"}).out, "130  interrupted (Ctrl-C, SIGINT)"));
}

// ------------------------------------------------------------ SHA-256, details

TEST_F(CheckerOutput, DetailsNameTheFilesSha256) {
  const RunResult game = checker({file("w6.qc")});
  EXPECT_EQ(game.exitCode, 0) << game.describe();
  EXPECT_TRUE(contains(game.err, "  certificate: " + std::to_string(qtest::readFile(file("w6.qc")).size()) + " bytes, SHA-256 " +
                                     sha256sum(file("w6.qc")) + "\n"))
      << game.describe();
  const RunResult manifest = checker({file("m10.qc")});
  EXPECT_EQ(manifest.exitCode, 0) << manifest.describe();
  EXPECT_TRUE(contains(manifest.err, "  manifest file: " + std::to_string(qtest::readFile(file("m10.qc")).size()) + " bytes, SHA-256 " +
                                         sha256sum(file("m10.qc")) + " (its shards are pinned in it by their seals)\n"))
      << manifest.describe();
  EXPECT_EQ(sha256sum(file("w6.qc")).size(), 64u);
}

// The default details say what a reader of a paper needs; the prover's and
// the replay's counters are for --verbose; -q says nothing but the verdict.
TEST_F(CheckerOutput, JargonOnlyWithVerbose) {
  for (const std::string& f : {file("w6.qc"), file("m10.qc")}) {
    const RunResult plain = checker({f}), verbose = checker({"--verbose", f}), quiet = checker({"-q", f});
    for (const RunResult* r : {&plain, &verbose, &quiet}) {
      EXPECT_EQ(r->exitCode, 0) << r->describe();
      EXPECT_EQ(r->out, "VERIFIED: " + std::string(f == file("w6.qc") ? k6 : k10) + "\n") << r->describe();
    }
    for (const char* word : {"cutoff", "cut-off", "tokens", "memo ", "producer", "nodes"}) {
      EXPECT_FALSE(contains(plain.err, word)) << word << " in\n" << plain.err;
    }
    EXPECT_TRUE(contains(verbose.err, "tokens ")) << verbose.err;
    EXPECT_TRUE(contains(verbose.err, "nodes ")) << verbose.err;
    EXPECT_TRUE(contains(plain.err, "checked in ")) << plain.err;
    EXPECT_EQ(quiet.err, "");
  }
  EXPECT_EQ(checker({"-q", "-v", file("w6.qc")}).exitCode, 2) << "--quiet and --verbose do not combine";
}

// ------------------------------------------------------------------ progress

TEST_F(CheckerOutput, ProgressOnlyOnATerminalAndNeverOnStdout) {
  // Not a terminal (a pipe): whole lines, no progress line.
  const RunResult piped = checker({"--jobs", "1", file("m10.qc")});
  EXPECT_EQ(piped.err.find('\r'), std::string::npos) << piped.describe();
  EXPECT_FALSE(contains(piped.err, "shards verified:")) << piped.describe();
  // stderr a terminal (script's pseudo-terminal), stdout a file: the line is
  // drawn on the terminal and stdout holds the verdict alone.
  const std::string out = file("progress.out");
  const RunResult tty = runProgram({"/usr/bin/script", "-qec", quoted(kChecker) + " --jobs 1 " + quoted(file("m10.qc")) + " > " + quoted(out), "/dev/null"}, 60);
  EXPECT_EQ(tty.exitCode, 0) << tty.describe();
  EXPECT_TRUE(contains(tty.out, "\r  shards verified: 1 of ")) << tty.describe();
  const std::vector<uint8_t> verdict = qtest::readFile(out);
  EXPECT_EQ(std::string(verdict.begin(), verdict.end()), "VERIFIED: " + k10 + "\n");
  // -q: nothing at all on the terminal.
  const RunResult quiet = runProgram({"/usr/bin/script", "-qec", quoted(kChecker) + " -q --jobs 1 " + quoted(file("m10.qc")) + " > " + quoted(out), "/dev/null"}, 60);
  EXPECT_EQ(quiet.exitCode, 0) << quiet.describe();
  EXPECT_EQ(quiet.out, "") << quiet.describe();
}

#ifdef QCERT_CERTS_DIR
// A single replay of a few seconds draws its own line (first after half a
// second). An n = 18 shard: 3.5 s of one core on the fastest day of CI's VM
// so far; the 13x13 Grundy certificate used before took 1.5 s on a slow day
// and 0.46 s on that one, too fast for any line to be drawn.
TEST_F(CheckerOutput, ReplayProgressOnATerminal) {
  const std::string out = file("replay.out"),
                    cert = std::string(QCERT_CERTS_DIR) + "/rudd-n18.qcert.units/h0/u00000.qcert";
  const RunResult tty = runProgram({"/usr/bin/script", "-qec", quoted(kChecker) + " " + quoted(cert) + " > " + quoted(out), "/dev/null"}, 60);
  EXPECT_EQ(tty.exitCode, 0) << tty.describe();
  EXPECT_TRUE(std::regex_search(tty.out, std::regex("\r  replayed [0-9]+ of [0-9]+ winning replies, [0-9]+ s"))) << tty.describe();
  const std::vector<uint8_t> verdict = qtest::readFile(out);
  EXPECT_TRUE(qtest::startsWith(std::string(verdict.begin(), verdict.end()), "VERIFIED: ")) << tty.describe();
  EXPECT_EQ(std::count(verdict.begin(), verdict.end(), '\n'), 1);
}
#endif

// ------------------------------------------------------------------ messages

TEST_F(CheckerOutput, TrailingBytesAreNamedAsSuch) {
  const std::vector<uint8_t> good = qtest::readFile(file("w6.qc"));
  for (const size_t extra : {3, 8, 24}) {
    std::vector<uint8_t> bytes = good;
    bytes.insert(bytes.end(), extra, 'x');
    qtest::writeFile(file("trailing.qc"), bytes);
    const RunResult r = checker({"-q", file("trailing.qc")});
    EXPECT_EQ(r.exitCode, 1) << r.describe();
    EXPECT_EQ(r.out, "REJECTED: " + std::to_string(extra) + " bytes follow the certificate's Seal, which ends at byte " +
                         std::to_string(good.size()) + ": trailing bytes (the file was appended to, or two files were joined)\n");
  }
  // A cut file is still a cut file.
  std::vector<uint8_t> cut(good.begin(), good.end() - 8);
  qtest::writeFile(file("cut.qc"), cut);
  EXPECT_FALSE(contains(checker({"-q", file("cut.qc")}).out, "trailing")) << "a cut file is not one with bytes appended";
}

TEST_F(CheckerOutput, ARepeatedSquareIsNamedAsSuch) {
  qtest::CertModel m = qtest::parseCertificate(qtest::readFile(file("w6.qc")));
  m.header.queens = {0, 0};
  qtest::writeFile(file("twice.qc"), qtest::serialiseCertificate(m));
  const RunResult r = checker({"-q", file("twice.qc")});
  EXPECT_EQ(r.exitCode, 1) << r.describe();
  EXPECT_EQ(r.out, "REJECTED: the claim places a queen on a1 (0,0) twice\n");
}

}  // namespace
