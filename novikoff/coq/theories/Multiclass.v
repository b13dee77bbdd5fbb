(** * M1: the multiclass perceptron's mistake bound, for every number K of classes.

    K weight vectors w_0..w_{K-1} (a function [nat -> vec]); predict the FIRST
    index attaining max_j w_j.x; on a mistake (prediction r <> y):
    w_y += x, w_r -= x.  If a matrix U = (u_0..u_{K-1}) separates the data with
    margin g in the Kesler sense, u_y.x_i - u_j.x_i >= g for all i and j <> y_i,
    then  mistakes * g^2 <= 2 R^2 ||U||_F^2  (so mistakes <= 2 R^2/gamma_K^2 for
    ||U||_F = 1).  Proof: Novikoff's argument on the block vectors
    (Phi = sum_j u_j.w_j grows by >= g per mistake, E = sum_j ||w_j||^2 by
    <= 2 R^2, and Phi^2 <= ||U||_F^2 E by Cauchy-Schwarz on blocks), which is
    the perceptron on the Kesler vectors phi(x,y) - phi(x,r). *)

From Coq Require Import Reals List Lra Psatz Arith.
From Novikoff Require Import Vectors Perceptron.
Import ListNotations.
Local Open Scope R_scope.

(** ** First argmax over 0..K-1 *)

