(* The certificate checker, proved sound: check_claim c input = true
   implies claim_holds c (Spec.v), for every input.

   A position is checked as its live set: the list of free squares, in the
   order of all_squares (row-major), plus the heap. Placing a queen on s
   keeps the live squares that s does not attack; the lists are compared
   exactly, so equal lists are equal positions.

   The input is a table of won positions, each with a winning reply. The
   check is an inductive invariant, not a replay: for every entry (L, h,
   reply), the reply is a legal move, and every move the opponent has after
   it leads to a position that is either small (at most K live squares) and
   won by the exhaustive solver `solve`, or the key of an entry. By strong
   induction on (number of live squares + heap), every key is then won. The
   table's index is a map from hash buckets to keys; the hash function is
   part of the input, so the proof holds whatever it computes (a lookup
   that finds a key compares it in full). *)
From Coq Require Import Arith Lia List Bool PArith FMapPositive.
Import ListNotations.
From QueensGame Require Import Spec GameFacts SpragueGrundy.

(* ---- Live sets. ---- *)

(* The live squares that stay live when a queen is placed on s. *)
Definition after (s : square) (L : list square) : list square :=
  filter (fun x => negb (attacks s x)) L.

(* The live squares of the queens qs: the free squares, in board order. *)
Definition live (n : nat) (qs : list square) : list square :=
  filter (free n qs) (all_squares n).

Lemma free_cons n s qs x :
  free n (s :: qs) x = free n qs x && negb (attacks s x).
Proof.
  unfold free. simpl.
  destruct (on_board n x), (attacks s x), (forallb (fun q => negb (attacks q x)) qs); reflexivity.
Qed.

Lemma filter_and {A} (f g : A -> bool) (l : list A) :
  filter (fun x => f x && g x) l = filter g (filter f l).
Proof.
  induction l as [|a l IH]; simpl; auto.
  destruct (f a); simpl; rewrite IH; auto.
Qed.

Lemma live_cons n s qs : live n (s :: qs) = after s (live n qs).
Proof.
  unfold live, after. rewrite <- filter_and. apply filter_ext.
  intro x. apply free_cons.
Qed.

Lemma in_live n qs s : In s (live n qs) <-> free n qs s = true.
Proof.
  unfold live. rewrite filter_In, in_all_squares. split; [tauto|].
  intro H. split; auto. apply free_iff in H. tauto.
Qed.

Lemma after_length_le s L : length (after s L) <= length L.
Proof.
  unfold after. induction L as [|a L IH]; simpl; [lia|].
  destruct (negb (attacks s a)); simpl; lia.
Qed.

Lemma after_length_lt s L : In s L -> length (after s L) < length L.
Proof.
  intro Hs. unfold after. induction L as [|a L IH]; simpl in *; [tauto|].
  destruct Hs as [->|Hs].
  - rewrite attacks_self. simpl. pose proof (after_length_le s L). unfold after in H. lia.
  - specialize (IH Hs). destruct (negb (attacks s a)); simpl; lia.
Qed.

Lemma existsb_false_forall {A} (f : A -> bool) (l : list A) :
  existsb f l = false -> forall x, In x l -> f x = false.
Proof.
  induction l as [|a l IH]; simpl; [tauto|].
  intros E x [<-|Hx]; apply orb_false_iff in E as [E1 E2]; auto.
Qed.

Section Board.
Variable n : nat.

(* ---- Won and lost live sets, in terms of Spec.v. ---- *)

(* Every placement of queens with live set L wins (loses) with a heap of h. *)
Definition Won (L : list square) (h : nat) : Prop :=
  forall qs, live n qs = L -> wins n (Pos qs h).
Definition Lost (L : list square) (h : nat) : Prop :=
  forall qs, live n qs = L -> loses n (Pos qs h).

Lemma won_place L h s : In s L -> Lost (after s L) h -> Won L h.
Proof.
  intros Hs Hl qs HL. subst L.
  apply win with (Pos (s :: qs) h).
  - constructor. now apply in_live.
  - apply Hl. apply live_cons.
Qed.

