// export-table: UNTRUSTED.  Turns a queens-game certificate into the table
// that checker-verified's proved check reads (docs/verified-checker.md, "The
// table").  Nothing it writes is believed: the verified check accepts a table
// only when it proves the claim.
//
//   export-table [--cutoff K] [--exact] [--no-hints] [--time-limit S] [--max-memory MiB] FILE.qcert
//                                            the table on stdout
//   export-table --list MANIFEST.qcert       the manifest's claim and shards
//
// It replays the certificate with the checker library, keeping every winner
// decision the replay reads (the ReplyObserver hook; CheckOptions::repliesOnly:
// the positions at or below the certificate's cut-off are not solved, as
// nothing here is believed), then walks the game from
// the claimed position as the verified check will: each winner position with
// more than K live squares gets an entry (its queens, heap and reply), one per
// class under the square's eight symmetries, the first position of the class
// the walk meets, and every other position of a class a line "m" naming the
// map by which the check looks it up (--exact, and on the torus: one entry per
// position, no symmetry).  The reply is the certificate's, found through the eight
// symmetries of the square (the replay memoises positions up to symmetry; on
// the torus, through canonical forms under its 8 n^2 maps), or,
// below the certificate's own cut-off where it has none, one found by the small
// exhaustive search here.  Positions with at most K live squares are left to
// the verified solver; after each entry a line "w" suggests, for each of them
// that the entry's frame leads to, a winning queen for that solver to try
// first (found here; --no-hints: none).  Exit 0: the table was written; 1: the certificate is
// rejected (by the checker library's replay of its replies, or a claimed win is found lost here); 2:
// not a certificate this handles, bad usage, or out of time (--time-limit:
// the checker library's limit, then an alarm for the walk) or memory
// (--max-memory: the library's limit, and the resident size for the walk).
#include "checker/certificate_file.hpp"
#include "checker/checker.hpp"
#include "checker/manifest.hpp"
#include "checker/tiny_graph_table.hpp"
#include "schema/qcert.capnp.h"

#include <capnp/serialize.h>

#include <algorithm>
#include <chrono>
#include <thread>
#include <cerrno>
#include <csignal>
#include <new>
#include <array>
#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <unistd.h>

namespace {

using qcert::checker::Certificate;

[[noreturn]] void die(int status, const std::string& why) {
  std::cerr << "export-table: " << why << "\n";
  std::exit(status);
}

// The largest board handled: the checker library's (its replay's sets have at
// most 8 words, 512 squares); the verified check's row masks go to 26 x 26.
constexpr unsigned kMaxBoard = 22;

// A set of squares in W words: 4 up to 16 x 16, 8 up to 22 x 22.
template <unsigned W>
struct Set {
  std::array<uint64_t, W> w{};
  bool test(unsigned s) const { return w[s / 64] >> (s % 64) & 1; }
  void set(unsigned s) { w[s / 64] |= uint64_t(1) << (s % 64); }
  unsigned count() const {
    unsigned k = 0;
    for (uint64_t x : w) k += unsigned(std::popcount(x));
    return k;
  }
  Set without(const Set& o) const {
    Set r;
    for (unsigned i = 0; i < W; ++i) r.w[i] = w[i] & ~o.w[i];
    return r;
  }
  template <class F>
  void forEach(F f) const {
    for (unsigned i = 0; i < W; ++i)
      for (uint64_t x = w[i]; x; x &= x - 1) f(i * 64 + unsigned(std::countr_zero(x)));
  }
  bool operator==(const Set&) const = default;
};
template <unsigned W>
struct Key {
  Set<W> L;
  uint32_t h;
  bool operator==(const Key&) const = default;
};
struct KeyHash {
  template <unsigned W>
  size_t operator()(const Key<W>& k) const {
    uint64_t x = k.h * 0x9E3779B97F4A7C15ull;
    for (uint64_t v : k.L.w) x = (x ^ v) * 0xBF58476D1CE4E5B9ull, x ^= x >> 31;
    return size_t(x);
  }
};

// The replies the replay observed, by position (and, with no move, the sets
// of positions the walk visited and mapped): open addressing with linear
// probing over a power-of-two array of slots, which keeps a look-up to about
// one cache line (std::unordered_map's node per entry cost a third of the
// export at n = 14, most of it in the up to eight misses of reply()).
template <unsigned W>
class KeyMap {
 public:
  // Room for n keys at half load, so that a replay of n replies never rehashes.
  void reserve(uint64_t n) {
    size_t size = 1024;
    while (size < 2 * n && size < (size_t(1) << 40)) size *= 2;
    if (size > slots_.size()) {
      std::vector<Slot> old = std::move(slots_);
      slots_.assign(size, Slot{});
      for (const Slot& slot : old)
        if (slot.full) slots_[indexOf(slot.key)] = slot;
    }
  }
  // Keeps the first move stored for a key, as emplace did; true when the key is new.
  bool emplace(const Key<W>& k, int move = 0) {
    if (2 * (used_ + 1) > slots_.size()) grow();
    Slot& slot = slots_[indexOf(k)];
    if (slot.full) return false;
    slot = Slot{k, move, true}, ++used_;
    return true;
  }
  bool contains(const Key<W>& k) const { return lookup(k) != nullptr; }
  size_t size() const { return used_; }
  const int* lookup(const Key<W>& k) const {
    if (slots_.empty()) return nullptr;
    const Slot& slot = slots_[indexOf(k)];
    return slot.full ? &slot.move : nullptr;
  }

