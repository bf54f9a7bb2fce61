#!/usr/bin/env bash
# tools/audit.sh's scheduling, in seconds, with a stand-in prover and checker
# (shell scripts that sleep as long as each claim says and write or read a
# one-line "certificate"), the real qcert for the table:
#   - small claims run AUDIT_JOBS at a time, cheapest first;
#   - a small claim that takes far longer than its estimate holds one slot,
#     never the others;
#   - a headline shipped certificate whose check cannot fit is not started,
#     and its row names the checker command and how long it takes;
#   - a proof still running at the budget's end is stopped, the run ends
#     within the budget, and claims not run are summed by source and family;
#   - AUDIT_QUICK=1 proves one claim per source and family and checks the
#     small shipped certificates;
#   - AUDIT_OUT and the files in it that are not ours are refused before any
#     work (exit 2, one line), and are left as they were;
#   - the Coq-proved checker (a stand-in checker-verified): run on the claims
#     in its scope whose check was short, within its budget, its verdict in
#     the results' verified column; a REJECTED is a failure (exit 1); not
#     built: said once, nothing marked.
#
#   audit_test.sh QCERT
set -uo pipefail
qcert=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
repo=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap '[ -n "${KEEP_TMP:-}" ] || rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; [ -f "$tmp/out.txt" ] && tail -n 40 "$tmp/out.txt"; exit 1; }

# The stand-ins: `prove --n N [--sleep-tenths T]` sleeps T/10 s (default 1)
# and writes "VERIFIED: <what N wins>"; the checker sleeps the tenths its
# certificate names after '#' and prints the line (NOT CHECKED past
# --time-limit, like the real one).
mkdir -p "$tmp/bin" "$tmp/certs"
cat >"$tmp/bin/prover" <<'EOF'
#!/usr/bin/env bash
n="" out="" tenths=10 check=1 family=$1
while [ $# -gt 0 ]; do
  case "$1" in
    --tt-mb) [ "$family" = mod2 ] && { echo "prover mod2: unrecognised option '--tt-mb'" >&2; exit 2; }; shift ;;
    --n) n=$2; shift ;;
    --out) out=$2; shift ;;
    --sleep-tenths) tenths=$2; shift ;;
    --check-tenths) check=$2; shift ;;
  esac
  shift
done
[ "$n" = "${SLOWCHECK_N:-}" ] && check=30  # section 5: a slow check with in-scope arguments
sleep "$((tenths / 10)).$((tenths % 10))"
[ -n "$out" ] && echo "first player wins on the empty ${n}x${n} board#$check" >"$out"
exit 0
EOF
cat >"$tmp/bin/checker" <<'EOF'
#!/usr/bin/env bash
limit=1000000 file=""
while [ $# -gt 0 ]; do
  case "$1" in
    --time-limit) limit=$2; shift ;;
    --jobs) shift ;;
    *) file=$1 ;;
  esac
  shift
done
IFS='#' read -r statement tenths <"$file"
if [ "$tenths" -gt $((limit * 10)) ]; then sleep "$limit"; echo "NOT CHECKED: time limit of $limit s reached (--time-limit); nothing was decided"; exit 2; fi
sleep "$((tenths / 10)).$((tenths % 10))"
echo "VERIFIED: $statement"
EOF
chmod +x "$tmp/bin/prover" "$tmp/bin/checker"
claim() {  # id n estimate extra-args [backing]
  echo "$1 | first player wins on the empty $2x$2 board | prove --n $2 $4 | $3 | ${5:-replay}"
}
run_audit() {  # out-dir, then VAR=value ...
  local out=$1; shift
  env PROVER="$tmp/bin/prover" CHECKER="$tmp/bin/checker" QCERT="$qcert" AUDIT_OUT="$out" AUDIT_CERTS="$tmp/certs" \
    AUDIT_JOBS=2 VERIFIED_CHECKER="$tmp/bin/not-built" "$@" "$repo/tools/audit.sh" >"$tmp/out.txt" 2>&1
}
status_of() { awk -F'\t' -v id="$2" '$2 == id { print $4 }' "$1/results.tsv"; }
detail_of() { awk -F'\t' -v id="$2" '$2 == id { print $5 }' "$1/results.tsv"; }
verified_of() { awk -F'\t' -v id="$2" '$2 == id { print $16 }' "$1/results.tsv"; }

