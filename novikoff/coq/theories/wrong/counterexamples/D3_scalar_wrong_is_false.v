From Coq Require Import Reals List Lra Psatz Arith ZArith.
From Novikoff Require Import Vectors Perceptron LargeMargin Lemma1 MarginDistribution.
Import ListNotations.
Local Open Scope R_scope.

(** [D3_scalar_wrong] (wrong/D3_scalar_wrong.v) is false: t = gamma^2 = ||w||^2 = p.w = 1
    meets every hypothesis, and 101/100 <= 1 fails. *)
Lemma D3_scalar_wrong_is_false : ~ (forall t gamma2 w_norm2 pstar_dot_w : R,
  0 < t -> 0 < gamma2 -> 0 <= w_norm2 ->
  t >= 1 -> gamma2 > 0 ->
  pstar_dot_w >= t * gamma2 ->
  pstar_dot_w ^ 2 <= gamma2 * w_norm2 ->
  101 / 100 * (t ^ 2 * gamma2) <= w_norm2).
Proof. intros H. specialize (H 1 1 1 1). lra. Qed.
