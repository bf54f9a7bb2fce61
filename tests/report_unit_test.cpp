// qcert report (ui/report.hpp, ui/report/): the table's grouping must lose nothing. For
// every claim of every manifest in proofs/, the template line with the row's
// words filled in gives back the statement exactly, every claim is listed
// once, and rows of one group differ; unpublished numbers ('*') are filled in from the certified
// statement. The table itself and the HTML page: tests/report_test.sh.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include <sys/stat.h>
#include <unistd.h>

#include "prover/mod2/mod2.hpp"
#include "ui/report.hpp"
#include "ui/report/claim_text.hpp"

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
  std::istringstream bad("#qcert-audit-results\t2\nsource\tid\n");
  try {
    readAuditResults(bad);
    FAIL() << "accepted a wrong column line";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("line 2"), std::string::npos) << e.what();
  }
  // Results of the format before the family column: named, not misread.
  std::istringstream old("#qcert-audit-results\t1\nsource\tid\tstatus\n");
  try {
    readAuditResults(old);
    FAIL() << "accepted format 1";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("line 1: results of format 1, this qcert reads formats 2 and 3"), std::string::npos) << e.what();
  }
  std::istringstream empty("");
  EXPECT_THROW(readAuditResults(empty), std::invalid_argument);
}

// The table's text with each run of spaces and line ends as one space (its
// sentences are wrapped).
std::string flat(const std::string& s) {
  std::string o;
  for (char c : s) {
    const char d = c == '\n' ? ' ' : c;
    if (d == ' ' && !o.empty() && o.back() == ' ') continue;
    o += d;
  }
  return o;
}

// Format 3 adds the Coq-proved checker's columns (verified, verified_ms);
// format 2, without them, is still read and marks nothing.
TEST(Report, VerifiedColumnsAreReadAndMarked) {
  std::ifstream in(std::string(QCERT_SOURCE_DIR) + "/tests/fixtures/audit-results.tsv");
  std::stringstream text;
  text << in.rdbuf();
  std::istringstream in3(text.str());
  const AuditResults r = readAuditResults(in3);
  std::map<std::string, const AuditClaim*> byId;
  for (const AuditClaim& c : r.claims) byId[c.id] = &c;
  ASSERT_TRUE(byId.count("jenrich-n2") && byId.count("noon-T6.0-n4") && byId.count("jenrich-n16"));
  EXPECT_EQ(byId["jenrich-n2"]->verified, "verified");
  EXPECT_EQ(byId["jenrich-n2"]->verifiedMs, 29);
  EXPECT_EQ(byId["jenrich-n16"]->verified, "-");
  EXPECT_EQ(byId["jenrich-4-c2"]->verifiedMs, -1);
  const std::string table = flat(auditTable(r, 100));
  EXPECT_NE(table.find(" certified+Coq "), std::string::npos);
  EXPECT_NE(table.find("noon-T6.0-n4: the Coq-proved checker REJECTED this certificate"), std::string::npos) << table;
  const std::string html = auditHtml(r, 0);
  EXPECT_NE(html.find("id=\"verified-checker\""), std::string::npos);
  EXPECT_NE(html.find("also verified by the Coq-proved checker (0.03 s)"), std::string::npos);
  // The rows of jenrich-n2 (verified) and jenrich-4-c2 (skipped) say so.
  const auto row = [&](const std::string& id) {
    const size_t a = html.find("<tr id=\"claim-" + id + "\"");
    return a == std::string::npos ? std::string() : html.substr(a, html.find("</tr>", a) - a);
  };
  EXPECT_NE(row("jenrich-n2").find("also verified by the Coq-proved checker"), std::string::npos);
  EXPECT_EQ(row("jenrich-n16").find("Coq-proved"), std::string::npos);
  EXPECT_NE(row("jenrich-4-c2").find("Coq-proved checker: not run"), std::string::npos);

  // The same results in format 2: read, nothing marked, no summary.
  std::string two;
  std::istringstream lines(text.str());
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("#qcert-audit-results", 0) == 0) line = "#qcert-audit-results\t2";
    else if (line.empty() || line[0] != '#') {
      for (int k = 0; k < 2; ++k) line.erase(line.rfind('\t'));
    } else if (line.rfind("#run", 0) == 0) line.erase(line.find("\tverified_checker="));
    two += line + "\n";
  }
  std::istringstream in2(two);
  const AuditResults r2 = readAuditResults(in2);
  ASSERT_EQ(r2.claims.size(), r.claims.size());
  for (const AuditClaim& c : r2.claims) EXPECT_EQ(c.verified, "") << c.id;
  const std::string table2 = auditTable(r2, 100);
  EXPECT_EQ(table2.find("certified+Coq"), table2.find("certified+Coq: the Coq-proved")) << "format 2 marked a claim";  // the legend only
  EXPECT_EQ(flat(table2).find("claims the checker verified in the scope"), std::string::npos) << "format 2 has a summary of the Coq-proved checker";
  EXPECT_EQ(auditHtml(r2, 0).find("id=\"verified-checker\""), std::string::npos);
  EXPECT_EQ(auditHtml(r2, 0).find("also verified by the Coq-proved checker ("), std::string::npos);

  // A format-3 file with a verdict it does not know, or a 15-column header: refused.
  std::string badVerdict = text.str();
  badVerdict.replace(badVerdict.find("\tverified\t29"), 13, "\tverifed\t29");
  std::istringstream inBad(badVerdict);
  EXPECT_THROW(readAuditResults(inBad), std::invalid_argument);
  std::string three = two;
  three.replace(three.find("#qcert-audit-results\t2"), 22, "#qcert-audit-results\t3");
  std::istringstream inThree(three);
  EXPECT_THROW(readAuditResults(inThree), std::invalid_argument);

  // Not built: said once, nothing marked.
  AuditResults none = r;
  none.run["verified_checker"] = "-";
  for (AuditClaim& c : none.claims) c.verified = "-", c.verifiedMs = -1;
  const std::string noneTable = flat(auditTable(none, 100));
  EXPECT_NE(noneTable.find("was not built or not used in this run"), std::string::npos);
  EXPECT_EQ(noneTable.find(" certified+Coq "), std::string::npos);
}