# 1. Two at a time, and a wrong estimate holds one slot only: eight claims
# of 1 s and one of "1 s" that takes 6 s (each checked in 0.1 s) end after
# about 7.5 s, not 15.
{
  echo "# A test source."
  claim t-slow 9 1 "--sleep-tenths 60"
  for n in 1 2 3 4 5 6 7 8; do claim "t-n$n" "$n" 1 ""; done
  claim t-ages 10 74000000000 ""  # a count of ages: never started (its prediction once wrapped around)
} >"$tmp/a.claims"
t0=$SECONDS
run_audit "$tmp/out1" AUDIT_MANIFESTS="$tmp/a.claims" AUDIT_BUDGET=60 || fail "audit exit $?"
wall=$((SECONDS - t0))
for id in t-n1 t-n2 t-n3 t-n4 t-n5 t-n6 t-n7 t-n8 t-slow; do
  [ "$(status_of "$tmp/out1" $id)" = certified ] || fail "$id: $(status_of "$tmp/out1" $id) $(detail_of "$tmp/out1" $id)"
done
[ "$(detail_of "$tmp/out1" t-ages)" = "over budget" ] || fail "t-ages: $(status_of "$tmp/out1" t-ages) $(detail_of "$tmp/out1" t-ages)"
grep -qF 'a, queens game: 1 claim over budget (about 3166 years)' "$tmp/out.txt" || fail "no summary line for t-ages"
[ "$wall" -le 13 ] || fail "nine claims (8 x 1 s + 6 s) on two slots took $wall s"
echo "ok: 9 claims certified two at a time in $wall s (one at a time: 15 s)"

# 2. The budget: two small claims far past their estimates are stopped at
# the small claims' cap (2 s here) and tried again after the rest, which all
# run; a headline whose check does not fit is not started (its row says how
# to check it); a proof still running at the budget's end is stopped; claims
# not reached are summed by source and family.
echo "first player wins on the empty 20x20 board#3000" >"$tmp/certs/t-big.qcert"
echo "first player wins on the empty 21x21 board#5" >"$tmp/certs/rudd-n16.qcert"
{
  echo "# A test source."
  claim t-big 20 7200 "--jobs 2" "replay, shipped (check about 300 s)"
  claim rudd-n16 21 7200 "--jobs 2" "replay, shipped (check about 1 s)"
  claim t-long 11 0 "--sleep-tenths 400"
  claim t-long2 12 0 "--sleep-tenths 400"
  for n in 13 14 15 16 17 18; do claim "t-n$n" "$n" 3 "--sleep-tenths 30"; done
  claim t-later 19 50 "--sleep-tenths 10"
} >"$tmp/b.claims"
t0=$SECONDS
run_audit "$tmp/out2" AUDIT_MANIFESTS="$tmp/b.claims" AUDIT_BUDGET=20 AUDIT_SMALL_CAP=2; rc=$?
wall=$((SECONDS - t0))
[ $rc -eq 0 ] || fail "audit exit $rc"
[ "$wall" -le 24 ] || fail "a 20 s budget took $wall s"
for n in 13 14 15 16 17 18; do
  [ "$(status_of "$tmp/out2" t-n$n)" = certified ] || fail "t-n$n was starved: $(status_of "$tmp/out2" t-n$n) $(detail_of "$tmp/out2" t-n$n)"
done
[ "$(status_of "$tmp/out2" t-big)" = not-run ] || fail "t-big: $(status_of "$tmp/out2" t-big)"
# A headline that fits is checked; the n = 16 reply table after it (at
# least 10 s) does not fit, and the run says so and goes on.
[ "$(status_of "$tmp/out2" rudd-n16)" = certified ] || fail "rudd-n16: $(status_of "$tmp/out2" rudd-n16) $(detail_of "$tmp/out2" rudd-n16)"
grep -qF "audit: no time left for the n = 16 reply table (qcert replies $tmp/certs/rudd-n16.qcert prints it)" "$tmp/out.txt" ||
  fail "no word on the reply table"
