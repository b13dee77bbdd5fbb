(** * The averaged perceptron over integers, proved equal to [AveragedRun.averaged_sum].

    [AveragedRun.averaged_sum rho D order] is the sum sum_(s=1..N) w^(s) of the perceptron's
    weights after each presentation (Freund and Schapire 1999, section 3; the averaged
    perceptron's weights are this sum over N, [AveragedRun.averaged]).  Here the same sum is
    computed over [Z] on the integer patterns of a labelled dataset of numerators
    ([ZLabelled.zlabelled_patterns], one scale L > 0), one epoch after the other
    ([zaveraged], epochs 0 .. E-1 with the pairs [pres_of e] of each); [zaveraged_correct]
    states that its sum over L is [averaged_sum] on the rational dataset in the order of
    those epochs, and [zaveraged_avg] that the averaged weights are that sum over N L.  The
    decision is the integer perceptron's, [Labelled.mistake] on the rational sample
    ([ZVoted.zmistake_labelled]). *)

From Coq Require Import Reals List Lra Psatz Arith ZArith.
From Novikoff Require Import Vectors Perceptron Labelled AveragedRun.
From NovikoffExtracted Require Import ZPerceptron ZLargeMargin ZLabelled ZVoted.
Import ListNotations.

(** [zavg_pairs ps w acc]: present the pairs [ps] from the weights [w], adding the weights
    after each presentation to the running sum [acc]. *)
Fixpoint zavg_pairs (ps : list (nat * zvec)) (w acc : zvec) : zvec * zvec :=
  match ps with
  | [] => (w, acc)
  | (_, z) :: ps' =>
      let w' := if zmistake w z then zvadd w z else w in zavg_pairs ps' w' (zvadd acc w')
  end.

Fixpoint zavg_epochs (pres_of : nat -> list (nat * zvec)) (e n : nat) (w acc : zvec) : zvec * zvec :=
  match n with
  | O => (w, acc)
  | S n' => let '(w', acc') := zavg_pairs (pres_of e) w acc in zavg_epochs pres_of (S e) n' w' acc'
  end.

(** The integer sum of the weights after each presentation of epochs 0 .. E-1. *)
Definition zaveraged (pres_of : nat -> list (nat * zvec)) (E : nat) : zvec :=
  snd (zavg_epochs pres_of 0 E [] []).

Lemma zavg_pairs_app p1 p2 w acc :
  zavg_pairs (p1 ++ p2) w acc = let '(w', acc') := zavg_pairs p1 w acc in zavg_pairs p2 w' acc'.
Proof.
  revert w acc; induction p1 as [|[i z] p IH]; intros w acc; simpl; [reflexivity|]. apply IH.
Qed.

Lemma zavg_epochs_pairs pres_of e n w acc :
  zavg_epochs pres_of e n w acc = zavg_pairs (pairs_of pres_of e n) w acc.
Proof.
  revert e w acc; induction n as [|n IH]; intros e w acc; simpl; [reflexivity|].
  rewrite zavg_pairs_app. destruct (zavg_pairs (pres_of e) w acc) as [w' acc']. apply IH.
Qed.

Local Open Scope R_scope.

Lemma zavg_pairs_R (L rhoZ : Z) zD order w k acc :
  (0 < L)%Z -> valid (rdataset L zD) order ->
  averaged_from (IZR rhoZ / IZR L) (zsc L w, k) (zsc L acc) (map (sample_at (rdataset L zD)) order)
  = zsc L (snd (zavg_pairs (zpresent (zlabelled_patterns rhoZ zD) order) w acc)).
Proof.
  intros HL Hv. apply valid_length in Hv. revert w k acc.
  induction order as [|i o IH]; intros w k acc; simpl; [reflexivity|].
  inversion Hv as [|? ? Hi Ho]; subst. unfold lstep. cbn [fst snd].
  rewrite (zmistake_labelled L rhoZ zD i w HL Hi).
  destruct (zmistake w (zpattern (zlabelled_patterns rhoZ zD) i)); cbn [fst].
  - rewrite reflect_at by exact Hi. rewrite <- !zsc_vadd. apply (IH Ho).
  - rewrite <- zsc_vadd. apply (IH Ho).
Qed.

(** The integer sum over L is the averaged perceptron's sum on the rational dataset
    x_i = (L x_i) / L, rho = (L rho) / L, in the order of the epochs 0 .. E-1. *)
Theorem zaveraged_correct (L rhoZ : Z) zD perm_of pres_of E :
  (0 < L)%Z ->
  (forall e, valid (rdataset L zD) (perm_of e)) ->
  (forall e, pres_of e = zpresent (zlabelled_patterns rhoZ zD) (perm_of e)) ->
  averaged_sum (IZR rhoZ / IZR L) (rdataset L zD) (epochs_order perm_of 0 E)
  = zsc L (zaveraged pres_of E).
Proof.
  intros HL Hv Hp. unfold zaveraged, averaged_sum. rewrite zavg_epochs_pairs.
  rewrite (pairs_of_present (zlabelled_patterns rhoZ zD) perm_of pres_of 0 E Hp).
  apply (zavg_pairs_R L rhoZ zD (epochs_order perm_of 0 E) [] 0 [] HL (epochs_order_valid _ perm_of 0 E Hv)).
Qed.

(** The averaged weights: the integer sum over N L, N the number of presentations. *)
Corollary zaveraged_avg (L rhoZ : Z) zD perm_of pres_of E :
  (0 < L)%Z ->
  (forall e, valid (rdataset L zD) (perm_of e)) ->
  (forall e, pres_of e = zpresent (zlabelled_patterns rhoZ zD) (perm_of e)) ->
  averaged (IZR rhoZ / IZR L) (rdataset L zD) (epochs_order perm_of 0 E)
  = vscale (/ INR (length (epochs_order perm_of 0 E))) (zsc L (zaveraged pres_of E)).
Proof. intros HL Hv Hp. unfold averaged.
  rewrite (zaveraged_correct L rhoZ zD perm_of pres_of E HL Hv Hp). reflexivity.
Qed.
