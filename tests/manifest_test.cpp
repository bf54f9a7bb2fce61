// Shard manifests (docs/certificate-format.md, "Sharded certificates"): the
// prover cannot write them yet, so these tests build them with the Cap'n
// Proto API from shard certificates the prover binary writes, and check that
// the checker verifies the good ones and rejects every broken variant.
#include <capnp/message.h>
#include <capnp/serialize.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <array>
#include <memory>

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

std::string name(int n, int s) { return std::string(1, char('a' + s % n)) + std::to_string(s / n + 1); }

std::string names(int n, const std::vector<int>& squares) {
  std::string out;
  for (int s : squares) out += (out.empty() ? "" : ",") + name(n, s);
  return out;
}

// Runs `prover prove|grundy`; returns its RESULT line.
std::string prove(const std::string& cmd, int n, const std::vector<int>& queens, const std::string& out = "",
                  std::vector<std::string> extra = {}) {
  std::vector<std::string> argv{kProver, cmd, "--n", std::to_string(n), "--tt-mb", "16", "-q"};
  if (!queens.empty()) argv.insert(argv.end(), {"--queens", names(n, queens)});
  if (!out.empty()) argv.insert(argv.end(), {"--out", out});
  argv.insert(argv.end(), extra.begin(), extra.end());
  const RunResult r = runProgram(argv, 30);
  if (r.exitCode != 0) throw std::runtime_error("prover failed: " + r.describe());
  return qtest::firstLine(r.out);
}

// Live squares after `queens` and the replay's loser moves there (orbit
// leaders under the stabiliser of the live set), computed here from the rules.
std::vector<bool> liveAfter(int n, const std::vector<int>& queens) {
  std::vector<bool> live(n * n, true);
  for (int q : queens)
    for (int t = 0; t < n * n; ++t)
      if (t == q || qtest::queensAttack(n, q, t)) live[t] = false;
  return live;
}
int image(int n, int g, int s) {
  const int r = s / n, c = s % n, m = n - 1;
  const int im[8][2] = {{r, c}, {c, m - r}, {m - r, m - c}, {m - c, r}, {r, m - c}, {m - r, c}, {c, r}, {m - c, m - r}};
  return im[g][0] * n + im[g][1];
}
std::vector<int> loserMoves(int n, const std::vector<int>& queens) {
  const std::vector<bool> live = liveAfter(n, queens);
  std::vector<int> stab;
  for (int g = 1; g < 8; ++g) {
    bool fixes = true;
    for (int s = 0; s < n * n; ++s) fixes = fixes && live[image(n, g, s)] == live[s];
    if (fixes) stab.push_back(g);
  }
  std::vector<int> moves;
  for (int v = 0; v < n * n; ++v) {
    bool leader = live[v];
    for (int g : stab) leader = leader && image(n, g, v) >= v;
    if (leader) moves.push_back(v);
  }
  return moves;
}

// A plan node, written into the manifest as an Obligation.
struct Ob {
  enum Kind { kShard, kWinBy, kLossBy } kind = kShard;
  std::string path;
  std::vector<uint8_t> seal;
  uint32_t move = 0;
  std::vector<Ob> kids;  // winBy: one (after); lossBy: the entries
};
Ob shardOb(const std::string& dir, const std::string& path) {
  return {Ob::kShard, path, qtest::parseCertificate(qtest::readFile(dir + "/" + path)).seal, 0, {}};
}

void build(Obligation::Builder b, const Ob& ob) {
  if (ob.kind == Ob::kShard) {
    auto s = b.initShard();
    s.setPath(ob.path);
    s.setSeal(capnp::Data::Reader(ob.seal.data(), ob.seal.size()));
  } else if (ob.kind == Ob::kWinBy) {
    auto w = b.initWinBy();
    w.setMove(ob.move);
    build(w.initAfter(), ob.kids.at(0));
  } else {
    auto l = b.initLossBy(unsigned(ob.kids.size()));
    for (size_t i = 0; i < ob.kids.size(); ++i) build(l[unsigned(i)], ob.kids[i]);
  }
}

