#include "prover/game/prove.hpp"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <system_error>
#include <thread>

#include "prover/game/parts.hpp"
#include "prover/memory.hpp"
#include "prover/output_file.hpp"

namespace qcert {

namespace {

using Clock = std::chrono::steady_clock;

std::string describeVariant(const ProveRequest& req) {
  const Variant v = requestVariant(req);
  return std::string(pieceName(v.piece, true)) + " on " + boardWords(v);
}

ClaimSpec claimOf(const ProveRequest& req, const std::vector<int>& queens, uint32_t heap, bool win, bool grundy) {
  ClaimSpec c{req.n, queens, heap, win, grundy, {}, Mirror::halfTurn, false};
  c.variant = requestVariant(req);
  c.mirror = req.mirror;
  return c;
}
double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// Prints nodes and rate on stderr every second once a run passes two
// seconds, rewriting one terminal line; or, with everySeconds > 0, as a
// whole line every that many seconds, for the log of a run of hours.
class ProgressReporter {
 public:
  ProgressReporter(bool enabled, int everySeconds, std::function<uint64_t()> nodes)
      : nodes_(std::move(nodes)), every_(everySeconds) {
    if (enabled || every_ > 0) thread_ = std::thread([this] { loop(); });
  }
  ~ProgressReporter() {
    {
      std::lock_guard lk(m_);
      done_ = true;
    }
    cv_.notify_all();
    if (thread_.joinable()) thread_.join();
  }
  void phase(const char* name) { phase_.store(name); }
  // Replaces the node counter (nullptr: back to the one given at construction).
  void nodes(std::function<uint64_t()> f) {
    std::lock_guard lk(m_);
    override_ = std::move(f);
  }
  // Extra text for each report; the reporter reads it under the same lock.
  void extra(std::function<std::string()> f) {
    std::lock_guard lk(m_);
    extra_ = std::move(f);
  }

