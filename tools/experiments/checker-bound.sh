#!/usr/bin/env bash
# tools/experiments/checker-bound.sh: how much faster could the queens-game
# check be if the certificate named the winning moves below the cut-off?
# (issue 29; results in docs/performance.md, "The bound").  Builds the
# reference checker (b4a63d8, as make bench-check does) and a copy of this
# tree's checker with checker-oracle.patch, then times, on one shard each of
# rudd-n16 and rudd-n18, one thread, min of CHECK_BOUND_REPEAT (5) alternating
# runs (user seconds):
#   ref     the b4a63d8 checker
#   now     this checker
#   root    this checker told every solve's winning root move (first recorded)
#   all     ... told a winning move at every won position of every solve
#   replay  this checker trusting every solve: the replay alone
# and the bytes the hints would add (zstd -19).  About 14 minutes on 2 cores
# (recording every winning move of the n = 18 shard takes 43 M entries, 3 GiB);
# scratch files under out/bench/bound/.
set -euo pipefail
cd "$(dirname "$0")/../.."
repeat=${CHECK_BOUND_REPEAT:-5}
work=out/bench/bound; mkdir -p "$work"
ref=$(tools/build-ref.sh b4a63d8 checker)/build/bin/checker
if [ ! -x "$work/build/bin/checker" ]; then
  echo "building the instrumented checker in $work ..." >&2
  rm -rf "$work/src"; mkdir -p "$work/src"
  git archive HEAD | tar -x -C "$work/src"
  patch -s -p1 -d "$work/src" <tools/experiments/checker-oracle.patch ||
    { echo "checker-bound: checker-oracle.patch no longer applies to checker/replay.cpp; rebase it" >&2; exit 2; }
  cmake -S "$work/src" -B "$work/build" -DCMAKE_BUILD_TYPE=Release >"$work/build.log" 2>&1 &&
    make -C "$work/build" -j"$(nproc)" checker >>"$work/build.log" 2>&1 ||
    { echo "checker-bound: build failed, see $work/build.log" >&2; exit 2; }
fi
exp=$work/build/bin/checker

run() {  # label command...: prints user seconds; only VERIFIED counts
  /usr/bin/time -o "$work/t" -f "%U" "${@:2}" >"$work/o" 2>&1 || true
  grep -q '^VERIFIED: ' "$work/o" || { echo "checker-bound: $1 did not verify:" >&2; tail -n 3 "$work/o" >&2; exit 1; }
  tail -n 1 "$work/t"
}

echo "machine: $(nproc) cores, $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -n 1); load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-8s %7s %7s %7s %7s %7s   %s\n' shard ref now root all replay "hint bytes (root / all) beside the shard's"
for n in 16 18; do
  case $n in 16) shard=certs/rudd-n16.qcert.units/h0/u00001.qcert ;; 18) shard=certs/rudd-n18.qcert.units/h0/u00054.qcert ;; esac
  f=$PWD/$work/n$n  # absolute: the checker may read relative to its certificate
  run record env ORACLE=record ORACLE_ROOT=1 ORACLE_FILE="$f.root" "$exp" --jobs 1 "$shard" >/dev/null
  run record env ORACLE=record ORACLE_FILE="$f.map" "$exp" --jobs 1 "$shard" >/dev/null
  run use env ORACLE=use ORACLE_FILE="$f.map" ORACLE_SEQ="$f.seq" "$exp" --jobs 1 "$shard" >/dev/null
  declare -A best=()
  for _ in $(seq "$repeat"); do
    for v in ref now root all replay; do
      case $v in
        ref) t=$(run ref "$ref" --jobs 1 "$shard") ;;
        now) t=$(run now env -u ORACLE "$exp" --jobs 1 "$shard") ;;
        root) t=$(run root env ORACLE=use ORACLE_ROOT=1 ORACLE_T=0 ORACLE_FILE="$f.root" "$exp" --jobs 1 "$shard") ;;
        all) t=$(run all env ORACLE=seq ORACLE_SEQ="$f.seq" "$exp" --jobs 1 "$shard") ;;
        replay) t=$(run replay env SKIP_SOLVE=1 "$exp" --jobs 1 "$shard") ;;
      esac
      best[$v]=$(awk -v a="$t" -v b="${best[$v]:-1e9}" 'BEGIN { print (a < b) ? a : b }')
    done
  done
  # Root hints as a certificate would carry them: nothing where the checker's
  # tries before the winning one cost no search (cost 0: table lookups at
  # most), else the local square + 1.
  rootZ=$(python3 - "$f.root" <<'PY' | zstd -19 -c | wc -c
import struct, sys
s = open(sys.argv[1], 'rb').read(); c = open(sys.argv[1] + '.cost', 'rb').read()
cost = struct.unpack(f'{len(c) // 4}I', c)
sys.stdout.buffer.write(bytes(0 if cost[i] == 0 or s[i] == 255 else s[i] + 1 for i in range(len(s))))
PY
  )
  allZ=$(zstd -19 -c "$f.seq" | wc -c)
  printf '%-8s %7s %7s %7s %7s %7s   %s / %s beside %s\n' "n$n" "${best[ref]}" "${best[now]}" "${best[root]}" "${best[all]}" "${best[replay]}" \
    "$rootZ" "$allZ" "$(stat -c %s "$shard")"
  for v in now root all replay; do
    printf '  ref/%-6s %sx\n' "$v" "$(awk -v a="${best[ref]}" -v b="${best[$v]}" 'BEGIN { printf "%.2f", a / b }')"
  done
done
