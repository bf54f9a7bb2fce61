#!/usr/bin/env bash
# make bench-count: the n-queens counter against a plain bitwise backtracking
# counter that halves the first row (`prover count --baseline`), built and run
# in the same invocation so ratios survive a noisy machine; one and two
# threads; the checker's full recount of each certificate beside it.
# Knobs (defaults):
#   BENCH_COUNT_SIZES="16 17"      baseline, qcert 1 thread, qcert 2 threads
#   BENCH_COUNT_BIG="18"           qcert 2 threads and the checker only
#   BENCH_COUNT_REPEAT=2           runs per config; the table shows the fastest
set -euo pipefail
cd "$(dirname "$0")/.."
PROVER=build/bin/prover CHECKER=build/bin/checker
sizes=${BENCH_COUNT_SIZES-16 17}
big=${BENCH_COUNT_BIG-18}
repeat=${BENCH_COUNT_REPEAT:-2}
work=out/bench-count; mkdir -p "$work"
field() { sed -nE "s/.*[ ]$1=([^ ]+).*/\1/p" <<<"$2"; }
now() { date +%s.%N; }
echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -n 1)"
printf '%-4s %-9s %20s %18s %14s %11s %9s %9s %11s %9s %9s\n' n config solutions "up to symmetry" nodes "nodes/s" "count s" "RSS MiB" "cert bytes" "check s" "chk RSS"
declare -A best
run() {  # n config
  local n=$1 config=$2 stats="" wall="" cert="$work/queens-n$n.qcert" args=()
  case $config in
    halving) args=(--baseline) ;;
    qcert-j1) args=(--jobs 1 --out "$cert") ;;
    qcert-j2) args=(--jobs 2 --out "$cert") ;;
  esac
  for ((i = 0; i < repeat; i++)); do  # alternate with nothing else: keep the fastest run
    local s; s=$($PROVER count --problem queens --n "$n" "${args[@]}" --stats | grep '^STATS')
    local w; w=$(field wall_s "$s")
    if [ -z "$wall" ] || awk -v a="$w" -v b="$wall" 'BEGIN { exit !(a < b) }'; then wall=$w stats=$s; fi
  done
  best[$config,$n]=$wall
  local check_s="-" chk_rss="-" bytes="-"
  if [ "$config" = qcert-j2 ]; then
    local t0; t0=$(now)
    local err; err=$($CHECKER --jobs 2 "$cert" 2>&1 >/dev/null) || { echo "checker rejected $cert: $err"; exit 1; }
    check_s=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }')
    chk_rss=$(sed -nE 's/.*peak RSS ([0-9.]+) MiB.*/\1/p' <<<"$err")
    bytes=$(stat -c %s "$cert")
    best[check,$n]=$check_s
  fi
  local nodes; nodes=$(field nodes "$stats")
  local classes; classes=$(field classes "$stats")
  printf '%-4s %-9s %20s %18s %14s %11.3g %9s %9.0f %11s %9s %9s\n' "$n" "$config" "$(field totals "$stats")" "${classes:--}" "$nodes" \
    "$(awk -v a="$nodes" -v b="$wall" 'BEGIN { print a / (b > 0 ? b : 1e-9) }')" "$wall" \
    "$(awk -v k="$(field peak_rss_kib "$stats")" 'BEGIN { print k / 1024 }')" "$bytes" "$check_s" "$chk_rss"
}
for n in $sizes; do
  run "$n" halving
  run "$n" qcert-j1
  run "$n" qcert-j2
done
for n in $big; do run "$n" qcert-j2; done
echo
for n in $sizes; do
  awk -v n="$n" -v h="${best[halving,$n]}" -v a="${best[qcert-j1,$n]}" -v b="${best[qcert-j2,$n]}" -v c="${best[check,$n]}" \
    'BEGIN { printf "n=%s: one thread %.2fx faster than the halving counter; 1 -> 2 threads %.2fx; checker recount / count %.1f\n", n, h / a, a / b, c / b }'
done
for n in $big; do
  awk -v n="$n" -v b="${best[qcert-j2,$n]}" -v c="${best[check,$n]}" \
    'BEGIN { printf "n=%s: total + fundamental in %.1f s on 2 threads (goal < 60 s); checker recount %.1f s\n", n, b, c }'
done
