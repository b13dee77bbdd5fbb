(** * RC1's bridge: the printed Rademacher bound speaks about a labelled dataset.

    [RC1_bridge : RC1_statement -> RC1_run_statement] fills the printed statement's symbols
    with the dataset's quantities: n = the number of samples, r and Lam as given,
    e1 = [rad_e1] and e2 = [rad_e2] of the feature vectors (the averages over all 2^n sign
    vectors); its premises are [RademacherRun]'s [rad_jensen] (e1^2 <= e2) and
    [rad_e2_le] (e2 = sum_i ||x_i||^2 <= n r^2). [RC1_run] is the bridge applied to
    [Rademacher.RC1]. *)

From Coq Require Import Reals List Lra Arith.
From Novikoff Require Import Vectors Labelled RademacherRun.
From Novikoff Require Import Statements Rademacher RunStatements.
Import ListNotations.
Local Open Scope R_scope.

(** As in [Bridges]: the printed statement is used by its names. *)
Local Ltac use_printed H :=
  repeat match type of H with
  | ?P -> _ => specialize (H ltac:(assumption))
  end.
Local Ltac conclude_with H := first [exact H | exact (proj2 H) | apply H | apply (proj2 H)].

Theorem RC1_bridge : RC1_statement -> RC1_run_statement.
Proof.
  intros RC1_printed D r Lam H1 Hr HLam Hx.
  set (xs := map features D).
  assert (Hlen : length xs = length D) by apply map_length.
  assert (Hxs : forall x, In x xs -> norm2 x <= r ^ 2).
  { intros x Hin. unfold xs in Hin. apply in_map_iff in Hin as [s [<- Hs]]. apply Hx, Hs. }
  set (n := INR (length D)).
  assert (Hn : 1 <= n) by (unfold n; replace 1 with (INR 1) by reflexivity; apply le_INR; exact H1).
  (* each premise as a hypothesis named after the printer's comment *)
  assert (H_domain_of_n : 0 < n) by lra.
  assert (H_domain_of_r : 0 < r) by exact Hr.
  assert (H_domain_of_Lam : 0 < Lam) by exact HLam.
  assert (H_domain_of_e1 : 0 <= rad_e1 xs) by apply rad_e1_nonneg.
  assert (H_domain_of_e2 : 0 <= rad_e2 xs) by apply rad_e2_nonneg.
  assert (H_n_ge_1 : n >= 1) by lra.
  assert (H_jensen : rad_e1 xs ^ 2 <= rad_e2 xs) by apply rad_jensen.
  assert (H_orthogonality : rad_e2 xs <= n * r ^ 2).
  { unfold n. rewrite <- Hlen. apply rad_e2_le, Hxs. }
  hnf in RC1_printed. specialize RC1_printed with (n := n) (r := r) (Lam := Lam)
    (e1 := rad_e1 xs) (e2 := rad_e2 xs).
  use_printed RC1_printed.
  conclude_with RC1_printed.
Qed.

Theorem RC1_run : RC1_run_statement.
Proof. exact (RC1_bridge Rademacher.RC1). Qed.
