// Count certificates end to end (docs/count-certificates.md): the prover's
// certificates verify with the checker's own statement, and every mutant -
// edited with the Cap'n Proto API and sealed again, so that only the meaning
// is wrong - is rejected with exit status 1.
#include <capnp/message.h>
#include <capnp/serialize.h>
#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <iterator>
#include <numeric>
#include <set>

#include "tests/certfile.hpp"
#include "schema/qcert.capnp.h"
#include "tests/support.hpp"

using qtest::RunResult;
using qtest::contains;
using qtest::kChecker;
using qtest::kProver;
using qtest::runProgram;

namespace {

std::vector<uint8_t> readBytes(const std::string& path) { return qtest::readFile(path); }
void writeBytes(const std::string& path, const std::vector<uint8_t>& bytes) { qtest::writeFile(path, bytes); }

class CountCliTest : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = tmp_.path(); }

  // `prover count ARGS --out FILE`; returns the statement after RESULT:.
  std::string count(const std::vector<std::string>& args, const std::string& file) {
    std::vector<std::string> argv{kProver, "count", "-q", "--out", file};
    argv.insert(argv.end(), args.begin(), args.end());
    const RunResult r = runProgram(argv, 60);
    if (r.exitCode != 0) throw std::runtime_error("prover count failed: " + r.describe());
    const std::string line = qtest::firstLine(r.out);
    EXPECT_TRUE(qtest::startsWith(line, "RESULT: ")) << line;
    return line.substr(8);
  }

  RunResult check(const std::string& file, std::vector<std::string> extra = {}) {
    std::vector<std::string> argv{kChecker, "--quiet", "--jobs", "2"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    argv.push_back(file);
    return runProgram(argv, 60);
  }

  // Rewrites the header of `from` through `edit` into a new file with a
  // correct seal; returns its path.
  std::string mutate(const std::string& from, const std::function<void(Header::Builder)>& edit) {
    const std::vector<uint8_t> bytes = readBytes(from);
    kj::ArrayPtr<const capnp::word> words(reinterpret_cast<const capnp::word*>(bytes.data()), bytes.size() / 8);
    capnp::ReaderOptions options;
    options.traversalLimitInWords = uint64_t(1) << 28;
    capnp::FlatArrayMessageReader reader(words, options);
    capnp::MallocMessageBuilder builder;
    builder.setRoot(reader.getRoot<Header>());
    edit(builder.getRoot<Header>());
    auto flat = capnp::messageToFlatArray(builder);
    std::vector<uint8_t> out(flat.asBytes().begin(), flat.asBytes().end());
    const std::vector<uint8_t> seal = qtest::sealOf(out);
    capnp::MallocMessageBuilder sealMsg;
    sealMsg.initRoot<Seal>().setXxh3x128(capnp::Data::Reader(seal.data(), seal.size()));
    auto sealWords = capnp::messageToFlatArray(sealMsg);
    out.insert(out.end(), sealWords.asBytes().begin(), sealWords.asBytes().end());
    const std::string path = dir_ + "/mutant-" + std::to_string(++mutants_) + ".qcert";
    writeBytes(path, out);
    return path;
  }

  void expectRejected(const std::string& file, const std::string& why, const std::string& what) {
    const RunResult r = check(file);
    EXPECT_EQ(r.exitCode, 1) << what << ": " << r.describe();
    EXPECT_TRUE(qtest::startsWith(r.out, "REJECTED: ")) << what << ": " << r.out;
    if (!why.empty()) {
      EXPECT_TRUE(contains(r.out, why)) << what << ": expected '" << why << "' in " << r.out;
    }
    if (std::getenv("QCERT_SHOW_REJECTIONS")) std::fprintf(stderr, "  %s -> %s", what.c_str(), r.out.c_str());
  }

  qtest::TempDir tmp_;
  std::string dir_;
  int mutants_ = 0;
};

// Adds `delta` to a list entry of a cell and of the claim, so that the sums
// still agree and only the recount can object.
void bump(Header::Builder h, unsigned cell, int64_t delta, bool classes = false) {
  auto c = h.getCount();
  auto cellList = classes ? c.getCells()[cell].getClasses() : c.getCells()[cell].getTotals();
  auto claimList = classes ? c.getClasses() : c.getTotals();
  cellList.set(0, cellList[0] + uint64_t(delta));
  claimList.set(0, claimList[0] + uint64_t(delta));
}

}  // namespace

