// Reading a certificate file (docs/certificate-format.md, steps 1-3): mmap,
// message framing, seal, header checks, chunk decompression and the token
// stream that the replay consumes.
#pragma once

#include "checker/board.hpp"

#include <capnp/common.h>
#include <kj/common.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace qcert::checker {

// Missing/unreadable/special file and similar: exit status 2, not a verdict.
struct IoError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

inline constexpr uint32_t kMaxHeap = 1'000'000;
inline constexpr uint32_t kMaxRawSize = 64u << 20;

// The size of the regular file at `path`; IoError naming `label` when it is
// missing, unreadable or not a regular file (a FIFO would block a reader).
uint64_t regularFileSize(const std::string& path, const std::string& label);

// Read-only private mapping of a whole regular file; "-" is standard input,
// read into memory (a pipe cannot be mapped): at most kMaxStdinBytes, within
// --max-memory and --time-limit.
inline constexpr uint64_t kMaxStdinBytes = uint64_t(1) << 30;
class MappedFile {
 public:
  explicit MappedFile(const std::string& path);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  const unsigned char* data() const { return data_; }
  size_t size() const { return size_; }

 private:
  const unsigned char* data_ = nullptr;
  size_t size_ = 0;
  std::vector<unsigned char> stdinBytes_;
};

// The SHA-256 of `size` bytes in lower-case hex, as sha256sum prints it.
std::string sha256Hex(const unsigned char* data, size_t size);

// Everything the replay needs, copied out of the header.
struct Certificate {
  unsigned boardSize = 0;
  std::vector<unsigned> queens;  // square indices, each < boardSize^2
  uint32_t heap = 0;
  bool claimWin = false;         // outcome == win
  bool grundy = false;           // kind == grundy
  unsigned cutoff = 0;
  unsigned defaultReply = 0;     // schema DefaultReply: 0 none, 1 half turn, 2 files, 3 ranks, 4 diagonal, 5 antidiagonal
  bool mirrorLemma = false;      // a loss at the root by the mirror lemma for defaultReply's map; no tokens
  bool parts = false;            // the tokens are a table of independent parts (docs/parts.md), not replies
  Board board;                   // piece and board (boardSize = board.rows)
  uint64_t replyCount = 0;
  std::string producer;
  std::vector<kj::ArrayPtr<const capnp::word>> chunks;  // the ReplyChunk messages
  std::array<unsigned char, 16> seal{};                  // the file's Seal digest
  bool hasPlan = false;                                  // a shard manifest (no chunks, no replies)
  kj::ArrayPtr<const capnp::word> header;                // the Header message, for the plan or the count
  bool isCount = false;  // a count certificate (docs/count-certificates.md): Header and Seal only
  bool isMod2 = false;   // a mod-2 game certificate (docs/mod2-game.md): Header and Seal only
  bool isPartizan = false;  // a partizan game certificate (docs/partizan-game.md): Header and Seal only
};

// Steps 1-3 of the spec: framing, seal (before anything else is interpreted),
// header checks and a full decompression/validation pass over every chunk.
// Throws Rejection.  (Whether the queens can be placed is checked by the replay.)
// A header with `count` set gets only the count header's checks here; count.cpp
// reads the CountClaim itself; likewise `mod2` and mod2/mod2.cpp.
Certificate readCertificate(const MappedFile& file);

// The tokens of all chunks in order; chunks are decompressed again lazily.
class TokenStream {
 public:
  explicit TokenStream(const Certificate& cert) : cert_(cert) {}
  // Atomic so that a progress line may read it from another thread; one
  // writer, so next() stores with a plain (relaxed) store, no locked add.
  uint64_t consumed() const { return consumed_.load(std::memory_order_relaxed); }
  uint64_t remaining() const { return cert_.replyCount - consumed(); }
  uint32_t next();  // precondition: remaining() > 0

 private:
  const Certificate& cert_;
  size_t chunk_ = 0;                // next chunk to load
  std::vector<unsigned char> raw_;  // current chunk's token bytes
  size_t pos_ = 0;
  std::atomic<uint64_t> consumed_{0};
};

}  // namespace qcert::checker
