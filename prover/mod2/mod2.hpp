// The mod-2 queens game of Brown and Ladha, prover side:
// docs/mod2-game.md is the contract. A square is open when the queens on its
// row, column and two diagonals (nothing blocks) number an even amount; a
// move places a queen on an open square (standard rule), on a square attacked
// an odd number of times (alternate universe, which starts from one given
// queen), or removes a queen attacked an even number of times
// (complementary, from the full board).
#pragma once
#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <unordered_map>
#include <optional>
#include <string>
#include <vector>

#include "prover/board.hpp"

namespace qcert::mod2 {

constexpr int kMaxPlayBoard = 32;   // play and structure certificates
constexpr int kMaxSmallBoard = 8;   // positions as 64-bit masks: games, fewest locking
constexpr int kMaxDenseBoard = 5;   // passes over all 2^(n*n) sets, one set at a time
constexpr int kMaxWordBoard = 6;    // the same, 64 sets to a word (words.cpp)
constexpr size_t kMaxReplies = size_t{1} << 22;
constexpr uint32_t kMaxHeap = 64;
constexpr size_t kMaxMoves = 1024;

enum class Rule { standard, alternate, complementary };
enum class End { complete, locked, queens, illegalAt };
enum class Sequence { explicitMoves, brownLadhaComplete, brownLadhaLocked };

const char* ruleName(Rule r);       // "standard", ...
std::string gameName(Rule r);       // "mod-2 game", "alternate-universe mod-2 game", ...

// ---- squares ----------------------------------------------------------------
// s = r*n + c on the n x n board, named as everywhere (squareName,
// board.hpp: files a..z, then aa..af for n > 26).
// "e5,a1" -> squares; throws std::invalid_argument naming the bad item.
std::vector<int> parseSquareList(int n, const std::string& list);
// The paper's (i, j), 1-based row and column, as a qcert square.
inline int paper(int n, int i, int j) { return (i - 1) * n + (j - 1); }

// deg(r, c) of Lemma 1 by the formula, and the count of squares sharing a
// line with s (what the formula is tested against).
int degFormula(int n, int r, int c);
int degCount(int n, int s);

// The k-th line (0 row, 1 column, 2 difference, 3 sum diagonal) of square s
// as one id in 0 .. 6n-3: rows, then columns, then each diagonal direction.
int lineId(int n, int s, int k);

// ---- any board up to 32x32 --------------------------------------------------
// Queens with per-line counts: att(s) = queens on s's four lines other than s.
class Board {
 public:
  explicit Board(int n);
  int n() const { return n_; }
  int squares() const { return n_ * n_; }
  int queens() const { return queens_; }
  bool has(int s) const { return occ_[size_t(s)] != 0; }
  int att(int s) const;                 // queens attacking s (s itself not counted)
  void place(int s);
  void remove(int s);
  bool open(int s) const { return !has(s) && att(s) % 2 == 0; }  // standard rule
  bool anyOpen() const;
  bool locked() const { return queens_ < squares() && !anyOpen(); }
  bool complete() const { return queens_ == squares(); }

