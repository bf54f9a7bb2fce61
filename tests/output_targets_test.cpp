// Every command that writes a file, against targets that are not regular
// files (issue 27, part 2): run as root, `prover prove --out /dev/null` once
// replaced the system's /dev/null by a regular file. Each command must refuse
// a character device, a FIFO, a socket, a directory and a symbolic link (and
// an empty path) with one line on stderr and status 2, before any work, and
// leave the node as it was. Only nodes made in a temporary folder are used,
// never a system path.
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>

#include "prover/output_file.hpp"
#include "tests/support.hpp"

namespace {

namespace fs = std::filesystem;
using qtest::RunResult;
using qtest::kProver;
using qtest::kQcert;
using qtest::runProgram;

const std::string kAuditResults = std::string(QCERT_CERTS_DIR) + "/../tests/fixtures/audit-results.tsv";

// A command that writes one file; "{}" in args stands for the target.
struct Writer {
  std::string name;
  std::vector<std::string> args;
  std::vector<std::string> with(const std::string& target) const {
    std::vector<std::string> argv;
    for (const std::string& a : args) argv.push_back(a == "{}" ? target : a);
    return argv;
  }
};

// Small boards: each writes its file in well under a second.
std::vector<Writer> writers() {
  std::vector<Writer> w = {
      {"prove", {kProver, "prove", "--n", "6", "--out", "{}"}},
      {"prove --jobs 2", {kProver, "prove", "--n", "6", "--jobs", "2", "--out", "{}"}},
      {"grundy", {kProver, "grundy", "--n", "5", "--out", "{}"}},
      {"prove --by-mirror-lemma --win-by", {kProver, "prove", "--n", "5", "--win-by", "c3", "--by-mirror-lemma", "--out", "{}"}},
      {"count", {kProver, "count", "--problem", "queens", "--n", "6", "--out", "{}"}},
      {"partizan", {kProver, "partizan", "--n", "3", "--out", "{}"}},
      {"qcert report --html", {kQcert, "report", "--results", kAuditResults, "--html", "{}"}},
      {"mod2 play", {kProver, "mod2", "play", "--n", "5", "--construction", "brown-ladha-3.1", "--out", "{}"}},
      {"mod2 structure", {kProver, "mod2", "structure", "--n", "4", "--fact", "no-complete", "--out", "{}"}},
      {"mod2 complement-map", {kProver, "mod2", "complement-map", "--n", "3", "--out", "{}"}},
  };
  for (const char* action : {"count", "most", "fewest-locking", "plays", "prove", "grundy"})
    w.push_back({std::string("mod2 ") + action, {kProver, "mod2", action, "--n", "3", "--out", "{}"}});
  return w;
}

// A node of each kind a target must not be, made at a path, and how to tell
// afterwards that it is still that node.
struct Node {
  std::string kind;
  std::function<bool(const std::string&)> make;  // false: not allowed here (skip)
  std::function<bool(const struct stat&)> intact;
};

bool makeSocket(const std::string& path) {
  sockaddr_un addr{};
  if (path.size() >= sizeof addr.sun_path) return false;
  addr.sun_family = AF_UNIX;
  std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);
  const int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  if (fd < 0) return false;
  const bool bound = bind(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) == 0;
  close(fd);  // the socket's file stays after the descriptor is closed
  return bound;
}

const dev_t kNullDevice = makedev(1, 3);

std::vector<Node> nodes() {
  return {
      {"character device", [](const std::string& p) { return mknod(p.c_str(), S_IFCHR | 0666, kNullDevice) == 0; },
       [](const struct stat& st) { return S_ISCHR(st.st_mode) && st.st_rdev == kNullDevice; }},
      {"FIFO", [](const std::string& p) { return mkfifo(p.c_str(), 0644) == 0; },
       [](const struct stat& st) { return S_ISFIFO(st.st_mode); }},
      {"socket", makeSocket, [](const struct stat& st) { return S_ISSOCK(st.st_mode); }},
      {"directory", [](const std::string& p) { return mkdir(p.c_str(), 0755) == 0; },
       [](const struct stat& st) { return S_ISDIR(st.st_mode); }},
      {"symbolic link", [](const std::string& p) {
         std::ofstream(p + ".real") << "kept";
         return symlink((p + ".real").c_str(), p.c_str()) == 0;
       },
       [](const struct stat& st) { return S_ISLNK(st.st_mode); }},
  };
}

bool canMakeDevices() {
  qtest::TempDir dir;
  return mknod(dir.file("probe").c_str(), S_IFCHR | 0666, kNullDevice) == 0;
}

size_t lineCount(const std::string& s) { return size_t(std::count(s.begin(), s.end(), '\n')); }

