(* Live sets as row masks: the checker's fast representation of a position.

   A live set (Checker.v: the free squares, in board order) is held as one
   number per row, row 0 first: bit c of row r's number is set when the
   square (r, c) is live. Placing a queen then costs one bit operation per
   row instead of one attack test per live square, and two live sets are
   compared row by row.

   Everything is proved against the list form: `decode n M` is the list of
   squares the masks M stand for (columns 0 .. n-1; higher bits are ignored,
   so masks with stray high bits are merely never equal to the live set they
   decode to), and placing a queen on the masks decodes to placing it on the
   list (decode_after). The bit operations (Nat.testbit, Nat.shiftl,
   Nat.shiftr, Nat.lor, Nat.ldiff) are the standard library's; how they are
   computed in OCaml is stated in Extraction.v. *)
From Coq Require Import Arith Lia List Bool.
Import ListNotations.
From QueensGame Require Import Spec GameFacts.

(* The live squares of the masks M, the first of which is row r. *)
Fixpoint decode_from (n r : nat) (M : list nat) : list square :=
  match M with
  | [] => []
  | m :: M' => map (fun c => (r, c)) (filter (Nat.testbit m) (seq 0 n)) ++ decode_from n (S r) M'
  end.

Definition decode (n : nat) (M : list nat) : list square := decode_from n 0 M.

