#include "fuzz_common.hpp"

#include "check.hpp"
#include "qcert.capnp.h"

#include <capnp/message.h>
#include <capnp/serialize.h>
#include <unistd.h>
#include <xxhash.h>

#include <bit>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <unordered_map>

namespace fs = std::filesystem;

namespace qfuzz {

void fail(const std::string& what) {
  std::fprintf(stderr, "\nqcert fuzz FINDING: %s\n", what.c_str());
  std::fflush(stderr);
  __builtin_trap();
}

// ---------------------------------------------------------------- files

namespace {
std::string gDir;
void removeDir() {
  std::error_code ec;
  if (!gDir.empty()) fs::remove_all(gDir, ec);
}
}  // namespace

const std::string& workDir() {
  if (gDir.empty()) {
    std::string base;
    if (const char* t = std::getenv("TMPDIR"); t && *t) base = t;
    else if (fs::is_directory("/dev/shm")) base = "/dev/shm";
    else base = "/tmp";
    std::string templ = base + "/qcert-fuzz-XXXXXX";
    if (!::mkdtemp(templ.data())) fail("cannot create a scratch directory under " + base);
    gDir = templ;
    std::atexit(removeDir);
  }
  return gDir;
}

void clearWorkDir() {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(workDir(), ec)) fs::remove_all(e.path(), ec);
}

bool writeFile(const std::string& path, const Bytes& bytes) {
  std::error_code ec;
  const fs::path p(path);
  if (p.has_parent_path()) fs::create_directories(p.parent_path(), ec);
  if (ec) return false;
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  if (!f) return false;
  f.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  return bool(f);
}

Bytes digestOf(const Bytes& bytes) {
  const XXH128_hash_t h = XXH3_128bits(bytes.data(), bytes.size());
  Bytes d(16);
  for (int i = 0; i < 8; ++i) {
    d[i] = uint8_t(h.high64 >> (56 - 8 * i));
    d[8 + i] = uint8_t(h.low64 >> (56 - 8 * i));
  }
  return d;
}

void appendSeal(Bytes& body) {
  const Bytes d = digestOf(body);
  capnp::MallocMessageBuilder msg;
  msg.initRoot<::Seal>().setXxh3x128(capnp::Data::Reader(d.data(), d.size()));
  auto words = capnp::messageToFlatArray(msg);
  auto b = words.asBytes();
  body.insert(body.end(), b.begin(), b.end());
}

// ---------------------------------------------------------------- checker

CheckResult runChecker(const std::string& path, unsigned jobs) {
  static const double seconds = [] {
    const char* t = std::getenv("QFUZZ_TIME_LIMIT");
    return t && std::atof(t) >= 1 ? std::atof(t) : 2.0;
  }();
  qcert::CheckOptions o;
  o.path = path;
  o.quiet = true;
  o.jobs = jobs;
  o.timeLimitSeconds = seconds;
  o.maxMemoryMiB = 1024;
  std::ostringstream out, err;
  CheckResult r;
  r.status = qcert::runCheck(o, out, err);
  r.out = out.str();
  r.err = err.str();
  static const bool verbose = std::getenv("QFUZZ_VERBOSE") != nullptr;
  if (verbose) std::fprintf(stderr, "status %d: %s%s", r.status, r.out.c_str(), r.out.empty() ? r.err.c_str() : "");
  auto starts = [&](const char* w) { return r.out.rfind(w, 0) == 0; };
  switch (r.status) {
    case 0: if (!starts("VERIFIED: ")) fail("exit 0 without a VERIFIED line: '" + r.out + "'"); break;
    case 1: if (!starts("REJECTED: ")) fail("exit 1 without a REJECTED line: '" + r.out + "'"); break;
    case 2: if (!r.out.empty() && !starts("NOT CHECKED: ")) fail("exit 2 with a verdict line: '" + r.out + "'"); break;
    default: fail("runCheck returned " + std::to_string(r.status) + " without --sample/--part: '" + r.out + "'");
  }
  return r;
}

