(** * D1 for eps < 1/2 for every PDM(eps) run, mirroring novikoff/proofs/pdm/small_eps.py.

    Spec correspondence (novikoff/spec/pdm.py, id D1, [pdm_updates_le_power_bound]): the
    scalar statement is [Theorems.D1_below_half] ([D1_below_half_statement]); here it is
    discharged for runs.  With p = 2 (1 - eps) in (1, 2), step by step:
    1. [bernoulli] (pdm_small_eps.py [bernoulli]): (y + x)^p >= y^p + p y^(p-1) x for y > 0,
       x >= 0, p >= 1.  Python: "increasing in x, its derivative p((y + x)^(p-1) - y^(p-1))
       is >= 0"; here the same derivative through the mean value theorem ([MVT_cor2] with
       [derivable_pt_lim_power]): (y + x)^p - y^p = p c^(p-1) x, y < c, and c^(p-1) >= y^(p-1).
    2. [tangent_gap] (pdm_small_eps.py [tangent_gap] at x = 1): for t >= 1,
       t^(1-p) - (t+1)^(1-p) >= (p - 1)(t+1)^-p (the same mean-value argument);
       [power_sum_bound] ([power_sum_bound]): S(t) = sum_{j<=t} j^-p <= (p - t^(1-p))/(p - 1),
       and [power_sum_le] S(t) <= p/(p - 1).
    3. [energy_small_preserved], [pdm_energy_small] ([energy_small_eps]): the recursion
       a(t+1) <= (1 + p/t) a(t) + R^2 ([LargeMargin.pdm_step_recursion]) gives the run
       invariant a(t) <= R^2 t^p S(t), Bernoulli at y = t, x = 1 doing the step.
    4. [D1_below_half_state] ([final_small_eps], [in_eps]): with D3 (t^2 gamma^2 <= a(t)),
       [Theorems.D1_below_half] gives t <= (2(1 - eps)/(1 - 2 eps) R^2/gamma^2)^(1/(2 eps));
       [D1_below_half_p_form] is the p-form t <= ((p/(p-1)) R^2/gamma^2)^(1/(2-p)).
    Run level: [D1_below_half_pdm] (every PDM(eps) run, every order, t >= 1 updates) and
    [D1_below_half_pdm_succ] (every PDM-succ run whose stages have eps <= eps_i <= 1).
    Non-vacuity: [pdm_quarter_run_example], [D1_below_half_run_example] (PDM(1/4) on
    exercise 6.1: 2 updates, converged; the bound is 182.25). *)

From Coq Require Import Reals List Lra Psatz Arith Ranalysis1 MVT.
From Novikoff Require Import Vectors Perceptron LargeMargin Statements Theorems.
Import ListNotations.
Local Open Scope R_scope.

(** ** Real powers *)

Lemma Rpower_pos (x y : R) : 0 < Rpower x y.
Proof. unfold Rpower; apply exp_pos. Qed.

Lemma Rpower_one_base (y : R) : Rpower 1 y = 1.
Proof. unfold Rpower. rewrite ln_1, Rmult_0_r. apply exp_0. Qed.

(** x^(p-1) = x^p / x *)
Lemma Rpower_minus1 (x p : R) : 0 < x -> Rpower x (p - 1) = Rpower x p / x.
Proof.
  intros Hx. unfold Rminus. rewrite Rpower_plus, Rpower_Ropp, Rpower_1 by exact Hx.
  unfold Rdiv; reflexivity.
Qed.

(** x^-p <= y^-p for 0 < y <= x, p >= 0 *)
Lemma Rpower_neg_anti (x y p : R) : 0 <= p -> 0 < y <= x -> Rpower x (- p) <= Rpower y (- p).
Proof.
  intros Hp Hyx. rewrite !Rpower_Ropp.
  pose proof (Rle_Rpower_l y x p Hp Hyx). pose proof (Rpower_pos y p).
  apply Rinv_le_contravar; lra.
