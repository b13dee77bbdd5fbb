(** * V1: the deterministic core of the voted perceptron's generalization bound
    (Freund and Schapire 1999, Theorem 1 and its corollary), kernel-checked.

    [V1_prefixes_statement], [V1_vote_statement] and [V1_sample_statement] are printed from
    the sympy spec ([novikoff.spec.voted]) into [Statements.v].

    - [v1_count]: the prefixes whose perceptron errs on the next example are counted exactly
      by the run's mistakes (the prefix perceptron's decision value is the run's);
    - [v1_vote_sum]: y sum_j c_j sign(w_j.x) = W - 2 Ew (s = 1 - 2 er), so a wrong vote has
      W <= 2 Ew: the erring voters carry at least half the weight;
    - [v1_sample_sum]: over a finite test sample, W (wrong votes) <= 2 (erring weight),
      linearity over the sample.

    Not formalized: the i.i.d. sampling (the expectation over random sequences). The proof
    script of each [Theorem] sits between its [Theorem] line and [Qed.]. *)

From Coq Require Import Reals Lra Psatz Arith Lia.
From Novikoff Require Import Statements.
Local Open Scope R_scope.

Lemma v1_count (pv rv e u ecount kcount : nat -> R) :
  (forall r : nat, pv r = rv r) ->
  (forall r : nat, pv r <= 0 -> e r = 1) -> (forall r : nat, pv r > 0 -> e r = 0) ->
  (forall r : nat, rv r <= 0 -> u r = 1) -> (forall r : nat, rv r > 0 -> u r = 0) ->
  ecount 0%nat = 0 -> (forall r : nat, ecount (r + 1)%nat = e r + ecount r) ->
  kcount 0%nat = 0 -> (forall r : nat, kcount (r + 1)%nat = kcount r + u r) ->
  forall n : nat, ecount n = kcount n.
Proof.
  intros Hp Hei Hee Hui Hue He0 Hes Hk0 Hks n. induction n as [|n IH].
  - rewrite He0, Hk0. reflexivity.
  - assert (E1 := Hes n). assert (E2 := Hks n). rewrite Nat.add_1_r in E1, E2.
    rewrite E1, E2, IH. specialize (Hp n).
    destruct (Rle_dec (pv n) 0) as [h | h].
    + rewrite (Hei n h), (Hui n ltac:(lra)). ring.
    + apply Rnot_le_lt in h. rewrite (Hee n ltac:(lra)), (Hue n ltac:(lra)). ring.
Qed.

Theorem V1_prefixes : V1_prefixes_statement.
Proof.
  unfold V1_prefixes_statement.
  intros n k errs g R_ D e ecount kcount pv rv u _ _ _ _ _ _ _ _ _
    Hp Hei Hee Hui Hue He0 Hes Hk0 Hks Herr Hmis Hfs.
  assert (HC := v1_count pv rv e u ecount kcount (fun r => Hp r (Nat.le_0_l r))
    (fun r => Hei r (Nat.le_0_l r)) (fun r => Hee r (Nat.le_0_l r))
    (fun r => Hui r (Nat.le_0_l r)) (fun r => Hue r (Nat.le_0_l r)) He0
    (fun r => Hes r (Nat.le_0_l r)) Hk0 (fun r => Hks r (Nat.le_0_l r)) n).
  assert (Hek : INR errs = INR k) by (rewrite Herr, Hmis; exact HC).
  split; [exact Hek |]. rewrite Hek. lra.
Qed.

Lemma v1_vote_sum (c s er cw ew vs : nat -> R) :
  (forall j : nat, s j = 1 - 2 * er j) ->
  cw 0%nat = 0 -> (forall j : nat, cw (j + 1)%nat = c j + cw j) ->
  ew 0%nat = 0 -> (forall j : nat, ew (j + 1)%nat = c j * er j + ew j) ->
  vs 0%nat = 0 -> (forall j : nat, vs (j + 1)%nat = c j * s j + vs j) ->
  forall J : nat, vs J = cw J - 2 * ew J.
Proof.
  intros Hs Hc0 Hc He0 He Hv0 Hv J. induction J as [|J IH].
  - rewrite Hv0, Hc0, He0. ring.
  - assert (E1 := Hc J). assert (E2 := He J). assert (E3 := Hv J).
    rewrite Nat.add_1_r in E1, E2, E3. rewrite E1, E2, E3, IH, (Hs J). ring.
Qed.

