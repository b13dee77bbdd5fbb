From Coq Require Import Reals List Lra Psatz Arith ZArith.
From Novikoff Require Import Vectors Perceptron LargeMargin Lemma1 PfmBound.
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

(** [P1_run_wrong] is false at Lemma 1's tight point: R^2 = gamma^2 = 1 (C = 2),
    eps = (1 + e)/(2 e^(e - 2)) (<= 1 by [one_plus_e_le]), t = e^(e - 2): delta = t/(1 + e),
    the lemma form delta (1 + 2 + ln t) = delta (1 + e) = t holds with equality and the
    bound (1 + 1/e) delta (2 + ln((1 + e) delta)) = (1 + 1/e) delta e = t. *)
Lemma P1_run_wrong_is_false : ~ (forall (t eps R2 g2 : R),
  0 < t -> 0 < eps -> eps <= 1 -> 0 < g2 -> g2 <= R2 ->
  t <= p1_delta R2 g2 eps * (1 + p1_C R2 g2 + ln t) ->
  t <= 99 / 100 * p1_bound R2 g2 eps).
Proof.
  intros H. pose proof (exp_pos 1) as He. pose proof one_plus_e_le as Hk.
  set (e := exp 1) in *. set (T := exp (e - 2)) in *.
  assert (HT : 0 < T) by apply exp_pos.
  assert (Heps : 0 < (1 + e) / (2 * T)) by (apply Rdiv_lt_0_compat; lra).
  assert (Heps1 : (1 + e) / (2 * T) <= 1).
  { apply Rmult_le_reg_r with (2 * T); [lra|]. unfold Rdiv.
    rewrite Rmult_assoc, Rinv_l by lra. lra. }
  specialize (H T ((1 + e) / (2 * T)) 1 1 HT Heps Heps1 ltac:(lra) ltac:(lra)).
  unfold p1_bound, p1_delta, p1_C in H. rewrite sqrt_1 in H.
  assert (Ed : 1 / (2 * ((1 + e) / (2 * T)) * 1) = T / (1 + e)) by (field; lra).
  rewrite Ed in H.
  assert (EL : ln T = e - 2) by (unfold T; apply ln_exp).
  assert (EL' : ln ((1 + e) * (T / (1 + e))) = e - 2).
  { replace ((1 + e) * (T / (1 + e))) with T by (field; lra). exact EL. }
  fold e in H. rewrite EL, EL' in H.
  assert (E1 : T / (1 + e) * (1 + 2 * 1 / 1 + (e - 2)) = T) by (field; lra).
  assert (E2 : (1 + / e) * (T / (1 + e)) * (2 * 1 / 1 + (e - 2)) = T) by (field; lra).
  rewrite E1, E2 in H. specialize (H (Rle_refl T)). lra.
Qed.
