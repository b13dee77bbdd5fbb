From Coq Require Import Reals List Lra Psatz Arith ZArith.
From Novikoff Require Import Vectors Perceptron LargeMargin Lemma1 MarginDistribution.
Import ListNotations.
Local Open Scope R_scope.

(** Wrong variant of [D1_half_spec] (Lemma1.v): D1 (eps = 1/2): the bound 1% smaller.
    The proof script is the true theorem's; this file must FAIL to compile. *)

Theorem D1_half_spec_wrong : forall (t : R) (R2 : R) (gamma2 : R) (a_t : R),
  (0 < t) ->
  (0 < R2) ->
  (0 < gamma2) ->
  (gamma2 <= R2) ->
  ((gamma2 * (t ^ 2)) <= a_t) ->
  (a_t <= (R2 * t * ((ln t) + 1))) ->
  (t <= 99 / 100 * (R2 * ((exp (- 1)) + 1) * (ln (R2 * (1 + (exp 1)) / gamma2)) / gamma2)).
Proof.
  intros t R2 g2 a Ht HR Hg Hgr HD3 Hen. pose proof (exp_pos 1) as He.
  (* lemma_hyp: t <= (R2/g2)(1 + ln t) *)
  assert (Hhyp : t <= R2 / g2 * (0 + ln t + 1)).
  { apply Rmult_le_reg_l with (t * g2); [nra|].
    replace (t * g2 * (R2 / g2 * (0 + ln t + 1))) with (R2 * t * (ln t + 1)) by (field; lra).
    nra. }
  assert (Hd : R2 / g2 >= exp (- 0)).
  { rewrite Ropp_0, exp_0. apply Rle_ge. apply Rmult_le_reg_l with g2; [lra|].
    replace (g2 * (R2 / g2)) with R2 by (field; lra). lra. }
  pose proof (L1_weak t (R2 / g2) 0 Ht ltac:(apply Rdiv_lt_0_compat; lra) Hd Hhyp) as H.
  replace (R2 / g2 * (1 + exp 1)) with (R2 * (1 + exp 1) / g2) in H by (field; lra).
  replace (R2 * (exp (- 1) + 1) * ln (R2 * (1 + exp 1) / g2) / g2)
    with (R2 / g2 * (0 + ln (R2 * (1 + exp 1) / g2)) * (exp (- 1) + 1)) by (field; lra).
  exact H.
Qed.