Fixpoint amax (f : nat -> R) (K : nat) : nat :=
  match K with
  | O => O
  | S K' => let b := amax f K' in if Rlt_dec (f b) (f K') then K' else b
  end.

Lemma amax_lt f K : (0 < K)%nat -> (amax f K < K)%nat.
Proof.
  induction K as [|K IH]; intros H; [lia|]. simpl.
  destruct (Rlt_dec (f (amax f K)) (f K)); [lia|].
  destruct K as [|K]; [simpl; lia|]. specialize (IH ltac:(lia)). lia.
Qed.

Lemma amax_max f K j : (j < K)%nat -> f j <= f (amax f K).
Proof.
  induction K as [|K IH]; intros H; [lia|]. simpl.
  destruct (Rlt_dec (f (amax f K)) (f K)) as [h|h].
  - destruct (Nat.eq_dec j K) as [->|ne]; [lra|].
    specialize (IH ltac:(lia)). lra.
  - destruct (Nat.eq_dec j K) as [->|ne]; [lra|]. apply IH; lia.
Qed.

(** It is the FIRST maximiser: every earlier index scores strictly less. *)
Lemma amax_first f K j : (j < amax f K)%nat -> f j < f (amax f K).
Proof.
  induction K as [|K IH]; intros H; simpl in *; [lia|].
  destruct (Rlt_dec (f (amax f K)) (f K)) as [h|h].
  - pose proof (amax_max f K j H). lra.
  - apply IH; exact H.
Qed.

(** ** The multiclass perceptron *)

Definition mweights : Type := nat -> vec.
Definition mstate : Type := (mweights * nat)%type.
Definition sample : Type := (vec * nat)%type.   (* x~_i (bias coordinate included), y_i *)

Definition predict (K : nat) (W : mweights) (x : vec) : nat := amax (fun j => dot (W j) x) K.

Definition mupdate (W : mweights) (x : vec) (y r : nat) : mweights :=
  fun j => if Nat.eqb j y then vadd (W j) x else if Nat.eqb j r then vsub (W j) x else W j.

Definition mstep (K : nat) (s : mstate) (xy : sample) : mstate :=
  let (W, k) := s in
  let (x, y) := xy in
  let r := predict K W x in
  if Nat.eqb r y then (W, k) else (mupdate W x y r, S k).

Definition minit : mstate := (fun _ => [], 0%nat).

Definition msample (data : list sample) (i : nat) : sample := nth i data ([], 0%nat).

Definition mrun (K : nat) (data : list sample) (order : list nat) : mstate :=
  fold_left (mstep K) (map (msample data) order) minit.
Definition mistakes (K : nat) (data : list sample) (order : list nat) : nat :=
  snd (mrun K data order).

(** ** Potentials *)

Definition frob2 (K : nat) (U : mweights) : R := sumK K (fun j => dot (U j) (U j)).
Definition phi (K : nat) (U W : mweights) : R := sumK K (fun j => dot (U j) (W j)).

Definition kesler_margin (K : nat) (data : list sample) (U : mweights) (g : R) : Prop :=
  forall x y, In (x, y) data -> forall j, (j < K)%nat -> j <> y ->
    dot (U y) x - dot (U j) x >= g.

Lemma phi_update K U W x y r : (y < K)%nat -> (r < K)%nat -> y <> r ->
  phi K U (mupdate W x y r) = phi K U W + dot (U y) x - dot (U r) x.
Proof.
  intros Hy Hr Hne. unfold phi.
  rewrite (sumK_ext K _ (fun j => (dot (U j) (W j) + (if Nat.eqb j y then dot (U y) x else 0))
                                  - (if Nat.eqb j r then dot (U r) x else 0))).
  - rewrite sumK_minus, sumK_plus, !sumK_indicator by assumption. ring.
  - intros j _. unfold mupdate.
    destruct (Nat.eqb_spec j y), (Nat.eqb_spec j r); subst; try lia;
      rewrite ?dot_vadd_r, ?dot_vsub_r; ring.
Qed.

Lemma energy_update K W x y r : (y < K)%nat -> (r < K)%nat -> y <> r ->
  frob2 K (mupdate W x y r) =
  frob2 K W + (2 * dot (W y) x + dot x x) + (- 2 * dot (W r) x + dot x x).
Proof.
  intros Hy Hr Hne. unfold frob2.
  rewrite (sumK_ext K _ (fun j => (dot (W j) (W j) +
                                   (if Nat.eqb j y then 2 * dot (W y) x + dot x x else 0))
                                  + (if Nat.eqb j r then - 2 * dot (W r) x + dot x x else 0))).
  - rewrite !sumK_plus, !sumK_indicator by assumption. ring.
  - intros j _. unfold mupdate.
    destruct (Nat.eqb_spec j y), (Nat.eqb_spec j r); subst; try lia;
      rewrite ?norm2_vadd, ?norm2_vsub; ring.
Qed.

Lemma mrun_invariant K data U g R2 order :
  (0 < K)%nat ->
  (forall x y, In (x, y) data -> (y < K)%nat /\ dot x x <= R2) ->
  kesler_margin K data U g ->
  Forall (fun i => (i < length data)%nat) order ->
  let s := mrun K data order in
  phi K U (fst s) >= INR (snd s) * g /\ frob2 K (fst s) <= INR (snd s) * (2 * R2).
Proof.
  intros HK Hd Hm Ho. unfold mrun.
  assert (Hin : Forall (fun xy => In xy data) (map (msample data) order)).
  { apply Forall_map. eapply Forall_impl; [|exact Ho]. intros i Hi. apply nth_In; exact Hi. }
  assert (H0 : phi K U (fst minit) >= INR (snd minit) * g /\
               frob2 K (fst minit) <= INR (snd minit) * (2 * R2)).
  { unfold minit, phi, frob2; cbn [fst snd].
    rewrite (sumK_ext K _ (fun _ => 0)) by (intros; apply dot_nil_r).
    rewrite (sumK_ext K (fun j => dot [] []) (fun _ => 0)) by reflexivity.
    assert (Z : sumK K (fun _ => 0) = 0).
    { clear. induction K as [|K IH]; simpl; [reflexivity|]. rewrite IH; ring. }
    rewrite Z. simpl. lra. }
  revert H0. generalize minit. induction Hin as [|[x y] l Hxy _ IH]; intros s Hs; [exact Hs|].
  simpl. apply IH. destruct s as [W k]. unfold mstep.
  destruct (Hd x y Hxy) as [Hy Hx].
  set (r := predict K W x).
  destruct (Nat.eqb_spec r y) as [e|ne]; [exact Hs|]. cbn [fst snd] in *.
  assert (Hr : (r < K)%nat) by (apply amax_lt; exact HK).
  rewrite phi_update, energy_update, S_INR by auto.
  assert (Hmarg : dot (U y) x - dot (U r) x >= g) by (apply (Hm x y Hxy r Hr); auto).
  assert (Hpred : dot (W y) x <= dot (W r) x)
    by (apply (amax_max (fun j => dot (W j) x) K y Hy)).
  destruct Hs as [Hs1 Hs2]. split; lra.
Qed.

(** ** M1 *)
Theorem M1_mistake_bound (K : nat) (data : list sample) (U : mweights) (g R2 : R)
  (order : list nat) :
  (0 < K)%nat ->
  (forall x y, In (x, y) data -> (y < K)%nat /\ dot x x <= R2) ->
  0 <= R2 ->
  kesler_margin K data U g ->
  0 < g ->
  Forall (fun i => (i < length data)%nat) order ->
  INR (mistakes K data order) * g ^ 2 <= 2 * R2 * frob2 K U.
Proof.
  intros HK Hd HR Hm Hg Ho.
  pose proof (mrun_invariant K data U g R2 order HK Hd Hm Ho) as [H1 H2].
  unfold mistakes. set (s := mrun K data order) in *.
  assert (HF : 0 <= frob2 K U) by (apply sumK_nonneg; intros; apply norm2_nonneg).
  destruct (snd s) as [|k'] eqn:Ek.
  - simpl. nra.
  - set (k := INR (S k')) in *.
    assert (Hk : 0 < k) by (apply lt_0_INR; lia).
    assert (Hcs := cauchy_schwarz_blocks K U (fst s)). fold (phi K U (fst s)) in Hcs.
    fold (frob2 K U) (frob2 K (fst s)) in Hcs.
    assert (Hkg : 0 <= k * g) by nra.
    assert (Hsq : (k * g) * (k * g) <= phi K U (fst s) * phi K U (fst s)) by nra.
    assert (HFE : frob2 K U * frob2 K (fst s) <= frob2 K U * (k * (2 * R2)))
      by (apply Rmult_le_compat_l; assumption).
    apply Rmult_le_reg_l with k; [exact Hk|]. nra.
Qed.

(** With ||U||_F = 1 (gamma_K = g): mistakes <= 2 R^2 / gamma_K^2. *)
Corollary M1_normalized (K : nat) (data : list sample) (U : mweights) (g R2 : R)
  (order : list nat) :
  (0 < K)%nat ->
  (forall x y, In (x, y) data -> (y < K)%nat /\ dot x x <= R2) ->
  0 <= R2 ->
  kesler_margin K data U g ->
  0 < g ->
  frob2 K U = 1 ->
  Forall (fun i => (i < length data)%nat) order ->
  INR (mistakes K data order) <= 2 * R2 / g ^ 2.
Proof.
  intros HK Hd HR Hm Hg HF Ho.
  pose proof (M1_mistake_bound K data U g R2 order HK Hd HR Hm Hg Ho) as H.
  rewrite HF in H. assert (0 < g ^ 2) by (apply pow_lt; lra).
  apply Rmult_le_reg_r with (g ^ 2); [assumption|].
  unfold Rdiv. rewrite Rmult_assoc, Rinv_l by lra. lra.
Qed.

(** Kesler vectors: phi(x,y) - phi(x,j) has squared norm 2 ||x||^2 (j <> y):
    the block vector with x in block y and -x in block j. *)
Definition kesler (x : vec) (y j : nat) : mweights :=
  fun l => if Nat.eqb l y then x else if Nat.eqb l j then vscale (-1) x else [].

Lemma kesler_norm2 K x y j : (y < K)%nat -> (j < K)%nat -> y <> j ->
  frob2 K (kesler x y j) = 2 * dot x x.
Proof.
  intros Hy Hj Hne. unfold frob2.
  rewrite (sumK_ext K _ (fun l => (if Nat.eqb l y then dot x x else 0)
                                  + (if Nat.eqb l j then dot x x else 0))).
  - rewrite sumK_plus, !sumK_indicator by assumption. ring.
  - intros l _. unfold kesler.
    destruct (Nat.eqb_spec l y), (Nat.eqb_spec l j); subst; try lia;
      rewrite ?norm2_vscale; simpl; ring.
Qed.

(** ** Non-vacuity: 3 classes in the plane *)

Definition m_data : list sample := [([1; 0], 0%nat); ([0; 1], 1%nat); ([-1; -1], 2%nat)].
Definition m_U : mweights := fun j => nth j [[1; 0]; [0; 1]; [-1; -1]] [].

Example m_data_example :
  (forall x y, In (x, y) m_data -> (y < 3)%nat /\ dot x x <= 2) /\
  kesler_margin 3 m_data m_U 1 /\ frob2 3 m_U = 4 /\
  forall order, Forall (fun i => (i < 3)%nat) order ->
    (mistakes 3 m_data order <= 16)%nat.
Proof.
  assert (Hd : forall x y, In (x, y) m_data -> (y < 3)%nat /\ dot x x <= 2).
  { intros x y H. unfold m_data in H.
    repeat destruct H as [H|H]; try (injection H as <- <-); simpl; try (split; [lia|lra]).
    contradiction. }
  assert (Hm : kesler_margin 3 m_data m_U 1).
  { intros x y H j Hj Hne. unfold m_data in H.
    repeat destruct H as [H|H]; try (injection H as <- <-); try contradiction;
      destruct j as [|[|[|j]]]; try lia; unfold m_U; simpl; lra. }
  assert (HF : frob2 3 m_U = 4) by (unfold frob2, m_U; simpl; lra).
  split; [exact Hd|]. split; [exact Hm|]. split; [exact HF|].
  intros order Ho.
  pose proof (M1_mistake_bound 3 m_data m_U 1 2 order ltac:(lia) Hd ltac:(lra) Hm ltac:(lra) Ho)
    as H.
  rewrite HF in H.
  assert (Hk : INR (mistakes 3 m_data order) < 17) by (simpl in H; lra).
  replace 17 with (INR 17) in Hk by (simpl; ring). apply INR_lt in Hk. lia.
Qed.
