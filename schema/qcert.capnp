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
