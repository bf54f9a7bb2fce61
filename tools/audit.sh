#!/usr/bin/env bash
# make audit: for every claim in proofs/*.claims, prove it and check the
# certificate with the independent checker, within a time budget; print one
# table. A published claim the certificates contradict is "refuted", shown,
# never hidden. Exit status 1 if any certificate failed to verify.
#
#   AUDIT_BUDGET=seconds   time budget for proving and checking (default 300);
#                          a claim whose prove estimate does not fit is checked
#                          from a shipped certificate while budget is left,
#                          else reported "not run: over budget"
#   AUDIT_SHIPPED=1        check shipped certificates instead of proving
#   AUDIT_TT_MB=MiB        prover transposition table (default: the prover's
#                          own, sized by the board, and 4096 for claims
#                          estimated at a minute or more; every table page a
#                          proof touches costs a fault and zeroing)
#   AUDIT_MANIFESTS="proofs/a.claims ..."  only these manifests (default: all)
#   AUDIT_SHIP=1           copy every certified certificate under 4 MiB (a
#                          sharded one with its units: under 32 MiB) to
#                          certs/<id>.qcert[.units] (how certs/ is made)
set -uo pipefail
cd "$(dirname "$0")/.."
PROVER=${PROVER:-build/bin/prover}
CHECKER=${CHECKER:-build/bin/checker}
budget=${AUDIT_BUDGET:-300}
tt=${AUDIT_TT_MB:-}
work=out/audit
mkdir -p "$work"
now() { date +%s.%N; }
# A statement with '*' for unpublished numbers as a bash pattern: every other
# character literal.
glob_of() { local s=$1 out="" i ch; for ((i = 0; i < ${#s}; i++)); do ch=${s:i:1}; if [ "$ch" = "*" ]; then out+="*"; else out+="\\$ch"; fi; done; printf '%s' "$out"; }
# Statements say "1 solution" but "2 solutions"; an unpublished '*' count does
# not say which, so '*' statements are compared with every count in the plural.
plural_of() { sed -E 's/\b1 (solution|placement|node|end position|distinct play|queen)\b/1 \1s/g; s/at least 1 non-attacking queen is needed/at least 1 non-attacking queens are needed/' <<<"$1"; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }

declare -A made_cert made_time   # prover arguments -> certificate, prove time (reuse within a run)
declare -A shipped               # prover arguments -> a shipped certificate for them
declare -A checked_verdict checked_code checked_time  # certificate -> checker result (check each file once)
for manifest in ${AUDIT_MANIFESTS:-proofs/*.claims}; do
  while IFS='|' read -r id _ args _; do
    id=$(echo $id); args=$(echo $args)
    [ -f "certs/$id.qcert" ] && shipped[$args]="certs/$id.qcert"
  done < <(grep -v '^[[:space:]]*\(#\|$\)' "$manifest")
done
spent=0
failures=0

# Claims run cheapest first (estimates up to 10 s in manifest order, then the
# others by estimate), so the budget goes to as many claims as it can; the
# table is printed in manifest order at the end.
claim_source=() claim_line=()
for manifest in ${AUDIT_MANIFESTS:-proofs/*.claims}; do
  while IFS= read -r line; do
    [[ "$line" =~ ^[[:space:]]*(#|$) ]] && continue
    claim_source+=("$(basename "$manifest" .claims)"); claim_line+=("$line")
  done <"$manifest"
done
order=$(for i in "${!claim_line[@]}"; do
  e=$(echo "${claim_line[$i]}" | cut -d'|' -f4 | tr -d ' ')
  if [ "${e:-0}" -le 10 ] 2>/dev/null; then echo "0 0 $i"; else echo "1 ${e:-0} $i"; fi
done | sort -k1,1n -k2,2n -k3,3n | awk '{ print $3 }')
declare -A rows row_notes
row() { rows[$idx]=$(printf '%-22s %-70s %-24s %9s %11s %8s' "$@"); echo "  [$((done_count + 1))/${#claim_line[@]}] $id: $3" >&2; }
note() { row_notes[$idx]+="  - $1"$'\n'; }
done_count=0
for idx in $order; do
  source=${claim_source[$idx]} line=${claim_line[$idx]}
  {
    IFS='|' read -r id statement args est backing <<<"$line"
    id=$(echo $id); statement=$(echo "$statement" | sed 's/^ *//; s/ *$//'); args=$(echo $args)
    est=$(echo $est); backing=$(echo "$backing" | sed 's/^ *//; s/ *$//')
    short=$statement; [ ${#short} -gt 70 ] && short="${short:0:67}..."
    # Counts: rules every true count obeys, checked on the published numbers
    # without counting ('*' = not published); an impossible entry is refuted
    # here, whatever its size.
    if [[ "$args" == count* ]]; then
      rules=$($PROVER table-check "$statement" 2>&1)
      if [ $? -eq 2 ]; then  # a manifest line the rules cannot read is the manifest's fault
        row "$source" "$short" "FAILED: unparsable" "-" "-" "-"
        note "$id: $rules"; failures=$((failures + 1)); done_count=$((done_count + 1)); continue
      fi
      if [[ "$rules" == IMPOSSIBLE:* ]]; then
        row "$source" "$short" "REFUTED: impossible" "-" "-" "-"
        note "$id: published \"$statement\" is impossible: ${rules#IMPOSSIBLE: }"
        done_count=$((done_count + 1)); continue
      fi
    fi
    if [ "$args" = "-" ]; then
      row "$source" "$short" "${backing%%:*}" "-" "-" "-"
      note "$id: ${backing}"
      done_count=$((done_count + 1)); continue
    fi
    cert="" prove_s="-"
    if [ -n "${made_cert[$args]:-}" ]; then
      cert=${made_cert[$args]}; prove_s=${made_time[$args]}
    elif [ "${AUDIT_SHIPPED:-0}" != 1 ] && awk -v s="$spent" -v e="$est" -v b="$budget" 'BEGIN { exit !(s + e <= b) }'; then
      cert="$work/$id.qcert"
      rm -rf "$cert" "$cert.units"  # a fresh proof, not a resumed one
      t0=$(now)
      table=()
      if [[ "$args" == count* ]]; then table=()  # no transposition table in counting
      elif [ -n "$tt" ]; then table=(--tt-mb "$tt"); elif [ "$est" -ge 60 ]; then table=(--tt-mb 4096); fi
      if ! $PROVER $args --out "$cert" "${table[@]}" -q >"$work/$id.prove.log" 2>&1; then
        row "$source" "$short" "FAILED: prover error" "-" "-" "-"
        note "$id: prover failed: $(tail -n 1 "$work/$id.prove.log")"; failures=$((failures + 1)); done_count=$((done_count + 1)); continue
      fi
      prove_s=$(elapsed "$t0" "$(now)")
      spent=$(awk -v s="$spent" -v p="$prove_s" 'BEGIN { print s + p }')
      made_cert[$args]=$cert; made_time[$args]=$prove_s
    elif [ -n "${shipped[$args]:-}" ] && { [ -n "${checked_code[${shipped[$args]}]:-}" ] ||
                                          awk -v s="$spent" -v b="$budget" 'BEGIN { exit !(s < b) }'; }; then
      cert=${shipped[$args]}; prove_s="shipped"
    else
      row "$source" "$short" "not run: over budget" "~${est}" "-" "-"
      note "$id: not run (estimated ${est} s > budget left); run: $PROVER $args --out $id.qcert && $CHECKER $id.qcert"
      done_count=$((done_count + 1)); continue
    fi
    if [ -n "${checked_code[$cert]:-}" ]; then
      verdict=${checked_verdict[$cert]}; code=${checked_code[$cert]}; check_s="(${checked_time[$cert]})"
    else
      t0=$(now)
      # The checker gets what is left of the budget (at least a minute): past
      # it, it stops with NOT CHECKED (exit 2), which is no verdict.
      left=$(awk -v s="$spent" -v b="$budget" 'BEGIN { l = int(b - s + 0.999); print (l < 60 ? 60 : l) }')
      verdict=$($CHECKER --jobs "$(nproc)" --time-limit "$left" "$cert" 2>"$work/$id.check.err" |
                grep -E '^(VERIFIED|REJECTED|NOT CHECKED):' | head -n 1)
      code=${PIPESTATUS[0]}
      check_s=$(elapsed "$t0" "$(now)")
      spent=$(awk -v s="$spent" -v c="$check_s" 'BEGIN { print s + c }')
      checked_verdict[$cert]=$verdict; checked_code[$cert]=$code; checked_time[$cert]=$check_s
    fi
    bytes=$(du -sb "$cert" ${cert}.units 2>/dev/null | awk '{ s += $1 } END { print s }')
    proved=$(echo "$verdict" | sed -E 's/^VERIFIED: //; s/ \(queens game\)$//')
    if [ "${AUDIT_SHIP:-0}" = 1 ] && [ "$code" -eq 0 ] && [[ "$cert" != certs/* ]]; then  # not shipped already
      if [ -d "$cert.units" ] && [ "$bytes" -le 33554432 ]; then
        mkdir -p certs && cp "$cert" "certs/$id.qcert" && rm -rf "certs/$id.qcert.units" &&
          cp -r "$cert.units" "certs/$id.qcert.units"
      elif [ ! -d "$cert.units" ] && [ "$bytes" -le 4194304 ]; then
        mkdir -p certs && cp "$cert" "certs/$id.qcert"
      fi
    fi
    if [ "$code" -eq 2 ] && [[ "$verdict" == "NOT CHECKED:"* ]]; then
      status="not run: over budget"  # out of time (or memory): no verdict either way
      note "$id: ${verdict}; run: $CHECKER $cert"
    elif [ "$code" -ne 0 ] || [[ "$verdict" != VERIFIED:* ]]; then
      status="FAILED: not verified"; failures=$((failures + 1))
      note "$id: checker exit $code: ${verdict:-$(tail -n 1 "$work/$id.check.err")}"
    elif [ "$proved" = "$statement" ]; then
      status="certified"
    elif [[ "$statement" == *"*"* ]] && [[ "$(plural_of "$proved")" == $(glob_of "$(plural_of "$statement")") ]]; then
      status="certified"  # every published number matches; '*' = not published
      note "$id: certified: $proved"
    else
      status="REFUTED"
      note "$id: published \"$statement\"; certified instead: \"$proved\""
    fi
    row "$source" "$short" "$status" "$prove_s" "$bytes" "$check_s"
  }
  done_count=$((done_count + 1))
done
printf '%-22s %-70s %-24s %9s %11s %8s\n' "source" "claim (as published)" "status" "prove s" "cert bytes" "check s"
printf '%s\n' "$(printf '%.0s-' {1..149})"
for idx in "${!claim_line[@]}"; do echo "${rows[$idx]}"; done
echo
echo "budget ${budget} s (proving and checking), spent ${spent} s; certificates in $work/ (shipped ones in certs/);"
echo "a check time in parentheses is that of the same file, checked once for several claims"
for idx in "${!claim_line[@]}"; do printf '%s' "${row_notes[$idx]:-}"; done
[ "$failures" -eq 0 ] || { echo "$failures claim(s) FAILED"; exit 1; }
