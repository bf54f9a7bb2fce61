// Shared test helpers: an independent naive solver for the queens game (and
// for arbitrary small graphs), random reachable positions, dispatch on the
// bitboard width, temporary directories and a subprocess runner with a
// timeout, and the programs under test.  Nothing here is used by prover/ or
// checker/.
#pragma once
#include <cstdint>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "prover/bitboard.hpp"
#include "prover/geometry.hpp"

namespace qtest {

// ---------------------------------------------------------------- naive game
// Node-Kayles on a graph of at most 64 vertices, given by closed
// neighbourhoods kill[v] (bit v set).  No symmetry, no hashing tricks: plain
// recursion with exact memo tables keyed by the live set (and heap).
class NaiveGame {
 public:
  explicit NaiveGame(std::vector<uint64_t> kill) : kill_(std::move(kill)) {}

  // Queen graph of the n x n board, n <= 8, computed here from the rules
  // (not from the prover's Geometry).
  static NaiveGame queens(int n);

  int vertices() const { return int(kill_.size()); }
  uint64_t all() const { return kill_.size() == 64 ? ~0ull : (1ull << kill_.size()) - 1; }
  uint64_t after(uint64_t live, int v) const { return live & ~kill_[v]; }

  // Grundy value by the mex rule.
  int grundy(uint64_t live);
  // Does the player to move win (live, heap)?  Direct minimax over both
  // board moves and heap moves (does not use Sprague-Grundy).
  bool wins(uint64_t live, uint32_t heap);

 private:
  struct PairHash {
    size_t operator()(const std::pair<uint64_t, uint32_t>& p) const {
      return std::hash<uint64_t>()(p.first * 0x9E3779B97F4A7C15ull ^ p.second);
    }
  };
  std::vector<uint64_t> kill_;
  std::unordered_map<uint64_t, uint8_t> grundyMemo_;
  std::unordered_map<std::pair<uint64_t, uint32_t>, bool, PairHash> winMemo_;
};

// Independent queen attack rule on (r, c) coordinates.
bool queensAttack(int n, int s, int t);  // s != t

// --------------------------------------------------------- random positions
struct RandomPosition {
  std::vector<int> queens;  // legal placement order
  uint64_t live = 0;        // valid only when n <= 8
};
// Places up to maxQueens random legal queens on the n x n board (n <= 8) and
// returns the sequence and the live set.
RandomPosition randomPosition(int n, int maxQueens, std::mt19937_64& rng);

// ----------------------------------------------------------- width dispatch
// Calls f.template operator()<W>() with the bitboard width the prover uses
// for an n x n board.
template <class F>
decltype(auto) withWidth(int n, F&& f) {
  const int sq = n * n;
  if (sq <= 64) return f.template operator()<1>();
  if (sq <= 128) return f.template operator()<2>();
  if (sq <= 256) return f.template operator()<4>();
  return f.template operator()<8>();
}

template <int W>
qcert::Bits<W> toBits(const std::vector<int>& squares) {
  qcert::Bits<W> b;
  for (int s : squares) b.set(s);
  return b;
}
template <int W>
std::vector<int> toList(const qcert::Bits<W>& b) {
  std::vector<int> v;
  b.forEach([&](int s) { v.push_back(s); });
  return v;
}

// ------------------------------------------------------------ variants
// The prover's Variant for a board of the reference (tests/variants_reference.hpp:
// any struct with piece, torus, rows, cols and holes), so that tests/ says it once.
template <class Board>
qcert::Variant toVariant(const Board& b) {
  qcert::Variant v;
  v.piece = qcert::Piece(b.piece);
  v.torus = b.torus;
  v.rows = b.rows, v.cols = b.cols;
  v.holes = b.holes;
  return v;
}

// ------------------------------------------------------------ test seeding
// A fixed seed (so CI runs are reproducible) unless QCERT_TEST_SEED is set.
uint64_t testSeed(uint64_t fallback);

// ------------------------------------------------------------- filesystem
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

std::vector<uint8_t> readFile(const std::string& path);
void writeFile(const std::string& path, const std::vector<uint8_t>& bytes);

// ------------------------------------------------------------- subprocess
struct RunResult {
  bool timedOut = false;
  bool signaled = false;  // killed by a signal (crash), not by our timeout
  int signal = 0;
  int exitCode = -1;      // valid when neither timedOut nor signaled
  std::string out, err;
  std::string describe() const;  // for failure messages
};
// Runs argv[0] with the arguments, stdin from /dev/null, stdout and stderr
// captured, killed after timeoutSeconds.
RunResult runProgram(const std::vector<std::string>& argv, double timeoutSeconds = 20);

bool startsWith(const std::string& s, const std::string& prefix);
bool contains(const std::string& s, const std::string& what);
std::string firstLine(const std::string& s);

// --------------------------------------------------------------- programs
// The programs under test, where the test's target names them
// (tests/CMakeLists.txt: QCERT_PROVER, QCERT_CHECKER, QCERT_UI).
#ifdef QCERT_PROVER
inline const std::string kProver = QCERT_PROVER;
#endif
#ifdef QCERT_CHECKER
inline const std::string kChecker = QCERT_CHECKER;
#endif
#ifdef QCERT_UI
inline const std::string kQcert = QCERT_UI;
#endif

}  // namespace qtest