 private:
  int lineOf(int s, int k) const;
  int n_, queens_ = 0;
  std::vector<uint8_t> occ_;
  std::vector<int> lineCount_;  // rows, columns, differences, sums
};

// Replays standard-rule moves from the empty board.
struct PlayOutcome {
  End end = End::queens;       // complete, locked or queens; illegalAt if a move fails
  int queens = 0;              // after the last legal move
  int failedMove = 0;          // illegalAt: 1-based index of the failing move
  int failedSquare = -1;
  std::string why;             // illegalAt: "is occupied", "is attacked by 3 queens"
};
PlayOutcome replayStandard(int n, const std::vector<int>& moves);

// The named orders of docs/mod2-game.md ("The named orders", "The even-n
// construction"). Odd n for the first two; even n > 2 and even n >= 2.
std::vector<int> brownLadhaCompleteOrder(int n);   // Claim 3.1
std::vector<int> brownLadhaLockedOrder(int n);     // Claim 4.1
std::vector<int> brownLadhaEvenLockedOrder(int n); // Claim 4.2 (explicit moves)
std::vector<int> allButTwoOrder(int n);            // Claim 3.3, qcert's construction

// Structure facts (even n): every deg odd; pairs(full) even.
struct StructureFacts {
  bool everyDegOdd = true;
  uint64_t pairsFull = 0;
};
StructureFacts structureFacts(int n);

// ---- boards up to 8x8 as 64-bit masks --------------------------------------
class Small {
 public:
  explicit Small(int n);
  int n, sq;
  uint64_t full;
  std::array<uint64_t, 64> lines{};  // the four lines of s, less s itself
  int att(uint64_t P, int s) const { return __builtin_popcountll(P & lines[size_t(s)]); }
  // The squares a move of the rule may use at P (placements or removals).
  uint64_t moves(uint64_t P, Rule r) const;
  uint64_t after(uint64_t P, int s, Rule r) const {
    return r == Rule::complementary ? P & ~(uint64_t{1} << s) : P | (uint64_t{1} << s);
  }
  uint64_t image(int g, uint64_t P) const;   // symmetry g (0..7) of the square
  uint64_t canonical(uint64_t P) const;      // least of the 8 images
  bool isLeast(uint64_t P) const;            // P is the least of its images
  int line(int s, int k) const;              // k-th line id of s (0..3)

 private:
  std::array<std::array<std::array<uint64_t, 256>, 8>, 8> symTable_{};  // [g][byte][value]
};

// The position `start` describes under the rule (docs: game kind): standard,
// moves from the empty board; alternate, start[0] placed freely then moves;
// complementary, removals from the full board. Throws std::invalid_argument
// "move 3, e5, is attacked by 3 queens" for the first illegal move.
uint64_t replayStart(const Small& g, Rule r, const std::vector<int>& start);

// ---- exhaustive passes -------------------------------------------------------
using Progress = std::function<void(double fraction)>;

struct LegalCount {
  std::vector<uint64_t> totals, classes;  // by number of queens 0..n*n
  int mostQueens = 0;
  uint64_t legal = 0, masks = 0;
};
// One pass over all 2^(n*n) masks (n <= 5), forward marking.
LegalCount countLegal(int n, const Progress& progress = {});
// The same for the positions with queens on squares 0..bits-1 only (n <= 6;
// no classes unless bits = n*n): a measured slice of a pass out of reach.
LegalCount countLegalPrefix(int n, int bits, const Progress& progress = {});
// The same count by the word pass of words.cpp (n <= 6: the 6x6 board's
// 2^36 sets in an 8 GiB bitmap), classes by Burnside's lemma.
LegalCount countLegalWords(int n, const Progress& progress = {});
// Whether the player to move wins the standard game from the empty board
// (start = 0), or with `alternate` the alternate-universe game (open = attacked
// an odd number of times) from the set `start`, by the word pass over every
// set (n <= 6).
bool firstPlayerWinsWords(int n, const Progress& progress = {}, bool alternate = false, uint64_t start = 0);
// Baseline: every mask tests legality by its own definition (P legal iff P is
// empty or some queen q of P is open in P less q and P less q is legal), a
// pull DP over all masks in increasing order; totals only.
LegalCount countLegalBaseline(int n);

struct FewestLocking {
  bool found = false;
  int queens = 0;
  uint64_t position = 0;             // a locked legal position with that many queens
  std::vector<int> order;            // a legal play reaching it
  std::vector<uint64_t> levelSizes;  // locked sets (legal or not) with 0, 1, ... queens, up to the answer
  uint64_t legalAtFewest = 0;        // how many of the locked sets of `queens` queens are legal
};
// Calls found(P) once for every locked set P of at most `most` queens (n <= 8),
// from its line parities (docs/mod2-game.md, Lemma 4).
void lockedSets(int n, int most, const std::function<void(uint64_t)>& found, const Progress& progress = {});
// The locked sets of 1, 2, ... queens until one is legal (legality tested
// backwards, only for locked sets), n <= 8.
FewestLocking fewestLocking(int n, const Progress& progress = {});

// Checks the complement correspondence (docs: complementMap), n <= 4.
// Returns "" when it holds, else what fails.
struct ComplementMapResult {
  std::string failure;
  uint64_t positionsA = 0, positionsB = 0, moves = 0;
};
ComplementMapResult complementMap(int n);

// The distinct plays from the empty board to a position with no move (the
// game tree's leaves), n <= 4; TooLarge if the count passes 2^64.
uint64_t countPlays(int n);

// ---- games -------------------------------------------------------------------
// Grundy values of positions of one rule, memoised (dense for n <= 5).
class GameSolver {
 public:
  // n > 5: at most maxSparse positions are memoised; past it TooLarge.
  GameSolver(int n, Rule rule, size_t maxSparse = size_t{1} << 26);
  const Small& geo() const { return g_; }
  Rule rule() const { return rule_; }
  int grundy(uint64_t P);
  // n <= 5: the Grundy value of every position reachable from P in two
  // sequential passes over the masks (reachability forward, the mex rule
  // backward), which the recursive search then only looks up.
  void solveFrom(uint64_t P);
  uint64_t positions() const { return positions_; }  // distinct positions solved
  uint64_t nodes() const { return nodes_; }          // moves examined

