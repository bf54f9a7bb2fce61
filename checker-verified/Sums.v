(* The Sprague-Grundy theorem for sums (Spec.v, parts_sum_statement): two
   lists of live squares that no move links have together, as their Grundy
   value, the XOR of their values. It holds for any piece whose rule is a
   boolean that blocks the piece's own square, so for every board and piece
   of the variants; for the queens, Spec.v's grundy is the placing game's
   value on the free squares (queens_part_value_statement). *)
From Coq Require Import Arith Lia List Bool.
Import ListNotations.
From QueensGame Require Import Spec GameFacts SpragueGrundy Checker.

(* ---- Nim addition. ---- *)

Lemma lxor_double p q x y :
  Nat.lxor (2 * p + Nat.b2n x) (2 * q + Nat.b2n y) = 2 * Nat.lxor p q + Nat.b2n (xorb x y).
Proof.
  apply Nat.bits_inj. intros [|i]; rewrite Nat.lxor_spec;
    destruct x, y; cbn [Nat.b2n xorb]; rewrite ?Nat.add_0_r;
    rewrite ?Nat.testbit_odd_0, ?Nat.testbit_even_0, ?Nat.testbit_odd_succ', ?Nat.testbit_even_succ',
      ?Nat.lxor_spec; reflexivity.
Qed.

Lemma lxor_cancel_r a b : Nat.lxor (Nat.lxor a b) b = a.
Proof. now rewrite Nat.lxor_assoc, Nat.lxor_nilpotent, Nat.lxor_0_r. Qed.

Lemma lxor_cancel_l a b : Nat.lxor (Nat.lxor a b) a = b.
Proof. now rewrite (Nat.lxor_comm a b), lxor_cancel_r. Qed.

