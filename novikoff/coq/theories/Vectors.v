(** * Finite real vectors as lists, in every dimension.

    A vector is a [list R]; its dimension is its length.  Every lemma here holds
    for lists of ANY lengths: [dot] truncates to the shorter list and [vadd]
    pads the shorter one with zeros, so both are the operations of the space of
    finitely supported sequences, and the empty list is the zero vector of every
    dimension.  On vectors of one dimension d they are the usual operations of R^d. *)

From Coq Require Import Reals List Lra Psatz.
Import ListNotations.
Local Open Scope R_scope.

Definition vec := list R.

Fixpoint dot (u v : vec) : R :=
  match u, v with
  | a :: u', b :: v' => a * b + dot u' v'
  | _, _ => 0
  end.

Definition norm2 (u : vec) : R := dot u u.

Fixpoint vadd (u v : vec) : vec :=
  match u, v with
  | a :: u', b :: v' => (a + b) :: vadd u' v'
  | [], _ => v
  | _, [] => u
  end.

Definition vscale (c : R) (u : vec) : vec := map (Rmult c) u.
Definition vsub (u v : vec) : vec := vadd u (vscale (-1) v).

(** Linear combination [sum_i c_i z_i] (stops at the shorter list). *)
Fixpoint lin_comb (cs : list R) (zs : list vec) : vec :=
  match cs, zs with
  | c :: cs', z :: zs' => vadd (vscale c z) (lin_comb cs' zs')
  | _, _ => []
  end.

Definition sum (l : list R) : R := fold_right Rplus 0 l.

(** ** Bilinearity and symmetry *)

Lemma dot_nil_l v : dot [] v = 0.
Proof. reflexivity. Qed.

Lemma dot_nil_r u : dot u [] = 0.
Proof. destruct u; reflexivity. Qed.

Lemma dot_comm u v : dot u v = dot v u.
Proof.
  revert v; induction u as [|a u IH]; intros [|b v]; simpl; try reflexivity.
  rewrite IH; ring.
Qed.

Lemma dot_vadd_r u v w : dot u (vadd v w) = dot u v + dot u w.
Proof.
  revert v w; induction u as [|a u IH]; intros [|b v] [|c w]; simpl;
    try rewrite IH; ring.
Qed.

Lemma dot_vadd_l u v w : dot (vadd u v) w = dot u w + dot v w.
Proof. rewrite dot_comm, dot_vadd_r, (dot_comm w u), (dot_comm w v); reflexivity. Qed.

Lemma dot_vscale_l c u v : dot (vscale c u) v = c * dot u v.
Proof.
  revert v; induction u as [|a u IH]; intros [|b v]; simpl; try ring.
  unfold vscale in IH; rewrite IH; ring.
Qed.

Lemma dot_vscale_r c u v : dot u (vscale c v) = c * dot u v.
Proof. rewrite dot_comm, dot_vscale_l, dot_comm; reflexivity. Qed.

Lemma dot_vsub_r u v w : dot u (vsub v w) = dot u v - dot u w.
Proof. unfold vsub; rewrite dot_vadd_r, dot_vscale_r; ring. Qed.

Lemma dot_vsub_l u v w : dot (vsub u v) w = dot u w - dot v w.
Proof. rewrite dot_comm, dot_vsub_r, (dot_comm w u), (dot_comm w v); reflexivity. Qed.

Lemma norm2_vadd u v : dot (vadd u v) (vadd u v) = dot u u + 2 * dot u v + dot v v.
Proof. rewrite dot_vadd_l, !dot_vadd_r, (dot_comm v u); ring. Qed.

Lemma norm2_vsub u v : dot (vsub u v) (vsub u v) = dot u u - 2 * dot u v + dot v v.
Proof. rewrite dot_vsub_l, !dot_vsub_r, (dot_comm v u); ring. Qed.

Lemma norm2_vscale c u : dot (vscale c u) (vscale c u) = c ^ 2 * dot u u.
Proof. rewrite dot_vscale_l, dot_vscale_r; ring. Qed.

Lemma norm2_nonneg u : 0 <= dot u u.
Proof.
  induction u as [|a u IH]; simpl; [lra|].
  assert (0 <= a * a) by nra. lra.
Qed.

Lemma dot_lin_comb x cs zs : dot x (lin_comb cs zs) = dot cs (map (dot x) zs).
Proof.
  revert zs; induction cs as [|c cs IH]; intros [|z zs]; simpl;
    try rewrite dot_nil_r; try reflexivity.
  rewrite dot_vadd_r, dot_vscale_r, IH; ring.
Qed.

Lemma dot_app_l u1 u2 v1 v2 :
  length u1 = length v1 -> dot (u1 ++ u2) (v1 ++ v2) = dot u1 v1 + dot u2 v2.
Proof.
  revert v1; induction u1 as [|a u1 IH]; intros [|b v1] H; simpl in *;
    try discriminate; [ring|].
  rewrite IH by lia; ring.
Qed.

