(** * The perceptron over integers, proved equal to the run the theorems are about.

    [Perceptron.run] (Novikoff 1962; the textbook's section 6.4) is a run over
    Coq's reals: it cannot be executed.  This file defines the same run over [Z]
    (the patterns are integer numerators over one common scale L > 0, the weights
    are kept as integer numerators over the same scale) and proves:

    - [zrun_correct]: on integer patterns, the integer run makes the same decisions,
      the same updates (the same sample indices, in the same order), the same update
      count and the same weights as [Perceptron.run] on the patterns injected into R
      by [IZR];
    - [run_scale]: the real run is invariant under a positive scale c of the patterns
      (same decisions, weights times c), so on rational data z_i = Z_i / L the real
      run's weights are the integer weights divided by L ([zrun_rational]);
    - [zreflect_R]: the integer reflection y (x, rho) of a labelled sample is the
      reflection y (x, rho) over R (the bias coordinate last);
    - [zepochs_correct]: the epoch loop that stops at the first epoch without an update
      (or after a given number of epochs) presents exactly the concatenated epochs and
      reports the run of [Perceptron.run] on them.

    Nothing here uses unary [nat] arithmetic in the loop except the update counter
    and the indices, which extraction maps to OCaml's native [int]
    ([ExtrOcamlNatInt]); the integer arithmetic is Zarith's ([ExtrOcamlZBigInt]). *)

From Coq Require Import Reals List Lra Psatz Arith ZArith.
From Novikoff Require Import Vectors Perceptron.
Import ListNotations.

(** ** Integer vectors *)

Definition zvec := list Z.

Fixpoint zdot (u v : zvec) : Z :=
  match u, v with
  | a :: u', b :: v' => (a * b + zdot u' v')%Z
  | _, _ => 0%Z
  end.

Fixpoint zvadd (u v : zvec) : zvec :=
  match u, v with
  | a :: u', b :: v' => (a + b)%Z :: zvadd u' v'
  | [], _ => v
  | _, [] => u
  end.

Definition inj (u : zvec) : vec := map IZR u.

Lemma zdot_R u v : IZR (zdot u v) = dot (inj u) (inj v).
Proof.
  revert v; induction u as [|a u IH]; intros [|b v]; simpl; try reflexivity.
  rewrite plus_IZR, mult_IZR, IH. reflexivity.
Qed.

Lemma zvadd_R u v : inj (zvadd u v) = vadd (inj u) (inj v).
Proof.
  revert v; induction u as [|a u IH]; intros [|b v]; simpl; try reflexivity.
  rewrite plus_IZR. unfold inj in IH. rewrite IH. reflexivity.
Qed.

(** [zdot] with an accumulator (tail recursive: constant stack, fewer allocations). *)
Fixpoint zdot_acc (acc : Z) (u v : zvec) : Z :=
  match u, v with
  | a :: u', b :: v' => zdot_acc (acc + a * b)%Z u' v'
  | _, _ => acc
  end.

Lemma zdot_acc_spec acc u v : zdot_acc acc u v = (acc + zdot u v)%Z.
Proof.
  revert acc v; induction u as [|a u IH]; intros acc [|b v]; simpl; try ring.
  rewrite IH. ring.
Qed.

(** The decision, over Z: update iff W.Z <= 0 (ties update), as [Perceptron.step]. *)
Definition zmistake (w z : zvec) : bool := Z.leb (zdot_acc 0 w z) 0.

Lemma zmistake_R w z :
  zmistake w z = if Rle_dec (dot (inj w) (inj z)) 0 then true else false.
Proof.
  unfold zmistake. rewrite zdot_acc_spec, Z.add_0_l, <- zdot_R.
  destruct (Rle_dec (IZR (zdot w z)) 0) as [H|H].
  - apply Z.leb_le. apply le_IZR. exact H.
  - apply Z.leb_gt. apply lt_IZR. lra.
Qed.

(** ** The integer run

    [zrun_from zs order w k tr] presents the samples [order] (indices into [zs]) from
    the weights [w] with [k] updates so far and the updated indices [tr] (latest
    first).  Returns the final weights, the count and the trace. *)

Definition zpattern (zs : list zvec) (i : nat) : zvec := nth i zs [].

Fixpoint zrun_from (zs : list zvec) (order : list nat) (w : zvec) (k : nat) (tr : list nat)
  : zvec * nat * list nat :=
  match order with
  | [] => (w, k, tr)
  | i :: o =>
      let z := zpattern zs i in
      if zmistake w z then zrun_from zs o (zvadd w z) (S k) (i :: tr)
      else zrun_from zs o w k tr
  end.

Definition zrun (zs : list zvec) (order : list nat) : zvec * nat * list nat :=
  zrun_from zs order [] 0 [].

Definition injs (zs : list zvec) : list vec := map inj zs.

Lemma pattern_inj zs i : pattern (injs zs) i = inj (zpattern zs i).
Proof.
  unfold pattern, zpattern, injs.
  change (@nil R) with (inj []). apply map_nth.
Qed.

(** The indices updated on by the real run: the presentations whose decision is true. *)
Fixpoint updated_indices (order : list nat) (ds : list bool) : list nat :=
  match order, ds with
  | i :: o, true :: ds' => i :: updated_indices o ds'
  | _ :: o, false :: ds' => updated_indices o ds'
  | _, _ => []
  end.

Lemma zrun_from_R zs order w k tr :
  let '(w', k', tr') := zrun_from zs order w k tr in
  fold_left step (presented (injs zs) order) (inj w, k) = (inj w', k') /\
  rev tr' = rev tr ++ updated_indices order (decisions_from (inj w) (presented (injs zs) order)).
Proof.
  revert w k tr; induction order as [|i o IH]; intros w k tr; simpl.
  - rewrite app_nil_r. split; reflexivity.
  - rewrite pattern_inj. unfold step at 2; cbn [fst snd].
    pose proof (zmistake_R w (zpattern zs i)) as Hm.
    destruct (Rle_dec (dot (inj w) (inj (zpattern zs i))) 0) as [Hle|Hgt];
      rewrite Hm; simpl.
    + specialize (IH (zvadd w (zpattern zs i)) (S k) (i :: tr)).
      destruct (zrun_from zs o (zvadd w (zpattern zs i)) (S k) (i :: tr)) as [[w' k'] tr'].
      rewrite zvadd_R in IH. destruct IH as [H1 H2]. split; [exact H1|].
      rewrite H2. simpl. rewrite <- app_assoc. reflexivity.
    + apply IH.
Qed.

Lemma zrun_from_count zs order w k tr :
  let '(_, k', tr') := zrun_from zs order w k tr in (k' + length tr = k + length tr')%nat.
Proof.
  revert w k tr; induction order as [|i o IH]; intros w k tr; simpl; [reflexivity|].
  destruct (zmistake w (zpattern zs i)).
  - specialize (IH (zvadd w (zpattern zs i)) (S k) (i :: tr)).
    destruct (zrun_from zs o (zvadd w (zpattern zs i)) (S k) (i :: tr)) as [[w' k'] tr'].
    simpl in IH. lia.
  - apply IH.
Qed.

(** Same decisions, same updated indices, same count, same weights as [Perceptron.run]. *)
Theorem zrun_correct zs order :
  let '(w, k, tr) := zrun zs order in
  run (injs zs) order = (inj w, k) /\
  rev tr = updated_indices order (decisions (injs zs) order) /\
  length tr = k.
Proof.
  unfold zrun, run, decisions, init.
  pose proof (zrun_from_R zs order [] 0 []) as H.
  pose proof (zrun_from_count zs order [] 0 []) as Hc.
  destruct (zrun_from zs order [] 0 []) as [[w k] tr].
  simpl in H, Hc. destruct H as [H1 H2]. change (inj []) with (@nil R) in H1, H2.
  split; [exact H1|]. split; [exact H2|]. lia.
Qed.

Corollary zrun_weights zs order :
  weights (injs zs) order = inj (fst (fst (zrun zs order))).
Proof.
  pose proof (zrun_correct zs order) as H. unfold weights.
  destruct (zrun zs order) as [[w k] tr]. destruct H as [H _]. rewrite H. reflexivity.
Qed.

Corollary zrun_updates zs order :
  updates (injs zs) order = snd (fst (zrun zs order)).
Proof.
  pose proof (zrun_correct zs order) as H. unfold updates.
  destruct (zrun zs order) as [[w k] tr]. destruct H as [H _]. rewrite H. reflexivity.
Qed.

(** ** Rational data: one positive scale changes no decision *)

Local Open Scope R_scope.

Lemma vadd_vscale c u v : vadd (vscale c u) (vscale c v) = vscale c (vadd u v).
Proof.
  revert v; induction u as [|a u IH]; intros [|b v]; simpl; try reflexivity.
  unfold vscale in *. rewrite IH. f_equal. ring.
Qed.

Lemma decide_scale c w z :
  0 < c -> (if Rle_dec (dot (vscale c w) (vscale c z)) 0 then true else false)
           = (if Rle_dec (dot w z) 0 then true else false).
Proof.
  intros Hc. rewrite dot_vscale_l, dot_vscale_r.
  destruct (Rle_dec (c * (c * dot w z)) 0) as [H|H];
    destruct (Rle_dec (dot w z) 0) as [H'|H']; try reflexivity; exfalso.
  - assert (0 < c * (c * dot w z)) by (apply Rmult_lt_0_compat; [lra|nra]). lra.
  - assert (c * (c * dot w z) <= 0).
    { assert (0 <= c * c) by nra. replace (c * (c * dot w z)) with ((c * c) * dot w z) by ring.
      nra. }
    contradiction.
Qed.

Lemma fold_step_scale c ps w k :
  0 < c ->
  fold_left step (map (vscale c) ps) (vscale c w, k) =
  (vscale c (fst (fold_left step ps (w, k))), snd (fold_left step ps (w, k))).
Proof.
  intros Hc. revert w k; induction ps as [|z ps IH]; intros w k; simpl; [reflexivity|].
  unfold step; cbn [fst snd]. fold step.
  pose proof (decide_scale c w z Hc) as Hd.
  destruct (Rle_dec (dot (vscale c w) (vscale c z)) 0);
    destruct (Rle_dec (dot w z) 0); try discriminate; cbn [fst snd].
  - rewrite vadd_vscale. apply IH.
  - apply IH.
Qed.

Lemma decisions_scale c ps w :
  0 < c -> decisions_from (vscale c w) (map (vscale c) ps) = decisions_from w ps.
Proof.
  intros Hc. revert w; induction ps as [|z ps IH]; intros w; simpl; [reflexivity|].
  pose proof (decide_scale c w z Hc) as Hd.
  destruct (Rle_dec (dot (vscale c w) (vscale c z)) 0);
    destruct (Rle_dec (dot w z) 0); try discriminate.
  - rewrite vadd_vscale, IH. reflexivity.
  - rewrite IH. reflexivity.
Qed.

Lemma presented_scale c zs order :
  presented (map (vscale c) zs) order = map (vscale c) (presented zs order).
Proof.
  unfold presented, pattern. rewrite map_map. apply map_ext. intros i.
  change (@nil R) with (vscale c []) at 1. apply map_nth.
Qed.

(** The real run on the patterns scaled by c > 0: the same decisions and count, the
    weights scaled by c. *)
Theorem run_scale c zs order :
  0 < c ->
  run (map (vscale c) zs) order = (vscale c (weights zs order), updates zs order) /\
  decisions (map (vscale c) zs) order = decisions zs order.
Proof.
  intros Hc. unfold run, weights, updates, decisions, init.
  rewrite presented_scale. split.
  - change (@nil R) with (vscale c []) at 1. apply fold_step_scale; exact Hc.
  - change (@nil R) with (vscale c []) at 1. apply decisions_scale; exact Hc.
Qed.

(** On rational patterns z_i = Z_i / L (integer numerators Z_i, common scale L > 0) the
    real run's weights are the integer run's numerators over L, its count and its
    updated indices the integer run's. *)
Theorem zrun_rational (L : Z) zs order :
  (0 < L)%Z ->
  let '(w, k, tr) := zrun zs order in
  run (map (vscale (/ IZR L)) (injs zs)) order = (vscale (/ IZR L) (inj w), k) /\
  rev tr = updated_indices order (decisions (map (vscale (/ IZR L)) (injs zs)) order).
Proof.
  intros HL. assert (Hc : 0 < / IZR L) by (apply Rinv_0_lt_compat, IZR_lt; exact HL).
  pose proof (zrun_correct zs order) as H. pose proof (run_scale _ (injs zs) order Hc) as [Hs Hd].
  unfold weights, updates in Hs.
  destruct (zrun zs order) as [[w k] tr]. destruct H as [H1 [H2 _]].
  rewrite Hs, Hd, H1. split; [reflexivity|exact H2].
Qed.

(** ** Labelled samples: the reflection over Z *)

(** z = y (x, rho): the bias coordinate rho last, the label y in {-1, +1}. *)
Definition zreflect (yl : Z) (rho : Z) (x : zvec) : zvec := map (Z.mul yl) (x ++ [rho]).

Lemma zreflect_R yl rho x :
  inj (zreflect yl rho x) = vscale (IZR yl) (inj x ++ [IZR rho]).
Proof.
  unfold zreflect, inj, vscale. rewrite map_map, !map_app, map_map. simpl.
  rewrite mult_IZR. f_equal. apply map_ext. intros a. apply mult_IZR.
Qed.

(** ** Epochs until an epoch makes no update

    [zepochs zs perm_of fuel] runs epoch e = 0, 1, ... with the presentation order
    [perm_of e], stopping after the first epoch that makes no update ("converged") or
    after [fuel] epochs.  It returns the integer run's result, the number of epochs run,
    and whether it converged. *)

Fixpoint zepochs_from (zs : list zvec) (perm_of : nat -> list nat) (fuel e : nat)
    (w : zvec) (k : nat) (tr : list nat) : zvec * nat * list nat * nat * bool :=
  match fuel with
  | O => (w, k, tr, e, false)
  | S fuel' =>
      let '(w', k', tr') := zrun_from zs (perm_of e) w k tr in
      if Nat.eqb k' k then (w', k', tr', S e, true)
      else zepochs_from zs perm_of fuel' (S e) w' k' tr'
  end.

Definition zepochs (zs : list zvec) (perm_of : nat -> list nat) (fuel : nat) :=
  zepochs_from zs perm_of fuel 0 [] 0 [].

(** The presentations of epochs [e], ..., [e + n - 1]. *)
Fixpoint epochs_order (perm_of : nat -> list nat) (e n : nat) : list nat :=
  match n with
  | O => []
  | S n' => perm_of e ++ epochs_order perm_of (S e) n'
  end.

Lemma zrun_from_app zs o1 o2 w k tr :
  zrun_from zs (o1 ++ o2) w k tr =
  let '(w', k', tr') := zrun_from zs o1 w k tr in zrun_from zs o2 w' k' tr'.
Proof.
  revert w k tr; induction o1 as [|i o IH]; intros w k tr; simpl; [reflexivity|].
  destruct (zmistake w (zpattern zs i)); apply IH.
Qed.

Lemma zrun_from_still zs order w k tr :
  let '(w', k', tr') := zrun_from zs order w k tr in
  (k <= k')%nat /\ (k' = k -> w' = w /\ tr' = tr).
