#!/usr/bin/env bash
# The benchmarks' reference build: tools/build-ref.sh REF TARGET... builds
# the given targets (prover, checker) of git ref REF from its own sources,
# once, under out/bench/ref-<short commit>/ (src/: the ref's tree, certs/
# included; build/bin/: the binaries), and prints that folder's path on
# stdout. An existing folder is reused when every target is there. Exit 2,
# with a one-line reason on stderr, when REF is no commit or the build fails.
set -euo pipefail
cd "$(dirname "$0")/.."
ref=$1; shift
refdir=out/bench/ref-$(git rev-parse --short "$ref^{commit}" 2>/dev/null) || { echo "no git ref $ref" >&2; exit 2; }
missing=0
for target in "$@"; do [ -x "$refdir/build/bin/$target" ] || missing=1; done
if [ $missing -eq 1 ] || [ ! -d "$refdir/src" ]; then
  echo "building the reference $* of $ref in $refdir ..." >&2
  rm -rf "$refdir"; mkdir -p "$refdir/src"
  git archive "$ref" | tar -x -C "$refdir/src"
  cmake -S "$refdir/src" -B "$refdir/build" -DCMAKE_BUILD_TYPE=Release >"$refdir/build.log" 2>&1 &&
    make -C "$refdir/build" -j"$(nproc)" "$@" >>"$refdir/build.log" 2>&1 ||
    { echo "building $ref failed, see $refdir/build.log" >&2; exit 2; }
fi
echo "$refdir"