 private:
  struct Slot {
    Key<W> key;
    int move = 0;
    bool full = false;
  };
  // The slot that holds k, or the empty one where it would go.
  size_t indexOf(const Key<W>& k) const {
    const size_t mask = slots_.size() - 1;
    for (size_t i = KeyHash{}(k) & mask;; i = (i + 1) & mask)
      if (!slots_[i].full || slots_[i].key == k) return i;
  }
  void grow() { reserve(slots_.size()); }
  std::vector<Slot> slots_;
  size_t used_ = 0;
};

template <unsigned W>
class Exporter {
  using Set = ::Set<W>;
  using Key = ::Key<W>;
  static constexpr unsigned kSquares = 64 * W;

 public:
  // The square's eight symmetries; on the torus each is followed by each of
  // the n * n translations (the replay's group there), and replies are
  // found through canonical forms (below) instead of trying every map.
  Exporter(const Certificate& cert, unsigned K)
      : n_(cert.boardSize), K_(K), cert_(cert), torus_(cert.board.torus),
        groupSize_(torus_ ? 8 * n_ * n_ : 8), sym_(groupSize_), inverse_(groupSize_) {
    for (unsigned s = 0; s < n_ * n_; ++s) {
      const int r = int(s / n_), c = int(s % n_);
      for (unsigned t = 0; t < n_ * n_; ++t)
        if (qcert::checker::attacks(cert.board, r, c, int(t / n_), int(t % n_))) attack_[s].set(t);
    }
    for (unsigned g = 0; g < groupSize_; ++g) {
      sym_[g].resize(n_ * n_);
      inverse_[g].resize(n_ * n_);
      const unsigned d = g % 8, shift = g / 8;
      for (unsigned s = 0; s < n_ * n_; ++s) {
        int a = int(s / n_), b = int(s % n_);
        if (d & 4) std::swap(a, b);
        if (d & 2) a = int(n_) - 1 - a;
        if (d & 1) b = int(n_) - 1 - b;
        a = (a + int(shift / n_)) % int(n_), b = (b + int(shift % n_)) % int(n_);
        sym_[g][s] = unsigned(a) * n_ + unsigned(b);
      }
      for (unsigned s = 0; s < n_ * n_; ++s) inverse_[g][sym_[g][s]] = s;
    }
    // The proved check looks a position up by a map of Symmetry.v's
    // board_maps (the square's eight, in Spec.v's order): the map f for
    // which the table's key E satisfies f(E) = L, that is the inverse of
    // the map g that takes L to E.
    if (!torus_) {
      coqIndexOfInverse_.assign(8, 0);
      for (unsigned g = 0; g < 8; ++g)
        for (unsigned i = 0; i < 8; ++i) {
          bool same = true;
          for (unsigned s = 0; s < n_ * n_ && same; ++s) same = coqMap(i, s) == inverse_[g][s];
          if (same) {
            coqIndexOfInverse_[g] = i;
            break;
          }
        }
    }
  }
  // Spec.v's symmetries n, the i-th of the list, on square s = r * n + c.
  unsigned coqMap(unsigned i, unsigned s) const {
    const unsigned r = s / n_, c = s % n_, m = n_ - 1;
    switch (i) {
      case 0: return r * n_ + c;
      case 1: return c * n_ + (m - r);
      case 2: return (m - r) * n_ + (m - c);
      case 3: return (m - c) * n_ + r;
      case 4: return (m - r) * n_ + c;
      case 5: return r * n_ + (m - c);
      case 6: return c * n_ + r;
      default: return (m - c) * n_ + (m - r);
    }
  }
  // With symmetry (the default on the square board): one entry per class of
  // positions under the eight symmetries, in the orientation the walk first
  // meets it in (canonical forms only name the class: entered as they were
  // met, the positions are found as the check meets them, and at n = 16
  // 127 lines "m" are left of 197,020, each an image for the check to
  // compute); any other position the check meets gets a line "m I H QUEENS"
  // naming the map to look it up by.
  void setSymmetry(bool on) { symmetry_ = on && !torus_; }
  // With hints (the default): after each entry a line "w WORD" for the frame
  // over the position after its reply (Checker.v's win_hint): character j
  // names the index of a winning queen in the child after the queen on the
  // frame's j-th live square (board order), found by the search here; '-'
  // where the check does not solve that child (more than K live squares, or
  // settled by a sibling's winning queen) or it is won only by the heap;
  // no line where every character would be '-'.
  void setHints(bool on) { hints_ = on; }
  size_t hintCount() const { return hinted_; }
  size_t mapLines() const { return mapped_.size(); }
  // The certificate's reply count (the header's, untrusted: at most 2^22 slots are reserved up front).
  void expectReplies(uint64_t n) { observed_.reserve(std::min<uint64_t>(n, uint64_t(1) << 21)); }

  void observe(const uint64_t* words, unsigned count, uint32_t h, int move) {
    Key k{{}, h};
    for (unsigned i = 0; i < count && i < W; ++i) k.L.w[i] = words[i];
    if (!torus_) {
      observed_.emplace(k, move);
      return;
    }
    const auto [canonical, g] = canonicalForm(k);
    observed_.emplace(canonical, move >= 0 ? int(sym_[g][unsigned(move)]) : move);
  }

