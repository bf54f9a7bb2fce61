(* The certificate checker, proved sound: check_claim c input = true
   implies claim_holds c (Spec.v), for every input.

   A position is checked as its live set: the free squares, plus the heap.
   The proofs speak of the live set as a list of squares in board order
   (row-major); the check computes on row masks (LiveRows.v: one number per
   row, one bit per live square), which decode to that list. Placing a queen
   on s keeps the live squares that s does not attack; masks are compared
   exactly, so equal masks are equal positions.

   The input is a table of won positions, each with a winning reply. The
   check is an inductive invariant, not a replay: for every entry (M, h,
   reply), the reply is a legal move, and every move the opponent has after
   it leads to a position that is either the key of an entry or small (at
   most K live squares) and won by the exhaustive solver `solve`. By strong
   induction on (number of live squares + heap), every key is then won. The
   table's index is a map from hash buckets to keys; the hash function is
   part of the input, so the proof holds whatever it computes (a lookup
   that finds a key compares it in full). *)
From Coq Require Import Arith Lia List Bool PArith FMapPositive Orders Sorting.Mergesort Permutation.
Import ListNotations.
From QueensGame Require Import Spec GameFacts SpragueGrundy Symmetry LiveRows.

(* The sort used by order_entries (below). *)
Module ByScore <: Orders.TotalLeBool'.
  Definition t : Type := (nat * (nat * nat))%type.
  Definition leb (x y : t) : bool := Nat.leb (fst y) (fst x).
  Theorem leb_total : forall x y, leb x y = true \/ leb y x = true.
  Proof.
    intros x y. unfold leb. rewrite !Nat.leb_le. lia.
  Qed.
End ByScore.
Module ScoreSort := Sort ByScore.

Section Rules.

(* The claim's board (the square or the torus): its rule says which squares
   a queen attacks; n is its size. *)
Variable bd : board.
Local Notation attacks := (attack_rule bd).
Local Notation attacks_self := (attack_rule_self bd).
Local Notation n := (size bd).
Local Notation place := (place bd).
Local Notation frame := (frame bd).
Local Notation attack_mask_from := (attack_mask_from bd).
Local Notation sub_after := (sub_after bd).
Local Notation sub_length_lt := (sub_length_lt bd).
Local Notation attack_mask_spec := (attack_mask_spec bd).
Local Notation attacks_sym := (attacks_sym bd).

(* ---- Live sets. ---- *)

(* The live squares that stay live when a queen is placed on s. *)
Definition after (s : square) (L : list square) : list square :=
  filter (fun x => negb (attacks s x)) L.

(* The live squares of the queens qs: the free squares, in board order. *)
Definition live (qs : list square) : list square :=
  filter (free bd qs) (all_squares n).

Lemma filter_and {A} (f g : A -> bool) (l : list A) :
  filter (fun x => f x && g x) l = filter g (filter f l).
Proof.
  induction l as [|a l IH]; simpl; auto.
  destruct (f a); simpl; rewrite IH; auto.
Qed.

Lemma live_cons s qs : live (s :: qs) = after s (live qs).
Proof.
  unfold live, after. rewrite <- filter_and. apply filter_ext.
  intro x. apply free_cons.
Qed.

Lemma in_live qs s : In s (live qs) <-> free bd qs s = true.
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

(* ---- Won and lost live sets, in terms of Spec.v. ---- *)

(* Every placement of queens on the board with live set L wins (loses)
   with a heap of h. (On the board: so that a map of the board carries the
   placements of one live set to those of its image, below.) *)
Definition Won (L : list square) (h : nat) : Prop :=
  forall qs, forallb (on_board bd) qs = true -> live qs = L -> wins bd (Pos qs h).
Definition Lost (L : list square) (h : nat) : Prop :=
  forall qs, forallb (on_board bd) qs = true -> live qs = L -> loses bd (Pos qs h).

Lemma on_board_cons qs s :
  forallb (on_board bd) qs = true -> In s (live qs) -> forallb (on_board bd) (s :: qs) = true.
Proof.
  intros Hqs Hs. simpl. rewrite Hqs, andb_true_r.
  apply in_live, free_iff in Hs. tauto.
Qed.

Lemma won_place L h s : In s L -> Lost (after s L) h -> Won L h.
Proof.
  intros Hs Hl qs Hqs HL. subst L.
  apply win with (Pos (s :: qs) h).
  - constructor. now apply in_live.
  - apply Hl; [now apply on_board_cons|]. apply live_cons.
Qed.