 private:
  void loop() {
    const auto start = Clock::now();
    std::unique_lock lk(m_);
    double next = every_ > 0 ? every_ : 2;
    while (!cv_.wait_for(lk, std::chrono::seconds(1), [this] { return done_; })) {
      const double t = since(start);
      if (t < next) continue;
      if (every_ > 0) next += every_;
      const uint64_t nodes = override_ ? override_() : nodes_();
      std::fprintf(stderr, "%s[%s] %.0fs  %.3g nodes  %.3g nodes/s  rss %ld MiB%s%s", every_ > 0 ? "" : "\r",
                   phase_.load(), t, double(nodes), nodes / t, peakRssKiB() / 1024, extra_ ? extra_().c_str() : "",
                   every_ > 0 ? "\n" : "   ");
      std::fflush(stderr);
      printed_ = every_ == 0;
    }
    if (printed_) std::fprintf(stderr, "\n");
  }
  std::function<uint64_t()> nodes_, override_;
  int every_;
  std::atomic<const char*> phase_{"search"};
  std::function<std::string()> extra_;
  std::thread thread_;
  std::mutex m_;
  std::condition_variable cv_;
  bool done_ = false, printed_ = false;
};

namespace fs = std::filesystem;

// searched: false for certificates the mirror lemma makes without a search.
std::string producerText(const ProveRequest& req, bool searched = true, bool units = true) {
  std::string text = "qcert prover; cutoff " + std::to_string(req.cutoff) + ", small solver " +
                     std::to_string(req.search.smallLimit) + ", zstd " + std::to_string(req.zstdLevel);
  // Named only when on, so shards made before the option keep their bytes.
  if (searched && req.search.ordering && req.search.interleaveAbove > 0)
    text += ", interleaved order above " + std::to_string(req.search.interleaveAbove) + " squares";
  // What re-proving a deterministic unit needs to give the same bytes.
  if (units && req.deterministicUnits)
    text += ", deterministic unit with a " + std::to_string(req.ttMegabytes) + " MiB table" +
            (req.nearMegabytes ? " (" + std::to_string(req.nearMegabytes) + " MiB of it near)" : "");
  return text;
}

// A position of the unit plan: the split position followed by moves.
template <int W>
struct PlanPosition {
  Bits<W> live;
  uint32_t heap;
  std::vector<int> queens;  // the claim's queens: the root's and every board move since
  int lastMove = -1;        // the move into it (-1: none or a heap move)
  PlanPosition after(const Graph<W>& g, int m) const {
    PlanPosition p = *this;
    if (isHeapMove(m)) {
      p.heap = uint32_t(m - kHeapMove);
      p.lastMove = -1;
    } else {
      p.live = live.andNot(g.kill[m]);
      p.queens.push_back(m);
      p.lastMove = m;
    }
    return p;
  }
  // The move's token as the checker numbers the moves here (schema WinSplit).
  uint32_t token(int m) const {
    return isHeapMove(m) ? uint32_t(live.count() + 1 + (m - kHeapMove)) : uint32_t(live.countBelow(m) + 1);
  }
};

// The second split level: a unit whose search passed --split-above nodes
// keeps the winner's move it was trying in uNNNNN.split; its sub-units, one
// per loser reply below that move, are sNNNNN.qcert in the folder uNNNNN/.
std::string splitMarkerName(size_t i) { return unitFileName(i).substr(0, 6) + ".split"; }
std::string subUnitFolder(size_t i) { return unitFileName(i).substr(0, 6); }
std::string subUnitFileName(size_t j) { return "s" + unitFileName(j).substr(1); }
std::string subLostMarkerName(size_t j) { return "s" + lostMarkerName(j).substr(1); }

// The winner's move kept in a split marker (throws when it is malformed).
int readSplitMove(const fs::path& file) {
  if (!regularFileExists(file.string())) throw std::runtime_error(file.string() + " is missing");
  std::ifstream in(file);
  std::string word;
  long long m = -1;
  if (!(in >> word >> m) || word != "move" || m < 0 || m > 0xffff)
    throw std::runtime_error(file.string() + " is not a split marker (want: move <code>)");
  return int(m);
}

// The split marker's move, which must be a legal move at the unit's position.
template <int W>
int splitMoveAt(const fs::path& file, const PlanPosition<W>& unit) {
  const int w = readSplitMove(file);
  const bool legal = isHeapMove(w) ? uint32_t(w - kHeapMove) < unit.heap : w < int(W * 64) && unit.live.test(w);
  if (!legal) throw std::runtime_error(file.string() + " names a move that is not legal in its unit");
  return w;
}

// The directory belongs to one claim: its units.id names it, and units of
// another claim are refused.
void claimUnitsDirectory(const ProveRequest& req, uint32_t heap, const std::vector<int>& rootQueens,
                         const std::vector<int>& moves, const fs::path& dir) {
  std::ostringstream id;
  id << "qcert units v1 n=" << req.n << " heap=" << heap << " queens=";
  if (!requestVariant(req).plainQueens()) id << " variant=" << describeVariant(req) << " ";
  for (int q : rootQueens) id << q << ",";
  id << " moves=";
  for (int m : moves) id << m << ",";
  const fs::path idFile = dir / "units.id";
  if (regularFileExists(idFile.string())) {
    std::ifstream in(idFile);
    std::string have((std::istreambuf_iterator<char>(in)), {});
    if (have != id.str() + "\n") throw std::invalid_argument(dir.string() + " holds units of a different claim");
  } else {
    writeFileReplacing(idFile.string(), id.str() + "\n");
  }
}

// Proves (or finds lost) every unit of `select` below the split position;
// writes each proved unit to dir/uNNNNN.qcert. With --split-above, in three
// passes: every unit under the node budget (one over it is split instead),
// then the split units' sub-units, then whole any split unit whose guessed
// move a sub-unit refuted.
template <int W>
class UnitRunner {
 public:
  UnitRunner(const Graph<W>& g, PlanPosition<W> split, std::vector<int> moves, TranspositionTable& tt,
             const ProveRequest& req, const fs::path& dir, ProgressReporter& progress)
      : g_(g), split_(std::move(split)), moves_(std::move(moves)), tt_(tt), req_(req), dir_(dir), progress_(progress),
        workers_(std::max(1, req.jobs)), current_(size_t(workers_)), emitMemos_(size_t(workers_)),
        runningUnit_(size_t(workers_)), runningSub_(size_t(workers_)) {}

  // out: the outcome so far (units); filled in. searchTotal: every solver's figures added.
  void run(UnitOutcome& out, SearchStats& searchTotal);