TEST_F(CountCliTest, CertificatesVerifyWithTheProversStatement) {
  const std::vector<std::vector<std::string>> cases{
      {"--problem", "queens", "--n", "8"},
      {"--problem", "queens", "--n", "10", "--cell-depth", "3"},
      {"--problem", "queens", "--n", "1"},
      {"--problem", "queens", "--n", "3"},
      {"--problem", "nplusk", "--n", "7", "--holes", "2"},
      {"--problem", "torus", "--n", "7"},
      {"--problem", "torus", "--n", "6"},
      {"--problem", "end", "--n", "6"},
      {"--problem", "end", "--n", "8", "--max-queens", "5"},
      {"--problem", "end", "--n", "5", "--max-queens", "2"},
      {"--problem", "hp71b", "--n", "8"},
  };
  for (size_t i = 0; i < cases.size(); ++i) {
    const std::string file = dir_ + "/c" + std::to_string(i) + ".qcert";
    const std::string statement = count(cases[i], file);
    const RunResult r = check(file);
    EXPECT_EQ(r.exitCode, 0) << r.describe();
    EXPECT_EQ(qtest::firstLine(r.out), "VERIFIED: " + statement);
  }
  EXPECT_EQ(count({"--problem", "queens", "--n", "8"}, dir_ + "/q8.qcert"), "the 8-queens problem has 92 solutions, 12 up to symmetry");
  EXPECT_EQ(count({"--problem", "hp71b", "--n", "8"}, dir_ + "/h8.qcert"),
            "the HP-71B program on the 8x8 board finds 92 solutions and examines 15720 nodes");
}

// Prover and checker against a brute-force permutation count (n <= 9): the
// checker's VERIFIED statement carries the brute force's numbers.
TEST_F(CountCliTest, ProverAndCheckerAgreeWithPermutationBruteForce) {
  for (int n = 1; n <= 9; ++n) {
    std::vector<int> p(n);
    std::iota(p.begin(), p.end(), 0);
    uint64_t solutions = 0, classes = 0;
    std::set<std::vector<int>> seen;  // classes: the least image of each solution, collected
    do {
      bool ok = true;
      for (int a = 0; a < n && ok; ++a)
        for (int b = a + 1; b < n && ok; ++b) ok = std::abs(p[a] - p[b]) != b - a;
      if (!ok) continue;
      ++solutions;
      std::vector<std::vector<int>> images;  // as column-of-row permutations
      std::vector<int> inv(n);
      for (int r = 0; r < n; ++r) inv[p[r]] = r;
      for (int g = 0; g < 8; ++g) {
        std::vector<int> q(n);
        for (int r = 0; r < n; ++r) {
          const int src = (g & 4) ? inv[(g & 2) ? n - 1 - r : r] : p[(g & 2) ? n - 1 - r : r];
          q[r] = (g & 1) ? n - 1 - src : src;
        }
        images.push_back(q);
      }
      seen.insert(*std::min_element(images.begin(), images.end()));
    } while (std::next_permutation(p.begin(), p.end()));
    classes = seen.size();
    const std::string file = dir_ + "/b" + std::to_string(n) + ".qcert";
    count({"--problem", "queens", "--n", std::to_string(n)}, file);
    const RunResult r = check(file);
    EXPECT_EQ(r.exitCode, 0) << r.describe();
    EXPECT_EQ(qtest::firstLine(r.out), "VERIFIED: the " + std::to_string(n) + "-queens problem has " + std::to_string(solutions) +
                                           (solutions == 1 ? " solution, " : " solutions, ") + std::to_string(classes) +
                                           " up to symmetry");
  }
}

