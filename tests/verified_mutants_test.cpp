// checker-verified, the checker proved sound in Coq (docs/verified-checker.md),
// on single mutants (issue 30, section 2). Registered only where
// checker-verified is built (coqc and ocamlopt found).
//
// Six small certificates written by the prover library with small cut-offs,
// so that they hold tokens (n = 4..7, outcome and Grundy claims, heaps, given
// queens, the half-turn default reply on and off). For each:
//
//   (a) the certificate as written: VERIFIED with its own claim;
//   (b) the mutants of tests/roundtrip_property_test.cpp, resealed so that
//       they pass the seal: every token changed (0, t-1, t+1, a random legal
//       value, out of range), deleted, or a token inserted (a fixed sample of
//       at most kTokenMutants per certificate), and every header field
//       changed (every edit of every field, not a random pick);
//   (c) the exported table, the proved check's own input (export-table
//       --cutoff 0: every won position an entry), changed: an entry dropped,
//       an entry's reply changed to another square or heap, the claim line
//       (kind and value), the board line, the claimed queens (one added,
//       removed or moved), the cut-off line.
//
// Every run must end in exit 1 with "REJECTED: ", or exit 2 (nothing
// decided), or exit 0 with "VERIFIED: S" where S is the file's own claim in
// the C++ checker's words (for a .qcert: the claim read back from the mutated
// header; for a table: its board, claim and queens lines) AND the naive solver
// of tests/support.hpp (plain memoised minimax and mex over the queen graph,
// no symmetry, nothing shared with the prover or either checker) says S is
// true. A table's queens may attack each other: Spec.v's position is any list
// of queens, so the judge takes the live squares as those on the board that
// no listed queen attacks (a queen attacks its own square), as Spec.v's
// `free` does. A crash, a hang, another exit status, or a VERIFIED of a false
// or other statement fails. Counts are printed; the test also fails unless
// some mutants of each kind were REJECTED by the proved check itself (exit 1
// from --table), so that it tests the check, not only export-table.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <sstream>

#include "prover/game/prove.hpp"
#include "tests/certfile.hpp"
#include "tests/support.hpp"

using namespace qtest;

