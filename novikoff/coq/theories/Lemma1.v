(** * Lemma 1 (L1), D1 for eps = 1/2, and P1 (PFM), mirroring lemma1.py, pdm.py, pfm.py.

    Spec correspondence (novikoff/spec/pdm.py; id and sympy [name]); each [*_spec]
    theorem has exactly the shape of the generated [<ID>_statement] (Statements.v):
    - L1 [lemma1_updates_le_log_bound]      : [L1_spec]; the core in the variables
        u = t/delta, a = C + ln delta: [L1_core]; the weaker-hypothesis form used below
        (delta >= e^-C, no hypothesis on t): [L1_weak].
    - D1, eps = 1/2 [pdm_half_updates_le_log_bound] : [D1_half_spec]; harmonic numbers
        [harm_le_1_plus_ln] (H(t) <= 1 + ln t); the energy a(t) <= R^2 t H(t) for every
        PDM(1/2) run and every PDM-succ run whose stages have 1/2 <= eps_i <= 1:
        [pdm_energy_half], [pdm_succ_energy_half]; the bound for every run:
        [D1_half_pdm], [D1_half_pdm_succ].
    - P1 [pfm_updates_le_lemma1_bound]     : [P1_spec] (from the spec premise "lemma_form"),
        with [small_x_bound] (2 x^2 e^-2x <= 1 on [0, 1]).

    Analytic facts used: only the standard library's exp/ln ([exp_ineq1_le]: 1 + x <= e^x,
    [ln_exp], [exp_ln], [ln_mult], [ln_increasing], [exp_increasing]).  The single
    tangent-line inequality ln y <= y - 1 ([ln_le_sub1]) replaces each "Monotone" step of
    the Python proofs (a derivative-sign argument there):
    - lemma1.py [_h_nonneg] (h(a) = g - ln g - 1 - a >= 0, minimal at a* = e - ln(1 + e)
      where g(a* ) = 1 + e): the tangent of ln at g(a* ) = 1 + e, [h_nonneg];
    - lemma1.py [l1_core]'s tangent of the convex phi(u) = u - ln u at g: [phi_tangent];
    - lemma1.py [log_ge_zero] (ln monotone): [ln_ge_neg];
    - pdm.py [log_one_plus_ge] (ln(1 + 1/t) >= 1/(t + 1)): [ln_step].
    The constants: c b > 1 ([cb_gt_1], c = 1 + 1/e, b = ln(1 + e)) because b > ln e = 1 and
    c > 1; pfm.py's [small_x_bound] because e^(2x) >= (1 + x)^2 >= 2 x^2 on [0, 1]; neither
    needs interval arithmetic, so no axiom beyond Coq's reals is used. *)

From Coq Require Import Reals List Lra Psatz Arith.
From Novikoff Require Import Vectors Perceptron LargeMargin.
Import ListNotations.
Local Open Scope R_scope.

(** ** Analytic facts *)

Lemma ln_le_sub1 (y : R) : 0 < y -> ln y <= y - 1.
Proof. intros Hy. pose proof (exp_ineq1_le (ln y)) as H. rewrite exp_ln in H by exact Hy. lra. Qed.

Lemma ln_div' (x y : R) : 0 < x -> 0 < y -> ln (x / y) = ln x - ln y.
Proof.
  intros Hx Hy. unfold Rdiv. rewrite ln_mult by (auto; apply Rinv_0_lt_compat; exact Hy).
  rewrite ln_Rinv by exact Hy. ring.
Qed.

Lemma ln_le_mono (x y : R) : 0 < x -> x <= y -> ln x <= ln y.
Proof. intros Hx [H|H]; [apply Rlt_le, ln_increasing; auto | subst; lra]. Qed.

Lemma exp_m1 : exp (- 1) = / exp 1.
Proof. replace (- 1) with (- (1)) by ring. apply exp_Ropp. Qed.

Lemma e_gt_1 : 1 < exp 1.
Proof. pose proof (exp_ineq1_le 1). lra. Qed.

