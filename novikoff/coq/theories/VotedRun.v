(** * The voted perceptron on labelled data (Freund and Schapire 1999, section 3), in every
    dimension.

    The training run is the perceptron of [Labelled] ([Labelled.mistake] is its decision rule,
    [Labelled.reflect] its update): from v_1 = 0 with survival count c_1 = 0, the samples are
    presented in [order]; a correct one adds 1 to the current vector's count, a mistake
    stores (v_k, c_k) and starts v_(k+1) = v_k + y x~ with c_(k+1) = 1.  [voted] is the list
    of prediction vectors with their counts (the last one included).

    On a test sample s the vote is y sum_j c_j sign(v_j . x~), each voter's signed vote
    being +1 when it classifies s correctly and -1 when it errs, with the SAME decision rule
    ([Labelled.mistake]: a voter errs iff y (v_j . x~) <= 0, ties err).  [total_weight] is
    W = sum_j c_j, [erring_weight] is the weight of the voters that err on s.  The theorem
    about the vote ([V1_vote_run_statement] in [RunStatements]) is proved in [Bridges] from
    the printed statement. *)

From Coq Require Import Reals List Lra Arith Lia.
From Novikoff Require Import Vectors Perceptron Labelled.
Import ListNotations.
Local Open Scope R_scope.

(** ** The training run: prediction vectors and survival counts *)

Fixpoint voted_from (rho : R) (v : vec) (c : nat) (ss : list sample) : list (vec * nat) :=
  match ss with
  | [] => [(v, c)]
  | s :: ss' =>
      if mistake v rho s then (v, c) :: voted_from rho (vadd v (reflect rho s)) 1 ss'
      else voted_from rho v (S c) ss'
  end.