struct Manifest {
  int n = 0;
  std::vector<int> queens;
  uint32_t heap = 0;
  bool win = true;
  bool grundy = false;
  uint32_t chunkCount = 0;  // != 0: also appends that many empty ReplyChunks
  Ob plan;
};

void append(std::vector<uint8_t>& out, capnp::MessageBuilder& msg) {
  auto words = capnp::messageToFlatArray(msg);
  auto bytes = words.asBytes();
  out.insert(out.end(), bytes.begin(), bytes.end());
}

// Header (with plan), chunks if asked for, and a correct Seal.
void writeManifest(const std::string& path, const Manifest& m) {
  std::vector<uint8_t> out;
  {
    capnp::MallocMessageBuilder msg;
    auto h = msg.initRoot<Header>();
    h.setFormatVersion(1);
    auto c = h.initClaim();
    c.setRuleset(Ruleset::QUEENS);
    c.setBoardSize(uint16_t(m.n));
    auto q = c.initQueens(unsigned(m.queens.size()));
    for (size_t i = 0; i < m.queens.size(); ++i) q.set(unsigned(i), uint16_t(m.queens[i]));
    c.setHeap(m.heap);
    c.setOutcome(m.win ? Outcome::WIN : Outcome::LOSS);
    c.setKind(m.grundy ? ClaimKind::GRUNDY : ClaimKind::OUTCOME);
    h.setChunkCount(m.chunkCount);
    h.setProducer("manifest_test");
    build(h.initPlan(), m.plan);
    append(out, msg);
  }
  for (uint32_t i = 0; i < m.chunkCount; ++i) {
    capnp::MallocMessageBuilder msg;
    const std::vector<uint8_t> frame = qtest::zstdCompress({});
    msg.initRoot<ReplyChunk>().setZstdFrame(capnp::Data::Reader(frame.data(), frame.size()));
    append(out, msg);
  }
  const std::vector<uint8_t> seal = qtest::sealOf(out);
  capnp::MallocMessageBuilder msg;
  msg.initRoot<Seal>().setXxh3x128(capnp::Data::Reader(seal.data(), seal.size()));
  append(out, msg);
  qtest::writeFile(path, out);
}

// Shared shards, proved once for the whole suite.
struct Fixture {
  qtest::TempDir dir;
  int first6 = -1;     // a winning first move on the empty 6x6 board
  Manifest win6;       // first player wins 6x6: winBy(first6) -> lossBy(depth-2 shards)
  Manifest loss10;     // second player wins 10x10: lossBy(depth-1 shards)
  bool ready = false;
};
Fixture* fx = nullptr;

class ManifestTest : public ::testing::Test {
 protected:
  // Set up lazily in SetUp (not SetUpTestSuite) so that a failure fails the test.
  void SetUp() override {
    if (!fx) {
      fx = new Fixture;
      prepare();
    }
    ASSERT_TRUE(fx->ready) << "building the shards failed (see the first test)";
  }
  static void prepare() {
    const std::string d = fx->dir.path();
    ::mkdir((d + "/s").c_str(), 0755);
    // 6x6: the first leader whose opponent then loses.
    for (int s : loserMoves(6, {}))
      if (contains(prove("prove", 6, {s}), "loses")) {
        fx->first6 = s;
        break;
      }
    ASSERT_GE(fx->first6, 0);
    Ob after{Ob::kLossBy, "", {}, 0, {}};
    const std::vector<int> replies = loserMoves(6, {fx->first6});
    for (size_t k = 0; k < replies.size(); ++k) {
      const std::string path = "s/n6_" + std::to_string(k) + ".qc";
      ASSERT_TRUE(contains(prove("prove", 6, {fx->first6, replies[k]}, d + "/" + path, {"--cutoff", "0"}),
                           "the player to move wins"));
      after.kids.push_back(shardOb(d, path));
    }
    fx->win6 = {6, {}, 0, true, false, 0, Ob{Ob::kWinBy, "", {}, uint32_t(fx->first6 + 1), {after}}};
    // 10x10: one shard per first-move orbit leader.
    const std::vector<int> leaders = loserMoves(10, {});
    ASSERT_EQ(leaders, (std::vector<int>{0, 1, 2, 3, 4, 11, 12, 13, 14, 22, 23, 24, 33, 34, 44}));
    Ob root{Ob::kLossBy, "", {}, 0, {}};
    for (int s : leaders) {
      const std::string path = "s/n10_" + std::to_string(s) + ".qc";
      ASSERT_TRUE(contains(prove("prove", 10, {s}, d + "/" + path), "the player to move wins"));
      root.kids.push_back(shardOb(d, path));
    }
    fx->loss10 = {10, {}, 0, false, false, 0, root};
    fx->ready = true;
  }
  static void TearDownTestSuite() {
    delete fx;
    fx = nullptr;
  }

