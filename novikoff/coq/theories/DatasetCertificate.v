(** * Kernel certificates for one dataset (by computation over Z).

    A dataset's patterns and its separability certificate are given as
    integers after clearing denominators:
      z_i = rows_i / s,  lambda_i = L_i / q,  p* = P / (q s),  R^2 = M / s^2.
    [check_cert] decides, by computation ([vm_compute]) in exact integer
    arithmetic: q > 0, L_i >= 0, sum L = q, P = sum_i L_i rows_i,
    P.P > 0, q (rows_i.P) >= P.P for every i (i.e. z_i.p* >= ||p*||^2), and
    M = max_i rows_i.rows_i.  [check_cert_sound] reflects a [true] answer into
    the real-number hypotheses of N3, so [certified_updates_bound] gives
    updates <= floor(R^2/gamma^2) = floor(M q^2 / P.P) in every order. *)

From Coq Require Import Reals List Lra Psatz Arith ZArith Bool.
From Novikoff Require Import Vectors Perceptron.
Import ListNotations.
Local Open Scope R_scope.

(** ** Integer vectors *)

Fixpoint zdot (u v : list Z) : Z :=
  match u, v with
  | a :: u', b :: v' => (a * b + zdot u' v')%Z
  | _, _ => 0%Z
  end.

Fixpoint zvadd (u v : list Z) : list Z :=
  match u, v with
  | a :: u', b :: v' => (a + b)%Z :: zvadd u' v'
  | [], _ => v
  | _, [] => u
  end.

Definition zscale (c : Z) (u : list Z) : list Z := map (Z.mul c) u.

Fixpoint zcomb (cs : list Z) (rows : list (list Z)) : list Z :=
  match cs, rows with
  | c :: cs', r :: rows' => zvadd (zscale c r) (zcomb cs' rows')
  | _, _ => []
  end.

Fixpoint zlist_eqb (u v : list Z) : bool :=
  match u, v with
  | [], [] => true
  | a :: u', b :: v' => Z.eqb a b && zlist_eqb u' v'
  | _, _ => false
  end.

(** The margin conditions, with ||P||^2 computed once (the VM evaluates the
    [let] first; big-number products are the cost of the whole check). *)
Definition check_margin (rows : list (list Z)) (q : Z) (P : list Z) (pp : Z) : bool :=
  Z.ltb 0 pp && forallb (fun r => Z.leb pp (q * zdot r P)) rows.

Definition check_cert (rows : list (list Z)) (L : list Z) (q : Z) (P : list Z) (M : Z) : bool :=
  Z.ltb 0 q &&
  forallb (Z.leb 0) L &&
  Z.eqb (fold_right Z.add 0%Z L) q &&
  Nat.eqb (length L) (length rows) &&
  zlist_eqb P (zcomb L rows) &&
  check_margin rows q P (zdot P P) &&
  forallb (fun r => Z.leb (zdot r r) M) rows &&
  existsb (fun r => Z.eqb (zdot r r) M) rows.

(** The bound floor(R^2/gamma^2) = floor(M q^2 / P.P). *)
Definition cert_bound (q : Z) (P : list Z) (M : Z) : Z := (M * q * q / zdot P P)%Z.

(** ** From integers to real vectors *)

Definition rvec (s : Z) (u : list Z) : vec := vscale (/ IZR s) (map IZR u).
Definition patterns (rows : list (list Z)) (s : Z) : list vec := map (rvec s) rows.
Definition cert_lambda (L : list Z) (q : Z) : list R := vscale (/ IZR q) (map IZR L).
Definition cert_p (P : list Z) (q s : Z) : vec := rvec (q * s) P.
Definition cert_R2 (M s : Z) : R := IZR M / (IZR s * IZR s).

Lemma dot_IZR u v : dot (map IZR u) (map IZR v) = IZR (zdot u v).
Proof.
  revert v; induction u as [|a u IH]; intros [|b v]; simpl; try reflexivity.
  rewrite IH, plus_IZR, mult_IZR. reflexivity.
Qed.

Lemma map_IZR_zvadd u v : map IZR (zvadd u v) = vadd (map IZR u) (map IZR v).
Proof.
  revert v; induction u as [|a u IH]; intros [|b v]; simpl; try reflexivity.
  rewrite IH, plus_IZR. reflexivity.
Qed.

Lemma map_IZR_zscale c u : map IZR (zscale c u) = vscale (IZR c) (map IZR u).
Proof.
  unfold zscale, vscale. rewrite !map_map. apply map_ext. intros; apply mult_IZR.
Qed.

Lemma map_IZR_zcomb cs rows :
  map IZR (zcomb cs rows) = lin_comb (map IZR cs) (map (map IZR) rows).
Proof.
  revert rows; induction cs as [|c cs IH]; intros [|r rows]; simpl; try reflexivity.
  rewrite map_IZR_zvadd, map_IZR_zscale, IH. reflexivity.