// Status 2, nothing on stdout (no RESULT: the work never began), one line on stderr.
void expectRefusedInOneLine(const RunResult& r, const std::string& mention) {
  ASSERT_FALSE(r.timedOut || r.signaled) << r.describe();
  EXPECT_EQ(r.exitCode, 2) << r.describe();
  EXPECT_EQ(r.out, "") << r.describe();
  EXPECT_EQ(lineCount(r.err), 1u) << r.describe();
  EXPECT_NE(r.err.find(mention), std::string::npos) << "stderr should mention '" << mention << "'\n" << r.describe();
}

// Everything in dir but the names given: temporaries or files left behind.
std::vector<std::string> strayFiles(const std::string& dir, const std::vector<std::string>& expected) {
  std::vector<std::string> stray;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (std::find(expected.begin(), expected.end(), name) == expected.end()) stray.push_back(name);
  }
  return stray;
}

// Control: each command, given a regular file's path in the same kind of
// folder, writes it (so a refusal below is the target's doing, not the
// arguments'), leaving nothing else there.
TEST(OutputTargets, EveryWriterWritesARegularFile) {
  for (const Writer& w : writers()) {
    SCOPED_TRACE(w.name);
    qtest::TempDir dir;
    const std::string target = dir.file("out");
    std::ofstream(target) << "old contents";
    const RunResult r = runProgram(w.with(target), 60);
    ASSERT_EQ(r.exitCode, 0) << r.describe();
    struct stat st{};
    ASSERT_EQ(lstat(target.c_str(), &st), 0);
    EXPECT_TRUE(S_ISREG(st.st_mode));
    EXPECT_GT(st.st_size, 12) << "the old contents were not replaced";
    std::vector<std::string> expected{"out"};
    // "prove --jobs 2": n = 6 is a win, one certificate, and its units are removed.
    if (w.name == "prove --by-mirror-lemma --win-by") expected.push_back("out.lemma.qcert");  // and no units folder
    EXPECT_EQ(strayFiles(dir.path(), expected), std::vector<std::string>{});
  }
}

TEST(OutputTargets, EveryWriterRefusesWhatIsNotARegularFile) {
  if (!canMakeDevices()) GTEST_SKIP() << "mknod is not allowed here (not root): the device nodes cannot be made";
  for (const Writer& w : writers())
    for (const Node& node : nodes()) {
      SCOPED_TRACE(w.name + " --out <" + node.kind + ">");
      qtest::TempDir dir;
      const std::string target = dir.file("out");
      ASSERT_TRUE(node.make(target)) << std::strerror(errno);
      const RunResult r = runProgram(w.with(target), 20);
      expectRefusedInOneLine(r, "cannot write --" + std::string(w.name == "qcert report --html" ? "html" : "out") + " " + target);
      struct stat st{};
      ASSERT_EQ(lstat(target.c_str(), &st), 0) << "the " << node.kind << " is gone";
      EXPECT_TRUE(node.intact(st)) << "the " << node.kind << " was replaced";
      std::vector<std::string> expected{"out"};
      if (node.kind == "symbolic link") expected.push_back("out.real");
      EXPECT_EQ(strayFiles(dir.path(), expected), std::vector<std::string>{});
      if (node.kind == "symbolic link") {
        std::ifstream in(target + ".real");
        EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), "kept");
      }
    }
}

// "--out $UNSET" once threw a whole proof away without a word.
TEST(OutputTargets, EveryWriterRefusesAnEmptyPath) {
  for (const Writer& w : writers()) {
    SCOPED_TRACE(w.name);
    expectRefusedInOneLine(runProgram(w.with(""), 20), w.name == "qcert report --html" ? "--html is empty" : "--out is empty");
  }
  qtest::TempDir dir;
  expectRefusedInOneLine(runProgram({kProver, "prove", "--n", "6", "--units", "", "--out", dir.file("m")}, 20),
                         "--units is empty");
  EXPECT_TRUE(fs::is_empty(dir.path()));
}

// The refusal comes before the search or count: these would run for hours.
TEST(OutputTargets, RefusedBeforeAnyWork) {
  if (!canMakeDevices()) GTEST_SKIP() << "mknod is not allowed here (not root): the device nodes cannot be made";
  const std::vector<std::vector<std::string>> longRuns = {
      {kProver, "prove", "--n", "16", "--out", "{}"},
      {kProver, "prove", "--n", "16", "--jobs", "2", "--out", "{}"},
      {kProver, "grundy", "--n", "16", "--out", "{}"},
      {kProver, "count", "--problem", "queens", "--n", "27", "--out", "{}"},
  };
  for (const auto& args : longRuns) {
    qtest::TempDir dir;
    const std::string target = dir.file("dev");
    ASSERT_EQ(mknod(target.c_str(), S_IFCHR | 0666, kNullDevice), 0);
    const Writer w{args[1], args};
    SCOPED_TRACE(args[1] + " " + args[3]);
    const auto start = std::chrono::steady_clock::now();
    expectRefusedInOneLine(runProgram(w.with(target), 10), "is a character device, not a regular file");
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
    struct stat st{};
    ASSERT_EQ(lstat(target.c_str(), &st), 0);
    EXPECT_TRUE(S_ISCHR(st.st_mode) && st.st_rdev == kNullDevice);
  }
}

