(* The symmetry lemma: each of the eight symmetries of the square maps the
   game to itself. A position whose queens are on the board and its image
   under a symmetry have the same outcome (with any heap) and the same
   Grundy value. qcert's prover and checkers use it to treat positions up to
   symmetry; here it is a theorem (symmetry_lemma_statement in Spec.v).

   The proof: a map f of squares that keeps the board, keeps attacks between
   squares of the board, and reaches every square of the board, turns every
   move of a position into a move of its image and back, so by induction
   along moves a win stays a win and a loss a loss. Each of the eight maps
   has one of the eight as its inverse, which gives the other direction. *)
From Coq Require Import Arith Lia List Bool.
Import ListNotations.
From QueensGame Require Import Spec GameFacts SpragueGrundy.

Section Map.

(* Any board: the square's eight maps below, the torus's later. *)
Variable n : board.

(* What the proof needs of a map f: it keeps the board and the attacks
   between squares of the board, and every square of the board is the image
   of one. *)
Definition board_map (f : square -> square) : Prop :=
  (forall s, on_board n s = true -> on_board n (f s) = true) /\
  (forall a b, on_board n a = true -> on_board n b = true ->
     attack_rule n (f a) (f b) = attack_rule n a b) /\
  (forall t, on_board n t = true -> exists s, on_board n s = true /\ f s = t).

Definition on_board_all (qs : list square) : bool := forallb (on_board n) qs.

Definition image (f : square -> square) (p : position) : position :=
  Pos (map f (queens p)) (heap p).

Lemma free_image f qs s :
  board_map f -> on_board_all qs = true -> on_board n s = true ->
  free n (map f qs) (f s) = free n qs s.
Proof.
  intros [Hb [Ha _]] Hqs Hs. unfold free. rewrite Hs, (Hb s Hs). simpl.
  unfold on_board_all in Hqs. rewrite forallb_forall in Hqs.
  induction qs as [|q qs IH]; simpl; [reflexivity|].
  rewrite (Ha q s); [|apply Hqs; now left|exact Hs].
  rewrite IH; [reflexivity|]. intros x Hx. apply Hqs. now right.
Qed.

Lemma free_on_board qs s : free n qs s = true -> on_board n s = true.
Proof. intro H. apply free_iff in H. tauto. Qed.

(* A move keeps the queens on the board. *)
Lemma move_on_board p p' :
  move n p p' -> on_board_all (queens p) = true -> on_board_all (queens p') = true.
Proof.
  intros Hm H. inversion Hm; subst; simpl in *; auto.
  unfold on_board_all in *. simpl. rewrite H, (free_on_board qs s H0). reflexivity.
Qed.

(* A move of p gives a move of its image. *)
Lemma move_image f p p' :
  board_map f -> on_board_all (queens p) = true -> move n p p' -> move n (image f p) (image f p').
Proof.
  intros Hf Hp Hm. inversion Hm; subst; unfold image; simpl in *.
  - apply place_queen. rewrite free_image; auto. eapply free_on_board; eauto.
  - now constructor.
Qed.

(* Every move of the image is the image of a move of p. *)
Lemma move_from_image f p p'' :
  board_map f -> on_board_all (queens p) = true -> move n (image f p) p'' ->
  exists p', move n p p' /\ p'' = image f p'.
