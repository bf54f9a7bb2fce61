#include "prover/game/sharded.hpp"

#include <atomic>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

#include "prover/game/progress.hpp"
#include "prover/game/request_header.hpp"
#include "prover/game/unit_plan.hpp"
#include "prover/game/unit_runner.hpp"

namespace qcert {

namespace fs = std::filesystem;

namespace {

// The plan below the split position: unit i is a shard, or (split) the
// winner's move then a shard per loser reply. Throws when a file is missing.
// `shards` adds up every shard's bytes and reply tokens, those of units an
// earlier (interrupted) run finished included: the figures the checker meets.
template <int W>
PlanNode unitPlan(const Graph<W>& g, const Bits<W>& root, uint32_t heap, const fs::path& dir,
                  const fs::path& relDir, size_t& splitCount, ShardTotals& shards) {
  const std::vector<int> moves = loserMoves(g, root, heap);
  const PlanPosition<W> split{root, heap, {}, -1};
  auto shard = [&](const fs::path& rel) {
    PlanNode node;
    node.path = (relDir / rel).generic_string();
    const CertificateSummary file = readCertificateSummary((dir / rel).string());
    node.seal = file.seal;
    ++shards.files;
    shards.bytes += file.bytes;
    shards.tokens += file.tokens;
    return node;
  };
  PlanNode plan;
  plan.kind = PlanNode::Kind::lossBy;
  for (size_t i = 0; i < moves.size(); ++i) {
    if (fs::exists(dir / unitFileName(i)) || !fs::exists(dir / splitMarkerName(i))) {
      if (!fs::exists(dir / unitFileName(i))) throw std::logic_error("unit " + unitFileName(i) + " missing after a complete run");
      plan.next.push_back(shard(unitFileName(i)));
      continue;
    }
    const PlanPosition<W> unit = split.after(g, moves[i]);
    const int w = splitMoveAt(dir / splitMarkerName(i), unit);
    const PlanPosition<W> afterW = unit.after(g, w);
    PlanNode loss;
    loss.kind = PlanNode::Kind::lossBy;
    const size_t subs = loserMoves(g, afterW.live, afterW.heap).size();
    for (size_t j = 0; j < subs; ++j) loss.next.push_back(shard(fs::path(subUnitFolder(i)) / subUnitFileName(j)));
    PlanNode win;
    win.kind = PlanNode::Kind::winBy;
    win.token = unit.token(w);
    win.next.push_back(std::move(loss));
    plan.next.push_back(std::move(win));
    ++splitCount;
  }
  return plan;
}

}  // namespace

template <int W>
ProveResult proveSharded(const Geometry& geo, const Graph<W>& g, const Bits<W>& root, TranspositionTable& tt,
                         const ProveRequest& req) {
  if (req.out.empty() && (req.select.count == 1 || req.unitsDir.empty()))
    throw std::invalid_argument("work units need --out (the manifest); --unit/--of workers may give --units DIR instead");
  ProveResult res;
  res.sharded = true;
  res.ttBytes = tt.bytes();
  res.ttNearBytes = tt.nearBytes();
  res.rootLive = root.count();
  const fs::path manifestDir = fs::absolute(req.out.empty() ? fs::path(".") : fs::path(req.out)).parent_path();
  const fs::path base = fs::absolute(req.unitsDir.empty() ? fs::path(req.out + ".units") : fs::path(req.unitsDir));
  const fs::path relBase = fs::relative(base, manifestDir);
  if (!req.out.empty() && (relBase.empty() || relBase.string().find("..") != std::string::npos))
    throw std::invalid_argument("--units must be a directory inside the directory of --out");
  // --win-by M: the claim is that M wins; the units lie below it.
  Bits<W> split = root;
  std::vector<int> splitQueens = req.queens;
  if (req.winBy >= 0) {
    if (req.grundy) throw std::invalid_argument("--win-by applies to prove, not grundy");
    if (!root.test(req.winBy))
      throw std::invalid_argument("--win-by " + geo.squareName(req.winBy) + " is not a legal move here");
    split = root.andNot(g.kill[req.winBy]);
    splitQueens.push_back(req.winBy);
  }
  // Units no certificate refers to serve no resume once the claim is
  // decided: heaps [from, to) are removed, and the units folder when it is
  // empty then and this run made it or it is the default <out>.units. Only
  // the sole worker removes anything: other workers may still be writing.
  const bool baseExisted = fs::exists(base);
  auto dropUnits = [&](uint32_t from, uint32_t to) {
    if (req.select.count != 1) return;
    std::error_code ignored;  // a file that stays changes no result
    for (uint32_t h = from; h < to; ++h) fs::remove_all(base / ("h" + std::to_string(h)), ignored);
    if (!baseExisted || req.unitsDir.empty()) fs::remove(base, ignored);  // only when empty
  };
  std::atomic<uint64_t> nodesSoFar{0};
  ProgressReporter progress(req.progress, req.progressEvery, [&] { return nodesSoFar.load(); });
  auto t0 = Clock::now();
  uint32_t heap = req.grundy ? 0 : req.heap;
  for (;; ++heap) {
    const fs::path dir = base / ("h" + std::to_string(heap));
    res.units = runUnits<W>(g, split, splitQueens, heap, tt, req, dir, res.search, progress);
    nodesSoFar = res.search.nodes;
    if (res.units.interrupted)
      throw Interrupted("interrupted: " + std::to_string(res.units.resumed + res.units.proved) + " of " +
                        std::to_string(res.units.mine) + " units are finished in " + dir.string() +
                        "; run the same command again to resume");
    if (!req.grundy || res.units.losingMove < 0) break;
    if (heap == 255) throw std::runtime_error("Grundy value above 255 is not supported");
  }
  res.searchSeconds = since(t0);
  if (req.winBy >= 0 && res.units.losingMove >= 0) {
    dropUnits(heap, heap + 1);  // a false claim
    const int reply = res.units.losingMove;
    const std::string replyName = isHeapMove(reply) ? "lowering the heap to " + std::to_string(reply - kHeapMove)
                                                    : geo.squareName(reply);
    throw Refuted(geo.squareName(req.winBy) + " does not win: the reply " + replyName +
                  " beats it (after both, the player to move loses)");
  }
  res.win = res.units.losingMove >= 0 || req.winBy >= 0;
  res.grundy = heap;
  res.emit = res.units.emit;
  res.cert.bytes = res.units.certBytes;  // a partial worker's: the units it proved now
  res.cert.tokens = res.emit.decisions;
  if (req.select.count > 1) return res;  // a partial worker: the full run writes the manifest
  if (res.win && req.winBy < 0) {
    // The position is not lost: one unit is a losing move for the opponent,
    // so the root is won by it. Prove that directly into one certificate
    // (the table is warm from the units).
    auto t1 = Clock::now();
    Solver<W> solver(g, tt, req.search);
    solver.stop = req.stop;
    ClaimSpec claim = claimOf(req, req.queens, heap, true, false);
    CertificateWriter writer(req.out, claim, req.cutoff, req.mirrorDefault, producerText(req), req.zstdLevel);
    ProofEmitter<W> emitter(g, solver, writer, EmitOptions{req.cutoff, req.mirrorDefault, req.mirror});
    const bool complete = emitter.emit(root, heap, true);
    if (!complete || (req.stop && req.stop->load())) throw Interrupted("interrupted while writing the certificate");
    res.cert = writer.finish();
    res.emit = emitter.stats;
    res.search.add(solver.stats);
    res.emitSeconds = since(t1);
    res.sharded = false;
    dropUnits(heap, heap + 1);  // the certificate holds the whole proof
    return res;
  }
  // Every unit is proved: the split position is lost; tie the shards together.
  auto t1 = Clock::now();
  size_t splitCount = 0;
  const std::string hDir = "h" + std::to_string(heap);
  PlanNode plan = unitPlan<W>(g, split, heap, base / hDir, relBase / hDir, splitCount, res.shards);
  ClaimSpec claim = claimOf(req, req.queens, heap, false, req.grundy);
  if (req.winBy >= 0) {  // root: win by the move, then the lost position's units
    PlanNode win;
    win.kind = PlanNode::Kind::winBy;
    win.token = uint32_t(root.countBelow(req.winBy) + 1);
    win.next.push_back(std::move(plan));
    plan = std::move(win);
    claim.win = true;
  }
  const CertificateSummary m = writeManifest(req.out, claim, plan, producerText(req) + ", manifest over " +
                                                                      std::to_string(res.units.units) + " units" +
                                                                      (splitCount ? ", " + std::to_string(splitCount) + " of them split" : ""));
  res.manifestWritten = true;
  dropUnits(req.grundy ? 0 : heap, heap);  // a Grundy value's smaller heaps, won: the manifest names only this one
  res.cert.bytes = res.shards.bytes + m.bytes;
  res.cert.tokens = res.shards.tokens;
  res.emitSeconds = since(t1);
  return res;
}

template ProveResult proveSharded<1>(const Geometry&, const Graph<1>&, const Bits<1>&, TranspositionTable&,
                                        const ProveRequest&);
template ProveResult proveSharded<2>(const Geometry&, const Graph<2>&, const Bits<2>&, TranspositionTable&,
                                        const ProveRequest&);
template ProveResult proveSharded<4>(const Geometry&, const Graph<4>&, const Bits<4>&, TranspositionTable&,
                                        const ProveRequest&);
template ProveResult proveSharded<8>(const Geometry&, const Graph<8>&, const Bits<8>&, TranspositionTable&,
                                        const ProveRequest&);

}  // namespace qcert