Qed.

(** ** Step 1: Bernoulli, (y + x)^p >= y^p + p y^(p-1) x *)

Theorem bernoulli (y x p : R) :
  0 < y -> 0 <= x -> 1 <= p ->
  Rpower (y + x) p >= Rpower y p + p * Rpower y (p - 1) * x.
Proof.
  intros Hy [Hx|Hx] Hp; [|subst x; rewrite Rplus_0_r; lra].
  destruct (MVT_cor2 (fun u => Rpower u p) (fun u => p * Rpower u (p - 1)) y (y + x))
    as [c [Ec Hc]]; [lra| |].
  { intros c Hc. apply derivable_pt_lim_power. lra. }
  (* the derivative's sign: c^(p-1) >= y^(p-1), as c > y and p - 1 >= 0 *)
  assert (Hm : Rpower y (p - 1) <= Rpower c (p - 1)) by (apply Rle_Rpower_l; lra).
  cbv beta in Ec. replace (y + x - y) with x in Ec by ring.
  assert (p * Rpower y (p - 1) * x <= p * Rpower c (p - 1) * x).
  { apply Rmult_le_compat_r; [lra|]. apply Rmult_le_compat_l; lra. }
  lra.
Qed.

(** ** Step 2: the power sums *)

(** pdm_small_eps.py [tangent_gap] at x = 1: t^(1-p) - (t+1)^(1-p) >= (p - 1)(t+1)^-p. *)
Theorem tangent_gap (t p : R) :
  1 <= t -> 1 < p ->
  Rpower t (1 - p) - Rpower (t + 1) (1 - p) >= (p - 1) * Rpower (t + 1) (- p).
Proof.
  intros Ht Hp.
  destruct (MVT_cor2 (fun u => Rpower u (1 - p)) (fun u => (1 - p) * Rpower u (1 - p - 1))
              t (t + 1)) as [c [Ec Hc]]; [lra| |].
  { intros c Hc. apply derivable_pt_lim_power. lra. }
  cbv beta in Ec. replace (1 - p - 1) with (- p) in Ec by ring.
  replace (t + 1 - t) with 1 in Ec by ring.
  (* the slope of the convex x^(1-p) rises: c^-p >= (t+1)^-p *)
  assert (Hm : Rpower (t + 1) (- p) <= Rpower c (- p)) by (apply Rpower_neg_anti; lra).
  assert ((p - 1) * Rpower (t + 1) (- p) <= (p - 1) * Rpower c (- p))
    by (apply Rmult_le_compat_l; lra).
  lra.
Qed.

(** S(n) = sum_{j=1}^n j^-p *)
Fixpoint psum (p : R) (n : nat) : R :=
  match n with
  | O => 0
  | S k => psum p k + Rpower (INR (S k)) (- p)
  end.

Lemma psum_nonneg p n : 0 <= psum p n.
Proof.
  induction n as [|n IH]; [simpl; lra|].
  change (psum p (S n)) with (psum p n + Rpower (INR (S n)) (- p)).
  pose proof (Rpower_pos (INR (S n)) (- p)). lra.
Qed.

(** pdm_small_eps.py [power_sum_bound]: S(t) <= (p - t^(1-p))/(p - 1) for t >= 1. *)
Theorem power_sum_bound (p : R) (n : nat) :
  1 < p -> (1 <= n)%nat -> psum p n <= (p - Rpower (INR n) (1 - p)) / (p - 1).
Proof.
  intros Hp. induction n as [|n IH]; intros H1; [lia|].
  destruct n as [|n].
  - change (psum p 1) with (0 + Rpower (INR 1) (- p)). change (INR 1) with 1.
    rewrite !Rpower_one_base.
    apply Rmult_le_reg_l with (p - 1); [lra|].
    replace ((p - 1) * ((p - 1) / (p - 1))) with (p - 1) by (field; lra). lra.
  - specialize (IH ltac:(lia)).
    change (psum p (S (S n))) with (psum p (S n) + Rpower (INR (S (S n))) (- p)).
    rewrite (S_INR (S n)). set (T := INR (S n)) in *.
    assert (HT : 1 <= T) by (unfold T; replace 1 with (INR 1) by reflexivity; apply le_INR; lia).
    pose proof (tangent_gap T p HT Hp) as Hg.
    apply Rmult_le_reg_l with (p - 1); [lra|].
    replace ((p - 1) * ((p - Rpower (T + 1) (1 - p)) / (p - 1)))
      with (p - Rpower (T + 1) (1 - p)) by (field; lra).
    assert (IH' : (p - 1) * psum p (S n) <= p - Rpower T (1 - p)).
    { apply Rmult_le_reg_l with (/ (p - 1)); [apply Rinv_0_lt_compat; lra|].
      replace (/ (p - 1) * ((p - 1) * psum p (S n))) with (psum p (S n)) by (field; lra).
      replace (/ (p - 1) * (p - Rpower T (1 - p)))
        with ((p - Rpower T (1 - p)) / (p - 1)) by (field; lra).
      exact IH. }
    lra.
Qed.

(** S(t) <= p/(p - 1), as t^(1-p) > 0 (and S(0) = 0). *)
Theorem power_sum_le (p : R) (n : nat) : 1 < p -> psum p n <= p / (p - 1).
Proof.
  intros Hp. destruct n as [|n].
  - simpl. apply Rlt_le, Rdiv_lt_0_compat; lra.
  - pose proof (power_sum_bound p (S n) Hp ltac:(lia)).
    pose proof (Rpower_pos (INR (S n)) (1 - p)).
    assert ((p - Rpower (INR (S n)) (1 - p)) / (p - 1) <= p / (p - 1)).
    { unfold Rdiv. apply Rmult_le_compat_r; [apply Rlt_le, Rinv_0_lt_compat; lra | lra]. }
    lra.
Qed.

(** ** Step 3: the energy a(t) <= R^2 t^p S(t), an invariant of every PDM(eps') run with
    eps <= eps' <= 1 (pdm_small_eps.py [energy_small_eps]; p = 2 (1 - eps)). *)

Definition energy_small_inv (eps R2 : R) (s : state) : Prop :=
  norm2 (fst s) <= R2 * Rpower (INR (snd s)) (2 * (1 - eps)) * psum (2 * (1 - eps)) (snd s).

Lemma energy_small_init eps R2 : energy_small_inv eps R2 init.
Proof. unfold energy_small_inv, init, norm2; simpl; lra. Qed.

(** The induction step: (1 + p/t) t^p <= (t + 1)^p (Bernoulli at y = t, x = 1). *)
Lemma energy_small_step (t p R2 a a' S : R) :
  1 <= t -> 1 <= p -> 0 <= R2 -> 0 <= S ->
  a <= R2 * Rpower t p * S ->
  a' <= (1 + p / t) * a + R2 ->
  a' <= R2 * Rpower (t + 1) p * (S + Rpower (t + 1) (- p)).
Proof.
  intros Ht Hp HR HS Hih Hrec.
  pose proof (bernoulli t 1 p ltac:(lra) ltac:(lra) Hp) as Hb.
  rewrite Rpower_minus1 in Hb by lra.
  assert (Hb' : (1 + p / t) * Rpower t p <= Rpower (t + 1) p).
  { replace ((1 + p / t) * Rpower t p) with (Rpower t p + p * (Rpower t p / t) * 1)
      by (field; lra). lra. }
  assert (H1 : (1 + p / t) * a <= (1 + p / t) * (R2 * Rpower t p * S)).
  { apply Rmult_le_compat_l; [|exact Hih]. assert (0 <= p / t) by (apply Rlt_le, Rdiv_lt_0_compat; lra). lra. }
  assert (H2 : (1 + p / t) * (R2 * Rpower t p * S) <= R2 * Rpower (t + 1) p * S).
  { replace ((1 + p / t) * (R2 * Rpower t p * S)) with (R2 * S * ((1 + p / t) * Rpower t p)) by ring.
    replace (R2 * Rpower (t + 1) p * S) with (R2 * S * Rpower (t + 1) p) by ring.
    apply Rmult_le_compat_l; [apply Rmult_le_pos|]; lra. }
  assert (H3 : Rpower (t + 1) p * Rpower (t + 1) (- p) = 1).
  { rewrite <- Rpower_plus. replace (p + - p) with 0 by ring. apply Rpower_O. lra. }
  replace (R2 * Rpower (t + 1) p * (S + Rpower (t + 1) (- p)))
    with (R2 * Rpower (t + 1) p * S + R2 * (Rpower (t + 1) p * Rpower (t + 1) (- p))) by ring.
  rewrite H3. lra.
Qed.

Lemma energy_small_preserved zs eps eps' R2 :
  0 < eps -> eps < 1 / 2 -> eps <= eps' -> 0 <= R2 -> radius_bound zs R2 ->
  preserves (energy_small_inv eps R2) (pdm_step eps') zs.
Proof.
  intros He0 He He' HR0 HR s z Hz Hs. unfold energy_small_inv in *.
  specialize (HR z Hz). assert (Ha : 0 <= norm2 (fst s)) by apply norm2_nonneg.
  destruct (pdm_test eps' (fst s) (snd s) z) eqn:Et.
  2:{ unfold pdm_step; rewrite Et; exact Hs. }
  pose proof (pdm_step_recursion eps eps' R2 s z He' HR) as Hr.
  unfold pdm_step in *; rewrite Et in *; unfold update in *.
  destruct s as [w [|t]]; cbn [fst snd] in *.
  - (* t = 0: w = 0, so the new ||w||^2 is ||z||^2 <= R^2 = R^2 1^p S(1) *)
    simpl psum in Hs. rewrite Rmult_0_r in Hs. assert (Hw0 : norm2 w = 0) by lra.
    pose proof (cauchy_schwarz w z) as Hcs. unfold norm2 in *.
    assert (Hwz : dot w z = 0) by (rewrite Hw0 in Hcs; nra).
    rewrite norm2_vadd, Hw0, Hwz. simpl psum. change (INR 1) with 1.
    rewrite !Rpower_one_base. lra.
  - specialize (Hr ltac:(lia) eq_refl).
    change (psum (2 * (1 - eps)) (S (S t)))
      with (psum (2 * (1 - eps)) (S t) + Rpower (INR (S (S t))) (- (2 * (1 - eps)))).
    rewrite (S_INR (S t)).
    assert (HT : 1 <= INR (S t)) by (replace 1 with (INR 1) by reflexivity; apply le_INR; lia).
    apply (energy_small_step (INR (S t)) (2 * (1 - eps)) R2 (norm2 w)); auto using psum_nonneg.
    lra.
Qed.

Theorem pdm_energy_small zs eps R2 order :
  0 < eps -> eps < 1 / 2 -> 0 <= R2 -> radius_bound zs R2 -> valid_order zs order ->
  energy_small_inv eps R2 (pdm_run eps zs order).
Proof.
  intros He0 He HR0 HR Ho. unfold pdm_run, pdm_run_from.
  apply run_preserves; [| exact Ho | apply energy_small_init].
  apply energy_small_preserved; auto; lra.
Qed.

Theorem pdm_succ_energy_small zs eps R2 stages :
  0 < eps -> eps < 1 / 2 -> 0 <= R2 -> radius_bound zs R2 ->
  (forall st, In st stages -> eps <= fst st) -> valid_stages zs stages ->
  energy_small_inv eps R2 (pdm_succ zs stages).
Proof.
  intros He0 He HR0 HR Hs Hv. unfold pdm_succ.
  apply succ_preserves; [| exact Hv | apply energy_small_init].
  intros st Hst. apply energy_small_preserved; auto.
Qed.

(** ** Step 4: the bound *)

(** D1 (eps < 1/2) for every state with the progress and energy invariants, t >= 1:
    D3 and the energy with S(t) <= p/(p - 1) are [Theorems.D1_below_half]'s premises. *)
Theorem D1_below_half_state (p : vec) eps R2 s :
  0 < eps -> eps < 1 / 2 -> 0 < dot p p -> 0 < R2 -> (1 <= snd s)%nat ->
  progress_inv p s -> energy_small_inv eps R2 s ->
  INR (snd s) <= Rpower (R2 * (2 - 2 * eps) / (dot p p * (1 - 2 * eps))) (1 / (2 * eps)).
Proof.
  intros He0 He Hpp HR H1 Hs Hen. pose proof (D3_state p s Hpp Hs) as HD3.
  unfold energy_small_inv in Hen.
  assert (Ht : 1 <= INR (snd s)) by (replace 1 with (INR 1) by reflexivity; apply le_INR; exact H1).
  pose proof (power_sum_le (2 * (1 - eps)) (snd s) ltac:(lra)) as Hsum.
  eapply proj2. (* the bound; D1_below_half also says it is defined *)
  apply (D1_below_half (INR (snd s)) eps R2 (dot p p) (norm2 (fst s)) (psum (2 * (1 - eps)) (snd s)));
    try lra.
  - replace (2 - 2 * eps) with (2 * (1 - eps)) by ring. lra.
  - replace ((2 - 2 * eps) / (1 - 2 * eps)) with (2 * (1 - eps) / (2 * (1 - eps) - 1))
      by (field; lra). exact Hsum.
Qed.

(** pdm_small_eps.py [in_eps] / [final_small_eps]: the p-form of the same bound,
    p = 2 (1 - eps): p/(p - 1) = 2(1 - eps)/(1 - 2 eps) and 1/(2 - p) = 1/(2 eps). *)
Theorem D1_below_half_p_form (t p R2 g2 : R) :
  0 < t -> 1 < p < 2 -> 0 < R2 -> 0 < g2 ->
  Rpower (R2 * (2 - 2 * (1 - p / 2)) / (g2 * (1 - 2 * (1 - p / 2)))) (1 / (2 * (1 - p / 2)))
  = Rpower (p / (p - 1) * R2 / g2) (1 / (2 - p)).
Proof. intros Ht Hp HR Hg. f_equal; field; lra. Qed.

(** D1 (eps < 1/2) for every PDM(eps) run, in every order, once it has made an update:
    t <= (2 (1 - eps)/(1 - 2 eps) R^2/gamma^2)^(1/(2 eps)), gamma^2 = ||p||^2 for any
    certificate p, R^2 any bound on the ||z||^2. *)
Theorem D1_below_half_pdm zs p eps R2 order :
  certificate_condition zs p -> 0 < dot p p -> radius_bound zs R2 -> dot p p <= R2 ->
  0 < eps -> eps < 1 / 2 -> valid_order zs order ->
  (1 <= snd (pdm_run eps zs order))%nat ->
  INR (snd (pdm_run eps zs order)) <=
    Rpower (R2 * (2 - 2 * eps) / (dot p p * (1 - 2 * eps))) (1 / (2 * eps)).
Proof.
  intros Hc Hpp HR Hg He0 He Ho H1. apply D1_below_half_state; auto; try lra.
  - unfold pdm_run, pdm_run_from.
    apply run_preserves; auto using progress_init, progress_preserved, pdm_additive.
  - apply pdm_energy_small; auto; lra.
Qed.

(** ... and for every PDM-succ run whose stages all have eps <= eps_i (the final eps the
    smallest): its conditions are stricter than PDM(eps)'s. *)
Theorem D1_below_half_pdm_succ zs p eps R2 stages :
  certificate_condition zs p -> 0 < dot p p -> radius_bound zs R2 -> dot p p <= R2 ->
  0 < eps -> eps < 1 / 2 -> (forall st, In st stages -> eps <= fst st) ->
  valid_stages zs stages -> (1 <= snd (pdm_succ zs stages))%nat ->
  INR (snd (pdm_succ zs stages)) <=
    Rpower (R2 * (2 - 2 * eps) / (dot p p * (1 - 2 * eps))) (1 / (2 * eps)).
Proof.
  intros Hc Hpp HR Hg He0 He Hs Hv H1. apply D1_below_half_state; auto; try lra.
  - unfold pdm_succ. apply succ_preserves; auto using progress_init.
    intros st _; apply progress_preserved; auto using pdm_additive.
  - apply pdm_succ_energy_small; auto; lra.
Qed.

(** ** Non-vacuity: PDM(1/4) on exercise 6.1 ([Perceptron.ex61], gamma^2 = 2, R^2 = 9),
    one epoch: updates on z_1 (t = 0) and z_3; w = (2, 2, 0), t = 2, converged.
    The bound is (9 (3/2)/(2 (1/2)))^2 = 13.5^2 = 182.25. *)

Example pdm_quarter_run_example :
  pdm_run (1 / 4) ex61 ex_order = ([2; 2; 0], 2%nat) /\
  pdm_converged (1 / 4) ex61 ([2; 2; 0], 2%nat).
Proof.
  split.
  - unfold pdm_run, pdm_run_from, ex_order, ex61, presented, pattern, init. simpl.
    decide_tests.
  - intros z Hz. unfold ex61 in Hz.
    repeat destruct Hz as [Hz|Hz]; subst; try contradiction; apply pdm_step_keep; decide_test.
Qed.

Example D1_below_half_run_example :
  certificate_condition ex61 ex61_p /\ 0 < dot ex61_p ex61_p /\ radius_bound ex61 ex61_R2 /\
  dot ex61_p ex61_p <= ex61_R2 /\ valid_order ex61 ex_order /\
  (1 <= snd (pdm_run (1 / 4) ex61 ex_order))%nat /\
  INR (snd (pdm_run (1 / 4) ex61 ex_order)) <=
    Rpower (ex61_R2 * (2 - 2 * (1 / 4)) / (dot ex61_p ex61_p * (1 - 2 * (1 / 4)))) (1 / (2 * (1 / 4))) /\
  Rpower (ex61_R2 * (2 - 2 * (1 / 4)) / (dot ex61_p ex61_p * (1 - 2 * (1 / 4)))) (1 / (2 * (1 / 4)))
    = 729 / 4.
Proof.
  pose proof ex61_certificate as [_ [_ [_ [Hc Hpp]]]]. pose proof ex61_radius as [HR HR0].
  assert (Hg : dot ex61_p ex61_p <= ex61_R2) by (unfold ex61_p, ex61_R2; simpl; lra).
  pose proof ex_order_valid as Ho.
  destruct pdm_quarter_run_example as [E _].
  assert (Hb : Rpower (ex61_R2 * (2 - 2 * (1 / 4)) / (dot ex61_p ex61_p * (1 - 2 * (1 / 4))))
                 (1 / (2 * (1 / 4))) = 729 / 4).
  { replace (1 / (2 * (1 / 4))) with (INR 2) by (simpl; field).
    rewrite Rpower_pow by (unfold ex61_R2, ex61_p, dot; simpl; lra).
    unfold ex61_R2, ex61_p, dot; simpl. field. }
  split; [exact Hc|]. split; [exact Hpp|]. split; [exact HR|]. split; [exact Hg|].
  split; [exact Ho|]. split; [rewrite E; simpl; lia|]. split; [|exact Hb].
  apply D1_below_half_pdm; auto; try lra. rewrite E; simpl; lia.
Qed.
