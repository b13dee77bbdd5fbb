(** * FS1: the Freund-Schapire mistake bound without separability (Freund and Schapire 1999, Theorem 2), kernel-checked.

    [FS1_one_pass_statement] and [FS1_passes_statement] are printed from the sympy spec
    ([novikoff.spec.nonseparable]) into [Statements.v]. The run is indexed by mistakes j:
    [pw j] = u.w and [w2 j] = ||w||^2 after j updates, [uz j], [wz j], [z2 j], [d j] = u.z,
    w.z, ||z||^2 and a slack (d >= gamma - u.z) of mistake j + 1, [sd j] and [sd2 j] the sums
    of d and d^2 over the first j mistakes (u a unit vector: [unit] is Cauchy-Schwarz).

    [fs_progress]: u.w_k + sd k >= k gamma; [fs_energy]: ||w_k||^2 <= k R^2;
    [fs_slack_cs]: (sd k)^2 <= k sd2 k (Cauchy-Schwarz on the mistakes' slacks);
    [fs_squeeze]: with s = sqrt k, u.w_k <= s R and sd k <= s D, so s^2 gamma <= s (R + D)
    and k gamma^2 <= (R + D)^2. [fs1_core] assembles them for any D with sd2 k <= D^2; the
    T-pass form gets sd2 k <= T sumd2 from [fs_regroup] (each pattern mistaken <= T times).

    The proof script of each [Theorem] sits between its [Theorem] line and [Qed.] (the
    wrong-variant test replays it against broken statements). *)

From Coq Require Import Reals Lra Psatz Arith Lia.
From Novikoff Require Import Statements.
Local Open Scope R_scope.

Lemma fs_squeeze (k g RR D x y : R) :
  0 < k -> 0 < g -> 0 <= RR -> 0 <= D -> x + y >= k * g -> x ^ 2 <= k * RR ^ 2 ->
  y ^ 2 <= k * D ^ 2 -> g ^ 2 * k <= (D + RR) ^ 2.
Proof.
  intros Hk Hg HR HD Hp Hx Hy.
  assert (Hs : sqrt k * sqrt k = k) by (apply sqrt_sqrt; lra).
  assert (Hs0 : 0 < sqrt k) by (apply sqrt_lt_R0; lra).
  set (s := sqrt k) in *.
  assert (HsR : 0 <= s * RR) by (apply Rmult_le_pos; lra).
  assert (HsD : 0 <= s * D) by (apply Rmult_le_pos; lra).
  assert (HxR : x <= s * RR).
  { destruct (Rle_dec x (s * RR)) as [h | h]; [exact h |].
    apply Rnot_le_lt in h. nra. }
  assert (HyD : y <= s * D).
  { destruct (Rle_dec y (s * D)) as [h | h]; [exact h |].
    apply Rnot_le_lt in h. nra. }
  assert (Hsg : s * g <= RR + D).
  { apply Rmult_le_reg_l with s; [lra |]. nra. }
  assert (Hsg0 : 0 <= s * g) by nra.
  assert (Hsq : (s * g) ^ 2 <= (RR + D) ^ 2) by nra.
  replace (g ^ 2 * k) with ((s * g) ^ 2) by (rewrite <- Hs; ring).
  replace ((D + RR) ^ 2) with ((RR + D) ^ 2) by ring. exact Hsq.
Qed.

Lemma fs_progress (g : R) (pw uz d sd : nat -> R) :
  pw 0%nat = 0 -> sd 0%nat = 0 ->
  (forall j : nat, pw (j + 1)%nat = pw j + uz j) ->
  (forall j : nat, sd (j + 1)%nat = d j + sd j) ->
  (forall j : nat, d j >= g - uz j) ->
  forall n : nat, pw n + sd n >= INR n * g.
Proof.
  intros Hp0 Hs0 Hp Hs Hd n. induction n as [|n IH].
  - rewrite Hp0, Hs0. simpl. lra.
  - rewrite S_INR. specialize (Hp n). specialize (Hs n). specialize (Hd n).
    rewrite Nat.add_1_r in Hp, Hs. rewrite Hp, Hs. lra.
Qed.

Lemma fs_energy (RR : R) (w2 wz z2 : nat -> R) :
  w2 0%nat = 0 ->
  (forall j : nat, w2 (j + 1)%nat = w2 j + 2 * wz j + z2 j) ->
  (forall j : nat, wz j <= 0) ->
  (forall j : nat, z2 j <= RR ^ 2) ->
  forall n : nat, w2 n <= INR n * RR ^ 2.
Proof.
  intros H0 He Hw Hr n. induction n as [|n IH].
  - rewrite H0. simpl. lra.
  - rewrite S_INR. specialize (He n). rewrite Nat.add_1_r in He. rewrite He.
    specialize (Hw n). specialize (Hr n). lra.
Qed.

Lemma fs_slack_cs (d sd sd2 : nat -> R) :
  sd 0%nat = 0 -> sd2 0%nat = 0 ->
  (forall j : nat, sd (j + 1)%nat = d j + sd j) ->
  (forall j : nat, sd2 (j + 1)%nat = d j ^ 2 + sd2 j) ->
  forall n : nat, sd n ^ 2 <= INR n * sd2 n.
Proof.
  intros H0 Q0 Hs Hq n. induction n as [|n IH].
  - rewrite H0, Q0. simpl. lra.
  - assert (Es := Hs n). assert (Eq := Hq n). rewrite Nat.add_1_r in Es, Eq.
    rewrite Es, Eq, S_INR. destruct n as [|m].
    + rewrite H0, Q0. simpl. lra.
    + assert (Hn : 0 < INR (S m)) by (apply lt_0_INR; lia).
      set (a := INR (S m)) in *. set (S0 := sd (S m)) in *. set (Q := sd2 (S m)) in *.
      set (x := d (S m)) in *.
      (* a ((a + 1) (x^2 + Q) - (x + S0)^2) = (a + 1) (a Q - S0^2) + (S0 - a x)^2 *)
      assert (Hsq : 0 <= (S0 - a * x) ^ 2) by apply pow2_ge_0.
      assert (Hid : a * ((a + 1) * (x ^ 2 + Q) - (x + S0) ^ 2)
                    = (a + 1) * (a * Q - S0 ^ 2) + (S0 - a * x) ^ 2) by ring.
      assert (Hpos : 0 <= a * ((a + 1) * (x ^ 2 + Q) - (x + S0) ^ 2)) by nra.
      assert (0 <= (a + 1) * (x ^ 2 + Q) - (x + S0) ^ 2).
      { apply Rmult_le_reg_l with a; [lra |]. lra. }
      lra.
Qed.

Lemma fs1_core (k : nat) (g RR D : R) (d pw sd sd2 uz w2 wz z2 : nat -> R) :
  0 < g -> 0 <= RR -> 0 <= D ->
  pw 0%nat = 0 -> (forall j : nat, pw (j + 1)%nat = pw j + uz j) ->
  w2 0%nat = 0 -> (forall j : nat, w2 (j + 1)%nat = w2 j + 2 * wz j + z2 j) ->
  (forall j : nat, wz j <= 0) -> (forall j : nat, z2 j <= RR ^ 2) ->
  pw k ^ 2 <= w2 k ->
  (forall j : nat, d j >= g - uz j) ->
  sd 0%nat = 0 -> (forall j : nat, sd (j + 1)%nat = d j + sd j) ->
  sd2 0%nat = 0 -> (forall j : nat, sd2 (j + 1)%nat = d j ^ 2 + sd2 j) ->
  sd2 k <= D ^ 2 ->
  g ^ 2 * INR k <= (D + RR) ^ 2.
Proof.
  intros Hg HR HD Hp0 Hp Hw0 He Hm Hr Hu Hd Hs0 Hs Hq0 Hq Hpres.
  assert (HP := fs_progress g pw uz d sd Hp0 Hs0 Hp Hs Hd k).
  assert (HE := fs_energy RR w2 wz z2 Hw0 He Hm Hr k).
  assert (HC := fs_slack_cs d sd sd2 Hs0 Hq0 Hs Hq k).
  destruct k as [|k].
  - simpl. nra.
  - assert (Hk : 0 < INR (S k)) by (apply lt_0_INR; lia).
    apply (fs_squeeze (INR (S k)) g RR D (pw (S k)) (sd (S k))); try lra; nra.
Qed.

Theorem FS1_one_pass : FS1_one_pass_statement.
Proof.
  unfold FS1_one_pass_statement.
  intros k g RR D d pw sd sd2 uz w2 wz z2 Hg HR HD _ _ _ _ Hp0 Hp Hw0 He Hm Hr Hu Hd Hs0 Hs Hq0 Hq Hpres.
  apply (fs1_core k g RR D d pw sd sd2 uz w2 wz z2 Hg HR HD Hp0
    (fun j => Hp j (Nat.le_0_l j)) Hw0 (fun j => He j (Nat.le_0_l j))
    (fun j => Hm j (Nat.le_0_l j)) (fun j => Hr j (Nat.le_0_l j)) Hu
    (fun j => Hd j (Nat.le_0_l j)) Hs0 (fun j => Hs j (Nat.le_0_l j)) Hq0
    (fun j => Hq j (Nat.le_0_l j)) Hpres).
Qed.

Lemma fs_regroup (T : R) (ad am dd m : nat -> R) :
  ad 0%nat = 0 -> (forall i : nat, ad (i + 1)%nat = ad i + dd i ^ 2) ->
  am 0%nat = 0 -> (forall i : nat, am (i + 1)%nat = am i + dd i ^ 2 * m i) ->
  (forall i : nat, m i <= T) ->
  forall n : nat, am n <= T * ad n.
Proof.
  intros Ha0 Ha Hm0 Hm Hle n. induction n as [|n IH].
  - rewrite Ha0, Hm0. lra.
  - assert (E1 := Ha n). assert (E2 := Hm n). rewrite Nat.add_1_r in E1, E2.
    rewrite E1, E2. specialize (Hle n).
    assert (0 <= dd n ^ 2) by apply pow2_ge_0. nra.
Qed.

Theorem FS1_passes : FS1_passes_statement.
Proof.
  unfold FS1_passes_statement.
  intros k n T g RR sumd2 ad am d dd m pw sd sd2 uz w2 wz z2 Hg HR Hsum _ _ _ _ _ _
    Hp0 Hp Hw0 He Hm Hr Hu Hd Hs0 Hs Hq0 Hq Ha0 Ha Htot Hm0 Hmstep Hper Hreg.
  assert (HT : 0 <= INR T) by apply pos_INR.
  split; [(* defined *) split; [exact HT | exact Hsum]|].
  assert (HG := fs_regroup (INR T) ad am dd m Ha0 (fun i => Ha i (Nat.le_0_l i)) Hm0
    (fun i => Hmstep i (Nat.le_0_l i)) (fun i => Hper i (Nat.le_0_l i)) n).
  assert (HD : 0 <= sqrt (INR T) * sqrt sumd2) by (apply Rmult_le_pos; apply sqrt_pos).
  assert (HD2 : (sqrt (INR T) * sqrt sumd2) ^ 2 = INR T * sumd2).
  { rewrite Rpow_mult_distr. rewrite !pow2_sqrt; lra. }
  replace ((RR + sqrt (INR T) * sqrt sumd2) ^ 2) with ((sqrt (INR T) * sqrt sumd2 + RR) ^ 2) by ring.
  apply (fs1_core k g RR (sqrt (INR T) * sqrt sumd2) d pw sd sd2 uz w2 wz z2 Hg HR HD Hp0
    (fun j => Hp j (Nat.le_0_l j)) Hw0 (fun j => He j (Nat.le_0_l j))
    (fun j => Hm j (Nat.le_0_l j)) (fun j => Hr j (Nat.le_0_l j)) Hu
    (fun j => Hd j (Nat.le_0_l j)) Hs0 (fun j => Hs j (Nat.le_0_l j)) Hq0
    (fun j => Hq j (Nat.le_0_l j))).
  rewrite HD2, Hreg, <- Htot. exact HG.
Qed.

(** Non-vacuity: two mistakes on orthonormal patterns z_j (||z_j|| = 1 = R) orthogonal to
    u (u.z = 0, slack d = gamma = 1 each): sd2 2 = 2 <= D^2 = 4; for the T-pass form one
    pattern (n = 1) mistaken m = 2 <= T = 2 times, sumd2 = 1. *)
Example FS1_one_pass_example :
  FS1_one_pass_hypotheses 2 1 1 2 (fun _ => 1) (fun _ => 0) (fun j => INR j) (fun j => INR j)
    (fun _ => 0) (fun j => INR j) (fun _ => 0) (fun _ => 1).
Proof.
  unfold FS1_one_pass_hypotheses. repeat split; simpl; try lra;
    intros j _; try rewrite plus_INR; simpl; lra.
Qed.

Example FS1_passes_example :
  FS1_passes_hypotheses 2 1 2 1 1 1 (fun i => INR i) (fun i => 2 * INR i) (fun _ => 1) (fun _ => 1)
    (fun _ => 2) (fun _ => 0) (fun j => INR j) (fun j => INR j) (fun _ => 0) (fun j => INR j)
    (fun _ => 0) (fun _ => 1).
Proof.
  unfold FS1_passes_hypotheses. repeat split; simpl; try lra;
    intros j _; try rewrite plus_INR; simpl; lra.
Qed.