namespace {

const std::string kVerified = QCERT_VERIFIED_CHECKER;
const std::string kExport = QCERT_EXPORT_TABLE;
constexpr size_t kTokenMutants = 40;  // per certificate: a fixed sample when there are more
constexpr size_t kTableMutants = 40;  // per table and kind of change (entries dropped, replies changed)

NaiveGame& naiveFor(int n) {
  static std::map<int, std::unique_ptr<NaiveGame>> games;
  auto& g = games[n];
  if (!g) g = std::make_unique<NaiveGame>(NaiveGame::queens(n));
  return *g;
}

// The claim in the C++ checker's words (as tests/roundtrip_property_test.cpp
// writes it from docs/certificate-format.md).
struct Claim {
  int n = 0;
  std::vector<std::pair<int, int>> queens;  // (row, column)
  uint32_t value = 0;                      // the heap, or the Grundy value
  std::string kind;                        // win, loss, grundy
};

std::string squareWords(int r, int c) {
  return std::string(1, char('a' + c)) + std::to_string(r + 1) + " (" + std::to_string(r) + "," + std::to_string(c) + ")";
}

std::string statementOf(const Claim& k) {
  const std::string size = std::to_string(k.n) + "x" + std::to_string(k.n);
  std::string board;
  if (k.queens.empty()) {
    board = "the empty " + size + " board";
  } else {
    board = "the " + size + " board after queens ";
    for (size_t i = 0; i < k.queens.size(); ++i) board += (i ? ", " : "") + squareWords(k.queens[i].first, k.queens[i].second);
  }
  if (k.kind == "grundy") return "the Grundy value of " + board + " is " + std::to_string(k.value) + " (queens game)";
  const std::string heap = k.value ? " with a Nim heap of " + std::to_string(k.value) + " added" : "";
  const bool win = k.kind == "win";
  if (k.queens.empty()) return std::string(win ? "first" : "second") + " player wins on " + board + heap + " (queens game)";
  return std::string("the player to move ") + (win ? "wins" : "loses") + " on " + board + heap + " (queens game)";
}

// True by the naive solver, in Spec.v's sense (any list of queens on the
// board; the live squares are those no queen attacks). `legalRoot` also asks
// that each queen was free when placed (a certificate's header: the C++
// checker's rule).
bool naiveTrue(const Claim& k, bool legalRoot) {
  if (k.n < 1 || k.n > 8) throw std::runtime_error("test bug: a claim on a board the naive solver cannot evaluate");
  NaiveGame& g = naiveFor(k.n);
  uint64_t live = g.all();
  for (const auto& [r, c] : k.queens) {
    if (r >= k.n || c >= k.n) return false;
    const int q = r * k.n + c;
    if (legalRoot && !(live >> q & 1)) return false;
    live = g.after(live, q);
  }
  if (k.kind == "grundy") return uint32_t(g.grundy(live)) == k.value;
  const bool wins = k.value <= 64 ? g.wins(live, k.value) : uint32_t(g.grundy(live)) != k.value;
  return k.kind == "win" ? wins : !wins;
}

Claim claimOfHeader(const HeaderModel& h) {
  Claim k;
  k.n = h.boardSize;
  for (uint16_t q : h.queens) k.queens.push_back({h.boardSize ? q / h.boardSize : 0, h.boardSize ? q % h.boardSize : 0});
  k.value = h.heap;
  k.kind = h.kind == 1 ? "grundy" : h.outcome == 0 ? "win" : "loss";
  return k;
}

// A header the C++ checker may accept at all (docs/certificate-format.md, step 2).
bool wellFormed(const HeaderModel& h) {
  return h.formatVersion == 1 && h.ruleset == 0 && h.boardSize >= 1 && h.boardSize <= 22 && h.cutoff <= 32 && h.outcome <= 1 &&
         h.kind <= 1 && h.defaultReply <= 5 && !(h.kind == 1 && h.outcome != 1) &&
         std::all_of(h.queens.begin(), h.queens.end(), [&](uint16_t q) { return q < h.boardSize * h.boardSize; });
}

struct Tally {
  std::map<std::string, int> runs, rejected, undecided, verifiedTrue, cppRejected;
};
Tally& tally() {
  static Tally t;
  return t;
}

// One verdict: REJECTED (exit 1), exit 2, or VERIFIED with `want` and `want`
// true. Returns the exit status for the caller's counts.
void judge(const std::string& kind, const std::string& what, const RunResult& r, const std::optional<Claim>& claim, bool legalRoot) {
  Tally& t = tally();
  ++t.runs[kind];
  const std::string where = kind + ": " + what + "\n  checker-verified: " + r.describe();
  ASSERT_FALSE(r.timedOut || r.signaled) << "crashed or hung: " << where;
  if (r.exitCode == 1) {
    EXPECT_TRUE(startsWith(r.out, "REJECTED: ")) << "exit 1 without 'REJECTED: ': " << where;
    ++t.rejected[kind];
    return;
  }
  if (r.exitCode == 2) {
    ++t.undecided[kind];
    return;
  }
  ASSERT_EQ(r.exitCode, 0) << "exit status other than 0, 1 or 2: " << where;
  ASSERT_TRUE(claim.has_value()) << "VERIFIED a file whose claim is not well-formed: " << where;
  EXPECT_EQ(r.out, "VERIFIED: " + statementOf(*claim) + "\n") << "VERIFIED another statement than the file's claim: " << where;
  EXPECT_TRUE(naiveTrue(*claim, legalRoot)) << "VERIFIED A FALSE CLAIM (naive solver): " << where;
  ++t.verifiedTrue[kind];
}

// kSquares squares of the n x n board, at random (all when there are fewer).
constexpr size_t kSquares = 8;
std::vector<int> someSquares(int n, std::mt19937_64& rng) {
  std::vector<int> v(size_t(n * n));
  for (int q = 0; q < n * n; ++q) v[size_t(q)] = q;
  std::shuffle(v.begin(), v.end(), rng);
  if (v.size() > kSquares) v.resize(kSquares);
  return v;
}

struct Spec {
  int n;
  std::vector<int> queens;
  uint32_t heap;
  bool grundy;
  int cutoff;
  bool mirror;
};

// ---- (c) tables: the proved check's own input -----------------------------------
struct Table {
  std::string head;                 // "qcert-table 1"
  int n = 0;
  std::string kind;
  uint32_t value = 0;
  std::vector<std::pair<int, int>> queens;
  int cutoff = 0;
  std::vector<std::vector<std::string>> entries;  // the words after "e"

