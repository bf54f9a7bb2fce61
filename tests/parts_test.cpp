// Tables of independent parts (docs/parts.md), against the reference of
// tests/variants_reference.hpp (written from the rules, no prover or checker
// code):
//  1. the facts the checker relies on, by naive mex on random variant boards
//     and live sets: a set's Grundy value is the XOR of its attack-connected
//     groups' values; on a board without holes or wrap-around a set moved
//     within the board keeps its value;
//  2. the prover's PartsSolver against naive mex, and its tables through the
//     checker (VERIFIED with the value the reference finds);
//  3. mutated tables (a value changed, an entry dropped, moved off its
//     normal form, repeated, cut short; a false claim; header fields a table
//     may not set), each REJECTED by the checker.
// Seeds: RC_PARAMS for the properties.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "prover/game/certificate.hpp"
#include "prover/game/graph.hpp"
#include "prover/game/parts.hpp"
#include "prover/geometry.hpp"
#include "tests/support.hpp"
#include "tests/variants_reference.hpp"

namespace {

using qtest::runProgram;

// A random variant with at most 25 squares: every piece, the torus, rectangles, holes.
rc::Gen<vref::Board> genBoard() {
  return rc::gen::exec([] {
    vref::Board b;
    b.piece = *rc::gen::inRange(0, 5);
    b.torus = *rc::gen::inRange(0, 4) == 0;
    b.rows = *rc::gen::inRange(1, 6);
    b.cols = b.torus ? b.rows : *rc::gen::inRange(1, 6);
    if (*rc::gen::inRange(0, 3) == 0)
      for (int s = 0; s < b.squares(); ++s)
        if (*rc::gen::inRange(0, 8) == 0) b.holes.push_back(s);
    return b;
  });
}

uint64_t onBoard(const vref::Board& b) {
  uint64_t all = 0;
  for (int s = 0; s < b.squares(); ++s)
    if (!b.isHole(s)) all |= uint64_t(1) << s;
  return all;
}

// The groups of `live` connected by attack, from the reference's kill masks.
std::vector<uint64_t> groups(const std::vector<uint64_t>& kill, uint64_t live) {
  std::vector<uint64_t> out;
  while (live) {
    uint64_t part = 0, frontier = live & -live;
    while (frontier) {
      part |= frontier;
      uint64_t reach = 0;
      for (uint64_t x = frontier; x; x &= x - 1) reach |= kill[__builtin_ctzll(x)];
      frontier = reach & live & ~part;
    }
    out.push_back(part);
    live &= ~part;
  }
  return out;
}

struct Recorder : qcert::ProofSink {
  std::vector<uint32_t> tokens;
  void reply(uint32_t t) override { tokens.push_back(t); }
};

// The table the prover writes for the position after `queens`, and its value.
uint32_t proverTable(const vref::Board& b, const std::vector<int>& queens, std::vector<uint32_t>& tokens) {
  const qcert::Geometry geo = qcert::variantGeometry(qtest::toVariant(b));
  qcert::Graph<1> g(geo);
  qcert::Bits<1> live = g.all;
  for (int q : queens) live = live.andNot(g.kill[size_t(q)]);
  Recorder rec;
  qcert::PartsSolver<1> solver(g, &rec);
  const uint32_t value = solver.value(live);
  tokens = rec.tokens;
  return value;
}

// A certificate with these tokens as its table (cutoff: what the header says).
void writeTable(const std::string& path, const vref::Board& b, const std::vector<int>& queens, uint32_t heap, bool win,
                bool grundy, const std::vector<uint32_t>& tokens, int cutoff = 0) {
  qcert::ClaimSpec claim;
  claim.n = b.rows;
  claim.queens = queens;
  claim.heap = heap;
  claim.win = win;
  claim.grundy = grundy;
  claim.variant = qtest::toVariant(b);
  claim.partsTable = true;
  qcert::CertificateWriter writer(path, claim, cutoff, false, "parts_test", 3);
  for (uint32_t t : tokens) writer.reply(t);
  writer.finish();
}

std::string check(const std::string& path) {
  const qtest::RunResult r = runProgram({qtest::kChecker, "--quiet", path});
  return std::to_string(r.exitCode) + " " + qtest::firstLine(r.out);
}

// Random legal queens on b (at most `most`), in placement order.
std::vector<int> randomQueens(const vref::Board& b, int most) {
  const auto kill = vref::killMasks(b);
  uint64_t live = onBoard(b);
  std::vector<int> queens;
  const int k = *rc::gen::inRange(0, most + 1);
  for (int i = 0; i < k && live; ++i) {
    std::vector<int> free;
    for (uint64_t x = live; x; x &= x - 1) free.push_back(__builtin_ctzll(x));
    const int q = free[size_t(*rc::gen::inRange(0, int(free.size())))];
    queens.push_back(q);
    live &= ~kill[size_t(q)];
  }
  return queens;
}

uint64_t liveAfter(const vref::Board& b, const std::vector<int>& queens) {
  const auto kill = vref::killMasks(b);
  uint64_t live = onBoard(b);
  for (int q : queens) live &= ~kill[size_t(q)];
  return live;
}

// ---------------------------------------------------------------- 1. facts

RC_GTEST_PROP(PartsFacts, ValueOfASetIsTheXorOfItsGroupsValues, ()) {
  const vref::Board b = *genBoard();
  const auto kill = vref::killMasks(b);
  const uint64_t live = *rc::gen::inRange<uint64_t>(0, uint64_t(1) << b.squares()) & onBoard(b);
  vref::NaiveKayles naive(b);
  int x = 0;
  for (uint64_t part : groups(kill, live)) x ^= naive.grundy(part);
  RC_ASSERT(naive.grundy(live) == x);
}

RC_GTEST_PROP(PartsFacts, ASetMovedWithinAPlainBoardKeepsItsValue, ()) {
  vref::Board b = *genBoard();
  b.torus = false, b.holes.clear();
  const uint64_t live = *rc::gen::inRange<uint64_t>(1, uint64_t(1) << b.squares());
  int top = b.rows, bottom = 0, left = b.cols, right = 0;  // the set's bounding box
  for (uint64_t x = live; x; x &= x - 1) {
    const int s = __builtin_ctzll(x);
    top = std::min(top, s / b.cols), bottom = std::max(bottom, s / b.cols);
    left = std::min(left, s % b.cols), right = std::max(right, s % b.cols);
  }
  const int dr = *rc::gen::inRange(-top, b.rows - bottom), dc = *rc::gen::inRange(-left, b.cols - right);
  uint64_t moved = 0;
  for (uint64_t x = live; x; x &= x - 1) {
    const int s = __builtin_ctzll(x);
    moved |= uint64_t(1) << ((s / b.cols + dr) * b.cols + s % b.cols + dc);
  }
  vref::NaiveKayles naive(b);
  RC_ASSERT(naive.grundy(live) == naive.grundy(moved));
}

// ------------------------------------------------- 2. prover and checker

RC_GTEST_PROP(PartsTables, ProverValueIsTheGrundyValueAndItsTableVerifies, ()) {
  const vref::Board b = *genBoard();
  const std::vector<int> queens = randomQueens(b, 2);
  std::vector<uint32_t> tokens;
  const uint32_t value = proverTable(b, queens, tokens);
  vref::NaiveKayles naive(b);
  RC_ASSERT(int(value) == naive.grundy(liveAfter(b, queens)));
  qtest::TempDir dir;
  writeTable(dir.file("t.qcert"), b, queens, value, false, true, tokens);
  RC_ASSERT(qtest::startsWith(check(dir.file("t.qcert")), "0 VERIFIED: "));
  // The same table proves the outcome with any heap: a win unless heap = value.
  const uint32_t heap = *rc::gen::inRange(0, 4);
  writeTable(dir.file("o.qcert"), b, queens, heap, heap != value, false, tokens);
  RC_ASSERT(qtest::startsWith(check(dir.file("o.qcert")), "0 VERIFIED: "));
}

TEST(PartsTables, TheCommandLineWritesATableTheCheckerVerifies) {
  qtest::TempDir dir;
  const qtest::RunResult p = runProgram({qtest::kProver, "grundy", "--n", "6", "--piece", "king", "--parts", "--out", dir.file("k6.qcert")});
  ASSERT_EQ(p.exitCode, 0) << p.describe();
  EXPECT_EQ(qtest::firstLine(p.out), "RESULT: the Grundy value of the empty 6x6 board with kings is " +
                                         std::to_string(vref::NaiveKayles(vref::square(6, vref::kKing)).grundy((uint64_t(1) << 36) - 1)));
  EXPECT_EQ(check(dir.file("k6.qcert")), "0 VERIFIED: the Grundy value of the empty 6x6 board with kings is " +
                                             qtest::firstLine(p.out).substr(qtest::firstLine(p.out).rfind(' ') + 1));
  const qtest::RunResult bad = runProgram({qtest::kProver, "prove", "--n", "6", "--parts", "--jobs", "2", "--out", dir.file("x.qcert")});
  EXPECT_EQ(bad.exitCode, 2) << bad.describe();
  EXPECT_TRUE(qtest::startsWith(bad.err, "prover: --parts writes one table")) << bad.err;
}

// ------------------------------------------------------------ 3. mutants

// The start of each entry in a table's tokens.
std::vector<size_t> entryStarts(const std::vector<uint32_t>& t) {
  std::vector<size_t> starts;
  for (size_t i = 0; i < t.size(); i += t[i] + 2) starts.push_back(i);
  return starts;
}

TEST(PartsTables, EveryMutantIsRejected) {
  const vref::Board b = vref::square(4, vref::kKing);
  std::vector<uint32_t> good;
  const uint32_t value = proverTable(b, {}, good);
  const std::vector<size_t> starts = entryStarts(good);
  ASSERT_GE(starts.size(), 10u);
  qtest::TempDir dir;
  const std::string path = dir.file("m.qcert");
  writeTable(path, b, {}, value, false, true, good);
  ASSERT_EQ(check(path), "0 VERIFIED: the Grundy value of the empty 4x4 board with kings is " + std::to_string(value));
  auto rejected = [&](const std::vector<uint32_t>& tokens, const std::string& what) {
    writeTable(path, b, {}, value, false, true, tokens);
    const std::string verdict = check(path);
    EXPECT_TRUE(qtest::startsWith(verdict, "1 REJECTED: ")) << what << ": " << verdict;
  };
  for (size_t e = 0; e < starts.size(); ++e) {
    const size_t at = starts[e], k = good[at], valueAt = at + k + 1;
    std::vector<uint32_t> t = good;
    t[valueAt] += 1;
    rejected(t, "entry " + std::to_string(e) + " value + 1");
    if (good[valueAt] > 0) {
      t = good, t[valueAt] -= 1;
      rejected(t, "entry " + std::to_string(e) + " value - 1");
    }
    t = good, t.erase(t.begin() + long(at), t.begin() + long(valueAt + 1));
    rejected(t, "entry " + std::to_string(e) + " dropped");
    t = good, t[at + 1] += 1;  // every square one to the right (or onto the next row): off its normal form
    rejected(t, "entry " + std::to_string(e) + " moved");
    t = good, t.insert(t.end(), good.begin() + long(at), good.begin() + long(valueAt + 1));
    rejected(t, "entry " + std::to_string(e) + " repeated");
  }
  std::vector<uint32_t> t = good;
  t.pop_back();
  rejected(t, "cut short");
  t = good, t.push_back(1);
  rejected(t, "a token after the last entry");
  // False claims with the good table.
  writeTable(path, b, {}, value + 1, false, true, good);
  EXPECT_TRUE(qtest::startsWith(check(path), "1 REJECTED: ")) << "grundy value + 1";
  writeTable(path, b, {}, value, true, false, good);
  EXPECT_TRUE(qtest::startsWith(check(path), "1 REJECTED: ")) << "a win with the heap at the value";
  writeTable(path, b, {}, value + 1, false, false, good);
  EXPECT_TRUE(qtest::startsWith(check(path), "1 REJECTED: ")) << "a loss with the heap off the value";
  // A table with a cut-off is not one.
  writeTable(path, b, {}, value, false, true, good, 5);
  EXPECT_EQ(check(path), "1 REJECTED: a table of parts has cutoff 0, no default reply, no mirror lemma and no plan");
}

}  // namespace
