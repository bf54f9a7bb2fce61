// `qcert report`'s terminal table (ui/report.hpp, auditTable): a heading,
// one section per source with its claims grouped into rows, the notes, the
// claims not run summed by source and family, a legend, the totals, and the
// refutations and failures in full.
#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>
#include <utility>

#include "ui/analysis.hpp"
#include "ui/report.hpp"
#include "ui/report/claim_text.hpp"
#include "ui/report/text.hpp"

namespace qcert::ui {
namespace {

using namespace report;

std::string trimRight(std::string s) {
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

class Table {
 public:
  Table(const AuditResults& r, int widthIn) : r_(r), width_(size_t(std::max(widthIn, 72))) {
    for (const AuditClaim& c : r.claims) all_.add(c);
    spentS_ = r.run.count("spent") ? seconds(std::stoll("0" + r.run.at("spent"))) : "?";
  }

  std::string write(const std::string& htmlPath) {
    heading();
    for (const AuditSource& src : r_.sources) source(src);
    notes();
    notRunSums();
    legend();
    totals(htmlPath);
    return out_.str();
  }

 private:
  // Columns: status, claim, prove s, check s, cert.
  static constexpr size_t wStatus = 13, wProve = 7, wCheck = 7, wCert = 8, indent = 2;

  const AuditResults& r_;
  const size_t width_;
  const size_t wClaim_ = width_ - indent - wStatus - 2 - 2 - wProve - 2 - wCheck - 2 - wCert;
  std::ostringstream out_;
  Totals all_;
  std::string spentS_;
  std::vector<std::pair<size_t, std::string>> notes_;  // claim index, note

  // The run in a sentence: claims, sources, time spent of the budget, the machine.
  void heading() {
    std::string machine = runValue(r_, "cores") + " cores";
    if (r_.run.count("jobs")) machine += ", " + runValue(r_, "jobs") + " jobs at a time";
    // The slowdown (percent) the audit measured: wall x threads / CPU time of its jobs.
    const long long slowdown = r_.run.count("slowdown") ? wholeNumber(r_.run.at("slowdown"), "slowdown", 0) : -1;
    if (slowdown >= 120) {
      char buf[96];
      std::snprintf(buf, sizeof buf, "; other work on the machine made its jobs %.1f times slower", double(slowdown) / 100);
      machine += buf;
    }
    // The pace (percent): wall time over estimate of its jobs of 5 s or more.
    const std::string paceText = runValue(r_, "pace", "-");
    const long long pace = paceText == "-" ? -1 : wholeNumber(paceText, "pace", 0);
    if (pace >= 130) {
      char buf[96];
      std::snprintf(buf, sizeof buf, "; its longer jobs took %.1f times their estimates", double(pace) / 100);
      machine += buf;
    }
    out_ << wrapped("", std::string(runValue(r_, "quick", "0") == "1" ? "qcert audit (quick selection): " : "qcert audit: ") +
                            std::to_string(all_.claims) + " claims from " + plural(long(r_.sources.size()), "source", "sources") + ", " +
                            spentS_ + " s of a " + runValue(r_, "budget") + " s budget (wall clock, " + machine + "), started " +
                            runValue(r_, "started") + ".",
                        width_, 2);
    out_ << wrapped("", "Legend, totals and the refutations in full are at the end.", width_, 2);
  }

  // " [k]" when the claim has a note (kept for after the table), else "".
  std::string noteFor(size_t i) {
    const std::string text = noteText(r_, r_.claims[i]);
    if (text.empty()) return std::string();
    notes_.push_back({i, text});
    return " [" + std::to_string(notes_.size()) + "]";
  }

  std::string cells(const std::string& status, const std::string& claim, const AuditClaim& c) const {
    return std::string(indent, ' ') + padRight(status, wStatus) + "  " + padRight(claim, wClaim_) + "  " +
           padLeft(proveColumn(r_, c), wProve) + "  " + padLeft(checkColumn(c), wCheck) + "  " + padLeft(bytesText(c.bytes), wCert);
  }

  // Rows for what was decided or needs a word; claims only summed as not
  // run (over budget, or left out of a quick run) are counted here and
  // summed after the notes, not listed (the HTML page lists every claim).
  void source(const AuditSource& src) {
    std::vector<size_t> mine;
    Totals t;
    int summed = 0;
    for (size_t i = 0; i < r_.claims.size(); ++i) {
      if (r_.claims[i].source != src.name) continue;
      t.add(r_.claims[i]);
      if (summedNotRun(r_.claims[i])) ++summed;
      else mine.push_back(i);
    }
    if (t.claims == 0) return;
    out_ << "\n" << std::string(width_, '=') << "\n";
    out_ << wrapped("", src.name + (src.manifest.empty() ? "" : " (" + src.manifest + ")") + ": " + std::to_string(t.claims) +
                            (t.claims == 1 ? " claim: " : " claims: ") + t.brief() +
                            (summed ? " (" + std::to_string(summed) + " of them summed under \"Not run\" below)" : ""),
                    width_, 2);
    if (mine.empty()) return;
    if (!src.about.empty()) out_ << wrapped("  ", asciiOnly(src.about), width_, 2);
    out_ << "\n"
         << trimRight(std::string(indent, ' ') + padRight("status", wStatus) + "  " + padRight("claim", wClaim_) + "  " +
                      padLeft("prove s", wProve) + "  " + padLeft("check s", wCheck) + "  " + padLeft("cert", wCert))
         << "\n";
    out_ << std::string(indent, ' ') << std::string(wStatus, '-') << "  " << std::string(wClaim_, '-') << "  "
         << std::string(wProve, '-') << "  " << std::string(wCheck, '-') << "  " << std::string(wCert, '-') << "\n";
    for (const ClaimGroup& g : groupClaims(r_, mine)) group(g);
  }

  // A group's template line, then a row per claim with the blanks' words.
  void group(const ClaimGroup& g) {
    if (!g.templateText.empty()) out_ << wrapped("  \"", asciiOnly(g.templateText) + "\"", width_, 3);
    // Each blank's column as wide as its widest word in the group.
    std::vector<size_t> colWidth;
    for (const auto& w : g.words)
      for (size_t k = 0; k < w.size(); ++k) {
        if (colWidth.size() <= k) colWidth.push_back(0);
        colWidth[k] = std::max(colWidth[k], w[k].size());
      }
    size_t aligned = 0;
    for (size_t cw : colWidth) aligned += cw + 2;
    for (size_t k = 0; k < g.claims.size(); ++k) {
      const size_t i = g.claims[k];
      const AuditClaim& c = r_.claims[i];
      std::string claimText;
      if (g.templateText.empty()) {
        claimText = shownStatement(c);
      } else if (aligned <= wClaim_ + 2) {
        for (size_t b = 0; b < g.words[k].size(); ++b)
          claimText += b + 1 < g.words[k].size() ? padRight(g.words[k][b], colWidth[b] + 2) : g.words[k][b];
      } else {
        for (const std::string& w : g.words[k]) claimText += (claimText.empty() ? "" : " ") + w;
      }
      const std::string status = statusWord(c.status) + verifiedMark(c) + noteFor(i);
      const std::vector<std::string> lines =
          g.templateText.empty() || claimText.size() > wClaim_ ? wrap(asciiOnly(claimText), wClaim_) : std::vector<std::string>{claimText};
      out_ << trimRight(cells(status, lines[0], c)) << "\n";
      for (size_t l = 1; l < lines.size(); ++l)
        out_ << std::string(indent + wStatus + 2 + 2, ' ') << asciiOnly(lines[l]) << "\n";
    }
  }

  // The notes, but refutations and failures (those are in full at the end).
  void notes() {
    out_ << "\n" << std::string(width_, '=') << "\nNotes\n";
    bool anyNote = false;
    for (size_t k = 0; k < notes_.size(); ++k) {
      const AuditClaim& c = r_.claims[notes_[k].first];
      if (c.status == "refuted" || c.status == "failed") continue;
      anyNote = true;
      out_ << wrapped("[" + std::to_string(k + 1) + "] ", asciiOnly(c.id + ": " + notes_[k].second), width_, 6);
    }
    if (!anyNote) out_ << "  (none)\n";
  }

  // What was not run for want of time, one line per source and family.
  void notRunSums() {
    struct Sum {
      int overBudget = 0, unselected = 0;
      long long estimateMs = 0;
    };
    std::vector<std::pair<std::string, Sum>> sums;  // in source order, then first appearance
    for (const AuditClaim& c : r_.claims) {
      if (!summedNotRun(c)) continue;
      const std::string key = c.source + ", " + (c.family.empty() ? "other" : c.family);
      auto it = std::find_if(sums.begin(), sums.end(), [&](const auto& e) { return e.first == key; });
      if (it == sums.end()) it = sums.insert(sums.end(), {key, Sum{}});
      ++(c.detail == "over budget" ? it->second.overBudget : it->second.unselected);
      it->second.estimateMs += std::max(0LL, c.estimateMs);
    }
    if (sums.empty()) return;
    out_ << "\n" << wrapped("", "Not run, by source and family (each claim's command: the HTML report, or the args column of the results file)", width_, 2);
    for (const auto& [key, sum] : sums) {
      std::string line = key + ": ";
      if (sum.overBudget) line += plural(sum.overBudget, "claim", "claims") + " over budget";
      if (sum.overBudget && sum.unselected) line += ", ";
      if (sum.unselected) line += plural(sum.unselected, "claim", "claims") + " not in the quick selection";
      line += " (" + duration(sum.estimateMs) + (sum.overBudget + sum.unselected == 1 ? ")" : " in all)");
      out_ << wrapped("  ", asciiOnly(line), width_, 4);
    }
  }

  void legend() {
    out_ << "\nLegend\n";
    const std::vector<std::pair<std::string, std::string>> legend = {
        {"certified", "the checker verified a certificate of exactly the published statement"},
        {"REFUTED", "the checker verified a different statement (the prover proves the truth), or the published "
                    "numbers break a rule every true count obeys; listed in full at the end"},
        {"lemma", "no certificate: a mathematical argument with property tests (its note says which)"},
        {"not run", "not decided in this run: over the time budget (AUDIT_BUDGET; summed by source and family "
                    "after the notes), or outside what qcert can certify (its note gives the reason and the command)"},
        {"FAILED", "the checker did not verify a certificate, or the prover failed: the audit exits 1"},
        {"\"... _ ...\"", "the claims below it differ only in the blanks: each row gives the words for the blanks, in order"},
        {"{72378}", "a number the source does not publish ('*' in its manifest), filled in as certified"},
        {"[n]", "see note n: after the table, or at the end for a refutation or a failure"},
        {"+Coq", "certified+Coq: the Coq-proved checker (checker-verified) verified the same certificate too"},
        {"prove s", "seconds the prover took here; shipped: checked from a certificate in certs/, not proved in this run"},
        {"check s", "seconds the checker took (it replays or recounts the whole proof)"},
        {"(0.05)", "the same certificate as an earlier row's (same prover arguments), proved or checked once; or a "
                   "manifest over its shards, checked in the same run"},
        {"cert", "bytes of the certificate, its shards included (KB = 1000 bytes)"},
    };
    for (const auto& [key, text] : legend) out_ << wrapped("  " + padRight(key, 12) + "  ", text, width_, 16);
  }

  // The totals and the time, then the refutations and the failures in full.
  void totals(const std::string& htmlPath) {
    out_ << "\n"
         << wrapped("", "Totals: " + std::to_string(all_.claims) + " claims: " + std::to_string(all_.certified) + " certified (" +
                            std::to_string(all_.proved) + " proved in this run, " + std::to_string(all_.shipped) +
                            " from shipped certificates), " + std::to_string(all_.refuted) + " refuted, " + std::to_string(all_.lemma) +
                            (all_.lemma == 1 ? " lemma, " : " lemmas, ") + std::to_string(all_.notRun) + " not run (" +
                            std::to_string(all_.overBudget) + " over budget), " + std::to_string(all_.failed) + " failed.",
                    width_, 2);
    const std::string v = verifiedSummary(r_);
    if (!v.empty()) out_ << wrapped("", v, width_, 2);
    std::string where = "Time: " + spentS_ + " s of the " + runValue(r_, "budget") + " s budget (wall clock).";
    if (!htmlPath.empty()) where += " HTML report: " + htmlPath + ".";
    out_ << wrapped("", where, width_, 2);
    out_ << "\nRefutations (" << all_.refuted << ")" << (all_.refuted ? ":" : ": none") << "\n";
    for (size_t k = 0; k < notes_.size(); ++k) {
      const AuditClaim& c = r_.claims[notes_[k].first];
      if (c.status != "refuted") continue;
      out_ << wrapped("[" + std::to_string(k + 1) + "] ", asciiOnly(c.id + " (" + c.source + "): " + notes_[k].second), width_, 6);
    }
    if (all_.failed) {
      out_ << "\nFAILED (" << all_.failed << "):\n";
      for (size_t k = 0; k < notes_.size(); ++k)
        if (r_.claims[notes_[k].first].status == "failed")
          out_ << wrapped("[" + std::to_string(k + 1) + "] ", asciiOnly(r_.claims[notes_[k].first].id + ": " + notes_[k].second), width_, 6);
    }
  }
};

}  // namespace

std::string auditTable(const AuditResults& r, int width, const std::string& htmlPath) { return Table(r, width).write(htmlPath); }

}  // namespace qcert::ui
