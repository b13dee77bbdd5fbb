(** * Large-margin perceptrons: PFM(beta), PDM(eps), PDM-succ, repeated updates.

    Spec correspondence (novikoff/spec/pdm.py; id and sympy [name]):
    - D3 [margin_le_weight_norm_div_updates]      : [D3_scalar] (spec shape);
        for every run: [D3_additive], [D3_pdm], [D3_pfm], [D3_pdm_succ], [D3_perceptron].
    - D2 [pdm_converged_margin_gt_dynamic_bound]  : [D2_scalar] (spec shape);
        at convergence of a run: [D2_converged] (polynomial form), [D2_converged_norms]
        (the spec's form with ||w|| = sqrt ||w||^2 and gamma = sqrt ||p||^2).
    - D1, eps > 1/2 [pdm_updates_le_radius_sq_div_two_eps_minus_one_gamma_sq] :
        [D1_above_half_scalar] (spec shape); the recursion [pdm_recursion] (scalar)
        and [pdm_step_recursion] (on a step of a run); the energy [pdm_energy_above_half]
        and the bound [D1_above_half_pdm], [D1_above_half_pdm_succ] for every run.
    - MU [pdm_repeated_update_condition_is_quadratic] : [MU_scalar] (spec shape,
        the identity); [mu_condition] (the PDM condition at (w + n z, t + n) is
        [mu_quad n <= 0]); [mu_quad_pos_iff] ([mu_quad x > 0] iff x > root, x >= 0);
        [mu_count_spec] (floor(root) + 1 is the smallest n >= 1 at which the condition
        fails); [mu_repeated_run] (presenting z M times in a row from (w, t) makes exactly
        min(M, floor(root) + 1) updates and ends at (w + min(M, count) z, t + min(M, count))).
    (L1, D1 eps = 1/2, P1: Lemma1.v; D1 eps < 1/2: SmallEps.v; S1, S2: MarginDistribution.v.)

    Scalar theorems take the spec's symbols first (in the spec's order, then the
    premises' extra symbols), then the positivity of the symbols the spec declares
    positive, then the spec's hypotheses, then its premises, in order. *)

From Coq Require Import Reals List Lra Psatz Arith ZArith.
From Novikoff Require Import Vectors Perceptron.
Import ListNotations.
Local Open Scope R_scope.

(** ** The algorithms *)

(** The one update every rule here makes: w <- w + z, t <- t + 1. *)
Definition update (s : state) (z : vec) : state := (vadd (fst s) z, S (snd s)).

(** PFM(beta): update iff w.z <= beta ||w||; exact test (the PDM paper's rule, squared): update if
    w.z <= 0, else iff (w.z)^2 <= beta^2 ||w||^2. *)
Definition pfm_test (beta : R) (w z : vec) : bool :=
  if Rle_dec (dot w z) 0 then true
  else if Rle_dec (dot w z ^ 2) (beta ^ 2 * norm2 w) then true else false.
Definition pfm_step (beta : R) (s : state) (z : vec) : state :=
  if pfm_test beta (fst s) z then update s z else s.
Definition pfm_run_from (beta : R) (zs : list vec) (order : list nat) (s : state) : state :=
  fold_left (pfm_step beta) (presented zs order) s.
Definition pfm_run (beta : R) (zs : list vec) (order : list nat) : state :=
  pfm_run_from beta zs order init.

(** PDM(eps), t = updates so far: update iff t (w.z) <= (1 - eps) ||w||^2; t = 0: always. *)
Definition pdm_test (eps : R) (w : vec) (t : nat) (z : vec) : bool :=
  match t with
  | O => true
  | S _ => if Rle_dec (INR t * dot w z) ((1 - eps) * norm2 w) then true else false
  end.
Definition pdm_step (eps : R) (s : state) (z : vec) : state :=
  if pdm_test eps (fst s) (snd s) z then update s z else s.
Definition pdm_run_from (eps : R) (zs : list vec) (order : list nat) (s : state) : state :=
  fold_left (pdm_step eps) (presented zs order) s.
Definition pdm_run (eps : R) (zs : list vec) (order : list nat) : state :=
  pdm_run_from eps zs order init.

(** PDM-succ: stages (eps_i, order_i), each a PDM(eps_i) run continuing from the
    previous state and update count. *)
Definition pdm_succ_from (zs : list vec) (stages : list (R * list nat)) (s : state) : state :=
  fold_left (fun s st => pdm_run_from (fst st) zs (snd st) s) stages s.
Definition pdm_succ (zs : list vec) (stages : list (R * list nat)) : state :=
  pdm_succ_from zs stages init.

(** A PDM run has converged at [s] when no pattern triggers an update. *)
Definition pdm_converged (eps : R) (zs : list vec) (s : state) : Prop :=
  forall z, In z zs -> pdm_step eps s z = s.

(** ** Invariants along runs *)

Definition preserves (Inv : state -> Prop) (step : state -> vec -> state) (zs : list vec) :=
  forall s z, In z zs -> Inv s -> Inv (step s z).

Lemma run_preserves (Inv : state -> Prop) step zs order s :
  preserves Inv step zs -> valid_order zs order -> Inv s ->
  Inv (fold_left step (presented zs order) s).
Proof.
  intros Hp Ho. pose proof (presented_in zs order Ho) as HF.
  generalize dependent s. generalize dependent (presented zs order).
  intros ps HF. induction HF as [|z ps Hz HF IH]; intros s Hs; simpl; [exact Hs|].
  apply IH. apply Hp; auto.
Qed.

Definition valid_stages (zs : list vec) (stages : list (R * list nat)) :=
  forall st, In st stages -> valid_order zs (snd st).

Lemma succ_preserves (Inv : state -> Prop) zs stages s :
  (forall st, In st stages -> preserves Inv (pdm_step (fst st)) zs) ->
  valid_stages zs stages -> Inv s -> Inv (pdm_succ_from zs stages s).
Proof.
  unfold pdm_succ_from. revert s.
  induction stages as [|st sts IH]; intros s Hp Hv Hs; simpl; [exact Hs|].
  apply IH.
  - intros st' H; apply Hp; right; exact H.
  - intros st' H; apply Hv; right; exact H.
  - unfold pdm_run_from; apply run_preserves; [apply Hp; left; reflexivity | apply Hv; left; reflexivity | exact Hs].
Qed.

(** Every rule of the form "leave the state or make the update w += z". *)
Definition additive (step : state -> vec -> state) : Prop :=
  forall s z, step s z = s \/ step s z = update s z.

Lemma pdm_additive eps : additive (pdm_step eps).
Proof. intros s z; unfold pdm_step; destruct pdm_test; auto. Qed.
Lemma pfm_additive beta : additive (pfm_step beta).
Proof. intros s z; unfold pfm_step; destruct pfm_test; auto. Qed.
Lemma perceptron_additive : additive step.
Proof. intros [w k] z; unfold step, update; simpl; destruct Rle_dec; auto. Qed.

(** ** D3: N1's progress holds for every additive rule, hence t^2 gamma^2 <= ||w_t||^2 *)

Definition progress_inv (p : vec) (s : state) : Prop := dot p (fst s) >= INR (snd s) * dot p p.

Lemma progress_init p : progress_inv p init.
Proof. unfold progress_inv, init; simpl; rewrite dot_nil_r; lra. Qed.

Lemma progress_preserved zs p step :
  certificate_condition zs p -> additive step -> preserves (progress_inv p) step zs.
Proof.
  intros Hc Ha s z Hz Hs. destruct (Ha s z) as [E|E]; rewrite E; [exact Hs|].
  unfold progress_inv, update in *; cbn [fst snd]. rewrite dot_vadd_r, S_INR, (dot_comm p z).
  specialize (Hc z Hz). lra.
Qed.

(** D3 in the spec's shape (symbols t, gamma2, w_norm2; premise symbol pstar_dot_w). *)
Theorem D3_scalar (t gamma2 w_norm2 pstar_dot_w : R) :
  0 < t -> 0 < gamma2 -> 0 <= w_norm2 ->
  t >= 1 -> gamma2 > 0 ->
  pstar_dot_w >= t * gamma2 ->
  pstar_dot_w ^ 2 <= gamma2 * w_norm2 ->
  t ^ 2 * gamma2 <= w_norm2.
Proof.
  intros Ht Hg _ _ _ Hp Hcs.
  assert (H0 : 0 <= t * gamma2) by nra.
  assert (H1 : (t * gamma2) * (t * gamma2) <= pstar_dot_w * pstar_dot_w)
    by (apply Rmult_le_compat; lra).
  apply Rmult_le_reg_l with gamma2; [exact Hg|].
  replace (gamma2 * (t ^ 2 * gamma2)) with ((t * gamma2) * (t * gamma2)) by ring.
  replace (pstar_dot_w ^ 2) with (pstar_dot_w * pstar_dot_w) in Hcs by ring. lra.
Qed.

(** D3 on a state satisfying the progress invariant (t = 0 included). *)
Lemma D3_state (p : vec) (s : state) :
  0 < dot p p -> progress_inv p s -> INR (snd s) ^ 2 * dot p p <= norm2 (fst s).
Proof.
  intros Hpp Hs. unfold progress_inv in Hs. pose proof (pos_INR (snd s)).
  pose proof (cauchy_schwarz p (fst s)) as Hcs.
  assert (H0 : 0 <= INR (snd s) * dot p p) by (apply Rmult_le_pos; lra).
  assert (H1 : (INR (snd s) * dot p p) * (INR (snd s) * dot p p)
               <= dot p (fst s) * dot p (fst s)) by (apply Rmult_le_compat; lra).
  unfold norm2. apply Rmult_le_reg_l with (dot p p); [exact Hpp|].
  replace (dot p p * (INR (snd s) ^ 2 * dot p p))
    with ((INR (snd s) * dot p p) * (INR (snd s) * dot p p)) by ring. lra.
Qed.

Theorem D3_additive (zs : list vec) (p : vec) step (order : list nat) :
  certificate_condition zs p -> 0 < dot p p -> additive step -> valid_order zs order ->
  let s := fold_left step (presented zs order) init in
  INR (snd s) ^ 2 * dot p p <= norm2 (fst s).
Proof.
  intros Hc Hpp Ha Ho s. apply D3_state; [exact Hpp|].
  apply run_preserves; auto using progress_init, progress_preserved.
Qed.

Theorem D3_pdm zs p eps order :
  certificate_condition zs p -> 0 < dot p p -> valid_order zs order ->
  INR (snd (pdm_run eps zs order)) ^ 2 * dot p p <= norm2 (fst (pdm_run eps zs order)).
Proof. intros. apply D3_additive; auto using pdm_additive. Qed.

Theorem D3_pfm zs p beta order :
  certificate_condition zs p -> 0 < dot p p -> valid_order zs order ->
  INR (snd (pfm_run beta zs order)) ^ 2 * dot p p <= norm2 (fst (pfm_run beta zs order)).
Proof. intros. apply D3_additive; auto using pfm_additive. Qed.

Theorem D3_perceptron zs p order :
  certificate_condition zs p -> 0 < dot p p -> valid_order zs order ->
  INR (updates zs order) ^ 2 * dot p p <= norm2 (weights zs order).
Proof. intros. apply D3_additive; auto using perceptron_additive. Qed.

Theorem D3_pdm_succ zs p stages :
  certificate_condition zs p -> 0 < dot p p -> valid_stages zs stages ->
  INR (snd (pdm_succ zs stages)) ^ 2 * dot p p <= norm2 (fst (pdm_succ zs stages)).
Proof.
  intros Hc Hpp Hv. apply D3_state; [exact Hpp|]. unfold pdm_succ.
  apply succ_preserves; auto using progress_init.
  intros st _. apply progress_preserved; auto using pdm_additive.
Qed.

(** ** D2: the margin at convergence *)

(** D2 in the spec's shape (symbols t, eps, s, w_norm, gamma, all positive). *)
Theorem D2_scalar (t eps s w_norm gamma : R) :
  0 < t -> 0 < eps -> 0 < s -> 0 < w_norm -> 0 < gamma ->
  t * s > (1 - eps) * w_norm ^ 2 ->
  w_norm >= t * gamma ->
  eps <= 1 ->
  s / w_norm > (1 - eps) * w_norm / t /\ (1 - eps) * w_norm / t >= (1 - eps) * gamma.
Proof.
  intros Ht _ _ Hw _ Hno HD3 He. split.
  - apply Rmult_lt_reg_r with (w_norm * t); [nra|].
    unfold Rdiv. replace (s * / w_norm * (w_norm * t)) with (t * s) by (field; lra).
    replace ((1 - eps) * w_norm * / t * (w_norm * t)) with ((1 - eps) * w_norm ^ 2)
      by (field; lra). lra.
  - apply Rle_ge, Rmult_le_reg_r with t; [exact Ht|].
    unfold Rdiv. replace ((1 - eps) * w_norm * / t * t) with ((1 - eps) * w_norm) by (field; lra).
    nra.
Qed.

Lemma pdm_step_fixed_test eps s z :
  (1 <= snd s)%nat -> pdm_step eps s z = s ->
  INR (snd s) * dot (fst s) z > (1 - eps) * norm2 (fst s).
Proof.
  intros H1 E. unfold pdm_step, pdm_test in E. destruct s as [w [|t]]; cbn [fst snd] in *; [lia|].
  destruct (Rle_dec (INR (S t) * dot w z) ((1 - eps) * norm2 w)) as [Hle|Hgt].
  - unfold update in E. apply (f_equal snd) in E. cbn [snd] in E. lia.
  - lra.
Qed.

(** D2 on a converged state reached by any additive run (polynomial form): every z has
    t (w.z) > (1 - eps) ||w||^2, and ||w||^2 >= t^2 gamma^2. *)
Theorem D2_converged (zs : list vec) (p : vec) eps (s : state) :
  0 < dot p p -> progress_inv p s -> (1 <= snd s)%nat -> pdm_converged eps zs s ->
  forall z, In z zs ->
    INR (snd s) * dot (fst s) z > (1 - eps) * norm2 (fst s) /\
    norm2 (fst s) >= INR (snd s) ^ 2 * dot p p.
Proof.
  intros Hpp Hs H1 Hc z Hz. split.
  - apply pdm_step_fixed_test; auto.
  - apply Rle_ge, D3_state; auto.
Qed.

(** D2 in the spec's form with norms: w.z/||w|| > (1 - eps)||w||/t >= (1 - eps) gamma. *)
Theorem D2_converged_norms (zs : list vec) (p : vec) eps (s : state) :
  0 < dot p p -> progress_inv p s -> (1 <= snd s)%nat -> pdm_converged eps zs s ->
  0 < eps -> eps <= 1 ->
  forall z, In z zs ->
    dot (fst s) z / sqrt (norm2 (fst s)) > (1 - eps) * sqrt (norm2 (fst s)) / INR (snd s) /\
    (1 - eps) * sqrt (norm2 (fst s)) / INR (snd s) >= (1 - eps) * sqrt (dot p p).
Proof.
  intros Hpp Hs H1 Hc He0 He z Hz.
  destruct (D2_converged zs p eps s Hpp Hs H1 Hc z Hz) as [Hno HD3].
  set (t := INR (snd s)) in *. set (a := norm2 (fst s)) in *.
  assert (Ht : 1 <= t) by (unfold t; replace 1 with (INR 1) by reflexivity; apply le_INR; exact H1).
  assert (Ht2 : t ^ 2 >= 1) by nra.
  assert (Ha : 0 < a).
  { assert ((t ^ 2 - 1) * dot p p >= 0) by (apply Rle_ge, Rmult_le_pos; lra). lra. }
  assert (Hea : 0 <= (1 - eps) * a) by (apply Rmult_le_pos; lra).
  assert (Hsa : sqrt a * sqrt a = a) by (apply sqrt_sqrt; lra).
  assert (Hsp : sqrt (dot p p) * sqrt (dot p p) = dot p p) by (apply sqrt_sqrt; lra).
  assert (Hwa : 0 < sqrt a) by (apply sqrt_lt_R0; exact Ha).
  assert (Hgp : 0 < sqrt (dot p p)) by (apply sqrt_lt_R0; exact Hpp).
  assert (Hwz : 0 < dot (fst s) z).
  { destruct (Rle_lt_dec (dot (fst s) z) 0) as [Hn|]; [|assumption].
    exfalso. assert (0 <= t * (- dot (fst s) z)) by (apply Rmult_le_pos; lra). lra. }
  apply (D2_scalar t eps (dot (fst s) z) (sqrt a) (sqrt (dot p p))); try lra.
  - replace (sqrt a ^ 2) with a by (simpl; lra). lra.
  - assert (Hsq : (t * sqrt (dot p p)) * (t * sqrt (dot p p)) <= sqrt a * sqrt a) by nra.
    destruct (Rle_lt_dec (t * sqrt (dot p p)) (sqrt a)); [lra|]. nra.
Qed.

(** ** D1, eps > 1/2: the energy recursion and the bound *)

(** The recursion (pdm.py [d1_recursion]): a' = a + 2 w.z + ||z||^2, t w.z <= (1 - eps) a,
    ||z||^2 <= R^2 give a' <= (1 + 2 (1 - eps)/t) a + R^2. *)
Lemma pdm_recursion (t eps a a_next wz z2 R2 : R) :
  0 < t -> a_next = a + 2 * wz + z2 -> t * wz <= (1 - eps) * a -> z2 <= R2 ->
  a_next <= (1 + 2 * (1 - eps) / t) * a + R2.
Proof.
  intros Ht E Hu Hz. subst a_next.
  assert (wz <= (1 - eps) * a / t).
  { apply Rmult_le_reg_l with t; [exact Ht|]. unfold Rdiv.
    replace (t * ((1 - eps) * a * / t)) with ((1 - eps) * a) by (field; lra). lra. }
  replace ((1 + 2 * (1 - eps) / t) * a) with (a + 2 * ((1 - eps) * a / t)) by (field; lra).
  lra.
Qed.

(** The recursion on one update of a run (t >= 1), for PDM(eps') with eps' >= eps. *)
Theorem pdm_step_recursion (eps eps' R2 : R) (s : state) (z : vec) :
  eps <= eps' -> dot z z <= R2 -> (1 <= snd s)%nat -> pdm_test eps' (fst s) (snd s) z = true ->
  norm2 (fst (pdm_step eps' s z)) <= (1 + 2 * (1 - eps) / INR (snd s)) * norm2 (fst s) + R2.
Proof.
  intros He Hz H1 Ht. unfold pdm_step. rewrite Ht. unfold update; cbn [fst].
  destruct s as [w [|t]]; cbn [fst snd] in *; [lia|].
  unfold pdm_test in Ht.
  destruct (Rle_dec (INR (S t) * dot w z) ((1 - eps') * norm2 w)) as [Hle|]; [|discriminate].
  pose proof (norm2_nonneg w). pose proof (lt_0_INR (S t) ltac:(lia)).
  apply (pdm_recursion (INR (S t)) eps (norm2 w) _ (dot w z) (dot z z)); auto.
  - unfold norm2; rewrite norm2_vadd; ring.
  - unfold norm2 in *. nra.
Qed.

(** The energy invariant (pdm.py [d1_above_half_energy], by induction on the run):
    (2 eps - 1) ||w||^2 <= R^2 t, preserved by every PDM(eps') step with eps <= eps' . *)
Definition energy_above_half_inv (eps R2 : R) (s : state) : Prop :=
  (2 * eps - 1) * norm2 (fst s) <= R2 * INR (snd s).

Lemma energy_above_half_preserved zs eps eps' R2 :
  1 / 2 < eps -> eps <= eps' -> eps' <= 1 -> radius_bound zs R2 ->
  preserves (energy_above_half_inv eps R2) (pdm_step eps') zs.
Proof.
  intros Hh He He1 HR s z Hz Hs. unfold energy_above_half_inv in *.
  specialize (HR z Hz). assert (Ha : 0 <= norm2 (fst s)) by apply norm2_nonneg.
  destruct (pdm_test eps' (fst s) (snd s) z) eqn:Et.
  2:{ unfold pdm_step; rewrite Et; exact Hs. }
  pose proof (pdm_step_recursion eps eps' R2 s z He HR) as Hr.
  unfold pdm_step in *; rewrite Et in *; unfold update in *.
  destruct s as [w [|t]]; cbn [fst snd] in *.
  - (* t = 0: ||w||^2 <= 0, so w.z = 0 and the new ||w||^2 is ||z||^2 <= R^2 *)
    change (INR 0) with 0 in Hs. assert (0 <= (2 * eps - 1) * norm2 w) by (apply Rmult_le_pos; lra).
    assert (Hw0 : norm2 w = 0).
    { assert ((2 * eps - 1) * norm2 w = 0) by lra.
      apply Rmult_integral in H0 as [H0|H0]; lra. }
    pose proof (cauchy_schwarz w z) as Hcs. unfold norm2 in *.
    assert (Hwz : dot w z = 0) by (rewrite Hw0 in Hcs; nra).
    rewrite norm2_vadd, Hw0, Hwz. change (INR 1) with 1. pose proof (norm2_nonneg z).
    assert ((2 * eps - 1) * dot z z <= dot z z) by nra. lra.
  - specialize (Hr ltac:(lia) eq_refl).
    set (T := INR (S t)) in *. assert (HT : 0 < T) by (apply lt_0_INR; lia).
    rewrite S_INR; fold T.
    set (a := norm2 w) in *. set (a' := norm2 (vadd w z)) in *.
    assert (Hr' : T * a' <= (T + 2 * (1 - eps)) * a + T * R2).
    { replace ((T + 2 * (1 - eps)) * a + T * R2) with (T * ((1 + 2 * (1 - eps) / T) * a + R2))
        by (field; lra). apply Rmult_le_compat_l; lra. }
    assert (H2 : (2 * eps - 1) * ((T + 2 * (1 - eps)) * a) <= (T + 2 * (1 - eps)) * (R2 * T)).
    { replace ((2 * eps - 1) * ((T + 2 * (1 - eps)) * a)) with ((T + 2 * (1 - eps)) * ((2 * eps - 1) * a))
        by ring. apply Rmult_le_compat_l; lra. }
    apply Rmult_le_reg_l with T; [exact HT|].
    assert (H3 : (2 * eps - 1) * (T * R2) <= T * R2) by (assert (0 <= T * R2) by nra; nra).
    nra.
Qed.

Lemma energy_above_half_init eps R2 : energy_above_half_inv eps R2 init.
Proof. unfold energy_above_half_inv, init, norm2; simpl; lra. Qed.

Theorem pdm_energy_above_half zs eps R2 order :
  1 / 2 < eps -> eps <= 1 -> radius_bound zs R2 -> valid_order zs order ->
  (2 * eps - 1) * norm2 (fst (pdm_run eps zs order)) <= R2 * INR (snd (pdm_run eps zs order)).
Proof.
  intros Hh He HR Ho. unfold pdm_run, pdm_run_from.
  apply run_preserves; [| exact Ho | apply energy_above_half_init].
  apply energy_above_half_preserved; try lra; assumption.
Qed.

(** D1 (eps > 1/2) in the spec's shape: symbols t, eps, R2, gamma2 (positive), premise
    symbol a_t; hypotheses eps > 1/2, eps <= 1; premises t >= 1, energy, D3. *)
Theorem D1_above_half_scalar (t eps R2 gamma2 a_t : R) :
  0 < t -> 0 < eps -> 0 < R2 -> 0 < gamma2 ->
  eps > 1 / 2 -> eps <= 1 ->
  t >= 1 ->
  a_t <= R2 * t / (2 * eps - 1) ->
  t ^ 2 * gamma2 <= a_t ->
  t <= R2 / ((2 * eps - 1) * gamma2).
Proof.
  intros Ht _ _ Hg Hh _ _ Hen HD3.
  assert (Hd : 0 < 2 * eps - 1) by lra.
  assert (Hk : t ^ 2 * gamma2 <= R2 * t / (2 * eps - 1)) by lra.
  apply Rmult_le_reg_l with (t * ((2 * eps - 1) * gamma2)); [apply Rmult_lt_0_compat; nra|].
  replace (t * ((2 * eps - 1) * gamma2) * (R2 / ((2 * eps - 1) * gamma2))) with (t * R2)
    by (field; nra).
  replace (t * ((2 * eps - 1) * gamma2) * t) with ((2 * eps - 1) * (t ^ 2 * gamma2)) by ring.
  apply Rle_trans with ((2 * eps - 1) * (R2 * t / (2 * eps - 1))).
  - apply Rmult_le_compat_l; lra.
  - right; field; lra.
Qed.

(** D1 (eps > 1/2) for every state with the progress and energy invariants:
    t (2 eps - 1) gamma^2 <= R^2. *)
Lemma D1_above_half_state (p : vec) eps R2 s :
  1 / 2 < eps -> 0 < dot p p -> 0 <= R2 ->
  progress_inv p s -> energy_above_half_inv eps R2 s ->
  INR (snd s) * ((2 * eps - 1) * dot p p) <= R2.
Proof.
  intros Hh Hpp HR Hs He. pose proof (D3_state p s Hpp Hs) as HD3.
  unfold energy_above_half_inv in He. set (t := INR (snd s)) in *.
  assert (Ht : 0 <= t) by apply pos_INR.
  destruct (Req_dec t 0) as [E|E]; [rewrite E; lra|].
  assert (Htp : 0 < t) by lra.
  apply Rmult_le_reg_l with t; [exact Htp|].
  assert (H1 : (2 * eps - 1) * (t ^ 2 * dot p p) <= (2 * eps - 1) * norm2 (fst s))
    by (apply Rmult_le_compat_l; lra).
  nra.
Qed.

(** D1 (eps > 1/2) for every PDM(eps) run, in every order: t <= R^2/((2 eps - 1) gamma^2). *)
Theorem D1_above_half_pdm zs p eps R2 order :
  certificate_condition zs p -> 0 < dot p p -> radius_bound zs R2 -> 0 <= R2 ->
  1 / 2 < eps -> eps <= 1 -> valid_order zs order ->
  INR (snd (pdm_run eps zs order)) * ((2 * eps - 1) * dot p p) <= R2.
Proof.
  intros Hc Hpp HR HR0 Hh He Ho. apply D1_above_half_state; auto.
  - unfold pdm_run, pdm_run_from.
    apply run_preserves; auto using progress_init, progress_preserved, pdm_additive.
  - apply pdm_energy_above_half; auto.
Qed.

(** ... and for every PDM-succ run whose stages all have eps <= eps_i <= 1 (in particular
    eps = eps_final): the stages' conditions are stricter than PDM(eps)'s. *)
Theorem D1_above_half_pdm_succ zs p eps R2 stages :
  certificate_condition zs p -> 0 < dot p p -> radius_bound zs R2 -> 0 <= R2 ->
  1 / 2 < eps -> (forall st, In st stages -> eps <= fst st <= 1) -> valid_stages zs stages ->
  INR (snd (pdm_succ zs stages)) * ((2 * eps - 1) * dot p p) <= R2.
Proof.
  intros Hc Hpp HR HR0 Hh He Hv. apply D1_above_half_state; auto; unfold pdm_succ.
  - apply succ_preserves; auto using progress_init.
    intros st _; apply progress_preserved; auto using pdm_additive.
  - apply succ_preserves; auto using energy_above_half_init.
    intros st Hst; destruct (He st Hst); apply energy_above_half_preserved; auto.
Qed.

(** ** MU: repeated updates *)

(** MU in the spec's shape: the PDM condition at (w + n z, t + n), expanded with
    p = w.z, q = ||z||^2, l = ||w||^2, is the quadratic of the PDM paper's section 4 in n. *)
Theorem MU_scalar (n t eps p q l : R) :
  0 < n -> 0 < t -> 0 < eps ->
  (t + n) * (p + n * q) - (1 - eps) * (l + 2 * n * p + n ^ 2 * q) =
  eps * q * n ^ 2 + (t * q - (1 - 2 * eps) * p) * n - ((1 - eps) * l - t * p).
Proof. intros; ring. Qed.

Definition mu_quad (eps t p q l x : R) : R :=
  eps * q * x ^ 2 + (t * q - (1 - 2 * eps) * p) * x - ((1 - eps) * l - t * p).

(** w + n z, as the run builds it (n presentations of z, each an update). *)
Definition rep_add (w z : vec) (n : nat) : vec := Nat.iter n (fun v => vadd v z) w.

Lemma dot_rep_add x w z n : dot x (rep_add w z n) = dot x w + INR n * dot x z.
Proof.
  induction n as [|n IH]; [simpl; ring|].
  unfold rep_add in *; simpl Nat.iter. rewrite dot_vadd_r, IH, S_INR. ring.
Qed.

Lemma norm2_rep_add w z n :
  norm2 (rep_add w z n) = norm2 w + 2 * INR n * dot w z + INR n ^ 2 * norm2 z.
Proof.
  unfold norm2. rewrite dot_rep_add, (dot_comm (rep_add w z n) w), (dot_comm (rep_add w z n) z),
    !dot_rep_add, (dot_comm z w). ring.
Qed.

(** The PDM condition at (w + n z, t + n) is [mu_quad n <= 0] (pdm.py [mu], first two). *)
Theorem mu_condition eps w z t n :
  INR (t + n) * dot (rep_add w z n) z - (1 - eps) * norm2 (rep_add w z n) =
  mu_quad eps (INR t) (dot w z) (norm2 z) (norm2 w) (INR n).
Proof.
  rewrite norm2_rep_add, (dot_comm (rep_add w z n) z), dot_rep_add, plus_INR.
  unfold mu_quad, norm2. rewrite (dot_comm z w). ring.
Qed.

(** The positive root of the quadratic and the count floor(root) + 1. *)
Definition mu_root (eps t p q l : R) : R :=
  (- (t * q - (1 - 2 * eps) * p)
   + sqrt ((t * q - (1 - 2 * eps) * p) ^ 2 + 4 * eps * q * ((1 - eps) * l - t * p)))
  / (2 * eps * q).

Definition mu_count (eps t p q l : R) : nat := Z.to_nat (Int_part (mu_root eps t p q l) + 1).

(** Completing the square (pdm.py [mu], third): with eps q > 0 and the condition holding at
    n = 0, mu_quad x = eps q (x - root) (x - root'), root' <= 0 <= root. *)
Lemma mu_root_facts eps t p q l :
  0 < eps -> 0 < q -> 0 <= (1 - eps) * l - t * p ->
  exists r2, 0 <= mu_root eps t p q l /\ r2 <= 0 /\
    forall x, mu_quad eps t p q l x = eps * q * (x - mu_root eps t p q l) * (x - r2).
Proof.
  intros He Hq H0. unfold mu_root, mu_quad.
  set (B := t * q - (1 - 2 * eps) * p). set (Cc := (1 - eps) * l - t * p).
  set (D := B ^ 2 + 4 * eps * q * Cc).
  assert (HC : 0 <= 4 * eps * q * Cc) by (apply Rmult_le_pos; [nra|exact H0]).
  assert (HD : 0 <= D) by (unfold D; nra).
  pose proof (sqrt_sqrt D HD) as Hs. pose proof (sqrt_pos D) as Hs0.
  assert (HB : B * B <= sqrt D * sqrt D) by (rewrite Hs; unfold D; nra).
  assert (HB1 : B <= sqrt D) by nra. assert (HB2 : - B <= sqrt D) by nra.
  assert (Heq : 0 < 2 * eps * q) by nra.
  exists ((- B - sqrt D) / (2 * eps * q)). repeat split.
  - unfold Rdiv. apply Rmult_le_pos; [lra|]. apply Rlt_le, Rinv_0_lt_compat; exact Heq.
  - assert (E : (- B - sqrt D) / (2 * eps * q) * (2 * eps * q) = - B - sqrt D) by (field; lra).
    destruct (Rle_lt_dec ((- B - sqrt D) / (2 * eps * q)) 0) as [|Hc]; [assumption|].
    exfalso. assert (0 < (- B - sqrt D) / (2 * eps * q) * (2 * eps * q))
      by (apply Rmult_lt_0_compat; lra). lra.
  - intros x.
    transitivity (eps * q * x ^ 2 + B * x + (B ^ 2 - sqrt D * sqrt D) / (4 * eps * q)).
    + rewrite Hs. unfold D. field. lra.
    + field. lra.
Qed.

(** For x >= 0: the condition fails at x (mu_quad x > 0) iff x > root. *)
Theorem mu_quad_pos_iff eps t p q l x :
  0 < eps -> 0 < q -> 0 <= (1 - eps) * l - t * p -> 0 <= x ->
  (mu_quad eps t p q l x > 0 <-> x > mu_root eps t p q l).
Proof.
  intros He Hq H0 Hx. destruct (mu_root_facts eps t p q l He Hq H0) as [r2 [Hr1 [Hr2 Hf]]].
  rewrite Hf. set (r1 := mu_root eps t p q l) in *.
  assert (Heq : 0 < eps * q) by nra. split; intros H.
  - destruct (Rle_lt_dec x r1) as [Hle|]; [|assumption]. exfalso.
    assert (eps * q * (x - r1) * (x - r2) <= 0).
    { replace (eps * q * (x - r1) * (x - r2)) with (- ((eps * q) * (r1 - x) * (x - r2))) by ring.
      assert (0 <= (eps * q) * (r1 - x) * (x - r2)) by (apply Rmult_le_pos; [apply Rmult_le_pos|]; lra).
      lra. }
    lra.
  - apply Rmult_lt_0_compat; [apply Rmult_lt_0_compat|]; lra.
Qed.

(** An integer n is > r iff n >= up r = floor(r) + 1. *)
Lemma gt_iff_ge_up (r : R) (n : Z) : IZR n > r <-> (up r <= n)%Z.
Proof.
  destruct (archimed r) as [H1 H2]. split; intros H.
  - destruct (Z_le_gt_dec (up r) n) as [|Hlt]; [assumption|]. exfalso.
    assert (Hn : (n <= up r - 1)%Z) by lia. apply IZR_le in Hn. rewrite minus_IZR in Hn. lra.
  - apply IZR_le in H. lra.
Qed.

(** The count floor(root) + 1 is the smallest n >= 1 at which the condition fails at
    (w + n z, t + n): it fails there, and holds at every 1 <= n < count; for every n,
    it fails at n iff n >= count. *)
Theorem mu_count_spec eps t p q l :
  0 < eps -> 0 < q -> 0 <= (1 - eps) * l - t * p ->
  (1 <= mu_count eps t p q l)%nat /\
  mu_quad eps t p q l (INR (mu_count eps t p q l)) > 0 /\
  (forall n, (n < mu_count eps t p q l)%nat -> mu_quad eps t p q l (INR n) <= 0) /\
  (forall n : nat, mu_quad eps t p q l (INR n) > 0 <-> (mu_count eps t p q l <= n)%nat).
Proof.
  intros He Hq H0. destruct (mu_root_facts eps t p q l He Hq H0) as [r2 [Hr1 _]].
  set (r := mu_root eps t p q l) in *.
  assert (Hup : (Int_part r + 1 = up r)%Z) by (unfold Int_part; lia).
  assert (Hup0 : (1 <= up r)%Z).
  { destruct (archimed r) as [H1 _]. assert (Hz : IZR 0 < IZR (up r)) by (simpl; lra).
    apply lt_IZR in Hz. lia. }
  assert (Hiff : forall n : nat, mu_quad eps t p q l (INR n) > 0 <-> (mu_count eps t p q l <= n)%nat).
  { intros n. rewrite mu_quad_pos_iff by (auto; apply pos_INR). fold r.
    rewrite INR_IZR_INZ, gt_iff_ge_up. unfold mu_count. fold r. rewrite Hup. lia. }
  assert (Hc1 : (1 <= mu_count eps t p q l)%nat) by (unfold mu_count; fold r; rewrite Hup; lia).
  split; [exact Hc1|]. split; [apply Hiff; lia|]. split; [|exact Hiff].
  intros n Hn. destruct (Rle_lt_dec (mu_quad eps t p q l (INR n)) 0) as [|Hlt]; [assumption|].
  apply Hiff in Hlt. lia.
Qed.

(** Presenting the same z M times in a row to PDM(eps) at (w, t), t >= 1, when the condition
    holds at (w, t): exactly min(M, count) updates are made, ending at
    (w + min(M, count) z, t + min(M, count)). *)
Theorem mu_repeated_run eps w z t M :
  0 < eps -> 0 < norm2 z -> (1 <= t)%nat ->
  INR t * dot w z <= (1 - eps) * norm2 w ->
  let c := mu_count eps (INR t) (dot w z) (norm2 z) (norm2 w) in
  fold_left (pdm_step eps) (repeat z M) (w, t) = (rep_add w z (Nat.min M c), (t + Nat.min M c)%nat).
Proof.
  intros He Hq Ht H0 c.
  assert (H0' : 0 <= (1 - eps) * norm2 w - INR t * dot w z) by lra.
  destruct (mu_count_spec eps (INR t) (dot w z) (norm2 z) (norm2 w) He Hq H0')
    as [Hc1 [Hcf [Hlt _]]]. fold c in Hc1, Hcf, Hlt.
  (* the state after k < = c updates, then M more presentations *)
  assert (Gen : forall m k, (k <= c)%nat ->
    fold_left (pdm_step eps) (repeat z m) (rep_add w z k, (t + k)%nat) =
    (rep_add w z (Nat.min (k + m) c), (t + Nat.min (k + m) c)%nat)).
  { intros m; induction m as [|m IH]; intros k Hk.
    - simpl. rewrite Nat.add_0_r, Nat.min_l by exact Hk. reflexivity.
    - simpl repeat. simpl fold_left.
      assert (Htest : pdm_test eps (rep_add w z k) (t + k) z =
                      if Rle_dec (mu_quad eps (INR t) (dot w z) (norm2 z) (norm2 w) (INR k)) 0
                      then true else false).
      { unfold pdm_test. destruct (t + k)%nat as [|m0] eqn:Etk; [lia|]. rewrite <- Etk.
        rewrite <- mu_condition.
        destruct (Rle_dec (INR (t + k) * dot (rep_add w z k) z) ((1 - eps) * norm2 (rep_add w z k)));
        destruct Rle_dec; auto; lra. }
      destruct (Nat.eq_dec k c) as [Ekc|Nkc].
      + (* at k = c the condition fails: the state no longer changes *)
        assert (Hs : pdm_step eps (rep_add w z k, (t + k)%nat) z = (rep_add w z k, (t + k)%nat)).
        { unfold pdm_step. cbn [fst snd]. rewrite Htest. subst k.
          destruct Rle_dec; [lra|reflexivity]. }
        rewrite Hs. rewrite IH by lia. subst k.
        rewrite !Nat.min_r by lia. reflexivity.
      + assert (Hs : pdm_step eps (rep_add w z k, (t + k)%nat) z = (rep_add w z (S k), (t + S k)%nat)).
        { unfold pdm_step. cbn [fst snd]. rewrite Htest.
          destruct Rle_dec as [|Hn]; [|exfalso; apply Hn, Hlt; lia].
          unfold update, rep_add. cbn [fst snd]. simpl Nat.iter. f_equal. lia. }
        rewrite Hs, IH by lia. rewrite Nat.add_succ_r. reflexivity. }
  pose proof (Gen M 0%nat ltac:(lia)) as G. simpl in G. rewrite Nat.add_0_r in G. exact G.
Qed.

(** ** Non-vacuity: concrete runs on the textbook's exercise 6.1 ([Perceptron.ex61]:
    p = (1, 1, 0), gamma^2 = 2, R^2 = 9) and a concrete repeated update. *)

Lemma pdm_step_upd eps s z : pdm_test eps (fst s) (snd s) z = true -> pdm_step eps s z = update s z.
Proof. intros H; unfold pdm_step; rewrite H; reflexivity. Qed.
Lemma pdm_step_keep eps s z : pdm_test eps (fst s) (snd s) z = false -> pdm_step eps s z = s.
Proof. intros H; unfold pdm_step; rewrite H; reflexivity. Qed.
Lemma pfm_step_upd beta s z : pfm_test beta (fst s) z = true -> pfm_step beta s z = update s z.
Proof. intros H; unfold pfm_step; rewrite H; reflexivity. Qed.
Lemma pfm_step_keep beta s z : pfm_test beta (fst s) z = false -> pfm_step beta s z = s.
Proof. intros H; unfold pfm_step; rewrite H; reflexivity. Qed.

Ltac decide_test :=
  unfold pdm_test, pfm_test, norm2; simpl;
  repeat (destruct Rle_dec; simpl); first [reflexivity | exfalso; lra].

(** Evaluate a concrete run one presentation at a time (innermost step first). *)
Ltac eval_run :=
  repeat match goal with
  | |- context [pdm_step ?e ?s ?z] =>
      lazymatch s with context [pdm_step _ _ _] => fail | _ =>
      first [rewrite (pdm_step_upd e s z) by decide_test
            | rewrite (pdm_step_keep e s z) by decide_test]; unfold update; simpl end
  | |- context [pfm_step ?e ?s ?z] =>
      lazymatch s with context [pfm_step _ _ _] => fail | _ =>
      first [rewrite (pfm_step_upd e s z) by decide_test
            | rewrite (pfm_step_keep e s z) by decide_test]; unfold update; simpl end
  end.

Ltac decide_tests := eval_run; try reflexivity; try (f_equal; repeat f_equal; lra).

Definition ex_order : list nat := [0; 1; 2; 3]%nat.

Lemma ex_order_valid : valid_order ex61 ex_order.
Proof. repeat constructor; simpl; lia. Qed.

(** PDM(3/4), one epoch: one update, w = (1, 1, 1), and it has converged. *)
Example pdm_run_example :
  pdm_run (3 / 4) ex61 ex_order = ([1; 1; 1], 1%nat) /\
  pdm_converged (3 / 4) ex61 ([1; 1; 1], 1%nat).
Proof.
  split.
  - unfold pdm_run, pdm_run_from, ex_order, ex61, presented, pattern, init. simpl.
    decide_tests.
  - intros z Hz. unfold ex61 in Hz.
    repeat destruct Hz as [Hz|Hz]; subst; try contradiction; apply pdm_step_keep; decide_test.
Qed.

(** PDM(1/2): two updates, w = (2, 2, 0), converged. *)
Example pdm_half_run_example :
  pdm_run (1 / 2) ex61 ex_order = ([2; 2; 0], 2%nat) /\
  pdm_converged (1 / 2) ex61 ([2; 2; 0], 2%nat).
Proof.
  split.
  - unfold pdm_run, pdm_run_from, ex_order, ex61, presented, pattern, init. simpl.
    decide_tests.
  - intros z Hz. unfold ex61 in Hz.
    repeat destruct Hz as [Hz|Hz]; subst; try contradiction; apply pdm_step_keep; decide_test.
Qed.

(** PDM-succ with eps = 3/4 then 1/2: the second stage continues from (1, 1, 1), t = 1. *)
Example pdm_succ_example :
  pdm_succ ex61 [(3 / 4, ex_order); (1 / 2, ex_order)] = ([2; 2; 0], 2%nat).
Proof.
  unfold pdm_succ, pdm_succ_from. simpl fold_left. cbn [fst snd].
  unfold pdm_run_from, ex_order, ex61, presented, pattern, init. simpl. decide_tests.
Qed.

(** PFM(1/2), one epoch: one update. *)
Example pfm_run_example : pfm_run (1 / 2) ex61 ex_order = ([1; 1; 1], 1%nat).
Proof.
  unfold pfm_run, pfm_run_from, ex_order, ex61, presented, pattern, init. simpl. decide_tests.
Qed.

(** D3, D1 (eps = 3/4) and D2 with all their hypotheses on the PDM(3/4) run. *)
Example D1_D2_D3_example :
  certificate_condition ex61 ex61_p /\ 0 < dot ex61_p ex61_p /\
  radius_bound ex61 ex61_R2 /\ 0 <= ex61_R2 /\ valid_order ex61 ex_order /\
  (1 <= snd (pdm_run (3 / 4) ex61 ex_order))%nat /\
  pdm_converged (3 / 4) ex61 (pdm_run (3 / 4) ex61 ex_order) /\
  INR (snd (pdm_run (3 / 4) ex61 ex_order)) * ((2 * (3 / 4) - 1) * dot ex61_p ex61_p) <= ex61_R2 /\
  INR (snd (pdm_run (3 / 4) ex61 ex_order)) ^ 2 * dot ex61_p ex61_p
    <= norm2 (fst (pdm_run (3 / 4) ex61 ex_order)).
Proof.
  pose proof ex61_certificate as [_ [_ [_ [Hc Hpp]]]]. pose proof ex61_radius as [HR HR0].
  pose proof ex_order_valid as Ho. destruct pdm_run_example as [E Hconv].
  repeat split; auto.
  - rewrite E; simpl; lia.
  - rewrite E; exact Hconv.
  - apply D1_above_half_pdm; auto; lra.
  - apply D3_pdm; auto.
Qed.

(** MU: w = (-3, -3), z = (2, 2), t = 1, eps = 1/2: p = -12, q = 8, l = 18, the root is
    3/2 and the count floor(3/2) + 1 = 2; presenting z five times makes two updates. *)
Example mu_repeated_example :
  mu_count (1 / 2) 1 (-12) 8 18 = 2%nat /\
  fold_left (pdm_step (1 / 2)) (repeat [2; 2] 5) ([-3; -3], 1%nat) = ([1; 1], 3%nat).
Proof.
  assert (Hr : mu_root (1 / 2) 1 (-12) 8 18 = 3 / 2).
  { unfold mu_root.
    replace ((1 * 8 - (1 - 2 * (1 / 2)) * -12) ^ 2 + 4 * (1 / 2) * 8 * ((1 - 1 / 2) * 18 - 1 * -12))
      with (20 * 20) by field.
    rewrite sqrt_square by lra. field. }
  assert (Hc : mu_count (1 / 2) 1 (-12) 8 18 = 2%nat).
  { unfold mu_count. rewrite Hr. unfold Int_part.
    replace (up (3 / 2)) with 2%Z; [reflexivity|]. apply tech_up; simpl; lra. }
  split; [exact Hc|].
  assert (H := mu_repeated_run (1 / 2) [-3; -3] [2; 2] 1 5 ltac:(lra)
    ltac:(unfold norm2; simpl; lra) ltac:(lia) ltac:(unfold norm2; simpl; lra)).
  cbv zeta in H.
  assert (Hc' : mu_count (1 / 2) (INR 1) (dot [-3; -3] [2; 2]) (norm2 [2; 2]) (norm2 [-3; -3])
                = 2%nat) by (rewrite <- Hc; f_equal; unfold norm2; simpl; ring).
  rewrite Hc' in H. etransitivity; [exact H|]. unfold rep_add; simpl. f_equal. repeat f_equal; lra.
Qed.
