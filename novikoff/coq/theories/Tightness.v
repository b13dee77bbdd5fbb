(** * T1: Novikoff's bound is attained, for every n.

    z_i = e_i (i = 1..n; here indices 0..n-1), rho = 0, natural order: the
    perceptron updates on every presentation, so k = n; R^2 = 1 and the
    certificate lambda_i = 1/n gives p* = (1/n,...,1/n), gamma^2 = 1/n, hence
    k = n = R^2/gamma^2. *)

From Coq Require Import Reals List Lra Psatz Arith.
From Novikoff Require Import Vectors Perceptron.
Import ListNotations.
Local Open Scope R_scope.

(** The unit vector e_i of R^n. *)
Definition e (n i : nat) : vec := repeat 0 i ++ 1 :: repeat 0 (n - S i).
Definition basis (n : nat) : list vec := map (e n) (seq 0 n).

Lemma length_basis n : length (basis n) = n.
Proof. unfold basis. rewrite map_length, seq_length. reflexivity. Qed.

Lemma dot_unit_r x i r : dot x (repeat 0 i ++ 1 :: repeat 0 r) = nth i x 0.
Proof.
  revert x; induction i as [|i IH]; intros [|a x]; simpl; try reflexivity.
  - rewrite dot_comm, dot_repeat0_l. ring.
  - rewrite IH. ring.
Qed.

Lemma dot_e_r x n i : dot x (e n i) = nth i x 0.
Proof. apply dot_unit_r. Qed.

Lemma nth_unit k i r : nth k (repeat 0 i ++ 1 :: repeat 0 r) 0 = if Nat.eqb k i then 1 else 0.
Proof.
  revert k; induction i as [|i IH]; intros [|k]; simpl; try reflexivity.
  - destruct (le_lt_dec r k) as [h|h].
    + apply nth_overflow. rewrite repeat_length. exact h.
    + clear. revert k; induction r as [|r IHr]; intros [|k]; simpl; auto.
  - apply IH.
Qed.

Lemma nth_e k n i : nth k (e n i) 0 = if Nat.eqb k i then 1 else 0.
Proof. apply nth_unit. Qed.