(* decode, with the columns seq 0 n made once rather than once a row (a
   closure a step in the extracted OCaml: 2% of the check at n = 14, where
   each table entry's live set is decoded). *)
Fixpoint decode_rows (cs : list nat) (r : nat) (M : list nat) : list square :=
  match M with
  | [] => []
  | m :: M' => map (fun c => (r, c)) (filter (Nat.testbit m) cs) ++ decode_rows cs (S r) M'
  end.

Definition decode_fast (n : nat) (M : list nat) : list square := decode_rows (seq 0 n) 0 M.

Lemma decode_rows_from n M : forall r, decode_rows (seq 0 n) r M = decode_from n r M.
Proof. induction M as [|m M IH]; intro r; simpl; [reflexivity|]. now rewrite IH. Qed.

Lemma decode_fast_eq n M : decode_fast n M = decode n M.
Proof. apply decode_rows_from. Qed.

(* The one-bit number 2^c. *)
Definition bit (c : nat) : nat := Nat.shiftl 1 c.

(* The squares of row r that a queen on s = (r0, c0) attacks, when r <> r0:
   column c0, the diagonal c = c0 + r - r0 and the anti-diagonal
   c = c0 + r0 - r (shifts right drop what falls off column 0, with no
   subtraction). *)
Definition row_attacks (s : square) (r : nat) : nat :=
  let '(r0, c0) := s in
  Nat.lor (bit c0) (Nat.lor (Nat.shiftr (bit (c0 + r)) r0) (Nat.shiftr (bit (c0 + r0)) r)).

(* On the n x n torus (Spec.v, torus_attacks), the squares of row r that a
   queen on s = (r0, c0) attacks, when r <> r0: column c0, and the columns
   congruent to c0 + r - r0 and to c0 + r0 - r modulo n (n - r0 mod n
   stands for - r0, with no subtraction below zero). *)
Definition torus_row_attacks (n : nat) (s : square) (r : nat) : nat :=
  let '(r0, c0) := s in
  Nat.lor (bit c0) (Nat.lor (bit ((c0 + r + (n - r0 mod n)) mod n)) (bit ((c0 + r0 + (n - r mod n)) mod n))).

Definition row_attacks_of (b : board) : square -> nat -> nat :=
  match b with square_board _ => row_attacks | torus n => torus_row_attacks n end.

(* The masks after a queen on s: its own row is emptied, the other rows
   lose the squares it attacks. *)
Fixpoint after_rows (b : board) (s : square) (r : nat) (M : list nat) : list nat :=
  match M with
  | [] => []
  | m :: M' =>
      (if Nat.eqb r (fst s) then 0 else Nat.ldiff m (row_attacks_of b s r)) :: after_rows b s (S r) M'
  end.

Definition place (b : board) (s : square) (M : list nat) : list nat := after_rows b s 0 M.

(* Is s live in M? (s on the n x n board and its bit set.) *)
Definition is_live (n : nat) (M : list nat) (s : square) : bool :=
  (fst s <? n) && (snd s <? n) && Nat.testbit (nth (fst s) M 0) (snd s).

(* The empty board: n rows of n ones; and the masks of the queens qs (the
   latest first, as in Spec.v). *)
Definition full (n : nat) : list nat := repeat (Nat.ones n) n.

Definition live_rows (b : board) (qs : list square) : list nat :=
  fold_right (place b) (full (size b)) qs.

(* ---- Proofs. ---- *)

Lemma bit_spec c j : Nat.testbit (bit c) j = Nat.eqb c j.
Proof. unfold bit. rewrite Nat.shiftl_1_l. apply Nat.pow2_bits_eqb. Qed.

Lemma row_attacks_spec r0 c0 r c :
  r <> r0 -> Nat.testbit (row_attacks (r0, c0) r) c = attacks (r0, c0) (r, c).
Proof.
  intro Hr. unfold row_attacks, attacks.
  rewrite !Nat.lor_spec, !Nat.shiftr_spec', !bit_spec.
  destruct (Nat.eqb_spec r0 r); [congruence|].
  destruct (Nat.eqb_spec c0 c), (Nat.eqb_spec (c0 + r) (c + r0)), (Nat.eqb_spec (c0 + r0) (c + r)),
    (Nat.eqb_spec (r0 + c) (r + c0)), (Nat.eqb_spec (r0 + c0) (r + c)); simpl; try reflexivity; lia.
Qed.

(* x is the residue of y - a modulo n exactly when a + x and y agree
   modulo n (n - a mod n is - a modulo n). *)
Lemma mod_shift n a x y : x < n -> (x = (y + (n - a mod n)) mod n <-> (a + x) mod n = y mod n).
Proof.
  intro Hx. assert (n <> 0) as Hn by lia.
  pose proof (mod_complement n a Hn) as Ha.
  split.
  - intros ->. rewrite Nat.add_mod_idemp_r by exact Hn.
    replace (a + (y + (n - a mod n))) with (y + (a / n + 1) * n) by lia.
    apply Nat.mod_add. exact Hn.
  - intro E. rewrite <- (Nat.mod_small x n Hx) at 1.
    rewrite <- (Nat.mod_add x (a / n + 1) n Hn).
    replace (x + (a / n + 1) * n) with ((a + x) + (n - a mod n)) by lia.
    rewrite <- Nat.add_mod_idemp_l, E, Nat.add_mod_idemp_l by exact Hn. reflexivity.
Qed.

Lemma torus_row_attacks_spec n r0 c0 r c :
  r <> r0 -> c < n -> Nat.testbit (torus_row_attacks n (r0, c0) r) c = torus_attacks n (r0, c0) (r, c).
Proof.
  intros Hr Hc. unfold torus_row_attacks, torus_attacks.
  rewrite !Nat.lor_spec, !bit_spec.
  destruct (Nat.eqb_spec r0 r); [congruence|]. simpl.
  assert (((c0 + r + (n - r0 mod n)) mod n =? c) = ((r0 + c) mod n =? (r + c0) mod n)) as D.
  { apply eq_true_iff_eq. rewrite !Nat.eqb_eq, (Nat.add_comm r c0).
    rewrite <- (mod_shift n r0 c (c0 + r) Hc). split; auto. }
  assert (((c0 + r0 + (n - r mod n)) mod n =? c) = ((r0 + c0) mod n =? (r + c) mod n)) as A.
  { apply eq_true_iff_eq. rewrite !Nat.eqb_eq, (Nat.add_comm r0 c0).
    pose proof (mod_shift n r c (c0 + r0) Hc) as M. split; intro E.
    - symmetry. apply M. auto.
    - symmetry. apply M. auto. }
  rewrite D, A. now rewrite orb_assoc.
Qed.

(* Either board: row r (not the queen's own) loses exactly the squares the
   queen attacks. *)
Lemma row_attacks_of_spec b r0 c0 r c :
  r <> r0 -> c < size b -> Nat.testbit (row_attacks_of b (r0, c0) r) c = attack_rule b (r0, c0) (r, c).
Proof.
  destruct b as [n|n]; simpl; intros Hr Hc.
  - now apply row_attacks_spec.
  - now apply torus_row_attacks_spec.
Qed.

Lemma attack_rule_row b r0 c0 c : attack_rule b (r0, c0) (r0, c) = true.
Proof. destruct b; simpl; [unfold attacks|unfold torus_attacks]; now rewrite Nat.eqb_refl. Qed.

Lemma filter_map_comm {A B} (f : B -> bool) (g : A -> B) (l : list A) :
  filter f (map g l) = map g (filter (fun x => f (g x)) l).
Proof. induction l as [|a l IH]; simpl; auto. destruct (f (g a)); simpl; now rewrite IH. Qed.

Lemma filter_filter {A} (f g : A -> bool) (l : list A) :
  filter g (filter f l) = filter (fun x => f x && g x) l.
Proof.
  induction l as [|a l IH]; simpl; auto.
  destruct (f a); simpl; [destruct (g a)|]; simpl; now rewrite IH.
Qed.

Lemma filter_none {A} (f : A -> bool) (l : list A) :
  (forall x, f x = false) -> filter f l = [].
Proof. intro H. induction l as [|a l IH]; simpl; auto. now rewrite H. Qed.

(* Placing a queen on the masks is placing it on the live list. *)
Lemma decode_after b s : forall M r,
  decode_from (size b) r (after_rows b s r M)
  = filter (fun x => negb (attack_rule b s x)) (decode_from (size b) r M).
Proof.
  destruct s as [r0 c0]. induction M as [|m M IH]; intro r; simpl; [reflexivity|].
  rewrite filter_app, IH. f_equal. rewrite filter_map_comm, filter_filter.
  destruct (Nat.eqb_spec r r0) as [->|Hr].
  - rewrite filter_none by (intro c; now rewrite Nat.bits_0).
    rewrite filter_none; [reflexivity|].
    intro c. rewrite attack_rule_row. now destruct (Nat.testbit m c).
  - f_equal. apply filter_ext_in. intros c Hc. apply in_seq in Hc.
    rewrite Nat.ldiff_spec, (row_attacks_of_spec b r0 c0 r c Hr) by lia. reflexivity.
Qed.

Lemma decode_place b s M :
  decode (size b) (place b s M) = filter (fun x => negb (attack_rule b s x)) (decode (size b) M).
Proof. apply decode_after. Qed.

Lemma in_decode_from n : forall M r s,
  r <= fst s -> snd s < n -> Nat.testbit (nth (fst s - r) M 0) (snd s) = true ->
  In s (decode_from n r M).
Proof.
  intros M. induction M as [|m M IH]; intros r [r1 c1] Hr Hc Hb; simpl in *.
  - destruct (r1 - r); rewrite Nat.bits_0 in Hb; discriminate.
  - apply in_or_app. destruct (Nat.eqb_spec r1 r) as [->|Hne].
    + left. rewrite Nat.sub_diag in Hb. apply in_map. apply filter_In. split; auto.
      apply in_seq. lia.
    + right. apply IH; simpl; [lia|exact Hc|].
      replace (r1 - r) with (S (r1 - S r)) in Hb by lia. exact Hb.
Qed.

Lemma is_live_in n M s : is_live n M s = true -> In s (decode n M).
Proof.
  unfold is_live. rewrite !andb_true_iff, !Nat.ltb_lt. intros [[_ Hc] Hb].
  apply in_decode_from; [lia|exact Hc|]. now rewrite Nat.sub_0_r.
Qed.

Lemma decode_full_from n : forall k r,
  decode_from n r (repeat (Nat.ones n) k) = list_prod (seq r k) (seq 0 n).
Proof.
  induction k as [|k IH]; intro r; simpl; [reflexivity|].
  rewrite IH. f_equal. f_equal. rewrite filter_ext_in with (g := fun _ => true).
  - clear. induction (seq 0 n); simpl; congruence.
  - intros c Hc. apply in_seq in Hc. apply Nat.ones_spec_low. lia.
Qed.

Lemma free_cons (n : board) s qs x :
  free n (s :: qs) x = free n qs x && negb (attack_rule n s x).
Proof.
  unfold free. simpl.
  destruct (on_board n x), (attack_rule n s x), (forallb (fun q => negb (attack_rule n q x)) qs); reflexivity.
Qed.

Lemma filter_all {A} (f : A -> bool) (l : list A) :
  (forall x, In x l -> f x = true) -> filter f l = l.
Proof.
  induction l as [|a l IH]; intro H; simpl; auto.
  rewrite H by (now left). f_equal. apply IH. intros x Hx. apply H. now right.
Qed.

(* The masks of the queens qs decode to their free squares in board order. *)
Lemma decode_live_rows (n : board) qs :
  decode (size n) (live_rows n qs) = filter (free n qs) (all_squares (size n)).
Proof.
  induction qs as [|s qs IH]; simpl.
  - unfold decode, full. rewrite decode_full_from. symmetry. apply filter_all.
    intros x Hx. apply in_all_squares in Hx. unfold free. simpl. now rewrite Hx.
  - rewrite decode_place, IH, filter_filter. apply filter_ext. intro x.
    now rewrite free_cons.
Qed.

(* ---- Images of masks under a map of the board. ---- *)

(* The number whose bits c .. c + len - 1 are p c .. p (c + len - 1). *)
Fixpoint row_from (p : nat -> bool) (c len : nat) : nat :=
  match len with
  | 0 => 0
  | S l => Nat.lor (if p c then bit c else 0) (row_from p (S c) l)
  end.

(* The masks of the squares t of the n x n board with f t live in M: for a
   map f of the board, M's image under f's inverse (Checker.v looks a
   position up by such an image). *)
Definition image_rows (n : nat) (f : square -> square) (M : list nat) : list nat :=
  map (fun r => row_from (fun c => is_live n M (f (r, c))) 0 n) (seq 0 n).

Lemma row_from_spec p len : forall c j,
  Nat.testbit (row_from p c len) j = (c <=? j) && (j <? c + len) && p j.
Proof.
  induction len as [|len IH]; intros c j; simpl.
  - rewrite Nat.bits_0. destruct (Nat.leb_spec c j), (Nat.ltb_spec j (c + 0)); simpl; auto; lia.
  - rewrite Nat.lor_spec, IH.
    assert (Nat.testbit (if p c then bit c else 0) j = (c =? j) && p c) as B.
    { destruct (p c); [now rewrite bit_spec, andb_true_r|now rewrite Nat.bits_0, andb_false_r]. }
    rewrite B. destruct (Nat.eqb_spec c j) as [E|Hne].
    + subst j. rewrite Nat.leb_refl. destruct (Nat.leb_spec (S c) c); [lia|].
      destruct (Nat.ltb_spec c (c + S len)); [|lia]. simpl. now rewrite orb_false_r.
    + rewrite andb_false_l, orb_false_l. destruct (p j); [|now rewrite !andb_false_r].
      rewrite !andb_true_r. apply eq_true_iff_eq.
      rewrite !andb_true_iff, !Nat.leb_le, !Nat.ltb_lt. lia.
Qed.

Lemma decode_image_from n f M : forall k r,
  decode_from n r (map (fun r' => row_from (fun c => is_live n M (f (r', c))) 0 n) (seq r k)) =
  filter (fun t => is_live n M (f t)) (list_prod (seq r k) (seq 0 n)).
