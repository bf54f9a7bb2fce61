// `prover count` (count a problem, write a count certificate) and
// `prover table-check` (consistency rules a published count must satisfy,
// applied to a statement without counting anything).
#include "prover/count/count_cli.hpp"

#include <unistd.h>

#include <boost/program_options.hpp>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <new>
#include <numeric>
#include <optional>
#include <regex>
#include <system_error>
#include <thread>

#include "prover/count/count.hpp"
#include "prover/memory.hpp"
#include "prover/options.hpp"
#include "prover/output_file.hpp"

namespace po = boost::program_options;

namespace qcert {
namespace {

const char* kCountUsage = R"(prover count: counts placements of queens and writes a count certificate.

Usage:
  prover count --problem P --n N [--holes K] [--max-queens M] [--out FILE] [options]

Problems (docs/count-certificates.md states each one exactly):
  queens   n non-attacking queens on the n x n board (1..27): solutions and
           solutions up to the 8 symmetries of the square
  nplusk   n+k queens and k holes (--holes K, 1..4), a hole blocking lines of
           attack (Dubreuil-Koehnen 2022, section 3); n 1..12
  torus    n non-attacking queens on the n x n torus (1..27)
  end      end positions of the queens game: maximal non-attacking placements,
           by number of queens (n 1..12); with --max-queens M only those with
           at most M queens (M = the fewest that leave no square free gives
           the shortest possible game)
  hp71b    the HP-71B blog's program: its solutions and its "nodes" counter (n 1..16)

The certificate splits the count into cells, one per admissible content of
the first --cell-depth rows; `checker FILE` recounts every cell (or
`checker --sample K FILE` a random sample of them).

Exit status: 0 counted (and written); 2 nothing decided: bad arguments, an
--out path that cannot be written (tried before counting), out of memory, an
internal error (one line "prover count: ..." on stderr); 3 interrupted by
SIGINT/SIGTERM (nothing is kept: a count does not resume). A count states no
claim that could be false, so it never exits 1.
)";

std::string withCommas(const std::vector<uint64_t>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s;
}

// The name of the certificate a count is writing, for the signal handler.
char gCountTmp[4096];

// A count keeps nothing partial, so a signal ends it at once (only
// async-signal-safe calls here), without a half-written certificate.
extern "C" void onCountSignal(int) {
  if (gCountTmp[0]) unlink(gCountTmp);
  static const char msg[] = "prover count: interrupted; nothing is kept (a count does not resume)\n";
  [[maybe_unused]] const ssize_t written = write(STDERR_FILENO, msg, sizeof msg - 1);
  _exit(3);
}

}  // namespace

// The checker prints the same wording after VERIFIED: (the audit compares them).
// "1 solution", "92 solutions": statements are read by people.
static std::string counted(uint64_t x, const std::string& noun) { return std::to_string(x) + " " + noun + (x == 1 ? "" : "s"); }

std::string countStatement(const CountSpec& s, const std::vector<uint64_t>& totals, const std::vector<uint64_t>& classes) {
  const std::string n = std::to_string(s.n), board = n + "x" + n;
  switch (s.problem) {
    case CountProblem::nQueens:
      return "the " + n + "-queens problem has " + counted(totals[0], "solution") + ", " + std::to_string(classes[0]) + " up to symmetry";
    case CountProblem::nPlusK:
      return "the " + n + "+" + std::to_string(s.holes) + " queens problem has " + counted(totals[0], "solution") + ", " +
             std::to_string(classes[0]) + " up to symmetry";
    case CountProblem::torus:
      return "the " + n + "-queens problem on the torus has " + counted(totals[0], "solution");
    case CountProblem::hp71b:
      return "the HP-71B program on the " + board + " board finds " + counted(totals[0], "solution") + " and examines " +
             counted(totals[1], "node");
    case CountProblem::endPositions:
      if (!s.maxQueens) {
        const uint64_t all = std::accumulate(totals.begin(), totals.end(), uint64_t{0});
        const uint64_t up = std::accumulate(classes.begin(), classes.end(), uint64_t{0});
        return "the " + board + " queens game has " + counted(all, "end position") + ", " + std::to_string(up) + " up to symmetry";
      }
      for (size_t q = 0; q < totals.size(); ++q)
        if (totals[q])
          return "at least " + counted(q, "non-attacking queen") + (q == 1 ? " is" : " are") + " needed to leave no square of the " +
                 board + " board free; with " + std::to_string(q) + ": " + counted(totals[q], "placement") + ", " +
                 std::to_string(classes[q]) + " up to symmetry";
      return "no " + std::to_string(s.maxQueens) + " or fewer non-attacking queens leave no square of the " + board + " board free";
  }
  return "";
}

