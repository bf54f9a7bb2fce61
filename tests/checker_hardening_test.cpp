// The checker on hostile or odd input (issue 10's findings): special files are
// refused at once, running out of time, memory or threads is "NOT CHECKED"
// (exit 2) and never a verdict, huge declared work is announced and bounded,
// counts on the command line are bounded, and a cut file gets a reason a
// person can read.  One test per exit status closes the file.
#include <capnp/message.h>
#include <capnp/serialize.h>
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <functional>

#include "tests/certfile.hpp"
#include "schema/qcert.capnp.h"
#include "tests/support.hpp"

using qtest::RunResult;
using qtest::runProgram;
using qtest::contains;
using qtest::kChecker;
using qtest::kProver;
using qtest::startsWith;

namespace {

RunResult checker(std::vector<std::string> args, double timeout = 30) {
  args.insert(args.begin(), kChecker);
  return runProgram(args, timeout);
}

// Exit 2 with no verdict: the reason on stdout after NOT CHECKED, or (I/O and
// usage) on stderr.
void expectNoVerdict(const RunResult& r, const std::string& mention) {
  ASSERT_FALSE(r.timedOut) << "the checker blocked: " << r.describe();
  ASSERT_FALSE(r.signaled) << r.describe();
  EXPECT_EQ(r.exitCode, 2) << r.describe();
  EXPECT_FALSE(contains(r.out, "VERIFIED") || contains(r.out, "REJECTED")) << r.describe();
  EXPECT_TRUE(contains(r.out + r.err, mention)) << "should mention '" << mention << "'\n" << r.describe();
}

class CheckerHardening : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new qtest::TempDir;
    auto prove = [](std::vector<std::string> args) {
      args.insert(args.begin(), kProver);
      const RunResult r = runProgram(args, 120);
      if (r.exitCode != 0) throw std::runtime_error("prover failed: " + r.describe());
    };
    prove({"prove", "--n", "8", "-q", "--cutoff", "8", "--out", file("game.qc")});
    prove({"prove", "--n", "10", "-q", "--jobs", "2", "--out", file("manifest.qc")});
    prove({"prove", "--n", "12", "-q", "--cutoff", "0", "--out", file("n12.qc")});
    prove({"count", "--problem", "queens", "--n", "8", "-q", "--out", file("count.qc")});
  }
  static void TearDownTestSuite() { delete dir_; }
  static std::string file(const std::string& name) { return dir_->file(name); }

  // A copy of the count certificate with its header edited and sealed again.
  static std::string editCount(const std::string& name, const std::function<void(Header::Builder)>& edit) {
    const std::vector<uint8_t> bytes = qtest::readFile(file("count.qc"));
    kj::ArrayPtr<const capnp::word> words(reinterpret_cast<const capnp::word*>(bytes.data()), bytes.size() / 8);
    capnp::FlatArrayMessageReader reader(words);
    capnp::MallocMessageBuilder builder;
    builder.setRoot(reader.getRoot<Header>());
    edit(builder.getRoot<Header>());
    capnp::MallocMessageBuilder compact;  // without the space the edit orphaned
    compact.setRoot(builder.getRoot<Header>().asReader());
    auto flat = capnp::messageToFlatArray(compact);
    std::vector<uint8_t> out(flat.asBytes().begin(), flat.asBytes().end());
    const std::vector<uint8_t> seal = qtest::sealOf(out);
    capnp::MallocMessageBuilder sealMessage;
    sealMessage.initRoot<Seal>().setXxh3x128(capnp::Data::Reader(seal.data(), seal.size()));
    auto sealWords = capnp::messageToFlatArray(sealMessage);
    out.insert(out.end(), sealWords.asBytes().begin(), sealWords.asBytes().end());
    qtest::writeFile(file(name), out);
    return file(name);
  }

  // The n = 27 queens count as one cell of depth 0 stating `total`: a file
  // of a few hundred bytes that asks for the whole n = 27 search.
  static std::string wholeBoardCell(const std::string& name, uint64_t total) {
    return editCount(name, [&](Header::Builder h) {
      auto c = h.getCount();
      c.setBoardSize(27);
      c.setCellDepth(0);
      c.initTotals(1).set(0, total);
      c.initClasses(1).set(0, total / 8);
      c.setChecksum(0);
      auto cell = c.initCells(1)[0];
      cell.initRows(0);
      cell.initTotals(1).set(0, total);
      cell.initClasses(1).set(0, total / 8);
      cell.setChecksum(0);
    });
  }

  static qtest::TempDir* dir_;
};
qtest::TempDir* CheckerHardening::dir_ = nullptr;

