// The prover's exit status, every code of every subcommand (README, "Exit
// status"): 0 done; 1 a claim is false (table-check IMPOSSIBLE, prove --win-by
// REFUTED); 2 nothing decided (bad arguments, unparsable input, an output path
// that cannot be written, out of memory), one line "prover...: ..." on stderr;
// 3 interrupted by SIGINT/SIGTERM.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "tests/support.hpp"

namespace {

namespace fs = std::filesystem;
using qtest::contains;
using qtest::kProver;
using qtest::RunResult;
using qtest::runProgram;
using qtest::startsWith;

const std::string kProofsDir = std::string(QCERT_CERTS_DIR) + "/../proofs";

RunResult prover(std::vector<std::string> args, double timeout = 30) {
  args.insert(args.begin(), kProver);
  return runProgram(args, timeout);
}

// Status 2: no verdict on stdout, exactly one line on stderr, starting with
// `prefix`.
void expectNothingDecided(const RunResult& r, const std::string& prefix) {
  ASSERT_FALSE(r.timedOut || r.signaled) << r.describe();
  EXPECT_EQ(r.exitCode, 2) << r.describe();
  for (const char* verdict : {"RESULT:", "REFUTED:", "CONSISTENT", "IMPOSSIBLE:"})
    EXPECT_FALSE(contains(r.out, verdict)) << r.describe();
  EXPECT_TRUE(startsWith(r.err, prefix)) << "stderr should start with '" << prefix << "'\n" << r.describe();
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << "stderr should be one line\n" << r.describe();
}

// Starts the prover, sends `sig` after `delay`, and returns how it ended.
RunResult runAndSignal(const std::vector<std::string>& args, std::chrono::milliseconds delay, int sig) {
  qtest::TempDir dir;
  std::vector<std::string> argv{kProver};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<char*> cargs;
  for (const auto& a : argv) cargs.push_back(const_cast<char*>(a.c_str()));
  cargs.push_back(nullptr);
  const std::string outFile = dir.file("stdout"), errFile = dir.file("stderr");
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    dup2(open("/dev/null", O_RDONLY), 0);
    dup2(open(outFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644), 1);
    dup2(open(errFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644), 2);
    execv(cargs[0], cargs.data());
    _exit(127);
  }
  std::this_thread::sleep_for(delay);
  kill(pid, sig);
  RunResult r;
  int status = 0;
  // A stopped search returns at once; 30 s means the signal was not heeded.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (waitpid(pid, &status, WNOHANG) != pid) {
    if (std::chrono::steady_clock::now() > deadline) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      r.timedOut = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (!r.timedOut && WIFSIGNALED(status)) r.signaled = true, r.signal = WTERMSIG(status);
  if (!r.timedOut && WIFEXITED(status)) r.exitCode = WEXITSTATUS(status);
  auto slurp = [](const std::string& path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  };
  r.out = slurp(outFile);
  r.err = slurp(errFile);
  return r;
}

// ------------------------------------------------------------------- help

TEST(ProverExitCodes, EveryHelpStatesTheConvention) {
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"--help"}, {"count", "--help"}, {"table-check", "--help"}}) {
    const RunResult r = prover(args);
    EXPECT_EQ(r.exitCode, 0) << r.describe();
    EXPECT_TRUE(contains(r.out, "Exit status: 0 ")) << r.describe();
    EXPECT_TRUE(contains(r.out, "2 nothing decided")) << r.describe();
    EXPECT_FALSE(contains(r.out, "internal failure")) << r.describe();
  }
  EXPECT_TRUE(contains(prover({"--help"}).out, "3 interrupted"));
  EXPECT_TRUE(contains(prover({"--help"}).out, "1 a claim is false"));
  EXPECT_TRUE(contains(prover({"table-check", "--help"}).out, "1 'IMPOSSIBLE"));
}

// ------------------------------------------------------------------ prove

