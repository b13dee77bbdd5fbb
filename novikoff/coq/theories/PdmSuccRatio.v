(** * DS1: PDM-succ's stage ratio bound, mirroring novikoff/proofs/pdm/succ_ratio.py.

    Spec correspondence (novikoff/spec/pdm.py, id DS1, [pdm_succ_stage_updates_ratio_pow_le]).
    With p = 2 (1 - eps), a = ||w_t||^2 and a0 = ||w_t0||^2, the premises are
    - [previous]: a0 (1 - eps')^2 <= t0^2 gamma^2 (the previous stage's D2 at t0, gamma the
      maximum margin);
    - [energy]: a <= t^p (a0 t0^(2 eps - 2) + R^2 t0^(2 eps - 1)/(1 - 2 eps)) (the PDM
      recursion telescoped from t0);
    - [D3]: t^2 gamma^2 <= a;
    and the conclusion is t^(2 eps) <= t0^(2 eps) (1/(1 - eps')^2 + R^2/((1 - 2 eps) gamma^2 t0)),
    i.e. (t/t0)^(2 eps) <= 1/(1 - eps')^2 + R^2/((1 - 2 eps) gamma^2 t0).
    The Python certificate is gamma^2 t^p (B - A) = D3 + energy + t^p t0^-p (1 - eps')^-2 previous;
    here the same three facts are combined after dividing by t^p > 0. *)

From Coq Require Import Reals Lra Psatz.
From Novikoff Require Import Statements.
Local Open Scope R_scope.

Lemma ds1_Rpower_pos (x y : R) : 0 < Rpower x y.
Proof. unfold Rpower; apply exp_pos. Qed.

Lemma ds1_Rpower_two (x : R) : 0 < x -> Rpower x 2 = x * x.
Proof.
  intros Hx. replace 2 with (INR 2) by (simpl; lra).
  rewrite Rpower_pow by exact Hx. simpl. ring.
Qed.

(** t^(2 - 2 eps) t^(2 eps) = t^2 *)
Lemma ds1_split (t e : R) : 0 < t -> Rpower t (2 - 2 * e) * Rpower t (2 * e) = t * t.
Proof.
  intros Ht. rewrite <- Rpower_plus. replace (2 - 2 * e + 2 * e) with 2 by ring.
  apply ds1_Rpower_two; exact Ht.
Qed.

(** t0^(2 eps - 2) = t0^(2 eps) / t0^2 and t0^(2 eps - 1) = t0^(2 eps) / t0 *)
Lemma ds1_minus2 (t0 e : R) : 0 < t0 -> Rpower t0 (2 * e - 2) * (t0 * t0) = Rpower t0 (2 * e).
Proof.
  intros H. rewrite <- ds1_Rpower_two by exact H. rewrite <- Rpower_plus.
  f_equal; ring.
Qed.

Lemma ds1_minus1 (t0 e : R) : 0 < t0 -> Rpower t0 (2 * e - 1) * t0 = Rpower t0 (2 * e).
Proof.
  intros H. rewrite <- (Rpower_1 t0) at 2 by exact H. rewrite <- Rpower_plus.
  f_equal; ring.
Qed.

Theorem pdm_succ_stage_updates_ratio_pow_le
    (t t0 eps eps_prev R2 gamma2 a_t a_t0 : R) :
  0 < eps -> eps < 1 / 2 -> 0 < eps_prev -> eps_prev < 1 -> 1 <= t0 -> 1 <= t ->
  0 < R2 -> 0 < gamma2 ->
  a_t0 * (1 - eps_prev) ^ 2 <= t0 ^ 2 * gamma2 ->
  a_t <= Rpower t (2 - 2 * eps)
         * (a_t0 * Rpower t0 (2 * eps - 2) + R2 * Rpower t0 (2 * eps - 1) / (1 - 2 * eps)) ->
  t ^ 2 * gamma2 <= a_t ->
  Rpower t (2 * eps)
    <= Rpower t0 (2 * eps) * (1 / (1 - eps_prev) ^ 2 + R2 / ((1 - 2 * eps) * gamma2 * t0)).
Proof.
  intros He He2 Hp Hp1 Ht0 Ht HR Hg Hprev Henergy HD3.
  set (P := Rpower t (2 - 2 * eps)).
  set (E := Rpower t (2 * eps)).
  set (E0 := Rpower t0 (2 * eps)).
  assert (HP : 0 < P) by apply ds1_Rpower_pos.
  assert (HE0 : 0 < E0) by apply ds1_Rpower_pos.
  assert (HPE : P * E = t * t) by (apply ds1_split; lra).
  assert (Hq2 : Rpower t0 (2 * eps - 2) = E0 / (t0 * t0)).
  { pose proof (ds1_minus2 t0 eps ltac:(lra)) as H. fold E0 in H.
    field_simplify_eq; [lra | nra]. }
  assert (Hq1 : Rpower t0 (2 * eps - 1) = E0 / t0).
  { pose proof (ds1_minus1 t0 eps ltac:(lra)) as H. fold E0 in H.
    field_simplify_eq; lra. }
  rewrite Hq2, Hq1 in Henergy. fold P in Henergy.
  set (d := 1 - eps_prev). assert (Hd : 0 < d) by (unfold d; lra).
  set (c := 1 - 2 * eps). assert (Hc : 0 < c) by (unfold c; lra).
  fold d in Hprev. fold c in Henergy.
  (* P E gamma2 = t^2 gamma2 <= a_t <= P (a0 E0 / t0^2 + R2 E0 / (t0 c)) *)
  assert (H1 : P * (E * gamma2) <= P * (a_t0 * (E0 / (t0 * t0)) + R2 * (E0 / t0) / c)).
  { replace (P * (E * gamma2)) with (t ^ 2 * gamma2) by (simpl; nra). lra. }
  apply Rmult_le_reg_l in H1; [|exact HP].
  (* a0 E0 / t0^2 <= E0 gamma2 / d^2 *)
  assert (Ha0 : a_t0 * (E0 / (t0 * t0)) <= E0 * gamma2 / (d * d)).
  { assert (Ht0p : 0 < t0 * t0) by nra. assert (Hdd : 0 < d * d) by nra.
    assert (a_t0 <= t0 * t0 * gamma2 / (d * d)).
    { apply (Rmult_le_reg_r (d * d)); [exact Hdd|].
      replace (t0 * t0 * gamma2 / (d * d) * (d * d)) with (t0 ^ 2 * gamma2) by (field; lra).
      replace (a_t0 * (d * d)) with (a_t0 * d ^ 2) by ring. exact Hprev. }
    replace (E0 * gamma2 / (d * d)) with ((t0 * t0 * gamma2 / (d * d)) * (E0 / (t0 * t0)))
      by (field; split; lra).
    apply Rmult_le_compat_r; [|exact H].
    apply Rlt_le, Rdiv_lt_0_compat; lra. }
  assert (H2 : E * gamma2 <= E0 * gamma2 / (d * d) + R2 * (E0 / t0) / c) by lra.
  apply (Rmult_le_reg_r gamma2); [exact Hg|].
  replace (E0 * (1 / d ^ 2 + R2 / (c * gamma2 * t0)) * gamma2)
    with (E0 * gamma2 / (d * d) + R2 * (E0 / t0) / c) by (field; repeat split; lra).
  exact H2.
Qed.

(** ** The printed statement [DS1_statement] (novikoff/spec/pdm.py, PDM_SUCC_RATIO)

    The printed premises are those of [pdm_succ_stage_updates_ratio_pow_le] up to the order
    of factors and summands; the printed conclusion groups the ratio as
    t0^(2 eps) (R^2/(gamma^2 t0 (1 - 2 eps)) + 1/(1 - eps')^2) and first asserts that its
    divisions are defined, which the domains give. *)
Theorem DS1 : DS1_statement.
Proof.
  unfold DS1_statement.
  intros t t0 eps eps_prev R2 gamma2 a_t a_t0 t_pos t0_pos eps_pos eps_prev_pos R2_pos
    gamma2_pos a_t0_nonneg eps_lt_half eps_prev_lt_1 t0_ge_1 t_ge_1 previous energy D3.
  split.
  { repeat split; lra. }
  assert (ratio := pdm_succ_stage_updates_ratio_pow_le t t0 eps eps_prev R2 gamma2 a_t a_t0
    eps_pos eps_lt_half eps_prev_pos eps_prev_lt_1 ltac:(lra) ltac:(lra) R2_pos gamma2_pos
    ltac:(lra) ltac:(lra) ltac:(lra)).
  replace (R2 / (gamma2 * t0 * (1 - 2 * eps)) + / (1 - eps_prev) ^ 2)
    with (1 / (1 - eps_prev) ^ 2 + R2 / ((1 - 2 * eps) * gamma2 * t0)).
  - exact ratio.
  - field. repeat split; try lra.
Qed.

(** Non-vacuity: a stage of t = t0 = 1 update with eps = eps' = 1/4, R^2 = gamma^2 = 1 and
    ||w_t||^2 = ||w_t0||^2 = 1 meets every premise (t^(2 - 2 eps) = 1 and t0^s = 1). *)
Lemma ds1_Rpower_one_base (y : R) : Rpower 1 y = 1.
Proof. unfold Rpower. rewrite ln_1, Rmult_0_r. exact exp_0. Qed.

Example DS1_example : DS1_hypotheses 1 1 (1 / 4) (1 / 4) 1 1 1 1.
Proof.
  unfold DS1_hypotheses.
  rewrite !ds1_Rpower_one_base.
  repeat split; lra.
Qed.
