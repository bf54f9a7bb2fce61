// Work units end to end: threads, batch workers (--unit/--of), stop and
// resume on SIGTERM, and the manifests they produce checked by the checker.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <thread>

#include "tests/certfile.hpp"
#include "tests/support.hpp"

namespace {

namespace fs = std::filesystem;
using qtest::kChecker;
using qtest::kProver;
using qtest::runProgram;

size_t countUnits(const fs::path& dir) {
  size_t n = 0;
  if (!fs::exists(dir)) return 0;
  for (const auto& e : fs::directory_iterator(dir)) n += e.path().extension() == ".qcert";
  return n;
}

void expectVerified(const std::string& manifest, const std::string& statement) {
  const auto r = runProgram({kChecker, "--jobs", "2", manifest}, 60);
  ASSERT_EQ(r.exitCode, 0) << r.describe();
  EXPECT_EQ(qtest::firstLine(r.out), "VERIFIED: " + statement + " (queens game)");
}

// Runs `prover <command> --n N --jobs 2 --out OUT`, expects `statement` as its
// result, and the checker to verify OUT with the same words.
void proveWithThreadsAndCheck(const std::string& command, int n, const std::string& out,
                              const std::string& statement) {
  const auto p = runProgram({kProver, command, "--n", std::to_string(n), "--jobs", "2", "--out", out, "--tt-mb", "64"}, 60);
  ASSERT_EQ(p.exitCode, 0) << p.describe();
  // A win names a winning move (which unit is found lost first depends on the threads).
  const std::string line = qtest::firstLine(p.out), example = ", e.g. by ";
  const size_t at = line.find(example);
  EXPECT_EQ(line.substr(0, at), "RESULT: " + statement);
  EXPECT_EQ(at != std::string::npos, statement.find(" wins ") != std::string::npos && statement.find("second") == std::string::npos) << line;
  if (at != std::string::npos) {  // the move named wins: the position after it is lost
    const auto after = runProgram({kProver, "prove", "--n", std::to_string(n), "--queens", line.substr(at + example.size()), "-q"}, 60);
    EXPECT_EQ(after.out.rfind("RESULT: the player to move loses on ", 0), 0u) << after.describe();
  }
  expectVerified(out, statement);
}

TEST(Units, ThreadsWriteAManifestTheCheckerVerifies) {
  qtest::TempDir dir;
  const std::string out = dir.file("n10.qcert");
  proveWithThreadsAndCheck("prove", 10, out, "second player wins on the empty 10x10 board");
  EXPECT_EQ(countUnits(out + ".units/h0"), 15u);  // first moves up to D4 on 10x10
}

TEST(Units, GrundyWithUnitsCertifiesTheValue) {
  qtest::TempDir dir;
  proveWithThreadsAndCheck("grundy", 9, dir.file("g9.qcert"), "the Grundy value of the empty 9x9 board is 1");
  // The manifest's units only: those of heap 0 (a win) served no claim (they used to stay).
  EXPECT_TRUE(fs::is_directory(dir.file("g9.qcert.units/h1")));
  EXPECT_FALSE(fs::exists(dir.file("g9.qcert.units/h0")));
}

// A unit found lost is a winning first move: the run then proves the root
// by that move into one certificate, its replies in chunks, not a manifest
// over shards (a manifest has no replies and no chunks, only its plan).
TEST(Units, AWinningRootFallsBackToOneCertificate) {
  qtest::TempDir dir;
  const std::string out = dir.file("n8.qcert");
  proveWithThreadsAndCheck("prove", 8, out, "first player wins on the empty 8x8 board");
  const qtest::CertModel m = qtest::parseCertificate(qtest::readFile(out));
  EXPECT_GT(m.header.replyCount, 0u) << "a manifest, not one certificate";
  EXPECT_FALSE(m.chunks.empty()) << "a manifest, not one certificate";
  EXPECT_EQ(m.header.chunkCount, m.chunks.size());
  // The certificate holds the whole proof: no units are left (they used to stay).
  EXPECT_FALSE(fs::exists(out + ".units"));
}

TEST(Units, BatchWorkersShareTheUnitsAndAFinalRunWritesTheManifest) {
  qtest::TempDir dir;
  const std::string out = dir.file("b.qcert");
  for (int i = 0; i < 3; ++i) {
    const auto p = runProgram({kProver, "prove", "--n", "10", "--unit", std::to_string(i), "--of", "3", "--out", out,
                               "--tt-mb", "32"}, 60);
    ASSERT_EQ(p.exitCode, 0) << p.describe();
    EXPECT_TRUE(qtest::startsWith(p.out, "UNITS: 5 of 5 units of this worker done")) << p.out;
  }
  EXPECT_FALSE(fs::exists(out));  // no manifest until a full run
  const auto merge = runProgram({kProver, "prove", "--n", "10", "--out", out, "--units", out + ".units"}, 60);
  ASSERT_EQ(merge.exitCode, 0) << merge.describe();
  EXPECT_NE(merge.out.find("15 resumed, 0 proved now"), std::string::npos) << merge.out;
  expectVerified(out, "second player wins on the empty 10x10 board");
}

TEST(Units, UnitsOfAnotherClaimAreRefused) {
  qtest::TempDir dir;
  const std::string out = dir.file("x.qcert");
  ASSERT_EQ(runProgram({kProver, "prove", "--n", "10", "--jobs", "2", "--out", out, "--tt-mb", "32"}, 60).exitCode, 0);
  const auto p = runProgram({kProver, "prove", "--n", "10", "--queens", "a1", "--jobs", "2", "--out", out,
                             "--tt-mb", "32"}, 60);
  EXPECT_EQ(p.exitCode, 2) << p.describe();
  EXPECT_NE(p.err.find("different claim"), std::string::npos) << p.err;
}

// A number in `text` after `before` and up to `after` ("certificate: M, 123 bytes": 123).
uint64_t numberBetween(const std::string& text, const std::string& before, const std::string& after) {
  const size_t from = text.find(before);
  if (from == std::string::npos) return UINT64_MAX;
  const size_t start = from + before.size(), end = text.find(after, start);
  return end == std::string::npos ? UINT64_MAX : std::stoull(text.substr(start, end - start));
}

// The summary of a run that resumes units an earlier run finished is that of
// the whole certificate: the bytes of the manifest and every shard on disk,
// and the decisions the checker reads from all of them. (It used to count
// only the units proved in the last run: after Ctrl-C and resume, 16.1 MB and
// 24.9 M decisions for 19.0 MB and 29.4 M.)
TEST(Units, TheSummaryCountsResumedUnitsToo) {
  qtest::TempDir dir;
  const std::string out = dir.file("s.qcert"), units = out + ".units";
  const auto first = runProgram({kProver, "prove", "--n", "10", "--unit", "0", "--of", "2", "--units", units, "--tt-mb", "32"}, 60);
  ASSERT_EQ(first.exitCode, 0) << first.describe();
  const size_t kept = countUnits(units + "/h0");
  ASSERT_GT(kept, 0u);
  const auto resumed = runProgram({kProver, "prove", "--n", "10", "--jobs", "2", "--units", units, "--out", out, "--tt-mb", "32",
                                   "--verbose", "--stats"}, 60);
  ASSERT_EQ(resumed.exitCode, 0) << resumed.describe();
  ASSERT_NE(resumed.out.find("(" + std::to_string(kept) + " resumed, "), std::string::npos) << resumed.out;
  uint64_t bytes = fs::file_size(out);
  for (const auto& e : fs::recursive_directory_iterator(units))
    if (e.path().extension() == ".qcert") bytes += fs::file_size(e.path());
  const auto check = runProgram({kChecker, "--verbose", out}, 60);
  ASSERT_EQ(check.exitCode, 0) << check.describe();
  const uint64_t tokens = numberBetween(check.err, " shards, tokens ", ",");
  EXPECT_EQ(numberBetween(resumed.out, "certificate: " + out + ", ", " bytes"), bytes) << resumed.out;
  EXPECT_EQ(numberBetween(resumed.out, " bytes, ", " winner decisions in 15 shards and the manifest"), tokens)
      << resumed.out << check.err;
  EXPECT_NE(resumed.out.find(" decisions=" + std::to_string(tokens) + "\n"), std::string::npos) << resumed.out;
  EXPECT_NE(resumed.out.find(" cert_bytes=" + std::to_string(bytes) + " "), std::string::npos) << resumed.out;
}

// SIGTERM in the middle keeps every finished unit; the same command resumes
// without redoing them, and the result verifies.
TEST(Units, StopAndResume) {
  qtest::TempDir dir;
  const std::string out = dir.file("r.qcert");
  const fs::path units = out + ".units/h0";
  const std::vector<std::string> argv = {kProver, "prove", "--n", "14", "--jobs", "1", "--units", out + ".units",
                                         "--out", out, "--tt-mb", "256", "-q"};
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    const int devnull = open("/dev/null", O_WRONLY);
    dup2(devnull, 1);
    dup2(devnull, 2);
    execv(args[0], args.data());
    _exit(127);
  }
  // Reaps the prover however the test ends, so that no stopped child is left.
  struct Reaper {
    pid_t pid;
    bool reaped = false;
    ~Reaper() {
      if (reaped) return;
      kill(pid, SIGKILL);
      waitpid(pid, nullptr, 0);
    }
  } reaper{pid};
  // Wait for at least two finished units, then stop it: SIGSTOP first, so
  // that it cannot finish between the last look and SIGTERM, which is then
  // the first thing it handles when it runs on (SIGCONT).
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (countUnits(units) < 2 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ASSERT_EQ(kill(pid, SIGSTOP), 0);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, WUNTRACED), pid);
  if (!WIFSTOPPED(status)) {
    reaper.reaped = true;
    FAIL() << "the prover ended before the signal (status " << status << "): n = 14 on one thread must outlast two units";
  }
  const size_t before = countUnits(units);
  ASSERT_LT(before, 28u) << "every unit was finished before the signal";
  ASSERT_EQ(kill(pid, SIGTERM), 0);
  ASSERT_EQ(kill(pid, SIGCONT), 0);
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  reaper.reaped = true;
  ASSERT_TRUE(WIFEXITED(status)) << "prover died of a signal";
  const size_t kept = countUnits(units);
  EXPECT_EQ(WEXITSTATUS(status), 3);
  EXPECT_GE(kept, before);
  EXPECT_LT(kept, 28u);
  EXPECT_FALSE(fs::exists(out));
  for (const auto& e : fs::directory_iterator(units))  // no half-written unit left behind
    EXPECT_NE(e.path().extension(), ".tmp") << e.path();

  const auto resumed = runProgram({kProver, "prove", "--n", "14", "--jobs", "2", "--units", out + ".units", "--out",
                                   out, "--tt-mb", "256"}, 120);
  ASSERT_EQ(resumed.exitCode, 0) << resumed.describe();
  EXPECT_NE(resumed.out.find("(" + std::to_string(kept) + " resumed"), std::string::npos) << resumed.out;
  expectVerified(out, "second player wins on the empty 14x14 board");
}

}  // namespace

