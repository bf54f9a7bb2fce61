// The partizan placing game of Noon 2002, section 7.3, prover side:
// docs/partizan-game.md is the contract. Left and Right each place pieces of
// their own (all of one kind: queen, rook, bishop, king or knight) on empty
// squares that no opposing piece attacks; nothing is ever removed; the
// player who cannot move loses. Rule `open`: lines of attack pass over
// pieces (Snort on the piece's attack graph); rule `blocking`: a sliding
// line stops at the first piece on it, of either colour.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "prover/board.hpp"

// Pieces, their names and the names of squares are every family's
// (prover/board.hpp): qcert::Piece, pieceName, squareName.
namespace qcert::partizan {

constexpr int kMaxBoard = 8;                        // a side's pieces fit in 64 bits
constexpr size_t kMaxReplies = size_t{1} << 22;     // the checker's limit
constexpr size_t kDefaultMemoMiB = 4096;

enum class Rule { open, blocking };
enum class Player { left, right };

const char* ruleName(Rule r);       // "open", "blocking"
const char* playerName(Player p);   // "Left", "Right"
std::optional<Rule> parseRule(const std::string& text);

// ---- squares ------------------------------------------------------------------
// s = r*n + c on the n x n board, named as everywhere (squareName, board.hpp).
// "e5,a1" -> squares; throws std::invalid_argument naming the bad item.
std::vector<int> parseSquareList(int n, const std::string& list);
uint64_t maskOf(const std::vector<int>& squares);
std::vector<int> squaresOf(uint64_t mask);  // increasing

// ---- the rules ----------------------------------------------------------------
// The open rule's attack masks are the shared geometry's (the queens game's
// kill sets of the piece, less the square itself); the blocking rule adds
// precomputed rays, one per direction from the square outwards to the edge.
class Rules {
 public:
  Rules(int n, Piece piece, Rule rule);
  int n() const { return n_; }
  int squares() const { return sq_; }
  uint64_t full() const { return full_; }
  Piece piece() const { return piece_; }
  Rule rule() const { return rule_; }

  // The squares a piece on s attacks when `occupied` holds pieces: open, every
  // square of its lines (occupied ignored); blocking, each line up to and
  // including its first occupied square.
  uint64_t attacks(int s, uint64_t occupied) const;
  // Every square some piece of `pieces` attacks.
  uint64_t attackedBy(uint64_t pieces, uint64_t occupied) const;
  // The squares the player with `mover`'s pieces may use: empty, not
  // attacked by a piece of `other`.
  uint64_t moves(uint64_t mover, uint64_t other) const {
    const uint64_t occ = mover | other;
    return full_ & ~occ & ~attackedBy(other, occ);
  }
  // No piece of one side is attacked by a piece of the other (what any
  // reachable position satisfies; the checker requires it of the root).
  bool legal(uint64_t left, uint64_t right) const;
  // The image of a set under symmetry g (0..7) of the square; g = 0 is the identity.
  uint64_t image(int g, uint64_t set) const;
  int imageSquare(int g, int s) const;

