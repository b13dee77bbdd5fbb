(** * G1: transformations that leave the perceptron's run unchanged.

    The core fact: the run depends on the patterns only through their Gram
    matrix, up to one positive factor.  If  z'_i.z'_j = c (z_i.z_j)  for all
    i, j with c > 0, then in every order every decision is the same, the
    update counts agree, and  w'_k.z'_j = c (w_k.z_j)  all along the run.
    Scaling (c = a^2), orthogonal maps (c = 1) and zero features (c = 1) are
    instances.  Finally a far point z_new = c p (c >= 1) keeps the certificate,
    hence gamma, and R^2 becomes max(R^2, c^2 ||p||^2). *)

From Coq Require Import Reals List Lra Psatz Arith.
From Novikoff Require Import Vectors Perceptron.
Import ListNotations.
Local Open Scope R_scope.

Definition same_gram (c : R) (zs zs' : list vec) : Prop :=
  forall i j, dot (pattern zs' i) (pattern zs' j) = c * dot (pattern zs i) (pattern zs j).

Lemma step_update w k z : dot w z <= 0 -> step (w, k) z = (vadd w z, S k).
Proof. intros H. unfold step; cbn [fst snd]. destruct (Rle_dec (dot w z) 0); tauto. Qed.

Lemma step_keep w k z : ~ dot w z <= 0 -> step (w, k) z = (w, k).
Proof. intros H. unfold step; cbn [fst snd]. destruct (Rle_dec (dot w z) 0); tauto. Qed.

Lemma run_simulation (c : R) (zs zs' : list vec) :
  0 < c -> same_gram c zs zs' ->
  forall order w w' k,
    (forall j, dot w' (pattern zs' j) = c * dot w (pattern zs j)) ->
    decisions_from w' (presented zs' order) = decisions_from w (presented zs order) /\
    snd (fold_left step (presented zs' order) (w', k)) =
      snd (fold_left step (presented zs order) (w, k)) /\
    forall j, dot (fst (fold_left step (presented zs' order) (w', k))) (pattern zs' j) =
              c * dot (fst (fold_left step (presented zs order) (w, k))) (pattern zs j).
Proof.
  intros Hc Hg order. induction order as [|i order IH]; intros w w' k Hw.
  - simpl. auto.
  - cbn [presented map decisions_from fold_left]. fold (presented zs order) (presented zs' order).
    pose proof (Hw i) as Hi.
    destruct (Rle_dec (dot w' (pattern zs' i)) 0) as [h'|h'];
      destruct (Rle_dec (dot w (pattern zs i)) 0) as [h|h].
    + rewrite !step_update by assumption.
      destruct (IH (vadd w (pattern zs i)) (vadd w' (pattern zs' i)) (S k)) as [D [K W]].
      { intros j. rewrite !dot_vadd_l, Hw, Hg. ring. }
      rewrite D. auto.
    + exfalso. apply h. nra.
    + exfalso. apply h'. nra.
    + rewrite !step_keep by assumption.
      destruct (IH w w' k Hw) as [D [K W]]. rewrite D. auto.
Qed.

(** The update sequence, the update count and the decision values (up to c). *)
Theorem run_gram_invariant (c : R) (zs zs' : list vec) (order : list nat) :
  0 < c -> same_gram c zs zs' ->
  decisions zs' order = decisions zs order /\
  updates zs' order = updates zs order /\
  forall j, dot (weights zs' order) (pattern zs' j) = c * dot (weights zs order) (pattern zs j).
Proof.
  intros Hc Hg. unfold decisions, updates, weights, run, init.
  apply run_simulation; auto. intros j. simpl. ring.
Qed.

(** Transforming each pattern by a map that scales all inner products. *)
Lemma pattern_map (f : vec -> vec) zs i :
  (i < length zs)%nat -> pattern (map f zs) i = f (pattern zs i).
Proof.
  intros H. unfold pattern.
  rewrite nth_indep with (d' := f []) by (rewrite map_length; exact H).
  apply map_nth.
Qed.

Lemma pattern_overflow zs i : (length zs <= i)%nat -> pattern zs i = [].
Proof. intros H. apply nth_overflow. exact H. Qed.

Lemma same_gram_map (c : R) (f : vec -> vec) (zs : list vec) :
  (forall z z', In z zs -> In z' zs -> dot (f z) (f z') = c * dot z z') ->
  same_gram c zs (map f zs).
Proof.
  intros H i j.
  destruct (lt_dec i (length zs)) as [hi|hi];
    [|rewrite !(pattern_overflow _ i) by (rewrite ?map_length; lia); simpl; ring].
  destruct (lt_dec j (length zs)) as [hj|hj];
    [|rewrite !(pattern_overflow _ j) by (rewrite ?map_length; lia); rewrite !dot_nil_r; ring].
  rewrite !pattern_map by assumption. apply H; apply nth_In; assumption.
Qed.

(** ** Scaling every pattern by one a > 0 (features and rho together) *)

Theorem scale_run_invariant (a : R) (zs : list vec) (order : list nat) :
  0 < a ->
  decisions (map (vscale a) zs) order = decisions zs order /\
  updates (map (vscale a) zs) order = updates zs order.
Proof.
  intros Ha.
  assert (Hg : same_gram (a * a) zs (map (vscale a) zs)).
  { apply same_gram_map. intros z z' _ _. rewrite dot_vscale_l, dot_vscale_r. ring. }
  assert (Haa : 0 < a * a) by nra.
  destruct (run_gram_invariant (a * a) zs (map (vscale a) zs) order Haa Hg) as [D [K _]].
  auto.
Qed.

(** The scalar fact behind it: c^2 s <= 0 iff s <= 0 for c > 0. *)
Lemma G1_scale_scalar (c s : R) : 0 < c -> (c ^ 2 * s <= 0 <-> s <= 0).
Proof.
  intros Hc. assert (Hc2 : 0 < c ^ 2) by (apply pow_lt; lra). split; intros H.
  - destruct (Rle_or_lt s 0) as [h|h]; [exact h|]. exfalso.
    assert (0 < c ^ 2 * s) by (apply Rmult_lt_0_compat; lra). lra.
  - assert (0 <= c ^ 2 * (- s)) by (apply Rmult_le_pos; lra). lra.
Qed.

(** ** Orthogonal maps: Q given by its columns q_1..q_d, Q u = sum_j u_j q_j.
    [orthonormal qs] is Q^T Q = I. *)

Fixpoint orthonormal (qs : list vec) : Prop :=
  match qs with
  | [] => True
  | q :: qs' => dot q q = 1 /\ Forall (fun q' => dot q q' = 0) qs' /\ orthonormal qs'
  end.

Definition apply_cols (qs : list vec) (u : vec) : vec := lin_comb u qs.

(** Q^T Q = I entrywise implies [orthonormal]. *)
Lemma orthonormal_of_gram (qs : list vec) :
  (forall i j, (i < length qs)%nat -> (j < length qs)%nat ->
     dot (nth i qs []) (nth j qs []) = if Nat.eqb i j then 1 else 0) ->
  orthonormal qs.
Proof.
  induction qs as [|q qs IH]; intros H; simpl; [exact I|].
  split; [|split].
  - apply (H 0%nat 0%nat); simpl; lia.
  - apply Forall_forall. intros q' Hq'. apply In_nth with (d := []) in Hq' as [j [Hj <-]].
    apply (H 0%nat (S j)); simpl; lia.
  - apply IH. intros i j Hi Hj. apply (H (S i) (S j)); simpl; lia.
Qed.

Lemma dot_orth_zero (q : vec) (qs : list vec) (v : vec) :
  Forall (fun q' => dot q q' = 0) qs -> dot q (lin_comb v qs) = 0.
Proof.
  intros H. rewrite dot_lin_comb. revert v; induction H as [|q' qs Hq' _ IH]; intros v.
  - simpl. apply dot_nil_r.
  - destruct v as [|b v]; simpl; [reflexivity|]. rewrite Hq', IH. ring.
Qed.

Theorem orthonormal_isometry (qs : list vec) (u v : vec) :
  orthonormal qs -> length u = length qs -> length v = length qs ->
  dot (apply_cols qs u) (apply_cols qs v) = dot u v.
Proof.
  unfold apply_cols. revert u v; induction qs as [|q qs IH];
    intros [|a u] [|b v] Ho Hu Hv; simpl in *; try discriminate; [reflexivity|].
  destruct Ho as [Hqq [Hf Ho]].
  rewrite dot_vadd_l, !dot_vadd_r, !dot_vscale_l, !dot_vscale_r.
  rewrite (dot_comm (lin_comb u qs) q).
  rewrite !dot_orth_zero by exact Hf. rewrite Hqq, IH by (auto; lia). ring.
Qed.

Theorem orthogonal_run_invariant (qs : list vec) (zs : list vec) (order : list nat) :
  orthonormal qs ->
  (forall z, In z zs -> length z = length qs) ->
  decisions (map (apply_cols qs) zs) order = decisions zs order /\
  updates (map (apply_cols qs) zs) order = updates zs order /\
  forall j, dot (weights (map (apply_cols qs) zs) order) (pattern (map (apply_cols qs) zs) j)
            = dot (weights zs order) (pattern zs j).
Proof.
  intros Ho Hl.
  assert (Hg : same_gram 1 zs (map (apply_cols qs) zs)).
  { apply same_gram_map. intros z z' Hz Hz'. rewrite orthonormal_isometry; auto. ring. }
  destruct (run_gram_invariant 1 zs (map (apply_cols qs) zs) order Rlt_0_1 Hg) as [D [K W]].
  split; [exact D|]. split; [exact K|]. intros j. rewrite W. ring.
Qed.

(** ** Appending zero features *)

Definition pad (e : nat) (z : vec) : vec := z ++ repeat 0 e.

Theorem pad_run_invariant (e : nat) (zs : list vec) (order : list nat) :
  decisions (map (pad e) zs) order = decisions zs order /\
  updates (map (pad e) zs) order = updates zs order /\
  forall j, dot (weights (map (pad e) zs) order) (pattern (map (pad e) zs) j)
            = dot (weights zs order) (pattern zs j).
Proof.
  assert (Hg : same_gram 1 zs (map (pad e) zs)).
  { apply same_gram_map. intros z z' _ _. unfold pad. rewrite dot_pad_l, dot_pad_r. ring. }
  destruct (run_gram_invariant 1 zs (map (pad e) zs) order Rlt_0_1 Hg) as [D [K W]].
  split; [exact D|]. split; [exact K|]. intros j. rewrite W. ring.
Qed.

(** ** A far point along p: z_new = c p with c >= 1 *)

Definition R2max (zs : list vec) : R := fold_right (fun z r => Rmax (dot z z) r) 0 zs.

Lemma R2max_bound zs : radius_bound zs (R2max zs) /\ 0 <= R2max zs.
Proof.
  induction zs as [|z zs [IH1 IH2]]; simpl.
  - split; [intros _ []|lra].
  - split.
    + intros x [<-|Hx]; [apply Rmax_l|]. eapply Rle_trans; [apply IH1; exact Hx|apply Rmax_r].
    + eapply Rle_trans; [exact IH2|apply Rmax_r].
Qed.

Lemma R2max_attained zs : zs <> [] -> exists z, In z zs /\ dot z z = R2max zs.
Proof.
  induction zs as [|z zs IH]; intros H; [congruence|]. simpl.
  destruct zs as [|z' zs'].
  - exists z. split; [left; reflexivity|]. simpl.
    pose proof (norm2_nonneg z). unfold Rmax; destruct Rle_dec; lra.
  - destruct IH as [x [Hx Ex]]; [discriminate|].
    unfold Rmax at 1. destruct Rle_dec.
    + exists x. split; [right; exact Hx|exact Ex].
    + exists z. split; [left; reflexivity|reflexivity].
Qed.

Lemma fold_Rmax_base zs b : 0 <= b ->
  fold_right (fun z r => Rmax (dot z z) r) b zs = Rmax (R2max zs) b.
Proof.
  intros Hb. induction zs as [|z zs IH]; simpl.
  - unfold Rmax; destruct Rle_dec; lra.
  - rewrite IH. unfold Rmax. repeat destruct Rle_dec; lra.
Qed.

Lemma R2max_snoc zs x : R2max (zs ++ [x]) = Rmax (R2max zs) (dot x x).
Proof.
  unfold R2max at 1. rewrite fold_right_app. simpl.
  assert (Rmax (dot x x) 0 = dot x x) as ->.
  { pose proof (norm2_nonneg x). unfold Rmax; destruct Rle_dec; lra. }
  apply fold_Rmax_base, norm2_nonneg.
Qed.

Lemma sum_app l1 l2 : sum (l1 ++ l2) = sum l1 + sum l2.
Proof. unfold sum. induction l1 as [|a l1 IH]; simpl; [ring|]. rewrite IH. ring. Qed.

Theorem add_point_certificate (zs : list vec) (lam : list R) (p : vec) (c : R) :
  separable_certificate zs lam p -> 1 <= c ->
  separable_certificate (zs ++ [vscale c p]) (lam ++ [0]) p /\
  min_norm_sq zs (dot p p) /\
  min_norm_sq (zs ++ [vscale c p]) (dot p p) /\
  R2max (zs ++ [vscale c p]) = Rmax (R2max zs) (c ^ 2 * dot p p).
Proof.
  intros Hcert Hc. pose proof Hcert as [Hl [[Hn Hs] [Hr [Hp Hpp]]]].
  assert (Hnew : separable_certificate (zs ++ [vscale c p]) (lam ++ [0]) p).
  { split; [|split; [split|split; [|split]]].
    - rewrite !app_length, Hl. reflexivity.
    - apply Forall_app. split; [exact Hn|]. constructor; [lra|constructor].
    - rewrite sum_app, Hs. unfold sum; simpl. ring.
    - intros x. rewrite dot_lin_comb, map_app, dot_app_l
        by (rewrite map_length; exact Hl).
      rewrite <- dot_lin_comb, <- Hr. simpl. ring.
    - intros z Hz. apply in_app_or in Hz as [Hz|[<-|[]]]; [apply Hp; exact Hz|].
      rewrite dot_vscale_l. nra.
    - exact Hpp. }
  split; [exact Hnew|]. split; [eapply certificate_min_norm; exact Hcert|].
  split; [eapply certificate_min_norm; exact Hnew|].
  rewrite R2max_snoc, norm2_vscale. reflexivity.
Qed.

(** gamma is unchanged: the two minimum-norm values coincide. *)
Corollary add_point_gamma (zs : list vec) (lam : list R) (p : vec) (c g g' : R) :
  separable_certificate zs lam p -> 1 <= c ->
  min_norm_sq zs g -> min_norm_sq (zs ++ [vscale c p]) g' -> g = g'.
Proof.
  intros H Hc Hg Hg'. destruct (add_point_certificate zs lam p c H Hc) as [_ [H1 [H2 _]]].
  rewrite (min_norm_sq_unique _ _ _ Hg H1), (min_norm_sq_unique _ _ _ Hg' H2). reflexivity.
Qed.

(** ** Non-vacuity on exercise 6.1 *)

(** A rational rotation (the Cayley transform of a plane rotation, t = 1/2),
    given by its columns. *)
Definition Q_ex : list vec := [[3/5; 4/5; 0]; [-4/5; 3/5; 0]; [0; 0; 1]].

Example orthogonal_example :
  orthonormal Q_ex /\ (forall z, In z ex61 -> length z = length Q_ex).
Proof.
  split.
  - unfold Q_ex; simpl. repeat split; repeat constructor; simpl; lra.
  - intros z Hz. unfold ex61 in Hz. repeat destruct Hz as [<-|Hz]; try reflexivity.
    contradiction.
Qed.

Example scale_example :
  0 < 2 /\ updates (map (vscale 2) ex61) [0; 1; 2; 3]%nat = updates ex61 [0; 1; 2; 3]%nat.
Proof. split; [lra|]. apply scale_run_invariant. lra. Qed.

Example add_point_example :
  separable_certificate ex61 ex61_lambda ex61_p /\ 1 <= 3 /\
  R2max (ex61 ++ [vscale 3 ex61_p]) = 18.
Proof.
  split; [exact ex61_certificate|]. split; [lra|].
  assert (H3 : 1 <= 3) by lra.
  destruct (add_point_certificate ex61 ex61_lambda ex61_p 3 ex61_certificate H3) as [_ [_ [_ E]]].
  rewrite E. unfold R2max, ex61, ex61_p; simpl.
  unfold Rmax; repeat destruct Rle_dec; lra.
Qed.