namespace {

// --win-by: the manifest claims a win by a given move and shards the lost
// position below it; a move that does not win is refused, naming the reply.
TEST(Units, WinByAKnownMoveShardsTheLossBelowIt) {
  qtest::TempDir dir;
  const std::string out = dir.file("w8.qcert");
  const auto p = runProgram({kProver, "prove", "--n", "8", "--win-by", "d4", "--jobs", "2", "--out", out,
                             "--tt-mb", "32"}, 60);
  ASSERT_EQ(p.exitCode, 0) << p.describe();
  EXPECT_EQ(qtest::firstLine(p.out), "RESULT: first player wins on the empty 8x8 board, e.g. by d4");
  expectVerified(out, "first player wins on the empty 8x8 board");

  const auto bad = runProgram({kProver, "prove", "--n", "8", "--win-by", "a1", "--jobs", "2", "--out",
                               dir.file("bad.qcert"), "--tt-mb", "32"}, 60);
  EXPECT_EQ(bad.exitCode, 1) << bad.describe();  // the claim is false
  EXPECT_TRUE(qtest::startsWith(bad.out, "REFUTED: a1 does not win: the reply ")) << bad.describe();
  EXPECT_FALSE(std::filesystem::exists(dir.file("bad.qcert")));
  // Nothing is left of a false claim: its units serve no resume (they used
  // to stay, 8 files in bad.qcert.units/h0).
  EXPECT_FALSE(std::filesystem::exists(dir.file("bad.qcert.units"))) << bad.describe();
  // A --units folder that was there before stays, emptied of this claim's units.
  std::filesystem::create_directories(dir.file("mine"));
  const auto badInMine = runProgram({kProver, "prove", "--n", "8", "--win-by", "a1", "--jobs", "2", "--units",
                                     dir.file("mine/u"), "--out", dir.file("mine/bad.qcert"), "--tt-mb", "32"}, 60);
  EXPECT_EQ(badInMine.exitCode, 1) << badInMine.describe();
  EXPECT_FALSE(std::filesystem::exists(dir.file("mine/u"))) << "made by the run, removed with its units";
  std::filesystem::create_directories(dir.file("given"));
  const auto badInGiven = runProgram({kProver, "prove", "--n", "8", "--win-by", "a1", "--jobs", "2", "--units",
                                      dir.file("given"), "--out", dir.file("g.qcert"), "--tt-mb", "32"}, 60);
  EXPECT_EQ(badInGiven.exitCode, 1) << badInGiven.describe();
  EXPECT_TRUE(std::filesystem::is_directory(dir.file("given"))) << "the user's folder stays";
  EXPECT_FALSE(std::filesystem::exists(dir.file("given/h0")));

  // A move that is not legal is refused before any folder is made (it used
  // to leave an empty illegal.qcert.units).
  const auto illegal = runProgram({kProver, "prove", "--n", "8", "--queens", "d4", "--win-by", "d5", "--jobs", "2",
                                   "--out", dir.file("illegal.qcert"), "--tt-mb", "32"}, 60);
  EXPECT_EQ(illegal.exitCode, 2) << illegal.describe();
  EXPECT_NE(illegal.err.find("--win-by d5 is not a legal move here"), std::string::npos) << illegal.describe();
  EXPECT_FALSE(std::filesystem::exists(dir.file("illegal.qcert.units"))) << illegal.describe();
  EXPECT_FALSE(std::filesystem::exists(dir.file("illegal.qcert")));

  // Batch workers below --win-by report their units (they used to say "a
  // unit is lost", since the claim is a win), and a final run ties them up.
  const std::string batch = dir.file("b8.qcert");
  for (const char* w : {"0", "1"}) {
    const auto worker = runProgram({kProver, "prove", "--n", "8", "--win-by", "d4", "--unit", w, "--of", "2",
                                    "--units", batch + ".units", "--tt-mb", "32"}, 60);
    ASSERT_EQ(worker.exitCode, 0) << worker.describe();
    EXPECT_TRUE(qtest::startsWith(worker.out, "UNITS: ")) << worker.out;
    EXPECT_EQ(worker.out.find("is lost"), std::string::npos) << worker.out;
  }
  const auto merge = runProgram({kProver, "prove", "--n", "8", "--win-by", "d4", "--units", batch + ".units",
                                 "--out", batch, "--tt-mb", "32"}, 60);
  ASSERT_EQ(merge.exitCode, 0) << merge.describe();
  EXPECT_NE(merge.out.find(" 0 proved now"), std::string::npos) << merge.out;
  expectVerified(batch, "first player wins on the empty 8x8 board");
}

}  // namespace

