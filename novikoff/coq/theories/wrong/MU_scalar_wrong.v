From Coq Require Import Reals List Lra Psatz Arith ZArith.
From Novikoff Require Import Vectors Perceptron LargeMargin Lemma1 MarginDistribution.
Import ListNotations.
Local Open Scope R_scope.

(** Wrong variant of [MU_scalar] (LargeMargin.v): MU: the n^2 coefficient 1% off.
    The proof script is the true theorem's; this file must FAIL to compile. *)

Theorem MU_scalar_wrong (n t eps p q l : R) :
  0 < n -> 0 < t -> 0 < eps ->
  (t + n) * (p + n * q) - (1 - eps) * (l + 2 * n * p + n ^ 2 * q) =
  101 / 100 * eps * q * n ^ 2 + (t * q - (1 - 2 * eps) * p) * n - ((1 - eps) * l - t * p).
Proof. intros; ring. Qed.
