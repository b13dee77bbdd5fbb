(** * PFM and PDM on labelled data, their decision rules written once, in every dimension.

    The perceptron with fixed margin (the IJCAI paper) and the perceptron with dynamic
    margin (the PDM paper) run here on what the user's file holds: samples (x, y) and the
    bias rho ([Labelled]).  Their decisions are written on the signed margin
    y (w . (x, rho)) ([Labelled.signed_margin]):
      PFM(beta):  update iff y (w . x~) <= beta ||w||  (exactly: y (w . x~) <= 0, or
                  (y (w . x~))^2 <= beta^2 ||w||^2)                       [pfm_mistake];
      PDM(eps):   with t >= 1 updates so far, update iff
                  t y (w . x~) <= (1 - eps) ||w||^2; with t = 0 always     [pdm_mistake];
    and an update adds y (x, rho).  [pfm_labelled_is_run] and [pdm_labelled_is_run] prove
    that these runs are [LargeMargin]'s runs on the reflected patterns, so every theorem
    about those speaks about them; [pdm_converged_labelled] (no sample would update) is
    [LargeMargin.pdm_converged] of the reflected patterns. *)

From Coq Require Import Reals List Lra Psatz Arith.
From Novikoff Require Import Vectors Perceptron LargeMargin Labelled NonSeparableRun.
Import ListNotations.
Local Open Scope R_scope.

(** ** The decision rules and the runs *)

Definition pfm_mistake (beta : R) (w : vec) (rho : R) (s : sample) : bool :=
  if Rle_dec (signed_margin w rho s) 0 then true
  else if Rle_dec (signed_margin w rho s ^ 2) (beta ^ 2 * norm2 w) then true else false.

Definition pfm_lstep (beta rho : R) (st : state) (s : sample) : state :=
  if pfm_mistake beta (fst st) rho s then (vadd (fst st) (reflect rho s), S (snd st)) else st.

(** PFM(beta) from w = 0 over the samples in [order]. *)
Definition pfm_labelled (beta rho : R) (D : dataset) (order : list nat) : state :=
  fold_left (pfm_lstep beta rho) (map (sample_at D) order) init.

Definition pdm_mistake (eps : R) (w : vec) (t : nat) (rho : R) (s : sample) : bool :=
  match t with
  | O => true
  | S _ => if Rle_dec (INR t * signed_margin w rho s) ((1 - eps) * norm2 w) then true else false
  end.

Definition pdm_lstep (eps rho : R) (st : state) (s : sample) : state :=
  if pdm_mistake eps (fst st) (snd st) rho s then (vadd (fst st) (reflect rho s), S (snd st)) else st.

(** PDM(eps) from w = 0, t = 0 over the samples in [order]. *)
Definition pdm_labelled (eps rho : R) (D : dataset) (order : list nat) : state :=
  fold_left (pdm_lstep eps rho) (map (sample_at D) order) init.

(** PDM(eps) has converged at [st] on D: no sample would update it. *)
Definition pdm_converged_labelled (eps rho : R) (D : dataset) (st : state) : Prop :=
  forall s, In s D -> pdm_lstep eps rho st s = st.

(** ** They are [LargeMargin]'s runs on the reflected patterns *)

Lemma pfm_lstep_step beta rho st s : pfm_lstep beta rho st s = pfm_step beta st (reflect rho s).
Proof.
  unfold pfm_lstep, pfm_step, pfm_mistake, pfm_test, update. rewrite signed_margin_reflect.
  reflexivity.
Qed.

Lemma pdm_lstep_step eps rho st s : pdm_lstep eps rho st s = pdm_step eps st (reflect rho s).
Proof.
  unfold pdm_lstep, pdm_step, pdm_mistake, pdm_test, update. rewrite signed_margin_reflect.
  reflexivity.
Qed.

Lemma fold_pfm_lstep beta rho l st :
  fold_left (pfm_lstep beta rho) l st = fold_left (pfm_step beta) (map (reflect rho) l) st.
Proof.
  revert st; induction l as [|s l IH]; intros st; simpl; [reflexivity|].
  rewrite pfm_lstep_step. apply IH.
Qed.

Lemma fold_pdm_lstep eps rho l st :
  fold_left (pdm_lstep eps rho) l st = fold_left (pdm_step eps) (map (reflect rho) l) st.
Proof.
  revert st; induction l as [|s l IH]; intros st; simpl; [reflexivity|].
  rewrite pdm_lstep_step. apply IH.
Qed.

Theorem pfm_labelled_is_run beta rho D order :
  valid D order -> pfm_labelled beta rho D order = pfm_run beta (reflected rho D) order.
Proof.
  intros Hv. unfold pfm_labelled, pfm_run, pfm_run_from.
  rewrite fold_pfm_lstep, presented_reflected by exact Hv. reflexivity.
Qed.

Theorem pdm_labelled_is_run eps rho D order :
  valid D order -> pdm_labelled eps rho D order = pdm_run eps (reflected rho D) order.
Proof.
  intros Hv. unfold pdm_labelled, pdm_run, pdm_run_from.
  rewrite fold_pdm_lstep, presented_reflected by exact Hv. reflexivity.
Qed.

Lemma pdm_converged_labelled_reflected eps rho D st :
  pdm_converged_labelled eps rho D st -> pdm_converged eps (reflected rho D) st.
Proof.
  intros H z Hz. unfold reflected in Hz. apply in_map_iff in Hz as [s [<- Hs]].
  rewrite <- pdm_lstep_step. apply H. exact Hs.
Qed.
