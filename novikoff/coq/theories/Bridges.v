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
    -> run theorem.  Every bridge uses the printed statement by its names, never by the
    printer's order: each premise is proved first as a hypothesis [H_<premise>] named after
    the printer's comment, the symbols are instantiated by name
    ([specialize printed with (k := ...) (gamma2 := ...)]), and [use_printed] discharges the
    premises from those hypotheses in whatever order the printer lists them
    (tests/test_coq_runs_binder_order.py reverses the binders and premises of each printed
    statement and compiles the unchanged bridge against it). *)

From Coq Require Import Reals List Lra Psatz Arith Lia.
From Novikoff Require Import Vectors Perceptron Tightness Invariance Multiclass LargeMargin.
From Novikoff Require Import Lemma1 SmallEps PfmBound Labelled.
From Novikoff Require Import LabelledCertificate.
From Novikoff Require Import Statements Theorems SpecTheorems RunStatements.
From Novikoff Require Import Voted VotedRun NonSeparable NonSeparableRun LabelledInvariance.
From Novikoff Require ShermanMorrisonRun.
From Novikoff Require Import LabelledMargin.
Import ListNotations.
Local Open Scope R_scope.

(** ** Using a printed statement by its names

    [use_printed H] discharges the premises of [H] (a printed statement whose symbols are
    already instantiated by name, [specialize H with (k := ...) ...]) one by one, each by a
    hypothesis of the context proving it (named [H_<premise>] after the printer's comment),
    in whatever order the printer puts them. *)
Ltac use_printed H :=
  repeat match type of H with
  | ?P -> _ => specialize (H ltac:(assumption))
  end.

(** ... and [conclude_with H] proves the goal from what remains: the conclusion, or its
    second part after the printer's [defined] conjunct. *)
Ltac conclude_with H := first [exact H | exact (proj2 H) | apply H | apply (proj2 H)].

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
    assert (H_domain_of_gamma2 : (0 < (dot p p))).
    { exact Hpp. }
    assert (H_domain_of_R2 : (0 < (radius2 rho D))).
    { exact HR2. }
    assert (H_domain_of_w_norm2 : (0 <= (dot w w))).
    { apply norm2_nonneg. }
    assert (H_k_nonneg : ((INR k) >= 0)).
    { apply Rle_ge, pos_INR. }
    assert (H_gamma2_pos : ((dot p p) > 0)).
    { exact Hpp. }
    assert (H_R2_pos : ((radius2 rho D) > 0)).
    { exact HR2. }
    assert (H_N1 : ((dot p w) >= ((dot p p) * (INR k)))).
    { rewrite Rmult_comm. apply N1_progress; assumption. }
    assert (H_N2 : ((dot w w) <= ((radius2 rho D) * (INR k)))).
    { rewrite Rmult_comm. apply N2_energy; [apply radius2_bound|exact Horder]. }
    assert (H_cauchy_schwarz : (((dot p w) ^ 2) <= ((dot p p) * (dot w w)))).
    { apply cauchy_schwarz_sq. }
    hnf in N3_printed. specialize N3_printed with (k := k) (gamma2 := (dot p p))
      (R2 := (radius2 rho D)) (pstar_dot_w := (dot p w)) (w_norm2 := (dot w w)).
    use_printed N3_printed.
    conclude_with N3_printed. }
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
  assert (H_domain_of_gamma2 : (0 < (dot p p))).
  { exact Hpp. }
  assert (H_k_nonneg : ((INR k) >= 0)).
  { apply Rle_ge, pos_INR. }
  assert (H_gamma2_pos : ((dot p p) > 0)).
  { exact Hpp. }
  assert (H_w0 : ((pw 0%nat) = 0)).
  { unfold pw, wprefix. simpl. rewrite dot_nil_r. ring. }
  assert (H_update : (forall j : nat, (0 <= j)%nat -> ((pw (j + 1)%nat) = ((pw j%nat) + (pz j%nat))))).
  { intros j _. unfold pw, pz; cbv beta. rewrite Nat.add_1_r, wprefix_S, <- Hk.
    destruct (Nat.ltb_spec j k) as [Hj|Hj].
    + rewrite dot_vadd_r. replace (S j - k)%nat with 0%nat by lia.
      replace (j - k)%nat with 0%nat by lia. ring.
    + replace (S j - k)%nat with (S (j - k)) by lia. rewrite S_INR. ring. }
  assert (H_minnorm : (forall j : nat, (0 <= j)%nat -> ((pz j%nat) >= (dot p p)))).
  { intros j _. unfold pz; cbv beta. destruct (Nat.ltb_spec j k) as [Hj|Hj]; [|lra].
    rewrite dot_comm. apply Hcond. apply nth_run_updates_in; [exact Horder|change (j < length ups)%nat; lia]. }
  assert (H_value : ((dot p (weights zs order)) = (pw k%nat))).
  { unfold pw. rewrite Nat.sub_diag, wprefix_all by lia. simpl. rewrite Hw. ring. }
  hnf in N1_printed. specialize N1_printed with (k := k) (gamma2 := (dot p p))
    (pstar_dot_w := (dot p (weights zs order))) (pw := pw) (pz := pz).
  use_printed N1_printed.
  conclude_with N1_printed.
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
  assert (H_domain_of_R2 : (0 < (radius2 rho D))).
  { exact HR2. }
  assert (H_domain_of_w_norm2 : (0 <= (norm2 (weights zs order)))).
  { apply norm2_nonneg. }
  assert (H_k_nonneg : ((INR k) >= 0)).
  { apply Rle_ge, pos_INR. }
  assert (H_R2_pos : ((radius2 rho D) > 0)).
  { exact HR2. }
  assert (H_w0 : ((w2 0%nat) = 0)).
  { reflexivity. }
  assert (H_expansion : (forall j : nat, (0 <= j)%nat -> ((w2 (j + 1)%nat) = ((w2 j%nat) + (2 * (wz j%nat)) + (z2 j%nat))))).
  { intros j _. unfold w2, wz, z2, norm2; cbv beta. rewrite Nat.add_1_r, wprefix_S.
    destruct (Nat.ltb_spec j (length ups)) as [Hj|Hj]; [apply norm2_vadd|].
    rewrite nth_overflow_vec by exact Hj. rewrite dot_nil_r. simpl. ring. }
  assert (H_mistake : (forall j : nat, (0 <= j)%nat -> ((wz j%nat) <= 0))).
  { intros j _. unfold wz; cbv beta. destruct (Nat.ltb_spec j (length ups)) as [Hj|Hj].
    + apply run_updates_mistake. exact Hj.
    + rewrite nth_overflow_vec by exact Hj. rewrite dot_nil_r. lra. }
  assert (H_radius : (forall j : nat, (0 <= j)%nat -> ((z2 j%nat) <= (radius2 rho D)))).
  { intros j _. unfold z2; cbv beta. destruct (Nat.ltb_spec j (length ups)) as [Hj|Hj].
    + apply radius2_bound. apply nth_run_updates_in; [exact Horder|exact Hj].
    + rewrite nth_overflow_vec by exact Hj. unfold norm2. rewrite dot_nil_l. lra. }
  assert (H_value : ((norm2 (weights zs order)) = (w2 k%nat))).
  { unfold w2. rewrite wprefix_all by lia. rewrite Hw. reflexivity. }
  hnf in N2_printed. specialize N2_printed with (k := k) (R2 := (radius2 rho D))
    (w_norm2 := (norm2 (weights zs order))) (w2 := w2) (wz := wz) (z2 := z2).
  use_printed N2_printed.
  conclude_with N2_printed.
Qed.

Theorem N2_run : N2_run_statement.
Proof. exact (N2_bridge Theorems.N2). Qed.

(** ** T1: the basis vectors, labelled +1 without bias, are the padded basis patterns *)

Lemma vscale_1 (u : vec) : vscale 1 u = u.
Proof. unfold vscale. rewrite (map_ext _ (fun a => a)) by (intros; ring). apply map_id. Qed.

Lemma reflected_pos_nobias zs :
  reflected 0 (map (fun x => mk_sample x pos) zs) = map (pad 1) zs.
Proof.
  unfold reflected. rewrite map_map. apply map_ext. intros z.
  unfold reflect, augment, pad; cbn [lab features y]. apply vscale_1.
Qed.

(** A certificate survives zero coordinates appended to every pattern and to p*. *)
Lemma separable_certificate_pad e zs lam p :
  separable_certificate zs lam p -> separable_certificate (map (pad e) zs) lam (pad e p).
Proof.
  intros [Hlen [Hconv [Hrep [Hcond Hpp]]]]. unfold pad in *.
  split; [rewrite map_length; exact Hlen|]. split; [exact Hconv|]. split; [|split].
  - intros x. rewrite dot_pad_r, Hrep, !dot_lin_comb, map_map.
    f_equal. apply map_ext. intros z. rewrite dot_pad_r. reflexivity.
  - intros z Hz. apply in_map_iff in Hz as [z0 [<- Hz0]].
    rewrite dot_pad_l, dot_pad_r, dot_pad_l, dot_pad_r. apply Hcond. exact Hz0.
  - rewrite dot_pad_l, dot_pad_r. exact Hpp.
Qed.

Lemma basis_data_length n : length (basis_data n) = n.
Proof. unfold basis_data. rewrite map_length. apply length_basis. Qed.

Lemma basis_data_radius2 n : (0 < n)%nat -> radius2 0 (basis_data n) = 1.
Proof.
  intros Hn. unfold radius2. apply fold_Rmax_eq; [lra| |].
  - intros x Hx. apply in_map_iff in Hx as [s [<- Hs]].
    unfold basis_data in Hs. apply in_map_iff in Hs as [z [<- Hz]].
    unfold norm2, augment; cbn [features].
    replace (z ++ [0]) with (z ++ repeat 0 1) by reflexivity.
    rewrite dot_pad_l, dot_pad_r, (T1_radius n z Hz). lra.
  - exists (norm2 (augment 0 (e n 0))). split.
    + apply in_map_iff. exists (mk_sample (e n 0) pos). split; [reflexivity|].
      unfold basis_data. apply (in_map (fun x => mk_sample x pos)).
      unfold basis. apply in_map. apply in_seq. lia.
    + unfold norm2, augment. replace (e n 0 ++ [0]) with (e n 0 ++ repeat 0 1) by reflexivity.
      rewrite dot_pad_l, dot_pad_r. apply (T1_radius n). unfold basis. apply in_map, in_seq. lia.
Qed.

Theorem T1_bridge : T1_statement -> T1_run_statement.
Proof.
  intros T1_printed n gamma2 Hn Hmin.
  set (D := basis_data n) in *.
  assert (Hcert : separable_certificate (reflected 0 D) (T1_lambda n) (pad 1 (T1_p n))).
  { unfold D, basis_data. rewrite reflected_pos_nobias.
    apply separable_certificate_pad. apply T1_certificate. exact Hn. }
  pose proof (gamma2_is_pp 0 D _ _ gamma2 Hcert Hmin) as Hgamma.
  unfold pad in Hgamma. rewrite dot_pad_l, dot_pad_r, T1_gamma2 in Hgamma by exact Hn.
  assert (Hvalid : valid D (seq 0 n)).
  { unfold valid. apply Forall_forall. intros i Hi. apply in_seq in Hi.
    unfold D. rewrite basis_data_length. lia. }
  assert (Hk : perceptron_updates 0 D (seq 0 n) = n).
  { rewrite perceptron_updates_run by exact Hvalid. unfold D, basis_data.
    rewrite reflected_pos_nobias. destruct (Invariance.pad_run_invariant 1 (basis n) (seq 0 n)) as [_ [HK _]].
    rewrite HK. apply T1_updates. }
  pose proof (basis_data_radius2 n Hn) as HR. fold D in HR.
  assert (Hpos : 0 < INR n) by (apply lt_0_INR; exact Hn).
  assert (Hg0 : 0 < gamma2) by (rewrite Hgamma; apply Rinv_0_lt_compat; exact Hpos).
  assert (H_domain_of_n : (0 < n)%nat).
  { exact Hn. }
  assert (H_domain_of_R2 : (0 < (radius2 0 D))).
  { rewrite HR; lra. }
  assert (H_domain_of_gamma2 : (0 < gamma2)).
  { exact Hg0. }
  assert (H_h0 : ((radius2 0 D) = 1)).
  { exact HR. }
  assert (H_h1 : (gamma2 = (/ (INR n)))).
  { exact Hgamma. }
  assert (H_h2 : ((INR (perceptron_updates 0 D (seq 0 n))) = (INR n))).
  { rewrite Hk. reflexivity. }
  hnf in T1_printed. specialize T1_printed with (n := n) (k := (perceptron_updates 0 D (seq 0 n)))
    (R2 := (radius2 0 D)) (gamma2 := gamma2).
  use_printed T1_printed.
  exact (proj2 T1_printed).
Qed.

Theorem T1_run : T1_run_statement.
Proof. exact (T1_bridge Theorems.T1). Qed.

(** ** M1: the premises are the Kesler potentials of the run, normalised by ||U||_F^2 *)

Lemma mradius2_ge rho data x c : In (x, c) data -> norm2 (augment rho x) <= mradius2 rho data.
Proof.
  unfold mradius2. induction data as [|s data IH]; intros Hin; simpl in *; [contradiction|].
  destruct Hin as [E|Hin]; [subst s; apply Rmax_l|].
  eapply Rle_trans; [apply IH; exact Hin|]. apply Rmax_r.
Qed.

Lemma maugment_in rho data x c :
  In (x, c) (maugment rho data) -> exists x0, In (x0, c) data /\ x = augment rho x0.
Proof.
  unfold maugment. intros H. apply in_map_iff in H as [[x0 c0] [E Hin]].
  cbn [fst snd] in E. injection E as <- <-. eauto.
Qed.

Theorem M1_bridge : M1_statement -> M1_run_statement.
Proof.
  intros M1_printed K rho data U g order HK Hclass Hmargin Hg HF HR2 Horder.
  assert (Hdata : forall x c, In (x, c) (maugment rho data) ->
                  (c < K)%nat /\ dot x x <= mradius2 rho data).
  { intros x c Hin. apply maugment_in in Hin as [x0 [Hin ->]].
    split; [eapply Hclass; exact Hin|]. eapply mradius2_ge; exact Hin. }
  assert (Horder' : Forall (fun i => (i < length (maugment rho data))%nat) order)
    by (unfold maugment; rewrite map_length; exact Horder).
  pose proof (mrun_invariant K (maugment rho data) U g (mradius2 rho data) order
                HK Hdata Hmargin Horder') as [Hprog Henergy].
  unfold multiclass_mistakes, mistakes.
  set (W := fst (mrun K (maugment rho data) order)) in *.
  set (k := snd (mrun K (maugment rho data) order)) in *.
  set (F := frob2 K U) in *.
  set (phiW := phi K U W) in *.
  pose proof (cauchy_schwarz_blocks K U W) as Hcs.
  fold (phi K U W) (frob2 K U) (frob2 K W) phiW F in Hcs.
  assert (HW : 0 <= frob2 K W) by (apply sumK_nonneg; intros; apply norm2_nonneg).
  assert (Hk0 : 0 <= INR k) by apply pos_INR.
  assert (Hg2 : 0 < g ^ 2) by (apply pow_lt; exact Hg).
  assert (Hconcl : g ^ 2 / F * INR k <= 2 * mradius2 rho data).
  { assert (H_domain_of_R2 : (0 < (mradius2 rho data))).
    { exact HR2. }
    assert (H_domain_of_gammaK2 : (0 < (g ^ 2 / F))).
    { apply Rdiv_lt_0_compat; assumption. }
    assert (H_domain_of_kesler_w_norm2 : (0 <= (frob2 K W))).
    { exact HW. }
    assert (H_k_nonneg : ((INR k) >= 0)).
    { lra. }
    assert (H_gammaK2_pos : ((g ^ 2 / F) > 0)).
    { apply Rdiv_lt_0_compat; assumption. }
    assert (H_progress : ((g * phiW / F) >= ((g ^ 2 / F) * (INR k)))).
    { unfold Rdiv.
      replace (g * phiW * / F) with ((g * / F) * phiW) by ring.
      replace (g ^ 2 * / F * INR k) with ((g * / F) * (INR k * g)) by ring.
      apply Rle_ge, Rmult_le_compat_l; [|lra].
      apply Rmult_le_pos; [lra|]. left. apply Rinv_0_lt_compat. exact HF. }
    assert (H_energy : ((frob2 K W) <= (2 * (mradius2 rho data) * (INR k)))).
    { lra. }
    assert (H_cauchy_schwarz : (((g * phiW / F) ^ 2) <= ((g ^ 2 / F) * (frob2 K W)))).
    { replace ((g * phiW / F) ^ 2) with (g ^ 2 / (F * F) * (phiW * phiW)) by (field; lra).
      replace (g ^ 2 / F * frob2 K W) with (g ^ 2 / (F * F) * (F * frob2 K W)) by (field; lra).
      apply Rmult_le_compat_l; [|exact Hcs].
      apply Rlt_le, Rdiv_lt_0_compat; [exact Hg2|]. nra. }
    hnf in M1_printed. specialize M1_printed with (k := k) (R2 := (mradius2 rho data))
      (gammaK2 := (g ^ 2 / F)) (kesler_dot_w := (g * phiW / F)) (kesler_w_norm2 := (frob2 K W)).
    use_printed M1_printed.
    conclude_with M1_printed. }
  apply Rmult_le_reg_r with (g ^ 2 / F); [apply Rdiv_lt_0_compat; assumption|].
  replace (2 * mradius2 rho data * F / g ^ 2 * (g ^ 2 / F)) with (2 * mradius2 rho data)
    by (field; split; lra).
  lra.
Qed.

Theorem M1_run : M1_run_statement.
Proof. exact (M1_bridge Theorems.M1). Qed.

(** ** PFM and PDM on labelled data are the runs on the reflected patterns *)

Lemma pfm_updates_run beta rho D order :
  valid D order -> pfm_updates beta rho D order = snd (pfm_run beta (reflected rho D) order).
Proof. intros Hv. unfold pfm_updates. rewrite pfm_labelled_is_run by exact Hv. reflexivity. Qed.

Lemma pdm_updates_run eps rho D order :
  valid D order -> pdm_updates eps rho D order = snd (pdm_run eps (reflected rho D) order).
Proof. intros Hv. unfold pdm_updates. rewrite pdm_labelled_is_run by exact Hv. reflexivity. Qed.

Lemma pdm_weights_run eps rho D order :
  valid D order -> pdm_weights eps rho D order = fst (pdm_run eps (reflected rho D) order).
Proof. intros Hv. unfold pdm_weights. rewrite pdm_labelled_is_run by exact Hv. reflexivity. Qed.

(** ** P1: the premise "lemma_form" is the PFM run's telescoped norm bound *)

(** With a certificate, gamma^2 = ||p*||^2 <= R^2. *)
Lemma pp_le_radius2 rho D lam p :
  separable_certificate (reflected rho D) lam p -> dot p p <= radius2 rho D.
Proof.
  intros Hcert. pose proof Hcert as [Hlen [[_ Hsum] [_ [Hcond Hpp]]]].
  destruct (reflected rho D) as [|z zs] eqn:E.
  - destruct lam; simpl in Hlen; [unfold sum in Hsum; simpl in Hsum; lra|discriminate].
  - assert (Hz : In z (reflected rho D)) by (rewrite E; left; reflexivity).
    assert (Hzp : dot z p >= dot p p) by (apply Hcond; rewrite <- E; exact Hz).
    pose proof (cauchy_schwarz z p) as Hcs.
    pose proof (radius2_bound rho D z Hz) as HR.
    assert (H : dot p p * dot p p <= dot z z * dot p p) by nra.
    assert (dot p p <= dot z z) by (apply Rmult_le_reg_r with (dot p p); lra). lra.
Qed.

Theorem P1_bridge : P1_statement -> P1_run_statement.
Proof.
  intros P1_printed D rho order lam p eps Hvalid Hcert He He1 H1.
  pose proof Hcert as [_ [_ [_ [Hcond Hpp]]]].
  pose proof (proj1 (valid_reflected rho D order) Hvalid) as Horder.
  pose proof (pp_le_radius2 rho D lam p Hcert) as Hg.
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
  set (g := sqrt (dot p p)) in *. set (Rr := sqrt R2) in *.
  assert (Hg0 : 0 < g) by (apply sqrt_lt_R0; exact Hpp).
  assert (HR0 : 0 < Rr) by (apply sqrt_lt_R0; exact HR).
  assert (HgR : g <= Rr) by (apply sqrt_le_1_alt; exact Hg).
  assert (Ht1 : 1 <= INR (S k)) by (replace 1 with (INR 1) by reflexivity; apply le_INR; lia).
  pose proof (harm_le_1_plus_ln (S k) ltac:(lia)) as Hh.
  assert (Ht0 : 0 < INR (S k)) by lra.
  assert (Hb' : 0 <= beta <= (1 - eps) * g) by (split; [exact Hb | unfold beta, g; lra]).
  assert (Htele' : sqrt (norm2 w) <= Rr + (INR (S k) - 1) * beta + Rr ^ 2 / (2 * g) * harm k).
  { rewrite S_INR. replace (INR k + 1 - 1) with (INR k) by ring. exact Htele. }
  pose proof (p1_lemma_form (INR (S k)) eps g Rr beta (sqrt (norm2 w)) (harm k) (harm (S k))
                Ht0 He Hg0 HR0 Ht1 Hb' HD3 Htele' eq_refl Hh) as Hlf.
  rewrite <- p1_bound_spec_form by lra. fold g Rr.
  assert (H_domain_of_t : (0 < (INR (S k)))).
  { lra. }
  assert (H_domain_of_eps : (0 < eps)).
  { exact He. }
  assert (H_domain_of_R : (0 < Rr)).
  { exact HR0. }
  assert (H_domain_of_gamma : (0 < g)).
  { exact Hg0. }
  assert (H_eps_pos : (eps > 0)).
  { exact He. }
  assert (H_eps_le_1 : (eps <= 1)).
  { exact He1. }
  assert (H_gamma_le_R : (g <= Rr)).
  { exact HgR. }
  assert (H_lemma_form : ((INR (S k)) <= ((Rr ^ 2) * ((ln (INR (S k))) + 1 + (2 * g / Rr)) / (2 * eps * (g ^ 2))))).
  { exact Hlf. }
  hnf in P1_printed. specialize P1_printed with (t := (INR (S k))) (eps := eps) (R_ := Rr)
    (gamma := g).
  use_printed P1_printed.
  conclude_with P1_printed.
Qed.

Theorem P1_run : P1_run_statement.
Proof. exact (P1_bridge SpecTheorems.P1). Qed.

(** ** D3 and D1 (eps > 1/2): the PDM run's progress, Cauchy-Schwarz and energy *)

Lemma pdm_progress rho D order eps lam p :
  valid D order -> separable_certificate (reflected rho D) lam p ->
  dot p (pdm_weights eps rho D order) >= INR (pdm_updates eps rho D order) * dot p p.
Proof.
  intros Hvalid Hcert. pose proof Hcert as [_ [_ [_ [Hcond _]]]].
  pose proof (proj1 (valid_reflected rho D order) Hvalid) as Horder.
  rewrite pdm_weights_run, pdm_updates_run by exact Hvalid. unfold pdm_run, pdm_run_from.
  apply (run_preserves (progress_inv p)); auto using progress_init, progress_preserved, pdm_additive.
Qed.

Theorem D3_bridge : D3_statement -> D3_run_statement.
Proof.
  intros D3_printed D rho eps order lam p Hvalid Hcert H1.
  pose proof Hcert as [_ [_ [_ [_ Hpp]]]].
  pose proof (pdm_progress rho D order eps lam p Hvalid Hcert) as Hprog.
  set (t := INR (pdm_updates eps rho D order)) in *.
  set (w := pdm_weights eps rho D order) in *.
  assert (Ht1 : 1 <= t) by (unfold t; replace 1 with (INR 1) by reflexivity; apply le_INR; exact H1).
  assert (H_domain_of_t : (0 < t)).
  { lra. }
  assert (H_domain_of_gamma2 : (0 < (dot p p))).
  { exact Hpp. }
  assert (H_domain_of_w_norm2 : (0 <= (norm2 w))).
  { apply norm2_nonneg. }
  assert (H_t_ge_1 : (t >= 1)).
  { lra. }
  assert (H_gamma2_pos : ((dot p p) > 0)).
  { exact Hpp. }
  assert (H_progress : ((dot p w) >= ((dot p p) * t))).
  { rewrite Rmult_comm. exact Hprog. }
  assert (H_cauchy_schwarz : (((dot p w) ^ 2) <= ((dot p p) * (norm2 w)))).
  { apply cauchy_schwarz_sq. }
  hnf in D3_printed. specialize D3_printed with (t := t) (gamma2 := (dot p p))
    (w_norm2 := (norm2 w)) (pstar_dot_w := (dot p w)).
  use_printed D3_printed.
  conclude_with D3_printed.
Qed.

Theorem D3_run : D3_run_statement.
Proof. exact (D3_bridge Theorems.D3). Qed.

(** The D3 premise of the printed D1 statements, gamma^2 t^2 <= ||w_t||^2 for PDM's run on
    labelled data: [LargeMargin.D3_scalar] (the spec's D3 shape) applied to the run's
    progress p*.w_t >= t ||p*||^2 and Cauchy-Schwarz. *)
Lemma pdm_D3 D rho eps order lam p :
  valid D order -> separable_certificate (reflected rho D) lam p ->
  (1 <= pdm_updates eps rho D order)%nat ->
  dot p p * INR (pdm_updates eps rho D order) ^ 2 <= norm2 (pdm_weights eps rho D order).
Proof.
  intros Hvalid Hcert H1. pose proof Hcert as [_ [_ [_ [_ Hpp]]]].
  pose proof (pdm_progress rho D order eps lam p Hvalid Hcert) as Hprog.
  set (t := INR (pdm_updates eps rho D order)) in *.
  set (w := pdm_weights eps rho D order) in *.
  assert (Ht1 : 1 <= t) by (unfold t; replace 1 with (INR 1) by reflexivity; apply le_INR; exact H1).
  rewrite Rmult_comm.
  apply (D3_scalar t (dot p p) (norm2 w) (dot p w)); try lra.
  - apply norm2_nonneg.
  - apply cauchy_schwarz_sq.
Qed.

Theorem D1_above_half_bridge : D1_above_half_statement -> D1_above_half_run_statement.
Proof.
  intros D1_printed D rho eps order lam p Hvalid Hcert Hh He1 H1.
  pose proof Hcert as [_ [_ [_ [_ Hpp]]]].
  pose proof (proj1 (valid_reflected rho D order) Hvalid) as Horder.
  pose proof (radius2_pos rho D lam p Hcert) as HR.
  pose proof (pdm_D3 D rho eps order lam p Hvalid Hcert H1) as HD3.
  pose proof (pdm_energy_above_half (reflected rho D) eps (radius2 rho D) order Hh He1
                (radius2_bound rho D) Horder) as Hen.
  rewrite <- (pdm_weights_run eps rho D order Hvalid), <- (pdm_updates_run eps rho D order Hvalid) in Hen.
  set (t := INR (pdm_updates eps rho D order)) in *.
  set (w := pdm_weights eps rho D order) in *.
  assert (Ht1 : 1 <= t) by (unfold t; replace 1 with (INR 1) by reflexivity; apply le_INR; exact H1).
  assert (Hd : 0 < 2 * eps - 1) by lra.
  assert (H_domain_of_t : (0 < t)).
  { lra. }
  assert (H_domain_of_eps : (0 < eps)).
  { lra. }
  assert (H_domain_of_R2 : (0 < (radius2 rho D))).
  { exact HR. }
  assert (H_domain_of_gamma2 : (0 < (dot p p))).
  { exact Hpp. }
  assert (H_eps_gt_half : (eps > (1 / 2))).
  { lra. }
  assert (H_eps_le_1 : (eps <= 1)).
  { exact He1. }
  assert (H_t_ge_1 : (t >= 1)).
  { lra. }
  assert (H_energy : ((norm2 w) <= ((radius2 rho D) * t / ((2 * eps) - 1)))).
  { apply Rmult_le_reg_l with (2 * eps - 1); [exact Hd|].
    unfold Rdiv. replace ((2 * eps - 1) * (radius2 rho D * t * / (2 * eps - 1)))
      with (radius2 rho D * t) by (field; lra). exact Hen. }
  assert (H_D3 : (((dot p p) * (t ^ 2)) <= (norm2 w))).
  { exact HD3. }
  hnf in D1_printed. specialize D1_printed with (t := t) (eps := eps) (R2 := (radius2 rho D))
    (gamma2 := (dot p p)) (a_t := (norm2 w)).
  use_printed D1_printed.
  exact (proj2 D1_printed).
Qed.

Theorem D1_above_half_run : D1_above_half_run_statement.
Proof. exact (D1_above_half_bridge Theorems.D1_above_half). Qed.

(** ** D1 (eps = 1/2 and eps < 1/2): the energy invariants of the PDM run *)

Theorem D1_half_bridge : D1_half_statement -> D1_half_run_statement.
Proof.
  intros D1_printed D rho order lam p Hvalid Hcert H1.
  pose proof Hcert as [_ [_ [_ [_ Hpp]]]].
  pose proof (proj1 (valid_reflected rho D order) Hvalid) as Horder.
  pose proof (pp_le_radius2 rho D lam p Hcert) as Hg.
  pose proof (pdm_D3 D rho (1 / 2) order lam p Hvalid Hcert H1) as HD3.
  pose proof (pdm_energy_half (reflected rho D) (radius2 rho D) order (radius2_bound rho D) Horder)
    as Hen.
  pose proof (harm_le_1_plus_ln _ H1) as Hh.
  rewrite <- (pdm_weights_run (1 / 2) rho D order Hvalid), <- (pdm_updates_run (1 / 2) rho D order Hvalid) in Hen.
  set (k := pdm_updates (1 / 2) rho D order) in *.
  set (w := pdm_weights (1 / 2) rho D order) in *.
  set (R2 := radius2 rho D) in *.
  assert (Ht1 : 1 <= INR k) by (replace 1 with (INR 1) by reflexivity; apply le_INR; exact H1).
  assert (H_domain_of_t : (0 < (INR k))).
  { lra. }
  assert (H_domain_of_R2 : (0 < R2)).
  { lra. }
  assert (H_domain_of_gamma2 : (0 < (dot p p))).
  { exact Hpp. }
  assert (H_gamma2_le_R2 : ((dot p p) <= R2)).
  { exact Hg. }
  assert (H_D3 : (((dot p p) * ((INR k) ^ 2)) <= (norm2 w))).
  { exact HD3. }
  assert (H_energy : ((norm2 w) <= (R2 * (INR k) * ((ln (INR k)) + 1)))).
  { assert (Hc : R2 * INR k * harm k <= R2 * INR k * (ln (INR k) + 1))
        by (apply Rmult_le_compat_l; [apply Rmult_le_pos; lra | lra]).
    lra. }
  hnf in D1_printed. specialize D1_printed with (t := (INR k)) (R2 := R2) (gamma2 := (dot p p))
    (a_t := (norm2 w)).
  use_printed D1_printed.
  exact (proj2 D1_printed).
Qed.

Theorem D1_half_run : D1_half_run_statement.
Proof. exact (D1_half_bridge SpecTheorems.D1_half). Qed.

Theorem D1_below_half_bridge : D1_below_half_statement -> D1_below_half_run_statement.
Proof.
  intros D1_printed D rho eps order lam p Hvalid Hcert He0 He H1.
  pose proof Hcert as [_ [_ [_ [_ Hpp]]]].
  pose proof (proj1 (valid_reflected rho D order) Hvalid) as Horder.
  pose proof (radius2_pos rho D lam p Hcert) as HR.
  pose proof (pdm_D3 D rho eps order lam p Hvalid Hcert H1) as HD3.
  pose proof (pdm_energy_small (reflected rho D) eps (radius2 rho D) order He0 He ltac:(lra)
                (radius2_bound rho D) Horder) as Hen.
  unfold energy_small_inv in Hen.
  rewrite <- (pdm_weights_run eps rho D order Hvalid), <- (pdm_updates_run eps rho D order Hvalid) in Hen.
  set (k := pdm_updates eps rho D order) in *.
  set (w := pdm_weights eps rho D order) in *.
  set (R2 := radius2 rho D) in *.
  assert (Ht1 : 1 <= INR k) by (replace 1 with (INR 1) by reflexivity; apply le_INR; exact H1).
  pose proof (power_sum_le (2 * (1 - eps)) k ltac:(lra)) as Hsum.
  assert (H_domain_of_t : (0 < (INR k))).
  { lra. }
  assert (H_domain_of_eps : (0 < eps)).
  { exact He0. }
  assert (H_domain_of_R2 : (0 < R2)).
  { exact HR. }
  assert (H_domain_of_gamma2 : (0 < (dot p p))).
  { exact Hpp. }
  assert (H_eps_lt_half : (eps < (1 / 2))).
  { exact He. }
  assert (H_D3 : (((dot p p) * ((INR k) ^ 2)) <= (norm2 w))).
  { exact HD3. }
  assert (H_energy : ((norm2 w) <= (R2 * (psum (2 * (1 - eps)) k) * (Rpower (INR k) (2 - (2 * eps)))))).
  { replace (2 - 2 * eps) with (2 * (1 - eps)) by ring. lra. }
  assert (H_sums : ((psum (2 * (1 - eps)) k) <= ((2 - (2 * eps)) / (1 - (2 * eps))))).
  { replace ((2 - 2 * eps) / (1 - 2 * eps)) with (2 * (1 - eps) / (2 * (1 - eps) - 1))
      by (field; lra). exact Hsum. }
  hnf in D1_printed. specialize D1_printed with (t := (INR k)) (eps := eps) (R2 := R2)
    (gamma2 := (dot p p)) (a_t := (norm2 w)) (s_t := (psum (2 * (1 - eps)) k)).
  use_printed D1_printed.
  exact (proj2 D1_printed).
Qed.

Theorem D1_below_half_run : D1_below_half_run_statement.
Proof. exact (D1_below_half_bridge Theorems.D1_below_half). Qed.

(** ** D2: the margin at convergence, through the printed statement *)

Theorem D2_bridge : D2_statement -> D2_run_statement.
Proof.
  intros D2_printed D rho eps order lam p Hvalid Hcert He0 He H1 Hconv smp Hsmp w t.
  pose proof Hcert as [_ [_ [_ [_ Hpp]]]].
  pose proof (pdm_progress rho D order eps lam p Hvalid Hcert) as Hprog.
  assert (Hz : In (reflect rho smp) (reflected rho D)) by (apply in_map; exact Hsmp).
  pose proof H1 as H1_run.
  rewrite (pdm_weights_run eps rho D order Hvalid), (pdm_updates_run eps rho D order Hvalid) in Hprog.
  rewrite (pdm_updates_run eps rho D order Hvalid) in H1_run.
  apply pdm_converged_labelled_reflected in Hconv. rewrite pdm_labelled_is_run in Hconv by exact Hvalid.
  destruct (D2_converged (reflected rho D) p eps (pdm_run eps (reflected rho D) order)
              Hpp Hprog H1_run Hconv (reflect rho smp) Hz) as [Hno HD3].
  rewrite <- (pdm_weights_run eps rho D order Hvalid), <- (pdm_updates_run eps rho D order Hvalid)
    in Hno, HD3.
  fold w t in Hno, HD3. rewrite signed_margin_reflect.
  set (a := norm2 w) in *.
  assert (Ht : 1 <= t) by (unfold t; replace 1 with (INR 1) by reflexivity; apply le_INR; exact H1).
  assert (Ht2 : t ^ 2 >= 1) by nra.
  assert (Ha : 0 < a).
  { assert ((t ^ 2 - 1) * dot p p >= 0) by (apply Rle_ge, Rmult_le_pos; lra). lra. }
  assert (Hsa : sqrt a * sqrt a = a) by (apply sqrt_sqrt; lra).
  assert (Hsp : sqrt (dot p p) * sqrt (dot p p) = dot p p) by (apply sqrt_sqrt; lra).
  assert (Hwa : 0 < sqrt a) by (apply sqrt_lt_R0; exact Ha).
  assert (Hgp : 0 < sqrt (dot p p)) by (apply sqrt_lt_R0; exact Hpp).
  assert (H_domain_of_t : (0 < t)).
  { lra. }
  assert (H_domain_of_eps : (0 < eps)).
  { exact He0. }
  assert (H_domain_of_w_norm : (0 < (sqrt a))).
  { exact Hwa. }
  assert (H_domain_of_gamma : (0 < (sqrt (dot p p)))).
  { exact Hgp. }
  assert (H_no_update : (((dot w (reflect rho smp)) * t) > (((sqrt a) ^ 2) * (1 - eps)))).
  { replace (sqrt a ^ 2) with a by (simpl; lra). lra. }
  assert (H_D3 : ((sqrt a) >= ((sqrt (dot p p)) * t))).
  { assert (Hsq : (t * sqrt (dot p p)) * (t * sqrt (dot p p)) <= sqrt a * sqrt a) by nra.
    destruct (Rle_lt_dec (sqrt (dot p p) * t) (sqrt a)); [lra|]. nra. }
  assert (H_eps_le_1 : (eps <= 1)).
  { exact He. }
  hnf in D2_printed. specialize D2_printed with (t := t) (eps := eps)
    (s := (dot w (reflect rho smp))) (w_norm := (sqrt a)) (gamma := (sqrt (dot p p))).
  use_printed D2_printed.
  exact (proj2 D2_printed).
Qed.

Theorem D2_run : D2_run_statement.
Proof. exact (D2_bridge Theorems.D2). Qed.

(** ** MU: the PDM test after n repeated updates, through the printed identity *)

Theorem MU_bridge : MU_statement -> MU_run_statement.
Proof.
  intros MU_printed rho eps s w t n Hn Ht He z.
  assert (Ht0 : 0 < INR t) by (apply lt_0_INR; lia).
  rewrite norm2_rep_add, (dot_comm (rep_add w z n) z), dot_rep_add, plus_INR.
  transitivity (- ((1 - eps) * (norm2 w + INR n ^ 2 * norm2 z + 2 * INR n * dot w z))
                + (INR n + INR t) * (INR n * norm2 z + dot w z)).
  - unfold norm2. rewrite (dot_comm z w). ring.
  - assert (H_domain_of_n : (0 < n)%nat) by exact Hn.
    assert (H_domain_of_t : 0 < INR t) by exact Ht0.
    assert (H_domain_of_eps : 0 < eps) by exact He.
    hnf in MU_printed. specialize MU_printed with (n := n) (t := INR t) (eps := eps)
      (p := dot w z) (q := norm2 z) (l := norm2 w).
    use_printed MU_printed.
    conclude_with MU_printed.
Qed.

Theorem MU_run : MU_run_statement.
Proof. exact (MU_bridge Theorems.MU). Qed.

(** ** G1 (scaling): the decisions agree by the printed equivalence s <= 0 <-> a^2 s <= 0 *)

Lemma vscale_vadd a u v : vscale a (vadd u v) = vadd (vscale a u) (vscale a v).
Proof.
  revert v; induction u as [|x u IH]; intros [|b v]; simpl; try reflexivity.
  unfold vscale in *. simpl. rewrite IH. f_equal. ring.
Qed.

Lemma reflect_scale a rho s : reflect (a * rho) (scale_sample a s) = vscale a (reflect rho s).
Proof.
  unfold reflect, scale_sample, augment, vscale; cbn [features lab].
  rewrite map_app. simpl. rewrite !map_app, !map_map. simpl.
  f_equal; [apply map_ext; intros; ring | f_equal; ring].
Qed.

Lemma signed_margin_scale a w rho s :
  signed_margin (vscale a w) (a * rho) (scale_sample a s) = a ^ 2 * signed_margin w rho s.
Proof.
  rewrite !signed_margin_reflect, reflect_scale, dot_vscale_l, dot_vscale_r. ring.
Qed.

Theorem G1_scale_bridge : G1_scale_statement -> G1_scale_run_statement.
Proof.
  intros G1_printed D rho a order Ha.
  assert (Hstep : forall w k s,
    lstep (a * rho) (vscale a w, k) (scale_sample a s) =
    (vscale a (fst (lstep rho (w, k) s)), snd (lstep rho (w, k) s))).
  { intros w k s. unfold lstep, mistake; cbn [fst snd].
    rewrite signed_margin_scale.
    assert (H_domain_of_c : 0 < a) by exact Ha.
    assert (H_h0 : a > 0) by exact Ha.
    pose proof G1_printed as Hiff. hnf in Hiff.
    specialize Hiff with (c := a) (s := signed_margin w rho s). use_printed Hiff.
    destruct (Rle_dec (a ^ 2 * signed_margin w rho s) 0) as [h'|h'];
      destruct (Rle_dec (signed_margin w rho s) 0) as [h|h]; cbn [fst snd].
    - rewrite reflect_scale, vscale_vadd. reflexivity.
    - exfalso. apply h. apply Hiff. exact h'.
    - exfalso. apply h'. apply Hiff. exact h.
    - reflexivity. }
  assert (Hfold : forall l w k,
    fold_left (lstep (a * rho)) (map (scale_sample a) l) (vscale a w, k) =
    (vscale a (fst (fold_left (lstep rho) l (w, k))), snd (fold_left (lstep rho) l (w, k)))).
  { intros l. induction l as [|s l IH]; intros w k; simpl; [reflexivity|].
    rewrite Hstep. destruct (lstep rho (w, k) s) as [w' k']. apply IH. }
  assert (Hsamples : map (sample_at (scale_data a D)) order = map (scale_sample a) (map (sample_at D) order)).
  { rewrite map_map. apply map_ext. intros i. unfold sample_at, scale_data.
    replace no_sample with (scale_sample a no_sample) at 1 by reflexivity. apply map_nth. }
  unfold perceptron_updates, perceptron_weights, perceptron.
  rewrite Hsamples. change init with (vscale a [], 0%nat). rewrite Hfold. split; reflexivity.
Qed.

Theorem G1_scale_run : G1_scale_run_statement.
Proof. exact (G1_scale_bridge Theorems.G1_scale). Qed.

(** ** G1 (a far point): the certificate survives, R^2 takes the new point's norm *)

Lemma fold_Rmax_snoc (l : list R) (x : R) :
  0 <= x -> fold_right Rmax 0 (l ++ [x]) = Rmax (fold_right Rmax 0 l) x.
Proof.
  intros Hx. rewrite fold_right_app. simpl. rewrite (Rmax_left x 0) by lra.
  induction l as [|a l IH]; simpl.
  - rewrite Rmax_right by lra. reflexivity.
  - rewrite IH. unfold Rmax. repeat destruct Rle_dec; lra.
Qed.

Lemma radius2_snoc rho D s :
  radius2 rho (D ++ [s]) = Rmax (radius2 rho D) (norm2 (augment rho (features s))).
Proof.
  unfold radius2. rewrite map_app. simpl. apply fold_Rmax_snoc. apply norm2_nonneg.
Qed.

Theorem G1_add_point_bridge : G1_add_point_statement -> G1_add_point_run_statement.
Proof.
  intros G1_printed D rho c gamma2 gamma2_new lam p s Hcert Hc Hs Hmin Hmin_new.
  pose proof Hcert as [_ [_ [_ [_ Hpp]]]].
  pose proof (gamma2_is_pp rho D lam p gamma2 Hcert Hmin) as Hgamma.
  assert (E : reflected rho (D ++ [s]) = reflected rho D ++ [vscale c p]).
  { unfold reflected. rewrite map_app. simpl. rewrite Hs. reflexivity. }
  destruct (Invariance.add_point_certificate (reflected rho D) lam p c Hcert Hc) as [Hnew [_ [Hmin' _]]].
  rewrite <- E in Hnew, Hmin'.
  pose proof (min_norm_sq_unique _ _ _ Hmin_new Hmin') as Hgamma_new.
  pose proof (radius2_pos rho D lam p Hcert) as HR.
  assert (Hz2 : norm2 (augment rho (features s)) = c ^ 2 * dot p p).
  { rewrite <- norm2_reflect, Hs. apply norm2_vscale. }
  assert (Hzp : dot (reflect rho s) p = c * dot p p) by (rewrite Hs; apply dot_vscale_l).
  subst gamma2.
  assert (H_domain_of_c : (0 < c)).
  { lra. }
  assert (H_domain_of_gamma2 : (0 < (dot p p))).
  { exact Hpp. }
  assert (H_domain_of_R2 : (0 < (radius2 rho D))).
  { exact HR. }
  assert (H_domain_of_gamma2_new : (0 < gamma2_new)).
  { rewrite Hgamma_new. exact Hpp. }
  assert (H_domain_of_R2_new : (0 < (radius2 rho (D ++ [s])))).
  { rewrite radius2_snoc. eapply Rlt_le_trans; [exact HR|apply Rmax_l]. }
  assert (H_domain_of_znew_norm2 : (0 <= (norm2 (augment rho (features s))))).
  { apply norm2_nonneg. }
  assert (H_c_ge_1 : (c >= 1)).
  { lra. }
  assert (H_gamma2_pos : ((dot p p) > 0)).
  { exact Hpp. }
  assert (H_radius : ((radius2 rho (D ++ [s])) = (Rmax (radius2 rho D) (norm2 (augment rho (features s)))))).
  { apply radius2_snoc. }
  assert (H_znew_norm : ((norm2 (augment rho (features s))) = ((c ^ 2) * (dot p p)))).
  { exact Hz2. }
  assert (H_znew_dot : ((dot (reflect rho s) p) = (c * (dot p p)))).
  { exact Hzp. }
  assert (H_certificate : (((dot (reflect rho s) p) >= (dot p p)) -> (gamma2_new = (dot p p)))).
  { intros _. exact Hgamma_new. }
  hnf in G1_printed. specialize G1_printed with (c := c) (gamma2 := (dot p p))
    (R2 := (radius2 rho D)) (gamma2_new := gamma2_new) (R2_new := (radius2 rho (D ++ [s])))
    (znew_dot_pstar := (dot (reflect rho s) p)) (znew_norm2 := (norm2 (augment rho (features s)))).
  use_printed G1_printed.
  conclude_with G1_printed.
Qed.

Theorem G1_add_point_run : G1_add_point_run_statement.
Proof. exact (G1_add_point_bridge Theorems.G1_add_point). Qed.

(** ** G1 (zero features): the Gram matrix is unchanged, by the printed identity *)

(** The zero coordinate inserted at position d. *)
Definition insert0 (d : nat) (v : vec) : vec := firstn d v ++ 0 :: skipn d v.

Lemma reflect_pad d rho s :
  length (features s) = d -> reflect rho (pad_sample s) = insert0 d (reflect rho s).
Proof.
  intros Hd. unfold reflect, pad_sample, insert0, augment, vscale; cbn [features lab].
  rewrite !map_app. simpl.
  rewrite firstn_app, skipn_app, map_length, Hd, Nat.sub_diag, firstn_all2, skipn_all2
    by (rewrite map_length; lia).
  simpl. rewrite app_nil_r, <- app_assoc. simpl. rewrite Rmult_0_r. reflexivity.
Qed.

Lemma length_reflect rho s : length (reflect rho s) = S (length (features s)).
Proof. unfold reflect, augment, vscale. rewrite map_length, app_length. simpl. lia. Qed.

Theorem G1_pad_bridge : G1_pad_statement -> G1_pad_run_statement.
Proof.
  intros G1_printed D d rho order Hlen Hvalid.
  assert (Emap : reflected rho (pad_data D) = map (insert0 d) (reflected rho D)).
  { unfold reflected, pad_data. rewrite !map_map. apply map_ext_in. intros s Hs.
    apply reflect_pad. rewrite Forall_forall in Hlen. auto. }
  assert (Hgram : same_gram 1 (reflected rho D) (reflected rho (pad_data D))).
  { rewrite Emap. apply same_gram_map. intros z z' Hz Hz'.
    unfold reflected in Hz, Hz'. apply in_map_iff in Hz as [s [<- Hs]].
    apply in_map_iff in Hz' as [s' [<- Hs']].
    rewrite Forall_forall in Hlen. pose proof (Hlen s Hs) as Ls. pose proof (Hlen s' Hs') as Ls'.
    assert (Lz : length (firstn d (reflect rho s)) = d)
      by (rewrite firstn_length, length_reflect; lia).
    assert (Lz' : length (firstn d (reflect rho s')) = d)
      by (rewrite firstn_length, length_reflect; lia).
    pose proof (dot_app_l (firstn d (reflect rho s)) (skipn d (reflect rho s))
                  (firstn d (reflect rho s')) (skipn d (reflect rho s')) ltac:(lia)) as Ez.
    rewrite !firstn_skipn in Ez. rewrite Ez.
    unfold insert0. rewrite dot_app_l by lia. simpl.
    set (a := dot (firstn d (reflect rho s)) (firstn d (reflect rho s'))).
    set (b := dot (skipn d (reflect rho s)) (skipn d (reflect rho s'))).
    assert (H_h0 : 0 * 0 = 0) by ring.
    pose proof G1_printed as Hp. hnf in Hp.
    specialize Hp with (w1 := 1) (w2 := 1) (w3 := 1) (z1 := a) (z2 := b) (z3 := 0 * 0).
    use_printed Hp.
    replace (a + (0 * 0 + b)) with (1 * a + 1 * b + 1 * (0 * 0)) by ring.
    rewrite Hp. ring. }
  assert (Hvalid' : valid (pad_data D) order)
    by (unfold valid, pad_data in *; rewrite map_length; exact Hvalid).
  destruct (run_gram_invariant 1 _ _ order Rlt_0_1 Hgram) as [Hdec [Hupd _]].
  split; [exact Hdec|].
  rewrite !perceptron_updates_run by assumption. exact Hupd.
Qed.

Theorem G1_pad_run : G1_pad_run_statement.
Proof. exact (G1_pad_bridge Theorems.G1_pad). Qed.

(** ** G1 (rotations), in every dimension: orthogonal matrices, and the Cayley rotation
    through the printed identity *)

(** The printed statement is the Cayley rotation's 2-D inner-product identity; the Cayley
    rotation of the first two features keeps the inner products of d-feature samples for
    every d >= 2 ([cayley_front_dot]), hence the run ([labelled_gram_run_invariant]).  Any
    orthogonal d x d matrix keeps them too ([orthogonal_labelled_run_invariant]). *)
Theorem G1_rotate_bridge : G1_rotate_statement -> G1_rotate_run_statement.
Proof.
  intros printed. split; [intros D rho order qs; apply orthogonal_labelled_run_invariant|].
  intros D d rho a order two_features same_length Hvalid.
  apply labelled_gram_run_invariant; [|exact Hvalid].
  intros s s' Hs Hs'. rewrite Forall_forall in same_length.
  assert (H_cayley : forall w1 w2 z1 z2,
            cayley1 a w1 w2 * cayley1 a z1 z2 + cayley2 a w1 w2 * cayley2 a z1 z2 = w1 * z1 + w2 * z2).
  { intros w1 w2 z1 z2. hnf in printed.
    specialize printed with (a := a) (w1 := w1) (w2 := w2) (z1 := z1) (z2 := z2).
    use_printed printed. exact (proj2 printed). }
  apply (map_features_gram _ d); try (apply same_length; assumption).
  - rewrite !cayley_front_length, !same_length by assumption. reflexivity.
  - apply cayley_front_dot; [exact H_cayley| |]; rewrite same_length by assumption; exact two_features.
Qed.

Theorem G1_rotate_run : G1_rotate_run_statement.
Proof. exact (G1_rotate_bridge Theorems.G1_rotate). Qed.

(** ** V1 (the vote): the voted perceptron's voters satisfy the printed recurrences *)

(** The printed statement's J is the number of voters, c_j their counts, er_j whether voter
    j errs on the test sample, s_j = 1 - 2 er_j its signed vote; cw, ew and vs are the
    partial sums of c_j, c_j er_j and c_j s_j over the voters' indices. *)
Theorem V1_vote_bridge : V1_vote_statement -> V1_vote_run_statement.
Proof.
  intros V1_printed D rho order s wrong_vote.
  set (V := voted rho D order) in *.
  set (d := ([] : vec, 0%nat)).
  set (c := fun j => INR (snd (nth j V d))).
  set (er := fun j => voter_errs (fst (nth j V d)) rho s).
  set (sg := fun j => 1 - 2 * er j).
  assert (total : total_weight V = prefix_sum c (length V)).
  { unfold total_weight, c. rewrite (prefix_sum_list (fun vc => INR (snd vc)) V d). reflexivity. }
  assert (erring : erring_weight rho V s = prefix_sum (fun j => c j * er j) (length V)).
  { unfold erring_weight, c, er.
    rewrite (prefix_sum_list (fun vc => INR (snd vc) * voter_errs (fst vc) rho s) V d).
    reflexivity. }
  assert (votes : vote rho V s = prefix_sum (fun j => c j * sg j) (length V)).
  { unfold vote. rewrite <- (prefix_sum_list (fun vc => INR (snd vc) * voter_sign (fst vc) rho s) V d).
    apply prefix_sum_ext. intros j. unfold c, sg, er. rewrite voter_sign_errs. reflexivity. }
  assert (H_J_nonneg : ((INR (length V)) >= 0)).
  { apply Rle_ge, pos_INR. }
  assert (H_vote_sign : (forall j : nat, (0 <= j)%nat -> ((sg j%nat) = (1 - (2 * (er j%nat)))))).
  { intros j _. reflexivity. }
  assert (H_cw0 : (((prefix_sum c) 0%nat) = 0)).
  { reflexivity. }
  assert (H_cw_step : (forall j : nat, (0 <= j)%nat -> (((prefix_sum c) (j + 1)%nat) = ((c j%nat) + ((prefix_sum c) j%nat))))).
  { intros j _. rewrite Nat.add_1_r. reflexivity. }
  assert (H_ew0 : (((prefix_sum (fun j => c j * er j)) 0%nat) = 0)).
  { reflexivity. }
  assert (H_ew_step : (forall j : nat, (0 <= j)%nat -> (((prefix_sum (fun j => c j * er j)) (j + 1)%nat) = (((c j%nat) * (er j%nat)) + ((prefix_sum (fun j => c j * er j)) j%nat))))).
  { intros j _. rewrite Nat.add_1_r. reflexivity. }
  assert (H_vs0 : (((prefix_sum (fun j => c j * sg j)) 0%nat) = 0)).
  { reflexivity. }
  assert (H_vs_step : (forall j : nat, (0 <= j)%nat -> (((prefix_sum (fun j => c j * sg j)) (j + 1)%nat) = (((c j%nat) * (sg j%nat)) + ((prefix_sum (fun j => c j * sg j)) j%nat))))).
  { intros j _. rewrite Nat.add_1_r. reflexivity. }
  assert (H_total : ((total_weight V) = ((prefix_sum c) (length V)%nat))).
  { exact total. }
  assert (H_erring : ((erring_weight rho V s) = ((prefix_sum (fun j => c j * er j)) (length V)%nat))).
  { exact erring. }
  assert (H_wrong : (((prefix_sum (fun j => c j * sg j)) (length V)%nat) <= 0)).
  { rewrite <- votes. exact wrong_vote. }
  hnf in V1_printed. specialize V1_printed with (J := (length V)) (W := (total_weight V))
    (Ew := (erring_weight rho V s)) (c := c) (cw := (prefix_sum c)) (er := er)
    (ew := (prefix_sum (fun j => c j * er j))) (s := sg)
    (vs := (prefix_sum (fun j => c j * sg j))).
  use_printed V1_printed.
  conclude_with V1_printed.
Qed.

Theorem V1_vote_run : V1_vote_run_statement.
Proof. exact (V1_vote_bridge Voted.V1_vote). Qed.

(** ** V1 (over a test sample): the test samples satisfy the printed recurrences *)

(** The printed statement's N is the number of test samples, W the voters' total weight
    (> 0: it is the number of presentations), wv_t whether the vote is wrong on test sample
    t, ewp_t the erring voters' weight on it; its [vote] premise is [V1_vote_run]. *)
Theorem V1_sample_bridge : V1_sample_statement -> V1_sample_run_statement.
Proof.
  intros V1_printed D rho order T nonempty.
  set (V := voted rho D order).
  set (W := total_weight V).
  set (wv := fun t => vote_wrong rho V (nth t T no_sample)).
  set (ewp := fun t => erring_weight rho V (nth t T no_sample)).
  assert (W_pos : 0 < W).
  { unfold W, V. rewrite total_weight_voted. apply lt_0_INR.
    destruct order; [contradiction | simpl; lia]. }
  assert (votes : wrong_votes rho V T = prefix_sum wv (length T)).
  { unfold wrong_votes, wv. rewrite (prefix_sum_list (vote_wrong rho V) T no_sample). reflexivity. }
  assert (erring : erring_weight_sum rho V T = prefix_sum ewp (length T)).
  { unfold erring_weight_sum, ewp. rewrite (prefix_sum_list (erring_weight rho V) T no_sample).
    reflexivity. }
  assert (H_domain_of_W : (0 < W)) by exact W_pos.
  assert (H_N_nonneg : ((INR (length T)) >= 0)).
  { apply Rle_ge, pos_INR. }
  assert (H_W_pos : (W > 0)).
  { exact W_pos. }
  assert (H_wv_nonneg : (forall t : nat, (0 <= t)%nat -> ((wv t%nat) >= 0))).
  { intros t _. unfold wv, vote_wrong. destruct (Rle_dec _ 0); lra. }
  assert (H_wv_le_one : (forall t : nat, (0 <= t)%nat -> ((wv t%nat) <= 1))).
  { intros t _. unfold wv, vote_wrong. destruct (Rle_dec _ 0); lra. }
  assert (H_ew_nonneg : (forall t : nat, (0 <= t)%nat -> ((ewp t%nat) >= 0))).
  { intros t _. apply Rle_ge, erring_weight_nonneg. }
  assert (H_vote : (forall t : nat, (0 <= t)%nat -> (((wv t%nat) > 0) -> (W <= (2 * (ewp t%nat)))))).
  { intros t _ wrong_on_t. unfold wv, vote_wrong in wrong_on_t.
    destruct (Rle_dec (vote rho V (nth t T no_sample)) 0) as [wrong_vote | right_vote]; [|lra].
    exact (V1_vote_run D rho order (nth t T no_sample) wrong_vote). }
  assert (H_nvc0 : (((prefix_sum wv) 0%nat) = 0)).
  { reflexivity. }
  assert (H_nvc_step : (forall t : nat, (0 <= t)%nat -> (((prefix_sum wv) (t + 1)%nat) = (((prefix_sum wv) t%nat) + (wv t%nat))))).
  { intros t _. rewrite Nat.add_1_r. simpl. ring. }
  assert (H_ewc0 : (((prefix_sum ewp) 0%nat) = 0)).
  { reflexivity. }
  assert (H_ewc_step : (forall t : nat, (0 <= t)%nat -> (((prefix_sum ewp) (t + 1)%nat) = (((prefix_sum ewp) t%nat) + (ewp t%nat))))).
  { intros t _. rewrite Nat.add_1_r. simpl. ring. }
  assert (H_wrong_votes : ((wrong_votes rho V T) = ((prefix_sum wv) (length T)%nat))).
  { exact votes. }
  assert (H_erring_weight : ((erring_weight_sum rho V T) = ((prefix_sum ewp) (length T)%nat))).
  { exact erring. }
  hnf in V1_printed. specialize V1_printed with (N := (length T)) (W := W)
    (nv := (wrong_votes rho V T)) (ewt := (erring_weight_sum rho V T)) (ewc := (prefix_sum ewp))
    (ewp := ewp) (nvc := (prefix_sum wv)) (wv := wv).
  use_printed V1_printed.
  conclude_with V1_printed.
Qed.

Theorem V1_sample_run : V1_sample_run_statement.
Proof. exact (V1_sample_bridge Voted.V1_sample). Qed.

(** ** V1 (the prefixes): the run's prefixes satisfy the printed recurrences *)

(** The printed statement's n is the number of presentations, k the run's updates, errs the
    erring prefixes; pv_r = rv_r is the signed margin of the (r+1)-th presented sample under
    the weights after the first r (the prefix perceptron's weights are the run's), e_r = u_r
    its mistake indicator, ecount and kcount their partial sums; the [mistakes] premise is
    [prefix_errs_count]. *)
Theorem V1_prefixes_bridge : V1_prefixes_statement -> V1_prefixes_run_statement.
Proof.
  intros V1_printed D rho order gamma R_ Dv gamma_pos R_nonneg Dv_nonneg fs1.
  set (ind := fun r => if prefix_errs rho D order r then 1 else 0).
  set (margin := fun r => signed_margin (perceptron_weights rho D (firstn r order)) rho
                                         (sample_at D (nth r order 0%nat))).
  assert (ind_le : forall r, margin r <= 0 -> ind r = 1).
  { intros r le. unfold ind, prefix_errs, mistake. fold (margin r).
    destruct (Rle_dec (margin r) 0); [reflexivity | lra]. }
  assert (ind_gt : forall r, margin r > 0 -> ind r = 0).
  { intros r gt. unfold ind, prefix_errs, mistake. fold (margin r).
    destruct (Rle_dec (margin r) 0); [lra | reflexivity]. }
  assert (H_domain_of_gamma : (0 < gamma)) by exact gamma_pos.
  assert (H_domain_of_R : (0 <= R_)) by exact R_nonneg.
  assert (H_domain_of_D : (0 <= Dv)) by exact Dv_nonneg.
  assert (H_n_nonneg : ((INR (length order)) >= 0)).
  { apply Rle_ge, pos_INR. }
  assert (H_k_nonneg : ((INR (perceptron_updates rho D order)) >= 0)).
  { apply Rle_ge, pos_INR. }
  assert (H_errs_nonneg : ((INR (prefix_errors rho D order)) >= 0)).
  { apply Rle_ge, pos_INR. }
  assert (H_gamma_pos : (gamma > 0)).
  { exact gamma_pos. }
  assert (H_R_nonneg : (R_ >= 0)).
  { apply Rle_ge, R_nonneg. }
  assert (H_D_nonneg : (Dv >= 0)).
  { apply Rle_ge, Dv_nonneg. }
  assert (H_prefix : (forall r : nat, (0 <= r)%nat -> ((margin r%nat) = (margin r%nat)))).
  { intros r _. reflexivity. }
  assert (H_errs_if : (forall r : nat, (0 <= r)%nat -> (((margin r%nat) <= 0) -> ((ind r%nat) = 1)))).
  { intros r _. exact (ind_le r). }
  assert (H_errs_else : (forall r : nat, (0 <= r)%nat -> (((margin r%nat) > 0) -> ((ind r%nat) = 0)))).
  { intros r _. exact (ind_gt r). }
  assert (H_mistake_if : (forall r : nat, (0 <= r)%nat -> (((margin r%nat) <= 0) -> ((ind r%nat) = 1)))).
  { intros r _. exact (ind_le r). }
  assert (H_mistake_else : (forall r : nat, (0 <= r)%nat -> (((margin r%nat) > 0) -> ((ind r%nat) = 0)))).
  { intros r _. exact (ind_gt r). }
  assert (H_ecount0 : (((prefix_sum ind) 0%nat) = 0)).
  { reflexivity. }
  assert (H_ecount_step : (forall r : nat, (0 <= r)%nat -> (((prefix_sum ind) (r + 1)%nat) = ((ind r%nat) + ((prefix_sum ind) r%nat))))).
  { intros r _. rewrite Nat.add_1_r. reflexivity. }
  assert (H_kcount0 : (((prefix_sum ind) 0%nat) = 0)).
  { reflexivity. }
  assert (H_kcount_step : (forall r : nat, (0 <= r)%nat -> (((prefix_sum ind) (r + 1)%nat) = (((prefix_sum ind) r%nat) + (ind r%nat))))).
  { intros r _. rewrite Nat.add_1_r. cbn [prefix_sum]. ring. }
  assert (H_erring : ((INR (prefix_errors rho D order)) = ((prefix_sum ind) (length order)%nat))).
  { unfold prefix_errors. rewrite prefix_count_sum. reflexivity. }
  assert (H_mistakes : ((INR (perceptron_updates rho D order)) = ((prefix_sum ind) (length order)%nat))).
  { rewrite <- prefix_errs_count. reflexivity. }
  assert (H_fs1 : (((gamma ^ 2) * (INR (perceptron_updates rho D order))) <= ((Dv + R_) ^ 2))).
  { exact fs1. }
  hnf in V1_printed. specialize V1_printed with (n := (length order))
    (k := (perceptron_updates rho D order)) (errs := (prefix_errors rho D order)) (gamma := gamma)
    (R_ := R_) (D := Dv) (e := ind) (ecount := (prefix_sum ind)) (kcount := (prefix_sum ind))
    (pv := margin) (rv := margin) (u := ind).
  use_printed V1_printed.
  conclude_with V1_printed.
Qed.

Theorem V1_prefixes_run : V1_prefixes_run_statement.
Proof. exact (V1_prefixes_bridge Voted.V1_prefixes). Qed.

(** ** FS1 (one pass): the run's updates satisfy the printed recurrences *)

(** The printed statement's k is the run's updates, pw_j = u.w_j, uz_j = u.z_j,
    w2_j = ||w_j||^2, wz_j = w_j.z_j, z2_j = ||z_j||^2 over its updates z_j (0 past the k-th),
    d_j = max(0, gamma - u.z_j) and sd, sd2 their partial sums; D is the square root of the
    deviations' sum over the presented sequence, which bounds sd2_k because the updates are a
    subsequence of the presented patterns. *)
Theorem FS1_one_pass_bridge : FS1_one_pass_statement -> FS1_one_pass_run_statement.
Proof.
  intros FS1_printed D rho order u gamma Hvalid unit_u gamma_pos.
  pose proof (proj1 (valid_reflected rho D order) Hvalid) as Horder.
  pose proof (presented_deviation2_reflected u gamma rho D order Hvalid) as Edev.
  rewrite perceptron_updates_run by exact Hvalid.
  set (zs := reflected rho D) in *.
  destruct (run_updates_spec zs order) as [Hw Hk].
  set (ups := run_updates zs order) in *.
  set (k := updates zs order) in *.
  set (f := fun z => Rmax 0 (gamma - dot u z) ^ 2).
  set (uz := fun j => dot u (nth j ups [])).
  set (dv := fun j => Rmax 0 (gamma - uz j)).
  set (pw := fun j => dot u (wprefix ups j)).
  set (w2 := fun j => norm2 (wprefix ups j)).
  set (wz := fun j => dot (wprefix ups j) (nth j ups [])).
  set (z2 := fun j => norm2 (nth j ups [])).
  set (Dev2 := presented_deviation2 u gamma rho D order) in *.
  assert (Dev2_nonneg : 0 <= Dev2).
  { unfold Dev2, presented_deviation2. apply list_sum_nonneg. intros s. apply pow2_ge_0. }
  assert (R2_nonneg := radius2_nonneg rho D).
  assert (H_domain_of_gamma : (0 < gamma)).
  { exact gamma_pos. }
  assert (H_domain_of_R : (0 <= (sqrt (radius2 rho D)))).
  { apply sqrt_pos. }
  assert (H_domain_of_D : (0 <= (sqrt Dev2))).
  { apply sqrt_pos. }
  assert (H_k_nonneg : ((INR k) >= 0)).
  { apply Rle_ge, pos_INR. }
  assert (H_gamma_pos : (gamma > 0)).
  { exact gamma_pos. }
  assert (H_R_nonneg : ((sqrt (radius2 rho D)) >= 0)).
  { apply Rle_ge, sqrt_pos. }
  assert (H_D_nonneg : ((sqrt Dev2) >= 0)).
  { apply Rle_ge, sqrt_pos. }
  assert (H_pw0 : ((pw 0%nat) = 0)).
  { unfold pw, wprefix. simpl. apply dot_nil_r. }
  assert (H_progress : (forall j : nat, (0 <= j)%nat -> ((pw (j + 1)%nat) = ((pw j%nat) + (uz j%nat))))).
  { intros j _. unfold pw, uz; cbv beta. rewrite Nat.add_1_r, wprefix_S.
    destruct (Nat.ltb_spec j (length ups)) as [Hj|Hj]; [apply dot_vadd_r|].
    rewrite nth_overflow_vec by exact Hj. rewrite dot_nil_r. ring. }
  assert (H_w0 : ((w2 0%nat) = 0)).
  { reflexivity. }
  assert (H_expansion : (forall j : nat, (0 <= j)%nat -> ((w2 (j + 1)%nat) = ((w2 j%nat) + (2 * (wz j%nat)) + (z2 j%nat))))).
  { intros j _. unfold w2, wz, z2, norm2; cbv beta. rewrite Nat.add_1_r, wprefix_S.
    destruct (Nat.ltb_spec j (length ups)) as [Hj|Hj]; [apply norm2_vadd|].
    rewrite nth_overflow_vec by exact Hj. rewrite dot_nil_r. simpl. ring. }
  assert (H_mistake : (forall j : nat, (0 <= j)%nat -> ((wz j%nat) <= 0))).
  { intros j _. unfold wz; cbv beta. destruct (Nat.ltb_spec j (length ups)) as [Hj|Hj].
    + apply run_updates_mistake. exact Hj.
    + rewrite nth_overflow_vec by exact Hj. rewrite dot_nil_r. lra. }
  assert (H_radius : (forall j : nat, (0 <= j)%nat -> ((z2 j%nat) <= ((sqrt (radius2 rho D)) ^ 2)))).
  { intros j _. rewrite pow2_sqrt by exact R2_nonneg. unfold z2; cbv beta.
    destruct (Nat.ltb_spec j (length ups)) as [Hj|Hj].
    + apply radius2_bound. apply nth_run_updates_in; [exact Horder|exact Hj].
    + rewrite nth_overflow_vec by exact Hj. unfold norm2. rewrite dot_nil_l. lra. }
  assert (H_unit : (((pw k%nat) ^ 2) <= (w2 k%nat))).
  { unfold pw, w2. pose proof (cauchy_schwarz_sq u (wprefix ups k)) as cs.
    unfold norm2 in unit_u |- *. rewrite unit_u in cs. lra. }
  assert (H_slack : (forall j : nat, (0 <= j)%nat -> ((dv j%nat) >= (gamma - (uz j%nat))))).
  { intros j _. unfold dv. apply Rle_ge, Rmax_r. }
  assert (H_sd0 : (((prefix_sum dv) 0%nat) = 0)).
  { reflexivity. }
  assert (H_sd_step : (forall j : nat, (0 <= j)%nat -> (((prefix_sum dv) (j + 1)%nat) = ((dv j%nat) + ((prefix_sum dv) j%nat))))).
  { intros j _. rewrite Nat.add_1_r. reflexivity. }
  assert (H_sd20 : (((prefix_sum (fun j => dv j ^ 2)) 0%nat) = 0)).
  { reflexivity. }
  assert (H_sd2_step : (forall j : nat, (0 <= j)%nat -> (((prefix_sum (fun j => dv j ^ 2)) (j + 1)%nat) = (((dv j%nat) ^ 2) + ((prefix_sum (fun j => dv j ^ 2)) j%nat))))).
  { intros j _. rewrite Nat.add_1_r. reflexivity. }
  assert (H_presented : (((prefix_sum (fun j => dv j ^ 2)) k%nat) <= ((sqrt Dev2) ^ 2))).
  { rewrite pow2_sqrt by exact Dev2_nonneg. rewrite Hk.
    assert (E : prefix_sum (fun j => dv j ^ 2) (length ups) = list_sum f ups)
      by (rewrite <- (prefix_sum_list f ups []); reflexivity).
    rewrite E, <- Edev. apply list_sum_updated_le. intros z. apply pow2_ge_0. }
  hnf in FS1_printed. specialize FS1_printed with (k := k) (gamma := gamma)
    (R_ := (sqrt (radius2 rho D))) (D := (sqrt Dev2)) (d := dv) (pw := pw) (sd := (prefix_sum dv))
    (sd2 := (prefix_sum (fun j => dv j ^ 2))) (uz := uz) (w2 := w2) (wz := wz) (z2 := z2).
  use_printed FS1_printed.
  conclude_with FS1_printed.
Qed.

Theorem FS1_one_pass_run : FS1_one_pass_run_statement.
Proof. exact (FS1_one_pass_bridge NonSeparable.FS1_one_pass). Qed.

(** ** FS1 (several passes): the mistakes regrouped per sample index *)

(** The printed statement's k is the run's updates, n the number of samples; pw, uz, w2, wz,
    z2, d, sd, sd2 are the one-pass bridge's functions over the run's updates; dd_i is the
    deviation max(0, gamma - y_i (u . x~_i)) of sample i, m_i the number of the run's
    updates on sample i (at most T: it is presented at most T times), ad and am the partial
    sums of dd_i^2 and dd_i^2 m_i, sumd2 = [data_deviation2]; [regroup] is
    [list_sum_regroup] over the indices the run updates on.  Every premise is proved as a
    hypothesis named after it, and the printed statement is used by its names. *)
Theorem FS1_passes_bridge : FS1_passes_statement -> FS1_passes_run_statement.
Proof.
  intros printed D rho order u gamma T Hvalid unit_u gamma_pos at_most_T.
  pose proof (proj1 (valid_reflected rho D order) Hvalid) as Horder.
  rewrite perceptron_updates_run by exact Hvalid.
  set (zs := reflected rho D) in *.
  destruct (run_updates_spec zs order) as [Hw Hk].
  set (ups := run_updates zs order) in *.
  set (idx := updated_idx zs [] order).
  assert (Eups : ups = map (pattern zs) idx) by apply updated_from_is_updated_idx.
  assert (idx_valid : Forall (fun i => (i < length D)%nat) idx).
  { apply updated_idx_valid. unfold valid_order, zs, reflected in Horder.
    rewrite map_length in Horder. exact Horder. }
  set (k := updates zs order) in *.
  set (n := length D).
  set (f := fun z => Rmax 0 (gamma - dot u z) ^ 2).
  set (uz := fun j => dot u (nth j ups [])).
  set (d := fun j => Rmax 0 (gamma - uz j)).
  set (pw := fun j => dot u (wprefix ups j)).
  set (w2 := fun j => norm2 (wprefix ups j)).
  set (wz := fun j => dot (wprefix ups j) (nth j ups [])).
  set (z2 := fun j => norm2 (nth j ups [])).
  set (sd := prefix_sum d).
  set (sd2 := prefix_sum (fun j => d j ^ 2)).
  set (dd := fun i => Rmax 0 (gamma - dot u (pattern zs i))).
  set (m := fun i => INR (count_occ Nat.eq_dec idx i)).
  set (ad := prefix_sum (fun i => dd i ^ 2)).
  set (am := prefix_sum (fun i => dd i ^ 2 * m i)).
  set (sumd2 := data_deviation2 u gamma rho D).
  set (R_ := sqrt (radius2 rho D)).
  assert (R2_nonneg := radius2_nonneg rho D).
  assert (H_domain_gamma : 0 < gamma) by exact gamma_pos.
  assert (H_domain_R : 0 <= R_) by apply sqrt_pos.
  assert (H_domain_sumd2 : 0 <= sumd2).
  { unfold sumd2, data_deviation2. apply list_sum_nonneg. intros s. apply pow2_ge_0. }
  assert (H_k_nonneg : INR k >= 0) by (apply Rle_ge, pos_INR).
  assert (H_n_nonneg : INR n >= 0) by (apply Rle_ge, pos_INR).
  assert (H_T_nonneg : INR T >= 0) by (apply Rle_ge, pos_INR).
  assert (H_gamma_pos : gamma > 0) by exact gamma_pos.
  assert (H_R_nonneg : R_ >= 0) by (apply Rle_ge, sqrt_pos).
  assert (H_sumd2_nonneg : sumd2 >= 0) by lra.
  assert (H_pw0 : pw 0%nat = 0) by (unfold pw, wprefix; simpl; apply dot_nil_r).
  assert (H_progress : forall j : nat, (0 <= j)%nat -> pw (j + 1)%nat = pw j + uz j).
  { intros j _. unfold pw, uz; cbv beta. rewrite Nat.add_1_r, wprefix_S.
    destruct (Nat.ltb_spec j (length ups)) as [Hj|Hj]; [apply dot_vadd_r|].
    rewrite nth_overflow_vec by exact Hj. rewrite dot_nil_r. ring. }
  assert (H_w0 : w2 0%nat = 0) by reflexivity.
  assert (H_expansion : forall j : nat, (0 <= j)%nat -> w2 (j + 1)%nat = w2 j + 2 * wz j + z2 j).
  { intros j _. unfold w2, wz, z2, norm2; cbv beta. rewrite Nat.add_1_r, wprefix_S.
    destruct (Nat.ltb_spec j (length ups)) as [Hj|Hj]; [apply norm2_vadd|].
    rewrite nth_overflow_vec by exact Hj. rewrite dot_nil_r. simpl. ring. }
  assert (H_mistake : forall j : nat, (0 <= j)%nat -> wz j <= 0).
  { intros j _. unfold wz; cbv beta. destruct (Nat.ltb_spec j (length ups)) as [Hj|Hj].
    - apply run_updates_mistake. exact Hj.
    - rewrite nth_overflow_vec by exact Hj. rewrite dot_nil_r. lra. }
  assert (H_radius : forall j : nat, (0 <= j)%nat -> z2 j <= R_ ^ 2).
  { intros j _. unfold R_. rewrite pow2_sqrt by exact R2_nonneg. unfold z2; cbv beta.
    destruct (Nat.ltb_spec j (length ups)) as [Hj|Hj].
    - apply radius2_bound. apply nth_run_updates_in; [exact Horder|exact Hj].
    - rewrite nth_overflow_vec by exact Hj. unfold norm2. rewrite dot_nil_l. lra. }
  assert (H_unit : pw k ^ 2 <= w2 k).
  { unfold pw, w2. pose proof (cauchy_schwarz_sq u (wprefix ups k)) as cs.
    unfold norm2 in unit_u |- *. rewrite unit_u in cs. lra. }
  assert (H_slack : forall j : nat, (0 <= j)%nat -> d j >= gamma - uz j).
  { intros j _. unfold d. apply Rle_ge, Rmax_r. }
  assert (H_sd0 : sd 0%nat = 0) by reflexivity.
  assert (H_sd_step : forall j : nat, (0 <= j)%nat -> sd (j + 1)%nat = d j + sd j).
  { intros j _. rewrite Nat.add_1_r. reflexivity. }
  assert (H_sd20 : sd2 0%nat = 0) by reflexivity.
  assert (H_sd2_step : forall j : nat, (0 <= j)%nat -> sd2 (j + 1)%nat = d j ^ 2 + sd2 j).
  { intros j _. rewrite Nat.add_1_r. reflexivity. }
  assert (H_ad0 : ad 0%nat = 0) by reflexivity.
  assert (H_ad_step : forall i : nat, (0 <= i)%nat -> ad (i + 1)%nat = ad i + dd i ^ 2).
  { intros i _. rewrite Nat.add_1_r. unfold ad. simpl. ring. }
  assert (H_total : ad n = sumd2) by apply data_deviation2_indices.
  assert (H_am0 : am 0%nat = 0) by reflexivity.
  assert (H_am_step : forall i : nat, (0 <= i)%nat -> am (i + 1)%nat = am i + dd i ^ 2 * m i).
  { intros i _. rewrite Nat.add_1_r. unfold am. simpl. ring. }
  assert (H_per_pattern : forall i : nat, (0 <= i)%nat -> m i <= INR T).
  { intros i _. unfold m. apply le_INR. eapply Nat.le_trans; [apply updated_idx_count_le|].
    destruct (Nat.ltb_spec i (length D)) as [Hi|Hi]; [apply at_most_T; exact Hi|].
    assert (absent : count_occ Nat.eq_dec order i = 0%nat).
    { apply count_occ_not_In. intros Hin. unfold valid in Hvalid. rewrite Forall_forall in Hvalid.
      specialize (Hvalid i Hin). lia. }
    lia. }
  assert (H_regroup : sd2 k = am n).
  { unfold sd2. rewrite Hk.
    assert (E : prefix_sum (fun j => d j ^ 2) (length ups) = list_sum f ups)
      by (rewrite <- (prefix_sum_list f ups []); reflexivity).
    rewrite E, Eups, list_sum_map, (list_sum_regroup _ idx n idx_valid).
    reflexivity. }
  hnf in printed.
  specialize printed with (k := k) (n := n) (T := T) (gamma := gamma) (R_ := R_)
    (sumd2 := sumd2) (ad := ad) (am := am) (d := d) (dd := dd) (m := m) (pw := pw) (sd := sd)
    (sd2 := sd2) (uz := uz) (w2 := w2) (wz := wz) (z2 := z2).
  use_printed printed.
  exact (proj2 printed).
Qed.

Theorem FS1_passes_run : FS1_passes_run_statement.
Proof. exact (FS1_passes_bridge NonSeparable.FS1_passes). Qed.

(** ** S2 (n x n, every n): the printed 1 x 1 identity for the scalar 1 + v^T B u *)

(** The printed statement at a = 1, u = 1, v = c is the 1 x 1 Sherman-Morrison identity
    (1 - c/(1 + c)) (1 + c) = 1, the only scalar fact the n x n formula needs
    ([ShermanMorrisonRun.sherman_morrison_from_scalar]). *)
Theorem S2_bridge : S2_statement -> S2_run_statement.
Proof.
  intros printed n A B u v.
  apply ShermanMorrisonRun.sherman_morrison_from_scalar.
  intros c H_one_plus_c.
  assert (H_a_nonzero : 1 <> 0) by lra.
  assert (H_denominator_nonzero : 1 + 1 * c <> 0) by (rewrite Rmult_1_l; exact H_one_plus_c).
  hnf in printed. specialize printed with (a := 1) (u := 1) (v := c).
  use_printed printed.
  pose proof (proj2 printed) as one_by_one.
  replace (1 ^ 2 * (1 + 1 * c / 1)) with (1 + c) in one_by_one by field.
  rewrite Rinv_1, !Rmult_1_l in one_by_one. exact one_by_one.
Qed.

Theorem S2_run : S2_run_statement.
Proof. exact (S2_bridge Theorems.S2). Qed.

(** T passes over one permutation of the samples (the textbook's epochs,
    [Perceptron.epochs perm T]) present each sample at most T times, so FS1's several-pass
    bound holds for them. *)
Lemma count_occ_epochs (perm : list nat) (T i : nat) :
  NoDup perm -> (count_occ Nat.eq_dec (epochs perm T) i <= T)%nat.
Proof.
  intros Hnd. pose proof (proj1 (NoDup_count_occ Nat.eq_dec perm) Hnd i) as Hone.
  unfold epochs. induction T as [|T IH]; simpl; [lia|].
  rewrite count_occ_app. lia.
Qed.

Corollary FS1_passes_epochs (D : dataset) (rho : R) (perm : list nat) (T : nat) (u : vec) (gamma : R) :
  NoDup perm -> valid D perm -> norm2 u = 1 -> 0 < gamma ->
  gamma ^ 2 * INR (perceptron_updates rho D (epochs perm T))
    <= (sqrt (radius2 rho D) + sqrt (INR T) * sqrt (data_deviation2 u gamma rho D)) ^ 2.
Proof.
  intros Hnd Hvalid unit_u gamma_pos. apply FS1_passes_run; try assumption.
  - unfold valid in *. apply Forall_forall. intros i Hi.
    unfold epochs in Hi. apply in_concat in Hi as [l [Hl Hi]]. apply repeat_spec in Hl. subst l.
    rewrite Forall_forall in Hvalid. auto.
  - intros i _. apply count_occ_epochs. exact Hnd.
Qed.
