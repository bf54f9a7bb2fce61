#include "ui/checker_run.hpp"

#include <algorithm>
#include <sstream>

#include "ui/certified.hpp"
#include "checker/checker.hpp"

namespace qcert::ui {

std::string verifiedStatement(const std::string& path, unsigned jobs, double timeLimitSeconds,
                              const checker::ReplyObserver* observer, bool progress) {
  checker::CheckOptions options;
  options.path = path;
  options.quiet = true;
  options.jobs = std::max(1u, jobs);
  options.timeLimitSeconds = timeLimitSeconds;
  options.observer = observer;
  options.progress = progress;
  std::ostringstream err;  // quiet: nothing is written there
  const checker::Verdict verdict = checker::check(options, err);
  if (verdict.kind != checker::Verdict::Kind::Verified) {
    const std::string why = verdict.kind == checker::Verdict::Kind::Unread ? verdict.reason : verdict.line();
    throw CertificateError(verdict.exitStatus() == 1 ? 1 : 2, why.empty() ? "the checker did not verify it" : why);
  }
  return verdict.statement;
}

std::vector<int> loserMovesInCheckerOrder(const checker::Geometry<8>& geo, const checker::Bits<8>& L, uint32_t heap) {
  std::vector<checker::Bits<8>> images(geo.sym.size());
  geo.images(L, images.data());
  std::vector<size_t> stabiliser;
  for (size_t g = 0; g < geo.sym.size(); ++g)
    if (images[g] == L) stabiliser.push_back(g);
  std::vector<int> moves;
  L.forEach([&](unsigned v) {
    for (size_t g : stabiliser)
      if (geo.sym[g][v] < v) return;
    moves.push_back(int(v));
  });
  for (uint32_t h = 0; h < heap; ++h) moves.push_back(-1 - int(h));
  return moves;
}

}  // namespace qcert::ui
