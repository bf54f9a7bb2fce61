// `qcert report`'s HTML page (ui/report.hpp, auditHtml): one self-contained
// file, inline SVG boards, no scripts and nothing loaded from elsewhere.
// Sections: the summary, refutations and legend; Noon's Figure 6.0 from the
// certified claims (or proved on the spot); the odd-n mirror strategy; the
// n = 16 reply table; the positions of the other games; every claim by source.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>

#include <capnp/serialize.h>

#include "checker/certificate_file.hpp"
#include "prover/geometry.hpp"
#include "prover/mod2/mod2.hpp"
#include "ui/analysis.hpp"
#include "ui/report.hpp"
#include "ui/report/claim_text.hpp"
#include "ui/report/svg.hpp"
#include "ui/report/text.hpp"
#include "schema/qcert.capnp.h"

namespace qcert::ui {
namespace {

using namespace report;

// The prover arguments of a claim as a position of the queens game or a
// variant: the board, holes, and pieces (--queens, then --win-by).
struct ArgPosition {
  Variant variant;
  std::vector<std::string> pieces;  // square names
  std::string holes;
};
std::optional<ArgPosition> positionOf(const std::string& args) {
  const std::vector<std::string> a = splitWords(args);
  if (a.empty() || (a[0] != "prove" && a[0] != "grundy")) return std::nullopt;
  ArgPosition p;
  int n = 0;
  std::string board = "square", queens, winBy;
  for (size_t i = 1; i + 1 < a.size(); ++i) {
    const std::string& k = a[i];
    const std::string& v = a[i + 1];
    if (k == "--n") n = std::atoi(v.c_str()), ++i;
    else if (k == "--board") board = v, ++i;
    else if (k == "--piece") {
      const auto piece = parsePiece(v);
      if (!piece) return std::nullopt;
      p.variant.piece = *piece, ++i;
    } else if (k == "--holes") p.holes = v, ++i;
    else if (k == "--queens") queens = v, ++i;
    else if (k == "--win-by") winBy = v, ++i;
  }
  if (board == "square" || board == "torus") {
    if (n < 1 || n > kMaxBoard) return std::nullopt;
    p.variant.rows = p.variant.cols = n;
    p.variant.torus = board == "torus";
  } else {
    int r = 0, c = 0;
    if (std::sscanf(board.c_str(), "%dx%d", &r, &c) != 2 || r < 1 || c < 1 || r > kMaxBoard || c > kMaxBoard) return std::nullopt;
    p.variant.rows = r, p.variant.cols = c;
  }
  std::stringstream qs(queens + (queens.empty() || winBy.empty() ? "" : ",") + winBy);
  for (std::string sq; std::getline(qs, sq, ',');)
    if (!sq.empty()) p.pieces.push_back(sq);
  return p;
}

// The board of a claim whose prover arguments give a position of the queens
// game or a variant (pieces or holes), as SVG; "" when they give none, or
// for a first move of Figure 6.0 (drawn there, all on one board). Throws
// when the position cannot be read.
std::string positionBoard(const AuditClaim& c, const ArgPosition& p, const std::string& boardId) {
  if (p.pieces.empty() && p.holes.empty()) return "";
  if (std::regex_match(c.args, std::regex("grundy --n [3-9] --queens [a-i][1-9]"))) return "";
  Variant v = p.variant;
  const Geometry plain = variantGeometry(v);
  if (!p.holes.empty()) v.holes = parseSquareList(plain, p.holes), std::sort(v.holes.begin(), v.holes.end());
  const Geometry geo = variantGeometry(v);
  std::vector<int> pieces;
  for (const std::string& sq : p.pieces) {
    const auto s = geo.parseSquare(sq);
    if (!s) throw std::invalid_argument(sq);
    pieces.push_back(*s);
  }
  SvgBoard b;
  b.picture = pictureOf(geo, pieces);
  if (!pieces.empty()) b.picture.squares[size_t(pieces.back())].highlight = c.args.find("--win-by") != std::string::npos;
  return svgOf(b, boardId, c.statement, v.rows > 12 ? 16 : 22);
}

// The moves of a mod-2 certificate, or none when its file cannot be read:
// for a play the prover searched for (--construction fewest-locking), which
// only the certificate records.
std::vector<int> mod2CertificateMoves(const std::string& path) {
  try {
    checker::MappedFile file(path);
    const checker::Certificate cert = checker::readCertificate(file);
    if (!cert.isMod2) return {};
    capnp::FlatArrayMessageReader reader(cert.header);
    std::vector<int> moves;
    for (const uint16_t s : reader.getRoot<Header>().getMod2().getMoves()) moves.push_back(s);
    return moves;
  } catch (...) {
    return {};
  }
}

// The board of a mod-2 play ("mod2 play --n N --construction NAME" or
// "--moves LIST", n <= 9), queens numbered in the order played; "" otherwise.
// A searched play is drawn from its certificate, and only once certified.
std::string mod2PlayBoard(const AuditClaim& c, const std::string& boardId) {
  const std::vector<std::string> a = splitWords(c.args);
  int n = 0;
  std::string construction, moves;
  for (size_t i = 2; i + 1 < a.size(); ++i) {
    if (a[i] == "--n") n = std::atoi(a[i + 1].c_str());
    if (a[i] == "--construction") construction = a[i + 1];
    if (a[i] == "--moves") moves = a[i + 1];
  }
  if (n < 1 || n > 9) return "";
  std::vector<int> order;
  if (construction == "brown-ladha-3.1") order = mod2::brownLadhaCompleteOrder(n);
  else if (construction == "brown-ladha-4.1") order = mod2::brownLadhaLockedOrder(n);
  else if (construction == "brown-ladha-4.2") order = mod2::brownLadhaEvenLockedOrder(n);
  else if (construction == "all-but-two") order = mod2::allButTwoOrder(n);
  else if (!moves.empty()) order = mod2::parseSquareList(n, moves);
  else if (construction == "fewest-locking" && c.status == "certified") order = mod2CertificateMoves(c.cert);
  if (order.empty() || *std::max_element(order.begin(), order.end()) >= n * n) return "";
  SvgBoard b;
  b.picture.rows = b.picture.cols = n;
  b.picture.squares.resize(size_t(n * n));
  b.label.assign(size_t(n * n), "");
  for (size_t k = 0; k < order.size(); ++k) {
    b.picture.squares[size_t(order[k])].mark = Mark::piece;
    b.label[size_t(order[k])] = std::to_string(k + 1);
  }
  return svgOf(b, boardId, c.statement, 24);
}

// The claim's board for "Positions of the other games", or "" when it has none.
std::string boardOfClaim(const AuditClaim& c, const std::string& boardId) {
  if (const auto p = positionOf(c.args)) return positionBoard(c, *p, boardId);
  if (c.args.rfind("mod2 play ", 0) == 0) return mod2PlayBoard(c, boardId);
  return "";
}

std::string statusClass(const std::string& status) { return "st-" + status; }

struct Html {
  const AuditResults& r;
  double secondsOnTheSpot;
  std::ostringstream o;
  Totals all;
  const ReplyTableFile* replies = nullptr;