detail_of "$tmp/out2" t-big | grep -qF "check it with $tmp/bin/checker --jobs 2 $tmp/certs/t-big.qcert (about 5 min on a quiet machine" ||
  fail "t-big's note: $(detail_of "$tmp/out2" t-big)"
for id in t-long t-long2; do
  detail_of "$tmp/out2" $id | grep -q '^over budget' || fail "$id: $(detail_of "$tmp/out2" $id)"
done
[ "$(detail_of "$tmp/out2" t-later)" = "over budget" ] || fail "t-later: $(detail_of "$tmp/out2" t-later)"
grep -qF 'b, queens game: 1 claim over budget (about 1 min' "$tmp/out.txt" || fail "no summary line for the claim over budget"
tr '\n' ' ' <"$tmp/out.txt" | tr -s ' ' | grep -qF "check it with $tmp/bin/checker --jobs 2 $tmp/certs/t-big.qcert" || fail "the table does not give t-big's command"
echo "ok: the budget holds ($wall s of 20), no small claim starved, the headline left with its command, the rest summed"

# 3. AUDIT_QUICK=1: one proof per source and family, every small shipped
# certificate checked, the rest listed.
echo "first player wins on the empty 3x3 board#1" >"$tmp/certs/q-n3.qcert"
{
  echo "# A quick source."
  claim q-n1 1 1 ""
  claim q-n2 2 1 ""
  claim q-n3 3 1 ""
  echo "q-v4 | first player wins on the empty 4x4 board with kings | prove --n 4 --piece king | 1 | replay"
} >"$tmp/c.claims"
run_audit "$tmp/out3" AUDIT_MANIFESTS="$tmp/c.claims" AUDIT_QUICK=1 AUDIT_BUDGET=30 || fail "quick audit exit $?"
[ "$(status_of "$tmp/out3" q-n1)" = certified ] || fail "q-n1 (the family's pick): $(status_of "$tmp/out3" q-n1)"
[ "$(detail_of "$tmp/out3" q-n3)" = shipped ] || fail "q-n3 (shipped): $(detail_of "$tmp/out3" q-n3)"
[ "$(status_of "$tmp/out3" q-n2)" = not-run ] || fail "q-n2: $(status_of "$tmp/out3" q-n2)"
# The kings claim is its own family ("variants"): it is proved too (the
# stand-in's statement differs, so it is refuted, which is fine here).
[ "$(status_of "$tmp/out3" q-v4)" != not-run ] || fail "q-v4 (variants) was not run"
grep -qF 'c, queens game: 1 claim not in the quick selection' "$tmp/out.txt" || fail "no quick summary line"
echo "ok: AUDIT_QUICK=1 picks one per source and family and the shipped certificates"

# 4. Output that is not ours is refused before any work, and left alone.
mkdir -p "$tmp/out4"
mkfifo "$tmp/out4/results.tsv"
run_audit "$tmp/out4" AUDIT_MANIFESTS="$tmp/a.claims"; rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <"$tmp/out.txt")" -eq 1 ] && grep -q 'results.tsv exists and is not a regular file' "$tmp/out.txt" ||
  fail "a FIFO as results.tsv: exit $rc, $(cat "$tmp/out.txt")"
