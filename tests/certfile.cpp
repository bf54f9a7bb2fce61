#include "tests/certfile.hpp"

#include <capnp/message.h>
#include <capnp/serialize.h>
#include <xxhash.h>
#include <zstd.h>

#include <bit>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>

#include "prover/game/graph.hpp"
#include "prover/game/prove.hpp"
#include "schema/qcert.capnp.h"
#include "prover/game/search.hpp"
#include "tests/support.hpp"
#include "prover/game/tt.hpp"

namespace qtest {

// ------------------------------------------------------------ parse/write

std::vector<kj::ArrayPtr<const capnp::word>> splitMessages(kj::ArrayPtr<const capnp::word> words) {
  std::vector<kj::ArrayPtr<const capnp::word>> msgs;
  kj::ArrayPtr<const capnp::word> rest = words;
  while (rest.size() > 0) {
    capnp::FlatArrayMessageReader r(rest);
    const capnp::word* end = r.getEnd();
    msgs.push_back(kj::arrayPtr(rest.begin(), end));
    rest = kj::arrayPtr(end, rest.end());
  }
  return msgs;
}

CertModel parseCertificate(const std::vector<uint8_t>& bytes) {
  if (bytes.size() % 8 != 0) throw std::runtime_error("size is not a multiple of 8");
  kj::Array<capnp::word> words = kj::heapArray<capnp::word>(bytes.size() / 8);
  std::memcpy(words.begin(), bytes.data(), bytes.size());
  const std::vector<kj::ArrayPtr<const capnp::word>> msgs = splitMessages(words.asPtr());
  if (msgs.size() < 2) throw std::runtime_error("fewer than two messages");
  CertModel m;
  {
    capnp::FlatArrayMessageReader r(msgs.front());
    auto h = r.getRoot<::Header>();
    auto c = h.getClaim();
    m.header.formatVersion = h.getFormatVersion();
    m.header.ruleset = uint16_t(c.getRuleset());
    m.header.boardSize = c.getBoardSize();
    for (uint16_t q : c.getQueens()) m.header.queens.push_back(q);
    m.header.heap = c.getHeap();
    m.header.outcome = uint16_t(c.getOutcome());
    m.header.kind = uint16_t(c.getKind());
    m.header.cutoff = h.getCutoff();
    m.header.defaultReply = uint16_t(h.getDefaultReply());
    m.header.replyCount = h.getReplyCount();
    m.header.chunkCount = h.getChunkCount();
    m.header.producer = h.getProducer();
  }
  for (size_t i = 1; i + 1 < msgs.size(); ++i) {
    capnp::FlatArrayMessageReader r(msgs[i]);
    auto c = r.getRoot<::ReplyChunk>();
    ChunkModel ch;
    ch.tokenCount = c.getTokenCount();
    ch.rawSize = c.getRawSize();
    auto f = c.getZstdFrame();
    ch.frame.assign(f.begin(), f.end());
    m.chunks.push_back(std::move(ch));
  }
  {
    capnp::FlatArrayMessageReader r(msgs.back());
    auto d = r.getRoot<::Seal>().getXxh3x128();
    m.seal.assign(d.begin(), d.end());
  }
  return m;
}

namespace {
void appendMessage(std::vector<uint8_t>& out, capnp::MessageBuilder& msg) {
  auto words = capnp::messageToFlatArray(msg);
  auto b = words.asBytes();
  out.insert(out.end(), b.begin(), b.end());
}
}  // namespace

std::vector<uint8_t> sealOf(const std::vector<uint8_t>& prefix) {
  const XXH128_hash_t h = XXH3_128bits(prefix.data(), prefix.size());
  std::vector<uint8_t> s(16);
  for (int i = 0; i < 8; ++i) {
    s[i] = uint8_t(h.high64 >> (56 - 8 * i));
    s[8 + i] = uint8_t(h.low64 >> (56 - 8 * i));
  }
  return s;
}

std::vector<uint8_t> serialiseCertificate(const CertModel& m, const std::vector<uint8_t>* sealOverride) {
  std::vector<uint8_t> out;
  {
    capnp::MallocMessageBuilder msg;
    auto h = msg.initRoot<::Header>();
    h.setFormatVersion(m.header.formatVersion);
    auto c = h.initClaim();
    c.setRuleset(static_cast<::Ruleset>(m.header.ruleset));
    c.setBoardSize(m.header.boardSize);
    auto q = c.initQueens(unsigned(m.header.queens.size()));
    for (size_t i = 0; i < m.header.queens.size(); ++i) q.set(unsigned(i), m.header.queens[i]);
    c.setHeap(m.header.heap);
    c.setOutcome(static_cast<::Outcome>(m.header.outcome));
    c.setKind(static_cast<::ClaimKind>(m.header.kind));
    h.setCutoff(m.header.cutoff);
    h.setDefaultReply(static_cast<::DefaultReply>(m.header.defaultReply));
    h.setReplyCount(m.header.replyCount);
    h.setChunkCount(m.header.chunkCount);
    h.setProducer(m.header.producer);
    appendMessage(out, msg);
  }
  for (const auto& ch : m.chunks) {
    capnp::MallocMessageBuilder msg;
    auto c = msg.initRoot<::ReplyChunk>();
    c.setTokenCount(ch.tokenCount);
    c.setRawSize(ch.rawSize);
    c.setZstdFrame(capnp::Data::Reader(ch.frame.data(), ch.frame.size()));
    appendMessage(out, msg);
  }
  const std::vector<uint8_t> seal = sealOverride ? *sealOverride : sealOf(out);
  capnp::MallocMessageBuilder msg;
  msg.initRoot<::Seal>().setXxh3x128(capnp::Data::Reader(seal.data(), seal.size()));
  appendMessage(out, msg);
  return out;
}

// ------------------------------------------------------------ tokens

void appendLeb128(std::vector<uint8_t>& out, uint64_t value) {
  do {
    uint8_t b = value & 0x7f;
    value >>= 7;
    out.push_back(value ? uint8_t(b | 0x80) : b);
  } while (value);
}

std::optional<std::vector<uint32_t>> decodeLeb128(const std::vector<uint8_t>& raw, int maxBytes) {
  std::vector<uint32_t> tokens;
  uint64_t value = 0;
  int len = 0;
  for (uint8_t b : raw) {
    if (len >= maxBytes) return std::nullopt;
    value |= uint64_t(b & 0x7f) << (7 * len);
    ++len;
    if (!(b & 0x80)) {
      if (value > 0xffffffffull) return std::nullopt;
      tokens.push_back(uint32_t(value));
      value = 0;
      len = 0;
    }
  }
  if (len) return std::nullopt;
  return tokens;
}

std::vector<uint8_t> zstdCompress(const std::vector<uint8_t>& raw, int level) {
  std::vector<uint8_t> out(ZSTD_compressBound(raw.size()));
  const size_t z = ZSTD_compress(out.data(), out.size(), raw.data(), raw.size(), level);
  if (ZSTD_isError(z)) throw std::runtime_error("zstd compress failed");
  out.resize(z);
  return out;
}

std::optional<std::vector<uint8_t>> zstdDecompress(const std::vector<uint8_t>& frame, size_t expectedSize) {
  if (expectedSize > (size_t{64} << 20)) return std::nullopt;
  const size_t fs = ZSTD_findFrameCompressedSize(frame.data(), frame.size());
  if (ZSTD_isError(fs) || fs != frame.size()) return std::nullopt;
  std::vector<uint8_t> out(expectedSize + 1);
  const size_t got = ZSTD_decompress(out.data(), out.size(), frame.data(), frame.size());
  if (ZSTD_isError(got) || got != expectedSize) return std::nullopt;
  out.resize(got);
  return out;
}

std::vector<uint32_t> allTokens(const CertModel& m) {
  std::vector<uint32_t> all;
  for (const auto& ch : m.chunks) {
    auto raw = zstdDecompress(ch.frame, ch.rawSize);
    if (!raw) throw std::runtime_error("chunk does not decompress to rawSize");
    auto t = decodeLeb128(*raw);
    if (!t || t->size() != ch.tokenCount) throw std::runtime_error("chunk tokens inconsistent");
    all.insert(all.end(), t->begin(), t->end());
  }
  return all;
}

void setTokens(CertModel& m, const std::vector<uint32_t>& tokens, size_t tokensPerChunk) {
  m.chunks.clear();
  if (tokensPerChunk == 0) tokensPerChunk = tokens.size() ? tokens.size() : 1;
  for (size_t i = 0; i < tokens.size(); i += tokensPerChunk) {
    std::vector<uint8_t> raw;
    const size_t end = std::min(tokens.size(), i + tokensPerChunk);
    for (size_t j = i; j < end; ++j) appendLeb128(raw, tokens[j]);
    ChunkModel ch;
    ch.tokenCount = end - i;
    ch.rawSize = uint32_t(raw.size());
    ch.frame = zstdCompress(raw);
    m.chunks.push_back(std::move(ch));
  }
  m.header.replyCount = tokens.size();
  m.header.chunkCount = uint32_t(m.chunks.size());
}

// ------------------------------------------------------ reference replay

namespace {

struct Reject {
  std::string why;
};

// Independent exhaustive outcome below the cut-off: Grundy value by mex on
// the local live set (at most 32 squares), with a per-call memo.
class LocalGrundy {
 public:
  template <int W>
  uint32_t of(const qcert::Bits<W>& live, int n) {
    std::vector<int> sq = toList(live);
    adj_.assign(sq.size(), 0);
    for (size_t i = 0; i < sq.size(); ++i)
      for (size_t j = 0; j < sq.size(); ++j)
        if (i == j || queensAttack(n, sq[i], sq[j])) adj_[i] |= 1u << j;
    memo_.clear();
    return g(sq.size() == 32 ? ~0u : (1u << sq.size()) - 1);
  }