 private:
  int n_, sq_;
  uint64_t full_;
  Piece piece_;
  Rule rule_;
  std::array<uint64_t, 64> lines_{};                     // open attacks of s (s itself not included)
  std::array<std::array<uint64_t, 8>, 64> rays_{};       // sliding pieces, per direction
  std::array<bool, 8> rayUp_{};                          // the direction goes to larger squares
  std::array<bool, 8> rayUsed_{};                        // the piece slides this way
  std::array<std::array<std::array<uint64_t, 256>, 8>, 8> symTable_{};  // [g][byte][value]
};

// ---- the search ---------------------------------------------------------------
// Nothing decided: the memo or the certificate would pass a limit.
struct TooLarge : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Negamax with an exact memo of every position solved, keyed by (the mover's
// pieces, the other side's pieces) and canonical under the 8 symmetries of
// the square (they preserve both rules; the rules treat Left and Right
// alike, so who moves is not part of the key). The memo grows by doubling
// up to memoBytes; past that, TooLarge.
class Solver {
 public:
  Solver(const Rules& rules, size_t memoBytes = kDefaultMemoMiB << 20, bool symmetry = true);
  const Rules& rules() const { return r_; }
  // Does the player to move (pieces `mover`; the opponent has `other`) win?
  bool wins(uint64_t mover, uint64_t other);
  // What the memo knows of the position: -1 nothing, 0 lost, 1 won.
  int known(uint64_t mover, uint64_t other) const;
  uint64_t positions() const { return used_; }   // distinct positions in the memo
  uint64_t nodes() const { return nodes_; }      // positions searched (memo misses)
  size_t memoBytes() const { return keys_.size() * (sizeof(Key) + 1); }
  // Called now and then during long searches (progress display).
  void setTick(void (*tick)(void*, uint64_t), void* arg) { tick_ = tick, tickArg_ = arg; }

 private:
  struct Key {
    uint64_t a, b;
  };
  Key canonical(uint64_t mover, uint64_t other) const;
  int lookup(const Key& k) const;   // -1 unknown, 0 loss, 1 win
  void store(const Key& k, bool win);
  void grow();
  const Rules& r_;
  bool symmetry_;
  size_t maxSlots_, memoMiB_;
  std::vector<Key> keys_;
  std::vector<uint8_t> vals_;  // 0 empty, 1 loss, 2 win
  uint64_t used_ = 0, nodes_ = 0;
  void (*tick_)(void*, uint64_t) = nullptr;
  void* tickArg_ = nullptr;
};

// Baseline for tests and benchmarks: plain negamax, an unordered_map memo,
// no symmetry.
bool naiveWins(const Rules& rules, uint64_t mover, uint64_t other);

struct Reply {
  uint64_t left, right;
  int move;
};
struct GameProof {
  bool moverWins = false;
  std::vector<Reply> replies;   // sorted by (left, right)
  uint64_t loserPositions = 0;  // positions where the loser moves (every move tried)
};
// The winner's reply at every position the loser can force from the root
// (left, right) with `first` to move; TooLarge past maxReplies.
GameProof gameProof(Solver& solver, uint64_t left, uint64_t right, Player first, size_t maxReplies = kMaxReplies);

// ---- the mirror lemma (docs/partizan-game.md, Lemma 3) -----------------------
// A map of the square (the schema's DefaultReply numbering: 1 half turn,
// 2 files, 3 ranks, 4 diagonal, 5 antidiagonal) under which the empty board
// is decided without search: (a) no fixed square and no square attacked from
// its image, the second player wins; (b) one fixed square z and every other
// square attacked from its image attacked from z, the first player wins by z.
struct MirrorLemma {
  int map = 0;  // 0: no map qualifies
  bool moverWins = false;
  int centre = -1;  // (b): z
};
// The first map, in that order, whose conditions hold.
MirrorLemma findMirrorLemma(const Rules& rules);
const char* mirrorName(int map);  // "half turn", "mirror in the files", ...

// ---- certificates -------------------------------------------------------------
struct PartizanSpec {
  int n = 0;
  Piece piece = Piece::queen;
  Rule rule = Rule::open;
  std::vector<int> left, right;  // increasing
  Player toMove = Player::left;
  bool moverWins = false;
  std::vector<Reply> replies;
  MirrorLemma mirror;  // map != 0: a mirror-lemma certificate (empty root, no replies)
};
// Header{formatVersion, partizan}, Seal; returns the file's size in bytes.
uint64_t writePartizanCertificate(const std::string& path, const PartizanSpec& spec, const std::string& producer);
// What the checker prints after "VERIFIED: " for this claim.
std::string statement(const PartizanSpec& spec);
// "the partizan queens game on the empty 4x4 board", with the root's pieces
// and the blocking rule's note.
std::string gameText(const PartizanSpec& spec);

int runPartizan(int argc, char** argv);  // argv[0] = "partizan"

}  // namespace qcert::partizan
