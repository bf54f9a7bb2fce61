// Shared by the fuzz targets (fuzz/*.cpp): a scratch directory per process,
// sealing file bodies, running the checker's real code path (qcert::checker::check)
// under time and memory limits, and the targets' OWN reference solvers, which
// judge every VERIFIED claim on small boards.  Nothing here comes from prover/:
// the references are written from the rules (README, docs/).
#pragma once

#include "checker/checker.hpp"
#include "schema/qcert.capnp.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace qfuzz {

using Bytes = std::vector<uint8_t>;

// Reports a finding (to stderr) and stops the process so libFuzzer saves the input.
[[noreturn]] void fail(const std::string& what);

// The process's scratch directory ($TMPDIR or /dev/shm, else /tmp), created
// on first use and emptied by clearWorkDir(); removed at exit.
const std::string& workDir();
void clearWorkDir();
// Writes `bytes` to `path` (creating parent directories); false when it cannot.
bool writeFile(const std::string& path, const Bytes& bytes);

// XXH3-128 of `bytes` as the Seal stores it (high 64 bits first, big-endian).
Bytes digestOf(const Bytes& bytes);
// Appends a Seal message with the correct digest of everything before it.
void appendSeal(Bytes& body);

// The verdict of qcert::checker::check on a file, checked against the
// options (VERIFIED, SAMPLED or PART where the other was asked: a finding).
struct CheckResult {
  int status = -1;   // verdict.exitStatus()
  std::string out;   // verdict.line(): empty when the file was not read (verdict.reason says why)
  qcert::checker::Verdict verdict;
};
// --jobs 1, --quiet, --time-limit 2, --max-memory 1024 (QFUZZ_TIME_LIMIT
// overrides the seconds; QFUZZ_VERBOSE=1 prints each verdict on stderr).
// sample/seed and part/parts as checker's --sample/--seed and --part/--of
// (then exit 3 with SAMPLED or PART is a valid answer).
CheckResult runChecker(const std::string& path, unsigned jobs = 1, uint64_t sample = 0, uint64_t seed = 0,
                       uint64_t part = 0, uint64_t parts = 0);

// ---- Game claims (docs/certificate-format.md, "The claim") ---------------
struct GameClaim {
  unsigned n = 0;
  std::vector<unsigned> queens;
  uint64_t heap = 0;
  bool win = false;     // outcome == win
  bool grundy = false;  // kind == grundy (then "G = heap": (L, heap) is a loss)
  // The variant (docs/variants.md): piece 0..4 (queen, rook, bishop, king,
  // knight), the torus, columns (0: square), holes.
  unsigned piece = 0, columns = 0;
  bool torus = false;
  std::vector<unsigned> holes;
};
// The claim of the file's first message (a Header); nullopt if unreadable.
std::optional<GameClaim> readGameClaim(const Bytes& file);
// The reference: true/false when the claim is true/false, nullopt when it is
// out of the reference's reach (n > 6, heap > 8).
std::optional<bool> judgeGameClaim(const GameClaim& c);
// After VERIFIED on `file`: traps when the reference finds the claim false
// (a count certificate's claim goes to judgeVerifiedCountFile).
void judgeVerifiedGameFile(const Bytes& file, const std::string& verdictLine);

// ---- Counts (docs/count-certificates.md) --------------------------------
enum Problem { kNQueens = 0, kNPlusK = 1, kTorus = 2, kEnd = 3, kHp71b = 4 };
struct CellRef {
  std::vector<uint64_t> rows;
  std::vector<uint64_t> totals, classes;
  uint64_t checksum = 0;
};
struct CountRef {
  std::vector<uint64_t> totals, classes;
  uint64_t checksum = 0;
  std::vector<CellRef> cells;  // every admissible prefix of the depth asked, in order
};
// The reference count (placements enumerated by a plain search of its own),
// with the cells of depth `depth`; nullopt when out of reach (nPlusK; n above
// 8 for queens/torus, 6 for end positions and hp71b).
std::optional<CountRef> referenceCount(unsigned problem, unsigned n, unsigned holes, unsigned maxQueens, unsigned depth);
// After VERIFIED on a count file: traps when the reference disagrees with
// the claim's totals or classes.
void judgeVerifiedCountFile(const Bytes& file, const std::string& verdictLine);
// A VERIFIED header-only certificate of one game family (mod-2, partizan):
// when its Header is of that family (`ours`), `judge` decides the claim
// (nullopt: beyond the reference) and a false one is a finding; a file of
// another family goes to judgeVerifiedCountFile; an unreadable Header is a
// finding.
void judgeVerifiedHeaderFile(const Bytes& file, const std::string& verdictLine, const std::string& family,
                             const std::function<bool(::Header::Reader)>& ours,
                             const std::function<std::optional<bool>(::Header::Reader)>& judge);

// A little reader over the fuzz input.
struct Input {
  const uint8_t* p;
  size_t n;
  size_t pos = 0;
  bool empty() const { return pos >= n; }
  uint8_t byte() { return pos < n ? p[pos++] : 0; }
  uint16_t u16() { uint16_t a = byte(); return uint16_t(a | uint16_t(byte()) << 8); }
  Bytes take(size_t k) {
    k = std::min(k, n - std::min(n, pos));
    Bytes b(p + pos, p + pos + k);
    pos += k;
    return b;
  }
  Bytes rest() { return take(n - std::min(n, pos)); }
};

// The file a certificate target checks, by `mode` (0..2): the rest of the
// input as it is; the rest cut to whole words with a correct Seal appended,
// so that mutations get past the seal; or structured(in).  Written into the
// emptied work directory as `name`; returns its path and the bytes.
std::string writeCertificateInput(Input& in, unsigned mode, Bytes (*structured)(Input), const std::string& name, Bytes& file);

}  // namespace qfuzz