  // Writes the manifest under a fresh name in the shared directory and checks it.
  RunResult check(const Manifest& m, std::vector<std::string> args = {}) {
    static int counter = 0;
    const std::string path = fx->dir.file("m" + std::to_string(counter++) + ".qc");
    writeManifest(path, m);
    args.insert(args.begin(), kChecker);
    args.push_back(path);
    return runProgram(args, 30);
  }
  void expectVerified(const Manifest& m, const std::string& claim, std::vector<std::string> args = {}) {
    const RunResult r = check(m, args);
    ASSERT_FALSE(r.timedOut || r.signaled) << r.describe();
    EXPECT_EQ(r.exitCode, 0) << r.describe();
    EXPECT_EQ(qtest::firstLine(r.out), "VERIFIED: " + claim) << r.describe();
  }
  void expectRejected(const Manifest& m, const std::string& mention) {
    const RunResult r = check(m);
    ASSERT_FALSE(r.timedOut || r.signaled) << r.describe();
    EXPECT_EQ(r.exitCode, 1) << r.describe();
    EXPECT_TRUE(startsWith(r.out, "REJECTED:")) << r.describe();
    EXPECT_TRUE(contains(r.out, mention)) << "should mention '" << mention << "'\n" << r.describe();
  }
  std::string dir() const { return fx->dir.path(); }
};

const std::string k6 = "first player wins on the empty 6x6 board (queens game)";
const std::string k10 = "second player wins on the empty 10x10 board (queens game)";

TEST_F(ManifestTest, ValidManifestsVerify) {
  expectVerified(fx->win6, k6);
  expectVerified(fx->loss10, k10);
  for (const char* jobs : {"1", "2"}) {
    expectVerified(fx->win6, k6, {"--jobs", jobs});
    expectVerified(fx->loss10, k10, {"--jobs", jobs, "--quiet"});
  }
  const RunResult r = check(fx->loss10);
  EXPECT_TRUE(contains(r.err, "15 shards")) << r.describe();
}

