#!/usr/bin/env bash
# make bench-variants: one row per game variant (docs/variants.md) at a size
# that takes seconds, each with the plain-search baseline (--plain: no
# symmetry, ETC, move ordering or mirror lemma) and the table of independent
# parts (--parts, docs/parts.md: no search, the position split into its
# groups) in the same invocation, and the queens game on a square board as
# the reference family. Not a test: timings are noisy; compare the ratios of
# one run. Last column: plain/opt for the plain search, opt/parts for the
# table (above 1: the table is faster than the search).
#   BENCH_VARIANT_LIMIT=seconds per plain run (default 120; past it "> limit")
#   PROVER=, CHECKER=   other binaries (default build/bin/prover, build/bin/checker)
set -uo pipefail
cd "$(dirname "$0")/.."
PROVER=${PROVER:-build/bin/prover} CHECKER=${CHECKER:-build/bin/checker}  # overridable, as in tools/audit.sh
limit=${BENCH_VARIANT_LIMIT:-120}
work=out/bench-variants; mkdir -p "$work"
field() { sed -nE "s/.*[ ]$1=([^ ]+).*/\1/p" <<<"$2"; }
now() { date +%s.%N; }
echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -n 1)"
printf '%-8s %-26s %-6s %-5s %13s %11s %8s %8s %10s %8s %11s\n' family board config G nodes "nodes/s" "prove s" "RSS MiB" "cert B" "check s" "ratio"
row() {  # family label args...
  local family=$1 label=$2; shift 2
  local cert="$work/$family.qcert" opt_s=""
  for config in opt plain parts; do
    local extra=() out=(--out "$cert")
    [ "$config" = plain ] && extra=(--plain) && out=()
    [ "$config" = parts ] && extra=(--parts)
    local stats; stats=$(timeout "$limit" $PROVER grundy "$@" "${extra[@]}" "${out[@]}" --stats 2>/dev/null | grep '^STATS')
    if [ -z "$stats" ]; then
      printf '%-8s %-26s %-6s %-5s %13s %11s %8s\n' "$family" "$label" "$config" "?" "-" "-" "> $limit"
      continue
    fi
    local wall nodes rss; wall=$(field wall_s "$stats"); nodes=$(field nodes "$stats"); rss=$(field peak_rss_kib "$stats")
    local g; g=$(field grundy "$stats")
    local check_s="-" bytes="-" ratio="-"
    if [ "$config" != plain ]; then
      [ "$config" = opt ] && opt_s=$wall
      local t0; t0=$(now)
      $CHECKER -q "$cert" >/dev/null || { echo "checker rejected $cert"; exit 1; }
      check_s=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }')
      bytes=$(stat -c %s "$cert")
      [ "$config" = parts ] && [ -n "$opt_s" ] && ratio=$(awk -v p="$wall" -v o="$opt_s" 'BEGIN { printf "%.2f", o / (p > 0.001 ? p : 0.001) }')
    else
      ratio=$(awk -v p="$wall" -v o="$opt_s" 'BEGIN { printf "%.1f", p / (o > 0.001 ? o : 0.001) }')
    fi
    printf '%-8s %-26s %-6s %-5s %13s %11.3g %8s %8.1f %10s %8s %11s\n' "$family" "$label" "$config" "$g" "$nodes" \
      "$(awk -v n="$nodes" -v w="$wall" 'BEGIN { print n / (w > 0.001 ? w : 0.001) }')" "$wall" "$(awk -v k="$rss" 'BEGIN { print k / 1024 }')" \
      "$bytes" "$check_s" "$ratio"
  done
}
row queens "12x12 (reference)" --n 12
row rooks "12x12" --n 12 --piece rook
row bishops "9x9" --n 9 --piece bishop
row kings "8x8" --n 8 --piece king
row knights "5x8" --board 5x8 --piece knight
row torus "9x9 torus, kings" --board torus --n 9 --piece king
row rect "10x11 queens" --board 10x11
row holes "9x9 hole e4 queens" --n 9 --holes e4
# Where the table of parts reaches past the search (docs/parts.md).
row bishops "11x11" --n 11 --piece bishop
row knights "7x7" --n 7 --piece knight
# The partizan game (docs/partizan-game.md) has no --plain search; its row is
# the certified run alone, with the impartial game on the same board above
# as the family it grew from.
partizan_row() {  # label args...
  local label=$1; shift
  local cert="$work/partizan.qcert"
  local stats; stats=$(timeout "$limit" $PROVER partizan "$@" --out "$cert" --stats 2>/dev/null | grep '^STATS')
  [ -z "$stats" ] && { printf '%-8s %-26s %-6s %-5s %13s\n' partizan "$label" opt "?" "> $limit s"; return; }
  local t0; t0=$(now)
  $CHECKER -q "$cert" >/dev/null || { echo "checker rejected $cert"; exit 1; }
  local check_s; check_s=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }')
  local wall nodes rss; wall=$(field wall_s "$stats"); nodes=$(field nodes "$stats"); rss=$(field peak_rss_kib "$stats")
  printf '%-8s %-26s %-6s %-5s %13s %11.3g %8s %8.1f %10s %8s %11s\n' partizan "$label" opt "-" "$nodes" \
    "$(awk -v n="$nodes" -v w="$wall" 'BEGIN { print n / (w > 0.001 ? w : 0.001) }')" "$wall" "$(awk -v k="$rss" 'BEGIN { print k / 1024 }')" \
    "$(stat -c %s "$cert")" "$check_s" "-"
}
partizan_row "6x6 bishops, Left first" --n 6 --piece bishop --first left