TEST(Report, TableFitsTheWidthForTheFixture) {
  std::ifstream in(std::string(QCERT_SOURCE_DIR) + "/tests/fixtures/audit-results.tsv");
  const AuditResults r = readAuditResults(in);
  for (int width : {72, 100, 140}) {
    std::istringstream table(auditTable(r, width));
    for (std::string line; std::getline(table, line);) EXPECT_LE(int(line.size()), width) << line;
  }
}

// The n = 16 reply table as qcert replies --tsv writes it (the HTML page
// draws it; tests/report_test.sh renders tests/fixtures/replies-n16.tsv).
namespace {
const std::string kRepliesHead =
    "#qcert-replies\t1\n#claim\tsecond player wins on the empty 16x16 board\n#board\t16x16\n#cert\tcerts/rudd-n16.qcert\n"
    "move\treply\thalf_turn\tfrom\n";
std::string replyError(const std::string& text) {
  std::istringstream in(text);
  try {
    readReplyTableFile(in);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST(Report, ReplyTableFileIsRead) {
  std::istringstream in(kRepliesHead + "c2\th8\t0\tcertificate\nb2\to15\t1\ton-the-spot\nd4\t-\t0\tnone\n");
  const ReplyTableFile t = readReplyTableFile(in);
  EXPECT_EQ(t.cert, "certs/rudd-n16.qcert");
  ASSERT_EQ(t.rows.size(), 3u);
  EXPECT_EQ(t.rows[0].move, 1 * 16 + 2);
  EXPECT_EQ(t.rows[0].reply, 7 * 16 + 7);
  EXPECT_FALSE(t.rows[0].halfTurn);
  EXPECT_TRUE(t.rows[1].halfTurn);
  EXPECT_EQ(t.rows[1].from, "on-the-spot");
  EXPECT_EQ(t.rows[2].reply, -1);
  std::ifstream fixture(std::string(QCERT_SOURCE_DIR) + "/tests/fixtures/replies-n16.tsv");
  EXPECT_EQ(readReplyTableFile(fixture).rows.size(), 36u) << "the fixture: all of Jenrich's triangle";
}

TEST(Report, ReplyTableFileErrorsNameTheLine) {
  EXPECT_NE(replyError("").find("not a reply table"), std::string::npos);
  EXPECT_NE(replyError("#qcert-audit-results\t1\n").find("not a reply table"), std::string::npos);
  EXPECT_EQ(replyError(kRepliesHead), "");  // no rows: accepted (every square '?')
  EXPECT_NE(replyError(kRepliesHead + "c9\th8\t0\tcertificate\n").find("line 6: move c9 is not in Jenrich's triangle"), std::string::npos);
  EXPECT_NE(replyError(kRepliesHead + "c2\th8\t1\tcertificate\n").find("line 6: half_turn 1 does not match"), std::string::npos);
  EXPECT_NE(replyError(kRepliesHead + "c2\tz99\t0\tcertificate\n").find("line 6: reply 'z99' is not a square"), std::string::npos);
  EXPECT_NE(replyError(kRepliesHead + "c2\th8\t0\tcertificate\nc2\th8\t0\tcertificate\n").find("line 7: move c2 twice"), std::string::npos);
  EXPECT_NE(replyError(kRepliesHead + "c2\th8\t0\tguessed\n").find("line 6: from is not"), std::string::npos);
  EXPECT_NE(replyError(kRepliesHead + "c2\th8\t0\n").find("line 6: 3 fields"), std::string::npos);
  std::string other = kRepliesHead;
  other.replace(other.find("16x16\n"), 6, "8x8\n");
  EXPECT_NE(replyError(other).find("line 3: the table is not of the empty 16x16 board"), std::string::npos);
}

// A mod-2 play the prover searched for (--construction fewest-locking) is
// recorded only in its certificate: the page draws it from there, and only
// for a certified claim whose file can be read.
TEST(Report, SearchedMod2PlayIsDrawnFromItsCertificate) {
  namespace m2 = qcert::mod2;
  const std::string path = testing::TempDir() + "report-fewest-5.qcert";
  m2::Mod2Spec spec;
  spec.n = 5, spec.kind = m2::Mod2Spec::Kind::play, spec.end = m2::End::locked;
  spec.moves = m2::fewestLocking(5).order;
  ASSERT_EQ(spec.moves.size(), 5u);
  m2::writeMod2Certificate(path, spec, "report test");
  AuditResults r;
  r.sources.push_back({"brown-ladha", "proofs/brown-ladha.claims", ""});
  AuditClaim c;
  c.source = "brown-ladha", c.id = "bl-4.4-n5-play", c.status = "certified", c.cert = path;
  c.statement = "a legal play of the mod-2 game locks the 5x5 board with 5 queens";
  c.args = "mod2 play --n 5 --construction fewest-locking";
  r.claims.push_back(c);
  const std::string board = "id=\"board-bl-4-4-n5-play\"";
  const std::string html = auditHtml(r, 0);
  ASSERT_NE(html.find(board), std::string::npos);
  const size_t at = html.find(board);
  const std::string svg = html.substr(at, html.find("</svg>", at) - at);
  for (int k = 1; k <= 5; ++k) EXPECT_NE(svg.find(">" + std::to_string(k) + "</text>"), std::string::npos) << k;  // queens numbered
  r.claims[0].status = "FAILED";
  EXPECT_EQ(auditHtml(r, 0).find(board), std::string::npos);
  r.claims[0].status = "certified", r.claims[0].cert = path + ".missing";
  EXPECT_EQ(auditHtml(r, 0).find(board), std::string::npos);
  std::remove(path.c_str());
}

// Every file qcert report reads is a regular file of bounded lines: a device
// (/dev/zero once grew a line to 2.1 GB), a FIFO (it blocked), a directory or
// a line of 100 KB is one line of error, exit 2, before anything is written.
TEST(Report, OnlyRegularFilesOfBoundedLinesAreRead) {
  const auto dir = std::filesystem::temp_directory_path() / ("qcert-report-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string fifo = (dir / "fifo").string(), longLine = (dir / "long.tsv").string(), html = (dir / "r.html").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::ofstream(longLine) << "#qcert-audit-results\t3\n" << std::string(100000, 'x') << "\n";
  const std::string fixture = std::string(QCERT_SOURCE_DIR) + "/tests/fixtures/audit-results.tsv";
  struct Case {
    std::map<std::string, std::string> options;
    std::string says;
  };
  const std::vector<Case> cases = {
      {{{"results", "/dev/zero"}}, "/dev/zero: not a regular file (a device)"},
      {{{"results", fifo}}, fifo + ": not a regular file (a FIFO)"},
      {{{"results", dir.string()}}, ": not a regular file (a directory)"},
      {{{"results", longLine}}, longLine + ": line 2 is longer than 65,536 bytes"},
      {{{"results", ""}}, "--results is empty"},
      {{{"results", fixture}, {"html", html}, {"replies", "/dev/zero"}}, "/dev/zero: not a regular file (a device)"},
      {{{"results", fixture}, {"html", html}, {"replies", fifo}}, fifo + ": not a regular file (a FIFO)"},
  };
  for (const Case& c : cases) {
    std::ostringstream out, err;
    EXPECT_EQ(runReport(c.options, out, err), 2) << c.says;
    EXPECT_EQ(out.str(), "");
    const std::string said = err.str();
    EXPECT_NE(said.find(c.says), std::string::npos) << said;
    EXPECT_EQ(std::count(said.begin(), said.end(), '\n'), 1) << said;
    EXPECT_FALSE(std::filesystem::exists(html)) << "the page was written before its inputs were read";
  }
  std::filesystem::remove_all(dir);
}

// What the report shows is read by people outside the project: no words of
// its own workings ("issue 30", "seeds 000 and 004", "../shared/seeds/", "a
// lent machine") in the claims of any manifest (the table and the page print
// their statements, details and backing) or in the fixture's table and page.
TEST(Report, NoInternalWordsInWhatIsShown) {
  const std::regex internal(R"((^|[^a-z])(issue [0-9]|seeds? [0-9]{3}|shared/seeds|lent machine|a lent ))", std::regex::icase);
  for (const auto& e : std::filesystem::directory_iterator(std::string(QCERT_SOURCE_DIR) + "/proofs")) {
    if (e.path().extension() != ".claims") continue;
    std::ifstream in(e.path());
    int number = 0;
    std::string about;  // the first comment block: tools/audit.sh shows it (less "(... ../shared/...)") as the source's line
    bool inAbout = true;
    for (std::string line; std::getline(in, line);) {
      ++number;
      inAbout &= !line.empty() && line[0] == '#';
      if (inAbout) about += line.substr(1) + " ";
      if (trim(line).empty() || trim(line)[0] == '#') continue;  // other comments are for maintainers
      EXPECT_FALSE(std::regex_search(line, internal)) << e.path().filename() << " line " << number << ": " << line;
    }
    about = std::regex_replace(about, std::regex(R"( *\([^)]*\.\./shared[^)]*\))"), "");
    std::smatch sentence;  // its first sentence, as tools/audit.sh cuts it
    if (std::regex_search(about, sentence, std::regex(R"([A-Za-z0-9")]{3}\. )"))) about = about.substr(0, size_t(sentence.position(0)) + 4);
    EXPECT_FALSE(std::regex_search(about, internal) || std::regex_search(about, std::regex(R"(\bseeds?\b)", std::regex::icase)))
        << e.path().filename() << ": " << about;
  }
  std::ifstream fixture(std::string(QCERT_SOURCE_DIR) + "/tests/fixtures/audit-results.tsv");
  const AuditResults r = readAuditResults(fixture);
  const std::string table = auditTable(r, 100), page = auditHtml(r, 1);
  EXPECT_FALSE(std::regex_search(table, internal)) << table;
  EXPECT_FALSE(std::regex_search(page, internal));
}

// The page folds the claims not run for want of time into one line per
// source, as the terminal table does (a quick audit's page was mostly such
// rows), each claim still there with its command; commands break between
// words or after a '/', never inside one (the page once broke them anywhere).
TEST(Report, PageFoldsNotRunClaimsAndKeepsCommandsWhole) {
  std::ifstream fixture(std::string(QCERT_SOURCE_DIR) + "/tests/fixtures/audit-results.tsv");
  AuditResults r = readAuditResults(fixture);
  // As a quick audit leaves them: most claims not in its selection.
  for (AuditClaim& c : r.claims)
    if (c.source == "noon-2002" && c.status == "certified") c.status = "not-run", c.detail = "not in the quick selection (estimated 4 s)";
  const std::string page = auditHtml(r, 1);
  EXPECT_EQ(page.find("break-all"), std::string::npos) << "commands may break inside a word";
  std::set<std::string> foldedSources;
  for (const AuditClaim& c : r.claims) {
    std::string id;
    for (char ch : c.id) id += std::isalnum(static_cast<unsigned char>(ch)) ? ch : '-';
    const bool folded = c.status == "not-run" && (c.detail == "over budget" || c.detail.rfind("not in the quick selection (", 0) == 0);
    EXPECT_EQ(page.find("<tr id=\"claim-" + id + "\""), folded ? std::string::npos : page.find("<tr id=\"claim-" + id + "\"")) << c.id;
    if (folded) {
      EXPECT_NE(page.find("<li id=\"claim-" + id + "\""), std::string::npos) << c.id << " is not listed under its source's line";
      foldedSources.insert(c.source);
    }
  }
  ASSERT_TRUE(foldedSources.count("noon-2002"));
  size_t lines = 0;
  for (size_t at = page.find("<details class=\"not-run-list\""); at != std::string::npos; at = page.find("<details class=\"not-run-list\"", at + 1)) ++lines;
  EXPECT_EQ(lines, foldedSources.size()) << "one line per source with claims not run";
  EXPECT_NE(page.find("id=\"not-run-noon-2002\"><summary><span class=\"st-not-run\">not run</span>: 5 claims (5 not in the quick selection; "),
            std::string::npos);
  // Every command is in the page whole: its text with the break hints removed.
  const std::string plain = std::regex_replace(page, std::regex("<wbr>"), "");
  for (const AuditClaim& c : r.claims) {
    const std::string command = report::reproduce(r, c);
    if (command.empty()) continue;
    EXPECT_NE(plain.find("<code>" + std::regex_replace(command, std::regex("&"), "&amp;") + "</code>"), std::string::npos) << c.id << ": " << command;
  }
}
