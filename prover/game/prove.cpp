// A request's run: one search and one certificate, or (work units) the
// sharded run, the mirror lemma's certificate, or the table of parts.
#include "prover/game/prove.hpp"

#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "prover/game/parts.hpp"
#include "prover/game/progress.hpp"
#include "prover/game/request_header.hpp"
#include "prover/game/sharded.hpp"

namespace qcert {

namespace {

namespace fs = std::filesystem;

// Why the i-th given queen cannot be placed: its square is named twice, or an
// earlier queen attacks it.
std::string whyNotFree(const Geometry& geo, const std::vector<int>& queens, size_t i) {
  const int q = queens[i];
  const std::string name = geo.squareName(q) + " " + geo.squarePaper(q);
  for (size_t k = 0; k < i; ++k)
    if (queens[k] == q) return "the queens name " + name + " twice";
  return "queen on " + name + " is attacked by an earlier queen";
}

template <int W>
ProveResult proveWith(const Geometry& geo, const ProveRequest& req) {
  Graph<W> g(geo);
  Bits<W> root = g.all;
  for (size_t i = 0; i < req.queens.size(); ++i) {
    const int q = req.queens[i];
    if (q < 0 || q >= geo.squares) throw std::invalid_argument("queen square out of range");
    if (!root.test(q)) throw std::invalid_argument(whyNotFree(geo, req.queens, i));
    root = root.andNot(g.kill[q]);
  }
  TranspositionTable tt(req.ttMegabytes, req.nearMegabytes);
  Solver<W> solver(g, tt, req.search);
  solver.stop = req.stop;  // a stopped search's answers are discarded below, and never stored in the table
  ProveResult res;
  res.ttBytes = tt.bytes();
  res.ttNearBytes = tt.nearBytes();
  res.rootLive = root.count();
  if (req.sharded()) return proveSharded<W>(geo, g, root, tt, req);
  ProgressReporter progress(req.progress, req.progressEvery, [&] { return solver.publishedNodes.load(std::memory_order_relaxed); });

  auto t0 = Clock::now();
  uint32_t heap = req.heap;
  if (req.grundy) {
    heap = 0;
    while (solver.wins(root, heap)) {
      if (req.stop && req.stop->load()) break;  // a stopped search answers "win": reported as interrupted below
      if (++heap > 255) throw std::runtime_error("Grundy value above 255 is not supported");
    }
    res.grundy = heap;
    res.win = false;
  } else {
    res.win = solver.wins(root, heap);
    // For the RESULT line, when no certificate names one: after the search
    // the table knows the root's move, so this is cheap. (Not before an
    // emission: its searches could change what the certificate holds.)
    if (res.win && req.out.empty() && !(req.stop && req.stop->load())) res.winningMove = solver.winningMove(root, heap);
  }
  res.searchSeconds = since(t0);
  if (req.stop && req.stop->load())
    throw Interrupted("interrupted; this run has no work units, so nothing is kept (use --jobs or --units DIR for resumable runs)");

  if (!req.out.empty()) {
    progress.phase("certificate");
    auto t1 = Clock::now();
    ClaimSpec claim = claimOf(req, req.queens, heap, res.win, req.grundy);
    std::string producer = producerText(req, true, false);
    CertificateWriter writer(req.out, claim, req.cutoff, req.mirrorDefault, producer, req.zstdLevel);
    ProofEmitter<W> emitter(g, solver, writer, EmitOptions{req.cutoff, req.mirrorDefault, req.mirror});
    const bool complete = emitter.emit(root, heap, res.win);
    // Searches cut short by the stop flag may have chosen wrong replies.
    if (!complete || (req.stop && req.stop->load())) throw Interrupted("interrupted while writing the certificate; nothing is kept");
    res.cert = writer.finish();
    res.emit = emitter.stats;
    res.emitSeconds = since(t1);
  }
  res.search = solver.stats;
  return res;
}

// The mirror lemma (docs/variants.md): an automorphism sigma of order 2 with
// no live square attacking (or being) its own image, and a sigma-invariant
// live set: every move v is answered by sigma(v), so the player to move loses.
ProveResult proveByMirrorLemma(const Geometry& geo, const ProveRequest& req) {
  if (req.heap != 0) throw std::invalid_argument("--by-mirror-lemma needs heap 0");
  std::vector<int> sigma(geo.squares);
  for (int s = 0; s < geo.squares; ++s)
    if ((sigma[s] = geo.mirrorImage(req.mirror, s)) < 0)
      throw std::invalid_argument(std::string("--mirror ") + mirrorName(req.mirror) + " is not a map of this board");
  bool inGroup = false;
  for (const auto& map : geo.group) inGroup |= map == sigma;
  if (!inGroup)
    throw std::invalid_argument(std::string("the mirror lemma does not apply: the ") + mirrorName(req.mirror) +
                                " map is not a symmetry of this game");
  std::vector<char> live(geo.squares);
  for (int s = 0; s < geo.squares; ++s) live[s] = !geo.isHole[s];
  auto place = [&](int q) {
    if (q < 0 || q >= geo.squares || !live[q]) throw std::invalid_argument("queen on " + geo.squareName(q) + " is not a legal move");
    for (int t : geo.kills[q]) live[t] = 0;
  };
  for (int q : req.queens) place(q);
  uint32_t winToken = 0;  // with --win-by: that move, then the lemma
  if (req.winBy >= 0) {
    for (int s = 0; s < req.winBy; ++s) winToken += live[s];
    ++winToken;
    place(req.winBy);
  }
  for (int s = 0; s < geo.squares; ++s) {
    if (!live[s]) continue;
    if (!live[sigma[s]]) throw std::invalid_argument("the mirror lemma does not apply: " + geo.squareName(s) + " is live and its image " + geo.squareName(sigma[s]) + " is not");
    for (int t : geo.kills[s])
      if (t == sigma[s]) throw std::invalid_argument("the mirror lemma does not apply: " + geo.squareName(s) + " attacks (or is) its own image");
  }
  ProveResult res;
  res.win = req.winBy >= 0;
  res.grundy = 0;
  for (char l : live) res.rootLive += l;
  if (req.out.empty()) return res;
  auto t1 = Clock::now();
  if (req.winBy < 0) {
    ClaimSpec claim = claimOf(req, req.queens, 0, false, req.grundy);
    claim.mirrorLemma = true;
    CertificateWriter writer(req.out, claim, 0, false, producerText(req, false) + ", mirror lemma", req.zstdLevel);
    res.cert = writer.finish();
  } else {  // a manifest: win by the move, then one shard, the lemma's certificate
    std::vector<int> after = req.queens;
    after.push_back(req.winBy);
    ClaimSpec lost = claimOf(req, after, 0, false, false);
    lost.mirrorLemma = true;
    const fs::path shardPath = fs::path(req.out + ".lemma.qcert");
    CertificateWriter writer(shardPath.string(), lost, 0, false, producerText(req, false) + ", mirror lemma", req.zstdLevel);
    res.cert = writer.finish();
    PlanNode shard;
    shard.path = shardPath.filename().string();
    shard.seal = res.cert.seal;
    PlanNode plan;
    plan.kind = PlanNode::Kind::winBy;
    plan.token = winToken;
    plan.next.push_back(std::move(shard));
    const CertificateSummary m = writeManifest(req.out, claimOf(req, req.queens, 0, true, false), plan,
                                               producerText(req, false) + ", win by a move then the mirror lemma");
    res.cert.bytes += m.bytes;
    res.manifestWritten = true;  // not "sharded": no work units to report
  }
  res.emitSeconds = since(t1);
  return res;
}

// The position as a sum of independent parts (docs/parts.md): its Grundy
// value, and with --out the table of every part valued.
template <int W>
ProveResult proveByParts(const Geometry& geo, const ProveRequest& req) {
  if (req.sharded()) throw std::invalid_argument("--parts writes one certificate: it takes no --jobs above 1, --units or --win-by");
  Graph<W> g(geo);
  Bits<W> root = g.all;
  for (size_t i = 0; i < req.queens.size(); ++i) {
    const int q = req.queens[i];
    if (!root.test(q)) throw std::invalid_argument(whyNotFree(geo, req.queens, i));
    root = root.andNot(g.kill[q]);
  }
  ProveResult res;
  res.rootLive = root.count();
  std::unique_ptr<CertificateWriter> writer;
  if (!req.out.empty()) {
    ClaimSpec claim = claimOf(req, req.queens, 0, false, req.grundy);  // heap and outcome: set once known
    claim.partsTable = true;
    writer = std::make_unique<CertificateWriter>(req.out, claim, 0, false, "qcert prover; a table of parts, zstd " + std::to_string(req.zstdLevel), req.zstdLevel);
  }
  PartsSolver<W> solver(g, writer.get());
  solver.stop = req.stop;
  ProgressReporter progress(req.progress, req.progressEvery, [&] { return solver.options; });
  const auto t0 = Clock::now();
  uint32_t value = 0;
  try {
    value = solver.value(root);
  } catch (const std::runtime_error&) {
    if (req.stop && req.stop->load()) throw Interrupted("interrupted; nothing is kept");
    throw;
  }
  res.searchSeconds = since(t0);
  res.search.nodes = solver.options;
  res.parts = solver.parts();
  res.grundy = value;
  const uint32_t heap = req.grundy ? value : req.heap;
  res.win = (value ^ heap) != 0;
  if (res.win && value < heap) res.winningMove = kHeapMove + int(value);
  // A board move's option splits into parts of the root's parts' options, all valued by now.
  if (res.win && value > heap)
    root.forEach([&](int v) {
      if (res.winningMove < 0 && solver.value(root.andNot(g.kill[v])) == heap) res.winningMove = v;
    });
  if (writer) {
    ClaimSpec claim = claimOf(req, req.queens, heap, res.win, req.grundy);
    claim.partsTable = true;
    writer->setClaim(claim);
    res.cert = writer->finish();
    res.cert.tokens = res.parts;
  }
  return res;
}

}  // namespace

Variant requestVariant(const ProveRequest& req) { return req.variant.rows ? req.variant : squareVariant(req.n); }

ProveResult prove(const ProveRequest& request) {
  return prove(variantGeometry(requestVariant(request)), request);  // throws on a bad board
}

ProveResult prove(const Geometry& geo, const ProveRequest& request) {
  ProveRequest req = request;  // with the board's own interleave threshold, which the producer text names
  req.search.interleaveAbove = req.search.interleaveThreshold(geo.squares);
  if (req.byMirrorLemma) return proveByMirrorLemma(geo, req);
  if (req.heap > 255) throw std::invalid_argument("heap must be at most 255");
  if (req.parts) {
    if (geo.squares <= 64) return proveByParts<1>(geo, req);
    if (geo.squares <= 128) return proveByParts<2>(geo, req);
    if (geo.squares <= 256) return proveByParts<4>(geo, req);
    return proveByParts<8>(geo, req);
  }
  if (req.cutoff < 0 || req.cutoff > 32) throw std::invalid_argument("cutoff must be between 0 and 32");
  if (geo.squares <= 64) return proveWith<1>(geo, req);
  if (geo.squares <= 128) return proveWith<2>(geo, req);
  if (geo.squares <= 256) return proveWith<4>(geo, req);
  return proveWith<8>(geo, req);
}

std::string describeClaim(const ProveRequest& req, const ProveResult& res) {
  return describeClaim(variantGeometry(requestVariant(req)), req, res);
}

std::string describeClaim(const Geometry& geo, const ProveRequest& req, const ProveResult& res) {
  const Variant v = requestVariant(req);
  const std::string size = std::to_string(req.n) + "x" + std::to_string(req.n);
  std::string board;
  if (!v.plainQueens()) {  // "the empty 8x8 torus with kings"
    std::string where = boardWords(v);
    board = req.queens.empty() ? "the empty " + where.substr(4) : where + " after " + pieceName(v.piece, true) + " ";
    for (size_t i = 0; i < req.queens.size(); ++i) board += (i ? ", " : "") + geo.squareName(req.queens[i]);
    board += std::string(v.holes.empty() ? " with " : ", playing ") + pieceName(v.piece, true);
  } else if (req.queens.empty()) {
    board = "the empty " + size + " board";
  } else {
    board = "the " + size + " board after queens ";
    for (size_t i = 0; i < req.queens.size(); ++i)
      board += (i ? ", " : "") + geo.squareName(req.queens[i]) + " " + geo.squarePaper(req.queens[i]);
  }
  // A mirror-lemma certificate (not the --win-by manifest) says so, as the checker does.
  static const char* const kMaps[] = {"", "half turn", "mirror in the files", "mirror in the ranks", "mirror in the diagonal", "mirror in the antidiagonal"};
  const std::string lemma = req.byMirrorLemma && req.winBy < 0 ? std::string(", by the mirror lemma (") + kMaps[int(req.mirror)] + ")" : "";
  if (req.grundy) return "the Grundy value of " + board + " is " + std::to_string(res.grundy) + lemma;
  std::string who = req.queens.empty() ? (res.win ? "first player wins" : "second player wins")
                                       : (res.win ? "the player to move wins" : "the player to move loses");
  std::string s = who + " on " + board;
  if (req.heap) s += " with a Nim heap of " + std::to_string(req.heap) + " added";
  return s + lemma;
}

}  // namespace qcert
