From Coq Require Import Reals List Lra Psatz Arith ZArith.
From Novikoff Require Import Vectors Perceptron LargeMargin Lemma1 MarginDistribution.
Import ListNotations.
Local Open Scope R_scope.

(** Wrong variant of [S1_spec] (MarginDistribution.v): S1: the right side 1% larger.
    The proof script is the true theorem's; this file must FAIL to compile. *)

Theorem S1_spec_wrong : forall (theta : R) (m : R),
  (0 < theta) ->
  (theta > 0) ->
  ((Rmax 0 (1 - m / theta)) ^ 2 = 101 / 100 * ((Rmax 0 (theta - m)) ^ 2 / theta ^ 2)).
Proof.
  intros theta m Ht _. unfold Rmax.
  destruct (Rle_dec 0 (1 - m / theta)) as [h1|h1]; destruct (Rle_dec 0 (theta - m)) as [h2|h2].
  - field. lra.
  - exfalso. apply h2. apply Rmult_le_reg_r with (/ theta); [apply Rinv_0_lt_compat; lra|].
    replace ((theta - m) * / theta) with (1 - m / theta) by (field; lra). lra.
  - exfalso. apply h1. replace (1 - m / theta) with ((theta - m) / theta) by (field; lra).
    apply Rmult_le_pos; [lra|]. apply Rlt_le, Rinv_0_lt_compat; lra.
  - field. lra.
Qed.