namespace {

// What `prover count`'s command line asked for. The options write into the
// members: a CountArgs stays where it was made.
struct CountArgs {
  std::string problem, out;
  int progressEvery = 0;
  CountSpec spec;
  po::variables_map vm;
};

// Reads and checks the options. Returns the exit status when the run ends
// here (--help, a bad command line).
std::optional<int> parseCountArgs(int argc, char** argv, CountArgs& a) {
  std::string& problem = a.problem;
  CountSpec& spec = a.spec;
  po::variables_map& vm = a.vm;
  spec.threads = int(std::max(1u, std::thread::hardware_concurrency()));
  po::options_description opts("Options");
  opts.add_options()("help,h", "show this help")(
      "problem", po::value<std::string>(&problem), "queens, nplusk, torus, end or hp71b")(
      "n", numberOption(&spec.n, "--n", 1, 27), "board size (1..27; nplusk and end 1..12, hp71b 1..16)")(
      "holes", numberOption(&spec.holes, "--holes", 0, 4)->default_value("0"), "nplusk: k (1..4)")(
      "max-queens", numberOption(&spec.maxQueens, "--max-queens", 0, 27)->default_value("0"),
      "end: count only placements with at most this many queens (0 = no limit)")(
      "cell-depth", numberOption(&spec.depth, "--cell-depth", 0, 3), "rows per cell (0..3; default 2, hp71b 0)")(
      "jobs,j", numberOption(&spec.threads, "--jobs", 1, 1024)->default_value(std::to_string(spec.threads)),
      "threads (1..1024)")(
      "out,o", po::value<std::string>(&a.out), "write the count certificate here")("quiet,q", "print only the result line")(
      "stats", "after the result, one machine-readable line: STATS key=value ... (for scripts and benchmarks)")(
      "progress-every", numberOption(&a.progressEvery, "--progress-every", 1, 86400),
      "print a progress line (tasks done, time, time left) every this many seconds, also when stderr is not a terminal: "
      "for the log of a long count (without it, progress shows only on a terminal)")(
      "baseline", "queens only, for benchmarks: count the solutions with a plain bitwise backtracking counter that "
                  "halves the first row (one thread, totals only, no certificate)");
  try {
    refuseOptionPlaceholders(argc, argv);
    po::store(po::command_line_parser(argc, argv).options(opts).run(), vm);
    po::notify(vm);
    if (vm.count("help")) {
      std::cout << kCountUsage << "\n" << opts;
      return 0;
    }
    if (problem == "queens") spec.problem = CountProblem::nQueens;
    else if (problem == "nplusk") spec.problem = CountProblem::nPlusK;
    else if (problem == "torus") spec.problem = CountProblem::torus;
    else if (problem == "end") spec.problem = CountProblem::endPositions;
    else if (problem == "hp71b") spec.problem = CountProblem::hp71b;
    else throw std::invalid_argument(problem.empty() ? "--problem is required" : "unknown --problem '" + problem + "'");
    if (!vm.count("n")) throw std::invalid_argument("--n is required");
    if (!vm.count("cell-depth")) spec.depth = spec.problem == CountProblem::hp71b ? 0 : std::min(spec.n, 2);
    if (vm.count("baseline") && spec.problem != CountProblem::nQueens)
      throw std::invalid_argument("--baseline is for --problem queens");
    if (vm.count("quiet") && a.progressEvery > 0) throw std::invalid_argument("--quiet and --progress-every contradict each other: choose one");
    if (vm.count("quiet") && vm.count("stats")) throw std::invalid_argument("--quiet and --stats contradict each other: choose one");
  } catch (const std::exception& e) {
    std::cerr << "prover count: " << e.what() << " (see prover count --help)\n";
    return 2;
  }
  return std::nullopt;
}

}  // namespace

