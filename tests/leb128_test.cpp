// Integer-width edges: LEB128 tokens of 1..5 bytes through the prover's
// encoder (CertificateWriter) and the checker's decoder, chunk boundaries,
// and the checker on multi-byte tokens.
#include <gtest/gtest.h>

#include <random>

#include "tests/certfile.hpp"
#include "prover/game/certificate.hpp"
#include "prover/game/graph.hpp"
#include "prover/game/prove.hpp"
#include "prover/game/proof.hpp"
#include "prover/game/search.hpp"
#include "tests/support.hpp"
#include "prover/game/tt.hpp"

using namespace qtest;

namespace {

const std::vector<uint32_t> kEdges = {0,        1,         127,        128,        129,        255,       256,
                                      16383,    16384,     16385,      (1u << 21) - 1, 1u << 21, (1u << 28) - 1,
                                      1u << 28, 0x7fffffffu, 0x80000000u, 0xfffffffeu, 0xffffffffu};

// Unsigned LEB128 by hand, as the format's spec writes it (docs/certificate-format.md).
const std::vector<std::pair<uint32_t, std::vector<uint8_t>>> kKnown = {
    {0, {0x00}},
    {127, {0x7f}},
    {128, {0x80, 0x01}},
    {300, {0xac, 0x02}},
    {16383, {0xff, 0x7f}},
    {16384, {0x80, 0x80, 0x01}},
    {(1u << 21) - 1, {0xff, 0xff, 0x7f}},
    {1u << 21, {0x80, 0x80, 0x80, 0x01}},
    {(1u << 28) - 1, {0xff, 0xff, 0xff, 0x7f}},
    {1u << 28, {0x80, 0x80, 0x80, 0x80, 0x01}},
    {0x80000000u, {0x80, 0x80, 0x80, 0x80, 0x08}},
    {0xffffffffu, {0xff, 0xff, 0xff, 0xff, 0x0f}},
};

// The token bytes the prover's CertificateWriter writes for `tokens`: the
// certificate's one chunk, decompressed.
std::vector<uint8_t> writerBytes(const TempDir& dir, const std::vector<uint32_t>& tokens) {
  const std::string path = dir.file("known.qc");
  qcert::ClaimSpec claim{9, {40}, 7, true, false, {}, qcert::Mirror::halfTurn, false};
  qcert::CertificateWriter w(path, claim, 5, true, "leb128 test", 3, size_t{1} << 20);
  for (uint32_t t : tokens) w.reply(t);
  w.finish();
  const CertModel m = parseCertificate(readFile(path));
  if (m.chunks.size() != 1) return {};
  return zstdDecompress(m.chunks[0].frame, m.chunks[0].rawSize).value_or(std::vector<uint8_t>{});
}

// The prover's encoder (CertificateWriter::reply) writes the minimal
// encoding of each token, and tokens back to back.
TEST(Leb128, KnownEncodings) {
  TempDir dir;
  std::vector<uint32_t> all;
  std::vector<uint8_t> allBytes;
  for (const auto& [value, bytes] : kKnown) {
    EXPECT_EQ(writerBytes(dir, {value}), bytes) << "token " << value;
    all.push_back(value);
    allBytes.insert(allBytes.end(), bytes.begin(), bytes.end());
  }
  EXPECT_EQ(writerBytes(dir, all), allBytes);
}

// A certificate of the 8x8 board written by the prover (cut-off 4, no default
// reply), for the checker to read crafted token bytes in.
CertModel baseCertificate(const TempDir& dir) {
  qcert::ProveRequest req;
  req.n = 8;
  req.cutoff = 4;
  req.ttMegabytes = 8;
  req.mirrorDefault = false;
  req.out = dir.file("base.qc");
  qcert::prove(req);
  return parseCertificate(readFile(req.out));
}

// `m` with its tokens replaced by one chunk of exactly these bytes (said to
// hold `tokens` tokens), resealed, through the checker.
RunResult checkRawTokens(const TempDir& dir, CertModel m, const std::vector<uint8_t>& raw, uint64_t tokens) {
  ChunkModel chunk;
  chunk.tokenCount = tokens;
  chunk.rawSize = uint32_t(raw.size());
  chunk.frame = zstdCompress(raw);
  m.chunks = {chunk};
  m.header.chunkCount = 1;
  m.header.replyCount = tokens;
  writeFile(dir.file("raw.qc"), serialiseCertificate(m));
  return runProgram({kChecker, dir.file("raw.qc")}, 20);
}

// `value` in exactly `length` bytes (length >= its minimal length): the
// longer forms carry continuation bytes of zero bits, which the format allows.
std::vector<uint8_t> paddedLeb128(uint32_t value, int length) {
  std::vector<uint8_t> out;
  for (int i = 0; i < length; ++i) out.push_back(uint8_t((uint64_t(value) >> (7 * i)) & 0x7f) | (i + 1 < length ? 0x80 : 0));
  return out;
}

// The checker's decoder (checker/certificate_file.cpp): the chunk check of
// readCertificate (loadChunk, file-local) and TokenStream::next, which the
// replay reads tokens with. This binary links the prover's library, not the
// checker's (the two define types of the same names), so both are tested
// through their public reading path: the checker program reading
// certificates with crafted token bytes.
TEST(Leb128, DecoderLimits) {
  TempDir dir;
  const CertModel base = baseCertificate(dir);
  const std::vector<uint32_t> tokens = allTokens(base);
  ASSERT_FALSE(tokens.empty());

  // Every token of a valid proof in 1 to 5 bytes (non-minimal forms too):
  // the checker reads each one's value, or the replay would go astray.
  std::vector<uint8_t> padded;
  for (size_t i = 0; i < tokens.size(); ++i) {
    const std::vector<uint8_t> t = paddedLeb128(tokens[i], 1 + int(i % 5));
    padded.insert(padded.end(), t.begin(), t.end());
  }
  RunResult r = checkRawTokens(dir, base, padded, tokens.size());
  EXPECT_EQ(r.exitCode, 0) << r.describe();
  EXPECT_EQ(firstLine(r.out), "VERIFIED: first player wins on the empty 8x8 board (queens game)") << r.describe();

  // The edge values, each the first token (64 live squares, no heap: every
  // value above 64 names no move): the rejection names the value decoded.
  for (const auto& [value, bytes] : kKnown) {
    if (value <= 64) continue;
    std::vector<uint8_t> raw = bytes;
    for (size_t i = 1; i < tokens.size(); ++i) raw.push_back(uint8_t(tokens[i] & 0x7f));  // tokens[i] <= 64: one byte each
    r = checkRawTokens(dir, base, raw, tokens.size());
    SCOPED_TRACE("first token " + std::to_string(value));
    EXPECT_EQ(r.exitCode, 1) << r.describe();
    EXPECT_TRUE(startsWith(r.out, "REJECTED: token #1: value " + std::to_string(value) + " names no move")) << r.describe();
  }

  // Past the limits: 6 bytes, a value of 33 bits, a chunk ending inside a token.
  const std::vector<std::pair<std::vector<uint8_t>, std::string>> bad = {
      {{0x80, 0x80, 0x80, 0x80, 0x80, 0x00}, "LEB128 token longer than 5 bytes"},
      {{0x81, 0x80, 0x80, 0x80, 0x80, 0x00}, "LEB128 token longer than 5 bytes"},
      {{0xff, 0xff, 0xff, 0xff, 0x1f}, "token value exceeds 32 bits"},
      {{0x80, 0x80, 0x80, 0x80, 0x10}, "token value exceeds 32 bits"},
      {{0x01, 0x80}, "token bytes end inside a token"},
  };
  for (const auto& [raw, why] : bad) {
    r = checkRawTokens(dir, base, raw, 2);
    SCOPED_TRACE(why);
    EXPECT_EQ(r.exitCode, 1) << r.describe();
    EXPECT_TRUE(startsWith(r.out, "REJECTED: chunk 0: " + why)) << r.describe();
  }
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
  const CertModel base = baseCertificate(dir);
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