namespace {

std::string fileBytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), {});
}

}  // namespace

// Issue 13: a shipped manifest pins every shard's seal, so anyone must be able
// to regenerate a shard. With --deterministic a unit re-proved alone, by
// another worker split, gives the same bytes as in the first run; without it
// the table's contents (other units' entries) may choose other replies.
TEST(Units, DeterministicUnitsAreByteIdenticalWhenReproved) {
  qtest::TempDir dir;
  const std::string out = dir.file("n12.qcert"), units = out + ".units";
  auto prove = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = {kProver, "prove", "--n", "12", "--deterministic", "--tt-mb", "64", "--units", units, "--out", out};
    args.insert(args.end(), extra.begin(), extra.end());
    const auto p = runProgram(args, 120);
    ASSERT_EQ(p.exitCode, 0) << p.describe();
  };
  prove({"--jobs", "2"});
  std::map<std::string, std::string> first;
  for (const auto& e : fs::directory_iterator(units + "/h0"))
    if (e.path().extension() == ".qcert") first[e.path().filename().string()] = fileBytes(e.path());
  ASSERT_GE(first.size(), 10u);
  size_t removed = 0;
  for (const auto& [name, bytes] : first)
    if (removed++ % 2 == 1) fs::remove(units + "/h0/" + name);  // every other unit, first ones kept
  prove({"--unit", "1", "--of", "2"});  // another split: each unit now sees an order of its own
  prove({"--unit", "0", "--of", "2"});
  prove({});  // writes the manifest
  for (const auto& [name, bytes] : first) EXPECT_EQ(fileBytes(units + "/h0/" + name), bytes) << name << " differs";
  expectVerified(out, "second player wins on the empty 12x12 board");
}

