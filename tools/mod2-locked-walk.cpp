// mod2-locked-walk: the locked sets of exactly K queens of the mod-2 game on
// the N x N board, found by walking every set of K squares, for checking by
// other means what the line-parity searches of prover and checker find
// (docs/mod2-game.md, Lemma 4; they are what the certified n = 8 answer of
// Question 4.4 rests on).  Nothing of qcert is used: "sees" is written here
// from the rules, and a queen flips the attack parity of every square it
// sees.  Untrusted like any tool outside checker/; slow on purpose (the 8x8
// board with 11 queens is 7.4 * 10^11 sets: about 30 minutes of one core).
#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace {

using u64 = uint64_t;

struct Walk {
  int n = 0, squares = 0, k = 0;
  u64 full = 0;
  std::array<u64, 64> sees{};

  // Every set of `left` more squares from `from` on, added to p; `odd` holds
  // the squares seen by an odd number of p's queens.  A set is locked when
  // every square is a queen or seen an odd number of times (and it is not
  // the whole board).
  u64 count(int from, int left, u64 p, u64 odd, std::vector<u64>& found) const {
    if (left == 0) {
      if ((p | odd) != full || p == full) return 0;
      found.push_back(p);
      return 1;
    }
    u64 total = 0;
    if (left == 1) {  // the last queen: one test per square, no call (most of the time is here)
      for (int s = from; s < squares; ++s)
        if (((p | u64(1) << s) | (odd ^ sees[size_t(s)])) == full && (p | u64(1) << s) != full) {
          found.push_back(p | u64(1) << s);
          ++total;
        }
      return total;
    }
    for (int s = from; s <= squares - left; ++s) total += count(s + 1, left - 1, p | u64(1) << s, odd ^ sees[size_t(s)], found);
    return total;
  }
};

int number(const char* text, int low, int high, const char* what) {
  char* end = nullptr;
  const long v = std::strtol(text, &end, 10);
  if (!*text || *end || v < low || v > high) {
    std::fprintf(stderr, "mod2-locked-walk: %s must be a whole number from %d to %d, not '%s'\n", what, low, high, text);
    std::exit(2);
  }
  return int(v);
}

std::string squareNames(int n, u64 p) {
  std::string s;
  for (int q = 0; q < n * n; ++q)
    if (p >> q & 1) s += (s.empty() ? "" : ",") + std::string(1, char('a' + q % n)) + std::to_string(q / n + 1);
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && (std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h")) {
    std::printf("usage: mod2-locked-walk N K [THREADS]\n"
                "Counts the locked sets of exactly K queens of the mod-2 game (Brown and Ladha) on the\n"
                "N x N board (1 <= N <= 8) by walking every set of K squares, THREADS at a time (default 1),\n"
                "and prints up to 10 of them. docs/mod2-game.md: what it confirms.\n");
    return 0;
  }
  if (argc < 3 || argc > 4) {
    std::fprintf(stderr, "mod2-locked-walk: usage: mod2-locked-walk N K [THREADS] (--help)\n");
    return 2;
  }
  Walk w;
  w.n = number(argv[1], 1, 8, "N");
  w.squares = w.n * w.n;
  w.k = number(argv[2], 0, w.squares, "K");
  const int threads = argc == 4 ? number(argv[3], 1, 1024, "THREADS") : 1;
  w.full = w.squares == 64 ? ~u64(0) : (u64(1) << w.squares) - 1;
  for (int a = 0; a < w.squares; ++a)
    for (int b = 0; b < w.squares; ++b) {
      const int r1 = a / w.n, c1 = a % w.n, r2 = b / w.n, c2 = b % w.n;
      if (a != b && (r1 == r2 || c1 == c2 || r1 - r2 == c1 - c2 || r1 - r2 == c2 - c1)) w.sees[size_t(a)] |= u64(1) << b;
    }
  // Work: the sets' three lowest squares (or the whole walk for K < 3), taken
  // by the threads from a shared counter.
  std::vector<std::array<int, 3>> prefixes;
  for (int a = 0; a < w.squares && w.k >= 3; ++a)
    for (int b = a + 1; b < w.squares; ++b)
      for (int c = b + 1; c < w.squares; ++c) prefixes.push_back({a, b, c});
  const auto t0 = std::chrono::steady_clock::now();
  std::atomic<size_t> next{0};
  std::atomic<u64> total{0};
  std::vector<u64> found;
  std::mutex foundMutex;
  auto work = [&] {
    std::vector<u64> mine;
    if (w.k < 3) {
      total += w.count(0, w.k, 0, 0, mine);
    } else {
      for (size_t i; (i = next++) < prefixes.size();) {
        const auto [a, b, c] = prefixes[i];
        const u64 p = u64(1) << a | u64(1) << b | u64(1) << c;
        total += w.count(c + 1, w.k - 3, p, w.sees[size_t(a)] ^ w.sees[size_t(b)] ^ w.sees[size_t(c)], mine);
      }
    }
    const std::lock_guard<std::mutex> lock(foundMutex);
    found.insert(found.end(), mine.begin(), mine.end());
  };
  std::vector<std::thread> pool;
  for (int t = 0; t < (w.k < 3 ? 1 : threads); ++t) pool.emplace_back(work);
  for (auto& t : pool) t.join();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const u64 locked = total;
  const char* queens = w.k == 1 ? "queen" : "queens";
  std::printf("%dx%d board: %llu locked %s of %d %s, every set of %d %s walked, %.1f s\n", w.n, w.n, (unsigned long long)locked,
              locked == 1 ? "set" : "sets", w.k, queens, w.k, w.k == 1 ? "square" : "squares", seconds);
  std::sort(found.begin(), found.end());
  for (size_t i = 0; i < found.size() && i < 10; ++i) std::printf("  %s\n", squareNames(w.n, found[i]).c_str());
  return 0;
}