  // Writes the table to out as the walk finds its entries.
  void run(FILE* out) {
    out_ = out;
    const char* kind = cert_.grundy ? "grundy" : cert_.claimWin ? "win" : "loss";
    std::fprintf(out, "qcert-table 1\nboard %s%u\nclaim %s %u\nqueens %zu", torus_ ? "torus " : "", n_, kind, cert_.heap,
                 cert_.queens.size());
    for (unsigned q : cert_.queens) std::fprintf(out, " %u %u", q / n_, q % n_);
    std::fprintf(out, "\ncutoff %u\n", K_);
    Set root;
    for (unsigned s = 0; s < n_ * n_; ++s) root.set(s);
    for (unsigned q : cert_.queens) {
      if (!root.test(q)) die(1, "a claimed queen is not free when placed");
      root = root.without(attack_[q]);
      path_.push_back(q);
    }
    // On the torus: the root's images under every map, and from them each
    // position's, a move at a time (as the replay computes them).
    imageStack_.resize(n_ * n_ + 2);
    Images rootImages{nullptr, -1};
    if (torus_) {
      std::vector<Set>& mine = imageStack_[path_.size()];
      mine.assign(groupSize_, Set{});
      for (unsigned g = 0; g < groupSize_; ++g) root.forEach([&](unsigned s) { mine[g].set(sym_[g][s]); });
      rootImages.parent = mine.data();
    }
    if (cert_.grundy || !cert_.claimWin) lose(root, cert_.heap, rootImages);
    else win(root, cert_.heap, rootImages);
    std::fprintf(out, "end\n");
  }
  size_t entryCount() const { return visited_.size(); }
  size_t solved() const { return solved_; }

 private:
  // A position's images under the torus's maps: its parent's, less the
  // attacks of each map's image of the move (none: the same position).
  struct Images {
    const Set* parent;
    int move;
  };
  const Set* images(const Images& from) {
    if (!torus_ || from.move < 0) return from.parent;
    std::vector<Set>& mine = imageStack_[path_.size()];
    mine.resize(groupSize_);
    for (unsigned g = 0; g < groupSize_; ++g) mine[g] = from.parent[g].without(attack_[sym_[g][unsigned(from.move)]]);
    return mine.data();
  }

  // The lines "e" and "m" are built here and written at once (a call of
  // fprintf per number was a tenth of the export's time at n = 16).
  void putNumber(uint64_t v) {
    char digits[20];
    unsigned k = 0;
    do digits[k++] = char('0' + v % 10), v /= 10;
    while (v);
    while (k) line_ += digits[--k];
  }
  // The walk's queens, " ROW COL" each, and the line's end; then the line is written.
  void writePathLine() {
    for (unsigned q : path_) line_ += ' ', putNumber(q / n_), line_ += ' ', putNumber(q % n_);
    line_ += '\n';
    std::fwrite(line_.data(), 1, line_.size(), out_);
  }

  // (L, h) is won for the player to move: enter it with its reply.
  void win(const Set& L, uint32_t h, const Images& from) {
    if (L.count() <= K_) return;  // the verified solver's
    if (!symmetry_) return enter(L, h, from, nullptr);
    // Met before (a fifth of the calls at n = 16): entered, or given its
    // line "m"; either way nothing more to write, and the eight images need
    // not be computed.
    if (visited_.contains(Key{L, h}) || mapped_.contains(Key{L, h})) return;
    // The class of L: its eight images, for the class's canonical form and
    // for the look-up of the certificate's reply.
    std::array<Set, 8> orbit;
    unsigned g = 0;
    orbit[0] = L;
    for (unsigned i = 1; i < 8; ++i) {
      L.forEach([&](unsigned s) { orbit[i].set(sym_[i][s]); });
      if (less(orbit[i], orbit[g])) g = i;
    }
    // The class is entered in the orientation it is first met in (so that
    // the look-up that met it finds it as it is, with no image to compute);
    // met again in another orientation, L gets a line "m" naming the map
    // that takes it to the entered one.
    if (const int* rep = classes_.lookup(Key{orbit[g], h})) {
      const Set& entered = representatives_[size_t(*rep)];
      unsigned i = 1;
      while (i < 8 && !(orbit[i] == entered)) ++i;
      if (i == 8) die(1, "internal error: a class's entered position is not among the images");
      mapped_.emplace(Key{L, h});
      line_ = "m ";
      putNumber(coqIndexOfInverse_[i]), line_ += ' ', putNumber(h), line_ += ' ', putNumber(path_.size());
      writePathLine();
      return;
    }
    classes_.emplace(Key{orbit[g], h}, int(representatives_.size()));
    representatives_.push_back(L);
    enter(L, h, from, &orbit);
  }
  // (L, h), won and the first of its class met (or any position, without
  // symmetry), gets its entry.  orbit: L's images under the eight maps
  // (null: none computed).
  void enter(const Set& L, uint32_t h, const Images& from, const std::array<Set, 8>* orbit) {
    if (!visited_.emplace(Key{L, h})) return;
    const Set* img = images(from);
    const int move = orbit ? orbitReply(*orbit, L, h) : reply(L, h, img);
    line_ = "e ";
    putNumber(h);
    if (move >= 0) line_ += " q ", putNumber(unsigned(move) / n_), line_ += ' ', putNumber(unsigned(move) % n_);
    else line_ += " h ", putNumber(uint64_t(-move - 1));
    line_ += ' ', putNumber(path_.size());
    writePathLine();
    if (hints_) {
      if (move >= 0) writeHints(L.without(attack_[unsigned(move)]), h);
      else writeHints(L, uint32_t(-move - 1));
    }
    if (move >= 0) {
      path_.push_back(unsigned(move));
      lose(L.without(attack_[unsigned(move)]), h, Images{img, move});
      path_.pop_back();
    } else {
      lose(L, uint32_t(-move - 1), Images{img, -1});
    }
  }
  // (L, h) is lost for the player to move: every move leads to a won position.
  void lose(const Set& L, uint32_t h, const Images& from) {
    const Set* img = images(from);
    L.forEach([&](unsigned s) {
      path_.push_back(s);
      win(L.without(attack_[s]), h, Images{img, int(s)});
      path_.pop_back();
    });
    for (uint32_t h2 = 0; h2 < h; ++h2) win(L, h2, Images{img, -1});
  }

