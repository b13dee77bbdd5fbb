From Coq Require Import Reals List Lra Psatz Arith ZArith.
From Novikoff Require Import Vectors Perceptron LargeMargin Lemma1 MarginDistribution.
Import ListNotations.
Local Open Scope R_scope.

(** Wrong variant of [P1_spec] (Lemma1.v): P1: the bound 1% smaller.
    The proof script is the true theorem's; this file must FAIL to compile. *)

Theorem P1_spec_wrong : forall (t : R) (eps : R) (R_ : R) (gamma : R),
  (0 < t) ->
  (0 < eps) ->
  (0 < R_) ->
  (0 < gamma) ->
  (eps > 0) ->
  (eps <= 1) ->
  (gamma <= R_) ->
  (t <= ((R_ ^ 2) * ((ln t) + 1 + (2 * gamma / R_)) / (2 * eps * (gamma ^ 2)))) ->
  (t <= 99 / 100 * ((R_ ^ 2) * ((exp (- 1)) + 1) * ((ln ((R_ ^ 2) * (1 + (exp 1)) / (2 * eps * (gamma ^ 2)))) + (2 * gamma / R_)) / (2 * eps * (gamma ^ 2)))).
Proof.
  intros t eps Rr gamma Ht He HR Hg _ He1 HgR Hlf. pose proof (exp_pos 1) as HE.
  assert (HR2 : 0 < Rr ^ 2) by (apply pow_lt; lra).
  assert (Hg2 : 0 < 2 * eps * gamma ^ 2) by (assert (0 < gamma ^ 2) by (apply pow_lt; lra); nra).
  assert (Hd : 0 < Rr ^ 2 / (2 * eps * gamma ^ 2)) by (apply Rdiv_lt_0_compat; lra).
  (* small_x at x = gamma/R in [0, 1] *)
  assert (Hx0 : 0 < gamma / Rr) by (apply Rdiv_lt_0_compat; lra).
  assert (Hx : 0 <= gamma / Rr <= 1).
  { split; [lra|].
    apply Rmult_le_reg_r with Rr; [lra|]. replace (gamma / Rr * Rr) with gamma by (field; lra). lra. }
  pose proof (small_x_bound (gamma / Rr) Hx) as Hsx.
  (* delta_big: delta >= e^-C, since (2 eps gamma^2/R^2)(delta - e^-C) = (1 - 2x^2 e^-2x) +
     2 x^2 e^-2x (1 - eps) *)
  assert (Hdb : Rr ^ 2 / (2 * eps * gamma ^ 2) >= exp (- (2 * gamma / Rr))).
  { assert (EC : exp (- (2 * gamma / Rr)) = exp (- 2 * (gamma / Rr))) by (f_equal; field; lra).
    assert (Ed : Rr ^ 2 / (2 * eps * gamma ^ 2) = / (2 * eps * (gamma / Rr) ^ 2))
      by (field; lra).
    rewrite EC, Ed. pose proof (exp_pos (- 2 * (gamma / Rr))) as Hp.
    set (x := gamma / Rr) in *.
    assert (Hx2 : 0 < x ^ 2) by (apply pow_lt; lra).
    apply Rle_ge. apply Rmult_le_reg_l with (2 * eps * x ^ 2); [nra|].
    rewrite Rinv_r by nra.
    assert (0 <= 2 * x ^ 2 * exp (- 2 * x)) by (apply Rmult_le_pos; nra).
    assert (2 * eps * x ^ 2 * exp (- 2 * x) <= 2 * x ^ 2 * exp (- 2 * x)) by nra.
    lra. }
  assert (Hhyp : t <= Rr ^ 2 / (2 * eps * gamma ^ 2) * (2 * gamma / Rr + ln t + 1)).
  { replace (Rr ^ 2 / (2 * eps * gamma ^ 2) * (2 * gamma / Rr + ln t + 1))
      with (Rr ^ 2 * (ln t + 1 + 2 * gamma / Rr) / (2 * eps * gamma ^ 2)) by (field; lra).
    exact Hlf. }
  pose proof (L1_weak t _ _ Ht Hd Hdb Hhyp) as H.
  replace (Rr ^ 2 / (2 * eps * gamma ^ 2) * (1 + exp 1))
    with (Rr ^ 2 * (1 + exp 1) / (2 * eps * gamma ^ 2)) in H by (field; lra).
  replace (Rr ^ 2 * (exp (- 1) + 1) * (ln (Rr ^ 2 * (1 + exp 1) / (2 * eps * gamma ^ 2)) + 2 * gamma / Rr)
             / (2 * eps * gamma ^ 2))
    with (Rr ^ 2 / (2 * eps * gamma ^ 2) * (2 * gamma / Rr + ln (Rr ^ 2 * (1 + exp 1) / (2 * eps * gamma ^ 2)))
          * (exp (- 1) + 1)) by (field; lra).
  exact H.
Qed.
