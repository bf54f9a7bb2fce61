#include "prover/game/request_header.hpp"

namespace qcert {

ClaimSpec claimOf(const ProveRequest& req, const std::vector<int>& queens, uint32_t heap, bool win, bool grundy) {
  ClaimSpec c{req.n, queens, heap, win, grundy, {}, Mirror::halfTurn, false};
  c.variant = requestVariant(req);
  c.mirror = req.mirror;
  return c;
}

std::string producerText(const ProveRequest& req, bool searched, bool units) {
  std::string text = "qcert prover; cutoff " + std::to_string(req.cutoff) + ", small solver " +
                     std::to_string(req.search.smallLimit) + ", zstd " + std::to_string(req.zstdLevel);
  // Named only when on, so shards made before the option keep their bytes.
  if (searched && req.search.ordering && req.search.interleaveAbove > 0)
    text += ", interleaved order above " + std::to_string(req.search.interleaveAbove) + " squares";
  // What re-proving a deterministic unit needs to give the same bytes.
  if (units && req.deterministicUnits)
    text += ", deterministic unit with a " + std::to_string(req.ttMegabytes) + " MiB table" +
            (req.nearMegabytes ? " (" + std::to_string(req.nearMegabytes) + " MiB of it near)" : "");
  return text;
}

}  // namespace qcert