  // The winning move at (L, h): the certificate's (through a symmetry), else
  // searched. img: on the torus, L's images under every map.
  int reply(const Set& L, uint32_t h, const Set* img) {
    if (torus_) {
      unsigned g = 0;
      for (unsigned i = 1; i < groupSize_; ++i)
        if (less(img[i], img[g])) g = i;
      if (const int* m = observed_.lookup(Key{img[g], h}))
        return *m >= 0 ? int(inverse_[g][unsigned(*m)]) : *m;
      ++solved_;
      return search(L, h);
    }
    for (unsigned g = 0; g < 8; ++g) {
      Key k{{}, h};
      L.forEach([&](unsigned s) { k.L.set(sym_[g][s]); });
      if (const int* m = observed_.lookup(k))
        return *m >= 0 ? int(inverse_[g][unsigned(*m)]) : *m;
    }
    ++solved_;
    return search(L, h);
  }

  // The certificate's reply at L, from L's eight images (orbit[i] = i(L)): a
  // reply found at i(L) is moved back to L by i's inverse.  Searched here
  // when the replay saw none.
  int orbitReply(const std::array<Set, 8>& orbit, const Set& L, uint32_t h) {
    for (unsigned i = 0; i < 8; ++i)
      if (const int* m = observed_.lookup(Key{orbit[i], h}))
        return *m >= 0 ? int(inverse_[i][unsigned(*m)]) : *m;
    ++solved_;
    return search(L, h);
  }

  // The order of canonical forms: words compared from the last.
  static bool less(const Set& a, const Set& b) {
    return std::lexicographical_compare(a.w.rbegin(), a.w.rend(), b.w.rbegin(), b.w.rend());
  }
  // The least image of k under the group, and the map that gives it.
  std::pair<Key, unsigned> canonicalForm(const Key& k) const {
    Key best = k, image{{}, k.h};
    unsigned bestMap = 0;
    for (unsigned g = 1; g < groupSize_; ++g) {
      image.L = Set{};
      k.L.forEach([&](unsigned s) { image.L.set(sym_[g][s]); });
      if (less(image.L, best.L)) best = image, bestMap = g;
    }
    return {best, bestMap};
  }

