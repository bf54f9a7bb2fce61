// The plan of work units below the split position: its positions, and the
// files beside the units that record a second split level (split markers
// and sub-units). units.hpp names the units themselves.
#pragma once
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "prover/game/units.hpp"

namespace qcert {

// A position of the unit plan: the split position followed by moves.
template <int W>
struct PlanPosition {
  Bits<W> live;
  uint32_t heap;
  std::vector<int> queens;  // the claim's queens: the root's and every board move since
  int lastMove = -1;        // the move into it (-1: none or a heap move)
  PlanPosition after(const Graph<W>& g, int m) const {
    PlanPosition p = *this;
    if (isHeapMove(m)) {
      p.heap = uint32_t(m - kHeapMove);
      p.lastMove = -1;
    } else {
      p.live = live.andNot(g.kill[m]);
      p.queens.push_back(m);
      p.lastMove = m;
    }
    return p;
  }
  // The move's token as the checker numbers the moves here (schema WinSplit).
  uint32_t token(int m) const {
    return isHeapMove(m) ? uint32_t(live.count() + 1 + (m - kHeapMove)) : uint32_t(live.countBelow(m) + 1);
  }
};

// The second split level: a unit whose search passed --split-above nodes
// keeps the winner's move it was trying in uNNNNN.split; its sub-units, one
// per loser reply below that move, are sNNNNN.qcert in the folder uNNNNN/.
inline std::string splitMarkerName(size_t i) { return unitFileName(i).substr(0, 6) + ".split"; }
inline std::string subUnitFolder(size_t i) { return unitFileName(i).substr(0, 6); }
inline std::string subUnitFileName(size_t j) { return "s" + unitFileName(j).substr(1); }
inline std::string subLostMarkerName(size_t j) { return "s" + lostMarkerName(j).substr(1); }

// The winner's move kept in a split marker (throws when it is malformed).
int readSplitMove(const std::filesystem::path& file);

// The split marker's move, which must be a legal move at the unit's position.
template <int W>
int splitMoveAt(const std::filesystem::path& file, const PlanPosition<W>& unit) {
  const int w = readSplitMove(file);
  const bool legal = isHeapMove(w) ? uint32_t(w - kHeapMove) < unit.heap : w < int(W * 64) && unit.live.test(w);
  if (!legal) throw std::runtime_error(file.string() + " names a move that is not legal in its unit");
  return w;
}

}  // namespace qcert
