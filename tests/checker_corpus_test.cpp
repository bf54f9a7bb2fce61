// The checker against valid certificates from the prover and a corpus of
// mutants: raw corruption (the seal must catch it) and resealed semantic
// mutants (the replay must catch them).  Every verdict is judged by
//   - the contract: exit 0 with "VERIFIED: ..." or exit 1 with
//     "REJECTED: ...", never another status, never a signal or a hang;
//   - soundness: whenever the checker verifies, the claim it read is true
//     (by the prover's search, itself differential-tested against a naive
//     solver) and the header is well-formed;
//   - the test's own reference replay of docs/certificate-format.md, which
//     decides each semantic mutant except a few implementation-defined ones.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <functional>
#include <map>
#include <random>

#include "tests/certfile.hpp"
#include "prover/geometry.hpp"
#include "prover/game/prove.hpp"
#include "tests/support.hpp"

using namespace qtest;

namespace {

struct BaseSpec {
  std::string name;
  int n;
  std::vector<std::string> queens;
  uint32_t heap;
  bool grundy;
  int cutoff;
  bool mirror;
};

const std::vector<BaseSpec> kBases = {
    {"n5_win", 5, {}, 0, false, 4, true},
    {"n6_win", 6, {}, 0, false, 4, true},
    {"n8_win", 8, {}, 0, false, 6, true},
    {"n8_win_nomirror", 8, {}, 0, false, 4, false},
    {"n10_loss", 10, {}, 0, false, 6, true},
    {"n7_grundy_after_a1", 7, {"a1"}, 0, true, 4, true},
    {"n9_grundy", 9, {}, 0, true, 6, true},
    {"n9_win_cutoff4", 9, {}, 0, false, 4, true},
    {"n5_heap3_loss", 5, {}, 3, false, 2, true},
    {"n6_heap2_win", 6, {}, 2, false, 3, false},
    {"n7_b1_heap1", 7, {"b1"}, 1, false, 4, true},
    {"n4_grundy_cutoff0", 4, {}, 0, true, 0, true},
};

struct Base {
  BaseSpec spec;
  std::string path;
  std::vector<uint8_t> bytes;
  CertModel model;
  std::vector<uint32_t> tokens;
  std::vector<TokenSite> sites;
};

qcert::ProveRequest requestFor(const BaseSpec& s, const std::string& out) {
  const qcert::Geometry geo = qcert::queensGeometry(s.n);
  qcert::ProveRequest req;
  req.n = s.n;
  for (const auto& q : s.queens) req.queens.push_back(*geo.parseSquare(q));
  req.heap = s.heap;
  req.grundy = s.grundy;
  req.cutoff = s.cutoff;
  req.mirrorDefault = s.mirror;
  req.ttMegabytes = 16;
  req.zstdLevel = 3;
  req.out = out;
  return req;
}

size_t enc1(uint32_t v) {
  std::vector<uint8_t> b;
  appendLeb128(b, v);
  return b.size();
}

enum class Expect { Verify, Reject, Spec, Either };

const char* expectName(Expect e) {
  switch (e) {
    case Expect::Verify: return "must verify";
    case Expect::Reject: return "must reject";
    case Expect::Spec: return "as the reference replay decides";
    default: return "either";
  }
}

struct Verdict {
  RunResult run;
  bool verified = false;
};

// Runs the checker and enforces the output contract.
Verdict check(const std::string& path) {
  Verdict v;
  v.run = runProgram({kChecker, "--quiet", path}, 20);
  const RunResult& r = v.run;
  EXPECT_FALSE(r.timedOut) << r.describe();
  EXPECT_FALSE(r.signaled) << r.describe();
  if (r.exitCode == 0) {
    EXPECT_TRUE(startsWith(r.out, "VERIFIED: ")) << r.describe();
    v.verified = true;
  } else {
    EXPECT_EQ(r.exitCode, 1) << r.describe();
    EXPECT_TRUE(startsWith(r.out, "REJECTED: ")) << r.describe();
  }
  return v;
}

class CheckerCorpus : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir;
    bases_ = new std::vector<Base>;
    for (const auto& spec : kBases) {
      Base b;
      b.spec = spec;
      b.path = dir_->file(spec.name + ".qc");
      qcert::prove(requestFor(spec, b.path));
      b.bytes = readFile(b.path);
      b.model = parseCertificate(b.bytes);
      b.tokens = allTokens(b.model);
      const ReplayVerdict rv = referenceReplay(b.model);
      b.sites = rv.sites;
      bases_->push_back(std::move(b));
    }
  }
  static void TearDownTestSuite() {
    delete bases_;
    delete dir_;
    bases_ = nullptr;
    dir_ = nullptr;
  }
  static TempDir* dir_;
  static std::vector<Base>* bases_;
};
TempDir* CheckerCorpus::dir_ = nullptr;
std::vector<Base>* CheckerCorpus::bases_ = nullptr;

