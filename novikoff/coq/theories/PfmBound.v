(** * P1 for every PFM run, mirroring novikoff/proofs/pdm/pfm.py.

    Spec correspondence (novikoff/spec/pdm.py, id P1, [pfm_updates_le_lemma1_bound]): the
    scalar statement is [Lemma1.P1_spec] ([P1_statement], premise "lemma_form"); here the
    premise is discharged for runs.  PFM(beta), beta = (1 - eps) gamma, step by step
    (||w|| = sqrt ||w||^2, gamma = sqrt ||p||^2 for a certificate p, R = sqrt R^2):
    1. [pfm_energy] (pfm.py [energy]): ||w'||^2 <= ||w||^2 + 2 beta ||w|| + R^2, from
       w.z <= beta ||w|| ([pfm_test_bound]: what PFM's exact test guarantees);
    2. [pfm_norm_step] ([norm_step]): ||w'|| <= ||w|| + beta + R^2/(2 ||w||);
    3. [pfm_tele_preserved], [pfm_telescoping] ([telescoping]): with D3 (||w_k|| >= k gamma,
       [LargeMargin.D3_state]) the run invariant
       ||w_t|| <= R + (t - 1) beta + (R^2/(2 gamma)) H(t - 1), t >= 1 ([Lemma1.harm]);
    4. [p1_lemma_form] ([lemma_form]): with t gamma <= ||w_t|| and H(t) <= 1 + ln t
       ([Lemma1.harm_le_1_plus_ln]): t <= delta (1 + C + ln t), delta = R^2/(2 eps gamma^2),
       C = 2 gamma/R;
    5. [Lemma1.P1_spec] ([p1]: delta >= e^-C by [small_x_bound], then Lemma 1); in the
       delta/C shape: [P1_delta_form]; for states: [P1_state].
    Run level: [P1_pfm] (every PFM((1 - eps) gamma) run, every order, t >= 1 updates):
      t <= (1 + 1/e) delta (C + ln((1 + e) delta))   ([p1_bound]);
    [P1_pfm_beta]: the same for every PFM(beta) with 0 <= beta <= (1 - eps) gamma.
    Non-vacuity: [pfm_run_example2], [P1_run_example] (PFM(3/4) on a 2-d set with
    gamma = 1, R^2 = 2, eps = 1/4: 2 updates, converged). *)

From Coq Require Import Reals List Lra Psatz Arith.
From Novikoff Require Import Vectors Perceptron LargeMargin Lemma1.
Import ListNotations.
Local Open Scope R_scope.

(** ** The bound *)

Definition p1_delta (R2 g2 eps : R) : R := R2 / (2 * eps * g2).
Definition p1_C (R2 g2 : R) : R := 2 * sqrt g2 / sqrt R2.
(** (1 + 1/e) delta (C + ln((1 + e) delta)) *)
Definition p1_bound (R2 g2 eps : R) : R :=
  (1 + / exp 1) * p1_delta R2 g2 eps * (p1_C R2 g2 + ln ((1 + exp 1) * p1_delta R2 g2 eps)).

(** ** Step 1: the energy *)

(** What PFM's exact test guarantees: an update has w.z <= beta ||w||. *)
Lemma pfm_test_bound (beta : R) (w z : vec) :
  0 <= beta -> pfm_test beta w z = true -> dot w z <= beta * sqrt (norm2 w).
Proof.
  intros Hb. pose proof (sqrt_pos (norm2 w)) as Hs.
  pose proof (pow2_sqrt (norm2 w) (norm2_nonneg w)) as Hs2.
  assert (Hbw : 0 <= beta * sqrt (norm2 w)) by (apply Rmult_le_pos; lra).
  unfold pfm_test. destruct Rle_dec as [H0|H0]; [intros _; lra|].
  destruct Rle_dec as [H2|H2]; [intros _|discriminate].
  rewrite <- Hs2 in H2.
  destruct (Rle_lt_dec (dot w z) (beta * sqrt (norm2 w))) as [|Hlt]; [assumption|].
  exfalso. assert (beta * sqrt (norm2 w) * (beta * sqrt (norm2 w)) < dot w z * dot w z)
    by (apply Rmult_le_0_lt_compat; lra). nra.
Qed.

(** pfm.py [energy] *)
Lemma pfm_energy (wn wn1 wz z2 beta R2 : R) :
  wn1 ^ 2 = wn ^ 2 + 2 * wz + z2 -> wz <= beta * wn -> z2 <= R2 ->
  wn1 ^ 2 <= wn ^ 2 + 2 * beta * wn + R2.
Proof. intros E Hu Hz. rewrite E. lra. Qed.

(** ** Step 2: the norm step *)

(** pfm.py [norm_step]: X^2 - ||w'||^2 >= beta^2 + beta R^2/||w|| + (R^2/(2||w||))^2 >= 0. *)
Lemma pfm_norm_step (wn wn1 beta R2 : R) :
  0 < wn -> 0 <= wn1 -> 0 <= beta -> 0 <= R2 ->
  wn1 ^ 2 <= wn ^ 2 + 2 * beta * wn + R2 ->
  wn1 <= wn + beta + R2 / (2 * wn).
Proof.
  intros Hw Hw1 Hb HR He. set (q := R2 / (2 * wn)).
  assert (Hq : 0 <= q) by (unfold q; apply Rmult_le_pos; [lra | apply Rlt_le, Rinv_0_lt_compat; lra]).
  assert (Eq : 2 * wn * q = R2) by (unfold q; field; lra).
  assert (HX : wn1 * wn1 <= (wn + beta + q) * (wn + beta + q)) by nra.
  destruct (Rle_lt_dec wn1 (wn + beta + q)) as [|Hlt]; [assumption|]. nra.
Qed.

(** ** Step 3: telescoping, as an invariant of the run *)

(** For t = S k >= 1: ||w|| <= R + k beta + (R^2/(2 gamma)) H(k); at t = 0, w = 0. *)
Definition pfm_tele_inv (p : vec) (Rr beta : R) (s : state) : Prop :=
  progress_inv p s /\
  match snd s with
  | O => norm2 (fst s) = 0
  | S k => sqrt (norm2 (fst s)) <= Rr + INR k * beta + Rr ^ 2 / (2 * sqrt (dot p p)) * harm k
  end.

Lemma pfm_tele_init p Rr beta : pfm_tele_inv p Rr beta init.
Proof. split; [apply progress_init | reflexivity]. Qed.

(** D3 with norms: ||w_t|| >= t gamma. *)
Lemma D3_norm (p : vec) (s : state) :
  0 < dot p p -> progress_inv p s -> INR (snd s) * sqrt (dot p p) <= sqrt (norm2 (fst s)).
Proof.
  intros Hpp Hs. pose proof (D3_state p s Hpp Hs) as H.
  pose proof (pos_INR (snd s)).
  rewrite <- (sqrt_pow2 (INR (snd s))) by lra. rewrite <- sqrt_mult by (try apply pow2_ge_0; lra).
  apply sqrt_le_1_alt. exact H.
Qed.

Lemma pfm_tele_preserved zs p R2 beta :
  certificate_condition zs p -> 0 < dot p p -> radius_bound zs R2 -> 0 <= R2 -> 0 <= beta ->
  preserves (pfm_tele_inv p (sqrt R2) beta) (pfm_step beta) zs.
Proof.
  intros Hc Hpp HR HR0 Hb s z Hz [Hprog Hs].
  assert (Hprog' : progress_inv p (pfm_step beta s z))
    by (apply (progress_preserved zs p (pfm_step beta)); auto using pfm_additive).
  split; [exact Hprog'|].
  destruct (pfm_test beta (fst s) z) eqn:Et.
  2:{ unfold pfm_step; rewrite Et; exact Hs. }
  pose proof (pfm_test_bound beta (fst s) z Hb Et) as Hwz.
  specialize (HR z Hz).
  unfold pfm_step; rewrite Et; unfold update; cbn [fst snd].
  destruct s as [w [|k]]; cbn [fst snd] in *.
  - (* t = 0: w = 0, ||w'||^2 = ||z||^2 <= R^2 *)
    pose proof (cauchy_schwarz w z) as Hcs. unfold norm2 in *.
    assert (Hwz0 : dot w z = 0) by (rewrite Hs in Hcs; nra).
    rewrite norm2_vadd, Hs, Hwz0. simpl harm.
    change (INR 0) with 0.
    replace (sqrt R2 + 0 * beta + sqrt R2 ^ 2 / (2 * sqrt (dot p p)) * 0) with (sqrt R2) by ring.
    replace (0 + 2 * 0 + dot z z) with (dot z z) by ring.
    apply sqrt_le_1_alt. lra.
  - (* t = k + 1 >= 1: the norm step and D3 (||w|| >= (k + 1) gamma) *)
    set (g := sqrt (dot p p)) in *. set (W := sqrt (norm2 w)) in *.
    set (W1 := sqrt (norm2 (vadd w z))).
    assert (Hg : 0 < g) by (apply sqrt_lt_R0; exact Hpp).
    pose proof (D3_norm p (w, S k) Hpp Hprog) as HD3. cbn [fst snd] in HD3. fold g W in HD3.
    rewrite S_INR in HD3. pose proof (pos_INR k) as Hk.
    assert (HW : 0 < W) by nra.
    assert (HE : W1 ^ 2 = W ^ 2 + 2 * dot w z + dot z z).
    { unfold W1, W. rewrite !pow2_sqrt by apply norm2_nonneg. unfold norm2. apply norm2_vadd. }
    pose proof (pfm_energy W W1 (dot w z) (dot z z) beta R2 HE Hwz HR) as Hen.
    pose proof (pfm_norm_step W W1 beta R2 HW (sqrt_pos _) Hb HR0 Hen) as Hstep.
    rewrite pow2_sqrt in Hs |- * by exact HR0.
    (* R^2/(2 ||w||) <= R^2/(2 gamma (k + 1)) *)
    assert (Hq : R2 / (2 * W) <= R2 / (2 * g) * / (INR k + 1)).
    { replace (R2 / (2 * g) * / (INR k + 1)) with (R2 / (2 * (g * (INR k + 1)))) by (field; lra).
      unfold Rdiv. apply Rmult_le_compat_l; [exact HR0|].
      apply Rinv_le_contravar; nra. }
    change (harm (S k)) with (harm k + / INR (S k)). rewrite (S_INR k).
    replace (R2 / (2 * g) * (harm k + / (INR k + 1)))
      with (R2 / (2 * g) * harm k + R2 / (2 * g) * / (INR k + 1)) by ring.
    lra.
Qed.

Theorem pfm_telescoping zs p R2 beta order :
  certificate_condition zs p -> 0 < dot p p -> radius_bound zs R2 -> 0 <= R2 -> 0 <= beta ->
  valid_order zs order -> pfm_tele_inv p (sqrt R2) beta (pfm_run beta zs order).
Proof.
  intros. unfold pfm_run, pfm_run_from.
  apply run_preserves; auto using pfm_tele_init, pfm_tele_preserved.
Qed.

(** ** Step 4: the lemma form t <= delta (1 + C + ln t) *)

(** pfm.py [lemma_form] (with beta <= (1 - eps) gamma; W, Hm, Ht stand for ||w_t||,
    H(t - 1), H(t)). *)
Theorem p1_lemma_form (t eps g Rr beta W Hm Ht : R) :
  0 < t -> 0 < eps -> 0 < g -> 0 < Rr -> 1 <= t -> 0 <= beta <= (1 - eps) * g ->
  t * g <= W ->
  W <= Rr + (t - 1) * beta + Rr ^ 2 / (2 * g) * Hm ->
  Ht = Hm + / t -> Ht <= 1 + ln t ->
  t <= Rr ^ 2 * (ln t + 1 + 2 * g / Rr) / (2 * eps * g ^ 2).
Proof.
  intros Htp He Hg HR Ht1 [Hb0 Hb] HD3 Htele HH Hh.
  set (L := ln t) in *. set (K := Rr ^ 2 / (2 * g)) in *.
  assert (HK : 0 < K) by (unfold K; apply Rdiv_lt_0_compat; nra).
  assert (Hinv : 0 < / t) by (apply Rinv_0_lt_compat; lra).
  (* t eps g <= R + K (1 + ln t): the dropped terms (1 - eps) g and K/t are >= 0 *)
  assert (H1 : (t - 1) * beta <= (t - 1) * ((1 - eps) * g)) by (apply Rmult_le_compat_l; lra).
  assert (H2 : K * Hm <= K * (1 + L) - K * / t).
  { assert (Hm <= 1 + L - / t) by lra.
    replace (K * (1 + L) - K * / t) with (K * (1 + L - / t)) by ring.
    apply Rmult_le_compat_l; lra. }
  assert (H3 : 0 <= K * / t) by (apply Rmult_le_pos; lra).
  assert (H4 : 0 <= (1 - eps) * g) by lra.
  assert (Hmain : t * eps * g <= Rr + K * (1 + L)).
  { assert (E : t * g - (t - 1) * ((1 - eps) * g) = t * eps * g + (1 - eps) * g) by ring.
    lra. }
  assert (Hg2 : 0 < g ^ 2) by (apply pow_lt; lra).
  apply Rmult_le_reg_l with (2 * eps * g ^ 2); [apply Rmult_lt_0_compat; lra|].
  replace (2 * eps * g ^ 2 * (Rr ^ 2 * (L + 1 + 2 * g / Rr) / (2 * eps * g ^ 2)))
    with (2 * g * (Rr + K * (1 + L))) by (unfold K; field; lra).
  nra.
Qed.

(** ** Step 5: Lemma 1 (through [Lemma1.P1_spec]), for states and runs *)

Lemma p1_bound_spec_form (R2 g2 eps : R) :
  0 < R2 -> 0 < g2 -> 0 < eps ->
  sqrt R2 ^ 2 * (exp (- 1) + 1) *
    (ln (sqrt R2 ^ 2 * (1 + exp 1) / (2 * eps * sqrt g2 ^ 2)) + 2 * sqrt g2 / sqrt R2)
    / (2 * eps * sqrt g2 ^ 2)
  = p1_bound R2 g2 eps.
Proof.
  intros HR Hg He. rewrite !pow2_sqrt by lra. rewrite exp_m1.
  unfold p1_bound, p1_delta, p1_C.
  replace ((1 + exp 1) * (R2 / (2 * eps * g2))) with (R2 * (1 + exp 1) / (2 * eps * g2))
    by (field; lra).
  pose proof (exp_pos 1). pose proof (sqrt_lt_R0 R2 HR). field. repeat split; lra.
Qed.

(** Lemma 1 in the run theorem's shape: the lemma form t <= delta (1 + C + ln t) gives
    t <= (1 + 1/e) delta (C + ln((1 + e) delta)) (through [Lemma1.P1_spec]). *)
Theorem P1_delta_form (t eps R2 g2 : R) :
  0 < t -> 0 < eps -> eps <= 1 -> 0 < g2 -> g2 <= R2 ->
  t <= p1_delta R2 g2 eps * (1 + p1_C R2 g2 + ln t) ->
  t <= p1_bound R2 g2 eps.
Proof.
  intros Ht He He1 Hg HgR Hlf. assert (HR : 0 < R2) by lra.
  rewrite <- p1_bound_spec_form by lra.
  pose proof (sqrt_lt_R0 _ HR). pose proof (sqrt_lt_R0 _ Hg).
  apply (P1_spec t eps (sqrt R2) (sqrt g2)); try lra.
  - apply sqrt_le_1_alt; lra.
  - rewrite !pow2_sqrt by lra. unfold p1_delta, p1_C in Hlf.
    replace (R2 * (ln t + 1 + 2 * sqrt g2 / sqrt R2) / (2 * eps * g2))
      with (R2 / (2 * eps * g2) * (1 + 2 * sqrt g2 / sqrt R2 + ln t))
      by (field; repeat split; lra).
    exact Hlf.
Qed.

(** P1 for a state with the progress and telescoping invariants, t >= 1. *)
Theorem P1_state (p : vec) R2 eps beta s :
  0 < dot p p -> dot p p <= R2 -> 0 < eps -> eps <= 1 -> 0 <= beta <= (1 - eps) * sqrt (dot p p) ->
  (1 <= snd s)%nat -> pfm_tele_inv p (sqrt R2) beta s ->
  INR (snd s) <= p1_bound R2 (dot p p) eps.
Proof.
  intros Hpp Hg He He1 Hb H1 [Hprog Htele].
  assert (HR : 0 < R2) by lra.
  pose proof (D3_norm p s Hpp Hprog) as HD3.
  destruct s as [w [|k]]; cbn [fst snd] in *; [lia|].
  set (g := sqrt (dot p p)) in *. set (Rr := sqrt R2) in *.
  assert (Hg0 : 0 < g) by (apply sqrt_lt_R0; exact Hpp).
  assert (HR0 : 0 < Rr) by (apply sqrt_lt_R0; exact HR).
  assert (HgR : g <= Rr) by (apply sqrt_le_1_alt; exact Hg).
  assert (Ht1 : 1 <= INR (S k)) by (replace 1 with (INR 1) by reflexivity; apply le_INR; lia).
  pose proof (harm_le_1_plus_ln (S k) ltac:(lia)) as Hh.
  assert (Hlf := p1_lemma_form (INR (S k)) eps g Rr beta (sqrt (norm2 w)) (harm k) (harm (S k))
    ltac:(lra) He Hg0 HR0 Ht1 Hb HD3 ltac:(rewrite S_INR; replace (INR k + 1 - 1) with (INR k) by ring; exact Htele)
    eq_refl Hh).
  rewrite <- p1_bound_spec_form by lra.
  apply (P1_spec (INR (S k)) eps Rr g); auto; lra.
Qed.

(** P1 for every PFM(beta) run with 0 <= beta <= (1 - eps) gamma, every order, t >= 1. *)
Theorem P1_pfm_beta zs p R2 eps beta order :
  certificate_condition zs p -> 0 < dot p p -> radius_bound zs R2 -> dot p p <= R2 ->
  0 < eps -> eps <= 1 -> 0 <= beta <= (1 - eps) * sqrt (dot p p) -> valid_order zs order ->
  (1 <= snd (pfm_run beta zs order))%nat ->
  INR (snd (pfm_run beta zs order)) <= p1_bound R2 (dot p p) eps.
Proof.
  intros Hc Hpp HR Hg He He1 Hb Ho H1. apply (P1_state p R2 eps beta); auto.
  apply pfm_telescoping; auto; lra.
Qed.

(** P1: for every PFM((1 - eps) gamma) run (gamma = sqrt ||p||^2), every order, t >= 1:
    t <= (1 + 1/e) delta (C + ln((1 + e) delta)), delta = R^2/(2 eps gamma^2), C = 2 gamma/R. *)
Theorem P1_pfm zs p R2 eps order :
  certificate_condition zs p -> 0 < dot p p -> radius_bound zs R2 -> dot p p <= R2 ->
  0 < eps -> eps <= 1 -> valid_order zs order ->
  (1 <= snd (pfm_run ((1 - eps) * sqrt (dot p p)) zs order))%nat ->
  INR (snd (pfm_run ((1 - eps) * sqrt (dot p p)) zs order)) <= p1_bound R2 (dot p p) eps.
Proof.
  intros Hc Hpp HR Hg He He1 Ho H1. apply P1_pfm_beta; auto.
  pose proof (sqrt_pos (dot p p)). split; [apply Rmult_le_pos|]; lra.
Qed.

(** ** Non-vacuity: PFM((1 - 1/4) gamma) on z = (1, 1), (1, -1), (1, 0): the certificate
    p = (1, 0) (gamma = 1), R^2 = 2; one epoch updates on (1, 1) (t = 0) and (1, -1)
    (w.z = 0), then (1, 0) has w.z = 2 > (3/4) ||w|| = 3/2: w = (2, 0), t = 2, converged.
    The bound is (1 + 1/e) 4 (sqrt 2 + ln(4 (1 + e))), about 22.5. *)

Definition pfm_zs : list vec := [[1; 1]; [1; -1]; [1; 0]].
Definition pfm_p : vec := [1; 0].
Definition pfm_order : list nat := [0; 1; 2]%nat.

Lemma pfm_beta_value : (1 - 1 / 4) * sqrt (dot pfm_p pfm_p) = 3 / 4.
Proof. unfold pfm_p; simpl. replace (1 * 1 + (0 * 0 + 0)) with 1 by ring. rewrite sqrt_1. lra. Qed.

Example pfm_run_example2 :
  pfm_run ((1 - 1 / 4) * sqrt (dot pfm_p pfm_p)) pfm_zs pfm_order = ([2; 0], 2%nat) /\
  (forall z, In z pfm_zs -> pfm_step (3 / 4) ([2; 0], 2%nat) z = ([2; 0], 2%nat)).
Proof.
  rewrite pfm_beta_value. split.
  - unfold pfm_run, pfm_run_from, pfm_order, pfm_zs, presented, pattern, init. simpl.
    decide_tests.
  - intros z Hz. unfold pfm_zs in Hz.
    repeat destruct Hz as [Hz|Hz]; subst; try contradiction; apply pfm_step_keep; decide_test.
Qed.

Example P1_run_example :
  certificate_condition pfm_zs pfm_p /\ 0 < dot pfm_p pfm_p /\ radius_bound pfm_zs 2 /\
  dot pfm_p pfm_p <= 2 /\ valid_order pfm_zs pfm_order /\
  (1 <= snd (pfm_run ((1 - 1 / 4) * sqrt (dot pfm_p pfm_p)) pfm_zs pfm_order))%nat /\
  INR (snd (pfm_run ((1 - 1 / 4) * sqrt (dot pfm_p pfm_p)) pfm_zs pfm_order))
    <= p1_bound 2 (dot pfm_p pfm_p) (1 / 4).
Proof.
  assert (Hc : certificate_condition pfm_zs pfm_p).
  { intros z Hz. unfold pfm_zs in Hz.
    repeat destruct Hz as [Hz|Hz]; subst; try contradiction; unfold pfm_p; simpl; lra. }
  assert (HR : radius_bound pfm_zs 2).
  { intros z Hz. unfold pfm_zs in Hz.
    repeat destruct Hz as [Hz|Hz]; subst; try contradiction; simpl; lra. }
  assert (Hpp : 0 < dot pfm_p pfm_p) by (unfold pfm_p; simpl; lra).
  assert (Hg : dot pfm_p pfm_p <= 2) by (unfold pfm_p; simpl; lra).
  assert (Ho : valid_order pfm_zs pfm_order) by (repeat constructor; simpl; lia).
  destruct pfm_run_example2 as [E _].
  split; [exact Hc|]. split; [exact Hpp|]. split; [exact HR|]. split; [exact Hg|].
  split; [exact Ho|]. split; [rewrite E; simpl; lia|].
  apply P1_pfm; auto; try lra. rewrite E; simpl; lia.
Qed.
