(** * S1's bridge: the printed statement speaks about the margins of a labelled dataset.

    [S1_bridge : S1_statement -> S1_run_statement] applies the printed statement (the
    IJCAI paper's per-margin identity (1 - m/theta)_+^2 = (theta - m)_+^2 / theta^2) to
    every sample's signed margin m = y (w . (x, rho)) ([Labelled.signed_margin]), so the
    lists of the samples' squared hinges agree. [S1_run] is the bridge applied to
    [MarginDistribution]'s theorem [S1]. *)

From Coq Require Import Reals List Lra.
From Novikoff Require Import Vectors Labelled.
From Novikoff Require Import Statements Theorems RunStatements.
From Novikoff Require MarginDistribution.
Import ListNotations.
Local Open Scope R_scope.

(** As in [Bridges]: the printed statement is used by its names. *)
Local Ltac use_printed H :=
  repeat match type of H with
  | ?P -> _ => specialize (H ltac:(assumption))
  end.
Local Ltac conclude_with H := first [exact H | exact (proj2 H) | apply H | apply (proj2 H)].

Theorem S1_bridge : S1_statement -> S1_run_statement.
Proof.
  intros S1_printed D rho w theta Htheta.
  apply map_ext_in. intros s _.
  set (m := signed_margin w rho s).
  assert (H_domain_of_theta : 0 < theta) by exact Htheta.
  assert (H_h0 : theta > 0) by exact Htheta.
  pose proof S1_printed as S1_at. hnf in S1_at.
  specialize S1_at with (theta := theta) (m := m).
  use_printed S1_at.
  replace (1 - m / theta) with (- (m / theta) + 1) by ring.
  replace (theta - m) with (- m + theta) by ring.
  conclude_with S1_at.
Qed.

Theorem S1_run : S1_run_statement.
Proof. exact (S1_bridge Theorems.S1). Qed.
