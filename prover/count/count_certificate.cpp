// The count certificate (docs/count-certificates.md): the cells a counter
// filled, serialised into a Header with `count` set, then the Seal.
#include <capnp/message.h>
#include <capnp/serialize.h>

#include "prover/count/count.hpp"
#include "prover/sealed_file.hpp"
#include "schema/qcert.capnp.h"

namespace qcert {

uint64_t writeCountCertificate(const std::string& path, const CountSpec& spec, const CountResult& result,
                               const std::string& producer) {
  capnp::MallocMessageBuilder msg;
  auto header = msg.initRoot<Header>();
  header.setFormatVersion(FORMAT_VERSION);
  auto claim = header.initCount();
  switch (spec.problem) {
    case CountProblem::nQueens: claim.setProblem(::CountProblem::N_QUEENS); break;
    case CountProblem::nPlusK: claim.setProblem(::CountProblem::N_PLUS_K); break;
    case CountProblem::torus: claim.setProblem(::CountProblem::TORUS); break;
    case CountProblem::endPositions: claim.setProblem(::CountProblem::END_POSITIONS); break;
    case CountProblem::hp71b: claim.setProblem(::CountProblem::HP71B); break;
  }
  claim.setBoardSize(uint16_t(spec.n));
  claim.setHoles(uint16_t(spec.holes));
  claim.setMaxQueens(uint16_t(spec.maxQueens));
  claim.setCellDepth(uint16_t(spec.depth));
  claim.setProducer(producer);
  std::vector<uint64_t> totals(totalsShape(spec), 0), classes(classesShape(spec), 0);
  uint64_t checksum = 0;
  auto cells = claim.initCells(unsigned(result.cells.size()));
  for (size_t i = 0; i < result.cells.size(); ++i) {
    const CountCell& c = result.cells[i];
    auto out = cells[unsigned(i)];
    auto rows = out.initRows(unsigned(c.rows.size()));
    for (size_t r = 0; r < c.rows.size(); ++r) rows.set(unsigned(r), c.rows[r]);
    auto t = out.initTotals(unsigned(c.totals.size()));
    for (size_t j = 0; j < c.totals.size(); ++j) t.set(unsigned(j), c.totals[j]), totals.at(j) += c.totals[j];
    auto k = out.initClasses(unsigned(c.classes.size()));
    for (size_t j = 0; j < c.classes.size(); ++j) k.set(unsigned(j), c.classes[j]), classes.at(j) += c.classes[j];
    out.setChecksum(c.checksum);
    checksum += c.checksum;
  }
  auto t = claim.initTotals(unsigned(totals.size()));
  for (size_t j = 0; j < totals.size(); ++j) t.set(unsigned(j), totals[j]);
  auto k = claim.initClasses(unsigned(classes.size()));
  for (size_t j = 0; j < classes.size(); ++j) k.set(unsigned(j), classes[j]);
  claim.setChecksum(checksum);
  auto words = capnp::messageToFlatArray(msg);
  return writeHeaderOnlyCertificate(path, words.asBytes().begin(), words.asBytes().size()).bytes;
}

}  // namespace qcert
