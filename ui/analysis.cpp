#include "ui/analysis.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <condition_variable>
#include <mutex>
#include <stdexcept>
#include <stop_token>
#include <thread>
#include <unordered_map>

#include "prover/game/graph.hpp"
#include "prover/game/search.hpp"
#include "prover/game/tt.hpp"

namespace qcert::ui {

Live liveAfter(const Geometry& geo, const std::vector<int>& pieces) {
  Live live(size_t(geo.squares), 1);
  for (int s = 0; s < geo.squares; ++s) live[size_t(s)] = !geo.isHole[size_t(s)];
  const char* piece = pieceName(geo.variant.piece, false);
  for (size_t i = 0; i < pieces.size(); ++i) {
    const int q = pieces[i];
    if (q < 0 || q >= geo.squares) throw std::invalid_argument("square out of range");
    if (geo.isHole[size_t(q)]) throw std::invalid_argument(geo.squareName(q) + " is a hole");
    if (!live[size_t(q)]) {
      for (size_t j = 0; j < i; ++j) {
        if (pieces[j] == q) throw std::invalid_argument(geo.squareName(q) + " is already taken");
        for (int t : geo.kills[size_t(pieces[j])])
          if (t == q)
            throw std::invalid_argument(geo.squareName(q) + " is attacked by the " + piece + " on " + geo.squareName(pieces[j]));
      }
      throw std::invalid_argument(geo.squareName(q) + " is not free");
    }
    live = liveAfterMove(geo, live, q);
  }
  return live;
}

int liveCount(const Live& live) { return int(std::count(live.begin(), live.end(), char(1))); }

std::vector<int> liveSquares(const Live& live) {
  std::vector<int> out;
  for (size_t s = 0; s < live.size(); ++s)
    if (live[s]) out.push_back(int(s));
  return out;
}

Live liveAfterMove(const Geometry& geo, const Live& live, int square) {
  Live out = live;
  for (int t : geo.kills[size_t(square)]) out[size_t(t)] = 0;
  return out;
}

char pieceLetter(Piece p) {
  switch (p) {
    case Piece::queen: return 'Q';
    case Piece::rook: return 'R';
    case Piece::bishop: return 'B';
    case Piece::king: return 'K';
    default: return 'N';
  }
}

Picture pictureOf(const Geometry& geo, const std::vector<int>& pieces) {
  const Live live = liveAfter(geo, pieces);
  Picture p;
  p.rows = geo.rows;
  p.cols = geo.n;
  p.torus = geo.variant.torus;
  p.squares.resize(size_t(geo.squares));
  for (int s = 0; s < geo.squares; ++s) {
    Square& sq = p.squares[size_t(s)];
    sq.mark = geo.isHole[size_t(s)] ? Mark::hole : live[size_t(s)] ? Mark::free : Mark::attacked;
    sq.piece = pieceLetter(geo.variant.piece);
  }
  for (int q : pieces) p.squares[size_t(q)].mark = Mark::piece;
  return p;
}

std::string plural(long long count, const std::string& word, const std::string& words) {
  return std::to_string(count) + " " + (count == 1 ? word : words);
}

std::string gameWords(const Variant& v) {
  return std::string("the ") + pieceName(v.piece, true) + " game on " + boardWords(v);
}

namespace {

// Sets `flag` when the deadline passes, unless destroyed first.
class Watchdog {
 public:
  Watchdog(std::atomic<bool>& flag, Clock::time_point until) {
    if (Clock::now() >= until) {
      flag = true;
      return;
    }
    if (until == Clock::time_point::max()) return;
    thread_ = std::jthread([&flag, until](std::stop_token stop) {
      std::mutex m;
      std::condition_variable_any cv;
      std::unique_lock lock(m);
      cv.wait_until(lock, stop, until, [] { return false; });
      if (!stop.stop_requested()) flag = true;
    });
  }

 private:
  std::jthread thread_;  // asks to stop and joins when destroyed
};

template <int W>
class OnTheSpotWith final : public OnTheSpot {
 public:
  OnTheSpotWith(const Geometry& geo, size_t megabytes) : geo_(geo), graph_(geo_), table_(megabytes), solver_(graph_, table_, SearchOptions{}) {
    solver_.stop = &stop_;
  }

  std::optional<bool> wins(const Live& live, uint32_t heap) override {
    return ask([&] { return solver_.wins(bits(live), heap); });
  }
  std::optional<int> winningMove(const Live& live, uint32_t heap) override {
    auto move = ask([&] { return solver_.winningMove(bits(live), heap); });
    if (!move) return std::nullopt;
    if (*move < 0) return kNoMove;
    if (qcert::isHeapMove(*move)) return heapMove(uint32_t(*move - kHeapMove));
    return *move;
  }

 protected:
  const Geometry& geometry() const override { return geo_; }

