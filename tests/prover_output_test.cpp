// What `prover prove` and `prover grundy` print after the result: a plain
// summary by default, the search's and certificate's figures in full with
// --verbose, the machine-readable STATS line with --stats (which the bench
// scripts read), and nothing but the result with -q.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/support.hpp"

namespace {

using qtest::contains;
using qtest::kProver;
using qtest::RunResult;
using qtest::runProgram;
using qtest::startsWith;

RunResult prover(std::vector<std::string> args) {
  args.insert(args.begin(), kProver);
  return runProgram(args, 60);
}

// The words only someone who knows the search's insides reads.
const std::vector<std::string> kJargon = {"ETC", "TT ", "STATS", "tokens", "memo", "nodes", "cutoff", "cut-off",
                                          "winner decisions", "default reply", "loser positions", "bytes/decision"};

TEST(ProverOutput, DefaultSummaryHasNoJargon) {
  qtest::TempDir dir;
  const std::string out = dir.file("c8.qcert"), units = dir.file("u.qcert");
  for (const RunResult& r : {prover({"prove", "--n", "8", "--out", out}), prover({"prove", "--n", "7"}),
                             prover({"grundy", "--n", "6", "--out", out}), prover({"grundy", "--n", "5", "--parts", "--out", out}),
                             prover({"prove", "--n", "8", "--jobs", "2", "--out", units})}) {
    ASSERT_EQ(r.exitCode, 0) << r.describe();
    EXPECT_TRUE(startsWith(r.out, "RESULT: ")) << r.describe();
    for (const std::string& word : kJargon) EXPECT_FALSE(contains(r.out, word)) << "'" << word << "' in\n" << r.out;
  }
  const RunResult plain = prover({"prove", "--n", "8", "--out", out});
  EXPECT_TRUE(contains(plain.out, "\nsearch: ")) << plain.out;
  EXPECT_TRUE(contains(plain.out, " positions visited in ")) << plain.out;
  EXPECT_TRUE(contains(plain.out, "\ncertificate: " + out + ", ")) << plain.out;
}

TEST(ProverOutput, VerboseAndStatsAddTheFigures) {
  qtest::TempDir dir;
  const std::string out = dir.file("c8.qcert");
  const RunResult verbose = prover({"prove", "--n", "8", "--out", out, "--verbose"});
  ASSERT_EQ(verbose.exitCode, 0) << verbose.describe();
  for (const char* word : {" TT hits, ", " ETC cutoffs, ", " winner decisions (", " bytes/decision, cutoff 20"})
    EXPECT_TRUE(contains(verbose.out, word)) << word << "\n" << verbose.out;
  EXPECT_FALSE(contains(verbose.out, "STATS")) << verbose.out;

  const RunResult stats = prover({"prove", "--n", "8", "--out", out, "--stats"});
  ASSERT_EQ(stats.exitCode, 0) << stats.describe();
  EXPECT_TRUE(contains(stats.out, "\nSTATS outcome=win nodes=")) << stats.out;
  EXPECT_FALSE(contains(stats.out, "ETC")) << stats.out;
  const RunResult grundy = prover({"grundy", "--n", "5", "--stats"});
  EXPECT_TRUE(contains(grundy.out, "\nSTATS outcome=loss grundy=")) << grundy.out;
  const RunResult parts = prover({"grundy", "--n", "5", "--parts", "--stats"});
  EXPECT_TRUE(contains(parts.out, "\nSTATS outcome=loss grundy=")) << parts.out;

  const RunResult quiet = prover({"prove", "--n", "8", "-q"});
  EXPECT_EQ(quiet.out, "RESULT: first player wins on the empty 8x8 board, e.g. by d4\n") << quiet.describe();
  for (const char* more : {"--verbose", "--stats"}) {
    const RunResult both = prover({"prove", "--n", "8", "-q", more});
    EXPECT_EQ(both.exitCode, 2) << both.describe();
    EXPECT_TRUE(startsWith(both.err, std::string("prover: --quiet and ") + more + " contradict each other")) << both.describe();
  }
}

// count, mod2 and partizan: the result alone by default, STATS with --stats.
TEST(ProverOutput, OtherCommandsPrintStatsOnlyWhenAsked) {
  qtest::TempDir dir;
  const std::vector<std::vector<std::string>> commands = {
      {"count", "--problem", "queens", "--n", "8", "--out", dir.file("c.qcert")},
      {"mod2", "prove", "--n", "3", "--out", dir.file("m.qcert")},
      {"partizan", "--n", "3", "--out", dir.file("p.qcert")},
      {"partizan", "--classes", "--n", "3"}};
  for (const std::vector<std::string>& args : commands) {
    SCOPED_TRACE(args[0] + " " + args[1]);
    const RunResult plain = prover(args);
    ASSERT_EQ(plain.exitCode, 0) << plain.describe();
    EXPECT_TRUE(startsWith(plain.out, args[1] == "--classes" ? "CLASS: " : "RESULT: ")) << plain.describe();
    for (const std::string& word : kJargon) EXPECT_FALSE(contains(plain.out, word)) << "'" << word << "' in\n" << plain.out;
    std::vector<std::string> withStats = args;
    withStats.push_back("--stats");
    const RunResult stats = prover(withStats);
    ASSERT_EQ(stats.exitCode, 0) << stats.describe();
    EXPECT_TRUE(contains(stats.out, "\nSTATS ")) << stats.describe();
    withStats.push_back("-q");
    const RunResult both = prover(withStats);
    EXPECT_EQ(both.exitCode, 2) << both.describe();
    EXPECT_TRUE(contains(both.err, "--quiet and --stats contradict each other")) << both.describe();
  }
}

}  // namespace
