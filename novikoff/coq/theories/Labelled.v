(** * Labelled data and the perceptron run on it, in every dimension.

    A dataset is what the user's file holds: a list of samples, each a feature
    vector x_i (rational, here real) with a label y_i in {-1, +1}, and the bias
    rho.  The bias coordinate and the reflection are functions of this file:
      x~_i = (x_i, rho)          ([augment]: rho is the LAST coordinate)
      z_i  = y_i x~_i            ([reflect])
    The perceptron's decision rule is written once ([mistake]: update iff
    y_i (w . x~_i) <= 0, ties update), and so is its run on a presentation
    order ([perceptron]).  [perceptron_is_run] shows that this run on labelled
    data is the run of [Perceptron] on the reflected patterns, so every theorem
    of [Perceptron] speaks about it.  R^2 = max_i ||x~_i||^2 ([radius2]) is
    computed from the data; gamma^2 is the squared distance from 0 to
    conv{z_i} ([Perceptron.min_norm_sq] of [reflected rho D]).

    Sources: Novikoff (1962); the textbook's section 6.4 for the bias
    trick and the reflection. *)

From Coq Require Import Reals List Lra Psatz Arith.
From Novikoff Require Import Vectors Perceptron.
Import ListNotations.
Local Open Scope R_scope.

(** ** Labelled data *)

Inductive label : Set := pos | neg.

(** The label as the number y in {-1, +1}. *)
Definition y (l : label) : R := match l with pos => 1 | neg => -1 end.

Record sample : Type := mk_sample { features : vec; lab : label }.
Definition dataset : Type := list sample.

(** The bias coordinate rho, appended last. *)
Definition augment (rho : R) (x : vec) : vec := x ++ [rho].

(** The reflected pattern z = y (x, rho). *)
Definition reflect (rho : R) (s : sample) : vec := vscale (y (lab s)) (augment rho (features s)).
Definition reflected (rho : R) (D : dataset) : list vec := map (reflect rho) D.

(** R^2 = max_i ||(x_i, rho)||^2 (0 for no data). *)
Definition radius2 (rho : R) (D : dataset) : R :=
  fold_right Rmax 0 (map (fun s => norm2 (augment rho (features s))) D).

(** ** The decision rule, written once *)

(** y (w . x~), the signed margin of sample [s] under the weights [w]. *)
Definition signed_margin (w : vec) (rho : R) (s : sample) : R :=
  y (lab s) * dot w (augment rho (features s)).

(** The perceptron errs on [s] (and updates) iff y (w . x~) <= 0. *)
Definition mistake (w : vec) (rho : R) (s : sample) : bool :=
  if Rle_dec (signed_margin w rho s) 0 then true else false.

(** One presentation: on a mistake, w <- w + y x~ and one more update. *)
Definition lstep (rho : R) (st : state) (s : sample) : state :=
  if mistake (fst st) rho s then (vadd (fst st) (reflect rho s), S (snd st)) else st.

Definition no_sample : sample := mk_sample [] pos.
Definition sample_at (D : dataset) (i : nat) : sample := nth i D no_sample.

(** An order presents indices into the dataset (any permutation, epochs, prefix). *)
Definition valid (D : dataset) (order : list nat) : Prop :=
  Forall (fun i => (i < length D)%nat) order.

(** The perceptron on labelled data: from w_0 = 0, the samples in [order]. *)
Definition perceptron (rho : R) (D : dataset) (order : list nat) : state :=
  fold_left (lstep rho) (map (sample_at D) order) init.
Definition perceptron_weights rho D order : vec := fst (perceptron rho D order).
Definition perceptron_updates rho D order : nat := snd (perceptron rho D order).

(** ** The run on labelled data is the run on the reflected patterns *)

Lemma signed_margin_reflect w rho s : signed_margin w rho s = dot w (reflect rho s).
Proof. unfold signed_margin, reflect. rewrite dot_vscale_r. reflexivity. Qed.

Lemma lstep_step rho st s : lstep rho st s = step st (reflect rho s).
Proof.
  unfold lstep, step, mistake. rewrite signed_margin_reflect.
  destruct (Rle_dec (dot (fst st) (reflect rho s)) 0); reflexivity.
Qed.

Lemma valid_reflected rho D order : valid D order <-> valid_order (reflected rho D) order.
Proof. unfold valid, valid_order, reflected. rewrite map_length. reflexivity. Qed.

Lemma fold_lstep rho l st :
  fold_left (lstep rho) l st = fold_left step (map (reflect rho) l) st.
