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
  rewrite Rmult_comm.
  apply (R1_printed k gamma2 R2 V2 W2 WZ Z2).
  - (* domain of gamma2 *) lra.
  - (* domain of R2 *) exact HR2.
  - (* k_nonneg *) apply Rle_ge, pos_INR.
  - (* gamma2_pos *) lra.
  - (* R2_pos *) exact HR2.
  - (* w0 *) unfold W2. simpl. exact H0.
  - (* monotone *) intros j _. unfold V2. destruct (Nat.ltb_spec j k) as [Hjk|Hjk]; [|lra].
    unfold W2. destruct (Nat.leb_spec j k); [|lia]. apply (Hj j Hjk).
  - (* step *) intros j _. unfold V2, WZ, Z2. rewrite Nat.add_1_r.
    destruct (Nat.ltb_spec j k) as [Hjk|Hjk].
    + unfold W2. destruct (Nat.leb_spec (S j) k); [|lia]. apply (Hj j Hjk).
    + rewrite (Hpast (S j)) by lia. rewrite (Hpast j) by exact Hjk.
      replace (S j - k)%nat with (S (j - k)) by lia. rewrite S_INR.
      replace ((- (w2 k + INR (j - k) / R2) + (w2 k + (INR (j - k) + 1) / R2)) * R2)
        with 1 by (field; lra).
      lra.
  - (* mistake *) intros j _. unfold WZ. destruct (Nat.ltb_spec j k) as [Hjk|Hjk]; [|lra].
    apply (Hj j Hjk).
  - (* pattern *) intros j _. unfold Z2. destruct (Nat.ltb_spec j k) as [Hjk|Hjk]; [|lra].
    apply (Hj j Hjk).
  - (* radius *) intros j _. unfold Z2. destruct (Nat.ltb_spec j k) as [Hjk|Hjk]; [|lra].
    apply (Hj j Hjk).
  - (* minnorm *) unfold W2. rewrite Nat.leb_refl. rewrite Hg.
    assert (dot p p * w2 k <= dot p p * norm2 (rw (romma rho rule D order)))
      by (apply Rmult_le_compat_l; lra).
    lra.
Qed.

Theorem R1_run : R1_run_statement.
Proof. exact (R1_bridge Romma.R1). Qed.
