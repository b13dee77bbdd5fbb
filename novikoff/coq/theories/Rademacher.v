(** RC1: the linear class's empirical Rademacher complexity (IJCAI-22 paper, section 3, after
    Shalev-Shwartz and Ben-David 2014, Lemma 26.10).

    Spec correspondence (novikoff/spec/msvmav.py, id RC1). With e1 = E ||sum_i s_i x_i|| and
    e2 = E ||sum_i s_i x_i||^2 over Rademacher signs s, the premises are Jensen
    (e1^2 <= e2) and the signs' orthogonality (e2 = sum_i ||x_i||^2 <= n r^2); the conclusion
    is Lam e1 / n <= Lam n^(-1/2) r. The Python certificate is
    s (r sqrt n - e1) = (e2 - e1^2) + (n r^2 - e2) with s = r sqrt n + e1 > 0, times Lam/n;
    here e1 <= r sqrt n follows from e1^2 <= (r sqrt n)^2 and n^(-1/2) = 1/sqrt n. *)

From Coq Require Import Reals Lra Psatz.
From Novikoff Require Import Statements.
Local Open Scope R_scope.

(** n^(-1/2) = 1 / sqrt n for n > 0 *)
Lemma rc1_Rpower_minus_half (n : R) : 0 < n -> Rpower n (- (1 / 2)) = / sqrt n.
Proof.
  intros n_pos. rewrite Rpower_Ropp. replace (1 / 2) with (/ 2) by field.
  rewrite Rpower_sqrt by exact n_pos. reflexivity.
Qed.

(** e1 <= r sqrt n from e1^2 <= e2 <= n r^2 (e1 >= 0, r > 0) *)
Lemma rc1_e1_le (n r e1 e2 : R) :
  0 < n -> 0 < r -> 0 <= e1 -> e1 ^ 2 <= e2 -> e2 <= n * r ^ 2 -> e1 <= r * sqrt n.
Proof.
  intros n_pos r_pos e1_nonneg jensen orthogonality.
  assert (sqrt_pos : 0 < sqrt n) by (apply sqrt_lt_R0; exact n_pos).
  assert (sqrt_sq : sqrt n * sqrt n = n) by (apply sqrt_sqrt; lra).
  assert (square : e1 * e1 <= (r * sqrt n) * (r * sqrt n)).
  { assert (expand : (r * sqrt n) * (r * sqrt n) = n * r ^ 2).
    { transitivity (r * r * (sqrt n * sqrt n)); [ring | rewrite sqrt_sq; ring]. }
    rewrite expand. simpl in jensen. lra. }
  destruct (Rle_or_lt e1 (r * sqrt n)) as [le | gt]; [exact le|].
  exfalso. assert (0 < r * sqrt n) by nra. nra.
Qed.

Theorem RC1 : RC1_statement.
Proof.
  unfold RC1_statement.
  intros n r Lam e1 e2 n_pos r_pos Lam_pos e1_nonneg e2_nonneg n_ge_1 jensen orthogonality.
  split.
  { split; lra. }
  assert (sqrt_pos : 0 < sqrt n) by (apply sqrt_lt_R0; exact n_pos).
  assert (sqrt_sq : sqrt n * sqrt n = n) by (apply sqrt_sqrt; lra).
  assert (e1_le := rc1_e1_le n r e1 e2 n_pos r_pos e1_nonneg jensen orthogonality).
  rewrite (rc1_Rpower_minus_half n n_pos).
  (* Lam e1 / n <= Lam (r sqrt n) / n = Lam r / sqrt n *)
  replace (Lam * / sqrt n * r) with (Lam * (r * sqrt n) / n).
  2: { rewrite <- sqrt_sq at 2. field. lra. }
  unfold Rdiv. apply Rmult_le_compat_r; [apply Rlt_le, Rinv_0_lt_compat; exact n_pos|].
  apply Rmult_le_compat_l; lra.
Qed.

(** Non-vacuity: n = 4 points of radius r = 1, Lam = 1, e1 = 1 and e2 = 2
    (1 <= 2 <= 4 r^2). *)
Example RC1_example : RC1_hypotheses 4 1 1 1 2.
Proof. unfold RC1_hypotheses. repeat split; lra. Qed.
