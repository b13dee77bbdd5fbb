From Coq Require Import Reals List Lra Psatz Arith ZArith.
From Novikoff Require Import Vectors Perceptron LargeMargin Lemma1 MarginDistribution.
Import ListNotations.
Local Open Scope R_scope.

(** [D2_scalar_wrong] is false: t = s = ||w|| = gamma = 1, eps = 1/2 meets every hypothesis
    ((1 - eps)||w||/t = gamma (1 - eps) = 1/2), and 1/2 >= 101/200 fails. *)
Lemma D2_scalar_wrong_is_false : ~ (forall t eps s w_norm gamma : R,
  0 < t -> 0 < eps -> 0 < s -> 0 < w_norm -> 0 < gamma ->
  t * s > (1 - eps) * w_norm ^ 2 ->
  w_norm >= t * gamma ->
  eps <= 1 ->
  s / w_norm > (1 - eps) * w_norm / t /\ (1 - eps) * w_norm / t >= 101 / 100 * ((1 - eps) * gamma)).
Proof.
  intros H. destruct (H 1 (1 / 2) 1 1 1) as [_ H2]; lra.
Qed.