// The second split level: units past --split-above nodes are split below the
// winner's move their search was trying, and their sub-units spread over all
// workers. Threads and batch workers must make the same files (deterministic
// units), and the manifest must verify.
TEST(Units, SplitAboveABudgetSpreadsLargeUnitsOverWorkers) {
  qtest::TempDir dir;
  const std::vector<std::string> common = {"prove", "--n", "12", "--deterministic", "--tt-mb", "64", "--split-above", "20000"};
  auto run = [&](const std::string& units, std::vector<std::string> extra) {
    std::vector<std::string> args = {kProver};
    args.insert(args.end(), common.begin(), common.end());
    args.insert(args.end(), {"--units", units});
    args.insert(args.end(), extra.begin(), extra.end());
    return runProgram(args, 120);
  };
  const std::string threaded = dir.file("t.qcert");
  const auto t = run(threaded + ".units", {"--jobs", "2", "--out", threaded});
  ASSERT_EQ(t.exitCode, 0) << t.describe();
  EXPECT_NE(t.out.find(" split into "), std::string::npos) << t.out;
  expectVerified(threaded, "second player wins on the empty 12x12 board");
  size_t splitUnits = 0;
  for (const auto& e : fs::directory_iterator(threaded + ".units/h0")) splitUnits += e.path().extension() == ".split";
  EXPECT_GE(splitUnits, 2u);

  // Batch workers: worker 0 alone cannot know worker 1's splits yet (exit 3).
  const std::string batch = dir.file("b.qcert");
  const auto w0 = run(batch + ".units", {"--unit", "0", "--of", "2"});
  EXPECT_EQ(w0.exitCode, 3) << w0.describe();
  EXPECT_NE(w0.out.find("not decided yet"), std::string::npos) << w0.out;
  for (const char* w : {"1", "0"}) {
    const auto p = run(batch + ".units", {"--unit", w, "--of", "2"});
    ASSERT_EQ(p.exitCode, 0) << p.describe();
  }
  const auto merge = run(batch + ".units", {"--out", batch});
  ASSERT_EQ(merge.exitCode, 0) << merge.describe();
  EXPECT_NE(merge.out.find("0 proved now"), std::string::npos) << merge.out;  // the workers did everything
  size_t compared = 0;
  for (const auto& e : fs::recursive_directory_iterator(threaded + ".units")) {
    if (e.path().extension() != ".qcert") continue;
    const fs::path twin = fs::path(batch + ".units") / fs::relative(e.path(), threaded + ".units");
    EXPECT_EQ(fileBytes(twin), fileBytes(e.path())) << twin << " differs";
    ++compared;
  }
  EXPECT_GT(compared, 100u);
  expectVerified(batch, "second player wins on the empty 12x12 board");
}

