(* The Grundy value of Spec.v is a function (every position has exactly
   one), and the Sprague-Grundy step: queens plus a heap of g counters
   are lost for the player to move exactly when the queens' Grundy value
   is g. *)
From Coq Require Import Arith Lia List.
Import ListNotations.
From QueensGame Require Import Spec GameFacts.

(* ---- The minimum excluded value of a list of numbers. ---- *)

Fixpoint mex_from (l : list nat) (k fuel : nat) : nat :=
  match fuel with
  | 0 => k
  | S f => if existsb (Nat.eqb k) l then mex_from l (S k) f else k
  end.

Definition mex (l : list nat) : nat := mex_from l 0 (S (list_max l)).

Lemma in_le_list_max l x : In x l -> x <= list_max l.
Proof.
  intro Hx. pose proof (proj1 (list_max_le l (list_max l)) (le_n _)) as H.
  rewrite Forall_forall in H. now apply H.
Qed.

Lemma mex_from_spec l : forall fuel k,
  (forall j, j < k -> In j l) -> list_max l < k + fuel ->
  ~ In (mex_from l k fuel) l /\ forall j, j < mex_from l k fuel -> In j l.
Proof.
  induction fuel as [|f IH]; intros k Hk Hmax; simpl.
  - split; auto. intro Hin. apply in_le_list_max in Hin. lia.
  - destruct (existsb (Nat.eqb k) l) eqn:E.
    + apply IH; [|lia]. intros j Hj.
      destruct (Nat.eq_dec j k) as [->|Hne]; [|apply Hk; lia].
      apply existsb_exists in E as [x [Hx Hkx]].
      apply Nat.eqb_eq in Hkx. now subst.
    + split; auto. intro Hin.
      assert (existsb (Nat.eqb k) l = true) as E'
        by (apply existsb_exists; exists k; split; auto; apply Nat.eqb_refl).
      congruence.
Qed.

Lemma mex_spec l : ~ In (mex l) l /\ forall j, j < mex l -> In j l.
Proof. apply mex_from_spec; [intros; lia|lia]. Qed.

(* ---- Lists of related values. ---- *)

Lemma forall2_exists {A B} (R : A -> B -> Prop) (l : list A) :
  (forall x, In x l -> exists y, R x y) -> exists ys, Forall2 R l ys.
Proof.
  induction l as [|a l IH]; intro H.
  - exists []. constructor.
  - destruct (H a (or_introl eq_refl)) as [y Hy].
    destruct IH as [ys Hys]; [intros x Hx; apply H; now right|].
    exists (y :: ys). now constructor.
Qed.

Lemma forall2_in_l {A B} (R : A -> B -> Prop) l ys x :
  Forall2 R l ys -> In x l -> exists y, In y ys /\ R x y.
