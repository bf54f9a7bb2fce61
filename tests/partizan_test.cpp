// The partizan placing game (seed 004, 7.3; docs/partizan-game.md):
//  1. the rules: the prover's attack masks against a brute-force ray walk
//     written here (every piece, both rules), the symmetries, and the doc's
//     lemma that the blocking rule is the open rule on every position;
//  2. differential: the prover's search (symmetric memo, move ordering)
//     against a plain minimax written here from the rule text, on random
//     positions of boards up to 4x4, both rules, every piece;
//  3. the command line: certificates the checker verifies with the prover's
//     statement (n = 1..4, both first movers), bad input (exit 2), the memo
//     bound ("not done");
//  4. the checker rejects mutated certificates (written here with capnp and
//     resealed): exit 1 and "REJECTED: ...".
// Seeds: RC_PARAMS for the properties, QCERT_TEST_SEED for the rest.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <capnp/message.h>
#include <capnp/serialize.h>
#include <xxhash.h>

#include <cstring>
#include <functional>
#include <map>
#include <random>

#include "prover/partizan/partizan.hpp"
#include "schema/qcert.capnp.h"
#include "tests/support.hpp"

namespace {

// Using-declarations, not a using-directive: the schema's ::Piece and
// ::Player would make the names ambiguous.
using qcert::Piece;
using qcert::parseSquare;
using qcert::pieceName;
using qcert::squareName;
using qcert::partizan::GameProof;
using qcert::partizan::Player;
using qcert::partizan::Reply;
using qcert::partizan::Rule;
using qcert::partizan::Rules;
using qcert::partizan::Solver;
using qcert::partizan::TooLarge;
using qcert::partizan::gameProof;
using qcert::partizan::naiveWins;
using qcert::partizan::parseSquareList;

const Piece kPieces[] = {Piece::queen, Piece::rook, Piece::bishop, Piece::king, Piece::knight};

// ---------------------------------------------------------------- the rules, naively
// Does a piece on s attack t, with the pieces of `occ` on the board? Walks
// from s towards t one square at a time.
bool naiveAttacks(int n, Piece p, bool blocking, int s, int t, uint64_t occ) {
  if (s == t) return false;
  const int r = s / n, c = s % n, dr = t / n - r, dc = t % n - c;
  const int adr = std::abs(dr), adc = std::abs(dc);
  if (p == Piece::knight) return (adr == 1 && adc == 2) || (adr == 2 && adc == 1);
  if (p == Piece::king) return adr <= 1 && adc <= 1;
  const bool straight = dr == 0 || dc == 0, diagonal = adr == adc;
  if (!((straight && p != Piece::bishop) || (diagonal && p != Piece::rook))) return false;
  if (!blocking) return true;
  const int sr = (dr > 0) - (dr < 0), sc = (dc > 0) - (dc < 0);
  for (int k = 1; k < std::max(adr, adc); ++k)
    if (occ >> ((r + k * sr) * n + c + k * sc) & 1) return false;  // a piece between s and t
  return true;
}
bool attackedBy(int n, Piece p, bool blocking, uint64_t pieces, int t, uint64_t occ) {
  for (int s = 0; s < n * n; ++s)
    if (pieces >> s & 1 && naiveAttacks(n, p, blocking, s, t, occ)) return true;
  return false;
}
// The rule text: a player may place on an empty square no opposing piece attacks.
uint64_t naiveMoves(int n, Piece p, bool blocking, uint64_t own, uint64_t other) {
  uint64_t m = 0;
  for (int s = 0; s < n * n; ++s)
    if (!((own | other) >> s & 1) && !attackedBy(n, p, blocking, other, s, own | other)) m |= uint64_t{1} << s;
  return m;
}

// Plain minimax: the player to move wins iff some move leaves the opponent
// a position the opponent loses.
class Minimax {
 public:
  Minimax(int n, Piece p, bool blocking) : n_(n), p_(p), b_(blocking) {}
  bool wins(uint64_t own, uint64_t other) {
    if (auto it = memo_.find({own, other}); it != memo_.end()) return it->second;
    bool w = false;
    for (uint64_t m = naiveMoves(n_, p_, b_, own, other); m && !w; m &= m - 1) w = !wins(other, own | (m & -m));
    memo_[{own, other}] = w;
    return w;
  }