 private:
  // A work item: a whole unit (sub < 0), or sub-unit `sub` of a split unit.
  struct Item {
    size_t unit;
    long sub;
    bool budget;  // a whole unit under --split-above's budget
  };
  bool mine(size_t i) const { return int(i % size_t(req_.select.count)) == req_.select.index; }
  void startSolvers();
  std::string progressText(const UnitOutcome& out) const;
  bool proveItem(size_t t, const Item& item);
  bool proveAndWrite(size_t t, const Item& item, const PlanPosition<W>& pos, const fs::path& file,
                     const fs::path& lostMarker);
  void runPass(const std::vector<Item>& items);
  std::vector<Item> splitPassItems(int pass, UnitOutcome& out);

  const Graph<W>& g_;
  const PlanPosition<W> split_;  // the position the units lie below
  const std::vector<int> moves_;  // unit i: the loser's move moves_[i] there
  TranspositionTable& tt_;
  const ProveRequest& req_;
  const fs::path& dir_;
  ProgressReporter& progress_;
  const int workers_;

  std::atomic<size_t> resumed_{0}, proved_{0}, splitNow_{0}, subDone_{0}, subTotal_{0};
  std::atomic<int> losing_{-1};
  std::atomic<bool> halt_{false};  // a unit was found lost (single worker set only) or a signal came
  std::atomic<bool> signalled_{false};
  std::mutex statsMutex_;
  EmitStats emitTotal_;
  uint64_t bytes_ = 0;
  // --deterministic: each worker has its own table of --tt-mb, emptied
  // before every unit, and a fresh solver per unit, so a unit's certificate
  // depends on nothing but the unit and the table's size: proving it again,
  // on any thread, in any order, with any --jobs, gives the same bytes.
  std::vector<std::unique_ptr<TranspositionTable>> tables_;
  std::vector<std::unique_ptr<Solver<W>>> solvers_;  // every solver made, kept for the totals and progress
  std::vector<std::atomic<Solver<W>*>> current_;
  std::vector<EmitMemo<W>> emitMemos_;  // one per thread, reused by its units
  std::mutex solversMutex_;
  // What each thread is proving (-1: nothing), for the progress line.
  std::vector<std::atomic<long>> runningUnit_, runningSub_;
  Clock::time_point unitsStart_;
  std::string threadError_;
};

template <int W>
void UnitRunner<W>::startSolvers() {
  for (int t = 0; t < workers_; ++t) {
    if (req_.deterministicUnits)
      tables_.push_back(std::make_unique<TranspositionTable>(req_.ttMegabytes, req_.nearMegabytes));
    solvers_.push_back(std::make_unique<Solver<W>>(g_, req_.deterministicUnits ? *tables_.back() : tt_, req_.search));
    solvers_.back()->stop = &halt_;
    current_[t] = solvers_.back().get();
  }
}

template <int W>
std::string UnitRunner<W>::progressText(const UnitOutcome& out) const {
  const size_t done = resumed_ + proved_, fresh = proved_;
  std::string text = "  units " + std::to_string(done) + " of " + std::to_string(out.mine) +
                     (size_t(out.mine) == moves_.size() ? "" : " (" + std::to_string(moves_.size()) + " in all)");
  if (splitNow_ + out.splitUnits) text += ", split " + std::to_string(splitNow_ + out.splitUnits);
  if (subTotal_) text += ", sub-units " + std::to_string(subDone_) + " of " + std::to_string(subTotal_);
  std::string now;
  for (int t = 0; t < workers_; ++t) {
    const long u = runningUnit_[t], j = runningSub_[t];
    if (u < 0) continue;
    now += " " + unitFileName(size_t(u)).substr(0, 6);
    if (j >= 0) now += "/" + subUnitFileName(size_t(j)).substr(0, 6);
  }
  if (!now.empty()) text += ", proving" + now;
  // Units are uneven (4x apart at n = 18): a rough guide from this run's pace.
  const double t = since(unitsStart_);
  if (!subTotal_ && fresh > 0 && done < out.mine) {
    const long left = long(t / double(fresh) * double(out.mine - done) + 0.5);
    text += ", about " + (left < 120    ? std::to_string(left) + " s"
                          : left < 7200 ? std::to_string((left + 30) / 60) + " min"
                                        : std::to_string(left / 3600) + " h " + std::to_string(left % 3600 / 60) + " min") +
            " left";
  }
  return text;
}

// Proves one item on worker t. Returns false when the run must stop.
template <int W>
bool UnitRunner<W>::proveItem(size_t t, const Item& item) {
  const size_t i = item.unit;
  PlanPosition<W> pos = split_.after(g_, moves_[i]);
  fs::path file = dir_ / unitFileName(i), lostMarker = dir_ / lostMarkerName(i);
  if (item.sub >= 0) {
    const PlanPosition<W> afterW = pos.after(g_, splitMoveAt(dir_ / splitMarkerName(i), pos));
    const std::vector<int> replies = loserMoves(g_, afterW.live, afterW.heap);
    pos = afterW.after(g_, replies[size_t(item.sub)]);
    file = dir_ / subUnitFolder(i) / subUnitFileName(size_t(item.sub));
    lostMarker = dir_ / subUnitFolder(i) / subLostMarkerName(size_t(item.sub));
    fs::create_directories(file.parent_path());
  }
  if (fs::exists(file)) {
    ++(item.sub >= 0 ? subDone_ : resumed_);
    return true;
  }
  if (fs::exists(lostMarker)) {
    if (item.sub < 0) {
      losing_ = moves_[i];
      if (req_.select.count == 1) return false;
    }
    ++(item.sub >= 0 ? subDone_ : resumed_);
    return true;
  }
  if (item.budget && fs::exists(dir_ / splitMarkerName(i))) return true;  // split by an earlier run
  runningUnit_[t] = long(i);
  runningSub_[t] = item.sub;
  struct Idle {
    std::atomic<long>& unit;
    ~Idle() { unit = -1; }
  } idle{runningUnit_[t]};
  return proveAndWrite(t, item, pos, file, lostMarker);
}

// The search of an item not decided before, and what it leaves: a split
// marker, a lost marker or the item's certificate.
template <int W>
bool UnitRunner<W>::proveAndWrite(size_t t, const Item& item, const PlanPosition<W>& pos, const fs::path& file,
                                  const fs::path& lostMarker) {
  const size_t i = item.unit;
  if (req_.deterministicUnits) {
    tables_[t]->clear();
    std::lock_guard lk(solversMutex_);
    solvers_.push_back(std::make_unique<Solver<W>>(g_, *tables_[t], req_.search));
    solvers_.back()->stop = &halt_;
    current_[t] = solvers_.back().get();
  }
  Solver<W>& solver = *current_[t];
  solver.setNodeBudget(item.budget ? req_.splitAboveNodes : 0);
  const bool win = solver.wins(pos.live, pos.heap, pos.lastMove);
  if (halt_.load()) return false;  // the answer may be cut short: keep nothing
  const bool overBudget = solver.overBudget();
  solver.setNodeBudget(0);  // the emitter's searches below have none
  if (overBudget) {
    const int w = solver.likelyWinningMove(pos.live, pos.heap, pos.lastMove);
    if (halt_.load()) return false;
    if (w < 0) throw std::logic_error("a unit over its budget has no move");
    writeFileReplacing((dir_ / splitMarkerName(i)).string(), "move " + std::to_string(w) + "\n");
    ++splitNow_;
    return true;
  }
  if (!win) {
    writeFileReplacing(lostMarker.string(), "the player to move loses here\n");
    if (item.sub >= 0) {
      ++subDone_;
      return true;  // the guessed move is refuted: the third pass proves the unit whole
    }
    losing_ = moves_[i];
    return req_.select.count != 1;  // the parent is a win: stop the rest
  }
  ClaimSpec claim = claimOf(req_, pos.queens, pos.heap, true, false);
  CertificateWriter writer(file.string(), claim, req_.cutoff, req_.mirrorDefault, producerText(req_), req_.zstdLevel);
  ProofEmitter<W> emitter(g_, solver, writer, EmitOptions{req_.cutoff, req_.mirrorDefault, req_.mirror}, &emitMemos_[t]);
  emitter.emit(pos.live, pos.heap, true);
  if (halt_.load()) return false;  // emission with a halted solver (signal, or a lost sibling) may be cut short: discard
  const CertificateSummary sum = writer.finish();
  ++(item.sub >= 0 ? subDone_ : proved_);
  std::lock_guard lk(statsMutex_);
  emitTotal_.decisions += emitter.stats.decisions;
  emitTotal_.defaultReplies += emitter.stats.defaultReplies;
  emitTotal_.lossNodes += emitter.stats.lossNodes;
  emitTotal_.memoEntries += emitter.stats.memoEntries;
  bytes_ += sum.bytes;
  return true;
}

// The items on every worker thread, each taking the next; rethrows the
// first failure once all are joined.
template <int W>
void UnitRunner<W>::runPass(const std::vector<Item>& items) {
  std::atomic<size_t> next{0};
  std::exception_ptr failure;
  std::mutex failureMutex;
  auto worker = [&](size_t t) {
    try {
      for (size_t k; !halt_.load() && (k = next.fetch_add(1)) < items.size();)
        if (!proveItem(t, items[k])) halt_ = true;
    } catch (...) {
      std::lock_guard lk(failureMutex);
      if (!failure) failure = std::current_exception();
      halt_ = true;
    }
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < workers_; ++t) {
    try {
      threads.emplace_back(worker, size_t(t));
    } catch (const std::system_error& e) {  // the threads started must be joined before any throw
      threadError_ = e.what();
      halt_ = true;
      break;
    }
  }
  for (auto& th : threads) th.join();
  if (failure) std::rethrow_exception(failure);
}

// Passes 2 and 3: the sub-units of every split unit, sub-unit j of unit i
// for the worker (i + j) % K, so that one large unit spreads over all K;
// then whole, this worker's split units whose guessed move was refuted.
template <int W>
auto UnitRunner<W>::splitPassItems(int pass, UnitOutcome& out) -> std::vector<Item> {
  std::vector<Item> items;
  out.splitUnits = out.undecided = 0;
  subTotal_ = subDone_ = 0;
  for (size_t i = 0; i < moves_.size(); ++i) {
    if (fs::exists(dir_ / unitFileName(i)) || fs::exists(dir_ / lostMarkerName(i))) continue;
    if (!fs::exists(dir_ / splitMarkerName(i))) {
      ++out.undecided;  // another worker's, not yet proved, split or found lost
      continue;
    }
    ++out.splitUnits;
    const PlanPosition<W> unit = split_.after(g_, moves_[i]);
    const PlanPosition<W> afterW = unit.after(g_, splitMoveAt(dir_ / splitMarkerName(i), unit));
    const size_t subs = loserMoves(g_, afterW.live, afterW.heap).size();
    bool refuted = false;
    for (size_t j = 0; j < subs; ++j) refuted |= fs::exists(dir_ / subUnitFolder(i) / subLostMarkerName(j));
    if (pass == 2) {
      for (size_t j = 0; j < subs; ++j)
        if (int((i + j) % size_t(req_.select.count)) == req_.select.index) {
          items.push_back({i, long(j), false});
          ++subTotal_;
        }
    } else if (refuted && mine(i)) {
      ++out.refutedSplits;
      items.push_back({i, -1, false});
    }
  }
  return items;
}

template <int W>
void UnitRunner<W>::run(UnitOutcome& out, SearchStats& searchTotal) {
  for (size_t i = 0; i < moves_.size(); ++i) out.mine += mine(i);
  startSolvers();
  progress_.nodes([this] {
    uint64_t sum = 0;
    std::lock_guard lk(solversMutex_);
    for (auto& s : solvers_) sum += s->publishedNodes.load(std::memory_order_relaxed);
    return sum;
  });
  for (int t = 0; t < workers_; ++t) runningUnit_[t] = runningSub_[t] = -1;
  unitsStart_ = Clock::now();
  progress_.extra([this, &out] { return progressText(out); });
  std::thread watcher;
  try {
    watcher = std::thread([&] {  // forwards SIGINT/SIGTERM to the workers' halt flag
      while (!halt_.load()) {
        if (req_.stop && req_.stop->load()) {
          signalled_ = true;
          halt_ = true;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
      }
    });
  } catch (const std::system_error& e) {
    progress_.extra(nullptr);
    progress_.nodes(nullptr);
    throw ResourceError(std::string("cannot start a thread: ") + e.what());
  }
  // However this frame is left (a throw included): stop the watcher, and
  // detach the progress reporter from this runner's counters.
  struct Cleanup {
    std::atomic<bool>& halt;
    std::thread& watcher;
    ProgressReporter& progress;
    ~Cleanup() {
      halt = true;
      if (watcher.joinable()) watcher.join();
      progress.extra(nullptr);
      progress.nodes(nullptr);
    }
  } cleanup{halt_, watcher, progress_};

  // Pass 1: this worker's units, each under the budget when there is one.
  std::vector<Item> items;
  for (size_t i = 0; i < moves_.size(); ++i)
    if (mine(i)) items.push_back({i, -1, req_.splitAboveNodes > 0});
  runPass(items);
  for (int pass = 2; pass <= 3 && !halt_.load() && threadError_.empty(); ++pass) {
    items = splitPassItems(pass, out);
    splitNow_ = 0;
    runPass(items);
    if (pass == 2) out.subUnits = subTotal_;
  }
  // Without a budget no other worker splits: their unfinished units are
  // just not done yet (markers of an earlier run were handled above).
  if (req_.splitAboveNodes == 0) out.undecided = 0;
  if (!threadError_.empty()) {
    throw ResourceError("cannot start " + std::to_string(workers_) + " threads (--jobs): " + threadError_);
  }
  const bool wasSignalled = signalled_.load() || (req_.stop && req_.stop->load());
  for (auto& s : solvers_) searchTotal.add(s->stats);
  out.resumed = resumed_;
  out.proved = proved_;
  out.losingMove = losing_;
  out.interrupted = wasSignalled;
  out.emit = emitTotal_;
  out.certBytes = bytes_;
}

// The units below the loser position (root, heap), `select`'s share of them
// proved or found lost (UnitRunner).
template <int W>
UnitOutcome runUnits(const Graph<W>& g, const Bits<W>& root, const std::vector<int>& rootQueens, uint32_t heap,
                     TranspositionTable& tt, const ProveRequest& req, const fs::path& dir, SearchStats& searchTotal,
                     ProgressReporter& progress) {
  std::vector<int> moves = loserMoves(g, root, heap);
  UnitOutcome out;
  out.units = moves.size();
  fs::create_directories(dir);
  claimUnitsDirectory(req, heap, rootQueens, moves, dir);
  // A child that is lost by the mirror lemma (e.g. the centre on an odd
  // board) makes the position a win at once: no unit needs proving.
  for (int m : moves)
    if (heap == 0 && !isHeapMove(m) && g.mirrorLemmaLoss(root.andNot(g.kill[m]))) {
      out.losingMove = m;
      return out;
    }
  UnitRunner<W> runner(g, PlanPosition<W>{root, heap, rootQueens, -1}, std::move(moves), tt, req, dir, progress);
  runner.run(out, searchTotal);
  return out;
}

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
  const bool baseExisted = fs::exists(base);
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
    // A false claim: its units serve no resume. The only worker removes
    // them (other workers may still be writing theirs), and the units
    // folder when this run made it or it is the default <out>.units.
    if (req.select.count == 1) {
      std::error_code ignored;  // a file that stays does not change the verdict
      fs::remove_all(base / ("h" + std::to_string(heap)), ignored);
      if (!baseExisted || req.unitsDir.empty()) fs::remove(base, ignored);  // only when empty
    }
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
    emitter.emit(root, heap, true);
    if (req.stop && req.stop->load()) throw Interrupted("interrupted while writing the certificate");
    res.cert = writer.finish();
    res.emit = emitter.stats;
    res.search.add(solver.stats);
    res.emitSeconds = since(t1);
    res.sharded = false;
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
  res.cert.bytes = res.shards.bytes + m.bytes;
  res.cert.tokens = res.shards.tokens;
  res.emitSeconds = since(t1);
  return res;
}

template <int W>
ProveResult proveWith(const Geometry& geo, const ProveRequest& req) {
  Graph<W> g(geo);
  Bits<W> root = g.all;
  for (int q : req.queens) {
    if (q < 0 || q >= geo.squares) throw std::invalid_argument("queen square out of range");
    if (!root.test(q)) throw std::invalid_argument("queen on " + geo.squareName(q) + " " + geo.squarePaper(q) + " is attacked by an earlier queen");
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
    emitter.emit(root, heap, res.win);
    // Searches cut short by the stop flag may have chosen wrong replies.
    if (req.stop && req.stop->load()) throw Interrupted("interrupted while writing the certificate; nothing is kept");
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
  for (int q : req.queens) {
    if (!root.test(q)) throw std::invalid_argument("queen on " + geo.squareName(q) + " " + geo.squarePaper(q) + " is attacked by an earlier queen");
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