Proof.
  intros Hf Hp Hm. destruct p as [qs h]. unfold image in Hm. simpl in Hm, Hp.
  inversion Hm as [qs0 h0 t Hfree|qs0 h0 h' Hlt]; subst.
  - destruct Hf as [Hb [Ha Hs]].
    destruct (Hs t (free_on_board _ _ Hfree)) as [s0 [Hs0 <-]].
    exists (Pos (s0 :: qs) h). split; [|reflexivity]. apply place_queen.
    rewrite <- (free_image f); auto. repeat split; auto.
  - exists (Pos qs h'). split; [now apply lower_heap|reflexivity].
Qed.

Lemma outcome_image f :
  board_map f -> forall p, on_board_all (queens p) = true ->
  (wins n p -> wins n (image f p)) /\ (loses n p -> loses n (image f p)).
Proof.
  intros Hf. apply (move_ind n (fun p => on_board_all (queens p) = true ->
    (wins n p -> wins n (image f p)) /\ (loses n p -> loses n (image f p)))).
  intros p IH Hp. split.
  - intro W. inversion W as [p0 p' Hm L]; subst.
    apply win with (image f p'); [now apply move_image|].
    apply (IH p' Hm (move_on_board _ _ Hm Hp)). exact L.
  - intro L. inversion L as [p0 Hall]; subst. constructor. intros p'' Hm.
    destruct (move_from_image f p p'' Hf Hp Hm) as [p' [Hm' ->]].
    apply (IH p' Hm' (move_on_board _ _ Hm' Hp)). now apply Hall.
Qed.

(* With a left inverse g among such maps, the outcome is the same both ways. *)
Lemma outcome_iff f g qs h :
  board_map f -> board_map g -> (forall s, on_board n s = true -> g (f s) = s) ->
  on_board_all qs = true ->
  (wins n (Pos qs h) <-> wins n (Pos (map f qs) h)) /\
  (loses n (Pos qs h) <-> loses n (Pos (map f qs) h)).
Proof.
  intros Hf Hg Hgf Hqs.
  assert (on_board_all (map f qs) = true) as Himg.
  { unfold on_board_all in *. rewrite forallb_forall in *. intros x Hx.
    apply in_map_iff in Hx as [s [<- Hs]]. apply (proj1 Hf). auto. }
  assert (map g (map f qs) = qs) as Hback.
  { rewrite map_map. rewrite <- map_id. apply map_ext_in. intros s Hs. apply Hgf.
    unfold on_board_all in Hqs. rewrite forallb_forall in Hqs. auto. }
  pose proof (outcome_image f Hf (Pos qs h) Hqs) as [W1 L1].
  pose proof (outcome_image g Hg (Pos (map f qs) h) Himg) as [W2 L2].
  unfold image in *; simpl in *. rewrite Hback in W2, L2. tauto.
Qed.

End Map.

(* ---- The eight maps of Spec.v. ---- *)

(* A map f with an inverse g, both keeping the board and the attacks. *)
Lemma inverse_pair (n : nat) f g :
  (forall s, on_board n s = true -> on_board n (f s) = true) ->
  (forall s, on_board n s = true -> on_board n (g s) = true) ->
  (forall a b, on_board n a = true -> on_board n b = true -> attacks (f a) (f b) = attacks a b) ->
  (forall a b, on_board n a = true -> on_board n b = true -> attacks (g a) (g b) = attacks a b) ->
  (forall s, on_board n s = true -> g (f s) = s) ->
  (forall s, on_board n s = true -> f (g s) = s) ->
  board_map n f /\ exists g, board_map n g /\ forall s, on_board n s = true -> g (f s) = s.
Proof.
  intros Hf Hg Af Ag Hgf Hfg. split; [|exists g; split; [|exact Hgf]];
    (repeat split; auto); intros t Ht; [exists (g t)|exists (f t)]; auto.
Qed.

Lemma bool_eq_iff (a b : bool) : (a = true <-> b = true) -> a = b.
Proof. destruct a, b; intuition congruence. Qed.

(* One goal about squares of the board, by arithmetic. *)
Ltac square_goal :=
  first
  [ intros [r c] H; apply on_board_iff in H; cbv beta iota; apply on_board_iff; lia
  | intros [r c] H; apply on_board_iff in H; cbv beta iota; f_equal; lia
  | intros [r1 c1] [r2 c2] H1 H2; apply on_board_iff in H1, H2; cbv beta iota; cbn [size] in *;
    apply bool_eq_iff; rewrite !attacks_true_iff; lia ].

Lemma symmetries_are_board_maps (n : nat) f :
  In f (symmetries n) ->
  board_map n f /\ exists g, board_map n g /\ forall s, on_board n s = true -> g (f s) = s.
Proof.
  (* Each map with its inverse: the two quarter turns are each other's
     inverse; the other six are their own. *)
  intro Hin. simpl in Hin.
  destruct Hin as [<-|[<-|[<-|[<-|[<-|[<-|[<-|[<-|[]]]]]]]]];
  [ apply (inverse_pair n _ (fun s : square => s))
  | apply (inverse_pair n _ (fun s : square => let '(r, c) := s in (n - 1 - c, r)))
  | apply (inverse_pair n _ (fun s : square => let '(r, c) := s in (n - 1 - r, n - 1 - c)))
  | apply (inverse_pair n _ (fun s : square => let '(r, c) := s in (c, n - 1 - r)))
  | apply (inverse_pair n _ (fun s : square => let '(r, c) := s in (n - 1 - r, c)))
  | apply (inverse_pair n _ (fun s : square => let '(r, c) := s in (r, n - 1 - c)))
  | apply (inverse_pair n _ (fun s : square => let '(r, c) := s in (c, r)))
  | apply (inverse_pair n _ (fun s : square => let '(r, c) := s in (n - 1 - c, n - 1 - r))) ];
  square_goal.
Qed.

Theorem symmetry_lemma : symmetry_lemma_statement.
Proof.
  intros n f qs h Hin Hqs.
  destruct (symmetries_are_board_maps n f Hin) as [Hf [g [Hg Hgf]]].
  destruct (outcome_iff n f g qs h Hf Hg Hgf Hqs) as [W L].
  split; [exact W|split; [exact L|]].
  intro v. rewrite <- !sg_step.
  exact (proj2 (outcome_iff n f g qs v Hf Hg Hgf Hqs)).
Qed.

(* ---- The torus's translations. ---- *)

(* Adding k on both sides keeps (and reflects) agreement modulo n. *)
Lemma mod_add_same n x y k : n <> 0 -> ((x + k) mod n = (y + k) mod n <-> x mod n = y mod n).
Proof.
  intro Hn. split; intro E.
  - pose proof (mod_complement n k Hn) as Hk.
    rewrite <- (Nat.mod_add x (k / n + 1) n Hn), <- (Nat.mod_add y (k / n + 1) n Hn).
    replace (x + (k / n + 1) * n) with ((x + k) + (n - k mod n)) by lia.
    replace (y + (k / n + 1) * n) with ((y + k) + (n - k mod n)) by lia.
    rewrite <- (Nat.add_mod_idemp_l (x + k)), E, Nat.add_mod_idemp_l by exact Hn. reflexivity.
  - rewrite <- (Nat.add_mod_idemp_l x), E, Nat.add_mod_idemp_l by exact Hn. reflexivity.
Qed.

Lemma mod_add_cancel n x y k : x < n -> y < n -> (x + k) mod n = (y + k) mod n -> x = y.
Proof.
  intros Hx Hy E. apply mod_add_same in E; [|lia]. now rewrite !Nat.mod_small in E.
Qed.

(* A shift by d and one by n - d mod n undo each other, in either order. *)
Lemma mod_shift_back n x d : x < n -> ((x + d) mod n + (n - d mod n)) mod n = x.
Proof.
  intro Hx. assert (n <> 0) as Hn by lia.
  pose proof (mod_complement n d Hn) as Hd.
  rewrite Nat.add_mod_idemp_l by exact Hn.
  replace (x + d + (n - d mod n)) with (x + (d / n + 1) * n) by lia.
  rewrite Nat.mod_add by exact Hn. apply Nat.mod_small, Hx.
Qed.

Lemma mod_shift_forth n x d : x < n -> ((x + (n - d mod n)) mod n + d) mod n = x.
Proof.
  intro Hx. assert (n <> 0) as Hn by lia.
  pose proof (mod_complement n d Hn) as Hd.
  rewrite Nat.add_mod_idemp_l by exact Hn.
  replace (x + (n - d mod n) + d) with (x + (d / n + 1) * n) by lia.
  rewrite Nat.mod_add by exact Hn. apply Nat.mod_small, Hx.
Qed.

Lemma translation_on_board n dr dc s :
  on_board (torus n) s = true -> on_board (torus n) (translation n dr dc s) = true.
Proof.
  destruct s as [r c]. unfold translation. rewrite !on_board_size_iff. simpl. intros [Hr Hc].
  split; apply Nat.mod_upper_bound; lia.
Qed.

Lemma translation_attacks n dr dc a b :
  on_board (torus n) a = true -> on_board (torus n) b = true ->
  attack_rule (torus n) (translation n dr dc a) (translation n dr dc b) = attack_rule (torus n) a b.
Proof.
  destruct a as [r1 c1], b as [r2 c2]. unfold translation. rewrite !on_board_size_iff. simpl.
  intros [H1 H2] [H3 H4]. assert (n <> 0) as Hn by lia.
  unfold torus_attacks.
  assert (forall x y, x < n -> y < n -> forall d, ((x + d) mod n =? (y + d) mod n) = (x =? y)) as Same.
  { intros x y Hx Hy d. apply eq_true_iff_eq. rewrite !Nat.eqb_eq.
    split; [apply mod_add_cancel; lia|now intros ->]. }
  assert (forall x y, ((x + dr) mod n + (y + dc) mod n) mod n = ((x + y) + (dr + dc)) mod n) as Sum.
  { intros x y. rewrite <- Nat.add_mod by exact Hn. f_equal. lia. }
  assert (forall x y, ((x + (dr + dc)) mod n =? (y + (dr + dc)) mod n) = (x mod n =? y mod n)) as Diag.
  { intros x y. apply eq_true_iff_eq. rewrite !Nat.eqb_eq. apply mod_add_same, Hn. }
  rewrite (Same r1 r2), (Same c1 c2), !Sum, !Diag by assumption. reflexivity.
Qed.

Lemma translation_board_map n dr dc : board_map (torus n) (translation n dr dc).
Proof.
  split; [|split].
  - apply translation_on_board.
  - apply translation_attacks.
  - intros t Ht. exists (translation n (n - dr mod n) (n - dc mod n) t).
    split; [now apply translation_on_board|].
    destruct t as [r c]. apply on_board_size_iff in Ht. simpl in Ht. unfold translation. simpl.
    f_equal; apply mod_shift_forth; lia.
Qed.

Theorem torus_translation_lemma : torus_translation_lemma_statement.
Proof.
  intros n dr dc qs h Hqs.
  set (f := translation n dr dc). set (g := translation n (n - dr mod n) (n - dc mod n)).
  assert (forall s, on_board (torus n) s = true -> g (f s) = s) as Hgf.
  { intros [r c] Hs. apply on_board_size_iff in Hs. simpl in Hs. unfold f, g, translation. simpl.
    f_equal; apply mod_shift_back; lia. }
  pose proof (translation_board_map n dr dc) as Hf.
  pose proof (translation_board_map n (n - dr mod n) (n - dc mod n)) as Hg.
  destruct (outcome_iff (torus n) f g qs h Hf Hg Hgf Hqs) as [W L].
  split; [exact W|split; [exact L|]].
  intro v. rewrite <- !sg_step.
  exact (proj2 (outcome_iff (torus n) f g qs v Hf Hg Hgf Hqs)).
Qed.

(* ---- The maps of each board, with their inverses. ---- *)

(* The square's eight symmetries (Spec.v, symmetries); the torus's n * n
   translations (Spec.v, translation). The manifest step (Manifest.v) and
   the table check's look-ups up to a map (Checker.v) use these. *)
Definition board_maps (b : board) : list (square -> square) :=
  match b with
  | square_board n => symmetries n
  | torus n => flat_map (fun dr => map (fun dc => translation n dr dc) (seq 0 n)) (seq 0 n)
  end.

(* Each of them is a board map with an inverse that is one too. *)
Lemma board_maps_invertible b f :
  In f (board_maps b) ->
  board_map b f /\ exists g, board_map b g /\
    forall s, on_board b s = true -> g (f s) = s /\ f (g s) = s.
Proof.
  intro Hin.
  assert (board_map b f /\ exists g, board_map b g /\ forall s, on_board b s = true -> g (f s) = s)
    as [Hf [g [Hg Hgf]]].
  { destruct b as [n|n]; simpl in Hin.
    - now apply symmetries_are_board_maps.
    - apply in_flat_map in Hin as [dr [_ Hin]]. apply in_map_iff in Hin as [dc [<- _]].
      split; [apply translation_board_map|].
      exists (translation n (n - dr mod n) (n - dc mod n)). split; [apply translation_board_map|].
      intros [r c] Hs. apply on_board_size_iff in Hs. simpl in Hs. unfold translation. simpl.
      f_equal; apply mod_shift_back; lia. }
  split; [exact Hf|]. exists g. split; [exact Hg|]. intros s Hs. split; [now apply Hgf|].
  destruct Hf as [_ [_ Hsurj]]. destruct (Hsurj s Hs) as [s0 [Hs0 <-]]. now rewrite Hgf.
Qed.