  static Table parse(const std::string& text) {
    std::istringstream in(text);
    Table t;
    std::string w, a, b;
    in >> a >> b;
    t.head = a + " " + b;
    in >> w >> t.n >> w >> t.kind >> t.value >> w;
    size_t k = 0;
    in >> k;
    for (size_t i = 0; i < k; ++i) {
      int r = 0, c = 0;
      in >> r >> c;
      t.queens.push_back({r, c});
    }
    in >> w >> t.cutoff;
    std::vector<std::string> cur;
    bool open = false;
    while (in >> w) {
      if (w == "e" || w == "end") {
        if (open) t.entries.push_back(cur);
        cur.clear();
        open = w == "e";
        continue;
      }
      cur.push_back(w);
    }
    return t;
  }
  std::string text() const {
    std::ostringstream o;
    o << head << "\nboard " << n << "\nclaim " << kind << " " << value << "\nqueens " << queens.size();
    for (const auto& [r, c] : queens) o << " " << r << " " << c;
    o << "\ncutoff " << cutoff << "\n";
    for (const auto& e : entries) {
      o << "e";
      for (const std::string& w : e) o << " " << w;
      o << "\n";
    }
    o << "end\n";
    return o.str();
  }
  Claim claim() const { return Claim{n, queens, value, kind}; }
};

void writeText(const std::string& path, const std::string& text) { writeFile(path, std::vector<uint8_t>(text.begin(), text.end())); }

// A table's lines, and the indices of those that start with the word tag.
std::pair<std::vector<std::string>, std::vector<size_t>> taggedLines(const std::string& text, const std::string& tag) {
  std::vector<std::string> lines;
  std::vector<size_t> tagged;
  for (std::istringstream in(text); std::getline(in, lines.emplace_back());)
    if (lines.back().rfind(tag + " ", 0) == 0) tagged.push_back(lines.size() - 1);
  lines.pop_back();
  return {lines, tagged};
}
std::string joinLines(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& l : lines) text += l + "\n";
  return text;
}

