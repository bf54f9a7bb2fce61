// Fuzz target: one game certificate file (docs/certificate-format.md).
// The first input byte picks the mode (byte % 3):
//   0  raw: the rest is the file as it is (seal, framing);
//   1  reseal: the rest is the file without its Seal; the target appends a
//      correct Seal, so mutations reach the header checks, chunk decoding
//      and the replay (rounded down to whole 8-byte words);
//   2  structured: a small claim and a token list decoded from the bytes,
//      written as a well-formed certificate (Header, zstd ReplyChunks of
//      LEB128 tokens, Seal); the tokens are replies or a table of parts.
// Every file is checked by qcert::checker::check (the checker's main() path); a
// VERIFIED claim on a board up to 6x6 is then decided by the target's own
// minimax (fuzz_common.cpp), and a false one is a finding.
#include "fuzz/fuzz_common.hpp"
#include "schema/qcert.capnp.h"

#include <capnp/message.h>
#include <capnp/serialize.h>
#include <zstd.h>

using namespace qfuzz;

namespace {

void appendMessage(Bytes& out, capnp::MessageBuilder& msg) {
  auto words = capnp::messageToFlatArray(msg);
  auto b = words.asBytes();
  out.insert(out.end(), b.begin(), b.end());
}

void appendLeb128(Bytes& out, uint32_t v) {
  do {
    const uint8_t b = v & 0x7f;
    v >>= 7;
    out.push_back(v ? uint8_t(b | 0x80) : b);
  } while (v);
}

void appendChunk(Bytes& out, const std::vector<uint32_t>& tokens, size_t from, size_t to) {
  Bytes raw;
  for (size_t i = from; i < to; ++i) appendLeb128(raw, tokens[i]);
  Bytes frame(ZSTD_compressBound(raw.size()));
  const size_t z = ZSTD_compress(frame.data(), frame.size(), raw.data(), raw.size(), 1);
  if (ZSTD_isError(z)) fail("zstd compression failed in the target");
  frame.resize(z);
  capnp::MallocMessageBuilder msg;
  auto c = msg.initRoot<::ReplyChunk>();
  c.setTokenCount(to - from);
  c.setRawSize(uint32_t(raw.size()));
  c.setZstdFrame(capnp::Data::Reader(frame.data(), frame.size()));
  appendMessage(out, msg);
}

// Layout: n, queen count and squares, heap, flags (outcome, kind, default
// reply, two chunks, a table of parts (docs/parts.md) instead of replies),
// cutoff, then one token per byte (0xff: a 2-byte token).
Bytes structured(Input in) {
  const unsigned n = 1 + in.byte() % 6, squares = n * n;
  std::vector<uint16_t> queens(in.byte() % 4);
  for (auto& q : queens) q = uint16_t(in.byte() % squares);
  const uint32_t heap = in.byte() % 4;
  const uint8_t flags = in.byte();
  const uint16_t cutoff = in.byte() % 33;
  std::vector<uint32_t> tokens;
  while (!in.empty() && tokens.size() < 4096) {
    const uint8_t b = in.byte();
    tokens.push_back(b == 0xff ? in.u16() : b);
  }
  const bool twoChunks = flags & 8 && tokens.size() >= 2;
  Bytes out;
  {
    capnp::MallocMessageBuilder msg;
    auto h = msg.initRoot<::Header>();
    h.setFormatVersion(1);
    auto c = h.initClaim();
    c.setRuleset(::Ruleset::QUEENS);
    c.setBoardSize(uint16_t(n));
    auto q = c.initQueens(unsigned(queens.size()));
    for (unsigned i = 0; i < queens.size(); ++i) q.set(i, queens[i]);
    c.setHeap(heap);
    c.setOutcome(flags & 1 ? ::Outcome::LOSS : ::Outcome::WIN);
    c.setKind(flags & 2 ? ::ClaimKind::GRUNDY : ::ClaimKind::OUTCOME);
    h.setCutoff(cutoff);
    h.setDefaultReply(flags & 4 ? ::DefaultReply::MIRROR180 : ::DefaultReply::NONE);
    h.setParts(flags & 16);
    h.setReplyCount(tokens.size());
    h.setChunkCount(tokens.empty() ? 0 : twoChunks ? 2 : 1);
    h.setProducer("fuzz_game_certificate");
    appendMessage(out, msg);
  }
  if (twoChunks) {
    appendChunk(out, tokens, 0, tokens.size() / 2);
    appendChunk(out, tokens, tokens.size() / 2, tokens.size());
  } else if (!tokens.empty()) {
    appendChunk(out, tokens, 0, tokens.size());
  }
  appendSeal(out);
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0 || size > (1u << 20)) return 0;
  Input in{data, size};
  const unsigned mode = in.byte() % 3;
  Bytes file;
  const std::string path = writeCertificateInput(in, mode, structured, "c.qcert", file);
  const CheckResult r = runChecker(path);
  if (r.status == 0) judgeVerifiedGameFile(file, r.out);
  return 0;
}