Proof.
  revert w k tr; induction order as [|i o IH]; intros w k tr; simpl; [split; auto|].
  destruct (zmistake w (zpattern zs i)).
  - specialize (IH (zvadd w (zpattern zs i)) (S k) (i :: tr)).
    destruct (zrun_from zs o (zvadd w (zpattern zs i)) (S k) (i :: tr)) as [[w' k'] tr'].
    destruct IH as [H _]. split; [lia|intros; lia].
  - apply IH.
Qed.

Lemma zepochs_from_spec zs perm_of fuel e w k tr :
  let '(w', k', tr', e', conv) := zepochs_from zs perm_of fuel e w k tr in
  (e <= e')%nat /\
  zrun_from zs (epochs_order perm_of e (e' - e)) w k tr = (w', k', tr') /\
  (conv = true -> (e < e')%nat /\
     zrun_from zs (perm_of (pred e')) w' k' tr' = (w', k', tr')).
Proof.
  revert e w k tr; induction fuel as [|fuel IH]; intros e w k tr; simpl.
  - rewrite Nat.sub_diag. simpl. split; [lia|]. split; [reflexivity|discriminate].
  - destruct (zrun_from zs (perm_of e) w k tr) as [[w1 k1] tr1] eqn:E1.
    destruct (Nat.eqb_spec k1 k) as [Heq|Hne].
    + subst k1. split; [lia|]. replace (S e - e)%nat with 1%nat by lia. simpl.
      rewrite app_nil_r, E1. split; [reflexivity|]. intros _. split; [lia|]. simpl.
      pose proof (zrun_from_still zs (perm_of e) w k tr) as Hs. rewrite E1 in Hs.
      destruct Hs as [_ Hs]. destruct (Hs eq_refl) as [-> ->]. exact E1.
    + specialize (IH (S e) w1 k1 tr1).
      destruct (zepochs_from zs perm_of fuel (S e) w1 k1 tr1) as [[[[w' k'] tr'] e'] conv].
      destruct IH as [Hle [Hrun Hconv]]. split; [lia|].
      replace (e' - e)%nat with (S (e' - S e)) by lia. simpl.
      rewrite zrun_from_app, E1. split; [exact Hrun|].
      intros Hc. destruct (Hconv Hc) as [Hl He]. split; [lia|exact He].
Qed.

(** The loop reports the run of [Perceptron.run] on the epochs it presented: the same
    weights, count and updated indices; when it says converged, presenting its last
    epoch's order once more changes nothing (that epoch made no update). *)
Theorem zepochs_correct zs perm_of fuel :
  let '(w, k, tr, E, conv) := zepochs zs perm_of fuel in
  let order := epochs_order perm_of 0 E in
  run (injs zs) order = (inj w, k) /\
  rev tr = updated_indices order (decisions (injs zs) order) /\
  length tr = k /\ (E <= fuel)%nat /\
  (conv = true -> (0 < E)%nat /\ zrun_from zs (perm_of (pred E)) w k tr = (w, k, tr)).
Proof.
  unfold zepochs. pose proof (zepochs_from_spec zs perm_of fuel 0 [] 0 []) as H.
  assert (Hf : forall f e w k tr, let '(_, _, _, e', _) := zepochs_from zs perm_of f e w k tr in
                                   (e' <= e + f)%nat).
  { induction f as [|f IH]; intros e w k tr; simpl; [lia|].
    destruct (zrun_from zs (perm_of e) w k tr) as [[w1 k1] tr1].
    destruct (Nat.eqb k1 k); [lia|]. specialize (IH (S e) w1 k1 tr1).
    destruct (zepochs_from zs perm_of f (S e) w1 k1 tr1) as [[[[? ?] ?] ?] ?]. lia. }
  specialize (Hf fuel 0%nat [] 0%nat []).
  destruct (zepochs_from zs perm_of fuel 0 [] 0 []) as [[[[w k] tr] E] conv].
  destruct H as [_ [Hrun Hconv]]. rewrite Nat.sub_0_r in Hrun.
  pose proof (zrun_correct zs (epochs_order perm_of 0 E)) as C. unfold zrun in C.
  rewrite Hrun in C. destruct C as [C1 [C2 C3]].
  split; [exact C1|]. split; [exact C2|]. split; [exact C3|]. split; [lia|].
  intros Hc. destruct (Hconv Hc) as [Hlt Heq]. split; [lia|exact Heq].
Qed.

(** ** The same loop over presented patterns (no list lookup in the hot loop)

    [zrun_from] looks each index up in the list of patterns ([nth]: linear in the
    index).  [zrun_pairs] runs over the pairs (index, pattern) of an epoch, computed once
    per order by [zpresent] (or, for the natural order, by [znatural] without any
    lookup); [zepochs_pairs] is the loop over them.  [zepochs_pairs_correct]: given any
    [pres_of] equal at every epoch to [zpresent zs (perm_of e)], it returns what
    [zepochs] returns, so [zepochs_correct] speaks about it. *)

Local Close Scope R_scope.

Definition zpresent (zs : list zvec) (perm : list nat) : list (nat * zvec) :=
  map (fun i => (i, zpattern zs i)) perm.

Fixpoint znatural_from (n : nat) (zs : list zvec) : list (nat * zvec) :=
  match zs with
  | [] => []
  | z :: zs' => (n, z) :: znatural_from (S n) zs'
  end.

Definition znatural (zs : list zvec) : list (nat * zvec) := znatural_from 0 zs.

Lemma znatural_present zs : znatural zs = zpresent zs (seq 0 (length zs)).
Proof.
  unfold znatural, zpresent, zpattern.
  assert (H : forall pre n, n = length pre ->
            znatural_from n zs = map (fun i => (i, nth i (pre ++ zs) [])) (seq n (length zs))).
  { induction zs as [|z zs IH]; intros pre n Hn; simpl; [reflexivity|].
    subst n. rewrite nth_middle. f_equal.
    replace (pre ++ z :: zs) with ((pre ++ [z]) ++ zs) by (rewrite <- app_assoc; reflexivity).
    apply IH. rewrite app_length. simpl. lia. }
  apply (H []). reflexivity.
Qed.

Fixpoint zrun_pairs (ps : list (nat * zvec)) (w : zvec) (k : nat) (tr : list nat)
  : zvec * nat * list nat :=
  match ps with
  | [] => (w, k, tr)
  | (i, z) :: ps' =>
      if zmistake w z then zrun_pairs ps' (zvadd w z) (S k) (i :: tr)
      else zrun_pairs ps' w k tr
  end.

Lemma zrun_pairs_present zs order w k tr :
  zrun_pairs (zpresent zs order) w k tr = zrun_from zs order w k tr.
Proof.
  revert w k tr; induction order as [|i o IH]; intros w k tr; simpl; [reflexivity|].
  destruct (zmistake w (zpattern zs i)); apply IH.
Qed.

Fixpoint zepochs_pairs_from (pres_of : nat -> list (nat * zvec)) (fuel e : nat)
    (w : zvec) (k : nat) (tr : list nat) : zvec * nat * list nat * nat * bool :=
  match fuel with
  | O => (w, k, tr, e, false)
  | S fuel' =>
      let '(w', k', tr') := zrun_pairs (pres_of e) w k tr in
      if Nat.eqb k' k then (w', k', tr', S e, true)
      else zepochs_pairs_from pres_of fuel' (S e) w' k' tr'
  end.

Definition zepochs_pairs (pres_of : nat -> list (nat * zvec)) (fuel : nat) :=
  zepochs_pairs_from pres_of fuel 0 [] 0 [].

Theorem zepochs_pairs_correct zs perm_of pres_of fuel :
  (forall e, pres_of e = zpresent zs (perm_of e)) ->
  zepochs_pairs pres_of fuel = zepochs zs perm_of fuel.
Proof.
  intros Hp. unfold zepochs_pairs, zepochs.
  assert (H : forall e w k tr,
             zepochs_pairs_from pres_of fuel e w k tr = zepochs_from zs perm_of fuel e w k tr);
    [|apply H].
  induction fuel as [|fuel IH]; intros e w k tr; simpl; [reflexivity|].
  rewrite Hp, zrun_pairs_present.
  destruct (zrun_from zs (perm_of e) w k tr) as [[w' k'] tr'].
  destruct (Nat.eqb k' k); [reflexivity|apply IH].
Qed.
