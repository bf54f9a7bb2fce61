#!/usr/bin/env bash
# make audit: for every claim in proofs/*.claims, prove it and check the
# certificate with the independent checker, within a wall-clock budget; write
# the results to out/audit/results.tsv, print them as a table (`qcert report`,
# 100 columns) and write out/audit/report.html. A published claim the
# certificates contradict is "refuted", shown, never hidden. Exit status 1 if
# any certificate failed to verify, 2 if the run could not start or the table
# could not be printed.
#
# How the budget is spent, so that a busy machine still gets a useful answer:
#   1. the small claims (manifest estimate up to 10 s) and the small shipped
#      certificates, cheapest first, as independent jobs, AUDIT_JOBS at a
#      time (default: the cores). A small job starts whenever budget is left;
#      one that runs far past its estimate is stopped at its cap and tried
#      again in phase 3: an estimate that proves wrong never starves the rest.
#   2. the headline shipped certificates (claims over a minute with one in
#      certs/: n = 16, G(15), G(16), both n = 18 manifests), one at a time on
#      every core, cheapest first, then the n = 16 reply table (below); each
#      starts only if its predicted time fits what is left.
#   3. everything else, cheapest first, while its prediction fits (a proof that
#      does not fit is checked from its shipped certificate if that fits).
# Predictions: a job's time on a quiet machine (what this machine took in an
# earlier audit, as CPU time per thread, in out/audit/times.tsv; else the
# manifest's estimate) times this run's slowdown (wall x threads / CPU time of
# the jobs finished so far, at least 1: five other busy processes on two
# cores make it about 3.5) or its pace (wall time over estimate of the
# headline and later jobs finished so far: a machine slower than the
# manifests' shows there), whichever is larger; the headline checks that cannot finish are
# then left for a quieter run instead of being started and stopped. A claim not run says
# why; the terminal table sums those over budget in one line per source and
# family, and each headline certificate not checked gets the checker command
# and how long it takes.
#
#   AUDIT_BUDGET=seconds   wall-clock budget (default 780; 110 with
#                          AUDIT_QUICK=1). Work stops 3 s before its end (the
#                          results and the table); a job still running then is
#                          stopped and reported "not run".
#   AUDIT_QUICK=1          make audit-quick: a first look in under 2 minutes:
#                          the cheapest claim of each source and family proved
#                          and checked, every small shipped certificate
#                          checked, the rest listed as not run.
#   AUDIT_JOBS=K           jobs at a time (default: the cores)
#   AUDIT_SMALL_CAP=s      a small job runs at most max(s, 10 x its estimate)
#                          times the slowdown (default 30), then waits for
#                          phase 3 with the rest
#   AUDIT_SHIPPED=1        check shipped certificates instead of proving
#   AUDIT_PROVE_ALL=1      prove claims over a minute too, where they fit
#   AUDIT_TT_MB=MiB        prover transposition table (default: the prover's
#                          own, sized by the board, and 4096 for claims
#                          estimated at a minute or more)
#   AUDIT_MANIFESTS="proofs/a.claims ..."  only these manifests (default: all)
#   AUDIT_OUT=dir          where certificates, logs and results go (out/audit)
#   AUDIT_CERTS=dir        the shipped certificates (certs)
#   AUDIT_SHIP=1           copy every certified certificate under 4 MiB (a
#                          sharded one with its units: under 32 MiB) to
#                          certs/<id>.qcert[.units] (how certs/ is made)
#   VERIFIED_CHECKER=path  the Coq-proved checker (build/bin/checker-verified;
#                          docs/verified-checker.md). Not built: the audit
#                          says so once and marks no claim.
#   AUDIT_VERIFIED_BUDGET=s  wall-clock seconds, all its runs together, for the
#                          Coq-proved checker (default: a tenth of the budget;
#                          0: not used)
#   AUDIT_VERIFIED_CAP=s   at most this long for one claim (default 30)
#   AUDIT_VERIFIED_RATIO=r its prediction: r times the checker's time on the
#                          same file (default: by the board, as measured: 5
#                          up to n = 10, 15 up to 14, 25 above; on the
#                          torus 40 for a manifest, 60 for a single file up
#                          to 12, 5000 above)
#   AUDIT_VERIFIED=all     the Coq-proved checker also runs, after the budget's
#                          end and without its limits, on every claim of its
#                          scope it had no time for (the headline manifests
#                          included, their shards on every slot: hours)
# The Coq-proved checker: after the checker has VERIFIED a claim in its scope
# (the queens game on a square board or torus, an outcome or a Grundy value, a
# certificate file or a manifest of them, n <= 22; a table of parts of the
# Grundy value of an empty board of any piece that does not wrap around; no
# mirror lemma), checker-verified checks the same file again, as a job of
# one slot queued after the small claims (so it never holds back one of
# them), cheapest first, within AUDIT_VERIFIED_BUDGET. It starts only if its
# prediction (AUDIT_VERIFIED_RATIO times the checker's time on the file; the
# ratios measured, CPU time, 2026-11-29: 4 at n = 12, 10 at n = 14, 13 on
# the n = 16 manifest, 17 to 18 on the n = 18 manifests; a prediction of 5,
# 15, 25) fits its cap and
# what is left of that budget; it may run three times its prediction (at
# least 5 s), its cap and what is left, and is stopped there ("stopped").
# Its verdict and time are the results' columns verified and verified_ms; a
# REJECTED, or a VERIFIED of another statement, where the checker verified
# is a failure (exit 1).
# The n = 16 reply table: when certs/rudd-n16.qcert is verified in this run,
# `qcert replies` verifies it again and writes the winner's reply to every
# first move to out/audit/replies-n16.tsv, drawn in the HTML report.
set -uo pipefail
cd "$(dirname "$0")/.."
PROVER=${PROVER:-build/bin/prover}
CHECKER=${CHECKER:-build/bin/checker}
QCERT=${QCERT:-build/bin/qcert}
VERIFIED=${VERIFIED_CHECKER:-build/bin/checker-verified}
die() { echo "audit: $*" >&2; exit 2; }

quick=${AUDIT_QUICK:-0}
[[ "$quick" =~ ^[01]$ ]] || die "AUDIT_QUICK must be 0 or 1, not '$quick'"
if [ "$quick" = 1 ]; then budget=${AUDIT_BUDGET:-110}; else budget=${AUDIT_BUDGET:-780}; fi
[[ "$budget" =~ ^[0-9]{1,9}$ ]] && [ "$budget" -ge 10 ] || die "AUDIT_BUDGET must be a whole number of seconds, at least 10, not '$budget'"
slots=${AUDIT_JOBS:-$(nproc 2>/dev/null || echo 2)}
[[ "$slots" =~ ^[0-9]{1,3}$ ]] && [ "$slots" -ge 1 ] || die "AUDIT_JOBS must be a whole number from 1 to 999, not '$slots'"
for v in AUDIT_SHIPPED AUDIT_PROVE_ALL AUDIT_SHIP; do
  [[ "${!v:-0}" =~ ^[01]$ ]] || die "$v must be 0 or 1, not '${!v}'"
done
small_cap=${AUDIT_SMALL_CAP:-30}
[[ "$small_cap" =~ ^[0-9]{1,6}$ ]] && [ "$small_cap" -ge 1 ] || die "AUDIT_SMALL_CAP must be a whole number of seconds, not '$small_cap'"
vbudget=${AUDIT_VERIFIED_BUDGET:-$((budget / 10))}
[[ "$vbudget" =~ ^[0-9]{1,9}$ ]] || die "AUDIT_VERIFIED_BUDGET must be a whole number of seconds, not '$vbudget'"
vratio=${AUDIT_VERIFIED_RATIO:-}
[ -z "$vratio" ] || [[ "$vratio" =~ ^[0-9]{1,6}$ ]] || die "AUDIT_VERIFIED_RATIO must be a whole number, not '$vratio'"
vall=${AUDIT_VERIFIED:-}
[ -z "$vall" ] || [ "$vall" = all ] || die "AUDIT_VERIFIED must be 'all' or empty, not '$vall'"
vcap=${AUDIT_VERIFIED_CAP:-30}
[[ "$vcap" =~ ^[0-9]{1,6}$ ]] && [ "$vcap" -ge 1 ] || die "AUDIT_VERIFIED_CAP must be a whole number of seconds, at least 1, not '$vcap'"
tt=${AUDIT_TT_MB:-}
[ -z "$tt" ] || [[ "$tt" =~ ^[0-9]{1,7}$ ]] || die "AUDIT_TT_MB must be a number of MiB, not '$tt'"
for tool in "$PROVER" "$CHECKER" "$QCERT"; do [ -x "$tool" ] || die "$tool is not built (make build)"; done

