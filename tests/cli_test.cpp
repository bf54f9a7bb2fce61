// Bad input to both programs, run as subprocesses.  Contract: usage and I/O
// errors exit 2 with a message on stderr; for the checker a file whose
// content is not a valid certificate is "REJECTED: ..." with exit 1; nothing
// ever dies from a signal.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <regex>
#include <set>
#include <sstream>

#include "tests/support.hpp"

using qtest::RunResult;
using qtest::runProgram;
using qtest::contains;
using qtest::kChecker;
using qtest::kProver;
using qtest::kQcert;
using qtest::startsWith;
namespace fs = std::filesystem;

namespace {

RunResult prover(std::vector<std::string> args) {
  args.insert(args.begin(), kProver);
  return runProgram(args, 30);
}
RunResult checker(std::vector<std::string> args) {
  args.insert(args.begin(), kChecker);
  return runProgram(args, 30);
}

// Exit 2, nothing on stdout that looks like a result, a message on stderr
// (optionally containing `mention`).
void expectUsageError(const RunResult& r, const std::string& mention = "") {
  ASSERT_FALSE(r.timedOut) << r.describe();
  ASSERT_FALSE(r.signaled) << r.describe();
  EXPECT_EQ(r.exitCode, 2) << r.describe();
  EXPECT_FALSE(contains(r.out, "RESULT:")) << r.describe();
  EXPECT_FALSE(contains(r.out, "VERIFIED:")) << r.describe();
  EXPECT_FALSE(r.err.empty()) << "no message on stderr\n" << r.describe();
  if (!mention.empty()) {
    EXPECT_TRUE(contains(r.err, mention)) << "stderr should mention '" << mention << "'\n" << r.describe();
  }
}

void expectRejected(const RunResult& r) {
  ASSERT_FALSE(r.timedOut) << r.describe();
  ASSERT_FALSE(r.signaled) << r.describe();
  EXPECT_EQ(r.exitCode, 1) << r.describe();
  EXPECT_TRUE(startsWith(r.out, "REJECTED:")) << r.describe();
  EXPECT_FALSE(contains(r.out, "VERIFIED")) << r.describe();
}

// ------------------------------------------------------------------ --version

// prover, checker and qcert --version: one line naming the program, the
// release, the commit it was built from ("unknown" outside a git clone) and
// the build type, the same for all three; nothing may follow --version.
TEST(Version, EveryProgramPrintsOneLineAndTheyAgree) {
  const std::regex line(R"(^(prover|checker|qcert) (\d+\.\d+\.\d+) \(commit ([0-9a-f]{12}(-dirty)?|unknown), ([A-Za-z ]+)\)\n$)");
  std::set<std::string> afterName;
  for (const auto& [name, path] : std::vector<std::pair<std::string, std::string>>{
           {"prover", kProver}, {"checker", kChecker}, {"qcert", kQcert}}) {
    const RunResult r = runProgram({path, "--version"}, 30);
    EXPECT_EQ(r.exitCode, 0) << r.describe();
    EXPECT_EQ(r.err, "") << r.describe();
    std::smatch m;
    ASSERT_TRUE(std::regex_match(r.out, m, line)) << r.describe();
    EXPECT_EQ(m[1].str(), name);
    afterName.insert(r.out.substr(name.size()));
    const RunResult extra = runProgram({path, "--version", "x"}, 30);
    EXPECT_EQ(extra.exitCode, 2) << extra.describe();
    EXPECT_EQ(extra.err, name + ": --version takes nothing else, got 'x'\n") << extra.describe();
    EXPECT_EQ(extra.out, "");
  }
  EXPECT_EQ(afterName.size(), 1u) << "the three programs name different builds";
}

// The generated line's commit: git's short hash of HEAD in a clone, marked
// -dirty when a tracked file differs from it, and "unknown" for sources
// outside a clone (a tarball), even when unpacked inside some other clone.
TEST(Version, TheStampNamesTheCommitOrSaysUnknown) {
  qtest::TempDir dir;
  auto stamp = [&](const std::string& source) {
    const std::string out = dir.file("version.cpp");
    const RunResult r = runProgram({QCERT_CMAKE, "-DSOURCE_DIR=" + source, "-DOUT=" + out, "-DVERSION=9.8.7",
                                    "-DBUILD_TYPE=Release", "-P", QCERT_SOURCE_DIR "/version/stamp.cmake"}, 60);
    EXPECT_EQ(r.exitCode, 0) << r.describe();
    std::ifstream in(out);
    return std::string((std::istreambuf_iterator<char>(in)), {});
  };
  fs::create_directories(dir.file("tarball"));
  const std::string tarball = stamp(dir.file("tarball"));
  EXPECT_TRUE(contains(tarball, "\" 9.8.7 (commit unknown, Release)\"")) << tarball;

  const std::string clone = dir.file("clone");
  std::string gitPath;  // runProgram takes a path, not a name to look up
  for (std::istringstream path(std::getenv("PATH") ? std::getenv("PATH") : ""); std::getline(path, gitPath, ':');)
    if (access((gitPath += "/git").c_str(), X_OK) == 0) break;
  if (access(gitPath.c_str(), X_OK) != 0) GTEST_SKIP() << "no git on the PATH";
  auto git = [&](std::vector<std::string> args) {
    args.insert(args.begin(), {gitPath, "-C", clone, "-c", "user.name=qcert", "-c", "user.email=qcert@localhost"});
    return runProgram(args, 30);
  };
  fs::create_directories(clone + "/src");
  std::ofstream(clone + "/tracked") << "one\n";
  ASSERT_EQ(git({"init", "-q"}).exitCode, 0);
  ASSERT_EQ(git({"add", "tracked"}).exitCode, 0);
  ASSERT_EQ(git({"commit", "-q", "-m", "one"}).exitCode, 0);
  const std::string head = qtest::firstLine(git({"rev-parse", "--short=12", "HEAD"}).out);
  ASSERT_EQ(head.size(), 12u);
  const std::string clean = stamp(clone);
  EXPECT_TRUE(contains(clean, "\" 9.8.7 (commit " + head + ", Release)\"")) << clean;
  const std::string inside = stamp(clone + "/src");
  EXPECT_TRUE(contains(inside, "(commit unknown, Release)")) << inside;
  std::ofstream(clone + "/tracked") << "two\n";
  const std::string dirty = stamp(clone);
  EXPECT_TRUE(contains(dirty, "(commit " + head + "-dirty, Release)")) << dirty;
}

// ------------------------------------------------------------------ prover

TEST(ProverCli, NoArgumentsPrintsUsageAndExits2) {
  const RunResult r = prover({});
  ASSERT_FALSE(r.signaled || r.timedOut) << r.describe();
  EXPECT_EQ(r.exitCode, 2) << r.describe();
  EXPECT_TRUE(contains(r.out + r.err, "Usage")) << r.describe();
}

TEST(ProverCli, HelpExits0) {
  const RunResult r = prover({"--help"});
  EXPECT_EQ(r.exitCode, 0) << r.describe();
  EXPECT_TRUE(contains(r.out, "Usage")) << r.describe();
}

// Each command's --help lists its own options only (the overview none).
TEST(ProverCli, EachCommandsHelpShowsItsOwnOptions) {
  const RunResult all = prover({"--help"}), prove = prover({"prove", "--help"}), grundy = prover({"grundy", "--help"});
  for (const RunResult* r : {&all, &prove, &grundy}) EXPECT_EQ(r->exitCode, 0) << r->describe();
  EXPECT_FALSE(contains(all.out, "--tt-mb")) << all.out;
  EXPECT_TRUE(contains(all.out, "prover prove --help")) << all.out;
  for (const char* o : {"--heap", "--win-by", "--tt-mb", "--cutoff", "--jobs", "--out"}) EXPECT_TRUE(contains(prove.out, o)) << o;
  for (const char* o : {"--tt-mb", "--cutoff", "--jobs", "--out"}) EXPECT_TRUE(contains(grundy.out, o)) << o;
  for (const char* o : {"\n  --heap", "\n  --win-by", "--problem", "--rule"}) EXPECT_FALSE(contains(grundy.out, o)) << o;  // option lines
  for (const char* o : {"--problem", "--rule", "--classes", " ETC", "live square", "loser's turn"}) EXPECT_FALSE(contains(prove.out, o)) << o;
  EXPECT_TRUE(contains(prove.out, "without --out nothing is written")) << prove.out;
}

// A win names a winning move, a board square or a heap move.
TEST(ProverCli, AWinNamesAWinningMove) {
  const RunResult heap = prover({"prove", "--n", "1", "--heap", "2", "-q"});  // G(1x1) = 1: only lowering the heap to 1 wins
  EXPECT_EQ(heap.out, "RESULT: first player wins on the empty 1x1 board with a Nim heap of 2 added, e.g. by lowering the heap to 1\n");
  const RunResult after = prover({"prove", "--n", "5", "--queens", "a1", "-q"});
  EXPECT_TRUE(startsWith(after.out, "RESULT: the player to move wins on the 5x5 board after queens a1 (0,0), e.g. by ")) << after.describe();
  const RunResult loss = prover({"prove", "--n", "4", "--queens", "b2", "-q"});
  EXPECT_EQ(loss.out, "RESULT: the player to move loses on the 4x4 board after queens b2 (1,1)\n");
}

// A long run's log (stderr not a terminal) gets whole progress lines with
// --progress-every, and none without it; -q with it is a contradiction.
TEST(ProverCli, ProgressEveryWritesWholeLinesToALog) {
  const RunResult r = prover({"prove", "--n", "14", "--tt-mb", "64", "--progress-every", "1"});  // 1.5-4 s here
  ASSERT_EQ(r.exitCode, 0) << r.describe();
  EXPECT_TRUE(contains(r.err, "[search] 1s  ")) << r.describe();
  EXPECT_TRUE(contains(r.err, " nodes/s  rss ")) << r.describe();
  EXPECT_FALSE(contains(r.err, "\r")) << "a log wants whole lines, not a rewritten terminal line\n" << r.describe();
  EXPECT_TRUE(startsWith(r.out, "RESULT: second player wins on the empty 14x14 board")) << r.describe();
  const RunResult plain = prover({"prove", "--n", "9"});
  EXPECT_FALSE(contains(plain.err, "[search]")) << plain.describe();
  expectUsageError(prover({"prove", "--n", "9", "-q", "--progress-every", "5"}), "--progress-every");
  expectUsageError(prover({"prove", "--n", "9", "--progress-every", "0"}), "--progress-every");
}
// prover count --progress-every: whole lines into a log, "estimating the time
// left" until a twentieth of the tasks are done, then a time left that the
// count's end bears out. (Tasks were taken small ones first: n = 17 said
// "about 3 s left" from 2 s to 14 s of a 23 s count.)
TEST(ProverCli, CountProgressEveryEstimatesTheTimeLeft) {
  const RunResult r = runProgram({kProver, "count", "--problem", "queens", "--n", "16", "--jobs", "1", "--progress-every", "1",
                                   "--stats"}, 120);  // count_s: the STATS line
  ASSERT_EQ(r.exitCode, 0) << r.describe();
  EXPECT_TRUE(startsWith(r.out, "RESULT: the 16-queens problem has 14772512 solutions, 1846955 up to symmetry\n")) << r.out;
  EXPECT_EQ(r.err.find('\r'), std::string::npos) << "a log wants whole lines\n" << r.describe();
  const double total = std::stod(r.out.substr(r.out.find(" count_s=") + 9));
  const std::regex line(R"(  counting: (\d+) of (\d+) search tasks done \(\d+%\), ([0-9.]+) s, (estimating the time left|about (\d+) s left))");
  std::istringstream err(r.err);
  size_t lines = 0;
  for (std::string l; std::getline(err, l); ++lines) {
    std::smatch m;
    ASSERT_TRUE(std::regex_match(l, m, line)) << l;
    const double done = std::stod(m[1]), all = std::stod(m[2]), t = std::stod(m[3]);
    EXPECT_EQ(m[5].matched, done * 20 >= all && t >= 1) << l;
    if (m[5].matched) {  // the noise of a shared machine allowed: within half the count's time
      EXPECT_NEAR(t + std::stod(m[5]), total, std::max(1.5, total / 2)) << l << "\n" << r.err;
    }
  }
  if (total >= 2) {
    EXPECT_GE(lines, 1u) << r.describe();
  }
  expectUsageError(prover({"count", "--problem", "queens", "--n", "8", "-q", "--progress-every", "5"}), "--progress-every");
}
TEST(ProverCli, UnknownCommand) { expectUsageError(prover({"frobnicate", "--n", "4"}), "frobnicate"); }
TEST(ProverCli, MissingCommand) { expectUsageError(prover({"--n", "4"})); }
TEST(ProverCli, MissingN) { expectUsageError(prover({"prove"}), "--n"); }
TEST(ProverCli, NZero) { expectUsageError(prover({"prove", "--n", "0"}), "--n"); }
TEST(ProverCli, NTooLarge) { expectUsageError(prover({"prove", "--n", "23"}), "--n"); }
TEST(ProverCli, NNegative) { expectUsageError(prover({"prove", "--n", "-3"})); }
TEST(ProverCli, NNotANumber) { expectUsageError(prover({"prove", "--n", "abc"})); }
TEST(ProverCli, QueenOffBoard) { expectUsageError(prover({"prove", "--n", "8", "--queens", "z9"}), "z9"); }
TEST(ProverCli, QueenRankOffBoard) { expectUsageError(prover({"prove", "--n", "8", "--queens", "a9"}), "a9"); }
TEST(ProverCli, QueenWithLeadingZeroRank) { expectUsageError(prover({"prove", "--n", "8", "--queens", "a01"})); }
TEST(ProverCli, QueenEmptyItem) { expectUsageError(prover({"prove", "--n", "8", "--queens", ",a1"})); }
TEST(ProverCli, SameQueenTwice) { expectUsageError(prover({"prove", "--n", "8", "--queens", "a1,a1"}), "twice"); }
TEST(ProverCli, SecondQueenAttackedOnDiagonal) {
  expectUsageError(prover({"prove", "--n", "2", "--queens", "a1,b2"}), "attacked");
}
TEST(ProverCli, HeapTooLarge) { expectUsageError(prover({"prove", "--n", "4", "--heap", "999"}), "heap"); }
TEST(ProverCli, HeapNegative) { expectUsageError(prover({"prove", "--n", "4", "--heap", "-1"})); }
TEST(ProverCli, HeapWithGrundy) { expectUsageError(prover({"grundy", "--n", "4", "--heap", "1"}), "heap"); }
TEST(ProverCli, UnknownOption) { expectUsageError(prover({"prove", "--n", "4", "--frobnicate"}), "frobnicate"); }
TEST(ProverCli, CutoffOutOfRange) { expectUsageError(prover({"prove", "--n", "4", "--cutoff", "33"}), "cutoff"); }
TEST(ProverCli, SmallOutOfRange) { expectUsageError(prover({"prove", "--n", "4", "--small", "33"}), "small"); }
TEST(ProverCli, ZstdLevelOutOfRange) { expectUsageError(prover({"prove", "--n", "4", "--zstd-level", "0"}), "zstd"); }
TEST(ProverCli, InterleaveAboveNegative) {
  expectUsageError(prover({"prove", "--n", "4", "--interleave-above", "-1"}), "interleave-above");
}
TEST(ProverCli, InterleaveAboveNotANumber) {
  expectUsageError(prover({"prove", "--n", "4", "--interleave-above", "half"}), "auto or a number");
}
TEST(ProverCli, NearRegionNotBelowTheTable) {
  expectUsageError(prover({"prove", "--n", "4", "--tt-mb", "64", "--near-mb", "64"}), "below --tt-mb");
}
TEST(ProverCli, NearRegionNotANumber) {
  expectUsageError(prover({"prove", "--n", "4", "--near-mb", "half"}), "auto or a number");
}
TEST(ProverCli, TtSizeZero) { expectUsageError(prover({"prove", "--n", "4", "--tt-mb", "0"}), "tt-mb"); }

// An unwritable --out must fail with a message naming the path, and must not
// leave anything claiming success: status 2, nothing decided.
TEST(ProverCli, UnwritableOutPath) {
  const RunResult r = prover({"prove", "--n", "4", "--out", "/nonexistent/dir/x.qc"});
  ASSERT_FALSE(r.signaled || r.timedOut) << r.describe();
  EXPECT_EQ(r.exitCode, 2) << r.describe();
  EXPECT_TRUE(contains(r.err, "/nonexistent/dir/x")) << r.describe();
  EXPECT_FALSE(contains(r.out, "RESULT:")) << r.describe();
  RecordProperty("exit_code", r.exitCode);
}

TEST(ProverCli, ValidRunsPrintResult) {
  const RunResult r = prover({"prove", "--n", "4", "-q"});
  EXPECT_EQ(r.exitCode, 0) << r.describe();
  EXPECT_EQ(r.out, "RESULT: first player wins on the empty 4x4 board, e.g. by a1\n");  // a winning move is named
  const RunResult g = prover({"grundy", "--n", "5", "--queens", "a1", "-q"});
  EXPECT_EQ(g.exitCode, 0) << g.describe();
  EXPECT_TRUE(startsWith(g.out, "RESULT: the Grundy value of the 5x5 board after queens a1 (0,0) is ")) << g.describe();
  const RunResult h = prover({"prove", "--n", "5", "--heap", "3", "-q"});
  EXPECT_EQ(h.exitCode, 0) << h.describe();
  EXPECT_EQ(h.out, "RESULT: second player wins on the empty 5x5 board with a Nim heap of 3 added\n");
}

// The names in a folder (the prover writes FILE.PID.tmp and
// FILE.chunks.PID.tmp beside FILE, which must not stay).
std::vector<std::string> namesIn(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

// --out naming a directory: the prover fails and leaves no temporary files.
TEST(ProverCli, OutIsADirectoryLeavesNoTemporaries) {
  qtest::TempDir dir;
  const std::string target = dir.file("sub");
  ASSERT_EQ(mkdir(target.c_str(), 0755), 0);
  const RunResult r = prover({"prove", "--n", "4", "--out", target});
  ASSERT_FALSE(r.signaled || r.timedOut) << r.describe();
  EXPECT_NE(r.exitCode, 0) << r.describe();
  EXPECT_FALSE(r.err.empty());
  EXPECT_EQ(namesIn(dir.path()), std::vector<std::string>{"sub"});
  EXPECT_TRUE(namesIn(target).empty());
}

TEST(ProverCli, SuccessfulRunLeavesOnlyTheCertificate) {
  qtest::TempDir dir;
  const RunResult r = prover({"prove", "--n", "6", "--cutoff", "4", "--out", dir.file("c.qc"), "-q"});
  ASSERT_EQ(r.exitCode, 0) << r.describe();
  EXPECT_EQ(namesIn(dir.path()), std::vector<std::string>{"c.qc"});
}

TEST(ProverCli, PlainSearchAgrees) {
  for (const char* n : {"4", "5", "6", "7"}) {
    const RunResult a = prover({"grundy", "--n", n, "-q"});
    const RunResult b = prover({"grundy", "--n", n, "-q", "--plain"});
    EXPECT_EQ(a.exitCode, 0) << a.describe();
    EXPECT_EQ(b.exitCode, 0) << b.describe();
    EXPECT_EQ(a.out, b.out);
  }
}

// The interleaved child order (0: off; auto: above half the board's squares
// + 2, 14 on 5x5) must not change any answer, and its certificates must
// check; the producer text names it.
TEST(ProverCli, InterleavedOrderAgreesAndChecks) {
  for (const char* n : {"5", "6", "7"}) {
    const RunResult a = prover({"grundy", "--n", n, "-q", "--interleave-above", "0"});
    const RunResult b = prover({"grundy", "--n", n, "-q", "--interleave-above", "6"});
    const RunResult c = prover({"grundy", "--n", n, "-q", "--interleave-above", "auto"});
    EXPECT_EQ(c.exitCode, 0) << c.describe();
    EXPECT_EQ(a.out, c.out);
    EXPECT_EQ(a.exitCode, 0) << a.describe();
    EXPECT_EQ(b.exitCode, 0) << b.describe();
    EXPECT_EQ(a.out, b.out);
  }
  qtest::TempDir dir;
  const RunResult p = prover({"prove", "--n", "10", "--interleave-above", "30", "--out", dir.file("i.qc"), "-q"});
  ASSERT_EQ(p.exitCode, 0) << p.describe();
  EXPECT_TRUE(contains(p.out, "second player wins on the empty 10x10 board")) << p.describe();
  const RunResult c = checker({"--verbose", dir.file("i.qc")});  // the producer text is a detail of --verbose
  EXPECT_EQ(c.exitCode, 0) << c.describe();
  EXPECT_TRUE(contains(c.out, "VERIFIED")) << c.describe();
  EXPECT_TRUE(contains(c.err, "interleaved order above 30 squares")) << c.describe();
}

// ------------------------------------------------------------------ checker

class CheckerCli : public ::testing::Test {
 protected:
  qtest::TempDir dir;
};

TEST_F(CheckerCli, NoArguments) { expectUsageError(checker({})); }
TEST_F(CheckerCli, UnknownOption) { expectUsageError(checker({"--frobnicate", dir.file("x")}), "frobnicate"); }
// Several files: each checked in turn, its verdict line after its name; the
// status is the worst one (REJECTED before undecided before VERIFIED).
TEST_F(CheckerCli, TwoFiles) {
  const std::string n8 = QCERT_CERTS_DIR "/jenrich-n8.qcert", n9 = QCERT_CERTS_DIR "/jenrich-n9.qcert";
  const RunResult good = checker({"-q", n8, n9});
  EXPECT_EQ(good.exitCode, 0) << good.describe();
  EXPECT_EQ(good.out, n8 + ": VERIFIED: first player wins on the empty 8x8 board (queens game)\n" + n9 +
                          ": VERIFIED: first player wins on the empty 9x9 board (queens game)\n");
  qtest::writeFile(dir.file("a"), {1, 2, 3});
  const RunResult bad = checker({"-q", n8, dir.file("a"), dir.file("missing")});
  EXPECT_EQ(bad.exitCode, 1) << bad.describe();
  std::vector<std::string> lines;
  std::istringstream text(bad.out);
  for (std::string l; std::getline(text, l);) lines.push_back(l);
  ASSERT_EQ(lines.size(), 3u) << bad.describe();
  EXPECT_TRUE(qtest::startsWith(lines[0], n8 + ": VERIFIED: ")) << bad.describe();
  EXPECT_TRUE(qtest::startsWith(lines[1], dir.file("a") + ": REJECTED: ")) << bad.describe();
  EXPECT_TRUE(qtest::startsWith(lines[2], dir.file("missing") + ": NOT CHECKED: ")) << bad.describe();
  const RunResult undecided = checker({"-q", n8, dir.file("missing")});
  EXPECT_EQ(undecided.exitCode, 2) << undecided.describe();
  EXPECT_TRUE(contains(checker({"--help"}).out, "Each FILE is checked in turn"));
}
TEST_F(CheckerCli, NonexistentFile) { expectUsageError(checker({dir.file("does-not-exist.qc")}), "does-not-exist.qc"); }
TEST_F(CheckerCli, Directory) { expectUsageError(checker({dir.path()})); }

TEST_F(CheckerCli, UnreadableFile) {
  if (geteuid() == 0) GTEST_SKIP() << "running as root: permissions do not block reading";
  const std::string f = dir.file("secret.qc");
  qtest::writeFile(f, std::vector<uint8_t>(64, 0));
  ASSERT_EQ(chmod(f.c_str(), 0), 0);
  expectUsageError(checker({f}), "secret.qc");
}

TEST_F(CheckerCli, HelpExits0) {
  const RunResult r = checker({"--help"});
  EXPECT_EQ(r.exitCode, 0) << r.describe();
  EXPECT_FALSE(r.out.empty());
}

// An empty file is readable; its content is not a certificate.
TEST_F(CheckerCli, EmptyFileIsRejected) {
  qtest::writeFile(dir.file("empty.qc"), {});
  expectRejected(checker({dir.file("empty.qc")}));
}

TEST_F(CheckerCli, GarbageFilesAreRejected) {
  std::mt19937_64 rng(qtest::testSeed(0x9a7ba9e));
  for (size_t size : {1, 7, 8, 16, 24, 100, 1000, 4096, 65536}) {
    std::vector<uint8_t> bytes(size);
    for (auto& b : bytes) b = uint8_t(rng());
    qtest::writeFile(dir.file("garbage.qc"), bytes);
    SCOPED_TRACE("garbage of " + std::to_string(size) + " bytes");
    expectRejected(checker({dir.file("garbage.qc")}));
  }
  // Zeros: a syntactically plausible stream of empty messages.
  for (size_t size : {8, 16, 64, 4096}) {
    qtest::writeFile(dir.file("zeros.qc"), std::vector<uint8_t>(size, 0));
    SCOPED_TRACE("zeros, " + std::to_string(size) + " bytes");
    expectRejected(checker({dir.file("zeros.qc")}));
  }
  // Text.
  const std::string text = "VERIFIED: first player wins on the empty 8x8 board\n";
  qtest::writeFile(dir.file("text.qc"), std::vector<uint8_t>(text.begin(), text.end()));
  expectRejected(checker({dir.file("text.qc")}));
}

}  // namespace