TEST_F(CheckerCorpus, ProverCertificatesVerify) {
  for (const Base& b : *bases_) {
    SCOPED_TRACE(b.spec.name);
    const ReplayVerdict rv = referenceReplay(b.model);
    EXPECT_TRUE(rv.ok) << "reference replay: " << rv.why;
    EXPECT_EQ(rv.sites.size(), b.tokens.size());
    EXPECT_FALSE(b.tokens.empty()) << "choose a smaller cutoff so that the certificate has tokens";
    EXPECT_TRUE(claimIsTrue(b.model.header));
    EXPECT_EQ(serialiseCertificate(b.model), b.bytes) << "model round trip";
    const Verdict v = check(b.path);
    EXPECT_TRUE(v.verified) << v.run.describe();
    EXPECT_EQ(b.model.header.kind, b.spec.grundy ? 1 : 0);
    if (b.spec.queens.empty() && !b.spec.grundy && b.spec.heap == 0) {
      EXPECT_EQ(firstLine(v.run.out), std::string("VERIFIED: ") + (b.model.header.outcome == 0 ? "first" : "second") +
                                           " player wins on the empty " + std::to_string(b.spec.n) + "x" +
                                           std::to_string(b.spec.n) + " board (queens game)");
    }
  }
  // The claims themselves: 10x10 is a second-player win, 9x9 has Grundy value 1.
  EXPECT_EQ((*bases_)[4].model.header.outcome, 1);
  EXPECT_EQ((*bases_)[6].model.header.heap, 1u);
}

