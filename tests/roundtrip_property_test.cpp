// Property-based round trips through the prover library and the checker
// binary (issue 10, item 4).  RapidCheck generates a small claim: a board of
// 1..7, up to three random legal queens placed one by one (or, one case in
// three, a half-turn symmetric position: the centre queen on odd boards, then
// pairs of a square and its image), a heap of 0..3, an outcome claim
// (whichever is true) or a Grundy claim, a cut-off K small enough that the
// certificate holds tokens, the half-turn default reply on or off.  The
// prover library proves it and writes the certificate; then
//
//   (a) the checker (a subprocess) prints exactly "VERIFIED: <statement>\n"
//       and exits 0, where the statement is the prover's own description of
//       the claim (describeClaim + " (queens game)") and also the README's
//       wording computed here from the header; the claim itself agrees with
//       the naive solver of support.hpp;
//   (b) single mutations, re-chunked and resealed with certfile's
//       setTokens/serialiseCertificate so that they pass the seal:
//         - tokens: each position replaced by 0, t-1, t+1, a random legal
//           value, an out-of-range value; a token deleted; a token inserted
//           (a random subset of at most kMaxTokenMutants per certificate);
//         - header: every HeaderModel field changed (boardSize, queens added,
//           removed or changed, heap, outcome, kind, cutoff, defaultReply,
//           replyCount, chunkCount, formatVersion, ruleset), a random pick of
//           kHeaderValuesPerField values per field;
//       each is REJECTED (exit 1) or VERIFIED (exit 0) with the statement of
//       the claim read back from the mutated file, which the naive solver
//       (not the prover) confirms true.  Exit 2/3, a signal or a timeout fail.
//       The verdict must also be the one of certfile's reference replay of
//       docs/certificate-format.md (heaps above 10^6 count as invalid, the
//       checker's documented limit);
//   (c) for some outcome claims, "win by this random move" is attempted too
//       (ProveRequest::winBy, a manifest over work units): the prover must
//       refuse it exactly when the naive solver says the move does not win,
//       and the checker must verify the manifest otherwise.
//
// Seeds: RC_PARAMS (e.g. RC_PARAMS="seed=42 max_success=200") as for every
// RapidCheck property; without a seed there, a fixed one unless
// QCERT_TEST_SEED is set.  Shrinking is off unless RC_PARAMS names noshrink
// (every case runs the checker dozens of times; a failure prints the claim,
// the mutation and keeps the mutant file).
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <sstream>

#include "tests/certfile.hpp"
#include "prover/game/prove.hpp"
#include "tests/support.hpp"

using namespace qtest;