Proof.
  revert st; induction l as [|s l IH]; intros st; simpl; [reflexivity|].
  rewrite lstep_step. apply IH.
Qed.

Theorem perceptron_is_run rho D order :
  valid D order -> perceptron rho D order = run (reflected rho D) order.
Proof.
  intros Hv. unfold perceptron, run, presented. rewrite fold_lstep, map_map.
  f_equal. apply map_ext_in. intros i Hi.
  unfold valid in Hv. rewrite Forall_forall in Hv. specialize (Hv i Hi).
  unfold pattern, reflected, sample_at.
  rewrite nth_indep with (d' := reflect rho no_sample) by (rewrite map_length; exact Hv).
  symmetry. apply map_nth.
Qed.

Corollary perceptron_updates_run rho D order :
  valid D order -> perceptron_updates rho D order = updates (reflected rho D) order.
Proof. intros Hv. unfold perceptron_updates, updates. rewrite perceptron_is_run; auto. Qed.

Corollary perceptron_weights_run rho D order :
  valid D order -> perceptron_weights rho D order = weights (reflected rho D) order.
Proof. intros Hv. unfold perceptron_weights, weights. rewrite perceptron_is_run; auto. Qed.

(** ** R^2 from the data *)

Lemma y_sq l : y l * y l = 1.
Proof. destruct l; simpl; ring. Qed.

Lemma norm2_reflect rho s : dot (reflect rho s) (reflect rho s) = norm2 (augment rho (features s)).
Proof.
  unfold reflect, norm2. rewrite norm2_vscale.
  replace (y (lab s) ^ 2) with (y (lab s) * y (lab s)) by ring. rewrite y_sq. ring.
Qed.

Lemma radius2_nonneg rho D : 0 <= radius2 rho D.
Proof.
  unfold radius2. induction D as [|s D IH]; simpl; [lra|].
  eapply Rle_trans; [exact IH|]. apply Rmax_r.
Qed.

Lemma radius2_ge rho D s : In s D -> norm2 (augment rho (features s)) <= radius2 rho D.
Proof.
  unfold radius2. induction D as [|s' D IH]; intros Hin; simpl in *; [contradiction|].
  destruct Hin as [<-|Hin]; [apply Rmax_l|].
  eapply Rle_trans; [apply IH; exact Hin|]. apply Rmax_r.
Qed.

(** Every reflected pattern lies in the ball of radius R. *)
Theorem radius2_bound rho D : radius_bound (reflected rho D) (radius2 rho D).
Proof.
  intros z Hz. unfold reflected in Hz. apply in_map_iff in Hz as [s [<- Hs]].
  rewrite norm2_reflect. apply radius2_ge; exact Hs.
Qed.

(** With a separating certificate, R^2 > 0 (some pattern has z.p* >= ||p*||^2 > 0). *)
Lemma radius2_pos rho D lam p :
  separable_certificate (reflected rho D) lam p -> 0 < radius2 rho D.
Proof.
  intros Hcert. destruct Hcert as [Hlen [[_ Hsum] [_ [Hcc Hpp]]]].
  destruct (reflected rho D) as [|z zs] eqn:E.
  - destruct lam; simpl in Hlen; [unfold sum in Hsum; simpl in Hsum; lra|discriminate].
  - assert (Hz : In z (reflected rho D)) by (rewrite E; left; reflexivity).
    assert (Hzp : dot z p >= dot p p) by (apply Hcc; rewrite <- E; exact Hz).
    pose proof (cauchy_schwarz z p) as Hcs.
    pose proof (norm2_nonneg z) as Hzz.
    assert (Hpos : 0 < dot z z).
    { destruct (Rle_lt_or_eq_dec 0 (dot z z) Hzz) as [h|h]; [exact h|].
      rewrite <- h in Hcs. nra. }
    pose proof (radius2_bound rho D z Hz). lra.
Qed.

(** ** The update sequence of a run

    [updated_from w ps] lists the presented patterns on which the run from [w] updates
    (the same decision as [Perceptron.step]); [wprefix ups j] is the weight vector after
    the first j updates.  These are the run's quantities the printed statements'
    premise functions are instantiated with ([Bridges]). *)

Fixpoint updated_from (w : vec) (ps : list vec) : list vec :=
  match ps with
  | [] => []
  | z :: ps' =>
      if Rle_dec (dot w z) 0 then z :: updated_from (vadd w z) ps' else updated_from w ps'
  end.

Definition wprefix (ups : list vec) (j : nat) : vec := fold_left vadd (firstn j ups) [].

Lemma fold_step_updated ps w n :
  fold_left step ps (w, n) =
  (fold_left vadd (updated_from w ps) w, (n + length (updated_from w ps))%nat).
Proof.
  revert w n; induction ps as [|z ps IH]; intros w n; simpl; [f_equal; lia|].
  unfold step at 2; cbn [fst snd].
  destruct (Rle_dec (dot w z) 0); simpl; rewrite IH; f_equal; lia.
Qed.

Lemma updated_mistake ps w j :
  (j < length (updated_from w ps))%nat ->
  dot (fold_left vadd (firstn j (updated_from w ps)) w) (nth j (updated_from w ps) []) <= 0.
Proof.
  revert w j; induction ps as [|z ps IH]; intros w j Hj; simpl in *; [lia|].
  destruct (Rle_dec (dot w z) 0) as [Hle|Hgt]; [|apply IH; exact Hj].
  destruct j as [|j]; simpl; [exact Hle|].
  apply IH. simpl in Hj. lia.
Qed.

Lemma updated_in ps w z : In z (updated_from w ps) -> In z ps.
Proof.
  revert w; induction ps as [|z' ps IH]; intros w Hz; simpl in *; [exact Hz|].
  destruct (Rle_dec (dot w z') 0); [destruct Hz as [<-|Hz]; [left; reflexivity|] |];
    right; eapply IH; exact Hz.
Qed.

Lemma wprefix_S ups j :
  wprefix ups (S j) = if Nat.ltb j (length ups) then vadd (wprefix ups j) (nth j ups []) else wprefix ups j.
Proof.
  unfold wprefix. destruct (Nat.ltb_spec j (length ups)) as [Hj|Hj].
  - assert (E : firstn (S j) ups = firstn j ups ++ [nth j ups []]).
    { clear -Hj. revert j Hj; induction ups as [|a ups IH]; intros j Hj; simpl in *; [lia|].
      destruct j as [|j]; [reflexivity|]. simpl. f_equal. apply IH. lia. }
    rewrite E, fold_left_app. reflexivity.
  - rewrite !firstn_all2 by lia. reflexivity.
Qed.

Lemma wprefix_all ups j : (length ups <= j)%nat -> wprefix ups j = fold_left vadd ups [].
Proof. intros H. unfold wprefix. rewrite firstn_all2 by exact H. reflexivity. Qed.

(** The update sequence of the run on [zs] in [order], its weights and its count. *)
Definition run_updates (zs : list vec) (order : list nat) : list vec :=
  updated_from [] (presented zs order).

Lemma run_updates_spec zs order :
  weights zs order = fold_left vadd (run_updates zs order) [] /\
  updates zs order = length (run_updates zs order).
Proof.
  unfold weights, updates, run, run_updates, init.
  rewrite fold_step_updated. split; reflexivity.
Qed.

Lemma run_updates_mistake zs order j :
  (j < length (run_updates zs order))%nat ->
  dot (wprefix (run_updates zs order) j) (nth j (run_updates zs order) []) <= 0.
Proof. intros H. apply updated_mistake. exact H. Qed.

Lemma run_updates_in zs order z :
  valid_order zs order -> In z (run_updates zs order) -> In z zs.
Proof.
  intros Ho Hz. apply updated_in in Hz. pose proof (presented_in zs order Ho) as HF.
  rewrite Forall_forall in HF. apply HF. exact Hz.
Qed.

Lemma nth_run_updates_in zs order j :
  valid_order zs order -> (j < length (run_updates zs order))%nat ->
  In (nth j (run_updates zs order) []) zs.
Proof. intros Ho Hj. eapply run_updates_in; [exact Ho|]. apply nth_In. exact Hj. Qed.

Lemma nth_overflow_vec (l : list vec) j : (length l <= j)%nat -> nth j l [] = [].
Proof. apply nth_overflow. Qed.

(** ** Non-vacuity: exercise 6.1 of the textbook as labelled data.
    x = (1,1)+, (2,2)+, (-1,-1)-, (-2,0)-, rho = 1. *)

Definition ex61_data : dataset :=
  [mk_sample [1; 1] pos; mk_sample [2; 2] pos; mk_sample [-1; -1] neg; mk_sample [-2; 0] neg].

Lemma ex61_reflected : reflected 1 ex61_data = ex61.
Proof.
  unfold reflected, ex61_data, ex61, reflect, augment, vscale; simpl.
  repeat f_equal; ring.
Qed.
