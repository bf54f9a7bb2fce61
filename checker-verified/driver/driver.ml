(* checker-verified: the reading driver of the verified checker (TRUSTED,
   docs/verified-checker.md).  It reads a table (from export-table, run on a
   .qcert, or a table file), hands the claim and the entries to the extracted
   check (Checker_extracted.verify, proved sound as Checker.checker_sound),
   and prints the claim it handed over, in words, when the check accepts.

   Trusted here: that the claim passed to verify is the one printed
   (read_claim and statement), and that no number passed is negative or
   large (read_int).  Not trusted: how the entries' live sets are computed
   and the hash of the index; the proof holds for any entries and any hash. *)
open Checker_extracted

exception Unreadable of string  (* exit 2: nothing decided *)

(* ---- Reading the table: whitespace-separated words and numbers. ---- *)

type reader = { ic : in_channel; mutable peeked : char option }

let next_char r =
  match r.peeked with
  | Some c -> r.peeked <- None; Some c
  | None -> (try Some (input_char r.ic) with End_of_file -> None)

let rec skip_space r =
  match next_char r with
  | Some (' ' | '\n' | '\t' | '\r') -> skip_space r
  | c -> r.peeked <- c

let read_word r =
  skip_space r;
  let b = Buffer.create 8 in
  let rec go () =
    match next_char r with
    | Some (' ' | '\n' | '\t' | '\r') | None -> ()
    | Some c -> if Buffer.length b < 64 then Buffer.add_char b c; go ()
  in
  go ();
  Buffer.contents b

(* A whole number from 0 to 2^30: every number the check computes from these
   stays far below max_int (Extraction.v). *)
let read_int r =
  let w = read_word r in
  let limit = 1 lsl 30 in
  if w = "" || String.length w > 10 || not (String.for_all (fun c -> c >= '0' && c <= '9') w)
     || int_of_string w > limit
  then raise (Unreadable (Printf.sprintf "expected a whole number from 0 to %d, read '%s'" limit w));
  int_of_string w

let expect r word =
  let w = read_word r in
  if w <> word then raise (Unreadable (Printf.sprintf "expected '%s', read '%s'" word w))

let read_squares r =
  let k = read_int r in
  List.init k (fun _ -> let row = read_int r in let col = read_int r in (row, col))

type table = { claim : claim; n : int; kind : string; value : int;
               queens : (int * int) list; cutoff : int; entries : entry list }

let read_table ic =
  let r = { ic; peeked = None } in
  expect r "qcert-table"; expect r "1";
  expect r "board";
  let n = read_int r in
  if n < 1 || n > 26 then raise (Unreadable "the board size must be from 1 to 26");
  expect r "claim";
  let kind = read_word r in
  let value = read_int r in
  expect r "queens";
  let queens = read_squares r in
  if List.exists (fun (row, col) -> row >= n || col >= n) queens then
    raise (Unreadable "a claimed queen is off the board");
  let claim = match kind with
    | "win" -> Claim_wins (n, queens, value)
    | "loss" -> Claim_loses (n, queens, value)
    | "grundy" -> Claim_grundy (n, queens, value)
    | _ -> raise (Unreadable ("the claim must be win, loss or grundy, not '" ^ kind ^ "'")) in
  expect r "cutoff";
  let cutoff = read_int r in
  (* Entries: "e HEAP q ROW COL QUEENS..." or "e HEAP h HEAP' QUEENS...";
     the live set of the queens is computed here (untrusted: any list is
     checked as it is). *)
  let all = all_squares n in
  let rec entries acc =
    match read_word r with
    | "end" -> List.rev acc
    | "e" ->
        let h = read_int r in
        let reply = match read_word r with
          | "q" -> let row = read_int r in let col = read_int r in Reply_queen (row, col)
          | "h" -> Reply_heap (read_int r)
          | w -> raise (Unreadable ("a reply is q or h, not '" ^ w ^ "'")) in
        let qs = read_squares r in
        let live = List.fold_left (fun l q -> after q l) all qs in
        entries (((live, h), reply) :: acc)
    | w -> raise (Unreadable ("expected an entry or 'end', read '" ^ w ^ "'"))
  in
  let entries = entries [] in
  { claim; n; kind; value; queens; cutoff; entries }

(* ---- The claim in words, as the C++ checker prints it. ---- *)

let square_name (row, col) =
  Printf.sprintf "%c%d (%d,%d)" (Char.chr (Char.code 'a' + col)) (row + 1) row col

