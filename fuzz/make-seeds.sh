#!/usr/bin/env bash
# Writes the seed inputs of fuzz/corpus/<target>/seed-* from real prover
# output (small boards, every problem), packed by qcert_fuzz_make_seed.
# usage: fuzz/make-seeds.sh [PROVER] [MAKE_SEED]   (defaults: build/bin/...)
set -euo pipefail
cd "$(dirname "$0")/.."
prover=${1:-build/bin/prover}
pack=${2:-build/bin/qcert_fuzz_make_seed}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
c=fuzz/corpus
mkdir -p $c/fuzz_game_certificate $c/fuzz_manifest $c/fuzz_count_certificate $c/fuzz_checker_args $c/fuzz_mod2_certificate

# Game certificates: wins and losses, heaps, Grundy claims, default mirror
# replies, cut-offs low enough that the replay reads tokens.
i=0
game() {  # prover arguments...
  "$prover" "$@" --out "$tmp/g.qc" >/dev/null
  "$pack" game "$tmp/g.qc" > $c/fuzz_game_certificate/seed-$i
  # the same certificate as a structured input: mutations then hit the tokens
  "$pack" game-struct "$tmp/g.qc" > $c/fuzz_game_certificate/seed-struct-from-$i 2>/dev/null ||
    rm -f $c/fuzz_game_certificate/seed-struct-from-$i
  i=$((i + 1))
}
game prove --n 1
game prove --n 4 --cutoff 0
game prove --n 5 --cutoff 0
game prove --n 5 --cutoff 6 --heap 2
game prove --n 6 --cutoff 0
game prove --n 6 --cutoff 8
game prove --n 6 --queens c3 --cutoff 4
game prove --n 7 --cutoff 6
game grundy --n 4 --cutoff 0
game grundy --n 5 --queens c3 --cutoff 2
game grundy --n 6 --cutoff 6
game prove --n 3 --heap 3 --cutoff 0
# Tables of parts (docs/parts.md): queens (structured too), kings, bishops, the torus.
game grundy --n 5 --parts
game grundy --n 6 --queens c3 --parts
game prove --n 4 --heap 1 --parts
game grundy --n 5 --piece king --parts
game grundy --n 6 --piece bishop --parts
game grundy --board torus --n 5 --piece king --parts
"$prover" prove --n 5 --cutoff 3 --out "$tmp/r.qc" >/dev/null
"$pack" raw "$tmp/r.qc" > $c/fuzz_game_certificate/seed-raw-0
# Structured mode (first byte 2): n, queens, heap, flags, cutoff, tokens.
printf '\x02\x04\x00\x00\x00\x20' > $c/fuzz_game_certificate/seed-struct-0      # 5x5, whole board by the solver
printf '\x02\x05\x01\x0e\x01\x01\x1c' > $c/fuzz_game_certificate/seed-struct-1  # 6x6 after c3, loss
printf '\x02\x03\x00\x02\x07\x00\x01\x00\x00' > $c/fuzz_game_certificate/seed-struct-2

# Manifests: Grundy, a known winning move, a lost position, a heap.
j=0
manifest() {
  rm -rf "$tmp/m"*
  "$prover" "$@" --out "$tmp/m.qc" >/dev/null
  if "$pack" manifest "$tmp/m.qc" > $c/fuzz_manifest/seed-$j; then j=$((j + 1)); else rm -f $c/fuzz_manifest/seed-$j; fi
}
manifest grundy --n 4 --jobs 2 --cutoff 0
manifest prove --n 6 --win-by c3 --cutoff 6
manifest prove --n 6 --queens c3 --jobs 2 --cutoff 6
manifest grundy --n 5 --queens a1 --jobs 2 --cutoff 3
manifest prove --n 4 --heap 1 --queens a1 --jobs 2 --cutoff 0
manifest prove --n 4 --queens a1 --jobs 2 --cutoff 0

