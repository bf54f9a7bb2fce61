(* The queens game, as a reader must trust it: the board, the moves, who
   wins, the Grundy value, and the statements the other files prove.
   Nothing here is proved. The board's rules (on_board, attacks, free) are
   computable booleans; moves, winning and the Grundy value are inductive
   definitions. *)
From Coq Require Import Arith List.
Import ListNotations.

(* A square is a pair (row, column). *)
Notation square := (nat * nat)%type.

(* The board: the n x n square, or the n x n torus, whose rows, columns
   and diagonals wrap around (the left edge is glued to the right, the top
   to the bottom). A number n alone means the square board. *)
Inductive board : Type :=
  | square_board (n : nat)
  | torus (n : nat).
Coercion square_board : nat >-> board.

Definition size (b : board) : nat :=
  match b with square_board n => n | torus n => n end.

(* Queens on a and b attack each other when they share a row, a column, a
   diagonal (row - column equal) or an anti-diagonal (row + column equal);
   a queen attacks its own square. The diagonal test is written
   r1 + c2 = r2 + c1 so that it needs no subtraction. *)
Definition attacks (a b : square) : bool :=
  let '(r1, c1) := a in
  let '(r2, c2) := b in
  (r1 =? r2) || (c1 =? c2) || (r1 + c2 =? r2 + c1) || (r1 + c1 =? r2 + c2).

(* On the n x n torus the diagonals wrap: the same tests, with row - column
   and row + column counted modulo n. *)
Definition torus_attacks (n : nat) (a b : square) : bool :=
  let '(r1, c1) := a in
  let '(r2, c2) := b in
  (r1 =? r2) || (c1 =? c2) || ((r1 + c2) mod n =? (r2 + c1) mod n)
  || ((r1 + c1) mod n =? (r2 + c2) mod n).

Definition attack_rule (b : board) : square -> square -> bool :=
  match b with square_board _ => attacks | torus n => torus_attacks n end.

Section QueensGame.

(* Rows and columns are numbered 0 .. n-1, n = size b. *)
Variable b : board.

Definition on_board (s : square) : bool :=
  (fst s <? size b) && (snd s <? size b).

(* A position: the queens placed so far, and a Nim heap of h counters. *)
Record position : Type := Pos { queens : list square; heap : nat }.

(* A square is free when it is on the board and no placed queen attacks it. *)
Definition free (qs : list square) (s : square) : bool :=
  on_board s && forallb (fun q => negb (attack_rule b q s)) qs.

(* A move places a queen on a free square, or lowers the heap to any
   smaller number of counters. *)
Inductive move : position -> position -> Prop :=
  | place_queen : forall qs h s,
      free qs s = true -> move (Pos qs h) (Pos (s :: qs) h)
  | lower_heap : forall qs h h',
      h' < h -> move (Pos qs h) (Pos qs h').

(* The player to move wins when some move leads to a position the other
   player loses; the player to move loses when every move (perhaps none)
   leads to a position the other player wins. Both are inductive: a win
   is a finite strategy tree, so these are the rules and nothing else. *)
Inductive wins : position -> Prop :=
  | win : forall p p', move p p' -> loses p' -> wins p
