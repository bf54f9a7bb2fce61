#include "prover/game/certificate.hpp"

#include <capnp/message.h>
#include <capnp/serialize.h>
#include <zstd.h>

#include <stdexcept>

#include "prover/output_file.hpp"
#include "schema/qcert.capnp.h"

namespace qcert {

CertificateWriter::CertificateWriter(std::string path, ClaimSpec claim, int cutoff, bool mirrorDefault,
                                     std::string producer, int zstdLevel, size_t chunkBytes)
    : path_(std::move(path)), spool_(std::make_unique<OutputFile>(path_, "chunks")), claim_(std::move(claim)),
      cutoff_(cutoff), mirrorDefault_(mirrorDefault), producer_(std::move(producer)), zstdLevel_(zstdLevel),
      chunkBytes_(chunkBytes) {
  raw_.reserve(chunkBytes_ + 8);
}

// The spool is never committed: its destructor removes it.
CertificateWriter::~CertificateWriter() = default;

void CertificateWriter::reply(uint32_t token) {
  if (sum_.tokens == 0) sum_.firstToken = token;
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
  // One compression context per thread: a fresh one per chunk costs tens of
  // MiB of zeroed tables, which dominated runs with many small unit files.
  struct Context {
    ZSTD_CCtx* cctx = ZSTD_createCCtx();
    ~Context() { ZSTD_freeCCtx(cctx); }
  };
  thread_local Context ctx;
  std::vector<uint8_t> packed(ZSTD_compressBound(raw_.size()));
  const size_t z = ZSTD_compressCCtx(ctx.cctx, packed.data(), packed.size(), raw_.data(), raw_.size(), zstdLevel_);
  if (ZSTD_isError(z)) throw std::runtime_error(std::string("zstd: ") + ZSTD_getErrorName(z));
  capnp::MallocMessageBuilder msg;
  auto chunk = msg.initRoot<ReplyChunk>();
  chunk.setTokenCount(chunkTokens_);
  chunk.setRawSize(uint32_t(raw_.size()));
  chunk.setZstdFrame(capnp::Data::Reader(packed.data(), z));
  auto words = capnp::messageToFlatArray(msg);
  spool_->write(words.asBytes().begin(), words.asBytes().size());
  sum_.rawTokenBytes += raw_.size();
  ++sum_.chunks;
  raw_.clear();
  chunkTokens_ = 0;
}

namespace {

void fillHeader(Header::Builder header, const ClaimSpec& c, int cutoff, bool mirrorDefault, uint64_t tokens,
                uint32_t chunks, const std::string& producer) {
  header.setFormatVersion(FORMAT_VERSION);
  auto claim = header.initClaim();
  claim.setRuleset(Ruleset::QUEENS);
  claim.setBoardSize(uint16_t(c.variant.rows ? c.variant.rows : c.n));
  if (c.variant.rows) {  // the defaults (queens, square, no holes) stay unset
    const Variant& v = c.variant;
    static const ::Piece kPieces[] = {::Piece::QUEEN, ::Piece::ROOK, ::Piece::BISHOP,
                                           ::Piece::KING, ::Piece::KNIGHT};
    claim.setPiece(kPieces[int(v.piece)]);
    claim.setTorus(v.torus);
    if (v.rows != v.cols) claim.setColumns(uint16_t(v.cols));
    if (!v.holes.empty()) {
      auto holes = claim.initHoles(unsigned(v.holes.size()));
      for (size_t i = 0; i < v.holes.size(); ++i) holes.set(unsigned(i), uint16_t(v.holes[i]));
    }
  }
  auto queens = claim.initQueens(unsigned(c.queens.size()));
  for (size_t i = 0; i < c.queens.size(); ++i) queens.set(unsigned(i), uint16_t(c.queens[i]));
  claim.setHeap(c.heap);
  claim.setOutcome(c.win ? Outcome::WIN : Outcome::LOSS);
  claim.setKind(c.grundy ? ClaimKind::GRUNDY : ClaimKind::OUTCOME);
  header.setCutoff(uint16_t(cutoff));
  static const DefaultReply kReplies[] = {DefaultReply::NONE, DefaultReply::MIRROR180, DefaultReply::MIRROR_FILES,
                                          DefaultReply::MIRROR_RANKS, DefaultReply::MIRROR_DIAGONAL,
                                          DefaultReply::MIRROR_ANTI_DIAGONAL};
  header.setDefaultReply(mirrorDefault || c.mirrorLemma ? kReplies[int(c.mirror)] : DefaultReply::NONE);
  header.setMirrorLemma(c.mirrorLemma);
  header.setParts(c.partsTable);
  header.setReplyCount(tokens);
  header.setChunkCount(chunks);
  header.setProducer(producer);
}

void fillPlan(Obligation::Builder ob, const PlanNode& node) {
  switch (node.kind) {
    case PlanNode::Kind::shard: {
      auto shard = ob.initShard();
      shard.setPath(node.path);
      shard.setSeal(capnp::Data::Reader(node.seal.data(), node.seal.size()));
      break;
    }
    case PlanNode::Kind::winBy: {
      auto win = ob.initWinBy();
      win.setMove(node.token);
      fillPlan(win.initAfter(), node.next.at(0));
      break;
    }
    case PlanNode::Kind::lossBy: {
      auto list = ob.initLossBy(unsigned(node.next.size()));
      for (size_t i = 0; i < node.next.size(); ++i) fillPlan(list[unsigned(i)], node.next[i]);
      break;
    }
  }
}

}  // namespace

CertificateSummary CertificateWriter::finish() {
  flushChunk();
  capnp::MallocMessageBuilder msg;
  fillHeader(msg.initRoot<Header>(), claim_, cutoff_, mirrorDefault_, sum_.tokens, sum_.chunks, producer_);
  auto headerWords = capnp::messageToFlatArray(msg);
  const SealedFile file = writeSealed(path_, headerWords.asBytes().begin(), headerWords.asBytes().size(), spool_->stream());
  sum_.bytes = file.bytes;
  sum_.seal = file.seal;
  return sum_;
}

CertificateSummary writeManifest(const std::string& path, const ClaimSpec& claim, const PlanNode& plan,
                                 const std::string& producer) {
  capnp::MallocMessageBuilder msg;
  auto header = msg.initRoot<Header>();
  fillHeader(header, claim, 0, false, 0, 0, producer);
  fillPlan(header.initPlan(), plan);
  auto words = capnp::messageToFlatArray(msg);
  const SealedFile file = writeHeaderOnlyCertificate(path, words.asBytes().begin(), words.asBytes().size());
  CertificateSummary sum;
  sum.bytes = file.bytes;
  sum.seal = file.seal;
  return sum;
}

CertificateSummary readCertificateSummary(const std::string& path) {
  const SealedFile file = readSealedFile(path);
  CertificateSummary out;
  out.bytes = file.bytes;
  out.tokens = file.replyCount;
  out.seal = file.seal;
  return out;
}

}  // namespace qcert