[ -p "$tmp/out4/results.tsv" ] || fail "the FIFO was replaced"
[ -z "$(ls "$tmp/out4" | grep -v results.tsv)" ] || fail "work was done before the refusal: $(ls "$tmp/out4")"
: >"$tmp/plain"
run_audit "$tmp/plain" AUDIT_MANIFESTS="$tmp/a.claims"; rc=$?
[ $rc -eq 2 ] && grep -q 'exists and is not a folder' "$tmp/out.txt" || fail "a file as AUDIT_OUT: exit $rc, $(cat "$tmp/out.txt")"
run_audit "" AUDIT_MANIFESTS="$tmp/a.claims"; rc=$?
[ $rc -eq 2 ] && grep -q 'AUDIT_OUT is empty' "$tmp/out.txt" || fail "an empty AUDIT_OUT: exit $rc, $(cat "$tmp/out.txt")"
run_audit "$tmp/out5" AUDIT_MANIFESTS="$tmp/a.claims" AUDIT_BUDGET=soon; rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <"$tmp/out.txt")" -eq 1 ] || fail "AUDIT_BUDGET=soon: exit $rc, $(cat "$tmp/out.txt")"
# A symbolic link under one of our names, even to a regular file, is refused
# before any work (it used to pass, and the page failed after all of it).
mkdir -p "$tmp/out-link"
: >"$tmp/elsewhere.html"
ln -s "$tmp/elsewhere.html" "$tmp/out-link/report.html"
run_audit "$tmp/out-link" AUDIT_MANIFESTS="$tmp/a.claims"; rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <"$tmp/out.txt")" -eq 1 ] && grep -q 'report.html is a symbolic link' "$tmp/out.txt" ||
  fail "a link as report.html: exit $rc, $(cat "$tmp/out.txt")"
[ -L "$tmp/out-link/report.html" ] && [ ! -s "$tmp/elsewhere.html" ] || fail "the link or its file was changed"
[ -z "$(ls "$tmp/out-link" | grep -v report.html)" ] || fail "work was done before the refusal: $(ls "$tmp/out-link")"
# A FIFO where an earlier audit put its temporary: the results are written
# through a fresh name, not into the FIFO (the audit used to hang there).
mkdir -p "$tmp/out-fifo"
mkfifo "$tmp/out-fifo/results.tsv.tmp" "$tmp/out-fifo/times.tsv.tmp"
timeout 120 env PROVER="$tmp/bin/prover" CHECKER="$tmp/bin/checker" QCERT="$qcert" AUDIT_OUT="$tmp/out-fifo" AUDIT_CERTS="$tmp/certs" \
  AUDIT_JOBS=2 VERIFIED_CHECKER="$tmp/bin/not-built" AUDIT_MANIFESTS="$tmp/c.claims" AUDIT_QUICK=1 AUDIT_BUDGET=30 \
  "$repo/tools/audit.sh" >"$tmp/out.txt" 2>&1; rc=$?
[ $rc -ne 124 ] || fail "the audit hung on a FIFO named results.tsv.tmp or times.tsv.tmp"
[ -f "$tmp/out-fifo/results.tsv" ] && [ -f "$tmp/out-fifo/times.tsv" ] && [ -f "$tmp/out-fifo/report.html" ] ||
  fail "with FIFOs at the old temporary names: exit $rc, $(ls -a "$tmp/out-fifo")"
[ -p "$tmp/out-fifo/results.tsv.tmp" ] && [ -p "$tmp/out-fifo/times.tsv.tmp" ] || fail "the FIFOs were replaced"
[ -z "$(ls -A "$tmp/out-fifo" | grep '^\.results\|^\.times')" ] || fail "temporaries left behind: $(ls -A "$tmp/out-fifo")"
echo "ok: output that is not ours and bad settings are refused in one line, exit 2"

# 5. The Coq-proved checker: a stand-in checker-verified that logs its runs,
# sleeps VSLEEP tenths and VERIFIES the certificate's statement, or REJECTS
# it on the board VREJECT_N. In its scope: queens-game outcomes and Grundy
# values on boards up to 22 (not kings, not n = 23); only where its
# prediction fits (here AUDIT_VERIFIED_RATIO=1: the checker's time; v-slowcheck's
# 3 s is past a cap of 2 s); within AUDIT_VERIFIED_BUDGET.
cat >"$tmp/bin/checker-verified" <<'EOF'
#!/usr/bin/env bash
jobs=none
if [ "$1" = --jobs ]; then jobs=$2; shift 2; fi
echo "$1 jobs=$jobs" >>"$VLOG"
IFS='#' read -r statement tenths <"$1"
sleep "$((${VSLEEP:-1} / 10)).$((${VSLEEP:-1} % 10))"
if [[ "$statement" == *" ${VREJECT_N:-0}x${VREJECT_N:-0} "* ]]; then echo "REJECTED: table entry 3: its reply is not a legal move"; exit 1; fi
echo "VERIFIED: $statement"
EOF
chmod +x "$tmp/bin/checker-verified"
{
  echo "# A source for the Coq-proved checker."
  for n in 1 2 3 4; do claim "v-n$n" "$n" 1 ""; done
  echo "v-king | first player wins on the empty 5x5 board with kings | prove --n 5 --piece king | 1 | replay"
  claim v-n23 23 1 ""
  claim v-slowcheck 6 1 ""  # its check takes 3 s (SLOWCHECK_N=6)
  claim v-rej 7 1 ""
} >"$tmp/v.claims"
: >"$tmp/vlog"
run_audit "$tmp/out6" AUDIT_MANIFESTS="$tmp/v.claims" AUDIT_BUDGET=60 VERIFIED_CHECKER="$tmp/bin/checker-verified" VLOG="$tmp/vlog" SLOWCHECK_N=6 \
  AUDIT_VERIFIED_RATIO=1 AUDIT_VERIFIED_CAP=2 VREJECT_N=7; rc=$?