Lemma won_heap L h h' : h' < h -> Lost L h' -> Won L h.
Proof.
  intros Hh Hl qs HL. apply win with (Pos qs h').
  - now constructor.
  - now apply Hl.
Qed.

Lemma lost_intro L h :
  (forall s, In s L -> Won (after s L) h) ->
  (forall h', h' < h -> Won L h') -> Lost L h.
Proof.
  intros Hs Hh qs HL. constructor. intros p' Hm. inversion Hm; subst.
  - apply (Hs s).
    + now apply in_live.
    + apply live_cons.
  - now apply Hh.
Qed.

(* ---- Loops over a heap's options. ---- *)

(* existsb and forallb over seq i len (i, i + 1, ..., i + len - 1, in that
   order), written as loops whose recursive call is the last thing done, so
   that the extracted OCaml is tail-recursive: a heap of a million counters
   needs no million stack frames (Coq's seq, extracted, does). *)
Fixpoint exists_from (f : nat -> bool) (i len : nat) : bool :=
  match len with
  | 0 => false
  | S l => f i || exists_from f (S i) l
  end.

Fixpoint forall_from (f : nat -> bool) (i len : nat) : bool :=
  match len with
  | 0 => true
  | S l => f i && forall_from f (S i) l
  end.

Lemma exists_from_seq f len : forall i, exists_from f i len = existsb f (seq i len).
Proof. induction len as [|len IH]; intro i; simpl; [reflexivity|now rewrite IH]. Qed.

Lemma forall_from_seq f len : forall i, forall_from f i len = forallb f (seq i len).
Proof. induction len as [|len IH]; intro i; simpl; [reflexivity|now rewrite IH]. Qed.

(* ---- The exhaustive solver: plain negamax. ---- *)

Fixpoint solve (fuel : nat) (L : list square) (h : nat) : bool :=
  match fuel with
  | 0 => false
  | S f => existsb (fun s => negb (solve f (after s L) h)) L
           || exists_from (fun h' => negb (solve f L h')) 0 h
  end.

Lemma solve_sound fuel : forall L h, length L + h < fuel ->
  (solve fuel L h = true -> Won L h) /\ (solve fuel L h = false -> Lost L h).
Proof.
  induction fuel as [|f IH]; intros L h Hf; [lia|]. simpl. rewrite exists_from_seq. split.
  - intro E. apply orb_true_iff in E as [E|E].
    + apply existsb_exists in E as [s [Hs E]]. apply negb_true_iff in E.
      apply won_place with s; auto.
      pose proof (after_length_lt s L Hs).
      apply (IH (after s L) h); [lia|exact E].
    + apply existsb_exists in E as [h' [Hh' E]]. apply in_seq in Hh'.
      apply negb_true_iff in E.
      apply won_heap with h'; [lia|]. apply (IH L h'); [lia|exact E].
  - intro E. apply orb_false_iff in E as [E1 E2]. apply lost_intro.
    + intros s Hs. pose proof (existsb_false_forall _ _ E1 s Hs) as E.
      apply negb_false_iff in E. pose proof (after_length_lt s L Hs).
      apply (IH (after s L) h); [lia|exact E].
    + intros h' Hh'. assert (In h' (seq 0 h)) as Hin by (apply in_seq; lia).
      pose proof (existsb_false_forall _ _ E2 h' Hin) as E.
      apply negb_false_iff in E. apply (IH L h'); [lia|exact E].
Qed.

Lemma solve_won L h : solve (length L + h + 1) L h = true -> Won L h.
Proof. apply solve_sound. lia. Qed.

End Board.

(* ---- Exact comparison of squares and live sets. ---- *)

Definition square_eqb (a b : square) : bool :=
  Nat.eqb (fst a) (fst b) && Nat.eqb (snd a) (snd b).

Lemma square_eqb_eq a b : square_eqb a b = true -> a = b.
Proof.
  destruct a as [r1 c1], b as [r2 c2]. unfold square_eqb. simpl.
  rewrite andb_true_iff, !Nat.eqb_eq. intros [-> ->]. reflexivity.
Qed.

Fixpoint squares_eqb (a b : list square) : bool :=
  match a, b with
  | [], [] => true
  | x :: a', y :: b' => square_eqb x y && squares_eqb a' b'
  | _, _ => false
  end.

Lemma squares_eqb_eq a : forall b, squares_eqb a b = true -> a = b.
Proof.
  induction a as [|x a IH]; intros [|y b]; simpl; try congruence.
  rewrite andb_true_iff. intros [Hxy Hab].
  apply square_eqb_eq in Hxy. apply IH in Hab. congruence.
Qed.

(* ---- The table and its index. ---- *)

(* A winning reply: a queen on a square, or the heap lowered to h'. *)
Inductive reply : Type :=
  | reply_queen (s : square)
  | reply_heap (h' : nat).

(* A key: a live set and a heap. *)
Definition key : Type := (list square * nat)%type.

Definition key_eqb (a b : key) : bool :=
  squares_eqb (fst a) (fst b) && Nat.eqb (snd a) (snd b).

Lemma key_eqb_eq a b : key_eqb a b = true -> a = b.
Proof.
  destruct a as [La ha], b as [Lb hb]. unfold key_eqb. simpl.
  rewrite andb_true_iff, Nat.eqb_eq. intros [E ->].
  apply squares_eqb_eq in E. congruence.
Qed.

(* The index: hash bucket -> the keys in it. *)
Definition index : Type := PositiveMap.t (list key).

Definition bucket (hash : key -> positive) (idx : index) (k : key) : list key :=
  match PositiveMap.find (hash k) idx with Some l => l | None => [] end.

Definition add_key (hash : key -> positive) (idx : index) (k : key) : index :=
  PositiveMap.add (hash k) (k :: bucket hash idx k) idx.

Definition build_index (hash : key -> positive) (keys : list key) : index :=
  fold_left (add_key hash) keys (PositiveMap.empty _).

Definition known (hash : key -> positive) (idx : index) (k : key) : bool :=
  existsb (key_eqb k) (bucket hash idx k).

(* Everything in a bucket was put there. *)
Lemma build_index_sound hash keys :
  forall k k', In k' (bucket hash (build_index hash keys) k) -> In k' keys.
Proof.
  unfold build_index.
  assert (forall done idx,
            (forall k k', In k' (bucket hash idx k) -> In k' done) ->
            forall k k', In k' (bucket hash (fold_left (add_key hash) keys idx) k) ->
                         In k' (done ++ keys)) as G.
  { induction keys as [|x keys IH]; intros done idx Hidx k k' Hin; simpl in *.
    - rewrite app_nil_r. eauto.
    - replace (done ++ x :: keys) with ((done ++ [x]) ++ keys)
        by (rewrite <- app_assoc; reflexivity).
      apply (IH (done ++ [x]) (add_key hash idx x)) with k; [|exact Hin].
      intros j j' Hj. unfold bucket, add_key in Hj.
      destruct (Pos.eq_dec (hash j) (hash x)) as [E|E].
      + rewrite E, PositiveMap.gss in Hj. destruct Hj as [<-|Hj].
        * apply in_or_app. right. now left.
        * apply in_or_app. left. unfold bucket in Hj. rewrite <- E in Hj.
          now apply (Hidx j).
      + rewrite PositiveMap.gso in Hj by exact E.
        apply in_or_app. left. now apply (Hidx j). }
  intros k k' Hin. apply (G [] (PositiveMap.empty _)) with k; [|exact Hin].
  intros j j'. unfold bucket. rewrite PositiveMap.gempty. simpl. tauto.
Qed.

Lemma known_sound hash keys k :
  known hash (build_index hash keys) k = true -> In k keys.
Proof.
  unfold known. intro E. apply existsb_exists in E as [k' [Hin E]].
  apply key_eqb_eq in E. subst k'. eapply build_index_sound. exact Hin.
Qed.

(* ---- The check of one table. ---- *)

Section Table.
Variable K : nat.           (* positions with at most K live squares are solved *)
Variable hash : key -> positive.
Variable idx : index.       (* the table's positions *)

(* The opponent's move leads here: a small position the solver wins, or a
   position of the table. *)
Definition ok (k : key) : bool :=
  (Nat.leb (length (fst k)) K && solve (length (fst k) + snd k + 1) (fst k) (snd k))
  || known hash idx k.

(* Every move from (L, h) leads to a position that is ok. *)
Definition all_moves_ok (L : list square) (h : nat) : bool :=
  forallb (fun s => ok (after s L, h)) L && forall_from (fun h' => ok (L, h')) 0 h.

(* The reply is legal at (L, h), and every move after it leads to an ok position. *)
Definition entry_ok (L : list square) (h : nat) (r : reply) : bool :=
  match r with
  | reply_queen s => existsb (square_eqb s) L && all_moves_ok (after s L) h
  | reply_heap h' => Nat.ltb h' h && all_moves_ok L h'
  end.

Variable n : nat.           (* the board *)
Variable keys : list key.   (* the keys of the table *)

Definition keys_won (m : nat) : Prop :=
  forall L h, length L + h < m -> In (L, h) keys -> Won n L h.

Definition index_sound : Prop := forall k, known hash idx k = true -> In k keys.

Lemma ok_won m L h :
  index_sound -> keys_won m -> ok (L, h) = true -> length L + h < m -> Won n L h.
Proof.
  intros Hidx IH E Hm. unfold ok in E. simpl in E. apply orb_true_iff in E as [E|E].
  - apply andb_true_iff in E as [_ E]. now apply solve_won.
  - apply Hidx in E. now apply IH.
Qed.

Lemma all_moves_ok_lost m L h :
  index_sound -> keys_won m -> all_moves_ok L h = true -> length L + h <= m -> Lost n L h.
Proof.
  intros Hidx IH E Hm. unfold all_moves_ok in E. rewrite forall_from_seq in E.
  apply andb_true_iff in E as [E1 E2].
  rewrite forallb_forall in E1, E2. apply lost_intro.
  - intros s Hs. apply (ok_won m); auto. pose proof (after_length_lt s L Hs). lia.
  - intros h' Hh'. apply (ok_won m); [auto|auto| |lia]. apply E2. apply in_seq. lia.
Qed.

Lemma entry_ok_won m L h r :
  index_sound -> keys_won m -> entry_ok L h r = true -> length L + h <= m -> Won n L h.
Proof.
  intros Hidx IH E Hm. destruct r as [s|h']; simpl in E; apply andb_true_iff in E as [E1 E2].
  - apply existsb_exists in E1 as [s' [Hs' E1]]. apply square_eqb_eq in E1. subst s'.
    apply won_place with s; [exact Hs'|].
    apply (all_moves_ok_lost m); auto. pose proof (after_length_lt s L Hs'). lia.
  - apply Nat.ltb_lt in E1. apply won_heap with h'; [exact E1|].
    apply (all_moves_ok_lost m); auto. lia.
Qed.

(* The invariant: when every entry is ok, every key is won. *)
Lemma table_sound (entries : list (key * reply)) :
  index_sound ->
  (forall k, In k keys -> exists r, In (k, r) entries) ->
  (forall k r, In (k, r) entries -> entry_ok (fst k) (snd k) r = true) ->
  forall L h, In (L, h) keys -> Won n L h.
Proof.
  intros Hidx Hkeys Hent.
  assert (forall m, keys_won m) as All.
  { induction m as [|m IH]; intros L h Hm Hin; [lia|].
    destruct (Hkeys _ Hin) as [r Hr].
    apply (entry_ok_won m L h r); auto; [|lia].
    exact (Hent (L, h) r Hr). }
  intros L h Hin. apply (All (S (length L + h))); auto.
Qed.

End Table.

(* ---- The input and the whole check. ---- *)

(* An entry of the input: a position (live set and heap) and its winning
   reply. *)
Definition entry : Type := (key * reply)%type.

(* The keys of the entries (in reverse order; a loop, so that long tables
   need no deep stack when extracted). *)
Definition keys_of (entries : list entry) : list key :=
  fold_left (fun acc e => fst e :: acc) entries [].

Lemma keys_of_in entries k :
  In k (keys_of entries) -> exists r, In (k, r) entries.
Proof.
  unfold keys_of.
  assert (forall acc, In k (fold_left (fun acc e => fst e :: acc) entries acc) ->
                      In k acc \/ exists r, In (k, r) entries) as G.
  { induction entries as [|[k' r'] entries IH]; intros acc Hin; simpl in *; [now left|].
    destruct (IH _ Hin) as [[<-|H]|[r H]].
    - right. exists r'. now left.
    - now left.
    - right. exists r. now right. }
  intro Hin. destruct (G [] Hin) as [[]|H]. exact H.
Qed.

(* The first entry (counting from i) that is not ok, if any. *)
Fixpoint first_bad {A} (f : A -> bool) (l : list A) (i : nat) : option nat :=
  match l with
  | [] => None
  | x :: l' => if f x then first_bad f l' (S i) else Some i
  end.

Lemma first_bad_none {A} (f : A -> bool) l : forall i,
  first_bad f l i = None -> forall x, In x l -> f x = true.
Proof.
  induction l as [|a l IH]; simpl; [tauto|]. intros i E x [<-|Hx].
  - destruct (f a); congruence.
  - destruct (f a); [|congruence]. eapply IH; eauto.
Qed.

(* The verdict: accepted, the first entry (from 0) that is not ok, or the
   claim itself is not shown (the root is not ok). *)
Inductive verdict : Type :=
  | accepted
  | bad_entry (i : nat)
  | bad_root.

(* The board and the given queens of a claim. *)
Definition claim_board (c : claim) : nat :=
  match c with claim_wins n _ _ | claim_loses n _ _ | claim_grundy n _ _ => n end.
Definition claim_queens (c : claim) : list square :=
  match c with claim_wins _ qs _ | claim_loses _ qs _ | claim_grundy _ qs _ => qs end.

(* The input: the hash of the index (any function), the solver's cut-off
   K, the entries. *)
Definition input : Type := ((key -> positive) * nat * list entry)%type.

Definition verify (c : claim) (x : input) : verdict :=
  let '(hash, K, entries) := x in
  let idx := build_index hash (keys_of entries) in
  match first_bad (fun e => entry_ok K hash idx (fst (fst e)) (snd (fst e)) (snd e)) entries 0 with
  | Some i => bad_entry i
  | None =>
      let root_ok := match c with
        | claim_wins n qs h => ok K hash idx (live n qs, h)
        | claim_loses n qs h => all_moves_ok K hash idx (live n qs) h
        | claim_grundy n qs g => all_moves_ok K hash idx (live n qs) g
        end in
      if root_ok && placed (claim_board c) (claim_queens c) then accepted else bad_root
  end.

Definition check_claim (c : claim) (x : input) : bool :=
  match verify c x with accepted => true | _ => false end.

Theorem checker_sound : checker_sound_statement check_claim.
Proof.
  intros c [[hash K] entries]. unfold check_claim, verify.
  set (keys := keys_of entries).
  set (idx := build_index hash keys).
  assert (index_sound hash idx keys) as Hidx
    by (intros k E; exact (known_sound hash keys k E)).
  match goal with |- context [first_bad ?f entries 0] => destruct (first_bad f entries 0) eqn:Eb end;
    [congruence|].
  pose proof (first_bad_none _ _ _ Eb) as Hent.
  assert (forall n L h, In (L, h) keys -> Won n L h) as Hkeys.
  { intro n. apply (table_sound K hash idx n keys entries Hidx).
    - apply keys_of_in.
    - intros k r Hin. exact (Hent (k, r) Hin). }
  assert (forall n m, keys_won n keys m) as Hall by (intros n m L h _; apply Hkeys).
  destruct c as [n qs h|n qs h|n qs g]; simpl;
    destruct (placed n qs) eqn:P; rewrite ?andb_true_r, ?andb_false_r; try congruence.
  - destruct (ok _ _ _ _) eqn:E; [|congruence]. intros _. split; [reflexivity|].
    enough (Won n (live n qs) h) as W by exact (W qs eq_refl).
    apply (ok_won K hash idx n keys (S (length (live n qs) + h))); auto.
  - destruct (all_moves_ok _ _ _ _ _) eqn:E; [|congruence]. intros _. split; [reflexivity|].
    exact (all_moves_ok_lost K hash idx n keys _ _ _ Hidx (Hall n _) E (le_n _) qs eq_refl).
  - destruct (all_moves_ok _ _ _ _ _) eqn:E; [|congruence]. intros _. split; [reflexivity|].
    apply sprague_grundy_step.
    exact (all_moves_ok_lost K hash idx n keys _ _ _ Hidx (Hall n _) E (le_n _) qs eq_refl).
Qed.
