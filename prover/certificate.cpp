#include "certificate.hpp"

#include <capnp/message.h>
#include <capnp/serialize.h>
#include <unistd.h>
#include <xxhash.h>
#include <zstd.h>

#include <cstring>
#include <stdexcept>

#include "qcert.capnp.h"

namespace qcert {

namespace {
void writeAll(FILE* f, const void* data, size_t len, const std::string& what) {
  if (len && std::fwrite(data, 1, len, f) != len) throw std::runtime_error("cannot write " + what);
}
}  // namespace

CertificateWriter::CertificateWriter(std::string path, ClaimSpec claim, int cutoff, bool mirrorDefault,
                                     std::string producer, int zstdLevel, size_t chunkBytes)
    : path_(std::move(path)), spoolPath_(path_ + ".chunks.tmp"), claim_(std::move(claim)), cutoff_(cutoff),
      mirrorDefault_(mirrorDefault), producer_(std::move(producer)), zstdLevel_(zstdLevel),
      chunkBytes_(chunkBytes) {
  spool_ = std::fopen(spoolPath_.c_str(), "w+b");
  if (!spool_) throw std::runtime_error("cannot create " + spoolPath_ + ": " + std::strerror(errno));
  raw_.reserve(chunkBytes_ + 8);
}

CertificateWriter::~CertificateWriter() {
  if (spool_) std::fclose(spool_);
  std::remove(spoolPath_.c_str());
  if (!finished_) std::remove((path_ + ".tmp").c_str());
}

void CertificateWriter::reply(uint32_t token) {
  do {  // unsigned LEB128
    uint8_t b = token & 0x7f;
    token >>= 7;
    raw_.push_back(token ? (b | 0x80) : b);
  } while (token);
  ++chunkTokens_;
  ++sum_.tokens;
  if (raw_.size() >= chunkBytes_) flushChunk();
}

void CertificateWriter::flushChunk() {
  if (chunkTokens_ == 0) return;
  std::vector<uint8_t> packed(ZSTD_compressBound(raw_.size()));
  const size_t z = ZSTD_compress(packed.data(), packed.size(), raw_.data(), raw_.size(), zstdLevel_);
  if (ZSTD_isError(z)) throw std::runtime_error(std::string("zstd: ") + ZSTD_getErrorName(z));
  capnp::MallocMessageBuilder msg;
  auto chunk = msg.initRoot<ReplyChunk>();
  chunk.setTokenCount(chunkTokens_);
  chunk.setRawSize(uint32_t(raw_.size()));
  chunk.setZstdFrame(capnp::Data::Reader(packed.data(), z));
  auto words = capnp::messageToFlatArray(msg);
  writeAll(spool_, words.asBytes().begin(), words.asBytes().size(), spoolPath_);
  sum_.rawTokenBytes += raw_.size();
  ++sum_.chunks;
  raw_.clear();
  chunkTokens_ = 0;
}

CertificateSummary CertificateWriter::finish() {
  flushChunk();
  capnp::MallocMessageBuilder msg;
  auto header = msg.initRoot<Header>();
  header.setFormatVersion(FORMAT_VERSION);
  auto claim = header.initClaim();
  claim.setRuleset(Ruleset::QUEENS);
  claim.setBoardSize(uint16_t(claim_.n));
  auto queens = claim.initQueens(unsigned(claim_.queens.size()));
  for (size_t i = 0; i < claim_.queens.size(); ++i) queens.set(unsigned(i), uint16_t(claim_.queens[i]));
  claim.setHeap(claim_.heap);
  claim.setOutcome(claim_.win ? Outcome::WIN : Outcome::LOSS);
  claim.setKind(claim_.grundy ? ClaimKind::GRUNDY : ClaimKind::OUTCOME);
  header.setCutoff(uint16_t(cutoff_));
  header.setDefaultReply(mirrorDefault_ ? DefaultReply::MIRROR180 : DefaultReply::NONE);
  header.setReplyCount(sum_.tokens);
  header.setChunkCount(sum_.chunks);
  header.setProducer(producer_);
  auto headerWords = capnp::messageToFlatArray(msg);

  const std::string tmp = path_ + ".tmp";
  FILE* out = std::fopen(tmp.c_str(), "wb");
  if (!out) throw std::runtime_error("cannot create " + tmp + ": " + std::strerror(errno));
  XXH3_state_t* st = XXH3_createState();
  XXH3_128bits_reset(st);
  auto put = [&](const void* p, size_t len) {
    writeAll(out, p, len, tmp);
    XXH3_128bits_update(st, p, len);
    sum_.bytes += len;
  };
  put(headerWords.asBytes().begin(), headerWords.asBytes().size());
  std::fflush(spool_);
  std::rewind(spool_);
  std::vector<char> buf(size_t{1} << 20);
  for (size_t got; (got = std::fread(buf.data(), 1, buf.size(), spool_)) > 0;) put(buf.data(), got);
  const XXH128_hash_t digest = XXH3_128bits_digest(st);
  XXH3_freeState(st);
  uint8_t sealBytes[16];
  for (int i = 0; i < 8; ++i) {
    sealBytes[i] = uint8_t(digest.high64 >> (56 - 8 * i));
    sealBytes[8 + i] = uint8_t(digest.low64 >> (56 - 8 * i));
  }
  capnp::MallocMessageBuilder sealMsg;
  sealMsg.initRoot<Seal>().setXxh3x128(capnp::Data::Reader(sealBytes, 16));
  auto sealWords = capnp::messageToFlatArray(sealMsg);
  writeAll(out, sealWords.asBytes().begin(), sealWords.asBytes().size(), tmp);
  sum_.bytes += sealWords.asBytes().size();
  if (std::fflush(out) != 0 || fsync(fileno(out)) != 0 || std::fclose(out) != 0)
    throw std::runtime_error("cannot write " + tmp);
  if (std::rename(tmp.c_str(), path_.c_str()) != 0)
    throw std::runtime_error("cannot rename " + tmp + " to " + path_ + ": " + std::strerror(errno));
  finished_ = true;
  return sum_;
}

}  // namespace qcert