int runCount(int argc, char** argv) {
  CountArgs a;
  if (const std::optional<int> done = parseCountArgs(argc, argv, a)) return *done;
  const std::string &problem = a.problem, &out = a.out;
  const int progressEvery = a.progressEvery;
  CountSpec& spec = a.spec;
  const po::variables_map& vm = a.vm;
  try {
    if (vm.count("out")) checkOutputFile("--out", out);  // "--out ''" too: an unset variable must not lose the count
  } catch (const std::exception& e) {
    std::cerr << "prover count: " << e.what() << "\n";
    return 2;
  }
  if (const std::string tmp = out.empty() ? "" : temporaryPathFor(out); tmp.size() < sizeof gCountTmp)
    std::memcpy(gCountTmp, tmp.c_str(), tmp.size() + 1);
  std::signal(SIGINT, onCountSignal);
  std::signal(SIGTERM, onCountSignal);
  const bool quiet = vm.count("quiet") > 0, showProgress = progressEvery > 0 || (!quiet && isatty(STDERR_FILENO));
  const auto start = std::chrono::steady_clock::now();
  auto seconds = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  if (vm.count("baseline")) {
    uint64_t nodes = 0;
    const uint64_t solutions = countNQueensHalving(spec.n, &nodes);
    std::printf("BASELINE: the %d-queens problem has %llu solutions\n", spec.n, (unsigned long long)solutions);
    std::printf("STATS problem=queens-halving n=%d totals=%llu nodes=%llu threads=1 count_s=%.3f wall_s=%.3f peak_rss_kib=%ld\n",
                spec.n, (unsigned long long)solutions, (unsigned long long)nodes, seconds(), seconds(), peakRssKiB());
    return 0;
  }
  // Every failure past the arguments leaves nothing decided: status 2.
  auto notDone = [](const std::string& why) {
    std::cerr << "prover count: " << why << "\n";
    return 2;
  };
  CountResult result;
  double nextLine = progressEvery;  // --progress-every: when the next whole line is due
  try {
    result = countPlacements(spec, [&](size_t done, size_t all) {
      if (!showProgress) return;
      const double t = seconds();
      if (progressEvery > 0 && (t < nextLine || done == all)) return;
      while (progressEvery > 0 && nextLine <= t) nextLine += progressEvery;
      // The counters take their tasks (independent subtrees, up to 100x apart
      // in size) in a shuffled order, so the tasks done are a fair sample and
      // the time per task so far predicts the rest; until a twentieth are
      // done the sample is too small to say.
      std::string left = "estimating the time left";
      if (done * 20 >= all && t >= 1) {
        const long s = long(t / double(done) * double(all - done) + 0.5);
        left = "about " + (s < 120 ? std::to_string(s) + " s" : std::to_string((s + 30) / 60) + " min") + " left";
      }
      std::fprintf(stderr, "%s  counting: %zu of %zu search tasks done (%.0f%%), %.1f s, %s%s", progressEvery > 0 ? "" : "\r", done, all,
                   all ? 100.0 * double(done) / double(all) : 100.0, t, left.c_str(), progressEvery > 0 ? "\n" : "   ");
    });
  } catch (const std::invalid_argument& e) {
    return notDone(std::string(e.what()) + " (see prover count --help)");
  } catch (const std::bad_alloc&) {
    return notDone("not done: out of memory");
  } catch (const std::system_error& e) {
    return notDone(std::string("not done: ") + e.what());
  } catch (const std::exception& e) {
    return notDone(std::string("internal error: ") + e.what());
  }
  if (showProgress && progressEvery == 0) std::fprintf(stderr, "\r%100s\r", "");
  const double countSeconds = seconds();
  std::vector<uint64_t> totals(totalsShape(spec), 0), classes(classesShape(spec), 0);
  for (const auto& c : result.cells) {
    for (size_t j = 0; j < totals.size(); ++j) totals[j] += c.totals.at(j);
    for (size_t j = 0; j < classes.size(); ++j) classes[j] += c.classes.at(j);
  }
  uint64_t certBytes = 0;
  if (!out.empty()) {
    try {
      certBytes = writeCountCertificate(out, spec, result, "qcert prover count --problem " + problem + " --n " + std::to_string(spec.n));
    } catch (const std::bad_alloc&) {
      return notDone("not done: out of memory");
    } catch (const std::exception& e) {
      return notDone(e.what());
    }
  }
  std::printf("RESULT: %s\n", countStatement(spec, totals, classes).c_str());
  if (vm.count("stats"))
    std::printf("STATS problem=%s n=%d holes=%d max_queens=%d totals=%s classes=%s cells=%zu cell_depth=%d nodes=%llu "
                "threads=%d count_s=%.3f wall_s=%.3f peak_rss_kib=%ld cert_bytes=%llu\n",
                problem.c_str(), spec.n, spec.holes, spec.maxQueens, withCommas(totals).c_str(), withCommas(classes).c_str(),
                result.cells.size(), spec.depth, (unsigned long long)result.nodes, spec.threads, countSeconds, seconds(),
                peakRssKiB(), (unsigned long long)certBytes);
  return 0;
}

