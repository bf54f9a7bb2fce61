#!/usr/bin/env bash
# qcert report on a small fixture results file (tests/fixtures/audit-results.tsv,
# the format tools/audit.sh writes), in seconds, without running an audit;
# the n = 16 reply table from tests/fixtures/replies-n16.tsv (next to the
# results fixture; the output of qcert replies certs/rudd-n16.qcert --tsv,
# not recomputed here: the verification takes minutes).
#
#   report_test.sh QCERT FIXTURE table   the terminal table: 100 columns, every
#                                        claim distinguishable, notes, legend,
#                                        totals and refutations in full
#   report_test.sh QCERT FIXTURE html    the HTML page in headless Chromium:
#                                        it loads with no error and no network,
#                                        has the expected elements; a PNG
#                                        screenshot is left in REPORT_PNG_DIR
#                                        (default: the test's temporary folder,
#                                        printed). Exit 77 (skipped) without
#                                        chromium.
set -uo pipefail
qcert=$1 fixture=$2 mode=$3
replies=$(dirname "$fixture")/replies-n16.tsv
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

if [ "$mode" = table ]; then
  "$qcert" report --results "$fixture" --html "$tmp/report.html" >"$tmp/table.txt" 2>"$tmp/err.txt" ||
    fail "qcert report exit $?: $(cat "$tmp/err.txt")"
  [ -s "$tmp/err.txt" ] && fail "stderr not empty: $(cat "$tmp/err.txt")"
  long=$(awk 'length($0) > 100 { print NR": "length($0) }' "$tmp/table.txt")
  [ -z "$long" ] && echo "ok: every line fits 100 columns" || fail "lines over 100 columns: $long"
  LC_ALL=C grep -q '[^ -~]' "$tmp/table.txt" && fail "non-ASCII characters in the table"
  expect() { grep -qF -- "$1" "$tmp/table.txt" || fail "no '$1' in the table"; echo "ok: $1"; }
  # Grouped rows keep what tells them apart; the template says what is common.
  expect '"_ player wins on the empty _ board"'
  expect 'second  16x16'
  expect '"the Grundy value of the 4x4 board after queens _ _ is _"'
  expect 'b1  (0,1)  3'
  # Unpublished numbers are filled in, in braces; the legend explains it.
  expect '5x5  {10}  {220}'
  expect "{72378}       a number the source does not publish ('*' in its manifest)"
  # Every status word and symbol has a legend line.
  for key in certified REFUTED lemma 'not run' FAILED '"... _ ..."' '[n]' 'prove s' 'check s' '(0.05)' cert +Coq; do
    grep -qE "^  $(sed 's/[][().*+]/\\&/g' <<<"$key") +[a-z]" "$tmp/table.txt" || fail "no legend line for '$key'"
  done
  echo "ok: a legend line for every symbol"
  # Totals, and the refutations in full at the end (after the legend).
  expect 'Totals: 27 claims: 19 certified (18 proved in this run, 1 from shipped certificates), 2 refuted, 1'
  expect 'lemma, 4 not run (3 over budget), 1 failed.'
  tail -n 12 "$tmp/table.txt" | grep -q '^Refutations (2):' || fail "the refutations are not at the end"
  tr '\n' ' ' <"$tmp/table.txt" | tr -s ' ' | grep -qF '[3] dk-2.2-n26 (dubreuil-koehnen-2022): published "the 26-queens problem has 22317699616364044 solutions, 278971246651089 up to symmetry" is impossible' ||
    fail "the impossible count is not shown in full"
  tr '\n' ' ' <"$tmp/table.txt" | tr -s ' ' | grep -qF 'the checker verified instead: "at most 1 queen can be placed by a legal play of the mod-2 game on the 2x2 board"' ||
    fail "the refutation does not give the certified statement"
  echo "ok: refutations in full"
  grep -q '^  REFUTED \[3\]' "$tmp/table.txt" || fail "the refuted row does not point to its note"
  expect 'FAILED (1):'
  # A note for each lemma and claim that no certificate can carry; a headline
  # certificate not checked gets the checker command (not a proof of hours)
  # and its time; claims over budget are summed by source and family, with
  # their estimates as durations.
  expect '[6] A344227-a0: n = 0'
  expect '[7] rudd-n18: over budget: check it with build/bin/checker --jobs 2 certs/rudd-n18.qcert (about 4'
  expect '  jenrich-2014, queens game: 1 claim over budget (about 3 h)'
  expect '  rudd-2026, queens game: 1 claim over budget (about 4 h)'
  grep -q 'jenrich-n21' "$tmp/table.txt" && fail "a claim over budget has a note of its own"
  expect 'time; other work on the machine made its jobs 3.4 times slower)'
  # The Coq-proved checker (format 3's verified column): certified+Coq on the
  # claims it verified too, none on the others, a note where it REJECTED,
  # and a sentence with its counts.
  [ "$(grep -c '^  certified+Coq  ' "$tmp/table.txt")" -eq 6 ] || fail "$(grep -c '^  certified+Coq  ' "$tmp/table.txt") rows marked +Coq, expected 6"
  tr '\n' ' ' <"$tmp/table.txt" | tr -s ' ' | grep -qF 'noon-T6.0-n4: the Coq-proved checker REJECTED this certificate (0.06 s): run build/bin/checker-verified out/audit/noon-T6.0-n4.qcert' ||
    fail "no note for the certificate the Coq-proved checker rejected"
  tr '\n' ' ' <"$tmp/table.txt" | tr -s ' ' | grep -qF 'it checked 8 again: 6 verified too (+Coq), 1 stopped at its time limit, 1 REJECTED; 1 not run for want of its time (its budget: 30 s, at most 30 s a claim; it ran 30.32 s).' ||
    fail "no summary of the Coq-proved checker"
  echo "ok: certified+Coq on the 6 claims the Coq-proved checker verified, a note where it rejected, its counts"
  # Results of format 2 (no verified columns) are still read; nothing is marked.
  sed -E 's/^#qcert-audit-results\t3$/#qcert-audit-results\t2/; s/^(#run\t.*)\tverified_checker=.*/\1/; /^#/!s/\t[^\t]*\t[^\t]*$//' "$fixture" >"$tmp/v2.tsv"
  "$qcert" report --results "$tmp/v2.tsv" >"$tmp/v2.txt" 2>"$tmp/err.txt" || fail "format 2: exit $?, $(cat "$tmp/err.txt")"
  grep -q '^  certified+Coq' "$tmp/v2.txt" && fail "format 2: a claim marked +Coq"
  grep -q 'Coq-proved checker REJECTED' "$tmp/v2.txt" && fail "format 2: a Coq note"
  grep -qF 'Totals: 27 claims: 19 certified' "$tmp/v2.txt" || fail "format 2: no totals"
  echo "ok: results of format 2 are read, nothing marked"
  # Bad input: one line, exit 2.
  "$qcert" report --results "$tmp/none.tsv" >/dev/null 2>"$tmp/err.txt"; rc=$?
  [ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err.txt")" -eq 1 ] || fail "missing file: exit $rc, $(cat "$tmp/err.txt")"
  printf 'not results\n' >"$tmp/bad.tsv"
  "$qcert" report --results "$tmp/bad.tsv" >/dev/null 2>"$tmp/err.txt"; rc=$?
  [ $rc -eq 2 ] && grep -q 'not an audit results file' "$tmp/err.txt" || fail "bad file: exit $rc, $(cat "$tmp/err.txt")"
  sed 's/\tcertified\tproved\t/\tcertifed\tproved\t/' "$fixture" >"$tmp/bad2.tsv"
  "$qcert" report --results "$tmp/bad2.tsv" >/dev/null 2>"$tmp/err.txt"; rc=$?
  [ $rc -eq 2 ] && grep -q "unknown status 'certifed'" "$tmp/err.txt" || fail "bad status: exit $rc, $(cat "$tmp/err.txt")"
  "$qcert" report --results "$fixture" --width 20 >/dev/null 2>"$tmp/err.txt"; rc=$?
  [ $rc -eq 2 ] || fail "--width 20: exit $rc"
  echo "ok: bad input is one line, exit 2"
  # --replies: the reply table file (drawn in the HTML page only).
  "$qcert" report --results "$fixture" --html "$tmp/r.html" --replies "$replies" >/dev/null 2>"$tmp/err.txt" ||
    fail "--replies fixture: exit $?, $(cat "$tmp/err.txt")"
  grep -q 'id="reply-board-n16"' "$tmp/r.html" || fail "--replies: no reply board in the page"
  bad_replies() {  # file, expected text
    "$qcert" report --results "$fixture" --html "$tmp/r.html" --replies "$1" >/dev/null 2>"$tmp/err.txt"; rc=$?
    [ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err.txt")" -eq 1 ] && grep -qF -- "$2" "$tmp/err.txt" ||
      fail "--replies $1: exit $rc, $(cat "$tmp/err.txt") (expected one line with '$2')"
  }
  bad_replies "$tmp/none.tsv" "cannot be read"
  bad_replies "$fixture" "not a reply table"
  sed 's/^c2\t/c9\t/' "$replies" >"$tmp/r1.tsv"; bad_replies "$tmp/r1.tsv" "move c9 is not in Jenrich's triangle"
  sed 's/^\(c2\t[a-p0-9]*\t\)0/\11/' "$replies" >"$tmp/r2.tsv"; bad_replies "$tmp/r2.tsv" "half_turn 1 does not match"
  sed 's/^#board\t16x16/#board\t8x8/' "$replies" >"$tmp/r3.tsv"; bad_replies "$tmp/r3.tsv" "not of the empty 16x16 board"
  "$qcert" report --results "$fixture" --replies "$replies" >/dev/null 2>"$tmp/err.txt"; rc=$?
  [ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err.txt")" -eq 1 ] || fail "--replies without --html: exit $rc, $(cat "$tmp/err.txt")"
  echo "ok: --replies reads the fixture; bad reply tables are one line, exit 2"
  exit 0
