#include "prover/game/progress.hpp"

#include <cstdio>

#include "prover/memory.hpp"

namespace qcert {

void ProgressReporter::loop() {
  const auto start = Clock::now();
  std::unique_lock lk(m_);
  double next = every_ > 0 ? every_ : 2;
  while (!cv_.wait_for(lk, std::chrono::seconds(1), [this] { return done_; })) {
    const double t = since(start);
    if (t < next) continue;
    if (every_ > 0) next += every_;
    const uint64_t nodes = override_ ? override_() : nodes_();
    std::fprintf(stderr, "%s[%s] %.0fs  %.3g nodes  %.3g nodes/s  rss %ld MiB%s%s", every_ > 0 ? "" : "\r",
                 phase_.load(), t, double(nodes), nodes / t, peakRssKiB() / 1024, extra_ ? extra_().c_str() : "",
                 every_ > 0 ? "\n" : "   ");
    std::fflush(stderr);
    printed_ = every_ == 0;
  }
  if (printed_) std::fprintf(stderr, "\n");
}

}  // namespace qcert
