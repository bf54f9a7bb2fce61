// A plain row-by-row search for every counting problem, one cell at a time
// (docs/count-certificates.md). Fast enough for the small boards nPlusK and
// endPositions are asked about, and for the torus to n ~ 23; the n-queens
// problem has its own symmetric counter (count_queens.cpp), and this one is
// its differential reference.
#include <algorithm>
#include <atomic>
#include <mutex>
#include <random>
#include <stdexcept>
#include <system_error>
#include <thread>

#include "prover/count/count.hpp"

namespace qcert {

size_t totalsShape(const CountSpec& s) {
  switch (s.problem) {
    case CountProblem::endPositions: return size_t(s.maxQueens ? s.maxQueens : s.n) + 1;
    case CountProblem::hp71b: return 2;
    default: return 1;
  }
}

size_t classesShape(const CountSpec& s) {
  switch (s.problem) {
    case CountProblem::torus:
    case CountProblem::hp71b: return 0;
    case CountProblem::endPositions: return totalsShape(s);
    default: return 1;
  }
}

namespace {

constexpr uint64_t kHoleShift = 32;

// What the rows above the current one leave for it: columns and diagonals a
// queen sees down into (not blocked by a hole), for the ordinary board; the
// used residues for the torus.
struct Lines {
  uint32_t col = 0, down = 0, up = 0;  // down: r+1,c+1 direction; up: r+1,c-1
};

class CellCounter {
 public:
  CellCounter(const CountSpec& spec) : s_(spec), n_(spec.n), full_(n_ >= 32 ? ~0u : (1u << n_) - 1) {
    queensKey_.resize(size_t(n_) * n_);
    holesKey_.resize(size_t(n_) * n_);
    for (int sq = 0; sq < n_ * n_; ++sq) queensKey_[sq] = queenKey(n_, sq), holesKey_[sq] = holeKey(n_, sq);
    rows_.assign(n_, 0);
  }

  // Every row content admissible after `lines` in row r (with `holesLeft`
  // holes still allowed), as (queens, holes) masks and the lines below it.
  template <class F>
  void rowContents(int r, const Lines& in, int holesLeft, F&& emit) const {
    switch (s_.problem) {
      case CountProblem::torus: {
        const uint32_t sums = rotr(in.down, r), diffs = rotl(in.up, r);  // bit c: residue (r+c) / (c-r) mod n used
        for (uint32_t free = full_ & ~(in.col | sums | diffs); free; free &= free - 1) {
          const int c = __builtin_ctz(free);
          Lines out{in.col | (1u << c), in.down | (1u << ((r + c) % n_)), in.up | (1u << ((c - r + n_) % n_))};
          emit(uint64_t(1) << c, out);
        }
        return;
      }
      case CountProblem::endPositions:
        emit(0, shifted(in));
        [[fallthrough]];
      case CountProblem::nQueens:
      case CountProblem::hp71b:
        for (uint32_t free = full_ & ~(in.col | in.down | in.up); free; free &= free - 1) {
          const uint32_t b = free & -free;
          emit(b, shifted({in.col | b, in.down | b, in.up | b}));
        }
        return;
      case CountProblem::nPlusK:
        nPlusKRow(0, in, in, 0, 0, holesLeft, emit);
        return;
    }
  }

  // Row content of the nPlusK problem: queens and holes alternate, starting
  // and ending with a queen. `below` accumulates the lines the row passes on.
  template <class F>
  void nPlusKRow(int from, const Lines& above, const Lines& below, uint64_t queens, uint64_t holes, int holesLeft,
                 F&& emit) const {
    for (int c = from; c < n_; ++c) {
      const uint32_t b = 1u << c;
      if ((above.col | above.down | above.up) & b) continue;
      Lines q = below;
      q.col |= b, q.down |= b, q.up |= b;
      const uint64_t withQueen = queens | b;
      emit(withQueen | (holes << kHoleShift), shifted(q));
      // A hole right of this queen, then the row goes on with another queen.
      if (holesLeft > 0)
        for (int h = c + 1; h + 1 < n_; ++h) {
          const uint32_t hb = 1u << h;
          Lines withHole = q;
          withHole.col &= ~hb, withHole.down &= ~hb, withHole.up &= ~hb;
          nPlusKRow(h + 1, above, withHole, withQueen, holes | hb, holesLeft - 1, emit);
        }
      // (the loop goes on: the queen of this segment may stand further right)
    }
  }

