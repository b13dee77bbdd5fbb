(** * The analytic spec statements (L1, D1 at eps = 1/2, P1) as [Theorem <NAME> : <NAME>_statement],
    by the spec-shaped theorems of [Lemma1] ([L1_spec], [D1_half_spec], [P1_spec]); same
    conventions as [Theorems.v] (non-vacuity Examples; the scripts are replayed against the
    wrong variants). *)

From Coq Require Import Reals Lra Psatz Arith Lia.
From Novikoff Require Import Statements Lemma1.
Local Open Scope R_scope.

Theorem L1 : L1_statement.
Proof.
  unfold L1_statement. exact Novikoff.Lemma1.L1_spec.
Qed.

Example L1_example : L1_hypotheses 1 2 0.
Proof.
  unfold L1_hypotheses. rewrite Ropp_0, exp_0, ln_1. lra.
Qed.

Theorem D1_half : D1_half_statement.
Proof.
  unfold D1_half_statement. exact Novikoff.Lemma1.D1_half_spec.
Qed.

Example D1_half_example : D1_half_hypotheses 1 1 1 1.
Proof.
  unfold D1_half_hypotheses. rewrite ln_1. lra.
Qed.

Theorem P1 : P1_statement.
Proof.
  unfold P1_statement. exact Novikoff.Lemma1.P1_spec.
Qed.

Example P1_example : P1_hypotheses 1 1 1 1.
Proof.
  unfold P1_hypotheses. rewrite ln_1. lra.
Qed.
