(* The check of a table of parts (docs/parts.md), proved sound against
   Spec.v's piece_claim_holds: the Grundy value of the placing game of any
   piece on a board with holes.

   The table lists sets of squares with their claimed values, each set after
   every set its options fall into. Each entry is checked as the C++ checker
   does: every option (the set less what a piece on one of its squares
   blocks) is split into groups that no move links, each group is found in
   the table as the image of an earlier entry, the option's value is the
   XOR of theirs (parts_sum), and the entry's value is the mex of its
   options'. The untrusted parts, passed in by the driver, only propose:
   how to split a set into groups, and which maps might carry a group onto
   its table entry with that entry's hash. Every proposal is verified here
   (the groups cover the set and no square of one blocks a square of
   another; the map carries the group onto the entry, square for square,
   and keeps the rule between every two of its squares), so a wrong
   proposal can only make the check reject. *)
From Coq Require Import Arith Lia List Bool PArith FMapPositive.
Import ListNotations.
From QueensGame Require Import Spec GameFacts Sums.

Section PartsCheck.
Variable blocks : square -> square -> bool.
Variable blocks_self : forall s, blocks s s = true.
(* Every piece's rule is symmetric, so each pair of squares is tested once. *)
Variable blocks_sym : forall s t, blocks s t = blocks t s.

Notation value := (part_value blocks).
Notation after' := (remove_after blocks).

Definition same_square (a b : square) : bool := (fst a =? fst b) && (snd a =? snd b).

Lemma same_square_eq a b : same_square a b = true <-> a = b.
Proof.
  destruct a as [r c], b as [r' c']. unfold same_square. simpl.
  rewrite andb_true_iff, !Nat.eqb_eq. split; [intros [-> ->]; auto|intro H; now inversion H].
Qed.

Definition mem (s : square) (L : list square) : bool := existsb (same_square s) L.

Lemma mem_In s L : mem s L = true <-> In s L.
Proof.
  unfold mem. rewrite existsb_exists. split.
  - intros [x [Hx E]]. apply same_square_eq in E. now subst.
  - intro H. exists s. split; auto. now apply same_square_eq.
Qed.

(* ---- A map that keeps the rule keeps the value. ---- *)

Lemma value_empty : value [] 0.
Proof. constructor; [intros s []|intros k Hk; lia]. Qed.

Lemma after_map f s P : (forall t, In t P -> blocks (f s) (f t) = blocks s t) ->
  after' (f s) (map f P) = map f (after' s P).
Proof.
  unfold remove_after. induction P as [|t P IH]; simpl; intro H; auto.
  rewrite H by auto. destruct (negb (blocks s t)); simpl; rewrite IH; auto.
Qed.

Lemma value_map : forall m f P g, length P <= m ->
  (forall s t, In s P -> In t P -> blocks (f s) (f t) = blocks s t) ->
  value P g -> value (map f P) g.