// Work-unit folders: --units, the default OUT.units, and the files a run
// reads back from them, and the lemma shard OUT.lemma.qcert.
TEST(OutputTargets, UnitFoldersAndShardsRefuseSpecialFiles) {
  if (!canMakeDevices()) GTEST_SKIP() << "mknod is not allowed here (not root): the device nodes cannot be made";
  for (const Node& node : nodes()) {
    if (node.kind == "directory" || node.kind == "symbolic link") continue;  // both may hold units
    SCOPED_TRACE(node.kind);
    qtest::TempDir dir;
    const std::string units = dir.file("u");
    ASSERT_TRUE(node.make(units));
    expectRefusedInOneLine(
        runProgram({kProver, "prove", "--n", "6", "--jobs", "2", "--units", units, "--out", dir.file("m")}, 20),
        "cannot write --units " + units + ": it is a " + node.kind + ", not a directory");
    ASSERT_TRUE(node.make(dir.file("m.units")));
    expectRefusedInOneLine(runProgram({kProver, "prove", "--n", "6", "--jobs", "2", "--out", dir.file("m")}, 20),
                           "cannot write the units directory " + dir.file("m.units"));
    ASSERT_TRUE(node.make(dir.file("l.lemma.qcert")));
    expectRefusedInOneLine(runProgram({kProver, "prove", "--n", "5", "--win-by", "c3", "--by-mirror-lemma", "--out",
                                       dir.file("l")}, 20),
                           "cannot write the lemma shard " + dir.file("l.lemma.qcert"));
    for (const std::string name : {"u", "m.units", "l.lemma.qcert"}) {
      struct stat st{};
      ASSERT_EQ(lstat(dir.file(name).c_str(), &st), 0) << name;
      EXPECT_TRUE(node.intact(st)) << name;
    }
    EXPECT_FALSE(fs::exists(dir.file("m"))) << "refused before anything was written";
    EXPECT_FALSE(fs::exists(dir.file("l")));
  }
  // A FIFO where a run reads back the claim of the units: an error, not a
  // read that never ends.
  qtest::TempDir dir;
  fs::create_directories(dir.file("u/h0"));
  ASSERT_EQ(mkfifo(dir.file("u/h0/units.id").c_str(), 0644), 0);
  const RunResult r =
      runProgram({kProver, "prove", "--n", "6", "--jobs", "2", "--units", dir.file("u"), "--out", dir.file("m")}, 20);
  expectRefusedInOneLine(r, dir.file("u/h0/units.id") + " is a FIFO, not a regular file");
  struct stat st{};
  ASSERT_EQ(lstat(dir.file("u/h0/units.id").c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
}

// The last check, just before the rename: a target that became a FIFO
// during the work is left alone, and what was written is kept, not deleted.
TEST(OutputTargets, TargetReplacedDuringTheWorkKeepsTheWrittenFile) {
  qtest::TempDir dir;
  const std::string target = dir.file("cert");
  std::string kept;
  {
    qcert::OutputFile out(target);
    out.write("proof", 5);
    ASSERT_EQ(mkfifo(target.c_str(), 0644), 0);
    try {
      out.commit();
      ADD_FAILURE() << "commit replaced a FIFO";
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find("it is a FIFO, not a regular file; what was written is kept in " +
                                           out.temporaryPath()),
                std::string::npos)
          << e.what();
    }
    kept = out.temporaryPath();
  }
  struct stat st{};
  ASSERT_EQ(lstat(target.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
  std::ifstream in(kept);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), "proof");
}

// The temporary is made with O_EXCL: a FIFO or link planted under its name
// is refused, never opened (a FIFO would block; a link would be followed).
TEST(OutputTargets, TemporaryNeverFollowsWhatIsUnderItsName) {
  qtest::TempDir dir;
  const std::string target = dir.file("cert");
  const std::string temporary = qcert::temporaryPathFor(target);
  ASSERT_EQ(symlink(dir.file("elsewhere").c_str(), temporary.c_str()), 0);
  EXPECT_THROW(qcert::OutputFile{target}, std::runtime_error);
  EXPECT_FALSE(fs::exists(dir.file("elsewhere")));
  ASSERT_EQ(unlink(temporary.c_str()), 0);
  ASSERT_EQ(mkfifo(temporary.c_str(), 0644), 0);
  EXPECT_THROW(qcert::OutputFile{target}, std::runtime_error);
  struct stat st{};
  ASSERT_EQ(lstat(temporary.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
  // A regular file there is one left by a killed run of the same process id: reused.
  ASSERT_EQ(unlink(temporary.c_str()), 0);
  std::ofstream(temporary) << "stale";
  qcert::writeFileReplacing(target, "new");
  std::ifstream in(target);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), "new");
  EXPECT_FALSE(fs::exists(temporary));
}

}  // namespace
