#!/usr/bin/env bash
# The bit operations of checker-verified (checker-verified/Extraction.v)
# against the Coq standard library's own definitions.
#
#   verified_bits_test.sh EXTRACTION_V
#
# Extraction.v tells OCaml to compute Nat.testbit, Nat.shiftr, Nat.shiftl,
# Nat.lor, Nat.ldiff, Nat.lxor, Nat.modulo and Nat.sub with machine operations; Coq does not check that.
# This test extracts each function twice from one Coq file: once as Coq
# defines it (recursion on the numbers, with Extraction.v's directives for
# nat and the comparisons, nothing else) and once with Extraction.v's bit
# directives, copied from the file as it stands. It then compares the two
# on every pair of small arguments the reference can compute (its recursion
# is as deep as the number), and checks the machine versions on the largest
# values by their arithmetic meaning: bits 61 and 62 of max_int = 2^62 - 1,
# a shift left reaching 2^62 (it must raise, not wrap), shifts of 62 and
# more. Exit 1 naming each mismatch.
set -euo pipefail
src=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

command -v coqc >/dev/null && command -v ocamlfind >/dev/null || command -v ocamlopt >/dev/null \
  || { echo "FAIL: coqc or ocamlopt missing"; exit 1; }

# Extraction.v's directives: those before the bit operations (nat as int,
# the comparisons), and the bit operations'. (Extraction Inline names
# Checker.v's functions, which this file does not load.)
awk '/^Extraction Inline/ {next} /^\(\* Bits of a non-negative number/ {exit} /^Extract/ {on=1} on {print} /"\.$|\]\.$|\)"\.$/ {on=0}' "$src" > "$work/base.v.part"
awk '/^Extraction Inline/ {next} /^\(\* Bits of a non-negative number/ {on=1} /^Extraction "/ {exit} on {print}' "$src" > "$work/bits.v.part"
grep -q 'Nat.testbit' "$work/bits.v.part" && grep -q 'Nat.shiftl' "$work/bits.v.part" \
  || { echo "FAIL: the bit directives were not found in $src"; exit 1; }
for f in Arith.PeanoNat.Nat.testbit Arith.PeanoNat.Nat.shiftr Arith.PeanoNat.Nat.shiftl Arith.PeanoNat.Nat.lor \
         Arith.PeanoNat.Nat.ldiff Arith.PeanoNat.Nat.modulo Init.Nat.sub Arith.PeanoNat.Nat.lxor; do
  grep -q "Extract Inlined Constant Coq.$f " "$work/bits.v.part" \
    || { echo "FAIL: no directive for $f in $src"; exit 1; }
done

{
  echo 'From Coq Require Import Arith Extraction.'
  echo 'Extraction Language OCaml.'
  cat "$work/base.v.part"
  # Sums and products (not bit operations) as the machine's, so that the
  # reference's recursion is only its own: halving, doubling, parity.
  echo 'Extract Inlined Constant Coq.Arith.PeanoNat.Nat.add => "( + )".'
  echo 'Extract Inlined Constant Coq.Arith.PeanoNat.Nat.mul => "( * )".'
  echo 'Extract Inlined Constant Coq.Arith.PeanoNat.Nat.max => "(fun (x : int) (y : int) -> if x < y then y else x)".'
  echo 'Definition b_testbit := Nat.testbit.'
  echo 'Definition b_shiftr := Nat.shiftr.'
  echo 'Definition b_shiftl := Nat.shiftl.'
  echo 'Definition b_lor := Nat.lor.'
  echo 'Definition b_ldiff := Nat.ldiff.'
  echo 'Definition b_modulo := Nat.modulo.'
  echo 'Definition b_sub := Coq.Init.Nat.sub.'
  echo 'Definition b_lxor := Nat.lxor.'
  echo 'Extraction "reference.ml" b_testbit b_shiftr b_shiftl b_lor b_ldiff b_modulo b_sub b_lxor.'
  cat "$work/bits.v.part"
  echo 'Extraction "machine.ml" b_testbit b_shiftr b_shiftl b_lor b_ldiff b_modulo b_sub b_lxor.'
} > "$work/Bits.v"
(cd "$work" && coqc -q Bits.v) || { echo "FAIL: Bits.v does not compile"; exit 1; }
grep -q 'lsr' "$work/machine.ml" || { echo "FAIL: machine.ml does not use the directives"; exit 1; }
if grep -qwE 'lsr|lsl|land|lor|lnot' "$work/reference.ml"; then
  echo "FAIL: reference.ml uses machine bit operations"; exit 1
fi

