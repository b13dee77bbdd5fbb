From Coq Require Import Reals List Lra Psatz Arith ZArith.
From Novikoff Require Import Vectors Perceptron LargeMargin Lemma1 MarginDistribution.
Import ListNotations.
Local Open Scope R_scope.

(** Wrong variant of [L1_spec] (Lemma1.v): L1: the bound 1% smaller.
    The proof script is the true theorem's; this file must FAIL to compile. *)

Theorem L1_spec_wrong : forall (t : R) (delta : R) (C : R),
  (0 < t) ->
  (0 < delta) ->
  (t >= (exp (- C))) ->
  (delta > (exp (- C))) ->
  (t <= (delta * (C + (ln t) + 1))) ->
  (t <= 99 / 100 * (delta * (C + (ln (delta * (1 + (exp 1))))) * ((exp (- 1)) + 1))).
Proof. intros t delta C Ht Hd _ Hb Hyp. apply L1_weak; auto; lra. Qed.
