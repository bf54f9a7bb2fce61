(* Extraction of the certificate checker (Checker.v) to OCaml. Compiling
   this file writes checker_extracted.ml and .mli in the current folder.

   The directives below are part of the trust base (docs/verified-checker.md):
   each says that an OCaml value computes a Coq function, which Coq does not
   check. They hold for the numbers the driver passes in (whole numbers from
   0 to 2^30, checked when read) and every number computed from them here
   (sums of two board coordinates, lengths of lists, heaps plus lengths plus
   one, row masks below 2^26), far below OCaml's max_int = 2^62 - 1. The bit
   operations below are exact for every int from 0 to max_int (a shift left
   that would leave that range raises Invalid_argument: no verdict); the test
   VerifiedChecker.BitOperations compares each with the standard library's
   own Coq definition, extracted as it stands. *)
From Coq Require Import Extraction.
From QueensGame Require Import Spec Checker Manifest Parts.

Extraction Language OCaml.

(* Booleans, lists, options and pairs as OCaml's own (the constructors are
   the same, in the same order). *)
Extract Inductive bool => "bool" [ "true" "false" ].
Extract Inductive list => "list" [ "[]" "(::)" ].
Extract Inductive option => "option" [ "Some" "None" ].
Extract Inductive prod => "( * )" [ "(,)" ].
(* The two parts of a pair: OCaml's own fst and snd (primitives the compiler
   inlines as one load; Coq's, extracted as functions of a pair pattern, cost
   an indirect call each, 8% of the check at n = 14). *)
Extract Inlined Constant fst => "fst".
Extract Inlined Constant snd => "snd".
(* unit as OCaml's unit: a shard's input is a function of () (Manifest.v). *)
Extract Inductive unit => "unit" [ "()" ].

(* Natural numbers as OCaml's int: 0 is 0, S is successor; a match tests
   for 0 and otherwise goes on with the predecessor (never below 0, as no
   negative int is ever made). *)
Extract Inductive nat => "int" [ "0" "Stdlib.Int.succ" ]
  "(fun fO fS n -> if n = 0 then fO () else fS (n - 1))".
Extract Inlined Constant Coq.Init.Nat.add => "( + )".
(* Spec.v's =? and <? are the comparisons of Arith's Nat module; typed as
   int comparisons, so that OCaml does not call its polymorphic compare. *)
Extract Inlined Constant Coq.Arith.PeanoNat.Nat.eqb => "Int.equal".
Extract Inlined Constant Coq.Arith.PeanoNat.Nat.leb => "(fun (x : int) (y : int) -> x <= y)".
Extract Inlined Constant Coq.Arith.PeanoNat.Nat.ltb => "(fun (x : int) (y : int) -> x < y)".

(* Bits of a non-negative number (LiveRows.v's row masks). Nat.testbit a k
   is bit k of a; OCaml's lsr is only defined for shifts below 63, and a
   number below 2^62 has no bit 62 or above. *)
Extract Inlined Constant Coq.Arith.PeanoNat.Nat.testbit =>
  "(fun (a : int) (k : int) -> k < 62 && (a lsr k) land 1 = 1)".
(* Nat.shiftr a k: a divided by 2^k, rounded down. *)
Extract Inlined Constant Coq.Arith.PeanoNat.Nat.shiftr =>
  "(fun (a : int) (k : int) -> if k >= 62 then 0 else a lsr k)".
(* Nat.shiftl a k: a times 2^k, when that is below 2^62. *)
Extract Inlined Constant Coq.Arith.PeanoNat.Nat.shiftl =>
  "(fun (a : int) (k : int) -> if a = 0 then 0 else if k >= 62 || a lsr (62 - k) <> 0 then raise (Invalid_argument ""Nat.shiftl: beyond 2^62"") else a lsl k)".
(* Nat.lor: bitwise or; Nat.ldiff a b: the bits of a not in b. *)
Extract Inlined Constant Coq.Arith.PeanoNat.Nat.lor => "(fun (a : int) (b : int) -> a lor b)".
Extract Inlined Constant Coq.Arith.PeanoNat.Nat.ldiff => "(fun (a : int) (b : int) -> a land (lnot b))".

(* The torus's arithmetic (Spec.v, torus_attacks; LiveRows.v, its row
   masks): Nat.modulo a b is a mod b, and a when b = 0 (Coq's definition);
   Nat.sub a b stops at 0. OCaml's mod agrees with Coq's for a >= 0, b > 0. *)
Extract Inlined Constant Coq.Arith.PeanoNat.Nat.modulo => "(fun (a : int) (b : int) -> if b = 0 then a else a mod b)".
Extract Inlined Constant Coq.Init.Nat.sub => "(fun (a : int) (b : int) -> if a <= b then 0 else a - b)".

(* Nat.lxor: bitwise exclusive or (Parts.v: the value of a sum of parts). *)
Extract Inlined Constant Coq.Arith.PeanoNat.Nat.lxor => "(fun (a : int) (b : int) -> a lxor b)".

(* child_status (Checker.v) takes the solver's recursive call as a function:
   inlined, so that no closure is built per child; lost_code, its 0 or 1,
   likewise. (Inlining is extraction's own rewriting, not a claim about
   OCaml code.) *)
Extraction Inline child_status lost_code.
(* LiveRows.v's bit c (Nat.shiftl 1 c), inlined in its callers: child_status
   computes one per child with two live squares or more, and the call cost
   more than the shift (2% of the check at n = 14). *)
Extraction Inline QueensGame.LiveRows.bit.
(* child_status's tests for three live squares (Checker.v), likewise: calls
   were 3% of the check at n = 14. *)
Extraction Inline maybe_two three_value.

Extraction "checker_extracted.ml" check_claim verify check_manifest manifest_step check_parts.
