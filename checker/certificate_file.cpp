#include "checker/certificate_file.hpp"

#include "checker/board.hpp"
#include "checker/limits.hpp"
#include "schema/qcert.capnp.h"

#include <capnp/serialize.h>
#include <fcntl.h>
#include <openssl/evp.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>
#include <zstd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace qcert::checker {
namespace {

constexpr size_t kMaxMessages = size_t(1) << 22;

// The i-th little-endian 32-bit field from `at` (Cap'n Proto's segment table).
uint64_t readLittle32(const capnp::word* at, uint64_t i) {
  const auto* b = reinterpret_cast<const unsigned char*>(at) + 4 * i;
  return uint64_t(b[0]) | uint64_t(b[1]) << 8 | uint64_t(b[2]) << 16 | uint64_t(b[3]) << 24;
}

capnp::ReaderOptions readerOptions() {
  capnp::ReaderOptions o;
  o.traversalLimitInWords = uint64_t(1) << 24;  // 128 MiB: more than any acceptable chunk
  return o;
}

// Decompresses chunk `index` into `raw` and checks that it holds exactly its
// tokenCount complete LEB128 tokens of at most 5 bytes and 32 bits each.
uint64_t loadChunk(kj::ArrayPtr<const capnp::word> msg, size_t index,
                   std::vector<unsigned char>& raw) {
  const std::string where = "chunk " + std::to_string(index) + ": ";
  capnp::FlatArrayMessageReader reader(msg, readerOptions());
  auto chunk = reader.getRoot<ReplyChunk>();
  const uint64_t tokenCount = chunk.getTokenCount();
  const uint32_t rawSize = chunk.getRawSize();
  auto frame = chunk.getZstdFrame();
  if (rawSize > kMaxRawSize) throw Rejection(where + "rawSize " + std::to_string(rawSize) + " exceeds 64 MiB");
  if (tokenCount > rawSize) throw Rejection(where + "tokenCount exceeds rawSize");
  const size_t frameSize = ZSTD_findFrameCompressedSize(frame.begin(), frame.size());
  if (ZSTD_isError(frameSize) || frameSize != frame.size())
    throw Rejection(where + "zstdFrame is not exactly one zstd frame");
  // A frame that states its content size must state rawSize: checked before
  // rawSize bytes are allocated for it.
  const unsigned long long declared = ZSTD_getFrameContentSize(frame.begin(), frame.size());
  if (declared != ZSTD_CONTENTSIZE_UNKNOWN && declared != rawSize)
    throw Rejection(where + "zstd frame holds " + std::to_string(declared) + " bytes, rawSize says " + std::to_string(rawSize));
  // A 2 KB frame may hold 64 MiB of tokens, and a file thousands of them:
  // decompressing and scanning is where a small file can spend a long time.
  limits::checkTime();
  if (rawSize > raw.capacity()) limits::reserve(rawSize, "a chunk's token buffer");
  raw.assign(rawSize, 0);
  const size_t got = ZSTD_decompress(raw.data(), raw.size(), frame.begin(), frame.size());
  if (ZSTD_isError(got)) throw Rejection(where + "zstd: " + ZSTD_getErrorName(got));
  if (got != rawSize) throw Rejection(where + "decompresses to " + std::to_string(got) + " bytes, rawSize says " + std::to_string(rawSize));
  uint64_t tokens = 0;
  unsigned len = 0;
  uint64_t value = 0;
  for (size_t i = 0; i < raw.size(); ++i) {
    if ((i & 0xfffff) == 0) limits::checkTime();
    const unsigned char b = raw[i];
    value |= uint64_t(b & 0x7f) << (7 * len);
    if (++len > 5) throw Rejection(where + "LEB128 token longer than 5 bytes");
    if (!(b & 0x80)) {
      if (value > UINT32_MAX) throw Rejection(where + "token value exceeds 32 bits");
      ++tokens, len = 0, value = 0;
    }
  }
  if (len != 0) throw Rejection(where + "token bytes end inside a token");
  if (tokens != tokenCount)
    throw Rejection(where + "holds " + std::to_string(tokens) + " tokens, tokenCount says " + std::to_string(tokenCount));
  return tokenCount;
}

const char* fileTypeName(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a named pipe (FIFO)";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

}  // namespace

uint64_t regularFileSize(const std::string& path, const std::string& label) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) throw IoError(label + ": cannot open " + path + ": " + std::strerror(errno));
  if (!S_ISREG(st.st_mode)) throw IoError(label + ": " + path + " is " + fileTypeName(st.st_mode) + ", not a certificate file");
  return uint64_t(st.st_size);
}

