#!/usr/bin/env bash
# Two MPI ranks share the work units of one claim on this machine; rank 0
# writes the manifest, and the checker verifies it with its shards.
#   mpi_units.sh MPIEXEC PROVER CHECKER
set -euo pipefail
mpiexec=$1 prover=$2 checker=$3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# Tests run as root in CI; Open MPI refuses that unless told it is intended.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
# `make test-sanitize`: Open MPI's own leaks are suppressed (tools/lsan.supp)
# by library, which LeakSanitizer can only see in whole stacks; Open MPI has
# no frame pointers, so unwind slowly here (this test only: it is costly).
if [ -n "${ASAN_OPTIONS:-}" ]; then export ASAN_OPTIONS="$ASAN_OPTIONS:fast_unwind_on_malloc=0"; fi
out=$("$mpiexec" --oversubscribe -np 2 "$prover" prove --n 10 --out "$dir/m.qcert" --tt-mb 32)
echo "$out"
grep -q '^RESULT: second player wins on the empty 10x10 board$' <<<"$out"
grep -q '15 resumed, 0 proved now' <<<"$out"   # rank 0's final pass found every unit done
units=$(ls "$dir/m.qcert.units/h0" | grep -c '\.qcert$')
[ "$units" -eq 15 ] || { echo "expected 15 unit files, found $units"; exit 1; }
"$checker" --jobs 2 "$dir/m.qcert" | tee "$dir/verdict"
grep -q '^VERIFIED: second player wins on the empty 10x10 board (queens game)$' "$dir/verdict"
# The second split level: ranks meet at a barrier once every unit is proved
# or split, then share the split units' sub-units.
out=$("$mpiexec" --oversubscribe -np 2 "$prover" prove --n 12 --out "$dir/s.qcert" --tt-mb 32 --deterministic --split-above 20000)
echo "$out"
grep -q '^RESULT: second player wins on the empty 12x12 board$' <<<"$out"
grep -q ' split into [0-9]* sub-units' <<<"$out"
grep -q ' 0 proved now' <<<"$out"   # the ranks did every unit and sub-unit before rank 0's final pass
"$checker" --jobs 2 "$dir/s.qcert" | tee "$dir/verdict"
grep -q '^VERIFIED: second player wins on the empty 12x12 board (queens game)$' "$dir/verdict"
echo "2 passed, 0 failed"
