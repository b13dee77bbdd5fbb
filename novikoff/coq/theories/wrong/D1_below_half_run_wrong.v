From Coq Require Import Reals List Lra Psatz Arith ZArith.
From Novikoff Require Import Vectors Perceptron LargeMargin Lemma1 Theorems SmallEps.
Import ListNotations.
Local Open Scope R_scope.

(** Wrong variant of the last step of [D1_below_half_state] / [D1_below_half_pdm]
    (SmallEps.v): D1 (eps < 1/2) with the bound 1% smaller (too good).  The step is
    stated on the scalars the run provides (D3: gamma^2 t^2 <= a; the energy
    a <= R^2 S t^p, p = 2 (1 - eps); S <= p/(p - 1)), because there the bound is attained
    (t = 9, eps = 1/4, R^2 = gamma^2 = 1: wrong/counterexamples/D1_below_half_run_wrong_is_false.v);
    for actual runs the bound is loose (2 updates against 182.25 in SmallEps.v's example),
    so the same 1% change stated about runs could not be refuted by a concrete run.
    The proof script is the true step's; this file must FAIL to compile. *)

Theorem D1_below_half_run_wrong : forall (t eps R2 gamma2 a_t s_t : R),
  0 < t -> 0 < eps -> 0 < R2 -> 0 < gamma2 -> eps < 1 / 2 ->
  gamma2 * t ^ 2 <= a_t ->
  a_t <= R2 * s_t * Rpower t (2 - 2 * eps) ->
  s_t <= (2 - 2 * eps) / (1 - 2 * eps) ->
  t <= 99 / 100 * Rpower (R2 * (2 - 2 * eps) / (gamma2 * (1 - 2 * eps))) (1 / (2 * eps)).
Proof.
  intros t eps R2 g2 a s Ht He HR Hg Hlt HD3 Hen Hs.
  apply (D1_below_half t eps R2 g2 a s); assumption.
Qed.