fi

[ "$mode" = html ] || fail "mode must be table or html"
chromium=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chromium" ]; then
  echo "SKIPPED: chromium is not installed (tools/install-deps.sh installs the Debian package chromium)"
  exit 77
fi
"$qcert" report --results "$fixture" --html "$tmp/report.html" >/dev/null 2>"$tmp/err.txt" ||
  fail "qcert report exit $?: $(cat "$tmp/err.txt")"
# The page must need nothing from outside: no URL but its own anchors.
grep -oE '(src|href)="[^"#][^"]*"' "$tmp/report.html" | grep -v 'xmlns' && fail "the page loads something"
grep -qE '<script|@import|url\(' "$tmp/report.html" && fail "the page has a script or an external style"
# Headless Chromium, no network (every host unresolvable), its own profile.
flags=(--headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run --disable-extensions
       --disable-background-networking --host-resolver-rules="MAP * ~NOTFOUND" --user-data-dir="$tmp/profile"
       --enable-logging=stderr --v=0)
timeout 60 "$chromium" "${flags[@]}" --dump-dom "file://$tmp/report.html" >"$tmp/dom.html" 2>"$tmp/dom.log" ||
  fail "chromium --dump-dom exit $?: $(tail -n 5 "$tmp/dom.log")"
# Console errors, blocked or failed loads (the page's policy forbids any).
if grep -E 'CONSOLE|Refused to|Failed to load|net::ERR|Uncaught' "$tmp/dom.log"; then fail "the page logged errors"; fi
grep -q '</html>' "$tmp/dom.html" || fail "no complete DOM"
for id in summary verified-checker not-run-jenrich-2014 claim-jenrich-n21 totals refutations legend contents figure-6-0 fig6-n3 fig6-n4 fig6-n5 fig6-n6 fig6-n7 fig6-n8 fig6-n9 \
          mirror-strategy mirror-n7 reply-table-n16 reply-table-n16-status other-games board-var-hollow-n5-b1-centre \
          board-var-king-odd-n9 board-bl-3-1-n7 board-jenrich-4-b2 sources source-jenrich-2014 source-brown-ladha \
          claim-dk-2-2-n26 claim-bl-3-3-n2 claim-noon-F6-0-n4-b1; do
  grep -q "id=\"$id\"" "$tmp/dom.html" || fail "no element id=\"$id\" in the rendered page"
