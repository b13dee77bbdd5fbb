(** * The averaged perceptron on labelled data (Freund and Schapire 1999, section 3), in
    every dimension.

    The training run is the perceptron of [Labelled] (its decision rule [Labelled.mistake],
    its step [Labelled.lstep]): presentation s = 1 .. N of [order] leaves the weights w^(s)
    (the mistake at presentation s already added).  The averaged perceptron's weights are
    w_avg = (1/N) sum_(s=1..N) w^(s) ([averaged]); [averaged_sum] is the sum itself.

    - [averaged_sum_prefixes]: the sum is the sum of the weights of the run's prefixes,
      sum_(r=1..N) [perceptron_weights rho D (firstn r order)];
    - [averaged_final]: the run that [averaged_from] carries is [Labelled.perceptron];
    - [averaged_sum_voted]: the sum is sum_j c_j v_j over the voters of [VotedRun.voted]
      (the vector v_j weighted by its survival count c_j), so the averaged perceptron is the
      voted perceptron's voters averaged by their counts. *)

From Coq Require Import Reals List Lra Arith Lia.
From Novikoff Require Import Vectors Perceptron Labelled VotedRun.
Import ListNotations.
Local Open Scope R_scope.

(** ** The run and the sum of its weights *)

(** From the state [st] with the running sum [acc], present [ss]: after each presentation
    add the current weights to the sum. *)
Fixpoint averaged_from (rho : R) (st : state) (acc : vec) (ss : list sample) : vec :=
  match ss with
  | [] => acc
  | s :: ss' => let st' := lstep rho st s in averaged_from rho st' (vadd acc (fst st')) ss'
  end.

(** sum_(s=1..N) w^(s), from w_0 = 0, the samples presented in [order]. *)
Definition averaged_sum (rho : R) (D : dataset) (order : list nat) : vec :=
  averaged_from rho init [] (map (sample_at D) order).

(** w_avg = (1/N) sum_(s=1..N) w^(s), N = the number of presentations. *)
Definition averaged (rho : R) (D : dataset) (order : list nat) : vec :=
  vscale (/ INR (length order)) (averaged_sum rho D order).

Lemma averaged_from_prefixes rho st acc ss :
  averaged_from rho st acc ss =
  fold_left vadd (map (fun r => fst (fold_left (lstep rho) (firstn r ss) st)) (seq 1 (length ss))) acc.
Proof.
  revert st acc; induction ss as [|s ss IH]; intros st acc; [reflexivity|].
  cbn [averaged_from length seq map fold_left firstn]. rewrite IH.
  rewrite <- (seq_shift (length ss) 1), map_map. reflexivity.
Qed.

(** The sum of the averaged perceptron is the sum of the weights of the run's prefixes
    (the prefix of length r leaves w^(r)). *)
Theorem averaged_sum_prefixes rho D order :
  averaged_sum rho D order =
  fold_left vadd (map (fun r => perceptron_weights rho D (firstn r order)) (seq 1 (length order))) [].
Proof.
  unfold averaged_sum. rewrite averaged_from_prefixes, map_length. f_equal.
  apply map_ext. intros r. unfold perceptron_weights, perceptron. rewrite firstn_map. reflexivity.
Qed.

(** ** The run the sum is taken along is the perceptron's *)

Fixpoint averaged_state (rho : R) (st : state) (ss : list sample) : state :=
  match ss with [] => st | s :: ss' => averaged_state rho (lstep rho st s) ss' end.

Theorem averaged_final rho D order :
  averaged_state rho init (map (sample_at D) order) = perceptron rho D order.
Proof.
  unfold perceptron. generalize init. induction (map (sample_at D) order) as [|s ss IH];
    intros st; [reflexivity|]. apply IH.
Qed.

(** ** The averaged perceptron averages the voters *)

(** sum_j c_j v_j over a list of voters. *)
Definition voters_sum (V : list (vec * nat)) : vec :=
  fold_right (fun vc acc => vadd (vscale (INR (snd vc)) (fst vc)) acc) [] V.

(** [vadd] pads with zeros: as functions of the coordinate index, vectors add and scale
    pointwise. *)
Definition coord (u : vec) (j : nat) : R := nth j u 0.

Lemma coord_nil j : coord [] j = 0.
Proof. unfold coord. destruct j; reflexivity. Qed.

Lemma coord_vadd u v j : coord (vadd u v) j = coord u j + coord v j.
Proof.
  revert v j; induction u as [|a u IH]; intros v j.
  - simpl. rewrite coord_nil. ring.
  - destruct v as [|b v].
    + simpl (vadd _ []). rewrite coord_nil. ring.
    + unfold coord in *. destruct j; simpl; [ring|apply IH].
Qed.

Lemma coord_vscale c u j : coord (vscale c u) j = c * coord u j.
Proof.
  unfold coord, vscale. revert j; induction u as [|a u IH]; intros [|j]; simpl; try ring.
  apply IH.
Qed.

(** The contribution of the current voter: from the vector [v] that has already survived
    [c] presentations, the running sum ends as [acc] plus the voters' sum minus c v. *)
Lemma coord_averaged_voted rho v k c acc ss j :
  coord (averaged_from rho (v, k) acc ss) j + INR c * coord v j =
  coord acc j + coord (voters_sum (voted_from rho v c ss)) j.
Proof.
  revert v k c acc; induction ss as [|s ss IH]; intros v k c acc.
  - cbn [averaged_from voted_from voters_sum fold_right fst snd].
    rewrite coord_vadd, coord_vscale, coord_nil. ring.
  - cbn [averaged_from voted_from]. unfold lstep. cbn [fst snd].
    destruct (mistake v rho s); cbn [fst snd].
    + specialize (IH (vadd v (reflect rho s)) (S k) 1%nat (vadd acc (vadd v (reflect rho s)))).
      change (INR 1) with 1 in IH. rewrite !coord_vadd in IH.
      cbn [voters_sum fold_right fst snd].
      change (fold_right _ [] (voted_from rho (vadd v (reflect rho s)) 1 ss))
        with (voters_sum (voted_from rho (vadd v (reflect rho s)) 1 ss)).
      rewrite coord_vadd, coord_vscale. lra.
    + specialize (IH v k (S c) (vadd acc v)). rewrite S_INR, coord_vadd in IH. lra.
Qed.

(** The averaged perceptron's sum is sum_j c_j v_j over the voted perceptron's voters
    (coordinate by coordinate: [vadd] pads the shorter vector with zeros). *)
Theorem averaged_sum_voted rho D order j :
  coord (averaged_sum rho D order) j = coord (voters_sum (voted rho D order)) j.
Proof.
  unfold averaged_sum, voted, init.
  pose proof (coord_averaged_voted rho [] 0 0 [] (map (sample_at D) order) j) as H.
  rewrite coord_nil in H. change (INR 0) with 0 in H.
  rewrite Rmult_0_l, Rplus_0_l, Rplus_0_r in H. exact H.
Qed.