 private:
  int n_;
  Piece p_;
  bool b_;
  std::map<std::pair<uint64_t, uint64_t>, bool> memo_;
};

std::mt19937_64& rng() {
  static std::mt19937_64 g(qtest::testSeed(20260704));
  return g;
}

// A position reached by `moves` random legal moves from the empty board
// (fewer if the mover runs out), Left first. Returns {left, right, leftToMove}.
struct Pos {
  uint64_t left = 0, right = 0;
  bool leftMoves = true;
};
Pos randomPlay(int n, Piece p, bool blocking, int moves, std::mt19937_64& g) {
  Pos pos;
  for (int i = 0; i < moves; ++i) {
    const uint64_t m = pos.leftMoves ? naiveMoves(n, p, blocking, pos.left, pos.right) : naiveMoves(n, p, blocking, pos.right, pos.left);
    if (!m) break;
    std::vector<int> sq;
    for (uint64_t x = m; x; x &= x - 1) sq.push_back(__builtin_ctzll(x));
    const uint64_t bit = uint64_t{1} << sq[g() % sq.size()];
    (pos.leftMoves ? pos.left : pos.right) |= bit;
    pos.leftMoves = !pos.leftMoves;
  }
  return pos;
}

// ---------------------------------------------------------------- 1. the rules
RC_GTEST_PROP(PartizanRules, AttacksAreTheRayWalk, ()) {
  const int n = *rc::gen::inRange(1, 9);
  const Piece p = kPieces[*rc::gen::inRange(0, 5)];
  const bool blocking = *rc::gen::arbitrary<bool>();
  const uint64_t full = n == 8 ? ~0ull : (1ull << (n * n)) - 1;
  const uint64_t occ = *rc::gen::arbitrary<uint64_t>() & *rc::gen::arbitrary<uint64_t>() & full;
  const int s = *rc::gen::inRange(0, n * n);
  const Rules r(n, p, blocking ? Rule::blocking : Rule::open);
  uint64_t expect = 0;
  for (int t = 0; t < n * n; ++t)
    if (naiveAttacks(n, p, blocking, s, t, occ)) expect |= 1ull << t;
  RC_ASSERT(r.attacks(s, occ) == expect);
}

RC_GTEST_PROP(PartizanRules, MovesAreTheRuleText, ()) {
  const int n = *rc::gen::inRange(1, 9);
  const Piece p = kPieces[*rc::gen::inRange(0, 5)];
  const bool blocking = *rc::gen::arbitrary<bool>();
  const uint64_t full = n == 8 ? ~0ull : (1ull << (n * n)) - 1;
  const uint64_t a = *rc::gen::arbitrary<uint64_t>() & *rc::gen::arbitrary<uint64_t>() & *rc::gen::arbitrary<uint64_t>() & full;
  const uint64_t b = *rc::gen::arbitrary<uint64_t>() & *rc::gen::arbitrary<uint64_t>() & *rc::gen::arbitrary<uint64_t>() & full & ~a;
  const Rules r(n, p, blocking ? Rule::blocking : Rule::open);
  RC_ASSERT(r.moves(a, b) == naiveMoves(n, p, blocking, a, b));
  bool legal = true;
  for (int s = 0; s < n * n; ++s) {
    if (a >> s & 1 && attackedBy(n, p, blocking, b, s, a | b)) legal = false;
    if (b >> s & 1 && attackedBy(n, p, blocking, a, s, a | b)) legal = false;
  }
  RC_ASSERT(r.legal(a, b) == legal);
}

// The memo's key relies on it: each of the 8 symmetries of the square maps
// moves to moves, under both rules.
RC_GTEST_PROP(PartizanRules, SymmetriesMapMovesToMoves, ()) {
  const int n = *rc::gen::inRange(1, 9);
  const Piece p = kPieces[*rc::gen::inRange(0, 5)];
  const Rules r(n, p, *rc::gen::arbitrary<bool>() ? Rule::blocking : Rule::open);
  const uint64_t a = *rc::gen::arbitrary<uint64_t>() & *rc::gen::arbitrary<uint64_t>() & r.full();
  const uint64_t b = *rc::gen::arbitrary<uint64_t>() & *rc::gen::arbitrary<uint64_t>() & r.full() & ~a;
  for (int g = 0; g < 8; ++g) RC_ASSERT(r.moves(r.image(g, a), r.image(g, b)) == r.image(g, r.moves(a, b)));
}

// docs/partizan-game.md, Lemma 1: the blocking rule has the same positions
// (no piece attacked by an opposing one) and, on them, the same moves as the
// open rule: the two rules are one game.
RC_GTEST_PROP(PartizanRules, BlockingIsOpenOnEveryPosition, ()) {
  const int n = *rc::gen::inRange(1, 9);
  const Piece p = kPieces[*rc::gen::inRange(0, 3)];  // the sliding pieces
  const Rules open(n, p, Rule::open), blocking(n, p, Rule::blocking);
  const uint64_t a = *rc::gen::arbitrary<uint64_t>() & *rc::gen::arbitrary<uint64_t>() & *rc::gen::arbitrary<uint64_t>() & open.full();
  const uint64_t b = *rc::gen::arbitrary<uint64_t>() & *rc::gen::arbitrary<uint64_t>() & *rc::gen::arbitrary<uint64_t>() & open.full() & ~a;
  RC_ASSERT(open.legal(a, b) == blocking.legal(a, b));
  std::mt19937_64 g(*rc::gen::arbitrary<uint64_t>());
  const Pos pos = randomPlay(n, p, true, *rc::gen::inRange(0, 40), g);
  RC_ASSERT(blocking.legal(pos.left, pos.right));
  RC_ASSERT(open.moves(pos.left, pos.right) == blocking.moves(pos.left, pos.right));
  RC_ASSERT(open.moves(pos.right, pos.left) == blocking.moves(pos.right, pos.left));
}

TEST(PartizanRules, SquareNames) {
  EXPECT_EQ(squareName(4, 0), "a1");
  EXPECT_EQ(squareName(4, 1), "b1");
  EXPECT_EQ(squareName(4, 4), "a2");
  EXPECT_EQ(squareName(8, 63), "h8");
  EXPECT_EQ(parseSquare(4, 4, "d4"), 15);
  EXPECT_FALSE(parseSquare(4, 4, "e1"));
  EXPECT_FALSE(parseSquare(4, 4, "a5"));
  EXPECT_FALSE(parseSquare(4, 4, "a0"));
  EXPECT_THROW(parseSquareList(4, "a1,,b2"), std::invalid_argument);
}

// ---------------------------------------------------------------- 2. differential
TEST(PartizanSearch, AgreesWithPlainMinimax) {
  int compared = 0;
  for (int n = 1; n <= 4; ++n)
    for (Piece p : kPieces)
      for (bool blocking : {false, true}) {
        const Rules r(n, p, blocking ? Rule::blocking : Rule::open);
        Solver solver(r, size_t{64} << 20);
        Minimax naive(n, p, blocking);
        EXPECT_EQ(solver.wins(0, 0), naive.wins(0, 0)) << n << pieceName(p) << blocking;
        for (int i = 0; i < 40; ++i) {
          const Pos pos = randomPlay(n, p, blocking, int(rng()() % (n * n + 1)), rng());
          const uint64_t mover = pos.leftMoves ? pos.left : pos.right, other = pos.leftMoves ? pos.right : pos.left;
          ASSERT_EQ(solver.wins(mover, other), naive.wins(mover, other)) << n << " " << pieceName(p) << " " << blocking;
          ASSERT_EQ(naiveWins(r, mover, other), naive.wins(mover, other));
          ++compared;
        }
      }
  EXPECT_EQ(compared, 4 * 5 * 2 * 40);
}

// The proof has one reply per winner position, sorted, each legal and
// leading to a lost position (the prover's own consistency, before the
// checker sees it).
TEST(PartizanSearch, ProofRepliesAreSortedLegalAndWinning) {
  for (int n = 1; n <= 5; ++n)
    for (Piece p : kPieces)
      for (Player first : {Player::left, Player::right}) {
        const Rules r(n, p, Rule::open);
        Solver solver(r, size_t{64} << 20);
        const GameProof proof = gameProof(solver, 0, 0, first);
        const bool leftWins = proof.moverWins == (first == Player::left);
        for (size_t i = 0; i < proof.replies.size(); ++i) {
          const Reply& q = proof.replies[i];
          if (i) {
            ASSERT_TRUE(std::make_pair(proof.replies[i - 1].left, proof.replies[i - 1].right) < std::make_pair(q.left, q.right));
          }
          const uint64_t own = leftWins ? q.left : q.right, other = leftWins ? q.right : q.left;
          ASSERT_TRUE(r.moves(own, other) >> q.move & 1);
          ASSERT_FALSE(solver.wins(other, own | uint64_t{1} << q.move));
        }
      }
}

// A memo too small for the game: "not done", not an OOM kill.
TEST(PartizanSearch, MemoBoundStopsTheSearch) {
  const Rules r(6, Piece::king, Rule::open);
  Solver solver(r, 1 << 16);
  EXPECT_THROW(solver.wins(0, 0), TooLarge);
}

// ---------------------------------------------------------------- 3. command line
qtest::RunResult prover(std::vector<std::string> args) {
  args.insert(args.begin(), {QCERT_PROVER, "partizan"});
  return qtest::runProgram(args, 60);
}
qtest::RunResult checker(const std::string& cert) { return qtest::runProgram({QCERT_CHECKER, cert}, 60); }

TEST(PartizanCli, CertificatesVerifyWithTheProversStatement) {
  qtest::TempDir dir;
  std::vector<std::vector<std::string>> cases;
  for (int n = 1; n <= 4; ++n)
    for (const char* first : {"left", "right"})
      for (const char* piece : {"queen", "rook", "bishop", "king", "knight"})
        cases.push_back({"--n", std::to_string(n), "--first", first, "--piece", piece});
  cases.push_back({"--n", "4", "--rule", "blocking"});
  cases.push_back({"--n", "4", "--rule", "blocking", "--piece", "rook", "--first", "right"});
  cases.push_back({"--n", "5", "--piece", "knight", "--left", "a1", "--right", "c3,d3"});
  cases.push_back({"--n", "4", "--piece", "king", "--left", "a1,b1", "--right", "d4"});
  cases.push_back({"--n", "5", "--piece", "bishop", "--rule", "blocking", "--right", "c3", "--first", "right"});
  for (size_t i = 0; i < cases.size(); ++i) {
    const std::string cert = dir.file("c" + std::to_string(i));
    auto args = cases[i];
    args.insert(args.end(), {"--out", cert, "-q"});
    const auto p = prover(args);
    ASSERT_EQ(p.exitCode, 0) << p.describe();
    ASSERT_TRUE(qtest::startsWith(p.out, "RESULT: ")) << p.out;
    const auto c = checker(cert);
    EXPECT_EQ(c.exitCode, 0) << c.describe();
    EXPECT_EQ("VERIFIED: " + qtest::firstLine(p.out).substr(8), qtest::firstLine(c.out));
  }
}

TEST(PartizanCli, Statements) {
  qtest::TempDir dir;
  auto proved = [&](std::vector<std::string> args) {
    args.insert(args.end(), {"--out", dir.file("s"), "-q"});
    const auto p = prover(args);
    EXPECT_EQ(p.exitCode, 0) << p.describe();
    const auto c = checker(dir.file("s"));
    EXPECT_EQ(c.exitCode, 0) << c.describe();
    return qtest::firstLine(c.out);
  };
  EXPECT_EQ(proved({"--n", "4"}), "VERIFIED: Left, moving first, wins the partizan queens game on the empty 4x4 board");
  EXPECT_EQ(proved({"--n", "4", "--piece", "rook", "--first", "right", "--rule", "blocking"}),
            "VERIFIED: Right, moving first, loses the partizan rooks game on the empty 4x4 board (chess convention: lines stop at the first piece)");
  EXPECT_EQ(proved({"--n", "4", "--piece", "king", "--left", "b1,a1", "--right", "d4"}),
            "VERIFIED: Left, moving first, wins the partizan kings game on the 4x4 board with Left's kings on a1, b1 and Right's king on d4");
  // The centre knight attacks nothing on 3x3: the 8 others form a cycle of
  // knight moves, Snort on C8 with Right moving first (this file's minimax).
  const bool rightWins = Minimax(3, Piece::knight, false).wins(uint64_t{1} << 4, 0);
  EXPECT_EQ(proved({"--n", "3", "--piece", "knight", "--right", "b2", "--first", "right"}),
            std::string("VERIFIED: Right, moving first, ") + (rightWins ? "wins" : "loses") +
                " the partizan knights game on the 3x3 board with Right's knight on b2");
}

TEST(PartizanCli, ClassesOfTheEmptyBoards) {
  const auto c = prover({"--classes", "--n-max", "4", "--piece", "rook", "-q"});
  ASSERT_EQ(c.exitCode, 0) << c.describe();
  EXPECT_EQ(c.out,
            "CLASS: N (the first player wins): the partizan rooks game on the empty 1x1 board; Left, moving first, wins; Right, moving first, wins\n"
            "CLASS: P (the second player, the previous player, wins): the partizan rooks game on the empty 2x2 board; Left, moving first, loses; Right, moving first, loses\n"
            "CLASS: N (the first player wins): the partizan rooks game on the empty 3x3 board; Left, moving first, wins; Right, moving first, wins\n"
            "CLASS: P (the second player, the previous player, wins): the partizan rooks game on the empty 4x4 board; Left, moving first, loses; Right, moving first, loses\n");
  // Left's queen on b2 attacks every other square of the 3x3 board: Right
  // never has a move, Left always has one, so Left wins whoever starts.
  const auto l = prover({"--classes", "--n", "3", "--left", "b2", "-q"});
  ASSERT_EQ(l.exitCode, 0) << l.describe();
  EXPECT_TRUE(qtest::startsWith(l.out, "CLASS: L (Left wins whoever moves first)")) << l.out;
}

TEST(PartizanCli, BadInputIsOneLineAndExit2) {
  qtest::TempDir dir;
  const std::vector<std::vector<std::string>> bad = {
      {},
      {"--n", "9"},
      {"--n", "0"},
      {"--n", "4", "--piece", "pawn"},
      {"--n", "4", "--rule", "sometimes"},
      {"--n", "4", "--first", "both"},
      {"--n", "4", "--left", "e1"},
      {"--n", "4", "--left", "a1,a1"},
      {"--n", "4", "--left", "a1", "--right", "a1"},
      {"--n", "4", "--left", "a1", "--right", "c3"},  // the queens see each other
      {"--n", "4", "--piece", "rook", "--rule", "blocking", "--left", "a1", "--right", "a4"},
      {"--n", "4", "--classes", "--out", dir.file("x")},
      {"--n", "4", "--classes", "--first", "right"},
      {"--n-max", "4"},
      {"--classes", "--n-max", "4", "--left", "a1"},
      {"--n", "4", "--n-max", "5", "--classes"},
      {"--n", "4", "--out", dir.path() + "/no/such/dir/c"},
      {"--n", "4", "--bogus"},
  };
  for (const auto& args : bad) {
    const auto r = prover(args);
    std::string cmd;
    for (const auto& a : args) cmd += a + " ";
    EXPECT_EQ(r.exitCode, 2) << cmd << r.describe();
    EXPECT_TRUE(qtest::startsWith(r.err, "prover partizan: ")) << cmd << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << cmd << r.err;
    EXPECT_EQ(r.out, "") << cmd;
  }
  const auto blocked = prover({"--n", "4", "--piece", "rook", "--rule", "blocking", "--left", "a1,a2", "--right", "a4"});
  EXPECT_EQ(blocked.exitCode, 2);  // a2 and a4 still see each other
  const auto fine = prover({"--n", "4", "--piece", "rook", "--rule", "blocking", "--left", "a1", "--right", "b2", "-q"});
  EXPECT_EQ(fine.exitCode, 0) << fine.describe();
  const auto help = prover({"--help"});
  EXPECT_EQ(help.exitCode, 0);
  EXPECT_NE(help.out.find("--classes"), std::string::npos);
}

TEST(PartizanCli, MemoBoundIsNotDone) {
  const auto r = prover({"--n", "6", "--piece", "bishop", "--memo-mb", "1", "-q"});  // about 10^6 positions
  EXPECT_EQ(r.exitCode, 2) << r.describe();
  EXPECT_TRUE(qtest::startsWith(r.err, "prover partizan: not done: ")) << r.err;
}

// ---------------------------------------------------------------- 4. rejections
std::vector<capnp::word> wordsOf(const std::vector<uint8_t>& bytes) {
  std::vector<capnp::word> w(bytes.size() / sizeof(capnp::word));
  std::memcpy(w.data(), bytes.data(), w.size() * sizeof(capnp::word));
  return w;
}

// Header + Seal (correct XXH3-128) from a header builder's message.
void writeSealed(const std::string& path, capnp::MallocMessageBuilder& msg, int extraMessages = 0) {
  auto words = capnp::messageToFlatArray(msg);
  std::vector<uint8_t> bytes(words.asBytes().begin(), words.asBytes().end());
  for (int i = 0; i < extraMessages; ++i) bytes.insert(bytes.end(), words.asBytes().begin(), words.asBytes().end());
  const XXH128_hash_t d = XXH3_128bits(bytes.data(), bytes.size());
  uint8_t digest[16];
  for (int i = 0; i < 8; ++i) digest[i] = uint8_t(d.high64 >> (56 - 8 * i)), digest[8 + i] = uint8_t(d.low64 >> (56 - 8 * i));
  capnp::MallocMessageBuilder seal;
  seal.initRoot<Seal>().setXxh3x128(capnp::Data::Reader(digest, 16));
  auto sealWords = capnp::messageToFlatArray(seal);
  bytes.insert(bytes.end(), sealWords.asBytes().begin(), sealWords.asBytes().end());
  qtest::writeFile(path, bytes);
}

// A prover certificate, read back, changed by `mutate`, resealed and checked.
qtest::RunResult mutated(const std::string& cert, const std::function<void(Header::Builder)>& mutate, int extraMessages = 0) {
  const auto words = wordsOf(qtest::readFile(cert));
  capnp::FlatArrayMessageReader reader(kj::arrayPtr(words.data(), words.size()));
  capnp::MallocMessageBuilder msg;
  msg.setRoot(reader.getRoot<Header>());
  mutate(msg.getRoot<Header>());
  const std::string path = cert + ".mutant";
  writeSealed(path, msg, extraMessages);
  return checker(path);
}

#define EXPECT_REJECTED(r)                                                      \
  do {                                                                          \
    const auto got_ = (r);                                                      \
    if (std::getenv("QCERT_TEST_VERBOSE")) std::fprintf(stderr, "%s", got_.out.c_str()); \
    EXPECT_EQ(got_.exitCode, 1) << got_.describe();                             \
    EXPECT_TRUE(qtest::startsWith(got_.out, "REJECTED: ")) << got_.out;         \
    EXPECT_GT(qtest::firstLine(got_.out).size(), 12u) << "a rejection without a reason"; \
  } while (0)

// Replaces the reply list by `replies`.
void setReplies(PartizanClaim::Builder c, const std::vector<std::tuple<uint64_t, uint64_t, uint16_t>>& replies) {
  auto list = c.initReplies(unsigned(replies.size()));
  for (unsigned i = 0; i < replies.size(); ++i) {
    list[i].setLeft(std::get<0>(replies[i]));
    list[i].setRight(std::get<1>(replies[i]));
    list[i].setMove(std::get<2>(replies[i]));
  }
}
std::vector<std::tuple<uint64_t, uint64_t, uint16_t>> repliesOf(PartizanClaim::Builder c) {
  std::vector<std::tuple<uint64_t, uint64_t, uint16_t>> v;
  for (auto r : c.getReplies()) v.emplace_back(r.getLeft(), r.getRight(), r.getMove());
  return v;
}

TEST(PartizanChecker, RejectsMutatedCertificates) {
  qtest::TempDir dir;
  // A win with many replies (Left first, 5x5 queens) and a loss (Left
  // first, 4x4 rooks), both verified as written.
  const std::string win = dir.file("win"), loss = dir.file("loss");
  ASSERT_EQ(prover({"--n", "5", "--out", win, "-q"}).exitCode, 0);
  ASSERT_EQ(prover({"--n", "4", "--piece", "rook", "--out", loss, "-q"}).exitCode, 0);
  ASSERT_EQ(checker(win).exitCode, 0);
  ASSERT_EQ(checker(loss).exitCode, 0);
  EXPECT_EQ(mutated(win, [](Header::Builder) {}).exitCode, 0);  // resealing alone changes nothing

  // The claim.
  EXPECT_REJECTED(mutated(win, [](Header::Builder h) { h.getPartizan().setMoverWins(false); }));
  EXPECT_REJECTED(mutated(loss, [](Header::Builder h) { h.getPartizan().setMoverWins(true); }));
  EXPECT_REJECTED(mutated(loss, [](Header::Builder h) { h.getPartizan().setToMove(::Player::RIGHT); }));
  // Right moving first does win 5x5 queens, but these are Left's replies.
  EXPECT_REJECTED(mutated(win, [](Header::Builder h) { h.getPartizan().setToMove(::Player::RIGHT); }));
  EXPECT_REJECTED(mutated(win, [](Header::Builder h) { h.getPartizan().setRule(::PartizanRule(2)); }));
  EXPECT_REJECTED(mutated(win, [](Header::Builder h) { h.getPartizan().setPiece(::Piece(5)); }));
  EXPECT_REJECTED(mutated(win, [](Header::Builder h) { h.getPartizan().setToMove(::Player(2)); }));
  EXPECT_REJECTED(mutated(win, [](Header::Builder h) { h.getPartizan().setBoardSize(9); }));
  EXPECT_REJECTED(mutated(win, [](Header::Builder h) { h.getPartizan().setBoardSize(0); }));
  // The replies: removed, illegal, duplicated, unsorted, unused.
  EXPECT_REJECTED(mutated(win, [](Header::Builder h) {
    auto v = repliesOf(h.getPartizan());
    v.erase(v.begin() + long(v.size() / 2));
    setReplies(h.getPartizan(), v);
  }));
  EXPECT_REJECTED(mutated(win, [](Header::Builder h) { setReplies(h.getPartizan(), {}); }));
  EXPECT_REJECTED(mutated(win, [](Header::Builder h) {
    auto v = repliesOf(h.getPartizan());
    auto& [l, r, m] = v.back();
    m = uint16_t(__builtin_ctzll(r ? r : l));  // an occupied square
    setReplies(h.getPartizan(), v);
  }));
  EXPECT_REJECTED(mutated(win, [](Header::Builder h) {
    auto v = repliesOf(h.getPartizan());
    std::get<2>(v.front()) = 25;  // off the 5x5 board
    setReplies(h.getPartizan(), v);
  }));
  EXPECT_REJECTED(mutated(win, [](Header::Builder h) {
    auto v = repliesOf(h.getPartizan());
    // The root's reply moved to a square Right's first piece would attack:
    // at the root nothing is attacked, so use a later reply.
    for (auto& [l, r, m] : v)
      if (r) {
        const Rules rules(5, Piece::queen, Rule::open);
        const uint64_t att = rules.attackedBy(r, l | r) & ~(l | r);
        if (att) m = uint16_t(__builtin_ctzll(att));
        break;
      }
    setReplies(h.getPartizan(), v);
  }));
  EXPECT_REJECTED(mutated(win, [](Header::Builder h) {
    auto v = repliesOf(h.getPartizan());
    v.insert(v.begin() + 1, v[1]);
    setReplies(h.getPartizan(), v);
  }));
  EXPECT_REJECTED(mutated(win, [](Header::Builder h) {
    auto v = repliesOf(h.getPartizan());
    std::swap(v[0], v[1]);
    setReplies(h.getPartizan(), v);
  }));
  EXPECT_REJECTED(mutated(win, [](Header::Builder h) {
    auto v = repliesOf(h.getPartizan());
    v.emplace_back(~uint64_t{0} >> 1, 0, 0);  // never reached
    setReplies(h.getPartizan(), v);
  }));
  EXPECT_REJECTED(mutated(loss, [](Header::Builder h) { setReplies(h.getPartizan(), {{1, 2, 3}}); }));
  // The root: an opposing-attacked piece, a square twice, off the board, unsorted.
  auto root = [](std::vector<uint16_t> left, std::vector<uint16_t> right) {
    return [=](Header::Builder h) {
      auto c = h.getPartizan();
      auto l = c.initLeft(unsigned(left.size()));
      for (unsigned i = 0; i < left.size(); ++i) l.set(i, left[i]);
      auto r = c.initRight(unsigned(right.size()));
      for (unsigned i = 0; i < right.size(); ++i) r.set(i, right[i]);
    };
  };
  EXPECT_REJECTED(mutated(win, root({0}, {6})));       // a1 and b2 share a diagonal
  EXPECT_REJECTED(mutated(win, root({0}, {0})));
  EXPECT_REJECTED(mutated(win, root({25}, {})));
  EXPECT_REJECTED(mutated(win, root({7, 0}, {})));
  EXPECT_REJECTED(mutated(win, root({0, 0}, {})));
  // The header around the claim.
  EXPECT_REJECTED(mutated(win, [](Header::Builder h) { h.setCutoff(1); }));
  EXPECT_REJECTED(mutated(win, [](Header::Builder h) { h.setReplyCount(1); }));
  EXPECT_REJECTED(mutated(win, [](Header::Builder h) { h.setMirrorLemma(true); }));
  EXPECT_REJECTED(mutated(win, [](Header::Builder h) { h.setDefaultReply(::DefaultReply::MIRROR180); }));
  EXPECT_REJECTED(mutated(win, [](Header::Builder h) { h.initMod2().setBoardSize(4); }));
  EXPECT_REJECTED(mutated(win, [](Header::Builder h) { h.initCount().setBoardSize(4); }));
  EXPECT_REJECTED(mutated(win, [](Header::Builder) {}, 1));  // a third message
}

// A certificate built from scratch: the loser at the root has no move.
TEST(PartizanChecker, HandBuiltCertificates) {
  qtest::TempDir dir;
  auto run = [&](const std::function<void(PartizanClaim::Builder)>& fill) {
    capnp::MallocMessageBuilder msg;
    auto h = msg.initRoot<Header>();
    h.setFormatVersion(1);
    fill(h.initPartizan());
    writeSealed(dir.file("h"), msg);
    return checker(dir.file("h"));
  };
  // 1x1: Left moves first and wins by a1; Right has no move after it.
  const auto one = run([](PartizanClaim::Builder c) {
    c.setBoardSize(1);
    c.setMoverWins(true);
    setReplies(c, {{0, 0, 0}});
  });
  EXPECT_EQ(one.exitCode, 0) << one.describe();
  EXPECT_EQ(qtest::firstLine(one.out), "VERIFIED: Left, moving first, wins the partizan queens game on the empty 1x1 board");
  // 2x2 knights (no knight move fits: nothing is attacked), Left on a1,
  // Right on b1 and a2: Right moves first, takes b2, and Left has no move.
  const auto knights = run([](PartizanClaim::Builder c) {
    c.setBoardSize(2);
    c.setPiece(::Piece::KNIGHT);
    c.setToMove(::Player::RIGHT);
    c.setMoverWins(true);
    c.initLeft(1).set(0, 0);
    auto r = c.initRight(2);
    r.set(0, 1), r.set(1, 2);
    setReplies(c, {{1, 6, 3}});
  });
  EXPECT_EQ(knights.exitCode, 0) << knights.describe();
  EXPECT_EQ(qtest::firstLine(knights.out),
            "VERIFIED: Right, moving first, wins the partizan knights game on the 2x2 board with Left's knight on a1 and Right's knights on b1, a2");
  // Left moving first takes b2 and wins: the claim "Left loses" is false
  // (the checker finds no reply for Right after b2).
  const auto wrong = run([](PartizanClaim::Builder c) {
    c.setBoardSize(2);
    c.setPiece(::Piece::KNIGHT);
    c.setMoverWins(false);
    c.initLeft(1).set(0, 0);
    auto r = c.initRight(2);
    r.set(0, 1), r.set(1, 2);
  });
  EXPECT_REJECTED(wrong);
}

// ---------------------------------------------------------------- 5. the mirror lemma
// Lemma 3 against the search: a certificate naming a map of the square and
// nothing else (no root, no replies) is written here for every map, piece,
// rule, claim and board up to 5x5; whenever the checker verifies one, its
// claim is what the search finds (this file's minimax up to 4x4, the
// prover's search, itself tested against it, for 5x5).  The rest
// must be rejections.  And the prover's --by-mirror-lemma finds a map
// exactly where docs/partizan-game.md says: every piece on odd boards,
// rooks, bishops and knights on even ones.
TEST(PartizanMirrorLemma, VerifiedLemmaCertificatesAgreeWithTheSearch) {
  qtest::TempDir dir;
  int verified = 0, rejected = 0;
  for (int n = 1; n <= 5; ++n)
    for (Piece piece : kPieces)
      for (bool blocking : {false, true}) {
        const Rules rules(n, piece, blocking ? Rule::blocking : Rule::open);
        Solver solver(rules);
        const bool firstWins = n <= 4 ? Minimax(n, piece, blocking).wins(0, 0) : solver.wins(0, 0);
        const auto lemma = qcert::partizan::findMirrorLemma(rules);
        const bool expectMap = n % 2 == 1 || piece == Piece::rook || piece == Piece::bishop || piece == Piece::knight;
        EXPECT_EQ(lemma.map != 0, expectMap) << n << " " << pieceName(piece);
        if (lemma.map != 0) EXPECT_EQ(lemma.moverWins, firstWins) << n << " " << pieceName(piece);
        for (unsigned map = 1; map <= 5; ++map)
          for (bool moverWins : {false, true}) {
            capnp::MallocMessageBuilder msg;
            auto h = msg.initRoot<Header>();
            h.setFormatVersion(1);
            auto c = h.initPartizan();
            c.setBoardSize(uint16_t(n));
            c.setPiece(::Piece(unsigned(piece)));
            c.setRule(blocking ? ::PartizanRule::BLOCKING : ::PartizanRule::OPEN);
            c.setToMove(map % 2 ? ::Player::LEFT : ::Player::RIGHT);  // Lemma 2: the same either way
            c.setMoverWins(moverWins);
            c.setMirror(::DefaultReply(map));
            writeSealed(dir.file("m"), msg);
            const auto r = checker(dir.file("m"));
            if (r.exitCode == 0) {
              ++verified;
              EXPECT_EQ(moverWins, firstWins) << r.out;
              EXPECT_TRUE(qtest::contains(r.out, ", by the mirror lemma (")) << r.out;
            } else {
              ++rejected;
              EXPECT_REJECTED(r);
            }
          }
      }
  EXPECT_EQ(verified, 94);  // counted once; a change here means the checker's conditions changed
  EXPECT_GT(rejected, 300);
}

TEST(PartizanMirrorLemma, CommandLineAndRejections) {
  qtest::TempDir dir;
  const std::string rooks = dir.file("rooks8"), knights = dir.file("knights7");
  const auto p = prover({"--n", "8", "--piece", "rook", "--by-mirror-lemma", "--out", rooks, "-q"});
  ASSERT_EQ(p.exitCode, 0) << p.describe();
  EXPECT_EQ(qtest::firstLine(checker(rooks).out),
            "VERIFIED: Left, moving first, loses the partizan rooks game on the empty 8x8 board, by the mirror lemma (half turn)");
  ASSERT_EQ(prover({"--n", "7", "--piece", "knight", "--first", "right", "--by-mirror-lemma", "--out", knights, "-q"}).exitCode, 0);
  EXPECT_EQ(qtest::firstLine(checker(knights).out),
            "VERIFIED: Right, moving first, wins the partizan knights game on the empty 7x7 board, by the mirror lemma (d4 first, then the "
            "half turn)");
  // No map for queens on an even board; the lemma is about the empty board.
  for (const auto& args : std::vector<std::vector<std::string>>{{"--n", "8", "--by-mirror-lemma"},
                                                                 {"--n", "7", "--left", "a1", "--by-mirror-lemma"},
                                                                 {"--n", "7", "--classes", "--by-mirror-lemma"}}) {
    const auto r = prover(args);
    EXPECT_EQ(r.exitCode, 2) << r.describe();
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
  // The checker: a root, a reply, the other claim, another map, an unknown map.
  EXPECT_REJECTED(mutated(rooks, [](Header::Builder h) { h.getPartizan().initLeft(1).set(0, 0); }));
  EXPECT_REJECTED(mutated(rooks, [](Header::Builder h) { setReplies(h.getPartizan(), {{0, 0, 0}}); }));
  EXPECT_REJECTED(mutated(rooks, [](Header::Builder h) { h.getPartizan().setMoverWins(true); }));
  EXPECT_REJECTED(mutated(rooks, [](Header::Builder h) { h.getPartizan().setMirror(::DefaultReply::MIRROR_DIAGONAL); }));
  EXPECT_REJECTED(mutated(rooks, [](Header::Builder h) { h.getPartizan().setMirror(::DefaultReply(6)); }));
  EXPECT_REJECTED(mutated(knights, [](Header::Builder h) { h.getPartizan().setBoardSize(8); }));
  EXPECT_REJECTED(mutated(knights, [](Header::Builder h) { h.getPartizan().setPiece(::Piece::QUEEN), h.getPartizan().setBoardSize(8); }));
}

}  // namespace