TEST(ProverExitCodes, Prove0Done) {
  qtest::TempDir dir;
  const RunResult r = prover({"prove", "--n", "5", "--out", dir.file("c5.qcert"), "-q"});
  EXPECT_EQ(r.exitCode, 0) << r.describe();
  EXPECT_EQ(r.out, "RESULT: first player wins on the empty 5x5 board, e.g. by c3\n");
  EXPECT_TRUE(fs::exists(dir.file("c5.qcert")));
}

// a1 does not win on the 10x10 board (the second player wins there): the
// claim is false, and the reply named really beats it.
TEST(ProverExitCodes, Prove1WinByRefutedNamesTheReply) {
  qtest::TempDir dir;
  const RunResult r = prover({"prove", "--n", "10", "--win-by", "a1", "--jobs", "2", "--out", dir.file("w.qcert"),
                              "--tt-mb", "32"}, 60);
  ASSERT_FALSE(r.timedOut || r.signaled) << r.describe();
  EXPECT_EQ(r.exitCode, 1) << r.describe();
  const std::string prefix = "REFUTED: a1 does not win: the reply ";
  ASSERT_TRUE(startsWith(r.out, prefix)) << r.describe();
  EXPECT_FALSE(contains(r.out, "RESULT:")) << r.describe();
  EXPECT_FALSE(fs::exists(dir.file("w.qcert"))) << "no manifest for a false claim";
  const std::string reply = r.out.substr(prefix.size(), r.out.find(' ', prefix.size()) - prefix.size());
  const RunResult after = prover({"prove", "--n", "10", "--queens", "a1," + reply, "-q"});
  EXPECT_TRUE(startsWith(after.out, "RESULT: the player to move loses on the 10x10 board after queens a1 (0,0), " + reply +
                                        " (")) << after.describe();
}

// Every numeric option: a negative value or a non-number names the option and
// its range (program_options once read "-1" into an unsigned as 2^64 - 1).
TEST(ProverExitCodes, Prove2NumericOptionsNameTheirRange) {
  const std::vector<std::pair<std::string, std::string>> ranges{
      {"--n", "1 and 22"},       {"--heap", "0 and 255"}, {"--tt-mb", "1 and 1048576"},
      {"--cutoff", "0 and 32"},  {"--small", "0 and 32"}, {"--zstd-level", "1 and 19"},
      {"--jobs", "1 and 1024"},  {"--unit", "0 and 999999"}, {"--of", "1 and 1000000"}};
  for (const auto& [option, range] : ranges)
    for (const std::string bad : {"-1", "x", "", "3x", "99999999999999999999999"}) {
      SCOPED_TRACE(option + " '" + bad + "'");
      std::vector<std::string> args{"prove", "--n", "4", option, bad};
      if (option == "--n") args = {"prove", "--n", bad};
      expectNothingDecided(prover(args),
                           "prover: " + option + " must be a number between " + range + ", got '" + bad + "'");
    }
  expectNothingDecided(prover({"prove", "--n", "4", "--heap", "256"}), "prover: --heap must be a number between 0 and 255");
  expectNothingDecided(prover({"prove", "--n", "4", "--unit", "2", "--of", "2"}),
                       "prover: --unit must be a number between 0 and 1 (below --of 2), got '2'");
  expectNothingDecided(prover({"frobnicate"}), "prover: unknown command 'frobnicate'");
  // Options without a command: named as missing (it used to say "unknown command ''").
  for (const std::vector<std::string>& args : {std::vector<std::string>{"--n", "8"}, {"-q"}, {"--out", "x.qcert", "--n", "4"}})
    expectNothingDecided(prover(args), "prover: no command before the options: name one of prove, grundy,");
  expectNothingDecided(prover({"prove", "--n", "4", "--bogus"}), "prover: unrecognised option '--bogus'");
}

