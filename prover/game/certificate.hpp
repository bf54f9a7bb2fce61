// Writes a certificate file (schema/qcert.capnp, docs/certificate-format.md):
// Header, zstd-compressed ReplyChunks, Seal. Reply tokens arrive through the
// ProofSink interface; chunks are spooled to a side file because the header,
// which must come first, records counts known only at the end.
#pragma once
#include <array>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "prover/game/proof.hpp"
#include "prover/geometry.hpp"
#include "prover/output_file.hpp"
#include "prover/sealed_file.hpp"

namespace qcert {

struct ClaimSpec {
  int n = 0;
  std::vector<int> queens;  // squares r*n+c, in placement order
  uint32_t heap = 0;
  bool win = false;         // outcome for the player to move at the root
  bool grundy = false;      // statement form: "Grundy value is heap" (needs !win)
  Variant variant;          // rows = 0: the queens game on the n x n board
  Mirror mirror = Mirror::halfTurn;  // the default reply's map (when it is on)
  bool mirrorLemma = false; // a loss by the mirror lemma for `mirror`: no tokens
  bool partsTable = false;  // the tokens are a table of parts (docs/parts.md), not replies
};

struct CertificateSummary {
  uint64_t bytes = 0;
  uint64_t tokens = 0;
  uint64_t rawTokenBytes = 0;
  uint32_t chunks = 0;
  SealDigest seal{};
  uint32_t firstToken = 0;  // the first winner decision written (0: none, or the default reply):
                            // at a won root above the cut-off, its winning move (as a token there)
};

// A shard manifest's plan (schema: Obligation), built by the unit runner.
struct PlanNode {
  enum class Kind { shard, winBy, lossBy } kind = Kind::shard;
  std::string path;             // shard: file name relative to the manifest
  SealDigest seal{};            // shard: its seal
  uint32_t token = 0;           // winBy: the winning move as a reply token
  std::vector<PlanNode> next;   // winBy: the one position after it; lossBy: one per loser move
};

// Writes a manifest: a certificate whose header carries `plan`, no chunks.
CertificateSummary writeManifest(const std::string& path, const ClaimSpec& claim, const PlanNode& plan,
                                 const std::string& producer);

// A finished certificate's size in bytes, its header's reply count (tokens) and its seal: what a
// work unit finished by an earlier run adds to a manifest's totals.
CertificateSummary readCertificateSummary(const std::string& path);

class CertificateWriter final : public ProofSink {
 public:
  CertificateWriter(std::string path, ClaimSpec claim, int cutoff, bool mirrorDefault,
                    std::string producer, int zstdLevel = 12, size_t chunkBytes = size_t{16} << 20);
  ~CertificateWriter() override;
  void reply(uint32_t token) override;
  // The claim, when it is known only after the tokens (a table of parts).
  void setClaim(const ClaimSpec& claim) { claim_ = claim; }
  CertificateSummary finish();  // writes the file; throws on I/O failure

 private:
  void flushChunk();
  std::string path_;
  std::unique_ptr<OutputFile> spool_;  // the chunks, beside path_ until finish() copies them
  ClaimSpec claim_;
  int cutoff_;
  bool mirrorDefault_;
  std::string producer_;
  int zstdLevel_;
  size_t chunkBytes_;
  std::vector<uint8_t> raw_;
  uint64_t chunkTokens_ = 0;
  CertificateSummary sum_;
};

}  // namespace qcert