// Raw corruption: byte flips, truncation, appended bytes.  The seal (or the
// framing) must reject every one of them.
TEST_F(CheckerCorpus, RawCorruptionIsRejected) {
  std::mt19937_64 rng(testSeed(0xc0ffee));
  const auto start = std::chrono::steady_clock::now();
  int runs = 0;
  for (const Base& b : *bases_) {
    const auto& orig = b.bytes;
    std::vector<std::pair<std::string, std::vector<uint8_t>>> mutants;
    for (int i = 0; i < 10; ++i) {
      auto m = orig;
      const size_t pos = std::uniform_int_distribution<size_t>(0, m.size() - 1)(rng);
      const uint8_t x = uint8_t(std::uniform_int_distribution<int>(1, 255)(rng));
      m[pos] ^= x;
      mutants.emplace_back("flip byte " + std::to_string(pos) + " ^ " + std::to_string(x), m);
    }
    // Single-bit flips in the last 40 bytes (the Seal message).
    for (int i = 0; i < 4; ++i) {
      auto m = orig;
      const size_t pos = m.size() - 1 - std::uniform_int_distribution<size_t>(0, 39)(rng);
      m[pos] ^= uint8_t(1u << (rng() % 8));
      mutants.emplace_back("flip a bit of seal byte " + std::to_string(pos), m);
    }
    for (int i = 0; i < 5; ++i) {
      const size_t len = std::uniform_int_distribution<size_t>(1, orig.size() - 1)(rng);
      mutants.emplace_back("truncate to " + std::to_string(len), std::vector<uint8_t>(orig.begin(), orig.begin() + len));
    }
    mutants.emplace_back("drop the last word", std::vector<uint8_t>(orig.begin(), orig.end() - 8));
    for (size_t extra : {1, 8, 40}) {
      auto m = orig;
      for (size_t i = 0; i < extra; ++i) m.push_back(uint8_t(rng()));
      mutants.emplace_back("append " + std::to_string(extra) + " random bytes", m);
    }
    {
      auto m = orig;
      m.insert(m.end(), 8, 0);
      mutants.emplace_back("append a zero word", m);
      m = orig;
      m.insert(m.end(), orig.end() - 40, orig.end());
      mutants.emplace_back("append a copy of the seal", m);
      m = orig;
      m.insert(m.end(), orig.begin(), orig.end());
      mutants.emplace_back("append a copy of the whole file", m);
    }
    for (const auto& [what, bytes] : mutants) {
      if (bytes == orig) continue;
      SCOPED_TRACE(b.spec.name + ": " + what);
      const std::string path = dir_->file("raw.qc");
      writeFile(path, bytes);
      const Verdict v = check(path);
      EXPECT_FALSE(v.verified) << v.run.describe();
      ++runs;
    }
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("%d raw mutants in %.2f s\n", runs, secs);
  EXPECT_GT(runs, 200);
}

struct Mutant {
  std::string what;
  CertModel model;
  Expect expect;
  const std::vector<uint8_t>* sealOverride = nullptr;
};

// Builds the semantic mutants of one base certificate.
std::vector<Mutant> semanticMutants(const Base& b, std::mt19937_64& rng) {
  std::vector<Mutant> out;
  const CertModel& B = b.model;
  const HeaderModel& H = B.header;
  const int n = H.boardSize;
  auto add = [&](std::string what, Expect e, const std::function<void(CertModel&)>& edit) {
    CertModel m = B;
    edit(m);
    out.push_back({std::move(what), std::move(m), e});
  };
  auto withTokens = [&](std::string what, Expect e, std::vector<uint32_t> t) {
    add(std::move(what), e, [&](CertModel& m) { setTokens(m, t); });
  };
  const auto& T = b.tokens;
  const auto& S = b.sites;
  auto randomSite = [&]() { return std::uniform_int_distribution<size_t>(0, S.size() - 1)(rng); };

  // Positive controls.
  add("unchanged, re-serialised", Expect::Verify, [](CertModel&) {});
  add("producer text changed", Expect::Verify, [](CertModel& m) { m.header.producer = "someone else entirely"; });
  for (size_t per : {1, 2, 5}) add("re-chunked, " + std::to_string(per) + " tokens per chunk", Expect::Verify, [&](CertModel& m) { setTokens(m, T, per); });

  // Token replaced by another legal move that loses (the opponent wins after it).
  std::vector<size_t> order(S.size());
  for (size_t i = 0; i < S.size(); ++i) order[i] = i;
  std::shuffle(order.begin(), order.end(), rng);
  int losing = 0;
  for (size_t i : order) {
    if (losing >= 6) break;
    const TokenSite& s = S[i];
    const uint32_t m = uint32_t(s.live.size());
    std::vector<uint32_t> cands;
    for (uint32_t t = 1; t <= m + s.heap; ++t) cands.push_back(t);
    std::shuffle(cands.begin(), cands.end(), rng);
    int tries = 0;
    for (uint32_t t : cands) {
      if (++tries > 12) break;
      const bool board = t <= m;
      if (board && int(s.live[t - 1]) == s.move) continue;
      if (!board && s.move < 0 && t - m - 1 == s.heapTo) continue;
      bool opponentWins;
      if (board) {
        std::vector<int> after;
        const int v = s.live[t - 1];
        for (int x : s.live)
          if (x != v && !queensAttack(n, x, v)) after.push_back(x);
        opponentWins = positionWins(n, after, s.heap);
      } else {
        opponentWins = positionWins(n, s.live, t - m - 1);
      }
      if (!opponentWins) continue;
      auto t2 = T;
      t2[i] = t;
      withTokens("token " + std::to_string(i) + " (" + std::to_string(T[i]) + ") -> losing move " + std::to_string(t), Expect::Reject, t2);
      ++losing;
      break;
    }
  }

  // Token replaced by an equivalent one (explicit <-> default reply).
  int equivalent = 0;
  for (size_t i : order) {
    if (equivalent >= 3) break;
    const TokenSite& s = S[i];
    if (s.move < 0) continue;
    auto t2 = T;
    if (s.token == 0) {
      t2[i] = uint32_t(std::find(s.live.begin(), s.live.end(), s.move) - s.live.begin()) + 1;
    } else if (H.defaultReply == 1 && s.lastMove >= 0 && s.move == n * n - 1 - s.lastMove) {
      t2[i] = 0;
    } else {
      continue;
    }
    withTokens("token " + std::to_string(i) + " -> equivalent " + std::to_string(t2[i]), Expect::Verify, t2);
    ++equivalent;
  }

  // Illegal tokens.
  {
    const size_t i = randomSite();
    const TokenSite& s = S[i];
    auto t2 = T;
    t2[i] = uint32_t(s.live.size()) + s.heap + 1;
    withTokens("token " + std::to_string(i) + " -> m+h+1", Expect::Reject, t2);
    t2[i] = 0xffffffffu;
    withTokens("token " + std::to_string(i) + " -> 2^32-1", Expect::Reject, t2);
  }
  for (size_t i : order) {  // token 0 where the default rule cannot apply
    const TokenSite& s = S[i];
    if (s.token == 0) continue;
    const bool mirrorOk = H.defaultReply == 1 && s.lastMove >= 0 &&
                          std::find(s.live.begin(), s.live.end(), n * n - 1 - s.lastMove) != s.live.end();
    if (mirrorOk) continue;
    auto t2 = T;
    t2[i] = 0;
    withTokens("token " + std::to_string(i) + " -> 0 where no default reply applies", Expect::Reject, t2);
    break;
  }

  // Missing, extra, moved tokens.
  {
    auto t2 = T;
    t2.pop_back();
    withTokens("last token removed", Expect::Reject, t2);
    t2 = T;
    t2.push_back(1);
    withTokens("token 1 appended", Expect::Reject, t2);
    t2 = T;
    t2.push_back(0);
    withTokens("token 0 appended", Expect::Reject, t2);
    withTokens("no tokens at all", Expect::Reject, {});
    const size_t i = randomSite();
    t2 = T;
    t2.erase(t2.begin() + long(i));
    withTokens("token " + std::to_string(i) + " removed", Expect::Spec, t2);
    t2 = T;
    t2.insert(t2.begin() + long(i), uint32_t(rng() % 5));
    withTokens("token inserted at " + std::to_string(i), Expect::Spec, t2);
    if (T.size() >= 2) {
      t2 = T;
      std::reverse(t2.begin(), t2.end());
      withTokens("tokens reversed", t2 == T ? Expect::Verify : Expect::Spec, t2);
    }
  }

  // Header: board size, claim, heap, kind, version, cutoff, counts, enums.
  for (int nn : {0, 23, 255, 65535}) add("boardSize " + std::to_string(nn), Expect::Reject, [&](CertModel& m) { m.header.boardSize = uint16_t(nn); });
  if (n > 1) add("boardSize n-1", Expect::Spec, [&](CertModel& m) { m.header.boardSize = uint16_t(n - 1); });
  if (n < 11) add("boardSize n+1", Expect::Spec, [&](CertModel& m) { m.header.boardSize = uint16_t(n + 1); });
  if (H.kind == 1) {
    add("grundy claim with outcome win", Expect::Reject, [](CertModel& m) { m.header.outcome = 0; });
    add("grundy -> outcome claim, outcome flipped to win", Expect::Reject, [](CertModel& m) {
      m.header.kind = 0;
      m.header.outcome = 0;
    });
    add("grundy -> outcome claim (same statement)", Expect::Spec, [](CertModel& m) { m.header.kind = 0; });
  } else {
    add("outcome flipped", Expect::Reject, [](CertModel& m) { m.header.outcome ^= 1; });
    add("outcome -> grundy claim", H.outcome == 0 ? Expect::Reject : Expect::Spec, [](CertModel& m) { m.header.kind = 1; });
  }
  add("heap + 1", Expect::Spec, [](CertModel& m) { m.header.heap += 1; });
  if (H.heap > 0) add("heap - 1", Expect::Spec, [](CertModel& m) { m.header.heap -= 1; });
  add("heap + 64", Expect::Spec, [](CertModel& m) { m.header.heap += 64; });
  add("heap 1000001", Expect::Either, [](CertModel& m) { m.header.heap = 1000001; });
  add("heap 2^32-1", Expect::Either, [](CertModel& m) { m.header.heap = 0xffffffffu; });
  for (uint32_t v : {0u, 2u, 0xffffffffu}) add("formatVersion " + std::to_string(v), Expect::Reject, [&](CertModel& m) { m.header.formatVersion = v; });
  for (int c : {0, int(H.cutoff) - 1, int(H.cutoff) + 1, 32})
    if (c >= 0 && c != H.cutoff) add("cutoff " + std::to_string(c), Expect::Spec, [&](CertModel& m) { m.header.cutoff = uint16_t(c); });
  for (int c : {33, 65535}) add("cutoff " + std::to_string(c), Expect::Reject, [&](CertModel& m) { m.header.cutoff = uint16_t(c); });
  add("replyCount + 1", Expect::Reject, [](CertModel& m) { m.header.replyCount += 1; });
  add("replyCount - 1", Expect::Reject, [](CertModel& m) { m.header.replyCount -= 1; });
  add("replyCount + 2^40", Expect::Reject, [](CertModel& m) { m.header.replyCount += uint64_t(1) << 40; });
  add("chunkCount + 1", Expect::Reject, [](CertModel& m) { m.header.chunkCount += 1; });
  add("chunkCount - 1", Expect::Reject, [](CertModel& m) { m.header.chunkCount -= 1; });
  add("ruleset 1", Expect::Reject, [](CertModel& m) { m.header.ruleset = 1; });
  add("outcome enum 2", Expect::Reject, [](CertModel& m) { m.header.outcome = 2; });
  add("kind enum 2", Expect::Reject, [](CertModel& m) { m.header.kind = 2; });
  add("defaultReply enum 6", Expect::Reject, [](CertModel& m) { m.header.defaultReply = 6; });
  add("defaultReply flipped", Expect::Spec, [](CertModel& m) { m.header.defaultReply ^= 1; });

  // Queens.
  if (!H.queens.empty()) {
    add("first queen placed twice", Expect::Reject, [](CertModel& m) { m.header.queens.push_back(m.header.queens[0]); });
    add("last queen removed", Expect::Spec, [](CertModel& m) { m.header.queens.pop_back(); });
  }
  add("queen off the board (n*n)", Expect::Reject, [&](CertModel& m) { m.header.queens.push_back(uint16_t(n * n)); });
  add("queen 65535", Expect::Reject, [](CertModel& m) { m.header.queens.push_back(65535); });
  if (H.outcome == 0 && !S.empty() && S[0].lastMove < 0 && S[0].heap == H.heap) {
    // Win claims: the first token is consumed at the root, so S[0].live is
    // the root's live set.  A queen on one of those squares changes the claim.
    const auto& live = S[0].live;
    const uint16_t q = uint16_t(live[rng() % live.size()]);
    add("extra queen on a live square", Expect::Spec, [&](CertModel& m) { m.header.queens.push_back(q); });
  }

  // Chunk framing.
  add("chunk rawSize + 1", Expect::Reject, [](CertModel& m) { m.chunks[0].rawSize += 1; });
  add("chunk rawSize - 1", Expect::Reject, [](CertModel& m) { m.chunks[0].rawSize -= 1; });
  add("chunk rawSize 0", Expect::Reject, [](CertModel& m) { m.chunks[0].rawSize = 0; });
  add("chunk rawSize 2^32-1", Expect::Reject, [](CertModel& m) { m.chunks[0].rawSize = 0xffffffffu; });
  add("chunk tokenCount + 1", Expect::Reject, [](CertModel& m) { m.chunks[0].tokenCount += 1; });
  add("chunk tokenCount - 1", Expect::Reject, [](CertModel& m) { m.chunks[0].tokenCount -= 1; });
  add("chunk and header counts + 1", Expect::Reject, [](CertModel& m) {
    m.chunks[0].tokenCount += 1;
    m.header.replyCount += 1;
  });
  add("zstd frame truncated", Expect::Reject, [](CertModel& m) { m.chunks[0].frame.pop_back(); });
  add("zstd frame emptied", Expect::Reject, [](CertModel& m) { m.chunks[0].frame.clear(); });
  add("zstd frame with a trailing byte", Expect::Either, [](CertModel& m) { m.chunks[0].frame.push_back(0); });
  add("zstd frame byte flipped", Expect::Either, [&](CertModel& m) {  // may still decode (e.g. in a literal)
    auto& f = m.chunks[0].frame;
    f[rng() % f.size()] ^= 0x10;
  });
  auto rawEdit = [&](std::string what, Expect e, const std::function<void(std::vector<uint8_t>&)>& edit, int tokenDelta) {
    add(std::move(what), e, [&](CertModel& m) {
      std::vector<uint8_t> raw;
      for (uint32_t t : T) appendLeb128(raw, t);
      edit(raw);
      m.chunks.resize(1);
      m.chunks[0].rawSize = uint32_t(raw.size());
      m.chunks[0].frame = zstdCompress(raw);
      m.chunks[0].tokenCount = T.size() + tokenDelta;
      m.header.chunkCount = 1;
      m.header.replyCount = T.size() + tokenDelta;
    });
  };
  rawEdit("token bytes end inside a token", Expect::Reject, [](std::vector<uint8_t>& r) { r.back() |= 0x80; }, 0);
  rawEdit("first token as 6-byte LEB128", Expect::Reject, [&](std::vector<uint8_t>& r) {
    std::vector<uint8_t> six = {uint8_t(0x80 | (T[0] & 0x7f)), uint8_t(0x80 | ((T[0] >> 7) & 0x7f)), 0x80, 0x80, 0x80, 0x00};
    r.erase(r.begin(), r.begin() + long(enc1(T[0])));
    r.insert(r.begin(), six.begin(), six.end());
  }, 0);
  rawEdit("first token as non-minimal 2-byte LEB128", Expect::Either, [&](std::vector<uint8_t>& r) {
    if (T[0] >= 128) return;
    r[0] |= 0x80;
    r.insert(r.begin() + 1, 0x00);
  }, 0);
  add("extra empty chunk", Expect::Either, [&](CertModel& m) {
    ChunkModel c;
    c.frame = zstdCompress({});
    m.chunks.push_back(c);
    m.header.chunkCount += 1;
  });
  add("two zstd frames in one chunk", Expect::Either, [&](CertModel& m) {
    std::vector<uint8_t> raw;
    for (uint32_t t : T) appendLeb128(raw, t);
    const size_t half = raw.size() / 2;
    auto a = zstdCompress(std::vector<uint8_t>(raw.begin(), raw.begin() + long(half)));
    auto c = zstdCompress(std::vector<uint8_t>(raw.begin() + long(half), raw.end()));
    a.insert(a.end(), c.begin(), c.end());
    m.chunks.resize(1);
    m.chunks[0] = {T.size(), uint32_t(raw.size()), a};
    m.header.chunkCount = 1;
    m.header.replyCount = T.size();
  });
  return out;
}

// About 900 checker runs: ~20 s in a Release build when it was written, 34 s
// alone and 58-72 s beside the rest of `ctest -j2` on the 2-core CI machine
// (2026-11-27: the checker now also links libcrypto and capnp-json, and each
// run is a process start), so the bound is 90 s: it is there to catch a
// checker that became many times slower, not a busy machine.  Under
// AddressSanitizer (make test-sanitize) every run and the test's own replays
// cost several times that (140 s measured on a loaded 2-core machine): a
// looser bound.
#if defined(__SANITIZE_ADDRESS__)
#define QCERT_TEST_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define QCERT_TEST_UNDER_ASAN 1
#endif
#endif
#ifdef QCERT_TEST_UNDER_ASAN
constexpr double kSemanticMutantsSeconds = 300;
#else
constexpr double kSemanticMutantsSeconds = 90;
#endif

TEST_F(CheckerCorpus, SemanticMutantsAreJudgedCorrectly) {
  std::mt19937_64 rng(testSeed(0x5e3a17));
  const auto start = std::chrono::steady_clock::now();
  std::map<std::string, int> tally;
  static const std::vector<uint8_t> shortSeal(15, 0), longSeal(17, 0), noSeal;
  for (const Base& b : *bases_) {
    ASSERT_FALSE(b.tokens.empty());
    auto mutants = semanticMutants(b, rng);
    for (const auto* seal : {&shortSeal, &longSeal, &noSeal}) {
      Mutant m{"seal of " + std::to_string(seal->size()) + " bytes", b.model, Expect::Reject, seal};
      mutants.push_back(std::move(m));
    }
    for (const Mutant& m : mutants) {
      SCOPED_TRACE(b.spec.name + ": " + m.what + " [" + expectName(m.expect) + "]");
      const std::vector<uint8_t> bytes = serialiseCertificate(m.model, m.sealOverride);
      const std::string path = dir_->file("semantic.qc");
      writeFile(path, bytes);
      const Verdict v = check(path);
      // The reference replay checks the seal's length only (serialisation
      // computed the value); give it what the file holds.
      CertModel parsed = m.model;
      parsed.seal = m.sealOverride ? *m.sealOverride : std::vector<uint8_t>(16, 0);
      const ReplayVerdict ref = referenceReplay(parsed);
      switch (m.expect) {
        case Expect::Verify:
          EXPECT_TRUE(v.verified) << v.run.describe();
          EXPECT_TRUE(ref.ok) << "test bug: reference replay rejects a mutant meant to verify: " << ref.why;
          break;
        case Expect::Reject:
          EXPECT_FALSE(v.verified) << v.run.describe();
          EXPECT_FALSE(ref.ok) << "test bug: reference replay accepts a mutant meant to be rejected";
          break;
        case Expect::Spec:
          EXPECT_EQ(v.verified, ref.ok) << "reference replay says " << (ref.ok ? "valid" : "invalid: " + ref.why) << "\n"
                                        << v.run.describe();
          break;
        case Expect::Either:
          break;
      }
      if (v.verified) {
        // Soundness: what verifies is well-formed and true.
        EXPECT_EQ(m.model.header.formatVersion, 1u);
        EXPECT_LE(m.model.header.cutoff, 32);
        EXPECT_TRUE(claimIsTrue(m.model.header)) << "the checker verified a FALSE claim\n" << v.run.describe();
      }
      if (std::getenv("QCERT_TEST_VERBOSE"))
        std::printf("%s: %s [%s] -> %s\n", b.spec.name.c_str(), m.what.c_str(), expectName(m.expect), firstLine(v.run.out).c_str());
      ++tally[v.verified ? "verified" : "rejected"];
      ++tally[expectName(m.expect)];
    }
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  int total = tally["verified"] + tally["rejected"];
  std::printf("%d semantic mutants in %.2f s:", total, secs);
  for (const auto& [k, c] : tally) std::printf(" %s=%d", k.c_str(), c);
  std::printf("\n");
  EXPECT_GT(total, 300);
  EXPECT_LT(secs, kSemanticMutantsSeconds);
}

// Certificates for random small claims (random queens, heaps, cut-offs,
// default rule on or off) all verify, and the reference replay agrees.
TEST_F(CheckerCorpus, RandomSmallClaimsVerify) {
  std::mt19937_64 rng(testSeed(0xabcdef));
  for (int i = 0; i < 40; ++i) {
    const int n = std::uniform_int_distribution<int>(1, 7)(rng);
    const auto pos = randomPosition(n, 2, rng);
    qcert::ProveRequest req;
    req.n = n;
    req.queens = pos.queens;
    req.grundy = rng() % 3 == 0;
    req.heap = req.grundy ? 0 : uint32_t(rng() % 4);
    req.cutoff = std::uniform_int_distribution<int>(0, 6)(rng);
    req.mirrorDefault = rng() % 2;
    req.search.smallLimit = int(rng() % 3) * 10;
    req.ttMegabytes = 4;
    req.zstdLevel = 1;
    req.out = dir_->file("random.qc");
    const auto res = qcert::prove(req);
    SCOPED_TRACE(qcert::describeClaim(req, res) + ", cutoff " + std::to_string(req.cutoff));
    const CertModel m = parseCertificate(readFile(req.out));
    const ReplayVerdict ref = referenceReplay(m);
    EXPECT_TRUE(ref.ok) << ref.why;
    const Verdict v = check(req.out);
    EXPECT_TRUE(v.verified) << v.run.describe();
  }
}

// The mirror strategy end to end: `prover prove --n N --out F` (defaults:
// half-turn default reply, cut-off 20) for odd N, and with --cutoff 0 for the
// small ones so that every position goes through tokens.
TEST_F(CheckerCorpus, MirrorCertificatesFromTheProverBinaryVerify) {
  struct Case {
    int n;
    std::vector<std::string> extra;
  };
  const std::vector<Case> cases = {{3, {}}, {5, {}}, {7, {}}, {9, {}}, {11, {}},
                                   {3, {"--cutoff", "0"}}, {5, {"--cutoff", "0"}}, {7, {"--cutoff", "0"}},
                                   {9, {"--cutoff", "2"}}};
  for (const auto& c : cases) {
    const std::string out = dir_->file("mirror" + std::to_string(c.n) + ".qc");
    std::vector<std::string> args = {kProver, "prove", "--n", std::to_string(c.n), "--out", out, "--tt-mb", "32", "-q"};
    args.insert(args.end(), c.extra.begin(), c.extra.end());
    SCOPED_TRACE("n=" + std::to_string(c.n) + (c.extra.empty() ? "" : " " + c.extra[0] + " " + c.extra[1]));
    const RunResult p = runProgram(args, 60);
    ASSERT_EQ(p.exitCode, 0) << p.describe();
    const std::string board = std::to_string(c.n) + "x" + std::to_string(c.n);
    const std::string centre = std::string(1, char('a' + (c.n - 1) / 2)) + std::to_string((c.n + 1) / 2);
    EXPECT_EQ(p.out, "RESULT: first player wins on the empty " + board + " board, e.g. by " + centre + "\n");
    const CertModel m = parseCertificate(readFile(out));
    EXPECT_EQ(m.header.defaultReply, 1);
    const ReplayVerdict ref = referenceReplay(m);
    EXPECT_TRUE(ref.ok) << ref.why;
    if (c.n >= 9 || (c.n >= 5 && !c.extra.empty())) {  // the proof really uses the default reply
      int defaults = 0;
      for (const auto& s : ref.sites) defaults += s.token == 0;
      EXPECT_GT(defaults, 0);
    }
    const Verdict v = check(out);
    EXPECT_TRUE(v.verified) << v.run.describe();
    EXPECT_EQ(firstLine(v.run.out), "VERIFIED: first player wins on the empty " + board + " board (queens game)");
  }
}

}  // namespace