with loses : position -> Prop :=
  | lose : forall p, (forall p', move p p' -> wins p') -> loses p.

(* g is the Grundy value of p (g = mex of the values of p's options):
   no option of p has the value g, and every smaller value k is the
   value of some option. *)
Inductive grundy : position -> nat -> Prop :=
  | grundy_mex : forall p g,
      (forall p', move p p' -> exists g', grundy p' g' /\ g' <> g) ->
      (forall k, k < g -> exists p', move p p' /\ grundy p' k) ->
      grundy p g.

(* The player to move wins by the rule "reply" (a winning strategy): the
   square "reply p" is free in p, and after the player's queen there,
   every move of the opponent leads to a position that the player again
   wins by the same rule. *)
Inductive wins_by (reply : position -> square) : position -> Prop :=
  | win_by : forall qs h,
      free qs (reply (Pos qs h)) = true ->
      (forall p', move (Pos (reply (Pos qs h) :: qs) h) p' -> wins_by reply p') ->
      wins_by reply (Pos qs h).

End QueensGame.

(* The rule for odd n: the centre on the empty board, then the point
   reflection of the queen the opponent placed last. *)
Definition centre_then_reflection (n : nat) (p : position) : square :=
  match queens p with
  | [] => (n / 2, n / 2)
  | (r, c) :: _ => (n - 1 - r, n - 1 - c)
  end.

(* ---- What the other files prove about these definitions. ---- *)

(* Every game ends: there is no infinite sequence of moves. *)
Definition every_game_ends_statement : Prop :=
  forall b : board, well_founded (fun p' p => move b p p').

(* Every position is won or lost for the player to move, not both. *)
Definition determined_statement : Prop :=
  forall (b : board) p, (wins b p \/ loses b p) /\ ~ (wins b p /\ loses b p).

(* A player who wins by a rule wins. *)
Definition wins_by_wins_statement : Prop :=
  forall (b : board) reply p, wins_by b reply p -> wins b p.

(* Every position has exactly one Grundy value. *)
Definition grundy_function_statement : Prop :=
  forall (b : board) p, (exists g, grundy b p g) /\
              (forall g1 g2, grundy b p g1 -> grundy b p g2 -> g1 = g2).

(* The Sprague-Grundy step: the queens qs plus a heap of g counters are
   lost for the player to move exactly when the queens alone (heap 0)
   have the Grundy value g. *)
Definition sprague_grundy_step_statement : Prop :=
  forall (b : board) qs g, loses b (Pos qs g) <-> grundy b (Pos qs 0) g.

(* For every odd n, the first player wins on the empty n x n board by the
   centre and then the reflection of each opponent's queen (every reply is
   a legal move)... *)
Definition odd_board_reflection_wins_statement : Prop :=
  forall n, Nat.Odd n -> wins_by n (centre_then_reflection n) (Pos [] 0).

(* ... so the first player wins there. *)
Definition odd_board_first_player_wins_statement : Prop :=
  forall n, Nat.Odd n -> wins n (Pos [] 0).

(* The eight symmetries of the n x n square: the identity, the quarter turn
   (r, c) -> (c, n-1-r), the half turn, the three-quarter turn, and the
   reflections in the middle row, the middle column and the two diagonals. *)
Definition symmetries (n : nat) : list (square -> square) :=
  [ fun s => s;
    fun '(r, c) => (c, n - 1 - r);
    fun '(r, c) => (n - 1 - r, n - 1 - c);
    fun '(r, c) => (n - 1 - c, r);
    fun '(r, c) => (n - 1 - r, c);
    fun '(r, c) => (r, n - 1 - c);
    fun '(r, c) => (c, r);
    fun '(r, c) => (n - 1 - c, n - 1 - r) ].

(* The symmetry lemma: a position whose queens are on the board and its
   image under a symmetry have the same outcome, with any heap, and the
   same Grundy value. *)
Definition symmetry_lemma_statement : Prop :=
  forall n f qs h, In f (symmetries n) -> forallb (on_board n) qs = true ->
    (wins n (Pos qs h) <-> wins n (Pos (map f qs) h)) /\
    (loses n (Pos qs h) <-> loses n (Pos (map f qs) h)) /\
    (forall g, grundy n (Pos qs 0) g <-> grundy n (Pos (map f qs) 0) g).

(* The translations of the n x n torus: (r, c) -> (r + dr, c + dc), each
   counted modulo n. *)
Definition translation (n dr dc : nat) (s : square) : square :=
  ((fst s + dr) mod n, (snd s + dc) mod n).

(* The torus's translation lemma: a position whose queens are on the torus
   and its image under a translation have the same outcome, with any heap,
   and the same Grundy value. *)
Definition torus_translation_lemma_statement : Prop :=
  forall n dr dc qs h, forallb (on_board (torus n)) qs = true ->
    (wins (torus n) (Pos qs h) <-> wins (torus n) (Pos (map (translation n dr dc) qs) h)) /\
    (loses (torus n) (Pos qs h) <-> loses (torus n) (Pos (map (translation n dr dc) qs) h)) /\
    (forall g, grundy (torus n) (Pos qs 0) g <-> grundy (torus n) (Pos (map (translation n dr dc) qs) 0) g).

(* ---- Parts: the Sprague-Grundy theorem for sums. ---- *)

(* The placing game on a list L of live squares, for any piece: its rule is
   the boolean "blocks s t" (a piece placed on s makes t unavailable); a
   move places on a live square s and keeps the squares s does not block. *)
Definition remove_after (blocks : square -> square -> bool) (s : square) (L : list square) :=
  filter (fun t => negb (blocks s t)) L.

(* g is the Grundy value of the live squares L, as grundy above. *)
Inductive part_value (blocks : square -> square -> bool) : list square -> nat -> Prop :=
  | part_mex : forall L g,
      (forall s, In s L ->
         exists g', part_value blocks (remove_after blocks s L) g' /\ g' <> g) ->
      (forall k, k < g ->
         exists s, In s L /\ part_value blocks (remove_after blocks s L) k) ->
      part_value blocks L g.

(* No move links the lists A and B: no square of one blocks one of the other. *)
Definition unlinked (blocks : square -> square -> bool) (A B : list square) : Prop :=
  forall s t, (In s A /\ In t B) \/ (In s B /\ In t A) -> blocks s t = false.

(* The Sprague-Grundy theorem for sums: for a piece that blocks its own
   square, two unlinked parts of values a and b have together the value
   a XOR b (Nat.lxor: the bits set in exactly one of a and b). *)
Definition parts_sum_statement : Prop :=
  forall blocks A B a b, (forall s, blocks s s = true) -> unlinked blocks A B ->
    part_value blocks A a -> part_value blocks B b ->
    part_value blocks (A ++ B) (Nat.lxor a b).

(* For the queens game, on either board: the Grundy value of the queens qs is the value of
   the placing game on its free squares, in any order. *)
Definition queens_part_value_statement : Prop :=
  forall (b : board) qs L g, (forall s, free b qs s = true <-> In s L) ->
    (grundy b (Pos qs 0) g <-> part_value (attack_rule b) L g).

(* ---- Other pieces and boards: the placing game, stated directly. ---- *)

(* The pieces of Noon's variants. A piece blocks (makes unavailable) the
   squares it attacks and its own square: the queen as above, the rook its
   row and column, the bishop its two diagonals, the king the squares at
   most one step away in each direction, the knight the squares one step
   in one direction and two in the other. *)
Inductive piece : Type := queen | rook | bishop | king | knight.

(* |a - b|: Nat.sub stops at 0, so one of the two terms is 0. *)
Definition dist (a b : nat) : nat := (a - b) + (b - a).

Definition piece_blocks (p : piece) (a b : square) : bool :=
  let '(r1, c1) := a in
  let '(r2, c2) := b in
  match p with
  | queen => attacks a b
  | rook => (r1 =? r2) || (c1 =? c2)
  | bishop => (r1 + c2 =? r2 + c1) || (r1 + c1 =? r2 + c2)
  | king => (dist r1 r2 <=? 1) && (dist c1 c2 <=? 1)
  | knight => ((r1 =? r2) && (c1 =? c2)) || ((dist r1 r2 =? 1) && (dist c1 c2 =? 2))
              || ((dist r1 r2 =? 2) && (dist c1 c2 =? 1))
  end.

(* The squares of the rows x cols board (rows 0 .. rows-1, columns
   0 .. cols-1) that are not holes. *)
Definition board_squares (rows cols : nat) (holes : list square) : list square :=
  filter (fun s => negb (existsb (fun t => andb (fst s =? fst t) (snd s =? snd t)) holes))
         (list_prod (seq 0 rows) (seq 0 cols)).

(* A claim about the empty rows x cols board with holes and a piece: the
   game where the players in turn place the piece on a square that no
   piece placed before blocks has the Grundy value g (part_value above,
   the placing game on all the board's squares). *)
Record piece_claim : Type :=
  PieceClaim { claimed_piece : piece; claimed_rows : nat; claimed_cols : nat;
               claimed_holes : list square; claimed_value : nat }.

Definition piece_claim_holds (c : piece_claim) : Prop :=
  part_value (piece_blocks (claimed_piece c))
    (board_squares (claimed_rows c) (claimed_cols c) (claimed_holes c)) (claimed_value c).

(* A checker of such claims is sound when every claim it accepts holds. *)
Definition piece_checker_sound_statement {Input : Type} (check : piece_claim -> Input -> bool) : Prop :=
  forall c input, check c input = true -> piece_claim_holds c.

(* For the queen on the square board this is the game above: the Grundy
   value of the empty n x n board (queens_part_value, proved in Sums.v). *)
Definition piece_claim_queens_statement : Prop :=
  forall n g, piece_claim_holds (PieceClaim queen n n [] g) <-> grundy n (Pos [] 0) g.

(* ---- The claims that the certificate checker (Checker.v) verifies. ---- *)

(* A claim about the board b with the queens qs placed by moves of the
   game (placed, below): the player to move wins when a Nim heap of h counters is added, or loses, or the
   queens alone (no heap) have the Grundy value g. *)
Inductive claim : Type :=
  | claim_wins (b : board) (qs : list square) (h : nat)
  | claim_loses (b : board) (qs : list square) (h : nat)
  | claim_grundy (b : board) (qs : list square) (g : nat).

(* The given queens could have been placed by moves of the game: each one,
   from the last of the list to the first (the list holds the latest first,
   as a move adds to its front), on a square free of the ones before it. So
   no two attack each other and no square is named twice. *)
Fixpoint placed (b : board) (qs : list square) : bool :=
  match qs with
  | [] => true
  | s :: before => free b before s && placed b before
  end.

Definition claim_holds (c : claim) : Prop :=
  match c with
  | claim_wins b qs h => placed b qs = true /\ wins b (Pos qs h)
  | claim_loses b qs h => placed b qs = true /\ loses b (Pos qs h)
  | claim_grundy b qs g => placed b qs = true /\ grundy b (Pos qs 0) g
  end.

(* A checker is sound when every claim it accepts holds, whatever the
   rest of its input (the certificate) says. *)
Definition checker_sound_statement {Input : Type} (check : claim -> Input -> bool) : Prop :=
  forall c input, check c input = true -> claim_holds c.

(* A manifest's step is sound when every claim it accepts holds once the
   claims of its shards (each shard: a claim and its certificate) hold. *)
Definition manifest_step_sound_statement {Input : Type} (step : claim -> list (claim * Input) -> bool) : Prop :=
  forall c shards, (forall sh, In sh shards -> claim_holds (fst sh)) -> step c shards = true -> claim_holds c.
