(* For every odd n the first player wins on the empty n x n board: play
   the centre, then answer each queen (r, c) of the opponent with its
   point reflection (n-1-r, n-1-c), which is always a legal move.

   Write n = 2m + 1; the centre is (m, m) and the reflection of (r, c) is
   (2m - r, 2m - c). After the centre and after each reply the placed
   queens are symmetric under the reflection and include the centre. An
   opponent's queen v is then not the centre (attacked), v does not attack
   its reflection v' (they share a line only if that line goes through
   the centre, whose lines are all attacked), and no earlier queen q
   attacks v', since q's reflection is placed too and q attacks v' exactly
   when q's reflection attacks v. *)
From Coq Require Import Arith Lia List Bool.
Import ListNotations.
From QueensGame Require Import Spec GameFacts.

Section OddBoard.

Variable m : nat.
Let n := 2 * m + 1.

Definition centre : square := (m, m).

Definition reflect (s : square) : square := (2 * m - fst s, 2 * m - snd s).

(* The positions the first player leaves to the opponent: the centre is
   placed, every queen is on the board and its reflection is placed. *)
Definition symmetric (qs : list square) : Prop :=
  In centre qs /\
  forall q, In q qs -> on_board n q = true /\ In (reflect q) qs.

Lemma attacks_false_iff r1 c1 r2 c2 :
  attacks (r1, c1) (r2, c2) = false <->
  ~ (r1 = r2 \/ c1 = c2 \/ r1 + c2 = r2 + c1 \/ r1 + c1 = r2 + c2).
Proof. rewrite <- attacks_true_iff. now rewrite not_true_iff_false. Qed.

Lemma reflect_on_board s : on_board n s = true -> on_board n (reflect s) = true.
Proof.
  destruct s as [r c]. unfold reflect, n. cbn [fst snd]. rewrite !on_board_iff. lia.
Qed.

Lemma reflect_reflect s : on_board n s = true -> reflect (reflect s) = s.
Proof.
  destruct s as [r c]. unfold reflect, n. cbn [fst snd]. rewrite on_board_iff.
  intros [Hr Hc]. f_equal; lia.
Qed.

Lemma reflect_centre : reflect centre = centre.
Proof. unfold reflect, centre. simpl. f_equal; lia. Qed.

(* A square the centre does not attack does not attack its reflection. *)
Lemma not_attacks_reflection v :
  on_board n v = true -> attacks centre v = false -> attacks v (reflect v) = false.
Proof.
  destruct v as [r c]. unfold reflect, centre, n. cbn [fst snd].
  rewrite on_board_iff, !attacks_false_iff. lia.
Qed.

(* q attacks the reflection of v exactly when q's reflection attacks v. *)
Lemma attacks_reflect q v :
  on_board n q = true -> on_board n v = true ->
  attacks q (reflect v) = attacks (reflect q) v.
Proof.
  destruct q as [r1 c1], v as [r2 c2]. unfold reflect, n. cbn [fst snd].
  rewrite !on_board_iff. intros H1 H2.
  apply eq_true_iff_eq. rewrite !attacks_true_iff. lia.
Qed.

(* The reply: after the opponent's queen v, the reflection of v is free. *)
Theorem reflection_reply_is_legal qs v :
  symmetric qs -> free n qs v = true -> free n (v :: qs) (reflect v) = true.
Proof.
  intros [Hc Hsym] Hv. apply free_iff in Hv as [Hvb Hfree].
  apply free_iff. split; [now apply reflect_on_board|].
  intros q [<-|Hq].
  - apply not_attacks_reflection; auto.
  - destruct (Hsym q Hq) as [Hqb Hq'].
    rewrite attacks_reflect; auto.
Qed.

Lemma symmetric_after_reply qs v :
  symmetric qs -> free n qs v = true -> symmetric (reflect v :: v :: qs).
Proof.
  intros [Hc Hsym] Hv. apply free_iff in Hv as [Hvb _].
  split; [simpl; auto|].
  intros q [<-|[<-|Hq]].
  - split; [now apply reflect_on_board|]. rewrite reflect_reflect; simpl; auto.
  - simpl. auto.
  - destruct (Hsym q Hq) as [Hqb Hq']. simpl. auto.
Qed.

(* The rule of Spec.v, for n = 2m + 1: the centre, then the reflection. *)
Lemma rule_empty h : centre_then_reflection n (Pos [] h) = centre.
Proof.
  unfold centre_then_reflection, centre, n. cbn [queens].
  replace ((2 * m + 1) / 2) with m; [reflexivity|].
  apply Nat.div_unique with 1; lia.
Qed.

Lemma rule_reply v qs h : centre_then_reflection n (Pos (v :: qs) h) = reflect v.
Proof.
  destruct v as [r c]. unfold centre_then_reflection, reflect, n.
  cbn [queens fst snd]. f_equal; lia.
Qed.

(* Every move of the opponent in a symmetric position (heap 0) leads to a
   position that the first player wins by the rule. *)
Lemma symmetric_wins_by : forall qs, symmetric qs ->
  forall p', move n (Pos qs 0) p' -> wins_by n (centre_then_reflection n) p'.
Proof.
  intro qs. remember (free_count n qs) as k eqn:Hk. revert qs Hk.
  induction k as [k IH] using lt_wf_ind. intros qs Hk Hsym p' Hm.
  inversion Hm as [qs0 h0 v Hv|qs0 h0 h' Hh]; subst; [|lia].
  pose proof (reflection_reply_is_legal qs v Hsym Hv) as Hr.
  constructor; rewrite rule_reply; [exact Hr|].
  apply (IH (free_count n (reflect v :: v :: qs))); auto.
  - pose proof (free_count_place _ _ _ Hv). pose proof (free_count_place _ _ _ Hr). lia.
  - now apply symmetric_after_reply.
Qed.

Lemma centre_free : free n [] centre = true.
Proof. apply free_iff. split; [|intros q []]. unfold centre, n. apply on_board_iff. lia. Qed.

Lemma symmetric_centre : symmetric [centre].
Proof.
  split; [now left|]. intros q [<-|[]]. split.
  - unfold centre, n. apply on_board_iff. lia.
  - rewrite reflect_centre. now left.
Qed.

(* The first player's opening: the centre, after which every move of the
   opponent is answered by the rule. *)
Lemma centre_then_reflection_wins : wins_by n (centre_then_reflection n) (Pos [] 0).
Proof.
  constructor; rewrite rule_empty; [apply centre_free|].
  apply symmetric_wins_by, symmetric_centre.
Qed.

End OddBoard.

Theorem odd_board_reflection_wins : odd_board_reflection_wins_statement.
Proof.
  intros n [m ->]. apply centre_then_reflection_wins.
Qed.

Theorem odd_board_first_player_wins : odd_board_first_player_wins_statement.
Proof.
  intros n Hodd. apply (wins_by_wins n (centre_then_reflection n)).
  now apply odd_board_reflection_wins.
Qed.
