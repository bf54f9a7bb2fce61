// Transposition table of bounded size: buckets of four 16-byte entries (one
// cache line), keyed by the symmetry-invariant position hash. Replacement
// keeps the entries that cost the most work to compute. Entries are written
// as (key ^ data, data) so that a torn write from another thread reads as a
// miss, never as a wrong entry.
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

  // Throws ResourceError past the machine's physical memory or when the
  // mapping fails.
  explicit TranspositionTable(size_t megabytes);
  ~TranspositionTable();
  TranspositionTable(const TranspositionTable&) = delete;
  TranspositionTable& operator=(const TranspositionTable&) = delete;
  Hit probe(uint64_t key) const;
  // Starts loading the key's bucket, so that several probes overlap their misses.
  void prefetch(uint64_t key) const { __builtin_prefetch(&table_[key & mask_]); }
  void store(uint64_t key, bool win, uint16_t move, unsigned work);
  size_t bytes() const { return buckets_ * sizeof(Bucket); }
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
  size_t buckets_;
  size_t mask_;
  uint64_t generation_ = 1;  // entries of other generations are empty
  Bucket* table_;  // anonymous mmap: zero pages are only touched when used
};

}  // namespace qcert