(** The constants c = 1 + 1/e and b = ln(1 + e). *)
Definition c_const : R := exp (- 1) + 1.
Definition b_const : R := ln (1 + exp 1).

Lemma b_gt_1 : 1 < b_const.
Proof.
  unfold b_const. rewrite <- (ln_exp 1) at 1. apply ln_increasing; [apply exp_pos|].
  pose proof e_gt_1. lra.
Qed.

Lemma c_gt_1 : 1 < c_const.
Proof. unfold c_const. pose proof (exp_pos (- 1)). lra. Qed.

(** lemma1.py [cb_gt_1] *)
Lemma cb_gt_1 : c_const * b_const > 1.
Proof. pose proof b_gt_1; pose proof c_gt_1. nra. Qed.

(** c e = 1 + e *)
Lemma c_times_e : c_const * exp 1 = 1 + exp 1.
Proof. unfold c_const. rewrite exp_m1. field. pose proof (exp_pos 1). lra. Qed.

(** ** The core: u > 0, a >= 0, u - ln u <= 1 + a  =>  u <= g(a) = c (a + b) *)

Definition g_of (a : R) : R := c_const * (a + b_const).

(** lemma1.py step [g_gt_1] *)
Lemma g_gt_1 (a : R) : 0 <= a -> g_of a > 1.
Proof. intros Ha. unfold g_of. pose proof cb_gt_1; pose proof c_gt_1. nra. Qed.

(** lemma1.py [_h_nonneg]: h(a) = g - ln g - 1 - a >= 0 (for every a with g(a) > 0); the
    tangent of ln at g(a* ) = 1 + e: ln g <= b + g/(1 + e) - 1, and g e/(1 + e) = a + b. *)
Lemma h_nonneg (a : R) : 0 < g_of a -> g_of a - ln (g_of a) - 1 - a >= 0.
Proof.
  intros Hg. pose proof (exp_pos 1) as He.
  assert (Hsplit : ln (g_of a) = b_const + ln (g_of a / (1 + exp 1))).
  { unfold b_const. rewrite <- ln_mult by (try apply Rdiv_lt_0_compat; lra).
    f_equal. field. lra. }
  pose proof (ln_le_sub1 (g_of a / (1 + exp 1)) ltac:(apply Rdiv_lt_0_compat; lra)) as Ht.
  assert (Hga : g_of a - g_of a / (1 + exp 1) = a + b_const).
  { unfold g_of. replace (c_const * (a + b_const) - c_const * (a + b_const) / (1 + exp 1))
      with ((c_const * exp 1) * (a + b_const) / (1 + exp 1)) by (field; lra).
    rewrite c_times_e. field. lra. }
  lra.
Qed.