  void head() {
    for (const AuditClaim& c : r.claims) all.add(c);
    o << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
         "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\">"
         "<title>qcert audit report</title><style>\n"
         "body{font-family:sans-serif;margin:1.5em auto;max-width:1150px;color:#212121;line-height:1.4;padding:0 1em}\n"
         "h1{font-size:1.6em}h2{border-bottom:2px solid #cfd8dc;padding-bottom:.2em;margin-top:1.6em}\n"
         "table{border-collapse:collapse;font-size:.86em;width:100%}td,th{border:1px solid #cfd8dc;padding:.2em .4em;vertical-align:top;text-align:left}\n"
         "th{background:#eceff1}td.num{text-align:right;white-space:nowrap}code{font-size:.92em;overflow-wrap:break-word}\n"
         "td.cmd code{white-space:normal}.not-run-list li{margin:.2em 0}\n"
         ".st-certified{color:#1b5e20}.st-refuted{color:#fff;background:#c62828;font-weight:bold}.st-lemma{color:#4527a0}\n"
         ".st-not-run{color:#6d4c41}.st-failed{color:#fff;background:#6a1b9a;font-weight:bold}\n"
         ".boards{display:flex;flex-wrap:wrap;gap:1.2em}figure{margin:0}figcaption{font-size:.85em;max-width:300px}\n"
         ".swatch{display:inline-block;width:1em;height:1em;border:1px solid #999;vertical-align:middle;margin:0 .2em 0 .8em}\n"
         ".hook{border:2px dashed #90a4ae;padding:.8em;background:#f5f7f8}.totals{font-size:1.05em}\n"
         "details summary{cursor:pointer;font-weight:bold}\n"
         ".coq{color:#0d47a1;font-weight:bold}.coq-not{color:#6d4c41}\n"
         "</style></head><body>\n";
    o << "<h1>qcert audit report</h1>\n";
    o << "<p id=\"summary\">" << all.claims << " claims from " << plural(long(r.sources.size()), "source", "sources") << " (<code>proofs/*.claims</code>), checked by "
      << "<code>make audit</code> on " << esc(runValue(r, "started")) << " with " << esc(runValue(r, "cores")) << " cores: "
      << esc(seconds(std::stoll("0" + runValue(r, "spent", "0")))) << " s of a " << esc(runValue(r, "budget")) << " s budget (wall clock). "
      << "Each certified claim was proved by <code>prover</code> (or read from a shipped certificate in <code>certs/</code>) and "
      << "verified by the independent <code>checker</code>; the commands below reproduce each one.</p>\n";
    o << "<p id=\"totals\" class=\"totals\"><b>Totals:</b> " << all.claims << " claims: <span class=\"st-certified\">" << all.certified
      << " certified</span> (" << all.proved << " proved in this run, " << all.shipped << " from shipped certificates), "
      << "<span class=\"" << (all.refuted ? "st-refuted" : "") << "\">" << all.refuted << " refuted</span>, " << all.lemma
      << " lemma" << (all.lemma == 1 ? "" : "s") << ", " << all.notRun << " not run (" << all.overBudget << " over budget), "
      << all.failed << " failed.</p>\n";
    if (const std::string v = verifiedSummary(r); !v.empty()) o << "<p id=\"verified-checker\">" << esc(v) << "</p>\n";
    o << "<section id=\"refutations\"><h2>Refutations (" << all.refuted << ")</h2>\n";
    if (!all.refuted) o << "<p>None: no published claim in these sources is contradicted by a certificate.</p>\n";
    else o << "<ul>\n";
    for (const AuditClaim& c : r.claims)
      if (c.status == "refuted")
        o << "<li><a href=\"#claim-" << htmlId(c.id) << "\">" << esc(c.id) << "</a> (" << esc(c.source) << "): " << esc(refutationText(c))
          << "</li>\n";
    if (all.refuted) o << "</ul>\n";
    o << "</section>\n";
    o << "<section id=\"legend\"><h2>Legend</h2><ul>"
         "<li><span class=\"st-certified\">certified</span>: the checker verified a certificate of exactly the published statement.</li>"
         "<li><span class=\"st-refuted\">REFUTED</span>: the checker verified a different statement (the prover proves the truth), "
         "or the published numbers break a rule every true count obeys.</li>"
         "<li><span class=\"st-lemma\">lemma</span>: no certificate; a mathematical argument with property tests.</li>"
         "<li><span class=\"st-not-run\">not run</span>: not decided in this run (over the time budget, or outside what qcert "
         "certifies); the command runs it.</li>"
         "<li><span class=\"st-failed\">FAILED</span>: a certificate the checker did not verify, or a prover error.</li>"
         "<li><i>also verified by the Coq-proved checker</i> under a status: <code>checker-verified</code>, the checker proved "
         "correct in Coq (docs/verified-checker.md), verified the same certificate too.</li>"
         "<li><code>{72378}</code> in a claim: a number the source does not publish (<code>*</code> in its manifest), as certified.</li>"
         "<li>Times are wall-clock seconds on this machine; <i>shipped</i>: checked from <code>certs/</code>, not proved here; "
         "a time in parentheses: the same certificate as another claim's.</li></ul></section>\n";
    o << "<nav id=\"contents\"><h2>Contents</h2><ul><li><a href=\"#figure-6-0\">Noon's Figure 6.0, n = 3..9</a></li>"
         "<li><a href=\"#mirror-strategy\">The odd-n mirror strategy</a></li>"
         "<li><a href=\"#reply-table-n16\">The n = 16 round-1 reply table</a></li>"
         "<li><a href=\"#other-games\">Positions of the other games</a></li>";
    for (const AuditSource& s : r.sources) o << "<li><a href=\"#source-" << htmlId(s.name) << "\">" << esc(s.name) << "</a></li>";
    o << "</ul></nav>\n";
  }

