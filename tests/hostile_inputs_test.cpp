// Issue 27's hostile inputs for the checker and for qcert describe and
// replies, each written here from the schema (small files that ask for huge
// work, lie about their size, or hold bytes that are not text): every one is
// answered within its time limit plus about a second, by REJECTED or by "not
// checked" (exit 2), never by a crash, a hang or a line that is not text.
#include <capnp/message.h>
#include <capnp/serialize.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <zstd.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <regex>

#include "tests/certfile.hpp"
#include "schema/qcert.capnp.h"
#include "tests/support.hpp"

using qtest::contains;
using qtest::kChecker;
using qtest::kProver;
using qtest::kQcert;
using qtest::RunResult;

namespace {

struct Timed {
  RunResult run;
  double seconds = 0;
};
Timed timed(const std::string& program, std::vector<std::string> args, double timeout = 30) {
  args.insert(args.begin(), program);
  const auto start = std::chrono::steady_clock::now();
  Timed t{qtest::runProgram(args, timeout)};
  t.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return t;
}

// Exit `status` with a line starting `verdict` and holding `mention`, within
// `seconds`, not killed by a signal.
void expectAnswer(const Timed& t, int status, const std::string& verdict, const std::string& mention, double seconds) {
  const RunResult& r = t.run;
  ASSERT_FALSE(r.timedOut) << "still running: " << r.describe();
  ASSERT_FALSE(r.signaled) << r.describe();
  EXPECT_EQ(r.exitCode, status) << r.describe();
  EXPECT_TRUE(qtest::startsWith(r.out + r.err, verdict) || contains(r.out + r.err, "\n" + verdict) ||
              contains(r.out + r.err, ": " + verdict))
      << "should say '" << verdict << "'\n" << r.describe();
  EXPECT_TRUE(contains(r.out + r.err, mention)) << "should mention '" << mention << "'\n" << r.describe();
  EXPECT_LT(t.seconds, seconds) << r.describe();
}

std::vector<uint8_t> bytesOf(capnp::MessageBuilder& message) {
  auto words = capnp::messageToFlatArray(message);
  return {words.asBytes().begin(), words.asBytes().end()};
}

// The messages given, then a correct Seal over them.
std::string sealed(const std::string& path, std::vector<uint8_t> body) {
  const std::vector<uint8_t> seal = qtest::sealOf(body);
  capnp::MallocMessageBuilder sealMessage;
  sealMessage.initRoot<Seal>().setXxh3x128(capnp::Data::Reader(seal.data(), seal.size()));
  const std::vector<uint8_t> sealBytes = bytesOf(sealMessage);
  body.insert(body.end(), sealBytes.begin(), sealBytes.end());
  qtest::writeFile(path, body);
  return path;
}
std::string headerFile(const std::string& path, const std::function<void(Header::Builder)>& fill) {
  capnp::MallocMessageBuilder message;
  auto h = message.initRoot<Header>();
  h.setFormatVersion(1);
  fill(h);
  return sealed(path, bytesOf(message));
}

class HostileInputs : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { dir_ = new qtest::TempDir; }
  static void TearDownTestSuite() { delete dir_; }
  static std::string file(const std::string& name) { return dir_->file(name); }

  // The moves of the prover's all-but-two play (Brown-Ladha Claim 3.3): a
  // legal play that locks the n x n board with n^2 - 2 queens.
  static std::vector<uint16_t> allButTwo(int n) {
    const std::string out = file("all-but-two-" + std::to_string(n));
    const RunResult r = qtest::runProgram(
        {kProver, "mod2", "play", "--n", std::to_string(n), "--construction", "all-but-two", "--out", out, "-q"}, 30);
    EXPECT_EQ(r.exitCode, 0) << r.describe();
    const std::vector<uint8_t> bytes = qtest::readFile(out);
    kj::ArrayPtr<const capnp::word> words(reinterpret_cast<const capnp::word*>(bytes.data()), bytes.size() / 8);
    capnp::FlatArrayMessageReader reader(qtest::splitMessages(words).front());
    std::vector<uint16_t> moves;
    for (uint16_t s : reader.getRoot<Header>().getMod2().getMoves()) moves.push_back(s);
    EXPECT_EQ(moves.size(), size_t(n * n - 2));
    return moves;
  }
  // "The fewest queens in a legal locked position of the mod-2 game on the
  // n x n board is <count>", with `witness` as its locking play.
  static std::string fewestLocking(const std::string& name, int n, const std::vector<uint16_t>& witness) {
    return headerFile(file(name), [&](Header::Builder h) {
      auto c = h.initMod2();
      c.setBoardSize(uint16_t(n)), c.setKind(Mod2Kind::EXHAUSTIVE), c.setExhaustive(Mod2Exhaustive::FEWEST_LOCKING);
      c.setCount(uint32_t(witness.size()));
      auto moves = c.initMoves(unsigned(witness.size()));
      for (unsigned i = 0; i < witness.size(); ++i) moves.set(i, witness[i]);
    });
  }
  // A count certificate for the n-queens problem as one cell of depth 0
  // stating one solution: a few hundred bytes that ask for the whole search.
  static std::string wholeBoardCell(const std::string& name, unsigned n) {
    return headerFile(file(name), [&](Header::Builder h) {
      auto c = h.initCount();
      c.setProblem(CountProblem::N_QUEENS), c.setBoardSize(uint16_t(n)), c.setCellDepth(0);
      c.initTotals(1).set(0, 1), c.initClasses(1).set(0, 1);
      auto cell = c.initCells(1)[0];
      cell.initRows(0), cell.initTotals(1).set(0, 1), cell.initClasses(1).set(0, 1);
    });
  }
  // A manifest on the 6x6 board whose plan is `plan`.
  static std::string manifest(const std::string& path, const std::function<void(Obligation::Builder)>& plan) {
    return headerFile(path, [&](Header::Builder h) {
      auto claim = h.initClaim();
      claim.setBoardSize(6), claim.setOutcome(Outcome::WIN);
      plan(h.initPlan());
    });
  }

