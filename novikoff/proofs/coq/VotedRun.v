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

From Coq Require Import Reals List Lra Arith.
From Novikoff Require Import Vectors Labelled.
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
