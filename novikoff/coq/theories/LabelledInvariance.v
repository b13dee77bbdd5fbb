(** * G1 on labelled data, in every dimension: maps of the samples that keep the reflected
    patterns' inner products leave the perceptron's run unchanged.

    [labelled_gram_run_invariant]: for ANY map f of samples with
    y' (x'.x'' + rho^2) y'' = y (x.x''' + rho^2) y''' on the dataset (the Gram matrix of the
    reflected patterns y (x, rho) unchanged), the perceptron on the mapped data makes the same
    decisions and the same number of updates, in every order (the run depends on the patterns
    only through their Gram matrix: [Invariance.run_gram_invariant]).  Instances:
    - [orthogonal_labelled_run_invariant]: the features rotated by any orthogonal d x d
      matrix Q (given by its columns q_1..q_d, Q^T Q = I: [Invariance.orthonormal]), in every
      dimension d, the bias and the labels kept;
    - the Cayley rotation of the first two features of d-feature samples, for every d >= 2
      ([cayley_front], used by [Bridges.G1_rotate_bridge] through the printed 2-D identity).

    Sources: the textbook's exercise 6.2 (invariance of the perceptron). *)

From Coq Require Import Reals List Lra Psatz Arith Lia.
From Novikoff Require Import Vectors Perceptron Invariance Labelled.
Import ListNotations.
Local Open Scope R_scope.

(** ** Any map of the samples that keeps the Gram matrix *)

Lemma same_gram_samples (c : R) (g g' : sample -> vec) (D : dataset) :
  (forall s s', In s D -> In s' D -> dot (g' s) (g' s') = c * dot (g s) (g s')) ->
  same_gram c (map g D) (map g' D).
Proof.
  intros H i j.
  destruct (lt_dec i (length D)) as [hi|hi];
    [|rewrite !(pattern_overflow _ i) by (rewrite ?map_length; lia); simpl; ring].
  destruct (lt_dec j (length D)) as [hj|hj];
    [|rewrite !(pattern_overflow _ j) by (rewrite ?map_length; lia); rewrite !dot_nil_r; ring].
  assert (E : forall (h : sample -> vec) k, (k < length D)%nat ->
            pattern (map h D) k = h (nth k D no_sample)).
  { intros h k Hk. unfold pattern.
    rewrite nth_indep with (d' := h no_sample) by (rewrite map_length; exact Hk). apply map_nth. }
  rewrite !E by assumption. apply H; apply nth_In; assumption.
Qed.

(** The perceptron's run on labelled data is unchanged by any map of the samples that keeps
    the inner products of the reflected patterns y (x, rho). *)
Theorem labelled_gram_run_invariant (f : sample -> sample) (D : dataset) (rho : R) (order : list nat) :
  (forall s s', In s D -> In s' D ->
     dot (reflect rho (f s)) (reflect rho (f s')) = dot (reflect rho s) (reflect rho s')) ->
  valid D order ->
  decisions (reflected rho (map f D)) order = decisions (reflected rho D) order /\
  perceptron_updates rho (map f D) order = perceptron_updates rho D order.
Proof.
  intros Hgram Hvalid.
  assert (Hg : same_gram 1 (reflected rho D) (reflected rho (map f D))).
  { unfold reflected. rewrite map_map. apply same_gram_samples. intros s s' Hs Hs'.
    rewrite Hgram by assumption. ring. }
  assert (Hvalid' : valid (map f D) order) by (unfold valid in *; rewrite map_length; exact Hvalid).
  destruct (run_gram_invariant 1 _ _ order Rlt_0_1 Hg) as [Hdec [Hupd _]].
  split; [exact Hdec|]. rewrite !perceptron_updates_run by assumption. exact Hupd.
Qed.

(** With features of one length, the reflected patterns' inner product is
    y y' (x.x' + rho^2). *)
Lemma dot_reflect rho s s' :
  length (features s) = length (features s') ->
  dot (reflect rho s) (reflect rho s') = y (lab s) * y (lab s') * (dot (features s) (features s') + rho * rho).
Proof.
  intros Hl. unfold reflect, augment. rewrite dot_vscale_l, dot_vscale_r, dot_app_l by exact Hl.
  simpl. ring.
Qed.

(** A map of the features (labels kept) keeps the Gram matrix when it keeps the features'
    inner products and their common length. *)
Definition map_features (q : vec -> vec) (s : sample) : sample := mk_sample (q (features s)) (lab s).

Lemma map_features_gram (q : vec -> vec) (d : nat) (rho : R) (s s' : sample) :
  length (features s) = d -> length (features s') = d ->
  length (q (features s)) = length (q (features s')) ->
  dot (q (features s)) (q (features s')) = dot (features s) (features s') ->
  dot (reflect rho (map_features q s)) (reflect rho (map_features q s'))
    = dot (reflect rho s) (reflect rho s').
Proof.
  intros Hs Hs' Hq Hdot. unfold map_features. rewrite !dot_reflect by (cbn [features]; congruence).
  cbn [features lab]. rewrite Hdot. reflexivity.
Qed.

(** ** Orthogonal matrices of every dimension *)

Lemma vadd_length u v : length (vadd u v) = Nat.max (length u) (length v).
Proof.
  revert v; induction u as [|a u IH]; intros [|b v]; simpl; try reflexivity.
  rewrite IH. reflexivity.
Qed.

(** A linear combination of vectors of length d, one coefficient each, has length d. *)
Lemma lin_comb_length (d : nat) (cs : list R) (qs : list vec) :
  Forall (fun q => length q = d) qs -> length cs = length qs -> qs <> [] ->
  length (lin_comb cs qs) = d.
Proof.
  revert cs. induction qs as [|q qs IH]; intros [|c cs] Hf Hl Hne; simpl in *;
    try discriminate; [contradiction|].
  pose proof (Forall_inv Hf) as Hqd. pose proof (Forall_inv_tail Hf) as Hf'. cbv beta in Hqd.
  rewrite vadd_length. unfold vscale. rewrite map_length, Hqd.
  destruct qs as [|q' qs].
  - destruct cs; simpl; lia.
  - rewrite IH by (auto; discriminate). lia.
Qed.

(** Q x has the columns' length d (Q square: d columns of length d, x of length d). *)
Lemma apply_cols_length (qs : list vec) (x : vec) :
  Forall (fun q => length q = length qs) qs -> length x = length qs ->
  length (apply_cols qs x) = length qs.
Proof.
  intros Hq Hx. unfold apply_cols. destruct qs as [|q qs]; [destruct x; reflexivity|].
  apply lin_comb_length; [exact Hq|exact Hx|discriminate].
Qed.

(** The features of every sample rotated by the orthogonal matrix with columns [qs]. *)
Definition rotate_features (qs : list vec) (D : dataset) : dataset := map (map_features (apply_cols qs)) D.

(** G1 for every orthogonal d x d matrix Q (Q^T Q = I) and samples with d features: the
    perceptron's decisions and its number of updates are unchanged. *)
Theorem orthogonal_labelled_run_invariant (qs : list vec) (D : dataset) (rho : R) (order : list nat) :
  orthonormal qs -> Forall (fun q => length q = length qs) qs ->
  Forall (fun s => length (features s) = length qs) D -> valid D order ->
  decisions (reflected rho (rotate_features qs D)) order = decisions (reflected rho D) order /\
  perceptron_updates rho (rotate_features qs D) order = perceptron_updates rho D order.
Proof.
  intros Ho Hsq HD Hvalid. apply labelled_gram_run_invariant; [|exact Hvalid].
  intros s s' Hs Hs'. rewrite Forall_forall in HD.
  apply (map_features_gram _ (length qs)); try (apply HD; assumption).
  - rewrite !apply_cols_length by (auto; apply HD; assumption). reflexivity.
  - apply orthonormal_isometry; auto.
Qed.

(** ** The Cayley rotation of the first two features, in every dimension *)

Definition cayley_front (c1 c2 : R -> R -> R) (x : vec) : vec :=
  match x with u1 :: u2 :: rest => c1 u1 u2 :: c2 u1 u2 :: rest | _ => x end.

Lemma cayley_front_length c1 c2 x : length (cayley_front c1 c2 x) = length x.
Proof. destruct x as [|u1 [|u2 rest]]; reflexivity. Qed.

(** A map of the first two coordinates that keeps their inner products keeps those of
    vectors of any common length >= 2. *)
Lemma cayley_front_dot (c1 c2 : R -> R -> R) (x x' : vec) :
  (forall w1 w2 z1 z2, c1 w1 w2 * c1 z1 z2 + c2 w1 w2 * c2 z1 z2 = w1 * z1 + w2 * z2) ->
  (2 <= length x)%nat -> (2 <= length x')%nat ->
  dot (cayley_front c1 c2 x) (cayley_front c1 c2 x') = dot x x'.
Proof.
  intros H Hx Hx'.
  destruct x as [|u1 [|u2 rest]]; simpl in Hx; try lia.
  destruct x' as [|v1 [|v2 rest']]; simpl in Hx'; try lia.
  simpl. rewrite <- Rplus_assoc, H. ring.
Qed.
