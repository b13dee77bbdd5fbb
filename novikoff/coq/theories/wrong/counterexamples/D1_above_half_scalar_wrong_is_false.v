From Coq Require Import Reals List Lra Psatz Arith ZArith.
From Novikoff Require Import Vectors Perceptron LargeMargin Lemma1 MarginDistribution.
Import ListNotations.
Local Open Scope R_scope.

(** [D1_above_half_scalar_wrong] is false: t = eps = R^2 = gamma^2 = a_t = 1 meets every
    hypothesis (the bound R^2/((2 eps - 1) gamma^2) = 1 is attained), and 1 <= 99/100 fails. *)
Lemma D1_above_half_scalar_wrong_is_false : ~ (forall t eps R2 gamma2 a_t : R,
  0 < t -> 0 < eps -> 0 < R2 -> 0 < gamma2 ->
  eps > 1 / 2 -> eps <= 1 ->
  t >= 1 ->
  a_t <= R2 * t / (2 * eps - 1) ->
  t ^ 2 * gamma2 <= a_t ->
  t <= 99 / 100 * (R2 / ((2 * eps - 1) * gamma2))).
Proof.
  intros H. specialize (H 1 1 1 1 1).
  replace (1 * 1 / (2 * 1 - 1)) with 1 in H by field.
  replace (1 / ((2 * 1 - 1) * 1)) with 1 in H by field. lra.
Qed.
