(** * Bridges: each printed statement's conclusion holds of the run on labelled data.

    For each [<NAME>] with a run statement ([RunStatements]):
    - [<NAME>_bridge : Statements.<NAME>_statement -> RunStatements.<NAME>_run_statement]
      instantiates the printed statement's symbols and premise functions with the run's
      quantities (the update count k, the weights after j updates, the updated patterns,
      R^2 and gamma^2 computed from the data), proves that the run satisfies every
      premise, and reads the run theorem off the statement's conclusion;
    - [<NAME>_run : <NAME>_run_statement] is that bridge applied to the printed
      statement's theorem ([Theorems.<NAME>]).
    So the chain is: spec statement (sympy) -> printed statement ([Statements]) -> bridge
    -> run theorem.  Hypotheses are introduced by name; the printed statement is applied
    with its binders named ([N1_statement] takes [k], [gamma2], ...), its premises
    discharged one by one in the printer's order. *)

From Coq Require Import Reals List Lra Psatz Arith Lia.
From Novikoff Require Import Vectors Perceptron Labelled Statements Theorems RunStatements.
Import ListNotations.
Local Open Scope R_scope.

(** ** Shared facts about the run *)

Lemma gamma2_is_pp rho D lam p gamma2 :
  separable_certificate (reflected rho D) lam p ->
  min_norm_sq (reflected rho D) gamma2 -> gamma2 = dot p p.
Proof.
  intros Hcert Hmin. eapply min_norm_sq_unique; [exact Hmin|].
  eapply certificate_min_norm; exact Hcert.
Qed.

Lemma dot_fold_vadd x ups w : dot x (fold_left vadd ups w) = dot x w + fold_right Rplus 0 (map (dot x) ups).
Proof.
  revert w; induction ups as [|u ups IH]; intros w; simpl; [ring|].
  rewrite IH, dot_vadd_r. ring.
Qed.

(** ** N3 *)

Theorem N3_bridge : N3_statement -> N3_run_statement.
Proof.
  intros N3_printed D rho order lam p gamma2 Hvalid Hcert Hmin.
  pose proof (gamma2_is_pp rho D lam p gamma2 Hcert Hmin) as Hgamma.
  pose proof Hcert as [_ [_ [_ [Hcond Hpp]]]].
  pose proof (proj1 (valid_reflected rho D order) Hvalid) as Horder.
  pose proof (radius2_pos rho D lam p Hcert) as HR2.
  rewrite perceptron_updates_run by exact Hvalid.
  set (zs := reflected rho D) in *.
  set (k := updates zs order).
  set (w := weights zs order).
  assert (Hk : INR k * gamma2 <= radius2 rho D).
  { rewrite Rmult_comm. subst gamma2.
    apply (N3_printed k (dot p p) (radius2 rho D) (dot p w) (dot w w)).
    - (* domain of gamma2 *) exact Hpp.
    - (* domain of R2 *) exact HR2.
    - (* domain of w_norm2 *) apply norm2_nonneg.
    - (* k_nonneg *) apply Rle_ge, pos_INR.
    - (* gamma2_pos *) exact Hpp.
    - (* R2_pos *) exact HR2.
    - (* N1 *) rewrite Rmult_comm. apply N1_progress; assumption.
    - (* N2 *) rewrite Rmult_comm. apply N2_energy; [apply radius2_bound|exact Horder].
    - (* cauchy_schwarz *) apply cauchy_schwarz_sq. }
  apply Rmult_le_reg_r with gamma2; [lra|].
  unfold Rdiv. rewrite Rmult_assoc, Rinv_l by lra. lra.
Qed.

Theorem N3_run : N3_run_statement.
Proof. exact (N3_bridge Theorems.N3). Qed.

(** ** N1: the premise functions are p*.w_j and p*.u_j over the run's updates u_j
    (continued past the k-th update by steps of exactly gamma^2, so that the printed
    premises, stated for every j, hold). *)

Theorem N1_bridge : N1_statement -> N1_run_statement.
Proof.
  intros N1_printed D rho order lam p Hvalid Hcert.
  pose proof Hcert as [_ [_ [_ [Hcond Hpp]]]].
  pose proof (proj1 (valid_reflected rho D order) Hvalid) as Horder.
  rewrite perceptron_updates_run, perceptron_weights_run by exact Hvalid.
  set (zs := reflected rho D) in *.
  destruct (run_updates_spec zs order) as [Hw Hk].
  set (ups := run_updates zs order) in *.
  set (k := updates zs order) in *.
  set (pz := fun j => if Nat.ltb j k then dot p (nth j ups []) else dot p p).
  set (pw := fun j => dot p (wprefix ups j) + INR (j - k) * dot p p).
  apply (N1_printed k (dot p p) (dot p (weights zs order)) pw pz).
  - (* domain of gamma2 *) exact Hpp.
  - (* k_nonneg *) apply Rle_ge, pos_INR.
  - (* gamma2_pos *) exact Hpp.
  - (* w0 *) unfold pw, wprefix. simpl. rewrite dot_nil_r. ring.
  - (* update *) intros j _. unfold pw, pz; cbv beta. rewrite Nat.add_1_r, wprefix_S, <- Hk.
    destruct (Nat.ltb_spec j k) as [Hj|Hj].
    + rewrite dot_vadd_r. replace (S j - k)%nat with 0%nat by lia.
      replace (j - k)%nat with 0%nat by lia. ring.
    + replace (S j - k)%nat with (S (j - k)) by lia. rewrite S_INR. ring.
  - (* minnorm *) intros j _. unfold pz; cbv beta. destruct (Nat.ltb_spec j k) as [Hj|Hj]; [|lra].
    rewrite dot_comm. apply Hcond. apply nth_run_updates_in; [exact Horder|change (j < length ups)%nat; lia].
  - (* value *) unfold pw. rewrite Nat.sub_diag, wprefix_all by lia. simpl. rewrite Hw. ring.
Qed.

Theorem N1_run : N1_run_statement.
Proof. exact (N1_bridge Theorems.N1). Qed.

(** ** N2: the premise functions are ||w_j||^2, w_j.u_j and ||u_j||^2 (0 past the k-th
    update: the weights stop there). *)

Theorem N2_bridge : N2_statement -> N2_run_statement.
Proof.
  intros N2_printed D rho order Hvalid HR2.
  pose proof (proj1 (valid_reflected rho D order) Hvalid) as Horder.
  rewrite perceptron_updates_run, perceptron_weights_run by exact Hvalid.
  set (zs := reflected rho D) in *.
  destruct (run_updates_spec zs order) as [Hw Hk].
  set (ups := run_updates zs order) in *.
  set (k := updates zs order) in *.
  set (w2 := fun j => norm2 (wprefix ups j)).
  set (wz := fun j => dot (wprefix ups j) (nth j ups [])).
  set (z2 := fun j => norm2 (nth j ups [])).
  apply (N2_printed k (radius2 rho D) (norm2 (weights zs order)) w2 wz z2).
  - (* domain of R2 *) exact HR2.
  - (* domain of w_norm2 *) apply norm2_nonneg.
  - (* k_nonneg *) apply Rle_ge, pos_INR.
  - (* R2_pos *) exact HR2.
  - (* w0 *) reflexivity.
  - (* update *) intros j _. unfold w2, wz, z2, norm2; cbv beta. rewrite Nat.add_1_r, wprefix_S.
    destruct (Nat.ltb_spec j (length ups)) as [Hj|Hj]; [apply norm2_vadd|].
    rewrite nth_overflow_vec by exact Hj. rewrite dot_nil_r. simpl. ring.
  - (* mistake *) intros j _. unfold wz; cbv beta. destruct (Nat.ltb_spec j (length ups)) as [Hj|Hj].
    + apply run_updates_mistake. exact Hj.
    + rewrite nth_overflow_vec by exact Hj. rewrite dot_nil_r. lra.
  - (* radius *) intros j _. unfold z2; cbv beta. destruct (Nat.ltb_spec j (length ups)) as [Hj|Hj].
    + apply radius2_bound. apply nth_run_updates_in; [exact Horder|exact Hj].
    + rewrite nth_overflow_vec by exact Hj. unfold norm2. rewrite dot_nil_l. lra.
  - (* value *) unfold w2. rewrite wprefix_all by lia. rewrite Hw. reflexivity.
Qed.

Theorem N2_run : N2_run_statement.
Proof. exact (N2_bridge Theorems.N2). Qed.
