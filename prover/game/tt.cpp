#include "prover/game/tt.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <bit>
#include <cerrno>
#include <cstring>
#include <string>
#include <new>
#include <stdexcept>

namespace qcert {

namespace {
// data: generation (bits 40..55; 0 is never current, so all-zero bytes are
// empty) | work:8 (24..31) | move:16 (1..16) | win:1.
constexpr int kGenerationShift = 40;
uint64_t pack(uint64_t generation, bool win, uint16_t move, unsigned work) {
  return generation << kGenerationShift | (uint64_t(work & 0xff) << 24) | (uint64_t(move) << 1) | (win ? 1 : 0);
}
bool current(uint64_t data, uint64_t generation) { return (data >> kGenerationShift) == generation; }
}  // namespace

TranspositionTable::TranspositionTable(size_t megabytes, size_t nearMegabytes, int nearMaxLive) {
  if (megabytes < 1) throw std::invalid_argument("transposition table needs at least 1 MiB");
  const auto cannot = [&](const std::string& why) {
    return ResourceError("cannot allocate a " + std::to_string(megabytes) + " MiB transposition table (" + why + ")");
  };
  // Anonymous pages are only counted when touched, so a table past physical
  // memory would map fine and fail, swap or meet the OOM killer hours into a
  // search; refuse it now.
  const long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGE_SIZE);
  const uint64_t physicalMiB = pages > 0 && pageSize > 0 ? (uint64_t(pages) * uint64_t(pageSize)) >> 20 : UINT64_MAX;
  if (megabytes > physicalMiB) throw cannot("more than this machine's " + std::to_string(physicalMiB) + " MiB of memory");
  if (megabytes > (SIZE_MAX >> 20)) throw cannot("past the address space");
  if (nearMegabytes >= megabytes && nearMegabytes > 0)
    throw std::invalid_argument("the near region of the transposition table must be smaller than the table");
  const size_t want = megabytes * (size_t{1} << 20) / sizeof(Bucket);
  if (nearMegabytes == 0) {
    farBuckets_ = std::bit_floor(want);
  } else {
    nearBuckets_ = std::bit_floor(nearMegabytes * (size_t{1} << 20) / sizeof(Bucket));
    nearMask_ = nearBuckets_ - 1;
    nearMaxLive_ = nearMaxLive;
    farBuckets_ = want - nearBuckets_;
  }
  const size_t buckets = nearBuckets_ + farBuckets_;
  // All-zero bytes are valid empty entries (std::atomic<uint64_t> is a plain
  // word here), so fresh anonymous pages need no initialisation pass.
  static_assert(sizeof(std::atomic<uint64_t>) == 8 && std::atomic<uint64_t>::is_always_lock_free);
  void* p = mmap(nullptr, buckets * sizeof(Bucket), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw cannot(std::strerror(errno));
  madvise(p, buckets * sizeof(Bucket), MADV_HUGEPAGE);  // far fewer page faults; a hint only
  table_ = static_cast<Bucket*>(p);
  far_ = table_ + nearBuckets_;
}

TranspositionTable::~TranspositionTable() { munmap(table_, bytes()); }

// An entry of an older generation reads as empty, everywhere the table
// looks, so a new generation is exactly an emptied table; only when the
// 16-bit generation wraps are the pages really emptied. (Emptying them each
// time cost a page fault per 4 KiB when next touched, about 2.5 ms per MiB on
// this VM: seconds per work unit with a table of gigabytes.)
void TranspositionTable::clear() {
  if (++generation_ < (uint64_t{1} << 16)) return;
  generation_ = 1;
  if (madvise(table_, bytes(), MADV_DONTNEED) != 0)
    std::memset(static_cast<void*>(table_), 0, bytes());  // all-zero bytes are empty entries
}

TranspositionTable::Hit TranspositionTable::probe(uint64_t key, int live) const {
  const Bucket& b = bucketOf(key, live);
  for (const Entry& e : b.e) {
    const uint64_t d = e.data.load(std::memory_order_relaxed);
    if (current(d, generation_) && (e.check.load(std::memory_order_relaxed) ^ d) == key)
      return {true, bool(d & 1), uint16_t(d >> 1)};
  }
  return {};
}

void TranspositionTable::store(uint64_t key, int live, bool win, uint16_t move, unsigned work) {
  Bucket& b = bucketOf(key, live);
  Entry* victim = &b.e[0];
  unsigned victimWork = ~0u;
  for (Entry& e : b.e) {
    const uint64_t d = e.data.load(std::memory_order_relaxed);
    if (!current(d, generation_) || (e.check.load(std::memory_order_relaxed) ^ d) == key) {
      victim = &e;
      break;
    }
    const unsigned w = unsigned(d >> 24) & 0xff;
    if (w < victimWork) {
      victimWork = w;
      victim = &e;
    }
  }
  const uint64_t d = pack(generation_, win, move, work);
  victim->data.store(d, std::memory_order_relaxed);
  victim->check.store(key ^ d, std::memory_order_relaxed);
}

}  // namespace qcert
