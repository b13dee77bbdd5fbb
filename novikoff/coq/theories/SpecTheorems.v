(** * The analytic spec statements (L1, D1 at eps = 1/2, P1) as [Theorem <NAME> : <NAME>_statement],
    by the spec-shaped theorems of [Lemma1] ([L1_spec], [D1_half_spec], [P1_spec]); same
    conventions as [Theorems.v] (non-vacuity Examples; the scripts are replayed against the
    wrong variants; the [(* defined *)] side conditions of [ln] and [/] first). *)

From Coq Require Import Reals Lra Psatz Arith Lia.
From Novikoff Require Import Statements Lemma1.
Local Open Scope R_scope.

Theorem L1 : L1_statement.
Proof.
  unfold L1_statement. intros t delta C Ht Hd H0 H1 H2. split.
  - (* defined *) pose proof (exp_pos 1) as He. nra.
  - exact (Novikoff.Lemma1.L1_spec t delta C Ht Hd H0 H1 H2).
Qed.

Example L1_example : L1_hypotheses 1 2 0.
Proof.
  unfold L1_hypotheses. rewrite Ropp_0, exp_0, ln_1. lra.
Qed.

Theorem D1_half : D1_half_statement.
Proof.
  unfold D1_half_statement. intros t R2 g2 a Ht HR Hg Hgr HD3 Hen. split.
  - (* defined *) pose proof (exp_pos 1) as He. split; [lra|].
    apply Rdiv_lt_0_compat; nra.
  - exact (Novikoff.Lemma1.D1_half_spec t R2 g2 a Ht HR Hg Hgr HD3 Hen).
Qed.

Example D1_half_example : D1_half_hypotheses 1 1 1 1.
Proof.
  unfold D1_half_hypotheses. rewrite ln_1. lra.
Qed.

Theorem P1 : P1_statement.
Proof.
  unfold P1_statement. intros t eps R_ g Ht He HR Hg He0 He1 HgR Hlf. split.
  - (* defined *) pose proof (exp_pos 1) as HE.
    assert (HR2 : 0 < R_ ^ 2) by (apply pow_lt; lra).
    assert (Hd : 0 < 2 * eps * g ^ 2) by (assert (0 < g ^ 2) by (apply pow_lt; lra); nra).
    repeat split; try lra. apply Rdiv_lt_0_compat; nra.
  - exact (Novikoff.Lemma1.P1_spec t eps R_ g Ht He HR Hg He0 He1 HgR Hlf).
Qed.

Example P1_example : P1_hypotheses 1 1 1 1.
Proof.
  unfold P1_hypotheses. rewrite ln_1. lra.
Qed.
