// Reading the two tab-separated files `qcert report` draws: the audit's
// results (tools/audit.sh) and the n = 16 reply table (qcert replies --tsv).
// Their formats: ui/report.hpp.
#include <algorithm>
#include <istream>
#include <optional>
#include <set>
#include <stdexcept>

#include "prover/geometry.hpp"
#include "ui/report.hpp"
#include "ui/report/text.hpp"

namespace qcert::ui {
namespace {

using report::splitTabs;
using report::wholeNumber;

// Format 3 added the Coq-proved checker's columns (verified, verified_ms);
// format 2, without them, is still read (no claim marked).
const std::string kResultsVersion = "3";
const std::vector<std::string> kColumns2 = {"source", "id", "family", "status", "detail", "statement", "proved", "args",
                                            "estimate_ms", "prove_ms", "check_ms", "check_reused", "bytes", "cert", "backing"};
const std::vector<std::string> kColumns3 = [] {
  std::vector<std::string> c = kColumns2;
  c.push_back("verified"), c.push_back("verified_ms");
  return c;
}();
const std::set<std::string> kStatuses = {"certified", "refuted", "lemma", "not-run", "failed"};
const std::set<std::string> kVerified = {"-", "verified", "skipped", "stopped", "rejected", "undecided", "other"};

}  // namespace

AuditResults readAuditResults(std::istream& in) {
  AuditResults r;
  std::string line;
  int lineNo = 0;
  bool header = false, magic = false;
  std::string version;
  const std::vector<std::string>* columns = &kColumns3;
  while (std::getline(in, line)) {
    ++lineNo;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    const std::vector<std::string> f = splitTabs(line);
    if (line[0] == '#') {
      if (f[0] == "#qcert-audit-results") {
        if (f.size() < 2 || (f[1] != kResultsVersion && f[1] != "2"))
          throw std::invalid_argument("line " + std::to_string(lineNo) + ": results of format " + (f.size() < 2 ? "?" : f[1]) +
                                      ", this qcert reads formats 2 and " + kResultsVersion + " (make audit writes " + kResultsVersion + ")");
        magic = true;
        version = f[1];
      }
      else if (f[0] == "#run") {
        for (size_t i = 1; i < f.size(); ++i) {
          const size_t eq = f[i].find('=');
          if (eq == std::string::npos) throw std::invalid_argument("line " + std::to_string(lineNo) + ": #run field without '=': '" + f[i] + "'");
          r.run[f[i].substr(0, eq)] = f[i].substr(eq + 1);
        }
      } else if (f[0] == "#source") {
        if (f.size() < 3) throw std::invalid_argument("line " + std::to_string(lineNo) + ": #source needs a name and a manifest");
        r.sources.push_back({f[1], f[2], f.size() > 3 ? f[3] : ""});
      }
      continue;
    }
    if (!magic) throw std::invalid_argument("not an audit results file (the first line must be #qcert-audit-results)");
    if (!header) {
      columns = version == "2" ? &kColumns2 : &kColumns3;
      if (f != *columns) throw std::invalid_argument("line " + std::to_string(lineNo) + ": the column names are not those of this version");
      header = true;
      continue;
    }
    if (f.size() != columns->size())
      throw std::invalid_argument("line " + std::to_string(lineNo) + ": " + std::to_string(f.size()) + " fields, expected " +
                                  std::to_string(columns->size()));
    AuditClaim c;
    c.source = f[0], c.id = f[1], c.family = f[2], c.status = f[3], c.detail = f[4], c.statement = f[5], c.proved = f[6];
    c.args = f[7];
    c.estimateMs = wholeNumber(f[8], "estimate_ms", lineNo);
    c.proveMs = wholeNumber(f[9], "prove_ms", lineNo);
    c.checkMs = wholeNumber(f[10], "check_ms", lineNo);
    c.checkReused = f[11] == "1";
    c.bytes = wholeNumber(f[12], "bytes", lineNo);
    c.cert = f[13], c.backing = f[14];
    if (f.size() > 15) {
      c.verified = f[15];
      c.verifiedMs = wholeNumber(f[16], "verified_ms", lineNo);
      if (!kVerified.count(c.verified))
        throw std::invalid_argument("line " + std::to_string(lineNo) + ": unknown verified '" + c.verified + "' (claim " + c.id + ")");
    }
    if (!kStatuses.count(c.status))
      throw std::invalid_argument("line " + std::to_string(lineNo) + ": unknown status '" + c.status + "' (claim " + c.id + ")");
    if (c.id.empty() || c.source.empty()) throw std::invalid_argument("line " + std::to_string(lineNo) + ": a claim without source or id");
    r.claims.push_back(std::move(c));
  }
  if (!magic) throw std::invalid_argument("not an audit results file (empty, or no #qcert-audit-results line)");
  if (!header) throw std::invalid_argument("no column line: the file ends before the claims");
  // Sources named by claims but not by a #source line still get a section.
  for (const AuditClaim& c : r.claims)
    if (std::none_of(r.sources.begin(), r.sources.end(), [&](const AuditSource& s) { return s.name == c.source; }))
      r.sources.push_back({c.source, "", ""});
  return r;
}

// ---- the n = 16 reply table (qcert replies --tsv) --------------------------------------

ReplyTableFile readReplyTableFile(std::istream& in) {
  ReplyTableFile t;
  const Geometry geo = queensGeometry(16);
  std::string line;
  int lineNo = 0;
  bool magic = false, header = false, board = false;
  std::set<int> seen;
  auto bad = [&](const std::string& why) { return std::invalid_argument("line " + std::to_string(lineNo) + ": " + why); };
  auto square = [&](const std::string& name, const char* what) {
    const auto s = name.rfind("heap-", 0) == 0 ? std::nullopt : geo.parseSquare(name);
    if (!s) throw bad(std::string(what) + " '" + name + "' is not a square of the 16x16 board");
    return *s;
  };
  while (std::getline(in, line)) {
    ++lineNo;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    const std::vector<std::string> f = splitTabs(line);
    if (!magic) {
      if (f.size() != 2 || f[0] != "#qcert-replies" || f[1] != "1")
        throw std::invalid_argument("not a reply table of this version (the first line must be #qcert-replies<TAB>1; qcert replies FILE --tsv writes one)");
      magic = true;
      continue;
    }
    if (line[0] == '#') {
      if (header) throw bad("a '#' line after the column line");
      if (f[0] == "#claim" && f.size() == 2) {
        t.claim = f[1];
        const std::string game = " (queens game)";  // the checker's words end so
        if (t.claim.size() > game.size() && t.claim.compare(t.claim.size() - game.size(), game.size(), game) == 0)
          t.claim.resize(t.claim.size() - game.size());
      }
      else if (f[0] == "#cert" && f.size() == 2) t.cert = f[1];
      else if (f[0] == "#board") {
        if (f.size() != 2 || f[1] != "16x16") throw bad("the table is not of the empty 16x16 board (#board " + line.substr(7) + ")");
        board = true;
      } else if (f[0] == "#first") throw bad("the winner moves first here: not the n = 16 table, where the second player wins");
      continue;  // other '#' lines: comments
    }
    if (!header) {
      if (f != std::vector<std::string>{"move", "reply", "half_turn", "from"}) throw bad("the column names are not move, reply, half_turn, from");
      if (!board) throw bad("no #board line before the columns");
      if (t.claim != "second player wins on the empty 16x16 board")
        throw bad("the claim is not 'second player wins on the empty 16x16 board': '" + t.claim + "'");
      if (t.cert.empty()) throw bad("no #cert line before the columns");
      header = true;
      continue;
    }
    if (f.size() != 4) throw bad(std::to_string(f.size()) + " fields, expected 4 (move, reply, half_turn, from)");
    ReplyTableRow row;
    row.move = square(f[0], "move");
    const int r = row.move / 16, c = row.move % 16;
    if (!(r <= c && c <= 7)) throw bad("move " + f[0] + " is not in Jenrich's triangle (0-based row <= column <= 7)");
    if (!seen.insert(row.move).second) throw bad("move " + f[0] + " twice");
    if (f[3] != "certificate" && f[3] != "on-the-spot" && f[3] != "none") throw bad("from is not certificate, on-the-spot or none: '" + f[3] + "'");
    row.from = f[3];
    if ((f[1] == "-") != (f[3] == "none")) throw bad("reply '-' goes with from 'none', and only with it");
    if (f[1] != "-") row.reply = square(f[1], "reply");
    if (f[2] != "0" && f[2] != "1") throw bad("half_turn is not 0 or 1: '" + f[2] + "'");
    row.halfTurn = f[2] == "1";
    if (row.halfTurn != (row.reply == 255 - row.move)) throw bad("half_turn " + f[2] + " does not match " + f[0] + " and " + f[1]);
    t.rows.push_back(row);
  }
  if (!magic) throw std::invalid_argument("not a reply table (empty; qcert replies FILE --tsv writes one)");
  if (!header) throw std::invalid_argument("no column line: the file ends before the replies");
  return t;
}

}  // namespace qcert::ui
