#include "prove.hpp"

#include <sys/resource.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <stdexcept>
#include <thread>

namespace qcert {

long peakRssKiB() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_maxrss;
}

namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// Prints nodes and rate on stderr every second once a run passes two seconds.
class ProgressReporter {
 public:
  ProgressReporter(bool enabled, const std::atomic<uint64_t>& nodes) : nodes_(nodes) {
    if (enabled) thread_ = std::thread([this] { loop(); });
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

 private:
  void loop() {
    const auto start = Clock::now();
    std::unique_lock lk(m_);
    while (!cv_.wait_for(lk, std::chrono::seconds(1), [this] { return done_; })) {
      const double t = since(start);
      if (t < 2) continue;
      const uint64_t nodes = nodes_.load(std::memory_order_relaxed);
      std::fprintf(stderr, "\r[%s] %.0fs  %.3g nodes  %.3g nodes/s  rss %ld MiB   ", phase_.load(), t,
                   double(nodes), nodes / t, peakRssKiB() / 1024);
      std::fflush(stderr);
      printed_ = true;
    }
    if (printed_) std::fprintf(stderr, "\n");
  }
  const std::atomic<uint64_t>& nodes_;
  std::atomic<const char*> phase_{"search"};
  std::thread thread_;
  std::mutex m_;
  std::condition_variable cv_;
  bool done_ = false, printed_ = false;
};

template <int W>
ProveResult proveWith(const Geometry& geo, const ProveRequest& req) {
  Graph<W> g(geo);
  Bits<W> root = g.all;
  for (int q : req.queens) {
    if (q < 0 || q >= geo.squares) throw std::invalid_argument("queen square out of range");
    if (!root.test(q)) throw std::invalid_argument("queen on " + geo.squareName(q) + " " + geo.squarePaper(q) + " is attacked by an earlier queen");
    root = root.andNot(g.kill[q]);
  }
  TranspositionTable tt(req.ttMegabytes);
  Solver<W> solver(g, tt, req.search);
  ProveResult res;
  res.ttBytes = tt.bytes();
  res.rootLive = root.count();
  ProgressReporter progress(req.progress, solver.publishedNodes);

  auto t0 = Clock::now();
  uint32_t heap = req.heap;
  if (req.grundy) {
    heap = 0;
    while (solver.wins(root, heap)) {
      if (++heap > 255) throw std::runtime_error("Grundy value above 255 is not supported");
    }
    res.grundy = heap;
    res.win = false;
  } else {
    res.win = solver.wins(root, heap);
  }
  res.searchSeconds = since(t0);

  if (!req.out.empty()) {
    progress.phase("certificate");
    auto t1 = Clock::now();
    ClaimSpec claim{req.n, req.queens, heap, res.win, req.grundy};
    std::string producer = "qcert prover; cutoff " + std::to_string(req.cutoff) + ", small solver " +
                           std::to_string(req.search.smallLimit) + ", zstd " + std::to_string(req.zstdLevel);
    CertificateWriter writer(req.out, claim, req.cutoff, req.mirrorDefault, producer, req.zstdLevel);
    ProofEmitter<W> emitter(g, solver, writer, EmitOptions{req.cutoff, req.mirrorDefault});
    emitter.emit(root, heap, res.win);
    res.cert = writer.finish();
    res.emit = emitter.stats;
    res.emitSeconds = since(t1);
  }
  res.search = solver.stats;
  return res;
}

}  // namespace

ProveResult prove(const ProveRequest& req) {
  const Geometry geo = queensGeometry(req.n);  // throws on a bad n
  if (req.cutoff < 0 || req.cutoff > 32) throw std::invalid_argument("cutoff must be between 0 and 32");
  if (req.heap > 255) throw std::invalid_argument("heap must be at most 255");
  if (geo.squares <= 64) return proveWith<1>(geo, req);
  if (geo.squares <= 128) return proveWith<2>(geo, req);
  if (geo.squares <= 256) return proveWith<4>(geo, req);
  return proveWith<8>(geo, req);
}

std::string describeClaim(const ProveRequest& req, const ProveResult& res) {
  const Geometry geo = queensGeometry(req.n);
  const std::string size = std::to_string(req.n) + "x" + std::to_string(req.n);
  std::string board;
  if (req.queens.empty()) {
    board = "the empty " + size + " board";
  } else {
    board = "the " + size + " board after queens ";
    for (size_t i = 0; i < req.queens.size(); ++i)
      board += (i ? ", " : "") + geo.squareName(req.queens[i]) + " " + geo.squarePaper(req.queens[i]);
  }
  if (req.grundy) return "the Grundy value of " + board + " is " + std::to_string(res.grundy);
  std::string who = req.queens.empty() ? (res.win ? "first player wins" : "second player wins")
                                       : (res.win ? "the player to move wins" : "the player to move loses");
  std::string s = who + " on " + board;
  if (req.heap) s += " with a Nim heap of " + std::to_string(req.heap) + " added";
  return s;
}

}  // namespace qcert
