(** * The multiclass perceptron over integers, proved equal to [Multiclass.mrun].

    [Multiclass.mrun K data order] (Crammer and Singer's multiclass perceptron, as the
    development's Kesler-construction bound states it) predicts the first maximiser of
    w_j . x~ over the K classes and, on a wrong prediction r, adds x~ to w_y and subtracts
    it from w_r.  Here the weights are a list of K integer vectors (numerators over the
    common scale L of the data) and [zmrun_correct] states that the integer run's weights
    over L, its mistake count and its updated indices are those of [mrun] on the samples
    (X_i / L, y_i), for labels below K. *)

From Coq Require Import Reals List Lra Psatz Arith ZArith.
From Novikoff Require Import Vectors Multiclass.
From NovikoffExtracted Require Import ZPerceptron.
Import ListNotations.

Definition zvsub (u v : zvec) : zvec := zvadd u (map Z.opp v).

(** The first maximiser of the scores s_0 .. s_{K-1} (the structure of [Multiclass.amax]). *)
Fixpoint zamax (f : nat -> Z) (K : nat) : nat :=
  match K with
  | O => O
  | S K' => let b := zamax f K' in if Z.ltb (f b) (f K') then K' else b
  end.

Definition zscores (Ws : list zvec) (x : zvec) : list Z := map (fun w => zdot_acc 0 w x) Ws.
Definition zpredict (K : nat) (Ws : list zvec) (x : zvec) : nat :=
  let s := zscores Ws x in zamax (fun j => nth j s 0%Z) K.

Fixpoint zmupd (j : nat) (Ws : list zvec) (x : zvec) (y r : nat) : list zvec :=
  match Ws with
  | [] => []
  | w :: Ws' =>
      (if Nat.eqb j y then zvadd w x else if Nat.eqb j r then zvsub w x else w)
        :: zmupd (S j) Ws' x y r
  end.

(** One presentation of sample i: predict; on a wrong prediction update two classes. *)
Fixpoint zmrun_from (K : nat) (data : list (zvec * nat)) (order : list nat)
    (Ws : list zvec) (k : nat) (tr : list nat) : list zvec * nat * list nat :=
  match order with
  | [] => (Ws, k, tr)
  | i :: o =>
      let '(x, y) := nth i data ([], 0%nat) in
      let r := zpredict K Ws x in
      if Nat.eqb r y then zmrun_from K data o Ws k tr
      else zmrun_from K data o (zmupd 0 Ws x y r) (S k) (i :: tr)
  end.

Fixpoint zmepochs_from (K : nat) (data : list (zvec * nat)) (perm_of : nat -> list nat)
    (fuel e : nat) (Ws : list zvec) (k : nat) (tr : list nat) : list zvec * nat * list nat * nat * bool :=
  match fuel with
  | O => (Ws, k, tr, e, false)
  | S fuel' =>
      let '(Ws', k', tr') := zmrun_from K data (perm_of e) Ws k tr in
      if Nat.eqb k' k then (Ws', k', tr', S e, true)
      else zmepochs_from K data perm_of fuel' (S e) Ws' k' tr'
  end.

Definition zmepochs K data perm_of fuel := zmepochs_from K data perm_of fuel 0 (repeat [] K) 0 [].

Local Open Scope R_scope.

Section Scale.

Variable c : R.
Hypothesis Hc : 0 < c.
Definition sv (u : zvec) : vec := vscale c (inj u).

Lemma sv_vadd u v : sv (zvadd u v) = vadd (sv u) (sv v).
Proof. unfold sv. rewrite zvadd_R, vadd_vscale. reflexivity. Qed.

Lemma sv_vsub u v : sv (zvsub u v) = vsub (sv u) (sv v).
Proof.
  unfold zvsub, vsub. rewrite sv_vadd. f_equal. unfold sv, vscale, inj.
  rewrite !map_map. apply map_ext. intros a. rewrite opp_IZR. ring.