TEST_F(CountCliTest, MutantsAreRejected) {
  const std::string good = dir_ + "/q8.qcert";
  count({"--problem", "queens", "--n", "8", "--cell-depth", "2"}, good);
  ASSERT_EQ(check(good).exitCode, 0);
  struct Case {
    std::string what, why;
    std::function<void(Header::Builder)> edit;
  };
  const std::vector<Case> cases{
      {"a cell's total and the claim's, +1", "cell 5", [](Header::Builder h) { bump(h, 5, 1); }},
      {"a cell's classes and the claim's, +1", "cell 7", [](Header::Builder h) { bump(h, 7, 1, true); }},
      {"a solution moved between two cells", "", [](Header::Builder h) { bump(h, 3, 1), bump(h, 4, -1); }},
      {"a cell's checksum", "cell 2", [](Header::Builder h) {
         auto c = h.getCount();
         c.getCells()[2].setChecksum(c.getCells()[2].getChecksum() + 1);
         c.setChecksum(c.getChecksum() + 1);
       }},
      {"the claim's total alone", "", [](Header::Builder h) { h.getCount().getTotals().set(0, 93); }},
      {"the claim's classes alone", "", [](Header::Builder h) { h.getCount().getClasses().set(0, 11); }},
      {"the claim's checksum alone", "", [](Header::Builder h) { h.getCount().setChecksum(h.getCount().getChecksum() ^ 1); }},
      {"a cell dropped (claim adjusted)", "", [](Header::Builder h) {
         auto c = h.getCount();
         auto old = c.getCells();
         const unsigned drop = 9;
         c.getTotals().set(0, c.getTotals()[0] - old[drop].getTotals()[0]);
         c.getClasses().set(0, c.getClasses()[0] - old[drop].getClasses()[0]);
         c.setChecksum(c.getChecksum() - old[drop].getChecksum());
         capnp::MallocMessageBuilder scratch;
         auto copy = scratch.initRoot<CountClaim>();
         copy.setCells(old.asReader());
         auto cells = c.initCells(old.size() - 1);
         for (unsigned i = 0, j = 0; i < copy.getCells().size(); ++i)
           if (i != drop) cells.setWithCaveats(j++, copy.getCells()[i]);
       }},
      {"a cell repeated", "", [](Header::Builder h) {
         auto c = h.getCount();
         capnp::MallocMessageBuilder scratch;
         auto copy = scratch.initRoot<CountClaim>();
         copy.setCells(c.getCells().asReader());
         auto cells = c.initCells(copy.getCells().size() + 1);
         for (unsigned i = 0; i < copy.getCells().size(); ++i) cells.setWithCaveats(i, copy.getCells()[i]);
         cells.setWithCaveats(copy.getCells().size(), copy.getCells()[copy.getCells().size() - 1]);
       }},
      {"two cells swapped", "", [](Header::Builder h) {
         auto c = h.getCount();
         capnp::MallocMessageBuilder scratch;
         auto copy = scratch.initRoot<CountClaim>();
         copy.setCells(c.getCells().asReader());
         c.getCells().setWithCaveats(0, copy.getCells()[1]);
         c.getCells().setWithCaveats(1, copy.getCells()[0]);
       }},
      {"a cell whose prefix attacks itself", "", [](Header::Builder h) {
         auto rows = h.getCount().getCells()[0].getRows();
         rows.set(1, rows[0] << 1);  // row 1's queen diagonal to row 0's
       }},
      {"two cells of 2^63 each and a claim of their 64-bit wrapped sum", "the cells sum to", [](Header::Builder h) {
         auto c = h.getCount();
         const uint64_t half = uint64_t(1) << 63;
         const uint64_t rest = c.getTotals()[0] - c.getCells()[0].getTotals()[0] - c.getCells()[1].getTotals()[0];
         c.getCells()[0].getTotals().set(0, half);
         c.getCells()[1].getTotals().set(0, half);
         c.getTotals().set(0, rest);  // half + half + rest, mod 2^64
       }},
      {"cellDepth changed", "", [](Header::Builder h) { h.getCount().setCellDepth(1); }},
      {"problem changed to torus", "", [](Header::Builder h) { h.getCount().setProblem(CountProblem::TORUS); }},
      {"board size changed", "", [](Header::Builder h) { h.getCount().setBoardSize(9); }},
      {"holes set on n-queens", "", [](Header::Builder h) { h.getCount().setHoles(1); }},
      {"a totals list too long", "", [](Header::Builder h) {
         auto t = h.getCount().initTotals(2);
         t.set(0, 92);
       }},
      {"a game claim as well", "", [](Header::Builder h) { h.initClaim().setBoardSize(8); }},
      {"chunkCount set", "", [](Header::Builder h) { h.setChunkCount(1); }},
      {"format version", "", [](Header::Builder h) { h.setFormatVersion(2); }},
  };
  for (const Case& c : cases) expectRejected(mutate(good, c.edit), c.why, c.what);
}