Lemma won_heap L h h' : h' < h -> Lost L h' -> Won L h.
Proof.
  intros Hh Hl qs Hqs HL. apply win with (Pos qs h').
  - now constructor.
  - now apply Hl.
Qed.

Lemma lost_intro L h :
  (forall s, In s L -> Won (after s L) h) ->
  (forall h', h' < h -> Won L h') -> Lost L h.
Proof.
  intros Hs Hh qs Hqs HL. constructor. intros p' Hm. inversion Hm; subst.
  - assert (In s (live qs)) as Hin by now apply in_live.
    apply (Hs s); [exact Hin|now apply on_board_cons|apply live_cons].
  - now apply Hh.
Qed.

(* ---- Positions up to a map of the board. ---- *)

(* If the squares t whose image f t is live in M are won, so are M's: a
   placement qs of M's and its image under f's inverse g have the same
   outcome (Symmetry.v), and the image's live squares are those t. *)
Lemma won_image f M h :
  board_map bd f ->
  (exists g, board_map bd g /\ forall s, on_board bd s = true -> g (f s) = s /\ f (g s) = s) ->
  Won (decode n (image_rows n f M)) h -> Won (decode n M) h.
Proof.
  intros Hf [g [Hg Hfg]] W qs Hqs HL.
  assert (forallb (on_board bd) (map g qs) = true) as Hgqs.
  { rewrite forallb_forall in *. intros x Hx. apply in_map_iff in Hx as [s [<- Hs]].
    apply (proj1 Hg). auto. }
  assert (live (map g qs) = decode n (image_rows n f M)) as HL'.
  { rewrite decode_image. unfold live. apply filter_ext_in. intros t Ht.
    apply (in_all_squares bd) in Ht.
    assert (on_board bd (f t) = true) as Hft by (apply (proj1 Hf); exact Ht).
    destruct (Hfg t Ht) as [Hgft _].
    transitivity (free bd (map g qs) (g (f t))); [now rewrite Hgft|].
    rewrite (free_image bd g qs (f t) Hg Hqs Hft).
    apply eq_true_iff_eq. rewrite <- in_live, HL. symmetry. apply is_live_decode.
    destruct (f t) as [r c]. apply on_board_size_iff in Hft. simpl. lia. }
  pose proof (proj1 (outcome_image bd f Hf (Pos (map g qs) h) Hgqs) (W (map g qs) Hgqs HL')) as Wf.
  unfold image in Wf. simpl in Wf. rewrite map_map in Wf.
  rewrite (map_ext_in _ (fun x => x)) in Wf; [now rewrite map_id in Wf|].
  intros s Hs. rewrite forallb_forall in Hqs. apply Hfg. auto.
Qed.

Lemma NoDup_map_on {A B} (f : A -> B) (l : list A) :
  NoDup l -> (forall x y, In x l -> In y l -> f x = f y -> x = y) -> NoDup (map f l).
Proof.
  induction l as [|a l IH]; simpl; intros H Hinj; constructor; inversion H; subst.
  - intro Hin. apply in_map_iff in Hin as [y [E Hy]].
    assert (y = a) as -> by (apply Hinj; auto). contradiction.
  - apply IH; auto.
Qed.

Lemma NoDup_app_disjoint {A} (l1 l2 : list A) :
  NoDup l1 -> NoDup l2 -> (forall x, In x l1 -> ~ In x l2) -> NoDup (l1 ++ l2).
Proof.
  induction l1 as [|a l1 IH]; simpl; intros H1 H2 Hd; auto. inversion H1; subst.
  constructor.
  - rewrite in_app_iff. intros [H|H]; [contradiction|]. exact (Hd a (or_introl eq_refl) H).
  - apply IH; auto.
Qed.

Lemma NoDup_list_prod_seq (l : list nat) k : NoDup l -> NoDup (list_prod l (seq 0 k)).
Proof.
  induction l as [|a l IH]; simpl; intro H; [constructor|]. inversion H; subst.
  apply NoDup_app_disjoint.
  - apply NoDup_map_on; [apply seq_NoDup|]. intros x y _ _ E. now injection E.
  - now apply IH.
  - intros x Hx Hx'. apply in_map_iff in Hx as [b [<- _]]. apply in_prod_iff in Hx' as [Ha _].
    contradiction.
Qed.

Lemma NoDup_all_squares : NoDup (all_squares n).
Proof. apply NoDup_list_prod_seq, seq_NoDup. Qed.

(* The image has no more live squares than M (f is one-to-one on the board). *)
Lemma image_length f M :
  board_map bd f ->
  (exists g, board_map bd g /\ forall s, on_board bd s = true -> g (f s) = s /\ f (g s) = s) ->
  length (decode n (image_rows n f M)) <= length (decode n M).
Proof.
  intros Hf [g [Hg Hfg]]. rewrite decode_image.
  rewrite <- (map_length f). apply NoDup_incl_length.
  - apply NoDup_map_on; [apply NoDup_filter, NoDup_all_squares|].
    intros x y Hx Hy E. apply filter_In in Hx as [Hx _]. apply filter_In in Hy as [Hy _].
    apply (in_all_squares bd) in Hx, Hy.
    rewrite <- (proj1 (Hfg x Hx)), <- (proj1 (Hfg y Hy)). now rewrite E.
  - intros x Hx. apply in_map_iff in Hx as [t [<- Ht]]. apply filter_In in Ht as [_ Ht].
    now apply is_live_in.
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

(* The positions the frame solver decides without a search (child_lost). *)
Lemma lost_nil : Lost [] 0.
Proof. apply lost_intro; [intros s []|intros h' Hh'; lia]. Qed.

Lemma won_nil h : h <> 0 -> Won [] h.
Proof. intro Hh. apply won_heap with 0; [lia|exact lost_nil]. Qed.

Lemma after_single s : after s [s] = [].
Proof. unfold after. simpl. now rewrite attacks_self. Qed.

Lemma lost_single s : Lost [s] 1.
Proof.
  apply lost_intro.
  - intros s' [<-|[]]. rewrite after_single. apply won_nil. lia.
  - intros h' Hh'. replace h' with 0 by lia.
    apply won_place with s; [now left|]. rewrite after_single. exact lost_nil.
Qed.

Lemma won_single s h : h <> 1 -> Won [s] h.
Proof.
  intro Hh. destruct h as [|h].
  - apply won_place with s; [now left|]. rewrite after_single. exact lost_nil.
  - apply won_heap with 1; [lia|exact (lost_single s)].
Qed.

(* Two live squares: with no attack between them, each move leaves the
   other alone (Grundy value 1 xor 1 = 0); when they attack each other, each
   move leaves nothing (Grundy value 1). *)
Lemma after_pair s t :
  after s [s; t] = (if attacks s t then [] else [t]) /\ after t [s; t] = (if attacks s t then [] else [s]).
Proof.
  pose proof (attacks_sym s t) as S. unfold after. simpl.
  rewrite !attacks_self, <- S. destruct (attacks s t); split; reflexivity.
Qed.

Lemma lost_pair s t : Lost [s; t] (if attacks s t then 1 else 0).
Proof.
  destruct (after_pair s t) as [As At]. destruct (attacks s t); apply lost_intro.
  - intros x [<-|[<-|[]]]; [rewrite As|rewrite At]; apply won_nil; lia.
  - intros h' Hh'. replace h' with 0 by lia.
    apply won_place with s; [now left|]. rewrite As. exact lost_nil.
  - intros x [<-|[<-|[]]]; [rewrite As|rewrite At]; apply won_single; lia.
  - intros h' Hh'. lia.
Qed.

Lemma won_pair s t h : h <> (if attacks s t then 1 else 0) -> Won [s; t] h.
Proof.
  intro Hh. pose proof (lost_pair s t) as P. destruct (after_pair s t) as [As _].
  destruct (attacks s t).
  - destruct h as [|h].
    + apply won_place with s; [now left|]. rewrite As. exact lost_nil.
    + apply won_heap with 1; [lia|exact P].
  - apply won_heap with 0; [lia|exact P].
Qed.

(* Three live squares: the value is set by how many of the three pairs
   attack each other (none: 1 xor 1 xor 1 = 1; one: a pair and a lone
   square, 1 xor 1 = 0; two: a path, whose end leaves one square and whose
   middle leaves none, mex {1, 0} = 2; three: every move leaves none, 1). *)
Definition three_value (x y z : bool) : nat :=
  if x then (if y then (if z then 1 else 2) else (if z then 2 else 0))
  else (if y then (if z then 2 else 0) else (if z then 0 else 1)).

Definition triple_value (s t u : square) : nat := three_value (attacks s t) (attacks s u) (attacks t u).

Lemma after_triple s t u :
  after s [s; t; u] = (if attacks s t then [] else [t]) ++ (if attacks s u then [] else [u]) /\
  after t [s; t; u] = (if attacks s t then [] else [s]) ++ (if attacks t u then [] else [u]) /\
  after u [s; t; u] = (if attacks s u then [] else [s]) ++ (if attacks t u then [] else [t]).
Proof.
  pose proof (attacks_sym s t) as S1. pose proof (attacks_sym s u) as S2. pose proof (attacks_sym t u) as S3.
  unfold after. simpl. rewrite !attacks_self, <- S1, <- S2, <- S3.
  destruct (attacks s t), (attacks s u), (attacks t u); repeat split; reflexivity.
Qed.

Lemma won_triple_below s t u h : h < triple_value s t u -> Won [s; t; u] h.
Proof.
  unfold triple_value, three_value. destruct (after_triple s t u) as [As [At Au]].
  pose proof (lost_pair t u) as Ptu.
  destruct (attacks s t), (attacks s u), (attacks t u); cbn [app] in *; intro Hh; try lia.
  - replace h with 0 by lia. apply won_place with s; [now left|]. rewrite As. exact lost_nil.
  - destruct h as [|[|h]]; [|apply won_place with t; [right; now left|]|lia].
    + apply won_place with s; [now left|]. rewrite As. exact lost_nil.
    + rewrite At. apply lost_single.
  - destruct h as [|[|h]]; [|apply won_place with s; [now left|]|lia].
    + apply won_place with t; [right; now left|]. rewrite At. exact lost_nil.
    + rewrite As. apply lost_single.
  - destruct h as [|[|h]]; [|apply won_place with s; [now left|]|lia].
    + apply won_place with u; [right; right; now left|]. rewrite Au. exact lost_nil.
    + rewrite As. apply lost_single.
  - replace h with 0 by lia. apply won_place with s; [now left|]. rewrite As. exact Ptu.
Qed.

Lemma lost_triple s t u : Lost [s; t; u] (triple_value s t u).
Proof.
  apply lost_intro; [|intros h' Hh'; now apply won_triple_below].
  unfold triple_value, three_value. destruct (after_triple s t u) as [As [At Au]].
  pose proof (won_pair s t) as Wst. pose proof (won_pair s u) as Wsu. pose proof (won_pair t u) as Wtu.
  destruct (attacks s t), (attacks s u), (attacks t u); cbn [app] in *;
    intros x [<-|[<-|[<-|[]]]]; rewrite ?As, ?At, ?Au;
    first [apply won_nil; lia | apply won_single; lia | apply Wst; lia | apply Wsu; lia | apply Wtu; lia].
Qed.

Lemma won_triple s t u h : h <> triple_value s t u -> Won [s; t; u] h.
Proof.
  intro Hh. destruct (Nat.lt_ge_cases h (triple_value s t u)) as [Lt|Ge].
  - now apply won_triple_below.
  - apply won_heap with (triple_value s t u); [lia|apply lost_triple].
Qed.

End Board.


(* ---- The solver on a frame (LiveRows.v): the same negamax, with the
   descendants of a position's live squares L as index masks over L. ---- *)

(* The frame's masks with their indices: (i, the mask of L's i-th square). *)
Fixpoint index_from {A} (i : nat) (l : list A) : list (nat * A) :=
  match l with
  | [] => []
  | a :: l' => (i, a) :: index_from (S i) l'
  end.

Lemma in_index_from {A} (l : list A) : forall i j a,
  In (j, a) (index_from i l) <-> exists k, j = i + k /\ nth_error l k = Some a.
Proof.
  induction l as [|x l IH]; intros i j a; simpl.
  - split; [tauto|]. intros [k [_ Hk]]. destruct k; discriminate.
  - rewrite IH. split.
    + intros [E|[k [-> Hk]]].
      * injection E as <- <-. exists 0. rewrite Nat.add_0_r. auto.
      * exists (S k). rewrite <- Nat.add_succ_comm. auto.
    + intros [[|k] [-> Hk]]; simpl in Hk.
      * injection Hk as <-. left. now rewrite Nat.add_0_r.
      * right. exists k. rewrite <- Nat.add_succ_comm. auto.
Qed.

Definition frame_entries (L : list square) : list (nat * nat) :=
  index_from 0 (map snd (frame L)).

Lemma frame_entries_good L i a :
  In (i, a) (frame_entries L) -> exists s, nth_error L i = Some s /\ a = attack_mask_from s L 0.
Proof.
  unfold frame_entries, frame. rewrite in_index_from, map_map. intros [k [-> Hk]].
  rewrite nth_error_map in Hk. simpl in Hk. destruct (nth_error L k) as [s|] eqn:Hs; [|discriminate].
  injection Hk as <-. exists s. simpl. auto.
Qed.

Lemma frame_entries_cover L i s :
  nth_error L i = Some s -> In (i, attack_mask_from s L 0) (frame_entries L).
Proof.
  intro Hi. unfold frame_entries, frame. rewrite in_index_from, map_map. exists i. split; [reflexivity|].
  rewrite nth_error_map, Hi. reflexivity.
Qed.

(* The order in which the solver tries moves: the entries sorted by a score
   of their masks, largest first (the score is part of the input, like the
   hash: the driver's counts the squares a move takes, so that moves leaving
   the opponent least come first). Any order is sound: sorting permutes. *)

Definition order_entries (score : nat -> nat) (E : list (nat * nat)) : list (nat * nat) :=
  map snd (ScoreSort.sort (map (fun e => (score (snd e), e)) E)).

Lemma order_entries_in score E e : In e (order_entries score E) <-> In e E.
Proof.
  unfold order_entries.
  assert (forall l : list (nat * (nat * nat)), In e (map snd l) <-> exists k, In (k, e) l) as M.
  { intro l. rewrite in_map_iff. split.
    - intros [[k e'] [Eq H]]. simpl in Eq. subst e'. eauto.
    - intros [k H]. exists (k, e). auto. }
  rewrite M. pose proof (ScoreSort.Permuted_sort (map (fun e => (score (snd e), e)) E)) as P.
  split.
  - intros [k H]. apply (Permutation_in _ (Permutation_sym P)) in H.
    apply in_map_iff in H as [e' [Eq H]]. injection Eq as _ ->. exact H.
  - intro H. exists (score (snd e)). apply (Permutation_in _ P).
    apply in_map_iff. exists e. auto.
Qed.

(* The entries of m's live squares (a loop with no closure call per entry). *)
Fixpoint keep_live (m : nat) (E : list (nat * nat)) : list (nat * nat) :=
  match E with
  | [] => []
  | e :: E' => if Nat.testbit m (fst e) then e :: keep_live m E' else keep_live m E'
  end.

Lemma keep_live_filter m E : keep_live m E = filter (fun e => Nat.testbit m (fst e)) E.
Proof. induction E as [|e E IH]; simpl; [reflexivity|]. now rewrite IH. Qed.

(* A mask with one bit set: that bit is its highest (the test below: no bit
   of m is set in m - 1). *)
Lemma single_bit m : m <> 0 -> Nat.ldiff m (m - 1) = m ->
  forall j, Nat.testbit m j = Nat.eqb j (Nat.log2 m).
Proof.
  intros Hm Hd j. set (i := Nat.log2 m).
  destruct (Nat.eqb_spec j i) as [->|Hj]; [now apply Nat.bit_log2|].
  destruct (Nat.lt_ge_cases i j) as [Hlt|Hge]; [now apply Nat.bits_above_log2|].
  destruct (Nat.log2_spec m) as [Lo Hi]; [lia|]. fold i in Lo, Hi. rewrite Nat.pow_succ_r' in Hi.
  destruct (Nat.eq_dec m (2 ^ i)) as [Em|Em]; [rewrite Em; apply Nat.pow2_bits_false; lia|].
  exfalso. assert (Nat.testbit (m - 1) i = true) as B.
  { pose proof (Nat.testbit_spec' (m - 1) i) as T.
    replace ((m - 1) / 2 ^ i) with 1 in T
      by (apply (Nat.div_unique _ _ _ (m - 1 - 2 ^ i)); lia).
    destruct (Nat.testbit (m - 1) i); [reflexivity|discriminate]. }
  pose proof (f_equal (fun x => Nat.testbit x i) Hd) as C. simpl in C.
  rewrite Nat.ldiff_spec, Nat.bit_log2, B in C by exact Hm. discriminate.
Qed.

(* E from its first entry live in m on: the entries before it are not live
   in m, nor in any position below m, whose live squares are m's less some. *)
Fixpoint from_live (m : nat) (E : list (nat * nat)) : list (nat * nat) :=
  match E with
  | [] => []
  | e :: E' => if Nat.testbit m (fst e) then E else from_live m E'
  end.

Lemma from_live_in m E e : In e (from_live m E) -> In e E.
Proof.
  induction E as [|x E IH]; simpl; [tauto|].
  destruct (Nat.testbit m (fst x)); [tauto|]. intro H. right. now apply IH.
Qed.

Lemma from_live_keeps m E e : In e E -> Nat.testbit m (fst e) = true -> In e (from_live m E).
Proof.
  induction E as [|x E IH]; simpl; [tauto|]. intros [<-|H] Hb.
  - rewrite Hb. now left.
  - destruct (Nat.testbit m (fst x)); [now right|]. now apply IH.
Qed.

Lemma from_live_head m E e E' : from_live m E = e :: E' -> Nat.testbit m (fst e) = true.
Proof.
  induction E as [|x E IH]; simpl; [discriminate|].
  destruct (Nat.testbit m (fst x)) eqn:Hb; [|exact IH]. intro H. injection H as <- _. exact Hb.
Qed.

(* A cheap test that m less its lowest bit (m - (ldiff m (m - 1))) has at
   most one bit: m has at most two. It only spares the scan for a third live
   entry where there can be none; what child_lost concludes rests on the
   single-bit test after the scan, so no lemma about it is needed. *)
Definition maybe_two (m : nat) : bool :=
  let x := m - Nat.ldiff m (m - 1) in Nat.eqb (Nat.ldiff x (x - 1)) x.

(* A child's status as the solver reports it: 0 when it is lost, S w when
   it is won, w naming (as bits) the child's winning queen when the solver
   searched it, so that the parent skips that queen (pairing, below). *)
Definition lost_code (lost : bool) : nat := if lost then 0 else 1.

(* What the solver knows of a child m' without searching it: with no live
   square it is lost exactly when the heap is 0, with one exactly when the
   heap is 1 (the queen's own square is its only move: Grundy value 1), with
   two exactly when the heap is 1 if they attack each other, 0 if not (the
   first of them in E, i with mask a, attacks the other when m' has no
   square outside a), with three exactly when the heap is three_value of the
   three pairs (the second, j with mask b, found after i in E; the third
   the one bit left); otherwise rec searches it. *)
Definition child_status (rec : list (nat * nat) -> nat -> nat) (E : list (nat * nat)) (m' h : nat) : nat :=
  if Nat.eqb m' 0 then lost_code (Nat.eqb h 0)
  else if Nat.eqb (Nat.ldiff m' (m' - 1)) m' then lost_code (Nat.eqb h 1)
  else let E' := from_live m' E in
       match E' with
       | [] => rec E m'
       | (i, a) :: E2 =>
           let m2 := Nat.ldiff m' (bit i) in
           if negb (Nat.eqb m2 0) && Nat.eqb (Nat.ldiff m2 (m2 - 1)) m2
           then lost_code (Nat.eqb h (if Nat.eqb (Nat.ldiff m' a) 0 then 1 else 0))
           else if maybe_two m2 then
             match from_live m2 E2 with
             | [] => rec E' m'
             | (j, b) :: _ =>
                 let m3 := Nat.ldiff m2 (bit j) in
                 if negb (Nat.eqb m3 0) && Nat.eqb (Nat.ldiff m3 (m3 - 1)) m3
                 then lost_code (Nat.eqb h (three_value (Nat.testbit a j) (Nat.eqb (Nat.ldiff m3 a) 0)
                                                        (Nat.eqb (Nat.ldiff m3 b) 0)))
                 else rec E' m'
             end
           else rec E' m'
       end.

(* The first entry of E whose bit is set in cand, the candidates, and whose
   child p reports lost: S (bit i) for it, else 0. A child reported won,
   S w, takes the queens of w out of the candidates: if the queen on u wins
   the child after the queen on i, then the queen on i wins the child after
   the queen on u (the same position; i is live after u because attacks
   are symmetric), so u loses here and is not searched again. *)
Fixpoint first_live_win (p : nat -> nat) (cand : nat) (E : list (nat * nat)) : nat :=
  match E with
  | [] => 0
  | (i, a) :: E' =>
      if Nat.testbit cand i then
        let r := p a in
        if Nat.eqb r 0 then S (bit i) else first_live_win p (Nat.ldiff cand (r - 1)) E'
      else first_live_win p cand E'
  end.

(* Negamax on index masks: E holds (at least) the entries of m's live
   squares, filtered once where a solve starts (keep_live) and cut to the
   child's first live entry at each call (from_live, in child_status); each
   node scans them with one bit test each, allocating nothing per entry, and
   a node with no live square (most leaves) scans nothing. A child with at
   most three live squares (most nodes) is decided by child_status without
   a call. The result: 0 when (m, h) is lost, S w when it is won, w the bit
   of the winning queen (0 for a win by the heap). *)
Fixpoint solve_frame (fuel : nat) (E : list (nat * nat)) (m h : nat) : nat :=
  match fuel with
  | 0 => 0
  | S f =>
      let r := if Nat.eqb m 0 then 0
               else first_live_win (fun a => child_status (fun E' m' => solve_frame f E' m' h) E (Nat.ldiff m a) h) m E in
      if Nat.eqb r 0 then (if exists_from (fun h' => Nat.eqb (solve_frame f E m h') 0) 0 h then 1 else 0) else r
  end.

(* The index of the first entry of l live in m whose move leaves a position
   that solve_frame finds lost: a winning move, named so that the sibling it
   is can be paired (children_ok). *)
Fixpoint first_win (f : nat) (E : list (nat * nat)) (m h : nat) (l : list (nat * nat)) : option nat :=
  match l with
  | [] => None
  | e :: l' =>
      if Nat.testbit m (fst e) && Nat.eqb (solve_frame f E (Nat.ldiff m (snd e)) h) 0
      then Some (fst e) else first_win f E m h l'
  end.

Lemma first_win_some f E m h l u : first_win f E m h l = Some u ->
  exists a, In (u, a) l /\ Nat.testbit m u = true /\ solve_frame f E (Nat.ldiff m a) h = 0.
Proof.
  induction l as [|[i a] l IH]; simpl; [discriminate|].
  destruct (Nat.testbit m i) eqn:Hb; simpl.
  - destruct (solve_frame f E (Nat.ldiff m a) h) eqn:Hs; simpl.
    + intro H. injection H as <-. exists a. auto.
    + intro H. destruct (IH H) as [a' [Hin R]]. eauto.
  - intro H. destruct (IH H) as [a' [Hin R]]. eauto.
Qed.

(* The entry of E with index k, if there is one, as a list of at most one
   (k at most 61: bit k stays below 2^62, Extraction.v).
   The table suggests, for each small child of a frame, the index of a
   winning queen (untrusted: the solver tries it first and then every entry
   in order, so a wrong suggestion costs one search and decides nothing).
   Without one, the solver's order found the winning queen at the fourth
   try on average at n = 14, and the failed tries were half its calls. *)
Definition hint_entry (k : nat) (E : list (nat * nat)) : list (nat * nat) :=
  match from_live (bit k) E with [] => [] | e :: _ => [e] end.

Lemma hint_entry_in k E e : In e (hint_entry k E) -> In e E.
Proof.
  unfold hint_entry. destruct (from_live (bit k) E) as [|x E'] eqn:F; simpl; [tauto|].
  intros [<-|[]]. apply (from_live_in (bit k)). rewrite F. now left.
Qed.

Lemma sub_from_none L : forall k m, (forall j, k <= j -> Nat.testbit m j = false) -> sub_from L k m = [].
Proof.
  induction L as [|x L IH]; intros k m H; simpl; [reflexivity|].
  rewrite H by lia. apply IH. intros j Hj. apply H. lia.
Qed.

Lemma sub_from_single L : forall k i s m, (forall j, Nat.testbit m j = Nat.eqb j i) -> k <= i ->
  nth_error L (i - k) = Some s -> sub_from L k m = [s].
Proof.
  induction L as [|x L IH]; intros k i s m Hm Hk Hs; [destruct (i - k); discriminate|]. simpl.
  rewrite Hm. destruct (Nat.eqb_spec k i) as [->|Hne].
  - rewrite Nat.sub_diag in Hs. simpl in Hs. injection Hs as ->. f_equal.
    apply sub_from_none. intros j Hj. rewrite Hm. apply Nat.eqb_neq. lia.
  - apply (IH (S k) i s m Hm); [lia|]. replace (i - k) with (S (i - S k)) in Hs by lia. exact Hs.
Qed.

Lemma sub_from_pair L : forall k i j si sj m, (forall x, Nat.testbit m x = Nat.eqb x i || Nat.eqb x j) ->
  k <= i -> i < j -> nth_error L (i - k) = Some si -> nth_error L (j - k) = Some sj -> sub_from L k m = [si; sj].
Proof.
  induction L as [|x L IH]; intros k i j si sj m Hm Hk Hij Hi Hj; [destruct (i - k); discriminate|]. simpl.
  rewrite Hm. destruct (Nat.eqb_spec k i) as [->|Hne].
  - rewrite Nat.sub_diag in Hi. simpl in Hi. injection Hi as ->. simpl. f_equal.
    rewrite (sub_from_ext L (S i) m (bit j)).
    + apply (sub_from_single L (S i) j sj (bit j)); [intro y; rewrite bit_spec; apply Nat.eqb_sym|lia|].
      replace (j - i) with (S (j - S i)) in Hj by lia. exact Hj.
    + intros y Hy. rewrite Hm, bit_spec. destruct (Nat.eqb_spec y i); [lia|]. simpl. apply Nat.eqb_sym.
  - destruct (Nat.eqb_spec k j); [lia|]. simpl.
    apply (IH (S k) i j si sj m Hm); [lia|lia| |].
    + replace (i - k) with (S (i - S k)) in Hi by lia. exact Hi.
    + replace (j - k) with (S (j - S k)) in Hj by lia. exact Hj.
Qed.

Lemma sub_from_triple L : forall k0 i j k si sj sk m,
  (forall x, Nat.testbit m x = Nat.eqb x i || Nat.eqb x j || Nat.eqb x k) ->
  k0 <= i -> i < j -> j < k -> nth_error L (i - k0) = Some si -> nth_error L (j - k0) = Some sj ->
  nth_error L (k - k0) = Some sk -> sub_from L k0 m = [si; sj; sk].
Proof.
  induction L as [|x L IH]; intros k0 i j k si sj sk m Hm Hk0 Hij Hjk Hi Hj Hk;
    [destruct (i - k0); discriminate|]. simpl.
  rewrite Hm. destruct (Nat.eqb_spec k0 i) as [->|Hne].
  - rewrite Nat.sub_diag in Hi. simpl in Hi. injection Hi as ->. simpl. f_equal.
    rewrite (sub_from_ext L (S i) m (Nat.lor (bit j) (bit k))).
    + apply (sub_from_pair L (S i) j k sj sk); [|lia|lia| |].
      * intro y. rewrite Nat.lor_spec, !bit_spec, !(Nat.eqb_sym y). reflexivity.
      * replace (j - i) with (S (j - S i)) in Hj by lia. exact Hj.
      * replace (k - i) with (S (k - S i)) in Hk by lia. exact Hk.
    + intros y Hy. rewrite Hm, Nat.lor_spec, !bit_spec. destruct (Nat.eqb_spec y i); [lia|]. simpl.
      now rewrite !(Nat.eqb_sym y).
  - destruct (Nat.eqb_spec k0 j); [lia|]. destruct (Nat.eqb_spec k0 k); [lia|]. simpl.
    apply (IH (S k0) i j k si sj sk m Hm); [lia|lia|lia| | |].
    + replace (i - k0) with (S (i - S k0)) in Hi by lia. exact Hi.
    + replace (j - k0) with (S (j - S k0)) in Hj by lia. exact Hj.
    + replace (k - k0) with (S (k - S k0)) in Hk by lia. exact Hk.
Qed.

(* Three live squares i, j, k in any order: sub lists them in board order,
   which changes nothing of their value. *)
Lemma sub_triple L m i j k si sj sk :
  (forall x, Nat.testbit m x = Nat.eqb x i || Nat.eqb x j || Nat.eqb x k) -> i <> j -> i <> k -> j <> k ->
  nth_error L i = Some si -> nth_error L j = Some sj -> nth_error L k = Some sk ->
  exists x y z, sub L m = [x; y; z] /\ triple_value x y z = triple_value si sj sk.
Proof.
  intros Hm Hij Hik Hjk Hi Hj Hk. unfold sub.
  assert (forall a b c sa sb sc, a < b -> b < c ->
            (forall x, Nat.testbit m x = Nat.eqb x a || Nat.eqb x b || Nat.eqb x c) ->
            nth_error L a = Some sa -> nth_error L b = Some sb -> nth_error L c = Some sc ->
            sub_from L 0 m = [sa; sb; sc]) as S.
  { intros a b c sa sb sc Hab Hbc Hm' Ha Hb Hc.
    apply (sub_from_triple L 0 a b c); rewrite ?Nat.sub_0_r; auto; lia. }
  unfold triple_value.
  destruct (Nat.lt_total i j) as [Lij|[Eij|Lji]]; [|contradiction|];
  destruct (Nat.lt_total i k) as [Lik|[Eik|Lki]]; try contradiction;
  destruct (Nat.lt_total j k) as [Ljk|[Ejk|Lkj]]; try contradiction; try lia.
  - exists si, sj, sk. split; [apply (S i j k); auto|reflexivity].
  - exists si, sk, sj. split; [apply (S i k j); auto; intro x; rewrite Hm; destruct (Nat.eqb x i), (Nat.eqb x j), (Nat.eqb x k); reflexivity|].
    rewrite (attacks_sym sk sj). destruct (attacks si sj), (attacks si sk), (attacks sj sk); reflexivity.
  - exists sk, si, sj. split; [apply (S k i j); auto; intro x; rewrite Hm; destruct (Nat.eqb x i), (Nat.eqb x j), (Nat.eqb x k); reflexivity|].
    rewrite (attacks_sym sk si), (attacks_sym sk sj).
    destruct (attacks si sj), (attacks si sk), (attacks sj sk); reflexivity.
  - exists sj, si, sk. split; [apply (S j i k); auto; intro x; rewrite Hm; destruct (Nat.eqb x i), (Nat.eqb x j), (Nat.eqb x k); reflexivity|].
    rewrite (attacks_sym sj si). destruct (attacks si sj), (attacks si sk), (attacks sj sk); reflexivity.
  - exists sj, sk, si. split; [apply (S j k i); auto; intro x; rewrite Hm; destruct (Nat.eqb x i), (Nat.eqb x j), (Nat.eqb x k); reflexivity|].
    rewrite (attacks_sym sj si), (attacks_sym sk si).
    destruct (attacks si sj), (attacks si sk), (attacks sj sk); reflexivity.
  - exists sk, sj, si. split; [apply (S k j i); auto; intro x; rewrite Hm; destruct (Nat.eqb x i), (Nat.eqb x j), (Nat.eqb x k); reflexivity|].
    rewrite (attacks_sym sk sj), (attacks_sym sk si), (attacks_sym sj si).
    destruct (attacks si sj), (attacks si sk), (attacks sj sk); reflexivity.
Qed.

(* A mask with the one bit k set has no bit outside a exactly when a has
   bit k. *)
Lemma ldiff_single m k a : (forall x, Nat.testbit m x = Nat.eqb x k) -> Nat.eqb (Nat.ldiff m a) 0 = Nat.testbit a k.
Proof.
  intro Hm. destruct (Nat.testbit a k) eqn:A.
  - apply Nat.eqb_eq, Nat.bits_inj. intro x. rewrite Nat.ldiff_spec, Nat.bits_0, Hm.
    destruct (Nat.eqb_spec x k) as [->|_]; [now rewrite A|reflexivity].
  - apply Nat.eqb_neq. intro Z. pose proof (f_equal (fun y => Nat.testbit y k) Z) as C. simpl in C.
    rewrite Nat.ldiff_spec, Nat.bits_0, Hm, Nat.eqb_refl, A in C. discriminate.
Qed.

Lemma sub_length_le L m : length (sub L m) <= length L.
Proof.
  unfold sub. generalize 0. induction L as [|x L IH]; intro i; simpl; [lia|].
  destruct (Nat.testbit m i); simpl; specialize (IH (S i)); lia.
Qed.

Section FrameSound.
Variable L : list square.

(* The entries E are L's, and they include every live square of m. *)
Definition entries_ok (E : list (nat * nat)) (m : nat) : Prop :=
  (forall i a, In (i, a) E -> exists s, nth_error L i = Some s /\ a = attack_mask_from s L 0) /\
  (forall i s, nth_error L i = Some s -> Nat.testbit m i = true -> In (i, attack_mask_from s L 0) E).

Lemma entries_ok_filter E m m' :
  entries_ok E m -> (forall i, Nat.testbit m' i = true -> Nat.testbit m i = true) ->
  entries_ok (filter (fun e => Nat.testbit m (fst e)) E) m'.
Proof.
  intros [Hg Hc] Hsub. split.
  - intros i a Hin. apply filter_In in Hin as [Hin _]. eauto.
  - intros i s Hi Hb. apply filter_In. split; [|simpl; now apply Hsub]. apply Hc; auto.
Qed.

Lemma ldiff_sub m a i : Nat.testbit (Nat.ldiff m a) i = true -> Nat.testbit m i = true.
Proof. rewrite Nat.ldiff_spec. now intros [? _]%andb_true_iff. Qed.

Lemma entries_ok_sub E m m' :
  entries_ok E m -> (forall i, Nat.testbit m' i = true -> Nat.testbit m i = true) -> entries_ok E m'.
Proof. intros [Hg Hc] Hsub. split; auto. Qed.

Lemma entries_ok_same E E' m :
  (forall e, In e E' <-> In e E) -> entries_ok E m -> entries_ok E' m.
Proof.
  intros Hin [Hg Hc]. split.
  - intros i a H. apply Hin in H. eauto.
  - intros i s Hi Hb. apply Hin. auto.
Qed.

(* The masks whose bits are all indices of L's squares. *)
Definition in_range (m : nat) : Prop := forall i, Nat.testbit m i = true -> i < length L.

Lemma in_range_sub m m' : in_range m -> (forall i, Nat.testbit m' i = true -> Nat.testbit m i = true) -> in_range m'.
Proof. intros Hr H i Hi. apply Hr, H, Hi. Qed.

Lemma in_range_ones : in_range (Nat.ones (length L)).
Proof.
  intros i Hi. destruct (Nat.lt_ge_cases i (length L)) as [H|H]; [exact H|].
  rewrite Nat.ones_spec_high in Hi by exact H. discriminate.
Qed.

(* The queens that w names win their children of m: what solve_frame
   reports of a won position, for its parent's pairing. *)
Definition witnesses (m w h : nat) : Prop :=
  forall u, Nat.testbit w u = true -> exists s, nth_error L u = Some s /\ Nat.testbit m u = true /\
    Lost (sub L (Nat.ldiff m (attack_mask_from s L 0))) h.

Lemma witnesses_0 m h : witnesses m 0 h.
Proof. intros u Hu. now rewrite Nat.bits_0 in Hu. Qed.

(* The pairing: the queen on j wins the child after the queen on i, so the
   queen on i wins the child after the queen on j. *)
Lemma won_by_pair m i si j sj h :
  nth_error L i = Some si -> Nat.testbit m i = true -> nth_error L j = Some sj ->
  Nat.testbit (Nat.ldiff m (attack_mask_from si L 0)) j = true ->
  Lost (sub L (Nat.ldiff (Nat.ldiff m (attack_mask_from si L 0)) (attack_mask_from sj L 0))) h ->
  Won (sub L (Nat.ldiff m (attack_mask_from sj L 0))) h.
Proof.
  intros Hi Hbi Hj Hbj Hl. apply won_place with si.
  - apply (sub_from_in L 0 _ i si Hi). simpl. rewrite Nat.ldiff_spec, Hbi. simpl.
    pose proof (attack_mask_spec sj L 0 i si Hi) as A. simpl in A. rewrite A, attacks_sym.
    pose proof (attack_mask_spec si L 0 j sj Hj) as B. simpl in B.
    rewrite Nat.ldiff_spec, B in Hbj. apply andb_true_iff in Hbj as [_ Hn]. now rewrite Hn.
  - unfold after. rewrite sub_after, ldiff_swap. exact Hl.
Qed.

Lemma first_live_win_none p E : first_live_win p 0 E = 0.
Proof.
  induction E as [|[i a] E IH]; simpl; [reflexivity|]. now rewrite Nat.bits_0.
Qed.

Lemma first_live_win_won p m E : forall cand w,
  (forall x, Nat.testbit cand x = true -> Nat.testbit m x = true) ->
  first_live_win p cand E = S w ->
  exists i a, In (i, a) E /\ Nat.testbit m i = true /\ p a = 0 /\ w = bit i.
Proof.
  induction E as [|[i a] E IH]; intros cand w Hc; simpl; [discriminate|].
  destruct (Nat.testbit cand i) eqn:T.
  - cbv zeta. destruct (Nat.eqb_spec (p a) 0) as [P|P].
    + intro H. injection H as <-. exists i, a. auto.
    + intro H. destruct (IH (Nat.ldiff cand (p a - 1)) w (fun x Hx => Hc x (ldiff_sub _ _ _ Hx)) H) as [i' [a' [Hin R]]].
      exists i', a'. auto.
  - intro H. destruct (IH cand w Hc H) as [i' [a' [Hin R]]]. exists i', a'. auto.
Qed.

(* When no candidate's child is reported lost, every live entry's child is
   won: reported so, or settled by a sibling's winning queen. *)
Lemma first_live_win_lost p m h E :
  (forall i a, In (i, a) E -> exists s, nth_error L i = Some s /\ a = attack_mask_from s L 0) ->
  (forall i a w, In (i, a) E -> Nat.testbit m i = true -> p a = S w ->
     Won (sub L (Nat.ldiff m a)) h /\ witnesses (Nat.ldiff m a) w h) ->
  forall cand,
  (forall j sj, Nat.testbit cand j = false -> nth_error L j = Some sj -> Nat.testbit m j = true ->
     Won (sub L (Nat.ldiff m (attack_mask_from sj L 0))) h) ->
  (forall x, Nat.testbit cand x = true -> Nat.testbit m x = true) ->
  first_live_win p cand E = 0 ->
  forall i a, In (i, a) E -> Nat.testbit m i = true -> Won (sub L (Nat.ldiff m a)) h.
Proof.
  intros Hg Hp. induction E as [|[i0 a0] E IH]; intros cand Hs Hc F i a Hin Hb; [destruct Hin|].
  assert (forall i a, In (i, a) E -> exists s, nth_error L i = Some s /\ a = attack_mask_from s L 0) as Hg'
    by (intros i1 a1 H1; apply Hg; now right).
  assert (forall i a w, In (i, a) E -> Nat.testbit m i = true -> p a = S w ->
            Won (sub L (Nat.ldiff m a)) h /\ witnesses (Nat.ldiff m a) w h) as Hp'
    by (intros i1 a1 w H1 H2 H3; apply (Hp i1 a1 w); [now right|exact H2|exact H3]).
  destruct (Hg i0 a0 (or_introl eq_refl)) as [s0 [Hs0 ->]].
  simpl in F. destruct (Nat.testbit cand i0) eqn:T.
  - pose proof (Hc i0 T) as T0.
    destruct (Nat.eqb_spec (p (attack_mask_from s0 L 0)) 0) as [P|P]; [discriminate|].
    set (w := p (attack_mask_from s0 L 0) - 1) in F.
    assert (p (attack_mask_from s0 L 0) = S w) as P' by (unfold w; lia). clear P.
    destruct (Hp i0 _ w (or_introl eq_refl) T0 P') as [Hw Hwit].
    destruct Hin as [Heq|Hin]; [injection Heq as <- <-; exact Hw|].
    refine (IH Hg' Hp' (Nat.ldiff cand w) _ (fun x Hx => Hc x (ldiff_sub _ _ _ Hx)) F i a Hin Hb).
    intros j sj Hj Hsj Hbj. rewrite Nat.ldiff_spec in Hj.
    destruct (Nat.testbit cand j) eqn:Cj; [|exact (Hs j sj Cj Hsj Hbj)].
    simpl in Hj. apply negb_false_iff in Hj.
    destruct (Hwit j Hj) as [s [Hs' [Hbj' Hl]]]. rewrite Hsj in Hs'. injection Hs' as <-.
    exact (won_by_pair m i0 s0 j sj h Hs0 T0 Hsj Hbj' Hl).
  - destruct Hin as [Heq|Hin].
    + injection Heq as E1 E2. subst i0 a. exact (Hs i s0 T Hs0 Hb).
    + exact (IH Hg' Hp' cand Hs Hc F i a Hin Hb).
Qed.

Lemma solve_frame_sound fuel : forall E m h, entries_ok E m -> in_range m -> length (sub L m) + h < fuel ->
  (solve_frame fuel E m h = 0 -> Lost (sub L m) h) /\
  (forall w, solve_frame fuel E m h = S w -> Won (sub L m) h /\ witnesses m w h).
Proof.
  induction fuel as [|f IH]; intros E m h Hok Hr Hf; [lia|]. simpl.
  set (p := fun a => child_status (fun E' m' => solve_frame f E' m' h) E (Nat.ldiff m a) h).
  replace (if Nat.eqb m 0 then 0 else first_live_win p m E) with (first_live_win p m E)
    by (destruct (Nat.eqb_spec m 0) as [->|_]; [apply first_live_win_none|reflexivity]).
  assert (forall a, entries_ok E (Nat.ldiff m a)) as Hch
    by (intro a; apply (entries_ok_sub E m); [exact Hok|apply ldiff_sub]).
  assert (forall a, in_range (Nat.ldiff m a)) as Hrch
    by (intro a; apply (in_range_sub m); [exact Hr|apply ldiff_sub]).
  (* What child_status says of a child is true. *)
  assert (forall a, length (sub L (Nat.ldiff m a)) + h < f ->
    (p a = 0 -> Lost (sub L (Nat.ldiff m a)) h) /\
    (forall w, p a = S w -> Won (sub L (Nat.ldiff m a)) h /\ witnesses (Nat.ldiff m a) w h))
    as Hchild.
  { intros a Hfa. unfold p, child_status. pose proof (Hch a) as Hoka. pose proof (Hrch a) as Hra.
    set (m' := Nat.ldiff m a) in *.
    (* a closed form: the child is lost exactly when the test holds *)
    assert (forall b, (b = true -> Lost (sub L m') h) -> (b = false -> Won (sub L m') h) ->
              (lost_code b = 0 -> Lost (sub L m') h) /\
              (forall w, lost_code b = S w -> Won (sub L m') h /\ witnesses m' w h)) as Code.
    { intros b Hl Hw. unfold lost_code. destruct b; split.
      - intros _. now apply Hl.
      - discriminate.
      - discriminate.
      - intros w E0. injection E0 as <-. split; [now apply Hw|apply witnesses_0]. }
    destruct (Nat.eqb_spec m' 0) as [Z|Z].
    - assert (sub L m' = []) as Hsub by (rewrite Z; apply sub_from_none; intros; apply Nat.bits_0).
      apply Code; rewrite Hsub; intro E0.
      + apply Nat.eqb_eq in E0. subst h. apply lost_nil.
      + apply Nat.eqb_neq in E0. now apply won_nil.
    - destruct (Nat.eqb_spec (Nat.ldiff m' (m' - 1)) m') as [S1|S1].
      + assert (Nat.log2 m' < length L) as Hlt by (apply Hra; now apply Nat.bit_log2).
        apply nth_error_Some in Hlt. destruct (nth_error L (Nat.log2 m')) as [s|] eqn:Hs; [|tauto].
        assert (sub L m' = [s]) as Hsub.
        { apply (sub_from_single L 0 (Nat.log2 m')); [apply single_bit; auto|lia|now rewrite Nat.sub_0_r]. }
        apply Code; rewrite Hsub; intro E0.
        * apply Nat.eqb_eq in E0. subst h. apply lost_single.
        * apply Nat.eqb_neq in E0. now apply won_single.
      + assert (forall E', entries_ok E' m' ->
                (solve_frame f E' m' h = 0 -> Lost (sub L m') h) /\
                (forall w, solve_frame f E' m' h = S w -> Won (sub L m') h /\ witnesses m' w h)) as Rec
          by (intros E' Hok'; exact (IH E' m' h Hok' Hra Hfa)).
        assert (entries_ok (from_live m' E) m') as Hok'.
        { destruct Hoka as [Hg Hc]. split.
          - intros i b Hin. apply Hg. now apply from_live_in with m'.
          - intros i s Hi Hb. apply from_live_keeps; [now apply Hc|exact Hb]. }
        cbv zeta. destruct (from_live m' E) as [|[i a'] rest] eqn:Hfl; [exact (Rec E Hoka)|].
        pose proof (from_live_head m' E (i, a') rest Hfl) as Hbi. simpl in Hbi.
        assert (In (i, a') E) as Hin by (apply from_live_in with m'; rewrite Hfl; now left).
        assert (forall x, Nat.testbit (Nat.ldiff m' (bit i)) x = Nat.testbit m' x && negb (Nat.eqb x i)) as B2'.
        { intro x. rewrite Nat.ldiff_spec, bit_spec, Nat.eqb_sym. reflexivity. }
        destruct (negb (Nat.eqb (Nat.ldiff m' (bit i)) 0) && Nat.eqb (Nat.ldiff (Nat.ldiff m' (bit i))
                  (Nat.ldiff m' (bit i) - 1)) (Nat.ldiff m' (bit i))) eqn:Two.
        2: {
        (* Three live squares: i, then j (the first live one after i in E), then the bit k left. *)
        set (m2 := Nat.ldiff m' (bit i)) in *.
        destruct (maybe_two m2); [|exact (Rec _ Hok')].
        destruct (from_live m2 rest) as [|[j b] rest2] eqn:Hfl2; [exact (Rec _ Hok')|].
        pose proof (from_live_head m2 rest (j, b) rest2 Hfl2) as Hbj. simpl in Hbj.
        assert (In (j, b) E) as Hinj.
        { apply from_live_in with m'. rewrite Hfl. right. apply from_live_in with m2. rewrite Hfl2. now left. }
        set (m3 := Nat.ldiff m2 (bit j)).
        destruct (negb (Nat.eqb m3 0) && Nat.eqb (Nat.ldiff m3 (m3 - 1)) m3) eqn:Three; [|exact (Rec _ Hok')].
        apply andb_true_iff in Three as [Nz3 Sg3]. apply negb_true_iff, Nat.eqb_neq in Nz3. apply Nat.eqb_eq in Sg3.
        pose proof (single_bit m3 Nz3 Sg3) as B3. set (k := Nat.log2 m3) in B3.
        assert (forall x, Nat.testbit m3 x = Nat.testbit m2 x && negb (Nat.eqb x j)) as B3'.
        { intro x. unfold m3. rewrite Nat.ldiff_spec, bit_spec, Nat.eqb_sym. reflexivity. }
        assert (Nat.testbit m' j = true /\ j <> i) as [Hbj' Hji].
        { rewrite B2' in Hbj. apply andb_true_iff in Hbj as [H1 H2]. apply negb_true_iff, Nat.eqb_neq in H2. auto. }
        assert (Nat.testbit m' k = true /\ k <> i /\ k <> j) as [Hbk [Hki Hkj]].
        { assert (Nat.testbit m3 k = true) as H by (rewrite B3; apply Nat.eqb_refl).
          rewrite B3', B2' in H. apply andb_true_iff in H as [H H3]. apply andb_true_iff in H as [H1 H2].
          apply negb_true_iff, Nat.eqb_neq in H2, H3. auto. }
        assert (forall x, Nat.testbit m' x = Nat.eqb x i || Nat.eqb x j || Nat.eqb x k) as Bm.
        { intro x. destruct (Nat.eqb_spec x i) as [->|Hxi]; [now rewrite Hbi|].
          destruct (Nat.eqb_spec x j) as [->|Hxj]; [now rewrite Hbj'|]. simpl.
          rewrite <- B3, B3', B2', (proj2 (Nat.eqb_neq x i) Hxi), (proj2 (Nat.eqb_neq x j) Hxj). simpl.
          now rewrite !andb_true_r. }
        destruct (proj1 Hok i a' Hin) as [si [Hsi ->]]. destruct (proj1 Hok j b Hinj) as [sj [Hsj ->]].
        assert (k < length L) as Hkl by (apply Hra; exact Hbk).
        apply nth_error_Some in Hkl. destruct (nth_error L k) as [sk|] eqn:Hsk; [|tauto].
        pose proof (attack_mask_spec si L 0 j sj Hsj) as Aij. pose proof (attack_mask_spec si L 0 k sk Hsk) as Aik.
        pose proof (attack_mask_spec sj L 0 k sk Hsk) as Ajk. simpl in Aij, Aik, Ajk.
        rewrite Aij, !(ldiff_single m3 k _ B3), Aik, Ajk.
        change (three_value (attacks si sj) (attacks si sk) (attacks sj sk)) with (triple_value si sj sk).
        destruct (sub_triple L m' i j k si sj sk Bm) as [x [y [z [Hs Hv]]]]; auto.
        apply Code; rewrite Hs, <- Hv; intro E0.
        - apply Nat.eqb_eq in E0. subst h. apply lost_triple.
        - apply Nat.eqb_neq in E0. now apply won_triple. }
        set (m2 := Nat.ldiff m' (bit i)) in *.
        apply andb_true_iff in Two as [Nz Sg]. apply negb_true_iff, Nat.eqb_neq in Nz. apply Nat.eqb_eq in Sg.
        pose proof (single_bit m2 Nz Sg) as B2. set (j := Nat.log2 m2) in B2.
        assert (forall x, Nat.testbit m' x = Nat.eqb x i || Nat.eqb x j) as Bm.
        { intro x. rewrite <- B2, B2'. destruct (Nat.eqb_spec x i) as [->|Hx]; [now rewrite Hbi|].
          simpl. now rewrite andb_true_r. }
        assert (i <> j) as Hij.
        { intro E1. pose proof (B2' j) as C. rewrite B2, Nat.eqb_refl, <- E1, Nat.eqb_refl, andb_false_r in C.
          discriminate. }
        assert (j < length L) as Hj by (apply Hra; rewrite Bm, Nat.eqb_refl; apply orb_true_r).
        apply nth_error_Some in Hj. destruct (nth_error L j) as [sj|] eqn:Hsj; [|tauto].
        destruct (proj1 Hok i a' Hin) as [si [Hsi ->]].
        pose proof (attack_mask_spec si L 0 i si Hsi) as Ai. pose proof (attack_mask_spec si L 0 j sj Hsj) as Aj.
        simpl in Ai, Aj.
        assert (Nat.eqb (Nat.ldiff m' (attack_mask_from si L 0)) 0 = attacks si sj) as Adj.
        { destruct (attacks si sj) eqn:A.
          - apply Nat.eqb_eq, Nat.bits_inj. intro x. rewrite Nat.ldiff_spec, Nat.bits_0, Bm.
            destruct (Nat.eqb_spec x i) as [->|Hx].
            + rewrite Ai, attacks_self. reflexivity.
            + destruct (Nat.eqb_spec x j) as [->|Hy]; [|reflexivity].
              rewrite Aj. reflexivity.
          - apply Nat.eqb_neq. intro Z0. pose proof (f_equal (fun y => Nat.testbit y j) Z0) as C. simpl in C.
            rewrite Nat.ldiff_spec, Nat.bits_0, Bm, Nat.eqb_refl, orb_true_r, Aj in C. discriminate. }
        rewrite Adj.
        assert (sub L m' = (if Nat.ltb i j then [si; sj] else [sj; si]) /\
                (if attacks si sj then 1 else 0) =
                (if Nat.ltb i j then (if attacks si sj then 1 else 0) else (if attacks sj si then 1 else 0)))
          as [Hsub Hg].
        { rewrite (attacks_sym sj si). split; [|now destruct (Nat.ltb i j)].
          destruct (Nat.ltb_spec i j) as [Lt|Ge].
          - apply (sub_from_pair L 0 i j si sj m' Bm); [lia|exact Lt|now rewrite Nat.sub_0_r|now rewrite Nat.sub_0_r].
          - apply (sub_from_pair L 0 j i sj si m'); [|lia|lia|now rewrite Nat.sub_0_r|now rewrite Nat.sub_0_r].
            intro x. rewrite Bm. apply orb_comm. }
        apply Code; rewrite Hsub, Hg; intro E0.
        * apply Nat.eqb_eq in E0. subst h. destruct (Nat.ltb i j); apply lost_pair.
        * apply Nat.eqb_neq in E0. destruct (Nat.ltb i j); apply won_pair; exact E0. }
  assert (forall i a, In (i, a) E -> Nat.testbit m i = true -> length (sub L (Nat.ldiff m a)) + h < f) as Hfuel.
  { intros i a Hin Hb. destruct (proj1 Hok i a Hin) as [s [Hs ->]].
    pose proof (sub_length_lt L m i s Hs Hb). lia. }
  destruct (first_live_win p m E) as [|w] eqn:FW.
  - rewrite exists_from_seq.
    destruct (existsb _ (seq 0 h)) eqn:EH; split; try discriminate.
    + intros w E0. injection E0 as <-. split; [|apply witnesses_0].
      apply existsb_exists in EH as [h' [Hh' E0]]. apply in_seq in Hh'. apply Nat.eqb_eq in E0.
      apply won_heap with h'; [lia|]. apply (IH E m h'); [exact Hok|exact Hr|lia|exact E0].
    + intros _. apply lost_intro.
      * intros s Hs. destruct (in_sub_from L 0 m s Hs) as [i [Hi Hb]]. simpl in Hb.
        assert (In (i, attack_mask_from s L 0) E) as Hin by (apply (proj2 Hok); auto).
        unfold after. rewrite sub_after.
        apply (first_live_win_lost p m h E (proj1 Hok)) with m i; auto.
        -- intros i' a' w Hin' Hb' E0. exact (proj2 (Hchild a' (Hfuel i' a' Hin' Hb')) w E0).
        -- intros j sj Hj _ Hb'. congruence.
      * intros h' Hh'. assert (In h' (seq 0 h)) as Hin by (apply in_seq; lia).
        pose proof (existsb_false_forall _ _ EH h' Hin) as E0. apply Nat.eqb_neq in E0.
        destruct (solve_frame f E m h') as [|w] eqn:Sw; [congruence|].
        apply (proj2 (IH E m h' Hok Hr ltac:(lia)) w Sw).
  - split; [discriminate|]. intros w' E0. injection E0 as <-.
    destruct (first_live_win_won p m E m w (fun x Hx => Hx) FW) as [i [a [Hin [Hb [P ->]]]]].
    destruct (proj1 Hok i a Hin) as [s [Hs ->]].
    pose proof (proj1 (Hchild _ (Hfuel i _ Hin Hb)) P) as Hl.
    split.
    + apply won_place with s; [exact (sub_from_in L 0 m i s Hs Hb)|].
      unfold after. rewrite sub_after. exact Hl.
    + intros u Hu. rewrite bit_spec in Hu. apply Nat.eqb_eq in Hu. subst u. exists s. auto.
Qed.

End FrameSound.

Lemma frame_entries_ok L m : entries_ok L (frame_entries L) m.
Proof.
  split.
  - apply frame_entries_good.
  - intros i s Hi _. now apply frame_entries_cover.
Qed.

(* ---- Exact comparison of squares and live sets. ---- *)

Definition square_eqb (a b : square) : bool :=
  Nat.eqb (fst a) (fst b) && Nat.eqb (snd a) (snd b).

Lemma square_eqb_eq a b : square_eqb a b = true -> a = b.
Proof.
  destruct a as [r1 c1], b as [r2 c2]. unfold square_eqb. simpl.
  rewrite andb_true_iff, !Nat.eqb_eq. intros [-> ->]. reflexivity.
Qed.

(* ---- The table and its index. ---- *)

(* A winning reply: a queen on a square, or the heap lowered to h'. *)
Inductive reply : Type :=
  | reply_queen (s : square)
  | reply_heap (h' : nat).

(* A key: a live set as row masks (LiveRows.v) and a heap. *)
Definition key : Type := (list nat * nat)%type.

Fixpoint rows_eqb (a b : list nat) : bool :=
  match a, b with
  | [], [] => true
  | x :: a', y :: b' => Nat.eqb x y && rows_eqb a' b'
  | _, _ => false
  end.

Lemma rows_eqb_eq a : forall b, rows_eqb a b = true -> a = b.
Proof.
  induction a as [|x a IH]; intros [|y b]; simpl; try congruence.
  rewrite andb_true_iff, Nat.eqb_eq. intros [-> Hab]. apply IH in Hab. congruence.
Qed.

Definition key_eqb (a b : key) : bool :=
  rows_eqb (fst a) (fst b) && Nat.eqb (snd a) (snd b).

Lemma key_eqb_eq a b : key_eqb a b = true -> a = b.
Proof.
  destruct a as [Ma ha], b as [Mb hb]. unfold key_eqb. simpl.
  rewrite andb_true_iff, Nat.eqb_eq. intros [E ->].
  apply rows_eqb_eq in E. congruence.
Qed.

(* The index: a trie of 16-way nodes over the hash's digits in base 16,
   lowest first, down to a depth set by the number of keys, and there the
   keys whose hashes have that path (a bucket). A look-up compares the keys
   of its bucket in full (known), so the hash only decides how fast it is;
   and the trie only ever holds keys that were put in (build_index_sound),
   which is all the check needs. Five levels hold a million buckets: a
   look-up reads five nodes where a binary trie (FMapPositive) read twenty. *)
Inductive trie : Type :=
  | bucket_of (l : list key)
  | tnode (t0 t1 t2 t3 t4 t5 t6 t7 t8 t9 t10 t11 t12 t13 t14 t15 : trie).

Definition tempty : trie := bucket_of [].

(* The child of t for the digit h mod 16 (an empty one below a bucket). *)
Definition tchild (h : nat) (t : trie) : trie :=
  match t with
  | bucket_of _ => tempty
  | tnode t0 t1 t2 t3 t4 t5 t6 t7 t8 t9 t10 t11 t12 t13 t14 t15 =>
      if Nat.testbit h 3
        then if Nat.testbit h 2
          then if Nat.testbit h 1
            then if Nat.testbit h 0
              then t15
              else t14
            else if Nat.testbit h 0
              then t13
              else t12
          else if Nat.testbit h 1
            then if Nat.testbit h 0
              then t11
              else t10
            else if Nat.testbit h 0
              then t9
              else t8
        else if Nat.testbit h 2
          then if Nat.testbit h 1
            then if Nat.testbit h 0
              then t7
              else t6
            else if Nat.testbit h 0
              then t5
              else t4
          else if Nat.testbit h 1
            then if Nat.testbit h 0
              then t3
              else t2
            else if Nat.testbit h 0
              then t1
              else t0
  end.

(* The node t with the child of digit h mod 16 replaced by f of it (a
   bucket is first replaced by a node of empty children: its keys are
   dropped, which only makes look-ups fail; it never happens, as every path
   has the same depth). *)
Definition tnode_update (h : nat) (f : trie -> trie) (t0 t1 t2 t3 t4 t5 t6 t7 t8 t9 t10 t11 t12 t13 t14 t15 : trie) : trie :=
  if Nat.testbit h 3
    then if Nat.testbit h 2
      then if Nat.testbit h 1
        then if Nat.testbit h 0
          then tnode t0 t1 t2 t3 t4 t5 t6 t7 t8 t9 t10 t11 t12 t13 t14 (f t15)
          else tnode t0 t1 t2 t3 t4 t5 t6 t7 t8 t9 t10 t11 t12 t13 (f t14) t15
        else if Nat.testbit h 0
          then tnode t0 t1 t2 t3 t4 t5 t6 t7 t8 t9 t10 t11 t12 (f t13) t14 t15
          else tnode t0 t1 t2 t3 t4 t5 t6 t7 t8 t9 t10 t11 (f t12) t13 t14 t15
      else if Nat.testbit h 1
        then if Nat.testbit h 0
          then tnode t0 t1 t2 t3 t4 t5 t6 t7 t8 t9 t10 (f t11) t12 t13 t14 t15
          else tnode t0 t1 t2 t3 t4 t5 t6 t7 t8 t9 (f t10) t11 t12 t13 t14 t15
        else if Nat.testbit h 0
          then tnode t0 t1 t2 t3 t4 t5 t6 t7 t8 (f t9) t10 t11 t12 t13 t14 t15
          else tnode t0 t1 t2 t3 t4 t5 t6 t7 (f t8) t9 t10 t11 t12 t13 t14 t15
    else if Nat.testbit h 2
      then if Nat.testbit h 1
        then if Nat.testbit h 0
          then tnode t0 t1 t2 t3 t4 t5 t6 (f t7) t8 t9 t10 t11 t12 t13 t14 t15
          else tnode t0 t1 t2 t3 t4 t5 (f t6) t7 t8 t9 t10 t11 t12 t13 t14 t15
        else if Nat.testbit h 0
          then tnode t0 t1 t2 t3 t4 (f t5) t6 t7 t8 t9 t10 t11 t12 t13 t14 t15
          else tnode t0 t1 t2 t3 (f t4) t5 t6 t7 t8 t9 t10 t11 t12 t13 t14 t15
      else if Nat.testbit h 1
        then if Nat.testbit h 0
          then tnode t0 t1 t2 (f t3) t4 t5 t6 t7 t8 t9 t10 t11 t12 t13 t14 t15
          else tnode t0 t1 (f t2) t3 t4 t5 t6 t7 t8 t9 t10 t11 t12 t13 t14 t15
        else if Nat.testbit h 0
          then tnode t0 (f t1) t2 t3 t4 t5 t6 t7 t8 t9 t10 t11 t12 t13 t14 t15
          else tnode (f t0) t1 t2 t3 t4 t5 t6 t7 t8 t9 t10 t11 t12 t13 t14 t15.

Definition tupdate (h : nat) (f : trie -> trie) (t : trie) : trie :=
  match t with
  | bucket_of _ => tnode_update h f tempty tempty tempty tempty tempty tempty tempty tempty tempty tempty tempty tempty tempty tempty tempty tempty
  | tnode t0 t1 t2 t3 t4 t5 t6 t7 t8 t9 t10 t11 t12 t13 t14 t15 => tnode_update h f t0 t1 t2 t3 t4 t5 t6 t7 t8 t9 t10 t11 t12 t13 t14 t15
  end.

(* The key k put in t along the d digits of h. *)
Fixpoint tadd (d h : nat) (k : key) (t : trie) : trie :=
  match d with
  | 0 => match t with bucket_of l => bucket_of (k :: l) | tnode _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ => bucket_of [k] end
  | S d' => tupdate h (tadd d' (Nat.shiftr h 4) k) t
  end.

(* The bucket at the end of the d digits of h. *)
Fixpoint tfind (d h : nat) (t : trie) : list key :=
  match d with
  | 0 => match t with bucket_of l => l | tnode _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ => [] end
  | S d' => tfind d' (Nat.shiftr h 4) (tchild h t)
  end.

(* Every key the trie holds. *)
Fixpoint tkeys (t : trie) : list key :=
  match t with
  | bucket_of l => l
  | tnode t0 t1 t2 t3 t4 t5 t6 t7 t8 t9 t10 t11 t12 t13 t14 t15 =>
      tkeys t0 ++ tkeys t1 ++ tkeys t2 ++ tkeys t3 ++ tkeys t4 ++ tkeys t5 ++ tkeys t6 ++ tkeys t7 ++ tkeys t8 ++ tkeys t9 ++ tkeys t10 ++ tkeys t11 ++ tkeys t12 ++ tkeys t13 ++ tkeys t14 ++ tkeys t15
  end.

Lemma tchild_keys h t x : In x (tkeys (tchild h t)) -> In x (tkeys t).
Proof.
  destruct t as [l|t0 t1 t2 t3 t4 t5 t6 t7 t8 t9 t10 t11 t12 t13 t14 t15];
    unfold tchild, tempty; cbn [tkeys]; [intros []|].
  rewrite !in_app_iff. repeat destruct (Nat.testbit h _); tauto.
Qed.

Lemma tfind_keys d : forall h t x, In x (tfind d h t) -> In x (tkeys t).
Proof.
  induction d as [|d IH]; intros h t x; simpl.
  - destruct t; simpl; tauto.
  - intro H. apply tchild_keys with h. exact (IH _ _ _ H).
Qed.

(* The goal a disjunction A \/ (B \/ ...), one of whose members is H's type. *)
Ltac pick_disjunct H := first [exact H | left; exact H | right; pick_disjunct H].

Lemma tupdate_keys h f t (Q : key -> Prop) :
  (forall c x, In x (tkeys (f c)) -> Q x \/ In x (tkeys c)) ->
  forall x, In x (tkeys (tupdate h f t)) -> Q x \/ In x (tkeys t).
Proof.
  intros Hf x. destruct t as [l|t0 t1 t2 t3 t4 t5 t6 t7 t8 t9 t10 t11 t12 t13 t14 t15];
    unfold tupdate, tnode_update, tempty; repeat destruct (Nat.testbit h _); cbn [tkeys]; rewrite ?in_app_iff;
    intro H; repeat destruct H as [H|H]; try (exfalso; exact H);
    first [ destruct (Hf _ _ H) as [Hq|Hq]; cbn [tkeys] in Hq;
            [left; exact Hq | try (exfalso; exact Hq); right; cbn [tkeys]; rewrite ?in_app_iff; pick_disjunct Hq]
          | right; cbn [tkeys]; rewrite ?in_app_iff; pick_disjunct H ].
Qed.

Lemma tadd_keys d : forall h k t x, In x (tkeys (tadd d h k t)) -> x = k \/ In x (tkeys t).
Proof.
  induction d as [|d IH]; intros h k t x; simpl.
  - destruct t; simpl; intros [->|H]; auto; contradiction.
  - apply (tupdate_keys h _ t (fun y => y = k)). intros c y. apply IH.
Qed.

(* The depth: one digit per factor of 16 in the number of keys, and one more
   (so about one bucket per key). *)
Definition index_depth (count : nat) : nat := S (Nat.shiftr (Nat.log2 count) 2).

Definition index : Type := (nat * trie)%type.

Definition bucket (hash : key -> nat) (idx : index) (k : key) : list key :=
  tfind (fst idx) (hash k) (snd idx).

(* The number of keys, counted by a loop: the extracted length recurses
   once per member, and an n = 18 shard's 549,076 keys outgrew the 8 MiB
   stack. Any depth is sound; this one need not even be the count. *)
Definition count_keys (keys : list key) : nat := fold_left (fun c _ => S c) keys 0.

Definition build_index (hash : key -> nat) (keys : list key) : index :=
  let d := index_depth (count_keys keys) in
  (d, fold_left (fun t k => tadd d (hash k) k t) keys tempty).

Definition known (hash : key -> nat) (idx : index) (k : key) : bool :=
  existsb (key_eqb k) (bucket hash idx k).

(* Everything in a bucket was put there. *)
Lemma build_index_sound hash keys :
  forall k k', In k' (bucket hash (build_index hash keys) k) -> In k' keys.
Proof.
  unfold bucket, build_index. cbn [fst snd]. generalize (index_depth (count_keys keys)). intro d.
  assert (forall done t, (forall x, In x (tkeys t) -> In x done) ->
            forall x, In x (tkeys (fold_left (fun t k => tadd d (hash k) k t) keys t)) -> In x (done ++ keys)) as G.
  { induction keys as [|y keys IH]; intros done t Ht x Hx; simpl in *.
    - rewrite app_nil_r. auto.
    - replace (done ++ y :: keys) with ((done ++ [y]) ++ keys) by (rewrite <- app_assoc; reflexivity).
      apply (IH (done ++ [y]) (tadd d (hash y) y t)); [|exact Hx].
      intros z Hz. apply tadd_keys in Hz as [->|Hz]; apply in_or_app; [right; now left|left; auto]. }
  intros k k' Hin. apply tfind_keys in Hin. exact (G [] tempty (fun x H => H) k' Hin).
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
Variable hash : key -> nat.
Variable score : nat -> nat.   (* the solver's move order, and which children are small (any function) *)
Variable idx : index.       (* the table's positions *)
Variable hint : key -> nat. (* which map to look a position up by (any function) *)
Variable maps : list (square -> square).   (* the board's maps (board_maps) *)
(* For the entry of a position (its row masks and heap), and so for the
   frame over the position after its reply, the index of a winning queen to
   try first in the child after the queen of index j (any function:
   hint_entry). *)
Variable win_hint : key -> nat -> nat.

(* A position of the table, or the image of one under one of the board's
   maps: the map that hint names (0: none; the first map is the identity),
   the image computed here (image_rows_fast, which is image_rows) and looked
   up as it is. *)
Definition found (k : key) : bool :=
  known hash idx k ||
  match hint k with
  | 0 => false
  | i => match nth_error maps i with
         | Some f => known hash idx (image_rows_fast n f (fst k), snd k)
         | None => false
         end
  end.

(* A small position (at most K live squares) that the solver wins. *)
Definition small_won (M : list nat) (h : nat) : bool :=
  let L := decode n M in
  Nat.leb (length L) K && solve (length L + h + 1) L h.

(* The opponent's move leads here: a position of the table, or a small
   position the solver wins. *)
Definition ok (k : key) : bool :=
  found k || small_won (fst k) (snd k).

(* A move in a frame over L leads to the position M' (row masks), which is
   the index mask m' over L: a small one is solved on the frame (or in the
   table), a larger one must be in the table. Small: score m' at most K.
   The driver's score counts the bits of a mask, but no proof needs that:
   which way a child goes is a cost choice, and both ways are sound (a
   count in Coq, a loop over the frame's indices, was 5% of the check at
   n = 14). *)
Definition child_ok (E : list (nat * nat)) (len : nat) (M' : list nat) (m' h' : nat) : bool :=
  if Nat.leb (score m') K
  then negb (Nat.eqb (solve_frame (len + h' + 1) (keep_live m' E) m' h') 0) || found (M', h')
  else found (M', h').

(* The move by the queen on s in a frame over M leads to the child m' (an
   index mask): when it is small (as in child_ok), it is solved on the
   frame, with the index of the winning queen found, as the bit of a sibling
   the same queen shows won (0 if none); else, or when the solver finds no
   win, it must be in the table, looked up by its row masks (computed only
   then: most children are solved). *)
Definition child_won (E : list (nat * nat)) (len : nat) (M : list nat) (s : square) (m' h' k : nat) : bool * nat :=
  if Nat.leb (score m') K then
    let E' := keep_live m' E in
    match first_win (len + h') E' m' h' (hint_entry k E' ++ E') with
    | Some u => (true, bit u)
    | None => (exists_from (fun h'' => Nat.eqb (solve_frame (len + h') E' m' h'') 0) 0 h'
               || found (place s M, h'), 0)
    end
  else (found (place s M, h'), 0).

(* The queen moves of a frame, the (j)th square of L onwards: each child is
   ok, or settled (its bit set) by a sibling's winning queen: if the child
   after v is won by the queen on u, the child after u is won by the queen
   on v, which leads to the same position. *)
Fixpoint children_ok (E : list (nat * nat)) (len : nat) (M : list nat) (all h : nat) (wh : nat -> nat)
    (F : list (square * nat)) (j settled : nat) : bool :=
  match F with
  | [] => true
  | x :: F' =>
      if Nat.testbit settled j then children_ok E len M all h wh F' (S j) settled
      else let r := child_won E len M (fst x) (Nat.ldiff all (snd x)) h (wh j) in
           fst r && children_ok E len M all h wh F' (S j) (Nat.lor settled (snd r))
  end.

(* The largest frame: its index masks stay below 2^61. *)
Definition frame_limit : nat := 61.

(* Every move from (M, h), whose live squares are L, is ok: on a frame over
   L when L is small enough (one attack test per pair of L's squares, then
   bit operations), else square by square. *)
Definition frame_moves_ok (L : list square) (M : list nat) (h : nat) (wh : nat -> nat) : bool :=
  let F := frame_fast bd L in
  let E := order_entries score (index_from 0 (map snd F)) in
  let len := length L in
  let all := Nat.ones len in
  children_ok E len M all h wh F 0 0
  && forall_from (fun h' => child_ok E len M all h') 0 h.

Definition all_moves_ok (M : list nat) (h : nat) (wh : nat -> nat) : bool :=
  let L := decode_fast n M in
  if Nat.leb (length L) frame_limit then frame_moves_ok L M h wh
  else forallb (fun s => ok (place s M, h)) L && forall_from (fun h' => ok (M, h')) 0 h.

(* The reply is legal at (M, h), and every move after it leads to an ok
   position (the suggestions for the frame after it are the entry's). *)
Definition entry_ok (M : list nat) (h : nat) (r : reply) : bool :=
  match r with
  | reply_queen s => is_live n M s && all_moves_ok (place s M) h (win_hint (M, h))
  | reply_heap h' => Nat.ltb h' h && all_moves_ok M h' (win_hint (M, h))
  end.

Variable keys : list key.   (* the keys of the table *)

Definition keys_won (m : nat) : Prop :=
  forall M h, length (decode n M) + h < m -> In (M, h) keys -> Won (decode n M) h.

Definition index_sound : Prop :=
  (forall k, known hash idx k = true -> In k keys) /\ (forall f, In f maps -> In f (board_maps bd)).

Lemma place_after s M : decode n (place s M) = after s (decode n M).
Proof. apply decode_place. Qed.

Lemma found_won m M h :
  index_sound -> keys_won m -> found (M, h) = true -> length (decode n M) + h < m -> Won (decode n M) h.
Proof.
  intros [Hidx Hmaps] IH E Hm. unfold found in E. cbn [fst snd] in E. apply orb_true_iff in E as [E|E].
  - apply Hidx in E. now apply IH.
  - destruct (hint (M, h)) as [|i]; [discriminate|].
    destruct (nth_error maps (S i)) as [f|] eqn:Ef; [|discriminate].
    rewrite image_rows_fast_eq in E. apply Hidx in E.
    assert (In f (board_maps bd)) as Hf by (apply Hmaps; eapply nth_error_In; eauto).
    destruct (board_maps_invertible bd f Hf) as [Hbf Hinv].
    apply (won_image f M h Hbf Hinv). apply IH; [|exact E].
    pose proof (image_length f M Hbf Hinv). simpl in *. lia.
Qed.

Lemma ok_won m M h :
  index_sound -> keys_won m -> ok (M, h) = true -> length (decode n M) + h < m -> Won (decode n M) h.
Proof.
  intros Hidx IH E Hm. unfold ok in E. simpl in E. apply orb_true_iff in E as [E|E].
  - now apply (found_won m).
  - unfold small_won in E. apply andb_true_iff in E as [_ E]. now apply solve_won.
Qed.

Lemma child_ok_won m L M' m' h' :
  index_sound -> keys_won m -> sub L m' = decode n M' -> in_range L m' ->
  child_ok (order_entries score (frame_entries L)) (length L) M' m' h' = true -> length (decode n M') + h' < m ->
  Won (decode n M') h'.
Proof.
  intros Hidx IH Hs Hr E Hm. unfold child_ok in E.
  assert (found (M', h') = true -> Won (decode n M') h') as Known
    by (intro Ek; now apply (found_won m)).
  destruct (Nat.leb _ K); [|now apply Known].
  apply orb_true_iff in E as [E|E]; [|now apply Known].
  rewrite <- Hs. pose proof (sub_length_le L m').
  apply negb_true_iff, Nat.eqb_neq in E.
  destruct (solve_frame (length L + h' + 1) (keep_live m' (order_entries score (frame_entries L))) m' h') as [|w] eqn:Sw;
    [congruence|].
  refine (proj1 (proj2 (solve_frame_sound L (length L + h' + 1) (keep_live m' (order_entries score (frame_entries L))) m' h'
                          _ Hr ltac:(lia)) w Sw)).
  rewrite keep_live_filter. apply entries_ok_filter; [|auto].
  apply (entries_ok_same L (frame_entries L)); [apply order_entries_in|apply frame_entries_ok].
Qed.

Lemma nth_error_frame L k x :
  nth_error (frame L) k = Some x -> nth_error L k = Some (fst x) /\ snd x = attack_mask_from (fst x) L 0.
Proof.
  unfold frame. rewrite nth_error_map. destruct (nth_error L k); simpl; [|discriminate].
  intro E. injection E as <-. auto.
Qed.

(* The child after the queen on s, as an index mask over L = decode n M. *)
Lemma decode_child M s :
  decode n (place s M) = sub (decode n M) (Nat.ldiff (Nat.ones (length (decode n M))) (attack_mask_from s (decode n M) 0)).
Proof. rewrite place_after, <- sub_after, sub_ones. reflexivity. Qed.

Lemma child_won_sound m M j sj h k :
  index_sound -> keys_won m -> length (decode n M) + h <= m ->
  nth_error (decode n M) j = Some sj ->
  let L := decode n M in
  let r := child_won (order_entries score (frame_entries L)) (length L) M sj
                     (Nat.ldiff (Nat.ones (length L)) (attack_mask_from sj L 0)) h k in
  fst r = true ->
  Won (decode n (place sj M)) h /\
  (forall u s, Nat.testbit (snd r) u = true -> nth_error L u = Some s -> Won (decode n (place s M)) h).
Proof.
  intros Hidx IH Hm Hj L r E. subst r.
  set (all := Nat.ones (length L)) in *.
  set (mj := Nat.ldiff all (attack_mask_from sj L 0)) in *.
  assert (decode n (place sj M) = sub L mj) as Hchild by apply decode_child.
  assert (In sj L) as HsjL by (eapply nth_error_In; eauto).
  assert (length (decode n (place sj M)) < length L) as Hlt
    by (rewrite place_after; apply after_length_lt; exact HsjL).
  assert (found (place sj M, h) = true -> Won (decode n (place sj M)) h) as Known
    by (intro Ek; apply (found_won m); [auto|auto|exact Ek|unfold L in *; lia]).
  set (E' := keep_live mj (order_entries score (frame_entries L))).
  assert (in_range L mj) as Hrj
    by (apply (in_range_sub L all); [apply in_range_ones|apply ldiff_sub]).
  assert (forall x, (forall i, Nat.testbit x i = true -> Nat.testbit mj i = true) -> entries_ok L E' x) as HE.
  { intros x Hx. unfold E'. rewrite keep_live_filter. apply entries_ok_filter; [|exact Hx].
    apply (entries_ok_same L (frame_entries L)); [apply order_entries_in|apply frame_entries_ok]. }
  unfold child_won in E |- *. fold E' in E |- *. destruct (Nat.leb _ K).
  2: { split; [now apply Known|]. intros u s Hb. simpl in Hb. rewrite ?Nat.bits_0 in Hb. discriminate. }
  destruct (first_win (length L + h) E' mj h (hint_entry k E' ++ E')) as [u|] eqn:FW.
  - apply first_win_some in FW as [a [Hin [Hbu Hsolve]]].
    assert (In (u, a) E') as Hin' by
      (apply in_app_or in Hin as [Hin|Hin]; [exact (hint_entry_in _ _ _ Hin)|exact Hin]).
    clear Hin. rename Hin' into Hin.
    destruct (proj1 (HE mj (fun i H => H)) u a Hin) as [su [Hu ->]].
    assert (length (sub L (Nat.ldiff mj (attack_mask_from su L 0))) + h < length L + h) as Hfuel.
    { pose proof (sub_length_lt L mj u su Hu Hbu). pose proof (sub_length_le L mj). lia. }
    pose proof (proj1 (solve_frame_sound L (length L + h) E' _ h (HE _ (ldiff_sub _ _)) (in_range_sub L mj _ Hrj (ldiff_sub _ _)) Hfuel) Hsolve)
      as Hlost.
    split.
    + rewrite Hchild. apply won_place with su; [exact (sub_from_in L 0 mj u su Hu Hbu)|].
      unfold after. rewrite sub_after. exact Hlost.
    + intros u' s Hb Hs. simpl in Hb. rewrite bit_spec in Hb. apply Nat.eqb_eq in Hb. subst u'.
      rewrite Hs in Hu. injection Hu as <-.
      rewrite decode_child. fold L. fold all.
      apply won_place with sj.
      * apply (sub_from_in L 0 _ j sj Hj). simpl. rewrite Nat.ldiff_spec.
        assert (j < length L) as HjL by (apply nth_error_Some; unfold L; rewrite Hj; discriminate).
        unfold all. rewrite (Nat.ones_spec_low _ _ HjL). simpl.
        pose proof (attack_mask_spec s L 0 j sj Hj) as A1. simpl in A1. rewrite A1, attacks_sym.
        unfold mj in Hbu. rewrite Nat.ldiff_spec in Hbu. apply andb_true_iff in Hbu as [_ Hbu].
        pose proof (attack_mask_spec sj L 0 u s Hs) as A2. simpl in A2. rewrite A2 in Hbu.
        apply negb_true_iff in Hbu. now rewrite Hbu.
      * unfold after. rewrite sub_after, ldiff_swap. exact Hlost.
  - split.
    + apply orb_true_iff in E as [E|E]; [|now apply Known].
      rewrite exists_from_seq in E. apply existsb_exists in E as [h'' [Hh'' E]].
      apply in_seq in Hh''. apply Nat.eqb_eq in E.
      rewrite Hchild. apply won_heap with h''; [lia|].
      pose proof (sub_length_le L mj).
      apply (solve_frame_sound L (length L + h) E' mj h''); [apply HE; auto|exact Hrj|lia|exact E].
    + intros u s Hb. simpl in Hb. rewrite ?Nat.bits_0 in Hb. discriminate.
Qed.

Lemma children_ok_sound m M h wh :
  index_sound -> keys_won m -> length (decode n M) + h <= m ->
  let L := decode n M in
  forall F' j settled,
  (forall k x, nth_error F' k = Some x -> nth_error (frame L) (j + k) = Some x) ->
  (forall u s, Nat.testbit settled u = true -> nth_error L u = Some s -> Won (decode n (place s M)) h) ->
  children_ok (order_entries score (frame_entries L)) (length L) M (Nat.ones (length L)) h wh F' j settled = true ->
  forall k x, nth_error F' k = Some x -> Won (decode n (place (fst x) M)) h.
Proof.
  intros Hidx IH Hm L F'. induction F' as [|x0 F' IHF]; intros j settled HF Hset E k x Hk;
    [destruct k; discriminate|].
  assert (nth_error L j = Some (fst x0) /\ snd x0 = attack_mask_from (fst x0) L 0) as [Hj Ha].
  { apply nth_error_frame. rewrite <- (Nat.add_0_r j). apply (HF 0). reflexivity. }
  assert (forall k x, nth_error F' k = Some x -> nth_error (frame L) (S j + k) = Some x) as HF'.
  { intros k' x' H. rewrite Nat.add_succ_comm. apply (HF (S k')). exact H. }
  simpl in E. destruct (Nat.testbit settled j) eqn:Hs.
  - destruct k as [|k]; simpl in Hk.
    + injection Hk as <-. exact (Hset j _ Hs Hj).
    + exact (IHF (S j) settled HF' Hset E k x Hk).
  - apply andb_true_iff in E as [E1 E2]. rewrite Ha in E1, E2.
    pose proof (child_won_sound m M j (fst x0) h (wh j) Hidx IH Hm Hj E1) as [Hwon Hpair].
    destruct k as [|k]; simpl in Hk.
    + injection Hk as <-. exact Hwon.
    + eapply (IHF (S j) _ HF'); [|exact E2|exact Hk].
      intros u s Hb Hu. rewrite Nat.lor_spec in Hb. apply orb_true_iff in Hb as [Hb|Hb].
      * exact (Hset u s Hb Hu).
      * exact (Hpair u s Hb Hu).
Qed.

Lemma all_moves_ok_lost m M h wh :
  index_sound -> keys_won m -> all_moves_ok M h wh = true -> length (decode n M) + h <= m ->
  Lost (decode n M) h.
Proof.
  intros Hidx IH E Hm. unfold all_moves_ok in E. rewrite decode_fast_eq in E. destruct (Nat.leb _ frame_limit).
  - unfold frame_moves_ok in E. rewrite frame_fast_eq, forall_from_seq in E.
    apply andb_true_iff in E as [E1 E2]. rewrite forallb_forall in E2.
    pose proof (children_ok_sound m M h wh Hidx IH Hm) as C. simpl in C.
    set (L := decode n M) in *.
    assert (sub L (Nat.ones (length L)) = L) as Hall by apply sub_ones.
    apply lost_intro.
    + intros s Hs.
      assert (after s L = decode n (place s M)) as Ha by (symmetry; apply place_after).
      rewrite Ha. destruct (In_nth_error L s Hs) as [j Hj].
      apply (C (frame L) 0 0 (fun k x H => H)) with (k := j) (x := (s, attack_mask_from s L 0));
        [intros u s' Hb; now rewrite Nat.bits_0 in Hb|exact E1|].
      unfold frame. rewrite nth_error_map, Hj. reflexivity.
    + intros h' Hh'. apply (child_ok_won m L M (Nat.ones (length L))); auto; [apply (in_range_ones L)| |unfold L in *; lia].
      apply E2. apply in_seq. lia.
  - rewrite forall_from_seq in E. apply andb_true_iff in E as [E1 E2].
    rewrite forallb_forall in E1, E2. apply lost_intro.
    + intros s Hs. rewrite <- place_after. apply (ok_won m); auto.
      rewrite place_after. pose proof (after_length_lt s _ Hs). lia.
    + intros h' Hh'. apply (ok_won m); [auto|auto| |lia]. apply E2. apply in_seq. lia.
Qed.

Lemma entry_ok_won m M h r :
  index_sound -> keys_won m -> entry_ok M h r = true -> length (decode n M) + h <= m ->
  Won (decode n M) h.
Proof.
  intros Hidx IH E Hm. destruct r as [s|h']; simpl in E; apply andb_true_iff in E as [E1 E2].
  - apply is_live_in in E1.
    apply won_place with s; [exact E1|]. rewrite <- place_after.
    apply (all_moves_ok_lost m _ _ (win_hint (M, h))); auto. rewrite place_after.
    pose proof (after_length_lt s _ E1). lia.
  - apply Nat.ltb_lt in E1. apply won_heap with h'; [exact E1|].
    apply (all_moves_ok_lost m _ _ (win_hint (M, h))); auto. lia.
Qed.

(* The invariant: when every entry is ok, every key is won. *)
Lemma table_sound (entries : list (key * reply)) :
  index_sound ->
  (forall k, In k keys -> exists r, In (k, r) entries) ->
  (forall k r, In (k, r) entries -> entry_ok (fst k) (snd k) r = true) ->
  forall M h, In (M, h) keys -> Won (decode n M) h.
Proof.
  intros Hidx Hkeys Hent.
  assert (forall m, keys_won m) as All.
  { induction m as [|m IH]; intros M h Hm Hin; [lia|].
    destruct (Hkeys _ Hin) as [r Hr].
    apply (entry_ok_won m M h r); auto; [|lia].
    exact (Hent (M, h) r Hr). }
  intros M h Hin. apply (All (S (length (decode n M) + h))); auto.
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

End Rules.

(* The verdict: accepted, the first entry (from 0) that is not ok, or the
   claim itself is not shown (the root is not ok). *)
Inductive verdict : Type :=
  | accepted
  | bad_entry (i : nat)
  | bad_root.

(* The board and the given queens of a claim. *)
Definition claim_board (c : claim) : board :=
  match c with claim_wins n _ _ | claim_loses n _ _ | claim_grundy n _ _ => n end.
Definition claim_queens (c : claim) : list square :=
  match c with claim_wins _ qs _ | claim_loses _ qs _ | claim_grundy _ qs _ => qs end.

(* The input: the hash of the index, the solver's move order, the map to
   look each position up by, the winning queens to try first (any
   functions), the solver's cut-off K, the entries. *)
Definition input : Type := ((key -> nat) * (nat -> nat) * (key -> nat) * (key -> nat -> nat) * nat * list entry)%type.

Definition verify (c : claim) (x : input) : verdict :=
  let '(hash, score, hint, win_hint, K, entries) := x in
  let n := claim_board c in
  let maps := board_maps n in
  let idx := build_index hash (keys_of entries) in
  match first_bad (fun e => entry_ok n K hash score idx hint maps win_hint (fst (fst e)) (snd (fst e)) (snd e))
                  entries 0 with
  | Some i => bad_entry i
  | None =>
      let root_ok := match c with
        | claim_wins n qs h => ok n K hash idx hint maps (live_rows n qs, h)
        | claim_loses n qs h => all_moves_ok n K hash score idx hint maps (live_rows n qs) h (win_hint (live_rows n qs, h))
        | claim_grundy n qs g => all_moves_ok n K hash score idx hint maps (live_rows n qs) g (win_hint (live_rows n qs, g))
        end in
      if root_ok && placed n (claim_queens c) then accepted else bad_root
  end.

Definition check_claim (c : claim) (x : input) : bool :=
  match verify c x with accepted => true | _ => false end.

Lemma live_rows_live (n : board) qs : decode (size n) (live_rows n qs) = live n qs.
Proof. apply decode_live_rows. Qed.

Lemma placed_on_board n qs : placed n qs = true -> forallb (on_board n) qs = true.
Proof.
  induction qs as [|s qs IH]; simpl; [reflexivity|].
  rewrite !andb_true_iff. intros [Hs Hq]. split; [|now apply IH].
  apply free_iff in Hs. tauto.
Qed.

Theorem checker_sound : checker_sound_statement check_claim.
Proof.
  intros c [[[[[hash score] hint] win_hint] K] entries]. unfold check_claim, verify.
  set (n := claim_board c).
  set (maps := board_maps n).
  set (keys := keys_of entries).
  set (idx := build_index hash keys).
  assert (index_sound n hash idx maps keys) as Hidx
    by (split; [intros k E; exact (known_sound hash keys k E)|now intros f Hf]).
  match goal with |- context [first_bad ?f entries 0] => destruct (first_bad f entries 0) eqn:Eb end;
    [congruence|].
  pose proof (first_bad_none _ _ _ Eb) as Hent.
  assert (forall M h, In (M, h) keys -> Won n (decode (size n) M) h) as Hkeys.
  { apply (table_sound n K hash score idx hint maps win_hint keys entries Hidx).
    - apply keys_of_in.
    - intros k r Hin. exact (Hent (k, r) Hin). }
  assert (forall m, keys_won n keys m) as Hall by (intros m M h _; apply Hkeys).
  destruct c as [n0 qs h|n0 qs h|n0 qs g]; simpl in n, maps; subst n maps; simpl;
    destruct (placed n0 qs) eqn:P; rewrite ?andb_true_r, ?andb_false_r; try congruence;
    pose proof (placed_on_board n0 qs P) as Hon.
  - destruct (ok _ _ _ _ _ _ _) eqn:E; [|congruence]. intros _. split; [reflexivity|].
    enough (Won n0 (live n0 qs) h) as W by exact (W qs Hon eq_refl).
    rewrite <- live_rows_live.
    apply (ok_won n0 K hash idx hint (board_maps n0) keys
             (S (length (decode (size n0) (live_rows n0 qs)) + h))); auto.
  - destruct (all_moves_ok _ _ _ _ _ _ _ _ _ _) eqn:E; [|congruence]. intros _. split; [reflexivity|].
    pose proof (all_moves_ok_lost n0 K hash score idx hint (board_maps n0) keys _ _ _ _ Hidx (Hall _) E (le_n _)) as L.
    rewrite live_rows_live in L. exact (L qs Hon eq_refl).
  - destruct (all_moves_ok _ _ _ _ _ _ _ _ _ _) eqn:E; [|congruence]. intros _. split; [reflexivity|].
    apply sprague_grundy_step.
    pose proof (all_moves_ok_lost n0 K hash score idx hint (board_maps n0) keys _ _ _ _ Hidx (Hall _) E (le_n _)) as L.
    rewrite live_rows_live in L. exact (L qs Hon eq_refl).
Qed.