// ------------------------------------------------------------ special files

TEST_F(CheckerHardening, NamedPipeIsRefusedAtOnce) {
  const std::string fifo = file("pipe.qc");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  expectNoVerdict(checker({fifo}, 10), "named pipe");
}

TEST_F(CheckerHardening, DevicesAndSocketsAreRefused) {
  expectNoVerdict(checker({"/dev/null"}, 10), "character device");
  expectNoVerdict(checker({"/dev/zero"}, 10), "character device");
  const std::string path = file("sock.qc");
  const int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  ASSERT_LT(path.size(), sizeof addr.sun_path);
  std::copy(path.begin(), path.end(), addr.sun_path);
  ASSERT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  expectNoVerdict(checker({path}, 10), "socket");
  close(fd);
}

// The manifest's shards are statted before any is replayed: a FIFO in place
// of one stops the check at once instead of blocking in open().
TEST_F(CheckerHardening, NamedPipeAsShardIsRefusedAtOnce) {
  const RunResult find = runProgram({"/usr/bin/find", file("manifest.qc.units"), "-name", "*.qcert"});
  const std::string victim = qtest::firstLine(find.out);
  ASSERT_FALSE(victim.empty()) << find.describe();
  const std::vector<uint8_t> saved = qtest::readFile(victim);
  ASSERT_EQ(unlink(victim.c_str()), 0);
  ASSERT_EQ(mkfifo(victim.c_str(), 0600), 0);
  const RunResult r = checker({"--jobs", "1", file("manifest.qc")}, 10);
  unlink(victim.c_str());
  qtest::writeFile(victim, saved);
  expectNoVerdict(r, "named pipe");
  const RunResult again = checker({file("manifest.qc")});
  EXPECT_EQ(again.exitCode, 0) << again.describe();
}

// ------------------------------------------------------- time and memory

TEST_F(CheckerHardening, HugeCountIsAnnouncedAndRefusedUnderATimeLimit) {
  const std::string f = wholeBoardCell("n27.qc", 234907967154122528ull);
  EXPECT_LT(qtest::readFile(f).size(), 400u);
  const RunResult r = checker({"--time-limit", "60", f}, 20);
  expectNoVerdict(r, "NOT CHECKED: the cells state 234907967154122528 placements: recounting them takes longer");
  EXPECT_TRUE(contains(r.err, "recount: 1 of 1 cell of depth 0 on the 27x27 board")) << r.describe();
}

// A lying cell (0 solutions stated) is stopped by the clock, not by its word.
TEST_F(CheckerHardening, TimeLimitStopsARecountWithNoVerdict) {
  const std::string f = wholeBoardCell("n27-lie.qc", 0);
  const RunResult r = checker({"--time-limit", "1", f}, 20);
  expectNoVerdict(r, "time limit of 1 s reached");
  EXPECT_TRUE(startsWith(r.out, "NOT CHECKED: ")) << r.describe();
}

// The shipped 19x19 certificate takes most of a minute to replay.
TEST_F(CheckerHardening, TimeLimitStopsAReplayWithNoVerdict) {
  const RunResult r = checker({"--time-limit", "1", std::string(QCERT_CERTS_DIR) + "/jenrich-n19.qcert"}, 20);
  expectNoVerdict(r, "NOT CHECKED: time limit of 1 s reached");
}

// n = 12 at cut-off 0: the memo of verified positions outgrows 16 MiB.
TEST_F(CheckerHardening, MemoryLimitIsNotCheckedNotRejected) {
  const RunResult r = checker({"--max-memory", "16", file("n12.qc")});
  expectNoVerdict(r, "NOT CHECKED: needs more than 16 MiB of memory (--max-memory)");
}

// Under an address-space limit the replay thread's stack cannot be mapped:
// that is the system's refusal, not the certificate's fault.
TEST_F(CheckerHardening, ThreadThatCannotStartIsNotChecked) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "AddressSanitizer needs an unlimited address space";
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
  GTEST_SKIP() << "AddressSanitizer needs an unlimited address space";
#endif
#endif
  const RunResult r = runProgram({"/bin/sh", "-c", "ulimit -v 60000 && exec " + kChecker + " " + file("game.qc")});
  expectNoVerdict(r, "NOT CHECKED:");
}

// ------------------------------------------------------------ command line

