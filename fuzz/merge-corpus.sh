#!/usr/bin/env bash
# Folds a campaign's new inputs (build-fuzz/corpus/<target>) into the committed
# corpus fuzz/corpus/<target>, minimised with libFuzzer's -merge=1: the seed-*
# and crash-* files stay, every other file is replaced by the merge's result.
# usage: fuzz/merge-corpus.sh TARGET...   (after make fuzz; FUZZ_BUILD=build-fuzz)
# FUZZ_MERGE_FLAGS=-use_counters=0 keeps one input per new edge only (fewer files).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${FUZZ_BUILD:-build-fuzz}
for t in "$@"; do
  out=$(mktemp -d)
  "$build/bin/$t" -merge=1 ${FUZZ_MERGE_FLAGS:-} -rss_limit_mb=2048 -timeout=10 "$out" "fuzz/corpus/$t" "$build/corpus/$t" > "$build/logs/$t.merge.log" 2>&1
  for keep in fuzz/corpus/$t/seed-* fuzz/corpus/$t/crash-*; do
    [ -f "$keep" ] && rm -f "$out/$(sha1sum "$keep" | cut -d' ' -f1)"
  done
  find "fuzz/corpus/$t" -type f ! -name 'seed-*' ! -name 'crash-*' -delete
  cp "$out"/* "fuzz/corpus/$t/" 2>/dev/null || true
  rm -rf "$out"
  echo "$t: $(ls "fuzz/corpus/$t" | wc -l) files, $(du -sh "fuzz/corpus/$t" | cut -f1)"
done