Lemma halves a : exists a' x, a = 2 * a' + Nat.b2n x /\ (a = 0 \/ a' < a).
Proof.
  exists (Nat.div2 a), (Nat.odd a). pose proof (Nat.div2_odd a) as E.
  split; [exact E|]. destruct a as [|a]; [now left|right].
  destruct (Nat.odd (S a)); cbn [Nat.b2n] in E; lia.
Qed.

(* Below a Nim sum a (+) b, every value k is reached by lowering one of
   the two: k (+) b < a or k (+) a < b (the highest bit where k and a (+) b
   differ is set in exactly one of a and b). *)
Lemma lxor_below : forall m a b k, a + b + k <= m ->
  k < Nat.lxor a b -> Nat.lxor k b < a \/ Nat.lxor k a < b.
Proof.
  induction m as [m IH] using lt_wf_ind. intros a b k Hm Hk.
  destruct (halves a) as [a' [x [Ea Ha]]], (halves b) as [b' [y [Eb Hb]]],
    (halves k) as [k' [z [Ek Hz]]].
  assert (forall c : bool, Nat.b2n c <= 1) as B by (intros []; simpl; lia).
  destruct (Nat.eq_dec (a + b + k) 0) as [E0|E0].
  { assert (a = 0 /\ b = 0) as [-> ->] by lia. rewrite Nat.lxor_nilpotent in Hk. lia. }
  subst a b k. rewrite lxor_double in Hk. rewrite !lxor_double.
  pose proof (B x); pose proof (B y); pose proof (B z); pose proof (B (xorb x y)).
  destruct (Nat.lt_ge_cases k' (Nat.lxor a' b')) as [Hlt|Hge].
  - destruct (IH (a' + b' + k')) with a' b' k' as [L|R]; [lia|lia|exact Hlt| |].
    + left. pose proof (B (xorb z y)). lia.
    + right. pose proof (B (xorb z x)). lia.
  - assert (k' = Nat.lxor a' b' /\ z = false /\ xorb x y = true) as [-> [-> Exy]].
    { destruct z, (xorb x y); simpl in *; lia. }
    destruct x, y; simpl in Exy; try discriminate.
    + left. rewrite lxor_cancel_r. simpl. lia.
    + right. rewrite lxor_cancel_l. simpl. lia.
Qed.

(* ---- The placing game on a list of live squares, for any piece. ---- *)

Section Placing.
Variable blocks : square -> square -> bool.
Variable blocks_self : forall s, blocks s s = true.

Notation after' := (remove_after blocks).
Notation value := (part_value blocks).

Lemma remove_after_keeps s L : (forall t, In t L -> blocks s t = false) -> after' s L = L.
Proof.
  unfold remove_after. induction L as [|t L IH]; intro H; simpl; auto.
  rewrite H by (left; auto). simpl. rewrite IH; auto. intros u Hu. apply H. now right.
Qed.

Lemma remove_after_app s A B : after' s (A ++ B) = after' s A ++ after' s B.
Proof. apply filter_app. Qed.

Lemma remove_after_incl s L t : In t (after' s L) -> In t L.
Proof. unfold remove_after. rewrite filter_In. tauto. Qed.

Lemma filter_not_longer {A} (f : A -> bool) (l : list A) : length (filter f l) <= length l.
Proof. induction l as [|a l IH]; simpl; [lia|]. destruct (f a); simpl; lia. Qed.

Lemma remove_after_shorter s L : In s L -> length (after' s L) < length L.
Proof.
  unfold remove_after. induction L as [|t L IH]; simpl; [tauto|]. intros [->|Hs].
  - rewrite blocks_self. simpl. pose proof (filter_not_longer (fun t => negb (blocks s t)) L). lia.
  - specialize (IH Hs). destruct (negb (blocks s t)); simpl; lia.
Qed.

(* The sum: for s in A the move leaves after' s A ++ B (s blocks nothing of
   B), and the same for B; by induction on the two lengths. *)
Lemma value_sum : forall m A B a b, length A + length B <= m -> unlinked blocks A B ->
  value A a -> value B b -> value (A ++ B) (Nat.lxor a b).
Proof.
  induction m as [m IH] using lt_wf_ind. intros A B a b Hm Hun HA HB.
  assert (forall s, In s A -> after' s (A ++ B) = after' s A ++ B) as MA.
  { intros s Hs. rewrite remove_after_app, (remove_after_keeps s B); auto. }
  assert (forall s, In s B -> after' s (A ++ B) = A ++ after' s B) as MB.
  { intros s Hs. rewrite remove_after_app, (remove_after_keeps s A); auto. }
  (* the parts after a move stay unlinked *)
  assert (forall s, unlinked blocks (after' s A) B) as UA.
  { intros s u t H. apply Hun. destruct H as [[Hu Ht]|[Hu Ht]]; eauto using remove_after_incl. }
  assert (forall s, unlinked blocks A (after' s B)) as UB.
  { intros s u t H. apply Hun. destruct H as [[Hu Ht]|[Hu Ht]]; eauto using remove_after_incl. }
  inversion HA as [A0 a0 NoA YesA]; subst. inversion HB as [B0 b0 NoB YesB]; subst.
  constructor.
  - intros s Hs. apply in_app_or in Hs as [Hs|Hs].
    + destruct (NoA s Hs) as [g' [Hg' Hne]]. exists (Nat.lxor g' b). split.
      * rewrite MA by exact Hs. apply (IH (length (after' s A) + length B)); auto.
        pose proof (remove_after_shorter s A Hs). lia.
      * intro E. apply Hne. rewrite <- (lxor_cancel_r g' b), <- (lxor_cancel_r a b), E. reflexivity.
    + destruct (NoB s Hs) as [g' [Hg' Hne]]. exists (Nat.lxor a g'). split.
      * rewrite MB by exact Hs. apply (IH (length A + length (after' s B))); auto.
        pose proof (remove_after_shorter s B Hs). lia.
      * intro E. apply Hne. rewrite <- (lxor_cancel_l a g'), <- (lxor_cancel_l a b), E. reflexivity.
  - intros k Hk. destruct (lxor_below (a + b + k) a b k) as [L|R]; auto.
    + destruct (YesA _ L) as [s [Hs Hv]]. exists s. split; [apply in_or_app; now left|].
      rewrite MA by exact Hs. replace k with (Nat.lxor (Nat.lxor k b) b) by apply lxor_cancel_r.
      apply (IH (length (after' s A) + length B)); auto.
      pose proof (remove_after_shorter s A Hs). lia.
    + destruct (YesB _ R) as [s [Hs Hv]]. exists s. split; [apply in_or_app; now right|].
      rewrite MB by exact Hs. replace k with (Nat.lxor a (Nat.lxor k a))
        by (rewrite Nat.lxor_comm; apply lxor_cancel_r).
      apply (IH (length A + length (after' s B))); auto.
      pose proof (remove_after_shorter s B Hs). lia.
Qed.

(* The value depends on the set of live squares only (not their order or
   repetitions): both lists have the same moves, to lists that again have
   the same members. *)
Lemma value_same_set : forall m L L' g, length L + length L' <= m ->
  (forall x, In x L <-> In x L') -> value L g -> value L' g.
Proof.
  induction m as [m IH] using lt_wf_ind. intros L L' g Hm Hsame HL.
  assert (forall s x, In x (after' s L) <-> In x (after' s L')) as Hrm.
  { intros s x. unfold remove_after. rewrite !filter_In, Hsame. tauto. }
  inversion HL as [L0 g0 No Yes]; subst. constructor.
  - intros s Hs. apply Hsame in Hs as Hs'. destruct (No s Hs') as [g' [Hg' Hne]].
    exists g'. split; auto. apply (IH (length (after' s L) + length (after' s L'))) with (after' s L); auto.
    pose proof (remove_after_shorter s L Hs'). pose proof (remove_after_shorter s L' Hs). lia.
  - intros k Hk. destruct (Yes k Hk) as [s [Hs Hv]]. exists s. split; [now apply Hsame|].
    apply (IH (length (after' s L) + length (after' s L'))) with (after' s L); auto.
    pose proof (remove_after_shorter s L Hs).
    pose proof (remove_after_shorter s L' (proj1 (Hsame s) Hs)). lia.
Qed.

End Placing.

Theorem parts_sum : parts_sum_statement.
Proof.
  intros blocks A B a b Hself Hun HA HB. now apply (value_sum blocks Hself (length A + length B)).
Qed.

(* ---- The queens game: Spec.v's Grundy value is the placing game's. ---- *)

Lemma grundy_live n : forall qs g, grundy n (Pos qs 0) g <-> part_value (attack_rule n) (live n qs) g.
Proof.
  intro qs. remember (free_count n qs) as k eqn:Hk. revert qs Hk.
  induction k as [k IH] using lt_wf_ind. intros qs Hk g.
  assert (IH1 : forall s g, free n qs s = true ->
            grundy n (Pos (s :: qs) 0) g <-> part_value (attack_rule n) (remove_after (attack_rule n) s (live n qs)) g).
  { intros s g' Hs. change (remove_after (attack_rule n) s (live n qs)) with (after n s (live n qs)).
    rewrite <- live_cons. apply (IH (free_count n (s :: qs))); auto. subst. now apply free_count_place. }
  split.
  - intro Hg. inversion Hg as [p0 g0 No Yes]; subst. constructor.
    + intros s Hs. apply in_live in Hs.
      destruct (No (Pos (s :: qs) 0)) as [g' [Hg' Hne]]; [now constructor|].
      exists g'. split; auto. now apply IH1.
    + intros j Hj. destruct (Yes j Hj) as [p' [Hm Hp']].
      apply move_from_heap0 in Hm as [s [Hs ->]].
      exists s. split; [now apply in_live|]. now apply IH1.
  - intro Hv. inversion Hv as [L0 g0 No Yes]; subst. constructor.
    + intros p' Hm. apply move_from_heap0 in Hm as [s [Hs ->]].
      destruct (No s (proj2 (in_live n qs s) Hs)) as [g' [Hg' Hne]].
      exists g'. split; auto. now apply IH1.
    + intros j Hj. destruct (Yes j Hj) as [s [Hs Hs']]. apply in_live in Hs.
      exists (Pos (s :: qs) 0). split; [now constructor|]. now apply IH1.
Qed.

Theorem queens_part_value : queens_part_value_statement.
Proof.
  intros n qs L g Hfree. rewrite grundy_live.
  assert (forall x, In x (live n qs) <-> In x L) as Hsame by (intro x; rewrite in_live; apply Hfree).
  split; intro H.
  - apply (value_same_set (attack_rule n) (attack_rule_self n) (length (live n qs) + length L) (live n qs)); auto.
  - apply (value_same_set (attack_rule n) (attack_rule_self n) (length L + length (live n qs)) L); auto.
    intro x. now rewrite Hsame.
Qed.
