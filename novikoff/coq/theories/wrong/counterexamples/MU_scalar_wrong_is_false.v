From Coq Require Import Reals List Lra Psatz Arith ZArith.
From Novikoff Require Import Vectors Perceptron LargeMargin Lemma1 MarginDistribution.
Import ListNotations.
Local Open Scope R_scope.

(** [MU_scalar_wrong] is false: at n = t = eps = q = 1, p = l = 0 the left side is 2 and
    the right side 201/100. *)
Lemma MU_scalar_wrong_is_false : ~ (forall n t eps p q l : R,
  0 < n -> 0 < t -> 0 < eps ->
  (t + n) * (p + n * q) - (1 - eps) * (l + 2 * n * p + n ^ 2 * q) =
  101 / 100 * eps * q * n ^ 2 + (t * q - (1 - 2 * eps) * p) * n - ((1 - eps) * l - t * p)).
Proof. intros H. specialize (H 1 1 1 0 1 0 ltac:(lra) ltac:(lra) ltac:(lra)). lra. Qed.