// ---------------------------------------------------------------- game reference

namespace {

// The first message of `file` as a Header reader, kept alive by the caller's words.
kj::Array<capnp::word> wordsOf(const Bytes& file) {
  auto words = kj::heapArray<capnp::word>(file.size() / 8);
  if (file.size() >= 8) std::memcpy(words.begin(), file.data(), words.size() * 8);
  return words;
}

// Plain minimax over live-square bitsets with a memo: a move places a queen on
// a live square (removing it and every square it attacks) or lowers the heap;
// the player who cannot move loses.
struct GameRef {
  unsigned n;
  std::vector<uint64_t> closed;  // closed[s]: s and every square a queen on s attacks
  std::unordered_map<uint64_t, bool> memo;  // key: live set * 16 + heap

  explicit GameRef(unsigned size) : n(size), closed(size * size) {
    for (unsigned a = 0; a < n * n; ++a)
      for (unsigned b = 0; b < n * n; ++b) {
        const int r1 = int(a / n), c1 = int(a % n), r2 = int(b / n), c2 = int(b % n);
        if (r1 == r2 || c1 == c2 || r1 + c1 == r2 + c2 || r1 - c1 == r2 - c2) closed[a] |= uint64_t(1) << b;
      }
  }
  bool wins(uint64_t live, unsigned heap) {
    const uint64_t key = live * 16 + heap;
    if (auto it = memo.find(key); it != memo.end()) return it->second;
    bool win = false;
    for (uint64_t x = live; x && !win; x &= x - 1) win = !wins(live & ~closed[std::countr_zero(x)], heap);
    for (unsigned h = 0; h < heap && !win; ++h) win = !wins(live, h);
    memo.emplace(key, win);
    return win;
  }
};

}  // namespace

std::optional<GameClaim> readGameClaim(const Bytes& file) {
  try {
    auto words = wordsOf(file);
    capnp::FlatArrayMessageReader reader(words);
    auto claim = reader.getRoot<::Header>().getClaim();
    GameClaim c;
    c.n = claim.getBoardSize();
    for (uint16_t q : claim.getQueens()) c.queens.push_back(q);
    c.heap = claim.getHeap();
    c.win = claim.getOutcome() == ::Outcome::WIN;
    c.grundy = claim.getKind() == ::ClaimKind::GRUNDY;
    return c;
  } catch (const kj::Exception&) {
    return std::nullopt;
  }
}

std::optional<bool> judgeGameClaim(const GameClaim& c) {
  if (c.n < 1 || c.n > 6 || c.heap > 8) return std::nullopt;
  static std::map<unsigned, GameRef> refs;
  GameRef& ref = refs.try_emplace(c.n, c.n).first->second;
  uint64_t live = c.n * c.n == 64 ? ~uint64_t(0) : (uint64_t(1) << (c.n * c.n)) - 1;
  for (unsigned q : c.queens) {
    if (q >= c.n * c.n || !(live >> q & 1)) return false;  // the root cannot be built: no true claim
    live &= ~ref.closed[q];
  }
  const bool win = ref.wins(live, unsigned(c.heap));
  if (c.grundy) return !c.win && !win;  // G(L) = heap  <=>  (L, heap) is a loss
  return win == c.win;
}

void judgeVerifiedGameFile(const Bytes& file, const std::string& verdictLine) {
  try {  // a mutated file may have become a count certificate
    auto words = wordsOf(file);
    capnp::FlatArrayMessageReader reader(words);
    if (reader.getRoot<::Header>().hasCount()) return judgeVerifiedCountFile(file, verdictLine);
  } catch (const kj::Exception&) {
  }
  const auto claim = readGameClaim(file);
  if (!claim) fail("VERIFIED a file whose Header the reference cannot read: " + verdictLine);
  const auto truth = judgeGameClaim(*claim);
  if (truth && !*truth) fail("VERIFIED a false claim (reference search): " + verdictLine);
}

// ---------------------------------------------------------------- count reference