 private:
  uint32_t g(uint32_t mask) {
    if (!mask) return 0;
    if (auto it = memo_.find(mask); it != memo_.end()) return it->second;
    uint64_t seen = 0;
    for (uint32_t x = mask; x; x &= x - 1) seen |= 1ull << g(mask & ~adj_[std::countr_zero(x)]);
    const uint32_t r = uint32_t(std::countr_one(seen));
    memo_.emplace(mask, r);
    return r;
  }
  std::vector<uint32_t> adj_;
  std::unordered_map<uint32_t, uint32_t> memo_;
};

template <int W>
class Replayer {
 public:
  Replayer(const HeaderModel& h, const std::vector<uint32_t>& tokens, std::vector<TokenSite>& sites)
      : h_(h), n_(h.boardSize), tokens_(tokens), sites_(sites) {
    // The attack masks come from the test's own rule, not from the prover.
    for (int s = 0; s < n_ * n_; ++s) {
      qcert::Bits<W> k;
      for (int t = 0; t < n_ * n_; ++t)
        if (s == t || queensAttack(n_, s, t)) k.set(t);
      kill_.push_back(k);
    }
  }

  void run() {
    qcert::Bits<W> root;
    for (int s = 0; s < n_ * n_; ++s) root.set(s);
    for (uint16_t q : h_.queens) {
      if (q >= n_ * n_ || !root.test(q)) throw Reject{"queen " + std::to_string(q) + " is not live"};
      root = root.andNot(kill_[q]);
    }
    verify(root, h_.heap, h_.outcome == 0, -1);
    if (pos_ != tokens_.size()) throw Reject{"tokens left over"};
  }