  static qtest::TempDir* dir_;
};
qtest::TempDir* HostileInputs::dir_ = nullptr;

// ------------------------------------------------- the mod-2 fewestLocking search

// The true value on 6x6 is 5; a claim of 34 with a legal 34-queen witness once
// ran for hours (the walk of every set of up to 33 queens, each locked one
// tested for legality by an exponential recursion that never read the clock).
// Sizes go up from 1 now, so the smallest counterexample refutes it at once.
TEST_F(HostileInputs, FalseFewestLockingIsRefutedByItsSmallestCounterexample) {
  const std::string f = fewestLocking("fewest-34.qc", 6, allButTwo(6));
  expectAnswer(timed(kChecker, {"-q", "--time-limit", "3", f}), 1, "REJECTED: ", "a legal position with 5 queens is locked", 4.5);
  expectAnswer(timed(kChecker, {"-q", f}), 1, "REJECTED: ", "a legal position with 5 queens is locked", 4.5);
}

// 8x8, claimed 62 with a legal 62-queen witness: walking every set of up to
// 61 queens would take years (it was refused up front); the locked sets found
// from their line parities, size by size, refute it at the true value, 12, in
// seconds (the limit leaves room for the sanitizer build).
TEST_F(HostileInputs, FewestLockingClaimOfSixtyTwoIsRefutedAtTwelve) {
  const std::string f = fewestLocking("fewest-62.qc", 8, allButTwo(8));
  expectAnswer(timed(kChecker, {"-q", f}), 1, "REJECTED: ", "a legal position with 12 queens is locked", 60);
}

// The 6x6 passes hold one bit for each of 2^36 sets, 8 GiB: clearing them up
// front took 17 s on the development VM before the pass first read the clock
// (a limit of 5 s answered after 11-19 s). The pages now come zeroed as the
// pass first touches them: 2.1 s for a 2 s limit. The bound leaves room for
// the sanitizer build, whose 1 GiB shadow of the bitmap is written when it is
// freed (4.0-4.9 s quiet, 6.3 s with three jobs on two cores, 9.4-10.9 s in
// a CI run beside ctest -j2 on 2026-11-27), so that build gets 20 s; the plain
// build keeps 8.5 s, which the old code (11-19 s) fails. (With less than about
// 9 GiB of memory the answer is NOT CHECKED for memory, at once.)
#if defined(__SANITIZE_ADDRESS__)
constexpr double kSixBySixSeconds = 20;
#else
constexpr double kSixBySixSeconds = 8.5;
#endif
TEST_F(HostileInputs, SixBySixPassesStopAtTheirTimeLimit) {
  for (const Mod2Exhaustive what : {Mod2Exhaustive::LEGAL_COUNT, Mod2Exhaustive::OUTCOME}) {
    const std::string f = headerFile(file("six-" + std::to_string(unsigned(what)) + ".qc"), [&](Header::Builder h) {
      auto c = h.initMod2();
      c.setBoardSize(6), c.setKind(Mod2Kind::EXHAUSTIVE), c.setExhaustive(what);
      if (what == Mod2Exhaustive::LEGAL_COUNT) c.initTotals(37), c.initClasses(37);
    });
    expectAnswer(timed(kChecker, {"-q", "--time-limit", "2", f}), 2, "NOT CHECKED: ", "NOT CHECKED: ", kSixBySixSeconds);
  }
}