Proof.
  induction 1 as [|a y l ys Hay _ IH]; [intros []|].
  intros [<-|Hx]; [exists y; simpl; auto|].
  destruct (IH Hx) as [y' [Hy' R']]. exists y'. simpl. auto.
Qed.

Lemma forall2_in_r {A B} (R : A -> B -> Prop) l ys y :
  Forall2 R l ys -> In y ys -> exists x, In x l /\ R x y.
Proof.
  induction 1 as [|a y' l ys Hay _ IH]; [intros []|].
  intros [<-|Hy]; [exists a; simpl; auto|].
  destruct (IH Hy) as [x [Hx Rx]]. exists x. simpl. auto.
Qed.

(* ---- The Grundy value is a function. ---- *)

Lemma grundy_exists n p : exists g, grundy n p g.
Proof.
  induction p as [p IH] using (move_ind n).
  destruct (forall2_exists (grundy n) (options n p)) as [vs Hvs].
  { intros p' Hin. apply IH. now apply in_options. }
  destruct (mex_spec vs) as [Hnot Hbelow].
  exists (mex vs). constructor.
  - intros p' Hm. apply in_options in Hm.
    destruct (forall2_in_l _ _ _ _ Hvs Hm) as [v [Hv Hg]].
    exists v. split; auto. intros ->. contradiction.
  - intros k Hk. destruct (forall2_in_r _ _ _ _ Hvs (Hbelow k Hk)) as [p' [Hin Hg]].
    exists p'. split; auto. now apply in_options.
Qed.

Lemma grundy_unique n p g1 g2 : grundy n p g1 -> grundy n p g2 -> g1 = g2.
Proof.
  revert g1 g2. induction p as [p IH] using (move_ind n).
  (* a smaller value g1 < g2 is the value of an option of p, which then
     has the value g1 and, by p's value g1, also a value other than g1 *)
  assert (forall g1 g2, grundy n p g1 -> grundy n p g2 -> ~ g1 < g2) as Hlt.
  { intros g1 g2 H1 H2 Hlt. inversion H1 as [p0 g0 Hno _]; subst.
    inversion H2 as [p0 g0 _ Hyes]; subst.
    destruct (Hyes g1 Hlt) as [p' [Hm Hg1]].
    destruct (Hno p' Hm) as [g' [Hg' Hne]].
    apply Hne. exact (IH p' Hm g' g1 Hg' Hg1). }
  intros g1 g2 H1 H2.
  destruct (Nat.lt_total g1 g2) as [H|[H|H]]; auto.
  - exfalso. exact (Hlt g1 g2 H1 H2 H).
  - exfalso. exact (Hlt g2 g1 H2 H1 H).
Qed.

Theorem grundy_function : grundy_function_statement.
Proof.
  intros n p. split; [apply grundy_exists|apply grundy_unique].
Qed.

(* ---- The Sprague-Grundy step. ---- *)

(* From the queens alone (heap 0) the only moves place a queen. *)
Lemma move_from_heap0 n qs p' :
  move n (Pos qs 0) p' -> exists s, free n qs s = true /\ p' = Pos (s :: qs) 0.
Proof.
  intro Hm. inversion Hm; subst; [eauto|lia].
Qed.

Lemma sg_step n : forall qs g, loses n (Pos qs g) <-> grundy n (Pos qs 0) g.
Proof.
  intro qs. remember (free_count n qs) as k eqn:Hk. revert qs Hk.
  induction k as [k IH] using lt_wf_ind. intros qs Hk g.
  (* the claim for the queens after one or two more queens *)
  assert (IH1 : forall s g, free n qs s = true ->
            loses n (Pos (s :: qs) g) <-> grundy n (Pos (s :: qs) 0) g).
  { intros s g' Hs. apply (IH (free_count n (s :: qs))); auto.
    subst. now apply free_count_place. }
  assert (IH2 : forall s t g, free n qs s = true -> free n (s :: qs) t = true ->
            loses n (Pos (t :: s :: qs) g) <-> grundy n (Pos (t :: s :: qs) 0) g).
  { intros s t g' Hs Ht. apply (IH (free_count n (t :: s :: qs))); auto.
    subst. pose proof (free_count_place _ _ _ Hs).
    pose proof (free_count_place _ _ _ Ht). lia. }
  split.
  - (* lost with heap g: the queens' value is g *)
    intro Hl. constructor.
    + intros p' Hm. apply move_from_heap0 in Hm as [s [Hs ->]].
      destruct (grundy_exists n (Pos (s :: qs) 0)) as [g' Hg'].
      exists g'. split; auto. intros ->.
      apply (not_wins_and_loses n (Pos (s :: qs) g)). split.
      * inversion Hl; subst. apply H. now constructor.
      * now apply IH1.
    + intros j Hj.
      assert (wins n (Pos qs j)) as Hw
        by (inversion Hl; subst; apply H; now constructor).
      inversion Hw as [p0 p' Hm Hl']; subst.
      inversion Hm; subst.
      * exists (Pos (s :: qs) 0). split; [now constructor|].
        now apply IH1.
      * exfalso. apply (not_wins_and_loses n (Pos qs h')). split; auto.
        inversion Hl; subst. apply H. constructor. lia.
  - (* the queens' value is g: lost with heap g *)
    intro Hg. inversion Hg as [p0 g0 Hno Hyes]; subst.
    constructor. intros p' Hm. inversion Hm as [qs0 h0 s Hs|qs0 h0 h' Hh]; subst.
    + (* a queen on s: the new queens have a value g' other than g *)
      destruct (Hno (Pos (s :: qs) 0)) as [g' [Hg' Hne]]; [now constructor|].
      destruct (Nat.lt_total g' g) as [Hlt|[->|Hgt]]; [|contradiction|].
      * apply win with (Pos (s :: qs) g'); [now constructor|].
        now apply IH1.
      * inversion Hg' as [p0 g0 _ Hyes']; subst.
        destruct (Hyes' g Hgt) as [p'' [Hm' Hg'']].
        apply move_from_heap0 in Hm' as [t [Ht ->]].
        apply win with (Pos (t :: s :: qs) g); [now constructor|].
        now apply (IH2 s t).
    + (* the heap lowered to h' < g: some option of the queens has value h' *)
      destruct (Hyes h' Hh) as [p'' [Hm' Hg'']].
      apply move_from_heap0 in Hm' as [s [Hs' ->]].
      apply win with (Pos (s :: qs) h'); [now constructor|].
      now apply IH1.
Qed.

Theorem sprague_grundy_step : sprague_grundy_step_statement.
Proof. intros n qs g. apply sg_step. Qed.