[ $rc -eq 1 ] || fail "a REJECTED by the Coq-proved checker: audit exit $rc, expected 1"
for id in v-n1 v-n2 v-n3 v-n4; do
  [ "$(status_of "$tmp/out6" $id)" = certified ] && [ "$(verified_of "$tmp/out6" $id)" = verified ] ||
    fail "$id: $(status_of "$tmp/out6" $id), verified '$(verified_of "$tmp/out6" $id)'"
done
for id in v-king v-n23; do
  [ "$(verified_of "$tmp/out6" $id)" = - ] || fail "$id (out of scope): verified '$(verified_of "$tmp/out6" $id)'"
done
[ "$(verified_of "$tmp/out6" v-slowcheck)" = skipped ] || fail "v-slowcheck: verified '$(verified_of "$tmp/out6" v-slowcheck)', expected skipped"
[ "$(status_of "$tmp/out6" v-rej)" = certified ] && [ "$(verified_of "$tmp/out6" v-rej)" = rejected ] ||
  fail "v-rej: $(status_of "$tmp/out6" v-rej), verified '$(verified_of "$tmp/out6" v-rej)'"
grep -qF "the Coq-proved checker did not: REJECTED: table entry 3" "$tmp/out.txt" || fail "no word on the rejection"
[ "$(wc -l <"$tmp/vlog")" -eq 5 ] || fail "checker-verified ran $(wc -l <"$tmp/vlog") times, expected 5: $(cat "$tmp/vlog")"
[ "$(grep -c ' jobs=1$' "$tmp/vlog")" -eq 5 ] || fail "checker-verified within the budget was not given --jobs 1: $(cat "$tmp/vlog")"
awk -F'\t' '$2 == "v-n1" { exit !($17 ~ /^[0-9]+$/ && $17 >= 100) }' "$tmp/out6/results.tsv" || fail "v-n1: no verified_ms of at least 100"
grep -q "^#run.*verified_checker=$tmp/bin/checker-verified" "$tmp/out6/results.tsv" || fail "the #run line does not name checker-verified"
grep -qE '^  certified\+Coq' "$tmp/out.txt" || fail "the table marks no claim certified+Coq"
tr '\n' ' ' <"$tmp/out.txt" | tr -s ' ' | grep -qF 'it checked 5 again: 4 verified too (+Coq), 1 REJECTED; 1 not run for want of its time' ||
  fail "the table does not count the Coq-proved checker's work"
echo "ok: the Coq-proved checker ran on the 5 claims in its scope with a short check, marked 4, its REJECTED failed the audit"
# Its budget: 2 s for checks of 1.5 s each: one or two run, the others are skipped.
: >"$tmp/vlog"
run_audit "$tmp/out7" AUDIT_MANIFESTS="$tmp/v.claims" AUDIT_BUDGET=60 VERIFIED_CHECKER="$tmp/bin/checker-verified" VLOG="$tmp/vlog" SLOWCHECK_N=6 \
  AUDIT_VERIFIED_RATIO=1 AUDIT_VERIFIED_BUDGET=2 VSLEEP=15; rc=$?