# Output: a folder of ours, and regular files in it; anything else that is
# already there under one of our names is refused before any work.
work=${AUDIT_OUT-out/audit}
[ -n "$work" ] || die "AUDIT_OUT is empty: name a folder (default out/audit)"
if [ -e "$work" ] || [ -L "$work" ]; then [ -d "$work" ] || die "AUDIT_OUT $work exists and is not a folder"; fi
mkdir -p "$work" 2>/dev/null || die "cannot create the folder $work"
# A symbolic link is refused too (qcert report would refuse it at the end,
# after all the work; mv would cut it).
for f in results.tsv times.tsv report.html replies-n16.tsv; do
  p=$work/$f
  [ ! -L "$p" ] || die "$p is a symbolic link: not replacing it (name the folder of the file itself)"
  if [ -e "$p" ]; then [ -f "$p" ] || die "$p exists and is not a regular file: not replacing it"; fi
done
# A fresh temporary beside a result (mktemp: never a name something else,
# a FIFO say, already holds), renamed over it once complete.
temporary_for() { mktemp "$work/.$(basename "$1").XXXXXX" || die "cannot create a file in $work"; }
[ ! -e "$work/logs" ] || [ -d "$work/logs" ] || die "$work/logs exists and is not a folder"
verified_on=0
if [ "$vbudget" -gt 0 ]; then
  if [ -x "$VERIFIED" ]; then verified_on=1
  else echo "audit: $VERIFIED is not built (it needs coqc and ocamlopt: docs/verified-checker.md); no claim is checked by the Coq-proved checker" >&2; fi
