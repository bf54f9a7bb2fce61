// qcert report (ui/report.cpp): the table's grouping must lose nothing. For
// every claim of every manifest in proofs/, the template line with the row's
// words filled in gives back the statement exactly, every claim is listed
// once, and rows of one group differ; unpublished numbers ('*') are filled in from the certified
// statement. The table itself and the HTML page: tests/report_test.sh.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "report.hpp"

using namespace qcert::ui;

namespace {

std::string trim(const std::string& s) {
  const size_t a = s.find_first_not_of(" \t"), b = s.find_last_not_of(" \t");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

// Every claim of proofs/*.claims, as "certified" with its own statement.
AuditResults allManifestClaims() {
  AuditResults r;
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(std::string(QCERT_SOURCE_DIR) + "/proofs"))
    if (e.path().extension() == ".claims") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const auto& f : files) {
    const std::string source = f.stem().string();
    r.sources.push_back({source, "proofs/" + f.filename().string(), ""});
    std::ifstream in(f);
    for (std::string line; std::getline(in, line);) {
      if (trim(line).empty() || trim(line)[0] == '#') continue;
      std::vector<std::string> field;
      std::istringstream fs(line);
      for (std::string x; std::getline(fs, x, '|');) field.push_back(trim(x));
      if (field.size() < 5) continue;
      AuditClaim c;
      c.source = source, c.id = field[0], c.statement = field[1], c.args = field[2], c.status = "certified";
      r.claims.push_back(c);
    }
  }
  return r;
}

}  // namespace

TEST(Report, EveryManifestRowGivesBackItsStatement) {
  const AuditResults r = allManifestClaims();
  ASSERT_GT(r.claims.size(), 500u);
  size_t grouped = 0;
  for (const AuditSource& s : r.sources) {
    std::vector<size_t> mine;
    for (size_t i = 0; i < r.claims.size(); ++i)
      if (r.claims[i].source == s.name) mine.push_back(i);
    std::vector<size_t> listed;
    for (const ClaimGroup& g : groupClaims(r, mine)) {
      ASSERT_EQ(g.claims.size(), g.words.size());
      std::set<std::vector<std::string>> distinct;
      for (size_t k = 0; k < g.claims.size(); ++k) {
        const AuditClaim& c = r.claims[g.claims[k]];
        listed.push_back(g.claims[k]);
        if (k > 0) {
          EXPECT_LT(g.claims[k - 1], g.claims[k]) << "rows of a group out of manifest order";
        }
        if (g.templateText.empty()) continue;
        ++grouped;
        EXPECT_EQ(fillTemplate(g.templateText, g.words[k]), c.statement) << c.id << " under \"" << g.templateText << "\"";
        distinct.insert(g.words[k]);
      }
      if (!g.templateText.empty()) {
        EXPECT_GE(g.claims.size(), 2u);
      }
      // Two rows with the same words would be two claims with one statement:
      // allowed, but then the manifest repeats itself (none does today).
      EXPECT_EQ(distinct.size(), g.templateText.empty() ? 0 : g.claims.size()) << g.templateText;
    }
    std::sort(listed.begin(), listed.end());
    EXPECT_EQ(listed, mine) << "every claim exactly once";
  }
  EXPECT_GT(grouped, r.claims.size() / 2) << "most claims come in families";
}

TEST(Report, UnpublishedNumbersAreFilledInFromTheCertifiedStatement) {
  AuditClaim c;
  c.statement = "at least * non-attacking queens are needed to leave no square of the 9x9 board free; with *: * placements, * up to symmetry";
  c.proved = "at least 5 non-attacking queens are needed to leave no square of the 9x9 board free; with 5: 92 placements, 16 up to symmetry";
  EXPECT_EQ(shownStatement(c),
            "at least {5} non-attacking queens are needed to leave no square of the 9x9 board free; with {5}: {92} placements, {16} up to symmetry");
  c.proved = "";  // not certified: the published text as it is
  EXPECT_EQ(shownStatement(c), c.statement);
  c.statement = "the HP-71B program on the 1x1 board finds 1 solution and examines * nodes";
  c.proved = "the HP-71B program on the 1x1 board finds 1 solution and examines 1 node";
  EXPECT_EQ(shownStatement(c), "the HP-71B program on the 1x1 board finds 1 solution and examines {1} nodes");
  // '*' for a word's ending: the certified word, no braces.
  c.statement = "a legal play of the mod-2 game locks the 2x2 board with * queen*";
  c.proved = "a legal play of the mod-2 game locks the 2x2 board with 1 queen";
  EXPECT_EQ(shownStatement(c), "a legal play of the mod-2 game locks the 2x2 board with {1} queen");
}

TEST(Report, ResultsFileErrorsNameTheLine) {
  std::istringstream bad("#qcert-audit-results\t1\nsource\tid\n");
  try {
    readAuditResults(bad);
    FAIL() << "accepted a wrong column line";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("line 2"), std::string::npos) << e.what();
  }
  std::istringstream empty("");
  EXPECT_THROW(readAuditResults(empty), std::invalid_argument);
}

TEST(Report, TableFitsTheWidthForTheFixture) {
  std::ifstream in(std::string(QCERT_SOURCE_DIR) + "/tests/fixtures/audit-results.tsv");
  const AuditResults r = readAuditResults(in);
  for (int width : {72, 100, 140}) {
    std::istringstream table(auditTable(r, width));
    for (std::string line; std::getline(table, line);) EXPECT_LE(int(line.size()), width) << line;
  }
}
