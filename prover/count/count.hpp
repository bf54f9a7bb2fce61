// Counting claims (docs/count-certificates.md): the prover's side. Every
// counter fills one CountCell per admissible prefix of the first `depth` rows;
// the certificate writer (count_certificate.cpp) only serialises them.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "prover/board.hpp"

namespace qcert {

enum class CountProblem { nQueens, nPlusK, torus, endPositions, hp71b };

struct CountSpec {
  CountProblem problem = CountProblem::nQueens;
  int n = 0;
  int holes = 0;      // nPlusK: k
  int maxQueens = 0;  // endPositions: 0 = no limit
  int depth = 0;      // cellDepth
  int threads = 1;
};

// Row word: queens in bits 0..31, holes in bits 32..63.
struct CountCell {
  std::vector<uint64_t> rows;
  std::vector<uint64_t> totals;
  std::vector<uint64_t> classes;
  uint64_t checksum = 0;
};

struct CountResult {
  std::vector<CountCell> cells;  // increasing order of rows
  uint64_t nodes = 0;            // search nodes (informational)
};

// The counters number the 8 symmetries of the square as
// docs/count-certificates.md lists them: (r,c), (r,n-1-c), (n-1-r,c),
// (n-1-r,n-1-c), (c,r), (c,n-1-r), (n-1-c,r), (n-1-c,n-1-r). The k-th of
// that list is d4Image's symmetry kCountSymmetry[k] (prover/board.hpp).
constexpr int kCountSymmetry[8] = {0, 4, 5, 2, 6, 1, 3, 7};

// splitmix64's finaliser; fingerprints are sums of mixed square keys, mixed.
inline uint64_t countMix(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}
inline uint64_t queenKey(int n, int square) { return countMix((uint64_t(n) << 32) | (uint64_t(square) << 1)); }
inline uint64_t holeKey(int n, int square) { return countMix((uint64_t(n) << 32) | (uint64_t(square) << 1) | 1); }

// How many entries `totals` / `classes` have for this spec.
size_t totalsShape(const CountSpec& spec);
size_t classesShape(const CountSpec& spec);

// Progress callback: work items finished so far, of all (cells for the plain
// counter, search tasks for the n-queens counter).
using CountProgress = std::function<void(size_t done, size_t all)>;

// The fast symmetric n-queens counter (count_queens.cpp).
CountResult countNQueens(int n, int depth, int threads, const CountProgress& progress = {});
// The bench's reference: plain bitwise backtracking, first row halved (n >= 1).
uint64_t countNQueensHalving(int n, uint64_t* nodes = nullptr);

// Every problem, by a plain row-by-row search per cell (count_generic.cpp);
// nQueens is also accepted here (the differential tests compare the two).
CountResult countGeneric(const CountSpec& spec, const CountProgress& progress = {});

// Dispatch: the fast counter for nQueens, the generic one for the rest.
CountResult countPlacements(const CountSpec& spec, const CountProgress& progress = {});

// The count certificate: Header{formatVersion, count}, Seal (through an
// OutputFile); returns the file's size in bytes (count_certificate.cpp).
uint64_t writeCountCertificate(const std::string& path, const CountSpec& spec, const CountResult& result,
                               const std::string& producer);

}  // namespace qcert
