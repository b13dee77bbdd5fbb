From Coq Require Import Reals List Lra Psatz Arith ZArith.
From Novikoff Require Import Vectors Perceptron LargeMargin Lemma1 MarginDistribution.
Import ListNotations.
Local Open Scope R_scope.

(** Numerics: e >= 2.68 (e = (e^(1/40))^40 >= (41/40)^40) and 1 + e <= 2 e^(e - 2)
    (e^y = (e^(y/3))^3 >= (1 + y/3)^3 with y = e - 2 >= 0.68). *)
Lemma exp_nat (n : nat) (x : R) : exp (INR n * x) = exp x ^ n.
Proof.
  induction n as [|n IH]; [simpl; rewrite Rmult_0_l; apply exp_0|].
  rewrite S_INR, Rmult_plus_distr_r, Rmult_1_l, exp_plus, IH. simpl. ring.
Qed.

Lemma e_ge : 268 / 100 <= exp 1.
Proof.
  replace 1 with (INR 40 * (1 / 40)) by (simpl; field).
  rewrite exp_nat. pose proof (exp_ineq1_le (1 / 40)).
  apply Rle_trans with ((1 + 1 / 40) ^ 40); [lra | apply pow_incr; lra].
Qed.

Lemma one_plus_e_le : 1 + exp 1 <= 2 * exp (exp 1 - 2).
Proof.
  pose proof e_ge as He. set (y := exp 1 - 2).
  replace (exp 1) with (y + 2) by (unfold y; ring).
  replace y with (INR 3 * (y / 3)) at 2 by (simpl; field).
  rewrite exp_nat. pose proof (exp_ineq1_le (y / 3)).
  assert (Hy : 68 / 100 <= y) by (unfold y; lra).
  apply Rle_trans with (2 * (1 + y / 3) ^ 3); [nra|].
  apply Rmult_le_compat_l; [lra|]. apply pow_incr. lra.
Qed.

(** [P1_spec_wrong] is false at Lemma 1's tight point: R = gamma = 1 (C = 2),
    eps = (1 + e)/(2 e^(e - 2)) (<= 1 by [one_plus_e_le]), t = e^(e - 2):
    delta = 1/(2 eps) = t/(1 + e), so the lemma form delta (ln t + 1 + 2) = delta (1 + e) = t
    holds with equality, and the bound delta (1 + 1/e) (ln((1 + e) delta) + 2) =
    delta (1 + 1/e) e = t; t <= (99/100) t fails. *)
Lemma P1_spec_wrong_is_false : ~ (forall (t : R) (eps : R) (R_ : R) (gamma : R),
  (0 < t) ->
  (0 < eps) ->
  (0 < R_) ->
  (0 < gamma) ->
  (eps > 0) ->
  (eps <= 1) ->
  (gamma <= R_) ->
  (t <= ((R_ ^ 2) * ((ln t) + 1 + (2 * gamma / R_)) / (2 * eps * (gamma ^ 2)))) ->
  (t <= 99 / 100 * ((R_ ^ 2) * ((exp (- 1)) + 1) * ((ln ((R_ ^ 2) * (1 + (exp 1)) / (2 * eps * (gamma ^ 2)))) + (2 * gamma / R_)) / (2 * eps * (gamma ^ 2))))).
Proof.
  intros H. pose proof (exp_pos 1) as He. pose proof one_plus_e_le as Hk.
  set (e := exp 1) in *. set (T := exp (e - 2)) in *.
  assert (HT : 0 < T) by apply exp_pos.
  assert (Heps : 0 < (1 + e) / (2 * T)) by (apply Rdiv_lt_0_compat; lra).
  assert (Heps1 : (1 + e) / (2 * T) <= 1).
  { apply Rmult_le_reg_r with (2 * T); [lra|]. unfold Rdiv.
    rewrite Rmult_assoc, Rinv_l by lra. lra. }
  specialize (H T ((1 + e) / (2 * T)) 1 1 HT Heps ltac:(lra) ltac:(lra) Heps Heps1 ltac:(lra)).
  assert (Ea : 1 ^ 2 * (1 + e) / (2 * ((1 + e) / (2 * T)) * 1 ^ 2) = T) by (field; lra).
  rewrite Ea in H. rewrite exp_m1 in H. fold e in H.
  assert (EL : ln T = e - 2) by (unfold T; apply ln_exp).
  rewrite EL in H.
  assert (E1 : 1 ^ 2 * (e - 2 + 1 + 2 * 1 / 1) / (2 * ((1 + e) / (2 * T)) * 1 ^ 2) = T)
    by (field; lra).
  assert (E2 : 1 ^ 2 * (/ e + 1) * (e - 2 + 2 * 1 / 1) / (2 * ((1 + e) / (2 * T)) * 1 ^ 2) = T)
    by (field; lra).
  rewrite E1, E2 in H. specialize (H (Rle_refl T)). lra.
Qed.
