From Coq Require Import Reals List Lra Psatz Arith ZArith.
From Novikoff Require Import Vectors Perceptron LargeMargin Lemma1 MarginDistribution.
Import ListNotations.
Local Open Scope R_scope.

(** [S2_spec_wrong] is false: at a = 1, u = v = 0 the product is 1, not 101/100. *)
Lemma S2_spec_wrong_is_false : ~ (forall (a : R) (u : R) (v : R),
  (a <> 0) ->
  (a + u * v <> 0) ->
  ((a + u * v) * (1 / a - (u * v / a ^ 2) / (1 + v * u / a)) = 101 / 100)).
Proof.
  intros H. specialize (H 1 0 0 ltac:(lra) ltac:(lra)).
  replace ((1 + 0 * 0) * (1 / 1 - 0 * 0 / 1 ^ 2 / (1 + 0 * 0 / 1))) with 1 in H by field. lra.
Qed.