(** The voted perceptron's voters after presenting [order] (from v_1 = 0, c_1 = 0). *)
Definition voted (rho : R) (D : dataset) (order : list nat) : list (vec * nat) :=
  voted_from rho [] 0 (map (sample_at D) order).

(** ** The vote on a test sample, with the shared decision rule *)

(** 1 when the voter v errs on s (y (v . x~) <= 0), else 0. *)
Definition voter_errs (v : vec) (rho : R) (s : sample) : R := if mistake v rho s then 1 else 0.

(** y sign(v . x~): -1 when the voter errs on s, +1 when it is right. *)
Definition voter_sign (v : vec) (rho : R) (s : sample) : R := if mistake v rho s then -1 else 1.

Definition list_sum {A : Type} (f : A -> R) (l : list A) : R := fold_right (fun a acc => f a + acc) 0 l.

(** y sum_j c_j sign(v_j . x~): the vote is wrong on s when it is <= 0. *)
Definition vote (rho : R) (V : list (vec * nat)) (s : sample) : R :=
  list_sum (fun vc => INR (snd vc) * voter_sign (fst vc) rho s) V.

(** W = sum_j c_j *)
Definition total_weight (V : list (vec * nat)) : R := list_sum (fun vc => INR (snd vc)) V.

(** The weight of the voters that err on s. *)
Definition erring_weight (rho : R) (V : list (vec * nat)) (s : sample) : R :=
  list_sum (fun vc => INR (snd vc) * voter_errs (fst vc) rho s) V.

Lemma voter_sign_errs v rho s : voter_sign v rho s = 1 - 2 * voter_errs v rho s.
Proof. unfold voter_sign, voter_errs. destruct (mistake v rho s); ring. Qed.

(** ** Partial sums over indices, as the printed statements' recurrences have them *)

Fixpoint prefix_sum (g : nat -> R) (n : nat) : R :=
  match n with O => 0 | S m => g m + prefix_sum g m end.

Lemma prefix_sum_ext (g h : nat -> R) n : (forall j, g j = h j) -> prefix_sum g n = prefix_sum h n.
Proof.
  intros same. induction n as [|n IH]; simpl; [reflexivity|]. rewrite same, IH. reflexivity.
Qed.

Lemma prefix_sum_shift (g : nat -> R) n : prefix_sum g (S n) = g O + prefix_sum (fun j => g (S j)) n.
Proof.
  induction n as [|n IH]; simpl in *; [ring|]. rewrite IH. ring.
Qed.

(** The sum over the indices of a list is the sum over the list. *)
Lemma prefix_sum_list {A : Type} (f : A -> R) (l : list A) (d : A) :
  prefix_sum (fun j => f (nth j l d)) (length l) = list_sum f l.
Proof.
  induction l as [|a l IH]; [reflexivity|].
  simpl length. rewrite prefix_sum_shift. simpl. rewrite IH. reflexivity.
Qed.

(** ** The total weight is the number of presentations *)

Lemma total_weight_voted_from rho v c ss :
  total_weight (voted_from rho v c ss) = INR c + INR (length ss).
Proof.
  revert v c. induction ss as [|s ss IH]; intros v c; cbn [voted_from length].
  - unfold total_weight, list_sum. cbn [fold_right fst snd]. change (INR 0) with 0. ring.
  - destruct (mistake v rho s).
    + unfold total_weight, list_sum in *. cbn [fold_right fst snd]. rewrite IH.
      rewrite (S_INR (length ss)). change (INR 1) with 1. ring.
    + rewrite IH. rewrite !S_INR. ring.
Qed.

(** W = sum_j c_j is the number of samples presented in [order]. *)
Theorem total_weight_voted rho D order : total_weight (voted rho D order) = INR (length order).
Proof.
  unfold voted. rewrite total_weight_voted_from, map_length. simpl. ring.
Qed.

Lemma erring_weight_nonneg rho V s : 0 <= erring_weight rho V s.
Proof.
  induction V as [|[v c] V IH]; unfold erring_weight, list_sum in *; simpl; [lra|].
  assert (0 <= INR c * voter_errs v rho s).
  { apply Rmult_le_pos; [apply pos_INR|]. unfold voter_errs. destruct (mistake v rho s); lra. }
  lra.
Qed.

(** ** Wrong votes over a finite test sample *)

(** 1 when the vote is wrong on s (y sum_j c_j sign(v_j . x~) <= 0), else 0. *)
Definition vote_wrong (rho : R) (V : list (vec * nat)) (s : sample) : R :=
  if Rle_dec (vote rho V s) 0 then 1 else 0.

(** The number of test samples of [T] on which the vote is wrong. *)
Definition wrong_votes (rho : R) (V : list (vec * nat)) (T : list sample) : R :=
  list_sum (vote_wrong rho V) T.

(** The erring voters' weight summed over the test samples of [T]. *)
Definition erring_weight_sum (rho : R) (V : list (vec * nat)) (T : list sample) : R :=
  list_sum (erring_weight rho V) T.

(** ** The prefixes of the run that err on the next sample (V1's first step) *)

(** The perceptron trained on the first r presented samples errs on the (r+1)-th: with the
    weights of the prefix [firstn r order], by the shared rule [Labelled.mistake]. *)
Definition prefix_errs (rho : R) (D : dataset) (order : list nat) (r : nat) : bool :=
  mistake (perceptron_weights rho D (firstn r order)) rho (sample_at D (nth r order 0%nat)).

Fixpoint prefix_count (g : nat -> bool) (n : nat) : nat :=
  match n with O => O | S m => ((if g m then 1 else 0) + prefix_count g m)%nat end.

(** The number of prefixes of the run that err on the next presented sample. *)
Definition prefix_errors (rho : R) (D : dataset) (order : list nat) : nat :=
  prefix_count (prefix_errs rho D order) (length order).

Lemma prefix_count_sum g n :
  INR (prefix_count g n) = prefix_sum (fun r => if g r then 1 else 0) n.
Proof.
  induction n as [|n IH]; [reflexivity|]. cbn [prefix_count prefix_sum].
  rewrite plus_INR, IH. destruct (g n); reflexivity.
Qed.

Lemma prefix_sum_ext_lt (g h : nat -> R) n :
  (forall j, (j < n)%nat -> g j = h j) -> prefix_sum g n = prefix_sum h n.
Proof.
  induction n as [|n IH]; intros same; [reflexivity|]. cbn [prefix_sum].
  rewrite (same n (Nat.lt_succ_diag_r n)), IH; [reflexivity|].
  intros j Hj. apply same. apply Nat.lt_lt_succ_r. exact Hj.
Qed.

(** The erring prefixes are counted by the run's updates. *)
Theorem prefix_errs_count rho D order :
  prefix_sum (fun r => if prefix_errs rho D order r then 1 else 0) (length order)
  = INR (perceptron_updates rho D order).
Proof.
  induction order as [|i l IH] using rev_ind; [reflexivity|].
  rewrite app_length. cbn [length]. rewrite Nat.add_1_r. cbn [prefix_sum].
  rewrite (prefix_sum_ext_lt _ (fun r => if prefix_errs rho D l r then 1 else 0)).
  2: { intros j Hj. unfold prefix_errs. rewrite firstn_app, (app_nth1 _ _ _ Hj).
       replace (j - length l)%nat with O by lia. cbn [firstn]. rewrite app_nil_r. reflexivity. }
  rewrite IH. unfold prefix_errs. rewrite firstn_app, Nat.sub_diag, firstn_all, app_nth2 by lia.
  rewrite Nat.sub_diag. cbn [firstn nth]. rewrite app_nil_r.
  unfold perceptron_updates, perceptron_weights, perceptron. rewrite map_app, fold_left_app.
  cbn [map fold_left]. set (st := fold_left (lstep rho) (map (sample_at D) l) init).
  unfold lstep. destruct (mistake (fst st) rho (sample_at D i)); cbn [snd]; [rewrite S_INR; ring | ring].
Qed.
