From Coq Require Import Reals List Lra Psatz Arith ZArith.
From Novikoff Require Import Vectors Perceptron LargeMargin Lemma1 MarginDistribution.
Import ListNotations.
Local Open Scope R_scope.

(** [S1_spec_wrong] is false: at theta = 1, m = 0 both sides are 1 and 101/100. *)
Lemma S1_spec_wrong_is_false : ~ (forall (theta : R) (m : R),
  (0 < theta) ->
  (theta > 0) ->
  ((Rmax 0 (1 - m / theta)) ^ 2 = 101 / 100 * ((Rmax 0 (theta - m)) ^ 2 / theta ^ 2))).
Proof.
  intros H. specialize (H 1 0 ltac:(lra) ltac:(lra)).
  replace (1 - 0 / 1) with 1 in H by field. replace (1 - 0) with 1 in H by ring.
  rewrite Rmax_right in H by lra. lra.
Qed.