 private:
  Bits<W> bits(const Live& live) const {
    Bits<W> b;
    for (size_t s = 0; s < live.size(); ++s)
      if (live[s]) b.set(int(s));
    return b;
  }
  // Runs one question under the deadline; a stopped search's answer is dropped.
  template <class F>
  auto ask(F&& question) -> std::optional<decltype(question())> {
    stop_ = false;
    decltype(question()) answer;
    {
      Watchdog dog(stop_, deadline_);
      if (stop_) return std::nullopt;
      answer = question();
    }
    if (stop_) return std::nullopt;
    return answer;
  }

  Geometry geo_;
  Graph<W> graph_;
  TranspositionTable table_;
  Solver<W> solver_;
  std::atomic<bool> stop_{false};
};

}  // namespace

std::unique_ptr<OnTheSpot> OnTheSpot::make(const Geometry& geo, size_t megabytes) {
  if (geo.squares <= 64) return std::make_unique<OnTheSpotWith<1>>(geo, megabytes);
  if (geo.squares <= 128) return std::make_unique<OnTheSpotWith<2>>(geo, megabytes);
  if (geo.squares <= 256) return std::make_unique<OnTheSpotWith<4>>(geo, megabytes);
  return std::make_unique<OnTheSpotWith<8>>(geo, megabytes);
}

std::optional<uint32_t> OnTheSpot::grundy(const Live& live) {
  // G <= the number of live squares (at most that many options).
  const uint32_t most = uint32_t(liveCount(live));
  for (uint32_t g = 0; g <= most; ++g) {
    const auto w = wins(live, g);
    if (!w) return std::nullopt;
    if (!*w) return g;
  }
  throw std::logic_error("no Grundy value at most the number of live squares");
}

std::pair<int, int> OnTheSpot::longestMove(const Live& live, int exactLimit) {
  const Geometry& geo = geometry();
  const std::vector<int> squares = liveSquares(live);
  if (squares.empty()) return {kNoMove, 0};
  if (int(squares.size()) > std::min(exactLimit, 32)) {  // the move that leaves the most free squares
    int best = squares[0], bestLeft = -1;
    for (int v : squares) {
      const int left = liveCount(liveAfterMove(geo, live, v));
      if (left > bestLeft) best = v, bestLeft = left;
    }
    return {best, -1};
  }
  // Remoteness (Steinhaus): a lost position lasts 1 + the longest option, a
  // won one 1 + the shortest option lost for the opponent; no move: 0.
  // Lost positions have even remoteness, won ones odd.
  std::vector<uint32_t> adj(squares.size());
  for (size_t i = 0; i < squares.size(); ++i)
    for (size_t j = 0; j < squares.size(); ++j)
      for (int t : geo.kills[size_t(squares[i])])
        if (t == squares[j]) adj[i] |= uint32_t(1) << j;
  std::unordered_map<uint32_t, int> memo;
  auto remoteness = [&](auto&& self, uint32_t mask) -> int {
    if (mask == 0) return 0;
    if (auto it = memo.find(mask); it != memo.end()) return it->second;
    int longest = 0, shortestWin = -1;
    for (uint32_t x = mask; x; x &= x - 1) {
      const int r = self(self, mask & ~adj[size_t(std::countr_zero(x))]);
      longest = std::max(longest, r);
      if (r % 2 == 0 && (shortestWin < 0 || r < shortestWin)) shortestWin = r;
    }
    const int result = 1 + (shortestWin >= 0 ? shortestWin : longest);
    memo.emplace(mask, result);
    return result;
  };
  const uint32_t all = squares.size() == 32 ? ~uint32_t(0) : (uint32_t(1) << squares.size()) - 1;
  int best = kNoMove, bestLeft = -1;
  for (size_t i = 0; i < squares.size(); ++i) {
    const int r = remoteness(remoteness, all & ~adj[i]);
    if (r > bestLeft) best = squares[i], bestLeft = r;
  }
  return {best, bestLeft};
}

Explanation explainOnTheSpot(const Geometry& geo, const Live& live, uint32_t heap, OnTheSpot& solver) {
  Explanation e;
  e.moveValue.assign(size_t(geo.squares), std::nullopt);
  const auto start = Clock::now();
  e.grundy = solver.grundy(live);
  e.grundySeconds = std::chrono::duration<double>(Clock::now() - start).count();
  bool complete = e.grundy.has_value();
  // Symmetric moves have equal values: solve one square per orbit of the
  // maps of the board's group that fix the live set.
  std::vector<const std::vector<int>*> fixing;
  for (const auto& map : geo.group) {
    bool fixes = true;
    for (int s = 0; s < geo.squares && fixes; ++s) fixes = live[size_t(s)] == live[size_t(map[size_t(s)])];
    if (fixes) fixing.push_back(&map);
  }
  for (int v : liveSquares(live)) {
    int leader = v;
    for (const auto* map : fixing) leader = std::min(leader, (*map)[size_t(v)]);
    if (leader != v) {
      e.moveValue[size_t(v)] = e.moveValue[size_t(leader)];
      complete &= e.moveValue[size_t(v)].has_value();
      continue;
    }
    if (const auto g = solver.grundy(liveAfterMove(geo, live, v))) e.moveValue[size_t(v)] = *g ^ heap;
    else complete = false;
  }
  e.complete = complete;
  return e;
}

}  // namespace qcert::ui