// Every single cell's total, off by one (claim adjusted), is caught.
TEST_F(CountCliTest, EveryCellIsRecounted) {
  const std::string good = dir_ + "/n7k1.qcert";
  count({"--problem", "nplusk", "--n", "7", "--holes", "1", "--cell-depth", "1"}, good);
  ASSERT_EQ(check(good).exitCode, 0);
  const std::vector<uint8_t> bytes = readBytes(good);
  kj::ArrayPtr<const capnp::word> words(reinterpret_cast<const capnp::word*>(bytes.data()), bytes.size() / 8);
  capnp::FlatArrayMessageReader reader(words);
  const unsigned cells = reader.getRoot<Header>().getCount().getCells().size();
  ASSERT_GT(cells, 5u);
  for (unsigned i = 0; i < cells; ++i)
    expectRejected(mutate(good, [i](Header::Builder h) { bump(h, i, 1); }), "cell " + std::to_string(i), "cell " + std::to_string(i));
}

TEST_F(CountCliTest, SampleModeNeverSaysVerified) {
  const std::string good = dir_ + "/q9.qcert";
  count({"--problem", "queens", "--n", "9"}, good);
  const RunResult r = check(good, {"--sample", "5", "--seed", "7"});
  EXPECT_EQ(r.exitCode, 3) << r.describe();
  EXPECT_TRUE(qtest::startsWith(r.out, "SAMPLED: 5 of ")) << r.out;
  EXPECT_FALSE(contains(r.out, "VERIFIED")) << r.out;
  // A wrong total in the claim is caught even in sample mode (the sums are always checked).
  const std::string bad = mutate(good, [](Header::Builder h) { h.getCount().getTotals().set(0, 353); });
  EXPECT_EQ(check(bad, {"--sample", "5", "--seed", "7"}).exitCode, 1);
  // --part I --of K: K processes share the cells; the one holding a wrong cell rejects.
  const std::string moved = mutate(good, [](Header::Builder h) { bump(h, 4, 1), bump(h, 5, -1); });
  for (int part = 0; part < 3; ++part) {
    const RunResult g = check(good, {"--part", std::to_string(part), "--of", "3"});
    EXPECT_EQ(g.exitCode, 3) << g.describe();
    EXPECT_TRUE(qtest::startsWith(g.out, "PART: part " + std::to_string(part) + " of 3: ")) << g.out;
    const RunResult m = check(moved, {"--part", std::to_string(part), "--of", "3"});
    EXPECT_EQ(m.exitCode, part == 0 ? 3 : 1) << "part " << part << ": " << m.describe();  // cells 4 and 5 are in parts 1 and 2
  }
  // A broken seal is rejected before anything else.
  std::vector<uint8_t> bytes = readBytes(good);
  bytes[40] ^= 1;
  writeBytes(dir_ + "/flipped.qcert", bytes);
  EXPECT_EQ(check(dir_ + "/flipped.qcert").exitCode, 1);
}

TEST_F(CountCliTest, BadArgumentsAreClearErrors) {
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"--problem", "queens"},
           {"--problem", "bishops", "--n", "8"},
           {"--problem", "queens", "--n", "28"},
           {"--problem", "queens", "--n", "0"},
           {"--problem", "nplusk", "--n", "8"},
           {"--problem", "nplusk", "--n", "8", "--holes", "5"},
           {"--problem", "queens", "--n", "8", "--holes", "1"},
           {"--problem", "end", "--n", "8", "--max-queens", "9"},
           {"--problem", "queens", "--n", "8", "--cell-depth", "4"},
           {"--problem", "hp71b", "--n", "8", "--cell-depth", "1"},
           {"--problem", "queens", "--n", "8", "--jobs", "0"},
       }) {
    std::vector<std::string> argv{kProver, "count"};
    argv.insert(argv.end(), args.begin(), args.end());
    const RunResult r = runProgram(argv, 30);
    EXPECT_EQ(r.exitCode, 2) << r.describe();
    EXPECT_TRUE(contains(r.err, "prover count: ")) << r.describe();
  }
}
