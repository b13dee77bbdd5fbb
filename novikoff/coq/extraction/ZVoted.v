(** * The voted perceptron over integers, proved equal to [VotedRun.voted].

    [VotedRun.voted rho D order] (Freund and Schapire 1999, section 3) is the list of the
    perceptron's prediction vectors v_1 = 0, v_2, ..., with their survival counts, over
    the reals.  Here the same list is computed over [Z] on the integer patterns of a
    labelled dataset of numerators ([ZLabelled.zlabelled_patterns]: z_i = y_i (L x_i, L rho),
    one scale L > 0), one epoch after the other ([zvoted], epochs 0 .. E-1 with the pairs
    [pres_of e] of each), and [zvoted_correct] states that its vectors over L and its counts
    are those of [voted] on the rational dataset x_i, rho in the order of those epochs
    ([epochs_order perm_of 0 E]: with the E the extracted epoch loop reports, the run of
    [ZLabelled.zlabelled_correct]).

    The decision is the integer perceptron's ([zmistake]: update iff W.Z <= 0), proved to be
    [Labelled.mistake] on the rational sample ([zmistake_labelled]). *)

From Coq Require Import Reals List Lra Psatz Arith ZArith.
From Novikoff Require Import Vectors Perceptron Labelled VotedRun.
From NovikoffExtracted Require Import ZPerceptron ZLargeMargin ZLabelled.
Import ListNotations.

(** ** The integer voters

    [zvoted_pairs ps w c acc] presents the pairs [ps] from the current vector [w] with
    survival count [c]; [acc] holds the finished voters, latest first. *)

Fixpoint zvoted_pairs (ps : list (nat * zvec)) (w : zvec) (c : nat) (acc : list (zvec * nat))
  : zvec * nat * list (zvec * nat) :=
  match ps with
  | [] => (w, c, acc)
  | (_, z) :: ps' =>
      if zmistake w z then zvoted_pairs ps' (zvadd w z) 1 ((w, c) :: acc)
      else zvoted_pairs ps' w (S c) acc
  end.

(** Epochs [e], ..., [e + n - 1], each presenting [pres_of e]. *)
Fixpoint zvoted_epochs (pres_of : nat -> list (nat * zvec)) (e n : nat)
    (w : zvec) (c : nat) (acc : list (zvec * nat)) : zvec * nat * list (zvec * nat) :=
  match n with
  | O => (w, c, acc)
  | S n' =>
      let '(w', c', acc') := zvoted_pairs (pres_of e) w c acc in
      zvoted_epochs pres_of (S e) n' w' c' acc'
  end.

(** The voters (W_j, c_j) of epochs 0 .. E-1, in order, the last one included. *)
Definition zvoted (pres_of : nat -> list (nat * zvec)) (E : nat) : list (zvec * nat) :=
  let '(w, c, acc) := zvoted_epochs pres_of 0 E [] 0 [] in rev ((w, c) :: acc).

Lemma zvoted_pairs_app p1 p2 w c acc :
  zvoted_pairs (p1 ++ p2) w c acc =
  let '(w', c', acc') := zvoted_pairs p1 w c acc in zvoted_pairs p2 w' c' acc'.
Proof.
  revert w c acc; induction p1 as [|[i z] p IH]; intros w c acc; simpl; [reflexivity|].
  destruct (zmistake w z); apply IH.
Qed.

Lemma zvoted_epochs_pairs pres_of e n w c acc :
  zvoted_epochs pres_of e n w c acc = zvoted_pairs (pairs_of pres_of e n) w c acc.
