#include "checker/manifest.hpp"

#include "checker/board.hpp"
#include "checker/limits.hpp"
#include "checker/parallel.hpp"
#include "schema/qcert.capnp.h"
#include "checker/replay.hpp"

#include <capnp/serialize.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <cstring>
#include <filesystem>
#include <ostream>

namespace qcert::checker {
namespace {

constexpr unsigned kMaxPlanDepth = 64;
constexpr size_t kMaxShards = 1'000'000;

struct ShardJob {
  std::string path;
  std::array<unsigned char, 16> seal;
  std::vector<unsigned> queens;  // the claim the shard must make: queens, heap, outcome
  uint32_t heap;
  bool win;
  uint64_t tokens = 0, nodes = 0;  // filled in by its verification
  bool replayedBefore = false;
};

// Walks the plan with the replay's own move rules (Geometry<8> covers n <= 22),
// checks everything but the shards and collects them.
struct PlanWalker {
  const Geometry<8> geo;
  std::vector<unsigned> queens;  // root queens + board moves on the current path
  std::vector<ShardJob> jobs;
  const ReplyObserver* observer = nullptr;

  [[noreturn]] static void reject(const std::string& at, const std::string& what) {
    throw Rejection("plan at " + at + ": " + what);
  }

  void boardMove(Obligation::Reader ob, const Bits<8>& L, uint32_t h, unsigned v, bool wantWin, const std::string& at, unsigned depth) {
    queens.push_back(v);
    walk(ob, L.without(geo.attack[v]), h, wantWin, at + ", " + squareName(geo.n, v), depth);
    queens.pop_back();
  }

