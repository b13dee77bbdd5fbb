(** * FS1 on labelled data: the perceptron on arbitrary (not necessarily separable) data
    (Freund and Schapire 1999, Theorem 2, one pass), in every dimension.

    For a unit vector u and a margin gamma > 0, the deviation of a labelled sample s is
    d(s) = max(0, gamma - y (u . x~)) ([deviation]: the signed margin is [Labelled]'s); the
    deviations are computed from the run's presented sequence ([presented_deviation2]: the
    sum of d^2 over every presented sample, one term per presentation).  The run theorem
    ([FS1_one_pass_run_statement] in [RunStatements], proved in [Bridges]) bounds the
    perceptron's updates by (D + R)^2 / gamma^2 with D^2 that sum and R^2 = [radius2]. *)

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