// ---- table-check -----------------------------------------------------------

namespace {

// A published number, or "*" (not published).
struct Number {
  bool known = false;
  unsigned __int128 v = 0;
};

Number parseNumber(const std::string& s) {
  Number x;
  if (s == "*") return x;
  // 36 digits fit 128 bits; no count of these problems comes near 10^36.
  if (s.size() > 36) throw std::invalid_argument("the number " + s.substr(0, 40) + "... is out of range (at most 36 digits)");
  x.known = true;
  for (char ch : s) x.v = x.v * 10 + unsigned(ch - '0');
  return x;
}

// A board size in a statement; past any board anyone counts on, and n = 0
// would divide by zero in the torus rule.
unsigned boardSize(const std::string& s) {
  if (s.size() > 4 || std::stoul(s) < 1 || std::stoul(s) > 1000)
    throw std::invalid_argument("the board size " + s.substr(0, 40) + " is out of range (1..1000)");
  return unsigned(std::stoul(s));
}

const char* kStatementForms =
    "'the N-queens problem has T solutions, C up to symmetry', "
    "'the N+K queens problem has T solutions, C up to symmetry', "
    "'the N-queens problem on the torus has T solutions', "
    "'the NxN queens game has T end positions, C up to symmetry', "
    "'at least Q non-attacking queens are needed to leave no square of the NxN board free; with Q: T placements, C "
    "up to symmetry', "
    "'the HP-71B program on the NxN board finds T solutions and examines X nodes' "
    "(a number may be '*': not published)";

// The statement as it can be quoted on one line of an error message.
std::string quoted(const std::string& s) {
  std::string q;
  for (char ch : s.substr(0, 100)) q += (unsigned char)ch < 0x20 || ch == 0x7f ? '?' : ch;
  return "'" + q + (s.size() > 100 ? "...'" : "'");
}

std::string str(unsigned __int128 v) {
  std::string s;
  do s.insert(s.begin(), char('0' + int(v % 10))), v /= 10;
  while (v);
  return s;
}

// ".125", ".25", ... for a remainder mod 8.
std::string eighths(unsigned r) {
  if (!r) return "";
  std::string d = std::to_string(r * 125);
  d = std::string(3 - d.size(), '0') + d;
  while (d.back() == '0') d.pop_back();
  return "." + d;
}

// Classes of the square's symmetry group have 1..8 members (2..8 where no
// solution can be its own mirror image), and none exist exactly when no
// solution does.
std::string classRules(const Number& t, const Number& f, unsigned minClass, const char* why) {
  if (!t.known || !f.known) return "";
  if ((t.v == 0) != (f.v == 0)) return "solutions " + str(t.v) + " but classes " + str(f.v) + ": none of one means none of the other";
  if (f.v > t.v / minClass)
    return "classes " + str(f.v) + " > solutions/" + std::to_string(minClass) + " = " + str(t.v / minClass) + ": " + why;
  if (f.v * 8 < t.v)
    return "classes " + str(f.v) + " < solutions/8 = " + str(t.v / 8) + eighths(unsigned(t.v % 8)) +
           ": a class has at most 8 members (the symmetries of the square)";
  return "";
}

}  // namespace

