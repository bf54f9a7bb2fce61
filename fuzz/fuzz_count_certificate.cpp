// Fuzz target: a count certificate (docs/count-certificates.md: a Header with
// `count` set, then a Seal).  The first byte picks the mode (byte % 3):
//   0  raw: the rest is the file;
//   1  reseal: the rest is the file without its Seal (the target appends a
//      correct one; rounded down to whole words);
//   2  structured: problem, n, holes, maxQueens, cellDepth and flags from the
//      next bytes; the cells either come from the target's own reference
//      count (every admissible prefix with its correct numbers) and are then
//      perturbed by the remaining bytes (3 bytes per edit: add to a total or
//      class count, flip a checksum, drop, repeat or swap a cell, move a row
//      bit), or are read raw from the bytes.  The claim is the cells' sum,
//      optionally off by a byte.
// The first byte's upper part (first / 3 % 4) picks the checker's options:
// 0 a full check, 1 --jobs 2, 2 --sample K --seed first, 3 --part I --of K
// (K = 1 + first / 12 % 4, I = first % K).  VERIFIED is judged against the
// reference count (n-queens and torus up to n = 8, n+k queens, end positions
// and the HP-71B program up to n = 6).
#include "fuzz/fuzz_common.hpp"
#include "schema/qcert.capnp.h"

#include <capnp/message.h>
#include <capnp/serialize.h>

#include <utility>

using namespace qfuzz;

