#!/usr/bin/env bash
# `make fuzz`: builds the libFuzzer targets in build-fuzz (clang, ASan+UBSan,
# QCERT_FUZZ=ON) and runs each for FUZZ_SECONDS (default 600) from its
# committed corpus fuzz/corpus/<target>.  New inputs go to the scratch corpus
# build-fuzz/corpus/<target>, crashes to build-fuzz/artifacts/<target>/, the
# libFuzzer log to build-fuzz/logs/<target>.log.  Prints executions, exec/s
# and the final coverage (cov, ft) of each target; exits 1 when a target
# found something.
#   FUZZ_TARGETS="fuzz_manifest ..."  a subset;  FUZZ_PARALLEL=2  two at a time
set -uo pipefail
cd "$(dirname "$0")/.."
seconds=${FUZZ_SECONDS:-600}
build=${FUZZ_BUILD:-build-fuzz}
jobs=${JOBS:-2}
parallel=${FUZZ_PARALLEL:-1}
targets=${FUZZ_TARGETS:-"fuzz_game_certificate fuzz_manifest fuzz_count_certificate fuzz_checker_args fuzz_mod2_certificate fuzz_partizan_certificate"}

command -v clang++ >/dev/null || { echo "make fuzz needs clang++ (tools/install-deps.sh installs clang)" >&2; exit 2; }
CC=clang CXX=clang++ cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DQCERT_FUZZ=ON -DQCERT_NATIVE=OFF >/dev/null || exit 2
# shellcheck disable=SC2086
cmake --build "$build" -j "$jobs" --target $targets || exit 2

run() {  # target
  local t=$1
  mkdir -p "$build/corpus/$t" "$build/artifacts/$t" "$build/logs"
  "$build/bin/$t" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
    -artifact_prefix="$build/artifacts/$t/" "$build/corpus/$t" "fuzz/corpus/$t" > "$build/logs/$t.log" 2>&1
  echo $? > "$build/logs/$t.rc"
}

echo "fuzzing $targets for $seconds s each ($parallel at a time); logs in $build/logs/"
running=0
for t in $targets; do
  rm -f "$build/logs/$t.rc"
  run "$t" &
  running=$((running + 1))
  if [ "$running" -ge "$parallel" ]; then wait -n; running=$((running - 1)); fi
done
wait

status=0
printf '%-24s %12s %8s %8s %8s %7s  %s\n' target executions exec/s cov ft corpus result
for t in $targets; do
  log=$build/logs/$t.log
  rc=$(cat "$build/logs/$t.rc" 2>/dev/null || echo '?')
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | tail -1 | awk '{print $2}')
  speed=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | tail -1 | awk '{print $2}')
  last=$(grep -E '^#[0-9]+.*cov: ' "$log" | tail -1)
  cov=$(sed -n 's/.*cov: \([0-9]*\).*/\1/p' <<<"$last")
  ft=$(sed -n 's/.*ft: \([0-9]*\).*/\1/p' <<<"$last")
  corp=$(sed -n 's/.*corp: \([0-9]*\).*/\1/p' <<<"$last")
  crashes=$(find "$build/artifacts/$t" -type f 2>/dev/null | sort)
  result=ok
  if [ "$rc" != 0 ] || [ -n "$crashes" ]; then
    result="FOUND (exit $rc): ${crashes:-see $log}"
    status=1
  fi
  printf '%-24s %12s %8s %8s %8s %7s  %s\n' "$t" "${execs:-?}" "${speed:-?}" "${cov:-?}" "${ft:-?}" "${corp:-?}" "$result"
done
[ $status -eq 0 ] || echo "reproduce: $build/bin/<target> <crash file>   (fuzz/README.md)"
exit $status
