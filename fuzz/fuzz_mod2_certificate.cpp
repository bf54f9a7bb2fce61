// Fuzz target: a mod-2 game certificate (docs/mod2-game.md: a Header with
// `mod2` set, then a Seal).  The first byte picks the mode (byte % 3):
//   0  raw: the rest is the file;
//   1  reseal: the rest is the file without its Seal (a correct one is appended);
//   2  structured: kind, n, rule and a spoil byte, then the kind's fields.  A
//      play's moves are picked by the bytes among the reference's own legal
//      moves (so most plays are legal) and its end is the reference's, then
//      perturbed; exhaustive totals start from the reference's counts; a
//      game's replies are the reference's winning moves, then edited.
// Every VERIFIED claim on a small board is judged by this file's own
// reference (written from the doc's rules, nothing from prover/ or checker/):
// plays on boards up to 32x32, structure for n <= 4 (and odd n: false),
// exhaustive kinds for n <= 4, games for n <= 3 with heaps up to 4.  A false
// one traps.
#include "fuzz/fuzz_common.hpp"
#include "schema/qcert.capnp.h"

#include <capnp/message.h>
#include <capnp/serialize.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <map>
#include <optional>
#include <set>
#include <tuple>

using namespace qfuzz;

namespace {

// ---- The reference -----------------------------------------------------------

bool sees(int n, int a, int b) {
  const int r1 = a / n, c1 = a % n, r2 = b / n, c2 = b % n;
  return a != b && (r1 == r2 || c1 == c2 || r1 - r2 == c1 - c2 || r1 - r2 == c2 - c1);
}

// A position as a list of occupied squares (n up to 32 for plays).
struct Play {
  int n;
  std::vector<bool> q;
  explicit Play(int size) : n(size), q(size_t(size * size)) {}
  std::vector<int> placed;  // the queens, for att
  int att(int s) const {
    int k = 0;
    for (int t : placed) k += sees(n, s, t);
    return k;
  }
  void place(int s) { q[s] = true, placed.push_back(s); }
  bool open(int s) const { return !q[s] && att(s) % 2 == 0; }
  int count() const { return int(std::count(q.begin(), q.end(), true)); }
  bool anyOpen() const {
    for (int s = 0; s < n * n; ++s)
      if (open(s)) return true;
    return false;
  }
};

// Small boards (n <= 4) as masks; rule 0 standard, 1 alternate, 2 complementary.
struct Small {
  int n;
  explicit Small(int size) : n(size) {}
  bool move(int rule, uint64_t p, int s) const {
    int k = 0;
    for (int t = 0; t < n * n; ++t) k += (p >> t & 1) && sees(n, s, t);
    const bool occupied = p >> s & 1;
    return rule == 2 ? occupied && k % 2 == 0 : !occupied && k % 2 == rule;
  }
  uint64_t after(int rule, uint64_t p, int s) const { return rule == 2 ? p & ~(uint64_t(1) << s) : p | uint64_t(1) << s; }
  std::set<uint64_t> legal() const {
    std::set<uint64_t> seen{0};
    std::vector<uint64_t> todo{0};
    while (!todo.empty()) {
      const uint64_t p = todo.back();
      todo.pop_back();
      for (int s = 0; s < n * n; ++s)
        if (move(0, p, s) && seen.insert(after(0, p, s)).second) todo.push_back(after(0, p, s));
    }
    return seen;
  }
  uint64_t canonical(uint64_t p) const {
    uint64_t best = p;
    for (int k = 0; k < 8; ++k) {
      uint64_t img = 0;
      for (int s = 0; s < n * n; ++s)
        if (p >> s & 1) {
          int r = s / n, c = s % n;
          if (k & 4) r = n - 1 - r;
          for (int t = 0; t < (k & 3); ++t) std::tie(r, c) = std::make_pair(n - 1 - c, r);
          img |= uint64_t(1) << (r * n + c);
        }
      best = std::min(best, img);
    }
    return best;
  }
  uint64_t plays(uint64_t p, std::map<uint64_t, uint64_t>& memo) const {
    if (auto it = memo.find(p); it != memo.end()) return it->second;
    uint64_t total = 0;
    for (int s = 0; s < n * n; ++s)
      if (move(0, p, s)) total += plays(after(0, p, s), memo);
    return memo[p] = total ? total : 1;
  }
  std::map<std::pair<uint64_t, uint32_t>, bool> memo;
  int rule = 0;
  bool wins(uint64_t p, uint32_t h) {
    if (auto it = memo.find({p, h}); it != memo.end()) return it->second;
    bool win = false;
    for (int s = 0; s < n * n && !win; ++s) win = move(rule, p, s) && !wins(after(rule, p, s), h);
    for (uint32_t g = 0; g < h && !win; ++g) win = !wins(p, g);
    return memo[{p, h}] = win;
  }
};

// The doc's named orders, paper (i, j) -> (i-1+o)*n + (j-1+o).
std::vector<int> namedOrder(int n, bool complete) {
  std::vector<int> m;
  auto add = [&](int i, int j, int o) { m.push_back((i - 1 + o) * n + (j - 1 + o)); };
  if (complete) {
    for (int size = n; size >= 3; size -= 2) {
      const int o = n - size;
      for (auto [i, j] : {std::pair{1, 1}, {2, 3}, {1, 2}, {3, 2}, {2, 2}, {1, 3}, {3, 1}, {2, 1}}) add(i, j, o);
      for (int k = 1; k <= (size - 3) / 2; ++k)
        for (auto [i, j] : {std::pair{2, 2 * k + 2}, {1, 2 * k + 2}, {2 * k + 2, 1}, {2 * k + 2, 2}, {1, 2 * k + 3}, {2, 2 * k + 3},
                            {2 * k + 3, 2}, {2 * k + 3, 1}})
          add(i, j, o);
    }
    add(n, n, 0);
  } else {
    for (int i = 2; i + 1 <= n; i += 2) add(i, 1, 0), add(1, i + 1, 0), add(i + 1, 1, 0), add(1, i, 0);
    add(1, 1, 0);
  }
  return m;
}

// Whether a VERIFIED claim is true: nullopt when out of the reference's reach.
std::optional<bool> judge(Mod2Claim::Reader c) {
  const int n = c.getBoardSize();
  const int rule = int(c.getRule());
  switch (c.getKind()) {
    case Mod2Kind::PLAY: {
      if (rule != 0 || n < 1 || n > 32) return false;
      std::vector<int> moves;
      if (c.getSequence() == Mod2Sequence::EXPLICIT)
        for (uint16_t m : c.getMoves()) moves.push_back(m);
      else if (n % 2 == 1 && c.getMoves().size() == 0)
        moves = namedOrder(n, c.getSequence() == Mod2Sequence::BROWN_LADHA_COMPLETE);
      else
        return false;
      Play p(n);
      const bool illegalAt = c.getEnd() == Mod2End::ILLEGAL_AT;
      const size_t legal = illegalAt ? size_t(c.getCount()) - 1 : moves.size();
      if (illegalAt && (c.getCount() < 1 || c.getCount() > moves.size())) return false;
      for (size_t i = 0; i < legal; ++i) {
        if (moves[i] >= n * n || !p.open(moves[i])) return false;
        p.place(moves[i]);
      }
      switch (c.getEnd()) {
        case Mod2End::COMPLETE: return p.count() == n * n;
        case Mod2End::LOCKED: return p.count() < n * n && !p.anyOpen();
        case Mod2End::QUEENS: return p.count() == int(c.getCount());
        case Mod2End::ILLEGAL_AT: return moves[legal] < n * n && !p.open(moves[legal]);
        default: return false;
      }
    }
    case Mod2Kind::STRUCTURE: {
      if (rule != 0 || n % 2 == 1) return false;  // odd n: Claim 3.1's order fills the board
      if (n > 4) return std::nullopt;
      int most = 0;
      for (uint64_t p : Small(n).legal()) most = std::max(most, std::popcount(p));
      return c.getStructure() == Mod2Structure::NO_COMPLETE ? most < n * n : most <= n * n - 2;
    }
    case Mod2Kind::EXHAUSTIVE: {
      if (n < 1 || n > 4) return std::nullopt;
      if (c.getExhaustive() == Mod2Exhaustive::COMPLEMENT_MAP)  // Lemma 3: true in exactly this form
        return rule == 2 && int(c.getOtherRule()) == (n % 2 ? 0 : 1);
      if (rule != 0) return false;
      const Small b(n);
      const std::set<uint64_t> legal = b.legal();
      std::vector<uint64_t> totals(size_t(n * n + 1)), classes(size_t(n * n + 1));
      std::set<uint64_t> orbits;
      uint64_t most = 0, fewest = UINT64_MAX;
      for (uint64_t p : legal) {
        ++totals[std::popcount(p)];
        if (orbits.insert(b.canonical(p)).second) ++classes[std::popcount(p)];
        most = std::max<uint64_t>(most, std::popcount(p));
        bool open = false;
        for (int s = 0; s < n * n; ++s) open = open || b.move(0, p, s);
        if (!open && std::popcount(p) < n * n) fewest = std::min<uint64_t>(fewest, std::popcount(p));
      }
      std::vector<uint64_t> t, k;
      for (uint64_t x : c.getTotals()) t.push_back(x);
      for (uint64_t x : c.getClasses()) k.push_back(x);
      std::map<uint64_t, uint64_t> memo;
      switch (c.getExhaustive()) {
        case Mod2Exhaustive::LEGAL_COUNT: return t == totals && k == classes;
        case Mod2Exhaustive::MOST_QUEENS: return c.getCount() == most;
        case Mod2Exhaustive::FEWEST_LOCKING: return c.getCount() == fewest;
        case Mod2Exhaustive::PLAY_COUNT: return t == std::vector<uint64_t>{b.plays(0, memo)};
        default: return false;
      }
    }
    case Mod2Kind::GAME: {
      if (rule > 2) return false;
      if (n < 1 || n > 3 || c.getHeap() > 4) return std::nullopt;
      Small b(n);
      b.rule = rule;
      uint64_t p = rule == 2 ? (uint64_t(1) << (n * n)) - 1 : 0;
      const auto start = c.getStart();
      if (rule == 1 && start.size() == 0) return false;
      for (unsigned i = 0; i < start.size(); ++i) {
        if (start[i] >= n * n) return false;
        if (rule == 1 && i == 0) p |= uint64_t(1) << start[i];
        else if (!b.move(rule, p, start[i])) return false;
        else p = b.after(rule, p, start[i]);
      }
      const bool win = b.wins(p, c.getHeap());
      if (c.getGrundy()) return c.getOutcome() == Outcome::LOSS && !win;
      return win == (c.getOutcome() == Outcome::WIN);
    }
  }
  return false;
}

// ---- Structured inputs --------------------------------------------------------

Bytes structured(Input in) {
  const uint8_t kindByte = in.byte(), sizeByte = in.byte(), ruleByte = in.byte(), spoil = in.byte();
  const unsigned kind = kindByte % 4;
  unsigned n = kind == 0 ? (sizeByte & 0x80 ? 1 + sizeByte % 32 : 1 + sizeByte % 8)
               : kind == 1 ? 1 + sizeByte % 32
               : kind == 2 ? 1 + sizeByte % 5
                           : 1 + sizeByte % 3;
  if (spoil == 0xff) n = sizeByte;  // any size, to reach the range checks
  const unsigned rule = ruleByte % 4;  // 3: not a rule

  capnp::MallocMessageBuilder msg;
  auto h = msg.initRoot<::Header>();
  h.setFormatVersion(1);
  auto c = h.initMod2();
  c.setBoardSize(uint16_t(n)), c.setKind(static_cast<::Mod2Kind>(kind)), c.setRule(static_cast<::Mod2Rule>(rule));
  const int N = int(n) * int(n);
  if (kind == 0) {  // play: moves picked among the open squares, the end as the reference finds it
    const unsigned sequence = in.byte() % 4;
    c.setSequence(static_cast<::Mod2Sequence>(sequence));
    std::vector<int> moves;
    if (sequence == 0 && n <= 32) {
      Play p{int(n)};
      const unsigned length = n <= 8 ? in.byte() : in.byte() % 64u;  // the reference is quadratic: keep big boards short
      for (unsigned i = 0; i < length && !in.empty(); ++i) {
        const uint8_t pick = in.byte();
        std::vector<int> open;
        for (int s = 0; s < N; ++s)
          if (p.open(s)) open.push_back(s);
        const int s = pick == 0xff || open.empty() ? int(in.byte()) % (N + 1) : open[pick % open.size()];
        moves.push_back(s);
        if (s < N && p.open(s)) p.place(s);
      }
      auto list = c.initMoves(unsigned(moves.size()));
      for (unsigned i = 0; i < moves.size(); ++i) list.set(i, uint16_t(moves[i]));
      c.setEnd(p.count() == N ? ::Mod2End::COMPLETE : !p.anyOpen() ? ::Mod2End::LOCKED : ::Mod2End::QUEENS);
      if (!p.anyOpen() || p.count() == N) c.setCount(0);
      else c.setCount(uint32_t(p.count()));
    } else {
      c.setEnd(sequence == 2 ? ::Mod2End::LOCKED : ::Mod2End::COMPLETE);
    }
    const uint8_t edit = in.byte();  // perturb the end or the count
    if (edit & 1) c.setEnd(static_cast<::Mod2End>(edit / 2 % 5));
    if (edit & 0x10) c.setCount(uint32_t(in.byte()));
  } else if (kind == 1) {
    c.setStructure(static_cast<::Mod2Structure>(in.byte() % 3));
  } else if (kind == 2) {
    const unsigned what = in.byte() % 6;
    c.setExhaustive(static_cast<::Mod2Exhaustive>(what));
    Small b{int(n)};
    if (n <= 4 && what != 3) {  // start from the truth, then edit
      std::vector<uint64_t> totals(size_t(N + 1)), classes(size_t(N + 1));
      std::set<uint64_t> orbits;
      uint64_t most = 0, fewest = 0;
      for (uint64_t p : b.legal()) {
        ++totals[std::popcount(p)];
        if (orbits.insert(b.canonical(p)).second) ++classes[std::popcount(p)];
        most = std::max<uint64_t>(most, std::popcount(p));
      }
      for (uint64_t p : b.legal()) {
        bool open = false;
        for (int s = 0; s < N; ++s) open = open || b.move(0, p, s);
        if (!open && std::popcount(p) < N && (!fewest || uint64_t(std::popcount(p)) < fewest)) fewest = std::popcount(p);
      }
      std::map<uint64_t, uint64_t> memo;
      if (what == 0) {
        const uint8_t e = in.byte();
        if (e & 1 && !totals.empty()) totals[e / 2 % totals.size()] += 1;
        if (e & 0x40 && !classes.empty()) classes[e / 2 % classes.size()] -= 1;
        if (e & 0x80) totals.pop_back();
        auto t = c.initTotals(unsigned(totals.size()));
        for (unsigned i = 0; i < totals.size(); ++i) t.set(i, totals[i]);
        auto k = c.initClasses(unsigned(classes.size()));
        for (unsigned i = 0; i < classes.size(); ++i) k.set(i, classes[i]);
      } else if (what == 4) {
        c.initTotals(1).set(0, b.plays(0, memo) + (in.byte() & 1));
      } else if (what == 1 || what == 2) {
        c.setCount(uint32_t((what == 1 ? most : fewest) + int8_t(in.byte()) / 64));
      }
    } else {
      c.setCount(in.byte());
      c.setOtherRule(static_cast<::Mod2Rule>(in.byte() % 3));
    }
  } else {  // game: the reference's winning replies, then edits
    Small b{int(n)};
    b.rule = int(rule % 3);
    const uint32_t heap = in.byte() % 4;
    std::vector<uint16_t> start;
    const unsigned length = in.byte() % 4;
    for (unsigned i = 0; i < length; ++i) start.push_back(uint16_t(in.byte() % (N + 1)));
    auto s = c.initStart(unsigned(start.size()));
    for (unsigned i = 0; i < start.size(); ++i) s.set(i, start[i]);
    c.setHeap(heap);
    const bool small = n >= 1 && n <= 3;  // not so with the spoil byte 0xff
    uint64_t p = b.rule == 2 && small ? (uint64_t(1) << N) - 1 : 0;
    bool ok = small && !(b.rule == 1 && start.empty());
    for (unsigned i = 0; i < start.size() && ok; ++i) {
      if (start[i] >= N) ok = false;
      else if (b.rule == 1 && i == 0) p |= uint64_t(1) << start[i];
      else if (!b.move(b.rule, p, start[i])) ok = false;
      else p = b.after(b.rule, p, start[i]);
    }
    std::vector<std::array<uint64_t, 3>> rows;
    bool win = false;
    if (ok) {
      win = b.wins(p, heap);
      // Every won position the reference visited, with a winning move.
      for (const auto& [key, w] : b.memo) {
        if (!w) continue;
        uint32_t best = 0;
        for (int sq = 0; sq < N && !best; ++sq)
          if (b.move(b.rule, key.first, sq) && !b.wins(b.after(b.rule, key.first, sq), key.second)) best = 1 + sq;
        for (uint32_t g = 0; g < key.second && !best; ++g)
          if (!b.wins(key.first, g)) best = uint32_t(N) + 1 + g;
        rows.push_back({key.first, uint64_t(key.second), uint64_t(best)});
      }
    }
    const uint8_t flags = in.byte();
    c.setOutcome(win != bool(flags & 1) ? ::Outcome::WIN : ::Outcome::LOSS);
    c.setGrundy(flags & 2);
    while (!in.empty()) {  // edits: 3 bytes each
      const uint8_t op = in.byte(), at = in.byte(), value = in.byte();
      if (rows.empty()) break;
      auto& r = rows[at % rows.size()];
      switch (op % 4) {
        case 0: r[2] = value % (N + 6); break;
        case 1: rows.erase(rows.begin() + at % rows.size()); break;
        case 2: r[0] ^= uint64_t(1) << (value % 64); break;
        default: if (at % rows.size() + 1 < rows.size()) std::swap(r, rows[at % rows.size() + 1]); break;
      }
    }
    auto list = c.initReplies(unsigned(rows.size()));
    for (unsigned i = 0; i < rows.size(); ++i)
      list[i].setQueens(rows[i][0]), list[i].setHeap(uint32_t(rows[i][1])), list[i].setMove(uint32_t(rows[i][2]));
  }
  // The spoil byte sets one field the kind may not use (or none).
  switch (spoil % 16) {
    case 1: c.setHeap(1); break;
    case 2: c.setCount(c.getCount() + 1); break;
    case 3: c.initStart(1); break;
    case 4: h.setCutoff(1); break;
    case 5: c.setOtherRule(::Mod2Rule::COMPLEMENTARY); break;
    default: break;
  }
  c.setProducer("fuzz_mod2_certificate");
  auto words = capnp::messageToFlatArray(msg);
  auto bytes = words.asBytes();
  Bytes out(bytes.begin(), bytes.end());
  appendSeal(out);
  return out;
}

void judgeVerified(const Bytes& file, const std::string& verdictLine) {
  judgeVerifiedHeaderFile(file, verdictLine, "mod-2", [](::Header::Reader h) { return h.hasMod2(); },
                          [](::Header::Reader h) { return judge(h.getMod2()); });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0 || size > (1u << 20)) return 0;
  Input in{data, size};
  const unsigned mode = in.byte() % 3;
  Bytes file;
  const std::string path = writeCertificateInput(in, mode, structured, "c.qmod2", file);
  const CheckResult r = runChecker(path);
  if (r.status == 0) judgeVerified(file, r.out);
  return 0;
}
