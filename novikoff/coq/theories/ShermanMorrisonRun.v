(** * S2 in every dimension: the n x n Sherman-Morrison formula from its 1 x 1 case.

    The sympy spec states S2 for 1 x 1 matrices (the IJCAI paper's (7)-(8): with a <> 0 and
    a + u v <> 0, (1/a - (u v / a^2) / (1 + u v / a)) (a + u v) = 1).  For n x n matrices
    (functions nat -> nat -> R over 0..n-1, [MarginDistribution]) with A B = I,
    (A + u v^T) (B - (B u)(v^T B)/d) = I + u (v^T B) (1 - 1/d - c/d) with c = v^T B u and
    d = 1 + c: the n x n identity is the 1 x 1 one for the scalar 1 + c, i.e.
    (1 - c/(1 + c)) (1 + c) = 1 ([sherman_morrison_from_scalar], whose premise
    [Bridges.S2_bridge] takes from the printed statement at a = 1, u = 1, v = c). *)

From Coq Require Import Reals List Lra Psatz Arith.
From Novikoff Require Import Vectors MarginDistribution.
Local Open Scope R_scope.

(** The 1 x 1 Sherman-Morrison identity for 1 + c: (1 - c/(1 + c)) (1 + c) = 1. *)
Definition scalar_sherman_morrison : Prop :=
  forall c : R, 1 + c <> 0 -> (1 - c / (1 + c)) * (1 + c) = 1.

Theorem sherman_morrison_from_scalar (n : nat) (A B : mat) (u v : vecf) :
  scalar_sherman_morrison ->
  is_right_inverse n A B -> 1 + vdot n v (mvec n B u) <> 0 ->
  is_right_inverse n (rank1 A u v) (sm_inverse n B u v).
Proof.
  intros scalar H Hd i j Hi Hj. unfold mmul, rank1, sm_inverse.
  set (d := 1 + vdot n v (mvec n B u)) in *. set (Bu := mvec n B u). set (vB := vmat n v B).
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
  fold (mmul n A B i j). rewrite H by auto.
  change (sumK n (fun k => A i k * Bu k)) with (mvec n A Bu i).
  unfold Bu. rewrite mvec_assoc_ident by auto. fold Bu.
  change (sumK n (fun k => v k * B k j)) with (vmat n v B j). fold vB.
  change (sumK n (fun k => v k * Bu k)) with (vdot n v Bu).
  set (c := vdot n v Bu).
  assert (Ed : d = 1 + c) by reflexivity.
  (* the 1 x 1 identity for 1 + c, times 1/(1 + c): 1 - c/(1 + c) = 1/(1 + c) *)
  assert (Hr : d * / d = 1) by (apply Rinv_r; exact Hd).
  assert (one_by_one : (1 - c / d) * d = 1) by (rewrite Ed; apply scalar; rewrite <- Ed; exact Hd).
  assert (key : 1 - c / d = / d).
  { transitivity ((1 - c / d) * d * / d); [rewrite Rmult_assoc, Hr; ring|].
    rewrite one_by_one. ring. }
  replace (ident i j - vB j / d * u i + (u i * vB j - u i * (vB j / d) * c))
    with (ident i j + u i * vB j * ((1 - c / d) - / d)) by (unfold Rdiv; ring).
  rewrite key. ring.
Qed.
