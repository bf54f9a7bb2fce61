(* The manifest step, proved: a claim follows from the claims of its shards
   (each checked by check_claim, Checker.v) when the shards cover its moves
   up to the board's maps: the symmetries of the square, the translations of
   the torus (Symmetry.v).

   A manifest holds the claim and a list of shards, each a claim with its own
   input (a table, Checker.v). check_manifest accepts when every shard's check accepts, the
   claim's queens are placed by legal moves, and:
   - "loses at (qs, h)" (and "the Grundy value of qs is g", which is "loses
     at (qs, g)" by the Sprague-Grundy step): every move from (qs, h) leads
     to a position that some shard claims won, up to a symmetry;
   - "wins at (qs, h)": some move leads to a position that some shard claims
     lost, or whose every move leads to one some shard claims won (the
     shards below a winning first move).
   "Up to a symmetry": the shard's queens are the image of the position's
   queens under one of the board's maps, as sets (in any order). *)
From Coq Require Import Arith Lia List Bool.
Import ListNotations.
From QueensGame Require Import Spec GameFacts SpragueGrundy Symmetry Checker.

(* ---- A position's outcome depends only on the set of its queens. ---- *)

Definition same_squares (a b : list square) : bool :=
  forallb (fun x => existsb (square_eqb x) b) a && forallb (fun x => existsb (square_eqb x) a) b.

Lemma same_squares_in a b : same_squares a b = true -> forall x, In x a <-> In x b.
Proof.
  unfold same_squares. rewrite andb_true_iff, !forallb_forall. intros [Hab Hba] x.
  split; intro Hx.
  - destruct (proj1 (existsb_exists _ _) (Hab x Hx)) as [y [Hy E]].
    apply square_eqb_eq in E. now subst.
  - destruct (proj1 (existsb_exists _ _) (Hba x Hx)) as [y [Hy E]].
    apply square_eqb_eq in E. now subst.
Qed.

Lemma free_same n a b s : (forall x, In x a <-> In x b) -> free n a s = free n b s.
Proof.
  intro H. destruct (free n a s) eqn:Ea, (free n b s) eqn:Eb; auto;
    [apply free_iff in Ea; apply not_true_iff_false in Eb; exfalso; apply Eb; apply free_iff
    |apply free_iff in Eb; apply not_true_iff_false in Ea; exfalso; apply Ea; apply free_iff];
    split; try tauto; intros q Hq; [apply Ea|apply Eb]; now apply H.
Qed.

Lemma outcome_same n : forall p, forall b,
  (forall x, In x (queens p) <-> In x b) ->
  (wins n p -> wins n (Pos b (heap p))) /\ (loses n p -> loses n (Pos b (heap p))).
Proof.
  apply (move_ind n (fun p => forall b, (forall x, In x (queens p) <-> In x b) ->
    (wins n p -> wins n (Pos b (heap p))) /\ (loses n p -> loses n (Pos b (heap p))))).
  intros [a h] IH b Hab. simpl in *. split.
  - intro W. inversion W as [p0 p' Hm L]; subst.
    inversion Hm as [qs0 h0 s Hfree|qs0 h0 h' Hlt]; subst.
    + apply win with (Pos (s :: b) h).
      * apply place_queen. rewrite <- (free_same n a b s Hab). exact Hfree.
      * apply (IH _ Hm (s :: b)); [|exact L]. intro x. simpl. specialize (Hab x). tauto.
    + apply win with (Pos b h'); [now apply lower_heap|].
      apply (IH _ Hm b Hab). exact L.
  - intro L. inversion L as [p0 Hall]; subst. constructor. intros p'' Hm.
    inversion Hm as [qs0 h0 s Hfree|qs0 h0 h' Hlt]; subst.
    + assert (move n (Pos a h) (Pos (s :: a) h)) as Hm'
        by (apply place_queen; rewrite (free_same n a b s Hab); exact Hfree).
      apply (IH _ Hm' (s :: b)); [|now apply Hall].
      intro x. simpl. specialize (Hab x). tauto.
    + assert (move n (Pos a h) (Pos a h')) as Hm' by (now apply lower_heap).
      apply (IH _ Hm' b Hab). now apply Hall.
Qed.

(* ---- The maps a manifest may use. ---- *)

(* board_maps (Symmetry.v): the square's eight symmetries, the torus's n * n
   translations. *)

Definition board_eqb (a b : board) : bool :=
  match a, b with
  | square_board m, square_board n => Nat.eqb m n
  | torus m, torus n => Nat.eqb m n
  | _, _ => false
  end.

Lemma board_eqb_eq a b : board_eqb a b = true -> a = b.
Proof. destruct a, b; simpl; try discriminate; intro E; apply Nat.eqb_eq in E; now subst. Qed.

(* Each of them keeps the outcome (the symmetry and translation lemmas). *)
Lemma board_maps_keep b f qs h :
  In f (board_maps b) -> forallb (on_board b) qs = true ->
  (wins b (Pos qs h) <-> wins b (Pos (map f qs) h)) /\ (loses b (Pos qs h) <-> loses b (Pos (map f qs) h)).
Proof.
  destruct b as [n|n]; simpl; intros Hf Hqs.
  - destruct (symmetry_lemma n f qs h Hf Hqs) as [W [L _]]. auto.
  - apply in_flat_map in Hf as [dr [_ Hf]]. apply in_map_iff in Hf as [dc [<- _]].
    destruct (torus_translation_lemma n dr dc qs h Hqs) as [W [L _]]. auto.
Qed.

(* ---- What a checked shard shows. ---- *)

(* A shard: its claim, and its input as a function of no argument, so that
   the driver reads each shard's table only when its check starts (one
   table in memory at a time). The proof holds whatever the function
   returns: a shard's claim counts only once check_claim accepted it with
   that input. *)
Definition shard : Type := (claim * (unit -> input))%type.

(* The shard's claim is that (qs, h), up to one of the board's maps, is won (or lost). *)
Definition shard_wins (n : board) (qs : list square) (h : nat) (sh : shard) : bool :=
  match fst sh with
  | claim_wins n' qs' h' =>
      board_eqb n' n && Nat.eqb h' h && existsb (fun f => same_squares (map f qs) qs') (board_maps n)
  | _ => false
  end.

Definition shard_loses (n : board) (qs : list square) (h : nat) (sh : shard) : bool :=
  match fst sh with
  | claim_loses n' qs' h' =>
      board_eqb n' n && Nat.eqb h' h && existsb (fun f => same_squares (map f qs) qs') (board_maps n)
  | _ => false
  end.

(* Every move from (qs, h) leads to a position some shard claims won. *)
Definition moves_covered (shards : list shard) (n : board) (qs : list square) (h : nat) : bool :=
  forallb (fun s => existsb (shard_wins n (s :: qs) h) shards) (live n qs)
  && forall_from (fun h' => existsb (shard_wins n qs h') shards) 0 h.

(* (qs, h) is lost: a shard claims so, or its moves are covered. *)
Definition lost_by_shards (shards : list shard) (n : board) (qs : list square) (h : nat) : bool :=
  existsb (shard_loses n qs h) shards || moves_covered shards n qs h.

(* The step from the shards' claims to the manifest's (the shards' inputs
   are not read here). *)
Definition manifest_step (c : claim) (shards : list shard) : bool :=
  placed (claim_board c) (claim_queens c)
  && match c with
     | claim_loses n qs h => moves_covered shards n qs h
     | claim_grundy n qs g => moves_covered shards n qs g
     | claim_wins n qs h =>
         existsb (fun s => lost_by_shards shards n (s :: qs) h) (live n qs)
         || exists_from (fun h' => lost_by_shards shards n qs h') 0 h
     end.

(* Every shard's check accepts, and the step. (checker-verified --jobs J runs
   the shards' checks in J processes, and the step when all accepted:
   manifest_step_sound below.) *)
Definition check_manifest (c : claim) (shards : list shard) : bool :=
  forallb (fun sh => check_claim (fst sh) (snd sh tt)) shards && manifest_step c shards.

(* ---- Soundness. ---- *)


Lemma placed_cons n qs s : placed n qs = true -> In s (live n qs) -> placed n (s :: qs) = true.
Proof. intros H Hs. apply in_live in Hs. simpl. now rewrite Hs, H. Qed.

Section Sound.

Variable shards : list shard.
Variable checked : forall sh, In sh shards -> claim_holds (fst sh).

(* A shard's claim up to a symmetry gives the position's outcome. *)
Lemma shard_shows_image (n : board) qs qs' f :
  forallb (on_board n) qs = true -> In f (board_maps n) -> same_squares (map f qs) qs' = true ->
  forall h, (wins n (Pos qs' h) -> wins n (Pos qs h)) /\ (loses n (Pos qs' h) -> loses n (Pos qs h)).
Proof.
  intros Hqs Hf E h.
  pose proof (same_squares_in _ _ E) as Hin.
  assert (forall x, In x qs' <-> In x (map f qs)) as Hin' by (intro x; specialize (Hin x); tauto).
  destruct (outcome_same n (Pos qs' h) (map f qs) Hin') as [W L].
  destruct (board_maps_keep n f qs h Hf Hqs) as [[_ W'] [_ L']].
  simpl in W, L. split; intro H; auto.
Qed.

Lemma won_by_shard (n : board) qs h :
  forallb (on_board n) qs = true -> existsb (shard_wins n qs h) shards = true -> wins n (Pos qs h).
Proof.
  intros Hqs E. apply existsb_exists in E as [sh [Hsh E]].
  unfold shard_wins in E. pose proof (checked sh Hsh) as Hc.
  destruct (fst sh) as [n' qs' h'|n' qs' h'|n' qs' g']; try discriminate.
  rewrite !andb_true_iff, Nat.eqb_eq in E. destruct E as [[Eb ->] E]. apply board_eqb_eq in Eb. subst n'.
  apply existsb_exists in E as [f [Hf E]].
  apply (proj1 (shard_shows_image n qs qs' f Hqs Hf E h)). exact (proj2 Hc).
Qed.

Lemma lost_by_shard (n : board) qs h :
  forallb (on_board n) qs = true -> existsb (shard_loses n qs h) shards = true -> loses n (Pos qs h).
Proof.
  intros Hqs E. apply existsb_exists in E as [sh [Hsh E]].
  unfold shard_loses in E. pose proof (checked sh Hsh) as Hc.
  destruct (fst sh) as [n' qs' h'|n' qs' h'|n' qs' g']; try discriminate.
  rewrite !andb_true_iff, Nat.eqb_eq in E. destruct E as [[Eb ->] E]. apply board_eqb_eq in Eb. subst n'.
  apply existsb_exists in E as [f [Hf E]].
  apply (proj2 (shard_shows_image n qs qs' f Hqs Hf E h)). exact (proj2 Hc).
Qed.

Lemma covered_loses (n : board) qs h :
  placed n qs = true -> moves_covered shards n qs h = true -> loses n (Pos qs h).
Proof.
  intros Hp E. unfold moves_covered in E. rewrite forall_from_seq, andb_true_iff, !forallb_forall in E.
  destruct E as [Eq Eh]. constructor. intros p' Hm.
  inversion Hm as [qs0 h0 s Hfree|qs0 h0 h' Hlt]; subst.
  - assert (In s (live n qs)) as Hs by (now apply in_live).
    apply won_by_shard; [|now apply Eq].
    apply placed_on_board, placed_cons; auto.
  - apply won_by_shard; [now apply placed_on_board|]. apply Eh. apply in_seq. lia.
Qed.

Lemma lost_by_shards_loses (n : board) qs h :
  placed n qs = true -> lost_by_shards shards n qs h = true -> loses n (Pos qs h).
Proof.
  intros Hp E. unfold lost_by_shards in E. apply orb_true_iff in E as [E|E].
  - apply lost_by_shard; [now apply placed_on_board|exact E].
  - now apply covered_loses.
Qed.

End Sound.

Theorem manifest_step_sound : manifest_step_sound_statement manifest_step.
Proof.
  intros c shards Hchecked E. unfold manifest_step in E. rewrite !andb_true_iff in E.
  destruct E as [Hp E].
  destruct c as [n qs h|n qs h|n qs g]; simpl in *; split; auto.
  - apply orb_true_iff in E as [E|E].
    + apply existsb_exists in E as [s [Hs E]].
      apply win with (Pos (s :: qs) h); [apply place_queen; now apply in_live|].
      apply (lost_by_shards_loses shards Hchecked); [now apply placed_cons|exact E].
    + rewrite exists_from_seq in E. apply existsb_exists in E as [h' [Hh' E]].
      apply in_seq in Hh'. apply win with (Pos qs h'); [apply lower_heap; lia|].
      now apply (lost_by_shards_loses shards Hchecked).
  - now apply (covered_loses shards Hchecked).
  - apply sprague_grundy_step. now apply (covered_loses shards Hchecked).
Qed.

Theorem manifest_sound : checker_sound_statement check_manifest.
Proof.
  intros c shards E. unfold check_manifest in E. apply andb_true_iff in E as [Eall E].
  rewrite forallb_forall in Eall.
  apply (manifest_step_sound c shards); [|exact E].
  intros sh Hsh. apply (checker_sound (fst sh) (snd sh tt)). exact (Eall sh Hsh).
Qed.