// "Unknown command" lists every command there is: each one it names answers
// --help, and each command main() dispatches is named.
TEST(ProverExitCodes, UnknownCommandListsEveryCommand) {
  const RunResult r = prover({"frobnicate"});
  expectNothingDecided(r, "prover: unknown command 'frobnicate' (expected ");
  const size_t from = r.err.find("(expected ") + 10, to = r.err.find(";", from);
  ASSERT_NE(to, std::string::npos) << r.err;
  std::string list = r.err.substr(from, to - from);  // "prove, grundy, ... or partizan"
  std::vector<std::string> named;
  for (size_t at = 0; at < list.size();) {
    size_t end = list.find_first_of(", ", at);
    if (end == std::string::npos) end = list.size();
    const std::string word = list.substr(at, end - at);
    if (!word.empty() && word != "or") named.push_back(word);
    at = end + 1;
  }
  for (const char* command : {"prove", "grundy", "count", "table-check", "mod2", "partizan"})
    EXPECT_NE(std::find(named.begin(), named.end(), command), named.end()) << command << " missing from: " << r.err;
  for (const std::string& command : named) {
    const RunResult help = prover({command, "--help"});
    EXPECT_EQ(help.exitCode, 0) << command << " is named but is no command\n" << help.describe();
  }
}

// Options that contradict each other, or ask for files without saying where
// they go, are refused in one line naming the options, before any search.
TEST(ProverExitCodes, Prove2ContradictionsAndMissingOutputsNameTheOption) {
  qtest::TempDir dir;
  expectNothingDecided(prover({"prove", "--n", "16", "--win-by", "a1"}, 10),
                       "prover: --win-by a1 needs --out FILE: the claim that a1 wins is a manifest over work units");
  expectNothingDecided(prover({"prove", "--n", "16", "--jobs", "2"}, 10),
                       "prover: --jobs 2 proves work units and needs --out FILE for their manifest");
  expectNothingDecided(prover({"grundy", "--n", "16", "--units", dir.file("u")}, 10),
                       "prover: --units " + dir.file("u") + " needs --out FILE for the manifest");
  expectNothingDecided(prover({"prove", "--n", "16", "--unit", "0", "--of", "2"}, 10),
                       "prover: --unit/--of needs --units DIR (where this worker's units go) or --out FILE\n");
  expectNothingDecided(prover({"prove", "--n", "16", "--no-mirror", "--mirror", "files", "--out", dir.file("m")}, 10),
                       "prover: --no-mirror and --mirror files contradict each other: choose one");
  expectNothingDecided(prover({"prove", "--n", "16", "--mirror", "none", "--no-mirror"}, 10),
                       "prover: --no-mirror and --mirror none contradict each other");
  EXPECT_TRUE(fs::is_empty(dir.path())) << "refused before anything was made";
  expectNothingDecided(prover({"prove", "--n", "16", "--win-by", "a1", "--unit", "0", "--of", "2"}, 10),
                       "prover: --unit/--of needs --units DIR (where this worker's units go) or --out FILE\n");
  // Still fine: a batch worker with --units DIR (its units, no manifest), and
  // the mirror lemma's --win-by, which writes no units.
  const RunResult worker = prover({"prove", "--n", "8", "--win-by", "d4", "--unit", "0", "--of", "2", "--units", dir.file("w"), "-q"});
  EXPECT_EQ(worker.exitCode, 0) << worker.describe();
  EXPECT_TRUE(startsWith(worker.out, "UNITS: ")) << worker.describe();
  const RunResult lemma = prover({"prove", "--n", "5", "--piece", "king", "--win-by", "c3", "--by-mirror-lemma", "-q"});
  EXPECT_EQ(lemma.exitCode, 0) << lemma.describe();
}