  Lines shifted(const Lines& l) const { return {l.col, (l.down << 1) & full_, l.up >> 1}; }
  uint32_t rotr(uint32_t x, int k) const {
    k %= n_;
    return k ? ((x >> k) | (x << (n_ - k))) & full_ : x;
  }
  uint32_t rotl(uint32_t x, int k) const {
    k %= n_;
    return k ? ((x << k) | (x >> (n_ - k))) & full_ : x;
  }

  void countFrom(int r, const Lines& lines, int holesUsed, int queens, uint64_t hash, CountCell& cell) {
    ++nodes_, ++reached_[size_t(r)];
    if (r == n_) {
      leaf(holesUsed, queens, hash, cell);
      return;
    }
    if (s_.problem == CountProblem::endPositions && s_.maxQueens && queens > s_.maxQueens) return;
    rowContents(r, lines, s_.holes - holesUsed, [&](uint64_t word, const Lines& next) {
      rows_[r] = word;
      uint64_t h = hash;
      int q = queens, holes = holesUsed;
      for (uint64_t m = word & 0xffffffffu; m; m &= m - 1) h += queensKey_[r * n_ + __builtin_ctzll(m)], ++q;
      for (uint64_t m = word >> kHoleShift; m; m &= m - 1) h += holesKey_[r * n_ + __builtin_ctzll(m)], ++holes;
      if (s_.problem == CountProblem::endPositions && s_.maxQueens && q > s_.maxQueens) return;
      countFrom(r + 1, next, holes, q, h, cell);
    });
  }

  void leaf(int holesUsed, int queens, uint64_t hash, CountCell& cell) {
    size_t slot = 0;
    switch (s_.problem) {
      case CountProblem::nPlusK:
        if (holesUsed != s_.holes) return;
        break;
      case CountProblem::endPositions:
        if (!maximal()) return;
        slot = size_t(queens);
        break;
      case CountProblem::torus:
        if (shifts_) {
          shiftLeaf();
          return;
        }
        break;
      default:
        break;
    }
    cell.totals[slot] += 1;
    cell.checksum += countMix(hash);
    if (!cell.classes.empty() && leastOfClass()) cell.classes[slot] += 1;
  }

  // The torus's column shifts c -> c+t (mod n) map solutions to solutions, so
  // only cells with row 0's queen in column 0 are searched; each solution found
  // there stands for its n shifts, each counted in its own cell (found by
  // binary search) with its own fingerprint.
  struct ShiftTarget {
    const std::vector<CountCell>* cells = nullptr;  // all cells, sorted (for the lookup)
    std::vector<uint64_t> totals, checksums;        // this thread's sums per cell
  };
  void foldColumnShifts(ShiftTarget* target) { shifts_ = target; }

  void shiftLeaf() {
    const auto& cells = *shifts_->cells;
    const size_t depth = cells[0].rows.size();
    int cols[32];
    for (int r = 0; r < n_; ++r) cols[r] = __builtin_ctzll(rows_[r]);
    std::vector<uint64_t> prefix(depth);
    for (int t = 0; t < n_; ++t) {
      uint64_t hash = 0;
      for (int r = 0; r < n_; ++r) hash += queensKey_[r * n_ + (cols[r] + t) % n_];
      for (size_t r = 0; r < depth; ++r) prefix[r] = uint64_t(1) << ((cols[r] + t) % n_);
      auto it = std::lower_bound(cells.begin(), cells.end(), prefix,
                                 [](const CountCell& c, const std::vector<uint64_t>& p) { return c.rows < p; });
      if (it == cells.end() || it->rows != prefix) throw std::logic_error("shifted prefix is not a cell");
      const size_t i = size_t(it - cells.begin());
      shifts_->totals[i] += 1;
      shifts_->checksums[i] += countMix(hash);
    }
  }

