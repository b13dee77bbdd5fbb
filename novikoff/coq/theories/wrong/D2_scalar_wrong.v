From Coq Require Import Reals List Lra Psatz Arith ZArith.
From Novikoff Require Import Vectors Perceptron LargeMargin Lemma1 MarginDistribution.
Import ListNotations.
Local Open Scope R_scope.

(** Wrong variant of [D2_scalar] (LargeMargin.v): D2: the dynamic bound 1% larger.
    The proof script is the true theorem's; this file must FAIL to compile. *)

Theorem D2_scalar_wrong (t eps s w_norm gamma : R) :
  0 < t -> 0 < eps -> 0 < s -> 0 < w_norm -> 0 < gamma ->
  t * s > (1 - eps) * w_norm ^ 2 ->
  w_norm >= t * gamma ->
  eps <= 1 ->
  s / w_norm > (1 - eps) * w_norm / t /\ (1 - eps) * w_norm / t >= 101 / 100 * ((1 - eps) * gamma).
Proof.
  intros Ht _ _ Hw _ Hno HD3 He. split.
  - apply Rmult_lt_reg_r with (w_norm * t); [nra|].
    unfold Rdiv. replace (s * / w_norm * (w_norm * t)) with (t * s) by (field; lra).
    replace ((1 - eps) * w_norm * / t * (w_norm * t)) with ((1 - eps) * w_norm ^ 2)
      by (field; lra). lra.
  - apply Rle_ge, Rmult_le_reg_r with t; [exact Ht|].
    unfold Rdiv. replace ((1 - eps) * w_norm * / t * t) with ((1 - eps) * w_norm) by (field; lra).
    nra.
Qed.
