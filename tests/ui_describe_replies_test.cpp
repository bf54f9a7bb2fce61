// qcert describe (a certificate's header, not verified) and qcert replies
// (the winner's reply to each first move, from a verified certificate): the
// shipped certificates of every kind the prover writes, corrupt and missing
// files, bad arguments, and every reply checked against the prover's own
// search (independent of the checker path the replies come through).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "ui/analysis.hpp"
#include "ui/cli.hpp"
#include "ui/replies.hpp"
#include "tests/support.hpp"

using namespace qcert;
using namespace qcert::ui;

namespace {

const std::string kCerts = QCERT_CERTS_DIR;

struct QRun {
  int status;
  std::string out, err;
};
QRun runUi(std::vector<std::string> args) {
  std::istringstream in;
  std::ostringstream out, err;
  const int status = runQcert(args, in, out, err);
  return {status, out.str(), err.str()};
}
bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }
size_t count(const std::string& text, const std::string& part) {
  size_t k = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++k;
  return k;
}

// A certificate written by the prover binary into dir; "" if it failed.
std::string proved(const qtest::TempDir& dir, const std::string& name, std::vector<std::string> args) {
  const std::string file = dir.file(name);
  args.insert(args.begin(), QCERT_PROVER);
  args.insert(args.end(), {"--out", file, "-q"});
  const auto r = qtest::runProgram(args, 60);
  EXPECT_EQ(r.exitCode, 0) << r.describe();
  return r.exitCode == 0 ? file : "";
}

}  // namespace

// ---------------------------------------------------------------- describe