  // Every empty square is attacked by some queen (no holes in endPositions).
  bool maximal() const {
    for (int r = 0; r < n_; ++r) {
      if (rows_[r] & 0xffffffffu) continue;  // the row's queen attacks the whole row
      uint32_t seen = 0;
      for (int qr = 0; qr < n_; ++qr) {
        const uint32_t q = uint32_t(rows_[qr]);
        if (!q) continue;
        const int d = r - qr, c = __builtin_ctz(q);
        seen |= q;
        if (c + d >= 0 && c + d < n_) seen |= 1u << (c + d);
        if (c - d >= 0 && c - d < n_) seen |= 1u << (c - d);
      }
      if (seen != full_) return false;
    }
    return true;
  }

  int at(int r, int c) const {
    if ((rows_[r] >> c) & 1) return 1;
    if ((rows_[r] >> (kHoleShift + c)) & 1) return 2;
    return 0;
  }

  // The row-major string is <= each image's string.
  bool leastOfClass() const {
    for (int g = 1; g < 8; ++g) {
      for (int r = 0; r < n_; ++r)
        for (int c = 0; c < n_; ++c) {
          // The image's square (r,c) holds the original's g^-1(r,c); the group is closed, so g^-1 ranges over it too.
          const auto [ir, ic] = d4Image(kCountSymmetry[g], n_, r, c);
          const int mine = at(r, c), theirs = at(ir, ic);
          if (mine != theirs) {
            if (mine > theirs) return false;
            goto nextSymmetry;
          }
        }
    nextSymmetry:;
    }
    return true;
  }

  // All admissible prefixes of `depth` rows, in increasing order.
  void prefixes(int r, int depth, const Lines& lines, int holesUsed, std::vector<uint64_t>& path,
                std::vector<std::vector<uint64_t>>& out) const {
    if (r == depth) {
      out.push_back(path);
      return;
    }
    rowContents(r, lines, s_.holes - holesUsed, [&](uint64_t word, const Lines& next) {
      path.push_back(word);
      prefixes(r + 1, depth, next, holesUsed + __builtin_popcountll(word >> kHoleShift), path, out);
      path.pop_back();
    });
  }

  // Replays a prefix, then counts everything below it.
  void countCell(CountCell& cell) {
    Lines lines;
    int holes = 0, queens = 0;
    uint64_t hash = 0;
    for (size_t r = 0; r < cell.rows.size(); ++r) {
      bool found = false;
      rowContents(int(r), lines, s_.holes - holes, [&](uint64_t word, const Lines& next) {
        if (found || word != cell.rows[r]) return;
        found = true;
        lines = next;
      });
      if (!found) throw std::logic_error("prefix is not admissible");
      rows_[r] = cell.rows[r];
      for (uint64_t m = cell.rows[r] & 0xffffffffu; m; m &= m - 1) hash += queensKey_[r * n_ + __builtin_ctzll(m)], ++queens;
      for (uint64_t m = cell.rows[r] >> kHoleShift; m; m &= m - 1) hash += holesKey_[r * n_ + __builtin_ctzll(m)], ++holes;
    }
    countFrom(int(cell.rows.size()), lines, holes, queens, hash, cell);
  }

  uint64_t nodes() const { return nodes_; }
  // Partial placements of rows 0..r-1 the search reached, by r.
  const std::vector<uint64_t>& reached() const { return reached_; }