namespace {

// Standard input, whole: a pipe or a redirected file.  poll() with a timeout,
// so that --time-limit also stops a writer that never finishes.
std::vector<unsigned char> readStandardInput() {
  if (isatty(STDIN_FILENO)) throw IoError("standard input is a terminal: give a certificate through a pipe (checker - < FILE)");
  std::vector<unsigned char> bytes;
  size_t size = 0;
  for (;;) {
    limits::checkTime();
    pollfd in{STDIN_FILENO, POLLIN, 0};
    if (::poll(&in, 1, 200) == 0) continue;
    if (size == bytes.size()) {
      if (size >= kMaxStdinBytes)
        throw IoError("standard input holds more than " + std::to_string(kMaxStdinBytes >> 20) + " MiB: give a file this large by its path");
      const size_t grow = std::max<size_t>(size, 1 << 16);
      limits::reserve(grow, "the certificate read from standard input");
      bytes.resize(size + grow);
    }
    const ssize_t got = ::read(STDIN_FILENO, bytes.data() + size, bytes.size() - size);
    if (got < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (got < 0) throw IoError(std::string("cannot read standard input: ") + std::strerror(errno));
    if (got == 0) break;
    size += size_t(got);
  }
  bytes.resize(size);
  return bytes;
}

}  // namespace

MappedFile::MappedFile(const std::string& path) {
  if (path == "-") {
    stdinBytes_ = readStandardInput();
    if (stdinBytes_.empty()) throw Rejection("standard input is empty: no certificate");
    data_ = stdinBytes_.data(), size_ = stdinBytes_.size();
    return;
  }
  // stat before open: opening a FIFO for reading blocks until a writer
  // comes.  O_NONBLOCK and the fstat below cover a file swapped in between.
  regularFileSize(path, "file");
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) throw IoError("file: cannot open " + path + ": " + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    throw IoError("file: " + path + " is not a regular file");
  }
  if (st.st_size == 0) {
    // /proc and /sys files say 0 bytes and have content: a pseudo-file whose
    // bytes change between reads can carry no seal, so it is refused like
    // the other special files rather than judged as empty.
    char probe;
    const ssize_t got = ::read(fd, &probe, 1);
    const int e = errno;
    ::close(fd);
    if (got < 0) throw IoError("file: cannot read " + path + ": " + std::strerror(e));
    if (got > 0)
      throw IoError("file: " + path + " reports 0 bytes but is not empty (a /proc or /sys pseudo-file?), not a certificate file");
    throw Rejection("empty file: no certificate (truncated to 0 bytes?)");  // corrupt content, not an I/O error
  }
  size_ = size_t(st.st_size);
  void* p = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
  int e = errno;
  ::close(fd);
  if (p == MAP_FAILED) throw IoError("file: cannot mmap " + path + ": " + std::strerror(e));
  data_ = static_cast<const unsigned char*>(p);
}

MappedFile::~MappedFile() {
  if (data_ && stdinBytes_.empty()) ::munmap(const_cast<unsigned char*>(data_), size_);
}

std::string sha256Hex(const unsigned char* data, size_t size) {
  unsigned char digest[32];
  unsigned int length = 0;
  if (!EVP_Digest(data, size, digest, &length, EVP_sha256(), nullptr) || length != 32) throw NotChecked("SHA-256: OpenSSL failed");
  static const char kHex[] = "0123456789abcdef";
  std::string hex;
  for (unsigned char b : digest) hex += kHex[b >> 4], hex += kHex[b & 15];
  return hex;
}