Proof.
  induction m as [m IH] using lt_wf_ind. intros f P g Hm Hf HP.
  assert (forall s g', In s P -> value (after' s P) g' -> value (after' (f s) (map f P)) g') as Step.
  { intros s g' Hs Hv. rewrite after_map by auto.
    apply (IH (length (after' s P))); auto.
    - pose proof (remove_after_shorter blocks blocks_self s P Hs). lia.
    - intros u v Hu Hv'. apply Hf; eapply remove_after_incl; eauto. }
  inversion HP as [P0 g0 No Yes]; subst. constructor.
  - intros x Hx. apply in_map_iff in Hx as [s [<- Hs]].
    destruct (No s Hs) as [g' [Hg' Hne]]. exists g'. auto.
  - intros k Hk. destruct (Yes k Hk) as [s [Hs Hv]]. exists (f s). split; [now apply in_map|]. auto.
Qed.

(* The rule between every two squares of a list of (square, image) pairs is
   the rule between their images: each pair once (the rule is symmetric and
   every square blocks itself). *)
Fixpoint keeps_rule (FE : list (square * square)) : bool :=
  match FE with
  | [] => true
  | x :: rest => forallb (fun y => Bool.eqb (blocks (snd x) (snd y)) (blocks (fst x) (fst y))) rest
                 && keeps_rule rest
  end.

Lemma keeps_rule_pairs FE : keeps_rule FE = true ->
  forall x y, In x FE -> In y FE -> blocks (snd x) (snd y) = blocks (fst x) (fst y).
Proof.
  induction FE as [|z FE IH]; simpl; [tauto|].
  rewrite andb_true_iff, forallb_forall. intros [Hz Hrest] x y Hx Hy.
  destruct Hx as [<-|Hx], Hy as [<-|Hy].
  - now rewrite !blocks_self.
  - apply Bool.eqb_prop. auto.
  - rewrite (blocks_sym (snd x)), (blocks_sym (fst x)). apply Bool.eqb_prop. auto.
  - auto.
Qed.

(* f carries the table's set E onto P, square for square, keeping the
   rule between every two squares of E (each image computed once). *)
Definition maps_onto (f : square -> square) (E P : list square) : bool :=
  let FE := map (fun s => (s, f s)) E in
  forallb (fun x => mem (snd x) P) FE && forallb (fun p => existsb (fun x => same_square (snd x) p) FE) P
  && keeps_rule FE.

Lemma maps_onto_value f E P g : maps_onto f E P = true -> value E g -> value P g.
Proof.
  unfold maps_onto. rewrite !andb_true_iff, !forallb_forall. intros [[Into Onto] Keep] HE.
  assert (forall s, In s E -> In (s, f s) (map (fun s => (s, f s)) E)) as InF
    by (intros s Hs; apply in_map_iff; eauto).
  assert (forall s t, In s E -> In t E -> blocks (f s) (f t) = blocks s t) as Hk
    by (intros s t Hs Ht; exact (keeps_rule_pairs _ Keep _ _ (InF s Hs) (InF t Ht))).
  apply (value_same_set blocks blocks_self (length (map f E) + length P) (map f E)); auto.
  - intro x. rewrite in_map_iff. split.
    + intros [s [<- Hs]]. apply mem_In. exact (Into _ (InF s Hs)).
    + intro Hx. specialize (Onto x Hx). apply existsb_exists in Onto as [[s y] [Hs E']].
      apply same_square_eq in E'. simpl in E'. subst.
      apply in_map_iff in Hs as [s' [Eq Hs']]. inversion Eq; subst. eauto.
  - apply (value_map (length E)); auto.
Qed.

(* ---- The table: sets with their values, found by a hash. ---- *)

Definition entry : Type := (list square * nat)%type.
Definition index : Type := PositiveMap.t (list entry).

Definition bucket (idx : index) (p : positive) : list entry :=
  match PositiveMap.find p idx with Some b => b | None => [] end.

Definition add_entry (hash : list square -> positive) (idx : index) (e : entry) : index :=
  PositiveMap.add (hash (fst e)) (e :: bucket idx (hash (fst e))) idx.

(* Every set in the index has the value stored with it. *)
Definition index_sound (idx : index) : Prop :=
  forall p e, In e (bucket idx p) -> value (fst e) (snd e).

Lemma index_empty : index_sound (PositiveMap.empty _).
Proof. intros p e. unfold bucket. now rewrite PositiveMap.gempty. Qed.

Lemma index_add hash idx e : index_sound idx -> value (fst e) (snd e) -> index_sound (add_entry hash idx e).
Proof.
  intros H He p e'. unfold add_entry, bucket at 1.
  destruct (Pos.eq_dec p (hash (fst e))) as [->|Hne].
  - rewrite PositiveMap.gss. intros [<-|Hin]; auto. now apply (H (hash (fst e))).
  - rewrite PositiveMap.gso by auto. apply H.
Qed.

Fixpoint same_list (a b : list square) : bool :=
  match a, b with
  | [], [] => true
  | x :: a', y :: b' => same_square x y && same_list a' b'
  | _, _ => false
  end.

Lemma same_list_eq a : forall b, same_list a b = true -> a = b.
Proof.
  induction a as [|x a IH]; intros [|y b]; simpl; try discriminate; auto.
  rewrite andb_true_iff. intros [Hx Hb]. apply same_square_eq in Hx. f_equal; auto.
Qed.

(* The value of the group P: a proposal (K, f) names the table's set K and
   the map f that carries K onto P. *)
Fixpoint find_in (P K : list square) (f : square -> square) (b : list entry) : option nat :=
  match b with
  | [] => None
  | (E, v) :: b' => if same_list E K && maps_onto f E P then Some v else find_in P K f b'
  end.

Fixpoint group_value (hash : list square -> positive) (idx : index) (P : list square)
    (proposals : list (list square * (square -> square))) : option nat :=
  match proposals with
  | [] => None
  | (K, f) :: rest =>
      match find_in P K f (bucket idx (hash K)) with
      | Some v => Some v
      | None => group_value hash idx P rest
      end
  end.

Lemma find_in_sound idx p P K f v : index_sound idx ->
  find_in P K f (bucket idx p) = Some v -> value P v.
Proof.
  intros H. assert (forall e, In e (bucket idx p) -> value (fst e) (snd e)) as Hb by apply H.
  revert Hb. generalize (bucket idx p). intro b. induction b as [|[E w] b IH]; simpl; intros Hb F; [discriminate|].
  destruct (same_list E K && maps_onto f E P) eqn:Ok.
  - inversion F; subst. apply andb_true_iff in Ok as [_ Ok].
    apply (maps_onto_value f E); auto. apply (Hb (E, v)). now left.
  - apply IH; auto.
Qed.

Lemma group_value_sound hash idx P props v : index_sound idx ->
  group_value hash idx P props = Some v -> value P v.
Proof.
  intro H. induction props as [|[K f] props IH]; simpl; [discriminate|].
  destruct (find_in P K f (bucket idx (hash K))) eqn:F.
  - intro E. inversion E; subst. eapply find_in_sound; eauto.
  - exact IH.
Qed.

(* ---- A set as the sum of groups that no move links. ---- *)

Definition apart (A B : list square) : bool :=
  forallb (fun s => forallb (fun t => negb (blocks s t)) B) A.

Fixpoint groups_apart (gs : list (list square)) : bool :=
  match gs with
  | [] => true
  | g :: rest => apart g (concat rest) && groups_apart rest
  end.

Lemma apart_unlinked A B : apart A B = true -> unlinked blocks A B.
Proof.
  unfold apart. rewrite forallb_forall. intros H s t [[Hs Ht]|[Hs Ht]].
  - specialize (H s Hs). rewrite forallb_forall in H. specialize (H t Ht).
    now rewrite negb_true_iff in H.
  - specialize (H t Ht). rewrite forallb_forall in H. specialize (H s Hs).
    rewrite negb_true_iff in H. now rewrite blocks_sym.
Qed.

Fixpoint groups_value (hash : list square -> positive) (idx : index)
    (propose : list square -> list (list square * (square -> square))) (gs : list (list square)) : option nat :=
  match gs with
  | [] => Some 0
  | g :: rest =>
      match group_value hash idx g (propose g), groups_value hash idx propose rest with
      | Some a, Some b => Some (Nat.lxor a b)
      | _, _ => None
      end
  end.

Lemma groups_value_sound hash idx propose gs v : index_sound idx -> groups_apart gs = true ->
  groups_value hash idx propose gs = Some v -> value (concat gs) v.
Proof.
  intro H. revert v. induction gs as [|g gs IH]; simpl; intros v Ha Hv.
  - inversion Hv; subst. apply value_empty.
  - apply andb_true_iff in Ha as [Hg Hrest].
    destruct (group_value hash idx g (propose g)) eqn:G; [|discriminate].
    destruct (groups_value hash idx propose gs) eqn:R; [|discriminate].
    inversion Hv; subst. apply parts_sum; auto.
    + now apply apart_unlinked.
    + eapply group_value_sound; eauto.
Qed.

(* The value of a set L: the groups proposed for it must hold exactly its
   squares and be apart. *)
Definition set_value (hash : list square -> positive) (idx : index)
    (split : list square -> list (list square))
    (propose : list square -> list (list square * (square -> square))) (L : list square) : option nat :=
  let gs := split L in
  if forallb (fun s => mem s (concat gs)) L && forallb (fun s => mem s L) (concat gs) && groups_apart gs
  then groups_value hash idx propose gs else None.

Lemma set_value_sound hash idx split propose L v : index_sound idx ->
  set_value hash idx split propose L = Some v -> value L v.
Proof.
  intro H. unfold set_value. set (gs := split L).
  destruct (forallb (fun s => mem s (concat gs)) L && forallb (fun s => mem s L) (concat gs) && groups_apart gs) eqn:Ok;
    [|discriminate].
  rewrite !andb_true_iff, !forallb_forall in Ok. destruct Ok as [[In1 In2] Ha]. intro Hv.
  apply (value_same_set blocks blocks_self (length (concat gs) + length L) (concat gs)); auto.
  - intro x. split; intro Hx; apply mem_In; auto.
  - eapply groups_value_sound; eauto.
Qed.

(* ---- An entry: its value is the mex of its options'. ---- *)

Fixpoint all_some (l : list (option nat)) : option (list nat) :=
  match l with
  | [] => Some []
  | Some x :: l' => match all_some l' with Some r => Some (x :: r) | None => None end
  | None :: _ => None
  end.

Definition entry_ok hash idx split propose (e : entry) : bool :=
  let '(E, v) := e in
  match all_some (map (fun s => set_value hash idx split propose (after' s E)) E) with
  | None => false
  | Some vals => negb (existsb (Nat.eqb v) vals) && forallb (fun k => existsb (Nat.eqb k) vals) (seq 0 v)
  end.

Lemma all_some_spec (F : square -> option nat) E : forall vals, all_some (map F E) = Some vals ->
  (forall s, In s E -> exists x, F s = Some x /\ In x vals) /\
  (forall x, In x vals -> exists s, In s E /\ F s = Some x).
Proof.
  induction E as [|s E IH]; simpl; intros vals H.
  - inversion H; subst. split; intros ? [].
  - destruct (F s) as [x|] eqn:Fs; [|discriminate].
    destruct (all_some (map F E)) as [r|] eqn:R; [|discriminate]. inversion H; subst.
    destruct (IH r eq_refl) as [A B]. split.
    + intros t [<-|Ht]; [exists x; simpl; auto|]. destruct (A t Ht) as [y [Fy Iy]]. exists y. simpl. auto.
    + intros y [<-|Iy]; [exists s; auto|]. destruct (B y Iy) as [t [Ht Ft]]. exists t. auto.
Qed.

Lemma entry_ok_sound hash idx split propose e : index_sound idx ->
  entry_ok hash idx split propose e = true -> value (fst e) (snd e).
Proof.
  intro H. destruct e as [E v]. unfold entry_ok. simpl.
  destruct (all_some (map (fun s => set_value hash idx split propose (after' s E)) E)) as [vals|] eqn:A;
    [|discriminate].
  destruct (all_some_spec _ E vals A) as [Opt Back].
  rewrite andb_true_iff, negb_true_iff, forallb_forall. intros [Nv Ks]. constructor.
  - intros s Hs. destruct (Opt s Hs) as [x [Fx Ix]]. exists x. split.
    + eapply set_value_sound; eauto.
    + intro Ex. subst. assert (existsb (Nat.eqb v) vals = true) as C
        by (apply existsb_exists; exists v; split; auto; apply Nat.eqb_refl).
      congruence.
  - intros k Hk. assert (In k (seq 0 v)) as Hin by (apply in_seq; lia).
    specialize (Ks k Hin). apply existsb_exists in Ks as [x [Ix Ex]]. apply Nat.eqb_eq in Ex. subst.
    destruct (Back x Ix) as [s [Hs Fs]]. exists s. split; auto. eapply set_value_sound; eauto.
Qed.

(* The entries in order, each added to the index once it passes: the final
   index when all pass, None at the first that does not. *)
Fixpoint check_entries hash split propose (idx : index) (es : list entry) : option index :=
  match es with
  | [] => Some idx
  | e :: rest =>
      if entry_ok hash idx split propose e then check_entries hash split propose (add_entry hash idx e) rest
      else None
  end.

Lemma check_entries_sound hash split propose es : forall idx idx', index_sound idx ->
  check_entries hash split propose idx es = Some idx' -> index_sound idx'.
Proof.
  induction es as [|e es IH]; simpl; intros idx idx' H C.
  - inversion C; subst; auto.
  - destruct (entry_ok hash idx split propose e) eqn:Ok; [|discriminate].
    apply (IH (add_entry hash idx e)); auto. apply index_add; auto. eapply entry_ok_sound; eauto.
Qed.

End PartsCheck.

(* ---- The claim. ---- *)

Definition parts_input : Type :=
  ((list square -> positive) * (list square -> list (list square))
   * (list square -> list (list square * (square -> square)))) * list entry.

Definition check_parts (c : piece_claim) (input : parts_input) : bool :=
  let '((hash, split, propose), es) := input in
  let blocks := piece_blocks (claimed_piece c) in
  match check_entries blocks hash split propose (PositiveMap.empty _) es with
  | None => false
  | Some idx =>
      match set_value blocks hash idx split propose
              (board_squares (claimed_rows c) (claimed_cols c) (claimed_holes c)) with
      | Some v => v =? claimed_value c
      | None => false
      end
  end.

Lemma dist_sym a b : dist a b = dist b a.
Proof. unfold dist. lia. Qed.

Lemma piece_blocks_sym p s t : piece_blocks p s t = piece_blocks p t s.
Proof.
  destruct s as [r1 c1], t as [r2 c2]. destruct p; unfold piece_blocks, attacks;
    rewrite ?(Nat.eqb_sym r2 r1), ?(Nat.eqb_sym c2 c1), ?(Nat.eqb_sym (r2 + c1)), ?(Nat.eqb_sym (r2 + c2)),
      ?(dist_sym r2 r1), ?(dist_sym c2 c1); reflexivity.
Qed.

Lemma piece_blocks_self p s : piece_blocks p s s = true.
Proof.
  destruct s as [r c]. destruct p; unfold piece_blocks, attacks, dist;
    rewrite ?Nat.sub_diag, ?Nat.eqb_refl; simpl; rewrite ?Nat.eqb_refl; reflexivity.
Qed.

Theorem parts_checker_sound : piece_checker_sound_statement check_parts.
Proof.
  intros c [[[hash split] propose] es]. unfold check_parts.
  set (blocks := piece_blocks (claimed_piece c)).
  assert (forall s, blocks s s = true) as Self by apply piece_blocks_self.
  assert (forall s t, blocks s t = blocks t s) as Sym by apply piece_blocks_sym.
  destruct (check_entries blocks hash split propose (PositiveMap.empty _) es) as [idx|] eqn:C; [|discriminate].
  assert (index_sound blocks idx) as H
    by (eapply check_entries_sound; eauto; apply index_empty).
  destruct (set_value blocks hash idx split propose _) as [v|] eqn:V; [|discriminate].
  intro E. apply Nat.eqb_eq in E. subst. unfold piece_claim_holds. eapply set_value_sound; eauto.
Qed.

(* ---- For the queen on the square board, the claim is Spec.v's game. ---- *)

Lemma part_value_ext r1 r2 : (forall s, r1 s s = true) -> (forall s t, r1 s t = r2 s t) ->
  forall m L g, length L <= m -> part_value r1 L g -> part_value r2 L g.
Proof.
  intros Self E m. induction m as [m IH] using lt_wf_ind. intros L g Hm H.
  assert (forall s, remove_after r1 s L = remove_after r2 s L) as R
    by (intro s; unfold remove_after; apply filter_ext; intro t; now rewrite E).
  inversion H as [L0 g0 No Yes]; subst. constructor.
  - intros s Hs. destruct (No s Hs) as [g' [Hg' Hne]]. exists g'. split; auto.
    rewrite <- R. apply (IH (length (remove_after r1 s L))); auto.
    pose proof (remove_after_shorter r1 Self s L Hs). lia.
  - intros k Hk. destruct (Yes k Hk) as [s [Hs Hv]]. exists s. split; auto.
    rewrite <- R. apply (IH (length (remove_after r1 s L))); auto.
    pose proof (remove_after_shorter r1 Self s L Hs). lia.
Qed.

Theorem piece_claim_queens : piece_claim_queens_statement.
Proof.
  intros n g. unfold piece_claim_holds. simpl.
  assert (forall s t, piece_blocks queen s t = attack_rule n s t) as E
    by (intros [r1 c1] [r2 c2]; reflexivity).
  assert (forall s t, attack_rule n s t = piece_blocks queen s t) as E' by (intros; now rewrite E).
  rewrite (queens_part_value n [] (board_squares n n []) g).
  - split; intro H.
    + apply (part_value_ext _ _ (piece_blocks_self queen) E (length (board_squares n n []))); auto.
    + apply (part_value_ext _ _ (attack_rule_self n) E' (length (board_squares n n []))); auto.
  - intros [r c]. unfold free, board_squares, on_board. simpl.
    rewrite filter_In, in_prod_iff, !in_seq, andb_true_r, andb_true_iff, !Nat.ltb_lt. simpl. lia.
Qed.
