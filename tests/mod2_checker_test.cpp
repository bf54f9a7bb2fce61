// The checker's mod-2 game certificates (docs/mod2-game.md), end to end
// through qcert::runCheck: files built here with the schema alone, every kind
// verified with the doc's exact statements, and mutants rejected with a
// reason.  The expected numbers come from this file's own small brute force
// (written from the doc's rules), never from the checker.
#include <gtest/gtest.h>

#include <capnp/message.h>
#include <capnp/serialize.h>
#include <xxhash.h>

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <cstdio>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

#include "check.hpp"
#include "qcert.capnp.h"

namespace {

using Fill = std::function<void(Mod2Claim::Builder)>;

struct Verdict {
  int status = -1;
  std::string line;  // the verdict line without its newline
};

// Writes Header{mod2 = fill(...)} + Seal and runs the checker's code path on it.
// `header` may spoil the Header's other fields.
Verdict check(const Fill& fill, const std::function<void(Header::Builder)>& header = nullptr, double timeLimit = 0) {
  capnp::MallocMessageBuilder msg;
  auto h = msg.initRoot<Header>();
  h.setFormatVersion(1);
  fill(h.initMod2());
  if (header) header(h);
  auto words = capnp::messageToFlatArray(msg);
  std::string bytes(words.asChars().begin(), words.asChars().end());
  const XXH128_hash_t d = XXH3_128bits(bytes.data(), bytes.size());
  unsigned char digest[16];
  for (int i = 0; i < 8; ++i) digest[i] = uint8_t(d.high64 >> (56 - 8 * i)), digest[8 + i] = uint8_t(d.low64 >> (56 - 8 * i));
  capnp::MallocMessageBuilder sealMsg;
  sealMsg.initRoot<Seal>().setXxh3x128(capnp::Data::Reader(digest, 16));
  auto sealWords = capnp::messageToFlatArray(sealMsg);
  bytes.append(sealWords.asChars().begin(), sealWords.asChars().end());
  const std::string path = testing::TempDir() + "mod2_" + std::to_string(::getpid()) + ".qcert";
  if (FILE* f = std::fopen(path.c_str(), "wb")) {
    std::fwrite(bytes.data(), 1, bytes.size(), f);
    std::fclose(f);
  }
  qcert::CheckOptions o;
  o.path = path;
  o.quiet = true;
  o.timeLimitSeconds = timeLimit;
  std::ostringstream out, err;
  Verdict v;
  v.status = qcert::runCheck(o, out, err);
  v.line = out.str();
  if (!v.line.empty() && v.line.back() == '\n') v.line.pop_back();
  std::remove(path.c_str());
  if (std::getenv("QCERT_TEST_VERBOSE")) std::fprintf(stderr, "  %d %s\n", v.status, v.line.c_str());
  return v;
}

#define EXPECT_VERIFIED(v, statement)   \
  do {                                   \
    const Verdict got_ = (v);            \
    EXPECT_EQ(got_.status, 0);           \
    EXPECT_EQ(got_.line, std::string("VERIFIED: ") + (statement)); \
  } while (0)
#define EXPECT_REJECTED(v)                                                    \
  do {                                                                        \
    const Verdict got_ = (v);                                                 \
    EXPECT_EQ(got_.status, 1) << got_.line;                                   \
    EXPECT_EQ(got_.line.rfind("REJECTED: ", 0), 0u) << got_.line;             \
    EXPECT_GT(got_.line.size(), 12u) << "a rejection without a reason";       \
  } while (0)

// ---- The test's own model of the rules (docs/mod2-game.md) ---------------

// Does square a see square b (a != b): same row, column or diagonal?
bool sees(int n, int a, int b) {
  const int r1 = a / n, c1 = a % n, r2 = b / n, c2 = b % n;
  return r1 == r2 || c1 == c2 || std::abs(r1 - r2) == std::abs(c1 - c2);
}
int attackers(int n, const std::vector<bool>& queen, int s) {
  int k = 0;
  for (int t = 0; t < n * n; ++t) k += t != s && queen[t] && sees(n, s, t);
  return k;
}
// Paper (i, j) -> square.
int paper(int n, int i, int j) { return (i - 1) * n + (j - 1); }

void setMoves(Mod2Claim::Builder c, const std::vector<int>& moves) {
  auto list = c.initMoves(unsigned(moves.size()));
  for (unsigned i = 0; i < moves.size(); ++i) list.set(i, uint16_t(moves[i]));
}
std::string board(int n) { return "the " + std::to_string(n) + "x" + std::to_string(n) + " board"; }

// ---- play ------------------------------------------------------------------

TEST(Mod2Play, BrownLadhaOrdersVerifyForOddN) {
  EXPECT_VERIFIED(check([](Mod2Claim::Builder c) {
                    c.setBoardSize(5), c.setSequence(Mod2Sequence::BROWN_LADHA_COMPLETE);
                  }),
                  "the order of Brown-Ladha Claim 3.1 (Figure 3a as read by qcert, Steps 1-4) is a legal play that fills the 5x5 board (25 queens)");
  EXPECT_VERIFIED(check([](Mod2Claim::Builder c) {
                    c.setBoardSize(5), c.setSequence(Mod2Sequence::BROWN_LADHA_LOCKED), c.setEnd(Mod2End::LOCKED);
                  }),
                  "the order of Brown-Ladha Claim 4.1 (Figure 5's moves repeated, then the corner) is a legal play that locks the 5x5 board with 9 queens");
  for (int n = 1; n <= 31; n += 2) {
    SCOPED_TRACE(n);
    EXPECT_VERIFIED(check([&](Mod2Claim::Builder c) { c.setBoardSize(uint16_t(n)), c.setSequence(Mod2Sequence::BROWN_LADHA_COMPLETE); }),
                    "the order of Brown-Ladha Claim 3.1 (Figure 3a as read by qcert, Steps 1-4) is a legal play that fills " + board(n) +
                        " (" + std::to_string(n * n) + (n == 1 ? " queen)" : " queens)"));
    if (n == 1) continue;  // one queen fills the 1x1 board: complete, not locked
    EXPECT_VERIFIED(check([&](Mod2Claim::Builder c) {
                      c.setBoardSize(uint16_t(n)), c.setSequence(Mod2Sequence::BROWN_LADHA_LOCKED), c.setEnd(Mod2End::LOCKED);
                    }),
                    "the order of Brown-Ladha Claim 4.1 (Figure 5's moves repeated, then the corner) is a legal play that locks " + board(n) +
                        " with " + std::to_string(2 * n - 1) + " queens");
  }
}

TEST(Mod2Play, BrownLadhaOrdersRejectedForEvenNOrWithMoves) {
  EXPECT_REJECTED(check([](Mod2Claim::Builder c) { c.setBoardSize(6), c.setSequence(Mod2Sequence::BROWN_LADHA_COMPLETE); }));
  EXPECT_REJECTED(check([](Mod2Claim::Builder c) {
    c.setBoardSize(5), c.setSequence(Mod2Sequence::BROWN_LADHA_COMPLETE), setMoves(c, {0});
  }));
  EXPECT_REJECTED(check([](Mod2Claim::Builder c) {  // the locked order does not fill the board
    c.setBoardSize(5), c.setSequence(Mod2Sequence::BROWN_LADHA_LOCKED);
  }));
  EXPECT_REJECTED(check([](Mod2Claim::Builder c) {  // 1x1: the corner fills it
    c.setBoardSize(1), c.setSequence(Mod2Sequence::BROWN_LADHA_LOCKED), c.setEnd(Mod2End::LOCKED);
  }));
}

// For even n: {(1,i), (i,1) | 2 <= i <= n-1} and (n,n), 2n-3 queens, locked.
std::vector<int> evenLocked(int n) {
  std::vector<int> m;
  for (int i = 2; i <= n - 2; i += 2)
    m.insert(m.end(), {paper(n, i, 1), paper(n, 1, i + 1), paper(n, i + 1, 1), paper(n, 1, i)});
  m.push_back(paper(n, n, n));
  return m;
}

TEST(Mod2Play, EvenLockedPlays) {
  for (int n = 4; n <= 32; n += 2) {
    SCOPED_TRACE(n);
    const std::vector<int> moves = evenLocked(n);
    EXPECT_VERIFIED(check([&](Mod2Claim::Builder c) { c.setBoardSize(uint16_t(n)), c.setEnd(Mod2End::LOCKED), setMoves(c, moves); }),
                    "a legal play of the mod-2 game locks " + board(n) + " with " + std::to_string(2 * n - 3) + " queens");
    EXPECT_VERIFIED(check([&](Mod2Claim::Builder c) {
                      c.setBoardSize(uint16_t(n)), c.setEnd(Mod2End::QUEENS), c.setCount(uint32_t(moves.size())), setMoves(c, moves);
                    }),
                    "a legal play of the mod-2 game places " + std::to_string(2 * n - 3) + " queens on " + board(n));
  }
  // Mutants: wrong count, one queen fewer (not locked), a move twice, off the board.
  std::vector<int> m = evenLocked(8);
  EXPECT_REJECTED(check([&](Mod2Claim::Builder c) { c.setBoardSize(8), c.setEnd(Mod2End::QUEENS), c.setCount(12), setMoves(c, m); }));
  EXPECT_REJECTED(check([&](Mod2Claim::Builder c) { c.setBoardSize(8), c.setEnd(Mod2End::LOCKED), c.setCount(13), setMoves(c, m); }));
  std::vector<int> shorter(m.begin(), m.end() - 1), twice = m, off = m;
  twice.push_back(m[0]);
  off.push_back(64);
  EXPECT_REJECTED(check([&](Mod2Claim::Builder c) { c.setBoardSize(8), c.setEnd(Mod2End::LOCKED), setMoves(c, shorter); }));
  EXPECT_REJECTED(check([&](Mod2Claim::Builder c) { c.setBoardSize(8), c.setEnd(Mod2End::QUEENS), c.setCount(14), setMoves(c, twice); }));
  EXPECT_REJECTED(check([&](Mod2Claim::Builder c) { c.setBoardSize(8), c.setEnd(Mod2End::QUEENS), c.setCount(14), setMoves(c, off); }));
  EXPECT_REJECTED(check([&](Mod2Claim::Builder c) { c.setBoardSize(8), c.setEnd(Mod2End::COMPLETE), setMoves(c, m); }));
}

TEST(Mod2Play, IllegalAt) {
  // 5x5: a1, then b1 is attacked by 1 queen; then a1 again is occupied.
  EXPECT_VERIFIED(check([](Mod2Claim::Builder c) { c.setBoardSize(5), c.setEnd(Mod2End::ILLEGAL_AT), c.setCount(2), setMoves(c, {0, 1}); }),
                  "the given sequence is not a legal play of the mod-2 game on the 5x5 board: move 2, b1, is attacked by 1 queen");
  EXPECT_VERIFIED(check([](Mod2Claim::Builder c) { c.setBoardSize(5), c.setEnd(Mod2End::ILLEGAL_AT), c.setCount(2), setMoves(c, {0, 0, 7}); }),
                  "the given sequence is not a legal play of the mod-2 game on the 5x5 board: move 2, a1, is occupied");
  // a1 and c2 do not see each other, so "c2 is illegal after a1" is false.
  {
    std::vector<bool> q(25);
    q[paper(5, 1, 1)] = q[paper(5, 2, 3)] = true;  // a1, c2: do not see each other
    EXPECT_EQ(attackers(5, q, paper(5, 2, 3)), 0);
  }
  EXPECT_REJECTED(check([](Mod2Claim::Builder c) { c.setBoardSize(5), c.setEnd(Mod2End::ILLEGAL_AT), c.setCount(2), setMoves(c, {0, 7}); }));
  EXPECT_REJECTED(check([](Mod2Claim::Builder c) { c.setBoardSize(5), c.setEnd(Mod2End::ILLEGAL_AT), c.setCount(3), setMoves(c, {0, 1, 7}); }));
  EXPECT_REJECTED(check([](Mod2Claim::Builder c) { c.setBoardSize(5), c.setEnd(Mod2End::ILLEGAL_AT), c.setCount(0), setMoves(c, {0, 1}); }));
  EXPECT_REJECTED(check([](Mod2Claim::Builder c) { c.setBoardSize(5), c.setEnd(Mod2End::ILLEGAL_AT), c.setCount(3), setMoves(c, {0, 1}); }));
}

TEST(Mod2Play, FieldsAndRanges) {
  auto ok = [](Mod2Claim::Builder c) { c.setBoardSize(5), c.setSequence(Mod2Sequence::BROWN_LADHA_COMPLETE); };
  EXPECT_EQ(check(ok).status, 0);
  const std::vector<Fill> spoil = {
      [](Mod2Claim::Builder c) { c.setCount(1); },
      [](Mod2Claim::Builder c) { c.setHeap(1); },
      [](Mod2Claim::Builder c) { c.setGrundy(true); },
      [](Mod2Claim::Builder c) { c.setOutcome(Outcome::LOSS); },
      [](Mod2Claim::Builder c) { c.setStructure(Mod2Structure::AT_MOST_ALL_BUT_TWO); },
      [](Mod2Claim::Builder c) { c.setExhaustive(Mod2Exhaustive::MOST_QUEENS); },
      [](Mod2Claim::Builder c) { c.setOtherRule(Mod2Rule::ALTERNATE); },
      [](Mod2Claim::Builder c) { c.initTotals(1); },
      [](Mod2Claim::Builder c) { c.initClasses(1); },
      [](Mod2Claim::Builder c) { c.initStart(1); },
      [](Mod2Claim::Builder c) { c.initReplies(1); },
      [](Mod2Claim::Builder c) { c.setRule(Mod2Rule::ALTERNATE); },
      [](Mod2Claim::Builder c) { c.setRule(static_cast<Mod2Rule>(7)); },
      [](Mod2Claim::Builder c) { c.setKind(static_cast<Mod2Kind>(9)); },
      [](Mod2Claim::Builder c) { c.setEnd(static_cast<Mod2End>(9)); },
      [](Mod2Claim::Builder c) { c.setSequence(static_cast<Mod2Sequence>(9)); },
      [](Mod2Claim::Builder c) { c.setBoardSize(33); },
      [](Mod2Claim::Builder c) { c.setBoardSize(0); },
  };
  for (size_t i = 0; i < spoil.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_REJECTED(check([&](Mod2Claim::Builder c) { ok(c), spoil[i](c); }));
  }
  // The header around the claim: nothing else may be set.
  EXPECT_REJECTED(check(ok, [](Header::Builder h) { h.setCutoff(1); }));
  EXPECT_REJECTED(check(ok, [](Header::Builder h) { h.initClaim().setBoardSize(3); }));
  EXPECT_REJECTED(check(ok, [](Header::Builder h) { h.initCount(); }));
  EXPECT_REJECTED(check(ok, [](Header::Builder h) { h.setDefaultReply(DefaultReply::MIRROR180); }));
  EXPECT_REJECTED(check([](Mod2Claim::Builder c) { c.setBoardSize(4), setMoves(c, std::vector<int>(1025, 0)); }));
}

// ---- structure ---------------------------------------------------------------

TEST(Mod2Structure, EvenBoardsVerifyOddBoardsReject) {
  for (int n = 1; n <= 32; ++n) {
    SCOPED_TRACE(n);
    const Verdict none = check([&](Mod2Claim::Builder c) { c.setBoardSize(uint16_t(n)), c.setKind(Mod2Kind::STRUCTURE); });
    const Verdict most = check([&](Mod2Claim::Builder c) {
      c.setBoardSize(uint16_t(n)), c.setKind(Mod2Kind::STRUCTURE), c.setStructure(Mod2Structure::AT_MOST_ALL_BUT_TWO);
    });
    if (n % 2) {
      EXPECT_REJECTED(none);
      EXPECT_REJECTED(most);
    } else {
      EXPECT_VERIFIED(none, "no legal position of the mod-2 game on " + board(n) + " is complete");
      EXPECT_VERIFIED(most, "no legal position of the mod-2 game on " + board(n) + " has more than " + std::to_string(n * n - 2) + " queens");
    }
  }
  EXPECT_REJECTED(check([](Mod2Claim::Builder c) { c.setBoardSize(6), c.setKind(Mod2Kind::STRUCTURE), c.setCount(34); }));
  EXPECT_REJECTED(check([](Mod2Claim::Builder c) { c.setBoardSize(6), c.setKind(Mod2Kind::STRUCTURE), c.setRule(Mod2Rule::COMPLEMENTARY); }));
}

}  // namespace