// -------------------------------------------------------- chunks of zero tokens

// 200 chunks, each 64 MiB of zero tokens in about 2 KB of zstd: a 400 KB file
// that took 16 s past a limit of 3 s, and qcert describe 15 s.
TEST_F(HostileInputs, ZeroTokenChunksAreStoppedByTheClock) {
  const std::vector<uint8_t> raw(size_t(64) << 20, 0);
  std::vector<uint8_t> frame(ZSTD_compressBound(raw.size()));
  frame.resize(ZSTD_compress(frame.data(), frame.size(), raw.data(), raw.size(), 19));
  capnp::MallocMessageBuilder header;
  auto h = header.initRoot<Header>();
  h.setFormatVersion(1), h.setReplyCount(uint64_t(200) * raw.size()), h.setChunkCount(200);
  h.initClaim().setBoardSize(8);
  std::vector<uint8_t> body = bytesOf(header);
  capnp::MallocMessageBuilder chunk;
  auto c = chunk.initRoot<ReplyChunk>();
  c.setTokenCount(raw.size()), c.setRawSize(uint32_t(raw.size())), c.setZstdFrame(capnp::Data::Reader(frame.data(), frame.size()));
  const std::vector<uint8_t> chunkBytes = bytesOf(chunk);
  for (int i = 0; i < 200; ++i) body.insert(body.end(), chunkBytes.begin(), chunkBytes.end());
  const std::string f = sealed(file("zero-chunks.qc"), body);
  EXPECT_LT(qtest::readFile(f).size(), 600u << 10);
  expectAnswer(timed(kChecker, {"--time-limit", "2", f}), 2, "NOT CHECKED: ", "time limit of 2 s reached", 3.5);
  expectAnswer(timed(kQcert, {"describe", "--time-limit", "2", f}), 2, "qcert describe: ", "time limit of 2 s reached", 3.5);
}

// --------------------------------------------------------------- qcert describe

// A square named with the board size 0 divided by zero (SIGFPE).
TEST_F(HostileInputs, DescribeRefusesBoardSizeZero) {
  const std::string mod2 = headerFile(file("mod2-n0.qc"), [](Header::Builder h) {
    auto c = h.initMod2();
    c.setBoardSize(0);
    c.initMoves(2).set(1, 3);
  });
  const std::string partizan = headerFile(file("partizan-n0.qc"), [](Header::Builder h) {
    auto c = h.initPartizan();
    c.setBoardSize(0);
    c.initLeft(1).set(0, 1), c.initRight(1).set(0, 2);
  });
  for (const std::string& f : {mod2, partizan}) {
    SCOPED_TRACE(f);
    expectAnswer(timed(kQcert, {"describe", f}), 1, "qcert describe: ", "REJECTED: board size 0 is outside 1..", 5);
    expectAnswer(timed(kChecker, {"-q", f}), 1, "REJECTED: ", "board size 0", 5);
  }
}

// A winBy token of 2^32 - 1 on 6x6 once became a heap of 4,294,967,258 whose
// every move describe listed (57 s, 17 GB); the token is checked first now.
TEST_F(HostileInputs, DescribeChecksAPlanTokenAgainstTheBoard) {
  const std::string f = manifest(file("winby-max.qc"), [](Obligation::Builder plan) {
    auto win = plan.initWinBy();
    win.setMove(UINT32_MAX);
    win.initAfter().initLossBy(3);
  });
  expectAnswer(timed(kQcert, {"describe", f}), 0, "NOT VERIFIED: ", "a winBy token, 4294967295, names no move (the checker rejects that)", 5);
  expectAnswer(timed(kChecker, {"-q", f}), 1, "REJECTED: ", "winBy move token 4294967295 names no move", 5);
}

// ----------------------------------------------------------------- qcert replies

// replies reads the winner's first move before the check: a shard path the
// plan rule refuses is not opened (a FIFO there once answered "named pipe"
// before the check had said a word), and a manifest naming itself as its
// shard is not followed round and round.
TEST_F(HostileInputs, RepliesOpensNoShardTheCheckerRefuses) {
  namespace fs = std::filesystem;
  fs::create_directories(file("outside"));
  fs::create_directories(file("inside"));
  const std::string fifo = file("outside/pipe");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  for (const std::string& path : {std::string("../outside/pipe"), fifo}) {
    SCOPED_TRACE(path);
    const std::string f = manifest(file("inside/m.qc"), [&](Obligation::Builder plan) {
      plan.initShard().setPath(path);
      plan.getShard().initSeal(16);
    });
    const Timed t = timed(kQcert, {"replies", f}, 10);
    expectAnswer(t, 1, "qcert replies: ", "shard path must be relative", 5);
    EXPECT_FALSE(contains(t.run.err, "named pipe")) << t.run.describe();
  }
  const std::string self = manifest(file("inside/self.qc"), [](Obligation::Builder plan) {
    plan.initShard().setPath("self.qc");
    plan.getShard().initSeal(16);
  });
  expectAnswer(timed(kQcert, {"replies", self}, 10), 1, "qcert replies: ", "REJECTED: ", 5);
}

