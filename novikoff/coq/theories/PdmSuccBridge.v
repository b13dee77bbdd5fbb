(** * DS1's bridge: the printed stage ratio bound speaks about a PDM-succ run.

    [DS1_bridge : DS1_statement -> DS1_run_statement] fills the printed statement's symbols
    with the run's quantities (t0 and a_t0 = ||w0||^2 at the previous stages' end, t and
    a_t = ||w||^2 after the next stage, gamma2 = ||p*||^2, R2 = [radius2 rho D]) and its
    premises with [PdmSuccRun]'s facts of the run: [previous] is [succ_previous] (the
    previous stage converged), [energy] is [succ_energy] (the PDM recursion telescoped
    from t0), [D3] is [LargeMargin.D3_pdm_succ]. [DS1_run] is the bridge applied to
    [PdmSuccRatio.DS1]. *)

From Coq Require Import Reals List Lra Psatz Arith Lia.
From Novikoff Require Import Vectors Perceptron LargeMargin Labelled PdmSuccRun.
From Novikoff Require Import Statements PdmSuccRatio RunStatements.
Import ListNotations.
Local Open Scope R_scope.

(** As in [Bridges]: the printed statement is used by its names. *)
Local Ltac use_printed H :=
  repeat match type of H with
  | ?P -> _ => specialize (H ltac:(assumption))
  end.
Local Ltac conclude_with H := first [exact H | exact (proj2 H) | apply H | apply (proj2 H)].

Theorem DS1_bridge : DS1_statement -> DS1_run_statement.
Proof.
  intros DS1_printed D rho stages eps_prev eps order lam p Hcert Hvs Hv Hp0 Hp1 He0 He H1 Hconv.
  intros t0 t.
  pose proof Hcert as [_ [_ [_ [Hcc Hpp]]]].
  pose proof (radius2_pos rho D lam p Hcert) as HR.
  set (zs := reflected rho D) in *.
  set (s0 := pdm_succ zs stages) in *.
  assert (Horder : valid_order zs order) by (apply valid_reflected; exact Hv).
  assert (Hstages : valid_stages zs (stages ++ [(eps, order)])).
  { intros st Hin. apply in_app_or in Hin as [Hin | [<- | []]].
    - apply valid_reflected, Hvs, Hin.
    - exact Horder. }
  pose proof (D3_pdm_succ zs p (stages ++ [(eps, order)]) Hcc Hpp Hstages) as HD3.
  pose proof (succ_energy zs eps (radius2 rho D) order s0 He0 He ltac:(lra)
                (radius2_bound rho D) Horder H1) as [Hle Hen].
  assert (Hs : pdm_run_from eps zs order s0 = pdm_succ zs (stages ++ [(eps, order)]))
    by (symmetry; apply pdm_succ_snoc).
  rewrite Hs in Hle, Hen.
  pose proof (succ_previous zs lam p eps_prev s0 Hcert H1 Hconv Hp1) as Hprev.
  set (s := pdm_succ zs (stages ++ [(eps, order)])) in *.
  set (R2 := radius2 rho D) in *.
  assert (HT0 : 1 <= t0) by (unfold t0; replace 1 with (INR 1) by reflexivity; apply le_INR; exact H1).
  assert (HT : t0 <= t) by (apply le_INR; exact Hle).
  (* each premise as a hypothesis named after the printer's comment *)
  assert (H_domain_of_t : 0 < t) by lra.
  assert (H_domain_of_t0 : 0 < t0) by lra.
  assert (H_domain_of_eps : 0 < eps) by exact He0.
  assert (H_domain_of_eps_prev : 0 < eps_prev) by exact Hp0.
  assert (H_domain_of_R2 : 0 < R2) by exact HR.
  assert (H_domain_of_gamma2 : 0 < dot p p) by exact Hpp.
  assert (H_domain_of_a_t0 : 0 <= norm2 (fst s0)) by apply norm2_nonneg.
  assert (H_eps_lt_half : eps < 1 / 2) by exact He.
  assert (H_eps_prev_lt_1 : eps_prev < 1) by exact Hp1.
  assert (H_t0_ge_1 : t0 >= 1) by lra.
  assert (H_t_ge_1 : t >= 1) by lra.
  assert (H_previous : norm2 (fst s0) * (1 - eps_prev) ^ 2 <= dot p p * t0 ^ 2) by exact Hprev.
  assert (H_energy : norm2 (fst s) <= Rpower t (2 - 2 * eps)
            * (R2 * Rpower t0 (2 * eps - 1) / (1 - 2 * eps) + norm2 (fst s0) * Rpower t0 (2 * eps - 2)))
    by exact Hen.
  assert (H_D3 : dot p p * t ^ 2 <= norm2 (fst s)) by (unfold t; lra).
  hnf in DS1_printed. specialize DS1_printed with (t := t) (t0 := t0) (eps := eps)
    (eps_prev := eps_prev) (R2 := R2) (gamma2 := dot p p) (a_t := norm2 (fst s))
    (a_t0 := norm2 (fst s0)).
  use_printed DS1_printed.
  conclude_with DS1_printed.
Qed.

Theorem DS1_run : DS1_run_statement.
Proof. exact (DS1_bridge PdmSuccRatio.DS1). Qed.