  const AuditClaim* certifiedWithArgs(const std::string& args) const {
    for (const AuditClaim& c : r.claims)
      if (c.status == "certified" && c.args == args) return &c;
    return nullptr;
  }

  void figure60() {
    o << "<section id=\"figure-6-0\"><h2>Noon's Figure 6.0: the value of every first move, n = 3..9</h2>\n"
         "<p>Each square shows the Grundy value of the position a first queen there leaves (0, green: the move wins). "
         "A value with a solid square comes from a claim this audit <b>certified</b> (<code>noon-F6.0-*</code>: "
         "prover, then checker), copied to the square's images under the board's symmetries; a value in a "
         "<b>dashed</b> square was <b>proved on the spot</b> by the report itself (the prover's exact search, "
         "ui/analysis; not checked by the checker), for squares with no certified claim in these results. "
         "Each caption says how many of each.</p>\n<p>";
    for (uint32_t v = 0; v <= 5; ++v) o << "<span class=\"swatch\" style=\"background:" << valueColour(v) << "\"></span>" << v;
    o << "</p>\n<div class=\"boards\">\n";
    const auto until = Clock::now() + std::chrono::milliseconds(long(secondsOnTheSpot * 1000));
    for (int n = 3; n <= 9; ++n) {
      const Geometry geo = queensGeometry(n);
      SvgBoard b;
      b.picture = pictureOf(geo, {});
      b.fill.assign(size_t(geo.squares), "");
      b.label.assign(size_t(geo.squares), "");
      b.dashed.assign(size_t(geo.squares), false);
      std::vector<std::optional<uint32_t>> value(size_t(geo.squares));
      int fromClaims = 0, onTheSpot = 0, undecided = 0;
      std::set<std::string> ids;
      for (int s = 0; s < geo.squares; ++s) {
        const AuditClaim* c = certifiedWithArgs("grundy --n " + std::to_string(n) + " --queens " + geo.squareName(s));
        if (!c) continue;
        std::smatch m;
        if (!std::regex_search(c->proved, m, std::regex(" is ([0-9]+)$"))) continue;
        ids.insert(c->id);
        for (const auto& g : geo.group) value[size_t(g[size_t(s)])] = uint32_t(std::stoul(m[1]));
      }
      std::optional<Explanation> spot;
      for (int s = 0; s < geo.squares; ++s) {
        if (!value[size_t(s)] && !spot) {
          auto solver = OnTheSpot::make(geo, 64);
          solver->setDeadline(until);
          spot = explainOnTheSpot(geo, liveAfter(geo, {}), 0, *solver);
        }
        if (value[size_t(s)]) ++fromClaims;
        else if (spot && spot->moveValue[size_t(s)]) value[size_t(s)] = spot->moveValue[size_t(s)], b.dashed[size_t(s)] = true, ++onTheSpot;
        else ++undecided;
        if (value[size_t(s)]) b.fill[size_t(s)] = valueColour(*value[size_t(s)]), b.label[size_t(s)] = std::to_string(*value[size_t(s)]);
        else b.label[size_t(s)] = "?";
      }
      std::string empty;
      if (const AuditClaim* c = certifiedWithArgs("grundy --n " + std::to_string(n)))
        empty = "G(empty " + std::to_string(n) + "x" + std::to_string(n) + ") = " + c->proved.substr(c->proved.rfind(' ') + 1) +
                " (certified, " + c->id + ")";
      else if (spot && spot->grundy)
        empty = "G(empty) = " + std::to_string(*spot->grundy) + " (proved on the spot)";
      o << "<figure>" << svgOf(b, "fig6-n" + std::to_string(n), "Figure 6.0, " + std::to_string(n) + "x" + std::to_string(n), std::clamp(270 / n, 26, 48))
        << "<figcaption><b>" << n << "&times;" << n << "</b>: " << fromClaims << " squares from certified claims ("
        << ids.size() << " claims up to symmetry), " << onTheSpot << " proved on the spot"
        << (undecided ? ", " + std::to_string(undecided) + " not decided in time (?)" : "") << ". " << esc(empty)
        << "</figcaption></figure>\n";
    }
    o << "</div></section>\n";
  }

