(** * The perceptron and Novikoff's theorem (N1, N2, N3), in every dimension.

    Data: a list [zs] of reflected patterns z_i = y_i x~_i (any number m of
    patterns, any dimension d: vectors are lists, see [Vectors]).  A run presents
    the patterns in an arbitrary ORDER, a list of indices (any permutation, any
    number of epochs, any finite prefix of an infinite stream); w_0 = 0 and the
    update is  w <- w + z  iff  w.z <= 0  (ties update).  k counts the updates. *)

From Coq Require Import Reals List Lra Psatz Arith.
From Novikoff Require Import Vectors.
Import ListNotations.
Local Open Scope R_scope.

(** ** The abstract recurrences used by the Python proofs *)

Lemma N1_scalar (pw pz : nat -> R) (g2 : R) :
  pw 0%nat = 0 ->
  (forall k, pw (S k) = pw k + pz k) ->
  (forall k, pz k >= g2) ->
  forall k, pw k >= INR k * g2.
Proof.
  intros H0 HS Hz k. induction k as [|k IH].
  - rewrite H0; simpl; lra.
  - rewrite HS, S_INR. specialize (Hz k). lra.
Qed.

Lemma N2_scalar (w2 wz z2 : nat -> R) (R2 : R) :
  w2 0%nat = 0 ->
  (forall k, w2 (S k) = w2 k + 2 * wz k + z2 k) ->
  (forall k, wz k <= 0) ->
  (forall k, z2 k <= R2) ->
  forall k, w2 k <= INR k * R2.
Proof.
  intros H0 HS Hwz Hz2 k. induction k as [|k IH].
  - rewrite H0; simpl; lra.
  - rewrite HS, S_INR. specialize (Hwz k). specialize (Hz2 k). lra.
Qed.

Lemma N3_scalar (k g2 pw w2 R2 : R) :
  0 < k -> 0 < g2 ->
  pw >= k * g2 ->
  pw ^ 2 <= g2 * w2 ->
  w2 <= k * R2 ->
  k * g2 <= R2.
Proof.
  intros Hk Hg Hpw Hcs Hw.
  assert (Hkg : 0 < k * g2) by nra.
  assert (H1 : (k * g2) * (k * g2) <= pw ^ 2) by nra.
  assert (H2 : g2 * w2 <= g2 * (k * R2)) by nra.
  apply Rmult_le_reg_l with (k * g2); [exact Hkg|]. nra.
Qed.

(** ** The run *)

Definition state : Type := (vec * nat)%type.

(** One presentation of pattern [z]: update iff [w.z <= 0]. *)
Definition step (s : state) (z : vec) : state :=
  if Rle_dec (dot (fst s) z) 0 then (vadd (fst s) z, S (snd s)) else s.

Definition init : state := ([], 0%nat).

Definition pattern (zs : list vec) (i : nat) : vec := nth i zs [].
Definition presented (zs : list vec) (order : list nat) : list vec := map (pattern zs) order.

(** The state (w_k, k) after presenting [order] from w_0 = 0. *)
Definition run (zs : list vec) (order : list nat) : state :=
  fold_left step (presented zs order) init.
Definition weights (zs : list vec) (order : list nat) : vec := fst (run zs order).
Definition updates (zs : list vec) (order : list nat) : nat := snd (run zs order).

(** The update decisions, one per presentation (the "update sequence"). *)
Fixpoint decisions_from (w : vec) (ps : list vec) : list bool :=
  match ps with
  | [] => []
  | z :: ps' =>
      if Rle_dec (dot w z) 0 then true :: decisions_from (vadd w z) ps'
      else false :: decisions_from w ps'
  end.
Definition decisions (zs : list vec) (order : list nat) : list bool :=
  decisions_from [] (presented zs order).

Definition valid_order (zs : list vec) (order : list nat) : Prop :=
  Forall (fun i => (i < length zs)%nat) order.

(** E epochs of one presentation order [perm]. *)
Definition epochs (perm : list nat) (E : nat) : list nat := concat (repeat perm E).

(** A run over a prefix followed by more presentations. *)
Lemma run_app zs o1 o2 :
  run zs (o1 ++ o2) = fold_left step (presented zs o2) (run zs o1).
Proof. unfold run, presented. rewrite map_app, fold_left_app. reflexivity. Qed.

Lemma presented_in zs order :
  valid_order zs order -> Forall (fun z => In z zs) (presented zs order).
Proof.
  intros H. unfold presented. apply Forall_map.
  eapply Forall_impl; [|exact H]. intros i Hi. apply nth_In; exact Hi.
Qed.