(** Zero coordinates contribute nothing, whatever the other vector's length. *)
Lemma dot_repeat0_l n v : dot (repeat 0 n) v = 0.
Proof.
  revert v; induction n as [|n IH]; intros [|b v]; simpl; try reflexivity.
  rewrite IH; ring.
Qed.

Lemma dot_pad_l u n v : dot (u ++ repeat 0 n) v = dot u v.
Proof.
  revert v; induction u as [|a u IH]; intros [|b v]; simpl;
    try apply dot_repeat0_l; try reflexivity.
  rewrite IH; reflexivity.
Qed.

Lemma dot_pad_r u n v : dot v (u ++ repeat 0 n) = dot v u.
Proof. rewrite dot_comm, dot_pad_l, dot_comm; reflexivity. Qed.

(** ** Cauchy-Schwarz in every dimension

    The induction step is the following scalar lemma: Cauchy-Schwarz is stable
    under adding a coordinate (or a whole block of coordinates).  Its proof is
    the sum-of-squares certificate
    [(A b + a B)^2 - (2 C c)^2 = (A b - a B)^2 + 4 (A B a b - C^2 c^2)]. *)

Lemma cs_add A B C a b c :
  0 <= A -> 0 <= B -> 0 <= a -> 0 <= b ->
  C * C <= A * B -> c * c <= a * b ->
  (C + c) * (C + c) <= (A + a) * (B + b).
Proof.
  intros HA HB Ha Hb H1 H2.
  assert (H3 : C * C * (c * c) <= A * B * (a * b)).
  { apply Rmult_le_compat; nra. }
  assert (H4 : (2 * C * c) * (2 * C * c) <= (A * b + a * B) * (A * b + a * B)).
  { pose proof (Rle_0_sqr (A * b - a * B)) as Hs; unfold Rsqr in Hs. lra. }
  assert (H5 : 2 * C * c <= A * b + a * B).
  { destruct (Rle_or_lt (2 * C * c) (A * b + a * B)) as [h|h]; [exact h|].
    exfalso. assert (0 <= A * b + a * B) by nra.
    assert (0 < 2 * C * c - (A * b + a * B)) by lra. nra. }
  nra.
Qed.

Theorem cauchy_schwarz u v : dot u v * dot u v <= dot u u * dot v v.
Proof.
  revert v; induction u as [|a u IH]; intros [|b v]; simpl.
  - lra.
  - pose proof (norm2_nonneg (b :: v)); simpl in *; nra.
  - pose proof (norm2_nonneg (a :: u)); simpl in *; nra.
  - apply cs_add; [nra|nra|apply norm2_nonneg|apply norm2_nonneg|nra|apply IH].
Qed.

Corollary cauchy_schwarz_sq u v : (dot u v) ^ 2 <= dot u u * dot v v.
Proof. pose proof (cauchy_schwarz u v); simpl; lra. Qed.

(** ** Sums over an index range 0..K-1 (for the multiclass weights) *)

Fixpoint sumK (K : nat) (f : nat -> R) : R :=
  match K with
  | O => 0
  | S K' => sumK K' f + f K'
  end.

Lemma sumK_ext K f g : (forall j, (j < K)%nat -> f j = g j) -> sumK K f = sumK K g.
Proof.
  induction K as [|K IH]; intros H; simpl; [reflexivity|].
  rewrite IH by (intros; apply H; lia). rewrite H by lia. reflexivity.
Qed.

Lemma sumK_plus K f g : sumK K (fun j => f j + g j) = sumK K f + sumK K g.
Proof. induction K as [|K IH]; simpl; [ring|]. rewrite IH; ring. Qed.

Lemma sumK_minus K f g : sumK K (fun j => f j - g j) = sumK K f - sumK K g.
Proof. induction K as [|K IH]; simpl; [ring|]. rewrite IH; ring. Qed.

Lemma sumK_indicator K y a :
  (y < K)%nat -> sumK K (fun j => if Nat.eqb j y then a else 0) = a.
Proof.
  induction K as [|K IH]; intros H; simpl; [lia|].
  destruct (Nat.eqb K y) eqn:E.
  - apply Nat.eqb_eq in E; subst.
    rewrite (sumK_ext _ _ (fun _ => 0)).
    + assert (Z0 : forall n, sumK n (fun _ => 0) = 0).
      { induction n as [|n IHn]; simpl; [reflexivity|]. rewrite IHn; ring. }
      rewrite Z0; ring.
    + intros j Hj. destruct (Nat.eqb_spec j y); [lia|reflexivity].
  - apply Nat.eqb_neq in E. rewrite IH by lia. ring.
Qed.

Lemma sumK_nonneg K f : (forall j, (j < K)%nat -> 0 <= f j) -> 0 <= sumK K f.
Proof.
  induction K as [|K IH]; intros H; simpl; [lra|].
  assert (0 <= f K) by (apply H; lia).
  assert (0 <= sumK K f) by (apply IH; intros; apply H; lia). lra.
Qed.

(** Cauchy-Schwarz for blocks of vectors (the Frobenius inner product):
    [(sum_j u_j.w_j)^2 <= (sum_j ||u_j||^2) (sum_j ||w_j||^2)]. *)
Theorem cauchy_schwarz_blocks K (U W : nat -> vec) :
  sumK K (fun j => dot (U j) (W j)) * sumK K (fun j => dot (U j) (W j))
  <= sumK K (fun j => dot (U j) (U j)) * sumK K (fun j => dot (W j) (W j)).
Proof.
  induction K as [|K IH]; simpl; [lra|].
  apply cs_add; try apply sumK_nonneg; intros; try apply norm2_nonneg; auto.
  apply cauchy_schwarz.
Qed.