// Output paths are tried before any search: a 16x16 proof would take hours.
TEST(ProverExitCodes, Prove2UnwritableOutputFailsBeforeAnyWork) {
  const RunResult r = prover({"prove", "--n", "16", "--out", "/nonexistent/x"}, 10);
  expectNothingDecided(r, "prover: cannot write --out /nonexistent/x: No such file or directory\n");

  qtest::TempDir dir;
  qtest::writeFile(dir.file("file"), {'x'});
  const std::string units = dir.file("file") + "/units";  // under a plain file: cannot be made, even as root
  expectNothingDecided(prover({"prove", "--n", "16", "--jobs", "2", "--units", units, "--out", dir.file("m.qcert")}, 10),
                       "prover: cannot write --units " + units + ": Not a directory\n");
  expectNothingDecided(prover({"prove", "--n", "16", "--out", dir.path()}, 10),
                       "prover: cannot write --out " + dir.path() + ": it is a directory, not a regular file\n");
  for (const auto& e : fs::directory_iterator(fs::path(dir.path()).parent_path()))  // no temporary beside it
    EXPECT_EQ(e.path().string().rfind(dir.path() + ".", 0), std::string::npos) << e.path();
}

// What is wrong is named as it is: a regular file where a folder is wanted
// (it was "a special file"), a square given twice (it was "attacked").
TEST(ProverExitCodes, Prove2NamesARegularFileAndARepeatedSquareAsSuch) {
  qtest::TempDir dir;
  qtest::writeFile(dir.file("file"), {'x'});
  expectNothingDecided(prover({"prove", "--n", "8", "--jobs", "2", "--units", dir.file("file"), "--out", dir.file("m.qcert")}, 10),
                       "prover: cannot write --units " + dir.file("file") + ": it is a regular file, not a directory\n");
  expectNothingDecided(prover({"prove", "--n", "5", "--queens", "a1,a1"}, 10), "prover: the queens name a1 (0,0) twice\n");
  expectNothingDecided(prover({"prove", "--n", "5", "--queens", "a1,b1"}, 10),
                       "prover: queen on b1 (0,1) is attacked by an earlier queen\n");
}

TEST(ProverExitCodes, Prove2TableLargerThanMemoryIsNotDone) {
  const uint64_t physicalMiB = uint64_t(sysconf(_SC_PHYS_PAGES)) * uint64_t(sysconf(_SC_PAGE_SIZE)) >> 20;
  if (physicalMiB >= 1000000) GTEST_SKIP() << "this machine has a terabyte of memory";
  const RunResult r = prover({"prove", "--n", "8", "--tt-mb", "1000000"});
  expectNothingDecided(r, "prover: not done: cannot allocate a 1000000 MiB transposition table (");
}

// Without work units an interrupted search keeps nothing, and stops at once.
TEST(ProverExitCodes, Prove3Interrupted) {
  const auto start = std::chrono::steady_clock::now();
  const RunResult r = runAndSignal({"prove", "--n", "16", "--tt-mb", "64", "-q"}, std::chrono::milliseconds(500), SIGINT);
  ASSERT_FALSE(r.timedOut || r.signaled) << r.describe();
  EXPECT_EQ(r.exitCode, 3) << r.describe();
  EXPECT_TRUE(startsWith(r.err, "prover: interrupted")) << r.describe();
  EXPECT_EQ(r.out, "");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
}
// (With work units, finished units are kept and the run resumes: tests/units_test.cpp, Units.StopAndResume.)

// ----------------------------------------------------------------- grundy

TEST(ProverExitCodes, Grundy0Done) {
  const RunResult r = prover({"grundy", "--n", "5", "-q"});
  EXPECT_EQ(r.exitCode, 0) << r.describe();
  EXPECT_EQ(r.out, "RESULT: the Grundy value of the empty 5x5 board is 3\n");
}