Lemma epochs_valid zs perm E : valid_order zs perm -> valid_order zs (epochs perm E).
Proof.
  intros H. unfold valid_order, epochs in *. apply Forall_forall. intros i Hi.
  apply in_concat in Hi as [l [Hl Hi]]. apply repeat_spec in Hl. subst l.
  rewrite Forall_forall in H. auto.
Qed.

Lemma stream_prefix_valid zs (s : nat -> nat) n :
  (forall t, (s t < length zs)%nat) -> valid_order zs (map s (seq 0 n)).
Proof. intros H. apply Forall_map, Forall_forall. intros; apply H. Qed.

(** Every property preserved by one presentation holds along the whole run. *)
Lemma fold_step_invariant (Inv : state -> Prop) (P : vec -> Prop) :
  (forall s z, P z -> Inv s -> Inv (step s z)) ->
  forall ps s, Forall P ps -> Inv s -> Inv (fold_left step ps s).
Proof.
  intros Hstep ps. induction ps as [|z ps IH]; intros s HF Hs; simpl; [exact Hs|].
  inversion HF; subst. apply IH; auto.
Qed.

(** ** The data conditions *)

(** The certificate condition: z_i.p >= ||p||^2 for every pattern. *)
Definition certificate_condition (zs : list vec) (p : vec) : Prop :=
  forall z, In z zs -> dot z p >= dot p p.

Definition radius_bound (zs : list vec) (R2 : R) : Prop :=
  forall z, In z zs -> dot z z <= R2.

(** ** N1: progress *)

Theorem N1_progress_margin (zs : list vec) (p : vec) (g : R) (order : list nat) :
  (forall z, In z zs -> dot z p >= g) ->
  valid_order zs order ->
  dot p (weights zs order) >= INR (updates zs order) * g.
Proof.
  intros Hp Ho. unfold weights, updates, run.
  apply (fold_step_invariant (fun s => dot p (fst s) >= INR (snd s) * g)
                             (fun z => In z zs)).
  - intros [w k] z Hz Hs. unfold step; cbn [fst snd] in *.
    destruct (Rle_dec (dot w z) 0); cbn [fst snd]; [|exact Hs].
    rewrite dot_vadd_r, S_INR, (dot_comm p z). specialize (Hp z Hz). lra.
  - apply presented_in; exact Ho.
  - unfold init; cbn [fst snd]; rewrite ?dot_nil_r; simpl; lra.
Qed.

(** N1: if z_i.p >= ||p||^2 for all i then p.w_k >= k ||p||^2, for every run. *)
Theorem N1_progress (zs : list vec) (p : vec) (order : list nat) :
  certificate_condition zs p ->
  valid_order zs order ->
  dot p (weights zs order) >= INR (updates zs order) * dot p p.
Proof. intros Hp Ho. apply N1_progress_margin; auto. Qed.

(** ** N2: energy *)

Theorem N2_energy (zs : list vec) (R2 : R) (order : list nat) :
  radius_bound zs R2 ->
  valid_order zs order ->
  dot (weights zs order) (weights zs order) <= INR (updates zs order) * R2.
Proof.
  intros HR Ho. unfold weights, updates, run.
  apply (fold_step_invariant (fun s => dot (fst s) (fst s) <= INR (snd s) * R2)
                             (fun z => In z zs)).
  - intros [w k] z Hz Hs. unfold step; cbn [fst snd] in *.
    destruct (Rle_dec (dot w z) 0) as [Hle|]; cbn [fst snd]; [|exact Hs].
    rewrite norm2_vadd, S_INR. specialize (HR z Hz). lra.
  - apply presented_in; exact Ho.
  - unfold init; cbn [fst snd]; rewrite ?dot_nil_r; simpl; lra.
Qed.

