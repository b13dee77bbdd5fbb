(** * L1's bridge: Lemma 1 of the PDM paper applied where PFM meets it.

    [L1_bridge : L1_statement -> L1_run_statement] fills the printed Lemma 1 with a PFM run
    on labelled data: t = the number of updates of PFM((1 - eps) gamma), delta =
    R^2/(2 eps gamma^2) and C = 2 gamma/R ([PfmBound.p1_delta], [PfmBound.p1_C]). Its
    premises: h2 (t <= delta (1 + C + ln t)) is [PfmBound.p1_lemma_form] of the run's
    progress and telescoping invariants; h0 (t >= e^-C) holds since t >= 1 > e^-C; h1
    (delta > e^-C) by 2 x^2 e^(-2x) < 1 on [0, 1] at x = gamma/R ([small_x_strict]).
    [L1_run] is the bridge applied to [SpecTheorems.L1]. *)

From Coq Require Import Reals List Lra Psatz Arith Lia.
From Novikoff Require Import Vectors Perceptron LargeMargin Lemma1 PfmBound Labelled.
From Novikoff Require Import LabelledCertificate LabelledMargin.
From Novikoff Require Import Statements SpecTheorems RunStatements Bridges.
Import ListNotations.
Local Open Scope R_scope.

(** 2 x^2 e^(-2x) < 1 on [0, 1]: e^(2x) >= (1 + x)^2 > 2 x^2 there (1 + 2x - x^2 > 0). *)
Lemma small_x_strict (x : R) : 0 <= x <= 1 -> 2 * x ^ 2 * exp (- 2 * x) < 1.
Proof.
  intros [H0 H1]. pose proof (exp_ineq1_le x) as Hx. pose proof (exp_pos x) as Hp.
  assert (E : exp (- 2 * x) = / (exp x * exp x)).
  { rewrite <- exp_plus. replace (- 2 * x) with (- (x + x)) by ring. apply exp_Ropp. }
  rewrite E. assert (Hsq : (1 + x) * (1 + x) <= exp x * exp x) by (apply Rmult_le_compat; lra).
  assert (Hpos : 0 < exp x * exp x) by nra.
  apply Rmult_lt_reg_r with (exp x * exp x); [exact Hpos|].
  replace (2 * x ^ 2 * / (exp x * exp x) * (exp x * exp x)) with (2 * x ^ 2) by (field; lra).
  nra.
Qed.

(** delta = R^2/(2 eps gamma^2) > e^-C, C = 2 gamma/R, for 0 < gamma <= R and 0 < eps <= 1. *)
Lemma p1_delta_gt_exp (R2 g2 eps : R) :
  0 < g2 -> g2 <= R2 -> 0 < eps -> eps <= 1 -> p1_delta R2 g2 eps > exp (- p1_C R2 g2).
Proof.
  intros Hg HgR He He1. assert (HR : 0 < R2) by lra.
  pose proof (sqrt_lt_R0 _ HR) as HR0. pose proof (sqrt_lt_R0 _ Hg) as Hg0.
  set (x := sqrt g2 / sqrt R2).
  assert (Hx0 : 0 < x) by (apply Rdiv_lt_0_compat; lra).
  assert (Hx : 0 <= x <= 1).
  { split; [lra|]. unfold x. apply Rmult_le_reg_r with (sqrt R2); [lra|].
    replace (sqrt g2 / sqrt R2 * sqrt R2) with (sqrt g2) by (field; lra).
    rewrite Rmult_1_l. apply sqrt_le_1_alt; exact HgR. }
  pose proof (small_x_strict x Hx) as Hsx.
  assert (EC : exp (- p1_C R2 g2) = exp (- 2 * x)) by (unfold p1_C, x; f_equal; field; lra).
  assert (Ed : p1_delta R2 g2 eps = / (2 * eps * x ^ 2)).
  { assert (Ex2 : x ^ 2 = sqrt g2 ^ 2 / sqrt R2 ^ 2) by (unfold x; field; lra).
    rewrite !pow2_sqrt in Ex2 by lra. rewrite Ex2. unfold p1_delta. field. lra. }
  rewrite EC, Ed. pose proof (exp_pos (- 2 * x)) as Hp.
  assert (Hx2 : 0 < x ^ 2) by (apply pow_lt; lra).
  apply Rlt_gt. apply Rmult_lt_reg_l with (2 * eps * x ^ 2); [nra|].
  rewrite Rinv_r by nra.
  assert (0 <= 2 * x ^ 2 * exp (- 2 * x)) by (apply Rmult_le_pos; nra).
  assert (2 * eps * x ^ 2 * exp (- 2 * x) <= 2 * x ^ 2 * exp (- 2 * x)) by nra.
  lra.