  void mirror() {
    o << "<section id=\"mirror-strategy\"><h2>The odd-n mirror strategy</h2>\n"
         "<p>On an odd board the first player wins: queen 1 on the centre, then every queen the opponent places (2) is "
         "answered by its image under the half turn about the centre (3). The image is always free: no live square attacks "
         "its own image through the centre once the centre is taken (the mirror lemma). Shown on 7&times;7 after 1. d4 2. b3 3. f5; "
         "shaded squares are attacked.</p>\n";
    const Geometry geo = queensGeometry(7);
    const std::vector<int> pieces = {3 * 7 + 3, 2 * 7 + 1, 4 * 7 + 5};
    SvgBoard b;
    b.picture = pictureOf(geo, pieces);
    b.label.assign(size_t(geo.squares), "");
    for (size_t k = 0; k < pieces.size(); ++k) b.label[size_t(pieces[k])] = std::to_string(k + 1);
    b.picture.squares[size_t(pieces[2])].highlight = true;
    b.arrows.push_back({pieces[1], pieces[2]});
    o << "<div class=\"boards\"><figure>" << svgOf(b, "mirror-n7", "odd-n mirror strategy, 7x7", 34)
      << "<figcaption>1. d4 (centre), 2. b3, 3. f5: the reply is b3 turned half a turn about d4.</figcaption></figure></div>\n";
    o << "<p>Claims behind it in these results:</p><ul>";
    for (const AuditClaim& c : r.claims)
      if (c.id == "jenrich-odd-n" || c.id == "noon-4.1-odd-n" || (c.backing.find("mirror180") != std::string::npos))
        o << "<li><a href=\"#claim-" << htmlId(c.id) << "\">" << esc(c.id) << "</a>: " << esc(c.statement) << " &mdash; <span class=\""
          << statusClass(c.status) << "\">" << esc(statusWord(c.status)) << "</span></li>";
    o << "</ul></section>\n";
  }

