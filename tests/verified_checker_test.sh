#!/usr/bin/env bash
# checker-verified, the Coq-verified checker (docs/verified-checker.md).
#
#   verified_checker_test.sh certs BIN_DIR CERTS_DIR
#     VERIFIED on the empty-board outcomes n = 1..10 (Jenrich), the Grundy
#     values of the empty board n = 1..9 (Noon, Table 6.0) and Figure 6.0's
#     option values n = 3..6; each printed claim equal to the one the C++
#     checker prints for the same file.
#   verified_checker_test.sh mutants BIN_DIR CERTS_DIR
#     REJECTED (exit 1) on hand-made bad tables fed straight to the driver: a
#     wrong claim, a win claimed at a loss, an illegal reply, a reply changed
#     to another legal move that does not win, a missing entry; and exit 2 on
#     tables it cannot read. The unchanged tables are VERIFIED first, so each
#     REJECTED is due to the change. A corrupted certificate: REJECTED.
#   verified_checker_test.sh hostile BIN_DIR CERTS_DIR
#     Hostile and odd input: a heap of 1,000,000, given queens that attack each
#     other or repeat, numbers far off the board in an entry, files that are
#     not regular files, a huge cut-off, the
#     time and memory limits; --json's object (parsed by python3) and --version.
#   verified_checker_test.sh manifests BIN_DIR CERTS_DIR
#     Shard manifests through the proved manifest step: VERIFIED as the C++
#     checker says for a loss, a Grundy value and a win by a first move; a
#     shard swapped for another REJECTED, a missing one exit 2, a damaged one
#     REJECTED.
#   verified_checker_test.sh torus BIN_DIR CERTS_DIR
#     The queens game on the torus (Spec.v's torus_attacks): Grundy values
#     and outcomes, with and without given queens, VERIFIED with the C++
#     checker's statement, single files and manifests (the translation
#     lemma); a torus table read as the square board's, and one with its
#     Grundy value changed, REJECTED; --json says "torus": true.
#   verified_checker_test.sh parts BIN_DIR CERTS_DIR
#     Tables of parts (Parts.v): Grundy values of every piece on square and
#     rectangular boards, with and without holes, VERIFIED with the C++
#     checker's statement; a changed claim, entry value, piece or hole, and a
#     missing entry REJECTED; unreadable tables and claims the proved check
#     does not read (outcomes, the torus, given pieces) exit 2; --json's claim
#     and statement equal the C++ checker's.
# Exit 1, naming each failure; 0 when all hold.
set -uo pipefail
mode=$1 bin=$2 certs=$3
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
# Proves FILE from the prover's ARGS, then requires checker-verified to say
# exactly what the C++ checker says, VERIFIED (the manifests and torus modes).
agree() {  # LABEL FILE ARGS...
  local label=$1 file=$2 want got rc; shift 2
  "$bin/prover" "$@" --quiet --out "$file" >/dev/null 2>&1 || { fail "prover $*"; return; }
  want=$("$bin/checker" "$file" 2>/dev/null)
  got=$("$bin/checker-verified" "$file" 2>/dev/null); rc=$?
  case "$want" in VERIFIED:*) ;; *) fail "$*: the C++ checker says '$want'"; return ;; esac
  if [ $rc -ne 0 ] || [ "$got" != "$want" ]; then fail "$*: checker-verified says '$got' (exit $rc), the C++ checker '$want'"
  else echo "ok   $label$*: $got"; fi
}

