(** * The integer perceptron is the perceptron on labelled data ([Labelled.perceptron]).

    [Labelled.perceptron rho D order] is the run on the user's file as Coq states it: the
    samples' features and labels, the bias rho, the reflection z_i = y_i (x_i, rho) and the
    decision y (w . x~) <= 0 written once ([Labelled.mistake]).  Here a labelled dataset of
    integer numerators (each sample's label and its features L x_i, the bias L rho, one
    scale L > 0) gives the integer patterns ([zlabelled_patterns], by [zreflect]), and
    [zlabelled_correct] states that the extracted loop's weights over L and its count are
    those of [Labelled.perceptron] on the rational dataset x_i, rho. *)

From Coq Require Import Reals List Lra Psatz Arith ZArith.
From Novikoff Require Import Vectors Perceptron Labelled.
From NovikoffExtracted Require Import ZPerceptron.
Import ListNotations.

Definition zy (l : label) : Z := match l with pos => 1%Z | neg => (-1)%Z end.

(** The integer patterns of a labelled dataset of numerators (label, L x_i) with bias L rho. *)
Definition zlabelled_patterns (rhoZ : Z) (zD : list (label * zvec)) : list zvec :=
  map (fun s => zreflect (zy (fst s)) rhoZ (snd s)) zD.

Local Open Scope R_scope.

(** The rational dataset those numerators stand for: x_i = (L x_i) / L. *)
Definition rdataset (L : Z) (zD : list (label * zvec)) : dataset :=
  map (fun s => mk_sample (vscale (/ IZR L) (inj (snd s))) (fst s)) zD.

Lemma reflect_z (L rhoZ : Z) l x :
  reflect (IZR rhoZ / IZR L) (mk_sample (vscale (/ IZR L) (inj x)) l)
  = vscale (/ IZR L) (inj (zreflect (zy l) rhoZ x)).
Proof.
  rewrite zreflect_R. unfold reflect, augment, vscale; simpl.
  rewrite !map_app, !map_map. simpl. f_equal.
  - apply map_ext. intros a. destruct l; simpl; ring.
  - f_equal. destruct l; simpl; unfold Rdiv; ring.
Qed.

Lemma reflected_z L rhoZ zD :
  reflected (IZR rhoZ / IZR L) (rdataset L zD) = map (vscale (/ IZR L)) (injs (zlabelled_patterns rhoZ zD)).
Proof.
  unfold reflected, rdataset, zlabelled_patterns, injs. rewrite !map_map.
  apply map_ext. intros [l x]. simpl. apply reflect_z.
Qed.

Lemma epochs_order_valid D perm_of e n :
  (forall e, valid D (perm_of e)) -> valid D (epochs_order perm_of e n).
Proof.
  intros H. revert e; induction n as [|n IH]; intros e; simpl; [constructor|].
  apply Forall_app; split; [apply H|apply IH].
Qed.

Theorem zlabelled_correct (L rhoZ : Z) zD perm_of pres_of fuel :
  (0 < L)%Z ->
  (forall e, valid (rdataset L zD) (perm_of e)) ->
  (forall e, pres_of e = zpresent (zlabelled_patterns rhoZ zD) (perm_of e)) ->
  let '(w, k, tr, E, conv) := zepochs_pairs pres_of fuel in
  perceptron (IZR rhoZ / IZR L) (rdataset L zD) (epochs_order perm_of 0 E) = (vscale (/ IZR L) (inj w), k).
Proof.
  intros HL Hv Hp.
  assert (Hc : 0 < / IZR L) by (apply Rinv_0_lt_compat, IZR_lt; exact HL).
  rewrite (zepochs_pairs_correct _ perm_of pres_of fuel Hp).
  pose proof (zepochs_correct (zlabelled_patterns rhoZ zD) perm_of fuel) as H.
  destruct (zepochs (zlabelled_patterns rhoZ zD) perm_of fuel) as [[[[w k] tr] E] conv].
  destruct H as [H1 _].
  rewrite perceptron_is_run by (apply epochs_order_valid; exact Hv).
  rewrite reflected_z.
  destruct (run_scale (/ IZR L) (injs (zlabelled_patterns rhoZ zD)) (epochs_order perm_of 0 E) Hc) as [Hs _].
  rewrite Hs. unfold weights, updates. rewrite H1. reflexivity.
Qed.
