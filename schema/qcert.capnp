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
  # Node-Kayles on the queen graph of an n x n board: a move places a queen on
  # a live square; that square and every live square it attacks (same row,
  # column or diagonal) stop being live.  The player who cannot move loses.
  queens @0;
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
}

struct Claim {
  ruleset @0 :Ruleset;
  boardSize @1 :UInt16;       # n; squares are numbered r*n + c, 0-based
  queens @2 :List(UInt16);    # queens placed before the root, in order; each
                              # must be live when placed
  heap @3 :UInt32;            # a Nim heap of this size is added to the root
  outcome @4 :Outcome;
  kind @5 :ClaimKind;
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