Proof.
  induction k as [|k IH]; intro r; simpl; [reflexivity|].
  rewrite IH, filter_app. f_equal.
  rewrite filter_map_comm. f_equal. apply filter_ext_in. intros c Hc. apply in_seq in Hc.
  rewrite row_from_spec. destruct (Nat.leb_spec 0 c), (Nat.ltb_spec c (0 + n)); simpl; auto; lia.
Qed.

Lemma decode_image n f M :
  decode n (image_rows n f M) = filter (fun t => is_live n M (f t)) (all_squares n).
Proof. apply decode_image_from. Qed.

Lemma in_decode_from_iff n : forall M r s,
  In s (decode_from n r M) <->
  r <= fst s /\ snd s < n /\ Nat.testbit (nth (fst s - r) M 0) (snd s) = true.
Proof.
  intros M. induction M as [|m M IH]; intros r [r1 c1]; simpl.
  - split; [tauto|]. intros [_ [_ Hb]]. destruct (r1 - r); now rewrite Nat.bits_0 in Hb.
  - rewrite in_app_iff, IH, in_map_iff. simpl. split.
    + intros [[c [E Hc]]|[Hr [Hc Hb]]].
      * injection E as <- <-. apply filter_In in Hc as [Hc Hb]. apply in_seq in Hc.
        rewrite Nat.sub_diag. repeat split; auto; lia.
      * replace (r1 - r) with (S (r1 - S r)) by lia. repeat split; auto; lia.
    + intros [Hr [Hc Hb]]. destruct (Nat.eq_dec r1 r) as [->|Hne].
      * left. exists c1. split; [reflexivity|]. rewrite Nat.sub_diag in Hb.
        apply filter_In. split; [apply in_seq; lia|exact Hb].
      * right. replace (r1 - r) with (S (r1 - S r)) in Hb by lia. repeat split; auto; lia.
