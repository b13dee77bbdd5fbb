(** * The spec's theorems, kernel-checked: [Theorem <NAME> : <NAME>_statement.]

    Each [<NAME>_statement] is generated from the sympy spec by novikoff.coq.printer
    ([Statements.v]), so what is proved here is exactly the spec's statement: its
    hypotheses and premises (facts about the run) imply its conclusion.  The perceptron
    family applies the algorithm-level development ([Perceptron.v], [Invariance.v]):
    the premises are the scalar recurrences that [N1_progress], [N2_energy] and
    [N3_mistake_bound] discharge for every run in every dimension.

    When a statement's conclusion divides, or takes [ln], [sqrt] or a real power, the
    printer asserts with it that it is defined (sympy's meaning: the obligation claims the
    conclusion holds and is defined), as a first conjunct [(* defined *) ... /\]: each proof
    first establishes those side conditions from the hypotheses ([- (* defined *)]), then
    the bound.

    Each theorem is followed by an [Example <NAME>_example : <NAME>_hypotheses ...]
    instantiating all of its hypotheses with concrete numbers and functions, so no
    theorem holds vacuously.

    Every proof script sits between its [Theorem] line and [Qed.]: the wrong-variant
    test (tests/test_coq_wrong_variants.py) re-runs the same script against broken
    statements and requires it to fail. *)

From Coq Require Import Reals Lra Psatz Arith Lia.
From Novikoff Require Import Vectors Perceptron Invariance Statements.
From Novikoff Require LargeMargin.
Local Open Scope R_scope.

(** ** Small lemmas *)

Lemma Rmax0_div (x th : R) : 0 < th -> Rmax 0 (x / th) = Rmax 0 x / th.
Proof.
  intros Ht. assert (Hi : 0 < / th) by (apply Rinv_0_lt_compat; lra).
  unfold Rmax, Rdiv.
  destruct (Rle_dec 0 (x * / th)) as [h1|h1]; destruct (Rle_dec 0 x) as [h2|h2];
    try reflexivity.
  - exfalso. nra.
  - exfalso. nra.
  - ring.
Qed.

Lemma Rpower_base1 (y : R) : Rpower 1 y = 1.
Proof. unfold Rpower. rewrite ln_1, Rmult_0_r. apply exp_0. Qed.