Qed.

Lemma dot_rvec a b u v : IZR a <> 0 -> IZR b <> 0 ->
  dot (rvec a u) (rvec b v) = IZR (zdot u v) / (IZR a * IZR b).
Proof.
  intros Ha Hb. unfold rvec. rewrite dot_vscale_l, dot_vscale_r, dot_IZR.
  field. auto.
Qed.

Lemma zlist_eqb_eq u v : zlist_eqb u v = true -> u = v.
Proof.
  revert v; induction u as [|a u IH]; intros [|b v] H; simpl in H; try discriminate;
    [reflexivity|].
  apply andb_prop in H as [H1 H2]. apply Z.eqb_eq in H1. subst. f_equal. apply IH; exact H2.
Qed.

Lemma sum_vscale c l : sum (vscale c l) = c * sum l.
Proof. unfold sum, vscale. induction l as [|a l IH]; simpl; [ring|]. rewrite IH. ring. Qed.

Lemma sum_map_IZR l : sum (map IZR l) = IZR (fold_right Z.add 0%Z l).
Proof. unfold sum. induction l as [|a l IH]; simpl; [reflexivity|]. rewrite IH, plus_IZR. ring. Qed.

Lemma in_patterns rows s z : In z (patterns rows s) -> exists r, In r rows /\ z = rvec s r.
Proof. unfold patterns. intros H. apply in_map_iff in H as [r [<- Hr]]. eauto. Qed.

Lemma map_dot_rvec x s rows :
  map (dot x) (map (rvec s) rows) = vscale (/ IZR s) (map (fun r => dot x (map IZR r)) rows).
Proof.
  unfold vscale. rewrite !map_map. apply map_ext. intros r. unfold rvec. apply dot_vscale_r.
Qed.

(** ** Soundness of the computational check *)

Theorem check_cert_sound rows s L q P M :
  (0 < s)%Z -> check_cert rows L q P M = true ->
  separable_certificate (patterns rows s) (cert_lambda L q) (cert_p P q s) /\
  radius_bound (patterns rows s) (cert_R2 M s) /\
  (exists z, In z (patterns rows s) /\ dot z z = cert_R2 M s) /\
  0 <= cert_R2 M s /\
  dot (cert_p P q s) (cert_p P q s) = IZR (zdot P P) / (IZR (q * s) * IZR (q * s)).
Proof.
  intros Hs H. unfold check_cert in H.
  unfold check_margin in H. repeat rewrite andb_true_iff in H.
  destruct H as [[[[[[[Hq HL] HsumL] Hlen] HP] [HPP Hcond]] HM] HMex].
  apply Z.ltb_lt in Hq. apply Z.eqb_eq in HsumL. apply Nat.eqb_eq in Hlen.
  apply zlist_eqb_eq in HP. apply Z.ltb_lt in HPP.
  rewrite forallb_forall in HL, Hcond, HM. rewrite existsb_exists in HMex.
  assert (Hs0 : IZR s <> 0) by (apply not_0_IZR; lia).
  assert (Hq0 : IZR q <> 0) by (apply not_0_IZR; lia).
  assert (Hqs0 : IZR (q * s) <> 0) by (apply not_0_IZR; lia).
  assert (Hsp : 0 < IZR s) by (apply IZR_lt; lia).
  assert (Hqsp : 0 < IZR (q * s)) by (apply IZR_lt; lia).
  assert (Hpp : dot (cert_p P q s) (cert_p P q s) = IZR (zdot P P) / (IZR (q * s) * IZR (q * s)))
    by (apply dot_rvec; assumption).
  assert (HR0 : 0 <= cert_R2 M s).
  { destruct HMex as [r [_ Hr]]. apply Z.eqb_eq in Hr.
    unfold cert_R2. rewrite <- Hr, <- dot_IZR. apply Rmult_le_pos; [apply norm2_nonneg|].
    left. apply Rinv_0_lt_compat. nra. }
  split; [|split; [|split; [|split]]].
  - split; [|split; [|split; [|split]]].
    + unfold cert_lambda, vscale, patterns. rewrite !map_length. exact Hlen.
    + split.
      * unfold cert_lambda, vscale. rewrite map_map. apply Forall_forall.
        intros x Hx. apply in_map_iff in Hx as [l [<- Hl]].
        specialize (HL l Hl). apply Z.leb_le in HL. apply IZR_le in HL.
        apply Rmult_le_pos; [left; apply Rinv_0_lt_compat; apply IZR_lt; lia|exact HL].
      * unfold cert_lambda. rewrite sum_vscale, sum_map_IZR, HsumL. field. exact Hq0.
    + intros x. unfold cert_p, rvec, cert_lambda, patterns.
      rewrite dot_vscale_r, HP, map_IZR_zcomb, !dot_lin_comb, map_map.
      rewrite map_dot_rvec, dot_vscale_l, dot_vscale_r, mult_IZR. field. auto.
    + intros z Hz. apply in_patterns in Hz as [r [Hr ->]].
      specialize (Hcond r Hr). apply Z.leb_le in Hcond. apply IZR_le in Hcond.
      unfold cert_p. rewrite !dot_rvec by assumption.
      rewrite mult_IZR in *.
      replace (IZR (zdot r P) / (IZR s * (IZR q * IZR s)))
        with ((IZR q * IZR (zdot r P)) / (IZR q * IZR s * (IZR q * IZR s)))
        by (field; split; lra).
      apply Rle_ge. unfold Rdiv. apply Rmult_le_compat_r; [|exact Hcond].
      left. apply Rinv_0_lt_compat. nra.
    + rewrite Hpp. apply Rdiv_lt_0_compat; [apply IZR_lt; exact HPP|nra].
  - intros z Hz. apply in_patterns in Hz as [r [Hr ->]].
    specialize (HM r Hr). apply Z.leb_le in HM. apply IZR_le in HM.
    rewrite dot_rvec by assumption. unfold cert_R2, Rdiv.
    apply Rmult_le_compat_r; [left; apply Rinv_0_lt_compat; nra|exact HM].
  - destruct HMex as [r [Hr HrM]]. apply Z.eqb_eq in HrM.
    exists (rvec s r). split; [apply in_map; exact Hr|].
    rewrite dot_rvec by assumption. rewrite HrM. reflexivity.
  - exact HR0.
  - exact Hpp.
