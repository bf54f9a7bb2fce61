// What `qcert report` says about a claim, in the terminal table and on the
// HTML page alike: its status word, its time and size columns, its note, the
// command that reproduces it, and the totals of a list of claims.
#pragma once
#include <string>

#include "ui/report.hpp"

namespace qcert::ui::report {

// Milliseconds as seconds: "0.05", "123.45", "1234" (from 100 s on); "-" when unknown.
std::string seconds(long long ms);
// "512 B", "12.3 KB", "4.5 MB" (KB = 1000 bytes); "-" when unknown.
std::string bytesText(long long b);
// A duration as a person reads it: "about 4 min 20 s", "about 3 h", "about 9 years".
std::string duration(long long ms);

// Claims not run only for want of time (or left out of a quick run) are
// summed by source and family after the table instead of a note each; a
// shipped certificate not checked (its detail names the checker command),
// a proof stopped at the budget's end and a claim no certificate can carry
// keep a note of their own.
bool summedNotRun(const AuditClaim& c);
// certified, REFUTED, lemma, not run, FAILED.
std::string statusWord(const std::string& status);
// The #run value of `key`, or `otherwise` when it is missing or empty.
std::string runValue(const AuditResults& r, const std::string& key, const std::string& otherwise = "?");

// The "prove s" and "check s" columns.
std::string proveColumn(const AuditResults& r, const AuditClaim& c);
std::string checkColumn(const AuditClaim& c);
// The commands that reproduce the claim (empty when it has no prover arguments).
std::string reproduce(const AuditResults& r, const AuditClaim& c);
// A refutation in full: the published statement and what was certified instead.
std::string refutationText(const AuditClaim& c);
// The claim's note (empty when it needs none).
std::string noteText(const AuditResults& r, const AuditClaim& c);

// The Coq-proved checker (checker-verified, docs/verified-checker.md): "+Coq"
// after the status of a certified claim it verified too (the terminal
// table's mark), else "".
std::string verifiedMark(const AuditClaim& c);
// What it said of one claim, for the HTML page ("also verified by the
// Coq-proved checker (0.22 s)"); "" when the claim is not in its scope.
std::string verifiedText(const AuditClaim& c);
// The run in a sentence: how many claims in its scope, how many it checked,
// what it said, its budget; or that it was not built. "" for results of
// format 2, which do not record it.
std::string verifiedSummary(const AuditResults& r);

struct Totals {
  int claims = 0, certified = 0, proved = 0, shipped = 0, refuted = 0, lemma = 0, notRun = 0, overBudget = 0, failed = 0;
  void add(const AuditClaim& c);
  // "19 certified, 2 REFUTED, 1 lemma, 4 not run, 1 FAILED" (counts of 0 left out, but certified).
  std::string brief() const;
};

}  // namespace qcert::ui::report
