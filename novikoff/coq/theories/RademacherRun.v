(** * RC1's expectations over the sign vectors, as finite sums (the IJCAI-22 paper, section 3,
    after Shalev-Shwartz and Ben-David 2014, Lemma 26.10).

    For feature vectors x_1..x_m, the expectations over Rademacher signs s in {-1, +1}^m are
    averages over all 2^m sign vectors ([sign_vectors]):
      e1 = E ||sum_i s_i x_i|| = [rad_e1 xs],   e2 = E ||sum_i s_i x_i||^2 = [rad_e2 xs].
    Proved here: [rad_jensen] e1^2 <= e2 (Cauchy-Schwarz over the 2^m terms) and
    [rad_orthogonality] e2 = sum_i ||x_i||^2 (the two halves s_1 = +1 and s_1 = -1 cancel
    the cross terms), so e2 <= m r^2 when every ||x_i|| <= r ([rad_e2_le]). *)

From Coq Require Import Reals List Lra Psatz Arith.
From Novikoff Require Import Vectors.
Import ListNotations.
Local Open Scope R_scope.

(** All 2^m sign vectors of length m. *)
Fixpoint sign_vectors (m : nat) : list (list R) :=
  match m with
  | O => [[]]
  | S k => map (cons 1) (sign_vectors k) ++ map (cons (-1)) (sign_vectors k)
  end.

(** E ||sum_i s_i x_i|| and E ||sum_i s_i x_i||^2 over the 2^m sign vectors. *)
Definition rad_e1 (xs : list vec) : R :=
  sum (map (fun sg => sqrt (norm2 (lin_comb sg xs))) (sign_vectors (length xs))) / 2 ^ length xs.
Definition rad_e2 (xs : list vec) : R :=
  sum (map (fun sg => norm2 (lin_comb sg xs)) (sign_vectors (length xs))) / 2 ^ length xs.

Lemma sign_vectors_length m : INR (length (sign_vectors m)) = 2 ^ m.
Proof.
  induction m as [|m IH]; [simpl; lra|]. simpl sign_vectors.
  rewrite app_length, !map_length, plus_INR, IH. simpl. ring.
Qed.

Lemma sum_app l1 l2 : sum (l1 ++ l2) = sum l1 + sum l2.
Proof. induction l1 as [|a l IH]; simpl; [ring|]. unfold sum in *. simpl. rewrite IH. ring. Qed.

Lemma sum_nonneg_map {A} (f : A -> R) l : (forall a, 0 <= f a) -> 0 <= sum (map f l).
Proof.
  intros Hf. induction l as [|a l IH]; unfold sum in *; simpl; [lra|]. pose proof (Hf a). lra.
Qed.

Lemma dot_ones l : dot (repeat 1 (length l)) l = sum l.
Proof. induction l as [|a l IH]; unfold sum in *; simpl; [reflexivity|]. rewrite IH. ring. Qed.

Lemma dot_ones_ones n : dot (repeat 1 n) (repeat 1 n) = INR n.
Proof.
  induction n as [|n IH]; simpl dot; [reflexivity|]. rewrite IH, S_INR. ring.
Qed.

Lemma dot_map_self {A} (f : A -> R) l : dot (map f l) (map f l) = sum (map (fun a => f a * f a) l).
Proof. induction l as [|a l IH]; unfold sum in *; simpl; [reflexivity|]. rewrite IH. reflexivity. Qed.

Lemma rad_e1_nonneg xs : 0 <= rad_e1 xs.
Proof.
  unfold rad_e1, Rdiv. apply Rmult_le_pos.
  - apply sum_nonneg_map. intros; apply sqrt_pos.
  - apply Rlt_le, Rinv_0_lt_compat, pow_lt. lra.
Qed.

Lemma rad_e2_nonneg xs : 0 <= rad_e2 xs.
Proof.
  unfold rad_e2, Rdiv. apply Rmult_le_pos.
  - apply sum_nonneg_map. intros; apply norm2_nonneg.
  - apply Rlt_le, Rinv_0_lt_compat, pow_lt. lra.