void tableMutants(const Spec& s, const std::string& cert, const TempDir& dir, std::mt19937_64& rng) {
  // --exact: one entry per position, the table the mutants below edit; the
  // table up to symmetry (lines "m") is edited at the end.
  const RunResult ex = runProgram({kExport, "--exact", "--cutoff", "0", "--no-hints", cert}, 60);
  ASSERT_EQ(ex.exitCode, 0) << ex.describe();
  const Table good = Table::parse(ex.out);
  ASSERT_EQ(good.text(), ex.out) << "the test's table reader does not give back export-table's table";
  const std::string path = dir.file("mutant.table");
  auto run = [&](const std::string& kind, const std::string& what, const Table& t) {
    writeText(path, t.text());
    const RunResult r = runProgram({kVerified, "--table", path}, 30);
    const bool readable = t.kind == "win" || t.kind == "loss" || t.kind == "grundy";
    judge(kind, what, r, readable && t.n >= 1 && t.n <= 8 ? std::optional<Claim>(t.claim()) : std::nullopt, false);
  };
  {  // as written
    writeText(path, good.text());
    const RunResult r = runProgram({kVerified, "--table", path}, 30);
    ASSERT_EQ(r.exitCode, 0) << "the table as exported: " << r.describe();
  }
  // An entry dropped.
  std::vector<size_t> idx(good.entries.size());
  for (size_t i = 0; i < idx.size(); ++i) idx[i] = i;
  std::shuffle(idx.begin(), idx.end(), rng);
  for (size_t k = 0; k < std::min(kTableMutants, idx.size()); ++k) {
    Table t = good;
    t.entries.erase(t.entries.begin() + long(idx[k]));
    run("table: entry dropped", "entry " + std::to_string(idx[k]), t);
  }
  // A reply changed: to another square of the board (legal or not), or a
  // heap reply to another heap.
  std::shuffle(idx.begin(), idx.end(), rng);
  for (size_t k = 0; k < std::min(kTableMutants, idx.size()); ++k) {
    Table t = good;
    std::vector<std::string>& e = t.entries[idx[k]];  // HEAP q R C ... or HEAP h H2 ...
    std::string what = "entry " + std::to_string(idx[k]) + ": ";
    if (e[1] == "q") {
      const int r0 = std::stoi(e[2]), c0 = std::stoi(e[3]);
      int r = r0, c = c0;
      while (r == r0 && c == c0) r = int(rng() % unsigned(s.n)), c = int(rng() % unsigned(s.n));
      e[2] = std::to_string(r), e[3] = std::to_string(c);
      what += "reply " + squareWords(r0, c0) + " -> " + squareWords(r, c);
    } else {
      const int h = std::stoi(e[2]);
      e[2] = std::to_string(h + 1);
      what += "heap reply " + std::to_string(h) + " -> " + std::to_string(h + 1);
    }
    run("table: reply changed", what, t);
  }
  // The claim line: every kind with values 0..4.
  for (const std::string kind : {"win", "loss", "grundy"})
    for (uint32_t v = 0; v <= 4; ++v) {
      if (kind == good.kind && v == good.value) continue;
      Table t = good;
      t.kind = kind, t.value = v;
      run("table: claim changed", "claim " + kind + " " + std::to_string(v), t);
    }
  // The board line.
  for (int n : {s.n - 1, s.n + 1}) {
    if (n < 1) continue;
    Table t = good;
    t.n = n;
    bool off = false;
    for (const auto& [r, c] : t.queens) off = off || r >= n || c >= n;
    if (off) continue;  // the driver refuses a queen off the board (exit 2): nothing to judge
    run("table: board changed", "board " + std::to_string(n), t);
  }
  // The claimed queens: one added (kSquares squares of the board, at random),
  // one removed, one moved.
  for (int q : someSquares(s.n, rng)) {
    Table t = good;
    t.queens.push_back({q / s.n, q % s.n});
    run("table: queens changed", "queen " + squareWords(q / s.n, q % s.n) + " added", t);
  }
  for (size_t i = 0; i < good.queens.size(); ++i) {
    Table t = good;
    t.queens.erase(t.queens.begin() + long(i));
    run("table: queens changed", "queen " + std::to_string(i) + " removed", t);
    Table u = good;
    u.queens[i] = {int(rng() % unsigned(s.n)), int(rng() % unsigned(s.n))};
    run("table: queens changed", "queen " + std::to_string(i) + " moved", u);
  }
  // The cut-off: larger (the verified solver does more: still true), smaller.
  for (int k : {good.cutoff + 3, 12}) {
    Table t = good;
    t.cutoff = k;
    run("table: cutoff changed", "cutoff " + std::to_string(k), t);
  }
  // The table up to symmetry: a line "m I HEAP QUEENS" dropped, or naming
  // another map (1..8: map 8 is not there), or another heap.
  const RunResult sx = runProgram({kExport, "--cutoff", "0", cert}, 60);
  ASSERT_EQ(sx.exitCode, 0) << sx.describe();
  auto [lines, mapLines] = taggedLines(sx.out, "m");
  {
    writeText(path, joinLines(lines));
    const RunResult r = runProgram({kVerified, "--table", path}, 30);
    ASSERT_EQ(r.exitCode, 0) << "the table up to symmetry as exported: " << r.describe();
  }
  std::shuffle(mapLines.begin(), mapLines.end(), rng);
  for (size_t k = 0; k < std::min(kTableMutants, mapLines.size()); ++k) {
    std::vector<std::string> edited = lines;
    std::istringstream words(edited[mapLines[k]]);
    std::string tag, rest;
    unsigned map = 0, heap = 0;
    words >> tag >> map >> heap;
    std::getline(words, rest);
    std::string what = "line " + std::to_string(mapLines[k]) + ": ";
    switch (k % 3) {
      case 0: edited[mapLines[k]].clear(), what += "dropped"; break;
      case 1:
        edited[mapLines[k]] = "m " + std::to_string(map % 8 + 1) + " " + std::to_string(heap) + rest;
        what += "map " + std::to_string(map) + " -> " + std::to_string(map % 8 + 1);
        break;
      default:
        edited[mapLines[k]] = "m " + std::to_string(map) + " " + std::to_string(heap + 1) + rest;
        what += "heap " + std::to_string(heap) + " -> " + std::to_string(heap + 1);
    }
    writeText(path, joinLines(edited));
    const RunResult r = runProgram({kVerified, "--table", path}, 30);
    judge("table up to symmetry: line m changed", what, r, good.n >= 1 && good.n <= 8 ? std::optional<Claim>(good.claim()) : std::nullopt,
          false);
  }
  // The winning queens suggested (lines "w", after each entry): untrusted,
  // so a line dropped, every suggestion index 0, one suggestion past the
  // largest frame ('z': 61), or the line reversed must still be VERIFIED (a
  // wrong suggestion costs one search and decides nothing). Cut-off 3, so
  // that there are entries and children of at most 3 live squares below them.
  const RunResult hx = runProgram({kExport, "--cutoff", "3", cert}, 60);
  ASSERT_EQ(hx.exitCode, 0) << hx.describe();
  auto [hintText, hintLines] = taggedLines(hx.out, "w");
  std::shuffle(hintLines.begin(), hintLines.end(), rng);
  for (size_t k = 0; k < std::min(kTableMutants, hintLines.size()); ++k) {
    std::vector<std::string> edited = hintText;
    std::string& line = edited[hintLines[k]];
    std::string what = "line " + std::to_string(hintLines[k]) + ": ";
    switch (k % 4) {
      case 0: line.clear(), what += "dropped"; break;
      case 1: std::fill(line.begin() + 2, line.end(), '0'), what += "every suggestion 0"; break;
      case 2: line[2 + rng() % (line.size() - 2)] = 'z', what += "a suggestion 61"; break;
      default: std::reverse(line.begin() + 2, line.end()), what += "reversed";
    }
    writeText(path, joinLines(edited));
    const RunResult r = runProgram({kVerified, "--table", path}, 30);
    judge("table: hints changed", what, r, good.n >= 1 && good.n <= 8 ? std::optional<Claim>(good.claim()) : std::nullopt,
          false);
  }
}