Qed.

(** gamma^2 is exactly ||p*||^2 = P.P / (q s)^2: the minimum over the hull. *)
Corollary check_cert_gamma2 rows s L q P M :
  (0 < s)%Z -> check_cert rows L q P M = true ->
  min_norm_sq (patterns rows s) (IZR (zdot P P) / (IZR (q * s) * IZR (q * s))).
Proof.
  intros Hs H. destruct (check_cert_sound rows s L q P M Hs H) as [Hc [_ [_ [_ Hpp]]]].
  rewrite <- Hpp. eapply certificate_min_norm; exact Hc.
Qed.

(** The perceptron makes at most floor(R^2/gamma^2) updates in every order. *)
Theorem certified_updates_bound rows s L q P M order :
  (0 < s)%Z -> check_cert rows L q P M = true ->
  valid_order (patterns rows s) order ->
  (Z.of_nat (updates (patterns rows s) order) <= cert_bound q P M)%Z.
Proof.
  intros Hs H Ho.
  destruct (check_cert_sound rows s L q P M Hs H) as [Hc [HR [_ [HR0 Hpp]]]].
  pose proof Hc as [_ [_ [_ [Hcond Hpos]]]].
  pose proof (N3_mistake_bound _ _ _ order Hcond Hpos HR HR0 Ho) as HN.
  rewrite Hpp in HN. unfold cert_R2 in HN.
  unfold check_cert, check_margin in H. repeat rewrite andb_true_iff in H.
  destruct H as [[[[[[[Hq _] _] _] _] [HPP _]] _] _].
  apply Z.ltb_lt in Hq. apply Z.ltb_lt in HPP.
  set (k := updates (patterns rows s) order) in *.
  assert (Hsp : 0 < IZR s) by (apply IZR_lt; lia).
  assert (Hqp : 0 < IZR q) by (apply IZR_lt; lia).
  assert (HZ : (Z.of_nat k * zdot P P <= M * q * q)%Z).
  { apply le_IZR. rewrite !mult_IZR, <- INR_IZR_INZ. rewrite mult_IZR in HN.
    apply Rmult_le_compat_r with (r := IZR q * IZR s * (IZR q * IZR s)) in HN; [|nra].
    replace (INR k * (IZR (zdot P P) / (IZR q * IZR s * (IZR q * IZR s))) *
             (IZR q * IZR s * (IZR q * IZR s))) with (INR k * IZR (zdot P P)) in HN
      by (field; split; lra).
    replace (IZR M / (IZR s * IZR s) * (IZR q * IZR s * (IZR q * IZR s)))
      with (IZR M * IZR q * IZR q) in HN by (field; lra).
    exact HN. }
  unfold cert_bound. apply Z.div_le_lower_bound; [exact HPP|]. lia.
Qed.

(** ** Non-vacuity: exercise 6.1 (z_i = y_i (x_i, 1)) with lambda = (1/2, 0, 1/2, 0). *)
Example dataset_certificate_example :
  check_cert [[1; 1; 1]; [2; 2; 1]; [1; 1; -1]; [2; 0; -1]]%Z [1; 0; 1; 0]%Z 2 [2; 2; 0]%Z 9
    = true /\ cert_bound 2 [2; 2; 0]%Z 9 = 4%Z.
Proof. split; vm_compute; reflexivity. Qed.
