// `qcert replies FILE`: the winner's reply to every first move of the loser,
// up to symmetry, read from a certificate the checker library has verified in
// full (as ui/certified.hpp does, but keeping only these replies, so the
// n = 16 manifest's 11.9 million decisions need no memory). For the empty
// 16x16 board this is Jenrich's round-1 table (Jenrich 2014, section 5.1).
//
// The loser's first turn: the claim's position for a loss (or a Grundy
// value), the position after the winner's first move for a win. Its moves are
// the checker's own list there: squares least in their orbit under the
// symmetries fixing the position, in increasing order, then heap moves.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ui/certified.hpp"

namespace qcert::ui {

struct FirstReply {
  int move = 0;                // the loser's move: a square, or -1 - h (heap move to h)
  std::optional<int> reply;    // the winner's reply (same coding)
  enum class From { certificate, onTheSpot, none } from = From::none;
  bool belowCutoff = false;    // the position after `move` has at most cut-off free squares: no stored reply
};

struct ReplyTable {
  CertifiedClaim claim;           // the verified claim (statement, board, position)
  bool winnerMovesFirst = false;  // a win claim: the winner makes the first move
  std::optional<int> winnerFirst;  // that move (square or -1 - h); nullopt: not stored (below the cut-off)
  FirstReply::From winnerFirstFrom = FirstReply::From::none;
  std::vector<unsigned> before;   // the pieces on the board at the loser's first turn
  uint32_t heap = 0;              // the heap there
  std::vector<FirstReply> rows;   // one per move of the loser there, in the checker's order
  // Non-empty when the certificate stores no moves at all, so that every move
  // shown is proved on the spot: why (a table of independent parts, the
  // mirror lemma). The checker verifies the claim from it, never a move.
  std::string noStoredMoves;
};

// Verifies the certificate with the checker library (`jobs` shards at a
// time, NOT CHECKED after `timeLimitSeconds`, 0: none) and keeps the replies
// at the loser's first turn. Throws CertificateError unless VERIFIED, and for
// count, mod-2 and partizan certificates (status 2). Rows whose reply the
// certificate does not store are left for fillOnTheSpot.
// checkerProgress: the checker's own progress on stderr (a manifest's shards).
ReplyTable loadReplyTable(const std::string& path, unsigned jobs, double timeLimitSeconds, bool checkerProgress = false);

// The file is a shard manifest (its check shows its own progress); false for
// anything else, unreadable files included (the check then says why).
bool isShardManifest(const std::string& path);

// Fills what the certificate leaves to the checker's own search (positions
// at or below the cut-off) with the prover's exact search, marked as proved on
// the spot; false if some position was not decided within the time.
bool fillOnTheSpot(ReplyTable& table, double secondsPerPosition);

// The table as text: the rows with the loser's move, the reply and where it
// comes from; a board with the reply written on each move's square; and for
// square boards up to 16x16, Jenrich's layout (table T of Jenrich 2014, 5.1).
std::string formatReplyTable(const ReplyTable& table, bool unicode);

// The table for programs (qcert replies FILE --tsv; qcert report --replies
// reads it): UTF-8, tab-separated,
//   #qcert-replies<TAB>1
//   #claim<TAB>the verified statement
//   #board<TAB>RxC (rows x columns; "torus", holes and pieces placed before the
//          loser's turn follow as further fields: torus, holes=a1,b2, before=d4)
//   #cert<TAB>the certificate's path as given
//   #first<TAB>move<TAB>from      (win claims only: the winner's first move)
//   move<TAB>reply<TAB>half_turn<TAB>from
// then one line per move of the loser, in the checker's order: the move and
// the reply as square names (a1 bottom left) or "heap-H" (a heap move to H),
// "-" for a reply not decided; half_turn 1 when the reply is the move's image
// under the half turn about the centre, else 0; from: certificate,
// on-the-spot (proved by the prover's exact search, not stored in the
// certificate) or none.
std::string formatReplyTableTsv(const ReplyTable& table, const std::string& certPath);

}  // namespace qcert::ui
