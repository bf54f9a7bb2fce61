#!/usr/bin/env bash
# make bench-mod2: the mod-2 game of Brown and Ladha at n = 5 (BENCH_MOD2_N), qcert
# against a plain baseline built into the same prover and run in the same
# invocation, so ratios survive a noisy machine:
#   count   qcert: one forward pass over the 2^(n*n) masks, 64 to a machine
#           word (prover/mod2/words.cpp: a word's 64 sets move together),
#           classes by Burnside's lemma;
#           baseline: the simplest DP, every mask tests its own legality by the
#           definition (some queen q is open in P less q, and P less q is legal),
#           a byte per mask.
#   grundy  qcert: memoised depth-first search over the positions reachable
#           from the empty board, then the winner's replies for "empty + *g
#           is a loss"; baseline: the mex rule over every one of the 2^(n*n)
#           masks in decreasing order (no certificate).
#   prove   qcert only: the outcome of the empty board and its certificate.
#   outcome qcert only: the same outcome by the backward word pass over every
#           mask; the certificate is the claim alone (the checker repeats the
#           pass), to compare with prove's reply table.
# Each qcert certificate is then checked by the checker (wall time and its
# peak RSS); a checker that rejects or cannot read the certificate prints
# "fail" in that column and the script goes on.
# Knobs: BENCH_MOD2_N=5, BENCH_MOD2_REPEAT=2 (runs per config, fastest kept),
# PROVER, CHECKER (default build/bin/...).
set -uo pipefail
cd "$(dirname "$0")/.."
PROVER=${PROVER:-build/bin/prover} CHECKER=${CHECKER:-build/bin/checker}
n=${BENCH_MOD2_N:-5}
repeat=${BENCH_MOD2_REPEAT:-2}
work=out/bench-mod2; mkdir -p "$work"
field() { sed -nE "s/.*[ ]$1=([^ ]+).*/\1/p" <<<"$2"; }
now() { date +%s.%N; }
echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -n 1)"
echo "mod-2 game, n = $n; times are the fastest of $repeat runs"
printf '%-8s %-9s %-34s %12s %12s %9s %9s %11s %9s %9s\n' task config result positions "moves/masks" "wall s" "RSS MiB" "cert bytes" "check s" "chk RSS"
declare -A best
run() {  # task config
  local task=$1 config=$2 stats="" wall="" args=()
  local cert="$work/mod2-$task-n$n.qcert"
  [ "$config" = baseline ] && args=(--baseline) || args=(--out "$cert")
  for ((i = 0; i < repeat; i++)); do
    local s; s=$($PROVER mod2 "$task" --n "$n" "${args[@]}" --stats | grep '^STATS') || { echo "$task $config: the prover failed"; return; }
    local w; w=$(field wall_s "$s")
    if [ -z "$wall" ] || awk -v a="$w" -v b="$wall" 'BEGIN { exit !(a < b) }'; then wall=$w stats=$s; fi
  done
  best[$task,$config]=$wall
  [ -n "$(field solve_s "$stats")" ] && best[$task,solve]=$(field solve_s "$stats")
  local result positions moves
  case $task in
    count) result="legal $(field legal "$stats"), most $(field most "$stats")"
           positions=$(field legal "$stats"); moves=$(field masks "$stats") ;;
    outcome) result="first player $(field first_player "$stats")"
             positions=-; moves=$(field sets "$stats") ;;
    *) result="G(empty) = $(field grundy_value "$stats")"
       [ "$config" = qcert ] && result="$result, $(field replies "$stats") replies"
       positions=$(field positions "$stats"); moves=$(field nodes "$stats"); [ -n "$moves" ] || moves=$positions ;;
  esac
  local check_s="-" chk_rss="-" bytes="-"
  if [ "$config" = qcert ]; then
    bytes=$(stat -c %s "$cert")
    local t0; t0=$(now)
    local err
    if err=$($CHECKER "$cert" 2>&1 >/dev/null); then
      check_s=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }')
      chk_rss=$(sed -nE 's/.*peak RSS ([0-9.]+) MiB.*/\1/p' <<<"$err" | tail -n 1)
      best[$task,check]=$check_s
    else
      check_s=fail
    fi
  fi
  printf '%-8s %-9s %-34s %12s %12s %9s %9.0f %11s %9s %9s\n' "$task" "$config" "$result" "$positions" "$moves" "$wall" \
    "$(awk -v k="$(field peak_rss_kib "$stats")" 'BEGIN { print k / 1024 }')" "$bytes" "$check_s" "${chk_rss:--}"
}
run count baseline
run count qcert
run grundy baseline
run grundy qcert
run prove qcert
run outcome qcert
echo
awk -v b="${best[count,baseline]}" -v q="${best[count,qcert]}" 'BEGIN { printf "count: qcert %.1fx faster than the baseline DP\n", b / q }'
awk -v b="${best[grundy,baseline]}" -v s="${best[grundy,solve]}" -v q="${best[grundy,qcert]}" \
  'BEGIN { printf "grundy: baseline mex pass over all masks %.2f s; qcert solve %.2f s (%.2fx the baseline), with the certificate %.2f s\n", b, s, s / b, q }'
for t in count grundy prove outcome; do
  [ -n "${best[$t,check]:-}" ] && awk -v t="$t" -v c="${best[$t,check]}" -v q="${best[$t,qcert]}" \
    'BEGIN { printf "%s: checker %.2f s, %.2fx the prover\n", t, c, c / q }'
done
exit 0
