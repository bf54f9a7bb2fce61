// qcert describe (describe.hpp): the checker library reads the file (framing,
// seal, header checks, chunk decompression: certificate_file.hpp, steps 1-3 of
// docs/certificate-format.md) and the header is printed field by field. No
// replay, no recount, no walk of a manifest's plan against the move rules.
#include "ui/describe.hpp"

#include <capnp/serialize.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <sstream>
#include <vector>

#include "checker/board.hpp"
#include "checker/certificate_file.hpp"
#include "ui/certified.hpp"
#include "checker/checker.hpp"
#include "ui/checker_run.hpp"
#include "checker/limits.hpp"
#include "checker/manifest.hpp"
#include "checker/mod2/rules.hpp"
#include "checker/count.hpp"  // (prover/ has a count.hpp too)
#include "checker/parallel.hpp"
#include "schema/qcert.capnp.h"
#include "checker/replay.hpp"
#include "ui/cert_positions.hpp"

namespace qcert::ui {
using namespace checker;  // the checker side of the front end: checker headers only
namespace {

constexpr size_t kShardsShown = 40;
constexpr unsigned kMaxPlanDepth = 64;

// 1234567 -> "1,234,567".
std::string grouped(uint64_t x) {
  std::string s = std::to_string(x);
  for (int i = int(s.size()) - 3; i > 0; i -= 3) s.insert(size_t(i), ",");
  return s;
}
std::string plural(uint64_t k, const std::string& one, const std::string& many) { return grouped(k) + " " + (k == 1 ? one : many); }

// Text the producer wrote (untrusted): printable ASCII, at most 200 characters.
std::string printable(std::string s) {
  if (s.size() > 200) s = s.substr(0, 200) + "...";
  for (char& ch : s)
    if (ch < 0x20 || ch > 0x7e) ch = '?';
  return s;
}

std::string field(const std::string& name, const std::string& value) {
  std::string head = name + ":";
  if (head.size() < 15) head.resize(15, ' ');
  return head + value + "\n";
}

std::string squares(unsigned cols, const std::vector<unsigned>& list) {
  std::string s;
  for (size_t i = 0; i < list.size(); ++i) s += (i ? ", " : "") + squareName(cols, list[i]);
  return s;
}
template <class List>
std::string squares(unsigned cols, List list) {
  std::vector<unsigned> v;
  for (auto s : list) v.push_back(unsigned(s));
  return squares(cols, v);
}
template <class List>
std::string numbers(List list) {
  std::string s;
  size_t i = 0;
  for (auto x : list) {
    if (i == 12) return s + ", ... (" + std::to_string(list.size()) + " entries)";
    s += (i++ ? ", " : "") + grouped(uint64_t(x));
  }
  return s.empty() ? "none" : s;
}

const char* const kPieces[] = {"queens", "rooks", "bishops", "kings", "knights"};
const char* const kMaps[] = {"none (every decision is an explicit move)",
                             "half turn: (r,c) -> (n-1-r, n-1-c)",
                             "mirror in the files: (r,c) -> (r, n-1-c)",
                             "mirror in the ranks: (r,c) -> (m-1-r, c)",
                             "mirror in the diagonal: (r,c) -> (c, r)",
                             "mirror in the antidiagonal: (r,c) -> (n-1-c, m-1-r)"};

std::string boardWords(const Board& b) {
  std::string s = std::to_string(b.rows) + "x" + std::to_string(b.cols) + (b.torus ? " torus" : " board");
  if (b.rows != b.cols) s += " (" + std::to_string(b.rows) + " rows, " + std::to_string(b.cols) + " columns)";
  if (!b.holes.empty()) s += ", holes " + squares(b.cols, b.holes);
  return s + ", " + kPieces[std::min(b.piece, 4u)];
}

struct Reader {
  explicit Reader(const Certificate& cert) : reader(cert.header, options()) {}
  static capnp::ReaderOptions options() {
    capnp::ReaderOptions o;
    o.traversalLimitInWords = uint64_t(1) << 30;  // a plan may list 10^6 shards
    return o;
  }
  Header::Reader header() { return reader.getRoot<Header>(); }
  capnp::FlatArrayMessageReader reader;
};

// Chunk sizes: compressed frame bytes and raw token bytes, from each chunk's header.
void chunkSizes(const Certificate& cert, uint64_t& frames, uint64_t& raw) {
  frames = raw = 0;
  for (const auto& msg : cert.chunks) {
    capnp::FlatArrayMessageReader r(msg, Reader::options());
    const auto chunk = r.getRoot<ReplyChunk>();
    frames += chunk.getZstdFrame().size();
    raw += chunk.getRawSize();
  }
}

// The move a winBy token names at the position, in words.
std::string moveWords(const Geometry<8>& geo, const TokenMove& move, uint32_t token) {
  if (move.kind == TokenMove::Kind::square) return squareName(geo.n, move.to);
  if (move.kind == TokenMove::Kind::heap) return "lowering the heap to " + std::to_string(move.to);
  return "token " + std::to_string(token) + " (not a move there)";
}

struct ShardRef {
  std::string path;
  std::array<unsigned char, 16> seal{};
  bool sealSize = true;
};

struct PlanSummary {
  std::vector<ShardRef> shards;
  uint64_t winBy = 0, lossBy = 0;
  unsigned depth = 0;
  std::string top;      // the first levels in words
  bool tooDeep = false;
  std::string problem;  // the first thing found that the checker rejects, if any
};

// Walks the plan as the checker does, but lists what it finds instead of
// rejecting.  The file is untrusted: a token or heap it states is checked
// against the position before anything is expanded from it, so the work is
// bounded by the plan's own lists (a winBy token of 2^32 - 1 once made a heap
// of 4 billion, each of its moves a row).
void walkPlan(const Geometry<8>& geo, Obligation::Reader ob, const Bits<8>& L, uint32_t h, unsigned depth, PlanSummary& sum,
              bool describeTop) {
  if (depth > kMaxPlanDepth) {
    sum.tooDeep = true;
    return;
  }
  sum.depth = std::max(sum.depth, depth);
  if (ob.isShard()) {
    ShardRef ref;
    ref.path = ob.getShard().getPath();
    const auto seal = ob.getShard().getSeal();
    ref.sealSize = seal.size() == 16;
    if (ref.sealSize) std::copy(seal.begin(), seal.end(), ref.seal.begin());
    sum.shards.push_back(ref);
    if (describeTop) sum.top += "one shard";
    return;
  }
  if (ob.isWinBy()) {
    ++sum.winBy;
    const uint32_t token = ob.getWinBy().getMove();
    const TokenMove move = decodeToken(L.w, h, token);
    if (describeTop) sum.top += "the player to move wins by " + moveWords(geo, move, token) + "; after it, ";
    Bits<8> after = L;
    uint32_t afterHeap = h;
    if (move.kind == TokenMove::Kind::square) after = L.without(geo.attack[move.to]);
    else if (move.kind == TokenMove::Kind::heap) afterHeap = move.to;
    else if (sum.problem.empty()) sum.problem = "a winBy token, " + std::to_string(token) + ", names no move";
    walkPlan(geo, ob.getWinBy().getAfter(), after, afterHeap, depth + 1, sum, describeTop);
    return;
  }
  ++sum.lossBy;
  const auto list = ob.getLossBy();
  const std::vector<int> boardMoves = loserMovesInCheckerOrder(geo, L, 0);  // the heap moves follow: h of them
  const uint64_t moves = boardMoves.size() + uint64_t(h);
  if (describeTop)
    sum.top += "each of the " + std::to_string(list.size()) + " moves of the losing side (up to symmetry; the checker's own list has " +
               std::to_string(moves) + ") has its own part";
  if (list.size() != moves && sum.problem.empty())
    sum.problem = "a split lists " + std::to_string(list.size()) + " parts where the loser has " + std::to_string(moves) + " moves";
  for (size_t i = 0; i < list.size(); ++i) {
    Bits<8> after = L;
    uint32_t afterHeap = h;
    if (i < boardMoves.size()) after = L.without(geo.attack[unsigned(boardMoves[i])]);
    else if (i < moves) afterHeap = uint32_t(i - boardMoves.size());
    walkPlan(geo, list[unsigned(i)], after, afterHeap, depth + 1, sum, false);
  }
}

// The entries of a table of parts, counted from its tokens (k, then k
// squares, then the value); only the stream's shape is read, nothing checked.
std::string partsEntries(const Certificate& cert) {
  constexpr uint64_t kMaxCounted = uint64_t(1) << 26;
  if (cert.replyCount > kMaxCounted) return "not counted (more than " + grouped(kMaxCounted) + " tokens)";
  TokenStream tokens(cert);
  uint64_t entries = 0;
  while (tokens.remaining() > 0) {
    const uint64_t k = tokens.next();
    if (k == 0 || k + 1 > tokens.remaining()) return plural(entries, "entry", "entries") + ", then a malformed one (the checker rejects that)";
    for (uint64_t i = 0; i <= k; ++i) tokens.next();
    ++entries;
  }
  return plural(entries, "entry", "entries");
}

std::string sealHex(const std::array<unsigned char, 16>& seal) {
  char text[40];
  for (int i = 0; i < 16; ++i) std::snprintf(text + 2 * i, 3, "%02x", seal[size_t(i)]);
  return text;
}

std::string describeGame(const std::string& path, const Certificate& cert, uint64_t fileBytes, const DescribeOptions& o) {
  std::ostringstream out;
  out << field("Claim", claimInWords(cert));
  out << field("Game", boardWords(cert.board) + " (players alternately place a piece on a free square; who cannot move loses)");
  std::string position = cert.queens.empty() ? "the empty board" : "after " + squares(cert.board.cols, cert.queens);
  position += cert.heap && !cert.grundy ? ", plus a Nim heap of " + std::to_string(cert.heap) : "";
  out << field("Position", position);
  out << field("Claim kind", cert.grundy ? "Grundy value " + std::to_string(cert.heap) +
                                               " (stated as: with a heap of that size added, the player to move loses)"
                                         : std::string("outcome: the player to move ") + (cert.claimWin ? "wins" : "loses"));
  Reader reader(cert);
  if (cert.hasPlan) {
    const Geometry<8> geo(cert.board);
    Bits<8> L = geo.onBoard;
    for (unsigned q : cert.queens)
      if (q < geo.squares) L = L.without(geo.attack[q]);
    PlanSummary sum;
    walkPlan(geo, reader.header().getPlan(), L, cert.heap, 1, sum, true);
    out << field("Kind", "shard manifest: the claim is split into " + plural(sum.shards.size(), "shard certificate", "shard certificates") +
                             " (their seals pinned here)");
    const bool flat = sum.depth <= 2 + (sum.winBy > 0);  // one split (after one winning move): one shard per move
    out << field("Plan", sum.top + (flat ? ", one shard each" : "; further down " + plural(sum.winBy, "winning move", "winning moves") +
                                                                    " named and " + plural(sum.lossBy, "split", "splits") +
                                                                    " over every move of the losing side in all, " +
                                                                    std::to_string(sum.depth) + " levels") +
                             (sum.tooDeep ? "; deeper than 64 levels (the checker rejects that)" : "") +
                             (sum.problem.empty() ? "" : "; " + sum.problem + " (the checker rejects that)"));
    const std::filesystem::path dir = std::filesystem::path(path).parent_path();
    uint64_t shardBytes = 0, shardReplies = 0, missing = 0, bad = 0;
    std::ostringstream rows;
    for (size_t i = 0; i < sum.shards.size(); ++i) {
      const ShardRef& ref = sum.shards[i];
      std::string status, claim;
      uint64_t bytes = 0, replies = 0;
      if (!shardPathAllowed(ref.path)) {
        status = "path not allowed (the checker rejects it; not opened)", ++bad;
      } else {
        const std::string file = (dir / ref.path).string();
        try {
          bytes = regularFileSize(file, "shard");
          MappedFile mapped(file);
          const Certificate shard = readCertificate(mapped);
          if (shard.isCount || shard.isMod2 || shard.isPartizan || shard.hasPlan || shard.parts)
            throw Rejection("not a certificate of replies without a plan");
          replies = shard.replyCount;
          claim = claimInWords(shard);
          status = !ref.sealSize ? "pinned seal not 16 bytes" : shard.seal == ref.seal ? "seal as pinned" : "seal differs from the pinned one";
          if (status != "seal as pinned") ++bad;
        } catch (...) {
          const Failure f = currentFailure();
          status = f.kind == FailureKind::ioError ? "cannot be read: " + f.text : "REJECTED: " + f.text;
          ++(f.kind == FailureKind::ioError ? missing : bad);
        }
      }
      shardBytes += bytes, shardReplies += replies;
      if (i < kShardsShown || o.allShards) {
        char head[64];
        std::snprintf(head, sizeof head, "  %4zu  %12s %12s  ", i + 1, grouped(bytes).c_str(), grouped(replies).c_str());
        rows << head << printable(ref.path) << ": " << status << "\n" << std::string(34, ' ') << (claim.empty() ? "-" : claim) << "\n";
      }
    }
    out << field("Shards", plural(sum.shards.size(), "file", "files") + ", " + grouped(shardBytes) + " bytes, " +
                               plural(shardReplies, "winner decision", "winner decisions") + " in all" +
                               (missing ? "; " + plural(missing, "cannot be read", "cannot be read") : "") +
                               (bad ? "; " + plural(bad, "is not as pinned or is malformed", "are not as pinned or are malformed") : ""));
    out << "     #         bytes      replies  file: seal; its claim\n" << rows.str();
    if (!o.allShards && sum.shards.size() > kShardsShown)
      out << "  ... " << plural(sum.shards.size() - kShardsShown, "more shard", "more shards") << " (--all-shards lists them)\n";
  } else if (cert.mirrorLemma) {
    out << field("Kind", "mirror-lemma certificate: no replies; the checker checks the lemma's conditions on the board (docs/variants.md)");
    out << field("Map", kMaps[std::min(cert.defaultReply, 5u)]);
  } else if (cert.parts) {
    uint64_t frames = 0, raw = 0;
    chunkSizes(cert, frames, raw);
    out << field("Kind", "table of independent parts (docs/parts.md): sets of free squares with their Grundy values, no moves; "
                         "the checker values each entry from the earlier ones, then the claim from the position's parts");
    out << field("Entries", partsEntries(cert));
    out << field("Tokens", plural(cert.replyCount, "token", "tokens") + " (an entry is its size, its squares and its value) in " +
                               plural(cert.chunks.size(), "chunk", "chunks") + ": " + grouped(frames) + " bytes compressed, " +
                               grouped(raw) + " bytes raw");
  } else {
    uint64_t frames = 0, raw = 0;
    chunkSizes(cert, frames, raw);
    out << field("Kind", "game certificate: the winner's replies, the loser's moves generated by the checker");
    out << field("Cut-off", std::to_string(cert.cutoff) + " (positions with at most " + std::to_string(cert.cutoff) +
                                " free squares have no stored replies: the checker solves them itself)");
    out << field("Default reply", std::string(kMaps[std::min(cert.defaultReply, 5u)]) +
                                      (cert.defaultReply ? " (token 0: answer the opponent's last move by its image)" : ""));
    out << field("Replies", plural(cert.replyCount, "winner decision", "winner decisions") + " in " +
                                plural(cert.chunks.size(), "chunk", "chunks") + ": " + grouped(frames) + " bytes compressed, " +
                                grouped(raw) + " bytes raw");
    out << field("Check memory", "at most about " + grouped(std::max<uint64_t>(1, replayMemoryBound(cert) >> 20)) +
                                     " MiB (from the header: checker --help, --max-memory)");
  }
  (void)fileBytes;
  return out.str();
}

std::string describeCount(const Certificate& cert) {
  std::ostringstream out;
  Reader reader(cert);
  const auto c = reader.header().getCount();
  static const char* const kProblems[] = {"n-queens", "n+k queens with k holes", "n-queens on the torus",
                                          "end positions of the queens game (maximal placements)", "the HP-71B blog's program"};
  const unsigned problem = unsigned(c.getProblem());
  // The claim in the checker's words: the checker's own sums with no cell
  // recounted (the cells i with i % 2^20 = 2^20 - 1: none below 2^20 cells).
  std::string claim;
  const uint64_t cells = c.getCells().size();
  if (cells < (uint64_t(1) << 20)) {
    try {
      claim = verifyCountCertificate(cert, 1, 0, 0, (uint64_t(1) << 20) - 1, uint64_t(1) << 20, false, nullptr).statement;
    } catch (...) {
      claim = "not put in words: " + currentFailure().text;
    }
  }
  out << field("Claim", claim.empty() ? "not put in words (2^20 cells)" : claim);
  out << field("Kind", "count certificate: the checker recounts every cell with its own search");
  out << field("Problem", std::string(problem < 5 ? kProblems[problem] : "unknown") + ", n = " + std::to_string(c.getBoardSize()) +
                              (c.getHoles() ? ", k = " + std::to_string(c.getHoles()) : "") +
                              (c.getMaxQueens() ? ", at most " + std::to_string(c.getMaxQueens()) + " queens" : ""));
  out << field("Totals", numbers(c.getTotals()));
  out << field("Classes", numbers(c.getClasses()) + " (up to the 8 symmetries of the square)");
  uint64_t placements = 0;
  for (auto cell : c.getCells())
    for (uint64_t t : cell.getTotals()) placements += t;
  out << field("Cells", plural(cells, "cell", "cells") + " of depth " + std::to_string(c.getCellDepth()) + " (the first " +
                            std::to_string(c.getCellDepth()) + " rows' contents); they state " + grouped(placements) +
                            " placements, each of which the recount visits");
  out << field("Producer", printable(c.getProducer()));
  return out.str();
}

std::string describeMod2(const Certificate& cert) {
  std::ostringstream out;
  Reader reader(cert);
  const auto c = reader.header().getMod2();
  const unsigned n = c.getBoardSize();
  if (n < 1 || n > 32) throw Rejection("board size " + std::to_string(n) + " is outside 1..32 for mod-2 claims");
  // Columns past z continue aa, ab, ... (the checker's names); at most 40 listed.
  auto names = [n](auto list) {
    std::string s;
    for (unsigned i = 0; i < list.size() && i < 40; ++i) s += (i ? ", " : "") + mod2::square(n, list[i]);
    return list.size() > 40 ? s + ", ..." : s;
  };
  static const char* const kRules[] = {"standard (place on a square attacked by an even number of queens)",
                                       "alternate (place on a square attacked by an odd number of queens)",
                                       "complementary (remove a queen attacked by an even number of queens)"};
  static const char* const kKinds[] = {"play: a sequence of moves the checker replays",
                                       "structure: a fact the checker derives from a lemma and the board",
                                       "exhaustive: a fact the checker decides by searching every legal position",
                                       "game: an outcome or Grundy value, with the winner's replies"};
  out << field("Kind", "mod-2 game certificate (docs/mod2-game.md): the claim is worded by the checker only when it verifies it");
  out << field("Game", "the mod-2 queens game on the " + std::to_string(n) + "x" + std::to_string(n) + " board, rule " +
                           kRules[std::min(unsigned(c.getRule()), 2u)]);
  out << field("Claim kind", kKinds[std::min(unsigned(c.getKind()), 3u)]);
  switch (c.getKind()) {
    case Mod2Kind::PLAY: {
      static const char* const kSeq[] = {"the moves listed", "Brown-Ladha Claim 3.1's order (generated by the checker)",
                                         "Brown-Ladha Claim 4.1's order (generated by the checker)"};
      static const char* const kEnd[] = {"the board is full", "the position is locked (no legal move, not full)", "exactly COUNT queens",
                                         "move COUNT is the first illegal one"};
      out << field("Sequence", std::string(kSeq[std::min(unsigned(c.getSequence()), 2u)]) + ", " + plural(c.getMoves().size(), "move", "moves") +
                                   (c.getMoves().size() ? ": " + names(c.getMoves()) : ""));
      std::string end = kEnd[std::min(unsigned(c.getEnd()), 3u)];
      if (const size_t at = end.find("COUNT"); at != std::string::npos) end.replace(at, 5, std::to_string(c.getCount()));
      out << field("End", end);
      break;
    }
    case Mod2Kind::STRUCTURE:
      out << field("Fact", c.getStructure() == Mod2Structure::NO_COMPLETE ? "no legal position is complete"
                                                                           : "no legal position has more than n*n - 2 queens");
      break;
    case Mod2Kind::EXHAUSTIVE: {
      static const char* const kFacts[] = {"the legal positions, by number of queens", "the most queens of a legal position",
                                           "the fewest queens of a locked position", "the complement map is an isomorphism",
                                           "the number of distinct plays",
                                           "who wins from the empty board (the checker solves every set of squares)",
                                           "unknown"};
      out << field("Fact", std::string(kFacts[std::min(unsigned(c.getExhaustive()), 6u)]) + "; count " + std::to_string(c.getCount()));
      if (c.getExhaustive() == Mod2Exhaustive::OUTCOME)
        out << field("Claim", std::string("the player to move ") + (c.getOutcome() == Outcome::WIN ? "wins" : "loses"));
      out << field("Totals", numbers(c.getTotals()));
      if (c.getClasses().size()) out << field("Classes", numbers(c.getClasses()));
      break;
    }
    case Mod2Kind::GAME:
      out << field("Position", (c.getStart().size() ? "moves " + names(c.getStart()) : std::string("the start")) +
                                   (c.getHeap() ? ", plus a Nim heap of " + std::to_string(c.getHeap()) : ""));
      out << field("Claim", c.getGrundy() ? "the Grundy value is " + std::to_string(c.getHeap())
                                          : std::string("the player to move ") + (c.getOutcome() == Outcome::WIN ? "wins" : "loses"));
      out << field("Replies", plural(c.getReplies().size(), "winner decision", "winner decisions"));
      break;
  }
  out << field("Producer", printable(c.getProducer()));
  return out.str();
}

std::string describePartizan(const Certificate& cert) {
  std::ostringstream out;
  Reader reader(cert);
  const auto c = reader.header().getPartizan();
  const unsigned n = c.getBoardSize();
  if (n < 1 || n > 8) throw Rejection("board size " + std::to_string(n) + " is outside 1..8");
  auto names = [n](auto list) {
    if (list.size() > 64) return std::to_string(list.size()) + " squares (more than the board has)";
    return squares(n, list);
  };
  const std::string mover = c.getToMove() == Player::LEFT ? "Left" : "Right";
  out << field("Kind", "partizan game certificate (docs/partizan-game.md): Left and Right each place their own pieces on squares no "
                       "opposing piece attacks");
  out << field("Claim", mover + ", to move, " + (c.getMoverWins() ? "wins" : "loses"));
  out << field("Game", std::to_string(n) + "x" + std::to_string(n) + " board, " + kPieces[std::min(unsigned(c.getPiece()), 4u)] +
                           ", rule " + (c.getRule() == PartizanRule::OPEN ? "open (lines of attack pass over pieces)"
                                                                           : "blocking (a line of attack stops at the first piece)"));
  out << field("Position", "Left " + (c.getLeft().size() ? names(c.getLeft()) : std::string("none")) + "; Right " +
                               (c.getRight().size() ? names(c.getRight()) : std::string("none")));
  out << field("Replies", plural(c.getReplies().size(), "winner decision", "winner decisions"));
  static const char* const kMirrors[] = {"half turn", "mirror in the files", "mirror in the ranks", "mirror in the diagonal",
                                         "mirror in the antidiagonal"};
  const unsigned mirror = unsigned(c.getMirror());
  if (mirror != 0)
    out << field("Mirror lemma", (mirror <= 5 ? std::string(kMirrors[mirror - 1]) : "unknown map " + std::to_string(mirror)) +
                                     ": the claim rests on Lemma 3 of docs/partizan-game.md, whose conditions the checker checks on the board");
  out << field("Producer", printable(c.getProducer()));
  return out.str();
}

}  // namespace

std::string describeCertificate(const std::string& path, const DescribeOptions& options) {
  struct TimeLimit {  // the checker library's clock, for this description only
    explicit TimeLimit(double seconds) { limits::setTimeLimit(seconds); }
    ~TimeLimit() { limits::setTimeLimit(0); }
  } timeLimit(options.timeLimitSeconds);
  try {
    const uint64_t bytes = regularFileSize(path, "certificate");
    MappedFile file(path);
    const Certificate cert = readCertificate(file);
    Reader reader(cert);
    std::ostringstream out;
    out << "NOT VERIFIED: what the file says about itself. Nothing below has been checked (run checker "
        << path << " for a verdict);\n"
        << "only the file's framing, seal and header fields were read as the checker reads them.\n";
    out << field("File", path + ", " + grouped(bytes) + " bytes, format version " + std::to_string(reader.header().getFormatVersion()));
    out << field("Seal", "XXH3-128 " + sealHex(cert.seal) + " matches the file (no accidental damage; not a signature)");
    if (cert.isCount) out << describeCount(cert);
    else if (cert.isMod2) out << describeMod2(cert);
    else if (cert.isPartizan) out << describePartizan(cert);
    else {
      out << describeGame(path, cert, bytes, options);
      out << field("Producer", printable(cert.producer));
    }
    return out.str();
  } catch (const CertificateError&) {
    throw;
  } catch (...) {
    const Failure f = currentFailure();
    if (f.kind == FailureKind::rejected) throw CertificateError(1, "REJECTED: " + f.text);
    throw CertificateError(2, f.text);
  }
}

}  // namespace qcert::ui
