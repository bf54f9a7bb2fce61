// Positions and winner tokens as the front end's checker side reads them
// (certified.cpp, replies_cert.cpp, describe.cpp): a position of the placing
// game is its live squares (at most 512, the checker's widest board) and a
// heap, as the checker's ReplyObserver reports them; a token is decoded by
// the rule of docs/certificate-format.md. Plain words: neither the prover's
// nor the checker's headers are needed here.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>

namespace qcert::ui {

using LiveWords = std::array<uint64_t, 8>;  // square s is bit s % 64 of word s / 64

struct PositionKey {
  LiveWords live{};
  uint32_t heap = 0;
  bool operator==(const PositionKey&) const = default;
  // From the ReplyObserver's words (the first `count`, at most 8).
  static PositionKey fromWords(const uint64_t* words, unsigned count, uint32_t heap);
};
struct PositionKeyHash {
  size_t operator()(const PositionKey& k) const;
};

// The move a winner's token names at a position with live squares L and a
// heap h: tokens 1..m are L's m squares in increasing order, m+1..m+h lower
// the heap to 0..h-1; any other token names no move.
struct TokenMove {
  enum class Kind { none, square, heap };
  Kind kind = Kind::none;
  unsigned to = 0;  // the square, or the heap after the move
  // As the ReplyObserver names moves: a square, or -1 - h for the heap move to h.
  int observerMove() const { return kind == Kind::square ? int(to) : -1 - int(to); }
};
TokenMove decodeToken(const LiveWords& live, uint32_t heap, uint32_t token);

}  // namespace qcert::ui
