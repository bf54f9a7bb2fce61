#!/usr/bin/env bash
# make audit: for every claim in proofs/*.claims, prove it and check the
# certificate with the independent checker, within a time budget; write the
# results to out/audit/results.tsv, print them as a table (`qcert report`,
# 100 columns) and write out/audit/report.html. A published claim the
# certificates contradict is "refuted", shown, never hidden. Exit status 1
# if any certificate failed to verify (2 if the table could not be printed).
#
#   AUDIT_BUDGET=seconds   wall-clock budget for the whole run (default 780):
#                          proving, checking and everything around them. A
#                          claim starts only if its estimate (below) fits in
#                          what is left; a proof or check still running when
#                          the budget ends is stopped ("not run: over budget"),
#                          so the run ends within the budget plus a few seconds
#                          for the table. A claim whose proof does not fit is
#                          checked from a shipped certificate if that fits.
#                          Claims estimated at over a minute that have a
#                          shipped certificate (n = 16, G(15), G(16), n = 18) are
#                          checked from it, first, so that the headline
#                          results are in every run; the small claims fill
#                          the rest of the budget, cheapest first.
#   AUDIT_SHIPPED=1        check shipped certificates instead of proving
#   AUDIT_PROVE_ALL=1      prove claims over a minute too, where they fit
#   AUDIT_TT_MB=MiB        prover transposition table (default: the prover's
#                          own, sized by the board, and 4096 for claims
#                          estimated at a minute or more; every table page a
#                          proof touches costs a fault and zeroing)
#   AUDIT_MANIFESTS="proofs/a.claims ..."  only these manifests (default: all)
#   AUDIT_OUT=dir          where certificates, logs and results go (out/audit)
#   (The n = 16 reply table: when rudd-n16 is certified from its shipped
#   certificate, qcert replies verifies it again after the claims and writes
#   the replies to out/audit/replies-n16.tsv, drawn in the report; its time
#   is kept from the budget when rudd-n16 is certified.)
#   AUDIT_SHIP=1           copy every certified certificate under 4 MiB (a
#                          sharded one with its units: under 32 MiB) to
#                          certs/<id>.qcert[.units] (how certs/ is made)
#
# Estimates: the seconds this machine took for the same claim (same prover
# arguments) in an earlier audit, kept in out/audit/times.tsv, plus a quarter;
# else the manifest's prove estimate for the proof and, for the check, the
# "check about N s" its backing column states (n = 18, whose proof takes hours
# and whose check minutes) or 35% of the proof estimate, at least 0.2 s
# (measured check/prove ratios are 0.05-0.35 for proofs of a second or more;
# count estimates already include the recount).
set -uo pipefail
cd "$(dirname "$0")/.."
PROVER=${PROVER:-build/bin/prover}
CHECKER=${CHECKER:-build/bin/checker}
QCERT=${QCERT:-build/bin/qcert}
budget=${AUDIT_BUDGET:-780}
tt=${AUDIT_TT_MB:-}
work=${AUDIT_OUT:-out/audit}
mkdir -p "$work"
results=$work/results.tsv
times=$work/times.tsv
manifests=${AUDIT_MANIFESTS:-proofs/*.claims}
start_us=${EPOCHREALTIME/./}
# Work stops 3 s before the budget's end: writing the results and the table.
budget_us=$((budget * 1000000 - 3000000))
started_at=$(date -u +%Y-%m-%dT%H:%M:%SZ)

left_us() { echo $((budget_us - (${EPOCHREALTIME/./} - start_us))); }
# Microseconds as seconds with two decimals, into variable $1.
secs() { printf -v "$1" '%d.%02d' $(($2 / 1000000)) $(($2 % 1000000 / 10000)); }
# Microseconds as whole milliseconds ('-' for none), into variable $1.
ms() { if [[ "$2" =~ ^[0-9]+$ ]]; then printf -v "$1" '%d' $(($2 / 1000)); else printf -v "$1" '-'; fi; }
trim() { local s=$2; s=${s#"${s%%[![:space:]]*}"}; s=${s%"${s##*[![:space:]]}"}; printf -v "$1" '%s' "$s"; }
one_line() { local s=${2//$'\t'/ }; printf -v "$1" '%s' "${s//$'\n'/ }"; }
# A statement with '*' for unpublished numbers as a bash pattern: every other
# character literal.
glob_of() { local s=$1 out="" i ch; for ((i = 0; i < ${#s}; i++)); do ch=${s:i:1}; if [ "$ch" = "*" ]; then out+="*"; else out+="\\$ch"; fi; done; printf '%s' "$out"; }
# Statements say "1 solution" but "2 solutions"; an unpublished '*' count does
# not say which, so '*' statements are compared with every count in the plural.
plural_of() { sed -E 's/\b1 (solution|placement|node|end position|distinct play|queen)\b/1 \1s/g; s/at least 1 non-attacking queen is needed/at least 1 non-attacking queens are needed/' <<<"$1"; }

# Times measured by earlier audits: id|args -> prove and check microseconds.
declare -A seen_prove seen_check
if [ -f "$times" ]; then
  while IFS=$'\t' read -r t_id t_args t_prove t_check; do
    [ -n "$t_prove" ] && [ "$t_prove" != - ] && seen_prove["$t_id|$t_args"]=$t_prove
    [ -n "$t_check" ] && [ "$t_check" != - ] && seen_check["$t_id|$t_args"]=$t_check
  done < <(grep -v '^#' "$times")
fi

declare -A made_cert made_time made_by  # prover arguments -> certificate, prove time, claim id (reuse within a run)
declare -A shipped               # prover arguments -> a shipped certificate for them
declare -A checked_verdict checked_code checked_time  # certificate -> checker result (check each file once)
claim_source=() claim_line=() source_lines=()
for manifest in $manifests; do
  source=$(basename "$manifest" .claims)
  # The manifest's first comment paragraph describes the source.
  about=$(awk '/^#/ { sub(/^# ?/, ""); printf "%s ", $0; next } { exit }' "$manifest" | sed 's/ *$//')
  about=$(sed -E 's/ *\([^)]*\.\.\/shared[^)]*\)//g; s/([A-Za-z0-9")]{3})\. .*/\1/' <<<"$about")
  one_line about "$about"
  source_lines+=("$source"$'\t'"$manifest"$'\t'"$about")
  while IFS= read -r line; do
    [[ "$line" =~ ^[[:space:]]*(#|$) ]] && continue
    claim_source+=("$source"); claim_line+=("$line")
    IFS='|' read -r id _ args _ <<<"$line"
    trim id "$id"; read -ra a <<<"$args"; args="${a[*]}"
    [ -f "certs/$id.qcert" ] && shipped[$args]="certs/$id.qcert"
  done <"$manifest"
done
total=${#claim_line[@]}
failures=0

# Claims over a minute with a shipped certificate first (checked from it),
# then the rest cheapest first (estimates up to 10 s in manifest order, then
# the others by estimate), so the budget goes to the headline results and
# then to as many claims as it can; the table lists them in manifest order.
from_shipped() {  # estimate args: true when the claim is checked from its shipped certificate
  [ "${AUDIT_PROVE_ALL:-0}" != 1 ] && [ "${1:-0}" -gt 60 ] 2>/dev/null && [ -n "${shipped[$2]:-}" ]
}
order=$(for i in "${!claim_line[@]}"; do
  IFS='|' read -r _ _ a e b <<<"${claim_line[$i]}"; trim e "$e"; read -ra aa <<<"$a"; a="${aa[*]}"
  # "checked last": a second manifest over shards another claim checks first
  # (n = 18 after i9) gets only the budget the small claims leave.
  if [[ "$b" == *"checked last"* ]]; then echo "3 0 $i"
  elif from_shipped "$e" "$a"; then echo "0 ${e:-0} $i"
  elif [ "${e:-0}" -le 10 ] 2>/dev/null; then echo "1 0 $i"; else echo "2 ${e:-0} $i"; fi
done | sort -k1,1n -k2,2n -k3,3n | awk '{ print $3 }')

# One result per claim: status (certified, refuted, lemma, not-run, failed),
# detail (how or why), the certified statement, times in microseconds.
declare -A r_status r_detail r_proved r_prove r_check r_reused r_bytes r_cert r_estimate r_stopped_prove r_stopped_check
result() {  # status detail
  r_status[$idx]=$1; one_line "r_detail[$idx]" "$2"
  done_count=$((done_count + 1))
  if [ -t 2 ]; then
    local s; secs s $((budget_us - $(left_us)))
    printf '\r\033[K[%d/%d] %s: %s (%s s of %s)' "$done_count" "$total" "$id" "$1" "$s" "$budget" >&2
  fi
}
done_count=0
replies_idx="" replies_est=0 replies_measured="" replies_key="rudd-n16|replies --tsv"
for idx in $order; do
  line=${claim_line[$idx]}
  IFS='|' read -r id statement args est backing <<<"$line"
  trim id "$id"; trim statement "$statement"; read -ra a <<<"$args"; args="${a[*]}"
  trim est "$est"; trim backing "$backing"
  [[ "$est" =~ ^[0-9]+$ ]] || est=0
  r_proved[$idx]="" r_prove[$idx]="-" r_check[$idx]="-" r_reused[$idx]="" r_bytes[$idx]="-" r_cert[$idx]=""
  # Counts: rules every true count obeys, checked on the published numbers
  # without counting ('*' = not published); an impossible entry is refuted
  # here, whatever its size.
  if [[ "$args" == count* ]]; then
    rules=$($PROVER table-check "$statement" 2>&1)
    rc=$?
    if [ $rc -eq 2 ]; then  # a manifest line the rules cannot read is the manifest's fault
      failures=$((failures + 1)); result failed "table-check cannot read the statement: $rules"; continue
    fi
    if [[ "$rules" == IMPOSSIBLE:* ]]; then
      result refuted "impossible: ${rules#IMPOSSIBLE: }"; continue
    fi
  fi
  if [ "$args" = "-" ]; then
    case "$backing" in
      lemma*) result lemma "${backing#lemma: }" ;;
      *) result not-run "${backing#not run: }" ;;
    esac
    continue
  fi
  # Estimates (microseconds): an earlier audit's measurement, else the manifest's.
  key="$id|$args"
  if [ -n "${seen_prove[$key]:-}" ]; then est_prove=$((seen_prove[$key] * 5 / 4)); else est_prove=$((est * 1000000)); fi
  if [ -n "${seen_check[$key]:-}" ]; then est_check=$((seen_check[$key] * 5 / 4))
  elif [[ "$args" == count* ]]; then est_check=200000
  elif [[ "$backing" =~ check\ about\ ([0-9]+)\ s ]]; then est_check=$((BASH_REMATCH[1] * 1000000))  # measured, in the manifest
  else est_check=$((est * 350000)); [ $est_check -lt 200000 ] && est_check=200000; fi
  r_estimate[$idx]=$((est_prove + est_check))
  cert="" how=""
  if [ -n "${made_cert[$args]:-}" ]; then
    cert=${made_cert[$args]}; r_prove[$idx]=${made_time[$args]}; how="proved for ${made_by[$args]}"
  elif [ "${AUDIT_SHIPPED:-0}" != 1 ] && ! from_shipped "$est" "$args" && [ $((est_prove + est_check)) -le "$(left_us)" ]; then
    cert="$work/$id.qcert"
    rm -rf "$cert" "$cert.units"  # a fresh proof, not a resumed one
    table=()
    if [[ "$args" == count* ]]; then table=()  # no transposition table in counting
    elif [ -n "$tt" ]; then table=(--tt-mb "$tt"); elif [ "$est" -ge 60 ]; then table=(--tt-mb 4096); fi
    t0=${EPOCHREALTIME/./}
    # The prover gets what is left of the budget; stopped (SIGTERM, exit 3
    # keeping finished units), it decides nothing.
    limit=$(( $(left_us) / 1000000 )); [ $limit -lt 1 ] && limit=1
    timeout --kill-after=5 "$limit" $PROVER $args --out "$cert" "${table[@]}" -q >"$work/$id.prove.log" 2>&1
    rc=$?
    r_prove[$idx]=$((${EPOCHREALTIME/./} - t0))
    if [ $rc -eq 124 ] || [ $rc -eq 137 ] || { [ $rc -eq 3 ] && [ "$(left_us)" -le 0 ]; }; then
      secs s "${r_prove[$idx]}"; r_stopped_prove[$idx]=1
      result not-run "over budget: the proof was stopped after $s s when the budget ran out"; continue
    elif [ $rc -ne 0 ]; then
      failures=$((failures + 1)); result failed "prover exit $rc: $(tail -n 1 "$work/$id.prove.log")"; continue
    fi
    made_cert[$args]=$cert; made_time[$args]=${r_prove[$idx]}; made_by[$args]=$id; how=proved
  elif [ -n "${shipped[$args]:-}" ] && { [ -n "${checked_code[${shipped[$args]}]:-}" ] || [ "$est_check" -le "$(left_us)" ]; }; then
    cert=${shipped[$args]}; how=shipped
  else
    if [ "${AUDIT_SHIPPED:-0}" = 1 ]; then result not-run "no shipped certificate (AUDIT_SHIPPED=1)"
    else result not-run "over budget"; fi
    continue
  fi
  if [ -n "${checked_code[$cert]:-}" ]; then
    verdict=${checked_verdict[$cert]}; code=${checked_code[$cert]}; r_check[$idx]=${checked_time[$cert]}; r_reused[$idx]=1
  elif [ "$est_check" -gt "$(left_us)" ]; then
    verdict="NOT CHECKED: the check (estimated $((est_check / 1000000)) s) does not fit in what is left of the budget"; code=2
  else
    # The checker gets what is left of the budget, less a second for its
    # start and exit: past it, it stops with NOT CHECKED (exit 2), no verdict.
    limit=$(( $(left_us) / 1000000 - 1 )); [ $limit -lt 1 ] && limit=1
    t0=${EPOCHREALTIME/./}
    verdict=$($CHECKER --jobs "$(nproc)" --time-limit "$limit" "$cert" 2>"$work/$id.check.err" |
              grep -E '^(VERIFIED|REJECTED|NOT CHECKED):' | head -n 1)
    code=${PIPESTATUS[0]}
    r_check[$idx]=$((${EPOCHREALTIME/./} - t0))
    [ "$code" -eq 2 ] && [[ "$verdict" == "NOT CHECKED:"* ]] && r_stopped_check[$idx]=1
    checked_verdict[$cert]=$verdict; checked_code[$cert]=$code; checked_time[$cert]=${r_check[$idx]}
  fi
  r_cert[$idx]=$cert
  r_bytes[$idx]=$(du -sb "$cert" ${cert}.units 2>/dev/null | awk '{ s += $1 } END { print s + 0 }')
  proved=${verdict#VERIFIED: }; proved=${proved% (queens game)}
  if [ "${AUDIT_SHIP:-0}" = 1 ] && [ "$code" -eq 0 ] && [[ "$cert" != certs/* ]]; then  # not shipped already
    if [ -d "$cert.units" ] && [ "${r_bytes[$idx]}" -le 33554432 ]; then
      mkdir -p certs && cp "$cert" "certs/$id.qcert" && rm -rf "certs/$id.qcert.units" &&
        cp -r "$cert.units" "certs/$id.qcert.units"
    elif [ ! -d "$cert.units" ] && [ "${r_bytes[$idx]}" -le 4194304 ]; then
      mkdir -p certs && cp "$cert" "certs/$id.qcert"
    fi
  fi
  if [ "$code" -eq 2 ] && [[ "$verdict" == "NOT CHECKED:"* ]]; then
    result not-run "over budget: ${how}, not checked: ${verdict#NOT CHECKED: }"  # no verdict either way
  elif [ "$code" -ne 0 ] || [[ "$verdict" != VERIFIED:* ]]; then
    failures=$((failures + 1))
    result failed "checker exit $code: ${verdict:-$(tail -n 1 "$work/$id.check.err")}"
  elif [ "$proved" = "$statement" ]; then
    r_proved[$idx]=$proved; result certified "$how"
  elif [[ "$statement" == *"*"* ]] && [[ "$(plural_of "$proved")" == $(glob_of "$(plural_of "$statement")") ]]; then
    r_proved[$idx]=$proved; result certified "$how"  # every published number matches; '*' = not published
  else
    r_proved[$idx]=$proved; result refuted "certified instead"
  fi
  # The n = 16 reply table (after the claims) verifies this certificate
  # again: its time is kept from the budget now, before the small claims.
  if [ "$id" = rudd-n16 ] && [ "${r_status[$idx]}" = certified ] && [ "$cert" = certs/rudd-n16.qcert ] && [ -z "$replies_idx" ]; then
    replies_idx=$idx
    if [ -n "${seen_check[$replies_key]:-}" ]; then replies_est=$((seen_check[$replies_key] * 5 / 4))
    else replies_est=$((${checked_time[$cert]:-60000000} * 2 + 10000000)); fi  # measured: 1.5-2.5 times the check (it verifies the whole certificate again)
    budget_us=$((budget_us - replies_est))
  fi
done
[ -t 2 ] && printf '\r\033[K' >&2

# The n = 16 round-1 reply table, for the HTML report: when rudd-n16 was
# certified from its shipped certificate in this run, qcert replies verifies
# it again with the checker library and writes the winner's reply to every
# first move (qcert replies --help: --tsv), within what is left of the budget
# (the time kept for it above). Without the file the report says where the
# table comes from.
replies_file=$work/replies-n16.tsv
rm -f "$replies_file"
if [ -n "$replies_idx" ]; then
  budget_us=$((budget_us + replies_est))
  limit=$(( $(left_us) / 1000000 - 1 ))
  if [ $limit -lt 1 ]; then
    echo "audit: no time left for the n = 16 reply table (qcert replies certs/rudd-n16.qcert prints it)" >&2
  else
    t0=${EPOCHREALTIME/./}
    timeout --kill-after=5 $((limit + 5)) $QCERT replies certs/rudd-n16.qcert --tsv --jobs "$(nproc)" --time-limit "$limit" \
      >"$replies_file.tmp" 2>"$work/replies-n16.err"
    rc=$?
    replies_us=$((${EPOCHREALTIME/./} - t0))
    if [ $rc -eq 0 ]; then
      mv "$replies_file.tmp" "$replies_file"
      seen_check[$replies_key]=$replies_us; replies_measured=1
    else
      rm -f "$replies_file.tmp"
      echo "audit: qcert replies certs/rudd-n16.qcert exit $rc, no reply table in the report: $(tail -n 1 "$work/replies-n16.err")" >&2
      [ $rc -eq 1 ] && failures=$((failures + 1))  # the checker library rejected what the checker verified
      [ $rc -eq 2 ] && seen_check[$replies_key]=$((replies_us * 2)) && replies_measured=1  # stopped: twice the time next run
    fi
  fi
fi
spent_us=$((${EPOCHREALTIME/./} - start_us))

# The results, in manifest order (format: `qcert report --help`).
{
  printf '#qcert-audit-results\t1\n'
  printf '#run\tbudget=%s\tspent=%s\tstarted=%s\tcores=%s\tshipped_only=%s\tprover=%s\tchecker=%s\n' \
    "$budget" "$((spent_us / 1000))" "$started_at" "$(nproc)" "${AUDIT_SHIPPED:-0}" "$PROVER" "$CHECKER"
  for s in "${source_lines[@]}"; do printf '#source\t%s\n' "$s"; done
  printf 'source\tid\tstatus\tdetail\tstatement\tproved\targs\testimate_ms\tprove_ms\tcheck_ms\tcheck_reused\tbytes\tcert\tbacking\n'
  for idx in "${!claim_line[@]}"; do
    IFS='|' read -r id statement args est backing <<<"${claim_line[$idx]}"
    trim id "$id"; trim statement "$statement"; read -ra a <<<"$args"; args="${a[*]}"; trim backing "$backing"
    ms e "${r_estimate[$idx]:-}"; ms p "${r_prove[$idx]}"; ms c "${r_check[$idx]}"
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "${claim_source[$idx]}" "$id" \
      "${r_status[$idx]}" "${r_detail[$idx]}" "$statement" "${r_proved[$idx]}" "$args" \
      "$e" "$p" "$c" "${r_reused[$idx]}" "${r_bytes[$idx]}" "${r_cert[$idx]}" "$backing"
  done
} >"$results"

# What this machine took, for the next audit's estimates (earlier entries of
# claims not measured now are kept). Work stopped at the end of the budget
# counts twice the time it ran.
{
  printf '#id\targs\tprove_us\tcheck_us\n'
  declare -A now_seen
  for idx in "${!claim_line[@]}"; do
    IFS='|' read -r id _ args _ <<<"${claim_line[$idx]}"; trim id "$id"; read -ra a <<<"$args"; args="${a[*]}"
    p=- c=-
    [[ "${r_detail[$idx]}" == proved || "${r_detail[$idx]}" == "over budget: proved,"* ]] && p=${r_prove[$idx]}
    [ -z "${r_reused[$idx]}" ] && c=${r_check[$idx]}
    case "${r_status[$idx]}" in certified|refuted) ;; *) [ -z "${r_stopped_check[$idx]:-}" ] && c=- ;; esac
    [ -n "${r_stopped_prove[$idx]:-}" ] && p=$((r_prove[$idx] * 2))
    [ -n "${r_stopped_check[$idx]:-}" ] && c=$((r_check[$idx] * 2))
    [ "$p$c" = -- ] && continue
    printf '%s\t%s\t%s\t%s\n' "$id" "$args" "$p" "$c"; now_seen["$id|$args"]=1
  done
  if [ -n "$replies_measured" ]; then  # the n = 16 reply table (qcert replies, above)
    printf '%s\t%s\t-\t%s\n' "${replies_key%%|*}" "${replies_key#*|}" "${seen_check[$replies_key]}"; now_seen[$replies_key]=1
  fi
  for key in "${!seen_prove[@]}" "${!seen_check[@]}"; do
    [ -n "${now_seen[$key]:-}" ] && continue; now_seen[$key]=1
    printf '%s\t%s\t%s\t%s\n' "${key%%|*}" "${key#*|}" "${seen_prove[$key]:--}" "${seen_check[$key]:--}"
  done
} >"$times.new" && mv "$times.new" "$times"

replies_option=()
[ -f "$replies_file" ] && replies_option=(--replies "$replies_file")
if ! $QCERT report --results "$results" --html "$work/report.html" "${replies_option[@]}"; then
  echo "audit: qcert report could not print the table; the results are in $results" >&2
  [ "$failures" -eq 0 ] && exit 2
fi
[ "$failures" -eq 0 ] || exit 1