// -------------------------------------------------------------- verdict lines

// Cap'n Proto's message for a text without its NUL echoes the byte found in
// its place: the verdict escapes it.
TEST_F(HostileInputs, VerdictLinesAreText) {
  for (const uint8_t byte : {uint8_t(0x7f), uint8_t(0xff), uint8_t(0x02), uint8_t(0x08)}) {
    SCOPED_TRACE(int(byte));
    capnp::MallocMessageBuilder message;
    auto h = message.initRoot<Header>();
    h.setFormatVersion(1), h.setProducer("qcert-hostile-terminator"), h.initClaim().setBoardSize(4);
    std::vector<uint8_t> body = bytesOf(message);
    const std::string text = "qcert-hostile-terminator";
    const auto at = std::search(body.begin(), body.end(), text.begin(), text.end());
    ASSERT_NE(at, body.end());
    at[text.size()] = byte;  // the NUL that ends the text
    const std::string f = sealed(file("terminator.qc"), body);
    for (const auto& [program, args] : {std::pair{kChecker, std::vector<std::string>{"-q", f}},
                                        std::pair{kQcert, std::vector<std::string>{"describe", f}}}) {
      const Timed t = timed(program, args);
      expectAnswer(t, 1, program == kChecker ? "REJECTED: " : "qcert describe: ", "malformed Cap'n Proto data", 5);
      for (const unsigned char ch : t.run.out + t.run.err)
        EXPECT_TRUE(ch == '\n' || (ch >= 0x20 && ch < 0x7f)) << "byte " << int(ch) << " in " << t.run.describe();
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\x%02x", byte);
      EXPECT_TRUE(contains(t.run.out + t.run.err, escaped)) << t.run.describe();
    }
  }
}

// /proc files say 0 bytes in stat and have content: not "an empty file".
TEST_F(HostileInputs, ProcFileIsASpecialFileNotAnEmptyOne) {
  if (!std::filesystem::exists("/proc/self/status")) GTEST_SKIP() << "no /proc here";
  const Timed t = timed(kChecker, {"/proc/self/status"});
  expectAnswer(t, 2, "checker: ", "reports 0 bytes but is not empty", 5);
  EXPECT_FALSE(contains(t.run.out, "REJECTED")) << t.run.describe();
}

// ------------------------------------------------------------- the recount

// n = 27 at depth 0: without --time-limit (and with -q, so nothing else is
// said) it started a recount of centuries.  The header's n is enough to tell.
TEST_F(HostileInputs, RecountOfYearsIsRefusedUpFront) {
  const std::string f = wholeBoardCell("n27.qc", 27);
  EXPECT_LT(qtest::readFile(f).size(), 400u);
  const Timed t = timed(kChecker, {"-q", f});
  expectAnswer(t, 2, "NOT CHECKED: ", "recounting every cell on the 27x27 board would take about", 2.5);
  EXPECT_TRUE(std::regex_search(t.run.out, std::regex("about [0-9.]+ years of one core .*more than --max-cpu-hours 24;")))
      << t.run.out;
  // The option raises the ceiling, not past an estimate of centuries.
  expectAnswer(timed(kChecker, {"-q", "--max-cpu-hours", "1000000", f}), 2, "NOT CHECKED: ", "--max-cpu-hours 1000000", 2.5);
  // n = 20: hours, over a ceiling of 1.
  const Timed hours = timed(kChecker, {"-q", "--max-cpu-hours", "1", wholeBoardCell("n20.qc", 20)});
  expectAnswer(hours, 2, "NOT CHECKED: ", "on the 20x20 board would take about", 2.5);
  EXPECT_TRUE(std::regex_search(hours.run.out, std::regex("about [0-9.]+ hours of one core"))) << hours.run.out;
  for (const char* bad : {"0", "1000001", "2.5"}) {
    const Timed usage = timed(kChecker, {"--max-cpu-hours", bad, f});
    expectAnswer(usage, 2, "checker: ", "--max-cpu-hours must be a whole number from 1 to 1000000", 2.5);
  }
}

}  // namespace