  // Jenrich's round-1 table (Jenrich 2014, section 5.1) from the n = 16
  // certificate: `qcert replies CERT --tsv` verifies it with the checker
  // library and writes the replies (tools/audit.sh runs it and passes the
  // file with --replies); without the file the section says where it comes from.
  void replyTableN16() {
    const AuditClaim* n16 = nullptr;
    for (const AuditClaim& c : r.claims)
      if (c.args.rfind("prove --n 16", 0) == 0 && c.args.find("--queens") == std::string::npos && c.status == "certified") n16 = &c;
    o << "<section id=\"reply-table-n16\"" << (replies ? "" : " class=\"hook\"") << "><h2>The n = 16 round-1 reply table</h2>\n";
    if (replies) replyBoardN16();
    else
      o << "<p>Jenrich's table (Jenrich 2014, section 5.1): for each first move of player 1, up to symmetry, the answer of "
           "player 2, drawn on the board. It comes here when the n = 16 certificate is available to the report: the "
           "report reads only the audit's results file, not certificates, so the table is not drawn yet. "
           "In a terminal: <code>build/bin/qcert replies certs/rudd-n16.qcert</code> verifies the certificate and prints "
           "the table.</p>\n";
    o << "<p id=\"reply-table-n16-status\">";
    if (n16) o << "n = 16 certificate in these results: <a href=\"#claim-" << htmlId(n16->id) << "\">" << esc(n16->id) << "</a>, <code>"
               << esc(n16->cert) << "</code> (" << esc(bytesText(n16->bytes)) << "), certified.";
    else o << "No certified n = 16 certificate in these results.";
    o << "</p></section>\n";
  }

