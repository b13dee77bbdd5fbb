(** * S1 and S2: the margin-distribution identities of MSVMAv (the IJCAI-22 paper), mirroring pdm.py.

    Spec correspondence (novikoff/spec/msvmav.py; id and sympy [name]):
    - S1 [squared_hinge_of_normalized_margin_eq_semivariance_term_div_theta_sq] :
        [S1_spec] (per sample, the spec's shape); [S1_mean] (averaged over any list of
        margins: mean((1 - m_i/theta)_+^2) = SV-sum/theta^2).
    - S2 [sherman_morrison_rank_one_update_is_the_inverse] : [S2_spec] (the spec's scalar
        shape); [sherman_morrison] (n x n, any n: matrices are functions nat -> nat -> R with
        sums over 0..n-1; (A + u v^T)(B - B u v^T B/(1 + v^T B u)) = I given A B = I and
        1 + v^T B u <> 0); [sherman_morrison_add] / [sherman_morrison_remove] (the IJCAI paper's
        MSVMAv updates of M when a sample x joins / leaves A, with n beta);
        examples [S2_example_2x2], [S2_example_3x3]. *)

From Coq Require Import Reals List Lra Psatz Arith.
From Novikoff Require Import Vectors.
Local Open Scope R_scope.

(** ** S1 *)

Theorem S1_spec : forall (theta : R) (m : R),
  (0 < theta) ->
  (theta > 0) ->
  ((Rmax 0 (1 - m / theta)) ^ 2 = (Rmax 0 (theta - m)) ^ 2 / theta ^ 2).
Proof.
  intros theta m Ht _. unfold Rmax.
  destruct (Rle_dec 0 (1 - m / theta)) as [h1|h1]; destruct (Rle_dec 0 (theta - m)) as [h2|h2].
  - field. lra.
  - exfalso. apply h2. apply Rmult_le_reg_r with (/ theta); [apply Rinv_0_lt_compat; lra|].
    replace ((theta - m) * / theta) with (1 - m / theta) by (field; lra). lra.
  - exfalso. apply h1. replace (1 - m / theta) with ((theta - m) / theta) by (field; lra).
    apply Rmult_le_pos; [lra|]. apply Rlt_le, Rinv_0_lt_compat; lra.
  - field. lra.
Qed.

Fixpoint sum_map (f : R -> R) (ms : list R) : R :=
  match ms with
  | nil => 0
  | m :: ms' => f m + sum_map f ms'
  end.

(** Averaged: (1/N) sum_i (1 - m_i/theta)_+^2 = ((1/N) sum_i ((theta - m_i)_+)^2) / theta^2. *)
Theorem S1_mean (theta : R) (ms : list R) :
  0 < theta ->
  sum_map (fun m => Rmax 0 (1 - m / theta) ^ 2) ms / INR (length ms) =
  (sum_map (fun m => Rmax 0 (theta - m) ^ 2) ms / INR (length ms)) / theta ^ 2.
Proof.
  intros Ht.
  assert (E : sum_map (fun m => Rmax 0 (1 - m / theta) ^ 2) ms =
              sum_map (fun m => Rmax 0 (theta - m) ^ 2) ms / theta ^ 2).
  { induction ms as [|m ms IH]; cbn [sum_map]; [field; lra|].
    rewrite IH, (S1_spec theta m Ht Ht). field. lra. }
  rewrite E. destruct (length ms) eqn:L.
  - change (INR 0) with 0. unfold Rdiv. rewrite Rinv_0. ring.
  - field. repeat split; try (apply not_0_INR; lia); lra.
Qed.

