// `qcert report`: the audit's results (the file tools/audit.sh writes,
// out/audit/results.tsv) as a table for a terminal of 100 columns, and as
// one self-contained HTML page (inline SVG boards, no network).
//
// Results file: UTF-8 text, tab-separated. Lines starting with '#' carry the
// run ("#run\tkey=value..."), and the sources ("#source\tNAME\tMANIFEST\t
// ABOUT"); the first line is "#qcert-audit-results\t3" (the format), the
// first line not starting with '#' names the columns, then one line per claim
// in manifest order:
//   source id family status detail statement proved args estimate_ms
//   prove_ms check_ms check_reused bytes cert backing verified verified_ms
// (format 2, still read, ends at backing).
// family: the game family of the claim (queens game, variants, counting, ...).
// status: certified | refuted | lemma | not-run | failed. detail: how
// (proved, shipped, "proved for ID") or why ("over budget" alone: summed by
// source and family after the table). proved: the statement the checker
// verified (empty when none). Times in milliseconds or '-'. verified: what
// the Coq-proved checker (checker-verified) said of the same certificate:
// - (not in its scope, or not run by the audit at all), verified, skipped (in
// scope, not run: over its time), stopped (at its time limit), rejected,
// undecided (exit 2), other (VERIFIED a statement other than the checker's);
// #run verified_checker= names it ('-': not built), verified_budget= and
// verified_cap= its seconds, verified_spent= the milliseconds it ran.
#pragma once
#include <iosfwd>
#include <map>
#include <string>
#include <vector>

namespace qcert::ui {

struct AuditClaim {
  std::string source, id, family, status, detail, statement, proved, args, cert, backing;
  long long estimateMs = -1, proveMs = -1, checkMs = -1, bytes = -1;
  bool checkReused = false;
  std::string verified;  // the Coq-proved checker's verdict ("" in format 2: not recorded)
  long long verifiedMs = -1;
};

struct AuditSource {
  std::string name, manifest, about;
};

struct AuditResults {
  std::map<std::string, std::string> run;  // budget, spent (ms), started, cores, prover, checker, ...
  std::vector<AuditSource> sources;
  std::vector<AuditClaim> claims;
};

// Throws std::invalid_argument naming the line and what is wrong.
AuditResults readAuditResults(std::istream& in);

// One row of the terminal table, grouped: claims of one source that differ
// only in a few words share a template line; `words` are the words that
// fill its blanks ('_'), in order. A group of one has the whole statement.
struct ClaimGroup {
  std::string templateText;  // empty for a group of one
  std::vector<size_t> claims;  // indices into AuditResults::claims
  std::vector<std::vector<std::string>> words;  // per claim: the blanks' words
};
// The statement as the table shows it: each '*' (a number the source does
// not publish) replaced by the certified number in braces, "{72378}".
std::string shownStatement(const AuditClaim& c);
std::vector<ClaimGroup> groupClaims(const AuditResults& r, const std::vector<size_t>& claims);
// The template with its blanks filled by one claim's words (the table's
// rows must give back the shown statement exactly).
std::string fillTemplate(const std::string& templateText, const std::vector<std::string>& words);

// The terminal table: every line at most `width` columns (plain ASCII), one
// section per source, then notes, a legend, the totals and the refutations
// in full.
std::string auditTable(const AuditResults& r, int width = 100, const std::string& htmlPath = "");

// The n = 16 round-1 reply table as `qcert replies FILE --tsv` writes it
// (format: ui/replies.hpp, formatReplyTableTsv), for the HTML page. Only the
// empty 16x16 board's table (the claim "second player wins on the empty
// 16x16 board") is accepted, each move a square of Jenrich's triangle
// (0-based row <= column <= 7), each at most once, each reply a square or '-'
// (not decided, from none), half_turn agreeing with the squares.
struct ReplyTableRow {
  int move = 0;           // square index on the 16x16 board, row * 16 + column
  int reply = -1;         // -1: not decided
  bool halfTurn = false;  // the reply is the move's image under the half turn
  std::string from;       // certificate | on-the-spot | none
};
struct ReplyTableFile {
  std::string claim, cert;
  std::vector<ReplyTableRow> rows;
};
// Throws std::invalid_argument naming the line and what is wrong.
ReplyTableFile readReplyTableFile(std::istream& in);

// The HTML page. Values for Noon's Figure 6.0 come from the certified claims
// of the results where there are some, else are proved on the spot (each
// board says which); `secondsOnTheSpot` bounds that work. With `replies`,
// the n = 16 section draws them on the board; without, it says where the
// table comes from.
std::string auditHtml(const AuditResults& r, double secondsOnTheSpot = 20, const ReplyTableFile* replies = nullptr);

// qcert report --results FILE [--html FILE [--replies FILE]] [--width N]
int runReport(const std::map<std::string, std::string>& options, std::ostream& out, std::ostream& err);

}  // namespace qcert::ui