 private:
  int lookup(uint64_t P) const;
  void store(uint64_t P, int v);
  Small g_;
  Rule rule_;
  std::vector<uint8_t> dense_;                  // n <= 5: 0xff = not yet known
  std::unordered_map<uint64_t, uint8_t> map_;   // n > 5
  size_t maxSparse_;
  uint64_t positions_ = 0, nodes_ = 0;
};

// A certificate past the checker's limits (2^22 replies): nothing decided.
struct TooLarge : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Baseline: Grundy values of every mask by the mex rule, in decreasing order
// of masks for placements (increasing for removals); n <= 5.
int grundyBaseline(int n, Rule rule, uint64_t P, uint64_t* masksVisited = nullptr);

struct Reply {
  uint64_t queens;
  uint32_t heap;
  uint32_t move;  // 1 + s, or n*n + 1 + h
};
struct GameProof {
  bool win = false;
  std::vector<Reply> replies;   // sorted by (queens, heap)
  uint64_t lossPositions = 0;   // loser positions expanded
};
// The winner's replies at every position the loser can force from (P, heap).
GameProof gameProof(GameSolver& s, uint64_t P, uint32_t heap, size_t maxReplies = kMaxReplies);

// ---- certificates ------------------------------------------------------------
struct Mod2Spec {
  Rule rule = Rule::standard;
  int n = 0;
  enum class Kind { play, structure, exhaustive, game } kind = Kind::play;
  // play
  Sequence sequence = Sequence::explicitMoves;
  std::vector<int> moves;
  End end = End::queens;
  uint32_t count = 0;
  // structure
  bool atMostAllButTwo = false;
  // exhaustive
  enum class Exhaustive { legalCount, mostQueens, fewestLocking, complementMap, playCount, outcome } exhaustive = Exhaustive::legalCount;
  std::vector<uint64_t> totals, classes;
  Rule otherRule = Rule::standard;
  // game (and exhaustive outcome: win)
  std::vector<int> start;
  uint32_t heap = 0;
  bool win = false, grundy = false;
  std::vector<Reply> replies;
};
// Header{formatVersion, mod2}, Seal; returns the file's size in bytes.
uint64_t writeMod2Certificate(const std::string& path, const Mod2Spec& spec, const std::string& producer);
// What the checker prints after "VERIFIED: " for this claim.
std::string statement(const Mod2Spec& spec);

int runMod2(int argc, char** argv);  // argv[0] = "mod2"

}  // namespace qcert::mod2
