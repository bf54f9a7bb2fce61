#include "fuzz/fuzz_common.hpp"

#include "checker/checker.hpp"
#include "schema/qcert.capnp.h"

#include <capnp/message.h>
#include <capnp/serialize.h>
#include <unistd.h>
#include <xxhash.h>

#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <tuple>
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

CheckResult runChecker(const std::string& path, unsigned jobs, uint64_t sample, uint64_t seed, uint64_t part, uint64_t parts) {
  static const double seconds = [] {
    const char* t = std::getenv("QFUZZ_TIME_LIMIT");
    return t && std::atof(t) >= 1 ? std::atof(t) : 2.0;
  }();
  qcert::checker::CheckOptions o;
  o.path = path;
  o.quiet = true;
  o.jobs = jobs;
  o.timeLimitSeconds = seconds;
  o.maxMemoryMiB = 1024;
  o.sample = sample, o.seed = seed, o.part = part, o.parts = parts;
  std::ostringstream err;  // quiet: nothing is written there
  CheckResult r;
  r.verdict = qcert::checker::check(o, err);
  r.status = r.verdict.exitStatus();
  r.out = r.verdict.line();
  static const bool verbose = std::getenv("QFUZZ_VERBOSE") != nullptr;
  if (verbose) std::fprintf(stderr, "status %d: %s\n", r.status, r.out.empty() ? r.verdict.reason.c_str() : r.out.c_str());
  using Kind = qcert::checker::Verdict::Kind;
  const Kind kind = r.verdict.kind;
  if (kind == Kind::Verified && (sample || parts)) fail("VERIFIED with --sample/--part: '" + r.out + "'");
  if ((kind == Kind::Sampled && !sample) || (kind == Kind::Part && !parts)) fail("SAMPLED without --sample or PART without --part: '" + r.out + "'");
  if ((kind == Kind::Verified ? r.verdict.statement : r.verdict.reason).empty()) fail("a verdict that says neither what nor why: '" + r.out + "'");
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
  std::vector<uint64_t> closed;  // closed[s]: s and every square a piece on s attacks
  std::unordered_map<uint64_t, bool> memo;  // key: live set * 16 + heap

  // rows x cols board, squares r*cols + c (rows * cols <= 64); the attack
  // rules of docs/variants.md, differences taken mod n on the torus.
  GameRef(unsigned rows, unsigned cols, unsigned piece, bool torus) : n(cols), closed(rows * cols) {
    for (unsigned a = 0; a < rows * cols; ++a)
      for (unsigned b = 0; b < rows * cols; ++b) {
        int dr = int(b / cols) - int(a / cols), dc = int(b % cols) - int(a % cols);
        if (torus) dr = (dr + int(cols)) % int(cols), dc = (dc + int(cols)) % int(cols);  // torus: square
        auto d = [&](int x, int k) { return torus ? (x == k || x == int(cols) - k) : (x == k || x == -k); };
        const bool line = dr == 0 || dc == 0;
        const bool diagonal = torus ? ((dr - dc) % int(cols) == 0 || (dr + dc) % int(cols) == 0) : (dr == dc || dr == -dc);
        const bool king = (dr == 0 || d(dr, 1)) && (dc == 0 || d(dc, 1));
        const bool knight = (d(dr, 1) && d(dc, 2)) || (d(dr, 2) && d(dc, 1));
        const bool hit = piece == 0 ? line || diagonal : piece == 1 ? line : piece == 2 ? diagonal : piece == 3 ? king : knight;
        if (a == b || hit) closed[a] |= uint64_t(1) << b;
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
    c.piece = unsigned(claim.getPiece());
    c.columns = claim.getColumns();
    c.torus = claim.getTorus();
    for (uint16_t h : claim.getHoles()) c.holes.push_back(h);
    return c;
  } catch (const kj::Exception&) {
    return std::nullopt;
  }
}

std::optional<bool> judgeGameClaim(const GameClaim& c) {
  const unsigned rows = c.n, cols = c.columns ? c.columns : c.n;
  if (rows < 1 || rows * cols > 36 || c.heap > 8 || c.piece > 4 || (c.torus && rows != cols)) return std::nullopt;
  static std::map<std::tuple<unsigned, unsigned, unsigned, bool>, GameRef> refs;
  GameRef& ref = refs.try_emplace({rows, cols, c.piece, c.torus}, rows, cols, c.piece, c.torus).first->second;
  uint64_t live = (uint64_t(1) << (rows * cols)) - 1;
  for (unsigned h : c.holes) {
    if (h >= rows * cols) return std::nullopt;
    live &= ~(uint64_t(1) << h);
  }
  for (unsigned q : c.queens) {
    if (q >= rows * cols || !(live >> q & 1)) return false;  // the root cannot be built: no true claim
    live &= ~ref.closed[q];
  }
  const bool win = ref.wins(live, unsigned(c.heap));
  if (c.grundy) return !c.win && !win;  // G(L) = heap  <=>  (L, heap) is a loss
  return win == c.win;
}

void judgeVerifiedHeaderFile(const Bytes& file, const std::string& verdictLine, const std::string& family,
                             const std::function<bool(::Header::Reader)>& ours,
                             const std::function<std::optional<bool>(::Header::Reader)>& judge) {
  auto words = kj::heapArray<capnp::word>(file.size() / 8);
  if (!words.size()) fail("VERIFIED an empty file: " + verdictLine);
  std::memcpy(words.begin(), file.data(), words.size() * 8);
  try {
    capnp::FlatArrayMessageReader reader(words);
    const auto header = reader.getRoot<::Header>();
    if (!ours(header)) return judgeVerifiedCountFile(file, verdictLine);  // a game or count file after all
    const auto truth = judge(header);
    if (truth && !*truth) fail("VERIFIED a false " + family + " claim (reference): " + verdictLine);
  } catch (const kj::Exception&) {
    fail("VERIFIED a file whose Header the reference cannot read: " + verdictLine);
  }
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

// Placements row by row: row r holds the word rows[r] (bit c: queen in column
// c; bit 32+c: hole in column c), from the problem's row forms.
struct Counter {
  unsigned problem = 0, n = 0, holes = 0, depth = 0;
  size_t totalsLen = 1, classesLen = 1;
  std::vector<uint64_t> forms;  // the row forms, increasing
  std::vector<uint64_t> rows;   // rows placed so far
  std::map<std::vector<uint64_t>, CellRef> cells;
  std::vector<uint64_t> partial;  // hp71b: placements of rows 0..r-1, by r

  // 0 empty, 1 queen, 2 hole
  int at(unsigned r, unsigned c) const { return rows[r] >> c & 1 ? 1 : rows[r] >> (32 + c) & 1 ? 2 : 0; }
  unsigned holesIn(size_t upTo) const {
    unsigned h = 0;
    for (size_t r = 0; r < upTo; ++r) h += unsigned(std::popcount(rows[r] >> 32));
    return h;
  }
  // Do the queens on (r1,c1) and (r2,c2), r1 < r2 with every row up to r2
  // placed, attack each other?  A hole strictly between them on their
  // column or diagonal blocks the line (nPlusK; other problems have none).
  bool attacks(unsigned r1, unsigned c1, unsigned r2, unsigned c2) const {
    const int N = int(n), dr = int(r2) - int(r1), dc = int(c2) - int(c1);
    if (problem == kTorus)
      return dc == 0 || ((int(r1) + int(c1)) % N == (int(r2) + int(c2)) % N) ||
             (((int(r1) - int(c1)) % N + N) % N == ((int(r2) - int(c2)) % N + N) % N);
    if (!(dc == 0 || dc == dr || dc == -dr)) return false;
    const int step = dc == 0 ? 0 : dc > 0 ? 1 : -1;
    for (int k = 1; k < dr; ++k)
      if (at(unsigned(int(r1) + k), unsigned(int(c1) + k * step)) == 2) return false;
    return true;
  }
  // Row r (just placed) against the rows above it.
  bool fits(unsigned r) const {
    if (problem == kNPlusK && holesIn(r + 1) > holes) return false;
    for (unsigned c2 = 0; c2 < n; ++c2) {
      if (!(rows[r] >> c2 & 1)) continue;
      for (unsigned r1 = 0; r1 < r; ++r1)
        for (unsigned c1 = 0; c1 < n; ++c1)
          if (rows[r1] >> c1 & 1 && attacks(r1, c1, r, c2)) return false;
    }
    return true;
  }
  std::string image(int g) const {
    std::string s(n * n, '0');
    const unsigned m = n - 1;
    for (unsigned r = 0; r < n; ++r)
      for (unsigned c = 0; c < n; ++c) {
        const int v = at(r, c);
        if (!v) continue;
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
        s[R * n + C] = char('0' + v);
      }
    return s;
  }
  CellRef& cellOf(const std::vector<uint64_t>& key) {
    CellRef& cell = cells[key];
    if (cell.totals.empty()) cell.rows = key, cell.totals.assign(totalsLen, 0), cell.classes.assign(classesLen, 0);
    return cell;
  }
  void leaf() {
    if (problem == kNPlusK && holesIn(n) != holes) return;
    unsigned queens = 0;
    uint64_t sum = 0;
    for (unsigned r = 0; r < n; ++r)
      for (unsigned c = 0; c < n; ++c)
        if (const int v = at(r, c)) queens += v == 1, sum += mix(uint64_t(n) << 32 | uint64_t(r * n + c) << 1 | uint64_t(v == 2));
    if (problem == kEnd) {  // maximal: every empty square attacked (same row, column or diagonal)
      for (unsigned r = 0; r < n; ++r)
        for (unsigned c = 0; c < n; ++c) {
          if (at(r, c)) continue;
          bool hit = rows[r] != 0;
          for (unsigned q = 0; q < n && !hit; ++q)
            for (unsigned qc = 0; qc < n && !hit; ++qc)
              hit = rows[q] >> qc & 1 && (qc == c || int(q) + int(qc) == int(r) + int(c) || int(q) - int(qc) == int(r) - int(c));
          if (!hit) return;
        }
      if (queens >= totalsLen) return;  // more than maxQueens
    }
    const size_t idx = problem == kEnd ? queens : 0;
    CellRef& cell = cellOf(std::vector<uint64_t>(rows.begin(), rows.begin() + depth));
    cell.totals[idx] += 1;
    cell.checksum += mix(sum);
    if (classesLen) {
      const std::string me = image(0);
      bool least = true;
      for (int g = 1; g < 8 && least; ++g) least = me <= image(g);
      if (least) cell.classes[idx] += 1;
    }
  }
  void place(unsigned r) {
    if (r == n) return leaf();
    if (problem == kHp71b) partial[r] += 1;
    for (uint64_t f : forms) {
      rows[r] = f;
      if (fits(r)) place(r + 1);
    }
    rows[r] = 0;
  }
  // Admissible prefixes of depth `depth`, in increasing order.
  void prefixes(unsigned r, std::vector<CellRef>& out) {
    if (r == depth) {
      const std::vector<uint64_t> key(rows.begin(), rows.begin() + depth);
      auto it = cells.find(key);
      if (it != cells.end()) out.push_back(it->second);
      else out.push_back(CellRef{key, std::vector<uint64_t>(totalsLen, 0), std::vector<uint64_t>(classesLen, 0), 0});
      return;
    }
    for (uint64_t f : forms) {
      rows[r] = f;
      if (fits(r)) prefixes(r + 1, out);
    }
    rows[r] = 0;
  }
};

// Row forms: one queen; at most one queen (end positions); or queens and
// holes alternating q0 < h1 < q1 < ... < hm < qm (nPlusK).
void rowForms(unsigned problem, unsigned n, unsigned c, uint64_t word, bool wantQueen, std::vector<uint64_t>& out) {
  if (problem != kNPlusK) {
    if (problem == kEnd) out.push_back(0);
    for (unsigned k = 0; k < n; ++k) out.push_back(uint64_t(1) << k);
    return;
  }
  for (unsigned k = c; k < n; ++k) {
    const uint64_t w = word | (wantQueen ? uint64_t(1) << k : uint64_t(1) << (32 + k));
    if (wantQueen) out.push_back(w);
    rowForms(problem, n, k + 1, w, !wantQueen, out);
  }
}

}  // namespace

std::optional<CountRef> referenceCount(unsigned problem, unsigned n, unsigned holes, unsigned maxQueens, unsigned depth) {
  const unsigned maxN = problem == kNQueens || problem == kTorus ? 8 : problem <= kHp71b ? 6 : 0;
  if (n < 1 || n > maxN || (problem == kNPlusK ? holes < 1 || holes > 4 : holes != 0) ||
      (problem != kEnd && maxQueens != 0) || maxQueens > n)
    return std::nullopt;
  if (problem == kHp71b) depth = 0;
  if (depth > std::min(n, 3u)) return std::nullopt;
  Counter k;
  k.problem = problem, k.n = n, k.holes = holes, k.depth = depth;
  rowForms(problem, n, 0, 0, true, k.forms);
  std::sort(k.forms.begin(), k.forms.end());
  k.rows.assign(n, 0);
  k.partial.assign(n + 1, 0);
  switch (problem) {
    case kNQueens: case kNPlusK: k.totalsLen = 1, k.classesLen = 1; break;
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

std::string writeCertificateInput(Input& in, unsigned mode, Bytes (*structured)(Input), const std::string& name, Bytes& file) {
  if (mode == 0) {
    file = in.rest();
  } else if (mode == 1) {
    file = in.rest();
    file.resize(file.size() & ~size_t(7));
    appendSeal(file);
  } else {
    file = structured(in);
  }
  clearWorkDir();
  const std::string path = workDir() + "/" + name;
  if (!writeFile(path, file)) fail("cannot write " + path);
  return path;
}

}  // namespace qfuzz
