#!/usr/bin/env bash
# Every checker statement quoted in the documentation is one the checker
# really prints. A statement is a `backquoted` span of README.md, docs/*.md or
# proofs/README.md worded as the checker words its verdicts ("the Grundy value
# of ... is 1", "first player wins on ...", "... has 92 solutions"). For each
# one the test finds the claim that makes it: the manifest row (proofs/*.claims)
# whose statement is the same up to its values (a row may say * for a value,
# or hold a published value the checker refutes), or else a line of
# tests/docs_statements.tsv (statement <TAB> prover arguments) for examples no
# manifest lists. It then runs the prover and the checker on it and requires
# the checker's VERIFIED statement to be the quoted one, word for word.
#   - a quoted statement no claim makes fails: a doc example must be checkable;
#   - a claim whose estimate (the manifest's seconds) is over DOCS_TEST_BUDGET
#     (default 5 s) is listed as not run, not failed;
#   - spans with placeholders (X, N, ..., t0) are forms, not statements.
# And each `qcert describe` output shown in a fenced block is what it prints.
#
#   docs_statements_test.sh BIN_DIR
set -uo pipefail
bin=$(cd "$1" && pwd)
repo=$(cd "$(dirname "$0")/.." && pwd)
budget=${DOCS_TEST_BUDGET:-5}
tmp=$(mktemp -d)
mkdir -p "$tmp/blocks"
trap 'rm -rf "$tmp"' EXIT
cd "$repo" || exit 2

# The quoted spans, one a line, whitespace folded (a span may cross lines).
for f in README.md docs/*.md proofs/README.md; do
  tr '\n' ' ' <"$f" | grep -o '`[^`]*`' | tr -d '`' | tr -s ' ' | sed 's/^ //; s/ $//' |
    sed "s|\$|	$f|"
done | sort -u >"$tmp/spans.tsv"

# Statement-shaped: how the checker's statements begin, and a verb they have.
grep -E '^(the |first player |second player |Left |Right )' "$tmp/spans.tsv" |
  grep -E ' (is|has|wins|loses|finds) ' |
  grep -vE '(^| )([A-Z]|[a-z][0-9]|\.\.\.)([ ,;)]|$)' >"$tmp/statements.tsv"

# A statement's shape: its values (numbers standing alone, and a manifest's *)
# made one wildcard; board sizes (7x7, 8-queens, 8+1) stay.
shape() { sed -E 's/(^|[ (])([0-9][0-9,]*|\*)([ ,;)]|$)/\1#\3/g; s/(^|[ (])([0-9][0-9,]*|\*)([ ,;)]|$)/\1#\3/g'; }

# Manifest rows as "shape <TAB> estimate <TAB> prover arguments".
for m in proofs/*.claims; do
  grep -v '^\s*#' "$m" | grep '|' |
    awk -F'|' '{ for (i = 1; i <= 5; i++) gsub(/^[ \t]+|[ \t]+$/, "", $i); if ($3 != "-") print $2 "\t" $4 "\t" $3 }'
done >"$tmp/rows.tsv"
cut -f1 "$tmp/rows.tsv" | shape | paste - <(cut -f2- "$tmp/rows.tsv") >"$tmp/shapes.tsv"

pass=0 failures=0 not_run=0
while IFS=$'\t' read -r statement file; do
  args="" estimate=0
  want_shape=$(printf '%s\n' "$statement" | shape)
  IFS=$'\t' read -r _ estimate args < <(awk -F'\t' -v s="$want_shape" '$1 == s { print; exit }' "$tmp/shapes.tsv")
  if [ -z "${args:-}" ]; then
    args=$(awk -F'\t' -v s="$statement" '$1 == s { print $2; exit }' "$repo/tests/docs_statements.tsv")
    estimate=1
  fi
  if [ -z "$args" ]; then
    echo "FAIL: $file quotes a statement no manifest row or tests/docs_statements.tsv line makes: $statement"
    failures=$((failures + 1)); continue
  fi
  if ! awk -v e="$estimate" -v b="$budget" 'BEGIN { exit !(e + 0 <= b + 0) }'; then
    echo "not run (estimated $estimate s, over $budget s): $statement"
    not_run=$((not_run + 1)); continue
  fi
  # shellcheck disable=SC2086  # the arguments are words, as the audit runs them
  start=$(date +%s%N)
  if ! "$bin/prover" $args --out "$tmp/c.qcert" >"$tmp/prover.txt" 2>&1; then
    echo "FAIL: prover $args (for $file): $(tail -n 1 "$tmp/prover.txt")"
    failures=$((failures + 1)); continue
  fi
  verdict=$("$bin/checker" "$tmp/c.qcert" 2>/dev/null | head -n 1)
  got=${verdict#VERIFIED: }
  got=${got% (queens game)}
  if [ "$verdict" = "$got" ] || [ "$got" != "$statement" ]; then
    echo "FAIL: $file says \`$statement\`; the checker says: $verdict"
    failures=$((failures + 1)); continue
  fi
  pass=$((pass + 1))
  echo "ok ($(( ($(date +%s%N) - start) / 1000000 )) ms): $statement"
  rm -rf "$tmp/c.qcert" "$tmp/c.qcert.units"
done <"$tmp/statements.tsv"

# Program output the documentation shows: each fenced block that starts with
# `$ build/bin/qcert describe ARGS` is what that command prints, line for line
# (describe reads only the file, so its output is the same on every machine).
blocks=0
for f in README.md docs/*.md; do
  awk -v dir="$tmp/blocks" -v base="$(basename "$f")" '
    /^```/ { if (inblock) { inblock = 0; close(out) } else { fence = 1 }; next }
    fence { fence = 0; if ($0 ~ /^\$ build\/bin\/qcert describe /) { inblock = 1; out = dir "/" base "." NR; print > out }; next }
    inblock { print > out }' "$f" 2>/dev/null || true
done
for block in "$tmp"/blocks/*; do
  [ -f "$block" ] || continue
  blocks=$((blocks + 1))
  read -r -a cmd < <(head -n 1 "$block" | sed 's/^\$ build\/bin\/qcert //')
  if ! diff <(tail -n +2 "$block") <("$bin/qcert" "${cmd[@]}" 2>&1) >"$tmp/diff"; then
    echo "FAIL: $(basename "${block%.*}") shows \`qcert ${cmd[*]}\` printing something else (< doc, > program):"
    cat "$tmp/diff"
    failures=$((failures + 1))
  else
    echo "ok: $(basename "${block%.*}"): qcert ${cmd[*]}"
  fi
done
echo "$blocks shown describe outputs"

total=$(wc -l <"$tmp/statements.tsv")
echo "$total quoted statements: $pass verified as quoted, $not_run not run (over the budget), $failures wrong"
[ "$total" -gt 10 ] || { echo "FAIL: fewer than 10 quoted statements found: the extraction is broken"; exit 1; }
[ "$failures" -eq 0 ]