  void replyBoardN16() {
    const char* kCertFill = "#c8e6c9";
    const char* kHalfFill = "#ffcc80";
    const Geometry geo = queensGeometry(16);
    SvgBoard b;
    b.picture = pictureOf(geo, {});
    b.fill.assign(size_t(geo.squares), "");
    b.label.assign(size_t(geo.squares), "");
    b.dashed.assign(size_t(geo.squares), false);
    int triangle = 0;
    for (int row = 0; row < 8; ++row)
      for (int col = row; col < 8; ++col) b.label[size_t(row * 16 + col)] = "?", ++triangle;
    int fromCert = 0, onTheSpot = 0, undecided = triangle - int(replies->rows.size()), halfTurns = 0;
    for (const ReplyTableRow& x : replies->rows) {
      const size_t s = size_t(x.move);
      if (x.reply < 0) {
        ++undecided;
        continue;
      }
      b.label[s] = geo.squareName(x.reply);
      b.fill[s] = x.halfTurn ? kHalfFill : kCertFill;
      halfTurns += x.halfTurn;
      if (x.from == "on-the-spot") b.dashed[s] = true, ++onTheSpot;
      else ++fromCert;
    }
    o << "<p>Jenrich's table (Jenrich 2014, section 5.1): for each first move of player 1, up to symmetry, the reply of player 2 "
         "that wins, written on the square of the move. The first moves are Jenrich's triangle (0-based row &le; column "
         "&le; 7, a1 to h8): every square of the board is the image of one of them under the board's symmetries. "
         "Claim: <i>" << esc(replies->claim) << "</i>.</p>\n<p><span class=\"swatch\" style=\"background:" << kCertFill
      << "\"></span>a reply elsewhere on the board <span class=\"swatch\" style=\"background:" << kHalfFill
      << "\"></span>the reply is the half-turn image of the move (its square turned half a turn about the centre)</p>\n";
    o << "<div class=\"boards\"><figure>" << svgOf(b, "reply-board-n16", "n = 16: player 2's reply to each first move", 40)
      << "<figcaption id=\"reply-board-n16-caption\" style=\"max-width:680px\"><b>16&times;16</b>: " << replies->rows.size()
      << " first moves, " << fromCert << " replies from the certificate <code>" << esc(replies->cert)
      << "</code>, read only after the checker library verified it in full (<code>qcert replies " << esc(replies->cert)
      << " --tsv</code>, run by <code>make audit</code>)";
    if (onTheSpot)
      o << "; " << onTheSpot << " proved on the spot by the prover's exact search (dashed: positions at or below the certificate's "
           "cut-off, which the checker solves itself)";
    if (undecided) o << "; " << undecided << " not decided (?)";
    o << ". " << halfTurns << (halfTurns == 1 ? " reply is" : " replies are") << " the half-turn image of the move.</figcaption></figure></div>\n";
  }

  void otherGames() {
    o << "<section id=\"other-games\"><h2>Positions of the other games</h2>\n"
         "<p>Boards for claims whose prover arguments give a position (queens already placed, holes, a named first move), "
         "and the mod-2 game's constructions and certified plays with the fewest locking queens (read from their certificates; "
         "queens numbered in the order played), n &le; 9. Dark circles: pieces; "
         "dark crossed squares: holes; shaded: attacked.</p>\n";
    std::map<std::string, std::vector<std::string>> bySource;
    std::map<std::string, int> count;
    for (const AuditClaim& c : r.claims) {
      if (count[c.source] >= 48) continue;
      std::string svg;
      try {
        svg = boardOfClaim(c, "board-" + htmlId(c.id));
      } catch (const std::exception&) {
        continue;  // a position the drawing code cannot read: the table still has the claim
      }
      if (svg.empty()) continue;
      ++count[c.source];
      bySource[c.source].push_back("<figure>" + svg + "<figcaption><a href=\"#claim-" + htmlId(c.id) + "\">" + esc(c.id) +
                                   "</a> <span class=\"" + statusClass(c.status) + "\">" + esc(statusWord(c.status)) + "</span>: " +
                                   esc(shownStatement(c)) + "</figcaption></figure>");
    }
    if (bySource.empty()) o << "<p>No claim in these results gives a position.</p>\n";
    for (const AuditSource& s : r.sources) {
      const auto it = bySource.find(s.name);
      if (it == bySource.end()) continue;
      o << "<details open id=\"other-games-" << htmlId(s.name) << "\"><summary>" << esc(s.name) << " (" << it->second.size()
        << " boards" << (count[s.name] >= 48 ? ", the first 48" : "") << ")</summary><div class=\"boards\">\n";
      for (const std::string& f : it->second) o << f << "\n";
      o << "</div></details>\n";
    }
    o << "</section>\n";
  }

  // A command broken only between words, or after a '/' of a long path,
  // never inside an option or a number.
  static std::string command(const std::string& text) {
    std::string out;
    for (char ch : text) out += ch == '/' ? std::string("/<wbr>") : esc(std::string(1, ch));
    return out;
  }