namespace {

// Step 1, framing: the file cut into its messages.  mmap is page aligned, so
// every message start is word aligned.
// `messages` gets each message as it is read, also when a later one fails.
void framing(const MappedFile& file, std::vector<kj::ArrayPtr<const capnp::word>>& messages) {
  kj::ArrayPtr<const capnp::word> rest(reinterpret_cast<const capnp::word*>(file.data()),
                                       file.size() / sizeof(capnp::word));
  while (rest.size() > 0) {
    if (messages.size() >= kMaxMessages) throw Rejection("more than 2^22 messages in the file");
    // The framing (docs/certificate-format.md, "File layout") read here
    // first, so a cut or corrupt file gets a reason a person can act on.
    const std::string where = "message " + std::to_string(messages.size()) + " at byte " +
                              std::to_string(size_t(reinterpret_cast<const unsigned char*>(rest.begin()) - file.data()));
    const uint64_t segments = uint64_t(readLittle32(rest.begin(), 0)) + 1;
    if (segments > 512)
      throw Rejection(where + " declares " + std::to_string(segments) + " segments (at most 512): the file is corrupt or not a certificate");
    const uint64_t tableWords = (segments + 2) / 2;  // the count and the sizes, 4 bytes each, padded to a word
    uint64_t words = tableWords;
    if (tableWords <= rest.size())
      for (uint64_t i = 0; i < segments; ++i) words += readLittle32(rest.begin(), 1 + i);
    if (words > rest.size())
      throw Rejection("the file ends inside " + where + ": it declares " + std::to_string(8 * words) + " bytes and " +
                      std::to_string(8 * rest.size()) + " remain (the file is truncated or a size field is corrupt)");
    const capnp::word* end;
    try {
      capnp::FlatArrayMessageReader reader(kj::arrayPtr(rest.begin(), size_t(words)), readerOptions());
      end = reader.getEnd();
    } catch (const kj::Exception& e) {
      throw Rejection("malformed framing of " + where + " (file corrupted or truncated): " + e.getDescription().cStr());
    }
    messages.push_back(kj::arrayPtr(rest.begin(), end));
    rest = kj::arrayPtr(end, rest.end());
  }
  if (file.size() % sizeof(capnp::word) != 0)
    throw Rejection("file size " + std::to_string(file.size()) + " is not a multiple of 8 (truncated or trailing bytes)");
  if (messages.size() < 2) throw Rejection("file holds " + std::to_string(messages.size()) + " message(s); need at least a Header and a Seal");
}

std::array<unsigned char, 16> checkSeal(const MappedFile& file, kj::ArrayPtr<const capnp::word> sealMessage);

// The framing, and when it fails after a message that is a Seal over every
// byte before it, the reason is what the file is: a certificate with bytes
// appended, not a message with a strange segment count.
std::vector<kj::ArrayPtr<const capnp::word>> splitMessages(const MappedFile& file) {
  std::vector<kj::ArrayPtr<const capnp::word>> messages;
  try {
    framing(file, messages);
    return messages;
  } catch (const Rejection&) {
    for (size_t k = messages.size(); k-- > 1;) {
      const size_t end = size_t(reinterpret_cast<const unsigned char*>(messages[k].end()) - file.data());
      try {
        checkSeal(file, messages[k]);
      } catch (...) {
        continue;
      }
      throw Rejection(std::to_string(file.size() - end) + " bytes follow the certificate's Seal, which ends at byte " + std::to_string(end) +
                      ": trailing bytes (the file was appended to, or two files were joined)");
    }
    throw;
  }
}

// Step 1, seal: the last message's digest is XXH3-128 of every byte before it.
std::array<unsigned char, 16> checkSeal(const MappedFile& file, kj::ArrayPtr<const capnp::word> sealMessage) {
  capnp::FlatArrayMessageReader reader(sealMessage, readerOptions());
  auto digest = reader.getRoot<Seal>().getXxh3x128();
  if (digest.size() != 16) throw Rejection("seal digest is " + std::to_string(digest.size()) + " bytes, not 16");
  const size_t sealed = size_t(reinterpret_cast<const unsigned char*>(sealMessage.begin()) - file.data());
  const XXH128_hash_t h = XXH3_128bits(file.data(), sealed);
  std::array<unsigned char, 16> expect;
  for (int i = 0; i < 8; ++i) {
    expect[i] = uint8_t(h.high64 >> (56 - 8 * i));
    expect[8 + i] = uint8_t(h.low64 >> (56 - 8 * i));
  }
  if (std::memcmp(expect.data(), digest.begin(), 16) != 0) throw Rejection("seal mismatch: file corrupted or modified");
  return expect;
}

// Step 2 for the families whose certificate is a Header and a Seal only
// (docs/mod2-game.md, docs/partizan-game.md, docs/count-certificates.md): the
// fields of the other kinds must be unset.  Each family keeps its own words
// for the rules it breaks; a null text: the family has no such rule.
struct HeaderOnlyRules {
  const char* family;          // "a mod-2 certificate"
  bool otherClaims;            // a claim of another kind is set
  const char* otherClaimsText;
  const char* defaultReplyText;
  const char* mirrorLemmaText;
};

void checkHeaderOnly(const Header::Reader& header, size_t messages, const HeaderOnlyRules& rules) {
  const std::string a = rules.family;
  if (rules.otherClaims) throw Rejection(a + " must not set " + rules.otherClaimsText);
  if (header.getCutoff() != 0 || header.getReplyCount() != 0 || header.getChunkCount() != 0)
    throw Rejection(a + " must have cutoff = replyCount = chunkCount = 0");
  if (header.hasPlan()) throw Rejection(a + " must not have a plan");
  if (rules.defaultReplyText && header.getDefaultReply() != DefaultReply::NONE)
    throw Rejection(a + " must not set " + rules.defaultReplyText);
  if (header.getMirrorLemma()) throw Rejection(a + " must not set " + rules.mirrorLemmaText);
  if (header.getParts()) throw Rejection(a + " must not set parts");
  if (messages != 2)
    throw Rejection(a + " holds a Header and a Seal only, this file " + std::to_string(messages) + " messages");
}

// Step 2 for a game certificate: the claim, its variant (docs/variants.md;
// the defaults are the queens game on the square) and the header's counts.
void readGameHeader(const Header::Reader& header, size_t messages, Certificate& cert) {
  auto claim = header.getClaim();
  if (claim.getRuleset() != Ruleset::QUEENS) throw Rejection("unsupported ruleset " + std::to_string(unsigned(claim.getRuleset())));
  cert.boardSize = claim.getBoardSize();
  if (cert.boardSize < 1 || cert.boardSize > 22) throw Rejection("board size " + std::to_string(cert.boardSize) + " is outside 1..22");
  cert.cutoff = header.getCutoff();
  if (cert.cutoff > 32) throw Rejection("cutoff " + std::to_string(cert.cutoff) + " exceeds 32");
  const auto outcome = claim.getOutcome();
  const auto kind = claim.getKind();
  const auto defaultReply = header.getDefaultReply();
  if (outcome != Outcome::WIN && outcome != Outcome::LOSS) throw Rejection("unknown outcome value " + std::to_string(unsigned(outcome)));
  if (kind != ClaimKind::OUTCOME && kind != ClaimKind::GRUNDY) throw Rejection("unknown claim kind " + std::to_string(unsigned(kind)));
  if (unsigned(defaultReply) > 5) throw Rejection("unknown default reply rule " + std::to_string(unsigned(defaultReply)));
  cert.claimWin = outcome == Outcome::WIN;
  cert.grundy = kind == ClaimKind::GRUNDY;
  cert.defaultReply = unsigned(defaultReply);
  cert.board.rows = cert.boardSize;
  cert.board.cols = claim.getColumns() ? claim.getColumns() : cert.boardSize;
  if (cert.board.cols > 22) throw Rejection("columns " + std::to_string(cert.board.cols) + " is outside 1..22");
  cert.board.torus = claim.getTorus();
  if (cert.board.torus && cert.board.cols != cert.board.rows) throw Rejection("a torus must be square");
  cert.board.piece = unsigned(claim.getPiece());
  if (cert.board.piece > 4) throw Rejection("unknown piece " + std::to_string(cert.board.piece));
  if (cert.defaultReply >= 4 && cert.board.rows != cert.board.cols)
    throw Rejection("the diagonal default replies need a square board");
  const unsigned squares = cert.board.rows * cert.board.cols;
  for (uint16_t hole : claim.getHoles()) {
    if (hole >= squares) throw Rejection("hole square index " + std::to_string(hole) + " is off the board");
    if (!cert.board.holes.empty() && hole <= cert.board.holes.back()) throw Rejection("holes must be strictly increasing");
    cert.board.holes.push_back(hole);
  }
  cert.mirrorLemma = header.getMirrorLemma();
  if (cert.mirrorLemma && (cert.claimWin || claim.getHeap() != 0 || cert.defaultReply == 0 || header.getReplyCount() != 0 ||
                           header.getChunkCount() != 0 || header.hasPlan()))
    throw Rejection("a mirror-lemma certificate claims a loss with heap 0, names its map as the default reply, and has no replies, chunks or plan");
  cert.parts = header.getParts();
  if (cert.parts && (cert.cutoff != 0 || cert.defaultReply != 0 || cert.mirrorLemma || header.hasPlan()))
    throw Rejection("a table of parts has cutoff 0, no default reply, no mirror lemma and no plan");
  if (cert.grundy && cert.claimWin) throw Rejection("a grundy claim must have outcome loss");
  cert.heap = claim.getHeap();
  if (cert.heap > kMaxHeap) throw Rejection("heap " + std::to_string(cert.heap) + " exceeds the supported maximum " + std::to_string(kMaxHeap));
  for (uint16_t q : claim.getQueens()) {
    if (q >= squares) throw Rejection("queen square index " + std::to_string(q) + " is off the board");
    if (std::count(cert.queens.begin(), cert.queens.end(), q))
      throw Rejection("the claim places a queen on " + squareName(cert.board.cols, q) + " twice");
    if (cert.queens.size() >= squares) throw Rejection("more queens than squares");
    cert.queens.push_back(q);
  }
  cert.replyCount = header.getReplyCount();
  const uint64_t chunkCount = header.getChunkCount();
  cert.hasPlan = header.hasPlan();
  if (cert.hasPlan && (chunkCount != 0 || cert.replyCount != 0))
    throw Rejection("a shard manifest (header with a plan) must have chunkCount = replyCount = 0");
  if (chunkCount + 2 != messages)
    throw Rejection("header announces " + std::to_string(chunkCount) + " chunks but the file holds " +
                    std::to_string(messages - 2) + " messages between Header and Seal");
}

}  // namespace

