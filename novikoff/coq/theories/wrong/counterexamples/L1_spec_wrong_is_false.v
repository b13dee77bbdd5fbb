From Coq Require Import Reals List Lra Psatz Arith ZArith.
From Novikoff Require Import Vectors Perceptron LargeMargin Lemma1 MarginDistribution.
Import ListNotations.
Local Open Scope R_scope.

(** [L1_spec_wrong] is false at Lemma 1's tight point: delta = 1, C = e - ln(1 + e),
    t = 1 + e.  Then C + ln t + 1 = 1 + e = t, e^-C = (1 + e)/e^e < 1 (e^e > 1 + e), and the
    bound (1 + 1/e)(C + ln(1 + e)) = (1 + 1/e) e = 1 + e = t, so t <= (99/100) t fails. *)
Lemma L1_spec_wrong_is_false : ~ (forall (t : R) (delta : R) (C : R),
  (0 < t) ->
  (0 < delta) ->
  (t >= (exp (- C))) ->
  (delta > (exp (- C))) ->
  (t <= (delta * (C + (ln t) + 1))) ->
  (t <= 99 / 100 * (delta * (C + (ln (delta * (1 + (exp 1))))) * ((exp (- 1)) + 1)))).
Proof.
  intros H. pose proof (exp_pos 1) as He. set (e := exp 1) in *.
  assert (Hee : 1 + e < exp e) by (apply exp_ineq1; lra).
  assert (EC : exp (- (e - ln (1 + e))) = (1 + e) / exp e).
  { replace (- (e - ln (1 + e))) with (ln (1 + e) + - e) by ring.
    rewrite exp_plus, exp_ln, exp_Ropp by lra. reflexivity. }
  assert (Hq : (1 + e) / exp e < 1).
  { apply Rmult_lt_reg_r with (exp e); [apply exp_pos|].
    unfold Rdiv. rewrite Rmult_assoc, Rinv_l by (apply Rgt_not_eq, exp_pos). lra. }
  assert (Hq0 : 0 < (1 + e) / exp e) by (apply Rdiv_lt_0_compat; [lra | apply exp_pos]).
  specialize (H (1 + e) 1 (e - ln (1 + e))). rewrite EC in H.
  repeat rewrite Rmult_1_l in H. rewrite exp_m1 in H. fold e in H.
  assert (Hb : (e - ln (1 + e) + ln (1 + e)) * (/ e + 1) = 1 + e) by (field; lra).
  rewrite Hb in H. lra.
Qed.