  // The line "w" of the frame over (F, h), as the check will meet its
  // children: in index order, each child it solves tried from a winning
  // queen, and the sibling that queen names skipped (the check's pairing).
  // The queen suggested is one whose sibling the check would still solve
  // when there is such a winning queen (as the C++ checker's solver prefers
  // its partners): at n = 16, 41% of the small children are then settled by
  // a sibling instead of 27%, and the check solves a fifth fewer.
  // One memo for the whole frame: its children share their positions.
  void writeHints(const Set& F, uint32_t h) {
    if (F.count() > 61 || F.count() == 0) return;  // no frame there (Checker.v, frame_limit), or no child
    square_.clear();
    F.forEach([&](unsigned s) { square_.push_back(s); });
    const size_t len = square_.size();
    adj_.assign(len, 0);
    for (size_t i = 0; i < len; ++i)  // the frame's squares s attacks, packed to their indices
      for (unsigned k = 0, shift = 0; k < W; shift += unsigned(std::popcount(F.w[k])), ++k)
        if (F.w[k]) adj_[i] |= qcert::checker::compress(attack_[square_[i]].w[k], F.w[k]) << shift;
    if (hintMemo_.empty()) hintMemo_.resize(kHintMemoSize);
    ++generation_;
    const uint64_t all = len == 64 ? ~uint64_t(0) : (uint64_t(1) << len) - 1;
    static constexpr char kDigits[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    std::string word(len, '-');
    uint64_t settled = 0;
    uint64_t small = 0;  // the children the check solves
    for (size_t i = 0; i < len; ++i) small |= uint64_t(unsigned(std::popcount(all & ~adj_[i])) <= K_) << i;
    for (size_t i = 0; i < len; ++i) {
      const uint64_t child = all & ~adj_[i];
      if ((settled >> i & 1) || !(small >> i & 1)) continue;
      const uint64_t later = i + 1 < 64 ? ~uint64_t(0) << (i + 1) : 0;
      const int j = winningQueen(child, h, kNoCode, small & later & ~settled);
      if (j >= 0) word[i] = kDigits[j], settled |= uint64_t(1) << j, ++hinted_;
    }
    if (settled) line_ = "w ", line_ += word, line_ += '\n', std::fwrite(line_.data(), 1, line_.size(), out_);  // else no suggestion: no line
  }

  // The search for the hints, on masks of the frame's indices, with one memo
  // for the frame (its children share their positions) and the checker
  // library's table of small graphs (a public header, only read here) for
  // every position it decides (7 live squares with no heap, 6 with one;
  // the 7-square part is filled a word at a time as it is read, and with
  // it the export of the n = 16 shard u00001 took 5 to 10% less than at 6).
  static constexpr unsigned kHintTiny = 7;
  // The table's code of the graph that mask induces (at most 7 members):
  // pair (i, j), i < j, is bit j(j-1)/2 + i (tiny_graph_table.hpp).
  uint32_t tinyCode(uint64_t mask) const {
    uint32_t code = 0;
    uint64_t x = mask & (mask - 1);
    for (unsigned j = 1; x; ++j, x &= x - 1)
      code |= uint32_t(qcert::checker::compress(adj_[std::countr_zero(x)], mask) & ((uint64_t(1) << j) - 1))
              << (j * (j - 1) / 2);
    return code;
  }
  bool tinyLost(uint64_t mask, uint32_t h) const {
    return tinyGraphs_.lostCoded(unsigned(std::popcount(mask)), tinyCode(mask), h);
  }
  // The code of the graph a mask of at most kCoded members induces, carried
  // down the search (as the checker library's solver does): an option's
  // code is then two pexts (subsetCode) instead of one per member, which
  // was most of the hint search at n = 16.  kNoCode: not known (more members).
  static constexpr uint64_t kNoCode = ~uint64_t(0);
  static constexpr unsigned kCoded = qcert::checker::TinyGraphTable::kCoded;
  uint64_t fullCode(uint64_t mask) const {
    uint64_t code = 0, x = mask & (mask - 1);
    for (unsigned j = 1, shift = 0; x; shift += j, ++j, x &= x - 1)
      code |= (qcert::checker::compress(adj_[std::countr_zero(x)], mask) & ((uint64_t(1) << j) - 1)) << shift;
    return code;
  }
  // The code of option (a subset of mask) from mask's code.
  uint64_t optionCode(uint64_t code, uint64_t mask, uint64_t option) const {
    return tinyGraphs_.subsetCode(code, ~uint32_t(0), uint32_t(qcert::checker::compress(option, mask)));
  }
  // The index of a queen that wins (m, h), or -1: options the table decides
  // first, as they come, then the others searched smallest first (more often
  // lost, and the cheapest for the check to prove lost too); in each of the
  // two groups the queens in prefer first.
  int winningQueen(uint64_t m, uint32_t h, uint64_t code = kNoCode, uint64_t prefer = 0) {
    const unsigned tiny = std::min(kHintTiny, qcert::checker::TinyGraphTable::limit(h));
    const bool coded = unsigned(std::popcount(m)) <= kCoded;
    if (coded && code == kNoCode) code = fullCode(m);
    uint64_t bySize[65];
    uint64_t sizes = 0;
    int tinyWin = -1;
    for (uint64_t x = m; x; x &= x - 1) {
      const unsigned i = unsigned(std::countr_zero(x));
      const uint64_t o = m & ~adj_[i];
      const unsigned k = unsigned(std::popcount(o));
      if (k <= tiny) {
        if (tinyWin < 0 || (prefer >> i & 1))
          if (coded ? tinyGraphs_.lostCoded(k, uint32_t(optionCode(code, m, o)), h) : tinyLost(o, h)) {
            if (!prefer || (prefer >> i & 1)) return int(i);
            tinyWin = int(i);
          }
      } else {
        bySize[k] = (sizes >> k & 1 ? bySize[k] : 0) | (x & -x);
        sizes |= uint64_t(1) << k;
      }
    }
    if (tinyWin >= 0) return tinyWin;
    for (int pass = prefer ? 0 : 1; pass < 2; ++pass)
      for (uint64_t left = sizes; left; left &= left - 1)
        for (uint64_t x = bySize[std::countr_zero(left)] & (pass == 0 ? prefer : ~prefer); x; x &= x - 1) {
          const unsigned i = unsigned(std::countr_zero(x));
          const uint64_t o = m & ~adj_[i];
          if (!hintWins(o, h, coded ? optionCode(code, m, o) : kNoCode)) return int(i);
        }
    return -1;
  }
  // Is (m, h) won? A lossy memo of the frame: one slot per hash, the last
  // position stored there.
  bool hintWins(uint64_t m, uint32_t h, uint64_t code = kNoCode) {
    const unsigned live = unsigned(std::popcount(m));
    if (h > live) return true;  // the Grundy value is at most the number of live squares
    if (live <= std::min(kHintTiny, qcert::checker::TinyGraphTable::limit(h)))
      return !(code != kNoCode ? tinyGraphs_.lostCoded(live, uint32_t(code), h) : tinyLost(m, h));
    HintSlot& slot = hintMemo_[size_t((m * 0x9E3779B97F4A7C15ull) >> 40) & (kHintMemoSize - 1)];
    if (slot.generation == generation_ && slot.key == m && (slot.known >> h & 1)) return slot.won >> h & 1;
    bool result = winningQueen(m, h, code) >= 0;
    for (uint32_t h2 = 0; h2 < h && !result; ++h2) result = !hintWins(m, h2, code);
    if (slot.generation != generation_ || slot.key != m) slot = HintSlot{m, generation_, 0, 0};
    slot.known |= uint64_t(1) << h, slot.won |= uint64_t(result) << h;
    return result;
  }

  // A small exhaustive search (memo, local indices) for a winning move,
  // preferring the queens that leave the opponent the fewest live squares.
  int search(const Set& L, uint32_t h) {
    if (L.count() > 63) die(1, "a won position with " + std::to_string(L.count()) + " live squares has no reply in the certificate");
    square_.clear();
    L.forEach([&](unsigned s) { square_.push_back(s); });
    adj_.assign(square_.size(), 0);
    for (size_t i = 0; i < square_.size(); ++i)
      for (size_t j = 0; j < square_.size(); ++j)
        if (attack_[square_[i]].test(square_[j])) adj_[i] |= uint64_t(1) << j;
    memo_.clear();
    const uint64_t all = (uint64_t(1) << square_.size()) - 1;
    std::vector<std::pair<int, size_t>> order;
    for (size_t i = 0; i < square_.size(); ++i) order.emplace_back(std::popcount(all & ~adj_[i]), i);
    std::sort(order.begin(), order.end());
    for (auto [left, i] : order)
      if (!wins(all & ~adj_[i], h)) return int(square_[i]);
    for (uint32_t h2 = 0; h2 < h; ++h2)
      if (!wins(all, h2)) return -int(h2) - 1;
    die(1, "the certificate claims a win at a position with " + std::to_string(L.count()) + " live squares and heap " +
               std::to_string(h) + " that is lost");
  }
  bool wins(uint64_t m, uint32_t h) {
    const unsigned live = unsigned(std::popcount(m));
    if (h > live) return true;  // the Grundy value is at most the number of live squares
    if (m == 0) return false;
    if (auto it = memo_.find(m); it != memo_.end() && (it->second.first >> h & 1)) return it->second.second >> h & 1;
    bool result = false;
    for (uint64_t x = m; x && !result; x &= x - 1) result = !wins(m & ~adj_[unsigned(std::countr_zero(x))], h);
    for (uint32_t h2 = 0; h2 < h && !result; ++h2) result = !wins(m, h2);
    auto& slot = memo_[m];  // bit h: known, and won
    slot.first |= uint64_t(1) << h, slot.second |= uint64_t(result) << h;
    return result;
  }

  unsigned n_, K_;
  const Certificate& cert_;
  bool torus_;
  unsigned groupSize_;
  std::array<Set, kSquares> attack_;
  std::vector<std::vector<unsigned>> sym_, inverse_;
  std::vector<std::vector<Set>> imageStack_;  // the torus's images, one array per depth of the walk
  KeyMap<W> observed_;
  KeyMap<W> visited_;
  std::vector<unsigned> path_;
  bool symmetry_ = false;
  std::vector<unsigned> coqIndexOfInverse_;
  KeyMap<W> mapped_;  // the positions given an "m" line
  KeyMap<W> classes_;  // a class's canonical form: its entered position's index in representatives_
  std::vector<Set> representatives_;
  FILE* out_ = nullptr;
  size_t solved_ = 0;
  bool hints_ = true;
  size_t hinted_ = 0;
  struct HintSlot {
    uint64_t key = 0;
    uint64_t generation = 0;
    uint64_t known = 0, won = 0;  // bit h: (key, h) known, and won
  };
  static constexpr size_t kHintMemoSize = size_t(1) << 12;
  std::vector<HintSlot> hintMemo_;
  uint64_t generation_ = 0;
  qcert::checker::TinyGraphTable tinyGraphs_;
  std::string line_;  // the line being written
  std::vector<unsigned> square_;
  std::vector<uint64_t> adj_;
  std::unordered_map<uint64_t, std::pair<uint64_t, uint64_t>> memo_;
};

// `--list MANIFEST`: the manifest's claim and, for each shard of its plan,
// (exit 3: not a manifest; 1: the checker library rejects it)
// the shard's path and the claim in its own header, for checker-verified to
// export and check one by one (docs/verified-checker.md, "Manifests").  The
// plans handled: the shards one move below the claim (a loss: one shard per
// move; a win: a winBy whose position has one shard per move), as qcert's
// prover writes them; a deeper plan is refused.  Nothing here is believed:
// the proved check decides what the shards' claims add up to.
// The queens game on the n x n torus (no holes), which the proved check reads.
bool queensTorus(const qcert::checker::Board& b) {
  return b.torus && b.piece == 0 && b.rows == b.cols && b.holes.empty();
}

void writeClaim(FILE* out, const Certificate& c) {
  const unsigned n = c.boardSize;
  std::fprintf(out, "claim %s %u\nqueens %zu", c.grundy ? "grundy" : c.claimWin ? "win" : "loss", c.heap, c.queens.size());
  for (unsigned q : c.queens) std::fprintf(out, " %u %u", q / n, q % n);
  std::fprintf(out, "\n");
}

void collectShards(::Obligation::Reader o, unsigned depth, std::vector<std::string>& paths) {
  switch (o.which()) {
    case ::Obligation::SHARD: paths.push_back(o.getShard().getPath().cStr()); return;
    case ::Obligation::WIN_BY:
      if (depth > 0) die(2, "a plan with a winBy below its root (not handled)");
      collectShards(o.getWinBy().getAfter(), depth + 1, paths);
      return;
    case ::Obligation::LOSS_BY:
      for (auto child : o.getLossBy()) {
        if (child.which() != ::Obligation::SHARD) die(2, "a plan more than one move deep below a loss (not handled)");
        collectShards(child, depth + 1, paths);
      }
      return;
  }
  die(2, "a plan node of an unknown kind");
}

int listShards(const std::string& path) {
  std::vector<std::string> paths;
  qcert::checker::MappedFile file(path);
  const Certificate cert = qcert::checker::readCertificate(file);
  if (!cert.hasPlan) std::exit(3);  // not a manifest: checker-verified asks, then exports it whole
  if (cert.isCount || cert.isMod2 || cert.isPartizan || !(cert.board.plainQueens() || queensTorus(cert.board)) ||
      cert.boardSize > kMaxBoard)
    die(2, path + ": not a manifest of the queens game on a square board or torus up to " + std::to_string(kMaxBoard) +
               " x " + std::to_string(kMaxBoard));
  capnp::FlatArrayMessageReader header(cert.header);
  collectShards(header.getRoot<::Header>().getPlan(), 0, paths);
  const std::string dir = path.find('/') == std::string::npos ? "" : path.substr(0, path.rfind('/') + 1);
  std::printf("qcert-manifest 1\nboard %s%u\n", cert.board.torus ? "torus " : "", cert.boardSize);
  writeClaim(stdout, cert);
  std::printf("shards %zu\n", paths.size());
  for (const std::string& p : paths) {
    if (!qcert::checker::shardPathAllowed(p)) die(2, "a shard path the checker refuses: " + p);
    qcert::checker::MappedFile shardFile(dir + p);
    const Certificate shard = qcert::checker::readCertificate(shardFile);
    if (shard.hasPlan || shard.boardSize != cert.boardSize || !(shard.board == cert.board))
      die(2, dir + p + ": not a single certificate of the same board");
    std::printf("shard %s\n", (dir + p).c_str());
    writeClaim(stdout, shard);
  }
  std::printf("end\n");
  return std::fflush(stdout) == 0 ? 0 : 2;
}

// A whole number of an option, from lo to hi, or exit 2 naming the option.
unsigned long optionNumber(const char* name, const char* text, unsigned long lo, unsigned long hi) {
  char* end = nullptr;
  errno = 0;
  const unsigned long v = std::strtoul(text, &end, 10);
  if (!*text || *end || errno || text[0] == '-' || v < lo || v > hi)
    die(2, std::string(name) + " takes a whole number from " + std::to_string(lo) + " to " + std::to_string(hi));
  return v;
}

// Replays the certificate (the observer keeps its replies), then writes the table.
template <unsigned W>
int exportTable(const Certificate& cert, const std::string& path, unsigned K, bool exact, bool hints,
                unsigned long timeLimit, unsigned long maxMemoryMiB) {
  Exporter<W> exporter(cert, K);
  exporter.setSymmetry(!exact);
  exporter.setHints(hints);
  try {
    exporter.expectReplies(cert.replyCount);
  } catch (const std::bad_alloc&) {
    die(2, "out of memory (--max-memory " + std::to_string(maxMemoryMiB) + " MiB); no table");
  }
  const qcert::checker::ReplyObserver observer = [&](const uint64_t* w, unsigned count, uint32_t h, int move) {
    exporter.observe(w, count, h, move);
  };
  qcert::checker::CheckOptions options;
  options.path = path;
  options.quiet = true;
  options.observer = &observer;
  // The replies are all the walk needs: the positions at or below the
  // certificate's cut-off are not solved (the proved check decides; a wrong
  // certificate gives a table it rejects).
  options.repliesOnly = true;
  options.timeLimitSeconds = double(timeLimit);
  options.maxMemoryMiB = maxMemoryMiB;
  const qcert::checker::Verdict v = qcert::checker::check(options, std::cerr);
  if (v.kind == qcert::checker::Verdict::Kind::Rejected) die(1, "the checker rejects " + path + ": " + v.reason);
  if (!v.repliesRead) die(2, path + ": " + (v.line().empty() ? v.reason : v.line()));
  static char buffer[1 << 20];
  std::setvbuf(stdout, buffer, _IOFBF, sizeof buffer);
  try {
    exporter.run(stdout);
  } catch (const std::bad_alloc&) {
    die(2, "out of memory (--max-memory " + std::to_string(maxMemoryMiB) + " MiB); no table");
  }
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) die(2, "cannot write the table");
  std::fprintf(stderr, "export-table: %zu entries, %zu positions looked up by a symmetry (%zu replies searched here), "
               "%zu winning queens suggested, cutoff %u\n",
               exporter.entryCount(), exporter.mapLines(), exporter.solved(), exporter.hintCount(), K);
  return 0;
}

// A table of parts (docs/parts.md) of a Grundy claim about an empty board
// that does not wrap around, for the proved parts check (Parts.v): the board,
// its holes and piece, the claim, then each entry's squares and value as the
// certificate lists them.  Checked by the checker library first.
int exportParts(const std::string& path, unsigned long timeLimit, unsigned long maxMemoryMiB) {
  static const char* const kPieces[] = {"queen", "rook", "bishop", "king", "knight"};
  qcert::checker::CheckOptions options;
  options.path = path;
  options.quiet = true;
  options.timeLimitSeconds = double(timeLimit);
  options.maxMemoryMiB = maxMemoryMiB;
  const qcert::checker::Verdict v = qcert::checker::check(options, std::cerr);
  if (v.kind == qcert::checker::Verdict::Kind::Rejected) die(1, "the checker rejects " + path + ": " + v.reason);
  if (v.kind != qcert::checker::Verdict::Kind::Verified) die(2, path + ": " + (v.line().empty() ? v.reason : v.line()));
  qcert::checker::MappedFile file(path);
  const Certificate cert = qcert::checker::readCertificate(file);
  const qcert::checker::Board& b = cert.board;
  if (b.torus || !cert.grundy || !cert.queens.empty() || b.piece > 4)
    die(2, path + ": the proved check reads tables of parts of a Grundy value of an empty board that does not wrap around");
  static char buffer[1 << 20];
  std::setvbuf(stdout, buffer, _IOFBF, sizeof buffer);
  std::printf("qcert-parts 1\nboard %u %u piece %s holes %zu", b.rows, b.cols, kPieces[b.piece], b.holes.size());
  for (unsigned h : b.holes) std::printf(" %u %u", h / b.cols, h % b.cols);
  std::printf("\nclaim grundy %u\n", cert.heap);
  qcert::checker::TokenStream tokens(cert);
  size_t entries = 0;
  auto next = [&] {
    if (tokens.remaining() == 0) die(1, path + ": the tokens end inside an entry");
    return tokens.next();
  };
  while (tokens.remaining() > 0) {
    const uint32_t k = next();
    std::printf("p %u", k);
    uint64_t s = 0;
    for (uint32_t i = 0; i < k; ++i) {
      s = i == 0 ? next() : s + next();
      std::printf(" %llu %llu", (unsigned long long)(s / b.cols), (unsigned long long)(s % b.cols));
    }
    std::printf(" %u\n", next());
    ++entries;
  }
  std::printf("end\n");
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) die(2, "cannot write the table");
  std::fprintf(stderr, "export-table: a table of %zu parts\n", entries);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  // The cut-off: by default 24 (the proved check's cheapest at n = 12 to 16
  // since its solver decides children of up to three live squares without a
  // search; 22 before, docs/verified-checker.md), or the certificate's own
  // when larger, so that no reply need be searched here (n = 18's shards: 24).
  int K = -1;
  bool exact = false, hints = true;
  unsigned long timeLimit = 0, maxMemoryMiB = 0;
  const char* kUsage =
      "usage: export-table [--cutoff K] [--exact] [--no-hints] [--time-limit S] [--max-memory MiB] FILE.qcert\n"
      "       export-table --list MANIFEST.qcert";
  std::string path;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--help") {
      std::cout << kUsage << "\nThe table checker-verified reads, on stdout (untrusted). On the square board\n"
                             "one entry per class of positions under the eight symmetries, with lines naming\n"
                             "the map for the others; --exact: one entry per position, no symmetry.\n"
                             "After each entry a line 'w' suggests the winning queen of each child the\n"
                             "verified solver will search; --no-hints leaves these lines out.\n";
      return 0;
    }
    if (a == "--list" && i + 2 == argc) {
      try {
        return listShards(argv[i + 1]);
      } catch (const qcert::checker::Rejection& e) {  // a damaged file: exit 1, as for a table
        die(1, std::string(argv[i + 1]) + ": " + e.what());
      } catch (const std::exception& e) {
        die(2, std::string(argv[i + 1]) + ": " + e.what());
      }
    }
    if (a == "--cutoff" && i + 1 < argc) {
      K = int(optionNumber("--cutoff", argv[++i], 0, 30));
    } else if (a == "--exact") {
      exact = true;
    } else if (a == "--no-hints") {
      hints = false;
    } else if (a == "--time-limit" && i + 1 < argc) {
      timeLimit = optionNumber("--time-limit", argv[++i], 1, 365ul * 86400);
    } else if (a == "--max-memory" && i + 1 < argc) {
      maxMemoryMiB = optionNumber("--max-memory", argv[++i], 16, 1ul << 24);
    } else if (path.empty() && !a.empty() && a[0] != '-') {
      path = a;
    } else {
      die(2, kUsage);
    }
  }
  if (path.empty()) die(2, kUsage);
  // The walk after the check has no clock of its own: an alarm ends it, and a
  // thread that reads the resident size ten times a second bounds its
  // tables (not RLIMIT_AS: AddressSanitizer's shadow needs terabytes of
  // address space, and the sanitized build must run too).
  if (timeLimit > 0) {
    std::signal(SIGALRM, [](int) {
      static const char kMsg[] = "export-table: time limit reached (--time-limit); no table\n";
      if (::write(2, kMsg, sizeof kMsg - 1) < 0) {}
      std::_Exit(2);
    });
    ::alarm(unsigned(timeLimit));
  }
  if (maxMemoryMiB > 0) {
    std::thread([maxMemoryMiB] {
      const long page = ::sysconf(_SC_PAGESIZE);
      for (;;) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        unsigned long size = 0, resident = 0;
        if (FILE* f = std::fopen("/proc/self/statm", "r")) {
          if (std::fscanf(f, "%lu %lu", &size, &resident) != 2) resident = 0;
          std::fclose(f);
        }
        if (resident * uint64_t(page) > (uint64_t(maxMemoryMiB) << 20)) {
          static const char kMsg[] = "export-table: memory limit reached (--max-memory); no table\n";
          if (::write(2, kMsg, sizeof kMsg - 1) < 0) {}
          std::_Exit(2);
        }
      }
    }).detach();
  }
  Certificate cert;
  try {
    qcert::checker::MappedFile file(path);
    cert = qcert::checker::readCertificate(file);
  } catch (const std::exception& e) {
    // The checker library says whether this is a rejection (a corrupted
    // certificate: exit 1) or an unreadable file (exit 2).
    qcert::checker::CheckOptions options;
    options.path = path;
    options.quiet = true;
    const qcert::checker::Verdict v = qcert::checker::check(options, std::cerr);
    die(v.kind == qcert::checker::Verdict::Kind::Rejected ? 1 : 2, path + ": " + e.what());
  }
  if (cert.parts && !cert.isCount && !cert.isMod2 && !cert.isPartizan && !cert.hasPlan)
    return exportParts(path, timeLimit, maxMemoryMiB);
  if (cert.isCount || cert.isMod2 || cert.isPartizan || !(cert.board.plainQueens() || queensTorus(cert.board)))
    die(2, path + ": not a certificate of the queens game on a square board or torus");
  if (cert.hasPlan) die(2, path + ": a shard manifest (not handled yet)");
  if (cert.boardSize > kMaxBoard)
    die(2, path + ": boards up to " + std::to_string(kMaxBoard) + " x " + std::to_string(kMaxBoard) + " only");
  if (cert.mirrorLemma) die(2, path + ": a claim by the mirror lemma (no replies to export)");

  const unsigned cutoff = K >= 0 ? unsigned(K) : std::min(30u, std::max(24u, unsigned(cert.cutoff)));
  return cert.boardSize <= 16 ? exportTable<4>(cert, path, cutoff, exact, hints, timeLimit, maxMemoryMiB)
                              : exportTable<8>(cert, path, cutoff, exact, hints, timeLimit, maxMemoryMiB);
}