Certificate readCertificate(const MappedFile& file) {
  // 1. Framing and seal (before anything else is interpreted).
  const std::vector<kj::ArrayPtr<const capnp::word>> messages = splitMessages(file);
  Certificate cert;
  cert.seal = checkSeal(file, messages.back());

  // 2. Header.
  capnp::FlatArrayMessageReader reader(messages.front(), readerOptions());
  auto header = reader.getRoot<Header>();
  if (header.getFormatVersion() != FORMAT_VERSION)
    throw Rejection("unsupported format version " + std::to_string(header.getFormatVersion()));
  cert.header = messages.front();
  cert.producer = header.getProducer();
  // Anything but what each family's document lists rejects.
  if ((cert.isMod2 = header.hasMod2()))
    checkHeaderOnly(header, messages.size(), {"a mod-2 certificate", header.hasClaim() || header.hasCount() || header.hasPartizan(),
                                              "the game claim, the count or the partizan claim",
                                              "a default reply or the mirror lemma", "a default reply or the mirror lemma"});
  else if ((cert.isPartizan = header.hasPartizan()))
    checkHeaderOnly(header, messages.size(), {"a partizan certificate", header.hasClaim() || header.hasCount() || header.hasMod2(),
                                              "the game claim, the count or the mod-2 claim", "a default reply", "mirrorLemma"});
  else if ((cert.isCount = header.hasCount()))
    checkHeaderOnly(header, messages.size(), {"a count certificate", header.hasClaim(), "the game claim", nullptr, "the mirror lemma"});
  if (cert.isMod2 || cert.isPartizan || cert.isCount) return cert;
  readGameHeader(header, messages.size(), cert);
  cert.chunks.assign(messages.begin() + 1, messages.end() - 1);

  // 3. Every chunk decompresses and holds exactly its tokens; counts add up.
  uint64_t total = 0;
  std::vector<unsigned char> raw;
  for (size_t i = 0; i < cert.chunks.size(); ++i) total += loadChunk(cert.chunks[i], i, raw);
  if (total != cert.replyCount)
    throw Rejection("replyCount " + std::to_string(cert.replyCount) + " differs from the sum of chunk tokenCounts " + std::to_string(total));
  return cert;
}

uint32_t TokenStream::next() {
  while (pos_ == raw_.size()) {  // chunks were all validated, so a non-empty one follows
    if (chunk_ >= cert_.chunks.size()) throw Rejection("internal: token stream exhausted");
    loadChunk(cert_.chunks[chunk_], chunk_, raw_);
    ++chunk_;
    pos_ = 0;
  }
  uint64_t value = 0;
  for (unsigned shift = 0;; shift += 7) {
    if (pos_ >= raw_.size() || shift > 28) throw Rejection("internal: bad LEB128 token");
    const unsigned char b = raw_[pos_++];
    value |= uint64_t(b & 0x7f) << shift;
    if (!(b & 0x80)) break;
  }
  consumed_.store(consumed_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  return uint32_t(value);
}

}  // namespace qcert::checker
