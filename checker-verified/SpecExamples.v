(* Small facts about Spec.v's definitions, proved by hand, as a check that
   they say what the words say: on the 2 x 2 board every queen attacks
   every square, so the first queen ends the game; the empty board has
   Grundy value 1, the first player wins, and with a heap of 1 the first
   player loses (the Sprague-Grundy step). *)
From Coq Require Import Arith Lia List.
Import ListNotations.
From QueensGame Require Import Spec GameFacts SpragueGrundy OddTheorem.

Lemma board2_attacks_all s t :
  on_board 2 s = true -> on_board 2 t = true -> attacks s t = true.
Proof.
  destruct s as [r1 c1], t as [r2 c2]. rewrite !on_board_iff, attacks_true_iff. lia.
Qed.

(* After one queen on the 2 x 2 board there is no move (heap 0). *)
Lemma board2_one_queen_ends s p' : on_board 2 s = true -> ~ move 2 (Pos [s] 0) p'.
Proof.
  intros Hs Hm. inversion Hm as [qs h t Ht|qs h h' Hh]; subst; [|lia].
  apply free_iff in Ht as [Htb Hfree].
  specialize (Hfree s (or_introl eq_refl)).
  rewrite board2_attacks_all in Hfree; auto. discriminate.
Qed.

Example board2_one_queen_grundy s : on_board 2 s = true -> grundy 2 (Pos [s] 0) 0.
Proof.
  intro Hs. constructor.
  - intros p' Hm. exfalso. exact (board2_one_queen_ends s p' Hs Hm).
  - intros k Hk. lia.
Qed.

Example board2_grundy : grundy 2 (Pos [] 0) 1.
Proof.
  constructor.
  - intros p' Hm. inversion Hm as [qs h s Hs|qs h h' Hh]; subst; [|lia].
    apply free_iff in Hs as [Hsb _].
    exists 0. split; [now apply board2_one_queen_grundy|lia].
  - intros k Hk. replace k with 0 by lia.
    exists (Pos [(0, 0)] 0). split.
    + constructor. apply free_iff. split; [apply on_board_iff; lia|intros q []].
    + apply board2_one_queen_grundy, on_board_iff. lia.
Qed.

Example board2_first_player_wins : wins 2 (Pos [] 0).
Proof.
  apply win with (Pos [(0, 0)] 0).
  - constructor. apply free_iff. split; [apply on_board_iff; lia|intros q []].
  - constructor. intros p' Hm. exfalso.
    apply (board2_one_queen_ends (0, 0) p'); [apply on_board_iff; lia|exact Hm].
Qed.

Example board2_with_heap1_first_player_loses : loses 2 (Pos [] 1).
Proof. apply sprague_grundy_step, board2_grundy. Qed.

Example board2_with_heap0_not_lost : ~ loses 2 (Pos [] 0).
Proof.
  intro Hl. apply sprague_grundy_step in Hl.
  pose proof (grundy_unique 2 _ _ _ Hl board2_grundy). discriminate.
Qed.

Example board3_first_player_wins : wins 3 (Pos [] 0).
Proof. apply odd_board_first_player_wins. exists 1. reflexivity. Qed.
