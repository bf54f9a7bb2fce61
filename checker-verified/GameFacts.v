(* Helper facts about the game of Spec.v: the board's squares as a list,
   the rules in Prop form, every game ends, the options of a position as
   a finite list, and every position is won or lost (not both). *)
From Coq Require Import Arith Lia List Bool Wellfounded.
Import ListNotations.
From QueensGame Require Import Spec.

(* ---- The rules in Prop form. ---- *)

Lemma attacks_true_iff r1 c1 r2 c2 :
  attacks (r1, c1) (r2, c2) = true <->
  r1 = r2 \/ c1 = c2 \/ r1 + c2 = r2 + c1 \/ r1 + c1 = r2 + c2.
Proof.
  unfold attacks. rewrite !orb_true_iff, !Nat.eqb_eq. tauto.
Qed.

Lemma attacks_self s : attacks s s = true.
Proof. destruct s as [r c]. apply attacks_true_iff. now left. Qed.

Lemma attack_rule_self (b : board) s : attack_rule b s s = true.
Proof.
  destruct b as [n|n]; simpl; [apply attacks_self|].
  destruct s as [r c]. unfold torus_attacks. now rewrite Nat.eqb_refl.
Qed.

(* Each board's rule is symmetric: a attacks b exactly when b attacks a. *)
Lemma attack_rule_sym (b : board) s t : attack_rule b s t = attack_rule b t s.
Proof.
  destruct b as [n|n], s as [r1 c1], t as [r2 c2]; simpl.
  - unfold attacks. rewrite (Nat.eqb_sym r1), (Nat.eqb_sym c1), (Nat.eqb_sym (r1 + c2)), (Nat.eqb_sym (r1 + c1)).
    reflexivity.
  - unfold torus_attacks.
    rewrite (Nat.eqb_sym r1), (Nat.eqb_sym c1), (Nat.eqb_sym ((r1 + c2) mod n)), (Nat.eqb_sym ((r1 + c1) mod n)).
    reflexivity.
Qed.

Lemma on_board_size_iff (n : board) r c : on_board n (r, c) = true <-> r < size n /\ c < size n.
Proof. unfold on_board. simpl. now rewrite andb_true_iff, !Nat.ltb_lt. Qed.

Lemma on_board_iff (n : nat) r c : on_board n (r, c) = true <-> r < n /\ c < n.
Proof. apply on_board_size_iff. Qed.

Lemma free_iff (n : board) qs s :
  free n qs s = true <->
  on_board n s = true /\ forall q, In q qs -> attack_rule n q s = false.
Proof.
  unfold free. rewrite andb_true_iff, forallb_forall.
  split; intros [Hb H]; split; auto; intros q Hq; specialize (H q Hq).
  - now apply negb_true_iff.
  - now rewrite H.
Qed.

(* ---- Arithmetic modulo n (the torus). ---- *)

(* n - a mod n is - a modulo n: a plus it is a multiple of n. *)
Lemma mod_complement n a : n <> 0 -> a + (n - a mod n) = (a / n + 1) * n.
Proof.
  intro Hn. pose proof (Nat.div_mod a n Hn). pose proof (Nat.mod_upper_bound a n Hn). lia.
Qed.

(* ---- The squares of the board. ---- *)

Definition all_squares (n : nat) : list square := list_prod (seq 0 n) (seq 0 n).

Lemma in_all_squares (n : board) s : In s (all_squares (size n)) <-> on_board n s = true.
Proof.
  destruct s as [r c]. unfold all_squares.
  rewrite in_prod_iff, !in_seq, on_board_size_iff. lia.
Qed.

(* ---- Every game ends: free squares plus heap falls with each move. ---- *)

Definition free_count (n : board) (qs : list square) : nat :=
  length (filter (free n qs) (all_squares (size n))).

Definition measure (n : board) (p : position) : nat :=
  free_count n (queens p) + heap p.

Lemma filter_length_le {A} (f g : A -> bool) (l : list A) :
  (forall y, g y = true -> f y = true) ->
  length (filter g l) <= length (filter f l).
Proof.
  intro Hgf. induction l as [|a l IH]; simpl; [lia|].
  destruct (g a) eqn:Eg; [rewrite (Hgf a Eg)|destruct (f a)]; simpl; lia.
Qed.

Lemma filter_length_lt {A} (f g : A -> bool) (l : list A) (x : A) :
  (forall y, g y = true -> f y = true) ->
  In x l -> f x = true -> g x = false ->
  length (filter g l) < length (filter f l).
Proof.
  intros Hgf. induction l as [|a l IH]; simpl; [tauto|].
  intros [<-|Hin] Hf Hg.
  - rewrite Hf, Hg. simpl. pose proof (filter_length_le f g l Hgf). lia.
  - specialize (IH Hin Hf Hg).
    destruct (g a) eqn:Eg; [rewrite (Hgf a Eg)|destruct (f a)]; simpl; lia.
Qed.

Lemma free_count_place n qs s :
  free n qs s = true -> free_count n (s :: qs) < free_count n qs.
Proof.
  intro Hs. unfold free_count.
  apply filter_length_lt with (x := s).
  - intros y. unfold free. simpl.
    destruct (on_board n y), (attack_rule n s y); simpl; congruence.
  - apply in_all_squares. now apply free_iff in Hs.
  - exact Hs.
  - unfold free. simpl. now rewrite attack_rule_self, andb_false_r.
Qed.

Lemma move_measure n p p' : move n p p' -> measure n p' < measure n p.
Proof.
  intros [qs h s Hs|qs h h' Hh]; unfold measure; simpl.
  - pose proof (free_count_place n qs s Hs). lia.
  - lia.
Qed.

Theorem every_game_ends : every_game_ends_statement.
Proof.
  intro n. apply (well_founded_lt_compat _ (measure n)).
  intros p' p. apply move_measure.
Qed.

(* Induction over positions, along moves or along the measure. *)
Lemma move_ind n (P : position -> Prop) :
  (forall p, (forall p', move n p p' -> P p') -> P p) -> forall p, P p.
Proof. intro H. apply (well_founded_ind (every_game_ends n)). exact H. Qed.

Lemma measure_ind n (P : position -> Prop) :
  (forall p, (forall p', measure n p' < measure n p -> P p') -> P p) ->
  forall p, P p.
Proof.
  intro H. apply (well_founded_ind (well_founded_ltof _ (measure n))).
  exact H.
Qed.

(* ---- The options of a position, as a finite list. ---- *)

Definition options (n : board) (p : position) : list position :=
  map (fun s => Pos (s :: queens p) (heap p)) (filter (free n (queens p)) (all_squares (size n)))
  ++ map (fun h' => Pos (queens p) h') (seq 0 (heap p)).

Lemma in_options n p p' : In p' (options n p) <-> move n p p'.
Proof.
  destruct p as [qs h]. unfold options. simpl.
  rewrite in_app_iff, !in_map_iff. split.
  - intros [[s [<- Hs]]|[h' [<- Hh]]].
    + apply filter_In in Hs. constructor. tauto.
    + apply in_seq in Hh. constructor. lia.
  - intro Hm. inversion Hm; subst.
    + left. exists s. split; auto. apply filter_In. split; auto.
      apply in_all_squares. now apply free_iff in H2.
    + right. exists h'. split; auto. apply in_seq. lia.
Qed.

(* ---- Every position is won or lost, and not both. ---- *)

Lemma list_split {A} (P Q : A -> Prop) (l : list A) :
  (forall x, In x l -> P x \/ Q x) ->
  (exists x, In x l /\ Q x) \/ (forall x, In x l -> P x).
Proof.
  induction l as [|a l IH]; intro H; [right; simpl; tauto|].
  destruct (H a (or_introl eq_refl)) as [Pa|Qa].
  - destruct IH as [[x [Hx Qx]]|Hall].
    + intros x Hx. apply H. now right.
    + left. exists x. split; [now right|exact Qx].
    + right. intros x [<-|Hx]; auto.
  - left. exists a. split; [now left|exact Qa].
Qed.

Lemma not_wins_and_loses n p : ~ (wins n p /\ loses n p).
Proof.
  induction p as [p IH] using (move_ind n).
  intros [Hw Hl]. inversion Hw as [p0 p' Hm Hl']; subst.
  inversion Hl as [p0 Hall]; subst.
  apply (IH p' Hm). split; [apply Hall; exact Hm|exact Hl'].
Qed.

Lemma wins_or_loses n p : wins n p \/ loses n p.
Proof.
  induction p as [p IH] using (move_ind n).
  destruct (list_split (wins n) (loses n) (options n p)) as [[p' [Hin Hl]]|Hall].
  - intros p' Hin. apply IH. now apply in_options.
  - left. apply win with p'; auto. now apply in_options.
  - right. constructor. intros p' Hm. apply Hall. now apply in_options.
Qed.

Theorem determined : determined_statement.
Proof.
  intros n p. split; [apply wins_or_loses|apply not_wins_and_loses].
Qed.

(* ---- A player who wins by a rule wins. ---- *)

Theorem wins_by_wins : wins_by_wins_statement.
Proof.
  intros n reply p H. induction H as [qs h Hfree _ IH].
  apply win with (Pos (reply (Pos qs h) :: qs) h); [now constructor|].
  constructor. exact IH.
Qed.