namespace {

// About 30 checker runs per case, each ~10 ms of CPU (mostly the checker's
// start-up): ~12 s of CPU in all in a Release build.  Under AddressSanitizer
// (make test-sanitize) every checker run costs several times that: fewer cases.
#if defined(__SANITIZE_ADDRESS__)
constexpr int kCases = 12;
#else
constexpr int kCases = 32;                   // RapidCheck cases per run (RC_PARAMS max_success overrides)
#endif
constexpr size_t kMaxTokenMutants = 16;      // per certificate: a random subset when there are more
constexpr size_t kHeaderValuesPerField = 1;  // per header field and certificate: a random pick
constexpr uint64_t kDefaultSeed = 0x20d1e7;

// ------------------------------------------------------------- statistics
struct Tally {
  int cases = 0, outcomeClaims = 0, grundyClaims = 0, certsWithTokens = 0, certsWithDefaultReplies = 0;
  uint64_t tokens = 0;
  int checkerRuns = 0, tokenMutants = 0, headerMutants = 0, rejected = 0, acceptedTrue = 0;
  int winByTried = 0, winByRefused = 0, winByVerified = 0;
  std::map<std::string, int> acceptedBy;  // mutation kind -> accepted-and-true count
};
Tally& tally() {
  static Tally t;
  return t;
}

NaiveGame& naiveFor(int n) {
  static std::map<int, std::unique_ptr<NaiveGame>> games;
  auto& g = games[n];
  if (!g) g = std::make_unique<NaiveGame>(NaiveGame::queens(n));
  return *g;
}

// ------------------------------------------------- the README's wording
std::string squareWords(int n, int s) {
  const int r = s / n, c = s % n;
  return std::string(1, char('a' + c)) + std::to_string(r + 1) + " (" + std::to_string(r) + "," + std::to_string(c) + ")";
}

// "VERIFIED: <this>" for a well-formed outcome or grundy header.
std::string statementOf(const HeaderModel& h) {
  const int n = h.boardSize;
  const std::string size = std::to_string(n) + "x" + std::to_string(n);
  std::string board;
  if (h.queens.empty()) {
    board = "the empty " + size + " board";
  } else {
    board = "the " + size + " board after queens ";
    for (size_t i = 0; i < h.queens.size(); ++i) board += (i ? ", " : "") + squareWords(n, h.queens[i]);
  }
  if (h.kind == 1) return "the Grundy value of " + board + " is " + std::to_string(h.heap) + " (queens game)";
  const std::string heap = h.heap ? " with a Nim heap of " + std::to_string(h.heap) + " added" : "";
  const bool win = h.outcome == 0;
  if (h.queens.empty()) return std::string(win ? "first" : "second") + " player wins on " + board + heap + " (queens game)";
  return std::string("the player to move ") + (win ? "wins" : "loses") + " on " + board + heap + " (queens game)";
}

// Header fields a checker may accept at all (docs/certificate-format.md,
// step 2), and small enough for the naive solver.
std::string malformedHeader(const HeaderModel& h) {
  if (h.formatVersion != 1) return "formatVersion " + std::to_string(h.formatVersion);
  if (h.ruleset != 0) return "ruleset " + std::to_string(h.ruleset);
  if (h.boardSize < 1 || h.boardSize > 22) return "boardSize " + std::to_string(h.boardSize);
  if (h.cutoff > 32) return "cutoff " + std::to_string(h.cutoff);
  if (h.outcome > 1 || h.kind > 1 || h.defaultReply > 5) return "an enum out of range";
  if (h.kind == 1 && h.outcome != 1) return "a grundy claim with outcome win";
  return "";
}

// Is the claim of a well-formed header true?  By the naive solver only.
bool naiveClaimIsTrue(const HeaderModel& h) {
  const int n = h.boardSize;
  NaiveGame& g = naiveFor(n);
  uint64_t live = g.all();
  for (uint16_t q : h.queens) {
    if (q >= n * n || !(live >> q & 1)) return false;  // the root cannot be built
    live = g.after(live, q);
  }
  if (h.kind == 1) return uint32_t(g.grundy(live)) == h.heap;
  // Heaps above 64 through the Grundy value (Sprague-Grundy), below by minimax.
  const bool wins = h.heap <= 64 ? g.wins(live, h.heap) : uint32_t(g.grundy(live)) != h.heap;
  return h.outcome == 0 ? wins : !wins;
}

// ------------------------------------------------------------- one case
struct Case {
  int n = 1;
  std::vector<int> queens;
  uint64_t live = 0;
  uint32_t heap = 0;
  bool grundy = false;
  int cutoff = 0;
  bool mirror = true;
  int smallLimit = 20;
  int zstdLevel = 1;
  size_t tokensPerChunk = 0;  // for the re-chunked mutants
  int winBy = -1;             // a root move to claim a win by, or -1
  uint64_t seed = 0;          // mutant subset and random values
};

std::string describeCase(const Case& c) {
  std::ostringstream s;
  s << "n=" << c.n << " queens=";
  for (size_t i = 0; i < c.queens.size(); ++i) s << (i ? "," : "") << squareWords(c.n, c.queens[i]);
  s << " heap=" << c.heap << (c.grundy ? " grundy" : " outcome") << " cutoff=" << c.cutoff
    << (c.mirror ? " mirror" : " no-mirror") << " small=" << c.smallLimit << " zstd=" << c.zstdLevel
    << " perChunk=" << c.tokensPerChunk;
  if (c.winBy >= 0) s << " winBy=" << squareWords(c.n, c.winBy);
  return s.str();
}

// A value in [lo, hi), uniform whatever RapidCheck's current size (its
// inRange scales the range with the size, which would make the first cases
// all 1x1 boards).
template <class T>
T pick(T lo, T hi) {
  return *rc::gen::resize(100, rc::gen::inRange<T>(lo, hi));
}

std::vector<int> squaresOf(uint64_t live) {
  std::vector<int> v;
  for (uint64_t x = live; x; x &= x - 1) v.push_back(std::countr_zero(x));
  return v;
}

Case genCase() {
  Case c;
  static const int kSizes[] = {1, 2, 3, 4, 4, 5, 5, 5, 6, 6, 6, 7, 7, 7};  // larger boards hold more tokens
  c.n = kSizes[pick<size_t>(0, std::size(kSizes))];
  NaiveGame& g = naiveFor(c.n);
  c.live = g.all();
  auto play = [&](int v) {
    c.queens.push_back(v);
    c.live = g.after(c.live, v);
  };
  // One case in three is half-turn symmetric (the centre queen on odd boards,
  // then pairs v and its image), mostly without a heap: positions where the
  // mirror strategy wins, so certificates use the default reply (token 0).
  const bool symmetric = pick(0, 3) == 0;
  if (symmetric) {
    const int sq = c.n * c.n;
    if (c.n % 2 == 1 && pick(0, 2) == 1) play(sq / 2);
    const int pairs = pick(0, 3);
    for (int i = 0; i < pairs && c.live; ++i) {
      const std::vector<int> options = squaresOf(c.live);
      const int v = options[pick<size_t>(0, options.size())];
      if (v == sq - 1 - v) continue;
      play(v);
      if (!(c.live >> (sq - 1 - v) & 1)) break;
      play(sq - 1 - v);
    }
  } else {
    const int k = pick(0, 4);
    for (int i = 0; i < k && c.live; ++i) {
      const std::vector<int> options = squaresOf(c.live);
      play(options[pick<size_t>(0, options.size())]);
    }
  }
  c.grundy = pick(0, 3) == 0;
  c.heap = c.grundy || (symmetric && pick(0, 4) > 0) ? 0 : uint32_t(pick(0, 4));
  const int m = std::popcount(c.live);
  // K below the root's live count, so that most certificates hold tokens.
  c.cutoff = pick(0, std::max(1, std::min(13, m)));
  c.mirror = pick(0, 2) == 1;
  c.smallLimit = std::vector<int>{0, 8, 20}[pick(0, 3)];
  c.zstdLevel = pick(1, 4);
  c.tokensPerChunk = std::vector<size_t>{0, 1, 3, 7}[pick(0, 4)];
  if (!c.grundy && m > 0 && pick(0, 3) == 0) {
    const std::vector<int> options = squaresOf(c.live);
    c.winBy = options[pick<size_t>(0, options.size())];
  }
  c.seed = pick<uint64_t>(0, ~uint64_t(0));
  return c;
}

qcert::ProveRequest requestFor(const Case& c, const std::string& out) {
  qcert::ProveRequest req;
  req.n = c.n;
  req.queens = c.queens;
  req.heap = c.heap;
  req.grundy = c.grundy;
  req.cutoff = c.cutoff;
  req.mirrorDefault = c.mirror;
  req.search.smallLimit = c.smallLimit;
  req.ttMegabytes = 1;
  req.zstdLevel = c.zstdLevel;
  req.out = out;
  return req;
}

// Keeps a failing mutant for the report; returns where.
std::string keep(const std::vector<uint8_t>& bytes) {
  static int count = 0;
  const char* base = std::getenv("TMPDIR");
  const std::string path = std::string(base && *base ? base : "/tmp") + "/qcert-roundtrip-failure-" +
                           std::to_string(getpid()) + "-" + std::to_string(count++) + ".qc";
  try {
    writeFile(path, bytes);
  } catch (const std::exception&) {
    return "(could not keep the file)";
  }
  return path;
}

RunResult runChecker(const std::string& path) {
  ++tally().checkerRuns;
  return runProgram({kChecker, "--quiet", path}, 20);
}

// One mutant: REJECTED, or VERIFIED with the statement of its own header,
// which must be well-formed and true by the naive solver.
void judge(const Case& c, const std::string& kind, const std::string& what, const CertModel& mutant,
           const std::string& path) {
  const std::vector<uint8_t> bytes = serialiseCertificate(mutant);
  writeFile(path, bytes);
  const RunResult r = runChecker(path);
  auto fail = [&](const std::string& why) {
    RC_FAIL(why + "\n  claim: " + describeCase(c) + "\n  mutation: " + what + "\n  mutant kept at " + keep(bytes) +
            "\n  checker: " + r.describe());
  };
  if (r.timedOut || r.signaled) fail("the checker crashed or hung on a well-formed small file");
  if (r.exitCode != 0 && r.exitCode != 1)
    fail("exit status " + std::to_string(r.exitCode) + " (only 0 or 1 are verdicts)");
  // The spec's verdict: the test's own replay of docs/certificate-format.md
  // (heaps above the checker's documented limit of 10^6 count as invalid).
  CertModel parsed = parseCertificate(bytes);
  const ReplayVerdict ref = referenceReplay(parsed, 1000000);
  if (ref.ok != (r.exitCode == 0)) {
    fail(std::string("the checker and the reference replay disagree: the reference says ") +
         (ref.ok ? "valid" : "invalid (" + ref.why + ")"));
  }
  if (r.exitCode == 1) {
    if (!startsWith(r.out, "REJECTED: ")) fail("exit 1 without 'REJECTED: '");
    ++tally().rejected;
    return;
  }
  // Accepted: the claim as read back from the file.
  const HeaderModel& claimed = parsed.header;
  const std::string bad = malformedHeader(claimed);
  if (!bad.empty()) fail("the checker VERIFIED a certificate with a malformed header: " + bad);
  if (claimed.boardSize > 8) fail("test bug: an accepted claim on a board the naive solver cannot evaluate");
  if (r.out != "VERIFIED: " + statementOf(claimed) + "\n")
    fail("the checker VERIFIED another statement than the file's claim: expected 'VERIFIED: " + statementOf(claimed) + "'");
  if (!naiveClaimIsTrue(claimed)) fail("the checker VERIFIED A FALSE CLAIM (by the naive solver)");
  ++tally().acceptedTrue;
  ++tally().acceptedBy[kind];
}

// (c) the claim "the player to move wins by c.winBy".
void checkWinBy(const Case& c, const TempDir& dir) {
  NaiveGame& g = naiveFor(c.n);
  const bool wins = !g.wins(g.after(c.live, c.winBy), c.heap);  // the opponent loses after it
  qcert::ProveRequest req = requestFor(c, dir.file("winby.qc"));
  req.winBy = c.winBy;
  ++tally().winByTried;
  qcert::ProveResult res;
  try {
    res = qcert::prove(req);
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    RC_ASSERT(what.find("does not win") != std::string::npos);
    if (wins) RC_FAIL("the prover refused a true win-by claim: " + what + "\n  claim: " + describeCase(c));
    ++tally().winByRefused;
    return;
  }
  if (!wins) RC_FAIL("the prover accepted a FALSE win-by claim\n  claim: " + describeCase(c));
  RC_ASSERT(res.win);
  const RunResult r = runChecker(req.out);
  const std::string want = "VERIFIED: " + qcert::describeClaim(req, res) + " (queens game)\n";
  if (r.exitCode != 0 || r.out != want)
    RC_FAIL("the checker did not verify a true win-by manifest with '" + want + "'\n  claim: " + describeCase(c) +
            "\n  checker: " + r.describe());
  ++tally().winByVerified;
}

void roundTrip() {
  const Case c = genCase();
  Tally& t = tally();
  ++t.cases;
  NaiveGame& naive = naiveFor(c.n);
  TempDir dir;
  const qcert::ProveRequest req = requestFor(c, dir.file("claim.qc"));
  const qcert::ProveResult res = qcert::prove(req);

  // The prover's answer against the naive solver.
  if (c.grundy) {
    ++t.grundyClaims;
    RC_ASSERT(res.grundy == uint32_t(naive.grundy(c.live)));
  } else {
    ++t.outcomeClaims;
    RC_ASSERT(res.win == naive.wins(c.live, c.heap));
  }

  // The file says what was asked.
  const std::vector<uint8_t> bytes = readFile(req.out);
  const CertModel model = parseCertificate(bytes);
  const HeaderModel& H = model.header;
  RC_ASSERT(serialiseCertificate(model) == bytes);
  RC_ASSERT(H.formatVersion == 1u);
  RC_ASSERT(H.boardSize == uint16_t(c.n));
  RC_ASSERT(std::vector<int>(H.queens.begin(), H.queens.end()) == c.queens);
  RC_ASSERT(H.heap == (c.grundy ? res.grundy : c.heap));
  RC_ASSERT(H.kind == uint16_t(c.grundy ? 1 : 0));
  RC_ASSERT(H.outcome == uint16_t(res.win ? 0 : 1));
  RC_ASSERT(H.cutoff == uint16_t(c.cutoff));
  RC_ASSERT(H.defaultReply == uint16_t(c.mirror ? 1 : 0));
  const std::vector<uint32_t> tokens = allTokens(model);
  const ReplayVerdict ref = referenceReplay(model);
  RC_ASSERT(ref.ok);
  RC_ASSERT(ref.sites.size() == tokens.size());
  t.tokens += tokens.size();
  t.certsWithTokens += !tokens.empty();
  t.certsWithDefaultReplies += std::count(tokens.begin(), tokens.end(), 0u) > 0;

  // (a) VERIFIED with exactly the prover's statement, which is also the
  // README's wording of the header's claim.
  const std::string statement = qcert::describeClaim(req, res) + " (queens game)";
  RC_ASSERT(statement == statementOf(H));
  {
    const RunResult r = runChecker(req.out);
    if (r.exitCode != 0 || r.out != "VERIFIED: " + statement + "\n")
      RC_FAIL("the prover's certificate does not verify as 'VERIFIED: " + statement + "'\n  claim: " + describeCase(c) +
              "\n  checker: " + r.describe());
  }
  const std::string path = dir.file("mutant.qc");
  if (c.tokensPerChunk) {  // positive control: the same tokens in other chunks
    CertModel m = model;
    setTokens(m, tokens, c.tokensPerChunk);
    writeFile(path, serialiseCertificate(m));
    const RunResult r = runChecker(path);
    if (r.exitCode != 0 || r.out != "VERIFIED: " + statement + "\n")
      RC_FAIL("re-chunked certificate does not verify\n  claim: " + describeCase(c) + "\n  checker: " + r.describe());
  }

  std::mt19937_64 rng(c.seed);
  auto uniform = [&](uint64_t lo, uint64_t hi) { return std::uniform_int_distribution<uint64_t>(lo, hi)(rng); };

  // (b) token mutants.
  struct TokenEdit {
    std::string kind, what;
    std::vector<uint32_t> tokens;
  };
  std::vector<TokenEdit> tokenEdits;
  for (size_t i = 0; i < tokens.size(); ++i) {
    const TokenSite& s = ref.sites[i];
    const uint64_t hi = s.live.size() + uint64_t(s.heap);  // the largest legal token here
    const uint32_t tok = tokens[i];
    std::vector<std::pair<std::string, uint32_t>> values = {{"0", 0}, {"t+1", tok + 1}, {"out of range", uint32_t(hi + 1)}};
    if (tok > 0) values.push_back({"t-1", tok - 1});
    if (hi >= 1) values.push_back({"random legal", uint32_t(uniform(1, hi))});
    values.push_back({"far out of range", uint32_t(uniform(hi + 1, 0xffffffffu))});
    std::vector<uint32_t> seen = {tok};
    for (const auto& [name, v] : values) {
      if (std::find(seen.begin(), seen.end(), v) != seen.end()) continue;
      seen.push_back(v);
      auto t2 = tokens;
      t2[i] = v;
      tokenEdits.push_back({"token " + name, "token " + std::to_string(i) + ": " + std::to_string(tok) + " -> " +
                                                 std::to_string(v) + " (" + name + ", m+h = " + std::to_string(hi) + ")",
                            std::move(t2)});
    }
    auto del = tokens;
    del.erase(del.begin() + long(i));
    tokenEdits.push_back({"token deleted", "token " + std::to_string(i) + " (" + std::to_string(tok) + ") deleted", std::move(del)});
    auto ins = tokens;
    const uint32_t v = uint32_t(uniform(0, hi + 1));
    ins.insert(ins.begin() + long(i), v);
    tokenEdits.push_back({"token inserted", "token " + std::to_string(v) + " inserted before token " + std::to_string(i), std::move(ins)});
  }
  std::shuffle(tokenEdits.begin(), tokenEdits.end(), rng);
  if (tokenEdits.size() > kMaxTokenMutants) tokenEdits.resize(kMaxTokenMutants);
  for (const TokenEdit& e : tokenEdits) {
    CertModel m = model;
    setTokens(m, e.tokens, c.tokensPerChunk);
    judge(c, e.kind, e.what, m, path);
    ++t.tokenMutants;
  }

  // (b) header mutants: per field, candidate edits, of which a random few run.
  using Edit = std::pair<std::string, std::function<void(HeaderModel&)>>;
  std::vector<std::pair<std::string, std::vector<Edit>>> fields;
  const int n = c.n, sq = n * n;
  auto value = [](const char* name, uint64_t v) { return std::string(name) + " " + std::to_string(v); };
  {
    std::vector<Edit> e;
    for (int nn : {n - 1, n + 1, 0, 23, int(uniform(1, 8))})
      if (nn != n && nn >= 0) e.push_back({value("boardSize", nn), [nn](HeaderModel& h) { h.boardSize = uint16_t(nn); }});
    fields.push_back({"boardSize", std::move(e)});
  }
  {
    std::vector<Edit> add, remove, change;
    const uint16_t any = uint16_t(uniform(0, sq - 1));
    add.push_back({"queen " + squareWords(n, any) + " added", [any](HeaderModel& h) { h.queens.push_back(any); }});
    if (c.live) {
      const std::vector<int> live = squaresOf(c.live);
      const uint16_t q = uint16_t(live[uniform(0, live.size() - 1)]);
      add.push_back({"live square " + squareWords(n, q) + " added as a queen", [q](HeaderModel& h) { h.queens.push_back(q); }});
      add.push_back({"live square " + squareWords(n, q) + " added as the first queen",
                     [q](HeaderModel& h) { h.queens.insert(h.queens.begin(), q); }});
    }
    add.push_back({"queen off the board (n*n) added", [sq](HeaderModel& h) { h.queens.push_back(uint16_t(sq)); }});
    if (!c.queens.empty()) {
      const size_t i = uniform(0, c.queens.size() - 1);
      remove.push_back({"queen " + std::to_string(i) + " removed", [i](HeaderModel& h) { h.queens.erase(h.queens.begin() + long(i)); }});
      uint16_t to = uint16_t(uniform(0, sq - 1));
      if (to == c.queens[i]) to = uint16_t((to + 1) % sq);
      if (to != c.queens[i])
        change.push_back({"queen " + std::to_string(i) + " -> " + squareWords(n, to), [i, to](HeaderModel& h) { h.queens[i] = to; }});
      const uint16_t mirror = uint16_t(sq - 1 - c.queens[i]);
      if (mirror != c.queens[i])
        change.push_back({"queen " + std::to_string(i) + " -> its half-turn image", [i, mirror](HeaderModel& h) { h.queens[i] = mirror; }});
      change.push_back({"queen " + std::to_string(i) + " -> 65535", [i](HeaderModel& h) { h.queens[i] = 65535; }});
    }
    fields.push_back({"queens added", std::move(add)});
    fields.push_back({"queens removed", std::move(remove)});
    fields.push_back({"queens changed", std::move(change)});
  }
  {
    std::vector<Edit> e;
    std::vector<uint64_t> heaps = {H.heap + 1ull, uniform(0, 7), 1000000, 1000001, 0xffffffffu};
    if (H.heap > 0) heaps.push_back(H.heap - 1);
    for (uint64_t h : heaps)
      if (h != H.heap) e.push_back({value("heap", h), [h](HeaderModel& m) { m.heap = uint32_t(h); }});
    fields.push_back({"heap", std::move(e)});
  }
  fields.push_back({"outcome", {{"outcome flipped", [](HeaderModel& h) { h.outcome ^= 1; }},
                                {"outcome 2", [](HeaderModel& h) { h.outcome = 2; }}}});
  fields.push_back({"kind", {{"kind flipped", [](HeaderModel& h) { h.kind ^= 1; }},
                             {"kind flipped, outcome flipped", [](HeaderModel& h) { h.kind ^= 1; h.outcome ^= 1; }},
                             {"kind 2", [](HeaderModel& h) { h.kind = 2; }}}});
  {
    std::vector<Edit> e;
    for (uint64_t k : {uint64_t(H.cutoff) + 1, uint64_t(H.cutoff ? H.cutoff - 1 : 32), uniform(0, 32), uint64_t(33), uint64_t(65535)})
      if (k != H.cutoff) e.push_back({value("cutoff", k), [k](HeaderModel& h) { h.cutoff = uint16_t(k); }});
    fields.push_back({"cutoff", std::move(e)});
  }
  fields.push_back({"defaultReply", {{"defaultReply flipped", [](HeaderModel& h) { h.defaultReply ^= 1; }},
                                     {"defaultReply 6", [](HeaderModel& h) { h.defaultReply = 6; }}}});
  fields.push_back({"replyCount", {{"replyCount + 1", [](HeaderModel& h) { h.replyCount += 1; }},
                                   {"replyCount - 1", [](HeaderModel& h) { h.replyCount -= 1; }}}});
  fields.push_back({"chunkCount", {{"chunkCount + 1", [](HeaderModel& h) { h.chunkCount += 1; }},
                                   {"chunkCount - 1", [](HeaderModel& h) { h.chunkCount -= 1; }}}});
  fields.push_back({"formatVersion", {{"formatVersion 0", [](HeaderModel& h) { h.formatVersion = 0; }},
                                      {"formatVersion 2", [](HeaderModel& h) { h.formatVersion = 2; }}}});
  fields.push_back({"ruleset", {{"ruleset 1", [](HeaderModel& h) { h.ruleset = 1; }},
                                {"ruleset 65535", [](HeaderModel& h) { h.ruleset = 65535; }}}});
  for (auto& [field, edits] : fields) {
    std::shuffle(edits.begin(), edits.end(), rng);
    if (edits.size() > kHeaderValuesPerField) edits.resize(kHeaderValuesPerField);
    for (const auto& [what, edit] : edits) {
      CertModel m = model;
      edit(m.header);
      judge(c, field, what, m, path);
      ++t.headerMutants;
    }
  }

  // (c) win by a random move: refused exactly when it is false.
  if (c.winBy >= 0) checkWinBy(c, dir);
}

// CPU seconds of this process and its finished children so far.
double cpuSeconds() {
  double s = 0;
  for (int who : {RUSAGE_SELF, RUSAGE_CHILDREN}) {
    struct rusage ru {};
    getrusage(who, &ru);
    s += double(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) + double(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
  }
  return s;
}

// Whether RC_PARAMS sets this key.
bool rcParamsSet(const char* key) {
  const char* p = std::getenv("RC_PARAMS");
  return p && std::string(p).find(key) != std::string::npos;
}

TEST(RoundTripProperty, ProvedClaimsVerifyAndSingleMutantsAreRejectedOrTrue) {
  rc::detail::TestParams params = rc::detail::configuration().testParams;
  if (!rcParamsSet("max_success")) params.maxSuccess = kCases;
  if (!rcParamsSet("seed")) params.seed = testSeed(kDefaultSeed);
  if (!rcParamsSet("noshrink")) params.disableShrinking = true;
  rc::detail::TestMetadata meta;
  meta.id = "RoundTripProperty/ProvedClaimsVerifyAndSingleMutantsAreRejectedOrTrue";
  meta.description = "round trip: prove, check, mutate";
  tally() = Tally{};
  const auto start = std::chrono::steady_clock::now();
  const double cpu0 = cpuSeconds();
  const auto result = rc::detail::checkTestable(&roundTrip, meta, params);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double cpu = cpuSeconds() - cpu0;
  const Tally& t = tally();
  std::printf("round trips (seed %llu): %d claims (%d outcome, %d grundy; %d with tokens, %llu tokens, "
              "%d using the default reply), %d checker runs, %.2f s (%.2f s CPU with the checkers)\n"
              "  mutants: %d (%d token, %d header): %d rejected, %d accepted and true by the naive solver\n"
              "  win-by claims: %d tried, %d refused by the prover, %d verified\n  accepted-and-true by field:",
              (unsigned long long)params.seed, t.cases, t.outcomeClaims, t.grundyClaims, t.certsWithTokens,
              (unsigned long long)t.tokens, t.certsWithDefaultReplies, t.checkerRuns, secs, cpu,
              t.tokenMutants + t.headerMutants, t.tokenMutants, t.headerMutants, t.rejected, t.acceptedTrue,
              t.winByTried, t.winByRefused, t.winByVerified);
  for (const auto& [k, v] : t.acceptedBy) std::printf(" %s=%d", k.c_str(), v);
  std::printf("\n  this run again: RC_PARAMS=\"seed=%llu max_success=%d\"\n", (unsigned long long)params.seed,
              params.maxSuccess);
  if (!result.template is<rc::detail::SuccessResult>()) {
    std::ostringstream ss;
    rc::detail::printResultMessage(result, ss);
    FAIL() << ss.str();
  }
  EXPECT_EQ(t.rejected + t.acceptedTrue, t.tokenMutants + t.headerMutants);
  if (params.maxSuccess >= kCases) {
    EXPECT_GE(t.cases, kCases);
    EXPECT_GT(t.certsWithTokens, t.cases / 4) << "the cut-offs should leave tokens in most certificates";
    EXPECT_GT(t.tokenMutants, 0);
  }
}

}  // namespace