namespace {

uint64_t mix(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

struct Counter {
  unsigned problem = 0, n = 0, maxQueens = 0, depth = 0;
  size_t totalsLen = 1, classesLen = 1;
  std::vector<int> col;  // col[r]: queen's column in row r, -1 none
  std::map<std::vector<uint64_t>, CellRef> cells;
  std::vector<uint64_t> partial;  // hp71b: placements of rows 0..r-1, by r

  bool attacks(unsigned r1, int c1, unsigned r2, int c2) const {
    if (problem == kTorus) {
      const int N = int(n);
      return c1 == c2 || (int(r1) + c1) % N == (int(r2) + c2) % N || ((int(r1) - c1) % N + N) % N == ((int(r2) - c2) % N + N) % N;
    }
    return c1 == c2 || int(r1) + c1 == int(r2) + c2 || int(r1) - c1 == int(r2) - c2;
  }
  bool fits(unsigned r, int c) const {
    for (unsigned q = 0; q < r; ++q)
      if (col[q] >= 0 && attacks(q, col[q], r, c)) return false;
    return true;
  }
  // The placement's string (row-major, '1' queen) under symmetry g.
  std::string image(int g) const {
    std::string s(n * n, '0');
    for (unsigned r = 0; r < n; ++r) {
      if (col[r] < 0) continue;
      const unsigned c = unsigned(col[r]), m = n - 1;
      unsigned R = 0, C = 0;
      switch (g) {
        case 0: R = r, C = c; break;
        case 1: R = r, C = m - c; break;
        case 2: R = m - r, C = c; break;
        case 3: R = m - r, C = m - c; break;
        case 4: R = c, C = r; break;
        case 5: R = c, C = m - r; break;
        case 6: R = m - c, C = r; break;
        default: R = m - c, C = m - r; break;
      }
      s[R * n + C] = '1';
    }
    return s;
  }
  CellRef& cellOf() {
    std::vector<uint64_t> key;
    for (unsigned r = 0; r < depth; ++r) key.push_back(col[r] >= 0 ? uint64_t(1) << col[r] : 0);
    CellRef& cell = cells[key];
    if (cell.totals.empty()) cell.rows = key, cell.totals.assign(totalsLen, 0), cell.classes.assign(classesLen, 0);
    return cell;
  }
  void leaf() {
    unsigned queens = 0;
    uint64_t sum = 0;
    for (unsigned r = 0; r < n; ++r)
      if (col[r] >= 0) ++queens, sum += mix(uint64_t(n) << 32 | uint64_t(r * n + unsigned(col[r])) << 1);
    if (problem == kEnd) {  // maximal: every empty square attacked
      for (unsigned r = 0; r < n; ++r)
        for (unsigned c = 0; c < n; ++c) {
          if (col[r] == int(c)) continue;
          bool hit = false;
          for (unsigned q = 0; q < n && !hit; ++q) hit = col[q] >= 0 && (q == r || attacks(q, col[q], r, int(c)));
          if (!hit) return;
        }
      if (queens >= totalsLen) return;  // more than maxQueens
    }
    const size_t at = problem == kEnd ? queens : 0;
    CellRef& cell = cellOf();
    cell.totals[at] += 1;
    cell.checksum += mix(sum);
    if (classesLen) {
      const std::string me = image(0);
      bool least = true;
      for (int g = 1; g < 8 && least; ++g) least = me <= image(g);
      if (least) cell.classes[at] += 1;
    }
  }
  void place(unsigned r) {
    if (r == n) return leaf();
    if (problem == kHp71b) partial[r] += 1;
    if (problem == kEnd) {
      col[r] = -1;
      place(r + 1);
    }
    for (unsigned c = 0; c < n; ++c)
      if (fits(r, int(c))) {
        col[r] = int(c);
        place(r + 1);
      }
    col[r] = -1;
  }
  // Admissible prefixes of depth `depth`, in increasing order (row words:
  // empty row first, then one queen by column).
  void prefixes(unsigned r, std::vector<CellRef>& out) {
    if (r == depth) {
      std::vector<uint64_t> key;
      for (unsigned q = 0; q < depth; ++q) key.push_back(col[q] >= 0 ? uint64_t(1) << col[q] : 0);
      auto it = cells.find(key);
      if (it != cells.end()) out.push_back(it->second);
      else out.push_back(CellRef{key, std::vector<uint64_t>(totalsLen, 0), std::vector<uint64_t>(classesLen, 0), 0});
      return;
    }
    if (problem == kEnd) {
      col[r] = -1;
      prefixes(r + 1, out);
    }
    for (unsigned c = 0; c < n; ++c)
      if (fits(r, int(c))) {
        col[r] = int(c);
        prefixes(r + 1, out);
      }
    col[r] = -1;
  }
};

}  // namespace

std::optional<CountRef> referenceCount(unsigned problem, unsigned n, unsigned holes, unsigned maxQueens, unsigned depth) {
  const unsigned maxN = problem == kNQueens || problem == kTorus ? 8 : problem == kEnd || problem == kHp71b ? 6 : 0;
  if (n < 1 || n > maxN || holes != 0 || (problem != kEnd && maxQueens != 0) || maxQueens > n) return std::nullopt;
  if (problem == kHp71b) depth = 0;
  if (depth > std::min(n, 3u)) return std::nullopt;
  Counter k;
  k.problem = problem, k.n = n, k.maxQueens = maxQueens, k.depth = depth;
  k.col.assign(n, -1);
  k.partial.assign(n + 1, 0);
  switch (problem) {
    case kNQueens: k.totalsLen = 1, k.classesLen = 1; break;
    case kTorus: k.totalsLen = 1, k.classesLen = 0; break;
    case kEnd: k.totalsLen = k.classesLen = (maxQueens ? maxQueens : n) + 1; break;
    default: k.totalsLen = 2, k.classesLen = 0; break;  // hp71b: solutions, nodes
  }
  k.place(0);
  CountRef ref;
  k.prefixes(0, ref.cells);
  if (problem == kHp71b) {
    uint64_t nodes = 0;
    for (unsigned r = 0; r < n; ++r) nodes += uint64_t(n) * k.partial[r];
    ref.cells.at(0).totals[1] = nodes;
  }
  ref.totals.assign(k.totalsLen, 0), ref.classes.assign(k.classesLen, 0);
  for (const CellRef& c : ref.cells) {
    for (size_t i = 0; i < c.totals.size(); ++i) ref.totals[i] += c.totals[i];
    for (size_t i = 0; i < c.classes.size(); ++i) ref.classes[i] += c.classes[i];
    ref.checksum += c.checksum;
  }
  return ref;
}

void judgeVerifiedCountFile(const Bytes& file, const std::string& verdictLine) {
  try {
    auto words = wordsOf(file);
    capnp::FlatArrayMessageReader reader(words);
    if (!reader.getRoot<::Header>().hasCount()) return judgeVerifiedGameFile(file, verdictLine);
    auto count = reader.getRoot<::Header>().getCount();
    const auto ref = referenceCount(unsigned(count.getProblem()), count.getBoardSize(), count.getHoles(), count.getMaxQueens(), 0);
    if (!ref) return;
    std::vector<uint64_t> totals, classes;
    for (uint64_t t : count.getTotals()) totals.push_back(t);
    for (uint64_t c : count.getClasses()) classes.push_back(c);
    if (totals != ref->totals || classes != ref->classes) {
      std::string want = "reference totals";
      for (uint64_t t : ref->totals) want += " " + std::to_string(t);
      want += ", classes";
      for (uint64_t c : ref->classes) want += " " + std::to_string(c);
      fail("VERIFIED a wrong count (" + want + "): " + verdictLine);
    }
  } catch (const kj::Exception&) {
    fail("VERIFIED a count file whose Header the reference cannot read: " + verdictLine);
  }
}

}  // namespace qfuzz