(** ** N1 N2 N3: Novikoff's theorem *)

Theorem N1 : N1_statement.
Proof.
  unfold N1_statement. intros k g2 pdw pw pz _ _ _ H0 HS Hz Hv.
  assert (H : pw k >= INR k * g2).
  { apply N1_scalar with pz; [exact H0 | |].
    - intros j. rewrite <- Nat.add_1_r. apply HS. lia.
    - intros j. apply Hz. lia. }
  rewrite Hv. lra.
Qed.

Example N1_example : N1_hypotheses 2 1 2 (fun j => INR j) (fun _ => 1).
Proof.
  unfold N1_hypotheses. repeat split; simpl; try lra.
  all: intros j _; rewrite ?plus_INR; simpl; lra.
Qed.

Theorem N2 : N2_statement.
Proof.
  unfold N2_statement. intros k R2 wn2 w2 wz z2 _ _ _ _ H0 HS Hwz Hz2 Hv.
  assert (H : w2 k <= INR k * R2).
  { apply N2_scalar with wz z2; [exact H0 | | |].
    - intros j. rewrite <- Nat.add_1_r. apply HS. lia.
    - intros j. apply Hwz. lia.
    - intros j. apply Hz2. lia. }
  rewrite Hv. lra.
Qed.

Example N2_example : N2_hypotheses 2 1 2 (fun j => INR j) (fun _ => 0) (fun _ => 1).
Proof.
  unfold N2_hypotheses. repeat split; simpl; try lra.
  all: intros j _; rewrite ?plus_INR; simpl; lra.
Qed.

Theorem N3 : N3_statement.
Proof.
  unfold N3_statement. intros k g2 R2 pdw wn2 Hg HR _ _ _ _ H1 H2 Hcs.
  destruct (Nat.eq_0_gt_0_cases k) as [Hk|Hk].
  - subst k. simpl. lra.
  - apply lt_0_INR in Hk.
    assert (H := N3_scalar (INR k) g2 pdw wn2 R2 Hk Hg ltac:(lra) Hcs ltac:(lra)).
    lra.
Qed.

Example N3_example : N3_hypotheses 1 1 1 1 1.
Proof. unfold N3_hypotheses. simpl. lra. Qed.

(** ** T1: tightness *)

Theorem T1 : T1_statement.
Proof.
  unfold T1_statement. intros n k R2 g2 Hn _ Hg2 HR Hg Hk. split.
  - (* defined *) lra.
  - rewrite Hk, HR, Hg. apply lt_0_INR in Hn. field. lra.
Qed.

Example T1_example : T1_hypotheses 3 3 1 (/ INR 3).
Proof.
  unfold T1_hypotheses. repeat split; try lia; try lra.
  apply Rinv_0_lt_compat, lt_0_INR. lia.
Qed.

(** ** G1: invariances *)

Theorem G1_scale : G1_scale_statement.
Proof.
  unfold G1_scale_statement. intros c s Hc _.
  pose proof (G1_scale_scalar c s Hc). tauto.
Qed.

Example G1_scale_example : G1_scale_hypotheses 2 (-1).
Proof. unfold G1_scale_hypotheses. lra. Qed.

Theorem G1_rotate : G1_rotate_statement.
Proof.
  unfold G1_rotate_statement. intros a w1 w2 z1 z2.
  assert (Ha : a ^ 2 + 1 <> 0) by nra.
  split.
  - (* defined *) exact Ha.
  - field. exact Ha.
Qed.

Example G1_rotate_example : G1_rotate_hypotheses (1 / 2) 1 2 3 4.
Proof. exact I. Qed.

Theorem G1_pad : G1_pad_statement.
Proof.
  unfold G1_pad_statement. intros w1 w2 w3 z1 z2 z3 Hz. rewrite Hz. ring.
Qed.

Example G1_pad_example : G1_pad_hypotheses 1 2 3 4 5 0.
Proof. unfold G1_pad_hypotheses. reflexivity. Qed.

Theorem G1_add_point : G1_add_point_statement.
Proof.
  unfold G1_add_point_statement.
  intros c g2 R2 g2n R2n zd zn _ _ _ _ _ _ Hc Hg Hr Hzn Hzd Hcert. split.
  - apply Hcert. rewrite Hzd. nra.
  - rewrite Hr, Hzn. reflexivity.
Qed.

Example G1_add_point_example : G1_add_point_hypotheses 2 1 1 1 4 2 4.
Proof.
  unfold G1_add_point_hypotheses. repeat split; try lra.
  unfold Rmax. destruct (Rle_dec 1 4); lra.
Qed.

(** ** M1: the multiclass perceptron through the Kesler construction *)

Theorem M1 : M1_statement.
Proof.
  unfold M1_statement. intros k R2 gK2 kdw kwn2 HR Hg _ _ _ H1 H2 Hcs.
  destruct (Nat.eq_0_gt_0_cases k) as [Hk|Hk].
  - subst k. simpl. lra.
  - apply lt_0_INR in Hk.
    assert (H := N3_scalar (INR k) gK2 kdw kwn2 (2 * R2) Hk Hg ltac:(lra) Hcs ltac:(lra)).
    lra.
Qed.

Example M1_example : M1_hypotheses 1 1 1 1 1.
Proof. unfold M1_hypotheses. simpl. lra. Qed.

(** ** D3 D2 D1 (eps > 1/2, eps < 1/2): PDM *)

Theorem D3 : D3_statement.
Proof.
  unfold D3_statement. intros t g2 wn2 pdw Ht Hg Hw Ht1 Hg' Hp Hcs.
  rewrite Rmult_comm. apply (LargeMargin.D3_scalar t g2 wn2 pdw Ht Hg Hw Ht1 Hg'); [|exact Hcs].
  rewrite Rmult_comm. exact Hp.
Qed.

Example D3_example : D3_hypotheses 1 1 1 1.
Proof. unfold D3_hypotheses. lra. Qed.

Theorem D2 : D2_statement.
Proof.
  unfold D2_statement. intros t eps s wn g Ht He Hw Hg Hnu HD3 He1. split; [|split].
  - (* defined *) split; lra.
  - assert (E : s / wn - wn * (1 - eps) / t = (s * t - wn ^ 2 * (1 - eps)) / (wn * t))
      by (field; lra).
    assert (P : 0 < (s * t - wn ^ 2 * (1 - eps)) / (wn * t))
      by (apply Rdiv_lt_0_compat; nra).
    lra.
  - assert (E : wn * (1 - eps) / t - g * (1 - eps) = (1 - eps) * (wn - g * t) * / t)
      by (field; lra).
    assert (P : 0 <= (1 - eps) * (wn - g * t) * / t).
    { apply Rmult_le_pos; [nra | left; apply Rinv_0_lt_compat; lra]. }
    lra.
Qed.

Example D2_example : D2_hypotheses 1 (1 / 2) 1 1 1.
Proof. unfold D2_hypotheses. lra. Qed.

Theorem D1_above_half : D1_above_half_statement.
Proof.
  unfold D1_above_half_statement. intros t eps R2 g2 a Ht He HR Hg Hh He1 Ht1 Hen HD3.
  split; [(* defined *) split; lra|].
  rewrite (Rmult_comm g2).
  apply (LargeMargin.D1_above_half_scalar t eps R2 g2 a Ht He HR Hg Hh He1 Ht1 Hen).
  rewrite Rmult_comm. exact HD3.
Qed.

Example D1_above_half_example : D1_above_half_hypotheses 1 1 1 1 1.
Proof. unfold D1_above_half_hypotheses. repeat split; try lra. Qed.

Theorem D1_below_half : D1_below_half_statement.
Proof.
  unfold D1_below_half_statement.
  intros t eps R2 g2 a s Ht He HR Hg Hlt HD3 Hen Hs.
  assert (Hb : 0 < R2 * (2 - 2 * eps) / (g2 * (1 - 2 * eps)))
    by (apply Rdiv_lt_0_compat; nra).
  split; [(* defined *) repeat split; lra|].
  set (B := (2 - 2 * eps) / (1 - 2 * eps)) in *.
  set (P := Rpower t (2 - 2 * eps)) in *.
  assert (HP : 0 < P) by (unfold P, Rpower; apply exp_pos).
  assert (HQ : 0 < Rpower t (2 * eps)) by (unfold Rpower; apply exp_pos).
  assert (H1 : g2 * t ^ 2 <= R2 * B * P).
  { assert (R2 * s * P <= R2 * B * P).
    { apply Rmult_le_compat_r; [lra|]. apply Rmult_le_compat_l; lra. }
    lra. }
  assert (Ht2 : t ^ 2 = Rpower t (2 * eps) * P).
  { unfold P. rewrite <- Rpower_plus.
    replace (2 * eps + (2 - 2 * eps)) with (INR 2) by (simpl; ring).
    rewrite Rpower_pow; [reflexivity | exact Ht]. }
  assert (H2 : Rpower t (2 * eps) <= R2 * (2 - 2 * eps) / (g2 * (1 - 2 * eps))).
  { assert (E : R2 * (2 - 2 * eps) / (g2 * (1 - 2 * eps)) = R2 * B / g2)
      by (unfold B; field; lra).
    rewrite E. apply Rmult_le_reg_l with g2; [lra|].
    replace (g2 * (R2 * B / g2)) with (R2 * B) by (field; lra).
    apply Rmult_le_reg_r with P; [lra|]. rewrite Ht2 in H1. lra. }
  assert (Et : t = Rpower (Rpower t (2 * eps)) (1 / (2 * eps))).
  { rewrite Rpower_mult. replace (2 * eps * (1 / (2 * eps))) with 1 by (field; lra).
    rewrite Rpower_1; [reflexivity | exact Ht]. }
  rewrite Et at 1. apply Rle_Rpower_l.
  - apply Rlt_le, Rdiv_lt_0_compat; lra.
  - split; [exact HQ | exact H2].
Qed.

Example D1_below_half_example : D1_below_half_hypotheses 1 (1 / 4) 1 1 1 3.
Proof.
  unfold D1_below_half_hypotheses. rewrite Rpower_base1.
  repeat split; lra.
Qed.

(** ** S1 S2 MU: the margin-distribution identities and the repeated-update quadratic *)

Theorem S1 : S1_statement.
Proof.
  unfold S1_statement. intros th m Ht _. split; [(* defined *) lra|].
  assert (E : - (m / th) + 1 = (- m + th) / th) by (field; lra).
  rewrite E, (Rmax0_div _ _ Ht). field. lra.
Qed.

Example S1_example : S1_hypotheses 1 0.
Proof. unfold S1_hypotheses. lra. Qed.

Theorem S2 : S2_statement.
Proof.
  unfold S2_statement. intros a u v Ha Hd.
  assert (Hq : 1 + u * v / a <> 0).
  { replace (1 + u * v / a) with ((a + u * v) / a) by (field; exact Ha).
    unfold Rdiv. apply Rmult_integral_contrapositive_currified; [exact Hd|].
    apply Rinv_neq_0_compat. exact Ha. }
  split.
  - (* defined *) split; [exact Ha | exact Hq].
  - field. split; [exact Ha|]. intro H. apply Hd. lra.
Qed.

Example S2_example : S2_hypotheses 1 1 1.
Proof. unfold S2_hypotheses. lra. Qed.

Theorem MU : MU_statement.
Proof.
  unfold MU_statement. intros n t eps p q l Hn Ht He.
  pose proof (LargeMargin.MU_scalar (INR n) t eps p q l (lt_0_INR n Hn) Ht He) as E.
  lra.
Qed.

Example MU_example : MU_hypotheses 1 1 (1 / 2) 1 1 1.
Proof. unfold MU_hypotheses. repeat split; lra || lia. Qed.
