// Test-side certificate tooling, written from docs/certificate-format.md:
// parse a certificate file into an editable model, re-serialise it with a
// fresh seal (so semantic mutants get past the integrity check), encode and
// decode LEB128 tokens, a reference replay of the spec that records where
// each token is consumed, and a truth oracle for claims.
#pragma once
#include <capnp/common.h>
#include <kj/array.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace qtest {

// Raw header fields; enums are kept as their raw 16-bit values so that
// out-of-range values can be written.
struct HeaderModel {
  uint32_t formatVersion = 1;
  uint16_t ruleset = 0;
  uint16_t boardSize = 0;
  std::vector<uint16_t> queens;
  uint32_t heap = 0;
  uint16_t outcome = 0;  // 0 win, 1 loss
  uint16_t kind = 0;     // 0 outcome, 1 grundy
  uint16_t cutoff = 0;
  uint16_t defaultReply = 0;  // 0 none, 1 mirror180
  uint64_t replyCount = 0;
  uint32_t chunkCount = 0;
  std::string producer;
};

struct ChunkModel {
  uint64_t tokenCount = 0;
  uint32_t rawSize = 0;
  std::vector<uint8_t> frame;  // zstd frame as stored
};

struct CertModel {
  HeaderModel header;
  std::vector<ChunkModel> chunks;
  std::vector<uint8_t> seal;  // as read (16 bytes for a good file)
};

// Throws std::runtime_error when the bytes are not Header, chunks, Seal.
CertModel parseCertificate(const std::vector<uint8_t>& bytes);

// The stream-framed messages of a certificate's words, in order.
std::vector<kj::ArrayPtr<const capnp::word>> splitMessages(kj::ArrayPtr<const capnp::word> words);

// Serialises header and chunks exactly as given and appends a Seal over
// them: the correct XXH3-128 unless `sealOverride` is given.
std::vector<uint8_t> serialiseCertificate(const CertModel& m,
                                          const std::vector<uint8_t>* sealOverride = nullptr);

// The correct 16 seal bytes for `prefix` (XXH3-128, high64 then low64, big-endian).
std::vector<uint8_t> sealOf(const std::vector<uint8_t>& prefix);

// LEB128.
void appendLeb128(std::vector<uint8_t>& out, uint64_t value);
// Decodes exactly; returns nullopt on a truncated token, a token longer than
// maxBytes or a value above 2^32-1.
std::optional<std::vector<uint32_t>> decodeLeb128(const std::vector<uint8_t>& raw, int maxBytes = 5);

std::vector<uint8_t> zstdCompress(const std::vector<uint8_t>& raw, int level = 3);
// nullopt when the frame does not decompress to exactly expectedSize bytes.
std::optional<std::vector<uint8_t>> zstdDecompress(const std::vector<uint8_t>& frame, size_t expectedSize);

// All tokens of all chunks in order (throws when a chunk is inconsistent).
std::vector<uint32_t> allTokens(const CertModel& m);
// Replaces the chunks by chunks holding `tokens` (at most tokensPerChunk
// each, 0 = one chunk) and sets replyCount and chunkCount consistently.
void setTokens(CertModel& m, const std::vector<uint32_t>& tokens, size_t tokensPerChunk = 0);

// ------------------------------------------------------ reference replay
// One winner decision as the spec's replay consumes it.
struct TokenSite {
  int n = 0;
  std::vector<int> live;  // L, increasing square index
  uint32_t heap = 0;
  int lastMove = -1;      // the opponent's last board move in the replay, or -1
  uint32_t token = 0;
  int move = -1;          // board square, or -1 for a heap move
  uint32_t heapTo = 0;    // for a heap move
};

struct ReplayVerdict {
  bool ok = false;
  std::string why;               // reason for rejection
  std::vector<TokenSite> sites;  // in consumption order (up to the failure)
};

// Checks the header fields and chunk framing of the model (step 2 and 3 of
// the spec) and replays it (step 4) with an independent exhaustive solver
// below the cut-off.  Heaps above maxHeap are not replayed (ok=false, why
// "heap too large for the reference replay").
ReplayVerdict referenceReplay(const CertModel& m, uint32_t maxHeap = 4096);

// -------------------------------------------------------------- oracle
// Grundy value of the board after `queens` on the n x n board, by the
// prover's search; nullopt when n is out of range or a queen is not live.
std::optional<uint32_t> grundyOfBoard(int n, const std::vector<int>& queens);

// Whether the header's claim is a true statement (format fields aside):
// false when the root cannot be built.  Claims on boards above n = 11 are
// not evaluated (throws).
bool claimIsTrue(const HeaderModel& h);

// Does the player to move win at (live, heap) on the n x n board (prover search)?
bool positionWins(int n, const std::vector<int>& live, uint32_t heap);

}  // namespace qtest
