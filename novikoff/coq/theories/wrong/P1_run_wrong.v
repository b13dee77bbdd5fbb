From Coq Require Import Reals List Lra Psatz Arith ZArith.
From Novikoff Require Import Vectors Perceptron LargeMargin Lemma1 PfmBound.
Import ListNotations.
Local Open Scope R_scope.

(** Wrong variant of [P1_delta_form] (PfmBound.v), the last step of [P1_state] / [P1_pfm]:
    P1 with the bound (1 + 1/e) delta (C + ln((1 + e) delta)) 1% smaller (too good).  The
    step is stated on the scalars the run provides (the lemma form
    t <= delta (1 + C + ln t)), because there the bound is attained (R^2 = gamma^2 = 1,
    t = e^(e-2): wrong/counterexamples/P1_run_wrong_is_false.v); for actual runs the bound
    is loose (2 updates against about 22.5 in PfmBound.v's example), so the same 1% change
    stated about runs could not be refuted by a concrete run.
    The proof script is the true step's; this file must FAIL to compile. *)

Theorem P1_run_wrong : forall (t eps R2 g2 : R),
  0 < t -> 0 < eps -> eps <= 1 -> 0 < g2 -> g2 <= R2 ->
  t <= p1_delta R2 g2 eps * (1 + p1_C R2 g2 + ln t) ->
  t <= 99 / 100 * p1_bound R2 g2 eps.
Proof.
  intros t eps R2 g2 Ht He He1 Hg HgR Hlf. assert (HR : 0 < R2) by lra.
  rewrite <- p1_bound_spec_form by lra.
  pose proof (sqrt_lt_R0 _ HR). pose proof (sqrt_lt_R0 _ Hg).
  apply (P1_spec t eps (sqrt R2) (sqrt g2)); try lra.
  - apply sqrt_le_1_alt; lra.
  - rewrite !pow2_sqrt by lra. unfold p1_delta, p1_C in Hlf.
    replace (R2 * (ln t + 1 + 2 * sqrt g2 / sqrt R2) / (2 * eps * g2))
      with (R2 / (2 * eps * g2) * (1 + 2 * sqrt g2 / sqrt R2 + ln t))
      by (field; repeat split; lra).
    exact Hlf.
Qed.