Proof.
  revert e w c acc; induction n as [|n IH]; intros e w c acc; simpl; [reflexivity|].
  rewrite zvoted_pairs_app. destruct (zvoted_pairs (pres_of e) w c acc) as [[w' c'] acc'].
  apply IH.
Qed.

(** ** The rational samples and the shared decision rule *)

Local Open Scope R_scope.

Definition zsc (L : Z) (u : zvec) : vec := vscale (/ IZR L) (inj u).

(** The reflected rational sample i is the integer pattern i over L. *)
Lemma reflect_at (L rhoZ : Z) zD i :
  (i < length zD)%nat ->
  reflect (IZR rhoZ / IZR L) (sample_at (rdataset L zD) i)
  = zsc L (zpattern (zlabelled_patterns rhoZ zD) i).
Proof.
  intros Hi. unfold sample_at, rdataset, zpattern, zlabelled_patterns.
  assert (N : forall (A B : Type) (f : A -> B) l d d', (i < length l)%nat ->
            nth i (map f l) d' = f (nth i l d)).
  { intros A B f l d d' H. rewrite nth_indep with (d' := f d) by (rewrite map_length; exact H).
    apply map_nth. }
  rewrite !(N _ _ _ zD (pos, @nil Z)) by exact Hi.
  destruct (nth i zD (pos, [])) as [l x]. simpl. unfold zsc. apply reflect_z.
Qed.

Lemma decide_zsc L w z :
  (0 < L)%Z -> (if Rle_dec (dot (zsc L w) (zsc L z)) 0 then true else false) = zmistake w z.
Proof.
  intros HL. assert (Hc : 0 < / IZR L) by (apply Rinv_0_lt_compat, IZR_lt; exact HL).
  unfold zsc. rewrite decide_scale by exact Hc. symmetry. apply zmistake_R.
Qed.

(** [Labelled.mistake] on the rational sample i is the integer decision on pattern i. *)
Lemma zmistake_labelled (L rhoZ : Z) zD i w :
  (0 < L)%Z -> (i < length zD)%nat ->
  mistake (zsc L w) (IZR rhoZ / IZR L) (sample_at (rdataset L zD) i)
  = zmistake w (zpattern (zlabelled_patterns rhoZ zD) i).
Proof.
  intros HL Hi. unfold mistake. rewrite signed_margin_reflect, reflect_at by exact Hi.
  apply decide_zsc. exact HL.
Qed.

Lemma zsc_vadd L u v : zsc L (zvadd u v) = vadd (zsc L u) (zsc L v).
Proof. unfold zsc. rewrite zvadd_R, vadd_vscale. reflexivity. Qed.

Lemma valid_length L zD order :
  valid (rdataset L zD) order -> Forall (fun i => (i < length zD)%nat) order.
Proof. unfold valid, rdataset. rewrite map_length. auto. Qed.

(** ** The integer voters are [voted] *)

Definition zvoter (L : Z) (vc : zvec * nat) : vec * nat := (zsc L (fst vc), snd vc).

Lemma zvoted_pairs_R (L rhoZ : Z) zD order w c acc :
  (0 < L)%Z -> valid (rdataset L zD) order ->
  let '(w', c', acc') := zvoted_pairs (zpresent (zlabelled_patterns rhoZ zD) order) w c acc in
  map (zvoter L) (rev acc) ++
    voted_from (IZR rhoZ / IZR L) (zsc L w) c (map (sample_at (rdataset L zD)) order)
  = map (zvoter L) (rev ((w', c') :: acc')).
Proof.
  intros HL Hv. apply valid_length in Hv. revert w c acc.
  induction order as [|i o IH]; intros w c acc; simpl.
  - rewrite map_app. reflexivity.
  - inversion Hv as [|? ? Hi Ho]; subst.
    rewrite (zmistake_labelled L rhoZ zD i w HL Hi).
    destruct (zmistake w (zpattern (zlabelled_patterns rhoZ zD) i)).
    + rewrite reflect_at by exact Hi. rewrite <- zsc_vadd.
      specialize (IH Ho (zvadd w (zpattern (zlabelled_patterns rhoZ zD) i)) 1%nat ((w, c) :: acc)).
      destruct (zvoted_pairs (zpresent (zlabelled_patterns rhoZ zD) o)
                  (zvadd w (zpattern (zlabelled_patterns rhoZ zD) i)) 1 ((w, c) :: acc))
        as [[w' c'] acc'].
      change (rev acc' ++ [(w', c')]) with (rev ((w', c') :: acc')). rewrite <- IH.
      simpl. rewrite map_app, <- app_assoc. reflexivity.
    + apply (IH Ho).
Qed.

(** The integer voters of the epochs 0 .. E-1 are the voted perceptron's voters on the
    rational dataset x_i = (L x_i) / L, rho = (L rho) / L, in the order of those epochs:
    the same vectors (over L), the same survival counts, in the same order. *)
Theorem zvoted_correct (L rhoZ : Z) zD perm_of pres_of E :
  (0 < L)%Z ->
  (forall e, valid (rdataset L zD) (perm_of e)) ->
  (forall e, pres_of e = zpresent (zlabelled_patterns rhoZ zD) (perm_of e)) ->
  voted (IZR rhoZ / IZR L) (rdataset L zD) (epochs_order perm_of 0 E)
  = map (zvoter L) (zvoted pres_of E).
Proof.
  intros HL Hv Hp. unfold zvoted, voted. rewrite zvoted_epochs_pairs.
  rewrite (pairs_of_present (zlabelled_patterns rhoZ zD) perm_of pres_of 0 E Hp).
  pose proof (zvoted_pairs_R L rhoZ zD (epochs_order perm_of 0 E) [] 0 [] HL
                (epochs_order_valid _ perm_of 0 E Hv)) as H.
  destruct (zvoted_pairs (zpresent (zlabelled_patterns rhoZ zD) (epochs_order perm_of 0 E)) [] 0 [])
    as [[w c] acc].
  rewrite <- H. reflexivity.
Qed.
