From Coq Require Import Reals List Lra Psatz Arith ZArith.
From Novikoff Require Import Vectors Perceptron LargeMargin Lemma1 MarginDistribution.
Import ListNotations.
Local Open Scope R_scope.

(** Wrong variant of [D1_above_half_scalar] (LargeMargin.v): D1 (eps > 1/2): the bound 1% smaller.
    The proof script is the true theorem's; this file must FAIL to compile. *)

Theorem D1_above_half_scalar_wrong (t eps R2 gamma2 a_t : R) :
  0 < t -> 0 < eps -> 0 < R2 -> 0 < gamma2 ->
  eps > 1 / 2 -> eps <= 1 ->
  t >= 1 ->
  a_t <= R2 * t / (2 * eps - 1) ->
  t ^ 2 * gamma2 <= a_t ->
  t <= 99 / 100 * (R2 / ((2 * eps - 1) * gamma2)).
Proof.
  intros Ht _ _ Hg Hh _ _ Hen HD3.
  assert (Hd : 0 < 2 * eps - 1) by lra.
  assert (Hk : t ^ 2 * gamma2 <= R2 * t / (2 * eps - 1)) by lra.
  apply Rmult_le_reg_l with (t * ((2 * eps - 1) * gamma2)); [apply Rmult_lt_0_compat; nra|].
  replace (t * ((2 * eps - 1) * gamma2) * (R2 / ((2 * eps - 1) * gamma2))) with (t * R2)
    by (field; nra).
  replace (t * ((2 * eps - 1) * gamma2) * t) with ((2 * eps - 1) * (t ^ 2 * gamma2)) by ring.
  apply Rle_trans with ((2 * eps - 1) * (R2 * t / (2 * eps - 1))).
  - apply Rmult_le_compat_l; lra.
  - right; field; lra.
Qed.