Qed.

Theorem L1_bridge : L1_statement -> L1_run_statement.
Proof.
  intros L1_printed D rho order lam p eps Hvalid Hcert He He1 H1.
  pose proof Hcert as [_ [_ [_ [Hcond Hpp]]]].
  pose proof (proj1 (valid_reflected rho D order) Hvalid) as Horder.
  pose proof (pp_le_radius2 rho D lam p Hcert) as Hg.
  pose proof (p1_delta_gt_exp (radius2 rho D) (dot p p) eps Hpp Hg He He1) as Hdelta.
  set (R2 := radius2 rho D) in *.
  assert (HR : 0 < R2) by lra.
  set (beta := (1 - eps) * sqrt (dot p p)).
  assert (Hb : 0 <= beta) by (pose proof (sqrt_pos (dot p p)); unfold beta; apply Rmult_le_pos; lra).
  pose proof (pfm_telescoping (reflected rho D) p R2 beta order Hcond Hpp (radius2_bound rho D)
                ltac:(lra) Hb Horder) as [Hprog Htele].
  rewrite pfm_updates_run in * by exact Hvalid. fold beta in H1 |- *.
  set (st := pfm_run beta (reflected rho D) order) in *.
  pose proof (D3_norm p st Hpp Hprog) as HD3.
  destruct st as [w [|k]]; cbn [fst snd] in *; [lia|].
  assert (Hg0 : 0 < sqrt (dot p p)) by (apply sqrt_lt_R0; exact Hpp).
  assert (HR0 : 0 < sqrt R2) by (apply sqrt_lt_R0; exact HR).
  assert (Ht1 : 1 <= INR (S k)) by (replace 1 with (INR 1) by reflexivity; apply le_INR; lia).
  pose proof (harm_le_1_plus_ln (S k) ltac:(lia)) as Hh.
  assert (Ht0 : 0 < INR (S k)) by lra.
  assert (Hb' : 0 <= beta <= (1 - eps) * sqrt (dot p p)) by (split; [exact Hb | unfold beta; lra]).
  assert (Htele' : sqrt (norm2 w) <= sqrt R2 + (INR (S k) - 1) * beta
                     + sqrt R2 ^ 2 / (2 * sqrt (dot p p)) * harm k).
  { rewrite S_INR. replace (INR k + 1 - 1) with (INR k) by ring. exact Htele. }
  pose proof (p1_lemma_form (INR (S k)) eps (sqrt (dot p p)) (sqrt R2) beta (sqrt (norm2 w))
                (harm k) (harm (S k)) Ht0 He Hg0 HR0 Ht1 Hb' HD3 Htele' eq_refl Hh) as Hlf.
  set (delta := p1_delta R2 (dot p p) eps) in *.
  set (C := p1_C R2 (dot p p)) in *.
  assert (HC : 0 < C) by (unfold C, p1_C; apply Rdiv_lt_0_compat; lra).
  assert (HeC : exp (- C) < 1) by (rewrite <- exp_0; apply exp_increasing; lra).
  assert (Hd0 : 0 < delta) by (pose proof (exp_pos (- C)); lra).
  (* each premise as a hypothesis named after the printer's comment *)
  assert (H_domain_of_t : (0 < (INR (S k)))).
  { exact Ht0. }
  assert (H_domain_of_delta : (0 < delta)).
  { exact Hd0. }
  assert (H_h0 : ((INR (S k)) >= (exp (- C)))).
  { lra. }
  assert (H_h1 : (delta > (exp (- C)))).
  { exact Hdelta. }
  assert (H_h2 : ((INR (S k)) <= (delta * (C + (ln (INR (S k))) + 1)))).
  { rewrite pow2_sqrt in Hlf by lra. rewrite pow2_sqrt in Hlf by lra.
    unfold delta, C, p1_delta, p1_C.
    replace (R2 / (2 * eps * dot p p) * (2 * sqrt (dot p p) / sqrt R2 + ln (INR (S k)) + 1))
      with (R2 * (ln (INR (S k)) + 1 + 2 * sqrt (dot p p) / sqrt R2) / (2 * eps * dot p p))
      by (field; lra).
    exact Hlf. }
  split; [lra|].
  hnf in L1_printed. specialize L1_printed with (t := (INR (S k))) (delta := delta) (C := C).
  use_printed L1_printed.
  conclude_with L1_printed.
Qed.

Theorem L1_run : L1_run_statement.
Proof. exact (L1_bridge SpecTheorems.L1). Qed.
