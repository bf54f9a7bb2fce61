#include "ui/checker_run.hpp"

#include <algorithm>
#include <sstream>

#include "ui/certified.hpp"
#include "checker/check.hpp"

namespace qcert::ui {

std::string verifiedStatement(const std::string& path, unsigned jobs, double timeLimitSeconds,
                              const checker::ReplyObserver* observer) {
  checker::CheckOptions options;
  options.path = path;
  options.quiet = true;
  options.jobs = std::max(1u, jobs);
  options.timeLimitSeconds = timeLimitSeconds;
  options.observer = observer;
  std::ostringstream out, err;
  const int status = checker::runCheck(options, out, err);
  std::string verdict = out.str();
  while (!verdict.empty() && verdict.back() == '\n') verdict.pop_back();
  if (status != 0) {
    std::string why = !verdict.empty() ? verdict : err.str();
    while (!why.empty() && why.back() == '\n') why.pop_back();
    if (why.rfind("checker: ", 0) == 0) why = why.substr(9);
    throw CertificateError(status == 1 ? 1 : 2, why.empty() ? "the checker did not verify it" : why);
  }
  const std::string prefix = "VERIFIED: ";
  return verdict.rfind(prefix, 0) == 0 ? verdict.substr(prefix.size()) : verdict;
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