TEST_F(CheckerHardening, CountsOnTheCommandLineAreBounded) {
  const std::string f = file("count.qc");
  expectNoVerdict(checker({"--part", "0", "--of", "18446744073709551615", f}), "--of must be a whole number from 1 to 1048576");
  expectNoVerdict(checker({"--part", "5", "--of", "5", f}), "--part must be a whole number from 0 to 4");
  expectNoVerdict(checker({"--sample", "-1", f}), "--sample must be a whole number from 1 to 1048576, got '-1'");
  expectNoVerdict(checker({"--sample", "2", "--seed", "-3", f}), "got '-3'");
  expectNoVerdict(checker({"--jobs", "0", f}), "--jobs");
  expectNoVerdict(checker({"--jobs", "4097", f}), "--jobs");
  expectNoVerdict(checker({"--jobs", "2x", f}), "--jobs");
  expectNoVerdict(checker({"--time-limit", "0", f}), "--time-limit");
  expectNoVerdict(checker({"--time-limit", "-5", f}), "--time-limit");
  expectNoVerdict(checker({"--max-memory", "99999999999999999999", f}), "--max-memory");
  expectNoVerdict(checker({"--sample", "2000", f}), "exceeds the certificate's");
}

// Boost 1.74 substitutes "%canonical_option%" into its own messages until none
// is left: an option named so hung both programs (found by fuzz_checker_args).
TEST_F(CheckerHardening, PlaceholderInAnOptionNameDoesNotHang) {
  expectNoVerdict(checker({"--%canonical_option%", file("game.qc")}, 10), "unrecognised option '--%canonical_option%'");
  for (const char* command : {"prove", "grundy", "count"}) {
    const RunResult r = runProgram({kProver, command, "--%canonical_option%"}, 10);
    ASSERT_FALSE(r.timedOut) << command << " hung: " << r.describe();
    EXPECT_EQ(r.exitCode, 2) << r.describe();
    EXPECT_TRUE(contains(r.err, "unrecognised option '--%canonical_option%'")) << r.describe();
  }
}

// ----------------------------------------------------------- cut files

// Cut at every 8-byte boundary: always REJECTED, with a reason in words and
// no Cap'n Proto internals ("expected array.size() >= offset [4 >= ...]").
TEST_F(CheckerHardening, CutFilesGetAReadableReason) {
  const std::vector<uint8_t> whole = qtest::readFile(file("game.qc"));
  for (size_t size = 8; size < whole.size(); size += 8) {
    qtest::writeFile(file("cut.qc"), std::vector<uint8_t>(whole.begin(), whole.begin() + long(size)));
    const RunResult r = checker({file("cut.qc")});
    ASSERT_EQ(r.exitCode, 1) << "cut at " << size << ": " << r.describe();
    EXPECT_TRUE(startsWith(r.out, "REJECTED: ")) << r.describe();
    EXPECT_FALSE(contains(r.out, "expected ") || contains(r.out, ">=") || contains(r.out, "capnp/"))
        << "cut at " << size << ": " << r.out;
  }
}

// ------------------------------------------------------ one per exit status

TEST_F(CheckerHardening, EveryExitStatus) {
  const RunResult verified = checker({file("game.qc")});
  EXPECT_EQ(verified.exitCode, 0) << verified.describe();
  EXPECT_EQ(qtest::firstLine(verified.out), "VERIFIED: first player wins on the empty 8x8 board (queens game)");
  EXPECT_TRUE(contains(verified.err, "checking: first player wins")) << "announced before the replay\n" << verified.describe();

  const std::string wrong = editCount("wrong.qc", [](Header::Builder h) {
    h.getCount().getTotals().set(0, 93);
  });
  const RunResult rejected = checker({wrong});
  EXPECT_EQ(rejected.exitCode, 1) << rejected.describe();
  EXPECT_TRUE(startsWith(rejected.out, "REJECTED: claim totals[0] is 93")) << rejected.describe();

  expectNoVerdict(checker({file("missing.qc")}), "cannot open");

  const RunResult sampled = checker({"--sample", "3", file("count.qc")});
  EXPECT_EQ(sampled.exitCode, 3) << sampled.describe();
  EXPECT_TRUE(startsWith(sampled.out, "SAMPLED: 3 of ")) << sampled.describe();

  const RunResult help = checker({"--help"});
  EXPECT_EQ(help.exitCode, 0);
  for (const char* line : {"0  VERIFIED", "1  REJECTED", "2  nothing decided", "3  SAMPLED"})
    EXPECT_TRUE(contains(help.out, line)) << "--help should document '" << line << "'";
}

}  // namespace