if [ "$mode" = certs ]; then
  files=()
  for n in 1 2 3 4 5 6 7 8 9 10; do files+=("$certs/jenrich-n$n.qcert"); done
  for n in 1 2 3 4 5 6 7 8 9; do files+=("$certs/noon-T6.0-n$n.qcert"); done
  for f in "$certs"/noon-F6.0-n[3456]-*.qcert; do files+=("$f"); done
  for f in "${files[@]}"; do
    [ -f "$f" ] || { fail "$f is missing"; continue; }
    want=$("$bin/checker" "$f" 2>/dev/null)
    got=$("$bin/checker-verified" "$f" 2>/dev/null)
    rc=$?
    case "$want" in VERIFIED:*) ;; *) fail "$(basename "$f"): the C++ checker says '$want'"; continue ;; esac
    if [ $rc -ne 0 ] || [ "$got" != "$want" ]; then
      fail "$(basename "$f"): checker-verified says '$got' (exit $rc), the C++ checker '$want'"
    else
      echo "ok   $(basename "$f"): $got"
    fi
  done
  [ ${#files[@]} -eq 37 ] || fail "expected 37 certificates, found ${#files[@]}"
elif [ "$mode" = mutants ]; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  # verdict NAME TABLE WANT_EXIT WANT_PREFIX
  verdict() {
    local out rc
    out=$("$bin/checker-verified" --table "$2" 2>"$tmp/err")
    rc=$?
    if [ $rc -ne "$3" ] || [[ "$out" != "$4"* ]]; then
      fail "$1: exit $rc, '$out' $(head -c 300 "$tmp/err") (wanted exit $3, '$4...')"
    else
      echo "ok   $1: exit $rc ${out:-$(head -1 "$tmp/err")}"
    fi
  }
  # Tables with cut-off 0, so that every won position is an entry (and one
  # with cut-off 12, for the loss: at 0 the 10x10 table would be large);
  # --exact: one entry per position (the mutants below name entries), the
  # tables up to symmetry are tested after them.
  "$bin/export-table" --exact --cutoff 0 "$certs/noon-F6.0-n4-b1.qcert" > "$tmp/g.table" 2>/dev/null || fail "export-table on noon-F6.0-n4-b1"
  "$bin/export-table" --exact --cutoff 0 "$certs/jenrich-n6.qcert" > "$tmp/w.table" 2>/dev/null || fail "export-table on jenrich-n6"
  "$bin/export-table" --exact --cutoff 12 "$certs/jenrich-n10.qcert" > "$tmp/l.table" 2>/dev/null || fail "export-table on jenrich-n10"
  verdict "the Grundy table as written" "$tmp/g.table" 0 "VERIFIED: the Grundy value of the 4x4 board after queens b1 (0,1) is 3"
  verdict "the win table as written" "$tmp/w.table" 0 "VERIFIED: first player wins on the empty 6x6 board"
  verdict "the loss table as written" "$tmp/l.table" 0 "VERIFIED: second player wins on the empty 10x10 board"
  # A wrong claim: another Grundy value; the other outcome.
  sed 's/^claim grundy 3$/claim grundy 2/' "$tmp/g.table" > "$tmp/m1"
  verdict "Grundy value 2 claimed, 3 proved" "$tmp/m1" 1 "REJECTED:"
  sed 's/^claim grundy 3$/claim grundy 4/' "$tmp/g.table" > "$tmp/m2"
  verdict "Grundy value 4 claimed, 3 proved" "$tmp/m2" 1 "REJECTED:"
  sed 's/^claim loss 0$/claim win 0/' "$tmp/l.table" > "$tmp/m3"
  verdict "a win claimed on the lost empty 10x10 board" "$tmp/m3" 1 "REJECTED:"
  sed 's/^claim win 0$/claim loss 0/' "$tmp/w.table" > "$tmp/m4"
  verdict "a loss claimed on the won empty 6x6 board" "$tmp/m4" 1 "REJECTED:"
  # An illegal reply: the first entry's queen moved onto a square its own
  # position has already lost (a queen of that entry's path: never live).
  awk '!done && $1 == "e" && $3 == "q" && $6 >= 1 { $4 = $7; $5 = $8; done = 1 } { print }' "$tmp/w.table" > "$tmp/m5"
  verdict "an illegal reply (a square already taken)" "$tmp/m5" 1 "REJECTED: table entry 2 (8 live squares, heap 0): its reply is not a legal move"
  awk '!done && /^e / { $4 = 99; done = 1 } { print }' "$tmp/w.table" > "$tmp/m6"
  verdict "an illegal reply (off the board)" "$tmp/m6" 1 "REJECTED: table entry 1 (36 live squares, heap 0): its reply is not a legal move"
  awk '!done && $1 == "e" && $2 == 1 && $3 == "q" { $3 = "h"; $4 = 1; $5 = ""; done = 1 } { print }' "$tmp/g.table" > "$tmp/m7"
  verdict "an illegal heap reply (to the same heap)" "$tmp/m7" 1 "REJECTED: table entry 7 (3 live squares, heap 1): its reply is not a legal move"
  # A missing entry: each entry of the win table deleted in turn (every one
  # is needed at cut-off 0).
  entries=$(grep -c '^e ' "$tmp/w.table")
  rejected=0
  for i in $(seq 1 "$entries"); do
    awk -v i="$i" '/^e / && ++k == i { next } { print }' "$tmp/w.table" > "$tmp/m8"
    "$bin/checker-verified" --table "$tmp/m8" > "$tmp/out" 2>&1
    [ $? -eq 1 ] && grep -q '^REJECTED:' "$tmp/out" && rejected=$((rejected + 1))
  done
  if [ "$entries" -gt 0 ] && [ "$rejected" -eq "$entries" ]; then echo "ok   each of the $entries entries deleted: REJECTED"
  else fail "deleting one of $entries entries: only $rejected REJECTED"; fi
  # A legal reply that does not win: after b1 (0,1) on the 4x4 board, heap 0,
  # the queen on d2 (1,3) leaves a3 (2,0), a4 (3,0) and c4 (3,2), and a4
  # attacks the other two: the opponent takes a4 and the player cannot move.
  awk '$0 == "e 0 q 3 2 1 0 1" { $4 = 1; $5 = 3 } { print }' "$tmp/g.table" > "$tmp/m9"
  grep -q '^e 0 q 1 3 1 0 1$' "$tmp/m9" || fail "the Grundy table has no entry e 0 q 3 2 1 0 1 to change"
  verdict "a legal reply that loses in place of the winning one" "$tmp/m9" 1 "REJECTED:"
  # Tables up to symmetry: one entry per class under the square's eight
  # symmetries, and lines "m I HEAP QUEENS" naming the map (Spec.v's order)
  # by which the check looks the other positions up (Checker.v, found).
  for t in "g noon-F6.0-n4-b1 0 VERIFIED: the Grundy value of the 4x4 board after queens b1 (0,1) is 3" \
           "w jenrich-n6 0 VERIFIED: first player wins on the empty 6x6 board" \
           "l jenrich-n10 12 VERIFIED: second player wins on the empty 10x10 board"; do
    set -- $t
    name=$1 cert=$2 cutoff=$3; shift 3
    "$bin/export-table" --cutoff "$cutoff" "$certs/$cert.qcert" > "$tmp/$name.sym" 2>/dev/null || fail "export-table on $cert"
    maps=$(grep -c '^m ' "$tmp/$name.sym")
    [ "$maps" -gt 0 ] || fail "$cert: the table up to symmetry has no line m"
    [ "$(grep -c '^e ' "$tmp/$name.sym")" -lt "$(grep -c '^e ' "$tmp/$name.table")" ] || fail "$cert: no fewer entries up to symmetry"
    verdict "$cert up to symmetry ($maps lines m)" "$tmp/$name.sym" 0 "$*"
    # Without its lines m, or with each naming the next map, or a map that
    # is not there, the look-ups fail.
    grep -v '^m ' "$tmp/$name.sym" > "$tmp/m13"
    verdict "$cert up to symmetry, the lines m removed" "$tmp/m13" 1 "REJECTED:"
    awk '$1 == "m" { $2 = ($2 % 7) + 1 } { print }' "$tmp/$name.sym" > "$tmp/m14"
    verdict "$cert up to symmetry, each line m naming another map" "$tmp/m14" 1 "REJECTED:"
    awk '$1 == "m" { $2 = 8 } { print }' "$tmp/$name.sym" > "$tmp/m15"
    verdict "$cert up to symmetry, each line m naming map 8 (there are 8, from 0)" "$tmp/m15" 1 "REJECTED:"
  done
  # Unreadable tables: exit 2, nothing decided.
  head -c 40 "$tmp/w.table" > "$tmp/m10"
  verdict "a truncated table" "$tmp/m10" 2 ""
  sed 's/^board 6$/board -6/' "$tmp/w.table" > "$tmp/m11"
  verdict "a negative number" "$tmp/m11" 2 ""
  sed 's/^board 6$/board 99999999999/' "$tmp/w.table" > "$tmp/m12"
  verdict "a number too large" "$tmp/m12" 2 ""
  verdict "a missing file" "$tmp/none" 2 ""
  # A certificate the C++ checker rejects (one byte of its replies changed, so
  # its seal fails): export-table makes no table, and the verdict is REJECTED.
  cp "$certs/jenrich-n10.qcert" "$tmp/bad.qcert"
  printf '\x55' | dd of="$tmp/bad.qcert" bs=1 seek=300 conv=notrunc 2>/dev/null
  out=$("$bin/checker-verified" "$tmp/bad.qcert" 2>/dev/null); rc=$?
  if [ $rc -eq 1 ] && [[ "$out" == "REJECTED: export-table finds no proof"* ]]; then echo "ok   a corrupted certificate: $out"
  else fail "a corrupted certificate: exit $rc, '$out'"; fi
  # The command line.
  "$bin/checker-verified" --help | grep -q '^usage: checker-verified' || fail "--help"
  "$bin/checker-verified" --version | grep -q '^checker-verified ' || fail "--version"
  "$bin/checker-verified" > /dev/null 2>&1; [ $? -eq 2 ] || fail "no argument: exit 2"
  "$bin/checker-verified" "$tmp/none.qcert" > /dev/null 2>&1; [ $? -eq 2 ] || fail "a missing certificate: exit 2"
elif [ "$mode" = hostile ]; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  # run NAME WANT_EXIT WANT_PREFIX SECONDS ARGS...: checker-verified ARGS must
  # answer within SECONDS with WANT_EXIT, stdout starting with WANT_PREFIX.
  run() {
    local name=$1 want=$2 prefix=$3 secs=$4 out rc; shift 4
    out=$(timeout -k 2 "$secs" "$bin/checker-verified" "$@" 2>"$tmp/err" </dev/null)
    rc=$?
    if [ $rc -ne "$want" ] || [[ "$out" != "$prefix"* ]]; then
      fail "$name: exit $rc, '$(head -c 300 <<<"$out")' '$(head -c 300 "$tmp/err")' (wanted exit $want, '$prefix...')"
    else
      echo "ok   $name: exit $rc ${out:-$(head -1 "$tmp/err")}"
    fi
  }
  table() { printf 'qcert-table 1\nboard %s\nclaim %s\nqueens %s\ncutoff %s\nend\n' "$@"; }
  # A huge heap: the proved loops over a heap's options are tail-recursive
  # (the extracted seq was not: a stack overflow at 600,000).
  table 1 "win 1000000" 0 20 > "$tmp/heap.table"
  run "a heap of 1,000,000 on the 1x1 board" 0 "VERIFIED: first player wins on the empty 1x1 board with a Nim heap of 1000000 added" 60 --table "$tmp/heap.table"
  # Given queens that are no position of the game: part of the proved claim.
  table 4 "loss 0" "2 0 0 0 1" 20 > "$tmp/attack.table"
  run "given queens a1, b1 that attack each other" 1 "REJECTED: the claim is not shown: the given queens are not a position" 30 --table "$tmp/attack.table"
  table 4 "loss 0" "2 0 0 0 0" 20 > "$tmp/repeat.table"
  run "a given queen named twice (a1, a1)" 1 "REJECTED: the claim is not shown: the given queens are not a position" 30 --table "$tmp/repeat.table"
  table 4 "win 0" "2 0 0 1 2" 20 > "$tmp/legal.table"
  run "given queens a1, c2 (legal: the same check passes)" 0 "VERIFIED: the player to move wins on the 4x4 board after queens a1 (0,0), c2 (1,2)" 30 --table "$tmp/legal.table"
  # Numbers far off the board in an entry: a reply on square (2^30, 2^30)
  # is no legal move (the bit operations must not wrap: Extraction.v), an
  # entry's queen off the board is refused as the driver reads it.
  printf 'qcert-table 1\nboard 4\nclaim win 0\nqueens 0\ncutoff 0\ne 0 q 1073741824 1073741824 0\nend\n' > "$tmp/far.table"
  run "a reply on square (2^30, 2^30)" 1 "REJECTED: table entry 1 (16 live squares, heap 0): its reply is not a legal move" 30 --table "$tmp/far.table"
  printf 'qcert-table 1\nboard 4\nclaim win 0\nqueens 0\ncutoff 0\ne 0 q 0 0 1 9 9\nend\n' > "$tmp/off.table"
  run "an entry's queen off the board" 2 "" 30 --table "$tmp/off.table"
  # Numbers as the driver reads them (digit by digit, 2026-11-29): up to 10
  # digits and at most 2^30, any white space between words, the file may end
  # right after a number; anything else is named in the one line of error.
  printf 'qcert-table\t1\r\nboard 0000000004 claim win 0\n\nqueens 0 cutoff 20\tend' > "$tmp/spaces.table"
  run "tabs, CRs, leading zeros, no newline at the end" 0 "VERIFIED: first player wins on the empty 4x4 board" 30 --table "$tmp/spaces.table"
  for bad in 00000000020 1073741825 2x 20- -1 ""; do
    printf 'qcert-table 1\nboard 4\nclaim win 0\nqueens 0\ncutoff %s' "$bad" > "$tmp/number.table"
    run "the cut-off '$bad'" 2 "" 10 --table "$tmp/number.table"
    grep -qx "checker-verified: .*: expected a whole number from 0 to 1073741824, read '$bad'" "$tmp/err" \
      || fail "the cut-off '$bad': $(cat "$tmp/err")"
  done
  printf 'qcert-table 1\nboard 4\nclaim win 0\nqueens 0\ncutoff 1073741824\nend\n' > "$tmp/number.table"
  run "the cut-off 2^30 (read, then refused as over 30)" 2 "" 10 --table "$tmp/number.table"
  grep -q "the cut-off must be at most 30" "$tmp/err" || fail "the cut-off 2^30: $(cat "$tmp/err")"
  { printf 'qcert-table 1\nboard 4\nclaim win 0\nqueens 0\ncutoff 2'; head -c 100 /dev/zero | tr '\0' 7; } > "$tmp/number.table"
  run "a number of 101 digits" 2 "" 10 --table "$tmp/number.table"
  grep -q "a word longer than 64 characters, starting '2777777777777777'" "$tmp/err" || fail "101 digits: $(cat "$tmp/err")"
  # The winning queens export-table suggests (lines "w"): untrusted, so any
  # word there leaves the verdict as it is; a line "w" before any entry, or a
  # word past 64 characters, is refused as the table is read.
  "$bin/export-table" --cutoff 12 "$certs/jenrich-n10.qcert" > "$tmp/hints.table" 2>/dev/null || fail "export-table on jenrich-n10"
  grep -q '^w [0-9A-Za-z-]*$' "$tmp/hints.table" || fail "no line 'w' in the n = 10 table at cut-off 12"
  sed 's/^w .*/w !?~/' "$tmp/hints.table" > "$tmp/hints2.table"
  run "suggestions that name no square" 0 "VERIFIED: second player wins on the empty 10x10 board" 60 --table "$tmp/hints2.table"
  awk '/^w /{ gsub(/[0-9A-Za-z]/, "0", $2) } {print}' "$tmp/hints.table" > "$tmp/hints2.table"
  cmp -s "$tmp/hints.table" "$tmp/hints2.table" && fail "the suggestions were not changed"
  run "every suggestion index 0" 0 "VERIFIED: second player wins on the empty 10x10 board" 60 --table "$tmp/hints2.table"
  grep -v '^w ' "$tmp/hints.table" > "$tmp/hints2.table"
  run "no suggestions" 0 "VERIFIED: second player wins on the empty 10x10 board" 60 --table "$tmp/hints2.table"
  sed '0,/^e /s//w 0\ne /' "$tmp/hints.table" > "$tmp/hints2.table"
  run "a line 'w' before any entry" 2 "" 10 --table "$tmp/hints2.table"
  grep -q "a line 'w' before any entry" "$tmp/err" || fail "a line 'w' before any entry: $(cat "$tmp/err")"
  # Files that are not files.
  run "--table /dev/zero" 2 "" 10 --table /dev/zero
  mkfifo "$tmp/fifo"
  run "--table on a FIFO" 2 "" 10 --table "$tmp/fifo"
  run "a FIFO as the certificate" 2 "" 10 "$tmp/fifo"
  run "a directory" 2 "" 10 --table "$tmp"
  run "an empty name" 2 "" 10 --table ""
  head -c 100000 /dev/zero > "$tmp/zeros"
  run "a file of zero bytes" 2 "" 10 --table "$tmp/zeros"
  grep -q "'" "$tmp/err" && ! grep -qP '\x00' "$tmp/err" || fail "the zero bytes are echoed raw: $(od -c "$tmp/err" | head -3)"
  # Limits: a cut-off past 30 is refused before any search (a 61-byte table
  # of the 14x14 board with cut-off 1000 asked the solver for the whole
  # board); the n = 14 table takes about 2 s to export and 6 to 7 s to check
  # (the n = 12 table with one entry per position took 2.5 s when this test
  # was written, then 0.9 s in CI once the check was made faster: a time
  # limit is tested on work several times longer than the limit);
  # a table of 300,000 entries holds more than 32 MiB (about 100 MiB at its
  # peak, as row masks; 200 MiB as lists of squares).
  table 14 "win 0" 0 1000 > "$tmp/big-cutoff.table"
  run "a cut-off of 1000" 2 "" 10 --table "$tmp/big-cutoff.table"
  "$bin/export-table" "$certs/jenrich-n14.qcert" > "$tmp/n14.table" 2>/dev/null || fail "export-table on jenrich-n14"
  run "--time-limit 1 on the n = 14 table" 2 "NOT CHECKED: time limit of 1 s" 10 --time-limit 1 --table "$tmp/n14.table"
  run "--time-limit 1 on the n = 14 certificate" 2 "NOT CHECKED: time limit of 1 s" 10 --time-limit 1 "$certs/jenrich-n14.qcert"
  { printf 'qcert-table 1\nboard 6\nclaim win 0\nqueens 0\ncutoff 20\n'
    awk 'BEGIN { for (i = 0; i < 300000; i++) print "e 0 q 0 0 1 0 0" }'; echo end; } > "$tmp/long.table"
  run "--max-memory 32 on a table of 300,000 entries" 2 "NOT CHECKED: memory limit of 32 MiB" 60 --max-memory 32 --table "$tmp/long.table"
  # No recursion as deep as the table is long: the index counted its keys
  # with the extracted length, one stack frame per key, and an n = 18
  # shard's 549,076 entries outgrew the 8 MiB stack (NOT CHECKED). Under a
  # stack of 1 MiB the same 300,000 entries reach the entries' check (whose
  # first reply is occupied: REJECTED); the n = 18 shard checks in 1 MiB too.
  ( ulimit -s 1024 || exit 1; failures=0
    run "a table of 300,000 entries under a 1 MiB stack" 1 "REJECTED: table entry 1 (20 live squares, heap 0): its reply is not a legal move" 60 --table "$tmp/long.table"
    exit "$failures" ) || fail "a table of 300,000 entries under a 1 MiB stack (above)"
  run "--cutoff 31" 2 "" 10 --cutoff 31 "$certs/jenrich-n6.qcert"
  run "--time-limit x" 2 "" 10 --time-limit x "$certs/jenrich-n6.qcert"
  run "--time-limit passed on to export-table" 0 "VERIFIED: first player wins on the empty 6x6 board" 60 --time-limit 50 --max-memory 4096 "$certs/jenrich-n6.qcert"
  # --json: one object on stdout, the exit status unchanged.
  for case in "0 $certs/jenrich-n6.qcert" "1 --table $tmp/attack.table" "2 --table /dev/zero"; do
    read -r want args <<<"$case"
    # shellcheck disable=SC2086
    timeout 60 "$bin/checker-verified" --json $args >"$tmp/json" 2>/dev/null
    rc=$?
    if [ $rc -ne "$want" ]; then fail "--json $args: exit $rc, wanted $want"; continue; fi
    python3 - "$tmp/json" "$want" "$certs/jenrich-n6.qcert" <<'PY' || fail "--json $args: $(head -c 400 "$tmp/json")"
import hashlib, json, sys
text = open(sys.argv[1]).read()
assert text.count("\n") == 1, "one line"
o = json.loads(text)
want = int(sys.argv[2])
assert o["verdict"] == ["VERIFIED", "REJECTED", "NOT CHECKED"][want], o["verdict"]
assert o["exit_status"] == want
assert list(o) == ["verdict", "exit_status", "file", "statement", "expected", "reason", "claim", "certificate",
                   "checker", "wall_seconds", "peak_rss_mib"], list(o)
assert o["checker"]["version"] and o["checker"]["commit"] and "checker-verified" in o["checker"]["build"]
assert isinstance(o["wall_seconds"], float) and isinstance(o["peak_rss_mib"], int)
if want == 0:
    assert o["statement"] == "first player wins on the empty 6x6 board (queens game)", o["statement"]
    assert o["reason"] is None
    assert o["claim"] == {"family": "game", "ruleset": "queens", "boardSize": 6, "queens": [], "heap": 0,
                          "outcome": "win", "kind": "outcome", "piece": "queen", "torus": False, "columns": 0}, o["claim"]
    data = open(sys.argv[3], "rb").read()
    assert o["certificate"] == {"bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}
else:
    assert o["reason"] and o["statement"] is None
PY
    echo "ok   --json $args: exit $rc"
  done
  "$bin/checker-verified" --version | grep -qE '^checker-verified [0-9.]+ \(commit [0-9a-f]{12}(-dirty)?|unknown' || fail "--version names no commit: $("$bin/checker-verified" --version)"
elif [ "$mode" = manifests ]; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  # Manifests the prover writes (--jobs 2: one shard per move of the losing
  # side, up to symmetry), VERIFIED through the proved manifest step with the
  # C++ checker's statement; then made wrong.
  for args in "prove --n 10" "grundy --n 9" "prove --n 9 --win-by e5"; do
    # shellcheck disable=SC2086
    agree "manifest of " "$tmp/m$(tr -dc 'a-z0-9' <<<"$args").qcert" $args --jobs 2
  done
  # --jobs 2: the shards' checks in processes of their own, then the proved
  # step; the same statement.
  for args in "prove --n 10" "grundy --n 9" "prove --n 9 --win-by e5"; do
    f="$tmp/m$(tr -dc 'a-z0-9' <<<"$args").qcert"
    want=$("$bin/checker" "$f" 2>/dev/null)
    got=$("$bin/checker-verified" --jobs 2 "$f" 2>/dev/null); rc=$?
    if [ $rc -eq 0 ] && [ "$got" = "$want" ]; then echo "ok   --jobs 2, $args: $got"
    else fail "--jobs 2, $args: exit $rc, '$got' (the C++ checker: '$want')"; fi
  done
  # Boards past 16x16 (export-table's sets of 8 words, the proved row masks):
  # the same statement as the C++ checker's, and a win turned into a loss
  # claim refused.
  agree "" "$tmp/b18.qcert" prove --n 18 --queens a1,b3,c5,d7,e9,f11,g13,h15
  agree "" "$tmp/b22.qcert" grundy --n 22 --queens a1,b3,c5,d7,e9,f11,g13,h15,i17,j19,k21
  table=$("$bin/export-table" "$tmp/b18.qcert" 2>/dev/null) || fail "export-table on 18x18"
  sed 's/^claim win /claim loss /' <<<"$table" > "$tmp/b18loss.table"
  out=$("$bin/checker-verified" --table "$tmp/b18loss.table" 2>/dev/null); rc=$?
  if [ $rc -eq 1 ] && [[ "$out" == REJECTED:* ]]; then echo "ok   an 18x18 win claimed as a loss: $out"
  else fail "an 18x18 win claimed as a loss: exit $rc, '$out'"; fi
  # One shard's file replaced by another's: its move is no longer covered
  # (the listed claims come from the shard files; seals are not needed).
  # (Copies in folders of their own: a manifest names its shards by its own name.)
  mkdir "$tmp/swap" "$tmp/bad"
  cp -r "$tmp/mproven10.qcert" "$tmp/mproven10.qcert.units" "$tmp/swap/"
  cmp -s "$tmp/swap/mproven10.qcert.units/h0/u00004.qcert" "$tmp/swap/mproven10.qcert.units/h0/u00003.qcert" && fail "shards 3 and 4 are the same file"
  cp "$tmp/swap/mproven10.qcert.units/h0/u00004.qcert" "$tmp/swap/mproven10.qcert.units/h0/u00003.qcert"
  out=$("$bin/checker-verified" "$tmp/swap/mproven10.qcert" 2>/dev/null); rc=$?
  if [ $rc -eq 1 ] && [[ "$out" == "REJECTED: the 15 shards do not show the claim"* ]]; then echo "ok   a shard swapped for another: $out"
  else fail "a shard swapped for another: exit $rc, '$out'"; fi
  out=$("$bin/checker-verified" --jobs 2 "$tmp/swap/mproven10.qcert" 2>/dev/null); rc=$?
  if [ $rc -eq 1 ] && [[ "$out" == "REJECTED: the 15 shards do not show the claim"* ]]; then echo "ok   --jobs 2, a shard swapped for another: $out"
  else fail "--jobs 2, a shard swapped for another: exit $rc, '$out'"; fi
  # A shard missing: nothing is decided.
  rm "$tmp/swap/mproven10.qcert.units/h0/u00003.qcert"
  "$bin/checker-verified" "$tmp/swap/mproven10.qcert" >/dev/null 2>&1; rc=$?
  [ $rc -eq 2 ] && echo "ok   a shard missing: exit 2" || fail "a shard missing: exit $rc"
  out=$("$bin/checker-verified" --jobs 2 "$tmp/swap/mproven10.qcert" 2>/dev/null); rc=$?
  if [ $rc -eq 2 ]; then echo "ok   --jobs 2, a shard missing: exit 2"
  else fail "--jobs 2, a shard missing: exit $rc, '$out'"; fi
  # A shard's replies damaged (its seal fails): REJECTED.
  cp -r "$tmp/mgrundyn9.qcert" "$tmp/mgrundyn9.qcert.units" "$tmp/bad/"
  shard=$(ls "$tmp"/bad/mgrundyn9.qcert.units/h*/u00002.qcert | head -1)
  printf '\x55' | dd of="$shard" bs=1 seek=200 conv=notrunc 2>/dev/null
  out=$("$bin/checker-verified" "$tmp/bad/mgrundyn9.qcert" 2>/dev/null); rc=$?
  if [ $rc -eq 1 ] && [[ "$out" == REJECTED:* ]]; then echo "ok   a damaged shard: $out"
  else fail "a damaged shard: exit $rc, '$out'"; fi
  out=$("$bin/checker-verified" --jobs 3 "$tmp/bad/mgrundyn9.qcert" 2>/dev/null); rc=$?
  if [ $rc -eq 1 ] && [[ "$out" == REJECTED:* ]]; then echo "ok   --jobs 3, a damaged shard: $out"
  else fail "--jobs 3, a damaged shard: exit $rc, '$out'"; fi
  # --jobs 2 with a time limit: NOT CHECKED in time, and no shard's process
  # left running.
  start=$(date +%s)
  out=$("$bin/checker-verified" --jobs 2 --time-limit 1 "$certs/rudd-G14.qcert" 2>/dev/null); rc=$?
  took=$(( $(date +%s) - start ))
  if [ $rc -eq 2 ] && [[ "$out" == "NOT CHECKED: time limit of 1 s"* ]] && [ $took -le 5 ]; then echo "ok   --jobs 2 --time-limit 1: $out (${took} s)"
  else fail "--jobs 2 --time-limit 1: exit $rc in ${took} s, '$out'"; fi
  sleep 1
  if pgrep -f "checker-verified --jobs 2 --time-limit 1 $certs/rudd-G14.qcert" >/dev/null; then
    fail "--jobs 2 --time-limit 1: a shard's process is still running"
  else echo "ok   --jobs 2 --time-limit 1: no shard's process left"; fi
  out=$("$bin/checker-verified" --jobs 0 "$certs/rudd-G14.qcert" 2>&1); rc=$?
  [ $rc -eq 2 ] && [[ "$out" == *"--jobs takes a whole number from 1 to 256"* ]] && echo "ok   --jobs 0: $out" || fail "--jobs 0: exit $rc, '$out'"
elif [ "$mode" = torus ]; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  for n in 1 2 3 4 5 6 7 8 9; do agree "" "$tmp/g$n.qcert" grundy --board torus --n "$n"; done
  agree "" "$tmp/w7.qcert" prove --board torus --n 7
  agree "" "$tmp/l8.qcert" prove --board torus --n 8
  agree "" "$tmp/q8.qcert" prove --board torus --n 8 --queens a1
  agree "" "$tmp/q9.qcert" prove --board torus --n 9 --queens e5,a2 --heap 2
  agree "" "$tmp/g9q.qcert" grundy --board torus --n 9 --queens c3
  # Manifests (--jobs 2: one shard per first move up to the torus's maps,
  # one in all) through the proved step with the translation lemma.
  agree "" "$tmp/m10.qcert" grundy --board torus --n 10 --jobs 2
  agree "" "$tmp/m9.qcert" prove --board torus --n 9 --jobs 2
  agree "" "$tmp/m11.qcert" grundy --board torus --n 11 --jobs 2
  [ -d "$tmp/m10.qcert.units" ] || fail "grundy --board torus --n 10 --jobs 2 wrote no shards"
  # refused() LABEL TABLE: the driver must say REJECTED (exit 1).
  refused() {
    local out rc
    out=$("$bin/checker-verified" --table "$2" 2>/dev/null); rc=$?
    if [ $rc -eq 1 ] && [[ "$out" == REJECTED:* ]]; then echo "ok   $1: $out"
    else fail "$1: exit $rc, '$out'"; fi
  }
  "$bin/export-table" "$tmp/g6.qcert" > "$tmp/g6.table" 2>/dev/null || fail "export-table on the 6x6 torus"
  grep -q '^board torus 6$' "$tmp/g6.table" || fail "the 6x6 torus table does not say 'board torus 6'"
  # The 6x6 torus has Grundy value 0; the 6x6 square board is a first-player win.
  sed 's/^board torus 6$/board 6/' "$tmp/g6.table" > "$tmp/g6square.table"
  refused "a torus table read as the square board's" "$tmp/g6square.table"
  "$bin/export-table" "$tmp/g7.qcert" > "$tmp/g7.table" 2>/dev/null || fail "export-table on the 7x7 torus"
  sed 's/^claim grundy 1$/claim grundy 0/' "$tmp/g7.table" > "$tmp/g7zero.table"
  cmp -s "$tmp/g7.table" "$tmp/g7zero.table" && fail "the 7x7 torus table's claim was not changed"
  refused "the 7x7 torus with Grundy value 0 claimed" "$tmp/g7zero.table"
  "$bin/checker-verified" --json "$tmp/w7.qcert" 2>/dev/null | python3 -c '
import json, sys
o = json.load(sys.stdin)
assert o["verdict"] == "VERIFIED", o
assert o["claim"]["torus"] is True and o["claim"]["boardSize"] == 7, o["claim"]
assert o["statement"] == "first player wins on the empty 7x7 torus with queens", o["statement"]
' && echo "ok   --json of a torus claim" || fail "--json of a torus claim"

elif [ "$mode" = parts ]; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  # Tables of parts (Parts.v): every piece, rectangles and holes, with the
  # C++ checker's exact statement.
  agree "" "$tmp/b6.qcert" grundy --n 6 --piece bishop --parts
  agree "" "$tmp/b10.qcert" grundy --n 10 --piece bishop --parts
  agree "" "$tmp/k5.qcert" grundy --n 5 --piece king --parts
  agree "" "$tmp/n35.qcert" grundy --board 3x5 --piece knight --parts
  agree "" "$tmp/n6h.qcert" grundy --n 6 --piece knight --holes c3 --parts
  agree "" "$tmp/r46.qcert" grundy --board 4x6 --piece rook --holes a1 --parts
  agree "" "$tmp/k5h.qcert" grundy --n 5 --piece king --holes b2,c3 --parts
  agree "" "$tmp/k6h.qcert" grundy --n 6 --piece king --holes a1,b3,f6 --parts
  agree "" "$tmp/q6.qcert" grundy --n 6 --parts
  agree "" "$tmp/q45.qcert" grundy --board 4x5 --parts
  # refused LABEL TABLE EXIT PREFIX: the driver's verdict on a changed table.
  refused() {
    local out rc
    out=$("$bin/checker-verified" --table "$2" 2>"$tmp/err"); rc=$?
    if [ $rc -eq "$3" ] && [[ "$out$(cat "$tmp/err")" == *"$4"* ]]; then echo "ok   $1: exit $rc ${out:-$(head -1 "$tmp/err")}"
    else fail "$1: exit $rc, '$out' $(head -c 200 "$tmp/err") (wanted exit $3, '$4')"; fi
  }
  "$bin/export-table" "$tmp/n35.qcert" > "$tmp/n35.table" 2>/dev/null || fail "export-table on the 3x5 knights"
  head -1 "$tmp/n35.table" | grep -qx 'qcert-parts 1' || fail "the 3x5 knights table is not a table of parts"
  refused "the unchanged 3x5 knights table" "$tmp/n35.table" 0 "VERIFIED: the Grundy value of the empty 3x5 board (3 rows, 5 columns) with knights is 4"
  # Each change below must flip the verdict; a mutant that is still true would not.
  sed 's/^claim grundy 4$/claim grundy 3/' "$tmp/n35.table" > "$tmp/m1"
  refused "the board's value changed" "$tmp/m1" 1 "REJECTED"
  awk '/^p /{n++; if (n==5) {$NF = $NF + 1}} {print}' "$tmp/n35.table" > "$tmp/m2"
  cmp -s "$tmp/n35.table" "$tmp/m2" && fail "entry 5 was not changed"
  refused "an entry's value raised by one" "$tmp/m2" 1 "REJECTED"
  awk '/^p /{n++; if (n==3) next} {print}' "$tmp/n35.table" > "$tmp/m3"
  refused "an entry removed" "$tmp/m3" 1 "REJECTED"
  sed 's/ piece knight / piece king /' "$tmp/n35.table" > "$tmp/m4"
  refused "the knights' table read as kings'" "$tmp/m4" 1 "REJECTED"
  sed 's/^board 3 5 /board 5 3 /' "$tmp/n35.table" > "$tmp/m5"
  refused "rows and columns swapped" "$tmp/m5" 2 "off the board"
  sed 's/ piece knight / piece camel /' "$tmp/n35.table" > "$tmp/m6"
  refused "an unknown piece" "$tmp/m6" 2 "unknown piece"
  "$bin/export-table" "$tmp/k5h.qcert" > "$tmp/k5h.table" 2>/dev/null || fail "export-table on the 5x5 kings with holes"
  sed 's/ holes 2 1 1 2 2$/ holes 1 1 1/' "$tmp/k5h.table" > "$tmp/m7"
  cmp -s "$tmp/k5h.table" "$tmp/m7" && fail "the holes of the 5x5 kings table were not changed"
  refused "a hole taken away" "$tmp/m7" 1 "REJECTED"
  # Claims the proved parts check does not read: exit 2, nothing decided.
  for args in "prove --n 5 --piece king --heap 1 --parts" "grundy --board torus --n 6 --piece king --parts" \
              "grundy --n 5 --piece king --queens c3 --parts"; do
    # shellcheck disable=SC2086
    "$bin/prover" $args --quiet --out "$tmp/x.qcert" >/dev/null 2>&1 || { fail "prover $args"; continue; }
    out=$("$bin/checker-verified" "$tmp/x.qcert" 2>/dev/null); rc=$?
    [ $rc -eq 2 ] && [ -z "$out" ] && echo "ok   not read: $args (exit 2)" || fail "$args: exit $rc, '$out'"
  done
  want=$("$bin/checker" --json "$tmp/k6h.qcert" 2>/dev/null)
  "$bin/checker-verified" --json "$tmp/k6h.qcert" 2>/dev/null | WANT="$want" python3 -c '
import json, os, sys
o, w = json.load(sys.stdin), json.loads(os.environ["WANT"])
assert o["verdict"] == "VERIFIED", o
assert o["claim"] == w["claim"], (o["claim"], w["claim"])
assert o["statement"] == w["statement"], (o["statement"], w["statement"])
' && echo "ok   --json of a kings claim with holes: the C++ checker's claim and statement" || fail "--json of a parts claim"

else
  echo "usage: verified_checker_test.sh certs|mutants|hostile|manifests|torus|parts BIN_DIR CERTS_DIR" >&2
  exit 2
fi
[ $failures -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
echo "all passed"