Qed.

Lemma amax_scores (g : nat -> Z) K :
  amax (fun j => c * c * IZR (g j)) K = zamax g K.
Proof.
  induction K as [|K IH]; simpl; [reflexivity|]. rewrite IH.
  assert (Hcc : 0 < c * c) by nra.
  destruct (Rlt_dec (c * c * IZR (g (zamax g K))) (c * c * IZR (g K))) as [H|H];
    destruct (Z.ltb_spec (g (zamax g K)) (g K)) as [H'|H']; try reflexivity; exfalso.
  - apply IZR_le in H'. nra.
  - apply H. apply Rmult_lt_compat_l; [exact Hcc|]. apply IZR_lt. exact H'.
Qed.

(** The real weights [Wr] stand for the integer ones [Ws]: class j's vector is [sv (nth j Ws [])]. *)
Definition rel (Wr : mweights) (Ws : list zvec) : Prop := forall j, Wr j = sv (nth j Ws []).

Lemma amax_ext f g K : (forall j, f j = g j) -> amax f K = amax g K.
Proof.
  intros H. induction K as [|K IH]; simpl; [reflexivity|]. rewrite IH, !H. reflexivity.
Qed.

Lemma predict_rel K Wr Ws x : rel Wr Ws -> predict K Wr (sv x) = zpredict K Ws x.
Proof.
  intros H. unfold predict, zpredict, zscores.
  rewrite <- (amax_scores (fun j => nth j (map (fun w => zdot_acc 0 w x) Ws) 0%Z)).
  apply amax_ext. intros j. rewrite H. unfold sv. rewrite dot_vscale_l, dot_vscale_r, <- zdot_R.
  assert (E : nth j (map (fun w => zdot_acc 0 w x) Ws) 0%Z = zdot_acc 0 (nth j Ws []) x)
    by exact (map_nth (fun w => zdot_acc 0 w x) Ws [] j).
  rewrite E, zdot_acc_spec, Z.add_0_l. ring.
Qed.

Lemma nth_zmupd Ws x y r p n :
  nth p (zmupd n Ws x y r) [] =
  if (p <? length Ws)%nat then
    (if Nat.eqb (n + p) y then zvadd (nth p Ws []) x
     else if Nat.eqb (n + p) r then zvsub (nth p Ws []) x else nth p Ws [])
  else [].
Proof.
  revert p n. induction Ws as [|w Ws IH]; intros p n; simpl.
  - destruct p; reflexivity.
  - destruct p as [|p].
    + rewrite Nat.add_0_r. reflexivity.
    + rewrite IH. replace (S n + p)%nat with (n + S p)%nat by lia.
      destruct (Nat.ltb_spec p (length Ws)) as [H|H];
        destruct (Nat.ltb_spec (S p) (S (length Ws))) as [H'|H']; try reflexivity; lia.
Qed.

Lemma zmupd_length n Ws x y r : length (zmupd n Ws x y r) = length Ws.
Proof. revert n; induction Ws as [|w Ws IH]; intros n; simpl; [reflexivity|]. rewrite IH. reflexivity. Qed.

Lemma nth_zmupd0 Ws x y r j :
  (y < length Ws)%nat -> (r < length Ws)%nat ->
  nth j (zmupd 0 Ws x y r) [] =
  if Nat.eqb j y then zvadd (nth j Ws []) x
  else if Nat.eqb j r then zvsub (nth j Ws []) x else nth j Ws [].
Proof.
  intros Hy Hr. rewrite nth_zmupd. simpl.
  destruct (Nat.ltb_spec j (length Ws)) as [Hj|Hj]; [reflexivity|].
  rewrite nth_overflow by lia.
  destruct (Nat.eqb_spec j y); [lia|]. destruct (Nat.eqb_spec j r); [lia|]. reflexivity.
Qed.

Lemma rel_update Wr Ws x y r :
  rel Wr Ws -> (y < length Ws)%nat -> (r < length Ws)%nat ->
  rel (mupdate Wr (sv x) y r) (zmupd 0 Ws x y r).
Proof.
  intros H Hy Hr j. unfold mupdate. rewrite nth_zmupd0 by assumption.
  destruct (Nat.eqb j y); [rewrite sv_vadd, H; reflexivity|].
  destruct (Nat.eqb j r); [rewrite sv_vsub, H; reflexivity|apply H].
Qed.

Definition sdata (data : list (zvec * nat)) : list Multiclass.sample :=
  map (fun s => (sv (fst s), snd s)) data.

(** Every label is a class: y_i < K. *)
Definition labels_below (K : nat) (data : list (zvec * nat)) : Prop :=
  forall s, In s data -> (snd s < K)%nat.

(** The indices the real multiclass run updates on (a wrong prediction). *)
Fixpoint mtrace (K : nat) (data : list Multiclass.sample) (order : list nat) (s : mstate) : list nat :=
  match order with
  | [] => []
  | i :: o =>
      let xy := msample data i in
      if Nat.eqb (predict K (fst s) (fst xy)) (snd xy) then mtrace K data o (mstep K s xy)
      else i :: mtrace K data o (mstep K s xy)
  end.

Lemma zmrun_from_R K data order Wr Ws k tr :
  (0 < K)%nat -> labels_below K data -> length Ws = K -> rel Wr Ws ->
  let '(Ws', k', tr') := zmrun_from K data order Ws k tr in
  rel (fst (fold_left (mstep K) (map (msample (sdata data)) order) (Wr, k))) Ws' /\
  snd (fold_left (mstep K) (map (msample (sdata data)) order) (Wr, k)) = k' /\
  length Ws' = K /\ (k <= k')%nat /\ (k' = k -> Ws' = Ws /\ tr' = tr) /\
  rev tr' = rev tr ++ mtrace K (sdata data) order (Wr, k).
Proof.
  intros HK Hlab. revert Wr Ws k tr.
  induction order as [|i o IH]; intros Wr Ws k tr Hlen Hrel; simpl.
  - rewrite app_nil_r. repeat split; auto.
  - assert (Hs : msample (sdata data) i = (sv (fst (nth i data ([], 0%nat))), snd (nth i data ([], 0%nat)))).
    { unfold msample, sdata.
      exact (map_nth (fun s : zvec * nat => (sv (fst s), snd s)) data ([], 0%nat) i). }
    rewrite Hs. destruct (nth i data ([], 0%nat)) as [x y] eqn:Ex. simpl.
    unfold mstep at 2. cbn [fst snd]. rewrite (predict_rel K Wr Ws x Hrel).
    destruct (Nat.eqb (zpredict K Ws x) y).
    + apply IH; assumption.
    + assert (Hy : (y < K)%nat).
      { destruct (Nat.ltb_spec i (length data)) as [Hi|Hi].
        - pose proof (Hlab (nth i data ([], 0%nat)) (nth_In _ _ Hi)) as H. rewrite Ex in H. exact H.
        - rewrite nth_overflow in Ex by lia. inversion Ex. exact HK. }
      assert (Hr : (zpredict K Ws x < K)%nat).
      { unfold zpredict. rewrite <- (amax_scores (fun j => nth j (zscores Ws x) 0%Z)).
        apply amax_lt. exact HK. }
      specialize (IH (mupdate Wr (sv x) y (zpredict K Ws x)) (zmupd 0 Ws x y (zpredict K Ws x)) (S k) (i :: tr)).
      destruct (zmrun_from K data o (zmupd 0 Ws x y (zpredict K Ws x)) (S k) (i :: tr)) as [[Ws' k'] tr'].
      destruct IH as [I1 [I2 [I3 [I4 [_ I6]]]]].
      { rewrite zmupd_length. exact Hlen. }
      { apply rel_update; [exact Hrel|lia|lia]. }
      repeat split; try assumption; try lia.
      rewrite I6. simpl. rewrite <- app_assoc. reflexivity.
Qed.

Lemma zmrun_from_app K data o1 o2 Ws k tr :
  zmrun_from K data (o1 ++ o2) Ws k tr =
  let '(Ws', k', tr') := zmrun_from K data o1 Ws k tr in zmrun_from K data o2 Ws' k' tr'.
Proof.
  revert Ws k tr; induction o1 as [|i o IH]; intros Ws k tr; simpl; [reflexivity|].
  destruct (nth i data ([], 0%nat)) as [x y].
  destruct (Nat.eqb (zpredict K Ws x) y); apply IH.
Qed.

Lemma zmepochs_from_spec K data perm_of fuel e Ws k tr :
  let '(Ws', k', tr', e', _) := zmepochs_from K data perm_of fuel e Ws k tr in
  (e <= e')%nat /\ zmrun_from K data (epochs_order perm_of e (e' - e)) Ws k tr = (Ws', k', tr').
Proof.
  revert e Ws k tr; induction fuel as [|fuel IH]; intros e Ws k tr; simpl.
  - rewrite Nat.sub_diag. split; [lia|reflexivity].
  - destruct (zmrun_from K data (perm_of e) Ws k tr) as [[Ws1 k1] tr1] eqn:E1.
    destruct (Nat.eqb k1 k).
    + split; [lia|]. replace (S e - e)%nat with 1%nat by lia. simpl. rewrite app_nil_r. exact E1.
    + specialize (IH (S e) Ws1 k1 tr1).
      destruct (zmepochs_from K data perm_of fuel (S e) Ws1 k1 tr1) as [[[[Ws' k'] tr'] e'] conv].
      destruct IH as [Hle Hrun]. split; [lia|].
      replace (e' - e)%nat with (S (e' - S e)) by lia. simpl.
      rewrite zmrun_from_app, E1. exact Hrun.
Qed.

Lemma nth_repeat_nil K j : nth j (repeat ([] : zvec) K) [] = [].
Proof. revert j; induction K as [|K IH]; intros [|j]; simpl; auto. Qed.

(** The integer multiclass loop is [mrun] on the samples (X_i c, y_i) over the epochs it
    presented: class j's weights are c times the integer ones, the mistake count is its
    count (labels below K, K > 0). *)
Theorem zmepochs_correct K data perm_of fuel :
  (0 < K)%nat -> labels_below K data ->
  let '(Ws, k, tr, E, conv) := zmepochs K data perm_of fuel in
  (forall j, fst (mrun K (sdata data) (epochs_order perm_of 0 E)) j = sv (nth j Ws [])) /\
  mistakes K (sdata data) (epochs_order perm_of 0 E) = k /\ length Ws = K /\
  rev tr = mtrace K (sdata data) (epochs_order perm_of 0 E) minit.
Proof.
  intros HK Hlab. unfold zmepochs.
  pose proof (zmepochs_from_spec K data perm_of fuel 0 (repeat [] K) 0 []) as H.
  destruct (zmepochs_from K data perm_of fuel 0 (repeat [] K) 0 []) as [[[[Ws k] tr] E] conv].
  destruct H as [_ Hrun]. rewrite Nat.sub_0_r in Hrun.
  pose proof (zmrun_from_R K data (epochs_order perm_of 0 E) (fun _ => []) (repeat [] K) 0 [] HK Hlab
                (repeat_length _ _) (fun j => eq_sym (f_equal sv (nth_repeat_nil K j)))) as R.
  rewrite Hrun in R. destruct R as [R1 [R2 [R3 [_ [_ R6]]]]].
  unfold mistakes, mrun, minit. split; [exact R1|]. split; [exact R2|]. split; [exact R3|exact R6].
Qed.

End Scale.
