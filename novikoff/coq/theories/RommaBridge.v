(** * R1's bridge: the printed statement speaks about ROMMA's run on labelled data.

    [R1_bridge : R1_statement -> R1_run_statement] fills the printed statement's symbols
    with the run's quantities (k = the run's mistakes, gamma2 = ||p*||^2, the hull's minimum
    by [certificate_min_norm], R2 = [radius2 rho D]) and its premise functions with the
    sequences [RommaRun.romma_premises] gives for the run's k mistakes: [w2 j] = ||w||^2
    after the j-th mistake's update, [v2 j], [wz j], [z2 j] = ||w||^2, w.z, ||z||^2 at
    mistake j + 1. The printed premises are stated for every j, so past the k-th mistake
    the sequences continue as a run making a mistake with w.z = 0 on a pattern of squared
    norm R^2 (||w||^2 growing by exactly 1/R^2 each time). minnorm is
    gamma^2 ||w_k||^2 <= 1 ([RommaRun.romma_separable]: w.u >= ||w||^2 for
    u = p*/||p*||^2). The conclusion k gamma^2 <= R^2 is the run theorem's; that the run
    never stops is [romma_separable]'s. [R1_run] is the bridge applied to [Romma.R1]. *)

From Coq Require Import Reals List Lra Psatz Arith Lia.
From Novikoff Require Import Vectors Perceptron Labelled RommaRun.
From Novikoff Require Import Statements Romma RunStatements.
Import ListNotations.
Local Open Scope R_scope.

(** The printed statement is used by its names, never by the printer's order (as in
    [Bridges]): [use_printed H] discharges the premises of [H] from hypotheses of the
    context, in whatever order the printer lists them; [conclude_with H] proves the goal. *)
Local Ltac use_printed H :=
  repeat match type of H with
  | ?P -> _ => specialize (H ltac:(assumption))
  end.
Local Ltac conclude_with H := first [exact H | exact (proj2 H) | apply H | apply (proj2 H)].

Theorem R1_bridge : R1_statement -> R1_run_statement.
Proof.
  intros R1_printed D rho rule order lam p gamma2 Hr Hval Hcert Hmin.
  assert (Hg : gamma2 = dot p p).
  { eapply min_norm_sq_unique; [exact Hmin|]. eapply certificate_min_norm; exact Hcert. }
  pose proof Hcert as [_ [_ [_ [_ Hpp]]]].
  pose proof (radius2_pos rho D lam p Hcert) as HR2.
  destruct (unit_margin_spec rho D lam p Hcert) as [Hu _].
  destruct (romma_separable rho rule D order lam p Hr Hval Hcert) as [Hs Hmn].
  destruct (romma_premises rho rule D (unit_margin p) Hr Hu order Hval)
    as [_ [_ [v2 [w2 [wz [z2 [H0 [Hj Hlast]]]]]]]].
  split; [exact Hs|].
  unfold romma_mistakes, romma_weights in *.
  set (k := rmistakes (romma rho rule D order)) in *.
  set (R2 := radius2 rho D) in *.
  set (W2 := fun j => if Nat.leb j k then w2 j else w2 k + INR (j - k) / R2).
  set (V2 := fun j => if Nat.ltb j k then v2 j else W2 j).
  set (WZ := fun j => if Nat.ltb j k then wz j else 0).
  set (Z2 := fun j => if Nat.ltb j k then z2 j else R2).
  assert (Hpast : forall j, (k <= j)%nat -> W2 j = w2 k + INR (j - k) / R2).
  { intros j Hkj. unfold W2. destruct (Nat.leb_spec j k) as [Hjk|Hjk]; [|reflexivity].
    replace j with k by lia. rewrite Nat.sub_diag. simpl. unfold Rdiv. ring. }
  (* each premise as a hypothesis named after the printer's comment *)
  assert (H_domain_gamma2 : 0 < gamma2) by lra.
  assert (H_domain_R2 : 0 < R2) by exact HR2.
  assert (H_k_nonneg : INR k >= 0) by (apply Rle_ge, pos_INR).
  assert (H_gamma2_pos : gamma2 > 0) by lra.
  assert (H_R2_pos : R2 > 0) by lra.
  assert (H_w0 : W2 0%nat = 0) by (unfold W2; simpl; exact H0).
  assert (H_monotone : forall j : nat, (0 <= j)%nat -> V2 j >= W2 j).
  { intros j _. unfold V2. destruct (Nat.ltb_spec j k) as [Hjk|Hjk]; [|lra].
    unfold W2. destruct (Nat.leb_spec j k); [|lia]. apply (Hj j Hjk). }
  assert (H_step : forall j : nat, (0 <= j)%nat -> (- V2 j + W2 (j + 1)%nat) * Z2 j >= (1 - WZ j) ^ 2).
  { intros j _. unfold V2, WZ, Z2. rewrite Nat.add_1_r.
    destruct (Nat.ltb_spec j k) as [Hjk|Hjk].
    - unfold W2. destruct (Nat.leb_spec (S j) k); [|lia]. apply (Hj j Hjk).
    - rewrite (Hpast (S j)) by lia. rewrite (Hpast j) by exact Hjk.
      replace (S j - k)%nat with (S (j - k)) by lia. rewrite S_INR.
      replace ((- (w2 k + INR (j - k) / R2) + (w2 k + (INR (j - k) + 1) / R2)) * R2)
        with 1 by (field; lra).
      lra. }
  assert (H_mistake : forall j : nat, (0 <= j)%nat -> WZ j <= 0).
  { intros j _. unfold WZ. destruct (Nat.ltb_spec j k) as [Hjk|Hjk]; [|lra]. apply (Hj j Hjk). }
  assert (H_pattern : forall j : nat, (0 <= j)%nat -> Z2 j > 0).
  { intros j _. unfold Z2. destruct (Nat.ltb_spec j k) as [Hjk|Hjk]; [|lra]. apply (Hj j Hjk). }
  assert (H_radius : forall j : nat, (0 <= j)%nat -> Z2 j <= R2).
  { intros j _. unfold Z2. destruct (Nat.ltb_spec j k) as [Hjk|Hjk]; [|lra]. apply (Hj j Hjk). }
  assert (H_minnorm : gamma2 * W2 k <= 1).
  { unfold W2. rewrite Nat.leb_refl. rewrite Hg.
    assert (dot p p * w2 k <= dot p p * norm2 (rw (romma rho rule D order)))
      by (apply Rmult_le_compat_l; lra).
    lra. }
  (* the printed statement by its names: symbols by name, premises from the hypotheses *)
  rewrite Rmult_comm.
  hnf in R1_printed. specialize R1_printed with (k := k) (gamma2 := gamma2) (R2 := R2)
    (v2 := V2) (w2 := W2) (wz := WZ) (z2 := Z2).
  use_printed R1_printed.
  conclude_with R1_printed.
Qed.

Theorem R1_run : R1_run_statement.
Proof. exact (R1_bridge Romma.R1). Qed.