// ---- (a), (b): certificates -------------------------------------------------------
void certificateMutants(const Spec& s, const std::string& cert, std::mt19937_64& rng, const TempDir& dir) {
  const std::vector<uint8_t> bytes = readFile(cert);
  const CertModel model = parseCertificate(bytes);
  const HeaderModel& H = model.header;
  {
    const RunResult r = runProgram({kVerified, cert}, 30);
    ASSERT_EQ(r.exitCode, 0) << r.describe();
    ASSERT_EQ(r.out, "VERIFIED: " + statementOf(claimOfHeader(H)) + "\n");
  }
  const std::string path = dir.file("mutant.qcert");
  auto run = [&](const std::string& kind, const std::string& what, const CertModel& m) {
    writeFile(path, serialiseCertificate(m));
    const RunResult r = runProgram({kVerified, path}, 30);
    const RunResult c = runProgram({QCERT_CHECKER, "--quiet", path}, 30);
    if (c.exitCode == 1) ++tally().cppRejected[kind];
    const CertModel back = parseCertificate(readFile(path));
    const bool ok = wellFormed(back.header) && back.header.boardSize <= 8;
    judge(kind, what, r, ok ? std::optional<Claim>(claimOfHeader(back.header)) : std::nullopt, true);
  };
  // Tokens.
  const std::vector<uint32_t> tokens = allTokens(model);
  const ReplayVerdict ref = referenceReplay(model);
  ASSERT_TRUE(ref.ok);
  ASSERT_EQ(ref.sites.size(), tokens.size());
  ASSERT_GT(tokens.size(), 0u) << "a certificate without tokens: lower its cut-off";
  struct Edit {
    std::string what;
    std::vector<uint32_t> tokens;
  };
  std::vector<Edit> edits;
  for (size_t i = 0; i < tokens.size(); ++i) {
    const uint64_t hi = ref.sites[i].live.size() + uint64_t(ref.sites[i].heap);
    const uint32_t tok = tokens[i];
    std::vector<uint32_t> values = {0, tok + 1, uint32_t(hi + 1)};
    if (tok > 0) values.push_back(tok - 1);
    if (hi >= 1) values.push_back(uint32_t(1 + rng() % hi));
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
    for (uint32_t v : values) {
      if (v == tok) continue;
      auto t2 = tokens;
      t2[i] = v;
      edits.push_back({"token " + std::to_string(i) + ": " + std::to_string(tok) + " -> " + std::to_string(v), t2});
    }
    auto del = tokens;
    del.erase(del.begin() + long(i));
    edits.push_back({"token " + std::to_string(i) + " deleted", del});
    auto ins = tokens;
    ins.insert(ins.begin() + long(i), uint32_t(rng() % (hi + 2)));
    edits.push_back({"a token inserted before token " + std::to_string(i), ins});
  }
  std::shuffle(edits.begin(), edits.end(), rng);
  if (edits.size() > kTokenMutants) edits.resize(kTokenMutants);
  for (const Edit& e : edits) {
    CertModel m = model;
    setTokens(m, e.tokens);
    run("certificate: token", e.what, m);
  }
  // Header fields: every edit.
  const int n = s.n, sq = n * n;
  std::vector<std::pair<std::string, std::function<void(HeaderModel&)>>> hedits;
  for (int nn : {n - 1, n + 1, 0, 23})
    if (nn >= 0) hedits.push_back({"boardSize " + std::to_string(nn), [nn](HeaderModel& h) { h.boardSize = uint16_t(nn); }});
  for (int q : someSquares(n, rng)) hedits.push_back({"queen " + std::to_string(q) + " added", [q](HeaderModel& h) { h.queens.push_back(uint16_t(q)); }});
  hedits.push_back({"queen off the board added", [sq](HeaderModel& h) { h.queens.push_back(uint16_t(sq)); }});
  for (size_t i = 0; i < s.queens.size(); ++i) {
    hedits.push_back({"queen " + std::to_string(i) + " removed", [i](HeaderModel& h) { h.queens.erase(h.queens.begin() + long(i)); }});
    const uint16_t mirror = uint16_t(sq - 1 - s.queens[i]);
    hedits.push_back({"queen " + std::to_string(i) + " -> its half-turn image", [i, mirror](HeaderModel& h) { h.queens[i] = mirror; }});
    hedits.push_back({"queen " + std::to_string(i) + " -> 65535", [i](HeaderModel& h) { h.queens[i] = 65535; }});
  }
  for (uint64_t h : {uint64_t(H.heap) + 1, uint64_t(H.heap ? H.heap - 1 : 2), uint64_t(5), uint64_t(1000001), uint64_t(0xffffffffu)})
    if (h != H.heap) hedits.push_back({"heap " + std::to_string(h), [h](HeaderModel& m) { m.heap = uint32_t(h); }});
  hedits.push_back({"outcome flipped", [](HeaderModel& h) { h.outcome ^= 1; }});
  hedits.push_back({"outcome 2", [](HeaderModel& h) { h.outcome = 2; }});
  hedits.push_back({"kind flipped", [](HeaderModel& h) { h.kind ^= 1; }});
  hedits.push_back({"kind flipped, outcome flipped", [](HeaderModel& h) { h.kind ^= 1, h.outcome ^= 1; }});
  hedits.push_back({"kind 2", [](HeaderModel& h) { h.kind = 2; }});
  for (int k : {H.cutoff + 1, H.cutoff ? H.cutoff - 1 : 32, 33, 65535})
    if (k != H.cutoff) hedits.push_back({"cutoff " + std::to_string(k), [k](HeaderModel& h) { h.cutoff = uint16_t(k); }});
  hedits.push_back({"defaultReply flipped", [](HeaderModel& h) { h.defaultReply ^= 1; }});
  hedits.push_back({"defaultReply 6", [](HeaderModel& h) { h.defaultReply = 6; }});
  hedits.push_back({"replyCount + 1", [](HeaderModel& h) { h.replyCount += 1; }});
  hedits.push_back({"replyCount - 1", [](HeaderModel& h) { h.replyCount -= 1; }});
  hedits.push_back({"chunkCount + 1", [](HeaderModel& h) { h.chunkCount += 1; }});
  hedits.push_back({"chunkCount - 1", [](HeaderModel& h) { h.chunkCount -= 1; }});
  hedits.push_back({"formatVersion 0", [](HeaderModel& h) { h.formatVersion = 0; }});
  hedits.push_back({"formatVersion 2", [](HeaderModel& h) { h.formatVersion = 2; }});
  hedits.push_back({"ruleset 1", [](HeaderModel& h) { h.ruleset = 1; }});
  for (const auto& [what, edit] : hedits) {
    CertModel m = model;
    edit(m.header);
    run("certificate: header", what, m);
  }
}

}  // namespace