Qed.

(* On the board, "live in M" is "in M's list". *)
Lemma is_live_decode n M s : fst s < n -> is_live n M s = true <-> In s (decode n M).
Proof.
  intro Hr. unfold decode, is_live. rewrite in_decode_from_iff, Nat.sub_0_r, !andb_true_iff, !Nat.ltb_lt.
  split; [intros [[_ Hc] Hb]|intros [_ [Hc Hb]]]; repeat split; auto; lia.
Qed.

(* ---- Images read a row or a column of M at a time. ---- *)

(* image_rows reads M once per square of the board, each time walking the
   row list to row fst s (12% of the whole check at n = 14). A map of the board sends the squares of one row either into one
   row of M (the identity, the half turn, the reflections in the middle row
   and column, the torus's translations) or into one column of M (the
   quarter turns and the diagonal reflections). So image_rows_fast keeps the
   last row of M read (ri, with mask mi) and the last column (ci, with mask
   ki), and walks M again only when a square is in neither; it computes
   exactly image_rows (image_rows_fast_eq), for any map. (Each row starts
   by reading both, so one of the two reads is wasted per row: n list steps,
   against the n * n / 2 it saves.) *)

(* Column c of M as a number: bit r is bit c of row r. *)
Fixpoint column (c : nat) (M : list nat) : nat :=
  match M with
  | [] => 0
  | m :: M' => Nat.lor (if Nat.testbit m c then 1 else 0) (Nat.shiftl (column c M') 1)
  end.

