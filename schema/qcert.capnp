# qcert certificate schema: the contract between the untrusted prover and the
# trusted checker.  docs/certificate-format.md is the normative description of
# how a checker replays a certificate; this file fixes the bytes.
#
# A certificate file is a sequence of standard Cap'n Proto stream-framed
# messages (capnp::writeMessage / FlatArrayMessageReader):
#
#   Header, ReplyChunk x header.chunkCount, Seal
#
# and nothing after the Seal.  Several messages instead of one keep every
# message far below Cap'n Proto's per-message limits, so a file may be larger
# than 2 GiB and the checker may read it chunk by chunk from an mmap.

@0xb5f1a3c4d2e60718;

const formatVersion :UInt32 = 1;

enum Ruleset {
  # Node-Kayles on the attack graph of a board: a move places a piece on a
  # live square; that square and every live square the piece attacks stop
  # being live.  The player who cannot move loses.  The piece is a queen
  # unless Claim.piece says otherwise (the name predates the variants).
  queens @0;
}

# The piece of a placing game (docs/variants.md gives each attack rule).
# A knight may neither attack nor be attacked (Noon's rule); as the knight's
# attack is symmetric that is again "no piece attacks the square".
enum Piece {
  queen @0;
  rook @1;
  bishop @2;
  king @3;
  knight @4;
}

enum Outcome {
  win @0;    # the player to move at the root wins
  loss @1;   # the player to move at the root loses
}

enum ClaimKind {
  outcome @0;  # "the player to move wins/loses" (heap may be non-zero)
  grundy @1;   # "the Grundy value of the board position is <heap>";
               # requires outcome = loss (G(P) = g  <=>  P + *g is a loss)
}

enum DefaultReply {
  none @0;       # every winner decision is an explicit move
  mirror180 @1;  # token 0 means: answer the opponent's last board move by
                 # its image under the half turn (r, c) -> (n-1-r, n-1-c)
  # The same with another map of the board (m rows, n columns):
  mirrorFiles @2;         # (r, c) -> (r, n-1-c)
  mirrorRanks @3;         # (r, c) -> (m-1-r, c)
  mirrorDiagonal @4;      # (r, c) -> (c, r)          (square boards)
  mirrorAntiDiagonal @5;  # (r, c) -> (n-1-c, m-1-r)  (square boards)
}

struct Claim {
  ruleset @0 :Ruleset;
  boardSize @1 :UInt16;       # n; squares are numbered r*n + c, 0-based
  queens @2 :List(UInt16);    # queens placed before the root, in order; each
                              # must be live when placed
  heap @3 :UInt32;            # a Nim heap of this size is added to the root
  outcome @4 :Outcome;
  kind @5 :ClaimKind;
  # Variants (docs/variants.md).  The defaults are the queens game on the
  # square board, so certificates written before the variants read the same.
  piece @6 :Piece;            # the piece placed by both players
  torus @7 :Bool;             # lines wrap around the edges (square boards only)
  columns @8 :UInt16;         # 0: square (boardSize columns); else the board
                              # has boardSize rows and this many columns, and
                              # squares are r*columns + c
  holes @9 :List(UInt16);     # squares no piece may occupy, never live; lines
                              # of attack pass over them; strictly increasing
}

struct Header {
  formatVersion @0 :UInt32;   # must equal the constant formatVersion
  claim @1 :Claim;
  cutoff @2 :UInt16;          # K: positions with <= K live squares are solved
                              # by the checker's own search; no replies stored
  defaultReply @3 :DefaultReply;
  replyCount @4 :UInt64;      # winner decisions (tokens) in all chunks together
  chunkCount @5 :UInt32;      # ReplyChunk messages that follow
  producer @6 :Text;          # informational only (prover version, options)
  plan @7 :Obligation;        # set only in a shard manifest (then replyCount =
                              # chunkCount = 0): how the claim splits into
                              # shard certificates, see "Sharded certificates"
  count @8 :CountClaim;       # set only in a count certificate (then claim is
                              # left unset, cutoff = replyCount = chunkCount = 0,
                              # no plan): Header, Seal and nothing else.
                              # docs/count-certificates.md
  mod2 @9 :Mod2Claim;         # set only in a mod-2 game certificate (then claim
                              # and count are unset, cutoff = replyCount =
                              # chunkCount = 0, no plan): Header, Seal and
                              # nothing else.  docs/mod2-game.md
  mirrorLemma @10 :Bool;      # a loss claim with heap 0 and no tokens
                              # (replyCount = chunkCount = 0): the root
                              # satisfies the mirror lemma for the default
                              # reply's map (docs/variants.md); no replay
  partizan @11 :PartizanClaim;# set only in a partizan game certificate (then
                              # claim, count and mod2 are unset): Header, Seal
                              # and nothing else.  docs/partizan-game.md
  parts @12 :Bool;            # a game claim whose chunks hold a table of
                              # independent parts with their Grundy values
                              # instead of reply tokens (cutoff = 0, no default
                              # reply, no mirror lemma, no plan).  docs/parts.md
}