// Two manifests over the same shards in one run (as rudd-n18 and rudd-n18-i9):
// the second replays none of them again, still opens each and checks its
// seal and claim, and a shard of the same bytes pinned against another
// obligation, or another shard, is not taken from the first.
TEST_F(ManifestTest, SeveralFilesReplayASharedShardOnce) {
  const std::string a = dir() + "/pair_a.qc", b = dir() + "/pair_b.qc";
  writeManifest(a, fx->win6);
  const Ob after = fx->win6.plan.kids.at(0);
  writeManifest(b, Manifest{6, {fx->first6}, 0, false, false, 0, after});
  const RunResult both = runProgram({kChecker, "--verbose", "--jobs", "2", a, b}, 60);
  ASSERT_EQ(both.exitCode, 0) << both.describe();
  const std::string kAfter = "the player to move loses on the 6x6 board after queens " + name(6, fx->first6) + " (" +
                             std::to_string(fx->first6 / 6) + "," + std::to_string(fx->first6 % 6) + ") (queens game)";
  EXPECT_EQ(both.out, a + ": VERIFIED: " + k6 + "\n" + b + ": VERIFIED: " + kAfter + "\n") << both.describe();
  const std::string shards = std::to_string(after.kids.size());
  EXPECT_TRUE(contains(both.err, "(over all shards, " + shards + " of them replayed earlier in this run)")) << both.describe();
  // Alone, the second replays its shards itself.
  const RunResult alone = runProgram({kChecker, b}, 60);
  EXPECT_EQ(alone.exitCode, 0) << alone.describe();
  EXPECT_FALSE(contains(alone.err, "replayed earlier")) << alone.describe();
  // A shard file edited after the first manifest was checked: its seal no
  // longer matches the pin, whatever the first file proved.
  qtest::CertModel shard = qtest::parseCertificate(qtest::readFile(dir() + "/s/n6_0.qc"));
  shard.header.producer += " (edited)";
  qtest::writeFile(dir() + "/s/n6_0_edited.qc", qtest::serialiseCertificate(shard));
  Ob edited = after;
  edited.kids[0] = shardOb(dir(), "s/n6_0_edited.qc");
  edited.kids[0].seal = after.kids[0].seal;  // pinned as the original
  const std::string c = dir() + "/pair_c.qc";
  writeManifest(c, Manifest{6, {fx->first6}, 0, false, false, 0, edited});
  const RunResult mixed = runProgram({kChecker, "-q", a, c}, 60);
  EXPECT_EQ(mixed.exitCode, 1) << mixed.describe();
  EXPECT_TRUE(contains(mixed.out, c + ": REJECTED: shard s/n6_0_edited.qc: seal differs")) << mixed.describe();
  // The same shard under another obligation (two entries swapped): rejected.
  Ob swapped = after;
  std::swap(swapped.kids[0], swapped.kids[1]);
  const std::string d = dir() + "/pair_d.qc";
  writeManifest(d, Manifest{6, {fx->first6}, 0, false, false, 0, swapped});
  const RunResult wrong = runProgram({kChecker, "-q", a, d}, 60);
  EXPECT_EQ(wrong.exitCode, 1) << wrong.describe();
  EXPECT_TRUE(contains(wrong.out, d + ": REJECTED: ")) << wrong.describe();
}

TEST_F(ManifestTest, LossByEntriesMustMatchTheLoserMoves) {
  Manifest m = fx->loss10;
  m.plan.kids.pop_back();
  expectRejected(m, "lossBy has 14 entries");
  m = fx->loss10;
  m.plan.kids.push_back(m.plan.kids.back());
  expectRejected(m, "lossBy has 16 entries");
  m = fx->loss10;
  std::swap(m.plan.kids[0], m.plan.kids[1]);
  expectRejected(m, "its claim is not the plan's obligation");
  m = fx->win6;
  m.plan.kids[0].kids.pop_back();
  expectRejected(m, "lossBy has");
}

TEST_F(ManifestTest, PathAndSealMustMatch) {
  Manifest m = fx->loss10;
  m.plan.kids[0].path = m.plan.kids[1].path;  // another shard, old seal
  expectRejected(m, "seal differs");
  m.plan.kids[0].seal = m.plan.kids[1].seal;  // another shard with its own seal
  expectRejected(m, "its claim is not the plan's obligation");
  m = fx->loss10;
  m.plan.kids[3].seal[5] ^= 1;
  expectRejected(m, "shard s/n10_3.qc: seal differs");
  m = fx->loss10;
  m.plan.kids[3].seal.pop_back();
  expectRejected(m, "not 16");
}

TEST_F(ManifestTest, ShardModifiedAfterPinning) {
  // Same content, new producer text, correctly resealed: the pinned seal no longer matches.
  qtest::CertModel shard = qtest::parseCertificate(qtest::readFile(dir() + "/s/n10_44.qc"));
  shard.header.producer += " (edited)";
  qtest::writeFile(dir() + "/s/edited.qc", qtest::serialiseCertificate(shard));
  Manifest m = fx->loss10;
  m.plan.kids.back().path = "s/edited.qc";
  expectRejected(m, "shard s/edited.qc: seal differs");
  // A flipped byte: the shard's own seal check.
  std::vector<uint8_t> bytes = qtest::readFile(dir() + "/s/n10_44.qc");
  bytes[bytes.size() / 2] ^= 0x10;
  qtest::writeFile(dir() + "/s/flipped.qc", bytes);
  m.plan.kids.back().path = "s/flipped.qc";
  expectRejected(m, "shard s/flipped.qc:");
}

