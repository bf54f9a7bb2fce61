(* checker-verified: the reading driver of the verified checker (TRUSTED,
   docs/verified-checker.md).  It reads a table (from export-table, run on a
   .qcert, or a table file), hands the claim and the entries to the extracted
   check (Checker_extracted.verify, proved sound as Checker.checker_sound),
   and prints the claim it handed over, in words, when the check accepts.

   Trusted here: that the claim passed to verify is the one printed
   (read_claim and statement), and that no number passed is negative or
   large (read_int).  Not trusted: how the entries' live sets (row masks) are
   computed, the hash of the index, the solver's move order and which
   children it solves (popcount), the winning queens it is told to try
   first (lines "w");
   the proof holds for any entries, any hash and any order. *)
open Checker_extracted

exception Unreadable of string  (* exit 2: nothing decided *)

(* ---- Reading the table: whitespace-separated words and numbers. ---- *)

(* Bytes are read a block at a time and looked at one by one with no
   allocation (an n = 16 shard's table has some 3 x 10^7; reading it a
   character at a time through an option took 5 s of the check's 55). *)
type reader = { ic : in_channel; buf : Bytes.t; mutable pos : int; mutable len : int }

let reader_of ic = { ic; buf = Bytes.create 65536; pos = 0; len = 0 }

(* Called after each block is read (main: the memory limit's check, which
   the major collector's alarm cannot make while a table is read: below). *)
let on_block = ref ignore

(* The next byte, or -1 at the end of the input. *)
let next_byte r =
  if r.pos < r.len then begin
    let c = Bytes.get r.buf r.pos in
    r.pos <- r.pos + 1; Char.code c
  end else begin
    r.len <- input r.ic r.buf 0 (Bytes.length r.buf);
    !on_block ();
    if r.len = 0 then -1 else (r.pos <- 1; Char.code (Bytes.get r.buf 0))
  end

let is_space c = c = 32 || c = 10 || c = 9 || c = 13

(* Skips white space and leaves the next byte unread (it was the last one
   read from the block, so stepping back one is always within it). *)
let rec skip_space r =
  let c = next_byte r in
  if is_space c then skip_space r else if c >= 0 then r.pos <- r.pos - 1

(* The next byte, left unread (-1 at the end). *)
let peek r =
  let c = next_byte r in
  if c >= 0 then r.pos <- r.pos - 1;
  c

(* A word as a message may show it: bytes outside printable ASCII as '?'. *)
let printable w = String.map (fun c -> if c >= ' ' && c <= '~' then c else '?') w

(* The rest of a word whose first bytes are in b: no word of a table is
   longer than max characters (64 unless a path), so a longer one (a file of
   zero bytes, say) is refused as soon as it is, not read to its end. The
   white space after it is read too. *)
let rec word_rest r b max =
  let c = next_byte r in
  if c >= 0 && not (is_space c) then begin
    if Buffer.length b >= max then
      raise (Unreadable (Printf.sprintf "a word longer than %d characters, starting '%s'" max
                           (printable (String.sub (Buffer.contents b) 0 16))));
    Buffer.add_char b (Char.chr c); word_rest r b max
  end

let read_word_max r max =
  skip_space r;
  let b = Buffer.create 8 in
  word_rest r b max;
  Buffer.contents b

let read_word r = read_word_max r 64

(* A whole number from 0 to 2^30: every number the check computes from these
   stays far below max_int (Extraction.v). Read digit by digit; anything
   else (no digit, a letter, more than 10 digits, over 2^30) is read on to
   the end of its word, which the message shows. *)
let read_int r =
  let limit = 1 lsl 30 in
  skip_space r;
  let rec digits value count =
    let c = next_byte r in
    if c >= Char.code '0' && c <= Char.code '9' && count < 10 then
      digits (value * 10 + (c - Char.code '0')) (count + 1)
    else if count > 0 && (c < 0 || is_space c) && value <= limit then value
    else begin
      let b = Buffer.create 16 in
      if count > 0 then Buffer.add_string b (Printf.sprintf "%0*d" count value);
      if c >= 0 && not (is_space c) then (Buffer.add_char b (Char.chr c); word_rest r b 64);
      raise (Unreadable (Printf.sprintf "expected a whole number from 0 to %d, read '%s'" limit
                           (printable (Buffer.contents b))))
    end in
  digits 0 0

let expect r word =
  let w = read_word r in
  if w <> word then raise (Unreadable (Printf.sprintf "expected '%s', read '%s'" word (printable w)))

let read_squares r =
  let k = read_int r in
  List.init k (fun _ -> let row = read_int r in let col = read_int r in (row, col))

(* Lines until "end": read_line reads the rest of a line after its first
   word, giving an entry, a line read for its side effect (Other), or Unknown
   for a word it does not take (named in the error with [expected]). *)
type 'a line = Entry of 'a | Other | Unknown

let read_until_end r expected read_line =
  let rec go acc =
    match read_word r with
    | "end" -> List.rev acc
    | w ->
        (match read_line w with
         | Entry x -> go (x :: acc)
         | Other -> go acc
         | Unknown -> raise (Unreadable (Printf.sprintf "expected %s or 'end', read '%s'" expected (printable w)))) in
  go []

let max_cutoff = 30

(* A hash of a key (row masks and heap), mixed down to the low bits: the
   index's (make_hash, below) and the hash table's of the lines m.
   Untrusted: any number will do. Plain loops, and functions of the pair
   rather than of a pair pattern, which OCaml would call through
   caml_tuplify2 from Hashtbl (together 17% of reading an n = 16 shard's
   table). *)
let hash_key (k : int list * int) =
  let rec mix x = function
    | [] -> x
    | row :: rows -> mix (((x lxor (row + 1)) * 0x2545F4914F6CDD1D) lxor (x lsr 29)) rows in
  let x = mix (snd k + 1) (fst k) in
  (x lxor (x lsr 32)) land max_int

let rec same_rows a b = match a, b with
  | [], [] -> true
  | x :: a', y :: b' -> x = y && same_rows a' b'
  | _ -> false

(* The map to look a position up by (Checker.v's hint: an index into
   board_maps, 0 for none), keyed by the position's row masks and heap. *)
module KeyTable = Hashtbl.Make (struct
  type t = int list * int
  let equal a b = snd a = snd b && same_rows (fst a) (fst b)
  let hash = hash_key
end)

type table = { claim : claim; board : board; n : int; kind : string; value : int;
               queens : (int * int) list; cutoff : int; entries : entry list; maps : int KeyTable.t;
               wins : (key0 * string) array }

(* "claim KIND V" and "queens K r1 c1 ..." of the board (n x n). *)
let read_claim r board n =
  expect r "claim";
  let kind = read_word r in
  let value = read_int r in
  expect r "queens";
  let queens = read_squares r in
  if List.exists (fun (row, col) -> row >= n || col >= n) queens then
    raise (Unreadable "a claimed queen is off the board");
  let claim = match kind with
    | "win" -> Claim_wins (board, queens, value)
    | "loss" -> Claim_loses (board, queens, value)
    | "grundy" -> Claim_grundy (board, queens, value)
    | _ -> raise (Unreadable ("the claim must be win, loss or grundy, not '" ^ printable kind ^ "'")) in
  (claim, kind, value, queens)

(* "board N" (the N x N square) or "board torus N". *)
let read_board r =
  expect r "board";
  skip_space r;
  let torus = peek r = Char.code 't' in
  if torus then expect r "torus";
  let n = read_int r in
  if n < 1 || n > 26 then raise (Unreadable "the board size must be from 1 to 26");
  ((if torus then Torus n else Square_board n), n)

(* The row masks after a queen on q (untrusted, as said above): on the
   square board each other row loses the queen's column and its two
   diagonal squares, as LiveRows.v's row_attacks computes them (c0 + r and
   c0 + r0 stay below 2 * 26, so no shift leaves the int), in plain int
   operations; the extracted place (one closure and three checked shifts a
   row) was 30% of reading a table at n = 14. The torus keeps the extracted
   place. *)
let place_rows board q rows = match board with
  | Torus _ -> place board q rows
  | Square_board _ ->
      let (r0, c0) = q in
      let rec go r = function
        | [] -> []
        | m :: rest ->
            (if r = r0 then 0
             else m land lnot ((1 lsl c0) lor ((1 lsl (c0 + r)) lsr r0) lor ((1 lsl (c0 + r0)) lsr r)))
            :: go (r + 1) rest in
      go 0 rows

let read_table_from r =
  let board, n = read_board r in
  let claim, kind, value, queens = read_claim r board n in
  expect r "cutoff";
  let cutoff = read_int r in
  (* The solver's work grows exponentially with the cut-off: export-table's
     cap, so that a tiny table cannot ask for an unbounded search. *)
  if cutoff > max_cutoff then raise (Unreadable (Printf.sprintf "the cut-off must be at most %d" max_cutoff));
  (* Entries: "e HEAP q ROW COL QUEENS..." or "e HEAP h HEAP' QUEENS...";
     the live set of the queens is computed here, as row masks (untrusted:
     any masks are checked as they are). Lines "m I HEAP QUEENS..." name
     the map I by which the check looks that position up (untrusted: a
     wrong one only makes a look-up fail). *)
  let empty = full n in
  (* The previous line's queens, each with the masks after it: export-table
     writes the positions of a walk of the game, so a line shares most of
     its queens with the one before, and those are not placed again. *)
  let previous = ref [] in
  let live_of () =
    let qs = read_squares r in
    if List.exists (fun (row, col) -> row >= n || col >= n) qs then
      raise (Unreadable "an entry's queen is off the board");
    let rec go before qs m acc = match before, qs with
      | ((r', c'), m') :: before', ((row, col) as q) :: qs' when r' = row && c' = col -> go before' qs' m' ((q, m') :: acc)
      | _, q :: qs' -> let m' = place_rows board q m in go [] qs' m' ((q, m') :: acc)
      | _, [] -> previous := List.rev acc; m in
    go !previous qs empty [] in
  (* add, not replace: a key's latest line is the one found, and no bucket
     is searched for an earlier one (lines repeat no key in export-table's
     tables; in another table a repeat costs only its memory). *)
  let maps = KeyTable.create 1024 in
  (* "w WORD" after an entry: for the frame over the position after its
     reply, the winning queen to try first in each child, by index, one
     character per child (untrusted: Checker.v's hint_entry), kept with the
     entry's own key, in the table's order (win_hint_of). *)
  let wins = ref [] in
  let last_key = ref None in
  let entries = read_until_end r "an entry 'e', a line 'm' or 'w'" (function
      | "e" ->
          let h = read_int r in
          let reply = match read_word r with
            | "q" -> let row = read_int r in let col = read_int r in Reply_queen (row, col)
            | "h" -> Reply_heap (read_int r)
            | w -> raise (Unreadable ("a reply is q or h, not '" ^ printable w ^ "'")) in
          let key = (live_of (), h) in
          last_key := Some key;
          Entry (key, reply)
      | "w" ->
          (match !last_key with
           | Some key ->
               (* a second line for the same entry replaces the first *)
               let w = read_word r in
               (match !wins with
                | (k, _) :: rest when k == key -> wins := (key, w) :: rest
                | _ -> wins := (key, w) :: !wins);
               Other
           | None -> raise (Unreadable "a line 'w' before any entry"))
      | "m" ->
          let i = read_int r in
          let h = read_int r in
          KeyTable.add maps (live_of (), h) i;
          Other
      | _ -> Unknown) in
  { claim; board; n; kind; value; queens; cutoff; entries; maps; wins = Array.of_list (List.rev !wins) }


(* export-table --list: a manifest's claim, then each shard's path and the
   claim its header states (untrusted: check_manifest decides what they
   prove, and each shard's own table must state the same claim). *)
let read_listing ic =
  let r = reader_of ic in
  expect r "qcert-manifest"; expect r "1";
  let board, n = read_board r in
  let claim, kind, value, queens = read_claim r board n in
  expect r "shards";
  let count = read_int r in
  let shards = List.init count (fun _ ->
      expect r "shard";
      let path = read_word_max r 4096 in
      let shard_claim, _, _, _ = read_claim r board n in
      (path, shard_claim)) in
  expect r "end";
  ({ claim; board; n; kind; value; queens; cutoff = 0; entries = []; maps = KeyTable.create 1;
     wins = [||] }, shards)

(* ---- Tables of parts (Parts.v): export-table's "qcert-parts 1". ---- *)

type parts_table = { pclaim : piece_claim; pentries : ((int * int) list * int) list }

let piece_names = [ "queen", Queen; "rook", Rook; "bishop", Bishop; "king", King; "knight", Knight ]

(* "board ROWS COLS piece P holes K r c ...", "claim grundy G", then each
   entry "p K r1 c1 ... V" and "end" (untrusted: check_parts decides). *)
let read_parts_from r =
  expect r "board";
  let rows = read_int r in
  let cols = read_int r in
  if rows < 1 || cols < 1 || rows > 64 || cols > 64 then raise (Unreadable "rows and columns must be from 1 to 64");
  expect r "piece";
  let w = read_word r in
  let piece = (try List.assoc w piece_names
               with Not_found -> raise (Unreadable ("unknown piece '" ^ printable w ^ "'"))) in
  let on_board (row, col) = row < rows && col < cols in
  expect r "holes";
  let holes = read_squares r in
  if not (List.for_all on_board holes) then raise (Unreadable "a hole is off the board");
  expect r "claim"; expect r "grundy";
  let value = read_int r in
  let pentries = read_until_end r "an entry 'p'" (function
      | "p" ->
          let squares = read_squares r in
          if squares = [] || not (List.for_all on_board squares) then
            raise (Unreadable "an entry of the table is empty or off the board");
          let v = read_int r in
          Entry (squares, v)
      | _ -> Unknown) in
  { pclaim = { claimed_piece = piece; claimed_rows = rows; claimed_cols = cols; claimed_holes = holes;
               claimed_value = value }; pentries }

(* The C++ checker's words for such a claim (checker/check.cpp, claimInWords). *)
let parts_statement c =
  let plural = List.assoc c.claimed_piece [ Queen, "queens"; Rook, "rooks"; Bishop, "bishops"; King, "kings"; Knight, "knights" ] in
  let shape = if c.claimed_rows = c.claimed_cols then ""
    else Printf.sprintf " (%d rows, %d columns)" c.claimed_rows c.claimed_cols in
  let name (row, col) = Printf.sprintf "%c%d" (Char.chr (Char.code 'a' + col)) (row + 1) in
  let holes = match c.claimed_holes with
    | [] -> "" | [h] -> " with a hole at " ^ name h
    | hs -> " with holes at " ^ String.concat "," (List.map name hs) in
  let board = Printf.sprintf "the empty %dx%d board%s%s" c.claimed_rows c.claimed_cols shape holes in
  if c.claimed_piece = Queen && c.claimed_rows = c.claimed_cols && c.claimed_holes = [] then
    Printf.sprintf "the Grundy value of %s is %d (queens game)" board c.claimed_value
  else
    Printf.sprintf "the Grundy value of %s%s%s is %d" board
      (if c.claimed_holes = [] then " with " else ", playing ") plural c.claimed_value

let parts_claim_json c =
  let piece = fst (List.find (fun (_, p) -> p = c.claimed_piece) piece_names) in
  Printf.sprintf "{\"family\":\"game\",\"ruleset\":\"queens\",\"boardSize\":%d,\"queens\":[],\"heap\":%d,\"outcome\":\"loss\",\"kind\":\"grundy\",\"piece\":\"%s\",\"torus\":false,\"columns\":%d,\"holes\":[%s]}"
    c.claimed_rows c.claimed_value piece (if c.claimed_rows = c.claimed_cols then 0 else c.claimed_cols)
    (String.concat "," (List.map (fun (r, col) -> string_of_int (r * c.claimed_cols + col)) c.claimed_holes))

type any_table = Game of table | Parts of parts_table

(* Nearly all that reading a table allocates stays live, so the major
   collector's marking would only walk the growing heap again and again (a
   third of the time of reading an n = 16 shard's table): it is slowed down
   while the table is read (space_overhead 1000: 4 major collections instead
   of 14 on that table; with marking put off entirely, the heap, never
   swept, grew to 2.5 times what was used, and a shard's process of the n = 16
   manifest went past its memory limit), and the memory limit is also checked
   after each block read (on_block). *)
let read_table ic =
  let r = reader_of ic in
  let collector = Gc.get () in
  Gc.set { collector with Gc.space_overhead = 1000 };
  Fun.protect ~finally:(fun () -> Gc.set collector) (fun () ->
      match read_word r with
      | "qcert-table" -> expect r "1"; Game (read_table_from r)
      | "qcert-parts" -> expect r "1"; Parts (read_parts_from r)
      | w -> raise (Unreadable (Printf.sprintf "expected 'qcert-table' or 'qcert-parts', read '%s'" (printable w))))

(* ---- The claim in words, as the C++ checker prints it. ---- *)

let square_name (row, col) =
  Printf.sprintf "%c%d (%d,%d)" (Char.chr (Char.code 'a' + col)) (row + 1) row col

let statement t =
  (* The C++ checker's words: the square board keeps "(queens game)" last;
     the torus names its squares without coordinates and says "with
     queens" after the board. *)
  let torus = (match t.board with Torus _ -> true | Square_board _ -> false) in
  let name = if torus then (fun (row, col) -> Printf.sprintf "%c%d" (Char.chr (Char.code 'a' + col)) (row + 1))
    else square_name in
  let what = if torus then "torus" else "board" in
  let board =
    if t.queens = [] then Printf.sprintf "the empty %dx%d %s" t.n t.n what
    else Printf.sprintf "the %dx%d %s after queens %s" t.n t.n what
        (String.concat ", " (List.map name t.queens)) in
  let mid, tail = if torus then " with queens", "" else "", " (queens game)" in
  let heap = if t.value > 0 then Printf.sprintf " with a Nim heap of %d added" t.value else "" in
  match t.claim with
  | Claim_grundy _ -> Printf.sprintf "the Grundy value of %s%s is %d%s" board mid t.value tail
  | Claim_wins _ when t.queens = [] -> "first player wins on " ^ board ^ mid ^ heap ^ tail
  | Claim_loses _ when t.queens = [] -> "second player wins on " ^ board ^ mid ^ heap ^ tail
  | Claim_wins _ -> "the player to move wins on " ^ board ^ mid ^ heap ^ tail
  | Claim_loses _ -> "the player to move loses on " ^ board ^ mid ^ heap ^ tail

(* ---- The index's hash (untrusted: the proof holds for any function). ---- *)

let rec positive_of_int x =
  if x <= 1 then XH else if x land 1 = 0 then XO (positive_of_int (x lsr 1)) else XI (positive_of_int (x lsr 1))

(* The parts index's buckets: about one per entry, from 2^4 to 2^26; a hash
   below the mask, with the bit above it set (a positive of fixed length). *)
let bucket_mask count =
  let bits = ref 4 in
  while 1 lsl !bits < count && !bits < 26 do incr bits done;
  (1 lsl !bits) - 1

(* The table's index (Checker.v) is a trie over the hash's digits in base
   16, lowest first, as deep as the number of entries asks: any number
   will do. *)
let make_hash (k : key0) = hash_key k

(* Checker.v's score (untrusted: any function is sound): the number of bits
   of a mask. It orders the solver's moves (those that take the most squares
   first, leaving the opponent least) and says which children are small
   enough to solve (at most the cut-off's live squares). Counted in parallel
   in the bits' pairs, nibbles and bytes; masks are below 2^62, so every
   constant is an OCaml int, and the bytes' sum (at most 62) is in bits 56
   to 61 of the product, which the product's wrapping at 2^63 leaves. *)
let popcount x =
  let x = x - ((x lsr 1) land 0x1555555555555555) in
  let x = (x land 0x3333333333333333) + ((x lsr 2) land 0x3333333333333333) in
  let x = (x + (x lsr 4)) land 0x0F0F0F0F0F0F0F0F in
  (x * 0x0101010101010101) lsr 56

(* ---- Verdicts. ---- *)

let explain t i =
  let ((live, h), reply) = List.nth t.entries i in
  let legal = match reply with
    | Reply_queen s -> is_live t.n live s
    | Reply_heap h' -> h' < h in
  Printf.sprintf "table entry %d (%d live squares, heap %d): %s" (i + 1) (List.length (decode t.n live)) h
    (if not legal then "its reply is not a legal move"
     else Printf.sprintf "an answer to its reply leads to a position that is neither in the table nor won by the verified solver (at most %d live squares)" t.cutoff)

(* ---- Verdicts, and how they are printed. ---- *)

type verdict = Verified | Rejected | Not_checked

type outcome = { verdict : verdict; line : string; table : table option }

(* What --json needs besides the verdict: set once the options are read. *)
let json = ref false
(* A table of parts has no game table: its claim and statement for --json. *)
let claim_override = ref "null"
let statement_override = ref "null"
let started = Unix.gettimeofday ()
let jobs = ref 1               (* --jobs: a manifest's shards checked at a time *)
let time_limit = ref 0         (* --time-limit in seconds; 0: none *)
let memory_limit = ref 0       (* --max-memory in MiB, this process's (a shard's process: a J-th) *)
let children_peak_mib = ref 0  (* the largest peak memory a shard's process reported *)
let certificate = ref ""      (* the file named on the command line *)

let json_string str =
  let b = Buffer.create (String.length str + 2) in
  Buffer.add_char b '"';
  String.iter (fun c -> match c with
      | '"' -> Buffer.add_string b "\\\""
      | '\\' -> Buffer.add_string b "\\\\"
      | c when c < ' ' || c > '~' -> Buffer.add_string b (Printf.sprintf "\\u%04x" (Char.code c))
      | c -> Buffer.add_char b c) str;
  Buffer.add_char b '"';
  Buffer.contents b

(* The certificate's size and SHA-256, so that a verdict names the exact file
   (not part of what the check proves). *)
let file_facts path =
  try
    let st = Unix.stat path in
    if st.Unix.st_kind <> Unix.S_REG then None
    else Some (st.Unix.st_size, Sha256.to_hex (Sha256.file path))
  with _ -> None

(* The claim as the C++ checker's --json writes it (squares as row * n + column). *)
let claim_json t =
  let outcome, kind = match t.claim with
    | Claim_wins _ -> "win", "outcome" | Claim_loses _ -> "loss", "outcome" | Claim_grundy _ -> "loss", "grundy" in
  Printf.sprintf "{\"family\":\"game\",\"ruleset\":\"queens\",\"boardSize\":%d,\"queens\":[%s],\"heap\":%d,\"outcome\":%s,\"kind\":%s,\"piece\":\"queen\",\"torus\":%b,\"columns\":0}"
    t.n (String.concat "," (List.map (fun (r, c) -> string_of_int (r * t.n + c)) t.queens)) t.value
    (json_string outcome) (json_string kind) (match t.board with Torus _ -> true | Square_board _ -> false)

(* The process's peak resident memory (Linux: VmHWM), else the OCaml heap's. *)
let peak_mib () =
  let from_proc = try
      let ic = open_in "/proc/self/status" in
      let rec find () = match input_line ic with
        | line -> (try Scanf.sscanf line "VmHWM: %d kB" (fun k -> Some (k / 1024)) with _ -> find ())
        | exception End_of_file -> None in
      let m = find () in close_in ic; m
    with _ -> None in
  match from_proc with
  | Some m -> m
  | None -> (Gc.quick_stat ()).Gc.top_heap_words / 1048576 * (Sys.word_size / 8)

(* Prints the verdict (a line, or with --json one object) and exits with its
   status: 0 VERIFIED, 1 REJECTED, 2 nothing decided. *)
let finish o =
  let status = match o.verdict with Verified -> 0 | Rejected -> 1 | Not_checked -> 2 in
  if !json then begin
    (* The keys and their order are the C++ checker's (docs/programs.md). *)
    let word = match o.verdict with Verified -> "VERIFIED" | Rejected -> "REJECTED" | Not_checked -> "NOT CHECKED" in
    let reason = match String.index_opt o.line ':' with
      | Some i -> String.trim (String.sub o.line (i + 1) (String.length o.line - i - 1))
      | None -> o.line in
    let facts = match file_facts !certificate with
      | Some (bytes, sha) -> Printf.sprintf "{\"bytes\":%d,\"sha256\":%s}" bytes (json_string sha)
      | None -> "null" in
    let fields = [
      "verdict", json_string word;
      "exit_status", string_of_int status;
      "file", (if !certificate = "" then "null" else json_string !certificate);
      "statement", (match o.verdict, o.table with Verified, Some t -> json_string (statement t)
                                                   | Verified, None -> !statement_override | _ -> "null");
      "expected", "null";
      "reason", (if o.verdict = Verified then "null" else json_string reason);
      "claim", (match o.table with Some t -> claim_json t | None -> !claim_override);
      "certificate", facts;
      "checker", Printf.sprintf "{\"version\":%s,\"commit\":%s,\"build\":\"checker-verified: Coq-proved, extracted to OCaml\"}"
        (json_string Version.version) (json_string Version.commit);
      "wall_seconds", Printf.sprintf "%.3f" (Unix.gettimeofday () -. started);
      "peak_rss_mib", string_of_int (max (peak_mib ()) !children_peak_mib) ] in
    print_endline ("{" ^ String.concat "," (List.map (fun (k, v) -> json_string k ^ ":" ^ v) fields) ^ "}")
  end
  else if o.line <> "" then print_endline o.line;
  exit status

let not_checked why = finish { verdict = Not_checked; line = "NOT CHECKED: " ^ why; table = None }

(* A usage error or an unreadable file: one line on stderr, exit 2 (and with
   --json, the object on stdout as well). *)
let fail msg =
  prerr_endline ("checker-verified: " ^ msg);
  if !json then finish { verdict = Not_checked; line = msg; table = None } else exit 2

(* Checker.v's hint: the map named by an "m" line, else none (0). *)
let hint_of t = fun k -> match KeyTable.find_opt t.maps k with Some i -> i | None -> 0

(* Checker.v's win_hint: the index that character j of the line "w" after
   the entry of k names ('0'-'9', 'A'-'Z', 'a'-'z': 0 to 61; anything else,
   or no line, 61: no frame has more than 61 squares, indices 0 to 60, and
   hint_entry's bit 61 stays below 2^62). Checker.v's verify asks for an
   entry's line once, as it checks that entry, in the table's order, with
   the entry's own row masks: so the lines are taken in turn, each when the
   key asked for is its entry's (the same list in memory, and the same
   heap), with no hash table (hashing the key and finding it was 2.5% of the
   check at n = 14). Any other key gets no suggestion: sound either way, as
   every suggestion is only the solver's first try. *)
let win_hint_of t =
  let next = ref 0 in
  fun k ->
  let line =
    if !next < Array.length t.wins then begin
      let (rows, h), w = t.wins.(!next) in
      if fst k == rows && snd k = h then (incr next; Some w) else None
    end else None in
  match line with
  | None -> (fun _ -> 61)
  | Some w -> (fun j ->
      if j >= String.length w then 61 else
        match w.[j] with
        | '0' .. '9' as c -> Char.code c - Char.code '0'
        | 'A' .. 'Z' as c -> Char.code c - Char.code 'A' + 10
        | 'a' .. 'z' as c -> Char.code c - Char.code 'a' + 36
        | _ -> 61)

let decide t =
  let hash = make_hash in
  let result =
    try Ok (verify t.claim (((((hash, popcount), hint_of t), win_hint_of t), t.cutoff), t.entries))
    with
    | Stack_overflow -> Error "the check ran out of stack; nothing was decided"
    | Invalid_argument _ -> Error "a number in the check left the range of machine integers; nothing was decided" in
  match result with
  | Error why -> finish { verdict = Not_checked; line = "NOT CHECKED: " ^ why; table = Some t }
  | Ok Accepted -> finish { verdict = Verified; line = "VERIFIED: " ^ statement t; table = Some t }
  | Ok (Bad_entry i) -> finish { verdict = Rejected; line = "REJECTED: " ^ explain t i; table = Some t }
  | Ok Bad_root ->
      let why = if not (placed t.board t.queens) then
          "the given queens are not a position of the game (two of them attack each other or share a square)"
        else match t.claim with
          | Claim_wins _ -> "the position is neither in the table nor won by the verified solver"
          | _ -> "a move from the position leads to one that is neither in the table nor won by the verified solver" in
      finish { verdict = Rejected; line = "REJECTED: the claim is not shown: " ^ why; table = Some t }

(* ---- Tables of parts: the proposals (untrusted: Parts.v verifies each) ---- *)

let parts_hash count =
  let mask = bucket_mask count in
  fun (set : (int * int) list) ->
    let x = List.fold_left (fun x (r, c) -> ((x lxor (r * 64 + c + 1)) * 0x2545F4914F6CDD1D) lxor (x lsr 29)) 17 set in
    positive_of_int (((x lxor (x lsr 32)) land mask) lor (mask + 1))

(* The groups of a set connected by the rule. *)
let parts_split blocks (l : (int * int) list) =
  let a = Array.of_list l in
  let n = Array.length a in
  let seen = Array.make n false in
  let groups = ref [] in
  for i = 0 to n - 1 do
    if not seen.(i) then begin
      seen.(i) <- true;
      let group = ref [] and stack = ref [ i ] in
      while !stack <> [] do
        let j = List.hd !stack in
        stack := List.tl !stack;
        group := a.(j) :: !group;
        for k = 0 to n - 1 do
          if not seen.(k) && blocks a.(j) a.(k) then begin  (* the rule is symmetric (Parts.v) *)
            seen.(k) <- true; stack := k :: !stack
          end
        done
      done;
      groups := !group :: !groups
    end
  done;
  !groups

(* The board's maps that keep its holes (the square's eight, a rectangle's
   four), as export-table's keys use them (docs/parts.md). *)
let board_maps rows cols holes =
  let all = [ (fun (r, c) -> (r, c)); (fun (r, c) -> (rows - 1 - r, cols - 1 - c));
              (fun (r, c) -> (rows - 1 - r, c)); (fun (r, c) -> (r, cols - 1 - c)) ]
            @ (if rows <> cols then []
               else [ (fun (r, c) -> (c, rows - 1 - r)); (fun (r, c) -> (rows - 1 - c, r));
                      (fun (r, c) -> (c, r)); (fun (r, c) -> (rows - 1 - c, cols - 1 - r)) ]) in
  let hs = List.sort compare holes in
  List.filter (fun g -> List.sort compare (List.map g holes) = hs) all

(* For a group P, the key form the table keeps it under (docs/parts.md): of
   its images under the board's maps, each moved to the corner on a board
   without holes, the one with the least sum of 2^square; with the map from
   that form back onto P. One proposal: if it is not the table's, the check
   rejects. *)
let parts_propose rows cols holes =
  let maps = Array.of_list (board_maps rows cols holes) in
  let translate = holes = [] in
  let index_of g src =
    let img = Array.map g src in
    let r0 = if translate then Array.fold_left (fun m (r, _) -> min m r) max_int img else 0 in
    let c0 = if translate then Array.fold_left (fun m (_, c) -> min m c) max_int img else 0 in
    Array.map (fun (r, c) -> (r - r0) * cols + (c - c0)) img in
  (* a before b when its sum of 2^square is less: both sorted increasing, of
     one length; the highest square where they differ decides *)
  let less (a : int array) (b : int array) =
    let rec go i = i >= 0 && (if a.(i) <> b.(i) then a.(i) < b.(i) else go (i - 1)) in
    go (Array.length a - 1) in
  let sort (a : int array) =  (* insertion sort: parts are small *)
    for i = 1 to Array.length a - 1 do
      let x = a.(i) in
      let j = ref (i - 1) in
      while !j >= 0 && a.(!j) > x do a.(!j + 1) <- a.(!j); decr j done;
      a.(!j + 1) <- x
    done in
  fun (p : (int * int) list) ->
    let src = Array.of_list p in
    let best = ref [||] and best_map = ref 0 in
    Array.iteri (fun gi g ->
        let idx = index_of g src in
        sort idx;
        if gi = 0 || less idx !best then begin best := idx; best_map := gi end) maps;
    let idx = index_of maps.(!best_map) src in
    let order = Array.init (Array.length src) (fun i -> i) in
    Array.sort (fun i j -> compare (idx.(i) : int) idx.(j)) order;
    let keys = Array.map (fun i -> idx.(i)) order in
    let find (r, c) =
      let x = r * cols + c in
      let rec go lo hi =
        if lo >= hi then (r, c)
        else let mid = (lo + hi) / 2 in
          if keys.(mid) = x then src.(order.(mid)) else if keys.(mid) < x then go (mid + 1) hi else go lo mid in
      if c < 0 || c >= cols then (r, c) else go 0 (Array.length keys) in
    [ (Array.to_list (Array.map (fun x -> (x / cols, x mod cols)) keys), find) ]

let decide_parts pt =
  let c = pt.pclaim in
  claim_override := parts_claim_json c;
  statement_override := json_string (parts_statement c);
  let input = (((parts_hash (List.length pt.pentries), parts_split (piece_blocks c.claimed_piece)),
                parts_propose c.claimed_rows c.claimed_cols c.claimed_holes), pt.pentries) in
  let result =
    try Ok (check_parts c input)
    with
    | Stack_overflow -> Error "the check ran out of stack; nothing was decided"
    | Invalid_argument _ -> Error "a number in the check left the range of machine integers; nothing was decided" in
  match result with
  | Error why -> finish { verdict = Not_checked; line = "NOT CHECKED: " ^ why; table = None }
  | Ok true -> finish { verdict = Verified; line = "VERIFIED: " ^ parts_statement c; table = None }
  | Ok false ->
      finish { verdict = Rejected; table = None;
               line = "REJECTED: the table of parts does not show the claim (an entry's value is not the mex of its options' values, a part is used before its entry, or the board's value is another)" }

(* --jobs J: each shard's proved check_claim in a process of its own, J at a
   time. This loop is trusted (docs/verified-checker.md): a shard counts as
   accepted only when its process exited with status 0 after writing the
   line "accepted", which it writes only when check_claim returned true.
   Everything else a process writes on its standard output (a verdict line
   of its own: out of time, a table export-table could not make) comes back
   as the reason. The first shard not accepted stops the others. *)
let check_shards_in_parallel paths shards =
  let parent = Unix.getpid () in
  let running = Hashtbl.create 16 in  (* pid -> shard index, path, pipe *)
  at_exit (fun () -> if Unix.getpid () = parent then
              Hashtbl.iter (fun pid _ -> try Unix.kill pid Sys.sigkill with Unix.Unix_error _ -> ()) running);
  (* Stopped from outside (timeout, Ctrl-C): the same, through exit. *)
  List.iter (fun sg -> Sys.set_signal sg (Sys.Signal_handle (fun _ -> not_checked "stopped by a signal; nothing was decided")))
    [ Sys.sigterm; Sys.sigint ];
  let start i path (claim, input) =
    flush stdout; flush stderr;
    let r, w = Unix.pipe ~cloexec:true () in
    match Unix.fork () with
    | 0 ->
        (* The shard's process: its verdict lines go into the pipe. *)
        Unix.dup2 ~cloexec:false w Unix.stdout;
        json := false;
        let elapsed = int_of_float (Unix.gettimeofday () -. started) in
        if !time_limit > 0 then ignore (Unix.alarm (max 1 (!time_limit - elapsed)));
        memory_limit := max 16 (!memory_limit / !jobs);
        let accepted = (try check_claim claim (input ()) with
            | Stack_overflow -> print_endline "the check ran out of stack"; exit 2
            | Invalid_argument _ -> print_endline "a number in the check left the range of machine integers"; exit 2) in
        if accepted then begin
          Printf.printf "accepted %d\n" (peak_mib ()); exit 0
        end else begin
          print_endline "its table does not show its claim"; exit 1
        end
    | pid -> Unix.close w; Hashtbl.replace running pid (i, path, r)
    | exception Unix.Unix_error (e, _, _) -> fail ("cannot start a process for a shard: " ^ Unix.error_message e) in
  let read_all fd =
    let buf = Buffer.create 256 and chunk = Bytes.create 4096 in
    let rec loop () = match Unix.read fd chunk 0 4096 with
      | 0 -> ()
      | k -> Buffer.add_subbytes buf chunk 0 k; loop ()
      | exception Unix.Unix_error (Unix.EINTR, _, _) -> loop () in
    loop (); Unix.close fd; String.trim (Buffer.contents buf) in
  let total = List.length shards and finished = ref 0 in
  let rec loop pending =
    if Hashtbl.length running < !jobs && pending <> [] then begin
      let (i, path, shard) = List.hd pending in
      start i path shard; loop (List.tl pending)
    end else if Hashtbl.length running = 0 then Ok ()
    else begin
      let pid, status = (try Unix.waitpid [] (-1) with Unix.Unix_error (Unix.EINTR, _, _) -> (0, Unix.WEXITED 255)) in
      match Hashtbl.find_opt running pid with
      | None -> loop pending
      | Some (_, path, r) ->
          Hashtbl.remove running pid;
          let text = read_all r in
          let last = match List.rev (String.split_on_char '\n' text) with l :: _ -> l | [] -> "" in
          match status, String.split_on_char ' ' last with
          | Unix.WEXITED 0, ["accepted"; mib] ->
              (match int_of_string_opt mib with Some m -> children_peak_mib := max !children_peak_mib m | None -> ());
              incr finished;
              if Unix.isatty Unix.stderr then
                Printf.eprintf "\rchecker-verified: %d of %d shards accepted (%d at a time) %!" !finished total !jobs;
              loop pending
          | Unix.WEXITED 1, _ -> Error (Rejected, path, if last = "" then "rejected" else last)
          | Unix.WEXITED _, _ -> Error (Not_checked, path, if last = "" then "its process stopped" else last)
          | (Unix.WSIGNALED sg | Unix.WSTOPPED sg), _ ->
              Error (Not_checked, path, Printf.sprintf "its process was stopped by signal %d" sg)
    end in
  loop (List.mapi (fun i (p, sh) -> (i, p, sh)) (List.combine paths shards))

(* A manifest: each shard's table is exported and read only when the proved
   check_manifest asks for it (one table in memory at a time); its claim must
   be the one listed. check_manifest accepts only when every shard's
   check_claim accepts and the shards cover the claim's moves up to symmetry.
   With --jobs J > 1, check_shards_in_parallel below runs each shard's
   check_claim in a process of its own, and the proved manifest_step follows
   when every one accepted. *)
let decide_manifest root listed export =
  let total = List.length listed in
  let shards = List.mapi (fun i (path, claim) ->
      (claim, fun () ->
          let t = (match export path with
              | Game t -> t | Parts _ -> fail (printable path ^ ": a shard is a table of parts")) in
          if t.claim <> claim then fail (printable path ^ ": its table claims another position than the manifest lists");
          if !jobs = 1 && Unix.isatty Unix.stderr then Printf.eprintf "\rchecker-verified: shard %d of %d %!" (i + 1) total;
          (((((make_hash, popcount), hint_of t), win_hint_of t), t.cutoff), t.entries))) listed in
  let result =
    try
      if !jobs = 1 then Ok (check_manifest root.claim shards)
      else match check_shards_in_parallel (List.map fst listed) shards with
        | Ok () -> Ok (manifest_step root.claim shards)
        | Error (Rejected, path, line) ->
            finish { verdict = Rejected; table = Some root;
                     line = Printf.sprintf "REJECTED: the shard %s is rejected (%s)" (printable path) line }
        | Error (_, path, line) ->
            finish { verdict = Not_checked; table = Some root;
                     line = Printf.sprintf "NOT CHECKED: the shard %s was not decided (%s)" (printable path) line }
    with
    | Stack_overflow -> Error "the check ran out of stack; nothing was decided"
    | Invalid_argument _ -> Error "a number in the check left the range of machine integers; nothing was decided" in
  if Unix.isatty Unix.stderr then prerr_string "\r\027[K";
  match result with
  | Error why -> finish { verdict = Not_checked; line = "NOT CHECKED: " ^ why; table = Some root }
  | Ok true -> finish { verdict = Verified; line = "VERIFIED: " ^ statement root; table = Some root }
  | Ok false ->
      finish { verdict = Rejected; table = Some root;
               line = Printf.sprintf "REJECTED: the %d shards do not show the claim (a shard's table is rejected, or they do not cover every move up to symmetry)" total }

let usage = "usage: checker-verified [--json] [--time-limit S] [--max-memory MiB] [--cutoff K] [--jobs J] FILE.qcert\n\
\       checker-verified [--json] [--time-limit S] [--max-memory MiB] --table FILE"

let help = usage ^ "\n\n\
Checks a queens-game certificate with the checker proved sound in Coq\n\
(docs/verified-checker.md). FILE.qcert: export-table (beside this program)\n\
turns it into a table of won positions; --table FILE: a table read as it is.\n\
--cutoff K: positions with at most K live squares are left to the verified\n\
solver (default 24, or the certificate's own cut-off when larger; at most\n\
30). --time-limit S: stop after S seconds (default: none); --max-memory\n\
MiB: stop past this much memory (default 90% of physical memory); both are\n\
passed on to export-table, and stopping is NOT CHECKED, exit 2.\n\
--json: stdout is one JSON object with the C++\n\
checker's keys (verdict, exit_status, file, statement, reason, claim,\n\
certificate: bytes and sha256, checker: version and commit, wall_seconds,\n\
peak_rss_mib) instead of the verdict line. A shard manifest: its shards\n\
are exported and checked one by one, then the proved manifest step;\n\
--jobs J: J shards at a time, each in a process of its own with a J-th of\n\
the memory (the step from their verdicts to the shards' claims is then this\n\
program's, not proved: docs/verified-checker.md).\n\
Prints VERIFIED: <claim> (exit 0) or REJECTED: <reason> (exit 1); exit 2\n\
when nothing is decided (bad usage, an unreadable file, out of time or\n\
memory).\n"

let physical_mib () =
  try
    let ic = open_in "/proc/meminfo" in
    let rec find () = match input_line ic with
      | line -> (try Scanf.sscanf line "MemTotal: %d kB" (fun k -> k / 1024) with _ -> find ())
      | exception End_of_file -> 0 in
    let m = find () in close_in ic; m
  with _ -> 0

(* A number of an option: digits only, from lo to hi. *)
let option_number name w lo hi =
  if w = "" || String.length w > 9 || not (String.for_all (fun c -> c >= '0' && c <= '9') w)
     || int_of_string w < lo || int_of_string w > hi
  then fail (Printf.sprintf "%s takes a whole number from %d to %d, not '%s'" name lo hi (printable w));
  int_of_string w

(* Only a regular file is read: a device or a FIFO would never end or block. *)
let require_regular_file file =
  if file = "" then fail "an empty file name";
  match (Unix.stat file).Unix.st_kind with
  | Unix.S_REG -> ()
  | Unix.S_DIR -> fail (printable file ^ ": a directory, not a certificate")
  | _ -> fail (printable file ^ ": not a regular file (a device, FIFO or socket is not read)")
  | exception Unix.Unix_error (e, _, _) -> fail (printable file ^ ": " ^ Unix.error_message e)

let () =
  let args = List.tl (Array.to_list Sys.argv) in
  (match args with
   | ["--help"] -> print_string help; exit 0
   | ["--version"] ->
       print_endline (Printf.sprintf "checker-verified %s (commit %s; checked by a Coq-verified, extracted program)"
                        Version.version Version.commit); exit 0
   | _ -> ());
  json := List.mem "--json" args;
  (* The check keeps the table (hundreds of MiB on an n = 16 shard) and
     makes much short-lived data: with OCaml's default space_overhead (80)
     the collector's marking walked the table often enough to be a tenth of
     the check. 200: 9% less CPU on an n = 16 shard's table, for 17% more
     memory at its peak (471 to 549 MiB); 400 gained nothing more. A user's
     OCAMLRUNPARAM is left to rule. *)
  if Sys.getenv_opt "OCAMLRUNPARAM" = None && Sys.getenv_opt "CAMLRUNPARAM" = None then
    Gc.set { (Gc.get ()) with Gc.space_overhead = 200 };
  let max_memory = ref 0 and cutoff = ref (-1) and table = ref "" and file = ref "" in
  let rec parse = function
    | [] -> ()
    | "--json" :: rest -> parse rest
    | "--time-limit" :: s :: rest -> time_limit := option_number "--time-limit" s 1 (365 * 86400); parse rest
    | "--max-memory" :: m :: rest -> max_memory := option_number "--max-memory" m 16 (1 lsl 24); parse rest
    | "--cutoff" :: k :: rest -> cutoff := option_number "--cutoff" k 0 max_cutoff; parse rest
    | "--jobs" :: j :: rest -> jobs := option_number "--jobs" j 1 256; parse rest
    | "--table" :: f :: rest when !table = "" && !file = "" -> table := f; parse rest
    | f :: rest when !table = "" && !file = "" && f <> "" && f.[0] <> '-' -> file := f; parse rest
    | [f] when f = "" -> fail "an empty file name"
    | w :: _ -> fail (Printf.sprintf "unexpected '%s'\n%s (try --help)" (printable w) usage) in
  parse args;
  if !table = "" && !file = "" then fail (usage ^ " (try --help)");
  memory_limit := (if !max_memory > 0 then !max_memory else max 64 (physical_mib () * 9 / 10));
  (* The limits: SIGALRM after the time limit; the heap's size checked after
     every major collection. Either ends the run as NOT CHECKED. *)
  if !time_limit > 0 then begin
    Sys.set_signal Sys.sigalrm (Sys.Signal_handle (fun _ ->
        not_checked (Printf.sprintf "time limit of %d s reached (--time-limit); nothing was decided" !time_limit)));
    ignore (Unix.alarm !time_limit)
  end;
  let check_memory () =
    if (Gc.quick_stat ()).Gc.heap_words / 1048576 * (Sys.word_size / 8) > !memory_limit then
      not_checked (Printf.sprintf "memory limit of %d MiB reached (--max-memory); nothing was decided" !memory_limit) in
  ignore (Gc.create_alarm check_memory);
  on_block := check_memory;
  if !table <> "" then begin
    certificate := !table;
    require_regular_file !table;
    let ic = (try open_in_bin !table with Sys_error e -> fail (printable e)) in
    let t = (try read_table ic with Unreadable e -> fail (printable !table ^ ": " ^ e)) in
    close_in ic;
    (match t with Game t -> decide t | Parts pt -> decide_parts pt)
  end else begin
    certificate := !file;
    require_regular_file !file;
    let exe = Filename.concat (Filename.dirname Sys.executable_name) "export-table" in
    (* The table of one certificate, from export-table, with this process's limits. *)
    let export file =
      let limits = (if !time_limit > 0 then [ "--time-limit"; string_of_int !time_limit ] else [])
                   @ [ "--max-memory"; string_of_int !memory_limit ] in
      let ic = Unix.open_process_args_in exe
          (Array.of_list ((exe :: (if !cutoff >= 0 then [ "--cutoff"; string_of_int !cutoff ] else []) @ limits) @ [ file ])) in
      let t = (try Ok (read_table ic) with Unreadable e -> Error e) in
      match Unix.close_process_in ic, t with
      | Unix.WEXITED 0, Ok t -> t
      | Unix.WEXITED 0, Error e -> fail ("the table from export-table cannot be read: " ^ e)
      | Unix.WEXITED 1, _ ->
          finish { verdict = Rejected; table = None;
                   line = "REJECTED: export-table finds no proof in " ^ printable file ^ " (its reason is on stderr)" }
      | _ -> fail ("export-table could not make a table of " ^ printable file ^ " (its reason is on stderr)") in
    (* A manifest: export-table --list names its shards (exit 3: not a manifest). *)
    let ic = Unix.open_process_args_in exe [| exe; "--list"; !file |] in
    let listing = (try Ok (read_listing ic) with Unreadable e -> Error e) in
    match Unix.close_process_in ic, listing with
    | Unix.WEXITED 3, _ -> (match export !file with Game t -> decide t | Parts pt -> decide_parts pt)
    | Unix.WEXITED 0, Ok (root, listed) -> decide_manifest root listed export
    | Unix.WEXITED 0, Error e -> fail ("the shard list from export-table cannot be read: " ^ e)
    | Unix.WEXITED 1, _ ->
        finish { verdict = Rejected; table = None;
                 line = "REJECTED: export-table finds no proof in " ^ printable !file ^ " (a damaged file; its reason is on stderr)" }
    | _ -> fail ("export-table could not list the shards of " ^ printable !file ^ " (its reason is on stderr)")
  end
