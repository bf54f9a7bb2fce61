// The rows of `qcert report`'s terminal table: claims of one source that
// differ in a few words share a template line (ui/report.hpp, ClaimGroup).
#include <algorithm>
#include <cctype>
#include <set>
#include <stdexcept>

#include "ui/report.hpp"
#include "ui/report/text.hpp"

namespace qcert::ui {

using report::detokenize;
using report::splitWords;
using report::Token;
using report::tokenize;

std::string shownStatement(const AuditClaim& c) {
  if (c.statement.find('*') == std::string::npos || c.proved.empty()) return c.statement;
  std::vector<std::string> pub = splitWords(c.statement), got = splitWords(c.proved);
  if (pub.size() != got.size()) return c.statement;
  for (size_t i = 0; i < pub.size(); ++i) {
    const size_t star = pub[i].find('*');
    if (star == std::string::npos) continue;
    const std::string prefix = pub[i].substr(0, star), suffix = pub[i].substr(star + 1);
    const std::string& g = got[i];
    if (g.size() < prefix.size() + suffix.size() || g.compare(0, prefix.size(), prefix) != 0 ||
        g.compare(g.size() - suffix.size(), suffix.size(), suffix) != 0)
      continue;
    const std::string filled = g.substr(prefix.size(), g.size() - prefix.size() - suffix.size());
    // A number in braces; a word ending ("queen*": "queen" or "queens") as certified.
    const bool isNumber = !filled.empty() && std::all_of(filled.begin(), filled.end(), [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)); });
    pub[i] = isNumber ? prefix + "{" + filled + "}" + suffix : g;
  }
  std::string s;
  for (const std::string& w : pub) s += (s.empty() ? "" : " ") + w;
  return s;
}

std::string fillTemplate(const std::string& templateText, const std::vector<std::string>& words) {
  std::vector<Token> t = tokenize(templateText);
  size_t k = 0;
  for (Token& tok : t)
    if (tok.text == "_") {
      if (k >= words.size()) throw std::invalid_argument("fillTemplate: more blanks than words");
      tok.text = words[k++];
    }
  if (k != words.size()) throw std::invalid_argument("fillTemplate: more words than blanks");
  return detokenize(t);
}

std::vector<ClaimGroup> groupClaims(const AuditResults& r, const std::vector<size_t>& claims) {
  std::vector<ClaimGroup> groups;
  std::vector<std::vector<Token>> tokens;
  for (size_t i : claims) tokens.push_back(tokenize(shownStatement(r.claims[i])));
  // Each claim joins the first group whose statements have as many words
  // and differ from it in at most a third of them (at least 2), else starts
  // one; groups are listed in the order of their first claim, each in
  // manifest order.
  struct Open {
    std::vector<size_t> members;  // positions in `claims`
    std::set<size_t> blanks;      // word positions that differ
  };
  std::vector<Open> open;
  for (size_t k = 0; k < claims.size(); ++k) {
    bool placed = false;
    for (Open& o : open) {
      const std::vector<Token>& first = tokens[o.members[0]];
      if (tokens[k].size() != first.size()) continue;
      std::set<size_t> more = o.blanks;
      bool sameGlue = true;
      for (size_t t = 0; t < first.size(); ++t) {
        if (tokens[k][t].glued != first[t].glued) sameGlue = false;
        if (tokens[k][t].text != first[t].text) more.insert(t);
      }
      if (!sameGlue || more.size() > std::max<size_t>(2, first.size() / 3)) continue;
      o.members.push_back(k);
      o.blanks = std::move(more);
      placed = true;
      break;
    }
    if (!placed) open.push_back({{k}, {}});
  }
  for (const Open& o : open) {
    const std::vector<Token>& first = tokens[o.members[0]];
    // A template whose own words contain "_" could not be filled back, and
    // identical statements have no blanks: such claims stand alone.
    bool usable = o.members.size() >= 2 && !o.blanks.empty();
    for (size_t t = 0; usable && t < first.size(); ++t)
      if (!o.blanks.count(t) && first[t].text.find('_') != std::string::npos) usable = false;
    if (!usable) {
      for (size_t k : o.members) groups.push_back({"", {claims[k]}, {{}}});
      continue;
    }
    ClaimGroup g;
    std::vector<Token> tpl = first;
    for (size_t t : o.blanks) tpl[t].text.assign(1, '_');  // (= "_" draws a false -Wrestrict from GCC 12)
    g.templateText = detokenize(tpl);
    for (size_t k : o.members) {
      std::vector<std::string> w;
      for (size_t t : o.blanks) w.push_back(tokens[k][t].text);
      g.words.push_back(std::move(w));
      g.claims.push_back(claims[k]);
    }
    groups.push_back(std::move(g));
  }
  std::stable_sort(groups.begin(), groups.end(), [](const ClaimGroup& x, const ClaimGroup& y) { return x.claims[0] < y.claims[0]; });
  return groups;
}

}  // namespace qcert::ui