// A split marker whose move does not win (the guess was wrong): a sub-unit is
// found lost, and the unit is then proved whole. A marker naming an illegal
// move is refused. (Many moves win early on: on 10x10 the loop finds a
// losing one after a few tries, c2 after a1 today.)
TEST(Units, ARefutedSplitMoveIsProvedWhole) {
  qtest::TempDir dir;
  const std::string out = dir.file("r.qcert"), units = out + ".units";
  bool refuted = false, illegalSeen = false;
  for (int square = 0; square < 100 && !refuted; ++square) {
    fs::remove_all(units);
    fs::create_directories(units + "/h0");
    std::ofstream(units + "/h0/u00000.split") << "move " << square << "\n";
    const auto p = runProgram({kProver, "prove", "--n", "10", "--deterministic", "--tt-mb", "16", "--split-above",
                               "1000000000", "--jobs", "2", "--units", units, "--out", out}, 120);
    if (p.exitCode == 2 && p.err.find("not legal in its unit") != std::string::npos) {
      illegalSeen = true;
      continue;
    }
    ASSERT_EQ(p.exitCode, 0) << p.describe();
    bool lostSub = false;
    for (const auto& e : fs::directory_iterator(units + "/h0/u00000")) lostSub |= e.path().extension() == ".lost";
    if (!lostSub) continue;  // this move wins: the sub-units prove it
    refuted = true;
    EXPECT_TRUE(fs::exists(units + "/h0/u00000.qcert"));
    expectVerified(out, "second player wins on the empty 10x10 board");
  }
  EXPECT_TRUE(refuted);
  EXPECT_TRUE(illegalSeen);
}