TEST(ProverExitCodes, Grundy2NothingDecided) {
  expectNothingDecided(prover({"grundy", "--n", "4", "--heap", "1"}), "prover: --heap does not apply to grundy");
  expectNothingDecided(prover({"grundy", "--n", "4", "--small", "-1"}),
                       "prover: --small must be a number between 0 and 32, got '-1'");
  expectNothingDecided(prover({"grundy", "--n", "16", "--out", "/nonexistent/g"}, 10),
                       "prover: cannot write --out /nonexistent/g: No such file or directory\n");
  qtest::TempDir dir;
  expectNothingDecided(prover({"grundy", "--n", "16", "--win-by", "a1", "--out", dir.file("g.qcert")}, 10),
                       "prover: --win-by applies to prove, not grundy");
  EXPECT_TRUE(fs::is_empty(dir.path())) << "refused before anything was made";
}

// A stopped search answers "win" for every heap; the loop over heaps must not
// read that as a Grundy value past 255.
TEST(ProverExitCodes, Grundy3Interrupted) {
  const RunResult r = runAndSignal({"grundy", "--n", "16", "--tt-mb", "64", "-q"}, std::chrono::milliseconds(500), SIGTERM);
  ASSERT_FALSE(r.timedOut || r.signaled) << r.describe();
  EXPECT_EQ(r.exitCode, 3) << r.describe();
  EXPECT_TRUE(startsWith(r.err, "prover: interrupted")) << r.describe();
}

// ------------------------------------------------------------------ count

TEST(ProverExitCodes, Count0Done) {
  qtest::TempDir dir;
  const RunResult r = prover({"count", "--problem", "queens", "--n", "8", "--out", dir.file("q8.qcert"), "-q"});
  EXPECT_EQ(r.exitCode, 0) << r.describe();
  EXPECT_EQ(r.out, "RESULT: the 8-queens problem has 92 solutions, 12 up to symmetry\n");
}

TEST(ProverExitCodes, Count2NothingDecided) {
  // Tried before counting: 27 queens would take days.
  expectNothingDecided(prover({"count", "--problem", "queens", "--n", "27", "--out", "/nonexistent/x"}, 10),
                       "prover count: cannot write --out /nonexistent/x: No such file or directory\n");
  const std::vector<std::pair<std::string, std::string>> ranges{
      {"--n", "1 and 27"}, {"--holes", "0 and 4"}, {"--max-queens", "0 and 27"}, {"--cell-depth", "0 and 3"},
      {"--jobs", "1 and 1024"}};
  for (const auto& [option, range] : ranges)
    for (const std::string bad : {"-1", "x"}) {
      SCOPED_TRACE(option + " '" + bad + "'");
      std::vector<std::string> args{"count", "--problem", "queens", "--n", "8", option, bad};
      if (option == "--n") args = {"count", "--problem", "queens", "--n", bad};
      expectNothingDecided(prover(args),
                           "prover count: " + option + " must be a number between " + range + ", got '" + bad + "'");
    }
  expectNothingDecided(prover({"count", "--problem", "bishops", "--n", "8"}), "prover count: unknown --problem 'bishops'");
  expectNothingDecided(prover({"count", "--problem", "nplusk", "--n", "13", "--holes", "1"}),
                       "prover count: --n must be between 1 and 12 for this problem");
}

TEST(ProverExitCodes, Count3InterruptedLeavesNoCertificate) {
  qtest::TempDir dir;
  const std::string out = dir.file("q23.qcert");
  const RunResult r = runAndSignal({"count", "--problem", "queens", "--n", "23", "--jobs", "1", "--out", out, "-q"},
                                   std::chrono::milliseconds(300), SIGINT);
  ASSERT_FALSE(r.timedOut || r.signaled) << r.describe();
  EXPECT_EQ(r.exitCode, 3) << r.describe();
  EXPECT_TRUE(startsWith(r.err, "prover count: interrupted")) << r.describe();
  EXPECT_FALSE(fs::exists(out));
  EXPECT_TRUE(fs::is_empty(dir.path())) << "the temporary is removed";
}

// ------------------------------------------------------------ table-check