 private:
  struct Key {
    qcert::Bits<W> live;
    uint32_t heap;
    bool operator<(const Key& o) const { return live < o.live || (live == o.live && heap < o.heap); }
  };

  // Canonical form from the test's own enumeration of D4 (not d4Image).
  qcert::Bits<W> canonical(const qcert::Bits<W>& b) const {
    qcert::Bits<W> best = b;
    for (int g = 1; g < 8; ++g) {
      qcert::Bits<W> c;
      b.forEach([&](int s) { c.set(sym(g, s)); });
      if (c < best) best = c;
    }
    return best;
  }
  int sym(int g, int s) const {
    const int r = s / n_, c = s % n_, m = n_ - 1;
    int rr = r, cc = c;
    if (g & 4) std::swap(rr, cc);          // transpose
    if (g & 2) rr = m - rr;                // flip rows
    if (g & 1) cc = m - cc;                // flip columns
    return rr * n_ + cc;
  }

  void verify(const qcert::Bits<W>& live, uint32_t heap, bool want, int last) {
    const int cnt = live.count();
    if (cnt <= int(h_.cutoff)) {
      const bool win = solver_.of(live, n_) != heap;
      if (win != want) throw Reject{"exhaustive solve below the cut-off contradicts the certificate"};
      return;
    }
    const Key key{canonical(live), heap};
    if (auto it = memo_.find(key); it != memo_.end()) {
      if (it->second != want) throw Reject{"memo conflict"};
      return;
    }
    if (want) {
      if (pos_ >= tokens_.size()) throw Reject{"ran out of tokens"};
      TokenSite site;
      site.n = n_;
      site.live = toList(live);
      site.heap = heap;
      site.lastMove = last;
      site.token = tokens_[pos_++];
      const uint32_t t = site.token, m = uint32_t(cnt);
      if (t == 0) {
        if (h_.defaultReply != 1) throw Reject{"token 0 without a default rule"};
        if (last < 0) throw Reject{"token 0 without a last board move"};
        const int img = n_ * n_ - 1 - last;
        if (!live.test(img)) throw Reject{"mirror reply not live"};
        site.move = img;
      } else if (t <= m) {
        site.move = site.live[t - 1];
      } else if (uint64_t(t) <= uint64_t(m) + heap) {
        site.heapTo = t - m - 1;
      } else {
        throw Reject{"token out of range"};
      }
      sites_.push_back(site);
      if (site.move >= 0)
        verify(live.andNot(kill_[site.move]), heap, false, site.move);
      else
        verify(live, site.heapTo, false, -1);
    } else {
      // Stabiliser of L: symmetries g with g(L) = L.
      std::vector<int> stab;
      for (int g = 1; g < 8; ++g) {
        qcert::Bits<W> c;
        live.forEach([&](int s) { c.set(sym(g, s)); });
        if (c == live) stab.push_back(g);
      }
      std::vector<int> moves = toList(live);
      for (int v : moves) {
        bool skip = false;
        for (int g : stab) skip |= sym(g, v) < v;
        if (!skip) verify(live.andNot(kill_[v]), heap, true, v);
      }
      for (uint32_t k = 0; k < heap; ++k) verify(live, k, true, -1);
    }
    memo_.emplace(key, want);
  }

