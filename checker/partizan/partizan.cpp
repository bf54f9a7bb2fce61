// The partizan placing game (docs/partizan-game.md): Left and Right place
// pieces of their own on empty squares no opposing piece attacks; the player
// who cannot move loses.  The certificate claims that the player to move at
// the root wins or loses and lists the winner's replies.  The checker tries
// every move of the loser itself and looks up the winner's reply wherever
// the winner is to move.
#include "checker/partizan/partizan.hpp"

#include "checker/board.hpp"  // Rejection
#include "checker/limits.hpp"
#include "schema/qcert.capnp.h"

#include <capnp/serialize.h>

#include <algorithm>
#include <bit>
#include <ostream>
#include <unordered_set>
#include <vector>

namespace qcert::checker {
namespace {

constexpr size_t kMaxReplies = size_t(1) << 22;
const char* const kPlural[5] = {"queens", "rooks", "bishops", "kings", "knights"};
const char* const kSingular[5] = {"queen", "rook", "bishop", "king", "knight"};

uint64_t bit(unsigned s) { return uint64_t(1) << s; }

// The rules.  Square s = r*n + c; sets of squares are 64-bit masks.
struct Game {
  unsigned n = 0, piece = 0;  // piece: 0 queen, 1 rook, 2 bishop, 3 king, 4 knight
  bool blocking = false;

  // The squares a piece on s attacks when `occupied` holds the pieces on the
  // board.  Queen: the 8 directions, rook: the first 4, bishop: the last 4,
  // each to the edge; with blocking a line stops at its first occupied square
  // (which is attacked).  King: one step in each of the 8 directions.
  // Knight: the 8 knight steps.
  uint64_t attacks(unsigned s, uint64_t occupied) const {
    static const int line[8][2] = {{0, 1}, {0, -1}, {1, 0}, {-1, 0}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
    static const int jump[8][2] = {{1, 2}, {2, 1}, {-1, 2}, {-2, 1}, {1, -2}, {2, -1}, {-1, -2}, {-2, -1}};
    const bool knight = piece == 4, step = piece >= 3;
    uint64_t att = 0;
    for (int d = 0; d < 8; ++d) {
      if ((piece == 1 && d >= 4) || (piece == 2 && d < 4)) continue;
      const int dr = knight ? jump[d][0] : line[d][0], dc = knight ? jump[d][1] : line[d][1];
      int r = int(s / n) + dr, c = int(s % n) + dc;
      for (; r >= 0 && c >= 0 && r < int(n) && c < int(n); r += dr, c += dc) {
        const unsigned t = unsigned(r) * n + unsigned(c);
        att |= bit(t);
        if (step || (blocking && (occupied & bit(t)))) break;
      }
    }
    return att;
  }
  // Every square some piece of `pieces` attacks.
  uint64_t attackedBy(uint64_t pieces, uint64_t occupied) const {
    uint64_t att = 0;
    for (; pieces; pieces &= pieces - 1) att |= attacks(unsigned(std::countr_zero(pieces)), occupied);
    return att;
  }
  // The moves of the player whose pieces are `own`: the empty squares that
  // no piece of `other` attacks.
  uint64_t moves(uint64_t own, uint64_t other) const {
    const uint64_t occupied = own | other, all = n == 8 ? ~uint64_t(0) : bit(n * n) - 1;
    return all & ~occupied & ~attackedBy(other, occupied);
  }

  std::string square(unsigned s) const { return std::string(1, char('a' + s % n)) + std::to_string(s / n + 1); }
  std::string squares(uint64_t set) const {
    std::string text;
    for (; set; set &= set - 1) text += (text.empty() ? "" : ", ") + square(unsigned(std::countr_zero(set)));
    return text;
  }
  std::string side(const char* who, uint64_t set) const {
    return std::string(who) + "'s " + (std::popcount(set) == 1 ? kSingular[piece] : kPlural[piece]) + " on " + squares(set);
  }
  std::string position(uint64_t left, uint64_t right) const {
    return "at the position with Left on {" + squares(left) + "} and Right on {" + squares(right) + "}";
  }
};

struct Reply {
  uint64_t left, right;
  unsigned move;
};

struct PairHash {
  size_t operator()(const std::pair<uint64_t, uint64_t>& p) const {
    const uint64_t x = p.first * 0x9E3779B97F4A7C15ull ^ p.second * 0xC2B2AE3D27D4EB4Full;
    return size_t(x ^ x >> 29);
  }
};

// Depth-first proof.  Every move adds a piece, so who is to move follows
// from the position and no position repeats on a path.
struct Proof {
  const Game& g;
  bool leftWins = false;
  std::vector<Reply> replies;  // strictly increasing (left, right)
  std::vector<bool> used;      // replies[i] played (its position proved won)
  std::unordered_set<std::pair<uint64_t, uint64_t>, PairHash> lost;  // loser positions proved lost

