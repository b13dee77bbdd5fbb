From Coq Require Import Reals List Lra Psatz Arith ZArith.
From Novikoff Require Import Vectors Perceptron LargeMargin Lemma1 MarginDistribution.
Import ListNotations.
Local Open Scope R_scope.

(** Wrong variant of [S2_spec] (MarginDistribution.v): S2: the product 1% off the identity.
    The proof script is the true theorem's; this file must FAIL to compile. *)

Theorem S2_spec_wrong : forall (a : R) (u : R) (v : R),
  (a <> 0) ->
  (a + u * v <> 0) ->
  ((a + u * v) * (1 / a - (u * v / a ^ 2) / (1 + v * u / a)) = 101 / 100).
Proof.
  intros a u v Ha Hd.
  assert (H1 : 1 + v * u / a <> 0).
  { intros E. apply Hd. replace (a + u * v) with (a * (1 + v * u / a)) by (field; exact Ha).
    rewrite E; ring. }
  field. split; [exact Ha|]. rewrite (Rmult_comm v u). exact Hd.
Qed.
