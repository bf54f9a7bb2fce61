// The checker's mod-2 game certificates (docs/mod2-game.md), end to end
// through qcert::checker::check: files built here with the schema alone, every kind
// verified with the doc's exact statements, and mutants rejected with a
// reason.  The expected numbers come from the reference model of
// tests/reference/mod2_reference.hpp (written from the doc's rules; the mod-2
// fuzz target uses it too), never from the checker.
#include <gtest/gtest.h>

#include <capnp/message.h>
#include <capnp/serialize.h>
#include <xxhash.h>

#include <algorithm>
#include <array>
#include <tuple>
#include <bit>
#include <chrono>
#include <cstdlib>
#include <cstdio>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

#include "checker/certificate_file.hpp"
#include "checker/checker.hpp"
#include "checker/limits.hpp"
#include "checker/mod2/mod2.hpp"
#include "checker/mod2/rules.hpp"
#include "schema/qcert.capnp.h"
#include "tests/reference/mod2_reference.hpp"

namespace {

using Fill = std::function<void(Mod2Claim::Builder)>;

struct Verdict {
  int status = -1;
  std::string line;  // the verdict line without its newline
};

// Writes Header{mod2 = fill(...)} + Seal; `header` may spoil the Header's
// other fields.  Returns the file's path.
std::string writeCertificate(const Fill& fill, const std::function<void(Header::Builder)>& header = nullptr) {
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
  return path;
}

// Runs the checker's code path (qcert::checker::check) on that file.
Verdict check(const Fill& fill, const std::function<void(Header::Builder)>& header = nullptr) {
  const std::string path = writeCertificate(fill, header);
  qcert::checker::CheckOptions o;
  o.path = path;
  o.quiet = !std::getenv("QCERT_TEST_VERBOSE");
  std::ostringstream err;
  Verdict v;
  const auto started = std::chrono::steady_clock::now();
  const qcert::checker::Verdict verdict = qcert::checker::check(o, err);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  v.status = verdict.exitStatus();
  v.line = verdict.line();
  std::remove(path.c_str());
  if (std::getenv("QCERT_TEST_VERBOSE")) std::fprintf(stderr, "%s  %.3f s, %d %s\n", (err.str() + verdict.report).c_str(), seconds, v.status, v.line.c_str());
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

// ---- The rules: tests/reference/mod2_reference.hpp -------------------------

using Ref = mod2ref::Masks;

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
  // Any end may be claimed of a named order; the statement says which.
  EXPECT_VERIFIED(check([](Mod2Claim::Builder c) { c.setBoardSize(1), c.setSequence(Mod2Sequence::BROWN_LADHA_LOCKED); }),
                  "the order of Brown-Ladha Claim 4.1 (Figure 5's moves repeated, then the corner) is a legal play that fills the 1x1 board (1 queen)");
  EXPECT_VERIFIED(check([](Mod2Claim::Builder c) {
                    c.setBoardSize(3), c.setSequence(Mod2Sequence::BROWN_LADHA_COMPLETE), c.setEnd(Mod2End::QUEENS), c.setCount(9);
                  }),
                  "the order of Brown-Ladha Claim 3.1 (Figure 3a as read by qcert, Steps 1-4) is a legal play that places 9 queens on the 3x3 board");
  EXPECT_REJECTED(check([](Mod2Claim::Builder c) {  // every move of the order is legal
    c.setBoardSize(3), c.setSequence(Mod2Sequence::BROWN_LADHA_COMPLETE), c.setEnd(Mod2End::ILLEGAL_AT), c.setCount(4);
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
    mod2ref::Play p(5);
    p.place(paper(5, 1, 1));
    EXPECT_EQ(p.att(paper(5, 2, 3)), 0);
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

// ---- exhaustive ----------------------------------------------------------------

void setList(capnp::List<uint64_t>::Builder l, const std::vector<uint64_t>& v) {
  for (unsigned i = 0; i < v.size(); ++i) l.set(i, v[i]);
}
std::string joined(const std::vector<uint64_t>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s;
}

TEST(Mod2Exhaustive, LegalCountAgainstBruteForce) {
  for (int n = 1; n <= 4; ++n) {
    SCOPED_TRACE(n);
    const Ref ref(n);
    const mod2ref::Census census = mod2ref::census(n);
    const std::vector<uint64_t>& totals = census.totals;
    const std::vector<uint64_t>& classes = census.classes;
    if (n == 3) {
      EXPECT_EQ(totals, (std::vector<uint64_t>{1, 9, 8, 40, 44, 60, 40, 8, 8, 1}));
    }
    uint64_t t = 0, c = 0;
    for (int k = 0; k <= n * n; ++k) t += totals[k], c += classes[k];
    if (n == 3) {
      EXPECT_EQ(t, 219u);
    }
    if (n == 4) {
      EXPECT_EQ(t, 33043u);
    }
    auto claim = [&](const std::vector<uint64_t>& tt, const std::vector<uint64_t>& cc) {
      return [=](Mod2Claim::Builder b) {
        b.setBoardSize(uint16_t(n)), b.setKind(Mod2Kind::EXHAUSTIVE);
        setList(b.initTotals(unsigned(tt.size())), tt), setList(b.initClasses(unsigned(cc.size())), cc);
      };
    };
    EXPECT_VERIFIED(check(claim(totals, classes)), "the mod-2 game on " + board(n) + " has " + std::to_string(t) + " legal positions (" +
                                                        std::to_string(c) + " up to symmetry); by number of queens 0.." + std::to_string(n * n) +
                                                        ": " + joined(totals) + "; up to symmetry: " + joined(classes));
    auto wrong = totals;
    wrong[n * n / 2] += 1;
    EXPECT_REJECTED(check(claim(wrong, classes)));
    wrong = classes;
    wrong[1] -= 1;
    EXPECT_REJECTED(check(claim(totals, wrong)));
    wrong = totals;
    wrong.pop_back();
    EXPECT_REJECTED(check(claim(wrong, classes)));
    // mostQueens and fewestLocking from the same reference.
    const uint64_t most = census.most, fewest = census.fewestLocking;
    auto bound = [&](Mod2Exhaustive what, uint64_t count) {
      const std::vector<uint16_t> witness =
          what == Mod2Exhaustive::FEWEST_LOCKING ? ref.lockingPlay(int(count)) : std::vector<uint16_t>{};
      return check([=](Mod2Claim::Builder b) {
        b.setBoardSize(uint16_t(n)), b.setKind(Mod2Kind::EXHAUSTIVE), b.setExhaustive(what), b.setCount(uint32_t(count));
        auto m = b.initMoves(unsigned(witness.size()));
        for (unsigned i = 0; i < witness.size(); ++i) m.set(i, witness[i]);
      });
    };
    EXPECT_VERIFIED(bound(Mod2Exhaustive::MOST_QUEENS, most),
                    "the most queens in a legal position of the mod-2 game on " + board(n) + " is " + std::to_string(most));
    EXPECT_REJECTED(bound(Mod2Exhaustive::MOST_QUEENS, most - 1));
    EXPECT_REJECTED(bound(Mod2Exhaustive::MOST_QUEENS, most + 1));
    if (fewest != UINT64_MAX) {
      if (n == 4) {
        EXPECT_EQ(fewest, 5u);
      }
      EXPECT_VERIFIED(bound(Mod2Exhaustive::FEWEST_LOCKING, fewest),
                      "the fewest queens in a legal locked position of the mod-2 game on " + board(n) + " is " + std::to_string(fewest));
      EXPECT_REJECTED(bound(Mod2Exhaustive::FEWEST_LOCKING, fewest - 1));
      EXPECT_REJECTED(bound(Mod2Exhaustive::FEWEST_LOCKING, fewest + 1));
    } else {
      EXPECT_REJECTED(bound(Mod2Exhaustive::FEWEST_LOCKING, n * n));  // 1x1: nothing is locked
    }
    // playCount: the leaves of the game tree.
    std::map<uint64_t, uint64_t> memo;
    const uint64_t plays = ref.plays(0, memo);
    auto playCount = [&](uint64_t k) {
      return check([=](Mod2Claim::Builder b) {
        b.setBoardSize(uint16_t(n)), b.setKind(Mod2Kind::EXHAUSTIVE), b.setExhaustive(Mod2Exhaustive::PLAY_COUNT);
        setList(b.initTotals(1), {k});
      });
    };
    EXPECT_VERIFIED(playCount(plays), "the mod-2 game on " + board(n) + " has " + std::to_string(plays) +
                                          (plays == 1 ? " distinct play" : " distinct plays") + " from the empty board to a position with no move");
    EXPECT_REJECTED(playCount(plays + 1));
  }
}

// Lemma 4: the checker's search by line parities finds exactly the locked
// sets of at most `most` queens, each once, against the reference's walk of
// every set (n <= 4: every size; n = 5: up to 9 queens; n = 6: up to 7).
TEST(Mod2Exhaustive, LockedSetsFromLineParitiesAreExactlyTheLockedSets) {
  for (int n = 1; n <= 6; ++n) {
    const int most = n <= 4 ? n * n : n == 5 ? 9 : 7;
    const qcert::checker::mod2::Small b{unsigned(n)};
    const qcert::checker::mod2::LockedSets search(b);
    for (int m : {most / 2, most}) {
      std::vector<uint64_t> found;
      search.each(unsigned(m), [&](uint64_t p) { found.push_back(p); });
      std::sort(found.begin(), found.end());
      const std::vector<uint64_t> walked = mod2ref::lockedSetsByWalk(n, m);
      EXPECT_EQ(found, walked) << n << "x" << n << ", at most " << m << " queens";
      if (n == 6 && m == 7) {
        EXPECT_EQ(walked.size(), 8u);  // 4 of 5 queens, 4 of 7
      }
    }
  }
}

TEST(Mod2Exhaustive, FivesAndSixes) {
  auto bound = [&](int n, Mod2Exhaustive what, uint64_t count) {
    const std::vector<uint16_t> witness = what == Mod2Exhaustive::FEWEST_LOCKING && n <= 8 && count <= 64
                                              ? Ref(n).lockingPlay(int(count)) : std::vector<uint16_t>{};
    return check([=](Mod2Claim::Builder b) {
      b.setBoardSize(uint16_t(n)), b.setKind(Mod2Kind::EXHAUSTIVE), b.setExhaustive(what), b.setCount(uint32_t(count));
      auto m = b.initMoves(unsigned(witness.size()));
      for (unsigned i = 0; i < witness.size(); ++i) m.set(i, witness[i]);
    });
  };
  // Odd n: Claim 3.1's order fills the board, so the most is n^2.
  EXPECT_VERIFIED(bound(5, Mod2Exhaustive::MOST_QUEENS, 25), "the most queens in a legal position of the mod-2 game on the 5x5 board is 25");
  for (int n : {5, 6}) {
    EXPECT_VERIFIED(bound(n, Mod2Exhaustive::FEWEST_LOCKING, 5),
                    "the fewest queens in a legal locked position of the mod-2 game on " + board(n) + " is 5");
    EXPECT_REJECTED(bound(n, Mod2Exhaustive::FEWEST_LOCKING, 4));  // no 4-queen witness exists
    // A 6-queen locked play is a valid witness, but a 5-queen legal locked set
    // exists: the walk finds it.
    const std::vector<uint16_t> six = Ref(n).lockingPlay(6);
    if (!six.empty()) {
      EXPECT_REJECTED(bound(n, Mod2Exhaustive::FEWEST_LOCKING, 6));
    }
  }
  // The witness itself must be a legal locking play of count moves.
  EXPECT_REJECTED(check([](Mod2Claim::Builder b) {
    b.setBoardSize(5), b.setKind(Mod2Kind::EXHAUSTIVE), b.setExhaustive(Mod2Exhaustive::FEWEST_LOCKING), b.setCount(5);
    auto m = b.initMoves(5);
    for (unsigned i = 0; i < 5; ++i) m.set(i, uint16_t(i));  // a1 then b1: b1 is attacked by 1 queen
  }));
  // Ranges: n above the kind's limit, count above n^2, a time limit that stops the search.
  EXPECT_REJECTED(bound(7, Mod2Exhaustive::MOST_QUEENS, 34));
  EXPECT_REJECTED(bound(9, Mod2Exhaustive::FEWEST_LOCKING, 5));
  EXPECT_REJECTED(bound(4, Mod2Exhaustive::FEWEST_LOCKING, 17));
  EXPECT_REJECTED(check([](Mod2Claim::Builder b) {  // 2^36 counts of 8 bytes: past what playCount does
    b.setBoardSize(6), b.setKind(Mod2Kind::EXHAUSTIVE), b.setExhaustive(Mod2Exhaustive::PLAY_COUNT), setList(b.initTotals(1), {1});
  }));
  EXPECT_REJECTED(check([](Mod2Claim::Builder b) {
    b.setBoardSize(3), b.setKind(Mod2Kind::EXHAUSTIVE), b.setExhaustive(static_cast<Mod2Exhaustive>(9));
  }));
}

// The passes over every set, 64 to a word, against the reference on every
// set of every board up to 4x4 (boards of 1 and 4 squares are one part-used
// word, 9 and 16 squares several words): which sets are legal, which are won.
TEST(Mod2Exhaustive, WordBitmapsAgreeWithTheReferenceOnEverySet) {
  for (int n = 1; n <= 4; ++n) {
    SCOPED_TRACE(n);
    const qcert::checker::mod2::Small b{unsigned(n)};
    const qcert::checker::mod2::Bitmap legal = qcert::checker::mod2::legalBitmap(b), won = qcert::checker::mod2::wonBitmap(b),
                                       wonAlternate = qcert::checker::mod2::wonBitmap(b, true);
    const uint64_t sets = uint64_t(1) << (n * n);
    ASSERT_EQ(legal.size(), std::max<uint64_t>(1, sets / 64));
    const std::set<uint64_t> reference = Ref(n).legal();
    mod2ref::Game game(n, 0), alternate(n, 1);
    uint64_t mismatches = 0;
    for (uint64_t p = 0; p < sets; ++p) {
      mismatches += bool(legal[p / 64] >> (p % 64) & 1) != (reference.count(p) == 1);
      mismatches += bool(won[p / 64] >> (p % 64) & 1) != game.wins(p, 0);
      mismatches += bool(wonAlternate[p / 64] >> (p % 64) & 1) != alternate.wins(p, 0);
    }
    EXPECT_EQ(mismatches, 0u);
    if (sets < 64) {  // the unused bits of a part-used word stay clear
      EXPECT_EQ(legal[0] >> sets, 0u);
      EXPECT_EQ(won[0] >> sets, 0u);
    }
  }
}

// outcome: who wins from the empty board, by the checker's own pass; the
// truth from the reference's minimax.
TEST(Mod2Exhaustive, OutcomeAgainstTheReference) {
  auto claim = [](int n, unsigned outcome) {
    return [=](Mod2Claim::Builder b) {
      b.setBoardSize(uint16_t(n)), b.setKind(Mod2Kind::EXHAUSTIVE), b.setExhaustive(Mod2Exhaustive::OUTCOME);
      b.setOutcome(static_cast<Outcome>(outcome));
    };
  };
  for (int n = 1; n <= 4; ++n) {
    SCOPED_TRACE(n);
    const bool wins = mod2ref::Game(n, 0).wins(0, 0);
    EXPECT_VERIFIED(check(claim(n, wins ? 0 : 1)), std::string("the player to move ") + (wins ? "wins" : "loses") + " the mod-2 game on " + board(n));
    EXPECT_REJECTED(check(claim(n, wins ? 1 : 0)));
    EXPECT_REJECTED(check(claim(n, 2)));  // not an outcome
  }
  EXPECT_REJECTED(check(claim(7, 1)));  // past 6x6
  EXPECT_REJECTED(check([&](Mod2Claim::Builder b) { claim(3, 0)(b), b.initStart(1); }));
  EXPECT_REJECTED(check([&](Mod2Claim::Builder b) { claim(3, 0)(b), b.setHeap(1); }));
  EXPECT_REJECTED(check([&](Mod2Claim::Builder b) { claim(3, 0)(b), b.setRule(Mod2Rule::ALTERNATE); }));  // no given queen
  EXPECT_REJECTED(check([&](Mod2Claim::Builder b) { claim(3, 0)(b), b.setCount(1); }));
}

// outcome, alternate rule: who wins after the one given queen, for every
// square of every board up to 4x4; the truth from the reference's minimax.
TEST(Mod2Exhaustive, AlternateOutcomeAgainstTheReference) {
  auto claim = [](int n, unsigned outcome, std::vector<uint16_t> start, Mod2Rule rule = Mod2Rule::ALTERNATE) {
    return [=](Mod2Claim::Builder b) {
      b.setBoardSize(uint16_t(n)), b.setKind(Mod2Kind::EXHAUSTIVE), b.setExhaustive(Mod2Exhaustive::OUTCOME), b.setRule(rule);
      b.setOutcome(static_cast<Outcome>(outcome));
      auto s = b.initStart(unsigned(start.size()));
      for (unsigned i = 0; i < start.size(); ++i) s.set(i, start[i]);
    };
  };
  for (int n = 1; n <= 4; ++n) {
    SCOPED_TRACE(n);
    mod2ref::Game game(n, 1);
    for (uint16_t g = 0; g < n * n; ++g) {
      SCOPED_TRACE(g);
      const bool wins = game.wins(uint64_t(1) << g, 0);
      EXPECT_VERIFIED(check(claim(n, wins ? 0 : 1, {g})), std::string("the player to move ") + (wins ? "wins" : "loses") +
                                                             " the alternate-universe mod-2 game on " + board(n) +
                                                             " started with a queen on " + qcert::checker::mod2::square(unsigned(n), g));
      EXPECT_REJECTED(check(claim(n, wins ? 1 : 0, {g})));
    }
  }
  EXPECT_REJECTED(check(claim(3, 0, {})));          // no given queen
  EXPECT_REJECTED(check(claim(3, 0, {4, 0})));      // a move after it: not this claim's form
  EXPECT_REJECTED(check(claim(3, 0, {9})));         // off the board
  EXPECT_REJECTED(check(claim(3, 0, {4}, Mod2Rule::COMPLEMENTARY)));
  EXPECT_REJECTED(check(claim(7, 0, {0})));         // past 6x6
  EXPECT_REJECTED(check([&](Mod2Claim::Builder b) { claim(3, 0, {4})(b), b.setHeap(1); }));
}

TEST(Mod2Exhaustive, ComplementMap) {
  for (int n = 1; n <= 4; ++n) {
    SCOPED_TRACE(n);
    const Mod2Rule other = n % 2 ? Mod2Rule::STANDARD : Mod2Rule::ALTERNATE;
    auto claim = [&](Mod2Rule rule, Mod2Rule otherRule) {
      return check([=](Mod2Claim::Builder b) {
        b.setBoardSize(uint16_t(n)), b.setKind(Mod2Kind::EXHAUSTIVE), b.setExhaustive(Mod2Exhaustive::COMPLEMENT_MAP);
        b.setRule(rule), b.setOtherRule(otherRule);
      });
    };
    EXPECT_VERIFIED(claim(Mod2Rule::COMPLEMENTARY, other),
                    n % 2 ? "the complement map is an isomorphism between the standard and the complementary mod-2 games on " + board(n)
                          : "the complement map is an isomorphism between the alternate-universe mod-2 game started with a queen on g and the "
                            "complementary mod-2 game started from the full board less g, for every square g of " + board(n));
    EXPECT_REJECTED(claim(Mod2Rule::COMPLEMENTARY, n % 2 ? Mod2Rule::ALTERNATE : Mod2Rule::STANDARD));
    EXPECT_REJECTED(claim(Mod2Rule::STANDARD, other));
  }
}

// ---- game -------------------------------------------------------------------

struct GameClaim {
  int n = 3, rule = 0;
  std::vector<int> start;
  uint32_t heap = 0;
  bool grundy = false;
};

// The claim's true outcome and the replies of every won position reachable.
std::pair<bool, std::vector<std::array<uint64_t, 3>>> solve(const GameClaim& g) {
  mod2ref::Game mm(g.n, g.rule);
  uint64_t p = g.rule == 2 ? (uint64_t(1) << (g.n * g.n)) - 1 : 0;
  for (size_t i = 0; i < g.start.size(); ++i) p = mm.board.after(g.rule == 1 && i == 0 ? 0 : g.rule, p, g.start[i]);
  std::map<std::pair<uint64_t, uint32_t>, uint32_t> table;
  mm.replies(p, g.heap, table);
  std::vector<std::array<uint64_t, 3>> rows;
  for (auto [key, move] : table)
    if (move) rows.push_back({key.first, key.second, move});
  return {mm.wins(p, g.heap), rows};
}

Fill gameFill(const GameClaim& g, bool win, const std::vector<std::array<uint64_t, 3>>& rows) {
  return [=](Mod2Claim::Builder b) {
    b.setBoardSize(uint16_t(g.n)), b.setKind(Mod2Kind::GAME), b.setRule(static_cast<Mod2Rule>(g.rule));
    setMoves(b, {});
    auto start = b.initStart(unsigned(g.start.size()));
    for (unsigned i = 0; i < g.start.size(); ++i) start.set(i, uint16_t(g.start[i]));
    b.setHeap(g.heap), b.setOutcome(win ? Outcome::WIN : Outcome::LOSS), b.setGrundy(g.grundy);
    auto list = b.initReplies(unsigned(rows.size()));
    for (unsigned i = 0; i < rows.size(); ++i)
      list[i].setQueens(rows[i][0]), list[i].setHeap(uint32_t(rows[i][1])), list[i].setMove(uint32_t(rows[i][2]));
  };
}

TEST(Mod2Game, ThreeByThreeAgainstMinimax) {
  for (uint32_t heap = 0; heap <= 3; ++heap) {
    SCOPED_TRACE(heap);
    GameClaim g;
    g.heap = heap;
    const auto [win, rows] = solve(g);
    const std::string plus = heap ? " plus a Nim heap of " + std::to_string(heap) : "";
    EXPECT_VERIFIED(check(gameFill(g, win, rows)),
                    std::string("the player to move ") + (win ? "wins" : "loses") + " the mod-2 game on the 3x3 board" + plus);
    EXPECT_REJECTED(check(gameFill(g, !win, rows)));  // the outcome flipped
    if (!rows.empty()) {
      // The replies of the root and its children: one of them is needed.
      auto missing = rows;
      std::erase_if(missing, [](const std::array<uint64_t, 3>& r) { return std::popcount(r[0]) <= 1; });
      EXPECT_REJECTED(check(gameFill(g, win, missing)));
      if (rows.size() > 1) {
        auto unsorted = rows;
        std::swap(unsorted[0], unsorted[1]);
        EXPECT_REJECTED(check(gameFill(g, win, unsorted)));
        auto twice = rows;
        twice[1] = twice[0];
        EXPECT_REJECTED(check(gameFill(g, win, twice)));
      }
      auto bad = rows;  // every reply replaced by a move on a1 (occupied or not open somewhere)
      for (auto& r : bad) r[2] = r[0] & 1 ? 1 : 9 + 1 + 64;
      EXPECT_REJECTED(check(gameFill(g, win, bad)));
    }
  }
  // A Grundy claim: G = the least heap that makes a loss.
  GameClaim g;
  while (solve(g).first) ++g.heap;
  g.grundy = true;
  const auto [win, rows] = solve(g);
  EXPECT_VERIFIED(check(gameFill(g, false, rows)), "the Grundy value of the mod-2 game on the 3x3 board is " + std::to_string(g.heap));
  g.heap += 1;
  EXPECT_REJECTED(check(gameFill(g, false, solve(g).second)));
  g.grundy = false;
  EXPECT_REJECTED(check(gameFill(g, false, {}), nullptr));
}

TEST(Mod2Game, OtherRulesAndStarts) {
  struct Case {
    GameClaim g;
    std::string position;
  };
  const std::vector<Case> cases = {
      {{3, 0, {0, 5}, 0, false}, "mod-2 game on the 3x3 board after a1, c2"},
      {{3, 1, {4}, 0, false}, "alternate-universe mod-2 game on the 3x3 board started with a queen on b2"},
      {{4, 1, {0}, 1, false}, "alternate-universe mod-2 game on the 4x4 board started with a queen on a1"},
      {{3, 2, {}, 0, false}, "complementary mod-2 game on the 3x3 board"},
      {{4, 2, {}, 0, false}, "complementary mod-2 game on the 4x4 board"},
      {{3, 2, {4}, 2, false}, "complementary mod-2 game on the 3x3 board after removing b2"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.position);
    const auto [win, rows] = solve(c.g);
    const std::string plus = c.g.heap ? " plus a Nim heap of " + std::to_string(c.g.heap) : "";
    EXPECT_VERIFIED(check(gameFill(c.g, win, rows)), std::string("the player to move ") + (win ? "wins" : "loses") + " the " + c.position + plus);
    EXPECT_REJECTED(check(gameFill(c.g, !win, rows)));
  }
  // Starts that cannot be played: b1 after a1 (attacked by 1), a1 twice, the
  // alternate game without its queen, a removal of an absent queen, off the board.
  EXPECT_REJECTED(check(gameFill({3, 0, {0, 1}, 0, false}, true, {})));
  EXPECT_REJECTED(check(gameFill({3, 0, {0, 0}, 0, false}, true, {})));
  EXPECT_REJECTED(check(gameFill({3, 1, {}, 0, false}, true, {})));
  EXPECT_REJECTED(check(gameFill({3, 2, {4, 4}, 0, false}, true, {})));
  EXPECT_REJECTED(check(gameFill({3, 0, {9}, 0, false}, true, {})));
  EXPECT_REJECTED(check(gameFill({9, 0, {}, 0, false}, true, {})));
  EXPECT_REJECTED(check(gameFill({3, 0, {}, 65, false}, true, {})));
  EXPECT_REJECTED(check(gameFill({3, 0, {}, 1, true}, true, {})));  // Grundy with outcome win
}

// The searches look at the time flag (--time-limit) as they go: raised, each
// stops with NotChecked (exit 2), never a verdict.
TEST(Mod2Limits, ARaisedTimeFlagStopsEverySearch) {
  auto exhaustive = [](int n, Mod2Exhaustive what, uint32_t count) {
    return [=](Mod2Claim::Builder b) {
      b.setBoardSize(uint16_t(n)), b.setKind(Mod2Kind::EXHAUSTIVE), b.setExhaustive(what), b.setCount(count);
      if (what == Mod2Exhaustive::PLAY_COUNT) setList(b.initTotals(1), {1});
      if (what == Mod2Exhaustive::COMPLEMENT_MAP) b.setRule(Mod2Rule::COMPLEMENTARY), b.setOtherRule(Mod2Rule::ALTERNATE);
      if (what == Mod2Exhaustive::FEWEST_LOCKING) {
        const std::vector<uint16_t> witness = Ref(n).lockingPlay(int(count));
        auto m = b.initMoves(unsigned(witness.size()));
        for (unsigned i = 0; i < witness.size(); ++i) m.set(i, witness[i]);
      }
    };
  };
  GameClaim g;
  g.heap = 2;
  const auto [win, rows] = solve(g);
  const std::vector<Fill> fills = {exhaustive(5, Mod2Exhaustive::MOST_QUEENS, 25), exhaustive(6, Mod2Exhaustive::FEWEST_LOCKING, 5),
                                   exhaustive(4, Mod2Exhaustive::COMPLEMENT_MAP, 0), exhaustive(5, Mod2Exhaustive::PLAY_COUNT, 0),
                                   exhaustive(5, Mod2Exhaustive::OUTCOME, 0),
                                   gameFill(g, win, rows), gameFill(g, !win, rows)};
  for (size_t i = 0; i < fills.size(); ++i) {
    SCOPED_TRACE(i);
    const std::string path = writeCertificate(fills[i]);
    qcert::checker::MappedFile file(path);
    const qcert::checker::Certificate cert = qcert::checker::readCertificate(file);
    ASSERT_TRUE(cert.isMod2);
    qcert::checker::limits::gTimeUp = true;
    EXPECT_THROW(qcert::checker::verifyMod2Certificate(cert, nullptr), qcert::checker::NotChecked);
    qcert::checker::limits::setTimeLimit(0);  // lowers the flag
    std::remove(path.c_str());
  }
}

}  // namespace
