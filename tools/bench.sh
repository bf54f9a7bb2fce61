#!/usr/bin/env bash
# make bench: prover and checker figures for the even boards 10, 12, 14, with
# a plain-search baseline (--plain: no symmetry, ETC, ordering or mirror
# lemma) and a two-thread work-unit run (j2) in the same invocation, so
# ratios survive a noisy machine.
# make bench-big (about 15 minutes on 2 cores): n = 16 and the Grundy values
# G(14), G(15), G(16), all on two threads with a 4 GiB table:
#   BENCH_SIZES= BENCH_BASELINE_SIZES= BENCH_THREAD_SIZES=16 BENCH_GRUNDY_SIZES="14 15 16" BENCH_TT_MB=4096
# Knobs (defaults):
#   BENCH_SIZES="10 12 14"   one thread
#   BENCH_BASELINE_SIZES="10 12"   plain search, one thread
#   BENCH_THREAD_SIZES="14"   two threads (work units)
#   BENCH_GRUNDY_SIZES=""     `prover grundy`, two threads
#   BENCH_REF=""              a git ref (make bench-big: 7d3a103,
#   the prover before its speed work): its prover and checker are built
#   under out/bench/ref and every two-thread size is also run with them,
#   first, in the same invocation (config ref-j2), with the ratio at the end
#   BENCH_TT_MB=256 (for n > 12; smaller boards take the prover's default
#   table, 16 or 64 MiB: on this VM every table page a search touches costs a
#   fault and zeroing, about 2.5 ms per MiB when the memory is cold)
set -euo pipefail
cd "$(dirname "$0")/.."
PROVER=build/bin/prover CHECKER=build/bin/checker
sizes=${BENCH_SIZES-10 12 14}
base_sizes=${BENCH_BASELINE_SIZES-10 12}
thread_sizes=${BENCH_THREAD_SIZES-14}
grundy_sizes=${BENCH_GRUNDY_SIZES-}
tt=${BENCH_TT_MB:-256}
work=out/bench; mkdir -p "$work"
ref=${BENCH_REF-}
if [ -n "$ref" ]; then  # the reference binaries, built once per ref
  refdir=$(tools/build-ref.sh "$ref" prover checker) || { echo "bench: no reference build of $ref (BENCH_REF)"; exit 2; }
fi
field() { sed -nE "s/.*[ ]$1=([^ ]+).*/\1/p" <<<"$2"; }
now() { date +%s.%N; }

# Warm-up: the first large allocation after a build can stall on memory
# compaction for huge pages (0.7 s seen on n = 10), which is not the prover.
$PROVER prove --n 8 --out "$work/warm-up.qcert" >/dev/null
echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -n 1)"
printf '%-4s %-9s %-6s %14s %11s %9s %10s %12s %9s %9s %10s %11s\n' n config result nodes "nodes/s" "prove s" "RSS MiB" "cert bytes" "B/decis." "check s" "chk RSS" "check/prove"
run() {  # n config extra-args...
  local n=$1 config=$2; shift 2
  local cert="$work/n$n-$config.qcert" jobs=1 command=prove
  [[ "$config" == *j2 ]] && jobs=2
  [[ "$config" == G* ]] && command=grundy
  rm -rf "$cert" "$cert.units"
  local table=(--tt-mb "$tt")
  [ "$n" -le 12 ] && table=()  # the prover's default: a table far larger than the search only costs zeroing
  local prover=$PROVER checker=$CHECKER
  local stats_flag=(--stats)  # the STATS line; the reference prints it unasked and knows no --stats
  [[ "$config" == ref-* ]] && prover=$refdir/build/bin/prover checker=$refdir/build/bin/checker stats_flag=()
  local stats; stats=$($prover "$command" --n "$n" --out "$cert" "${table[@]}" "${stats_flag[@]}" "$@" | grep '^STATS')
  local t0; t0=$(now)
  local err; err=$($checker --jobs "$jobs" "$cert" 2>&1 >/dev/null) || { echo "checker rejected $cert: $err"; exit 1; }
  local check_s; check_s=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }')
  local chk_rss; chk_rss=$(sed -nE 's/.*peak RSS ([0-9.]+) MiB.*/\1/p' <<<"$err")
  local cert_bytes; cert_bytes=$({ du -sb "$cert" "$cert.units" 2>/dev/null || true; } | awk '{ s += $1 } END { print s }')
  local wall nodes; wall=$(field wall_s "$stats"); nodes=$(field nodes "$stats")
  local result; result=$(field outcome "$stats")
  [ "$command" = grundy ] && result="G=$(field grundy "$stats")"
  printf '%-4s %-9s %-6s %14s %11.3g %9s %10.0f %12s %9.2f %9s %10s %11.3f\n' "$n" "$config" "$result" \
    "$nodes" "$(awk -v a="$nodes" -v b="$wall" 'BEGIN { print a / (b > 0 ? b : 1e-9) }')" "$wall" \
    "$(awk -v k="$(field peak_rss_kib "$stats")" 'BEGIN { print k / 1024 }')" "$cert_bytes" \
    "$(awk -v b="$cert_bytes" -v d="$(field decisions "$stats")" 'BEGIN { print d ? b / d : 0 }')" \
    "$check_s" "$chk_rss" "$(awk -v c="$check_s" -v w="$wall" 'BEGIN { print c / w }')"
  local key=${config//-/_}
  eval "nodes_${key}_$n=$nodes wall_${key}_$n=$wall"
}
for n in $sizes; do
  run "$n" qcert
  if [[ " $base_sizes " == *" $n "* ]]; then run "$n" plain --plain; fi
done
for n in $thread_sizes; do
  if [ -n "$ref" ]; then run "$n" ref-j2 --jobs 2; fi
  run "$n" j2 --jobs 2
done
for n in $grundy_sizes; do run "$n" Gj2 --jobs 2; done
echo
for n in $thread_sizes; do
  eval "a=\${wall_qcert_$n:-} b=\${wall_j2_$n:-}"
  [ -n "$a" ] && [ -n "$b" ] && awk -v n="$n" -v a="$a" -v b="$b" \
    'BEGIN { printf "n=%s: 1 -> 2 threads (work units), wall %.2fx faster\n", n, a / b }'
done
for n in $thread_sizes; do
  eval "a=\${wall_ref_j2_$n:-} b=\${wall_j2_$n:-} c=\${nodes_ref_j2_$n:-} d=\${nodes_j2_$n:-}"
  [ -n "$a" ] && [ -n "$b" ] && awk -v n="$n" -v r="$ref" -v a="$a" -v b="$b" -v c="$c" -v d="$d" \
    'BEGIN { printf "n=%s, 2 threads: %s -> now, wall %.2fx faster, nodes %.2fx fewer\n", n, r, a / b, c / d }'
done
for n in $base_sizes; do
  eval "a=\${nodes_plain_$n:-} b=\${nodes_qcert_$n:-} c=\${wall_plain_$n:-} d=\${wall_qcert_$n:-}"
  [ -n "$a" ] && [ -n "$b" ] && awk -v n="$n" -v a="$a" -v b="$b" -v c="$c" -v d="$d" \
    'BEGIN { printf "n=%s: plain/qcert nodes %.2fx, wall %.2fx\n", n, a / b, c / d }'
done