fi
results=$work/results.tsv
times=$work/times.tsv
manifests=${AUDIT_MANIFESTS:-proofs/*.claims}
certs=${AUDIT_CERTS:-certs}
certs=${certs%/}
# This run's job results and logs; they replace $work/logs at the end.
run_dir=$(mktemp -d "$work/.run.XXXXXX") || die "cannot create a folder in $work"
# Each job is a process group of its own (set -m), so that stopping the audit
# stops every prover and checker it started.
set -m
declare -A running        # pid (= process group) -> job
cleanup() {
  local pid
  for pid in "${!running[@]}"; do kill -TERM -- "-$pid" 2>/dev/null; done
  [ -d "$run_dir" ] && rm -rf "$run_dir"
  rm -f "${results_tmp:-}" "${times_tmp:-}"  # stopped while writing them (gone once renamed)
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

start_us=${EPOCHREALTIME/./}
printf '#ms\tevent\tjob\tclaim\tphase\testimate_ms\n' >"$run_dir/schedule.tsv"  # what ran when (logs/schedule.tsv)
budget_us=$((budget * 1000000 - 3000000))
started_at=$(date -u +%Y-%m-%dT%H:%M:%SZ)
left_us() { echo $((budget_us - (${EPOCHREALTIME/./} - start_us))); }
# Microseconds as seconds with two decimals, into variable $1.
secs() { printf -v "$1" '%d.%02d' $(($2 / 1000000)) $(($2 % 1000000 / 10000)); }
# Microseconds as a duration a person reads ("about 4 min 20 s"), into $1.
duration() {
  local s=$(($2 / 1000000)) text
  if [ $s -lt 60 ]; then text="$((s < 1 ? 1 : s)) s"
  elif [ $s -lt 3600 ]; then text="$((s / 60)) min"; [ $((s % 60)) -gt 0 ] && text+=" $((s % 60)) s"
  elif [ $s -lt 172800 ]; then text="$(((s + 1800) / 3600)) h"
  elif [ $s -lt 63072000 ]; then text="$(((s + 43200) / 86400)) days"
  else text="$(((s + 15778800) / 31557600)) years"; fi
  printf -v "$1" 'about %s' "$text"
}
# Microseconds as whole milliseconds ('-' for none), into variable $1.
ms() { if [[ "$2" =~ ^[0-9]+$ ]]; then printf -v "$1" '%d' $(($2 / 1000)); else printf -v "$1" '-'; fi; }
trim() { local s=$2; s=${s#"${s%%[![:space:]]*}"}; s=${s%"${s##*[![:space:]]}"}; printf -v "$1" '%s' "$s"; }
one_line() { local s=${2//$'\t'/ }; printf -v "$1" '%s' "${s//$'\n'/ }"; }
# A statement with '*' for unpublished numbers as a bash pattern: every other
# character literal.
glob_of() { local s=$1 out="" i ch; for ((i = 0; i < ${#s}; i++)); do ch=${s:i:1}; if [ "$ch" = "*" ]; then out+="*"; else out+="\\$ch"; fi; done; printf '%s' "$out"; }
# Statements say "1 solution" but "2 solutions"; an unpublished '*' count does
# not say which, so '*' statements are compared with every count in the plural.
plural_word() { if [[ $1 == 1 ]]; then echo "$2"; else echo "$3"; fi; }  # count, singular, plural
plural_of() { sed -E 's/\b1 (solution|placement|node|end position|distinct play|queen)\b/1 \1s/g; s/at least 1 non-attacking queen is needed/at least 1 non-attacking queens are needed/' <<<"$1"; }
# The game family of a claim's prover arguments (the report sums what was not
# run by source and family).
family_of() {
  case "$1" in
    -) printf -v "$2" 'no certificate' ;;
    count*) printf -v "$2" 'counting' ;;
    mod2*) printf -v "$2" 'mod-2 game' ;;
    partizan*) printf -v "$2" 'partizan game' ;;
    *--piece*|*--board*|*--holes*) printf -v "$2" 'variants' ;;
    *) printf -v "$2" 'queens game' ;;
  esac
}
# Whether checker-verified can check the certificate of these prover
# arguments: the queens game on a square board or torus of at most 22 x 22
# (what export-table reads), an outcome (prove) or a Grundy value (grundy),
# with given queens or none; or a table of parts (--parts) of the Grundy
# value of an empty board of any piece, square or rectangular, with holes or
# none, that does not wrap around (Parts.v). Not a mirror lemma, nor another
# piece or board's replies. Whether the certificate is a single file (no
# shards) is seen when it is there. Sets vscope_n, vscope_torus and
# vscope_parts (0 or 1), and vscope_piece.
verified_scope_args() {
  local a=($1) k queens=0 other=0
  vscope_n="" vscope_torus=0 vscope_parts=0 vscope_piece=queen
  [ "${a[0]:-}" = prove ] || [ "${a[0]:-}" = grundy ] || return 1
  for ((k = 1; k < ${#a[@]}; k += 2)); do
    case "${a[k]} ${a[k + 1]:-}" in
      --parts*) vscope_parts=1; k=$((k - 1)) ;;  # a flag: no value follows
      "--n "*) [[ "${a[k + 1]:-}" =~ ^([1-9]|1[0-9]|2[0-2])$ ]] || return 1; vscope_n=${a[k + 1]} ;;
      "--board torus") vscope_torus=1 ;;
      "--board "*) [[ "${a[k + 1]:-}" =~ ^[1-9][0-9]?x[1-9][0-9]?$ ]] || return 1; other=1; vscope_n=0 ;;
      "--piece queen"|"--jobs "*|"--tt-mb "*) ;;
      "--piece "*) other=1; vscope_piece=${a[k + 1]} ;;
      "--holes "*) other=1 ;;
      "--queens "*) queens=1 ;;
      *) return 1 ;;
    esac
  done
  [ -n "$vscope_n" ] || return 1
  if [ "$vscope_parts" = 1 ]; then
    [ "${a[0]}" = grundy ] && [ "$vscope_torus" = 0 ] && [ "$queens" = 0 ]
  else
    [ "$other" = 0 ]
  fi
}
# "1m2.345s" (bash's `times`) as microseconds.
times_us() {
  local t=$1 m s f
  m=${t%%m*}; s=${t#*m}; s=${s%s}; f=${s#*.}; s=${s%.*}
  f=${f}000000; f=${f:0:6}
  echo $(((10#$m * 60 + 10#$s) * 1000000 + 10#$f))
}

# Times measured by earlier audits (id|args -> quiet-machine microseconds of
# the proof and of the check: CPU time per thread). A file of another format
# is ignored; a number out of range is not an estimate.
declare -A seen_prove seen_check
times_magic=$'#qcert-audit-times\t2'
if [ -f "$times" ] && [ "$(head -n 1 "$times")" = "$times_magic" ]; then
  while IFS=$'\t' read -r t_id t_args t_prove t_check; do
    [[ "$t_id" == \#* ]] && continue
    [[ "$t_prove" =~ ^[0-9]{1,13}$ ]] && seen_prove["$t_id|$t_args"]=$t_prove
    [[ "$t_check" =~ ^[0-9]{1,13}$ ]] && seen_check["$t_id|$t_args"]=$t_check
  done < <(tail -n +2 "$times")
fi

# ---- the claims ---------------------------------------------------------------
declare -A shipped               # prover arguments -> a shipped certificate for them
c_source=() c_id=() c_statement=() c_args=() c_est=() c_backing=() c_family=() source_lines=()
for manifest in $manifests; do
  [ -f "$manifest" ] || die "no manifest $manifest"
  source=$(basename "$manifest" .claims)
  # The manifest's first comment paragraph describes the source.
  about=$(awk '/^#/ { sub(/^# ?/, ""); printf "%s ", $0; next } { exit }' "$manifest" | sed 's/ *$//')
  about=$(sed -E 's/ *\([^)]*\.\.\/shared[^)]*\)//g; s/([A-Za-z0-9")]{3})\. .*/\1/' <<<"$about")
  one_line about "$about"
  source_lines+=("$source"$'\t'"$manifest"$'\t'"$about")
  while IFS= read -r line; do
    [[ "$line" =~ ^[[:space:]]*(#|$) ]] && continue
    IFS='|' read -r id statement args est backing <<<"$line"
    trim id "$id"; trim statement "$statement"; read -ra a <<<"$args"; args="${a[*]}"
    trim est "$est"; trim backing "$backing"
    [[ "$est" =~ ^[0-9]{1,12}$ ]] || est=0
    c_source+=("$source"); c_id+=("$id"); c_statement+=("$statement"); c_args+=("$args")
    c_est+=("$est"); c_backing+=("$backing"); family_of "$args" fam; c_family+=("$fam")
    [ -f "$certs/$id.qcert" ] && shipped[$args]="$certs/$id.qcert"
  done <"$manifest"
done
total=${#c_id[@]}
[ "$total" -gt 0 ] || die "no claims in $manifests"
failures=0

# One result per claim: status (certified, refuted, lemma, not-run, failed),
# detail (how or why), the certified statement, times in microseconds.
declare -A r_status r_detail r_proved r_prove r_check r_reused r_bytes r_cert r_estimate
done_count=0
result() {  # claim status detail
  r_status[$1]=$2; one_line "r_detail[$1]" "$3"
  done_count=$((done_count + 1))
}
# The Coq-proved checker's verdict on the claim's certificate: - (not in its
# scope, or the checker did not verify), verified, skipped (in scope, not run:
# its prediction did not fit, or no time was left), stopped (at its cap or
# the budget's end), rejected, undecided (exit 2), other (VERIFIED, but not
# the statement the checker verified); and its time.
declare -A r_vstatus r_vus
for ((i = 0; i < total; i++)); do r_prove[$i]=-; r_check[$i]=-; r_bytes[$i]=-; r_proved[$i]=""; r_cert[$i]=""; r_reused[$i]=""; r_vstatus[$i]=-; r_vus[$i]=-; done

# A claim's quiet-machine estimates (microseconds): an earlier audit's
# measurement, else the manifest's ("check about N s" in its backing for the
# check, else 35% of the proof, at least 0.2 s; counts include the recount).
est_prove_of() {  # claim -> into $2
  local k="${c_id[$1]}|${c_args[$1]}"
  if [ -n "${seen_prove[$k]:-}" ]; then printf -v "$2" '%d' "${seen_prove[$k]}"
  else printf -v "$2" '%d' $((c_est[$1] * 1000000)); fi
}
est_check_of() {
  local k="${c_id[$1]}|${c_args[$1]}" e
  if [ -n "${seen_check[$k]:-}" ]; then e=${seen_check[$k]}
  elif [[ "${c_args[$1]}" == count* ]]; then e=200000
  elif [[ "${c_backing[$1]}" =~ check\ about\ ([0-9]+)\ s ]]; then e=$((BASH_REMATCH[1] * 1000000))
  else e=$((c_est[$1] * 350000)); [ $e -lt 200000 ] && e=200000; fi
  printf -v "$2" '%d' "$e"
}

# Counts: rules every true count obeys, checked on the published numbers
# without counting ('*' = not published); an impossible entry is refuted here,
# whatever its size.
declare -A settled
for ((i = 0; i < total; i++)); do
  args=${c_args[$i]}
  if [ "$args" = "-" ]; then
    case "${c_backing[$i]}" in
      lemma*) result "$i" lemma "${c_backing[$i]#lemma: }" ;;
      *) result "$i" not-run "${c_backing[$i]#not run: }" ;;
    esac
    settled[$i]=1; continue
  fi
  [[ "$args" == count* ]] || continue
  rules=$($PROVER table-check "${c_statement[$i]}" 2>&1)
  rc=$?
  if [ $rc -eq 2 ]; then  # a manifest line the rules cannot read is the manifest's fault
    failures=$((failures + 1)); result "$i" failed "table-check cannot read the statement: $rules"; settled[$i]=1
  elif [[ "$rules" == IMPOSSIBLE:* ]]; then
    result "$i" refuted "impossible: ${rules#IMPOSSIBLE: }"; settled[$i]=1
  fi
done

# ---- the jobs -----------------------------------------------------------------
# One job per distinct prover arguments (claims with the same arguments share
# its certificate): prove and check, or check a shipped certificate.
j_kind=() j_args=() j_cert=() j_cert2=() j_ship=() j_threads=() j_est=() j_phase=() j_members=() j_fallback=()
declare -A job_of_args job_of_id r_joined
from_shipped() {  # claim: checked from its shipped certificate (a headline)
  [ "${AUDIT_PROVE_ALL:-0}" != 1 ] && [ "${c_est[$1]}" -gt 60 ] && [ -n "${shipped[${c_args[$1]}]:-}" ]
}
threads_of() {  # prover arguments -> the threads they ask for (--jobs K), at most the slots
  local t=1
  [[ " $1 " =~ \ --jobs\ ([0-9]+)\  ]] && t=${BASH_REMATCH[1]}
  [ "$t" -gt "$slots" ] && t=$slots
  [ "$t" -lt 1 ] && t=1
  echo "$t"
}
# AUDIT_QUICK: the cheapest claim of each source and family is proved.
declare -A quick_pick
if [ "$quick" = 1 ]; then
  declare -A quick_est
  for ((i = 0; i < total; i++)); do
    [ -n "${settled[$i]:-}" ] && continue
    [ "${c_est[$i]}" -le 1 ] || continue
    k="${c_source[$i]}|${c_family[$i]}"
    if [ -z "${quick_pick[$k]:-}" ] || [ "${c_est[$i]}" -lt "${quick_est[$k]}" ]; then quick_pick[$k]=$i; quick_est[$k]=${c_est[$i]}; fi
  done
  declare -A quick_chosen
  for k in "${!quick_pick[@]}"; do quick_chosen[${quick_pick[$k]}]=1; done
fi
for ((i = 0; i < total; i++)); do
  [ -n "${settled[$i]:-}" ] && continue
  args=${c_args[$i]}
  if [ -n "${job_of_args[$args]:-}" ]; then j=${job_of_args[$args]}; j_members[$j]+=" $i"; continue; fi
  ship=${shipped[$args]:-}
  est_prove_of "$i" ep; est_check_of "$i" ec
  kind="" phase=1 fallback="" small_ship=""
  if [ "${AUDIT_SHIPPED:-0}" = 1 ] || { [ "$quick" = 1 ] && [ -n "$ship" ] && [ "$ec" -le 3000000 ]; }; then
    if [ -z "$ship" ]; then r_estimate[$i]=$((ep + ec)); result "$i" not-run "no shipped certificate (AUDIT_SHIPPED=1)"; continue; fi
    kind=shipped; from_shipped "$i" && phase=2
  elif [ "$quick" = 1 ]; then
    if [ -n "${quick_chosen[$i]:-}" ]; then kind=prove
    elif [ -n "$ship" ]; then r_estimate[$i]=$ec; r_cert[$i]=$ship; result "$i" not-run "not in the quick selection: make audit checks its shipped certificate"; continue
    else r_estimate[$i]=$((ep + ec)); result "$i" not-run "not in the quick selection (make audit runs it)"; continue; fi
  elif from_shipped "$i"; then
    kind=shipped; phase=2
    # A manifest over the shards of another headline's: checked in the same
    # checker run, which replays each shared shard once.
    if [[ "${c_backing[$i]}" =~ over\ the\ shards\ of\ ([A-Za-z0-9._-]+) ]] && [ -n "${job_of_id[${BASH_REMATCH[1]}]:-}" ]; then
      j=${job_of_id[${BASH_REMATCH[1]}]}
      if [ "${j_kind[$j]}" = shipped ] && [ -z "${j_cert2[$j]}" ]; then
        j_cert2[$j]=$ship; j_members[$j]+=" $i"; r_joined[$i]=1; j_est[$j]=$((j_est[$j] + ec / 20))
        job_of_args[$args]=$j
        continue
      fi
    fi
  else
    kind=prove
    if [ "${c_est[$i]}" -gt 10 ]; then phase=3; fallback=$ship; else small_ship=$ship; fi
  fi
  j=${#j_kind[@]}
  job_of_args[$args]=$j
  j_kind[$j]=$kind; j_args[$j]=$args; j_members[$j]=$i; j_ship[$j]=$small_ship; j_fallback[$j]=$fallback; j_phase[$j]=$phase
  j_cert2[$j]=""; job_of_id[${c_id[$i]}]=$j
  if [ "$kind" = shipped ]; then
    j_cert[$j]=$ship; j_est[$j]=$ec
    if [ "$phase" = 2 ]; then j_threads[$j]=$slots; else j_threads[$j]=1; fi
  else
    j_cert[$j]="$work/${c_id[$i]}.qcert"; j_est[$j]=$((ep + ec)); j_threads[$j]=$(threads_of "$args")
  fi
done
for ((j = 0; j < ${#j_kind[@]}; j++)); do
  for i in ${j_members[$j]}; do r_estimate[$i]=${j_est[$j]}; done
done
# The queue: phase, then estimate, then manifest order.
queue=($(for ((j = 0; j < ${#j_kind[@]}; j++)); do echo "${j_phase[$j]} ${j_est[$j]} $j"; done |
         sort -k1,1n -k2,2n -k3,3n | awk '{ print $3 }'))

# ---- one job (runs in the background; writes $run_dir/job.J) ------------------
# Every number it reports is in microseconds; cpu is the CPU time of its
# processes (user + system), for the slowdown and the next run's estimates.
# A job ends by its deadline (microseconds since the epoch): the budget's end,
# or sooner for a small job (its cap, below); stopped at its cap, it says so.
run_job() {
  local j=$1 deadline=$2 capped=$3 threads=${j_threads[$1]} cert=${j_cert[$1]} args=${j_args[$1]} lead
  lead=${j_members[$1]%% *}
  local id=${c_id[$lead]} log=$run_dir/${c_id[$lead]} out=$run_dir/job.$1
  local prove_us=- prove_cpu=- check_us=- check_cpu=- verdict="" code="" stopped="" ship_verdict="" ship_code=""
  local limit t0 rc before after
  emit() {
    { printf 'kind\t%s\nprove_us\t%s\nprove_cpu\t%s\ncheck_us\t%s\ncheck_cpu\t%s\ncode\t%s\nstopped\t%s\nship_code\t%s\n' \
        "${j_kind[$j]}" "$prove_us" "$prove_cpu" "$check_us" "$check_cpu" "$code" "$stopped" "$ship_code"
      printf 'cert\t%s\nverdict\t%s\nship_verdict\t%s\nverdict2\t%s\ncode2\t%s\n' "$cert" "$verdict" "$ship_verdict" "${verdict2:-}" "${code2:-}"
    } >"$out.tmp" && mv "$out.tmp" "$out"
    exit 0
  }
  # The CPU time of this job's finished processes, into $1 (not in a $(...):
  # a subshell's `times` counts only its own children).
  cpu_now() { times >"$log.times"; local a b; { read -r _ _; read -r a b; } <"$log.times"; printf -v "$1" '%d' $(($(times_us "$a") + $(times_us "$b"))); }
  if [ "${j_kind[$j]}" = prove ]; then
    local table=()
    if [[ "$args" == count* || "$args" == mod2* || "$args" == partizan* ]]; then table=()  # no transposition table there
    elif [ -n "$tt" ]; then table=(--tt-mb "$tt"); elif [ "${c_est[$lead]}" -ge 60 ]; then table=(--tt-mb 4096); fi
    # The prover gets what is left of its time; stopped (SIGTERM, exit 3
    # keeping finished units), it decides nothing.
    limit=$(( (deadline - ${EPOCHREALTIME/./}) / 1000000 )); [ $limit -lt 1 ] && limit=1
    # A fresh proof, not a resumed one; what is not ours (not a regular file,
    # not a folder of units) stays, and the prover refuses it.
    [ -f "$cert" ] && [ ! -L "$cert" ] && rm -f "$cert"
    [ -d "$cert.units" ] && [ ! -L "$cert.units" ] && rm -rf "$cert.units"
    cpu_now before; t0=${EPOCHREALTIME/./}
    timeout --foreground --kill-after=5 "$limit" $PROVER $args --out "$cert" "${table[@]}" -q >"$log.prove.log" 2>&1
    rc=$?
    prove_us=$((${EPOCHREALTIME/./} - t0)); cpu_now after; prove_cpu=$((after - before))
    if [ $rc -eq 124 ] || [ $rc -eq 137 ] || { [ $rc -eq 3 ] && [ "${EPOCHREALTIME/./}" -ge "$deadline" ]; }; then
      stopped=prove; [ "$capped" = 1 ] && stopped=cap; verdict="stopped"; emit
    elif [ $rc -ne 0 ]; then
      code=prover; verdict="prover exit $rc: $(tail -n 1 "$log.prove.log")"; emit
    fi
  fi
  # The checker gets what is left of its time, less a second for its start
  # and exit: past it, it stops with NOT CHECKED (exit 2), no verdict.
  check_one() {  # certificate -> verdict line, into variables $2 (verdict) and $3 (code)
    local l=$(( (deadline - ${EPOCHREALTIME/./}) / 1000000 - 1 )); [ $l -lt 1 ] && l=1
    local v c
    v=$($CHECKER --jobs "$threads" --time-limit "$l" "$1" 2>>"$log.check.err" | grep -E '^(VERIFIED|REJECTED|NOT CHECKED):' | head -n 1)
    c=${PIPESTATUS[0]}
    printf -v "$2" '%s' "$v"; printf -v "$3" '%s' "$c"
  }
  # Two shipped manifests over the same shards: one checker run, each file's
  # verdict line after its name.
  check_pair() {
    local l=$(( (deadline - ${EPOCHREALTIME/./}) / 1000000 - 1 )); [ $l -lt 1 ] && l=1
    local lines line k=0 f
    lines=$($CHECKER --jobs "$threads" --time-limit "$l" "$cert" "$cert2" 2>>"$log.check.err")
    while IFS= read -r line; do
      k=$((k + 1)); f=$cert; [ $k = 2 ] && f=$cert2
      line=${line#"$f: "}
      case "$line" in VERIFIED:*) c=0 ;; REJECTED:*) c=1 ;; *) c=2 ;; esac
      if [ $k = 1 ]; then verdict=$line; code=$c; else verdict2=$line; code2=$c; fi
    done <<<"$lines"
  }
  local cert2=${j_cert2[$j]} verdict2="" code2="" c
  cpu_now before; t0=${EPOCHREALTIME/./}
  if [ -n "$cert2" ]; then check_pair; else check_one "$cert" verdict code; fi
  check_us=$((${EPOCHREALTIME/./} - t0)); cpu_now after; check_cpu=$((after - before))
  if [ "$code" = 2 ] && [[ "$verdict" == "NOT CHECKED:"*"time limit of "* ]]; then stopped=check; [ "$capped" = 1 ] && stopped=cap; fi
  [ -z "$verdict" ] && verdict="checker exit $code: $(tail -n 1 "$log.check.err" 2>/dev/null)"
  # A small shipped certificate of the same claim is checked too: it is what
  # an auditor downloads.
  if [ -n "${j_ship[$j]}" ] && [ "$code" = 0 ]; then check_one "${j_ship[$j]}" ship_verdict ship_code; fi
  emit
}

# ---- the scheduler ------------------------------------------------------------
declare -A j_done j_started j_deferred
busy=0
work_us=0 cpu_us=0        # wall x threads and CPU time of finished jobs: the slowdown
slowdown_pct() {          # this run's slowdown in percent, at least 100
  local s=100
  [ "$cpu_us" -gt 2000000 ] && s=$((work_us * 100 / cpu_us))
  [ $s -lt 100 ] && s=100
  echo "$s"
}
# The machine's pace against the estimates, in percent: wall time over
# estimate of the finished headline and later jobs estimated at 5 s or more
# (a slower machine than the one the manifests were measured on shows here,
# not in the slowdown; the small claims' estimates are too coarse to say).
# A prediction is the estimate times the larger of the two.
pace_wall=0 pace_est=0
predict_us() {  # job -> predicted wall microseconds
  local f e=${j_est[$1]}; f=$(slowdown_pct)
  if [ "$pace_est" -ge 10000000 ]; then local p=$((pace_wall * 100 / pace_est)); [ $p -gt "$f" ] && f=$p; fi
  # Counts of centuries: past 30 years no budget matters, and the product
  # must not wrap around 64 bits (it once turned negative and started one).
  [ "$e" -ge 1000000000000000 ] && { echo "$e"; return; }
  [ "$f" -gt 100000 ] && f=100000
  echo $((e / 100 * f))
}
headline_note() {  # job predicted_us -> the command that checks it and how long it takes, into $3
  local d1 d2
  duration d1 "${j_est[$1]}"; duration d2 "$2"
  local how="$d1 on a quiet machine with $slots cores"
  [ "$2" -gt $((j_est[$1] * 5 / 4)) ] && how+=", $d2 at this run's pace"
  local files=${j_cert[$1]}; [ -n "${j_cert2[$1]:-}" ] && files+=" ${j_cert2[$1]}"
  printf -v "$3" '%s' "over budget: check it with $CHECKER --jobs $slots $files ($how)"
}
over_budget_note() {  # job
  if [ -n "${j_deferred[$1]:-}" ]; then
    local s; secs s "${j_deferred[$1]}"
    echo "over budget: stopped after $s s, far past its estimate, so that the small claims could run; its full run did not fit in what was left"
  else echo "over budget"; fi
}
not_run_job() {  # job detail
  local i
  for i in ${j_members[$1]}; do
    result "$i" not-run "$2"
    [ "${j_kind[$1]}" = shipped ] && r_cert[$i]=${j_cert[$1]}  # the report's command: check it
    [ -n "${r_joined[$i]:-}" ] && r_cert[$i]=${j_cert2[$1]}
  done
  j_done[$1]=1
}

collect() {  # job: read its result file, settle its claims
  local j=$1 f=$run_dir/job.$1 key val
  declare -A v=()
  if [ -f "$f" ]; then while IFS=$'\t' read -r key val; do v[$key]=$val; done <"$f"; fi
  local threads=${j_threads[$j]} cert=${v[cert]:-${j_cert[$j]}} i
  local verdict=${v[verdict]:-} code=${v[code]:-} stopped=${v[stopped]:-}
  for m in prove check; do
    local w=${v[${m}_us]:--} c=${v[${m}_cpu]:--}
    if [[ "$w" =~ ^[0-9]+$ ]] && [[ "$c" =~ ^[0-9]+$ ]]; then work_us=$((work_us + w * threads)); cpu_us=$((cpu_us + c)); fi
  done
  local ran_us=0
  [[ "${v[prove_us]:-}" =~ ^[0-9]+$ ]] && ran_us=$((ran_us + v[prove_us]))
  [[ "${v[check_us]:-}" =~ ^[0-9]+$ ]] && ran_us=$((ran_us + v[check_us]))
  if [ "${j_phase[$j]}" -ge 2 ] && [ "${j_est[$j]}" -ge 5000000 ] && [ -z "$stopped" ]; then pace_wall=$((pace_wall + ran_us)); pace_est=$((pace_est + j_est[$j])); fi
  if [ "$stopped" = cap ]; then
    # Past its cap: after the headline checks, if its full run fits then.
    local ran=$((${EPOCHREALTIME/./} - j_started[$j]))
    j_deferred[$j]=$ran; j_phase[$j]=3
    local e=$((ran * 2 * 100 / $(slowdown_pct))); [ "$e" -gt "${j_est[$j]}" ] && j_est[$j]=$e
    for i in ${j_members[$j]}; do r_estimate[$i]=${j_est[$j]}; done
    queue+=("$j")
    return
  fi
  local bytes=-
  [ -f "$cert" ] && bytes=$(du -sb "$cert" "$cert.units" 2>/dev/null | awk '{ s += $1 } END { print s + 0 }')
  local how=proved; [ "${j_kind[$j]}" = shipped ] && how=shipped
  local first=1
  local job_verdict=$verdict job_code=$code job_cert=$cert job_bytes=$bytes
  for i in ${j_members[$j]}; do
    verdict=$job_verdict code=$job_code cert=$job_cert bytes=$job_bytes
    if [ -n "${r_joined[$i]:-}" ]; then  # the second file of the checker run
      verdict=${v[verdict2]:-} code=${v[code2]:-} cert=${j_cert2[$j]}
      [ -z "$verdict" ] && [ -n "$job_verdict" ] && verdict="checker said nothing of $cert" && code=2
      bytes=$(du -sb "$cert" 2>/dev/null | awk '{ print $1 + 0 }')
    fi
    r_prove[$i]=${v[prove_us]:--}; r_check[$i]=${v[check_us]:--}; r_cert[$i]=$cert; r_bytes[$i]=$bytes
    r_cpu_prove[$i]=${v[prove_cpu]:--}; r_cpu_check[$i]=${v[check_cpu]:--}; r_threads[$i]=$threads
    [ $first = 1 ] || r_reused[$i]=1
    local what=$how; [ $first = 1 ] || [ "$how" = shipped ] || what="proved for ${c_id[${j_members[$j]%% *}]}"
    first=0
    if [ -z "$verdict" ]; then
      failures=$((failures + 1)); result "$i" failed "the job left no result (killed?)"
    elif [ "$stopped" = prove ]; then
      local s; secs s "${v[prove_us]}"; r_stopped[$i]=prove
      result "$i" not-run "over budget: the proof was stopped after $s s when the budget ran out"
    elif [ "$code" = prover ]; then
      failures=$((failures + 1)); result "$i" failed "$verdict"
    elif [ "$stopped" = check ]; then
      r_stopped[$i]=check; result "$i" not-run "over budget: ${what}, not checked: ${verdict#NOT CHECKED: }"
    elif [ "$code" = 2 ] && [[ "$verdict" == "NOT CHECKED:"* ]]; then  # no verdict either way (memory)
      result "$i" not-run "${what}, not checked: ${verdict#NOT CHECKED: }"
    elif [ "$code" != 0 ] || [[ "$verdict" != VERIFIED:* ]]; then
      failures=$((failures + 1)); result "$i" failed "checker exit $code: $verdict"
    else
      local proved=${verdict#VERIFIED: }; proved=${proved% (queens game)}
      r_proved[$i]=$proved
      local also=""
      if [ -n "${v[ship_code]:-}" ]; then
        if [ "${v[ship_code]}" = 0 ] && [ "${v[ship_verdict]#VERIFIED: }" = "${verdict#VERIFIED: }" ]; then
          also="; ${j_ship[$j]} verified too"
        else
          failures=$((failures + 1)); result "$i" failed "the shipped ${j_ship[$j]} did not verify: ${v[ship_verdict]:-checker exit ${v[ship_code]}}"; continue
        fi
      fi
      if [ "$proved" = "${c_statement[$i]}" ]; then result "$i" certified "$what$also"
      elif [[ "${c_statement[$i]}" == *"*"* ]] && [[ "$(plural_of "$proved")" == $(glob_of "$(plural_of "${c_statement[$i]}")") ]]; then
        result "$i" certified "$what$also"  # every published number matches; '*' = not published
      else result "$i" refuted "certified instead$also"; fi
    fi
  done
  # The Coq-proved checker on the same file, when it is in its scope.
  if [ "$verified_on" = 1 ] && [ "$job_code" = 0 ] && [[ "$job_verdict" == VERIFIED:* ]] && [ -z "${j_cert2[$j]}" ] &&
     verified_scope_args "${j_args[$j]}" && [ -f "$job_cert" ] && [ ! -L "$job_cert" ]; then
    queue_verified "$j" "$job_cert" "$job_verdict" "${v[check_us]:-0}"
  fi
  # A certified certificate copied to certs/ (AUDIT_SHIP=1), unless it is from there.
  i=${j_members[$j]%% *}
  if [ "${AUDIT_SHIP:-0}" = 1 ] && [ "$code" = 0 ] && [ "${j_kind[$j]}" = prove ] && [[ "$verdict" == VERIFIED:* ]]; then
    local id=${c_id[$i]}
    if [ -d "$cert.units" ] && [ "$bytes" -le 33554432 ]; then
      mkdir -p "$certs" && cp "$cert" "$certs/$id.qcert" && rm -rf "$certs/$id.qcert.units" && cp -r "$cert.units" "$certs/$id.qcert.units"
    elif [ ! -d "$cert.units" ] && [ "$bytes" -le 4194304 ]; then
      mkdir -p "$certs" && cp "$cert" "$certs/$id.qcert"
    fi
  fi
  # The n = 16 reply table joins the headline work once its certificate verified.
  if [ "$cert" = "$certs/rudd-n16.qcert" ] && [ "$code" = 0 ] && [ -z "$replies_job" ]; then
    replies_job=${#j_kind[@]}
    j_kind[$replies_job]=replies; j_cert[$replies_job]=$cert; j_threads[$replies_job]=$slots; j_phase[$replies_job]=2
    j_members[$replies_job]=""; j_args[$replies_job]="replies --tsv"
    j_ship[$replies_job]=""; j_fallback[$replies_job]=""; j_cert2[$replies_job]=""
    if [ -n "${seen_check[$replies_key]:-}" ]; then j_est[$replies_job]=${seen_check[$replies_key]}
    else j_est[$replies_job]=$((${v[check_cpu]:-60000000} / threads * 2 + 10000000)); fi  # measured: 1.5-2.5 times the check
    # After the headline checks still queued, before the rest.
    local q=$qpos
    while [ $q -lt ${#queue[@]} ] && [ "${j_phase[${queue[$q]}]}" -le 2 ]; do q=$((q + 1)); done
    queue=("${queue[@]:0:q}" "$replies_job" "${queue[@]:q}")
  fi
  j_done[$j]=1
}
declare -A r_cpu_prove r_cpu_check r_threads r_stopped

# ---- the Coq-proved checker (checker-verified) ---------------------------------
# A job of its own per certificate, one slot, queued after the small claims
# still waiting (and after the checks of its kind queued before it); its
# claims are "skipped" until it has run.
declare -A j_vexpect j_vlimit
vpending=()  # verified jobs skipped for want of time (AUDIT_VERIFIED=all runs them at the end)
vjobs=1      # its --jobs: one slot while the audit's other jobs run
vbudget_us=$((vbudget * 1000000)) vcap_us=$((vcap * 1000000)) vused_us=0 vheld_us=0
queue_verified() {  # job, certificate, the checker's verdict line, the checker's wall microseconds
  local j=$1 vj=${#j_kind[@]} members="" i q c=$4
  for i in ${j_members[$1]}; do  # the claims the checker's verdict settled (not one failed for its shipped copy)
    [ -n "${r_proved[$i]}" ] && { [ "${r_status[$i]}" = certified ] || [ "${r_status[$i]}" = refuted ]; } || continue
    members+=" $i"; r_vstatus[$i]=skipped
  done
  [ -n "$members" ] || return 0
  [[ "$c" =~ ^[0-9]+$ ]] || c=0
  j_kind[$vj]=verified; j_cert[$vj]=$2; j_vexpect[$vj]=$3; j_threads[$vj]=1; j_phase[$vj]=1; j_members[$vj]=${members# }
  j_args[$vj]=checker-verified; j_ship[$vj]=""; j_fallback[$vj]=""; j_cert2[$vj]=""
  local r=$vratio
  verified_scope_args "${j_args[$1]}"
  if [ -z "$r" ]; then  # measured (docs/verified-checker.md), CPU, 2026-11-29: n = 12: 0.07 -> 0.27 s, 14: 0.71 -> 6.9 s
    if [ "$vscope_parts" = 1 ]; then  # tables of parts: bishops 11x11, 12x12: 22x; knights 7x7: 50x, kings 8x8: 46x
      if [ "$vscope_piece" = bishop ]; then r=30; else r=60; fi
    elif [ "$vscope_torus" = 1 ]; then  # a single file walks every image under n^2 translations: 12: 0.03 -> 1.4 s;
      # a manifest (the translation lemma) does not: 14: 0.6 (wall, in the audit) -> 17 s, 16: 0.76 -> 27 s, 18: 21 -> 431 s
      if [ -d "$2.units" ]; then r=40; elif [ "$vscope_n" -le 12 ]; then r=60; else r=5000; fi
    elif [ "$vscope_n" -le 10 ]; then r=5; elif [ "$vscope_n" -le 14 ]; then r=15; else r=25; fi
  fi
  j_est[$vj]=$((c * r))
  q=$qpos
  while [ $q -lt ${#queue[@]} ] && { [ "${j_phase[${queue[$q]}]}" = 1 ] || [ "${j_kind[${queue[$q]}]}" = verified ]; }; do q=$((q + 1)); done
  queue=("${queue[@]:0:q}" "$vj" "${queue[@]:q}")
}
# Its time: three times its prediction (at least 5 s), at most its cap,
# what is left of its budget (less what the checks of its kind now running
# may still take) and of the audit's.
verified_limit_us() {  # job
  local l=$((vbudget_us - vused_us - vheld_us)) a=$(($(left_us) - 500000)) p=$((j_est[$1] * 3))
  [ "$p" -lt 5000000 ] && p=5000000
  [ "$p" -lt "$l" ] && l=$p
  [ "$vcap_us" -lt "$l" ] && l=$vcap_us
  [ "$a" -lt "$l" ] && l=$a
  echo "$l"
}
run_verified() {  # job, limit in microseconds (runs in the background; writes $run_dir/job.J)
  local j=$1 out=$run_dir/job.$1 lead=${j_members[$1]%% *} t0 rc line s
  local log=$run_dir/${c_id[$lead]}.verified.log
  printf -v s '%d.%03d' $(($2 / 1000000)) $(($2 % 1000000 / 1000))
  t0=${EPOCHREALTIME/./}
  timeout --foreground --kill-after=5 "$s" "$VERIFIED" --jobs "$vjobs" "${j_cert[$j]}" >"$log" 2>&1
  rc=$?
  line=$(grep -E '^(VERIFIED|REJECTED):' "$log" | head -n 1)
  printf 'rc\t%s\nus\t%s\nline\t%s\n' "$rc" "$((${EPOCHREALTIME/./} - t0))" "$line" >"$out.tmp" && mv "$out.tmp" "$out"
  exit 0
}
start_verified() {  # job, limit in microseconds
  local j=$1 pid lead=${j_members[$1]%% *}
  j_started[$j]=${EPOCHREALTIME/./}; j_vlimit[$j]=$2; vheld_us=$((vheld_us + $2))
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$(((j_started[$j] - start_us) / 1000))" start "$j" "${c_id[$lead]}" \
    verified "$((j_est[$j] / 1000))" >>"$run_dir/schedule.tsv"
  (run_verified "$j" "$2") </dev/null &
  pid=$!
  running[$pid]=$j; busy=$((busy + 1))
}
collect_verified() {  # job
  local j=$1 f=$run_dir/job.$1 key val st i
  declare -A v=()
  if [ -f "$f" ]; then while IFS=$'\t' read -r key val; do v[$key]=$val; done <"$f"; fi
  vheld_us=$((vheld_us - j_vlimit[$j]))
  local us=${v[us]:--}
  [[ "$us" =~ ^[0-9]+$ ]] && vused_us=$((vused_us + us))
  case "${v[rc]:-x}" in
    0) if [ "${v[line]:-}" = "${j_vexpect[$j]}" ]; then st=verified; else st=other; fi ;;
    1) st=rejected ;;
    124|137) st=stopped ;;
    *) st=undecided ;;
  esac
  for i in ${j_members[$j]}; do r_vstatus[$i]=$st; r_vus[$i]=$us; done
  if [ "$st" = rejected ] || [ "$st" = other ]; then
    failures=$((failures + 1))
    echo "audit: the checker verified ${j_cert[$j]} (${j_vexpect[$j]}), the Coq-proved checker did not: ${v[line]:-exit ${v[rc]:-?}} ($VERIFIED ${j_cert[$j]}; log: logs/${c_id[${j_members[$j]%% *}]}.verified.log)" >&2
  elif [ "$st" = undecided ]; then
    echo "audit: the Coq-proved checker did not decide ${j_cert[$j]} (exit ${v[rc]:-?}): $(tail -n 1 "$run_dir/${c_id[${j_members[$j]%% *}]}.verified.log" 2>/dev/null)" >&2
  fi
  j_done[$j]=1
}

# The reply table: qcert replies with the checker library, after the claims.
replies_job="" replies_key="rudd-n16|replies --tsv" replies_us="" replies_cpu=""
replies_file=$work/replies-n16.tsv
run_replies() {
  local l=$(( $(left_us) / 1000000 - 1 )); [ $l -lt 1 ] && l=1
  local before after t0 rc
  times >"$run_dir/replies.times"
  t0=${EPOCHREALTIME/./}
  timeout --foreground --kill-after=5 $((l + 5)) $QCERT replies "$certs/rudd-n16.qcert" --tsv --jobs "$slots" --time-limit "$l" \
    >"$run_dir/replies-n16.tsv" 2>"$run_dir/replies-n16.err"
  rc=$?
  printf '%s\t' "$rc" "$((${EPOCHREALTIME/./} - t0))" >"$run_dir/replies.res.tmp"
  times >"$run_dir/replies.times2"
  local a b c d
  { read -r _ _; read -r a b; } <"$run_dir/replies.times"; { read -r _ _; read -r c d; } <"$run_dir/replies.times2"
  echo $(($(times_us "$c") + $(times_us "$d") - $(times_us "$a") - $(times_us "$b"))) >>"$run_dir/replies.res.tmp"
  mv "$run_dir/replies.res.tmp" "$run_dir/replies.res"
  exit 0
}
no_replies_time() { echo "audit: no time left for the n = 16 reply table (qcert replies $certs/rudd-n16.qcert prints it)" >&2; }
collect_replies() {
  local rc us cpu
  IFS=$'\t' read -r rc us cpu <"$run_dir/replies.res" 2>/dev/null || rc=x
  if [ "$rc" = 0 ]; then
    replies_us=$us; replies_cpu=$cpu
  else
    echo "audit: qcert replies $certs/rudd-n16.qcert exit $rc, no reply table in the report: $(tail -n 1 "$run_dir/replies-n16.err" 2>/dev/null)" >&2
    [ "$rc" = 1 ] && failures=$((failures + 1))  # the checker library rejected what the checker verified
  fi
  j_done[$replies_job]=1
}

last_progress=$start_us
progress() {
  local now=${EPOCHREALTIME/./} s
  secs s $((now - start_us))
  if [ -t 2 ]; then
    printf '\r\033[K[%d/%d claims settled, %d %s running] %s s of %s' "$done_count" "$total" "$busy" "$(plural_word "$busy" job jobs)" "$s" "$budget" >&2
  elif [ $((now - last_progress)) -ge 30000000 ]; then
    last_progress=$now
    echo "audit: $done_count of $total claims settled, $busy $(plural_word "$busy" job jobs) running, $s s of $budget s" >&2
  fi
}

# A small job (phase 1) may run for max(AUDIT_SMALL_CAP, 10 x its estimate),
# times the slowdown, before it is stopped and put after the headline checks
# with the rest: a claim whose estimate is far off holds a slot that long, no
# longer. Every other job may run to the budget's end.
start_job() {  # job
  local j=$1 pid end=$((start_us + budget_us)) deadline capped=0
  deadline=$end
  if [ "${j_phase[$j]}" = 1 ]; then
    local cap=$((small_cap * 1000000)); [ $((j_est[$j] * 10)) -gt $cap ] && cap=$((j_est[$j] * 10))
    cap=$((cap * $(slowdown_pct) / 100))
    [ $((${EPOCHREALTIME/./} + cap)) -lt "$end" ] && deadline=$((${EPOCHREALTIME/./} + cap)) && capped=1
  fi
  j_started[$j]=${EPOCHREALTIME/./}
  local lead=${j_members[$j]%% *} name=replies
  [ -n "$lead" ] && name=${c_id[$lead]}
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$(((j_started[$j] - start_us) / 1000))" start "$j" "$name" \
    "${j_phase[$j]}" "$((j_est[$j] / 1000))" >>"$run_dir/schedule.tsv"
  if [ "${j_kind[$j]}" = replies ]; then (run_replies) </dev/null & else (run_job "$j" "$deadline" "$capped") </dev/null & fi
  pid=$!
  running[$pid]=$j; busy=$((busy + j_threads[$j]))
}

qpos=0
while :; do
  # Start what can start, in queue order.
  while [ $qpos -lt ${#queue[@]} ]; do
    j=${queue[$qpos]}
    [ -n "${j_done[$j]:-}" ] && { qpos=$((qpos + 1)); continue; }
    left=$(left_us)
    [ "$left" -gt 500000 ] || break
    t=${j_threads[$j]}
    if [ "${j_kind[$j]}" = verified ]; then
      [ $((busy + 1)) -le "$slots" ] || break
      vl=$(verified_limit_us "$j")
      # Its prediction does not fit: skipped (its claims say so), never waited for.
      if [ "$vl" -lt 1000000 ] || [ "${j_est[$j]}" -gt "$vl" ]; then j_done[$j]=1; vpending+=("$j"); qpos=$((qpos + 1)); continue; fi
      start_verified "$j" "$vl"; qpos=$((qpos + 1)); continue
    fi
    if [ "${j_phase[$j]}" = 1 ]; then
      [ $((busy + t)) -le "$slots" ] || break
    else
      # A later job (after every small one has started) starts only where
      # its predicted time fits.
      [ $((busy + t)) -le "$slots" ] || break
      predicted=$(predict_us "$j")
      if [ "$predicted" -gt "$left" ]; then
        if [ -n "${j_fallback[$j]:-}" ]; then  # a proof that does not fit: its shipped certificate instead
          i=${j_members[$j]%% *}; est_check_of "$i" ec
          j_kind[$j]=shipped; j_cert[$j]=${j_fallback[$j]}; j_est[$j]=$ec; j_fallback[$j]=""
          continue
        fi
        if [ "${j_kind[$j]}" = replies ]; then
          no_replies_time; j_done[$j]=1
        elif [ "${j_kind[$j]}" = shipped ]; then headline_note "$j" "$predicted" note; not_run_job "$j" "$note"
        else not_run_job "$j" "$(over_budget_note "$j")"; fi
        qpos=$((qpos + 1)); continue
      fi
    fi
    start_job "$j"; qpos=$((qpos + 1))
  done
  progress
  [ "$busy" -eq 0 ] && break
  finished=""
  wait -n -p finished
  [ -n "$finished" ] || continue
  j=${running[$finished]:-}
  [ -z "$j" ] && continue
  unset "running[$finished]"; busy=$((busy - j_threads[$j]))
  printf '%s\tend\t%s\n' "$(((${EPOCHREALTIME/./} - start_us) / 1000))" "$j" >>"$run_dir/schedule.tsv"
  case "${j_kind[$j]}" in
    replies) collect_replies ;;
    verified) collect_verified "$j" ;;
    *) collect "$j" ;;
  esac
done
[ -t 2 ] && printf '\r\033[K' >&2
# What did not start: over budget.
for ((; qpos < ${#queue[@]}; qpos++)); do
  j=${queue[$qpos]}
  [ -n "${j_done[$j]:-}" ] && continue
  case "${j_kind[$j]}" in
    replies) no_replies_time ;;
    verified) j_done[$j]=1; vpending+=("$j") ;;  # its claims stay "skipped" (but see AUDIT_VERIFIED=all)

    shipped) [ "${j_phase[$j]}" = 2 ] && { headline_note "$j" "$(predict_us "$j")" note; not_run_job "$j" "$note"; } || not_run_job "$j" "over budget" ;;
    *) not_run_job "$j" "$(over_budget_note "$j")" ;;
  esac
done
# AUDIT_VERIFIED=all: the Coq-proved checker on what it had no time for,
# one claim at a time, without a time limit; nothing else runs then, so a
# manifest's shards take every slot (--jobs).
if [ "$vall" = all ] && [ "$verified_on" = 1 ]; then
  vjobs=$slots
  for j in "${vpending[@]}"; do
    echo "audit: the Coq-proved checker on ${j_cert[$j]} (AUDIT_VERIFIED=all; predicted $((j_est[$j] / 1000000)) s)" >&2
    j_vlimit[$j]=$((365 * 86400 * 1000000)); vheld_us=$((vheld_us + j_vlimit[$j]))
    (run_verified "$j" "${j_vlimit[$j]}") </dev/null
    collect_verified "$j"
  done
fi
spent_us=$((${EPOCHREALTIME/./} - start_us))

# The reply table, when qcert replies finished in this run; else none.
rm -f "$replies_file"
[ -n "$replies_us" ] && mv "$run_dir/replies-n16.tsv" "$replies_file"

# The results, in manifest order (format: `qcert report --help`).
results_tmp=$(temporary_for "$results") || exit 2
{
  printf '#qcert-audit-results\t3\n'
  vc=-; [ "$verified_on" = 1 ] && vc=$VERIFIED
  printf '#run\tbudget=%s\tspent=%s\tstarted=%s\tcores=%s\tjobs=%s\tslowdown=%s\tpace=%s\tquick=%s\tshipped_only=%s\tprover=%s\tchecker=%s\tcerts=%s\tverified_checker=%s\tverified_budget=%s\tverified_cap=%s\tverified_spent=%s\n' \
    "$budget" "$((spent_us / 1000))" "$started_at" "$(nproc)" "$slots" "$(slowdown_pct)" "$( [ "$pace_est" -gt 0 ] && echo $((pace_wall * 100 / pace_est)) || echo - )" "$quick" "${AUDIT_SHIPPED:-0}" "$PROVER" "$CHECKER" "$certs" \
    "$vc" "$vbudget" "$vcap" "$((vused_us / 1000))"
  for s in "${source_lines[@]}"; do printf '#source\t%s\n' "$s"; done
  printf 'source\tid\tfamily\tstatus\tdetail\tstatement\tproved\targs\testimate_ms\tprove_ms\tcheck_ms\tcheck_reused\tbytes\tcert\tbacking\tverified\tverified_ms\n'
  for ((i = 0; i < total; i++)); do
    ms e "${r_estimate[$i]:-}"; ms p "${r_prove[$i]}"; ms c "${r_check[$i]}"; ms vms "${r_vus[$i]}"
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "${c_source[$i]}" "${c_id[$i]}" "${c_family[$i]}" \
      "${r_status[$i]}" "${r_detail[$i]}" "${c_statement[$i]}" "${r_proved[$i]}" "${c_args[$i]}" \
      "$e" "$p" "$c" "${r_reused[$i]}" "${r_bytes[$i]}" "${r_cert[$i]}" "${c_backing[$i]}" "${r_vstatus[$i]}" "$vms"
  done
} >"$results_tmp" && chmod a+r "$results_tmp" && mv "$results_tmp" "$results"

# What this machine took, for the next audit's estimates: CPU time per
# thread, a quiet machine's wall time whatever the load was (earlier entries
# of claims not measured now are kept). Work stopped at the end of the budget
# is recorded as at least the time it ran.
times_tmp=$(temporary_for "$times") || exit 2
{
  printf '%s\n#id\targs\tprove_us\tcheck_us\n' "$times_magic"
  declare -A now_seen
  per_thread() { if [[ "$1" =~ ^[0-9]+$ ]]; then echo $(($1 / $2)); else echo -; fi; }
  for ((i = 0; i < total; i++)); do
    [ -n "${r_threads[$i]:-}" ] || continue
    [ -z "${r_reused[$i]}" ] || continue
    key="${c_id[$i]}|${c_args[$i]}"
    p=$(per_thread "${r_cpu_prove[$i]}" "${r_threads[$i]}") c=$(per_thread "${r_cpu_check[$i]}" "${r_threads[$i]}")
    # Shipped: the check only (the proof keeps its earlier figure).
    [[ "${r_detail[$i]}" == shipped* || "${r_detail[$i]}" == over\ budget:\ shipped* ]] && p=${seen_prove[$key]:--}
    # Stopped work: at least what it ran, never less than the estimate it had.
    if [ "${r_stopped[$i]:-}" = prove ]; then est_prove_of "$i" ep; [ "$p" != - ] && [ "$p" -lt "$ep" ] && p=$ep; c=${seen_check[$key]:--}; fi
    if [ "${r_stopped[$i]:-}" = check ]; then est_check_of "$i" ec; [ "$c" != - ] && [ "$c" -lt "$ec" ] && c=$ec; fi
    [ "$p$c" = -- ] && continue
    printf '%s\t%s\t%s\t%s\n' "${c_id[$i]}" "${c_args[$i]}" "$p" "$c"; now_seen[$key]=1
  done
  if [ -n "$replies_cpu" ]; then  # the n = 16 reply table (qcert replies, above)
    printf '%s\t%s\t-\t%s\n' "${replies_key%%|*}" "${replies_key#*|}" "$((replies_cpu / slots))"; now_seen[$replies_key]=1
  fi
  for key in "${!seen_prove[@]}" "${!seen_check[@]}"; do
    [ -n "${now_seen[$key]:-}" ] && continue; now_seen[$key]=1
    printf '%s\t%s\t%s\t%s\n' "${key%%|*}" "${key#*|}" "${seen_prove[$key]:--}" "${seen_check[$key]:--}"
  done
} >"$times_tmp" && chmod a+r "$times_tmp" && mv "$times_tmp" "$times"

# This run's logs replace the last run's (the job files were for this run only).
rm -f "$run_dir"/job.* "$run_dir"/*.times "$run_dir"/*.times2 "$run_dir"/replies.res
rm -rf "$work/logs" && mv "$run_dir" "$work/logs"

replies_option=()
[ -f "$replies_file" ] && replies_option=(--replies "$replies_file")
if ! $QCERT report --results "$results" --html "$work/report.html" "${replies_option[@]}"; then
  echo "audit: qcert report could not print the table; the results are in $results" >&2
  [ "$failures" -eq 0 ] && exit 2
fi
[ "$failures" -eq 0 ] || exit 1