# ---- Mod-2 queens game certificates (docs/mod2-game.md) --------------------
# Seed 003 (Brown and Ladha).  A square is attacked by every queen on its row,
# column or diagonals (nothing blocks); squares are r*n + c as above.

enum Mod2Rule {
  standard @0;       # place a queen on an empty square attacked by an even
                     # number of queens; the game starts from the empty board
  alternate @1;      # place a queen on an empty square attacked by an odd
                     # number of queens; start: one given queen (start[0])
  complementary @2;  # remove a queen attacked by an even number of queens;
                     # the game starts from the full board
}

enum Mod2Kind {
  play @0;        # replay a sequence of moves, then check the end property
  structure @1;   # a fact about every legal position, from a lemma the
                  # checker states and a property of the board it evaluates
  exhaustive @2;  # a fact about all legal positions, by the checker's search
  game @3;        # outcome or Grundy value of a position, with the winner's
                  # replies (the loser's moves are generated by the checker)
}

enum Mod2Sequence {
  explicit @0;            # the moves are listed in `moves`
  brownLadhaComplete @1;  # Claim 3.1's order (Figure 3a, Steps 1-4, repeated
                          # on the (n-2) x (n-2) board), generated by the
                          # checker for odd n; `moves` must be empty
  brownLadhaLocked @2;    # Claim 4.1's order (Figure 5's moves repeated,
                          # then the corner), generated by the checker for
                          # odd n; `moves` must be empty
}

enum Mod2End {
  complete @0;   # all n*n squares hold queens after the last move
  locked @1;     # fewer than n*n queens and no legal move after the last move
  queens @2;     # exactly `count` queens after the last move (nothing more)
  illegalAt @3;  # moves 1..count-1 are legal and move `count` (1-based) is
                 # not: the sequence as given cannot be played
}

enum Mod2Structure {
  noComplete @0;       # even n: no legal position is complete
  atMostAllButTwo @1;  # even n: no legal position has more than n*n - 2 queens
}

enum Mod2Exhaustive {
  legalCount @0;     # the legal positions, by number of queens (totals) and
                     # up to the 8 symmetries (classes)
  mostQueens @1;     # no legal position has more than `count` queens, and one
                     # has exactly `count`
  fewestLocking @2;  # no legal locked position has fewer than `count` queens,
                     # and one has exactly `count`
  complementMap @3;  # the complement map is an isomorphism between this
                     # rule's game graph and `otherRule`'s (docs/mod2-game.md)
  playCount @4;      # totals = [the number of distinct plays from the empty
                     # board to a position with no move] (the game tree's
                     # leaves; n <= 5)
  outcome @5;        # `outcome` is who wins the standard game from the empty
                     # board, or the alternate-universe game from its given
                     # queen (start = [that square]) (n <= 6), by the
                     # checker's pass over every set
}

struct Mod2Claim {
  rule @0 :Mod2Rule;
  boardSize @1 :UInt16;        # n
  kind @2 :Mod2Kind;
  # kind = play
  sequence @3 :Mod2Sequence;
  moves @4 :List(UInt16);      # explicit: squares in play order (placements;
                               # removals for the complementary rule)
  end @5 :Mod2End;
  count @6 :UInt32;            # end = queens / illegalAt; mostQueens and
                               # fewestLocking: the bound
  # kind = structure
  structure @7 :Mod2Structure;
  # kind = exhaustive
  exhaustive @8 :Mod2Exhaustive;
  totals @9 :List(UInt64);     # legalCount: legal positions with 0..n*n queens
  classes @10 :List(UInt64);   # legalCount: the same up to symmetry
  otherRule @11 :Mod2Rule;     # complementMap: the other game
  # kind = game (n <= 8: a position fits in 64 bits)
  start @12 :List(UInt16);     # the position: standard, moves from the empty
                               # board; alternate, the given queen then moves;
                               # complementary, removals from the full board
                               # (also exhaustive outcome, alternate rule:
                               # the given queen alone)
  heap @13 :UInt32;            # a Nim heap added to the position
  outcome @14 :Outcome;        # for the player to move (game; exhaustive
                               # outcome: at the empty board, or after the
                               # alternate rule's given queen)
  grundy @15 :Bool;            # true: "the Grundy value is heap" (outcome =
                               # loss, G(P) = g <=> P + *g is a loss)
  replies @16 :List(Mod2Reply);# winner decisions, sorted by (queens, heap),
                               # each (queens, heap) at most once
  producer @17 :Text;          # informational only
}

struct Mod2Reply {
  queens @0 :UInt64;           # the position's queens, bit s = square s
  heap @1 :UInt32;             # the position's heap
  move @2 :UInt32;             # 1 + s: the square s (placed or removed);
                               # n*n + 1 + h: reduce the heap to h
}

