// Transposition table of bounded size: buckets of four 16-byte entries (one
// cache line), keyed by the symmetry-invariant position hash. Replacement
// keeps the entries that cost the most work to compute. Entries are written
// as (key ^ data, data) so that a torn write from another thread reads as a
// miss, never as a wrong entry.
//
// Optionally split in two by the position's live-square count: a near
// region for positions of at most `nearMaxLive` live squares (almost all
// probes: the bottom of the tree and the children its enhanced transposition
// cutoffs look up) and a far region, the rest of the memory, for the larger
// ones. On this 2-core VM a random read took about 220 ns in a table of
// 64-256 MiB and about 400 ns in one of 1-4 GiB (address translation under
// the hypervisor, we think), and the cutoffs' probes were a quarter of the
// search's time at n = 16. A near region of 256 MiB keeps them in the
// cheaper range (n = 16 on two threads: nodes +6%, wall -13%; a 128 MiB one
// lost too many entries: nodes +17%, slower; docs/n18-plan.md, eighth round).
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>

namespace qcert {

// A resource a run needs cannot be had (the table's memory, threads): the run
// is not done, and nothing about its claim is known.
struct ResourceError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class TranspositionTable {
 public:
  static constexpr uint16_t kNoMove = 0xffff;
  struct Hit {
    bool found = false;
    bool win = false;
    uint16_t move = kNoMove;  // in the canonical frame; heap moves have bit 15 set
  };

  // Positions of at most this many live squares go to the near region.
  static constexpr int kNearMaxLive = 60;
  // megabytes in all, of which nearMegabytes (0: no split, one region as
  // before the split) for the near region. Throws ResourceError past the
  // machine's physical memory or when the mapping fails.
  explicit TranspositionTable(size_t megabytes, size_t nearMegabytes = 0, int nearMaxLive = kNearMaxLive);
  ~TranspositionTable();
  TranspositionTable(const TranspositionTable&) = delete;
  TranspositionTable& operator=(const TranspositionTable&) = delete;
  // live: the position's live-square count, which picks the region.
  Hit probe(uint64_t key, int live) const;
  // Starts loading the key's bucket, so that several probes overlap their misses.
  void prefetch(uint64_t key, int live) const { __builtin_prefetch(&bucketOf(key, live)); }
  void store(uint64_t key, int live, bool win, uint16_t move, unsigned work);
  size_t bytes() const { return (nearBuckets_ + farBuckets_) * sizeof(Bucket); }
  size_t nearBytes() const { return nearBuckets_ * sizeof(Bucket); }
  // Forgets every entry (a new generation; see tt.cpp). Not while other
  // threads use the table.
  void clear();

 private:
  struct Entry {
    std::atomic<uint64_t> check;  // key ^ data
    std::atomic<uint64_t> data;   // win:1 | move:16 | work:8
  };
  struct alignas(64) Bucket {
    Entry e[4];
  };
  // The near region is a power of two of buckets (a mask picks one); the
  // far region takes the rest of the memory, any number of buckets, picked
  // by the key's high bits (multiply-shift). Unsplit, the one region is a
  // power of two picked by the key's low bits, the layout before the split,
  // so that certificates made before it can be made again byte for byte.
  const Bucket& bucketOf(uint64_t key, int live) const {
    if (live <= nearMaxLive_) return table_[key & nearMask_];  // the near region comes first
    return split() ? far_[size_t((unsigned __int128)key * farBuckets_ >> 64)] : far_[key & (farBuckets_ - 1)];
  }
  Bucket& bucketOf(uint64_t key, int live) {
    return const_cast<Bucket&>(static_cast<const TranspositionTable*>(this)->bucketOf(key, live));
  }
  bool split() const { return nearBuckets_ > 0; }
  size_t nearBuckets_ = 0, nearMask_ = 0, farBuckets_ = 0;
  int nearMaxLive_ = -1;  // -1: no near region
  uint64_t generation_ = 1;  // entries of other generations are empty
  Bucket* table_;  // anonymous mmap: zero pages are only touched when used; the near buckets first
  Bucket* far_;    // the rest: table_ + nearBuckets_
};

}  // namespace qcert