TEST(UiDescribe, GameCertificateHeaderMarkedNotVerified) {
  const QRun r = runUi({"describe", kCerts + "/jenrich-n8.qcert"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.rfind("NOT VERIFIED: ", 0), 0u) << r.out;  // the first words
  EXPECT_TRUE(has(r.out, "Claim:         first player wins on the empty 8x8 board (queens game)\n")) << r.out;
  EXPECT_TRUE(has(r.out, "format version 1")) << r.out;
  EXPECT_TRUE(has(r.out, "Cut-off:       18 ")) << r.out;
  EXPECT_TRUE(has(r.out, "Default reply: half turn")) << r.out;
  EXPECT_TRUE(has(r.out, "Replies:       19 winner decisions in 1 chunk")) << r.out;
  EXPECT_FALSE(has(r.out, "VERIFIED: ") && !has(r.out, "NOT VERIFIED: ")) << r.out;
}

TEST(UiDescribe, GrundyAndPositions) {
  const QRun g = runUi({"describe", kCerts + "/A344227-a5.qcert"});
  ASSERT_EQ(g.status, 0) << g.err;
  EXPECT_TRUE(has(g.out, "Claim:         the Grundy value of the empty 5x5 board is 3 (queens game)")) << g.out;
  const QRun p = runUi({"describe", kCerts + "/jenrich-8-d4.qcert"});
  ASSERT_EQ(p.status, 0) << p.err;
  EXPECT_TRUE(has(p.out, "Position:      after d4 (3,3)\n")) << p.out;
  EXPECT_TRUE(has(p.out, "outcome: the player to move loses")) << p.out;
}

TEST(UiDescribe, ManifestListsEveryShardWithItsClaim) {
  const QRun r = runUi({"describe", kCerts + "/rudd-n16.qcert"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(has(r.out, "split into 36 shard certificates")) << r.out;
  EXPECT_EQ(count(r.out, ": seal as pinned\n"), 36u) << r.out;
  EXPECT_TRUE(has(r.out, "the player to move wins on the 16x16 board after queens a1 (0,0) (queens game)")) << r.out;
  EXPECT_TRUE(has(r.out, "the player to move wins on the 16x16 board after queens h8 (7,7) (queens game)")) << r.out;
}

TEST(UiDescribe, ManifestWithAMissingShardIsStillDescribed) {
  qtest::TempDir dir;
  namespace fs = std::filesystem;
  fs::copy_file(kCerts + "/rudd-G14.qcert", dir.file("m.qcert"));
  const QRun r = runUi({"describe", dir.file("m.qcert")});  // its units are not there
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(has(r.out, "cannot be read")) << r.out;
  EXPECT_TRUE(has(r.out, "Claim:         the Grundy value of the empty 14x14 board is 0")) << r.out;
}

TEST(UiDescribe, EveryOtherKind) {
  qtest::TempDir dir;
  const std::string count = proved(dir, "q8", {"count", "--problem", "queens", "--n", "8"});
  const std::string mod2 = proved(dir, "m5", {"mod2", "play", "--n", "5", "--construction", "brown-ladha-3.1"});
  const std::string partizan = proved(dir, "p3", {"partizan", "--n", "3", "--first", "left"});
  const std::string lemma = proved(dir, "b6", {"prove", "--n", "6", "--piece", "bishop", "--mirror", "files", "--by-mirror-lemma"});
  ASSERT_FALSE(count.empty() || mod2.empty() || partizan.empty() || lemma.empty());
  const QRun c = runUi({"describe", count});
  ASSERT_EQ(c.status, 0) << c.err;
  EXPECT_TRUE(has(c.out, "Claim:         the 8-queens problem has 92 solutions, 12 up to symmetry\n")) << c.out;
  EXPECT_TRUE(has(c.out, "Totals:        92\n")) << c.out;
  const QRun m = runUi({"describe", mod2});
  ASSERT_EQ(m.status, 0) << m.err;
  EXPECT_TRUE(has(m.out, "mod-2 game certificate")) << m.out;
  EXPECT_TRUE(has(m.out, "Claim 3.1's order")) << m.out;
  const std::string outcome = proved(dir, "o4", {"mod2", "outcome", "--n", "4"});
  ASSERT_FALSE(outcome.empty());
  const QRun o = runUi({"describe", outcome});
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_TRUE(has(o.out, "who wins from the empty board")) << o.out;
  EXPECT_TRUE(has(o.out, "Claim:         the player to move wins\n")) << o.out;
  const QRun p = runUi({"describe", partizan});
  ASSERT_EQ(p.status, 0) << p.err;
  EXPECT_TRUE(has(p.out, "Claim:         Left, to move, ")) << p.out;
  const QRun l = runUi({"describe", lemma});
  ASSERT_EQ(l.status, 0) << l.err;
  EXPECT_TRUE(has(l.out, "mirror-lemma certificate")) << l.out;
  for (const QRun* r : {&c, &m, &p, &l}) EXPECT_EQ(r->out.rfind("NOT VERIFIED: ", 0), 0u) << r->out;
}

TEST(UiDescribe, CorruptMissingAndBadArgumentsAreOneLine) {
  qtest::TempDir dir;
  std::string bytes;
  {
    std::ifstream in(kCerts + "/jenrich-n8.qcert", std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  bytes[bytes.size() / 2] ^= 1;
  std::ofstream(dir.file("bad.qcert"), std::ios::binary) << bytes;
  const QRun bad = runUi({"describe", dir.file("bad.qcert")});
  EXPECT_EQ(bad.status, 1);  // the checker's reader rejects it: its convention, REJECTED is 1
  EXPECT_EQ(bad.out, "");
  EXPECT_EQ(count(bad.err, "\n"), 1u) << bad.err;
  EXPECT_TRUE(has(bad.err, "REJECTED: ")) << bad.err;
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"describe", dir.file("none.qcert")}, {"describe"}, {"describe", "a", "b"}, {"describe", "--frob", "a"},
           {"replies"}, {"replies", kCerts + "/jenrich-n8.qcert", "--jobs", "0"}, {"replies", dir.file("none.qcert")}}) {
    const QRun r = runUi(args);
    EXPECT_EQ(r.status, 2) << args.size() << " " << r.err;
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(count(r.err, "\n"), 1u) << r.err;
  }
  const QRun corruptReplies = runUi({"replies", dir.file("bad.qcert")});
  EXPECT_EQ(corruptReplies.status, 1) << corruptReplies.err;
}

// ---------------------------------------------------------------- replies

// Every reply of the table leaves a lost position: the prover's search says
// so (the replies come through the checker library's hook).
void expectEveryReplyWins(const ReplyTable& t, const Geometry& geo) {
  auto solver = OnTheSpot::make(geo, 64);
  std::vector<int> before(t.before.begin(), t.before.end());
  const Live live = liveAfter(geo, before);
  for (const FirstReply& r : t.rows) {
    ASSERT_TRUE(r.reply.has_value()) << geo.squareName(r.move);
    Live after = r.move >= 0 ? liveAfterMove(geo, live, r.move) : live;
    uint32_t heap = r.move >= 0 ? t.heap : heapTarget(r.move);
    if (*r.reply >= 0) {
      ASSERT_TRUE(after[size_t(*r.reply)]) << "the reply " << geo.squareName(*r.reply) << " to " << geo.squareName(r.move) << " is not free";
      after = liveAfterMove(geo, after, *r.reply);
    } else {
      ASSERT_LT(heapTarget(*r.reply), heap);
      heap = heapTarget(*r.reply);
    }
    EXPECT_EQ(solver->wins(after, heap), std::optional<bool>(false)) << "the reply to " << r.move << " does not win";
  }
}

TEST(UiReplies, EightByEightAfterTheWinnersFirstMove) {
  ReplyTable t = loadReplyTable(kCerts + "/jenrich-n8.qcert", 1, 60);
  ASSERT_TRUE(fillOnTheSpot(t, 10));
  const Geometry geo = queensGeometry(8);
  ASSERT_TRUE(t.winnerMovesFirst);
  ASSERT_EQ(t.winnerFirst, std::optional<int>(3 * 8 + 3));  // d4, the certificate's first decision
  EXPECT_EQ(t.rows.size(), 18u);                            // the orbits of the free squares under d4's stabiliser
  expectEveryReplyWins(t, geo);
  const QRun r = runUi({"replies", kCerts + "/jenrich-n8.qcert"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(has(r.out, "VERIFIED by the checker library: first player wins on the empty 8x8 board")) << r.out;
  EXPECT_TRUE(has(r.out, "moves first: d4 (3,3) (the certificate)")) << r.out;
  EXPECT_TRUE(has(r.out, "As Jenrich's table T")) << r.out;
}

TEST(UiReplies, TenByTenIsJenrichsTriangle) {
  ReplyTable t = loadReplyTable(kCerts + "/jenrich-n10.qcert", 1, 60);
  ASSERT_TRUE(fillOnTheSpot(t, 10));
  ASSERT_FALSE(t.winnerMovesFirst);
  ASSERT_EQ(t.rows.size(), 15u);  // (r, c) with r <= c <= 4, as seed 000's "(c<=nm1div2) and (r<=c)"
  for (const FirstReply& r : t.rows) {
    EXPECT_LE(r.move / 10, r.move % 10);
    EXPECT_LE(r.move % 10, 4);
  }
  expectEveryReplyWins(t, queensGeometry(10));
  const QRun q = runUi({"replies", kCerts + "/jenrich-n10.qcert"});
  ASSERT_EQ(q.status, 0) << q.err;
  EXPECT_TRUE(has(q.out, "  r0=0   ")) << q.out;
  EXPECT_EQ(count(q.out, "  $FF"), 10u) << q.out;  // the 25 cells of rows 0..4, columns 0..4, less the 15 moves
}

TEST(UiReplies, GrundyCertificateHasHeapMovesProvedOnTheSpotBelowTheCutoff) {
  ReplyTable t = loadReplyTable(kCerts + "/A344227-a5.qcert", 1, 60);
  ASSERT_TRUE(fillOnTheSpot(t, 10));
  ASSERT_EQ(t.heap, 3u);
  ASSERT_EQ(t.rows.size(), 6u + 3u);  // six classes of squares, then the heap lowered to 0, 1, 2
  for (int h = 0; h < 3; ++h) EXPECT_EQ(t.rows[size_t(6 + h)].move, -1 - h);
  expectEveryReplyWins(t, queensGeometry(5));
  for (const FirstReply& r : t.rows)
    if (r.belowCutoff) {
      EXPECT_EQ(r.from, FirstReply::From::onTheSpot);
    }
}

// --tsv: the table for programs (qcert report --replies reads the n = 16 one).
TEST(UiReplies, TsvHasALinePerMoveWithHalfTurnAndSource) {
  const QRun r = runUi({"replies", kCerts + "/jenrich-n8.qcert", "--tsv"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.rfind("#qcert-replies\t1\n#claim\tfirst player wins on the empty 8x8 board", 0), 0u) << r.out;
  EXPECT_TRUE(has(r.out, "\n#board\t8x8\tbefore=d4\n#cert\t" + kCerts + "/jenrich-n8.qcert\n#first\td4\tcertificate\n"
                          "move\treply\thalf_turn\tfrom\n")) << r.out;
  EXPECT_FALSE(has(r.out, "VERIFIED")) << "--tsv prints only the table";
  EXPECT_EQ(count(r.out, "\n"), 5u + 1u + 18u) << r.out;  // header lines, columns, one line per move
  const Geometry geo = queensGeometry(8);
  size_t halfTurns = 0;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);) {
    if (line[0] == '#' || line.rfind("move\t", 0) == 0) continue;
    std::istringstream f(line);
    std::string move, reply, half, from;
    ASSERT_TRUE(std::getline(f, move, '\t') && std::getline(f, reply, '\t') && std::getline(f, half, '\t') && std::getline(f, from)) << line;
    const auto m = geo.parseSquare(move), q = geo.parseSquare(reply);
    ASSERT_TRUE(m && q) << line;
    EXPECT_EQ(half, 63 - *m == *q ? "1" : "0") << line;
    halfTurns += half == "1";
    EXPECT_TRUE(from == "certificate" || from == "on-the-spot") << line;
  }
  EXPECT_GT(halfTurns, 0u) << "the mirror replies after d4 are half turns";
  const QRun g = runUi({"replies", kCerts + "/A344227-a5.qcert", "--tsv"});
  ASSERT_EQ(g.status, 0) << g.err;
  EXPECT_TRUE(has(g.out, "\nheap-0\t")) << g.out;
  EXPECT_TRUE(has(g.out, "\ton-the-spot\n")) << g.out;
  const QRun u = runUi({"replies", kCerts + "/jenrich-n8.qcert", "--tsv", "--unicode"});
  EXPECT_EQ(u.status, 2);
  EXPECT_EQ(count(u.err, "\n"), 1u) << u.err;
}

TEST(UiReplies, OtherKindsAreRefused) {
  qtest::TempDir dir;
  const std::string count = proved(dir, "q6", {"count", "--problem", "queens", "--n", "6"});
  ASSERT_FALSE(count.empty());
  const QRun r = runUi({"replies", count});
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(has(r.err, "count certificate")) << r.err;
}

// A table of independent parts (docs/parts.md) stores entries (size, squares,
// Grundy value), not replies, and the checker verifies no move from it: the
// winner's first move is found on the spot and said so. The first token of
// the 5x5 kings table is an entry's size, 1: read as a reply it named a1,
// which loses (after a1 the position has Grundy value 5; c3 alone wins).
TEST(UiReplies, ATableOfPartsHasNoStoredFirstMove) {
  qtest::TempDir dir;
  const std::string parts = proved(dir, "k5", {"prove", "--n", "5", "--piece", "king", "--parts"});
  ASSERT_FALSE(parts.empty());
  Variant kings;
  kings.rows = kings.cols = 5, kings.piece = Piece::king;
  const Geometry geo = variantGeometry(kings);
  ReplyTable t = loadReplyTable(parts, 1, 60);
  ASSERT_TRUE(t.winnerMovesFirst);
  EXPECT_FALSE(t.winnerFirst.has_value()) << "a first move attributed to the table: " << geo.squareName(*t.winnerFirst);
  EXPECT_NE(t.winnerFirstFrom, FirstReply::From::certificate);
  ASSERT_TRUE(fillOnTheSpot(t, 10));
  ASSERT_TRUE(t.winnerFirst.has_value());
  EXPECT_EQ(t.winnerFirstFrom, FirstReply::From::onTheSpot);
  EXPECT_EQ(geo.squareName(*t.winnerFirst), "c3");
  for (const FirstReply& r : t.rows) {
    EXPECT_EQ(r.from, FirstReply::From::onTheSpot) << geo.squareName(r.move);
    EXPECT_FALSE(r.belowCutoff) << "a table of parts has no cut-off";
  }
  expectEveryReplyWins(t, geo);
  const QRun r = runUi({"replies", parts});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_FALSE(has(r.out, "(the certificate)")) << r.out;
  EXPECT_TRUE(has(r.out, "moves first: c3 (2,2) (proved on the spot")) << r.out;
  EXPECT_TRUE(has(r.out, "No move below comes from the certificate: the certificate is a table of independent parts")) << r.out;
  EXPECT_FALSE(has(r.out, "cut-off")) << r.out;
  const QRun tsv = runUi({"replies", parts, "--tsv"});
  ASSERT_EQ(tsv.status, 0) << tsv.err;
  EXPECT_TRUE(has(tsv.out, "\n#first\tc3\ton-the-spot\n")) << tsv.out;
  EXPECT_FALSE(has(tsv.out, "\tcertificate")) << tsv.out;
  // describe says what the tokens are: a table of parts, not winner decisions.
  const QRun d = runUi({"describe", parts});
  ASSERT_EQ(d.status, 0) << d.err;
  EXPECT_TRUE(has(d.out, "table of independent parts")) << d.out;
  EXPECT_FALSE(has(d.out, "winner decision")) << d.out;
  EXPECT_FALSE(has(d.out, "the winner's replies")) << d.out;
  // explain and play with --cert: no value is marked as the table's but the claim's.
  const QRun e = runUi({"explain", "--cert", parts});
  ASSERT_EQ(e.status, 0) << e.err;
  EXPECT_TRUE(has(e.out, "From the verified certificate: 0 moves;")) << e.out;
}

// The queens' 5x5 table too (an outcome claim of the first player, who wins).
TEST(UiReplies, AQueensTableOfPartsHasNoStoredFirstMove) {
  qtest::TempDir dir;
  const std::string parts = proved(dir, "q5", {"prove", "--n", "5", "--parts"});
  ASSERT_FALSE(parts.empty());
  ReplyTable t = loadReplyTable(parts, 1, 60);
  ASSERT_TRUE(t.winnerMovesFirst);
  EXPECT_FALSE(t.winnerFirst.has_value());
  ASSERT_TRUE(fillOnTheSpot(t, 10));
  EXPECT_EQ(t.winnerFirstFrom, FirstReply::From::onTheSpot);
  expectEveryReplyWins(t, queensGeometry(5));
}

// A mirror-lemma certificate proves the loss from the lemma's conditions; it
// stores no reply, so every reply shown is proved on the spot.
TEST(UiReplies, AMirrorLemmaCertificateStoresNoReply) {
  qtest::TempDir dir;
  const std::string lemma = proved(dir, "b6", {"prove", "--n", "6", "--piece", "bishop", "--mirror", "files", "--by-mirror-lemma"});
  ASSERT_FALSE(lemma.empty());
  ReplyTable t = loadReplyTable(lemma, 1, 60);
  ASSERT_FALSE(t.winnerMovesFirst);
  for (const FirstReply& r : t.rows) EXPECT_NE(r.from, FirstReply::From::certificate);
  const QRun tsv = runUi({"replies", lemma, "--tsv"});
  ASSERT_EQ(tsv.status, 0) << tsv.err;
  EXPECT_FALSE(has(tsv.out, "\tcertificate")) << tsv.out;
}
