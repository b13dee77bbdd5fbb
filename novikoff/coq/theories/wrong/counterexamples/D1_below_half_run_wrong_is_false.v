From Coq Require Import Reals List Lra Psatz Arith ZArith.
From Novikoff Require Import Vectors Perceptron LargeMargin Lemma1 Theorems SmallEps.
Import ListNotations.
Local Open Scope R_scope.

(** [D1_below_half_run_wrong] is false where the bound is attained: eps = 1/4 (p = 3/2,
    p/(p - 1) = 3), R^2 = gamma^2 = 1, t = 9, S = 3, a = 81 = 1 * 3 * 9^(3/2); the bound is
    3^2 = 9 = t, so 9 <= (99/100) 9 fails. *)
Lemma D1_below_half_run_wrong_is_false : ~ (forall (t eps R2 gamma2 a_t s_t : R),
  0 < t -> 0 < eps -> 0 < R2 -> 0 < gamma2 -> eps < 1 / 2 ->
  gamma2 * t ^ 2 <= a_t ->
  a_t <= R2 * s_t * Rpower t (2 - 2 * eps) ->
  s_t <= (2 - 2 * eps) / (1 - 2 * eps) ->
  t <= 99 / 100 * Rpower (R2 * (2 - 2 * eps) / (gamma2 * (1 - 2 * eps))) (1 / (2 * eps))).
Proof.
  intros H. specialize (H 9 (1 / 4) 1 1 81 3).
  assert (E1 : Rpower 9 (2 - 2 * (1 / 4)) = 27).
  { replace (2 - 2 * (1 / 4)) with (INR 1 + / 2) by (simpl; field).
    rewrite Rpower_plus, Rpower_pow, Rpower_sqrt by lra.
    replace 9 with (3 * 3) by ring. rewrite sqrt_square by lra. ring. }
  assert (E2 : Rpower (1 * (2 - 2 * (1 / 4)) / (1 * (1 - 2 * (1 / 4)))) (1 / (2 * (1 / 4))) = 9).
  { replace (1 / (2 * (1 / 4))) with (INR 2) by (simpl; field).
    rewrite Rpower_pow by lra. field. }
  rewrite E1, E2 in H. specialize (H ltac:(lra) ltac:(lra) ltac:(lra) ltac:(lra) ltac:(lra)
    ltac:(lra) ltac:(lra) ltac:(lra)). lra.
Qed.