namespace {

Bytes structured(Input in) {
  const unsigned problem = in.byte() % 5;
  const unsigned maxN[5] = {8, 6, 8, 6, 6};
  const unsigned n = 1 + in.byte() % maxN[problem];
  const uint8_t hb = in.byte(), mb = in.byte(), db = in.byte();
  // Mostly valid parameters; the top bit of each byte lets a wrong one through.
  const unsigned holes = hb & 0x80 ? hb & 7 : problem == kNPlusK ? 1 + hb % 4 : 0;
  const unsigned maxQueens = mb & 0x80 ? mb & 15 : problem == kEnd ? mb % (n + 1) : 0;
  const unsigned depth = db & 0x80 ? db & 7 : problem == kHp71b ? 0 : db % (std::min(n, 3u) + 1);
  const uint8_t flags = in.byte();

  std::vector<CellRef> cells;
  const auto ref = flags & 1 ? std::nullopt : referenceCount(problem, n, holes, maxQueens, depth);
  size_t totalsLen = problem == kEnd ? (maxQueens ? maxQueens : n) + 1 : problem == kHp71b ? 2 : 1;
  size_t classesLen = problem == kEnd ? totalsLen : problem == kNQueens || problem == kNPlusK ? 1 : 0;
  if (ref) {
    cells = ref->cells;
    while (!in.empty()) {  // edits
      const uint8_t op = in.byte(), at = in.byte(), value = in.byte();
      if (cells.empty()) break;
      CellRef& c = cells[at % cells.size()];
      switch (op % 8) {
        case 0: if (!c.totals.empty()) c.totals[value % c.totals.size()] += value / 16 + 1; break;
        case 1: if (!c.classes.empty()) c.classes[value % c.classes.size()] += value / 16 + 1; break;
        case 2: c.checksum ^= uint64_t(1) << (value % 64); break;
        case 3: cells.erase(cells.begin() + at % cells.size()); break;
        case 4: { CellRef copy = c; cells.insert(cells.begin() + at % cells.size(), std::move(copy)); break; }
        case 5: if (at % cells.size() + 1 < cells.size()) std::swap(c, cells[at % cells.size() + 1]); break;
        case 6: if (!c.rows.empty()) c.rows[value % c.rows.size()] ^= uint64_t(1) << (value / 8 % 40); break;
        default: if (!c.totals.empty()) c.totals[value % c.totals.size()] -= 1; break;
      }
    }
  } else {  // raw cells: count, then per cell: rows (2 bytes each), totals, classes, checksum
    const unsigned count = in.byte() % 32;
    const uint8_t shape = in.byte();
    if (shape & 0x80) totalsLen = shape & 7, classesLen = shape >> 3 & 7;
    for (unsigned i = 0; i < count && !in.empty(); ++i) {
      CellRef c;
      for (unsigned r = 0; r < depth; ++r) {
        const uint64_t q = in.byte(), h = in.byte();
        c.rows.push_back(q | h << 32);
      }
      for (size_t t = 0; t < totalsLen; ++t) c.totals.push_back(in.byte());
      for (size_t t = 0; t < classesLen; ++t) c.classes.push_back(in.byte());
      c.checksum = in.byte();
      cells.push_back(std::move(c));
    }
  }
  std::vector<uint64_t> totals(totalsLen, 0), classes(classesLen, 0);
  uint64_t checksum = 0;
  for (const CellRef& c : cells) {
    for (size_t i = 0; i < c.totals.size() && i < totalsLen; ++i) totals[i] += c.totals[i];
    for (size_t i = 0; i < c.classes.size() && i < classesLen; ++i) classes[i] += c.classes[i];
    checksum += c.checksum;
  }
  if (flags & 2 && !totals.empty()) totals[flags / 16 % totals.size()] += flags / 64 + 1;
  if (flags & 4 && !classes.empty()) classes[flags / 16 % classes.size()] += 1;
  if (flags & 8) checksum += 1;

  Bytes out;
  capnp::MallocMessageBuilder msg;
  auto h = msg.initRoot<::Header>();
  h.setFormatVersion(1);
  auto k = h.initCount();
  k.setProblem(static_cast<::CountProblem>(problem));
  k.setBoardSize(uint16_t(n));
  k.setHoles(uint16_t(holes));
  k.setMaxQueens(uint16_t(maxQueens));
  auto t = k.initTotals(unsigned(totals.size()));
  for (unsigned i = 0; i < totals.size(); ++i) t.set(i, totals[i]);
  auto cl = k.initClasses(unsigned(classes.size()));
  for (unsigned i = 0; i < classes.size(); ++i) cl.set(i, classes[i]);
  k.setChecksum(checksum);
  k.setCellDepth(uint16_t(depth));
  auto list = k.initCells(unsigned(cells.size()));
  for (unsigned i = 0; i < cells.size(); ++i) {
    auto c = list[i];
    auto rows = c.initRows(unsigned(cells[i].rows.size()));
    for (unsigned r = 0; r < cells[i].rows.size(); ++r) rows.set(r, cells[i].rows[r]);
    auto ct = c.initTotals(unsigned(cells[i].totals.size()));
    for (unsigned r = 0; r < cells[i].totals.size(); ++r) ct.set(r, cells[i].totals[r]);
    auto cc = c.initClasses(unsigned(cells[i].classes.size()));
    for (unsigned r = 0; r < cells[i].classes.size(); ++r) cc.set(r, cells[i].classes[r]);
    c.setChecksum(cells[i].checksum);
  }
  k.setProducer("fuzz_count_certificate");
  auto words = capnp::messageToFlatArray(msg);
  auto b = words.asBytes();
  out.assign(b.begin(), b.end());
  appendSeal(out);
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0 || size > (1u << 20)) return 0;
  Input in{data, size};
  const uint8_t first = in.byte();
  const unsigned mode = first % 3;
  Bytes file;
  const std::string path = writeCertificateInput(in, mode, structured, "c.qcount", file);
  // The first byte's upper part also picks how the checker runs: in full,
  // --jobs 2, --sample K --seed S, or --part I --of K.
  const unsigned variant = first / 3 % 4, k = 1 + first / 12 % 4;
  const CheckResult r = variant == 1 ? runChecker(path, 2)
                        : variant == 2 ? runChecker(path, 1, k, first)
                        : variant == 3 ? runChecker(path, 1, 0, 0, first % k, k)
                                       : runChecker(path);
  if (r.status == 0) judgeVerifiedCountFile(file, r.out);
  return 0;
}