TEST_F(ManifestTest, ShardClaimMustBeAnOutcome) {
  // The position after the winning first move on 6x6 is a loss: G = 0.
  ASSERT_TRUE(contains(prove("grundy", 6, {fx->first6}, dir() + "/grundy.qc"), " is 0"));
  ASSERT_TRUE(contains(prove("prove", 6, {fx->first6}, dir() + "/loss.qc"), "loses"));
  Manifest m{6, {fx->first6}, 0, false, false, 0, shardOb(dir(), "loss.qc")};
  expectVerified(m, "the player to move loses on the 6x6 board after queens " + name(6, fx->first6) + " (" +
                        std::to_string(fx->first6 / 6) + "," + std::to_string(fx->first6 % 6) + ") (queens game)");
  m.plan = shardOb(dir(), "grundy.qc");
  expectRejected(m, "its claim is not the plan's obligation");
}

TEST_F(ManifestTest, WinByTokenMustBeLegalAndWinning) {
  Manifest m = fx->win6;
  m.plan.move = 0;
  expectRejected(m, "names no move");
  m.plan.move = 37;
  expectRejected(m, "names no move");
  for (uint32_t t = 1; t <= 36; ++t) {  // any other first move: the after-shards no longer fit
    if (t == uint32_t(fx->first6 + 1)) continue;
    m.plan.move = t;
    const RunResult r = check(m);
    EXPECT_EQ(r.exitCode, 1) << "token " << t << "\n" << r.describe();
  }
}

TEST_F(ManifestTest, ObligationKindMustFitTheOutcome) {
  Manifest m = fx->loss10;
  m.plan = Ob{Ob::kWinBy, "", {}, 1, {fx->loss10.plan.kids[0]}};
  expectRejected(m, "winBy where the player to move must lose");
  m = fx->win6;
  m.plan = m.plan.kids[0];
  expectRejected(m, "lossBy where the player to move must win");
  m = fx->loss10;
  m.win = true;
  expectRejected(m, "lossBy where the player to move must win");
}

TEST_F(ManifestTest, BadShardPaths) {
  for (const std::string& bad : {std::string("../s/n10_0.qc"), std::string("s/../s/n10_0.qc"),
                                  dir() + "/s/n10_0.qc", std::string(""), std::string("s/n10 0.qc"),
                                  std::string(2000, 'a')}) {
    Manifest m = fx->loss10;
    m.plan.kids[0].path = bad;
    expectRejected(m, "shard path must be relative");
  }
}

// A shard that is not there is no verdict on the manifest (exit 2, before any
// replay), unlike a shard path the manifest must not name.
TEST_F(ManifestTest, MissingShardIsNotChecked) {
  Manifest m = fx->loss10;
  m.plan.kids[2].path = "s/missing.qc";
  const RunResult r = check(m);
  ASSERT_FALSE(r.timedOut || r.signaled) << r.describe();
  EXPECT_EQ(r.exitCode, 2) << r.describe();
  EXPECT_TRUE(contains(r.err, "shard s/missing.qc: cannot open")) << r.describe();
  EXPECT_FALSE(contains(r.out, "VERIFIED") || contains(r.out, "REJECTED")) << r.describe();
}

TEST_F(ManifestTest, ManifestsDoNotNest) {
  writeManifest(dir() + "/s/inner.qc", fx->loss10);
  Manifest m = fx->loss10;
  m.plan = shardOb(dir(), "s/inner.qc");
  expectRejected(m, "manifests do not nest");
}

TEST_F(ManifestTest, ManifestMustHaveNoChunks) {
  Manifest m = fx->loss10;
  m.chunkCount = 1;
  expectRejected(m, "chunkCount = replyCount = 0");
}

}  // namespace