// Returns "" when the statement passes every rule, else why it cannot be true;
// throws std::invalid_argument for a statement of no known form (so that a
// typo is never reported CONSISTENT) or a number out of range.
std::string tableCheck(const std::string& statement) {
  std::smatch m;
  static const std::regex queens(R"(the (\d+)-queens problem has (\d+|\*) solutions?, (\d+|\*) up to symmetry)");
  static const std::regex nplusk(R"(the (\d+)\+(\d+) queens problem has (\d+|\*) solutions?, (\d+|\*) up to symmetry)");
  static const std::regex torus(R"(the (\d+)-queens problem on the torus has (\d+|\*) solutions?)");
  static const std::regex dom(R"(at least (\d+|\*) non-attacking queens? (?:is|are) needed to leave no square of the (\d+)x\2 board free; with (?:\d+|\*): (\d+|\*) placements?, (\d+|\*) up to symmetry)");
  static const std::regex ends(R"(the (\d+)x\1 queens game has (\d+|\*) end positions?, (\d+|\*) up to symmetry)");
  static const std::regex hp(R"(the HP-71B program on the (\d+)x\1 board finds (\d+|\*) solutions? and examines (\d+|\*) nodes?)");
  // std::regex matches recursively, a frame per character: a long text could
  // exhaust the stack, and no statement of these forms comes near 1000.
  if (statement.size() > 1000)
    throw std::invalid_argument("cannot parse " + quoted(statement) + " (" + std::to_string(statement.size()) +
                                " characters): expected one of " + kStatementForms);
  if (std::regex_match(statement, m, queens)) {
    const unsigned n = boardSize(m[1]);
    const Number t = parseNumber(m[2]), f = parseNumber(m[3]);
    if (t.known && n >= 2 && t.v % 2)
      return "solutions " + str(t.v) + " is odd: for n >= 2 the left-right mirror pairs the solutions (none is its own mirror image)";
    return classRules(t, f, n >= 2 ? 2 : 1,
                      "for n >= 2 no solution is its own image under a reflection, so a class has at least 2 members");
  }
  if (std::regex_match(statement, m, nplusk)) {
    boardSize(m[1]);
    return classRules(parseNumber(m[3]), parseNumber(m[4]), 1, "a class has at least 1 member");
  }
  if (std::regex_match(statement, m, torus)) {
    const unsigned n = boardSize(m[1]);
    const Number t = parseNumber(m[2]);
    if (!t.known) return "";
    if (std::gcd(n, 6u) != 1 && t.v) return "solutions " + str(t.v) + " but gcd(n, 6) = " + std::to_string(std::gcd(n, 6u)) + ": none exist unless gcd(n, 6) = 1 (Polya; Dubreuil-Koehnen 2022, Theorem 4.4)";
    if (std::gcd(n, 6u) == 1 && !t.v) return "no solutions but gcd(n, 6) = 1: i -> (i, 2i mod n) is one";
    if (t.v % n) return "solutions " + str(t.v) + " is not a multiple of n = " + std::to_string(n) + ": shifting every row by one maps solutions to solutions and fixes none";
    if (n >= 2 && t.v % (2 * n)) return "solutions " + str(t.v) + " is not a multiple of 2n: the row shifts and the column mirror c -> -c mod n act without fixed solutions";
    return "";
  }
  if (std::regex_match(statement, m, dom)) {
    const unsigned n = boardSize(m[2]);
    const Number least = parseNumber(m[1]), t = parseNumber(m[3]), f = parseNumber(m[4]);
    if (least.known && (least.v < (n - 1 + 1) / 2 || least.v > n))
      return "fewest queens " + str(least.v) + " is outside ceil((n-1)/2) .. n (a dominating set of the n x n queen graph has at least (n-1)/2 queens, Spencer; a maximal non-attacking set at most n)";
    if (t.known && !t.v) return "the count at the fewest queens is 0";
    return classRules(t, f, 1, "a class has at least 1 member");
  }
  if (std::regex_match(statement, m, ends)) {
    boardSize(m[1]);
    return classRules(parseNumber(m[2]), parseNumber(m[3]), 1, "a class has at least 1 member");
  }
  if (std::regex_match(statement, m, hp)) {
    const unsigned n = boardSize(m[1]);
    const Number x = parseNumber(m[3]);
    if (x.known && x.v % n) return "nodes " + str(x.v) + " is not a multiple of n: the program examines all n squares of a row each time it enters it";
    return "";
  }
  throw std::invalid_argument("cannot parse " + quoted(statement) + ": expected one of " + kStatementForms);
}

