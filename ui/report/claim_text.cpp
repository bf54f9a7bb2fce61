#include "ui/report/claim_text.hpp"

#include <algorithm>
#include <cstdio>

namespace qcert::ui::report {
namespace {

bool fromShipped(const AuditClaim& c) { return c.status == "certified" && c.detail == "shipped"; }

// The claim's certificate is (or would be) one shipped in certs/ (the run's
// AUDIT_CERTS), not proved in this run.
bool fromCerts(const AuditResults& r, const AuditClaim& c) {
  return !c.cert.empty() && c.proveMs < 0 && c.cert.rfind(runValue(r, "certs", "certs") + "/", 0) == 0;
}

}  // namespace

std::string seconds(long long ms) {
  if (ms < 0) return "-";
  char buf[32];
  if (ms < 100000) std::snprintf(buf, sizeof buf, "%.2f", double(ms) / 1000);
  else std::snprintf(buf, sizeof buf, "%.0f", double(ms) / 1000);
  return buf;
}

std::string bytesText(long long b) {
  if (b < 0) return "-";
  char buf[32];
  if (b < 10000) std::snprintf(buf, sizeof buf, "%lld B", b);
  else if (b < 999500) std::snprintf(buf, sizeof buf, "%.1f KB", double(b) / 1e3);
  else std::snprintf(buf, sizeof buf, "%.1f MB", double(b) / 1e6);
  return buf;
}

std::string duration(long long ms) {
  const long long s = std::max(1LL, (ms + 500) / 1000);
  std::string t;
  if (s < 60) t = std::to_string(s) + " s";
  else if (s < 3600) t = std::to_string(s / 60) + " min" + (s % 60 ? " " + std::to_string(s % 60) + " s" : "");
  else if (s < 172800) t = std::to_string((s + 1800) / 3600) + " h";
  else if (s < 63072000) t = std::to_string((s + 43200) / 86400) + " days";
  else t = std::to_string((s + 15778800) / 31557600) + " years";
  return "about " + t;
}

bool summedNotRun(const AuditClaim& c) {
  return c.status == "not-run" && (c.detail == "over budget" || c.detail.rfind("not in the quick selection (", 0) == 0);
}

std::string statusWord(const std::string& status) {
  if (status == "certified") return "certified";
  if (status == "refuted") return "REFUTED";
  if (status == "lemma") return "lemma";
  if (status == "not-run") return "not run";
  return "FAILED";
}

std::string runValue(const AuditResults& r, const std::string& key, const std::string& otherwise) {
  const auto it = r.run.find(key);
  return it == r.run.end() || it->second.empty() ? otherwise : it->second;
}

std::string proveColumn(const AuditResults& r, const AuditClaim& c) {
  if (c.detail == "shipped" || (c.status == "not-run" && fromCerts(r, c))) return "shipped";
  if (c.detail.rfind("proved for ", 0) == 0) return "(" + seconds(c.proveMs) + ")";
  return seconds(c.proveMs);
}

std::string checkColumn(const AuditClaim& c) {
  if (c.checkMs < 0) return "-";
  return c.checkReused ? "(" + seconds(c.checkMs) + ")" : seconds(c.checkMs);
}

std::string reproduce(const AuditResults& r, const AuditClaim& c) {
  if (c.args == "-" || c.args.empty()) return "";
  const std::string prover = r.run.count("prover") ? r.run.at("prover") : "build/bin/prover";
  const std::string checker = r.run.count("checker") ? r.run.at("checker") : "build/bin/checker";
  if (fromCerts(r, c)) return checker + " " + c.cert;  // a check of minutes, not a proof of hours
  return prover + " " + c.args + " --out " + c.id + ".qcert && " + checker + " " + c.id + ".qcert";
}

std::string refutationText(const AuditClaim& c) {
  if (c.detail.rfind("impossible: ", 0) == 0)
    return "published \"" + c.statement + "\" is impossible: " + c.detail.substr(12) +
           " (a rule every true count obeys; prover table-check)";
  return "published \"" + c.statement + "\"; the checker verified instead: \"" + c.proved + "\"";
}

std::string verifiedMark(const AuditClaim& c) { return c.status == "certified" && c.verified == "verified" ? "+Coq" : ""; }

std::string verifiedText(const AuditClaim& c) {
  const std::string t = c.verifiedMs >= 0 ? " (" + seconds(c.verifiedMs) + " s)" : "";
  if (c.verified == "verified") return "also verified by the Coq-proved checker" + t;
  if (c.verified == "skipped") return "Coq-proved checker: not run (over its time)";
  if (c.verified == "stopped") return "Coq-proved checker: stopped at its time limit" + t;
  if (c.verified == "rejected") return "the Coq-proved checker REJECTED this certificate" + t;
  if (c.verified == "undecided") return "the Coq-proved checker did not decide (exit 2)" + t;
  if (c.verified == "other") return "the Coq-proved checker verified another statement" + t;
  return "";
}

std::string verifiedSummary(const AuditResults& r) {
  const auto it = r.run.find("verified_checker");
  if (it == r.run.end()) return "";  // format 2
  if (it->second.empty() || it->second == "-")
    return "The Coq-proved checker (checker-verified, docs/verified-checker.md) was not built or not used in this run: no claim "
           "is marked.";
  int scope = 0, checked = 0, verified = 0, stopped = 0, rejected = 0, undecided = 0, other = 0;
  for (const AuditClaim& c : r.claims) {
    if (c.verified.empty() || c.verified == "-") continue;
    ++scope;
    checked += c.verified != "skipped";
    verified += c.verified == "verified", stopped += c.verified == "stopped", rejected += c.verified == "rejected";
    undecided += c.verified == "undecided", other += c.verified == "other";
  }
  std::string s = "Of the " + std::to_string(scope) + " claims (of " + std::to_string(r.claims.size()) +
                  " in all) that the checker verified in the scope of the Coq-proved checker (" + it->second +
                  ", docs/verified-checker.md: queens game, square board or torus up to 22x22, outcome or Grundy value, a certificate or a "
                  "manifest of them; and tables of parts of a Grundy value of an empty board, any piece), it checked " + std::to_string(checked) + " again: " + std::to_string(verified) +
                  " verified too (+Coq)";
  if (stopped) s += ", " + std::to_string(stopped) + " stopped at its time limit";
  if (rejected) s += ", " + std::to_string(rejected) + " REJECTED";
  if (other) s += ", " + std::to_string(other) + " verified another statement";
  if (undecided) s += ", " + std::to_string(undecided) + " not decided";
  if (scope > checked) s += "; " + std::to_string(scope - checked) + " not run for want of its time";
  const std::string spent = runValue(r, "verified_spent", "");
  s += " (its budget: " + runValue(r, "verified_budget") + " s, at most " + runValue(r, "verified_cap") + " s a claim" +
       (spent.empty() ? "" : "; it ran " + seconds(std::stoll("0" + spent)) + " s") + ").";
  return s;
}

std::string noteText(const AuditResults& r, const AuditClaim& c) {
  if (c.verified == "rejected" || c.verified == "other" || c.verified == "undecided") {
    const std::string v = verifiedText(c) + (c.cert.empty() ? "" : ": run " + runValue(r, "verified_checker", "checker-verified") + " " + c.cert);
    if (c.status == "certified") return v;
    if (c.status == "refuted") return refutationText(c) + "; " + v;
  }
  if (c.status == "refuted" && c.verified == "verified") return refutationText(c) + "; the Coq-proved checker verified it too";
  if (c.status == "lemma") return "lemma: " + c.detail;
  if (c.status == "failed") return "FAILED: " + c.detail + (c.cert.empty() ? "" : " (certificate " + c.cert + ")");
  if (c.status == "refuted") return refutationText(c);
  if (c.status == "not-run") {
    if (summedNotRun(c)) return "";
    std::string s = c.detail;
    if (c.detail.find(" check it with ") != std::string::npos) return s;  // the command and its time are in it
    if (c.estimateMs >= 0) s += " (estimated " + duration(c.estimateMs) + ")";
    const std::string cmd = reproduce(r, c);
    if (!cmd.empty()) s += "; run: " + cmd;
    return s;
  }
  return "";
}

void Totals::add(const AuditClaim& c) {
  ++claims;
  if (c.status == "certified") ++certified, ++(fromShipped(c) ? shipped : proved);
  else if (c.status == "refuted") ++refuted;
  else if (c.status == "lemma") ++lemma;
  else if (c.status == "not-run") ++notRun, overBudget += c.detail.rfind("over budget", 0) == 0;
  else ++failed;
}

std::string Totals::brief() const {
  std::string s = std::to_string(certified) + " certified";
  if (refuted) s += ", " + std::to_string(refuted) + " REFUTED";
  if (lemma) s += ", " + std::to_string(lemma) + " lemma" + (lemma == 1 ? "" : "s");
  if (notRun) s += ", " + std::to_string(notRun) + " not run";
  if (failed) s += ", " + std::to_string(failed) + " FAILED";
  return s;
}

}  // namespace qcert::ui::report
