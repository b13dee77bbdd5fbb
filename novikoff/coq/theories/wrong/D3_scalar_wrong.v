From Coq Require Import Reals List Lra Psatz Arith ZArith.
From Novikoff Require Import Vectors Perceptron LargeMargin Lemma1 MarginDistribution.
Import ListNotations.
Local Open Scope R_scope.

(** Wrong variant of [D3_scalar] (LargeMargin.v): D3: t^2 gamma^2 <= ||w||^2 with the left side 1% larger.
    The proof script is the true theorem's; this file must FAIL to compile. *)

Theorem D3_scalar_wrong (t gamma2 w_norm2 pstar_dot_w : R) :
  0 < t -> 0 < gamma2 -> 0 <= w_norm2 ->
  t >= 1 -> gamma2 > 0 ->
  pstar_dot_w >= t * gamma2 ->
  pstar_dot_w ^ 2 <= gamma2 * w_norm2 ->
  101 / 100 * (t ^ 2 * gamma2) <= w_norm2.
Proof.
  intros Ht Hg _ _ _ Hp Hcs.
  assert (H0 : 0 <= t * gamma2) by nra.
  assert (H1 : (t * gamma2) * (t * gamma2) <= pstar_dot_w * pstar_dot_w)
    by (apply Rmult_le_compat; lra).
  apply Rmult_le_reg_l with gamma2; [exact Hg|].
  replace (gamma2 * (t ^ 2 * gamma2)) with ((t * gamma2) * (t * gamma2)) by ring.
  replace (pstar_dot_w ^ 2) with (pstar_dot_w * pstar_dot_w) in Hcs by ring. lra.
Qed.