  // The winner is to move: its reply must be listed and legal, and the
  // position after it lost for the loser.
  void winnerMoves(uint64_t left, uint64_t right) {
    limits::checkTime();
    const auto it = std::lower_bound(replies.begin(), replies.end(), std::make_pair(left, right), [](const Reply& r, const auto& p) {
      return r.left != p.first ? r.left < p.first : r.right < p.second;
    });
    if (it == replies.end() || it->left != left || it->right != right) throw Rejection("no reply " + g.position(left, right));
    const size_t i = size_t(it - replies.begin());
    if (used[i]) return;
    const uint64_t own = leftWins ? left : right, other = leftWins ? right : left;
    if (it->move >= g.n * g.n || !(g.moves(own, other) & bit(it->move))) {
      const std::string name = it->move < g.n * g.n ? g.square(it->move) : "square " + std::to_string(it->move);
      throw Rejection("the reply " + name + " is not a legal move for " + (leftWins ? "Left " : "Right ") + g.position(left, right));
    }
    used[i] = true;
    if (leftWins) loserMoves(left | bit(it->move), right);
    else loserMoves(left, right | bit(it->move));
  }

  // The loser is to move: every move it has must lead to a position the
  // winner wins (no move at all: the loser has lost).
  void loserMoves(uint64_t left, uint64_t right) {
    limits::checkTime();
    if (lost.count({left, right})) return;
    for (uint64_t m = leftWins ? g.moves(right, left) : g.moves(left, right); m; m &= m - 1) {
      if (leftWins) winnerMoves(left, right | (m & -m));
      else winnerMoves(left | (m & -m), right);
    }
    if (lost.size() % (1 << 16) == 0) limits::reserve(uint64_t(64) << 16, "the partizan search's memo");
    lost.insert({left, right});
  }
};

// A root list: squares on the board, strictly increasing.
uint64_t readSide(capnp::List<uint16_t>::Reader list, const Game& g, const char* who) {
  uint64_t set = 0;
  for (unsigned i = 0; i < list.size(); ++i) {
    if (list[i] >= g.n * g.n) throw Rejection(std::string(who) + "'s square " + std::to_string(list[i]) + " is off the board");
    if (i > 0 && list[i] <= list[i - 1]) throw Rejection(std::string(who) + "'s squares are not strictly increasing");
    set |= bit(list[i]);
  }
  return set;
}

// Lemma 3 (docs/partizan-game.md), checked on the board instead of replying
// to every move.  sigma is a symmetry of the square that is an involution.
// (a) No fixed square, and no square attacked from its image: the second
// player wins the empty board by answering s with sigma(s).  (b) Exactly one
// fixed square z, and every other square attacked from its image is attacked
// from z: the first player wins by z, then the same answers.  (Attacks on
// the empty board: by Lemma 1 the blocking rule has the same moves.)
// Returns the statement's tail naming the strategy.
std::string checkMirrorLemma(const Game& g, unsigned map, bool moverWins) {
  static const char* const kMaps[] = {"", "half turn", "mirror in the files", "mirror in the ranks", "mirror in the diagonal",
                                      "mirror in the antidiagonal"};
  const unsigned n = g.n, m = n - 1;
  std::vector<unsigned> sigma(n * n);
  for (unsigned s = 0; s < n * n; ++s) {
    const unsigned r = s / n, c = s % n;
    const unsigned to[6][2] = {{r, c}, {m - r, m - c}, {r, m - c}, {m - r, c}, {c, r}, {m - c, m - r}};
    sigma[s] = to[map][0] * n + to[map][1];
  }
  std::vector<unsigned> fixed;
  for (unsigned s = 0; s < n * n; ++s) {
    if (sigma[sigma[s]] != s) throw Rejection("mirror lemma: the map is not an involution");
    for (unsigned t = 0; t < n * n; ++t)
      if (bool(g.attacks(s, 0) & bit(t)) != bool(g.attacks(sigma[s], 0) & bit(sigma[t])))
        throw Rejection("mirror lemma: the " + std::string(kMaps[map]) + " does not preserve the attacks");
    if (sigma[s] == s) fixed.push_back(s);
  }
  if (fixed.size() != (moverWins ? 1u : 0u))
    throw Rejection("mirror lemma: the " + std::string(kMaps[map]) + " fixes " + std::to_string(fixed.size()) + " squares; " +
                    (moverWins ? "a first-player win needs exactly one" : "a second-player win needs none"));
  for (unsigned s = 0; s < n * n; ++s)
    if ((g.attacks(sigma[s], 0) & bit(s)) && !(moverWins && (s == fixed[0] || (g.attacks(fixed[0], 0) & bit(s)))))
      throw Rejection("mirror lemma: " + g.square(s) + " is attacked from its image " + g.square(sigma[s]) +
                      (moverWins ? " and not from " + g.square(fixed[0]) : ""));
  return std::string(", by the mirror lemma (") + (moverWins ? g.square(fixed[0]) + " first, then the " : "") + kMaps[map] + ")";
}

}  // namespace

std::string verifyPartizanCertificate(const Certificate& cert, std::ostream* announce) {
  capnp::ReaderOptions options;
  options.traversalLimitInWords = uint64_t(1) << 26;  // 2^22 replies of 3 words fit well inside this
  capnp::FlatArrayMessageReader reader(cert.header, options);
  const auto claim = reader.getRoot<Header>().getPartizan();
  Game g;
  g.n = claim.getBoardSize();
  g.piece = unsigned(claim.getPiece());
  const unsigned rule = unsigned(claim.getRule()), toMove = unsigned(claim.getToMove());
  if (g.n < 1 || g.n > 8) throw Rejection("board size " + std::to_string(g.n) + " is outside 1..8");
  if (g.piece > 4) throw Rejection("unknown piece " + std::to_string(g.piece));
  if (rule > 1) throw Rejection("unknown partizan rule " + std::to_string(rule));
  if (toMove > 1) throw Rejection("unknown player " + std::to_string(toMove));
  g.blocking = rule == 1;

  // The root: no square twice, no piece attacked by an opposing piece.
  const uint64_t left = readSide(claim.getLeft(), g, "Left"), right = readSide(claim.getRight(), g, "Right");
  if (left & right) throw Rejection("Left and Right both have a piece on " + g.squares(left & right));
  if (const uint64_t hit = g.attackedBy(right, left | right) & left)
    throw Rejection("the root is not a position of the game: Right attacks Left on " + g.squares(hit));
  if (const uint64_t hit = g.attackedBy(left, left | right) & right)
    throw Rejection("the root is not a position of the game: Left attacks Right on " + g.squares(hit));

  // A mirror-lemma certificate: the empty board and nothing else.
  const unsigned map = unsigned(claim.getMirror());
  const bool leftMoves = toMove == 0, moverWins = claim.getMoverWins();
  if (map > 5) throw Rejection("unknown mirror map " + std::to_string(map));
  if (map != 0 && (left || right || claim.getReplies().size() != 0))
    throw Rejection("a mirror-lemma certificate has an empty root and no replies");

  // The replies, strictly increasing by (left, right).
  const auto list = claim.getReplies();
  if (list.size() > kMaxReplies) throw Rejection(std::to_string(list.size()) + " replies: more than 2^22");
  limits::reserve(uint64_t(list.size()) * (sizeof(Reply) + 1), "the replies");
  Proof proof{g, false, {}, {}, {}};
  proof.replies.reserve(list.size());
  for (unsigned i = 0; i < list.size(); ++i) {
    const Reply r{list[i].getLeft(), list[i].getRight(), list[i].getMove()};
    if (i > 0 && std::make_pair(r.left, r.right) <= std::make_pair(proof.replies.back().left, proof.replies.back().right))
      throw Rejection("replies " + std::to_string(i - 1) + " and " + std::to_string(i) +
                      " are not in strictly increasing (left, right) order");
    proof.replies.push_back(r);
  }
  proof.used.assign(list.size(), false);

  // The statement, then the proof.
  std::string game = std::string("the partizan ") + kPlural[g.piece] + " game on ";
  const std::string board = std::to_string(g.n) + "x" + std::to_string(g.n) + " board";
  if (!left && !right) game += "the empty " + board;
  else game += "the " + board + " with " + (left ? g.side("Left", left) : "") + (left && right ? " and " : "") +
               (right ? g.side("Right", right) : "");
  if (g.blocking) game += " (chess convention: lines stop at the first piece)";
  if (announce && map != 0)
    *announce << "  partizan game: " << game << "; the mirror lemma's conditions, checked on every pair of squares" << std::endl;
  else if (announce)
    *announce << "  partizan game: " << game << "; " << list.size() << (list.size() == 1 ? " reply" : " replies")
              << "; every move of the loser is tried (at most about 64 bytes a position)" << std::endl;
  const std::string lead = std::string(leftMoves ? "Left" : "Right") + ", moving first, " + (moverWins ? "wins " : "loses ");
  if (map != 0) return lead + game + checkMirrorLemma(g, map, moverWins);
  proof.leftWins = leftMoves == moverWins;
  if (moverWins) proof.winnerMoves(left, right);
  else proof.loserMoves(left, right);
  for (size_t i = 0; i < proof.used.size(); ++i)
    if (!proof.used[i])
      throw Rejection("reply " + std::to_string(i) + " (left " + std::to_string(proof.replies[i].left) + ", right " +
                      std::to_string(proof.replies[i].right) + ") is never used: every reply must be at a position the loser can force");
  return lead + game;
}

}  // namespace qcert::checker