done
echo "ok: the rendered page has every expected element"
# Figure 6.0, n = 4: three values from the fixture's certified claims (a1,
# b1, b2 and their images: all 16 squares), the others proved on the spot.
grep -q '4×4</b>: 16 squares from certified claims (3 claims up to symmetry), 0 proved on the spot' "$tmp/dom.html" ||
  fail "Figure 6.0 n = 4 does not say its 16 values come from the certified claims"
grep -q '7×7</b>: 0 squares from certified claims (0 claims up to symmetry), 49 proved on the spot' "$tmp/dom.html" ||
  fail "Figure 6.0 n = 7 does not say its values were proved on the spot"
[ "$(grep -o '<svg' "$tmp/dom.html" | wc -l)" -ge 12 ] || fail "fewer than 12 boards"
grep -q 'REFUTED' "$tmp/dom.html" || fail "no refutation in the page"
[ "$(grep -o 'class="coq">also verified by the Coq-proved checker' "$tmp/dom.html" | wc -l)" -eq 6 ] ||
  fail "not 6 claims marked as also verified by the Coq-proved checker"
grep -q 'comes here when the n = 16 certificate is available to the report' "$tmp/dom.html" || fail "no reply-table hook text"
echo "ok: Figure 6.0 says where its values come from; refutations and the reply-table hook are there"
# With the reply table (--replies): the board in the n = 16 section, each
# first move of Jenrich's triangle labelled with the reply (cell 40, margin 18:
# square (row, column) has its label at x = 38 + 40 column, y = 644.8 - 40 row).
"$qcert" report --results "$fixture" --html "$tmp/replies.html" --replies "$replies" >/dev/null 2>"$tmp/err.txt" ||
  fail "qcert report --replies exit $?: $(cat "$tmp/err.txt")"
