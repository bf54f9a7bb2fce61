#!/usr/bin/env bash
# qcert play end to end in a real terminal: tmux runs it, send-keys types,
# capture-pane reads the screen. Two games:
#  1. against the 8x8 certificate (verified first), the person second: bad
#     input, hint, undo, then the first free square each turn; the computer
#     must win with the certificate's replies.
#  2. 5x5, the person first (the winning side), playing every hint: the
#     person must win and the computer must play its longest moves.
#  3. the 5x5 torus with kings, recorded (--record): two moves typed in
#     capitals, quit; the record holds them one a line and --from resumes the
#     game after them; end of input is said.
# Usage: ui_play_tmux.sh QCERT CERTS_DIR. Exit 77 (skipped) without tmux.
set -euo pipefail
qcert=$1
certs=$2
if ! command -v tmux >/dev/null; then
  echo "SKIPPED: tmux is not installed (tools/install-deps.sh installs it)"
  exit 77
fi
socket="qcert-ui-test-$$"
work=$(mktemp -d)
t() { tmux -L "$socket" -f /dev/null "$@"; }
cleanup() { t kill-server 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

# Each game gets its own session, and the one before is killed only after the
# new one exists: killing the server's last session makes the server exit, and
# a new-session racing that exit once failed with "server exited unexpectedly"
# (1 run in 10 on a 2-core machine).
session=
games=0
screen() { t capture-pane -p -t "$session" -S -3000 -J; }
fail() {
  echo "FAIL: $*"
  echo "---- screen ----"
  screen | tail -60
  exit 1
}
# wait_for PATTERN [COUNT]: until the screen has COUNT lines matching PATTERN (grep -E).
# Up to 60 s: it returns as soon as the screen matches, and 10 s was once too
# little with ctest -j2 beside a long prover run on two cores.
wait_for() {
  local want=${2:-1}
  for _ in $(seq 1 1200); do
    [ "$(screen | grep -cE -- "$1" || true)" -ge "$want" ] && return 0
    sleep 0.05
  done
  fail "timed out waiting for /$1/ ($want times)"
}
count() { screen | grep -cE -- "$1" || true; }
say() { t send-keys -t "$session" -l -- "$1"; t send-keys -t "$session" Enter; }
last_free() { screen | grep -E '^Free squares \(' | tail -1; }

start() {
  local previous=$session
  games=$((games + 1))
  session="play$games"
  t new-session -d -s "$session" -x 250 -y 60 "$* ; echo \"EXITED:\$?\"; sleep 60"
  [ -z "$previous" ] || t kill-session -t "$previous" 2>/dev/null || true
}

# ---- game 1: the certificate's side
start "$qcert" play --cert "$certs/jenrich-n8.qcert" --side second
wait_for 'Your move'
screen | grep -q 'VERIFIED by the checker library: first player wins on the empty 8x8 board' || fail "no verified certificate line"
screen | grep -q "^Move 1: I play [a-h][1-8] (the certificate's reply, verified by the checker)" || fail "first reply not from the certificate"
say z9
wait_for "'z9' is not a move"
say hint
wait_for '^Hint: [a-h][1-8] \(every move loses'
before=$(last_free)
first=$(echo "$before" | sed -E 's/^[^:]*: ([a-h][1-8]).*/\1/')
prompts=$(count 'Your move')
say "$first"
wait_for 'Your move' $((prompts + 1))
say undo
wait_for 'Your move' $((prompts + 2))
[ "$(last_free)" = "$before" ] || fail "undo did not restore the position ($(last_free) vs $before)"
for _ in $(seq 1 40); do
  screen | grep -q 'so you lose' && break
  screen | grep -q 'so you win' && fail "the certificate's side lost"
  move=$(last_free | sed -E 's/^[^:]*: ([a-h][1-8]).*/\1/')
  [[ $move =~ ^[a-h][1-8]$ ]] || fail "no free square to play: $(last_free)"
  prompts=$(count 'Your move|^> ')
  say "$move"
  wait_for 'Your move|^> ' $((prompts + 1))
done
screen | grep -q 'No free square is left: you cannot move, so you lose' || fail "the game did not end with the person losing"
say quit
wait_for '^EXITED:0'

# ---- game 2: the person holds the winning side and follows the hints
start "$qcert" play --n 5 --side first
wait_for 'Your move'
screen | grep -q 'You hold the winning side' || fail "5x5 first should be the winning side"
for _ in $(seq 1 20); do
  screen | grep -q 'so you win' && break
  screen | grep -q 'so you lose' && fail "the person lost while following the hints"
  hints=$(count '^Hint: ')
  say hint
  wait_for '^Hint: ' $((hints + 1))
  move=$(screen | grep -E '^Hint: ' | tail -1 | sed -E 's/^Hint: ([a-e][1-5]).*/\1/')
  screen | grep -E '^Hint: ' | tail -1 | grep -q 'a winning move proved on the spot' || fail "the hint is not a proved winning move"
  prompts=$(count 'Your move|^> ')
  say "$move"
  wait_for 'Your move|^> ' $((prompts + 1))
  if ! screen | grep -q 'so you win'; then
    screen | grep -E '^Move [0-9]+: I play ' | tail -1 | grep -qE 'every move loses against best play; this one lasts longest, [0-9]+ more moves? after it\)' ||
      fail "the computer's losing move does not say it lasts longest"
  fi
done
screen | grep -q 'No free square is left: I cannot move, so you win' || fail "the person following the hints did not win"
say quit
wait_for '^EXITED:0'
# ---- game 3: a recorded game on the torus, resumed
record="$work/game.txt"
start "$qcert" play --board torus --n 5 --piece king --side first --record "$record"
wait_for 'Your move'
screen | grep -q 'the kings game on the 5x5 torus' || fail "not the kings game on the torus"
move=$(last_free | sed -E 's/^[^:]*: ([a-e][1-5]).*/\1/' | tr a-e A-E)
say "$move"
wait_for '^Move 2: I play [a-e][1-5] '
wait_for 'Your move' 2
screen | grep -q "^Move 1: you play $(echo "$move" | tr A-E a-e)\." || fail "the person's move is not printed as played"
say QUIT
wait_for '^EXITED:0'
screen | grep -q '^The moves of the game, one a line:' || fail "no list of the moves at the end"
[ "$(grep -vc '^#' "$record")" = 2 ] || fail "the record does not hold two moves: $(cat "$record")"
grep -q '^#game	--board torus --n 5 --piece king$' "$record" || fail "the record does not name the game: $(cat "$record")"
start "$qcert" play --from "$record"
wait_for 'Your move'
screen | grep -q '^Resumed from .* after 2 moves: ' || fail "not resumed after the record's two moves"
t send-keys -t "$session" C-d
wait_for '^End of input: the game stops here\.'
wait_for '^EXITED:0'
echo "PASS: three games played in tmux"
