#!/usr/bin/env bash
# Profile-guided optimisation, first step (make build runs it; CMakeLists.txt
# explains the flags): builds the instrumented prover in PGO_BUILD and, when
# it is newer than the last training, runs it on a training workload so that
# its profiles land in PGO_BUILD/profile. make build then compiles the
# prover in its own tree with those profiles (QCERT_PGO=use).
#
# The training is the queens game's search, the prover's hot loop: n = 14
# in work units (main search, small solver, table, unit shards), a Grundy
# value (heap moves) and a single certificate (the emitter). About 20 s.
# Profiles change only speed: the tests check every answer as before.
#   tools/pgo-train.sh PGO_BUILD [JOBS]
set -euo pipefail
cd "$(dirname "$0")/.."
pgo_build=${1:?usage: tools/pgo-train.sh PGO_BUILD [JOBS]}
jobs=${2:-2}
mkdir -p "$pgo_build"
pgo_build=$(cd "$pgo_build" && pwd)
profile=$pgo_build/profile
cmake -S . -B "$pgo_build" -DCMAKE_BUILD_TYPE=Release -DQCERT_PGO=generate -DQCERT_PGO_DIR="$profile" >/dev/null
cmake --build "$pgo_build" --target prover -j "$jobs" >/dev/null
prover=$pgo_build/bin/prover
[ -f "$profile/trained.stamp" ] && [ "$profile/trained.stamp" -nt "$prover" ] && exit 0

echo "pgo: training the instrumented prover (about 20 s) ..."
rm -rf "$profile"
mkdir -p "$profile"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$prover" prove --n 14 --tt-mb 256 --units "$work/n14.units" --out "$work/n14.qcert" --quiet >/dev/null
"$prover" grundy --n 12 --out "$work/g12.qcert" --quiet >/dev/null
"$prover" prove --n 12 --out "$work/n12.qcert" --quiet >/dev/null
ls "$profile"/*.gcda >/dev/null 2>&1 || { echo "pgo: the training wrote no profiles to $profile" >&2; exit 1; }
touch "$profile/trained.stamp"