TEST(VerifiedCheckerMutants, RejectedOrUndecidedOrTrueByTheNaiveSolver) {
  const std::vector<Spec> specs = {
      {4, {}, 0, false, 2, false},       // second player wins on the empty 4x4 board
      {5, {}, 1, false, 6, true},        // with a heap of 1
      {5, {1}, 0, true, 5, false},       // the Grundy value after b1
      {6, {}, 0, false, 8, true},        // first player wins on the empty 6x6 board
      {6, {7}, 0, true, 8, false},       // the Grundy value after b2
      {7, {0, 13}, 2, false, 9, false},  // given queens and a heap
  };
  std::mt19937_64 rng(testSeed(0x30c0c));
  TempDir dir;
  for (const Spec& s : specs) {
    qcert::ProveRequest req;
    req.n = s.n, req.queens = s.queens, req.heap = s.heap, req.grundy = s.grundy, req.cutoff = s.cutoff;
    req.mirrorDefault = s.mirror, req.ttMegabytes = 1, req.zstdLevel = 1;
    req.out = dir.file("claim-" + std::to_string(&s - specs.data()) + ".qcert");
    qcert::prove(req);
    SCOPED_TRACE("certificate n=" + std::to_string(s.n) + " cutoff=" + std::to_string(s.cutoff) + (s.grundy ? " grundy" : " outcome"));
    certificateMutants(s, req.out, rng, dir);
    tableMutants(s, req.out, dir, rng);
  }
  const Tally& t = tally();
  int runs = 0;
  for (const auto& [kind, count] : t.runs) {
    runs += count;
    const auto get = [&](const std::map<std::string, int>& m) { return m.count(kind) ? m.at(kind) : 0; };
    std::printf("  %-28s %4d mutants: %4d REJECTED, %3d undecided (exit 2), %3d VERIFIED and true by the naive solver%s\n",
                kind.c_str(), count, get(t.rejected), get(t.undecided), get(t.verifiedTrue),
                kind.rfind("certificate", 0) == 0 ? (" (the C++ checker rejected " + std::to_string(get(t.cppRejected)) + ")").c_str() : "");
    // Each kind must reach a verdict of the proved check at least sometimes;
    // the table kinds must be REJECTED by it (not only found unreadable).
    EXPECT_GT(get(t.rejected) + get(t.verifiedTrue), 0) << kind;
    if (kind == "table: hints changed") {
      EXPECT_EQ(get(t.verifiedTrue), count) << kind << ": a suggestion changed the verdict";
    } else if (kind.rfind("table", 0) == 0 && kind != "table: cutoff changed") {
      EXPECT_GT(get(t.rejected), 0) << kind << ": the proved check rejected none";
    }
  }
  std::printf("  %d runs of checker-verified\n", runs);
  EXPECT_GT(runs, 500);
}