Fixpoint image_row (n : nat) (M : list nat) (g : nat -> square) (ri mi ci ki : nat) (cs : list nat) : nat :=
  match cs with
  | [] => 0
  | c :: cs' =>
      let '(r0, c0) := g c in
      if Nat.eqb r0 ri then
        Nat.lor (if (r0 <? n) && (c0 <? n) && Nat.testbit mi c0 then bit c else 0)
                (image_row n M g ri mi ci ki cs')
      else if Nat.eqb c0 ci then
        Nat.lor (if (r0 <? n) && (c0 <? n) && Nat.testbit ki r0 then bit c else 0)
                (image_row n M g ri mi ci ki cs')
      else
        let mi' := nth r0 M 0 in
        Nat.lor (if (r0 <? n) && (c0 <? n) && Nat.testbit mi' c0 then bit c else 0)
                (image_row n M g r0 mi' c0 (column c0 M) cs')
  end.

(* The numbers i, i + 1, ... as many as l has members: seq i (length l),
   made by a recursion on the list (a recursion on a number costs a closure
   a step in the extracted OCaml). *)
Fixpoint count_up {A} (i : nat) (l : list A) : list nat :=
  match l with
  | [] => []
  | _ :: l' => i :: count_up (S i) l'
  end.

Lemma count_up_seq {A} (l : list A) : forall i, count_up i l = seq i (length l).
Proof. induction l as [|x l IH]; intro i; simpl; [reflexivity|]. now rewrite IH. Qed.

(* The rows and the columns c of a row are walked as the list 0 .. n - 1,
   made once per image from M's rows when M has n of them (any key does
   not: then image_rows itself); a recursion on a number would cost a
   closure per square (5% of the check at n = 14). *)
Definition image_rows_fast (n : nat) (f : square -> square) (M : list nat) : list nat :=
  if Nat.eqb (length M) n then
    let cs := count_up 0 M in
    map (fun r => let '(r0, c0) := f (r, 0) in
                  image_row n M (fun c => f (r, c)) r0 (nth r0 M 0) c0 (column c0 M) cs) cs
  else image_rows n f M.

Lemma column_spec c M : forall r, Nat.testbit (column c M) r = Nat.testbit (nth r M 0) c.
Proof.
  induction M as [|m M IH]; intro r; cbn [column].
  - rewrite Nat.bits_0. destruct r; simpl; now rewrite Nat.bits_0.
  - rewrite Nat.lor_spec. destruct r as [|r]; cbn [nth].
    + rewrite Nat.shiftl_spec_low by lia. rewrite orb_false_r.
      destruct (Nat.testbit m c); [reflexivity|apply Nat.bits_0].
    + rewrite Nat.shiftl_spec_high by lia. replace (S r - 1) with r by lia. rewrite IH.
      assert (Nat.testbit (if Nat.testbit m c then 1 else 0) (S r) = false) as Z.
      { destruct (Nat.testbit m c); [|apply Nat.bits_0]. simpl. apply Nat.bits_0. }
      now rewrite Z.
Qed.

Lemma image_row_spec n M g len : forall c ri mi ci ki,
  mi = nth ri M 0 -> ki = column ci M ->
  image_row n M g ri mi ci ki (seq c len) = row_from (fun c => is_live n M (g c)) c len.
Proof.
  induction len as [|len IH]; intros c ri mi ci ki Hm Hk; simpl; [reflexivity|].
  unfold is_live at 1. destruct (g c) as [r0 c0] eqn:Hg. simpl.
  destruct (Nat.eqb_spec r0 ri) as [->|_]; [|destruct (Nat.eqb_spec c0 ci) as [->|_]].
  - rewrite <- Hm. f_equal. now apply IH.
  - rewrite Hk, column_spec. f_equal. now apply IH.
  - f_equal. now apply IH.
Qed.

Lemma image_rows_fast_eq n f M : image_rows_fast n f M = image_rows n f M.
Proof.
  unfold image_rows_fast. destruct (Nat.eqb_spec (length M) n) as [Hn|_]; [|reflexivity].
  unfold image_rows. cbv zeta. rewrite count_up_seq, Hn. apply map_ext. intro r.
  destruct (f (r, 0)) as [r0 c0]. now apply image_row_spec.
Qed.

(* ---- Frames: small positions on index masks. ---- *)

Section Frames.

(* The board whose rule the frames use. *)
Variable b : board.
Let attacks := attack_rule b.
Let attacks_self s : attacks s s = true.
Proof. apply attack_rule_self. Qed.


(* A position's live squares L, listed once, let each of its descendants be
   a number: bit i set when L's i-th square (from 0) is still live. A frame
   pairs each square of L with the mask of the indices it attacks, so that
   placing a queen on a descendant is one bit operation. *)
Fixpoint sub_from (L : list square) (i m : nat) : list square :=
  match L with
  | [] => []
  | s :: L' => if Nat.testbit m i then s :: sub_from L' (S i) m else sub_from L' (S i) m
  end.

(* The squares of L that the index mask m keeps. *)
Definition sub (L : list square) (m : nat) : list square := sub_from L 0 m.

(* The indices (from i) of the squares of L that s attacks. *)
Fixpoint attack_mask_from (s : square) (L : list square) (i : nat) : nat :=
  match L with
  | [] => 0
  | x :: L' =>
      if attacks s x then Nat.lor (bit i) (attack_mask_from s L' (S i))
      else attack_mask_from s L' (S i)
  end.

Definition frame (L : list square) : list (square * nat) :=
  map (fun s => (s, attack_mask_from s L 0)) L.

Lemma attack_mask_low s L : forall i j, j < i -> Nat.testbit (attack_mask_from s L i) j = false.
Proof.
  induction L as [|x L IH]; intros i j Hj; simpl; [apply Nat.bits_0|].
  destruct (attacks s x); [rewrite Nat.lor_spec, bit_spec|]; rewrite IH by lia; [|reflexivity].
  destruct (Nat.eqb_spec i j); [lia|reflexivity].
Qed.

Lemma sub_from_ext L : forall i m m',
  (forall j, i <= j -> Nat.testbit m j = Nat.testbit m' j) -> sub_from L i m = sub_from L i m'.
Proof.
  induction L as [|x L IH]; intros i m m' H; simpl; [reflexivity|].
  rewrite (H i) by lia. rewrite (IH (S i) m m') by (intros j Hj; apply H; lia). reflexivity.
Qed.

(* Placing a queen on s, as an index mask. *)
Lemma sub_from_after s L : forall i m,
  filter (fun x => negb (attacks s x)) (sub_from L i m)
  = sub_from L i (Nat.ldiff m (attack_mask_from s L i)).
Proof.
  induction L as [|x L IH]; intros i m; simpl; [reflexivity|].
  assert (Nat.testbit (attack_mask_from s L (S i)) i = false) as Hlow by (apply attack_mask_low; lia).
  assert (sub_from L (S i) (Nat.ldiff m (attack_mask_from s L (S i)))
          = sub_from L (S i) (Nat.ldiff m (Nat.lor (bit i) (attack_mask_from s L (S i))))) as Htail.
  { apply sub_from_ext. intros j Hj. rewrite !Nat.ldiff_spec, Nat.lor_spec, bit_spec.
    destruct (Nat.eqb_spec i j); [lia|reflexivity]. }
  destruct (attacks s x) eqn:Ha.
  - rewrite Nat.ldiff_spec, Nat.lor_spec, bit_spec, Nat.eqb_refl. simpl.
    rewrite andb_false_r, <- Htail, <- IH.
    destruct (Nat.testbit m i); simpl; rewrite ?Ha; reflexivity.
  - rewrite Nat.ldiff_spec, Hlow. simpl. rewrite andb_true_r, <- IH.
    destruct (Nat.testbit m i); simpl; rewrite ?Ha; reflexivity.
Qed.

Lemma sub_after s L m :
  filter (fun x => negb (attacks s x)) (sub L m) = sub L (Nat.ldiff m (attack_mask_from s L 0)).
Proof. apply sub_from_after. Qed.

Lemma sub_from_all L : forall i m,
  (forall j, i <= j < i + length L -> Nat.testbit m j = true) -> sub_from L i m = L.
Proof.
  induction L as [|x L IH]; intros i m H; simpl; [reflexivity|].
  rewrite H by (simpl; lia). f_equal. apply IH. intros j Hj. apply H. simpl. lia.
Qed.

Lemma sub_ones L : sub L (Nat.ones (length L)) = L.
Proof. apply sub_from_all. intros j Hj. apply Nat.ones_spec_low. lia. Qed.

Lemma in_sub_from L : forall i m s,
  In s (sub_from L i m) -> exists k, nth_error L k = Some s /\ Nat.testbit m (i + k) = true.
Proof.
  induction L as [|x L IH]; intros i m s Hs; simpl in Hs; [tauto|].
  destruct (Nat.testbit m i) eqn:Hm.
  - destruct Hs as [<-|Hs].
    + exists 0. rewrite Nat.add_0_r. auto.
    + destruct (IH _ _ _ Hs) as [k [Hk Hb]]. exists (S k). rewrite <- Nat.add_succ_comm. auto.
  - destruct (IH _ _ _ Hs) as [k [Hk Hb]]. exists (S k). rewrite <- Nat.add_succ_comm. auto.
Qed.

Lemma sub_from_in L : forall i m k s,
  nth_error L k = Some s -> Nat.testbit m (i + k) = true -> In s (sub_from L i m).
Proof.
  induction L as [|x L IH]; intros i m k s Hk Hb; [destruct k; discriminate|].
  destruct k as [|k]; simpl in *.
  - injection Hk as <-. rewrite Nat.add_0_r in Hb. rewrite Hb. now left.
  - rewrite <- Nat.add_succ_comm in Hb. pose proof (IH _ _ _ _ Hk Hb).
    destruct (Nat.testbit m i); [now right|assumption].
Qed.

Lemma filter_length_at_most {A} (f : A -> bool) (l : list A) : length (filter f l) <= length l.
Proof. induction l as [|a l IH]; simpl; [lia|]. destruct (f a); simpl; lia. Qed.

Lemma sub_length_lt L m k s :
  nth_error L k = Some s -> Nat.testbit m k = true ->
  length (sub L (Nat.ldiff m (attack_mask_from s L 0))) < length (sub L m).
Proof.
  intros Hk Hb. rewrite <- sub_after.
  assert (In s (sub L m)) as Hs by (apply (sub_from_in L 0 m k s Hk Hb)).
  clear Hk Hb. induction (sub L m) as [|x l IH]; simpl in *; [tauto|].
  destruct Hs as [->|Hs].
  - rewrite attacks_self. simpl.
    pose proof (filter_length_at_most (fun x => negb (attacks s x)) l). lia.
  - specialize (IH Hs). destruct (negb (attacks s x)); simpl; lia.
Qed.

(* ---- Facts for pairing siblings (Checker.v, children_ok). ---- *)

Lemma attacks_sym s t : attacks s t = attacks t s.
Proof. apply attack_rule_sym. Qed.

Lemma attack_mask_spec s L : forall i k x,
  nth_error L k = Some x -> Nat.testbit (attack_mask_from s L i) (i + k) = attacks s x.
Proof.
  induction L as [|y L IH]; intros i k x Hk; [destruct k; discriminate|].
  simpl. destruct k as [|k]; simpl in Hk.
  - injection Hk as <-. rewrite Nat.add_0_r.
    destruct (attacks s y).
    + rewrite Nat.lor_spec, bit_spec, Nat.eqb_refl. reflexivity.
    + apply attack_mask_low. lia.
  - rewrite <- Nat.add_succ_comm. destruct (attacks s y).
    + rewrite Nat.lor_spec, bit_spec, (IH (S i) k x Hk).
      destruct (Nat.eqb_spec i (S i + k)); [lia|reflexivity].
    + apply IH. exact Hk.
Qed.

(* attack_mask_from s L 0, computed from the end of L (Horner's rule): a
   doubling per square where attack_mask_from shifts 1 left by the index
   (a shift checked for overflow in the extracted OCaml), as an addition
   (Nat.mul is extracted as Peano's recursion); every number formed is at
   most the mask itself. *)
Fixpoint attack_mask (s : square) (L : list square) : nat :=
  match L with
  | [] => 0
  | x :: L' => let a := attack_mask s L' in if attacks s x then S (a + a) else a + a
  end.

Lemma attack_mask_from_eq s L : forall i, attack_mask_from s L i = attack_mask s L * 2 ^ i.
Proof.
  induction L as [|x L IH]; intro i; simpl; [reflexivity|]. rewrite IH, Nat.pow_succ_r'.
  set (A := attack_mask s L). replace (A * (2 * 2 ^ i)) with ((2 * A) * 2 ^ i) by lia.
  replace (A + A) with (2 * A) by lia.
  destruct (attacks s x); [|lia].
  assert (Nat.land (bit i) (2 * A * 2 ^ i) = 0) as D.
  { apply Nat.bits_inj. intro j. rewrite Nat.land_spec, Nat.bits_0, bit_spec.
    destruct (Nat.eqb_spec i j) as [<-|]; [|reflexivity]. simpl.
    rewrite <- (Nat.add_0_l i) at 2. rewrite Nat.mul_pow2_bits_add. apply Nat.testbit_even_0. }
  rewrite <- Nat.lxor_lor, <- Nat.add_nocarry_lxor by exact D.
  unfold bit. rewrite Nat.shiftl_1_l. lia.
Qed.

Lemma attack_mask_eq s L : attack_mask_from s L 0 = attack_mask s L.
Proof. rewrite attack_mask_from_eq. simpl. lia. Qed.

End Frames.

(* attack_mask on the square board, calling Spec.v's attacks by name: a
   direct call in the extracted OCaml, where attack_rule's closure cost a
   call through caml_apply2 for each pair of a frame's squares. *)
Fixpoint queen_attack_mask (s : square) (L : list square) : nat :=
  match L with
  | [] => 0
  | x :: L' => let a := queen_attack_mask s L' in if attacks s x then S (a + a) else a + a
  end.

Lemma queen_attack_mask_eq n s L : queen_attack_mask s L = attack_mask (square_board n) s L.
Proof. induction L as [|x L IH]; simpl; [reflexivity|]. now rewrite IH. Qed.

(* frame b L, as it is computed. *)
Definition frame_fast (b : board) (L : list square) : list (square * nat) :=
  match b with
  | square_board _ => map (fun s => (s, queen_attack_mask s L)) L
  | torus _ => map (fun s => (s, attack_mask b s L)) L
  end.

Lemma frame_fast_eq b L : frame_fast b L = frame b L.
Proof.
  unfold frame_fast, frame. destruct b as [n|n]; apply map_ext; intro s; rewrite attack_mask_eq;
    [now rewrite (queen_attack_mask_eq n)|reflexivity].
Qed.

Lemma ldiff_swap a b c : Nat.ldiff (Nat.ldiff a b) c = Nat.ldiff (Nat.ldiff a c) b.
Proof.
  apply Nat.bits_inj. intro i. rewrite !Nat.ldiff_spec.
  destruct (Nat.testbit a i), (Nat.testbit b i), (Nat.testbit c i); reflexivity.
Qed.