int runTableCheck(int argc, char** argv) {
  const std::string arg = argc == 2 ? argv[1] : "";
  if (arg == "--help" || arg == "-h") {
    std::cout << "usage: prover table-check 'STATEMENT'\n\n"
                 "Applies the consistency rules every published count must satisfy (no counting):\n"
                 "class counts between solutions/8 and solutions (solutions/2 for n-queens), n-queens\n"
                 "totals even, torus totals multiples of 2n and zero exactly when gcd(n, 6) > 1, the\n"
                 "fewest dominating queens within Spencer's bound, HP-71B nodes a multiple of n.\n\n"
                 "STATEMENT is one of the forms the checker prints after VERIFIED:\n"
                 "  the N-queens problem has T solutions, C up to symmetry\n"
                 "  the N+K queens problem has T solutions, C up to symmetry\n"
                 "  the N-queens problem on the torus has T solutions\n"
                 "  the NxN queens game has T end positions, C up to symmetry\n"
                 "  at least Q non-attacking queens are needed to leave no square of the NxN board\n"
                 "    free; with Q: T placements, C up to symmetry\n"
                 "  the HP-71B program on the NxN board finds T solutions and examines X nodes\n"
                 "'*' stands for a number the source does not publish; numbers have at most 36 digits.\n\n"
                 "Exit status: 0 CONSISTENT (the rules hold; the count itself is not checked);\n"
                 "1 'IMPOSSIBLE: reason' (the statement cannot be true); 2 nothing decided: not\n"
                 "one statement, a statement of none of these forms, a number out of range (one\n"
                 "line \"prover table-check: ...\" on stderr).\n";
    return 0;
  }
  if (argc != 2) {
    std::cerr << "prover table-check: expected one statement in quotes, got " << argc - 1
              << " arguments (see prover table-check --help)\n";
    return 2;
  }
  std::string why;
  try {
    why = tableCheck(arg);
  } catch (const std::exception& e) {  // no verdict: the statement was not understood
    std::cerr << "prover table-check: " << e.what() << "\n";
    return 2;
  }
  if (why.empty()) {
    std::printf("CONSISTENT\n");
    return 0;
  }
  std::printf("IMPOSSIBLE: %s\n", why.c_str());
  return 1;
}

}  // namespace qcert
