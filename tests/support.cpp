#include "tests/support.hpp"

#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <bit>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <thread>

namespace qtest {

// ---------------------------------------------------------------- naive game

bool queensAttack(int n, int s, int t) {
  const int r1 = s / n, c1 = s % n, r2 = t / n, c2 = t % n;
  return r1 == r2 || c1 == c2 || r1 + c1 == r2 + c2 || r1 - c1 == r2 - c2;
}

NaiveGame NaiveGame::queens(int n) {
  if (n < 1 || n > 8) throw std::invalid_argument("NaiveGame::queens needs 1 <= n <= 8");
  std::vector<uint64_t> kill(n * n);
  for (int s = 0; s < n * n; ++s)
    for (int t = 0; t < n * n; ++t)
      if (s == t || queensAttack(n, s, t)) kill[s] |= 1ull << t;
  return NaiveGame(std::move(kill));
}

int NaiveGame::grundy(uint64_t live) {
  if (live == 0) return 0;
  if (auto it = grundyMemo_.find(live); it != grundyMemo_.end()) return it->second;
  uint64_t seen = 0;  // Grundy values of options; they are < 64 for <= 64 vertices
  for (uint64_t x = live; x; x &= x - 1) {
    const int v = std::countr_zero(x);
    seen |= 1ull << grundy(live & ~kill_[v]);
  }
  const int g = std::countr_one(seen);
  grundyMemo_.emplace(live, uint8_t(g));
  return g;
}

bool NaiveGame::wins(uint64_t live, uint32_t heap) {
  const auto key = std::make_pair(live, heap);
  if (auto it = winMemo_.find(key); it != winMemo_.end()) return it->second;
  bool win = false;
  for (uint32_t k = 0; k < heap && !win; ++k) win = !wins(live, k);
  for (uint64_t x = live; x && !win; x &= x - 1) win = !wins(live & ~kill_[std::countr_zero(x)], heap);
  winMemo_.emplace(key, win);
  return win;
}

// --------------------------------------------------------- random positions

RandomPosition randomPosition(int n, int maxQueens, std::mt19937_64& rng) {
  RandomPosition p;
  NaiveGame g = NaiveGame::queens(n);
  p.live = g.all();
  std::uniform_int_distribution<int> count(0, maxQueens);
  const int k = count(rng);
  for (int i = 0; i < k && p.live; ++i) {
    std::vector<int> options;
    for (uint64_t x = p.live; x; x &= x - 1) options.push_back(std::countr_zero(x));
    const int v = options[std::uniform_int_distribution<size_t>(0, options.size() - 1)(rng)];
    p.queens.push_back(v);
    p.live = g.after(p.live, v);
  }
  return p;
}

uint64_t testSeed(uint64_t fallback) {
  if (const char* s = std::getenv("QCERT_TEST_SEED")) return std::strtoull(s, nullptr, 0);
  return fallback;
}

// ------------------------------------------------------------- filesystem

TempDir::TempDir() {
  const char* base = std::getenv("TMPDIR");
  std::string tmpl = std::string(base && *base ? base : "/tmp") + "/qcert-test-XXXXXX";
  std::vector<char> buf(tmpl.begin(), tmpl.end());
  buf.push_back('\0');
  if (!mkdtemp(buf.data())) throw std::runtime_error("mkdtemp failed: " + std::string(std::strerror(errno)));
  path_ = buf.data();
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

std::vector<uint8_t> readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void writeFile(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  if (!out) throw std::runtime_error("cannot write " + path);
}

// ------------------------------------------------------------- subprocess

std::string RunResult::describe() const {
  std::string s;
  if (timedOut) s = "TIMED OUT";
  else if (signaled) s = "KILLED BY SIGNAL " + std::to_string(signal) + " (" + strsignal(signal) + ")";
  else s = "exit " + std::to_string(exitCode);
  return s + "\n--- stdout ---\n" + out + "--- stderr ---\n" + err;
}

namespace {
std::string slurpFd(int fd) {
  std::string s;
  lseek(fd, 0, SEEK_SET);
  char buf[4096];
  for (ssize_t got; (got = read(fd, buf, sizeof buf)) > 0;) s.append(buf, size_t(got));
  return s;
}
int anonymousFile() {
  char name[] = "/tmp/qcert-run-XXXXXX";
  int fd = mkstemp(name);
  if (fd < 0) throw std::runtime_error("mkstemp failed");
  unlink(name);
  return fd;
}
}  // namespace

RunResult runProgram(const std::vector<std::string>& argv, double timeoutSeconds) {
  const int outFd = anonymousFile(), errFd = anonymousFile();
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    const int nul = open("/dev/null", O_RDONLY);
    dup2(nul, 0);
    dup2(outFd, 1);
    dup2(errFd, 2);
    execv(args[0], args.data());
    _exit(127);
  }
  RunResult r;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeoutSeconds);
  int status = 0;
  auto pause = std::chrono::microseconds(200);
  for (;;) {
    const pid_t w = waitpid(pid, &status, WNOHANG);
    if (w == pid) break;
    if (w < 0 && errno != EINTR) throw std::runtime_error("waitpid failed");
    if (std::chrono::steady_clock::now() > deadline) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      r.timedOut = true;
      break;
    }
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds(20000));
  }
  if (!r.timedOut) {
    if (WIFSIGNALED(status)) {
      r.signaled = true;
      r.signal = WTERMSIG(status);
    } else {
      r.exitCode = WEXITSTATUS(status);
    }
  }
  r.out = slurpFd(outFd);
  r.err = slurpFd(errFd);
  close(outFd);
  close(errFd);
  return r;
}

bool startsWith(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

bool contains(const std::string& s, const std::string& what) { return s.find(what) != std::string::npos; }

std::string firstLine(const std::string& s) { return s.substr(0, s.find('\n')); }

}  // namespace qtest