# Count certificates: every problem, several cell depths.
k=0
count() {
  "$prover" count "$@" --out "$tmp/c.qc" >/dev/null
  "$pack" count "$tmp/c.qc" > $c/fuzz_count_certificate/seed-$k
  k=$((k + 1))
}
count --problem queens --n 6
count --problem queens --n 8
count --problem torus --n 7
count --problem nplusk --n 5 --holes 1
count --problem nplusk --n 4 --holes 2
count --problem end --n 5
count --problem end --n 6 --max-queens 4
count --problem hp71b --n 5
# Structured mode (first byte 2): problem, n, holes, maxQueens, depth, flags, edits.
printf '\x02\x00\x07\x00\x00\x02\x00' > $c/fuzz_count_certificate/seed-struct-0   # 8-queens, depth 2, exact
printf '\x02\x02\x06\x00\x00\x01\x00' > $c/fuzz_count_certificate/seed-struct-1   # 7-torus, depth 1
printf '\x02\x03\x05\x00\x03\x02\x00' > $c/fuzz_count_certificate/seed-struct-2   # end positions 6x6, <= 3 queens
printf '\x02\x04\x05\x00\x00\x00\x00' > $c/fuzz_count_certificate/seed-struct-3   # hp71b 6
printf '\x02\x00\x05\x00\x00\x02\x00\x00\x03\x05' > $c/fuzz_count_certificate/seed-struct-4  # one edit
printf '\x02\x01\x04\x00\x00\x01\x01\x04\x00' > $c/fuzz_count_certificate/seed-struct-5  # nplusk raw cells

# Mod-2 game certificates: every kind on small boards (resealed form).
m=0
mod2() {
  "$prover" mod2 "$@" --out "$tmp/m2.qc" >/dev/null
  "$pack" count "$tmp/m2.qc" > $c/fuzz_mod2_certificate/seed-$m
  m=$((m + 1))
}
mod2 play --n 5 --construction brown-ladha-3.1
mod2 play --n 7 --construction brown-ladha-4.1
mod2 play --n 6 --construction all-but-two
mod2 structure --n 6 --fact at-most-all-but-two
mod2 count --n 3
mod2 fewest-locking --n 4
mod2 complement-map --n 4
mod2 prove --n 3 --heap 2
mod2 grundy --n 3 --rule alternate --moves b2
mod2 prove --n 3 --rule complementary --moves b2
mod2 outcome --n 4
# Structured mode (first byte 2): kind, n, rule, spoil, then the kind's bytes.
d=$c/fuzz_mod2_certificate
printf '\x02\x00\x05\x00\x00\x00\x1e\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x00' > $d/seed-struct-0  # 6x6 play
printf '\x02\x00\x9f\x00\x00\x01\x00' > $d/seed-struct-1          # 32x32 named order (even n: rejected)
printf '\x02\x00\x04\x00\x00\x02\x00' > $d/seed-struct-2          # 5x5 Claim 4.1
printf '\x02\x01\x03\x00\x00\x01' > $d/seed-struct-3              # 4x4 structure
printf '\x02\x02\x02\x00\x00\x00\x00' > $d/seed-struct-4          # 3x3 legalCount
printf '\x02\x02\x03\x00\x00\x02\x00' > $d/seed-struct-5          # 4x4 fewestLocking
printf '\x02\x02\x03\x00\x00\x04\x00' > $d/seed-struct-6          # 4x4 playCount
printf '\x02\x02\x03\x02\x00\x03\x00\x01' > $d/seed-struct-7      # 4x4 complementMap
printf '\x02\x03\x02\x00\x00\x02\x00\x00' > $d/seed-struct-8      # 3x3 game, heap 2
printf '\x02\x03\x02\x01\x00\x00\x01\x04\x00\x00\x01\x05' > $d/seed-struct-9  # alternate from b2, one edit
printf '\x02\x02\x03\x00\x00\x05\x00' > $d/seed-struct-10         # 4x4 outcome (the truth)
printf '\x02\x02\x03\x00\x00\x05\x01' > $d/seed-struct-11         # 4x4 outcome, the other one

# Command lines (NUL-separated arguments).
a=$c/fuzz_checker_args
printf -- '--jobs\0004\000--time-limit\00010\000f.qc' > $a/seed-0
printf -- '--sample\0003\000--seed\0007\000f' > $a/seed-1
printf -- '--part\0002\000--of\0004\000--max-memory\000512\000f' > $a/seed-2
printf -- '--help' > $a/seed-3
printf -- '-q\000-j\0002\000x\000y' > $a/seed-4
printf -- '--of=3\000--part=2\000--quiet\000file' > $a/seed-5
echo "seeds: $i+1+3 game, $j manifest, $k+6 count, $m+12 mod2, 6 args"
