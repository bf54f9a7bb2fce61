#include "prover/game/unit_runner.hpp"

#include <atomic>
#include <chrono>
#include <exception>
#include <fstream>
#include <memory>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>

#include "prover/game/request_header.hpp"
#include "prover/game/unit_plan.hpp"
#include "prover/output_file.hpp"

namespace qcert {

namespace fs = std::filesystem;

namespace {

std::string describeVariant(const ProveRequest& req) {
  const Variant v = requestVariant(req);
  return std::string(pieceName(v.piece, true)) + " on " + boardWords(v);
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
  const bool complete = emitter.emit(pos.live, pos.heap, true);
  if (!complete || halt_.load()) return false;  // emission with a halted solver (signal, or a lost sibling) may be cut short: discard
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

}  // namespace

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

template UnitOutcome runUnits<1>(const Graph<1>&, const Bits<1>&, const std::vector<int>&, uint32_t, TranspositionTable&,
                                  const ProveRequest&, const fs::path&, SearchStats&, ProgressReporter&);
template UnitOutcome runUnits<2>(const Graph<2>&, const Bits<2>&, const std::vector<int>&, uint32_t, TranspositionTable&,
                                  const ProveRequest&, const fs::path&, SearchStats&, ProgressReporter&);
template UnitOutcome runUnits<4>(const Graph<4>&, const Bits<4>&, const std::vector<int>&, uint32_t, TranspositionTable&,
                                  const ProveRequest&, const fs::path&, SearchStats&, ProgressReporter&);
template UnitOutcome runUnits<8>(const Graph<8>&, const Bits<8>&, const std::vector<int>&, uint32_t, TranspositionTable&,
                                  const ProveRequest&, const fs::path&, SearchStats&, ProgressReporter&);

}  // namespace qcert