(** lemma1.py [l1_core]'s tangent: phi(u) >= phi(g) + (1 - 1/g)(u - g), phi(u) = u - ln u. *)
Lemma phi_tangent (u g : R) : 0 < u -> 0 < g ->
  (u - ln u) - (g - ln g) >= (1 - / g) * (u - g).
Proof.
  intros Hu Hg. pose proof (ln_le_sub1 (u / g) ltac:(apply Rdiv_lt_0_compat; lra)) as H.
  rewrite ln_div' in H by auto.
  replace ((1 - / g) * (u - g)) with (u - g - (u / g - 1)) by (field; lra). lra.
Qed.

Theorem L1_core (u a : R) : 0 < u -> 0 <= a -> u - ln u <= 1 + a -> u <= g_of a.
Proof.
  intros Hu Ha Hyp. pose proof (g_gt_1 a Ha) as Hg1.
  pose proof (h_nonneg a ltac:(lra)) as Hh.
  destruct (Rle_lt_dec u (g_of a)) as [|Hcase]; [assumption|]. exfalso.
  pose proof (phi_tangent u (g_of a) Hu ltac:(lra)) as Ht.
  assert (Hpos : 0 < (1 - / g_of a) * (u - g_of a)).
  { apply Rmult_lt_0_compat; [|lra].
    assert (/ g_of a < 1) by (rewrite <- Rinv_1; apply Rinv_lt_contravar; lra). lra. }
  lra.
Qed.

(** lemma1.py [log_ge_zero] in the form used: delta >= e^-C  =>  C + ln delta >= 0. *)
Lemma ln_ge_neg (delta C : R) : 0 < delta -> delta >= exp (- C) -> C + ln delta >= 0.
Proof.
  intros Hd Hb. pose proof (ln_le_mono (exp (- C)) delta (exp_pos _) ltac:(lra)) as H.
  rewrite ln_exp in H. lra.
Qed.

(** lemma1.py [l1]: L1 with the weaker hypothesis delta >= e^-C and none on t. *)
Theorem L1_weak (t delta C : R) :
  0 < t -> 0 < delta -> delta >= exp (- C) ->
  t <= delta * (C + ln t + 1) ->
  t <= delta * (C + ln (delta * (1 + exp 1))) * (exp (- 1) + 1).
Proof.
  intros Ht Hd Hb Hyp. pose proof (exp_pos 1) as He.
  (* change of variables u = t/delta, a = C + ln delta *)
  set (u := t / delta). set (a := C + ln delta).
  assert (Hu : 0 < u) by (apply Rdiv_lt_0_compat; lra).
  assert (Ha : 0 <= a) by (pose proof (ln_ge_neg delta C Hd Hb); unfold a; lra).
  assert (Hlnu : ln u = ln t - ln delta) by (apply ln_div'; lra).
  assert (Hu1 : u <= C + ln t + 1).
  { unfold u. apply Rmult_le_reg_l with delta; [lra|].
    replace (delta * (t / delta)) with t by (field; lra). lra. }
  assert (Hphi : u - ln u <= 1 + a) by (unfold a; lra).
  pose proof (L1_core u a Hu Ha Hphi) as Hc.
  (* back: t = delta u <= delta c (a + b) *)
  rewrite ln_mult by lra. fold b_const.
  unfold g_of, c_const in Hc. unfold a in Hc.
  replace t with (delta * u) by (unfold u; field; lra).
  replace (delta * (C + (ln delta + b_const)) * (exp (- 1) + 1))
    with (delta * ((exp (- 1) + 1) * (C + ln delta + b_const))) by ring.
  apply Rmult_le_compat_l; lra.
Qed.

(** L1 in the spec's shape ([L1_statement]). *)
Theorem L1_spec : forall (t : R) (delta : R) (C : R),
  (0 < t) ->
  (0 < delta) ->
  (t >= (exp (- C))) ->
  (delta > (exp (- C))) ->
  (t <= (delta * (C + (ln t) + 1))) ->
  (t <= (delta * (C + (ln (delta * (1 + (exp 1))))) * ((exp (- 1)) + 1))).
Proof. intros t delta C Ht Hd _ Hb Hyp. apply L1_weak; auto; lra. Qed.

(** ** D1, eps = 1/2 *)

(** Harmonic numbers H(t) = sum_{j=1}^t 1/j. *)
Fixpoint harm (n : nat) : R :=
  match n with
  | O => 0
  | S k => harm k + / INR (S k)
  end.

(** pdm.py [log_one_plus_ge] at x = 1/t: ln(t + 1) - ln t >= 1/(t + 1). *)
Lemma ln_step (t : R) : 0 < t -> ln (t + 1) - ln t >= / (t + 1).
Proof.
  intros Ht. pose proof (ln_le_sub1 (t / (t + 1)) ltac:(apply Rdiv_lt_0_compat; lra)) as H.
  rewrite ln_div' in H by lra.
  replace (t / (t + 1) - 1) with (- / (t + 1)) in H by (field; lra). lra.
Qed.

(** pdm.py [harmonic_bound]: H(t) <= 1 + ln t for t >= 1. *)
Theorem harm_le_1_plus_ln (n : nat) : (1 <= n)%nat -> harm n <= 1 + ln (INR n).
Proof.
  induction n as [|n IH]; intros H1; [lia|].
  destruct n as [|n].
  - simpl. rewrite ln_1. lra.
  - specialize (IH ltac:(lia)). change (harm (S (S n))) with (harm (S n) + / INR (S (S n))).
    rewrite (S_INR (S n)). rewrite S_INR in IH |- *.
    pose proof (pos_INR n). pose proof (ln_step (INR n + 1) ltac:(lra)). lra.
Qed.

Lemma harm_nonneg n : 0 <= harm n.
Proof.
  induction n as [|n IH]; [simpl; lra|]. change (harm (S n)) with (harm n + / INR (S n)).
  pose proof (lt_0_INR (S n) ltac:(lia)) as H. pose proof (Rinv_0_lt_compat _ H). lra.
Qed.

(** pdm.py [d1_half_energy], as an invariant of the run: ||w||^2 <= R^2 t H(t), preserved by
    every PDM(eps') step with 1/2 <= eps' <= 1 (the recursion with 2 (1 - 1/2) = 1). *)
Definition energy_half_inv (R2 : R) (s : state) : Prop :=
  norm2 (fst s) <= R2 * INR (snd s) * harm (snd s).

Lemma energy_half_init R2 : energy_half_inv R2 init.
Proof. unfold energy_half_inv, init, norm2; simpl; lra. Qed.

Lemma energy_half_preserved zs eps' R2 :
  1 / 2 <= eps' -> eps' <= 1 -> radius_bound zs R2 ->
  preserves (energy_half_inv R2) (pdm_step eps') zs.
Proof.
  intros He He1 HR s z Hz Hs. unfold energy_half_inv in *.
  specialize (HR z Hz). assert (Ha : 0 <= norm2 (fst s)) by apply norm2_nonneg.
  destruct (pdm_test eps' (fst s) (snd s) z) eqn:Et.
  2:{ unfold pdm_step; rewrite Et; exact Hs. }
  pose proof (pdm_step_recursion (1 / 2) eps' R2 s z He HR) as Hr.
  unfold pdm_step in *; rewrite Et in *; unfold update in *.
  destruct s as [w [|t]]; cbn [fst snd] in *.
  - change (INR 0) with 0 in Hs. assert (Hw0 : norm2 w = 0) by lra.
    pose proof (cauchy_schwarz w z) as Hcs. unfold norm2 in *.
    assert (Hwz : dot w z = 0) by (rewrite Hw0 in Hcs; nra).
    rewrite norm2_vadd, Hw0, Hwz. simpl harm. change (INR 1) with 1. lra.
  - specialize (Hr ltac:(lia) eq_refl).
    set (T := INR (S t)) in *. assert (HT : 0 < T) by (apply lt_0_INR; lia).
    change (harm (S (S t))) with (harm (S t) + / INR (S (S t))).
    rewrite (S_INR (S t)). fold T.
    set (a := norm2 w) in *. set (a' := norm2 (vadd w z)) in *. set (H := harm (S t)) in *.
    replace (1 + 2 * (1 - 1 / 2) / T) with ((T + 1) / T) in Hr by (field; lra).
    assert (Hs' : (T + 1) / T * a <= (T + 1) / T * (R2 * T * H)).
    { apply Rmult_le_compat_l; [apply Rlt_le, Rdiv_lt_0_compat; lra | exact Hs]. }
    replace ((T + 1) / T * (R2 * T * H)) with (R2 * (T + 1) * H) in Hs' by (field; lra).
    replace (R2 * (T + 1) * (H + / (T + 1))) with (R2 * (T + 1) * H + R2) by (field; lra).
    lra.
Qed.

Theorem pdm_energy_half zs R2 order :
  radius_bound zs R2 -> valid_order zs order ->
  norm2 (fst (pdm_run (1 / 2) zs order)) <=
    R2 * INR (snd (pdm_run (1 / 2) zs order)) * harm (snd (pdm_run (1 / 2) zs order)).
Proof.
  intros HR Ho. unfold pdm_run, pdm_run_from.
  apply run_preserves; [| exact Ho | apply energy_half_init].
  apply energy_half_preserved; try lra; assumption.
Qed.

Theorem pdm_succ_energy_half zs R2 stages :
  radius_bound zs R2 -> (forall st, In st stages -> 1 / 2 <= fst st <= 1) ->
  valid_stages zs stages ->
  norm2 (fst (pdm_succ zs stages)) <=
    R2 * INR (snd (pdm_succ zs stages)) * harm (snd (pdm_succ zs stages)).
Proof.
  intros HR He Hv. unfold pdm_succ. apply succ_preserves; [| exact Hv | apply energy_half_init].
  intros st Hst. destruct (He st Hst). apply energy_half_preserved; auto.
Qed.

(** pdm.py [d1_half]: D1 (eps = 1/2) in the spec's shape ([D1_half_statement]). *)
Theorem D1_half_spec : forall (t : R) (R2 : R) (gamma2 : R) (a_t : R),
  (0 < t) ->
  (0 < R2) ->
  (0 < gamma2) ->
  (gamma2 <= R2) ->
  ((gamma2 * (t ^ 2)) <= a_t) ->
  (a_t <= (R2 * t * ((ln t) + 1))) ->
  (t <= (R2 * ((exp (- 1)) + 1) * (ln (R2 * (1 + (exp 1)) / gamma2)) / gamma2)).
Proof.
  intros t R2 g2 a Ht HR Hg Hgr HD3 Hen. pose proof (exp_pos 1) as He.
  (* lemma_hyp: t <= (R2/g2)(1 + ln t) *)
  assert (Hhyp : t <= R2 / g2 * (0 + ln t + 1)).
  { apply Rmult_le_reg_l with (t * g2); [nra|].
    replace (t * g2 * (R2 / g2 * (0 + ln t + 1))) with (R2 * t * (ln t + 1)) by (field; lra).
    nra. }
  assert (Hd : R2 / g2 >= exp (- 0)).
  { rewrite Ropp_0, exp_0. apply Rle_ge. apply Rmult_le_reg_l with g2; [lra|].
    replace (g2 * (R2 / g2)) with R2 by (field; lra). lra. }
  pose proof (L1_weak t (R2 / g2) 0 Ht ltac:(apply Rdiv_lt_0_compat; lra) Hd Hhyp) as H.
  replace (R2 / g2 * (1 + exp 1)) with (R2 * (1 + exp 1) / g2) in H by (field; lra).
  replace (R2 * (exp (- 1) + 1) * ln (R2 * (1 + exp 1) / g2) / g2)
    with (R2 / g2 * (0 + ln (R2 * (1 + exp 1) / g2)) * (exp (- 1) + 1)) by (field; lra).
  exact H.
Qed.

(** gamma^2 <= R^2: a certificate's ||p||^2 is at most any ||z||^2 (z.p >= ||p||^2). *)
Lemma certificate_gamma2_le_R2 zs p R2 :
  certificate_condition zs p -> 0 < dot p p -> radius_bound zs R2 -> zs <> [] ->
  dot p p <= R2.
Proof.
  intros Hc Hpp HR Hne. destruct zs as [|z zs]; [congruence|].
  pose proof (Hc z (or_introl eq_refl)) as Hz. pose proof (HR z (or_introl eq_refl)) as Hr.
  pose proof (cauchy_schwarz z p) as Hcs.
  assert (H1 : dot p p * dot p p <= dot z p * dot z p) by (apply Rmult_le_compat; lra).
  assert (H2 : dot p p * dot p p <= dot z z * dot p p) by lra.
  assert (dot p p <= dot z z) by (apply Rmult_le_reg_r with (dot p p); lra). lra.
Qed.

(** D1 (eps = 1/2) for a state with the progress and energy invariants, t >= 1. *)
Lemma D1_half_state (p : vec) R2 s :
  0 < dot p p -> dot p p <= R2 -> (1 <= snd s)%nat ->
  progress_inv p s -> energy_half_inv R2 s ->
  INR (snd s) <= R2 * (exp (- 1) + 1) * ln (R2 * (1 + exp 1) / dot p p) / dot p p.
Proof.
  intros Hpp HR H1 Hs He. pose proof (D3_state p s Hpp Hs) as HD3.
  unfold energy_half_inv in He.
  assert (Ht : 1 <= INR (snd s)) by (replace 1 with (INR 1) by reflexivity; apply le_INR; exact H1).
  pose proof (harm_le_1_plus_ln (snd s) H1) as Hh.
  apply (D1_half_spec (INR (snd s)) R2 (dot p p) (norm2 (fst s))); try lra.
  - assert (Hc : R2 * INR (snd s) * harm (snd s) <= R2 * INR (snd s) * (ln (INR (snd s)) + 1)).
    { apply Rmult_le_compat_l; [apply Rmult_le_pos; lra | lra]. }
    lra.
Qed.

(** D1 (eps = 1/2) for every PDM(1/2) run, in every order, once it has made an update. *)
Theorem D1_half_pdm zs p R2 order :
  certificate_condition zs p -> 0 < dot p p -> radius_bound zs R2 -> dot p p <= R2 ->
  valid_order zs order -> (1 <= snd (pdm_run (1 / 2) zs order))%nat ->
  INR (snd (pdm_run (1 / 2) zs order)) <=
    R2 * (exp (- 1) + 1) * ln (R2 * (1 + exp 1) / dot p p) / dot p p.
Proof.
  intros Hc Hpp HR Hg Ho H1. apply D1_half_state; auto.
  - unfold pdm_run, pdm_run_from.
    apply run_preserves; auto using progress_init, progress_preserved, pdm_additive.
  - apply pdm_energy_half; auto.
Qed.

(** ... and for every PDM-succ run whose stages have 1/2 <= eps_i <= 1. *)
Theorem D1_half_pdm_succ zs p R2 stages :
  certificate_condition zs p -> 0 < dot p p -> radius_bound zs R2 -> dot p p <= R2 ->
  (forall st, In st stages -> 1 / 2 <= fst st <= 1) -> valid_stages zs stages ->
  (1 <= snd (pdm_succ zs stages))%nat ->
  INR (snd (pdm_succ zs stages)) <=
    R2 * (exp (- 1) + 1) * ln (R2 * (1 + exp 1) / dot p p) / dot p p.
Proof.
  intros Hc Hpp HR Hg He Hv H1. apply D1_half_state; auto.
  - unfold pdm_succ. apply succ_preserves; auto using progress_init.
    intros st _; apply progress_preserved; auto using pdm_additive.
  - apply pdm_succ_energy_half; auto.
Qed.

(** ** P1 (PFM through Lemma 1) *)

(** pfm.py [small_x_bound]: 2 x^2 e^(-2x) <= 1 on [0, 1], since
    e^(2x) = (e^x)^2 >= (1 + x)^2 = 1 + 2x + x^2 >= 2 x^2 there. *)
Lemma small_x_bound (x : R) : 0 <= x <= 1 -> 2 * x ^ 2 * exp (- 2 * x) <= 1.
Proof.
  intros [H0 H1]. pose proof (exp_ineq1_le x) as Hx. pose proof (exp_pos x) as Hp.
  assert (E : exp (- 2 * x) = / (exp x * exp x)).
  { rewrite <- exp_plus. replace (- 2 * x) with (- (x + x)) by ring. apply exp_Ropp. }
  rewrite E. assert (Hsq : (1 + x) * (1 + x) <= exp x * exp x) by (apply Rmult_le_compat; lra).
  assert (Hpos : 0 < exp x * exp x) by nra.
  apply Rmult_le_reg_r with (exp x * exp x); [exact Hpos|].
  replace (2 * x ^ 2 * / (exp x * exp x) * (exp x * exp x)) with (2 * x ^ 2) by (field; lra).
  nra.
Qed.

(** pfm.py [p1]: P1 in the spec's shape ([P1_statement]). *)
Theorem P1_spec : forall (t : R) (eps : R) (R_ : R) (gamma : R),
  (0 < t) ->
  (0 < eps) ->
  (0 < R_) ->
  (0 < gamma) ->
  (eps > 0) ->
  (eps <= 1) ->
  (gamma <= R_) ->
  (t <= ((R_ ^ 2) * ((ln t) + 1 + (2 * gamma / R_)) / (2 * eps * (gamma ^ 2)))) ->
  (t <= ((R_ ^ 2) * ((exp (- 1)) + 1) * ((ln ((R_ ^ 2) * (1 + (exp 1)) / (2 * eps * (gamma ^ 2)))) + (2 * gamma / R_)) / (2 * eps * (gamma ^ 2)))).
Proof.
  intros t eps Rr gamma Ht He HR Hg _ He1 HgR Hlf. pose proof (exp_pos 1) as HE.
  assert (HR2 : 0 < Rr ^ 2) by (apply pow_lt; lra).
  assert (Hg2 : 0 < 2 * eps * gamma ^ 2) by (assert (0 < gamma ^ 2) by (apply pow_lt; lra); nra).
  assert (Hd : 0 < Rr ^ 2 / (2 * eps * gamma ^ 2)) by (apply Rdiv_lt_0_compat; lra).
  (* small_x at x = gamma/R in [0, 1] *)
  assert (Hx0 : 0 < gamma / Rr) by (apply Rdiv_lt_0_compat; lra).
  assert (Hx : 0 <= gamma / Rr <= 1).
  { split; [lra|].
    apply Rmult_le_reg_r with Rr; [lra|]. replace (gamma / Rr * Rr) with gamma by (field; lra). lra. }
  pose proof (small_x_bound (gamma / Rr) Hx) as Hsx.
  (* delta_big: delta >= e^-C, since (2 eps gamma^2/R^2)(delta - e^-C) = (1 - 2x^2 e^-2x) +
     2 x^2 e^-2x (1 - eps) *)
  assert (Hdb : Rr ^ 2 / (2 * eps * gamma ^ 2) >= exp (- (2 * gamma / Rr))).
  { assert (EC : exp (- (2 * gamma / Rr)) = exp (- 2 * (gamma / Rr))) by (f_equal; field; lra).
    assert (Ed : Rr ^ 2 / (2 * eps * gamma ^ 2) = / (2 * eps * (gamma / Rr) ^ 2))
      by (field; lra).
    rewrite EC, Ed. pose proof (exp_pos (- 2 * (gamma / Rr))) as Hp.
    set (x := gamma / Rr) in *.
    assert (Hx2 : 0 < x ^ 2) by (apply pow_lt; lra).
    apply Rle_ge. apply Rmult_le_reg_l with (2 * eps * x ^ 2); [nra|].
    rewrite Rinv_r by nra.
    assert (0 <= 2 * x ^ 2 * exp (- 2 * x)) by (apply Rmult_le_pos; nra).
    assert (2 * eps * x ^ 2 * exp (- 2 * x) <= 2 * x ^ 2 * exp (- 2 * x)) by nra.
    lra. }
  assert (Hhyp : t <= Rr ^ 2 / (2 * eps * gamma ^ 2) * (2 * gamma / Rr + ln t + 1)).
  { replace (Rr ^ 2 / (2 * eps * gamma ^ 2) * (2 * gamma / Rr + ln t + 1))
      with (Rr ^ 2 * (ln t + 1 + 2 * gamma / Rr) / (2 * eps * gamma ^ 2)) by (field; lra).
    exact Hlf. }
  pose proof (L1_weak t _ _ Ht Hd Hdb Hhyp) as H.
  replace (Rr ^ 2 / (2 * eps * gamma ^ 2) * (1 + exp 1))
    with (Rr ^ 2 * (1 + exp 1) / (2 * eps * gamma ^ 2)) in H by (field; lra).
  replace (Rr ^ 2 * (exp (- 1) + 1) * (ln (Rr ^ 2 * (1 + exp 1) / (2 * eps * gamma ^ 2)) + 2 * gamma / Rr)
             / (2 * eps * gamma ^ 2))
    with (Rr ^ 2 / (2 * eps * gamma ^ 2) * (2 * gamma / Rr + ln (Rr ^ 2 * (1 + exp 1) / (2 * eps * gamma ^ 2)))
          * (exp (- 1) + 1)) by (field; lra).
  exact H.
Qed.

(** ** Non-vacuity *)

(** L1 at t = 1, delta = 1, C = 1: e^-1 <= 1 < 1 and 1 <= 1 (1 + 1 + ln 1). *)
Example L1_spec_example :
  0 < 1 /\ 0 < 1 /\ 1 >= exp (- 1) /\ 1 > exp (- 1) /\ 1 <= 1 * (1 + ln 1 + 1) /\
  1 <= 1 * (1 + ln (1 * (1 + exp 1))) * (exp (- 1) + 1).
Proof.
  assert (exp (- 1) < 1) by (rewrite <- exp_0; apply exp_increasing; lra).
  repeat split; try lra; try (rewrite ln_1; lra).
  apply (L1_spec 1 1 1); try replace (- (1)) with (-1) by ring; try lra; rewrite ln_1; lra.
Qed.

(** D1 (eps = 1/2) on the PDM(1/2) run of exercise 6.1 (2 updates, gamma^2 = 2, R^2 = 9):
    every hypothesis holds and the bound is about 16.4. *)
Example D1_half_spec_example :
  certificate_condition ex61 ex61_p /\ 0 < dot ex61_p ex61_p /\ radius_bound ex61 ex61_R2 /\
  dot ex61_p ex61_p <= ex61_R2 /\ valid_order ex61 ex_order /\
  (1 <= snd (pdm_run (1 / 2) ex61 ex_order))%nat /\
  INR (snd (pdm_run (1 / 2) ex61 ex_order)) <=
    ex61_R2 * (exp (- 1) + 1) * ln (ex61_R2 * (1 + exp 1) / dot ex61_p ex61_p) / dot ex61_p ex61_p.
Proof.
  pose proof ex61_certificate as [_ [_ [_ [Hc Hpp]]]]. pose proof ex61_radius as [HR HR0].
  assert (Hg : dot ex61_p ex61_p <= ex61_R2) by (unfold ex61_p, ex61_R2; simpl; lra).
  destruct pdm_half_run_example as [E _].
  repeat split; auto using ex_order_valid.
  - rewrite E; simpl; lia.
  - apply D1_half_pdm; auto using ex_order_valid. rewrite E; simpl; lia.
Qed.

(** P1 at t = 1, eps = 1/2, R = 1, gamma = 1/2: lemma_form holds (1 <= 4 (1 + 1)). *)
Example P1_spec_example :
  1 <= (1 ^ 2) * (ln 1 + 1 + (2 * (1 / 2) / 1)) / (2 * (1 / 2) * ((1 / 2) ^ 2)) /\
  1 <= ((1 ^ 2) * ((exp (- 1)) + 1) * ((ln ((1 ^ 2) * (1 + (exp 1)) / (2 * (1 / 2) * ((1 / 2) ^ 2))))
        + (2 * (1 / 2) / 1)) / (2 * (1 / 2) * ((1 / 2) ^ 2))).
Proof.
  assert (H1 : 1 <= (1 ^ 2) * (ln 1 + 1 + (2 * (1 / 2) / 1)) / (2 * (1 / 2) * ((1 / 2) ^ 2)))
    by (rewrite ln_1; field_simplify; lra).
  split; [exact H1|]. apply (P1_spec 1 (1 / 2) 1 (1 / 2)); lra.
Qed.