Qed.

(** Jensen: e1^2 <= e2. *)
Theorem rad_jensen xs : rad_e1 xs ^ 2 <= rad_e2 xs.
Proof.
  unfold rad_e1, rad_e2. set (L := sign_vectors (length xs)).
  set (N := 2 ^ length xs).
  assert (HN : INR (length L) = N) by apply sign_vectors_length.
  assert (HN0 : 0 < N) by (apply pow_lt; lra).
  set (l := map (fun sg => sqrt (norm2 (lin_comb sg xs))) L).
  pose proof (cauchy_schwarz (repeat 1 (length l)) l) as Hcs.
  rewrite dot_ones, dot_ones_ones in Hcs.
  assert (Hll : dot l l = sum (map (fun sg => norm2 (lin_comb sg xs)) L)).
  { unfold l. rewrite dot_map_self. f_equal. apply map_ext. intros sg.
    apply sqrt_sqrt, norm2_nonneg. }
  assert (Hlen : INR (length l) = N) by (unfold l; rewrite map_length; exact HN).
  rewrite Hll, Hlen in Hcs.
  set (S2 := sum (map (fun sg => norm2 (lin_comb sg xs)) L)) in *.
  set (S1 := sum l) in *.
  replace ((S1 / N) ^ 2) with ((S1 * S1) / (N * N)) by (field; lra).
  apply Rmult_le_reg_l with (N * N); [nra|].
  replace (N * N * (S1 * S1 / (N * N))) with (S1 * S1) by (field; lra).
  replace (N * N * (S2 / N)) with (N * S2) by (field; lra). exact Hcs.
Qed.

Lemma rad_halves (L : list (list R)) x xs :
  sum (map (fun sg => norm2 (lin_comb sg (x :: xs))) (map (cons 1) L))
  + sum (map (fun sg => norm2 (lin_comb sg (x :: xs))) (map (cons (-1)) L))
  = 2 * INR (length L) * norm2 x + 2 * sum (map (fun sg => norm2 (lin_comb sg xs)) L).
Proof.
  induction L as [|sg L IH]; unfold sum in *; simpl length; [simpl; ring|].
  rewrite S_INR. simpl. unfold norm2 in *. rewrite !norm2_vadd, !dot_vscale_l, !dot_vscale_r.
  lra.
Qed.

(** Orthogonality: sum over the 2^m sign vectors of ||sum_i s_i x_i||^2 = 2^m sum_i ||x_i||^2. *)
Theorem rad_orthogonality_sum xs :
  sum (map (fun sg => norm2 (lin_comb sg xs)) (sign_vectors (length xs)))
    = 2 ^ length xs * sum (map norm2 xs).
Proof.
  induction xs as [|x xs IH].
  - unfold sum. simpl. unfold norm2. simpl. ring.
  - simpl length. simpl sign_vectors. rewrite map_app, sum_app, rad_halves, IH.
    rewrite sign_vectors_length. unfold sum. simpl. unfold sum in IH. ring.
Qed.

Theorem rad_orthogonality xs : rad_e2 xs = sum (map norm2 xs).
Proof.
  unfold rad_e2. rewrite rad_orthogonality_sum. field. apply pow_nonzero. lra.
Qed.

Theorem rad_e2_le xs r : (forall x, In x xs -> norm2 x <= r ^ 2) -> rad_e2 xs <= INR (length xs) * r ^ 2.
Proof.
  intros H. rewrite rad_orthogonality. induction xs as [|x xs IH]; [unfold sum; simpl; lra|].
  change (sum (map norm2 (x :: xs))) with (norm2 x + sum (map norm2 xs)).
  change (length (x :: xs)) with (S (length xs)). rewrite S_INR.
  assert (norm2 x <= r ^ 2) by (apply H; left; reflexivity).
  assert (sum (map norm2 xs) <= INR (length xs) * r ^ 2)
    by (apply IH; intros; apply H; right; assumption).
  lra.
Qed.