  // The claims not run for want of time (over budget, or left out of a quick
  // run), as the terminal table sums them: one line per source, which opens
  // on each claim with its command.
  void notRunFolded(const AuditSource& s) {
    std::vector<const AuditClaim*> folded;
    long long estimateMs = 0;
    int overBudget = 0;
    for (const AuditClaim& c : r.claims)
      if (c.source == s.name && summedNotRun(c)) folded.push_back(&c), estimateMs += std::max(0LL, c.estimateMs), overBudget += c.detail == "over budget";
    if (folded.empty()) return;
    const int unselected = int(folded.size()) - overBudget;
    std::string why;
    if (overBudget) why += std::to_string(overBudget) + " over budget";
    if (overBudget && unselected) why += ", ";
    if (unselected) why += std::to_string(unselected) + " not in the quick selection";
    o << "<details class=\"not-run-list\" id=\"not-run-" << htmlId(s.name) << "\"><summary><span class=\"st-not-run\">not run</span>: "
      << plural(long(folded.size()), "claim", "claims") << " (" << why << "; estimated " << esc(duration(estimateMs))
      << (folded.size() == 1 ? "" : " in all") << ")</summary><ul>\n";
    for (const AuditClaim* c : folded)
      o << "<li id=\"claim-" << htmlId(c->id) << "\"><code>" << esc(c->id) << "</code>: " << esc(shownStatement(*c)) << " <small>("
        << esc(c->detail) << (c->estimateMs >= 0 ? ", estimated " + esc(duration(c->estimateMs)) : std::string()) << ")</small><br><code>"
        << command(reproduce(r, *c)) << "</code></li>\n";
    o << "</ul></details>\n";
  }

  void sources() {
    o << "<section id=\"sources\"><h2>Every claim, by source</h2>\n";
    for (const AuditSource& s : r.sources) {
      Totals t;
      for (const AuditClaim& c : r.claims)
        if (c.source == s.name) t.add(c);
      o << "<section id=\"source-" << htmlId(s.name) << "\"><h3>" << esc(s.name)
        << (s.manifest.empty() ? "" : " <small>(<code>" + esc(s.manifest) + "</code>)</small>") << "</h3>\n<p>" << esc(s.about)
        << "</p><p>" << t.claims << " claims: " << esc(t.brief()) << ".</p>\n";
      const bool rows = std::any_of(r.claims.begin(), r.claims.end(), [&](const AuditClaim& c) { return c.source == s.name && !summedNotRun(c); });
      if (rows)
        o << "<table><thead><tr><th>id</th><th>claim (as published)</th><th>status</th><th>prove s</th><th>check s</th>"
           "<th>certificate</th><th>reproduce</th></tr></thead><tbody>\n";
      for (const AuditClaim& c : r.claims) {
        if (c.source != s.name || summedNotRun(c)) continue;  // those: one folded line below the table
        std::string claim = esc(shownStatement(c));
        const std::string note = noteText(r, c);
        std::string status = statusWord(c.status);
        o << "<tr id=\"claim-" << htmlId(c.id) << "\"><td><code>" << esc(c.id) << "</code></td><td>" << claim;
        if (c.status == "refuted" || (!note.empty() && c.status != "not-run")) o << "<br><small>" << esc(note) << "</small>";
        else if (c.status == "not-run")
          o << "<br><small>" << esc(c.detail + (summedNotRun(c) && c.estimateMs >= 0 ? " (estimated " + duration(c.estimateMs) + ")" : ""))
            << "</small>";
        if (c.status == "certified" && c.detail != "proved" && c.detail != "shipped") o << "<br><small>" << esc(c.detail) << "</small>";
        o << "</td><td class=\"" << statusClass(c.status) << "\">" << esc(status);
        if (const std::string v = verifiedText(c); !v.empty())
          o << "<br><small class=\"" << (c.verified == "verified" ? "coq" : "coq-not") << "\">" << esc(v) << "</small>";
        o << "</td><td class=\"num\">" << esc(proveColumn(r, c))
          << "</td><td class=\"num\">" << esc(checkColumn(c)) << "</td><td class=\"num\">" << esc(bytesText(c.bytes))
          << "</td><td class=\"cmd\"><code>" << command(reproduce(r, c)) << "</code></td></tr>\n";
      }
      if (rows) o << "</tbody></table>\n";
      notRunFolded(s);
      o << "</section>\n";
    }
    o << "</section>\n";
  }
};

}  // namespace

std::string auditHtml(const AuditResults& r, double secondsOnTheSpot, const ReplyTableFile* replies) {
  Html h{r, secondsOnTheSpot, {}, {}, replies};
  h.head();
  h.figure60();
  h.mirror();
  h.replyTableN16();
  h.otherGames();
  h.sources();
  h.o << "<p><small>Written by <code>qcert report</code> from the audit's results file; no scripts, fonts or other files "
         "are loaded.</small></p>\n</body></html>\n";
  return h.o.str();
}

}  // namespace qcert::ui