let statement t =
  let board =
    if t.queens = [] then Printf.sprintf "the empty %dx%d board" t.n t.n
    else Printf.sprintf "the %dx%d board after queens %s" t.n t.n
        (String.concat ", " (List.map square_name t.queens)) in
  let heap = if t.value > 0 then Printf.sprintf " with a Nim heap of %d added" t.value else "" in
  match t.claim with
  | Claim_grundy _ -> Printf.sprintf "the Grundy value of %s is %d (queens game)" board t.value
  | Claim_wins _ when t.queens = [] -> "first player wins on " ^ board ^ heap ^ " (queens game)"
  | Claim_loses _ when t.queens = [] -> "second player wins on " ^ board ^ heap ^ " (queens game)"
  | Claim_wins _ -> "the player to move wins on " ^ board ^ heap ^ " (queens game)"
  | Claim_loses _ -> "the player to move loses on " ^ board ^ heap ^ " (queens game)"

(* ---- The index's hash (untrusted: the proof holds for any function). ---- *)

let rec positive_of_int x =
  if x <= 1 then XH else if x land 1 = 0 then XO (positive_of_int (x lsr 1)) else XI (positive_of_int (x lsr 1))

let make_hash count =
  let bits = ref 4 in
  while 1 lsl !bits < count && !bits < 26 do incr bits done;
  let mask = (1 lsl !bits) - 1 in
  fun ((live, h) : key0) ->
    let x = List.fold_left (fun x (row, col) -> ((x lxor (row * 64 + col + 1)) * 0x2545F4914F6CDD1D) lxor (x lsr 29))
        (h + 1) live in
    positive_of_int (((x lxor (x lsr 32)) land mask) lor (mask + 1))

(* ---- Verdicts. ---- *)

let explain t i =
  let ((live, h), reply) = List.nth t.entries i in
  let legal = match reply with
    | Reply_queen s -> List.mem s live
    | Reply_heap h' -> h' < h in
  Printf.sprintf "table entry %d (%d live squares, heap %d): %s" (i + 1) (List.length live) h
    (if not legal then "its reply is not a legal move"
     else Printf.sprintf "an answer to its reply leads to a position that is neither in the table nor won by the verified solver (at most %d live squares)" t.cutoff)

let decide t =
  let hash = make_hash (List.length t.entries) in
  match verify t.claim ((hash, t.cutoff), t.entries) with
  | Accepted -> print_endline ("VERIFIED: " ^ statement t); 0
  | Bad_entry i -> print_endline ("REJECTED: " ^ explain t i); 1
  | Bad_root ->
      print_endline (Printf.sprintf "REJECTED: the claim is not shown: %s"
                       (match t.claim with
                        | Claim_wins _ -> "the position is neither in the table nor won by the verified solver"
                        | _ -> "a move from the position leads to one that is neither in the table nor won by the verified solver"));
      1

let usage = "usage: checker-verified [--cutoff K] FILE.qcert | checker-verified --table FILE"

let help = usage ^ "\n\
Checks a queens-game certificate with the checker proved sound in Coq\n\
(docs/verified-checker.md). FILE.qcert: export-table (beside this program)\n\
turns it into a table of won positions; --table FILE: a table read as it is.\n\
--cutoff K: positions with at most K live squares are left to the verified\n\
solver (default 20). Prints VERIFIED: <claim> (exit 0) or REJECTED: <reason>\n\
(exit 1); exit 2 when nothing is decided (bad usage, an unreadable file).\n"

let fail msg = prerr_endline ("checker-verified: " ^ msg); exit 2

let () =
  let args = List.tl (Array.to_list Sys.argv) in
  match args with
  | ["--help"] -> print_string help; exit 0
  | ["--version"] -> print_endline ("checker-verified " ^ Version.version ^ " (checked by a Coq-verified, extracted program)"); exit 0
  | ["--table"; file] ->
      if not (Sys.file_exists file) || Sys.is_directory file then fail (file ^ ": not a readable file");
      let ic = (try open_in_bin file with Sys_error e -> fail e) in
      let t = (try read_table ic with Unreadable e -> fail (file ^ ": " ^ e)) in
      close_in ic;
      exit (decide t)
  | _ ->
      let cutoff, file = match args with
        | [file] -> "20", file
        | ["--cutoff"; k; file] -> k, file
        | _ -> fail (usage ^ " (try --help)") in
      if file = "" || file.[0] = '-' then fail (usage ^ " (try --help)");
      if not (String.for_all (fun c -> c >= '0' && c <= '9') cutoff) || cutoff = "" || String.length cutoff > 2 then
        fail "--cutoff takes a whole number up to 30";
      let exe = Filename.concat (Filename.dirname Sys.executable_name) "export-table" in
      let ic = Unix.open_process_args_in exe [| exe; "--cutoff"; cutoff; file |] in
      let t = (try Ok (read_table ic) with Unreadable e -> Error e) in
      (match Unix.close_process_in ic, t with
       | Unix.WEXITED 0, Ok t -> exit (decide t)
       | Unix.WEXITED 0, Error e -> fail ("the table from export-table cannot be read: " ^ e)
       | Unix.WEXITED 1, _ ->
           print_endline "REJECTED: export-table finds no proof in the certificate (its reason is on stderr)"; exit 1
       | _ -> fail ("export-table could not make a table of " ^ file ^ " (its reason is on stderr)"))