Theorem V1_vote : V1_vote_statement.
Proof.
  unfold V1_vote_statement.
  intros J W Ew c cw er ew s vs _ Hs Hc0 Hc He0 He Hv0 Hv Htot Herr Hwrong.
  assert (HV := v1_vote_sum c s er cw ew vs (fun j => Hs j (Nat.le_0_l j)) Hc0
    (fun j => Hc j (Nat.le_0_l j)) He0 (fun j => He j (Nat.le_0_l j)) Hv0
    (fun j => Hv j (Nat.le_0_l j)) J).
  rewrite Htot, Herr. lra.
Qed.

Lemma v1_sample_sum (W : R) (wv ewp nvc ewc : nat -> R) :
  W > 0 -> (forall t : nat, wv t >= 0) -> (forall t : nat, wv t <= 1) ->
  (forall t : nat, ewp t >= 0) -> (forall t : nat, wv t > 0 -> W <= 2 * ewp t) ->
  nvc 0%nat = 0 -> (forall t : nat, nvc (t + 1)%nat = nvc t + wv t) ->
  ewc 0%nat = 0 -> (forall t : nat, ewc (t + 1)%nat = ewc t + ewp t) ->
  forall N : nat, W * nvc N <= 2 * ewc N.
Proof.
  intros HW Hn Hl He Hv Hn0 Hns He0 Hes N. induction N as [|N IH].
  - rewrite Hn0, He0. lra.
  - assert (E1 := Hns N). assert (E2 := Hes N). rewrite Nat.add_1_r in E1, E2.
    rewrite E1, E2. specialize (Hn N). specialize (Hl N). specialize (He N).
    assert (Hpt : W * wv N <= 2 * ewp N).
    { destruct (Rle_dec (wv N) 0) as [h | h].
      - nra.
      - apply Rnot_le_lt in h. specialize (Hv N ltac:(lra)). nra. }
    lra.
Qed.

Theorem V1_sample : V1_sample_statement.
Proof.
  unfold V1_sample_statement.
  intros N W nv ewt ewc ewp nvc wv HW _ _ Hn Hl He Hv Hn0 Hns He0 Hes Hnv Hew.
  assert (HS := v1_sample_sum W wv ewp nvc ewc HW (fun t => Hn t (Nat.le_0_l t))
    (fun t => Hl t (Nat.le_0_l t)) (fun t => He t (Nat.le_0_l t))
    (fun t => Hv t (Nat.le_0_l t)) Hn0 (fun t => Hns t (Nat.le_0_l t)) He0
    (fun t => Hes t (Nat.le_0_l t)) N).
  rewrite Hnv, Hew. exact HS.
Qed.

(** Non-vacuity. Prefixes: n = 2 examples, the first prefix errs (pv 0 = 0, a tie), the
    second does not (pv 1 = 1); k = errs = 1, gamma = 1, R = 1, D = 0. Vote: two voters of
    weight 1, both erring (s = -1): W = 2 <= 2 Ew = 4. Sample: N = 2 test points, W = 3, the
    vote wrong on the first (erring weight 2), right on the second (erring weight 1). *)
Example V1_prefixes_example :
  V1_prefixes_hypotheses 2 1 1 1 1 0 (fun r => match r with 0%nat => 1 | _ => 0 end)
    (fun r => match r with 0%nat => 0 | _ => 1 end) (fun r => match r with 0%nat => 0 | _ => 1 end)
    (fun r => INR r) (fun r => INR r) (fun r => match r with 0%nat => 1 | _ => 0 end).
Proof.
  unfold V1_prefixes_hypotheses. repeat split; cbn -[INR]; try lra.
  all: try (intros r _; rewrite ?Nat.add_1_r; destruct r as [|r]; simpl; intros; try lra;
    pose proof (lt_0_INR (S r) ltac:(lia)); simpl in *; lra).
  all: simpl; lra.
Qed.

Example V1_vote_example :
  V1_vote_hypotheses 2 2 2 (fun _ => 1) (fun j => INR j) (fun _ => 1) (fun j => INR j)
    (fun _ => -1) (fun j => - INR j).
Proof.
  unfold V1_vote_hypotheses. repeat split; simpl; try lra;
    intros j _; rewrite ?plus_INR; simpl; lra.
Qed.

Example V1_sample_example :
  V1_sample_hypotheses 2 3 1 3 (fun t => match t with 0%nat => 0 | _ => INR t + 1 end)
    (fun t => match t with 0%nat => 2 | _ => 1 end) (fun t => match t with 0%nat => 0 | _ => 1 end)
    (fun t => match t with 0%nat => 1 | _ => 0 end).
Proof.
  unfold V1_sample_hypotheses. repeat split; cbn -[INR]; try lra.
  all: try (intros t _; rewrite ?Nat.add_1_r; destruct t as [|t]; cbn -[INR]; intros; try lra;
    rewrite ?S_INR; simpl; lra).
  all: simpl; lra.
Qed.