  const HeaderModel& h_;
  int n_;
  std::vector<qcert::Bits<W>> kill_;
  const std::vector<uint32_t>& tokens_;
  size_t pos_ = 0;
  std::vector<TokenSite>& sites_;
  std::map<Key, bool> memo_;
  LocalGrundy solver_;
};

}  // namespace

ReplayVerdict referenceReplay(const CertModel& m, uint32_t maxHeap) {
  ReplayVerdict v;
  const HeaderModel& h = m.header;
  auto fail = [&](std::string why) {
    v.ok = false;
    v.why = std::move(why);
    return v;
  };
  if (m.seal.size() != 16) return fail("seal is not 16 bytes");
  if (h.formatVersion != 1) return fail("format version");
  if (h.ruleset != 0) return fail("ruleset");
  if (h.boardSize < 1 || h.boardSize > 22) return fail("board size");
  if (h.cutoff > 32) return fail("cutoff");
  if (h.outcome > 1 || h.kind > 1 || h.defaultReply > 1) return fail("enum value");
  if (h.kind == 1 && h.outcome != 1) return fail("grundy claim with outcome win");
  if (h.chunkCount != m.chunks.size()) return fail("chunkCount");
  std::vector<uint32_t> tokens;
  for (const auto& ch : m.chunks) {
    if (ch.rawSize > (64u << 20)) return fail("rawSize above 64 MiB");
    auto raw = zstdDecompress(ch.frame, ch.rawSize);
    if (!raw) return fail("chunk does not decompress to rawSize");
    auto t = decodeLeb128(*raw);
    if (!t) return fail("bad LEB128");
    if (t->size() != ch.tokenCount) return fail("tokenCount");
    tokens.insert(tokens.end(), t->begin(), t->end());
  }
  if (tokens.size() != h.replyCount) return fail("replyCount");
  if (h.heap > maxHeap) return fail("heap too large for the reference replay");
  try {
    withWidth(h.boardSize, [&]<int W>() {
      Replayer<W> r(h, tokens, v.sites);
      r.run();
    });
  } catch (const Reject& r) {
    return fail(r.why);
  }
  v.ok = true;
  return v;
}

// -------------------------------------------------------------- oracle

std::optional<uint32_t> grundyOfBoard(int n, const std::vector<int>& queens) {
  if (n < 1 || n > qcert::kMaxBoard) return std::nullopt;
  qcert::ProveRequest req;
  req.n = n;
  req.queens = queens;
  req.grundy = true;
  req.ttMegabytes = 32;
  try {
    return qcert::prove(req).grundy;
  } catch (const std::invalid_argument&) {
    return std::nullopt;
  }
}

bool claimIsTrue(const HeaderModel& h) {
  if (h.boardSize > 11) throw std::runtime_error("claimIsTrue: board too large to evaluate in a test");
  std::vector<int> q(h.queens.begin(), h.queens.end());
  for (int s : q)
    if (s >= int(h.boardSize) * int(h.boardSize)) return false;
  auto g = grundyOfBoard(h.boardSize, q);
  if (!g) return false;
  // (L, heap) is a loss iff G(L) == heap.
  const bool lossTrue = *g == h.heap;
  if (h.outcome == 0) return !lossTrue;
  if (h.outcome == 1) return lossTrue;
  return false;
}

namespace {
// One search (graph, table, solver) per board size, reused across queries.
template <int W>
struct CachedSearch {
  qcert::Geometry geo;
  qcert::Graph<W> graph;
  qcert::TranspositionTable tt;
  qcert::Solver<W> solver;
  explicit CachedSearch(int n) : geo(qcert::queensGeometry(n)), graph(geo), tt(16), solver(graph, tt, qcert::SearchOptions{}) {}
};
template <int W>
CachedSearch<W>& cachedSearch(int n) {
  static std::map<int, std::unique_ptr<CachedSearch<W>>> cache;
  auto& c = cache[n];
  if (!c) c = std::make_unique<CachedSearch<W>>(n);
  return *c;
}
}  // namespace

bool positionWins(int n, const std::vector<int>& live, uint32_t heap) {
  return withWidth(n, [&]<int W>() {
    auto& s = cachedSearch<W>(n).solver;
    // Through the Grundy value with heaps < 64 only, so that the answer
    // does not depend on how the search handles large heaps.
    const auto L = toBits<W>(live);
    uint32_t gv = 0;
    while (s.wins(L, gv)) ++gv;
    return gv != heap;
  });
}

}  // namespace qtest
