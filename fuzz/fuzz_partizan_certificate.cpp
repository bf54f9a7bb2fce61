// Fuzz target: a partizan game certificate (docs/partizan-game.md: a Header
// with `partizan` set, then a Seal).  The first byte picks the mode (byte % 3):
//   0  raw: the rest is the file;
//   1  reseal: the rest is the file without its Seal (a correct one is appended);
//   2  structured: size, piece, rule, flags and a spoil byte, the root's
//      pieces (kept when the reference finds them legal), then the
//      reference's own proof (the winner's reply at every position the loser
//      can force), then edits of it (3 bytes each); or a mirror-lemma
//      certificate (the spoil byte names the map).
// Every VERIFIED claim on a board up to 4x4 is judged by this file's own
// reference (rules and minimax written from the doc, nothing from prover/ or
// checker/); a false one, or an illegal root, traps.
#include "fuzz/fuzz_common.hpp"
#include "schema/qcert.capnp.h"

#include <capnp/message.h>
#include <capnp/serialize.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>
#include <map>
#include <set>

using namespace qfuzz;

namespace {

// ---- The reference -----------------------------------------------------------
// Does a piece on s attack t (s != t), pieces on `occ`? piece 0 queen, 1 rook,
// 2 bishop, 3 king, 4 knight.
bool attacks(int n, int piece, bool blocking, int s, int t, uint64_t occ) {
  if (s == t) return false;
  const int r = s / n, c = s % n, dr = t / n - r, dc = t % n - c, ar = std::abs(dr), ac = std::abs(dc);
  if (piece == 4) return (ar == 1 && ac == 2) || (ar == 2 && ac == 1);
  if (piece == 3) return ar <= 1 && ac <= 1;
  const bool straight = dr == 0 || dc == 0, diagonal = ar == ac;
  if (!((straight && piece != 2) || (diagonal && piece != 1))) return false;
  if (!blocking) return true;
  const int sr = (dr > 0) - (dr < 0), sc = (dc > 0) - (dc < 0);
  for (int k = 1; k < std::max(ar, ac); ++k)
    if (occ >> ((r + k * sr) * n + c + k * sc) & 1) return false;
  return true;
}

struct Ref {
  int n, piece;
  bool blocking;
  std::map<std::pair<uint64_t, uint64_t>, bool> memo;
  bool attacked(uint64_t by, int t, uint64_t occ) const {
    for (int s = 0; s < n * n; ++s)
      if (by >> s & 1 && attacks(n, piece, blocking, s, t, occ)) return true;
    return false;
  }
  uint64_t moves(uint64_t own, uint64_t other) const {
    uint64_t m = 0;
    for (int s = 0; s < n * n; ++s)
      if (!((own | other) >> s & 1) && !attacked(other, s, own | other)) m |= uint64_t(1) << s;
    return m;
  }
  bool legal(uint64_t left, uint64_t right) const {
    if (left & right) return false;
    for (int s = 0; s < n * n; ++s)
      if ((left >> s & 1 && attacked(right, s, left | right)) || (right >> s & 1 && attacked(left, s, left | right))) return false;
    return true;
  }
  bool wins(uint64_t own, uint64_t other) {
    if (auto it = memo.find({own, other}); it != memo.end()) return it->second;
    bool w = false;
    for (uint64_t m = moves(own, other); m && !w; m &= m - 1) w = !wins(other, own | (m & -m));
    return memo[{own, other}] = w;
  }
};

// The claim as the doc reads it; nullopt when out of the reference's reach.
std::optional<bool> judge(PartizanClaim::Reader c) {
  const unsigned n = c.getBoardSize(), piece = unsigned(c.getPiece()), rule = unsigned(c.getRule()), toMove = unsigned(c.getToMove());
  if (n < 1 || n > 8 || piece > 4 || rule > 1 || toMove > 1) return false;  // the checker must reject these
  if (n > 4) return std::nullopt;
  Ref ref{int(n), int(piece), rule == 1, {}};
  uint64_t side[2] = {0, 0};
  for (int who = 0; who < 2; ++who) {
    const auto list = who ? c.getRight() : c.getLeft();
    for (unsigned i = 0; i < list.size(); ++i) {
      if (list[i] >= n * n || (i && list[i] <= list[i - 1])) return false;
      side[who] |= uint64_t(1) << list[i];
    }
  }
  if (!ref.legal(side[0], side[1])) return false;
  const bool moverWins = toMove == 0 ? ref.wins(side[0], side[1]) : ref.wins(side[1], side[0]);
  return moverWins == c.getMoverWins();
}

Bytes structured(Input in) {
  capnp::MallocMessageBuilder msg;
  auto h = msg.initRoot<::Header>();
  h.setFormatVersion(1);
  auto c = h.initPartizan();
  const uint8_t sizeByte = in.byte(), pieceByte = in.byte(), ruleByte = in.byte(), flags = in.byte(), spoil = in.byte();
  const int n = spoil == 0xff ? sizeByte : 1 + sizeByte % 4;
  const int piece = spoil == 0xfe ? pieceByte : pieceByte % 5;
  c.setBoardSize(uint16_t(n));
  c.setPiece(::Piece(piece));
  c.setRule(::PartizanRule(spoil == 0xfd ? ruleByte : ruleByte % 2));
  c.setToMove(::Player(spoil == 0xfc ? flags >> 2 : flags & 1));
  const bool small = n >= 1 && n <= 4 && piece <= 4;
  Ref ref{small ? n : 1, small ? piece : 0, ruleByte % 2 == 1, {}};
  // Spoil 5..10 names a mirror map (10: an unknown one), for a mirror-lemma
  // certificate: with flag 4 its bare form (empty root, no replies), else
  // with the root and replies it must not have.
  const unsigned mirror = spoil % 16 >= 5 && spoil % 16 <= 10 ? spoil % 16 - 4 : 0;
  const bool bare = mirror != 0 && (flags & 4);
  c.setMirror(::DefaultReply(mirror));
  // The root: up to 3 pieces a side, each kept when the position stays legal
  // (spoil 0xfb keeps them all).
  uint64_t side[2] = {0, 0};
  for (int k = 0, count = bare ? 0 : in.byte() % 7; k < count && small; ++k) {
    const int who = k % 2, s = in.byte() % (n * n);
    uint64_t next[2] = {side[0], side[1]};
    next[who] |= uint64_t(1) << s;
    if (spoil == 0xfb || ref.legal(next[0], next[1])) side[0] = next[0], side[1] = next[1];
  }
  for (int who = 0; who < 2; ++who) {
    std::vector<uint16_t> squares;
    for (uint64_t x = side[who]; x; x &= x - 1) squares.push_back(uint16_t(__builtin_ctzll(x)));
    auto list = who ? c.initRight(unsigned(squares.size())) : c.initLeft(unsigned(squares.size()));
    for (unsigned i = 0; i < squares.size(); ++i) list.set(i, squares[i]);
  }
  // The reference's proof: the winner's first winning reply wherever the
  // winner moves, every move of the loser.
  std::vector<std::array<uint64_t, 3>> rows;
  const bool leftFirst = (flags & 1) == 0;
  bool moverWins = false;
  if (small && ref.legal(side[0], side[1])) {
    moverWins = leftFirst ? ref.wins(side[0], side[1]) : ref.wins(side[1], side[0]);
  }
  if (small && ref.legal(side[0], side[1]) && !bare) {
    const bool leftWins = moverWins == leftFirst;
    std::set<std::pair<uint64_t, uint64_t>> seen{{side[0], side[1]}};
    std::vector<std::pair<uint64_t, uint64_t>> todo{{side[0], side[1]}};
    while (!todo.empty() && rows.size() < 4096) {
      const auto [l, r] = todo.back();
      todo.pop_back();
      const bool evenlyPlaced = (__builtin_popcountll(l) - __builtin_popcountll(side[0])) == (__builtin_popcountll(r) - __builtin_popcountll(side[1]));
      const bool leftMoves = evenlyPlaced == leftFirst;  // the first mover moves when both have placed alike
      const uint64_t own = leftMoves ? l : r, other = leftMoves ? r : l;
      for (uint64_t m = ref.moves(own, other); m; m &= m - 1) {
        const uint64_t b = m & -m;
        const auto next = leftMoves ? std::make_pair(l | b, r) : std::make_pair(l, r | b);
        if (leftMoves == leftWins) {
          if (ref.wins(other, own | b)) continue;
          rows.push_back({l, r, uint64_t(__builtin_ctzll(b))});
          if (seen.insert(next).second) todo.push_back(next);
          break;
        }
        if (seen.insert(next).second) todo.push_back(next);
      }
    }
    std::sort(rows.begin(), rows.end());
  }
  c.setMoverWins(moverWins != bool(flags & 2));
  while (!in.empty()) {  // edits: 3 bytes each
    const uint8_t op = in.byte(), at = in.byte(), value = in.byte();
    if (rows.empty()) break;
    auto& r = rows[at % rows.size()];
    switch (op % 5) {
      case 0: r[2] = value % (n * n + 3); break;
      case 1: rows.erase(rows.begin() + at % rows.size()); break;
      case 2: r[value & 1] ^= uint64_t(1) << (value % 64); break;
      case 3: rows.insert(rows.begin() + at % rows.size(), r); break;
      default: if (at % rows.size() + 1 < rows.size()) std::swap(r, rows[at % rows.size() + 1]); break;
    }
  }
  auto list = c.initReplies(unsigned(rows.size()));
  for (unsigned i = 0; i < rows.size(); ++i)
    list[i].setLeft(rows[i][0]), list[i].setRight(rows[i][1]), list[i].setMove(uint16_t(rows[i][2]));
  // The spoil byte sets one header field a partizan certificate may not use (or none).
  switch (spoil % 16) {
    case 1: h.setCutoff(1); break;
    case 2: h.setMirrorLemma(true); break;
    case 3: h.initMod2(); break;
    case 4: h.setDefaultReply(::DefaultReply::MIRROR180); break;
    default: break;
  }
  c.setProducer("fuzz_partizan_certificate");
  auto words = capnp::messageToFlatArray(msg);
  auto bytes = words.asBytes();
  Bytes out(bytes.begin(), bytes.end());
  appendSeal(out);
  return out;
}

void judgeVerified(const Bytes& file, const std::string& verdictLine) {
  judgeVerifiedHeaderFile(file, verdictLine, "partizan", [](::Header::Reader h) { return h.hasPartizan(); },
                          [](::Header::Reader h) { return judge(h.getPartizan()); });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0 || size > (1u << 20)) return 0;
  Input in{data, size};
  const unsigned mode = in.byte() % 3;
  Bytes file;
  const std::string path = writeCertificateInput(in, mode, structured, "c.qpartizan", file);
  const CheckResult r = runChecker(path);
  if (r.status == 0) judgeVerified(file, r.out);
  return 0;
}
