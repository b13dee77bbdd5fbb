(* The hand-written driver of the extracted perceptron.  NOT VERIFIED: it is part of the
   trusted base.  It reads one request of the novikoff diff protocol, version 1
   (docs/howto/protocol.md) on stdin, and writes one response on stdout.

   What it does, and all it does: parse the exact rationals; take the common scale L
   (the least common multiple of every denominator of the features and of the bias);
   form the integer numerators L x_i and L rho; build the integer patterns with the
   extracted [zlabelled_patterns] (z_i = y_i (L x_i, L rho), bias last, from the labels); run the extracted
   [zepochs_pairs] (the epoch loop proved equal to Perceptron.run of the Coq
   development, given the per-epoch pairs of the extracted [zpresent] / [znatural]);
   print the weights W / L in lowest terms, the updated sample indices, the update
   count, the epochs and whether an epoch made no update.  The per-epoch order
   ("natural", "given", or "shuffle-v1 SEED", the protocol's splitmix64 shuffle) is
   computed here; its pairs (index, pattern) come from the extracted [zpresent], once
   per permutation (the memoization is this driver's).  Algorithms: the
   perceptron, PFM(beta), PDM(eps) and PDM-succ (the PDM paper's fixed and decreasing
   margins and its successive runs, one update per mistake; "pdm-multiple": PDM with the PDM
   paper's multiple updates, on data without a zero pattern, and "pdm-succ-multiple" its
   successive runs), the multiclass perceptron, and
   the voted and averaged perceptrons (Freund and Schapire 1999: the perceptron's run, then
   the extracted [zvoted] / [zaveraged] over the epochs it ran; the voters are printed as
   protocol version 2's "voter COUNT w..." lines, the averaged weights as "weights", the
   integer sum over N L with N = epochs * m presentations); every other declared semantics
   than these rules from w_0 = 0 is answered "unsupported".  A version-2 request is answered
   in version 2 when it declares l2 0 and the constant schedule. *)

module E = Perceptron_extracted

let fail fmt = Printf.ksprintf (fun s -> prerr_endline ("driver: " ^ s); exit 2) fmt

let parse_q where tok =
  try
    match String.index_opt tok '/' with
    | None -> Q.of_bigint (Z.of_string tok)
    | Some i ->
      let p = Z.of_string (String.sub tok 0 i) in
      let q = Z.of_string (String.sub tok (i + 1) (String.length tok - i - 1)) in
      if Z.sign q <= 0 then raise Exit;
      Q.make p q
  with _ -> fail "%s: %S is not an exact number (an integer or p/q)" where tok

let print_q buf q =
  Buffer.add_char buf ' ';
  if Z.equal (Q.den q) Z.one then Buffer.add_string buf (Z.to_string (Q.num q))
  else (Buffer.add_string buf (Z.to_string (Q.num q)); Buffer.add_char buf '/';
        Buffer.add_string buf (Z.to_string (Q.den q)))

(* shuffle-v1: the protocol's permutation of epoch e (splitmix64, modulo 2^64). *)
let shuffle_v1 seed e m =
  let state = ref (Int64.add (Int64.shift_left seed 32) (Int64.of_int e)) in
  let next () =
    state := Int64.add !state 0x9E3779B97F4A7C15L;
    let z = !state in
    let z = Int64.mul (Int64.logxor z (Int64.shift_right_logical z 30)) 0xBF58476D1CE4E5B9L in
    let z = Int64.mul (Int64.logxor z (Int64.shift_right_logical z 27)) 0x94D049BB133111EBL in
    Int64.logxor z (Int64.shift_right_logical z 31) in
  let perm = Array.init m (fun i -> i) in
  for i = m - 1 downto 1 do
    let j = Int64.to_int (Int64.unsigned_rem (next ()) (Int64.of_int (i + 1))) in
    let t = perm.(i) in perm.(i) <- perm.(j); perm.(j) <- t
  done;
  Array.to_list perm

let () =
  let keys = Hashtbl.create 16 and samples = ref [] and perms = ref [] and lineno = ref 0 in
  (try
     while true do
       let line = input_line stdin in
       incr lineno;
       let words = List.filter (fun w -> w <> "") (String.split_on_char ' ' (String.trim line)) in
       match words with
       | [] -> ()
       | w :: _ when w.[0] = '#' -> ()
       | "end" :: _ -> raise End_of_file
       | "sample" :: lab :: xs -> samples := (!lineno, lab, xs) :: !samples
       | "perm" :: idx -> perms := (!lineno, idx) :: !perms
       | k :: vs -> Hashtbl.replace keys k vs
     done
   with End_of_file -> ());
  let get k = match Hashtbl.find_opt keys k with
    | Some v -> v | None -> fail "the request has no %s line" k in
  let version = match get "novikoff-perceptron" with
    | ["1"] -> "1" | ["2"] -> "2" | _ -> fail "only protocol version 1 is spoken" in
  let unsupported = ref [] in
  let want k v = if get k <> v then
      unsupported := Printf.sprintf "%s %s" k (String.concat " " (get k)) :: !unsupported in
  let algorithm = match get "algorithm", get "parameter" with
    | ["perceptron"], ["none"] -> `Perceptron
    | ["pfm"], ["beta"; b] -> `Pfm (parse_q "parameter beta" b)
    | ["pdm"], ["eps"; e] ->
      let e = parse_q "parameter eps" e in
      if Q.sign e <= 0 || Q.gt e Q.one then fail "parameter eps: %s is not in (0, 1]" (Q.to_string e);
      `Pdm e
    | ["pdm-multiple"], ["eps"; e] ->
      (* this driver's extension (not protocol v1): PDM(eps) with the PDM paper's multiple
         updates *)
      let e = parse_q "parameter eps" e in
      if Q.sign e <= 0 || Q.gt e Q.one then fail "parameter eps: %s is not in (0, 1]" (Q.to_string e);
      `Mu e
    | ["multiclass"], ["none"] -> `Multi
    | ["voted"], ["none"] -> `Voted
    | ["averaged"], ["none"] -> `Averaged
    | [("pdm-succ" | "pdm-succ-multiple") as a], "epsilons" :: es when es <> [] ->
      (* this driver's extension (not protocol v1): PDM-succ with eps_1 ... eps_final, one
         update per mistake or with multiple updates *)
      let epss = List.map (fun t ->
          let e = parse_q "parameter epsilons" t in
          if Q.sign e <= 0 || Q.gt e Q.one then fail "parameter epsilons: %s is not in (0, 1]" t;
          e) es in
      if a = "pdm-succ" then `Succ epss else `MuSucc epss
    | ["romma"], ["none"] -> `Romma None
    | ["romma-aggressive"], ["eps"; e] ->
      let e = parse_q "parameter eps" e in
      if Q.sign e < 0 || Q.geq e Q.one then fail "parameter eps: %s is not in [0, 1)" (Q.to_string e);
      `Romma (Some e)
    | a, p -> unsupported := Printf.sprintf "algorithm %s, parameter %s"
                  (String.concat " " a) (String.concat " " p) :: !unsupported; `Perceptron in
  want "tie_rule" ["nonstrict"];
  want "margin" ["0"]; want "learning_rate" ["1"]; want "stop" ["converged"];
  if version = "2" then (want "l2" ["0"]; want "schedule" ["constant"]);
  (match get "order" with
   | "sklearn" :: _ -> unsupported := "order sklearn" :: !unsupported | _ -> ());
  if List.exists (fun t -> not (Q.equal (parse_q "initial_weights" t) Q.zero)) (get "initial_weights")
  then unsupported := "initial_weights not zero" :: !unsupported;
  let print_header () = Printf.printf "novikoff-perceptron %s\n" version in
  let answer_unsupported () =
    print_header ();
    Printf.printf "unsupported the extracted program runs the textbook perceptron from w_0 = 0 only (%s)\nend\n"
      (String.concat ", " (List.rev !unsupported));
    exit 0 in
  if !unsupported <> [] then answer_unsupported ();
  let int_of k = match get k with
    | [t] -> (try int_of_string t with _ -> fail "%s: %S is not an integer" k t)
    | _ -> fail "%s: one integer expected" k in
  let m = int_of "samples" and d = int_of "features" and max_epochs = int_of "max_epochs" in
  let samples = List.rev !samples in
  if List.length samples <> m then fail "samples %d, but %d sample lines" m (List.length samples);
  let rho = match get "bias" with [t] -> parse_q "bias" t | _ -> fail "bias: one number expected" in
  let classes = if algorithm = `Multi then int_of "classes" else 2 in
  if classes < 1 then fail "classes: %d is not a number of classes" classes;
  let rows = List.map (fun (ln, lab, xs) ->
      let where = Printf.sprintf "line %d" ln in
      let yl = match algorithm, lab with
        | `Multi, _ -> (match int_of_string_opt lab with
            | Some c when c >= 0 && c < classes -> `Class c
            | _ -> fail "%s: the label %S is not a class 0..%d" where lab (classes - 1))
        | _, ("+1" | "1") -> `Bin E.Pos | _, "-1" -> `Bin E.Neg
        | _ -> fail "%s: the label %S is not +1 or -1" where lab in
      if List.length xs <> d then fail "%s: %d features, %d expected" where (List.length xs) d;
      (yl, List.map (parse_q where) xs)) samples in
  let scale = List.fold_left (fun acc (_, xs) ->
      List.fold_left (fun a q -> Z.lcm a (Q.den q)) acc xs) (Q.den rho) rows in
  let num q = Q.num (Q.mul q (Q.of_bigint scale)) in
  (* the labelled dataset of numerators (label, L x_i), bias L rho: ZLabelled.zlabelled_correct
     is about Labelled.perceptron on it *)
  let binary = List.filter_map (function (`Bin l, xs) -> Some (l, List.map num xs) | _ -> None) rows in
  let zs = E.zlabelled_patterns (num rho) binary in
  (* multiple updates need ||Z_i|| > 0 (ZPdmMultiple.zpdm_mu_correct): on z = 0 no count exists *)
  if (match algorithm with `Mu _ | `MuSucc _ -> true | _ -> false)
     && List.exists (List.for_all (fun v -> Z.sign v = 0)) zs then begin
    unsupported := ["multiple updates on a zero pattern z_i = 0 (no count exists)"];
    answer_unsupported ()
  end;
  let indices where idx =
    let p = List.map (fun t -> match int_of_string_opt t with
        | Some i when i >= 0 && i < m -> i
        | _ -> fail "%s: %S is not a sample index" where t) idx in
    if List.sort compare p <> List.init m (fun i -> i) then
      fail "%s: not a permutation of 0..%d" where (m - 1);
    p in
  (* pres_of e = zpresent zs (perm_of e) at every epoch (the premise of the proved
     zepochs_pairs_correct): each order's pairs are computed once by the extracted
     zpresent (znatural for the natural order, proved equal to zpresent on 0..m-1). *)
  (* perm_of e: the indices epoch e presents; pres_of e = zpresent zs (perm_of e) at every
     epoch (the premise of the proved zepochs_pairs_correct): each constant order's pairs
     are computed once by the extracted zpresent (znatural for the natural order, proved
     equal to zpresent on 0..m-1) *)
  let perm_of, pres_of = match get "order" with
    | ["natural"] ->
      let p = List.init m (fun i -> i) and q = E.znatural zs in (fun _ -> p), (fun _ -> q)
    | "given" :: idx ->
      let p = indices "order given" idx in
      let q = E.zpresent zs p in (fun _ -> p), (fun _ -> q)
    | ["cycle"; n] ->
      (* this driver's extension (not protocol v1): epoch e presents the
         (e mod n)-th of the n following "perm i_1 ... i_m" lines *)
      let ps = Array.of_list (List.rev_map (fun (ln, idx) ->
          indices (Printf.sprintf "line %d" ln) idx) !perms) in
      if Array.length ps = 0 || string_of_int (Array.length ps) <> n then
        fail "order cycle %s: %d perm lines" n (Array.length ps);
      let qs = Array.map (E.zpresent zs) ps in
      (fun e -> ps.(e mod Array.length ps)), (fun e -> qs.(e mod Array.length qs))
    | ["shuffle-v1"; s] ->
      let seed = match Int64.of_string_opt s with Some v -> v | None -> fail "order: bad seed %S" s in
      (fun e -> shuffle_v1 seed e m), (fun e -> E.zpresent zs (shuffle_v1 seed e m))
    | o -> fail "order %s is not natural, given or shuffle-v1" (String.concat " " o) in
  (match algorithm with
   | `Romma eps ->
     (* ROMMA, conservative or aggressive with eps = en/ed: ZRomma.zromma_correct. At most
        max_updates updates (this driver's extension, default 16, the exact reference's
        limit); the weights are W / D, the stop 0 none, 1 empty constraint set, 2 the limit. *)
     let max_updates = match Hashtbl.find_opt keys "max_updates" with
       | None -> 16
       | Some [t] -> (match int_of_string_opt t with
           | Some n when n >= 0 -> n | _ -> fail "max_updates: %S is not an integer >= 0" t)
       | Some _ -> fail "max_updates: one integer expected" in
     let rule = match eps with None -> E.Zconservative | Some e -> E.Zaggressive (Q.num e, Q.den e) in
     let ((st, epochs), conv) = E.zromma rule scale max_updates pres_of max_epochs in
     let buf = Buffer.create 4096 in
     Buffer.add_string buf "novikoff-perceptron 1\nweights";
     let w = if st.E.zw = [] then List.init (d + 1) (fun _ -> Z.zero) else st.E.zw in
     List.iter (fun n -> print_q buf (Q.make n st.E.zd)) w;
     Buffer.add_string buf "\nupdates";
     List.iter (fun i -> Printf.bprintf buf " %d" i) (List.rev st.E.ztr);
     Printf.bprintf buf "\nmistakes %d\nromma_mistakes %d\nstopped %s\nepochs %d\nconverged %s\nnote extracted from Coq (ZRomma.zromma)\nend\n"
       (List.length st.E.ztr) st.E.zk
       (match st.E.zstop with 0 -> "none" | 1 -> "empty" | _ -> "limit")
       epochs (if conv then "yes" else "no");
     print_string (Buffer.contents buf);
     exit 0
   | _ -> ());
  let w, k, tr, epochs, conv = match algorithm with
    | `Romma _ -> assert false (* answered above *)
    | `Perceptron | `Voted | `Averaged -> let ((((w, k), tr), e), c) = E.zepochs_pairs pres_of max_epochs in (w, k, tr, e, c)
    | `Pfm b ->
      (* PFM(bn/bd) on the patterns Z_i / L: ZLargeMargin.zpfm_correct *)
      let (((((w, k), _), tr), e), c) =
        E.zg_epochs (E.zpfm_test (Q.num b) (Q.den b) scale) pres_of max_epochs in (w, k, tr, e, c)
    | `Pdm eps ->
      (* PDM(en/ed): ZLargeMargin.zpdm_correct *)
      let (((((w, k), _), tr), e), c) =
        E.zg_epochs (E.zpdm_test (Q.num eps) (Q.den eps)) pres_of max_epochs in (w, k, tr, e, c)
    | `Mu eps ->
      (* PDM(en/ed) with multiple updates: ZPdmMultiple.zpdm_mu_correct *)
      let (((((w, k), _), tr), e), c) =
        E.zmu_epochs (Q.num eps) (Q.den eps) pres_of max_epochs in (w, k, tr, e, c)
    | `Multi ->
      (* the multiclass perceptron on x~_i = (L x_i, L rho) (the bias coordinate appended
         here): ZMulticlass.zmepochs_correct; its weights are the K class vectors *)
      let data = List.map (function
          | (`Class c, xs) -> (List.map num xs @ [num rho], c) | _ -> assert false) rows in
      let ((((ws, k), tr), e), c) = E.zmepochs classes data perm_of max_epochs in
      let dz = List.init (d + 1) (fun _ -> Z.zero) in
      (List.concat_map (fun w -> if w = [] then dz else w) ws, k, tr, e, c)
    | `MuSucc epss ->
      (* PDM-succ with multiple updates, max_epochs per stage: ZPdmMultiple.zmu_succ_correct *)
      let ((((((w, k), _), tr), e), c), _) =
        E.zmu_succ (List.map (fun q -> (Q.num q, Q.den q)) epss) pres_of max_epochs in (w, k, tr, e, c)
    | `Succ epss ->
      (* PDM-succ, max_epochs per stage: ZPdmSucc.zsucc_correct *)
      let ((((((w, k), _), tr), e), c), _) =
        E.zsucc (List.map (fun q -> (Q.num q, Q.den q)) epss) pres_of max_epochs in (w, k, tr, e, c) in
  let buf = Buffer.create 4096 in
  Printf.bprintf buf "novikoff-perceptron %s\nweights" version;
  let pad w = if w = [] then List.init (d + 1) (fun _ -> Z.zero) else w in
  (match algorithm with
   | `Averaged ->
     (* w_avg = (sum of the weights after each presentation) / N: ZAveraged.zaveraged_avg,
        N = epochs * m (each epoch presents a permutation of the m samples) *)
     let n = Z.mul (Z.of_int epochs) (Z.of_int m) in
     let sum = pad (E.zaveraged pres_of epochs) in
     List.iter (fun s -> print_q buf (if Z.sign n = 0 then Q.zero else Q.make s (Z.mul n scale))) sum
   | _ -> List.iter (fun n -> print_q buf (Q.make n scale)) (pad w));
  if algorithm = `Voted then
    (* the voters (W_j / L, c_j) of the epochs run: ZVoted.zvoted_correct *)
    List.iter (fun (v, c) ->
        Printf.bprintf buf "\nvoter %d" c;
        List.iter (fun n -> print_q buf (Q.make n scale)) (pad v)) (E.zvoted pres_of epochs);
  Buffer.add_string buf "\nupdates";
  List.iter (fun i -> Buffer.add_char buf ' '; Buffer.add_string buf (string_of_int i)) (List.rev tr);
  Printf.bprintf buf "\nmistakes %d\nepochs %d\nconverged %s\nnote extracted from Coq (ZPerceptron.zepochs_pairs, ZLargeMargin.zg_epochs, ZPdmSucc.zsucc, ZVoted.zvoted, ZAveraged.zaveraged, ZPdmMultiple.zmu_epochs, ZPdmMultiple.zmu_succ)\nend\n"
    k epochs (if conv then "yes" else "no");
  print_string (Buffer.contents buf)