(** ** S2, scalar (the spec's shape) *)

Theorem S2_spec : forall (a : R) (u : R) (v : R),
  (a <> 0) ->
  (a + u * v <> 0) ->
  ((a + u * v) * (1 / a - (u * v / a ^ 2) / (1 + v * u / a)) = 1).
Proof.
  intros a u v Ha Hd.
  assert (H1 : 1 + v * u / a <> 0).
  { intros E. apply Hd. replace (a + u * v) with (a * (1 + v * u / a)) by (field; exact Ha).
    rewrite E; ring. }
  field. split; [exact Ha|]. rewrite (Rmult_comm v u). exact Hd.
Qed.

(** ** S2, n x n for every n *)

Definition mat := nat -> nat -> R.
Definition vecf := nat -> R.

Section SM.
  Variable n : nat.
  Notation sum := (sumK n).

  Definition mmul (A B : mat) : mat := fun i j => sum (fun k => A i k * B k j).
  Definition mvec (A : mat) (u : vecf) : vecf := fun i => sum (fun k => A i k * u k).
  Definition vmat (v : vecf) (A : mat) : vecf := fun j => sum (fun k => v k * A k j).
  Definition vdot (v u : vecf) : R := sum (fun k => v k * u k).
  Definition ident : mat := fun i j => if Nat.eqb i j then 1 else 0.
  (** A + u v^T *)
  Definition rank1 (A : mat) (u v : vecf) : mat := fun i j => A i j + u i * v j.
  (** The Sherman-Morrison candidate B - B u v^T B/(1 + v^T B u). *)
  Definition sm_inverse (B : mat) (u v : vecf) : mat :=
    fun i j => B i j - mvec B u i * vmat v B j / (1 + vdot v (mvec B u)).
  Definition is_right_inverse (A B : mat) : Prop :=
    forall i j, (i < n)%nat -> (j < n)%nat -> mmul A B i j = ident i j.

  Lemma sum_scale_l (c : R) f : sum (fun k => c * f k) = c * sum f.
  Proof. induction n as [|m IH]; simpl; [ring|]. rewrite IH; ring. Qed.

  Lemma sumK_scale_l K (c : R) f : sumK K (fun k => c * f k) = c * sumK K f.
  Proof. induction K as [|K IH]; simpl; [ring|]. rewrite IH; ring. Qed.

  Lemma sumK_swap K L (f : nat -> nat -> R) :
    sumK K (fun i => sumK L (fun j => f i j)) = sumK L (fun j => sumK K (fun i => f i j)).
  Proof.
    induction K as [|K IH]; simpl.
    - induction L as [|L IHL]; simpl; [reflexivity|]. rewrite <- IHL. ring.
    - rewrite IH. rewrite <- sumK_plus. reflexivity.
  Qed.

  (** A (B u) = (A B) u = u when A B = I *)
  Lemma mvec_assoc_ident (A B : mat) (u : vecf) :
    is_right_inverse A B -> forall i, (i < n)%nat -> mvec A (mvec B u) i = u i.
  Proof.
    intros H i Hi. unfold mvec.
    transitivity (sum (fun l => sum (fun k => A i k * B k l) * u l)).
    - rewrite (sumK_ext n (fun k => A i k * sum (fun l => B k l * u l))
                 (fun k => sum (fun l => A i k * B k l * u l))).
      + rewrite sumK_swap. apply sumK_ext. intros l _.
        rewrite <- (Rmult_comm (u l)), <- sum_scale_l. apply sumK_ext; intros; ring.
      + intros k _. rewrite <- sum_scale_l. apply sumK_ext; intros; ring.
    - rewrite (sumK_ext n _ (fun l => if Nat.eqb l i then u i else 0)).
      + apply sumK_indicator; exact Hi.
      + intros l Hl. fold (mmul A B i l). rewrite H by auto. unfold ident.
        destruct (Nat.eqb_spec i l); destruct (Nat.eqb_spec l i); subst; try lia; ring.
  Qed.

  Theorem sherman_morrison (A B : mat) (u v : vecf) :
    is_right_inverse A B -> 1 + vdot v (mvec B u) <> 0 ->
    is_right_inverse (rank1 A u v) (sm_inverse B u v).
  Proof.
    intros H Hd i j Hi Hj. unfold mmul, rank1, sm_inverse.
    set (d := 1 + vdot v (mvec B u)). set (Bu := mvec B u). set (vB := vmat v B).
    (* split the sum into its four parts *)
    rewrite (sumK_ext n _ (fun k => (A i k * B k j - A i k * Bu k * (vB j / d))
                                 + (u i * (v k * B k j) - u i * (v k * Bu k) * (vB j / d)))).
    2:{ intros k _. unfold Rdiv. ring. }
    rewrite sumK_plus, !sumK_minus.
    rewrite (sumK_ext n (fun k => A i k * Bu k * (vB j / d)) (fun k => (vB j / d) * (A i k * Bu k)))
      by (intros; ring).
    rewrite (sumK_ext n (fun k => u i * (v k * Bu k) * (vB j / d))
               (fun k => (u i * (vB j / d)) * (v k * Bu k))) by (intros; ring).
    rewrite !sum_scale_l.
    fold (mmul A B i j). rewrite H by auto.
    change (sum (fun k => A i k * Bu k)) with (mvec A Bu i).
    unfold Bu. rewrite mvec_assoc_ident by auto. fold Bu.
    change (sum (fun k => v k * B k j)) with (vmat v B j). fold vB.
    change (sum (fun k => v k * Bu k)) with (vdot v Bu).
    replace (vdot v Bu) with (d - 1) by (unfold d, Bu; ring).
    field. exact Hd.
  Qed.

  (** The IJCAI paper's MSVMAv updates: with M = (I + S/(n beta))^-1 kept as an inverse of
      A = I + S/(n beta), adding x (A + x x^T/(n beta)) gives
      M - M x x^T M/(n beta + x^T M x); removing x (A - x x^T/(n beta)) gives
      M + M x x^T M/(n beta - x^T M x). *)
  Definition scale_vec (c : R) (x : vecf) : vecf := fun i => c * x i.

  Theorem sherman_morrison_add (A M : mat) (x : vecf) (nb : R) :
    is_right_inverse A M -> nb <> 0 -> nb + vdot x (mvec M x) <> 0 ->
    is_right_inverse (rank1 A (scale_vec (/ nb) x) x)
      (fun i j => M i j - mvec M x i * vmat x M j / (nb + vdot x (mvec M x))).
  Proof.
    intros H Hnb Hd.
    assert (Hv : vdot x (mvec M (scale_vec (/ nb) x)) = / nb * vdot x (mvec M x)).
    { unfold vdot, mvec, scale_vec. rewrite <- sum_scale_l. apply sumK_ext; intros k _.
      rewrite <- sum_scale_l. rewrite Rmult_comm, <- sum_scale_l.
      rewrite Rmult_comm. rewrite <- sum_scale_l. apply sumK_ext; intros; ring. }
    assert (Hd' : 1 + vdot x (mvec M (scale_vec (/ nb) x)) <> 0).
    { rewrite Hv. intros E. apply Hd.
      replace (nb + vdot x (mvec M x)) with (nb * (1 + / nb * vdot x (mvec M x))) by (field; exact Hnb).
      rewrite E; ring. }
    intros i j Hi Hj. rewrite <- (sherman_morrison A M _ x H Hd' i j Hi Hj).
    unfold mmul. apply sumK_ext. intros k _. f_equal. unfold sm_inverse. rewrite Hv.
    assert (Hm : mvec M (scale_vec (/ nb) x) k = / nb * mvec M x k).
    { unfold mvec, scale_vec. rewrite <- sum_scale_l. apply sumK_ext; intros; ring. }
    rewrite Hm. field. repeat split; auto.
  Qed.

  Theorem sherman_morrison_remove (A M : mat) (x : vecf) (nb : R) :
    is_right_inverse A M -> nb <> 0 -> nb - vdot x (mvec M x) <> 0 ->
    is_right_inverse (rank1 A (scale_vec (- / nb) x) x)
      (fun i j => M i j + mvec M x i * vmat x M j / (nb - vdot x (mvec M x))).
  Proof.
    intros H Hnb Hd.
    assert (Hm : forall k, mvec M (scale_vec (- / nb) x) k = - / nb * mvec M x k).
    { intros k. unfold mvec, scale_vec. rewrite <- sum_scale_l. apply sumK_ext; intros; ring. }
    assert (Hv : vdot x (mvec M (scale_vec (- / nb) x)) = - / nb * vdot x (mvec M x)).
    { unfold vdot. rewrite <- sum_scale_l. apply sumK_ext; intros k _. rewrite Hm. ring. }
    assert (Hd' : 1 + vdot x (mvec M (scale_vec (- / nb) x)) <> 0).
    { rewrite Hv. intros E. apply Hd.
      replace (nb - vdot x (mvec M x)) with (nb * (1 + - / nb * vdot x (mvec M x))) by (field; exact Hnb).
      rewrite E; ring. }
    intros i j Hi Hj. rewrite <- (sherman_morrison A M _ x H Hd' i j Hi Hj).
    unfold mmul. apply sumK_ext. intros k _. f_equal. unfold sm_inverse. rewrite Hv, Hm.
    field. repeat split; auto. replace (nb + -1 * vdot x (mvec M x)) with (nb - vdot x (mvec M x)) by ring. exact Hd.
  Qed.
End SM.

(** ** Non-vacuity: 2 x 2 and 3 x 3 instances *)

(** A = [[2, 1], [1, 1]], A^-1 = [[1, -1], [-1, 2]], u = (1, 0), v = (1, 1):
    A^-1 u = (1, -1), 1 + v^T A^-1 u = 1. *)
Definition A2 : mat := fun i j =>
  match i, j with O, O => 2 | O, (S O) => 1 | (S O), O => 1 | (S O), (S O) => 1 | _, _ => 0 end.
Definition B2 : mat := fun i j =>
  match i, j with O, O => 1 | O, (S O) => -1 | (S O), O => -1 | (S O), (S O) => 2 | _, _ => 0 end.
Definition u2 : vecf := fun i => match i with O => 1 | _ => 0 end.
Definition v2 : vecf := fun i => match i with O => 1 | (S O) => 1 | _ => 0 end.

Example S2_example_2x2 :
  is_right_inverse 2 A2 B2 /\ 1 + vdot 2 v2 (mvec 2 B2 u2) <> 0 /\
  is_right_inverse 2 (rank1 A2 u2 v2) (sm_inverse 2 B2 u2 v2).
Proof.
  assert (H : is_right_inverse 2 A2 B2).
  { intros i j Hi Hj. unfold mmul, ident.
    destruct i as [|[|i]]; destruct j as [|[|j]]; try lia; simpl; lra. }
  assert (Hd : 1 + vdot 2 v2 (mvec 2 B2 u2) <> 0) by (unfold vdot, mvec; simpl; lra).
  split; [exact H|]. split; [exact Hd|]. apply sherman_morrison; assumption.
Qed.

(** A = [[2, 0, 0], [0, 1, 1], [0, 0, 1]], A^-1 = [[1/2, 0, 0], [0, 1, -1], [0, 0, 1]],
    u = (1, 1, 0), v = (0, 1, 1). *)
Definition A3 : mat := fun i j =>
  match i, j with O, O => 2 | (S O), (S O) => 1 | (S O), (S (S O)) => 1 | (S (S O)), (S (S O)) => 1 | _, _ => 0 end.
Definition B3 : mat := fun i j =>
  match i, j with O, O => / 2 | (S O), (S O) => 1 | (S O), (S (S O)) => -1 | (S (S O)), (S (S O)) => 1 | _, _ => 0 end.
Definition u3 : vecf := fun i => match i with O => 1 | (S O) => 1 | _ => 0 end.
Definition v3 : vecf := fun i => match i with (S O) => 1 | (S (S O)) => 1 | _ => 0 end.

Example S2_example_3x3 :
  is_right_inverse 3 A3 B3 /\ 1 + vdot 3 v3 (mvec 3 B3 u3) <> 0 /\
  is_right_inverse 3 (rank1 A3 u3 v3) (sm_inverse 3 B3 u3 v3).
Proof.
  assert (H : is_right_inverse 3 A3 B3).
  { intros i j Hi Hj. unfold mmul, ident.
    destruct i as [|[|[|i]]]; destruct j as [|[|[|j]]]; try lia; simpl; lra. }
  assert (Hd : 1 + vdot 3 v3 (mvec 3 B3 u3) <> 0) by (unfold vdot, mvec; simpl; lra).
  split; [exact H|]. split; [exact Hd|]. apply sherman_morrison; assumption.
Qed.

Example S1_mean_example : Rmax 0 (1 - 1 / 2) ^ 2 = Rmax 0 (2 - 1) ^ 2 / 2 ^ 2.
Proof. apply S1_spec; lra. Qed.

Example S2_scalar_example : (2 + 1 * 1) * (1 / 2 - (1 * 1 / 2 ^ 2) / (1 + 1 * 1 / 2)) = 1.
Proof. apply S2_spec; lra. Qed.