 private:
  const CountSpec& s_;
  const int n_;
  const uint32_t full_;
  std::vector<uint64_t> queensKey_, holesKey_;
  std::vector<uint64_t> rows_;
  uint64_t nodes_ = 0;
  std::vector<uint64_t> reached_ = std::vector<uint64_t>(size_t(n_) + 1, 0);
  ShiftTarget* shifts_ = nullptr;
};

void checkSpec(const CountSpec& s) {
  const int maxN = s.problem == CountProblem::nPlusK || s.problem == CountProblem::endPositions ? 12
                   : s.problem == CountProblem::hp71b                                          ? 16
                                                                                               : 27;
  if (s.n < 1 || s.n > maxN) throw std::invalid_argument("--n must be between 1 and " + std::to_string(maxN) + " for this problem");
  if (s.problem == CountProblem::nPlusK ? (s.holes < 1 || s.holes > 4) : s.holes != 0)
    throw std::invalid_argument("--holes (k) must be 1..4 for n+k queens, and is only for that problem");
  if (s.maxQueens < 0 || s.maxQueens > s.n || (s.maxQueens && s.problem != CountProblem::endPositions))
    throw std::invalid_argument("--max-queens must be 0..n and is only for end positions");
  if (s.depth < 0 || s.depth > std::min(s.n, 3)) throw std::invalid_argument("--cell-depth must be 0..min(n, 3)");
  if (s.problem == CountProblem::hp71b && s.depth != 0) throw std::invalid_argument("the HP-71B count has one cell (--cell-depth 0)");
  if (s.threads < 1 || s.threads > 1024) throw std::invalid_argument("--jobs must be between 1 and 1024");
}

}  // namespace

CountResult countGeneric(const CountSpec& spec, const CountProgress& progress) {
  checkSpec(spec);
  CountResult result;
  {
    CellCounter enumerate(spec);
    std::vector<uint64_t> path;
    std::vector<std::vector<uint64_t>> prefixes;
    enumerate.prefixes(0, spec.depth, Lines{}, 0, path, prefixes);
    std::sort(prefixes.begin(), prefixes.end());
    for (auto& p : prefixes) {
      CountCell cell;
      cell.rows = std::move(p);
      cell.totals.assign(totalsShape(spec), 0);
      cell.classes.assign(classesShape(spec), 0);
      result.cells.push_back(std::move(cell));
    }
  }
  // The torus folds column shifts: only cells with row 0 = column 0 are searched.
  const bool fold = spec.problem == CountProblem::torus && spec.depth >= 1;
  std::vector<size_t> searched;
  for (size_t i = 0; i < result.cells.size(); ++i)
    if (!fold || result.cells[i].rows[0] == 1) searched.push_back(i);
  // Cells are searched in a shuffled order (a fixed seed), not the sorted
  // one, whose neighbours are alike in size: then the cells done are a fair
  // sample and the progress line's time left holds. Each cell's count is its
  // own, so the order changes nothing else.
  std::shuffle(searched.begin(), searched.end(), std::mt19937_64(0x5eed));
  std::atomic<size_t> next{0}, done{0};
  std::atomic<uint64_t> nodes{0};
  std::mutex progressLock;
  std::vector<uint64_t> reached(size_t(spec.n) + 1, 0);
  std::vector<CellCounter::ShiftTarget> targets;
  auto worker = [&](CellCounter::ShiftTarget* target) {
    CellCounter counter(spec);
    if (fold) {
      target->cells = &result.cells;
      target->totals.assign(result.cells.size(), 0);
      target->checksums.assign(result.cells.size(), 0);
      counter.foldColumnShifts(target);
    }
    for (size_t k; (k = next.fetch_add(1)) < searched.size();) {
      CountCell scratch = result.cells[searched[k]];
      counter.countCell(fold ? scratch : result.cells[searched[k]]);
      const size_t d = done.fetch_add(1) + 1;
      if (progress) {
        std::lock_guard<std::mutex> lock(progressLock);
        progress(d, searched.size());
      }
    }
    nodes += counter.nodes();
    std::lock_guard<std::mutex> lock(progressLock);
    for (size_t r = 0; r < reached.size(); ++r) reached[r] += counter.reached()[r];
  };
  targets.resize(size_t(spec.threads));
  std::vector<std::thread> pool;
  for (int t = 1; t < spec.threads; ++t) try {
      pool.emplace_back(worker, &targets[size_t(t)]);
    } catch (const std::system_error&) {  // fewer threads will do: the workers share the cells
      break;
    }
  worker(&targets[0]);
  for (auto& t : pool) t.join();
  if (fold)
    for (const auto& target : targets)
      for (size_t i = 0; i < result.cells.size(); ++i)
        result.cells[i].totals[0] += target.totals[i], result.cells[i].checksum += target.checksums[i];
  result.nodes = nodes;
  // The HP-71B program's node counter: line 130 runs for each of the n squares of row r
  // whenever the program holds a non-attacking placement of rows 0..r-1
  // (r < n); with one cell (depth 0) the search reached every such placement.
  if (spec.problem == CountProblem::hp71b)
    for (int r = 0; r < spec.n; ++r) result.cells[0].totals[1] += uint64_t(spec.n) * reached[size_t(r)];
  return result;
}

CountResult countPlacements(const CountSpec& spec, const CountProgress& progress) {
  if (spec.problem == CountProblem::nQueens) {
    checkSpec(spec);
    return countNQueens(spec.n, spec.depth, spec.threads, progress);
  }
  return countGeneric(spec, progress);
}

}  // namespace qcert