cat > "$work/compare.ml" <<'EOF'
let failures = ref 0
let fail fmt = Printf.ksprintf (fun s -> incr failures; if !failures <= 20 then print_endline ("FAIL: " ^ s)) fmt
let raises f = match f () with _ -> false | exception Invalid_argument _ -> true
let () =
  Random.init 20261127;
  (* Small arguments: every value up to 2^11 with every index up to 70, and
     random pairs below 2^12 (the reference recurses once per unit). *)
  for a = 0 to 2048 do
    for k = 0 to 70 do
      if Reference.b_testbit a k <> Machine.b_testbit a k then fail "testbit %d %d" a k;
      if Reference.b_shiftr a k <> Machine.b_shiftr a k then fail "shiftr %d %d" a k;
      (* the reference's doubling is exact below 2^62 *)
      if a = 0 || k + 12 < 62 then begin
        if Reference.b_shiftl a k <> Machine.b_shiftl a k then fail "shiftl %d %d" a k
      end
    done
  done;
  for _ = 1 to 4000 do
    let a = Random.int 4096 and b = Random.int 4096 in
    if Reference.b_lor a b <> Machine.b_lor a b then fail "lor %d %d" a b;
    if Reference.b_ldiff a b <> Machine.b_ldiff a b then fail "ldiff %d %d" a b;
    if Reference.b_lxor a b <> Machine.b_lxor a b then fail "lxor %d %d" a b
  done;
  for a = 0 to 300 do for b = 0 to 300 do
    if Reference.b_lor a b <> Machine.b_lor a b then fail "lor %d %d" a b;
    if Reference.b_ldiff a b <> Machine.b_ldiff a b then fail "ldiff %d %d" a b;
    if Reference.b_lxor a b <> Machine.b_lxor a b then fail "lxor %d %d" a b
  done done;
  (* The torus's arithmetic: every pair up to 600 (the reference's division
     is a step per unit), and random pairs below 2^12. *)
  for a = 0 to 600 do for b = 0 to 600 do
    if Reference.b_modulo a b <> Machine.b_modulo a b then fail "modulo %d %d" a b;
    if Reference.b_sub a b <> Machine.b_sub a b then fail "sub %d %d" a b
  done done;
  for _ = 1 to 4000 do
    let a = Random.int 4096 and b = Random.int 4096 in
    if Reference.b_modulo a b <> Machine.b_modulo a b then fail "modulo %d %d" a b;
    if Reference.b_sub a b <> Machine.b_sub a b then fail "sub %d %d" a b
  done;
  (* The largest values, by their meaning. *)
  let top = max_int in   (* 2^62 - 1 *)
  if top <> (1 lsl 62) - 1 then fail "max_int is not 2^62 - 1 (63-bit ints expected)";
  if not (Machine.b_testbit top 61) then fail "bit 61 of 2^62 - 1";
  if Machine.b_testbit top 62 || Machine.b_testbit top 63 || Machine.b_testbit top 1000 then fail "bits from 62 of 2^62 - 1";
  if Machine.b_testbit 1 64 then fail "testbit 1 64 (a shift that wraps)";
  if Machine.b_shiftr top 61 <> 1 || Machine.b_shiftr top 62 <> 0 || Machine.b_shiftr top 64 <> 0
     || Machine.b_shiftr 1 64 <> 0 || Machine.b_shiftr top 1000 <> 0 then fail "shiftr of 2^62 - 1";
  if Machine.b_shiftl 1 61 <> 1 lsl 61 then fail "shiftl 1 61";
  if not (raises (fun () -> Machine.b_shiftl 1 62)) then fail "shiftl 1 62 must raise";
  if not (raises (fun () -> Machine.b_shiftl 1 64)) then fail "shiftl 1 64 must raise (it would wrap to 1)";
  if not (raises (fun () -> Machine.b_shiftl 4 60)) then fail "shiftl 4 60 (2^62) must raise";
  if Machine.b_shiftl 3 60 <> 3 * (1 lsl 60) then fail "shiftl 3 60 (below 2^62)";
  if not (raises (fun () -> Machine.b_shiftl 1 (1 lsl 30))) then fail "shiftl 1 2^30 must raise";
  if Machine.b_shiftl 0 1000 <> 0 then fail "shiftl 0 1000";
  if Machine.b_shiftl (top lsr 1) 1 <> top - 1 then fail "shiftl (2^61 - 1) 1";
  if Machine.b_modulo top 0 <> top || Machine.b_modulo top top <> 0 || Machine.b_modulo top 2 <> 1
     || Machine.b_modulo 5 top <> 5 then fail "modulo of 2^62 - 1";
  if Machine.b_sub top 0 <> top || Machine.b_sub 0 top <> 0 || Machine.b_sub top top <> 0 then fail "sub of 2^62 - 1";
  if Machine.b_lor top 0 <> top || Machine.b_ldiff top top <> 0 || Machine.b_ldiff top 0 <> top
     || Machine.b_ldiff 0 top <> 0 || Machine.b_ldiff top 1 <> top - 1 then fail "lor and ldiff of 2^62 - 1";
  if Machine.b_lxor top top <> 0 || Machine.b_lxor top 0 <> top || Machine.b_lxor top 1 <> top - 1
  then fail "lxor of 2^62 - 1";
  if !failures > 0 then (Printf.printf "%d mismatches\n" !failures; exit 1);
  print_endline "bit operations: the machine versions agree with Coq's definitions"
EOF
(cd "$work" && ocamlopt -o compare reference.mli reference.ml machine.mli machine.ml compare.ml) \
  || { echo "FAIL: the comparison does not compile"; exit 1; }
"$work/compare"
