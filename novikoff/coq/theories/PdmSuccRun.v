(** * DS1's premises derived from a PDM-succ run (the PDM paper, section 3).

    A PDM-succ run ([LargeMargin.pdm_succ]) whose stages so far end at s0 = (w0, t0),
    t0 >= 1, where PDM(eps') has converged (no pattern would update), continues with a
    stage PDM(eps), 0 < eps < 1/2, ending at s = (w, t). With a = ||w||^2, a0 = ||w0||^2,
    p = 2 (1 - eps) and R^2 bounding the patterns' squared norms, this file proves DS1's
    three premises of that run:
    - [succ_previous]: a0 (1 - eps')^2 <= gamma^2 t0^2 (convergence gives
      t0 w0.z > (1 - eps') a0 for every pattern z; the convex combination p* of the
      patterns then has t0 w0.p* >= (1 - eps') a0, and Cauchy-Schwarz
      (w0.p* )^2 <= a0 ||p*||^2);
    - [succ_energy]: a <= t^p (a0 t0^-p + R^2 t0^(1-p)/(p - 1)), the PDM recursion
      a' <= (1 + p/t) a + R^2 telescoped from t0: the invariant
      a <= t^p (a0 t0^-p + R^2 (t0^(1-p) - t^(1-p))/(p - 1)) holds at t0 and is kept by
      Bernoulli ((1 + p/t) t^p <= (t + 1)^p) and the tangent gap
      (t^(1-p) - (t + 1)^(1-p) >= (p - 1) (t + 1)^-p) of [SmallEps];
    - D3 is [LargeMargin.D3_pdm_succ]. *)

From Coq Require Import Reals List Lra Psatz Arith Lia.
From Novikoff Require Import Vectors Perceptron LargeMargin SmallEps.
Import ListNotations.
Local Open Scope R_scope.

(** ** The previous stage's end *)

Theorem succ_previous (zs : list vec) (lam : list R) (p : vec) (eps' : R) (s0 : state) :
  separable_certificate zs lam p -> (1 <= snd s0)%nat -> pdm_converged eps' zs s0 ->
  eps' < 1 ->
  norm2 (fst s0) * (1 - eps') ^ 2 <= dot p p * INR (snd s0) ^ 2.
Proof.
  intros [Hlen [[Hnn Hsum] [Hrep [_ Hpp]]]] H1 Hc He.
  set (w := fst s0). set (T0 := INR (snd s0)). set (a0 := norm2 w).
  assert (HT0 : 1 <= T0) by (unfold T0; replace 1 with (INR 1) by reflexivity; apply le_INR; exact H1).
  assert (Ha0 : 0 <= a0) by apply norm2_nonneg.
  assert (Hz : forall z, In z zs -> dot w z >= (1 - eps') * a0 / T0).
  { intros z Hin. pose proof (pdm_step_fixed_test eps' s0 z H1 (Hc z Hin)) as Hf.
    fold w T0 a0 in Hf. apply Rle_ge. apply Rmult_le_reg_l with T0; [lra|].
    unfold Rdiv. replace (T0 * ((1 - eps') * a0 * / T0)) with ((1 - eps') * a0) by (field; lra).
    lra. }
  assert (Hwp : dot w p >= (1 - eps') * a0 / T0).
  { rewrite (Hrep w), dot_lin_comb.
    pose proof (convex_dot_ge lam zs (dot w) ((1 - eps') * a0 / T0) Hlen Hnn Hz) as Hg.
    rewrite Hsum, Rmult_1_r in Hg. exact Hg. }
  assert (Hwp' : (1 - eps') * a0 <= T0 * dot w p).
  { assert (T0 * ((1 - eps') * a0 / T0) = (1 - eps') * a0) by (field; lra). nra. }
  pose proof (cauchy_schwarz w p) as Hcs. fold (norm2 w) in Hcs. fold a0 in Hcs.
  assert (Hl : 0 <= (1 - eps') * a0) by (apply Rmult_le_pos; lra).
  assert (Hsq : ((1 - eps') * a0) * ((1 - eps') * a0) <= T0 ^ 2 * (a0 * dot p p)).
  { apply Rle_trans with ((T0 * dot w p) * (T0 * dot w p)).
    - apply Rmult_le_compat; lra.
    - replace ((T0 * dot w p) * (T0 * dot w p)) with (T0 ^ 2 * (dot w p * dot w p)) by ring.
      apply Rmult_le_compat_l; [nra | exact Hcs]. }
  destruct (Req_dec a0 0) as [E|Ne].
  - rewrite E. nra.
  - apply Rmult_le_reg_l with a0; [lra|]. nra.
Qed.

(** ** The energy, telescoped from t0 *)

Definition energy_from_inv (eps R2 : R) (t0 : nat) (a0 : R) (s : state) : Prop :=
  (t0 <= snd s)%nat /\
  norm2 (fst s) <= Rpower (INR (snd s)) (2 - 2 * eps)
    * (a0 * Rpower (INR t0) (2 * eps - 2)
       + R2 * (Rpower (INR t0) (2 * eps - 1) - Rpower (INR (snd s)) (2 * eps - 1)) / (1 - 2 * eps)).

Lemma Rpower_zero_exp (x : R) : Rpower x 0 = 1.
Proof. unfold Rpower. rewrite Rmult_0_l. apply exp_0. Qed.

Lemma energy_from_init eps R2 s0 : energy_from_inv eps R2 (snd s0) (norm2 (fst s0)) s0.
Proof.
  split; [lia|]. set (T := INR (snd s0)).
  replace (Rpower T (2 * eps - 1) - Rpower T (2 * eps - 1)) with 0 by ring.
  replace (R2 * 0 / (1 - 2 * eps)) with 0 by (unfold Rdiv; ring).
  rewrite Rplus_0_r.
  replace (Rpower T (2 - 2 * eps) * (norm2 (fst s0) * Rpower T (2 * eps - 2)))
    with (norm2 (fst s0) * (Rpower T (2 - 2 * eps) * Rpower T (2 * eps - 2))) by ring.
  rewrite <- Rpower_plus. replace (2 - 2 * eps + (2 * eps - 2)) with 0 by ring.
  rewrite Rpower_zero_exp. lra.
Qed.

(** One update: a' <= (1 + p/t) a + R^2 keeps the invariant from t to t + 1. *)
Lemma energy_from_step (T T0 eps R2 a a' a0 : R) :
  1 <= T0 -> T0 <= T -> 0 < eps -> eps < 1 / 2 -> 0 <= R2 -> 0 <= a0 ->
  a <= Rpower T (2 - 2 * eps)
       * (a0 * Rpower T0 (2 * eps - 2)
          + R2 * (Rpower T0 (2 * eps - 1) - Rpower T (2 * eps - 1)) / (1 - 2 * eps)) ->
  a' <= (1 + 2 * (1 - eps) / T) * a + R2 ->
  a' <= Rpower (T + 1) (2 - 2 * eps)
       * (a0 * Rpower T0 (2 * eps - 2)
          + R2 * (Rpower T0 (2 * eps - 1) - Rpower (T + 1) (2 * eps - 1)) / (1 - 2 * eps)).
Proof.
  intros HT0 HT He0 He HR Ha0 Hih Hrec.
  replace (2 * eps - 2) with (- (2 - 2 * eps)) in * by ring.
  replace (2 * eps - 1) with (1 - (2 - 2 * eps)) in * by ring.
  replace (1 - 2 * eps) with ((2 - 2 * eps) - 1) in * by ring.
  replace (2 * (1 - eps)) with (2 - 2 * eps) in * by ring.
  set (p := 2 - 2 * eps) in *.
  assert (Hp : 1 < p) by (unfold p; lra).
  set (X := a0 * Rpower T0 (- p) + R2 * (Rpower T0 (1 - p) - Rpower T (1 - p)) / (p - 1)).
  set (G := Rpower T (1 - p) - Rpower (T + 1) (1 - p)).
  assert (Hmono : Rpower T (1 - p) <= Rpower T0 (1 - p)).
  { replace (1 - p) with (- (p - 1)) by ring. apply Rpower_neg_anti; lra. }
  assert (HX : 0 <= X).
  { unfold X. pose proof (Rpower_pos T0 (- p)).
    assert (0 <= R2 * (Rpower T0 (1 - p) - Rpower T (1 - p)) / (p - 1)).
    { unfold Rdiv. apply Rmult_le_pos; [apply Rmult_le_pos; lra|].
      apply Rlt_le, Rinv_0_lt_compat; lra. }
    nra. }
  pose proof (bernoulli T 1 p ltac:(lra) ltac:(lra) ltac:(lra)) as Hb.
  rewrite Rpower_minus1 in Hb by lra.
  assert (Hb' : (1 + p / T) * Rpower T p <= Rpower (T + 1) p).
  { replace ((1 + p / T) * Rpower T p) with (Rpower T p + p * (Rpower T p / T) * 1)
      by (field; lra). lra. }
  assert (Hq : 0 <= p / T) by (apply Rlt_le, Rdiv_lt_0_compat; lra).
  assert (H1 : (1 + p / T) * a <= (1 + p / T) * (Rpower T p * X))
    by (apply Rmult_le_compat_l; [lra | exact Hih]).
  assert (H2 : (1 + p / T) * (Rpower T p * X) <= Rpower (T + 1) p * X).
  { replace ((1 + p / T) * (Rpower T p * X)) with (((1 + p / T) * Rpower T p) * X) by ring.
    apply Rmult_le_compat_r; [exact HX | exact Hb']. }
  pose proof (tangent_gap T p ltac:(lra) Hp) as Hg. fold G in Hg.
  assert (H3 : Rpower (T + 1) p * Rpower (T + 1) (- p) = 1).
  { rewrite <- Rpower_plus. replace (p + - p) with 0 by ring. apply Rpower_zero_exp. }
  assert (HG : Rpower (T + 1) (- p) <= G / (p - 1)).
  { apply Rmult_le_reg_l with (p - 1); [lra|].
    replace ((p - 1) * (G / (p - 1))) with G by (field; lra). lra. }
  pose proof (Rpower_pos (T + 1) p) as HP1.
  assert (H4 : R2 <= Rpower (T + 1) p * (R2 * G / (p - 1))).
  { replace (Rpower (T + 1) p * (R2 * G / (p - 1))) with (R2 * (Rpower (T + 1) p * (G / (p - 1))))
      by (field; lra).
    assert (Rpower (T + 1) p * Rpower (T + 1) (- p) <= Rpower (T + 1) p * (G / (p - 1)))
      by (apply Rmult_le_compat_l; lra).
    rewrite H3 in H. nra. }
  replace (Rpower (T + 1) p * (a0 * Rpower T0 (- p)
             + R2 * (Rpower T0 (1 - p) - Rpower (T + 1) (1 - p)) / (p - 1)))
    with (Rpower (T + 1) p * X + Rpower (T + 1) p * (R2 * G / (p - 1)))
    by (unfold X, G; field; lra).
  lra.
Qed.

Lemma energy_from_preserved zs eps R2 t0 a0 :
  0 < eps -> eps < 1 / 2 -> 0 <= R2 -> radius_bound zs R2 -> (1 <= t0)%nat -> 0 <= a0 ->
  preserves (energy_from_inv eps R2 t0 a0) (pdm_step eps) zs.
Proof.
  intros He0 He HR0 HR H1 Ha0 s z Hz [Ht0 Hs].
  destruct (pdm_test eps (fst s) (snd s) z) eqn:Et.
  2: { unfold pdm_step; rewrite Et; split; assumption. }
  pose proof (pdm_step_recursion eps eps R2 s z (Rle_refl eps) (HR z Hz) ltac:(lia) Et) as Hr.
  unfold pdm_step in *; rewrite Et in *; unfold update in *; cbn [fst snd] in *.
  unfold energy_from_inv; cbn [fst snd]. split; [lia|]. rewrite S_INR.
  assert (HT0 : 1 <= INR t0) by (replace 1 with (INR 1) by reflexivity; apply le_INR; exact H1).
  assert (HT : INR t0 <= INR (snd s)) by (apply le_INR; exact Ht0).
  exact (energy_from_step (INR (snd s)) (INR t0) eps R2 (norm2 (fst s)) _ a0
           HT0 HT He0 He HR0 Ha0 Hs Hr).
Qed.

Lemma pdm_succ_snoc zs stages eps order :
  pdm_succ zs (stages ++ [(eps, order)]) = pdm_run_from eps zs order (pdm_succ zs stages).
Proof. unfold pdm_succ, pdm_succ_from. rewrite fold_left_app. reflexivity. Qed.

(** The stage PDM(eps) run from s0 (t0 >= 1 updates): t >= t0 and
    a <= t^p (R^2 t0^(2 eps - 1)/(1 - 2 eps) + a0 t0^(2 eps - 2)), the printed [energy]. *)
Theorem succ_energy zs eps R2 order s0 :
  0 < eps -> eps < 1 / 2 -> 0 <= R2 -> radius_bound zs R2 -> valid_order zs order ->
  (1 <= snd s0)%nat ->
  let s := pdm_run_from eps zs order s0 in
  (snd s0 <= snd s)%nat /\
  norm2 (fst s) <= Rpower (INR (snd s)) (2 - 2 * eps)
    * (R2 * Rpower (INR (snd s0)) (2 * eps - 1) / (1 - 2 * eps)
       + norm2 (fst s0) * Rpower (INR (snd s0)) (2 * eps - 2)).
Proof.
  intros He0 He HR0 HR Ho H1 s.
  assert (Hinv : energy_from_inv eps R2 (snd s0) (norm2 (fst s0)) s).
  { unfold s, pdm_run_from. apply run_preserves; [| exact Ho | apply energy_from_init].
    apply energy_from_preserved; auto. apply norm2_nonneg. }
  destruct Hinv as [Hle Hs]. split; [exact Hle|].
  pose proof (Rpower_pos (INR (snd s)) (2 * eps - 1)).
  pose proof (Rpower_pos (INR (snd s)) (2 - 2 * eps)).
  assert (R2 * (Rpower (INR (snd s0)) (2 * eps - 1) - Rpower (INR (snd s)) (2 * eps - 1)) / (1 - 2 * eps)
          <= R2 * Rpower (INR (snd s0)) (2 * eps - 1) / (1 - 2 * eps)).
  { unfold Rdiv. apply Rmult_le_compat_r; [apply Rlt_le, Rinv_0_lt_compat; lra|]. nra. }
  eapply Rle_trans; [exact Hs|]. apply Rmult_le_compat_l; lra.
Qed.