# ---- Count certificates (docs/count-certificates.md) ----------------------

enum CountProblem {
  nQueens @0;       # n non-attacking queens on the n x n board
  nPlusK @1;        # n+k queens and k holes; a hole blocks lines of attack
  torus @2;         # n non-attacking queens on the n x n torus
  endPositions @3;  # maximal non-attacking placements (end positions of the
                    # queens game), counted by number of queens
  hp71b @4;         # the HP-71B program of seed 001: solutions and nodes
}

struct CountClaim {
  problem @0 :CountProblem;
  boardSize @1 :UInt16;
  holes @2 :UInt16;             # nPlusK: k (>= 1); 0 for every other problem
  maxQueens @3 :UInt16;         # endPositions: count only placements with at
                                # most this many queens (0: no limit)
  totals @4 :List(UInt64);      # what is counted, by problem (see the doc)
  classes @5 :List(UInt64);     # the same, up to the 8 symmetries of the
                                # square; empty for torus and hp71b
  checksum @6 :UInt64;          # sum of the cells' checksums (mod 2^64)
  cellDepth @7 :UInt16;         # a cell is the content of rows 0..cellDepth-1
  cells @8 :List(Cell);         # every admissible prefix exactly once, in
                                # increasing order
  producer @9 :Text;            # informational only
}

struct Cell {
  rows @0 :List(UInt64);        # cellDepth words: queens bit c | holes bit (32+c)
  totals @1 :List(UInt64);      # same shape as CountClaim.totals
  classes @2 :List(UInt64);     # placements in the cell that are the least of
                                # their class; same shape as CountClaim.classes
  checksum @3 :UInt64;          # sum of the placements' fingerprints (mod 2^64)
}

# A node of a shard manifest's plan. The position it stands for is the
# claim's root followed by the moves on the path from the plan's root; the
# outcome alternates: the plan's root has the claim's outcome.
struct Obligation {
  union {
    shard @0 :Shard;               # discharged by a separate certificate
    winBy @1 :WinSplit;            # winner's turn: this move, then a loss
    lossBy @2 :List(Obligation);   # loser's turn: one entry per move, in
                                   # replay order (orbit leaders by square,
                                   # then heap moves h' = 0, 1, ...)
  }
}

struct Shard {
  path @0 :Text;              # relative to the manifest's directory; only
                              # [A-Za-z0-9._/-], no "..", not absolute
  seal @1 :Data;              # the shard file's 16-byte Seal digest
}

struct WinSplit {
  move @0 :UInt32;            # a token as in ReplyChunk (1..m board, m+1..m+h
                              # heap; 0 is not allowed here)
  after @1 :Obligation;
}

struct ReplyChunk {
  tokenCount @0 :UInt64;      # tokens in this chunk
  rawSize @1 :UInt32;         # size of the decompressed token bytes
  zstdFrame @2 :Data;         # one zstd frame holding the token bytes; tokens
                              # are unsigned LEB128 and never cross chunks
}

struct Seal {
  xxh3x128 @0 :Data;          # 16 bytes, XXH3-128 (seed 0) of every byte of
                              # the file before this message, big-endian
                              # (high 64 bits first)
}

# ---- Partizan placing game certificates (docs/partizan-game.md) -----------
# Seed 004 section 7.3.  Two players, Left and Right, each with their own
# pieces; a player may place a piece on an empty square that no opposing
# piece attacks.  The player who cannot move loses.

enum PartizanRule {
  open @0;      # lines of attack pass over pieces (Snort on the attack graph)
  blocking @1;  # chess convention: a line of attack stops at the first piece
                # on it (of either colour)
}

enum Player {
  left @0;
  right @1;
}

struct PartizanClaim {
  boardSize @0 :UInt16;          # n (n x n board, n <= 8: a side fits in 64 bits)
  piece @1 :Piece;
  rule @2 :PartizanRule;
  left @3 :List(UInt16);         # Left's pieces on the board at the root
  right @4 :List(UInt16);        # Right's pieces on the board at the root
  toMove @5 :Player;             # who moves at the root
  moverWins @6 :Bool;            # the claim: the player to move wins (true)
                                 # or loses (false)
  replies @7 :List(PartizanReply);  # the winner's decisions, sorted by
                                 # (left, right), each position at most once
  producer @8 :Text;             # informational only
  mirror @9 :DefaultReply;       # none: the replies prove the claim; else an
                                 # empty root, no replies, and the claim
                                 # follows from the mirror lemma for this map
                                 # (docs/partizan-game.md, Lemma 3)
}

struct PartizanReply {
  left @0 :UInt64;               # Left's pieces, bit s = square s
  right @1 :UInt64;              # Right's pieces
  move @2 :UInt16;               # the square the winner plays
}
