From Coq Require Import Reals List Lra Psatz Arith ZArith.
From Novikoff Require Import Vectors Perceptron LargeMargin Lemma1 MarginDistribution.
Import ListNotations.
Local Open Scope R_scope.

(** [D1_half_spec_wrong] is false at the tight point: gamma^2 = 1, R^2 = e^e/(1 + e),
    t = e^e, a_t = t^2 = R^2 t (ln t + 1); the bound R^2 (1 + 1/e) ln((1 + e) R^2) equals
    (e^e/(1 + e)) ((1 + e)/e) e = e^e = t, so t <= (99/100) t fails. *)
Lemma D1_half_spec_wrong_is_false : ~ (forall (t : R) (R2 : R) (gamma2 : R) (a_t : R),
  (0 < t) ->
  (0 < R2) ->
  (0 < gamma2) ->
  (gamma2 <= R2) ->
  ((gamma2 * (t ^ 2)) <= a_t) ->
  (a_t <= (R2 * t * ((ln t) + 1))) ->
  (t <= 99 / 100 * (R2 * ((exp (- 1)) + 1) * (ln (R2 * (1 + (exp 1)) / gamma2)) / gamma2))).
Proof.
  intros H. pose proof (exp_pos 1) as He. set (e := exp 1) in *.
  pose proof (exp_pos e) as Hee0. assert (Hee : 1 + e <= exp e) by apply exp_ineq1_le.
  specialize (H (exp e) (exp e / (1 + e)) 1 (exp e ^ 2)).
  replace (exp e / (1 + e) * (1 + e) / 1) with (exp e) in H by (field; lra).
  rewrite ln_exp, exp_m1 in H. fold e in H.
  replace (exp e / (1 + e) * (/ e + 1) * e / 1) with (exp e) in H by (field; lra).
  assert (exp e ^ 2 <= exp e / (1 + e) * exp e * (e + 1)).
  { right. field. lra. }
  assert (1 <= exp e / (1 + e)).
  { apply Rmult_le_reg_r with (1 + e); [lra|]. unfold Rdiv.
    rewrite Rmult_assoc, Rinv_l by lra. lra. }
  assert (0 < exp e / (1 + e)) by (apply Rdiv_lt_0_compat; lra).
  specialize (H Hee0 ltac:(lra) ltac:(lra) ltac:(lra) ltac:(lra)). lra.
Qed.