timeout 60 "$chromium" "${flags[@]}" --dump-dom "file://$tmp/replies.html" >"$tmp/rdom.html" 2>"$tmp/rdom.log" ||
  fail "chromium --dump-dom (replies) exit $?: $(tail -n 5 "$tmp/rdom.log")"
if grep -E 'CONSOLE|Refused to|Failed to load|net::ERR|Uncaught' "$tmp/rdom.log"; then fail "the page with replies logged errors"; fi
for id in reply-table-n16 reply-board-n16 reply-board-n16-caption reply-table-n16-status figure-6-0 other-games sources; do
  grep -q "id=\"$id\"" "$tmp/rdom.html" || fail "no element id=\"$id\" in the page with replies"
done
label() {  # square name, reply
  local f=${1:0:1} r=${1:1}; local c=$(( $(printf '%d' "'$f") - 97 )) row=$((r - 1))
  local x=$((38 + 40 * c)) y; y=$(awk -v r="$row" 'BEGIN { printf "%g", 644.8 - 40 * r }')
  grep -qE "<text x=\"$x\" y=\"$y\"[^>]*>$2</text>" "$tmp/rdom.html" || fail "square $1 is not labelled $2"
}
label c2 h8; label h7 k11
while IFS=$'\t' read -r move reply _; do label "$move" "$reply"; done < <(grep -P '^[a-h][1-8]\t' "$replies")
echo "ok: every first move of the fixture is labelled with its reply (c2: h8, h7: k11)"
grep -q 'replies from the certificate <code>certs/rudd-n16.qcert</code>, read only after the checker library verified it' "$tmp/rdom.html" ||
  fail "the caption does not say the replies come from the checker-verified certificate"
grep -q 'comes here when the n = 16 certificate is available to the report' "$tmp/rdom.html" && fail "the hook text is still there with --replies"
# Apart from the n = 16 section, the page is the one without --replies
# (Figure 6.0 aside: what is proved on the spot there depends on time).
strip() { sed '/<section id="reply-table-n16"/,/<\/section>/d; /<section id="figure-6-0"/,/<\/section>/d' "$1"; }
diff <(strip "$tmp/report.html") <(strip "$tmp/replies.html") >/dev/null || fail "--replies changed the page outside the n = 16 section"
echo "ok: the reply table is drawn, with its caption; the rest of the page is unchanged"
png_dir=${REPORT_PNG_DIR:-$tmp}
mkdir -p "$png_dir"
timeout 60 "$chromium" "${flags[@]}" --hide-scrollbars --window-size=1200,2600 --screenshot="$png_dir/report.png" \
  "file://$tmp/report.html" >/dev/null 2>"$tmp/shot.log" || fail "chromium --screenshot exit $?: $(tail -n 5 "$tmp/shot.log")"
[ "$(head -c 8 "$png_dir/report.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || fail "the screenshot is not a PNG"
[ "$(stat -c %s "$png_dir/report.png")" -gt 50000 ] || fail "the screenshot is nearly empty"
echo "ok: screenshot $png_dir/report.png ($(stat -c %s "$png_dir/report.png") bytes)"
