(** * R1: ROMMA's mistake bound (Li and Long 2002), kernel-checked.

    [R1_statement] is printed from the sympy spec ([novikoff.spec.romma.R1]) into
    [Statements.v]. The run is indexed by mistakes j: [w2 j] = ||w||^2 after the j-th
    mistake's update ([w2 0 = 0]), [v2 j], [wz j], [z2 j] = ||w||^2, w.z, ||z||^2 right before
    the next one. [romma_energy]: every mistake raises ||w||^2 by at least 1/R^2, so
    R^2 ||w_k||^2 >= k; with gamma^2 ||w_k||^2 <= 1 this is k gamma^2 <= R^2.

    The run these sequences come from is [RommaRun.romma] (ROMMA on labelled data, the
    closed-form update); [RommaBridge.R1_bridge] proves that it satisfies the premises, so
    [RommaBridge.R1_run] states the bound of the run itself.

    The proof script of [R1] sits between its [Theorem] line and [Qed.] (the wrong-variant
    test replays it against broken statements). *)

From Coq Require Import Reals Lra Psatz Arith Lia.
From Novikoff Require Import Statements.
Local Open Scope R_scope.

Lemma romma_growth (d wz z2 R2 : R) :
  d * z2 >= (1 - wz) ^ 2 -> wz <= 0 -> z2 > 0 -> z2 <= R2 -> R2 * d >= 1.
Proof.
  intros Hs Hw Hp Hr.
  assert (H1 : (1 - wz) ^ 2 >= 1) by nra.
  assert (Hd : d > 0) by nra.
  nra.
Qed.

Lemma romma_energy (v2 w2 wz z2 : nat -> R) (R2 : R) :
  w2 0%nat = 0 ->
  (forall j : nat, v2 j >= w2 j) ->
  (forall j : nat, (- v2 j + w2 (j + 1)%nat) * z2 j >= (1 - wz j) ^ 2) ->
  (forall j : nat, wz j <= 0) ->
  (forall j : nat, z2 j > 0) ->
  (forall j : nat, z2 j <= R2) ->
  forall k : nat, R2 * w2 k >= INR k.
Proof.
  intros H0 Hm Hs Hw Hp Hr k. induction k as [|k IH].
  - rewrite H0. simpl. lra.
  - rewrite S_INR.
    assert (Hg := romma_growth (- v2 k + w2 (k + 1)%nat) (wz k) (z2 k) R2 (Hs k) (Hw k) (Hp k) (Hr k)).
    rewrite Nat.add_1_r in Hg.
    assert (HR : R2 > 0) by (specialize (Hp k); specialize (Hr k); lra).
    specialize (Hm k). nra.
Qed.

Theorem R1 : R1_statement.
Proof.
  unfold R1_statement.
  intros k g2 R2 v2 w2 wz z2 Hg HR _ _ _ H0 Hm Hs Hw Hp Hr Hmin.
  assert (HE := romma_energy v2 w2 wz z2 R2 H0
    (fun j => Hm j (Nat.le_0_l j)) (fun j => Hs j (Nat.le_0_l j))
    (fun j => Hw j (Nat.le_0_l j)) (fun j => Hp j (Nat.le_0_l j))
    (fun j => Hr j (Nat.le_0_l j)) k).
  nra.
Qed.

Example R1_example : R1_hypotheses 1 1 1 (fun j => INR j) (fun j => INR j) (fun _ => 0) (fun _ => 1).
Proof.
  unfold R1_hypotheses. repeat split; simpl; try lra.
  - intros j _. lra.
  - intros j _. rewrite plus_INR. simpl. lra.
  - intros j _. lra.
  - intros j _. lra.
  - intros j _. lra.
Qed.
