// The front end's own view of a game, on the prover's side: positions as
// live-square lists, the pictures the board view draws, and values proved
// on the spot by the prover's exact search within a time budget. Nothing
// here is checked by the checker: the front end says "proved on the spot"
// for every value that comes from here.
#pragma once
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ui/board_view.hpp"
#include "prover/geometry.hpp"

namespace qcert::ui {

using Clock = std::chrono::steady_clock;
using Live = std::vector<char>;  // live[s]: empty, not a hole, attacked by no piece

// A move: a square >= 0, or -1 - h for the heap move to h (as the checker's
// ReplyObserver names them).
inline int heapMove(uint32_t to) { return -1 - int(to); }
inline bool isHeapMove(int move) { return move < 0; }
inline uint32_t heapTarget(int move) { return uint32_t(-1 - move); }
constexpr int kNoMove = -(1 << 30);  // no move: the position is lost

// The live squares after placing `pieces` in order on the empty board.
// Throws std::invalid_argument naming the first piece that is not a legal
// move ("c3 is attacked by the queen on a1", "b1 is a hole").
Live liveAfter(const Geometry& geo, const std::vector<int>& pieces);
int liveCount(const Live& live);
// The live squares in increasing order.
std::vector<int> liveSquares(const Live& live);
Live liveAfterMove(const Geometry& geo, const Live& live, int square);

// The letter of the variant's piece: Q, R, B, K, N.
char pieceLetter(Piece p);
// A picture of the position: pieces, free squares, attacked squares, holes.
Picture pictureOf(const Geometry& geo, const std::vector<int>& pieces);

// "1 move", "2 moves".
std::string plural(long long count, const std::string& word, const std::string& words);

// The game's one-line name: "the queens game on the 8x8 board",
// "the kings game on the 7x7 torus", "the queens game on the 5x7 board
// (5 rows, 7 columns)", "... with a hole at b1".
std::string gameWords(const Variant& v);

// The prover's exact search (transposition table, symmetry, the small
// solver), with a deadline: a question not answered by then gives nullopt,
// and nothing is concluded from the part of the search that ran.
class OnTheSpot {
 public:
  static std::unique_ptr<OnTheSpot> make(const Geometry& geo, size_t tableMegabytes);
  virtual ~OnTheSpot() = default;
  void setDeadline(Clock::time_point until) { deadline_ = until; }
  Clock::time_point deadline() const { return deadline_; }

  // Does the player to move win (live, heap)?
  virtual std::optional<bool> wins(const Live& live, uint32_t heap) = 0;
  // A winning move, kNoMove when the position is lost, std::nullopt when
  // out of time.
  virtual std::optional<int> winningMove(const Live& live, uint32_t heap) = 0;
  // The Grundy value: the least g such that (live, g) is lost.
  std::optional<uint32_t> grundy(const Live& live);
  // For a lost position without a heap: the move that makes the game last
  // longest if the winner then wins as fast as it can, and the number of
  // moves left after it, exact on at most `exactLimit` live squares;
  // beyond that the move that leaves the most free squares (moves left -1).
  // {kNoMove, 0} when there is no move.
  std::pair<int, int> longestMove(const Live& live, int exactLimit = 20);

 protected:
  virtual const Geometry& geometry() const = 0;
  Clock::time_point deadline_ = Clock::time_point::max();
};

// The value of a position and of every move from it, proved on the spot.
struct Explanation {
  std::optional<uint32_t> grundy;  // of the board position (without the heap)
  double grundySeconds = 0;         // the time that value took (the moves' values come after it)
  // For each square: the Grundy value of the position a move there leaves,
  // heap included (G(after) xor heap; 0: the move wins). Empty optional for
  // squares that are not live or were not decided in time.
  std::vector<std::optional<uint32_t>> moveValue;
  bool complete = false;  // every value was decided in time
};
Explanation explainOnTheSpot(const Geometry& geo, const Live& live, uint32_t heap, OnTheSpot& solver);

}  // namespace qcert::ui
