// Integer-width edges: LEB128 tokens of 1..5 bytes through the prover's
// CertificateWriter, chunk boundaries, and the checker on multi-byte tokens.
#include <gtest/gtest.h>

#include <random>

#include "tests/certfile.hpp"
#include "prover/certificate.hpp"
#include "prover/graph.hpp"
#include "prover/prove.hpp"
#include "prover/proof.hpp"
#include "prover/search.hpp"
#include "tests/support.hpp"
#include "prover/tt.hpp"

using namespace qtest;

namespace {

std::vector<uint8_t> enc(uint64_t v) {
  std::vector<uint8_t> out;
  appendLeb128(out, v);
  return out;
}

const std::vector<uint32_t> kEdges = {0,        1,         127,        128,        129,        255,       256,
                                      16383,    16384,     16385,      (1u << 21) - 1, 1u << 21, (1u << 28) - 1,
                                      1u << 28, 0x7fffffffu, 0x80000000u, 0xfffffffeu, 0xffffffffu};

TEST(Leb128, KnownEncodings) {
  EXPECT_EQ(enc(0), (std::vector<uint8_t>{0x00}));
  EXPECT_EQ(enc(127), (std::vector<uint8_t>{0x7f}));
  EXPECT_EQ(enc(128), (std::vector<uint8_t>{0x80, 0x01}));
  EXPECT_EQ(enc(300), (std::vector<uint8_t>{0xac, 0x02}));
  EXPECT_EQ(enc(16383), (std::vector<uint8_t>{0xff, 0x7f}));
  EXPECT_EQ(enc(16384), (std::vector<uint8_t>{0x80, 0x80, 0x01}));
  EXPECT_EQ(enc((1u << 21) - 1), (std::vector<uint8_t>{0xff, 0xff, 0x7f}));
  EXPECT_EQ(enc(1u << 21), (std::vector<uint8_t>{0x80, 0x80, 0x80, 0x01}));
  EXPECT_EQ(enc(1u << 28), (std::vector<uint8_t>{0x80, 0x80, 0x80, 0x80, 0x01}));
  EXPECT_EQ(enc(0xffffffffu), (std::vector<uint8_t>{0xff, 0xff, 0xff, 0xff, 0x0f}));
}

TEST(Leb128, DecoderLimits) {
  for (uint32_t v : kEdges) EXPECT_EQ(decodeLeb128(enc(v)), std::vector<uint32_t>{v});
  EXPECT_FALSE(decodeLeb128({0x80}));                                // truncated
  EXPECT_FALSE(decodeLeb128({0xff, 0xff, 0xff, 0xff, 0x1f}));        // 2^33-1: above 32 bits
  EXPECT_FALSE(decodeLeb128({0x80, 0x80, 0x80, 0x80, 0x80, 0x00}));  // 6 bytes
  EXPECT_EQ(decodeLeb128({0x80, 0x00}), std::vector<uint32_t>{0});   // non-minimal but 2 bytes
}

// Tokens written through the prover's writer come back unchanged; with a
// tiny chunk size the stream is split into many chunks and no token crosses
// a chunk boundary.
TEST(Leb128, CertificateWriterRoundTrip) {
  TempDir dir;
  std::mt19937_64 rng(testSeed(0x1eb128));
  std::vector<uint32_t> tokens = kEdges;
  for (int i = 0; i < 500; ++i) {
    const int bits = std::uniform_int_distribution<int>(0, 32)(rng);
    tokens.push_back(bits == 0 ? 0 : uint32_t(rng() >> (64 - bits)));
  }
  for (size_t chunkBytes : {size_t{1}, size_t{7}, size_t{64}, size_t{1} << 20}) {
    SCOPED_TRACE("chunkBytes=" + std::to_string(chunkBytes));
    const std::string path = dir.file("w.qc");
    qcert::ClaimSpec claim{9, {40}, 7, true, false, {}, qcert::Mirror::halfTurn, false};
    {
      qcert::CertificateWriter w(path, claim, 5, true, "leb128 test", 3, chunkBytes);
      for (uint32_t t : tokens) w.reply(t);
      const auto sum = w.finish();
      EXPECT_EQ(sum.tokens, tokens.size());
    }
    const auto bytes = readFile(path);
    const CertModel m = parseCertificate(bytes);
    EXPECT_EQ(m.header.formatVersion, 1u);
    EXPECT_EQ(m.header.boardSize, 9);
    EXPECT_EQ(m.header.queens, std::vector<uint16_t>{40});
    EXPECT_EQ(m.header.heap, 7u);
    EXPECT_EQ(m.header.outcome, 0);
    EXPECT_EQ(m.header.kind, 0);
    EXPECT_EQ(m.header.cutoff, 5);
    EXPECT_EQ(m.header.defaultReply, 1);
    EXPECT_EQ(m.header.replyCount, tokens.size());
    EXPECT_EQ(m.header.chunkCount, m.chunks.size());
    if (chunkBytes == 1) {
      EXPECT_EQ(m.chunks.size(), tokens.size());
    }
    if (chunkBytes == (size_t{1} << 20)) {
      EXPECT_EQ(m.chunks.size(), 1u);
    }
    std::vector<uint32_t> all;
    for (const auto& ch : m.chunks) {
      auto raw = zstdDecompress(ch.frame, ch.rawSize);
      ASSERT_TRUE(raw);
      auto t = decodeLeb128(*raw);
      ASSERT_TRUE(t) << "a chunk does not hold whole tokens";
      ASSERT_EQ(t->size(), ch.tokenCount);
      std::vector<uint8_t> mine;
      for (uint32_t x : *t) appendLeb128(mine, x);
      EXPECT_EQ(mine, *raw) << "the writer's LEB128 is not the minimal encoding";
      all.insert(all.end(), t->begin(), t->end());
    }
    EXPECT_EQ(all, tokens);
    // serialiseCertificate recomputes the seal (XXH3-128 of everything before
    // it, big-endian) independently, so equal bytes also check the seal.
    EXPECT_EQ(serialiseCertificate(m), bytes) << "re-serialising an unchanged certificate must give the same bytes";
    // The claim is true but these tokens are nonsense: the checker must
    // decode them and reject, not crash.
    const RunResult r = runProgram({kChecker, path}, 20);
    ASSERT_FALSE(r.signaled || r.timedOut) << r.describe();
    EXPECT_EQ(r.exitCode, 1) << r.describe();
    EXPECT_TRUE(startsWith(r.out, "REJECTED:")) << r.describe();
  }
}

// A real certificate written with one token per chunk (and other tiny chunk
// sizes) verifies.
TEST(Leb128, ValidCertificateWithManySmallChunks) {
  TempDir dir;
  const int n = 8;
  const qcert::Geometry geo = qcert::queensGeometry(n);
  qcert::Graph<1> g(geo);
  qcert::TranspositionTable tt(8);
  qcert::Solver<1> solver(g, tt, qcert::SearchOptions{});
  for (size_t chunkBytes : {size_t{1}, size_t{3}, size_t{16}}) {
    const std::string path = dir.file("c.qc");
    qcert::ClaimSpec claim{n, {}, 0, true, false, {}, qcert::Mirror::halfTurn, false};
    qcert::CertificateWriter w(path, claim, 4, false, "chunk test", 3, chunkBytes);
    qcert::ProofEmitter<1> e(g, solver, w, qcert::EmitOptions{4, false});
    ASSERT_TRUE(solver.wins(g.all, 0));
    e.emit(g.all, 0, true);
    const auto sum = w.finish();
    EXPECT_GT(sum.chunks, 2u);
    const CertModel m = parseCertificate(readFile(path));
    const ReplayVerdict v = referenceReplay(m);
    EXPECT_TRUE(v.ok) << v.why;
    const RunResult r = runProgram({kChecker, path}, 20);
    EXPECT_EQ(r.exitCode, 0) << r.describe();
    EXPECT_EQ(firstLine(r.out), "VERIFIED: first player wins on the empty 8x8 board (queens game)") << r.describe();
  }
}

// Multi-byte tokens that are out of range at the root must be rejected (the
// root of the 8x8 board has m = 64 live squares, so every token >= 65 is out
// of range without a heap).
TEST(Leb128, OutOfRangeMultiByteTokensAreRejected) {
  TempDir dir;
  qcert::ProveRequest req;
  req.n = 8;
  req.cutoff = 4;
  req.ttMegabytes = 8;
  req.mirrorDefault = false;
  req.out = dir.file("base.qc");
  qcert::prove(req);
  const CertModel base = parseCertificate(readFile(req.out));
  const auto tokens = allTokens(base);
  ASSERT_FALSE(tokens.empty());
  for (uint32_t big : {65u, 127u, 128u, 16383u, 16384u, 1u << 21, 1u << 28, 0xffffffffu}) {
    CertModel m = base;
    auto t = tokens;
    t[0] = big;
    setTokens(m, t);
    writeFile(dir.file("m.qc"), serialiseCertificate(m));
    const RunResult r = runProgram({kChecker, dir.file("m.qc")}, 20);
    SCOPED_TRACE("first token " + std::to_string(big));
    ASSERT_FALSE(r.signaled || r.timedOut) << r.describe();
    EXPECT_EQ(r.exitCode, 1) << r.describe();
    EXPECT_TRUE(startsWith(r.out, "REJECTED:")) << r.describe();
  }
}

}  // namespace