  void walk(Obligation::Reader ob, const Bits<8>& L, uint32_t h, bool wantWin, const std::string& at, unsigned depth) {
    if (++depth > kMaxPlanDepth) reject(at, "plan deeper than " + std::to_string(kMaxPlanDepth));
    const unsigned m = L.count();
    if (ob.isShard()) {
      const std::string path = ob.getShard().getPath();
      const auto seal = ob.getShard().getSeal();
      if (!shardPathAllowed(path))
        reject(at, "shard path must be relative, non-empty, at most 1024 characters of [A-Za-z0-9._/-] without \"..\"");
      if (seal.size() != 16) reject(at, "pinned shard seal is " + std::to_string(seal.size()) + " bytes, not 16");
      if (jobs.size() >= kMaxShards) reject(at, "more than " + std::to_string(kMaxShards) + " shards");
      jobs.push_back({path, {}, queens, h, wantWin});
      std::memcpy(jobs.back().seal.data(), seal.begin(), 16);
    } else if (ob.isWinBy()) {
      if (!wantWin) reject(at, "winBy where the player to move must lose");
      const uint32_t t = ob.getWinBy().getMove();
      unsigned v = 0, i = 0;
      if (t >= 1 && t <= m) {
        L.forEach([&](unsigned s) { if (++i == t) v = s; });
        if (observer && *observer) (*observer)(L.w.data(), 8, h, int(v));
        boardMove(ob.getWinBy().getAfter(), L, h, v, false, at, depth);
      } else if (t > m && t - m <= h) {
        if (observer && *observer) (*observer)(L.w.data(), 8, h, -int(t - m));
        walk(ob.getWinBy().getAfter(), L, t - m - 1, false, at + ", heap to " + std::to_string(t - m - 1), depth);
      } else {
        reject(at, "winBy move token " + std::to_string(t) + " names no move (" + std::to_string(m) + " live squares, heap " + std::to_string(h) + ")");
      }
    } else if (ob.isLossBy()) {
      if (wantWin) reject(at, "lossBy where the player to move must win");
      const auto list = ob.getLossBy();
      std::vector<unsigned> moves;  // the replay's loser rule: orbit leaders under the stabiliser of L
      std::vector<size_t> stabiliser;
      for (size_t g = 1; g < geo.sym.size(); ++g)
        if (geo.image(g, L) == L) stabiliser.push_back(g);
      L.forEach([&](unsigned v) {
        for (size_t g : stabiliser)
          if (geo.sym[g][v] < v) return;
        moves.push_back(v);
      });
      if (list.size() != moves.size() + uint64_t(h))
        reject(at, "lossBy has " + std::to_string(list.size()) + " entries, the loser has " +
                       std::to_string(moves.size()) + " board moves (orbit leaders) and " + std::to_string(h) + " heap moves");
      for (size_t i = 0; i < moves.size(); ++i) boardMove(list[i], L, h, moves[i], true, at, depth);
      for (uint32_t h2 = 0; h2 < h; ++h2) walk(list[moves.size() + h2], L, h2, true, at + ", heap to " + std::to_string(h2), depth);
    } else {
      reject(at, "unknown obligation kind " + std::to_string(unsigned(ob.which())));
    }
  }
};

// One shard: open, seal (integrity and pinned value), claim, full replay.
void verifyShard(ShardJob& job, const Certificate& manifest, const std::filesystem::path& dir, const ReplyObserver* observer,
                 ReplayedShards* replayed) {
  MappedFile file((dir / job.path).string());
  const Certificate cert = readCertificate(file);
  if (cert.seal != job.seal) throw Rejection("seal differs from the one pinned in the manifest");
  if (cert.hasPlan) throw Rejection("is itself a manifest (manifests do not nest)");
  if (cert.parts) throw Rejection("is a table of parts, which a manifest does not take as a shard");
  if (cert.board != manifest.board || cert.queens != job.queens || cert.heap != job.heap ||
      cert.grundy || cert.claimWin != job.win)
    throw Rejection(std::string("its claim is not the plan's obligation: an outcome claim that the player to move ") +
                    (job.win ? "wins" : "loses") + " after the plan's queens with heap " + std::to_string(job.heap));
  const ReplayedShards::Key key{cert.seal, job.queens, job.heap, job.win};
  if (replayed) {
    std::lock_guard lock(replayed->lock);
    if (replayed->done.count(key)) return void(job.replayedBefore = true);
  }
  TokenStream tokens(cert);
  job.nodes = replayCertificate(cert, tokens, observer).nodes;
  job.tokens = tokens.consumed();
  if (replayed) {
    std::lock_guard lock(replayed->lock);
    replayed->done.insert(key);
  }
}

}  // namespace

bool shardPathAllowed(const std::string& path) {
  return !path.empty() && path.size() <= 1024 && path[0] != '/' && path.find("..") == std::string::npos &&
         path.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._/-") == std::string::npos;
}

ManifestStats verifyManifest(const Certificate& cert, const std::string& manifestPath, unsigned jobs, std::ostream* announce,
                             const ReplyObserver* observer, bool progress, ReplayedShards* replayed) {
  if (observer) replayed = nullptr;
  capnp::ReaderOptions options;
  options.traversalLimitInWords = uint64_t(1) << 26;
  options.nestingLimit = 4 * kMaxPlanDepth + 16;  // two pointer levels per plan level, and margin
  capnp::FlatArrayMessageReader reader(cert.header, options);
  PlanWalker walker{Geometry<8>(cert.board), cert.queens, {}, observer};
  Bits<8> root = walker.geo.onBoard;
  for (unsigned q : cert.queens) {
    if (!root.test(q)) throw Rejection("claim queen " + squareName(cert.boardSize, q) + " is not live when placed");
    root = root.without(walker.geo.attack[q]);
  }
  walker.walk(reader.getRoot<Header>().getPlan(), root, cert.heap, cert.claimWin, "root", 0);
  std::vector<ShardJob>& work = walker.jobs;

  // Every shard must be a regular file before any is replayed: a missing
  // one or a FIFO (which would block the reader) stops the check at once.
  const std::filesystem::path dir = std::filesystem::path(manifestPath).parent_path();
  uint64_t bytes = 0;
  std::vector<uint64_t> size(work.size());
  for (size_t i = 0; i < work.size(); ++i) bytes += size[i] = regularFileSize((dir / work[i].path).string(), "shard " + work[i].path);
  // The biggest shards first, so that no big one is left to run alone at the
  // end while the other threads have nothing to do (bytes stand for time).
  std::vector<size_t> order(work.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return size[a] > size[b]; });
  if (announce)
    *announce << "  manifest: " << work.size() << (work.size() == 1 ? " shard, " : " shards, ") << bytes
              << " bytes, replayed " << std::min<size_t>(jobs, work.size()) << " at a time within --max-memory "
              << (limits::memoryLimit() >> 20) << " MiB" << std::endl;
  std::atomic<size_t> finished{0};
  std::mutex progressLock;
  double lastReport = -1;
  uint64_t replies = 0;  // in the shards verified so far
  const auto start = std::chrono::steady_clock::now();
  forEachItem(jobs, work.size(), [&](size_t k) {
    verifyShard(work[order[k]], cert, dir, observer, replayed);
    if (!progress) return;
    std::lock_guard lock(progressLock);
    const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const size_t done = ++finished;
    replies += work[order[k]].tokens;
    if (t < lastReport + 0.5 && done < work.size()) return;
    lastReport = t;
    std::fprintf(stderr, "\r  shards verified: %zu of %zu (%llu winning replies), %.0f s, about %.0f s left   ", done, work.size(),
                 (unsigned long long)replies, t, t / double(done) * double(work.size() - done));
  }, [&](size_t k) { return "shard " + work[order[k]].path; });
  if (progress && finished > 0) std::fprintf(stderr, "\r%79s\r", "");

  ManifestStats stats{work.size(), 0, 0};
  for (const ShardJob& job : work) stats.tokens += job.tokens, stats.nodes += job.nodes, stats.replayedBefore += job.replayedBefore;
  return stats;
}

}  // namespace qcert::checker
