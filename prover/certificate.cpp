#include "prover/certificate.hpp"

#include <capnp/message.h>
#include <capnp/serialize.h>
#include <unistd.h>
#include <xxhash.h>
#include <zstd.h>

#include <cstring>
#include <stdexcept>

#include "prover/count.hpp"
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
  header.setReplyCount(tokens);
  header.setChunkCount(chunks);
  header.setProducer(producer);
}

// Writes header bytes, then the spooled chunk messages (if any), then the
// Seal over everything before it; through an OutputFile (a temporary beside
// path, renamed over it).
void writeSealed(const std::string& path, kj::ArrayPtr<const kj::byte> header, FILE* spool,
                 CertificateSummary& sum) {
  OutputFile out(path);
  XXH3_state_t* st = XXH3_createState();
  XXH3_128bits_reset(st);
  sum.bytes = 0;
  auto put = [&](const void* p, size_t len) {
    out.write(p, len);
    XXH3_128bits_update(st, p, len);
    sum.bytes += len;
  };
  put(header.begin(), header.size());
  if (spool) {
    std::fflush(spool);
    std::rewind(spool);
    std::vector<char> buf(size_t{1} << 20);
    for (size_t got; (got = std::fread(buf.data(), 1, buf.size(), spool)) > 0;) put(buf.data(), got);
  }
  const XXH128_hash_t digest = XXH3_128bits_digest(st);
  XXH3_freeState(st);
  for (int i = 0; i < 8; ++i) {
    sum.seal[i] = uint8_t(digest.high64 >> (56 - 8 * i));
    sum.seal[8 + i] = uint8_t(digest.low64 >> (56 - 8 * i));
  }
  capnp::MallocMessageBuilder sealMsg;
  sealMsg.initRoot<Seal>().setXxh3x128(capnp::Data::Reader(sum.seal.data(), 16));
  auto sealWords = capnp::messageToFlatArray(sealMsg);
  out.write(sealWords.asBytes().begin(), sealWords.asBytes().size());
  sum.bytes += sealWords.asBytes().size();
  out.commit();
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
  writeSealed(path_, headerWords.asBytes(), spool_->stream(), sum_);
  return sum_;
}

CertificateSummary writeManifest(const std::string& path, const ClaimSpec& claim, const PlanNode& plan,
                                 const std::string& producer) {
  capnp::MallocMessageBuilder msg;
  auto header = msg.initRoot<Header>();
  fillHeader(header, claim, 0, false, 0, 0, producer);
  fillPlan(header.initPlan(), plan);
  auto words = capnp::messageToFlatArray(msg);
  CertificateSummary sum;
  writeSealed(path, words.asBytes(), nullptr, sum);
  return sum;
}

CertificateSummary writeHeaderOnlyCertificate(const std::string& path, const void* header, size_t bytes) {
  CertificateSummary sum;
  writeSealed(path, kj::ArrayPtr<const kj::byte>(static_cast<const kj::byte*>(header), bytes), nullptr, sum);
  return sum;
}

SealDigest readSeal(const std::string& path) { return readCertificateSummary(path).seal; }

CertificateSummary readCertificateSummary(const std::string& path) {
  if (!regularFileExists(path)) throw std::runtime_error("cannot open " + path + ": " + std::strerror(ENOENT));
  FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) throw std::runtime_error("cannot open " + path + ": " + std::strerror(errno));
  std::vector<capnp::word> words;
  std::vector<char> buf(size_t{1} << 20);
  std::string bytes;
  for (size_t got; (got = std::fread(buf.data(), 1, buf.size(), f)) > 0;) bytes.append(buf.data(), got);
  std::fclose(f);
  if (bytes.size() % sizeof(capnp::word) != 0 || bytes.empty()) throw std::runtime_error(path + " is not a certificate");
  words.resize(bytes.size() / sizeof(capnp::word));
  std::memcpy(words.data(), bytes.data(), bytes.size());
  kj::ArrayPtr<const capnp::word> rest(words.data(), words.size());
  capnp::ReaderOptions opts;
  opts.traversalLimitInWords = uint64_t{1} << 26;
  CertificateSummary out;
  out.bytes = bytes.size();
  const capnp::word* last = nullptr;
  for (bool header = true; rest.size() > 0; header = false) {
    capnp::FlatArrayMessageReader reader(rest, opts);
    if (header) out.tokens = reader.getRoot<Header>().getReplyCount();
    last = rest.begin();
    rest = kj::arrayPtr(reader.getEnd(), rest.end());
  }
  const capnp::word* end = words.data() + words.size();
  capnp::FlatArrayMessageReader sealReader(kj::arrayPtr(last, end), opts);
  auto digest = sealReader.getRoot<Seal>().getXxh3x128();
  if (digest.size() != 16) throw std::runtime_error(path + ": bad seal");
  std::memcpy(out.seal.data(), digest.begin(), 16);
  return out;
}

CertificateSummary writeCountCertificate(const std::string& path, const CountSpec& spec, const CountResult& result,
                                         const std::string& producer) {
  capnp::MallocMessageBuilder msg;
  auto header = msg.initRoot<Header>();
  header.setFormatVersion(FORMAT_VERSION);
  auto claim = header.initCount();
  switch (spec.problem) {
    case CountProblem::nQueens: claim.setProblem(::CountProblem::N_QUEENS); break;
    case CountProblem::nPlusK: claim.setProblem(::CountProblem::N_PLUS_K); break;
    case CountProblem::torus: claim.setProblem(::CountProblem::TORUS); break;
    case CountProblem::endPositions: claim.setProblem(::CountProblem::END_POSITIONS); break;
    case CountProblem::hp71b: claim.setProblem(::CountProblem::HP71B); break;
  }
  claim.setBoardSize(uint16_t(spec.n));
  claim.setHoles(uint16_t(spec.holes));
  claim.setMaxQueens(uint16_t(spec.maxQueens));
  claim.setCellDepth(uint16_t(spec.depth));
  claim.setProducer(producer);
  std::vector<uint64_t> totals(totalsShape(spec), 0), classes(classesShape(spec), 0);
  uint64_t checksum = 0;
  auto cells = claim.initCells(unsigned(result.cells.size()));
  for (size_t i = 0; i < result.cells.size(); ++i) {
    const CountCell& c = result.cells[i];
    auto out = cells[unsigned(i)];
    auto rows = out.initRows(unsigned(c.rows.size()));
    for (size_t r = 0; r < c.rows.size(); ++r) rows.set(unsigned(r), c.rows[r]);
    auto t = out.initTotals(unsigned(c.totals.size()));
    for (size_t j = 0; j < c.totals.size(); ++j) t.set(unsigned(j), c.totals[j]), totals.at(j) += c.totals[j];
    auto k = out.initClasses(unsigned(c.classes.size()));
    for (size_t j = 0; j < c.classes.size(); ++j) k.set(unsigned(j), c.classes[j]), classes.at(j) += c.classes[j];
    out.setChecksum(c.checksum);
    checksum += c.checksum;
  }
  auto t = claim.initTotals(unsigned(totals.size()));
  for (size_t j = 0; j < totals.size(); ++j) t.set(unsigned(j), totals[j]);
  auto k = claim.initClasses(unsigned(classes.size()));
  for (size_t j = 0; j < classes.size(); ++j) k.set(unsigned(j), classes[j]);
  claim.setChecksum(checksum);
  auto words = capnp::messageToFlatArray(msg);
  CertificateSummary sum;
  writeSealed(path, words.asBytes(), nullptr, sum);
  return sum;
}

}  // namespace qcert