Lemma pattern_basis n i : (i < n)%nat -> pattern (basis n) i = e n i.
Proof.
  intros H. unfold pattern, basis.
  rewrite nth_indep with (d' := e n 0) by (rewrite map_length, seq_length; exact H).
  rewrite map_nth, seq_nth by exact H. reflexivity.
Qed.

Lemma nth_vadd u v i : nth i (vadd u v) 0 = nth i u 0 + nth i v 0.
Proof.
  revert v i; induction u as [|a u IH]; intros [|b v] [|i]; simpl; try ring.
  all: first [apply IH | (destruct i; simpl; ring)].
Qed.

(** After the first j presentations of the natural order: w_j = e_0 + ... + e_{j-1}. *)
Lemma basis_run_prefix n j : (j <= n)%nat ->
  snd (run (basis n) (seq 0 j)) = j /\
  forall i, nth i (fst (run (basis n) (seq 0 j))) 0 = if Nat.ltb i j then 1 else 0.
Proof.
  induction j as [|j IH]; intros Hj.
  - split; [reflexivity|]. intros [|i]; reflexivity.
  - destruct IH as [Hk Hw]; [lia|].
    rewrite seq_S, run_app. simpl (presented _ [_]). rewrite pattern_basis by lia.
    cbn [fold_left]. unfold step.
    set (w := fst (run (basis n) (seq 0 j))) in *.
    assert (Hd : dot w (e n j) = 0).
    { rewrite dot_e_r, Hw. rewrite Nat.ltb_irrefl. reflexivity. }
    destruct (Rle_dec (dot w (e n j)) 0) as [_|h]; [|exfalso; apply h; rewrite Hd; lra].
    cbn [fst snd]. split; [rewrite Hk; simpl; lia|].
    intros i. rewrite nth_vadd, Hw, nth_e.
    destruct (Nat.ltb_spec i j), (Nat.eqb_spec i j), (Nat.ltb_spec i (S j));
      try lia; ring.
Qed.

Theorem T1_updates n : updates (basis n) (seq 0 n) = n.
Proof. apply (basis_run_prefix n n); lia. Qed.

(** Every presentation of the natural order is an update. *)
Theorem T1_every_presentation_updates n j :
  (j <= n)%nat -> updates (basis n) (seq 0 j) = j.
Proof. intros H. apply (basis_run_prefix n j H). Qed.

Lemma T1_valid_order n : valid_order (basis n) (seq 0 n).
Proof.
  unfold valid_order. apply Forall_forall. intros i Hi.
  apply in_seq in Hi. rewrite length_basis. lia.
Qed.

Lemma in_basis n z : In z (basis n) -> exists i, (i < n)%nat /\ z = e n i.
Proof.
  unfold basis. intros H. apply in_map_iff in H as [i [Hz Hi]].
  apply in_seq in Hi. exists i. split; [lia|auto].
Qed.

Lemma T1_radius n : forall z, In z (basis n) -> dot z z = 1.
Proof.
  intros z Hz. apply in_basis in Hz as [i [Hi ->]].
  rewrite dot_e_r, nth_e, Nat.eqb_refl. reflexivity.
Qed.

(** ** The certificate lambda_i = 1/n *)

Lemma sumK_shift n f : sumK (S n) f = f 0%nat + sumK n (fun i => f (S i)).
Proof.
  induction n as [|n IH]; simpl in *; [ring|]. rewrite IH. ring.
Qed.

Lemma dot_repeat_r x c n : dot x (repeat c n) = c * sumK n (fun i => nth i x 0).
Proof.
  revert x; induction n as [|n IH]; intros [|a x].
  - simpl; ring.
  - simpl; ring.
  - rewrite (sumK_ext _ _ (fun _ => 0)) by (intros [|j] _; reflexivity).
    simpl. assert (sumK n (fun _ => 0) = 0) as ->.
    { clear. induction n as [|n IH]; simpl; [reflexivity|]. rewrite IH; ring. }
    ring.
  - rewrite sumK_shift. simpl. rewrite IH. ring.
Qed.

Lemma dot_repeat_map_seq c n s (f : nat -> R) :
  dot (repeat c n) (map f (seq s n)) = c * sumK n (fun i => f (s + i)%nat).
Proof.
  revert s; induction n as [|n IH]; intros s; simpl; [ring|].
  rewrite IH, <- (Nat.add_0_r s) at 1.
  replace (sumK n (fun i => f (s + i)%nat) + f (s + n)%nat)
    with (sumK (S n) (fun i => f (s + i)%nat)) by reflexivity.
  rewrite sumK_shift.
  rewrite (sumK_ext n (fun i => f (s + S i)%nat) (fun i => f (S s + i)%nat))
    by (intros; f_equal; lia).
  ring.
Qed.

Lemma dot_repeat_self c n : dot (repeat c n) (repeat c n) = INR n * (c * c).
Proof.
  induction n as [|n IH]; simpl (repeat _ _); [simpl; ring|].
  cbn [dot]. rewrite IH, S_INR. ring.
Qed.

Definition T1_p (n : nat) : vec := repeat (/ INR n) n.
Definition T1_lambda (n : nat) : list R := repeat (/ INR n) n.

Lemma T1_gamma2 n : (0 < n)%nat -> dot (T1_p n) (T1_p n) = / INR n.
Proof.
  intros H. unfold T1_p. rewrite dot_repeat_self.
  assert (0 < INR n) by (apply lt_0_INR; exact H). field. lra.
Qed.

Lemma nth_repeat_lt (c : R) n i : (i < n)%nat -> nth i (repeat c n) 0 = c.
Proof.
  revert i; induction n as [|n IH]; intros [|i] H; simpl; try lia; auto.
  apply IH. lia.
Qed.

Lemma sum_repeat c n : sum (repeat c n) = INR n * c.
Proof.
  unfold sum. induction n as [|n IH]; simpl (repeat _ _); [simpl; ring|].
  cbn [fold_right]. rewrite IH, S_INR. ring.
Qed.

Theorem T1_certificate n : (0 < n)%nat ->
  separable_certificate (basis n) (T1_lambda n) (T1_p n).
Proof.
  intros Hn. assert (Hpos : 0 < INR n) by (apply lt_0_INR; exact Hn).
  unfold separable_certificate. split; [|split; [|split; [|split]]].
  - unfold T1_lambda. rewrite repeat_length, length_basis. reflexivity.
  - split.
    + apply Forall_forall. intros l Hl. apply repeat_spec in Hl. subst.
      left. apply Rinv_0_lt_compat. exact Hpos.
    + unfold T1_lambda. rewrite sum_repeat. field. lra.
  - intros x. rewrite dot_lin_comb. unfold T1_p, T1_lambda, basis.
    rewrite map_map. rewrite (map_ext (fun i => dot x (e n i)) (fun i => nth i x 0))
      by (intros; apply dot_e_r).
    rewrite dot_repeat_map_seq, dot_repeat_r. reflexivity.
  - intros z Hz. apply in_basis in Hz as [i [Hi ->]].
    rewrite T1_gamma2 by exact Hn. rewrite dot_comm, dot_e_r. unfold T1_p.
    rewrite nth_repeat_lt by exact Hi. lra.
  - rewrite T1_gamma2 by exact Hn. apply Rinv_0_lt_compat. exact Hpos.
Qed.

(** ** T1: k = n = R^2/gamma^2, for every n >= 1.
    R^2 = 1 is attained by every pattern, gamma^2 = ||p*||^2 = 1/n is the
    squared norm of the minimum-norm point of conv{e_i}, and the natural-order
    run makes exactly n updates. *)
Theorem T1_tight n : (0 < n)%nat ->
  updates (basis n) (seq 0 n) = n /\
  (forall z, In z (basis n) -> dot z z = 1) /\
  separable_certificate (basis n) (T1_lambda n) (T1_p n) /\
  dot (T1_p n) (T1_p n) = / INR n /\
  min_norm_sq (basis n) (/ INR n) /\
  INR (updates (basis n) (seq 0 n)) = 1 / dot (T1_p n) (T1_p n).
Proof.
  intros Hn. assert (Hpos : 0 < INR n) by (apply lt_0_INR; exact Hn).
  pose proof (T1_certificate n Hn) as Hc.
  split; [apply T1_updates|]. split; [apply T1_radius|]. split; [exact Hc|].
  split; [apply T1_gamma2; exact Hn|]. split.
  - rewrite <- T1_gamma2 by exact Hn. eapply certificate_min_norm; exact Hc.
  - rewrite T1_updates, T1_gamma2 by exact Hn. field. lra.
Qed.

(** The bound N3 is attained: the run meets it with equality. *)
Corollary T1_attains_N3 n : (0 < n)%nat ->
  INR (updates (basis n) (seq 0 n)) * dot (T1_p n) (T1_p n) = 1.
Proof.
  intros Hn. assert (0 < INR n) by (apply lt_0_INR; exact Hn).
  rewrite T1_updates, T1_gamma2 by exact Hn. field. lra.
Qed.

(** Non-vacuity: n = 3. *)
Example T1_basis3 :
  basis 3 = [[1; 0; 0]; [0; 1; 0]; [0; 0; 1]] /\
  updates (basis 3) (seq 0 3) = 3%nat /\
  T1_p 3 = [/3; /3; /3] /\
  dot (T1_p 3) (T1_p 3) = / 3 /\
  separable_certificate (basis 3) (T1_lambda 3) (T1_p 3).
Proof.
  assert (H3 : INR 3 = 3) by (simpl; ring).
  split; [reflexivity|]. split; [apply T1_updates|].
  split; [unfold T1_p; rewrite H3; reflexivity|].
  split; [rewrite T1_gamma2, H3 by lia; reflexivity|].
  apply T1_certificate; lia.
Qed.