[ $rc -eq 0 ] || fail "audit exit $rc"
n_ver=$(awk -F'\t' '$1 != "source" && $16 == "verified"' "$tmp/out7/results.tsv" | wc -l)
n_skip=$(awk -F'\t' '$16 == "skipped"' "$tmp/out7/results.tsv" | wc -l)
[ "$n_ver" -ge 1 ] && [ "$n_ver" -le 2 ] && [ $((n_ver + n_skip)) -eq 6 ] || fail "a 2 s budget: $n_ver verified, $n_skip skipped"
echo "ok: a 2 s budget for the Coq-proved checker: $n_ver verified, $n_skip skipped"
# AUDIT_VERIFIED=all: the same budget, and what it had no time for runs after
# the budget's end: all six verified.
: >"$tmp/vlog"
run_audit "$tmp/out7b" AUDIT_MANIFESTS="$tmp/v.claims" AUDIT_BUDGET=60 VERIFIED_CHECKER="$tmp/bin/checker-verified" VLOG="$tmp/vlog" SLOWCHECK_N=6 \
  AUDIT_VERIFIED_RATIO=1 AUDIT_VERIFIED_BUDGET=2 VSLEEP=15 AUDIT_VERIFIED=all; rc=$?
[ $rc -eq 0 ] || fail "AUDIT_VERIFIED=all: audit exit $rc"
n_ver=$(awk -F'\t' '$1 != "source" && $16 == "verified"' "$tmp/out7b/results.tsv" | wc -l)
[ "$n_ver" -eq 6 ] || fail "AUDIT_VERIFIED=all: $n_ver of 6 verified"
# After the budget's end nothing else runs: a manifest's shards may take both slots.
grep -q ' jobs=2$' "$tmp/vlog" || fail "AUDIT_VERIFIED=all: no run after the budget's end was given --jobs 2 (AUDIT_JOBS=2): $(cat "$tmp/vlog")"
tr '\n' ' ' <"$tmp/out.txt" | tr -s ' ' | grep -qF 'Of the 6 claims (of 8 in all)' || fail "the table does not count the claims in all"
run_audit "$tmp/out7c" AUDIT_MANIFESTS="$tmp/v.claims" AUDIT_VERIFIED=some; rc=$?
[ $rc -eq 2 ] || fail "AUDIT_VERIFIED=some: exit $rc, expected 2"
echo "ok: AUDIT_VERIFIED=all ran the Coq-proved checker on all 6 claims in its scope, after the budget"
# Not built: said once, nothing marked.
run_audit "$tmp/out8" AUDIT_MANIFESTS="$tmp/v.claims" AUDIT_BUDGET=60 VERIFIED_CHECKER="$tmp/bin/none" || fail "audit exit $?"
[ "$(grep -c "is not built (it needs coqc and ocamlopt" "$tmp/out.txt")" -eq 1 ] || fail "'not built' is not said exactly once"
[ -z "$(awk -F'\t' '!/^#/ && $1 != "source" && $16 != "-"' "$tmp/out8/results.tsv")" ] || fail "claims marked without checker-verified"
grep -q "^#run.*verified_checker=-" "$tmp/out8/results.tsv" || fail "#run does not say checker-verified was not used"
tr '\n' ' ' <"$tmp/out.txt" | tr -s ' ' | grep -qF 'was not built or not used in this run: no claim is marked.' || fail "the table does not say it was not built"
echo "ok: without checker-verified, the audit says so once and marks nothing"

# 6. Only the queens game's prover has a transposition table: a mod-2 row
# estimated at a minute or more gets no --tt-mb (it once failed with
# "unrecognised option").
{
  echo "# A mod-2 source."
  echo "t-mod2 | first player wins on the empty 3x3 board | mod2 outcome --n 3 | 60 | search: every set"
} >"$tmp/m.claims"
run_audit "$tmp/out9" AUDIT_MANIFESTS="$tmp/m.claims" AUDIT_BUDGET=200 || fail "audit exit $?"
[ "$(status_of "$tmp/out9" t-mod2)" = certified ] || fail "the mod-2 row: $(status_of "$tmp/out9" t-mod2) $(detail_of "$tmp/out9" t-mod2)"
echo "ok: a mod-2 row of a minute runs without --tt-mb"
