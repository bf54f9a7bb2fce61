#!/usr/bin/env bash
# make bench-verified: the Coq-proved checker (checker-verified) against the
# C++ checker on the same certificates, in one invocation, by CPU time (user
# + system, export-table included: checker-verified runs it), with a
# reference checker-verified of an earlier commit beside them. Runs
# alternate, so a noisy machine slows all alike; only VERIFIED counts.
# Knobs (defaults):
#   BENCH_VERIFIED_REF=6549470   the reference commit, the last before the
#                                images by rows and columns and the frame
#                                solver's three-square children (its
#                                checker-verified and export-table, built once
#                                under out/bench/ref-<commit>/); empty: none
#   BENCH_VERIFIED_CERTS="jenrich-n12 jenrich-n14"   names in certs/; add
#                                rudd-n16 for the n = 16 manifest (36 shards:
#                                about 20 minutes of one core now)
#   BENCH_VERIFIED_REPEAT=1      runs of each (the table shows the least CPU)
# The issue's goal is a ratio (checker-verified / C++) of at most 10.
# About 2 minutes on a 2-core machine with the defaults.
set -euo pipefail
cd "$(dirname "$0")/.."
ref=${BENCH_VERIFIED_REF-6549470}
certs=${BENCH_VERIFIED_CERTS-jenrich-n12 jenrich-n14}
repeat=${BENCH_VERIFIED_REPEAT:-1}
[ -x build/bin/checker-verified ] || { echo "bench-verified: build/bin/checker-verified is not built (make build needs coqc and ocamlopt)"; exit 2; }
refdir=""
if [ -n "$ref" ]; then
  refdir=$(tools/build-ref.sh "$ref" checker-verified) || { echo "bench-verified: no reference checker-verified of $ref (BENCH_VERIFIED_REF)"; exit 2; }
fi

# One check: prints "cpu wall rss_mib" (seconds, seconds, MiB: the largest
# process) or fails with the checker's words.
check() {  # program file
  local out
  out=$( { /usr/bin/time -f 'TIME %e %U %S %M' "$1" "$2" 2>&1; } 2>&1) ||
    { echo "bench-verified: $1 did not verify $2:" >&2; grep -v '^TIME' <<<"$out" | head -n 3 >&2; return 1; }
  grep -q '^VERIFIED: ' <<<"$out" || { echo "bench-verified: no VERIFIED line from $1 on $2" >&2; return 1; }
  awk '/^TIME/ { printf "%.2f %s %.0f\n", $3 + $4, $2, $5 / 1024 }' <<<"$out"
}
least() { sort -n -k1,1 | head -n 1; }

echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -n 1), load $(cut -d' ' -f1 /proc/loadavg)"
echo "CPU time: user + system, all threads and child processes; checker-verified: $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- checker-verified || echo ' (modified)'); reference: ${ref:-none}"
printf '%-12s %-22s %9s %9s %9s %16s\n' certificate program "CPU s" "wall s" "RSS MiB" "CPU / C++ checker"
for name in $certs; do
  file=certs/$name.qcert
  [ -f "$file" ] || { echo "bench-verified: no $file"; exit 2; }
  cpp="" now="" old=""
  for ((i = 0; i < repeat; i++)); do
    cpp+=$(check build/bin/checker "$file")$'\n'
    now+=$(check build/bin/checker-verified "$file")$'\n'
    [ -z "$refdir" ] || old+=$(check "$refdir/build/bin/checker-verified" "$file")$'\n'
  done
  row() {  # label "cpu wall rss" base_cpu
    local cpu wall rss; read -r cpu wall rss <<<"$2"
    printf '%-12s %-22s %9s %9s %9s %15.1fx\n' "$name" "$1" "$cpu" "$wall" "$rss" \
      "$(awk -v a="$cpu" -v b="$3" 'BEGIN { print a / (b > 0 ? b : 0.01) }')"
  }
  cpp=$(least <<<"${cpp%$'\n'}") now=$(least <<<"${now%$'\n'}")
  base=${cpp%% *}
  row "checker (C++)" "$cpp" "$base"
  [ -z "$refdir" ] || row "checker-verified $ref" "$(least <<<"${old%$'\n'}")" "$base"
  row "checker-verified now" "$now" "$base"
done
