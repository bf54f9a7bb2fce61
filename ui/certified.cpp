// The checker's side of the front end: only checker headers here.
#include "ui/certified.hpp"

#include <algorithm>
#include <mutex>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

#include "checker/board.hpp"
#include "checker/certificate_file.hpp"
#include "checker/checker.hpp"
#include "ui/checker_run.hpp"
#include "checker/parallel.hpp"
#include "ui/cert_positions.hpp"

namespace qcert::ui {
using namespace checker;  // the checker side of the front end: checker headers only
namespace {

constexpr size_t kMaxKept = size_t(1) << 22;  // replies held in memory (about 0.5 GiB at most)

using Key = PositionKey;

class CertifiedImpl final : public Certified {
 public:
  explicit CertifiedImpl(const Board& board) : geo_(board) {}

  void record(const uint64_t* words, unsigned count, uint32_t heap, int move) {
    const Key at = Key::fromWords(words, count, heap);
    Key after = at;
    if (move >= 0) {
      for (int i = 0; i < 8; ++i) after.live[size_t(i)] &= ~geo_.attack[size_t(move)].w[size_t(i)];
    } else {
      after.heap = uint32_t(-1 - move);
    }
    std::lock_guard lock(mutex_);
    if (replies_.size() >= kMaxKept) {
      tooMany_ = true;
      return;
    }
    replies_.emplace(at, move);
    lost_.insert(after);
  }
  void addLost(const Key& k) { lost_.insert(k); }
  bool tooMany() const { return tooMany_; }
  uint64_t count() const { return replies_.size(); }
  CertifiedClaim& claim() { return claim_; }
  Key keyOf(const std::vector<char>& live, uint32_t heap) const {
    Key k;
    for (size_t s = 0; s < live.size() && s < 512; ++s)
      if (live[s]) k.live[s / 64] |= uint64_t(1) << (s % 64);
    k.heap = heap;
    return k;
  }

  std::optional<int> reply(const std::vector<char>& live, uint32_t heap) const override {
    if (live.size() != geo_.squares) return std::nullopt;
    for (size_t g = 0; g < geo_.sym.size(); ++g) {
      const auto it = replies_.find(image(g, live, heap));
      if (it == replies_.end()) continue;
      if (it->second < 0) return it->second;  // heap moves are their own images
      // The reply r at g(P) answers P with g^-1(r).
      for (unsigned s = 0; s < geo_.squares; ++s)
        if (geo_.sym[g][s] == unsigned(it->second)) return int(s);
    }
    return std::nullopt;
  }
  bool provedLost(const std::vector<char>& live, uint32_t heap) const override {
    if (live.size() != geo_.squares) return false;
    for (size_t g = 0; g < geo_.sym.size(); ++g)
      if (lost_.count(image(g, live, heap))) return true;
    return false;
  }

 private:
  Key image(size_t g, const std::vector<char>& live, uint32_t heap) const {
    Key k;
    for (unsigned s = 0; s < geo_.squares; ++s)
      if (live[s]) {
        const unsigned t = geo_.sym[g][s];
        k.live[t / 64] |= uint64_t(1) << (t % 64);
      }
    k.heap = heap;
    return k;
  }

  const Geometry<8> geo_;  // the checker's board and group (every map checked an automorphism)
  std::mutex mutex_;
  std::unordered_map<Key, int, PositionKeyHash> replies_;
  std::unordered_set<Key, PositionKeyHash> lost_;
  bool tooMany_ = false;
};

}  // namespace

std::unique_ptr<Certified> Certified::load(const std::string& path, unsigned jobs, double timeLimitSeconds) {
  Certificate header;
  try {  // what kind of certificate, before any replay or recount
    MappedFile file(path);
    header = readCertificate(file);
  } catch (...) {
    const Failure f = currentFailure();
    throw CertificateError(f.kind == FailureKind::rejected ? 1 : 2,
                           f.kind == FailureKind::rejected ? "REJECTED: " + f.text : f.text);
  }
  if (header.isCount || header.isMod2 || header.isPartizan)
    throw CertificateError(2, path + " is a " + (header.isCount ? "count" : header.isMod2 ? "mod-2 game" : "partizan game") +
                                  " certificate; explain and play use certificates of the placing game (prover prove or grundy)");
  if (header.board.rows * header.board.cols > 512) throw CertificateError(2, "board too large");
  auto impl = std::make_unique<CertifiedImpl>(header.board);
  const ReplyObserver observer = [&impl](const uint64_t* words, unsigned count, uint32_t heap, int move) {
    impl->record(words, count, heap, move);
  };
  const std::string statement = verifiedStatement(path, jobs, timeLimitSeconds, &observer);
  if (impl->tooMany())
    throw CertificateError(2, "the certificate has more than " + std::to_string(kMaxKept) + " replies: too many to hold for explain or play");
  CertifiedClaim& c = impl->claim();
  c.statement = statement;
  c.rows = header.board.rows;
  c.cols = header.board.cols;
  c.torus = header.board.torus;
  c.piece = header.board.piece;
  c.holes = header.board.holes;
  c.queens = header.queens;
  c.heap = header.heap;
  c.win = header.claimWin;
  c.grundy = header.grundy;
  c.cutoff = header.hasPlan ? 0 : header.cutoff;
  c.replies = impl->count();
  if (!c.win) {  // the claim's position itself is proved lost
    Bits<8> root;
    const Geometry<8> geo(header.board);
    root = geo.onBoard;
    for (unsigned q : header.queens) root = root.without(geo.attack[q]);
    std::vector<char> live(geo.squares);
    for (unsigned s = 0; s < geo.squares; ++s) live[s] = root.test(s);
    impl->addLost(impl->keyOf(live, header.heap));
  }
  return impl;
}

}  // namespace qcert::ui