(** ** N3: Novikoff's mistake bound, by the squeeze through Cauchy-Schwarz *)

Theorem N3_mistake_bound (zs : list vec) (p : vec) (R2 : R) (order : list nat) :
  certificate_condition zs p ->
  0 < dot p p ->
  radius_bound zs R2 ->
  0 <= R2 ->
  valid_order zs order ->
  INR (updates zs order) * dot p p <= R2.
Proof.
  intros Hp Hpp HR HR0 Ho.
  destruct (updates zs order) as [|k'] eqn:Ek.
  - simpl; lra.
  - rewrite <- Ek.
    apply (N3_scalar _ _ (dot p (weights zs order)) (dot (weights zs order) (weights zs order)));
      auto.
    + rewrite Ek. apply lt_0_INR. lia.
    + apply N1_progress; auto.
    + apply cauchy_schwarz_sq.
    + apply N2_energy; auto.
Qed.

(** Hence the number of updates is at most R^2/gamma^2 (gamma^2 = ||p||^2). *)
Corollary N3_updates_le_ratio (zs : list vec) (p : vec) (R2 : R) (order : list nat) :
  certificate_condition zs p ->
  0 < dot p p ->
  radius_bound zs R2 ->
  0 <= R2 ->
  valid_order zs order ->
  INR (updates zs order) <= R2 / dot p p.
Proof.
  intros. apply Rmult_le_reg_r with (dot p p); [assumption|].
  unfold Rdiv. rewrite Rmult_assoc, Rinv_l by lra. rewrite Rmult_1_r.
  apply N3_mistake_bound; auto.
Qed.

(** The same for every prefix of an infinite presentation stream [s]: the
    updates over the whole stream are bounded (the run converges). *)
Corollary N3_stream (zs : list vec) (p : vec) (R2 : R) (s : nat -> nat) :
  certificate_condition zs p ->
  0 < dot p p ->
  radius_bound zs R2 ->
  0 <= R2 ->
  (forall t, (s t < length zs)%nat) ->
  forall n, INR (updates zs (map s (seq 0 n))) * dot p p <= R2.
Proof. intros. apply N3_mistake_bound; auto. apply stream_prefix_valid; auto. Qed.

(** The classical form, for ANY separating direction u with margin g > 0
    (z_i.u >= g for all i; gamma = g/||u||): k g^2 <= R^2 ||u||^2. *)
Theorem N3_separating_direction (zs : list vec) (u : vec) (g R2 : R) (order : list nat) :
  (forall z, In z zs -> dot z u >= g) ->
  0 < g ->
  radius_bound zs R2 ->
  0 <= R2 ->
  valid_order zs order ->
  INR (updates zs order) * g ^ 2 <= R2 * dot u u.
Proof.
  intros Hu Hg HR HR0 Ho.
  pose proof (N1_progress_margin zs u g order Hu Ho) as H1.
  pose proof (N2_energy zs R2 order HR Ho) as H2.
  pose proof (cauchy_schwarz u (weights zs order)) as Hcs.
  pose proof (norm2_nonneg u) as Huu.
  set (k := INR (updates zs order)) in *.
  set (pw := dot u (weights zs order)) in *.
  set (w2 := dot (weights zs order) (weights zs order)) in *.
  assert (Hk : 0 <= k) by apply pos_INR.
  destruct (Req_dec k 0) as [E|E]; [rewrite E; nra|].
  assert (Hk' : 0 < k) by lra.
  assert (Hkg : 0 <= k * g) by (apply Rmult_le_pos; lra).
  assert (Hsq : (k * g) * (k * g) <= pw * pw) by (apply Rmult_le_compat; lra).
  assert (Huw : dot u u * w2 <= dot u u * (k * R2)) by (apply Rmult_le_compat_l; assumption).
  apply Rmult_le_reg_l with k; [exact Hk'|]. nra.
Qed.

(** ** Certificates: p in the hull with the certificate condition is the
    minimum-norm point of conv{z_i}, so gamma^2 = ||p||^2 exactly. *)

Definition convex (lam : list R) : Prop :=
  Forall (fun l => 0 <= l) lam /\ sum lam = 1.

(** [p] is the vector sum_i lam_i z_i (compared through inner products, so
    trailing zero coordinates do not matter). *)
Definition represents (p : vec) (lam : list R) (zs : list vec) : Prop :=
  forall x, dot x p = dot x (lin_comb lam zs).

Definition separable_certificate (zs : list vec) (lam : list R) (p : vec) : Prop :=
  length lam = length zs /\ convex lam /\ represents p lam zs /\
  certificate_condition zs p /\ 0 < dot p p.

Definition hull_point (zs : list vec) (mu : list R) : vec := lin_comb mu zs.

(** [g2] is the squared norm of the minimum-norm point of conv{z_i}. *)
Definition min_norm_sq (zs : list vec) (g2 : R) : Prop :=
  (exists mu, length mu = length zs /\ convex mu /\
              dot (hull_point zs mu) (hull_point zs mu) = g2) /\
  (forall mu, length mu = length zs -> convex mu ->
              g2 <= dot (hull_point zs mu) (hull_point zs mu)).

Lemma min_norm_sq_unique zs g g' : min_norm_sq zs g -> min_norm_sq zs g' -> g = g'.
Proof.
  intros [[mu [Hl [Hc He]]] Hm] [[mu' [Hl' [Hc' He']]] Hm'].
  specialize (Hm mu' Hl' Hc'). specialize (Hm' mu Hl Hc). lra.
Qed.

Lemma convex_dot_ge (mu : list R) (zs : list vec) (f : vec -> R) (g : R) :
  length mu = length zs -> Forall (fun l => 0 <= l) mu ->
  (forall z, In z zs -> f z >= g) ->
  dot mu (map f zs) >= g * sum mu.
Proof.
  unfold sum.
  revert zs; induction mu as [|l mu IH]; intros [|z zs] Hl Hn Hf; simpl in *;
    try discriminate; [lra|].
  inversion Hn as [|? ? Hl0 Hmu]; subst.
  assert (Ha : dot mu (map f zs) >= g * fold_right Rplus 0 mu) by (apply IH; auto).
  assert (Hb : f z >= g) by auto.
  assert (l * f z >= l * g) by nra. lra.
Qed.

Theorem certificate_min_norm (zs : list vec) (lam : list R) (p : vec) :
  separable_certificate zs lam p -> min_norm_sq zs (dot p p).
Proof.
  intros [Hl [Hc [Hr [Hp Hpp]]]]. split.
  - exists lam. split; [exact Hl|]. split; [exact Hc|].
    unfold hull_point. set (q := lin_comb lam zs).
    assert (E1 : dot q p = dot q q) by apply Hr.
    assert (E2 : dot p p = dot p q) by apply Hr.
    rewrite <- E1, dot_comm, <- E2. reflexivity.
  - intros mu Hmu [Hn Hs]. unfold hull_point. set (q := lin_comb mu zs).
    assert (Hqp : dot p q >= dot p p).
    { unfold q. rewrite dot_lin_comb.
      replace (dot p p) with (dot p p * sum mu) by (rewrite Hs; ring).
      apply convex_dot_ge; auto. intros z Hz. rewrite dot_comm. apply Hp; auto. }
    pose proof (cauchy_schwarz p q) as Hcs.
    assert (dot p p * dot p p <= dot p p * dot q q) by nra.
    apply Rmult_le_reg_l with (dot p p); [exact Hpp|lra].
Qed.

(** ** Non-vacuity: the textbook's exercise 6.1.
    x = (1,1)+, (2,2)+, (-1,-1)-, (-2,0)-, bias 1 last: z_i = y_i (x_i, 1). *)

Definition ex61 : list vec := [[1; 1; 1]; [2; 2; 1]; [1; 1; -1]; [2; 0; -1]].
Definition ex61_lambda : list R := [/2; 0; /2; 0].
Definition ex61_p : vec := [1; 1; 0].   (* = (z_1 + z_3)/2, ||p||^2 = 2 = gamma^2 *)
Definition ex61_R2 : R := 9.            (* ||z_2||^2 = 9, bound R^2/gamma^2 = 9/2 *)

Example ex61_certificate : separable_certificate ex61 ex61_lambda ex61_p.
Proof.
  unfold separable_certificate, ex61, ex61_lambda, ex61_p, convex, represents,
    certificate_condition.
  split; [reflexivity|]. split; [split; [repeat constructor; lra | unfold sum; simpl; lra]|].
  split; [|split].
  - intros x. destruct x as [|a [|b [|c x]]]; simpl; lra.
  - intros z Hz. repeat destruct Hz as [Hz|Hz]; subst; simpl; try lra. contradiction.
  - simpl; lra.
Qed.

Example ex61_radius : radius_bound ex61 ex61_R2 /\ 0 <= ex61_R2.
Proof.
  unfold radius_bound, ex61, ex61_R2. split; [|lra].
  intros z Hz. repeat destruct Hz as [Hz|Hz]; subst; simpl; try lra. contradiction.
Qed.

(** The hypotheses of N1, N2 and N3 hold together on exercise 6.1 (so none of
    the theorems is vacuous), and N3 gives at most 4 updates in every order. *)
Example ex61_N1_hypotheses : certificate_condition ex61 ex61_p.
Proof. apply ex61_certificate. Qed.

Example ex61_N2_hypotheses : radius_bound ex61 ex61_R2.
Proof. apply ex61_radius. Qed.

Example ex61_N3_bound :
  certificate_condition ex61 ex61_p /\ 0 < dot ex61_p ex61_p /\
  radius_bound ex61 ex61_R2 /\ 0 <= ex61_R2 /\
  forall order, valid_order ex61 order -> (updates ex61 order <= 4)%nat.
Proof.
  pose proof ex61_certificate as [_ [_ [_ [Hc Hpp]]]].
  pose proof ex61_radius as [HR HR0].
  repeat split; auto. intros order Ho.
  pose proof (N3_mistake_bound _ _ _ order Hc Hpp HR HR0 Ho) as H.
  unfold ex61_p, ex61_R2 in H; simpl in H.
  assert (Hk : INR (updates ex61 order) < 5) by lra.
  replace 5 with (INR 5) in Hk by (simpl; ring). apply INR_lt in Hk. lia.
Qed.
