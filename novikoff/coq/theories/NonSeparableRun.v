(** * FS1 on labelled data: the perceptron on arbitrary (not necessarily separable) data
    (Freund and Schapire 1999, Theorem 2, one pass), in every dimension.

    For a unit vector u and a margin gamma > 0, the deviation of a labelled sample s is
    d(s) = max(0, gamma - y (u . x~)) ([deviation]: the signed margin is [Labelled]'s); the
    deviations are computed from the run's presented sequence ([presented_deviation2]: the
    sum of d^2 over every presented sample, one term per presentation).  The run theorem
    ([FS1_one_pass_run_statement] in [RunStatements], proved in [Bridges]) bounds the
    perceptron's updates by (D + R)^2 / gamma^2 with D^2 that sum and R^2 = [radius2].

    Several passes (Theorem 2 with each sample presented at most T times: T passes over any
    permutations, or any order): the mistakes are regrouped per sample index
    ([updated_idx]: the indices the run updates on; [list_sum_regroup]: a sum over them is
    the sum over the dataset's indices weighted by how often each was mistaken), so the
    deviations' sum over the mistakes is at most T times [data_deviation2], the sum of d^2
    over the dataset, one term per sample ([FS1_passes_run_statement]). *)

From Coq Require Import Reals List Lra Arith Lia.
From Novikoff Require Import Vectors Perceptron Labelled VotedRun.
Import ListNotations.
Local Open Scope R_scope.

(** d(s) = max(0, gamma - y (u . x~)) *)
Definition deviation (u : vec) (gamma rho : R) (s : sample) : R :=
  Rmax 0 (gamma - signed_margin u rho s).

(** D^2 = sum over the presented sequence of d(s)^2. *)
Definition presented_deviation2 (u : vec) (gamma rho : R) (D : dataset) (order : list nat) : R :=
  list_sum (fun s => deviation u gamma rho s ^ 2) (map (sample_at D) order).

Lemma list_sum_nonneg {A : Type} (f : A -> R) l : (forall a, 0 <= f a) -> 0 <= list_sum f l.
Proof.
  intros Hf. induction l as [|a l IH]; unfold list_sum in *; simpl; [lra|]. specialize (Hf a). lra.
Qed.

(** The patterns a run updates on are a subsequence of those presented. *)
Lemma list_sum_updated_le (f : vec -> R) w ps :
  (forall z, 0 <= f z) -> list_sum f (updated_from w ps) <= list_sum f ps.
Proof.
  intros Hf. revert w. induction ps as [|z ps IH]; intros w; simpl; [lra|].
  specialize (Hf z). destruct (Rle_dec (dot w z) 0).
  - specialize (IH (vadd w z)). unfold list_sum in *. simpl. lra.
  - specialize (IH w). unfold list_sum in *. simpl. lra.
Qed.

Lemma presented_reflected rho D order :
  valid D order -> presented (reflected rho D) order = map (reflect rho) (map (sample_at D) order).
Proof.
  intros Hv. unfold presented. rewrite map_map. apply map_ext_in. intros i Hi.
  unfold valid in Hv. rewrite Forall_forall in Hv. specialize (Hv i Hi).
  unfold pattern, reflected, sample_at.
  rewrite nth_indep with (d' := reflect rho no_sample) by (rewrite map_length; exact Hv).
  apply map_nth.
Qed.

Lemma list_sum_map {A B : Type} (f : B -> R) (g : A -> B) l :
  list_sum f (map g l) = list_sum (fun a => f (g a)) l.
Proof. induction l as [|a l IH]; unfold list_sum in *; simpl; [reflexivity|]. rewrite IH. reflexivity. Qed.

Lemma list_sum_ext {A : Type} (f g : A -> R) l : (forall a, f a = g a) -> list_sum f l = list_sum g l.
Proof.
  intros same. induction l as [|a l IH]; unfold list_sum in *; simpl; [reflexivity|].
  rewrite IH, same. reflexivity.
Qed.

(** The sum of d^2 over the reflected presented patterns is [presented_deviation2]. *)
Lemma presented_deviation2_reflected u gamma rho D order :
  valid D order ->
  list_sum (fun z => Rmax 0 (gamma - dot u z) ^ 2) (presented (reflected rho D) order)
  = presented_deviation2 u gamma rho D order.
Proof.
  intros Hv. rewrite presented_reflected by exact Hv. rewrite list_sum_map.
  unfold presented_deviation2. apply list_sum_ext. intros s.
  unfold deviation. rewrite signed_margin_reflect. reflexivity.
Qed.


(** ** Several passes: the mistakes regrouped per sample index *)

(** D^2 = sum over the dataset of d(s)^2, one term per sample. *)
Definition data_deviation2 (u : vec) (gamma rho : R) (D : dataset) : R :=
  list_sum (fun s => deviation u gamma rho s ^ 2) D.

(** The indices, in presentation order, on which the run from [w] over [order] updates. *)
Fixpoint updated_idx (zs : list vec) (w : vec) (order : list nat) : list nat :=
  match order with
  | [] => []
  | i :: o =>
      if Rle_dec (dot w (pattern zs i)) 0 then i :: updated_idx zs (vadd w (pattern zs i)) o
      else updated_idx zs w o
  end.

Lemma updated_from_is_updated_idx zs w order :
  updated_from w (presented zs order) = map (pattern zs) (updated_idx zs w order).
Proof.
  revert w; induction order as [|i o IH]; intros w; simpl; [reflexivity|].
  destruct (Rle_dec (dot w (pattern zs i)) 0); simpl; rewrite IH; reflexivity.
Qed.

Lemma updated_idx_count_le zs w order i :
  (count_occ Nat.eq_dec (updated_idx zs w order) i <= count_occ Nat.eq_dec order i)%nat.
Proof.
  revert w; induction order as [|j o IH]; intros w; simpl; [lia|].
  destruct (Rle_dec (dot w (pattern zs j)) 0); simpl;
    destruct (Nat.eq_dec j i); specialize (IH (if Rle_dec (dot w (pattern zs j)) 0
      then vadd w (pattern zs j) else w)); destruct (Rle_dec (dot w (pattern zs j)) 0);
    try contradiction; simpl in *; lia.
Qed.

Lemma updated_idx_in zs w order i : In i (updated_idx zs w order) -> In i order.
Proof.
  revert w; induction order as [|j o IH]; intros w Hi; simpl in *; [exact Hi|].
  destruct (Rle_dec (dot w (pattern zs j)) 0); [destruct Hi as [<-|Hi]; [left; reflexivity|]|];
    right; eapply IH; exact Hi.
Qed.

Lemma prefix_sum_plus_indicator (f : nat -> R) (a : nat) (c : R) n :
  prefix_sum (fun i => f i + (if Nat.eq_dec a i then c else 0)) n
  = prefix_sum f n + (if Nat.ltb a n then c else 0).
Proof.
  induction n as [|m IH]; simpl; [destruct (Nat.ltb_spec a 0); [lia|ring]|].
  rewrite IH. destruct (Nat.eq_dec a m) as [E|E];
    destruct (Nat.ltb_spec a m); destruct (Nat.ltb_spec a (S m)); try lia; ring.
Qed.

Lemma prefix_sum_zero (g : nat -> R) n : (forall i, g i = 0) -> prefix_sum g n = 0.
Proof. intros H. induction n as [|m IH]; simpl; [reflexivity|]. rewrite H, IH. ring. Qed.

(** A sum over a list of indices below n is the sum over 0..n-1, each index weighted by
    its number of occurrences. *)
Lemma list_sum_regroup (g : nat -> R) (L : list nat) n :
  Forall (fun i => (i < n)%nat) L ->
  list_sum g L = prefix_sum (fun i => g i * INR (count_occ Nat.eq_dec L i)) n.
Proof.
  induction L as [|a L IH]; intros HL.
  - unfold list_sum. simpl. symmetry. apply prefix_sum_zero. intros i. simpl. ring.
  - inversion HL as [|? ? Ha HL']; subst.
    unfold list_sum in *. simpl. rewrite (IH HL').
    rewrite (prefix_sum_ext (fun i => g i * INR (count_occ Nat.eq_dec (a :: L) i))
               (fun i => g i * INR (count_occ Nat.eq_dec L i) + (if Nat.eq_dec a i then g a else 0))).
    + rewrite (prefix_sum_plus_indicator (fun i => g i * INR (count_occ Nat.eq_dec L i)) a (g a)).
      destruct (Nat.ltb_spec a n); [ring|lia].
    + intros i. simpl. destruct (Nat.eq_dec a i) as [<-|E]; [rewrite S_INR; ring|ring].
Qed.

Lemma updated_idx_valid zs w order n :
  Forall (fun i => (i < n)%nat) order -> Forall (fun i => (i < n)%nat) (updated_idx zs w order).
Proof.
  intros H. rewrite Forall_forall in *. intros i Hi. apply H. eapply updated_idx_in. exact Hi.
Qed.

(** On a valid order, the i-th reflected pattern is the i-th sample's. *)
Lemma pattern_reflected rho D i :
  (i < length D)%nat -> pattern (reflected rho D) i = reflect rho (sample_at D i).
Proof.
  intros Hi. unfold pattern, reflected, sample_at.
  rewrite nth_indep with (d' := reflect rho no_sample) by (rewrite map_length; exact Hi).
  apply map_nth.
Qed.

(** [data_deviation2] as a sum over the dataset's indices of the reflected patterns. *)
Lemma data_deviation2_indices u gamma rho D :
  prefix_sum (fun i => Rmax 0 (gamma - dot u (pattern (reflected rho D) i)) ^ 2) (length D)
  = data_deviation2 u gamma rho D.
Proof.
  unfold data_deviation2. rewrite <- (prefix_sum_list _ D no_sample).
  apply prefix_sum_ext_lt. intros i Hi. rewrite pattern_reflected by exact Hi.
  unfold deviation. rewrite signed_margin_reflect. reflexivity.
Qed.
