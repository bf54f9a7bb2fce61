// The prover's entry points, independent of the command line: build the
// root, search, emit the certificate, report figures.
#pragma once
#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "prover/game/certificate.hpp"
#include "prover/game/proof.hpp"
#include "prover/game/units.hpp"

namespace qcert {

struct ProveRequest {
  int n = 0;
  std::vector<int> queens;  // placed before the root
  uint32_t heap = 0;
  bool grundy = false;      // find and certify the Grundy value instead of the outcome
  std::string out;          // certificate path; empty: search only
  size_t ttMegabytes = 256;
  // Of those, the table's near region for positions of at most
  // TranspositionTable::kNearMaxLive live squares (0: one region; see tt.hpp).
  size_t nearMegabytes = 0;
  int cutoff = 20;          // certificate cut-off K (see README: size vs check time)
  SearchOptions search;     // enhancements (all on by default) and small-solver limit
  bool mirrorDefault = true;
  Variant variant;          // rows = 0: the queens game on the n x n board
  Mirror mirror = Mirror::halfTurn;  // the default reply's map
  bool byMirrorLemma = false;  // certify a loss by the mirror lemma for `mirror` (no search)
  bool parts = false;       // value the position as a sum of independent parts (docs/parts.md)
  int zstdLevel = 12;
  bool progress = false;    // periodic progress on stderr
  int progressEvery = 0;    // > 0: instead, a whole line every this many seconds (logs of long runs)
  // Work units (sharded certificate): used when jobs > 1, unitsDir is set or
  // select.count > 1. Units go to unitsDir (default: <out>.units).
  int jobs = 1;
  std::string unitsDir;
  UnitSelection select;
  std::atomic<bool>* stop = nullptr;  // set by SIGINT/SIGTERM: abandon, keep finished units
  int winBy = -1;  // work units only: claim the position is won by this move; units lie below it
  uint64_t splitAboveNodes = 0;  // work units: split a unit whose search passes this many nodes (0: never)
  bool deterministicUnits = false;  // work units: an emptied table per unit, so re-proving one gives the same bytes
  bool sharded() const { return jobs > 1 || !unitsDir.empty() || select.count > 1 || winBy >= 0; }
};

// The shard files a manifest ties together, whichever run proved them.
struct ShardTotals {
  size_t files = 0;
  uint64_t bytes = 0;
  uint64_t tokens = 0;  // winner decisions
};

struct ProveResult {
  bool win = false;         // outcome for the player to move at (root, heap); loss in grundy mode
  uint32_t grundy = 0;      // grundy mode: the value found
  int winningMove = -1;     // a won root without --out: a winning move (a square, or kHeapMove + h)
  int rootLive = 0;
  SearchStats search;
  EmitStats emit;           // this run's emission (work units: only those proved now)
  CertificateSummary cert;  // what was written; a manifest: bytes and tokens of it and all its shards
  ShardTotals shards;       // a manifest's shards
  double searchSeconds = 0, emitSeconds = 0;
  size_t ttBytes = 0;
  size_t ttNearBytes = 0;  // of which the near region's
  bool sharded = false;     // the certificate is a manifest over unit shards
  bool manifestWritten = false;
  UnitOutcome units;
  uint64_t parts = 0;       // --parts: the parts valued (the table's entries)
};

// Thrown when the stop flag ends a run early (exit status 3).
struct Interrupted : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Thrown when the request's claim is false: --win-by names a move that does
// not win. what() is "d4 does not win: ..." naming the reply that beats it
// (exit status 1).
struct Refuted : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Throws std::invalid_argument for a bad request (n out of range, queen on a
// square that is not live, ...), ResourceError when the table or threads
// cannot be had, Refuted and Interrupted as above.
ProveResult prove(const ProveRequest& req);
// The same with the game's geometry built once by the caller, for all the
// requests of a run: geo is variantGeometry(requestVariant(req)).
ProveResult prove(const Geometry& geo, const ProveRequest& req);

// The request's game: req.variant, or the queens game on the n x n board.
Variant requestVariant(const ProveRequest& req);

// Words for the statement a certificate of this request proves (geo as for prove).
std::string describeClaim(const ProveRequest& req, const ProveResult& res);
std::string describeClaim(const Geometry& geo, const ProveRequest& req, const ProveResult& res);

}  // namespace qcert
