// Fuzz target: a mod-2 game certificate (docs/mod2-game.md: a Header with
// `mod2` set, then a Seal).  The first byte picks the mode (byte % 3):
//   0  raw: the rest is the file;
//   1  reseal: the rest is the file without its Seal (a correct one is appended);
//   2  structured: kind, n, rule and a spoil byte, then the kind's fields.  A
//      play's moves are picked by the bytes among the reference's own legal
//      moves (so most plays are legal) and its end is the reference's, then
//      perturbed; exhaustive totals start from the reference's counts; a
//      game's replies are the reference's winning moves, then edited.
// Every VERIFIED claim on a small board is judged by the reference model of
// tests/reference/mod2_reference.hpp (written from the doc's rules, nothing
// from prover/ or checker/; tests/mod2_checker_test.cpp uses it too): plays
// on boards up to 32x32, structure for n <= 4 (and odd n: false), exhaustive
// kinds for n <= 4, games for n <= 3 with heaps up to 4.  A false one traps.
#include "fuzz/fuzz_common.hpp"
#include "schema/qcert.capnp.h"
#include "tests/reference/mod2_reference.hpp"

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

// ---- The judge -----------------------------------------------------------------

using mod2ref::Census;
using mod2ref::Game;
using mod2ref::Masks;
using mod2ref::Play;

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
        moves = mod2ref::namedOrder(n, c.getSequence() == Mod2Sequence::BROWN_LADHA_COMPLETE);
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
      const int most = int(mod2ref::census(n).most);
      return c.getStructure() == Mod2Structure::NO_COMPLETE ? most < n * n : most <= n * n - 2;
    }
    case Mod2Kind::EXHAUSTIVE: {
      if (n < 1 || n > 4) return std::nullopt;
      if (c.getExhaustive() == Mod2Exhaustive::COMPLEMENT_MAP)  // Lemma 3: true in exactly this form
        return rule == 2 && int(c.getOtherRule()) == (n % 2 ? 0 : 1);
      if (c.getExhaustive() == Mod2Exhaustive::OUTCOME) {  // standard: the empty board; alternate: one given queen
        const auto start = c.getStart();
        if (rule == 0 && start.size() == 0) return c.getOutcome() == (Game(n, 0).wins(0, 0) ? Outcome::WIN : Outcome::LOSS);
        if (rule == 1 && start.size() == 1 && start[0] < n * n)
          return c.getOutcome() == (Game(n, 1).wins(uint64_t(1) << start[0], 0) ? Outcome::WIN : Outcome::LOSS);
        return false;
      }
      if (rule != 0) return false;
      const Census truth = mod2ref::census(n);
      std::vector<uint64_t> t, k;
      for (uint64_t x : c.getTotals()) t.push_back(x);
      for (uint64_t x : c.getClasses()) k.push_back(x);
      std::map<uint64_t, uint64_t> memo;
      switch (c.getExhaustive()) {
        case Mod2Exhaustive::LEGAL_COUNT: return t == truth.totals && k == truth.classes;
        case Mod2Exhaustive::MOST_QUEENS: return c.getCount() == truth.most;
        case Mod2Exhaustive::FEWEST_LOCKING: return c.getCount() == truth.fewestLocking;
        case Mod2Exhaustive::PLAY_COUNT: return t == std::vector<uint64_t>{Masks(n).plays(0, memo)};
        default: return false;
      }
    }
    case Mod2Kind::GAME: {
      if (rule > 2) return false;
      if (n < 1 || n > 3 || c.getHeap() > 4) return std::nullopt;
      Game game(n, rule);
      const Masks& b = game.board;
      uint64_t p = rule == 2 ? (uint64_t(1) << (n * n)) - 1 : 0;
      const auto start = c.getStart();
      if (rule == 1 && start.size() == 0) return false;
      for (unsigned i = 0; i < start.size(); ++i) {
        if (start[i] >= n * n) return false;
        if (rule == 1 && i == 0) p |= uint64_t(1) << start[i];
        else if (!b.move(rule, p, start[i])) return false;
        else p = b.after(rule, p, start[i]);
      }
      const bool win = game.wins(p, c.getHeap());
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
    const unsigned what = in.byte() % 7;  // 6: not a kind
    c.setExhaustive(static_cast<::Mod2Exhaustive>(what));
    if (n <= 4 && what != 3) {  // start from the truth, then edit
      Census truth = mod2ref::census(int(n));
      std::vector<uint64_t>& totals = truth.totals;
      std::vector<uint64_t>& classes = truth.classes;
      const uint64_t most = truth.most, fewest = truth.fewestLocking == UINT64_MAX ? 0 : truth.fewestLocking;
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
        c.initTotals(1).set(0, Masks(int(n)).plays(0, memo) + (in.byte() & 1));
      } else if (what == 1 || what == 2) {
        c.setCount(uint32_t((what == 1 ? most : fewest) + int8_t(in.byte()) / 64));
      } else if (what == 5) {  // the truth, or the other outcome, or not an outcome
        const uint8_t e = in.byte();
        bool wins = Game(int(n), 0).wins(0, 0);
        if (rule == 1) {  // the alternate rule's given queen (perhaps off the board)
          const uint16_t g = uint16_t(in.byte() % (N + 1));
          c.initStart(1).set(0, g);
          wins = g < N && Game(int(n), 1).wins(uint64_t(1) << g, 0);
        }
        c.setOutcome(static_cast<::Outcome>((wins ? 0u : 1u) ^ (e & 1) ^ (e & 2)));
      }
    } else {
      c.setCount(in.byte());
      c.setOtherRule(static_cast<::Mod2Rule>(in.byte() % 3));
    }
  } else {  // game: the reference's winning replies, then edits
    Game game(int(n), int(rule % 3));
    const Masks& b = game.board;
    const uint32_t heap = in.byte() % 4;
    std::vector<uint16_t> start;
    const unsigned length = in.byte() % 4;
    for (unsigned i = 0; i < length; ++i) start.push_back(uint16_t(in.byte() % (N + 1)));
    auto s = c.initStart(unsigned(start.size()));
    for (unsigned i = 0; i < start.size(); ++i) s.set(i, start[i]);
    c.setHeap(heap);
    const bool small = n >= 1 && n <= 3;  // not so with the spoil byte 0xff
    uint64_t p = game.rule == 2 && small ? (uint64_t(1) << N) - 1 : 0;
    bool ok = small && !(game.rule == 1 && start.empty());
    for (unsigned i = 0; i < start.size() && ok; ++i) {
      if (start[i] >= N) ok = false;
      else if (game.rule == 1 && i == 0) p |= uint64_t(1) << start[i];
      else if (!b.move(game.rule, p, start[i])) ok = false;
      else p = b.after(game.rule, p, start[i]);
    }
    std::vector<std::array<uint64_t, 3>> rows;
    bool win = false;
    if (ok) {
      win = game.wins(p, heap);
      // Every won position the reference visited, with a winning move.
      for (const auto& [key, w] : game.memo)
        if (w) rows.push_back({key.first, uint64_t(key.second), uint64_t(game.winningMove(key.first, key.second))});
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
