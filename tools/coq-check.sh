#!/usr/bin/env bash
# The Coq proofs of checker-verified/ (docs/verified-checker.md): compiles
# them and checks that they assume nothing.
#
#   tools/coq-check.sh          (COQC=/path/to/coqc to pick a coqc)
#
#  1. No escape hatch in checker-verified/*.v: none of the words Admitted,
#     admit, Admit, Axiom(s), Parameter(s), Hypothesis/Hypotheses, Conjecture,
#     nor an Unset ... Checking or a Bypass Check (not even in a comment).
#  2. Every file of checker-verified/_CoqProject compiles with coqc, in a
#     temporary folder (nothing is written to the source tree).
#  3. Each main theorem proves exactly the statement Spec.v writes for it
#     (a Definition of type QueensGame.Spec.<theorem>_statement := <theorem>
#     must compile: the statement is the one in Spec.v, not a later namesake;
#     checker_sound's statement is about QueensGame.Checker.check_claim, the
#     function that Extraction.v extracts),
#     and its `Print Assumptions` says "Closed under the global context":
#     it rests on nothing but Coq's kernel.
# Exit 1, naming each failure; 0 when all hold.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
src=$root/checker-verified
coqc=${COQC:-coqc}
command -v "$coqc" >/dev/null || { echo "coq-check: coqc not found (make deps installs Debian's coq)" >&2; exit 1; }

# The theorems whose assumptions are checked; each has <name>_statement in Spec.v.
theorems=(every_game_ends determined wins_by_wins grundy_function sprague_grundy_step
          odd_board_reflection_wins odd_board_first_player_wins symmetry_lemma torus_translation_lemma parts_sum queens_part_value
          checker_sound manifest_sound manifest_step_sound parts_checker_sound piece_claim_queens)
# A statement that takes an argument: the checker whose soundness is stated
# is the function that Extraction.v extracts.
declare -A statement_args=([checker_sound]=QueensGame.Checker.check_claim
                           [manifest_sound]=QueensGame.Manifest.check_manifest
                           [manifest_step_sound]=QueensGame.Manifest.manifest_step
                           [parts_checker_sound]=QueensGame.Parts.check_parts)
# A theorem whose statement has another theorem's name: manifest_sound is
# checker_sound_statement about check_manifest.
declare -A statement_of=([manifest_sound]=checker_sound [parts_checker_sound]=piece_checker_sound)

echo "coq-check: $("$coqc" --version | head -1)"

# 1. Escape hatches.
if grep -nwE 'Admitted|admit|Admit|Axiom|Axioms|Parameter|Parameters|Hypothesis|Hypotheses|Conjecture' "$src"/*.v \
   || grep -nE 'Unset[[:space:]]+[A-Za-z ]*Checking|Bypass[[:space:]]+Check' "$src"/*.v; then
  echo "coq-check: FAIL: an assumption or a switched-off check in checker-verified/*.v (above)" >&2
  exit 1
fi

# 2. Compile, in _CoqProject's order.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$src"/*.v "$tmp"/
mapfile -t files < <(grep -E '^[A-Za-z0-9_]+\.v$' "$src/_CoqProject")
[ ${#files[@]} -gt 0 ] || { echo "coq-check: FAIL: no .v file named in _CoqProject" >&2; exit 1; }
# (A lookup, not `printf | grep -q`: under pipefail, grep -q's early exit
# could kill printf with SIGPIPE and fail a file that is listed; seen once
# in CI's second half on a loaded machine.)
declare -A listed=()
for f in "${files[@]}"; do listed[$f]=1; done
for f in "$src"/*.v; do
  [ -n "${listed[$(basename "$f")]:-}" ] \
    || { echo "coq-check: FAIL: $(basename "$f") is not in _CoqProject, so it would go unchecked" >&2; exit 1; }
done
for f in "${files[@]}"; do
  start=$(date +%s%N)
  (cd "$tmp" && "$coqc" -q -Q . QueensGame "$f") \
    || { echo "coq-check: FAIL: $f does not compile" >&2; exit 1; }
  ms=$(( ($(date +%s%N) - start) / 1000000 ))
  printf 'coq-check: compiled %-18s %3d.%d s\n' "$f" $((ms / 1000)) $((ms % 1000 / 100))
done

# 3. Statements and assumptions, all in one coqc run (each run loads the
# modules again): for each theorem, a definition that compiles only if it
# proves Spec.v's statement, that statement, and its assumptions.
modules=$(printf '%s ' "${files[@]%.v}")
{
  echo "From QueensGame Require Import $modules."
  for t in "${theorems[@]}"; do
    st=${statement_of[$t]:-$t}
    echo "Definition check_$t : QueensGame.Spec.${st}_statement ${statement_args[$t]:-} := $t."
    echo "Print QueensGame.Spec.${st}_statement."
    echo "Print Assumptions $t."
  done
} > "$tmp/CheckStatements.v"
if ! out=$(cd "$tmp" && "$coqc" -q -Q . QueensGame CheckStatements.v 2>&1); then
  echo "$out"
  echo "coq-check: FAIL: a main theorem does not prove its statement in Spec.v (above)" >&2
  exit 1
fi
echo "$out"
# One "Closed under the global context" per theorem, and nothing that lists
# an assumption (Print Assumptions says "Axioms:" before any it finds).
closed=$(grep -cx 'Closed under the global context' <<<"$out" || true)
if [ "$closed" -ne ${#theorems[@]} ] || grep -q '^Axioms:' <<<"$out"; then
  echo "coq-check: FAIL: $((${#theorems[@]} - closed)) of the ${#theorems[@]} main theorems rest on assumptions (above)" >&2
  exit 1
fi
echo "coq-check: OK: ${#files[@]} files compiled, ${#theorems[@]} theorems closed under the global context"
