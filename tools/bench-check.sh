#!/usr/bin/env bash
# make bench-check: the checker against a reference checker on the shipped
# queens-game certificates, old and new side by side in one invocation (runs
# alternate, so a noisy machine slows both alike).
# Knobs (defaults):
#   BENCH_CHECK_REF=b4a63d8   the reference: its checker is built (checker target
#                             only) under out/bench/ref-<commit>/ and run on the
#                             certificates as that commit shipped them
#   BENCH_CHECK_CERTS="jenrich-n14 rudd-n16 rudd-n18"   names in certs/ (n = 14:
#                             one file; n = 16, 18: manifests over shards)
#   BENCH_CHECK_JOBS=2        --jobs of both checkers
#   BENCH_CHECK_REPEAT=1      runs of each checker on each certificate (the
#                             table shows the fastest)
# About 25 minutes on a 2-core machine with the defaults (n = 18: two checks
# of 4-10 minutes each); BENCH_CHECK_CERTS="jenrich-n14 rudd-n16" takes about 3.
set -euo pipefail
cd "$(dirname "$0")/.."
CHECKER=build/bin/checker
ref=${BENCH_CHECK_REF:-b4a63d8}
certs=${BENCH_CHECK_CERTS-jenrich-n14 rudd-n16 rudd-n18}
jobs=${BENCH_CHECK_JOBS:-2}
repeat=${BENCH_CHECK_REPEAT:-1}
work=out/bench; mkdir -p "$work"
refdir=$(tools/build-ref.sh "$ref" checker) || { echo "bench-check: no reference checker of $ref (BENCH_CHECK_REF)"; exit 2; }

# One check: prints "wall user rss_mib" (seconds, seconds, MiB) or fails with
# the checker's words.  Only VERIFIED counts: a check that does not verify is
# no measurement.
check() {  # checker file
  local out
  out=$( { /usr/bin/time -f 'TIME %e %U %M' "$1" --jobs "$jobs" "$2" 2>&1; } 2>&1) ||
    { echo "bench-check: $1 did not verify $2:" >&2; grep -v '^TIME' <<<"$out" | head -n 3 >&2; return 1; }
  grep -q '^VERIFIED: ' <<<"$out" || { echo "bench-check: no VERIFIED line from $1 on $2" >&2; return 1; }
  awk '/^TIME/ { printf "%s %s %.0f\n", $2, $3, $4 / 1024 }' <<<"$out"
}
best() {  # "wall user rss" lines -> the one with the least wall
  sort -n -k1,1 | head -n 1
}

echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -n 1); --jobs $jobs; reference $ref"
printf '%-12s %-9s %12s %9s %9s %9s %10s\n' certificate checker "cert bytes" "wall s" "user s" "RSS MiB" "wall ratio"
for name in $certs; do
  file=certs/$name.qcert reffile=$refdir/src/certs/$name.qcert
  [ -f "$file" ] || { echo "bench-check: no $file"; exit 2; }
  [ -f "$reffile" ] || { echo "bench-check: $ref shipped no certs/$name.qcert"; exit 2; }
  old="" new=""
  for ((i = 0; i < repeat; i++)); do
    old+=$(check "$refdir/build/bin/checker" "$reffile")$'\n'
    new+=$(check "$CHECKER" "$file")$'\n'
  done
  old=$(best <<<"${old%$'\n'}") new=$(best <<<"${new%$'\n'}")
  bytes_old=$({ du -sb "$reffile" "$reffile.units" 2>/dev/null || true; } | awk '{ s += $1 } END { print s }')
  bytes_new=$({ du -sb "$file" "$file.units" 2>/dev/null || true; } | awk '{ s += $1 } END { print s }')
  read -r w_old u_old r_old <<<"$old"
  read -r w_new u_new r_new <<<"$new"
  printf '%-12s %-9s %12s %9s %9s %9s %10s\n' "$name" "$ref" "$bytes_old" "$w_old" "$u_old" "$r_old" ""
  printf '%-12s %-9s %12s %9s %9s %9s %9.2fx\n' "$name" now "$bytes_new" "$w_new" "$u_new" "$r_new" \
    "$(awk -v a="$w_old" -v b="$w_new" 'BEGIN { print a / (b > 0 ? b : 1e-9) }')"
done