TEST(ProverExitCodes, TableCheck0Consistent) {
  const RunResult r = prover({"table-check", "the 8-queens problem has 92 solutions, 12 up to symmetry"});
  EXPECT_EQ(r.exitCode, 0) << r.describe();
  EXPECT_EQ(r.out, "CONSISTENT\n");
}

TEST(ProverExitCodes, TableCheck1Impossible) {
  const RunResult r =
      prover({"table-check", "the 26-queens problem has 22317699616364044 solutions, 278971246651089 up to symmetry"});
  EXPECT_EQ(r.exitCode, 1) << r.describe();
  EXPECT_TRUE(startsWith(r.out, "IMPOSSIBLE: classes 278971246651089 < solutions/8")) << r.describe();
}

// Text of no known form was once CONSISTENT: a typo passed the audit's rules.
TEST(ProverExitCodes, TableCheck2UnparsableIsNoVerdict) {
  for (const std::string text : {"hello", "", "eight queens has 92",
                                 "second player wins on the empty 10x10 board (queens game)",
                                 "the 8-queens problem has 92 solutions, 12 up to symmetry ",
                                 "the 8x9 queens game has 1 end positions, 1 up to symmetry", "multi\nline"}) {
    SCOPED_TRACE(text);
    const RunResult r = prover({"table-check", text});
    expectNothingDecided(r, "prover table-check: cannot parse '");
    EXPECT_TRUE(contains(r.err, "': expected one of 'the N-queens problem has T solutions, C up to symmetry'"))
        << r.describe();
  }
  expectNothingDecided(prover({"table-check", std::string(5000, 'a')}), "prover table-check: cannot parse 'aaa");
  expectNothingDecided(prover({"table-check", "the 8-queens problem has 1" + std::string(40, '0') + " solutions, 1 up to symmetry"}),
                       "prover table-check: the number 1000");
  expectNothingDecided(prover({"table-check", "the 0-queens problem on the torus has 0 solutions"}),
                       "prover table-check: the board size 0 is out of range");
  expectNothingDecided(prover({"table-check", "the 99999999999999999999-queens problem has 1 solutions, 1 up to symmetry"}),
                       "prover table-check: the board size 99999999999999999999 is out of range");
  expectNothingDecided(prover({"table-check"}), "prover table-check: expected one statement");
  expectNothingDecided(prover({"table-check", "a", "b"}), "prover table-check: expected one statement");
}

// Every count statement the audit passes to table-check (tools/audit.sh: the
// claims whose prover arguments start with "count") is understood: a verdict,
// never status 2.
TEST(ProverExitCodes, TableCheckUnderstandsEveryAuditedStatement) {
  size_t statements = 0, impossible = 0;
  for (const auto& entry : fs::directory_iterator(kProofsDir)) {
    if (entry.path().extension() != ".claims") continue;
    std::ifstream in(entry.path());
    for (std::string line; std::getline(in, line);) {
      const auto first = line.find_first_not_of(" \t");
      if (first == std::string::npos || line[first] == '#') continue;
      std::vector<std::string> fields;
      std::stringstream ss(line);
      for (std::string f; std::getline(ss, f, '|');) {
        const auto a = f.find_first_not_of(' '), b = f.find_last_not_of(' ');
        fields.push_back(a == std::string::npos ? "" : f.substr(a, b - a + 1));
      }
      if (fields.size() < 3 || !startsWith(fields[2], "count")) continue;
      const RunResult r = prover({"table-check", fields[1]});
      EXPECT_TRUE(r.exitCode == 0 || r.exitCode == 1) << entry.path().filename() << " " << fields[0] << "\n" << r.describe();
      ++statements;
      impossible += r.exitCode == 1;
    }
  }
  EXPECT_GT(statements, 100u);
  EXPECT_EQ(impossible, 1u) << "seed 002's n = 26 entry is the one impossible count";
}

}  // namespace
