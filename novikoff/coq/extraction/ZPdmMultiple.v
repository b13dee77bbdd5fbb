(** * PDM with multiple updates over integers, proved equal to the real run.

    The PDM paper's multiple updates: on a mistake of PDM(eps) at (w, t), the pattern z is
    added n times at once, n the smallest count >= 1 after which the PDM condition fails at
    (w + n z, t + n).  [LargeMargin.mu_count] defines that n over the reals, as
    floor(root) + 1 of the quadratic [mu_quad] ([Int_part] of a real square root), and
    [LargeMargin.mu_repeated_run] shows it is what presenting z again and again does.  Here:

    - [pdm_mu_run]: the real run with that step ([pdm_mu_step]), and [pdm_mu_step_repeated]:
      at t >= 1 one step is the n single PDM steps on z;
    - [zmu_count]: the count over [Z], (isqrt(b^2 + 4 a c) - b) / (2 a) + 1 with
      a = en q, b = ed t q - (ed - 2 en) p, c = (ed - en) ||W||^2 - ed t p (p = W.Z,
      q = ||Z||^2, eps = en / ed), and [zmu_count_R]: it is [mu_count] of the real state;
    - [zpdm_mu_correct]: the integer epoch loop [zmu_epochs] (weights, count, the updated
      indices, each repeated as often as it was added) is [pdm_mu_run] on the patterns
      Z_i / L, for eps in (0, 1] and patterns with ||Z_i|| > 0 (for z = 0 no count exists:
      the condition never fails). *)

From Coq Require Import Reals List Lra Psatz Arith ZArith.
From Novikoff Require Import Vectors Perceptron LargeMargin.
From NovikoffExtracted Require Import ZPerceptron ZLargeMargin ZPdmSucc.
Import ListNotations.

(** ** The real run with multiple updates *)

Local Open Scope R_scope.

(** The count at the state [s] for the pattern [z]. *)
Definition mu_n (eps : R) (s : state) (z : vec) : nat :=
  mu_count eps (INR (snd s)) (dot (fst s) z) (norm2 z) (norm2 (fst s)).

Definition pdm_mu_step (eps : R) (s : state) (z : vec) : state :=
  if pdm_test eps (fst s) (snd s) z
  then (rep_add (fst s) z (mu_n eps s z), (snd s + mu_n eps s z)%nat) else s.

Definition pdm_mu_run (eps : R) (zs : list vec) (order : list nat) : state :=
  fold_left (pdm_mu_step eps) (presented zs order) init.

(** The updated indices, each as many times as its pattern was added. *)
Fixpoint mu_trace (eps : R) (ps : list (nat * vec)) (s : state) : list nat :=
  match ps with
  | [] => []
  | (i, z) :: ps' =>
      if pdm_test eps (fst s) (snd s) z
      then repeat i (mu_n eps s z) ++ mu_trace eps ps' (pdm_mu_step eps s z)
      else mu_trace eps ps' s
  end.

(** At t >= 1 a multiple update is the single PDM steps on z, presented at least n times. *)
Theorem pdm_mu_step_repeated eps w t z M :
  0 < eps -> 0 < norm2 z -> (1 <= t)%nat -> pdm_test eps w t z = true ->
  (mu_n eps (w, t) z <= M)%nat ->
  pdm_mu_step eps (w, t) z = fold_left (pdm_step eps) (repeat z M) (w, t).
Proof.
  intros He Hq Ht Htest HM.
  assert (H0 : INR t * dot w z <= (1 - eps) * norm2 w).
  { unfold pdm_test in Htest. destruct t as [|t']; [lia|].
    destruct Rle_dec as [H|]; [exact H|discriminate]. }
  rewrite (mu_repeated_run eps w z t M He Hq Ht H0). unfold pdm_mu_step. cbn [fst snd]. rewrite Htest.
  unfold mu_n in *. cbn [fst snd] in HM. rewrite Nat.min_r by exact HM. reflexivity.
Qed.

(** ** The count over Z *)

Local Open Scope Z_scope.

(** For a > 0, c >= 0 and n >= 0: a n^2 + b n - c > 0 iff n >= (isqrt(b^2 + 4ac) - b) / (2a) + 1. *)
Lemma zquad_count a b c n :
  0 < a -> 0 <= c -> 0 <= n ->
  (0 < a * n * n + b * n - c <-> (Z.sqrt (b * b + 4 * a * c) - b) / (2 * a) + 1 <= n).
Proof.
  intros Ha Hc Hn.
  set (D := b * b + 4 * a * c).
  assert (HD : 0 <= D) by (unfold D; nia).
  destruct (Z.sqrt_spec D HD) as [Hr1 Hr2]. pose proof (Z.sqrt_nonneg D) as Hr0.
  set (r := Z.sqrt D) in *.
  assert (Key : 4 * a * (a * n * n + b * n - c) = (2 * a * n + b) * (2 * a * n + b) - D)
    by (unfold D; ring).
  assert (Ha2 : 0 < 2 * a) by lia.
  split; intros H.
  - (* the value is positive: 2 a n + b > isqrt D *)
    assert (Hm : r < 2 * a * n + b).
    { destruct (Z_lt_le_dec r (2 * a * n + b)) as [|Hle]; [assumption|exfalso].
      destruct (Z_lt_le_dec (2 * a * n + b) 0) as [Hneg|Hpos].
      + assert (b * n <= - 2 * a * n * n) by nia. nia.
      + assert ((2 * a * n + b) * (2 * a * n + b) <= r * r) by nia. nia. }
    assert (Hq : (r - b) / (2 * a) < n) by (apply Z.div_lt_upper_bound; [exact Ha2|lia]).
    lia.
  - assert (Hq : (r - b) / (2 * a) <= n - 1) by lia.
    pose proof (Z.mod_pos_bound (r - b) (2 * a) Ha2) as Hmod.
    pose proof (Z.div_mod (r - b) (2 * a) ltac:(lia)) as Hdm.
    assert (Hm : r - b < 2 * a * n) by nia.
    assert (Hm1 : Z.succ r <= 2 * a * n + b) by lia.
    assert (Z.succ r * Z.succ r <= (2 * a * n + b) * (2 * a * n + b)) by nia.
    nia.
Qed.

Definition zmu_count (en ed t p q w2 : Z) : Z :=
  let a := en * q in
  let b := ed * t * q - (ed - 2 * en) * p in
  let c := (ed - en) * w2 - ed * t * p in
  (Z.sqrt (b * b + 4 * a * c) - b) / (2 * a) + 1.

Lemma zdot_nonneg u : 0 <= zdot u u.
Proof. apply le_IZR. rewrite zdot_R. apply norm2_nonneg. Qed.

Local Open Scope R_scope.

Lemma nat_threshold_unique (P : nat -> Prop) (a b : nat) :
  (forall n, P n <-> (a <= n)%nat) -> (forall n, P n <-> (b <= n)%nat) -> a = b.
Proof.
  intros Ha Hb. assert (a <= b)%nat by (apply Ha, Hb; lia).
  assert (b <= a)%nat by (apply Hb, Ha; lia). lia.
Qed.

(** The integer count is [mu_count] at the real state (w, t) = (W / L, t), z = Z / L, after
    a PDM mistake there, for eps = en / ed in (0, 1] and Z <> 0. *)
Theorem zmu_count_R en ed L W t Zv :
  (0 < en)%Z -> (en <= ed)%Z -> (0 < L)%Z -> (0 < zdot Zv Zv)%Z ->
  zpdm_test en ed W (Z.of_nat t) Zv = true ->
  (1 <= zmu_count en ed (Z.of_nat t) (zdot W Zv) (zdot Zv Zv) (zdot W W))%Z /\
  Z.to_nat (zmu_count en ed (Z.of_nat t) (zdot W Zv) (zdot Zv Zv) (zdot W W))
  = mu_n (IZR en / IZR ed) (sc (/ IZR L) W, t) (sc (/ IZR L) Zv).
Proof.
  intros Hen Hed HL Hq Htest.
  set (p := zdot W Zv). set (q := zdot Zv Zv). set (w2 := zdot W W). set (tz := Z.of_nat t).
  set (a := (en * q)%Z). set (b := (ed * tz * q - (ed - 2 * en) * p)%Z).
  set (c := ((ed - en) * w2 - ed * tz * p)%Z).
  assert (Ha : (0 < a)%Z) by (unfold a; nia).
  assert (Hc : (0 <= c)%Z).
  { unfold zpdm_test in Htest. rewrite !zdot_acc_spec, !Z.add_0_l in Htest.
    pose proof (zdot_nonneg W) as Hw. unfold c, tz, w2, p.
    destruct (Z.eqb_spec (Z.of_nat t) 0) as [E|E].
    - rewrite E. nia.
    - apply Z.leb_le in Htest. nia. }
  assert (Hz : forall n : Z, (0 <= n)%Z ->
            ((0 < a * n * n + b * n - c)%Z <-> (zmu_count en ed tz p q w2 <= n)%Z)).
  { intros n Hn. unfold zmu_count. fold a b c. apply zquad_count; assumption. }
  assert (H1 : (1 <= zmu_count en ed tz p q w2)%Z).
  { destruct (Z_le_gt_dec 1 (zmu_count en ed tz p q w2)) as [|Hlt]; [assumption|exfalso].
    assert (H0 : (zmu_count en ed tz p q w2 <= 0)%Z) by lia. apply (Hz 0%Z (Z.le_refl 0)) in H0. lia. }
  split; [exact H1|].
  (* the real quadratic is the integer one times / (ed L^2) > 0 *)
  set (k := / IZR L * / IZR L / IZR ed).
  assert (Hed0 : (0 < ed)%Z) by lia.
  assert (Hk : 0 < k).
  { unfold k. apply Rmult_lt_0_compat; [|apply Rinv_0_lt_compat, IZR_lt; exact Hed0].
    assert (0 < / IZR L) by (apply Rinv_0_lt_compat, IZR_lt; exact HL). nra. }
  assert (Hquad : forall n : nat,
            mu_quad (IZR en / IZR ed) (INR t) (dot (sc (/ IZR L) W) (sc (/ IZR L) Zv))
              (norm2 (sc (/ IZR L) Zv)) (norm2 (sc (/ IZR L) W)) (INR n)
            = k * IZR (a * Z.of_nat n * Z.of_nat n + b * Z.of_nat n - c)).
  { intros n. unfold norm2. rewrite !dot_sc. unfold mu_quad, k, a, b, c, tz, p, q, w2.
    repeat rewrite ?minus_IZR, ?plus_IZR, ?mult_IZR. rewrite <- !INR_IZR_INZ.
    assert (IZR ed <> 0) by (apply not_0_IZR; lia).
    assert (IZR L <> 0) by (apply not_0_IZR; lia). field. split; assumption. }
  assert (HR : forall n : nat,
            mu_quad (IZR en / IZR ed) (INR t) (dot (sc (/ IZR L) W) (sc (/ IZR L) Zv))
              (norm2 (sc (/ IZR L) Zv)) (norm2 (sc (/ IZR L) W)) (INR n) > 0
            <-> (Z.to_nat (zmu_count en ed tz p q w2) <= n)%nat).
  { intros n. rewrite Hquad. split; intros H.
    - assert (Hn : (zmu_count en ed tz p q w2 <= Z.of_nat n)%Z).
      { apply Hz; [lia|]. apply lt_IZR. apply Rmult_lt_reg_l with k; [exact Hk|].
        rewrite Rmult_0_r. lra. }
      lia.
    - assert (Hn : (zmu_count en ed tz p q w2 <= Z.of_nat n)%Z) by lia.
      apply Hz in Hn; [|lia]. apply IZR_lt in Hn. apply Rlt_gt.
      apply Rmult_lt_0_compat; [exact Hk|exact Hn]. }
  (* the real count's premises: eps > 0, ||z||^2 > 0, the condition at n = 0 *)
  assert (He : 0 < IZR en / IZR ed).
  { apply Rdiv_lt_0_compat; apply IZR_lt; lia. }
  assert (Hq' : 0 < norm2 (sc (/ IZR L) Zv)).
  { unfold norm2. rewrite dot_sc. apply Rmult_lt_0_compat.
    - assert (0 < / IZR L) by (apply Rinv_0_lt_compat, IZR_lt; exact HL). nra.
    - apply IZR_lt. exact Hq. }
  assert (H0 : 0 <= (1 - IZR en / IZR ed) * norm2 (sc (/ IZR L) W)
                    - INR t * dot (sc (/ IZR L) W) (sc (/ IZR L) Zv)).
  { replace ((1 - IZR en / IZR ed) * norm2 (sc (/ IZR L) W) - INR t * dot (sc (/ IZR L) W) (sc (/ IZR L) Zv))
      with (k * IZR c).
    - apply Rmult_le_pos; [lra|]. apply IZR_le. exact Hc.
    - unfold norm2. rewrite !dot_sc. unfold k, c, tz, p, w2.
      repeat rewrite ?minus_IZR, ?plus_IZR, ?mult_IZR. rewrite <- !INR_IZR_INZ.
      assert (IZR ed <> 0) by (apply not_0_IZR; lia).
      assert (IZR L <> 0) by (apply not_0_IZR; lia). field. split; assumption. }
  destruct (mu_count_spec _ _ _ _ _ He Hq' H0) as [_ [_ [_ Hspec]]].
  unfold mu_n. cbn [fst snd].
  apply (nat_threshold_unique _ _ _ HR). exact Hspec.
Qed.

(** ** The integer loop *)

Local Open Scope Z_scope.

(** w + n z, adding z n times (as [LargeMargin.rep_add]), and i :: ... :: i :: acc. *)
Fixpoint zrep_add (w z : zvec) (n : nat) : zvec :=
  match n with O => w | S n' => zrep_add (zvadd w z) z n' end.

Fixpoint zrep_idx (i n : nat) (acc : list nat) : list nat :=
  match n with O => acc | S n' => zrep_idx i n' (i :: acc) end.

Fixpoint zmu_pairs (en ed : Z) (ps : list (nat * zvec)) (w : zvec) (k : nat) (kz : Z)
    (tr : list nat) : zvec * nat * Z * list nat :=
  match ps with
  | [] => (w, k, kz, tr)
  | (i, z) :: ps' =>
      if zpdm_test en ed w kz z then
        let nz := zmu_count en ed kz (zdot_acc 0 w z) (zdot_acc 0 z z) (zdot_acc 0 w w) in
        let n := Z.to_nat nz in
        zmu_pairs en ed ps' (zrep_add w z n) (k + n)%nat (kz + nz) (zrep_idx i n tr)
      else zmu_pairs en ed ps' w k kz tr
  end.

Fixpoint zmu_epochs_from (en ed : Z) (pres_of : nat -> list (nat * zvec)) (fuel e : nat)
    (w : zvec) (k : nat) (kz : Z) (tr : list nat) : zvec * nat * Z * list nat * nat * bool :=
  match fuel with
  | O => (w, k, kz, tr, e, false)
  | S fuel' =>
      let '(w', k', kz', tr') := zmu_pairs en ed (pres_of e) w k kz tr in
      if Nat.eqb k' k then (w', k', kz', tr', S e, true)
      else zmu_epochs_from en ed pres_of fuel' (S e) w' k' kz' tr'
  end.

Definition zmu_epochs en ed pres_of fuel := zmu_epochs_from en ed pres_of fuel 0 [] 0 0%Z [].

Local Open Scope R_scope.

Lemma iter_succ_r {A : Type} (f : A -> A) n x : Nat.iter (S n) f x = Nat.iter n f (f x).
Proof. induction n as [|n IH]; [reflexivity|]. simpl in *. rewrite <- IH. reflexivity. Qed.

Lemma zrep_add_R c w z n : sc c (zrep_add w z n) = rep_add (sc c w) (sc c z) n.
Proof.
  unfold rep_add. revert w; induction n as [|n IH]; intros w; [reflexivity|].
  cbn [zrep_add]. rewrite IH, iter_succ_r, sc_vadd. reflexivity.
Qed.

Lemma zrep_idx_repeat i n acc : zrep_idx i n acc = repeat i n ++ acc.
Proof.
  revert acc; induction n as [|n IH]; intros acc; [reflexivity|]. cbn [zrep_idx].
  rewrite IH. change (i :: acc) with ([i] ++ acc). rewrite app_assoc.
  f_equal. change (repeat i (S n)) with (i :: repeat i n). clear.
  induction n as [|n IH]; [reflexivity|]. simpl. rewrite IH. reflexivity.
Qed.

Lemma rev_repeat_nat (i n : nat) : rev (repeat i n) = repeat i n.
Proof.
  induction n as [|n IH]; [reflexivity|]. simpl. rewrite IH.
  change [i] with (repeat i 1). rewrite <- repeat_app, Nat.add_comm. reflexivity.
Qed.

Section Multiple.

Variables (en ed L : Z).
Hypotheses (Hen : (0 < en)%Z) (Hed : (en <= ed)%Z) (HL : (0 < L)%Z).
Local Notation eps := (IZR en / IZR ed).
Local Notation c := (/ IZR L).

Lemma zmu_pairs_R ps w k tr :
  Forall (fun p => (0 < zdot (snd p) (snd p))%Z) ps ->
  let '(w', k', kz', tr') := zmu_pairs en ed ps w k (Z.of_nat k) tr in
  fold_left (pdm_mu_step eps) (map (fun p => sc c (snd p)) ps) (sc c w, k) = (sc c w', k') /\
  kz' = Z.of_nat k' /\
  rev tr' = rev tr ++ mu_trace eps (map (scp c) ps) (sc c w, k) /\
  (k <= k')%nat /\ (k' = k -> w' = w /\ tr' = tr).
Proof.
  revert w k tr; induction ps as [|[i z] ps IH]; intros w k tr Hpos; simpl.
  - rewrite app_nil_r. repeat split; auto.
  - inversion Hpos as [|? ? Hq Hrest]; subst. simpl in Hq.
    unfold pdm_mu_step at 2; cbn [fst snd].
    rewrite <- (zpdm_test_R en ed L w k z ltac:(lia) HL).
    destruct (zpdm_test en ed w (Z.of_nat k) z) eqn:Ht.
    + rewrite !zdot_acc_spec, !Z.add_0_l.
      destruct (zmu_count_R en ed L w k z Hen Hed HL Hq Ht) as [H1 Hn].
      set (nz := zmu_count en ed (Z.of_nat k) (zdot w z) (zdot z z) (zdot w w)) in *.
      assert (Ekz : (Z.of_nat k + nz)%Z = Z.of_nat (k + Z.to_nat nz)) by lia.
      rewrite Ekz. specialize (IH (zrep_add w z (Z.to_nat nz)) (k + Z.to_nat nz)%nat
                                 (zrep_idx i (Z.to_nat nz) tr) Hrest).
      destruct (zmu_pairs en ed ps (zrep_add w z (Z.to_nat nz)) (k + Z.to_nat nz)
                  (Z.of_nat (k + Z.to_nat nz)) (zrep_idx i (Z.to_nat nz) tr)) as [[[w' k'] kz'] tr'].
      destruct IH as [I1 [I2 [I3 [I4 _]]]].
      assert (Hs : pdm_mu_step eps (sc c w, k) (sc c z)
                   = (sc c (zrep_add w z (Z.to_nat nz)), (k + Z.to_nat nz)%nat)).
      { unfold pdm_mu_step. cbn [fst snd].
        rewrite <- (zpdm_test_R en ed L w k z ltac:(lia) HL), Ht, zrep_add_R, Hn. reflexivity. }
      rewrite Hs, <- Hn, <- zrep_add_R.
      split; [exact I1|]. split; [exact I2|].
      split; [rewrite I3, zrep_idx_repeat, rev_app_distr, rev_repeat_nat, <- app_assoc; reflexivity|].
      split; lia.
    + unfold scp at 1; cbn [fst snd]. apply IH. exact Hrest.
Qed.

Lemma mu_trace_app ps1 ps2 s :
  mu_trace eps (ps1 ++ ps2) s =
  mu_trace eps ps1 s ++ mu_trace eps ps2 (fold_left (pdm_mu_step eps) (map snd ps1) s).
Proof.
  revert s; induction ps1 as [|[i z] ps IH]; intros s; [reflexivity|]. simpl.
  destruct (pdm_test eps (fst s) (snd s) z) eqn:E.
  - rewrite IH, <- app_assoc. reflexivity.
  - assert (K : pdm_mu_step eps s z = s) by (unfold pdm_mu_step; rewrite E; reflexivity).
    rewrite K. apply IH.
Qed.

Variable Zs : list zvec.
Hypothesis Hpos : Forall (fun Z => (0 < zdot Z Z)%Z) Zs.

Lemma zpresent_pos order :
  valid_order (zsR c Zs) order -> Forall (fun p => (0 < zdot (snd p) (snd p))%Z) (zpresent Zs order).
Proof.
  unfold valid_order, zsR. rewrite map_length. intros Hv.
  unfold zpresent. apply Forall_map. eapply Forall_impl; [|exact Hv]. intros i Hi. simpl.
  rewrite Forall_forall in Hpos. apply Hpos. unfold zpattern. apply nth_In. exact Hi.
Qed.

Lemma present_sc_pairs order :
  map (fun p => sc c (snd p)) (zpresent Zs order) = map snd (rpresent (zsR c Zs) order).
Proof.
  destruct (present_sc c Zs order) as [P1 _]. rewrite P1.
  unfold rpresent, presented. rewrite map_map. reflexivity.
Qed.

Lemma zmu_epochs_from_R perm_of pres_of fuel e w k tr :
  (forall e, pres_of e = zpresent Zs (perm_of e)) ->
  (forall e, valid_order (zsR c Zs) (perm_of e)) ->
  let '(w', k', kz', tr', e', conv) := zmu_epochs_from en ed pres_of fuel e w k (Z.of_nat k) tr in
  let o := epochs_order perm_of e (e' - e) in
  (e <= e' <= e + fuel)%nat /\
  fold_left (pdm_mu_step eps) (presented (zsR c Zs) o) (sc c w, k) = (sc c w', k') /\
  kz' = Z.of_nat k' /\
  rev tr' = rev tr ++ mu_trace eps (rpresent (zsR c Zs) o) (sc c w, k) /\
  (conv = true -> (e < e')%nat /\ zmu_pairs en ed (pres_of (pred e')) w' k' kz' tr' = (w', k', kz', tr')).
Proof.
  intros Hp Hv. revert e w k tr; induction fuel as [|fuel IH]; intros e w k tr; cbn [zmu_epochs_from].
  - rewrite Nat.sub_diag. simpl. rewrite app_nil_r. repeat split; try lia; discriminate.
  - pose proof (zmu_pairs_R (pres_of e) w k tr) as R1. rewrite Hp in R1 |- *.
    specialize (R1 (zpresent_pos _ (Hv e))).
    destruct (zmu_pairs en ed (zpresent Zs (perm_of e)) w k (Z.of_nat k) tr) as [[[w1 k1] kz1] tr1] eqn:E1.
    destruct R1 as [A1 [A2 [A3 [A4 A5]]]].
    rewrite present_sc_pairs in A1. destruct (present_sc c Zs (perm_of e)) as [_ P2]. rewrite P2 in A3.
    assert (Hpres : forall o, presented (zsR c Zs) o = map snd (rpresent (zsR c Zs) o)).
    { intros o. unfold rpresent, presented. rewrite map_map. reflexivity. }
    destruct (Nat.eqb_spec k1 k) as [Heq|Hne].
    + subst k1. destruct (A5 eq_refl) as [-> ->]. subst kz1.
      replace (S e - e)%nat with 1%nat by lia. simpl epochs_order. rewrite app_nil_r.
      split; [lia|]. rewrite Hpres. split; [exact A1|]. split; [reflexivity|]. split; [exact A3|].
      intros _. split; [lia|]. simpl. rewrite Hp. exact E1.
    + subst kz1. specialize (IH (S e) w1 k1 tr1).
      destruct (zmu_epochs_from en ed pres_of fuel (S e) w1 k1 (Z.of_nat k1) tr1)
        as [[[[[w' k'] kz'] tr'] e'] conv].
      destruct IH as [Hle [B1 [B2 [B3 B4]]]]. split; [lia|].
      replace (e' - e)%nat with (S (e' - S e)) by lia. simpl epochs_order.
      rewrite Hpres in B1 |- *.
      assert (Happ : forall o1 o2, rpresent (zsR c Zs) (o1 ++ o2)
                                   = rpresent (zsR c Zs) o1 ++ rpresent (zsR c Zs) o2)
        by (intros; unfold rpresent; apply map_app).
      rewrite Happ, map_app, fold_left_app, A1.
      split; [exact B1|]. split; [exact B2|].
      split; [rewrite B3, A3, mu_trace_app, A1, <- app_assoc; reflexivity|].
      intros Hc. destruct (B4 Hc) as [Hl Hr]. split; [lia|exact Hr].
Qed.

(** The integer loop with multiple updates is [pdm_mu_run] on the patterns Z_i / L over the
    epochs it presented: the same weights (over L), count, and updated indices (each index
    repeated as many times as its pattern was added); "converged" means its last epoch made
    no update. *)
Theorem zpdm_mu_correct perm_of pres_of fuel :
  (forall e, pres_of e = zpresent Zs (perm_of e)) ->
  (forall e, valid_order (scaled L Zs) (perm_of e)) ->
  let '(w, k, kz, tr, E, conv) := zmu_epochs en ed pres_of fuel in
  let order := epochs_order perm_of 0 E in
  pdm_mu_run eps (scaled L Zs) order = (sc c w, k) /\
  rev tr = mu_trace eps (rpresent (scaled L Zs) order) init /\
  kz = Z.of_nat k /\ (E <= fuel)%nat /\
  (conv = true -> (0 < E)%nat /\ zmu_pairs en ed (pres_of (pred E)) w k kz tr = (w, k, kz, tr)).
Proof.
  intros Hp Hv. unfold zmu_epochs, pdm_mu_run, init.
  pose proof (zmu_epochs_from_R perm_of pres_of fuel 0 [] 0 [] Hp Hv) as H.
  change (Z.of_nat 0) with 0%Z in H.
  destruct (zmu_epochs_from en ed pres_of fuel 0 [] 0 0 []) as [[[[[w k] kz] tr] E] conv].
  rewrite Nat.sub_0_r in H. destruct H as [HE [H1 [H2 [H3 H4]]]].
  split; [exact H1|]. split; [exact H3|]. split; [exact H2|]. split; [lia|].
  intros Hc. destruct (H4 Hc) as [Hl Hr]. split; [lia|exact Hr].
Qed.

End Multiple.

(** ** PDM-succ with multiple updates *)

Local Open Scope R_scope.

Definition pdm_mu_run_from (eps : R) (zs : list vec) (order : list nat) (s : state) : state :=
  fold_left (pdm_mu_step eps) (presented zs order) s.

(** The stages (eps_i, order_i), each a PDM(eps_i) run with multiple updates continuing from
    the previous state and update count (as [LargeMargin.pdm_succ]). *)
Definition pdm_mu_succ_from (zs : list vec) (stages : list (R * list nat)) (s : state) : state :=
  fold_left (fun s st => pdm_mu_run_from (fst st) zs (snd st) s) stages s.

Definition pdm_mu_succ (zs : list vec) (stages : list (R * list nat)) : state :=
  pdm_mu_succ_from zs stages init.

Fixpoint mu_succ_trace (stages : list (R * list nat)) (zs : list vec) (s : state) : list nat :=
  match stages with
  | [] => []
  | (eps, o) :: rest => mu_trace eps (rpresent zs o) s ++ mu_succ_trace rest zs (pdm_mu_run_from eps zs o s)
  end.

Local Open Scope Z_scope.

Fixpoint zmu_succ_from (epss : list (Z * Z)) (pres_of : nat -> list (nat * zvec)) (fuel e : nat)
    (w : zvec) (k : nat) (kz : Z) (tr : list nat)
  : zvec * nat * Z * list nat * nat * bool * list nat :=
  match epss with
  | [] => (w, k, kz, tr, e, true, [])
  | (en, ed) :: rest =>
      let '(w', k', kz', tr', e', conv) := zmu_epochs_from en ed pres_of fuel e w k kz tr in
      if conv then
        let '(w2, k2, kz2, tr2, e2, conv2, ends) := zmu_succ_from rest pres_of fuel e' w' k' kz' tr' in
        (w2, k2, kz2, tr2, e2, conv2, e' :: ends)
      else (w', k', kz', tr', e', false, [e'])
  end.

Definition zmu_succ epss pres_of fuel := zmu_succ_from epss pres_of fuel 0 [] 0 0%Z [].

Local Open Scope R_scope.

Lemma zmu_succ_from_R epss L Zs perm_of pres_of fuel e w k tr :
  Forall (fun p => (0 < fst p)%Z /\ (fst p <= snd p)%Z) epss -> (0 < L)%Z ->
  Forall (fun Z => (0 < zdot Z Z)%Z) Zs ->
  (forall e, pres_of e = zpresent Zs (perm_of e)) ->
  (forall e, valid_order (scaled L Zs) (perm_of e)) ->
  let '(w2, k2, kz2, tr2, e2, conv2, ends) := zmu_succ_from epss pres_of fuel e w k (Z.of_nat k) tr in
  pdm_mu_succ_from (scaled L Zs) (stages_of epss perm_of e ends) (sc (/ IZR L) w, k) = (sc (/ IZR L) w2, k2) /\
  rev tr2 = rev tr ++ mu_succ_trace (stages_of epss perm_of e ends) (scaled L Zs) (sc (/ IZR L) w, k) /\
  kz2 = Z.of_nat k2.
Proof.
  intros Hall HL Hpos Hp Hv. revert e w k tr.
  induction epss as [|[en ed] rest IH]; intros e w k tr; simpl.
  - rewrite app_nil_r. repeat split.
  - inversion Hall as [|? ? [Hen Hed] Hrest]; subst. simpl in Hen, Hed.
    pose proof (zmu_epochs_from_R en ed L Hen Hed HL Zs Hpos perm_of pres_of fuel e w k tr Hp Hv) as S.
    destruct (zmu_epochs_from en ed pres_of fuel e w k (Z.of_nat k) tr)
      as [[[[[w' k'] kz'] tr'] e'] conv].
    destruct S as [_ [S1 [S3 [S2 _]]]]. subst kz'.
    change (zsR (/ IZR L) Zs) with (scaled L Zs) in S1, S2.
    destruct conv.
    + specialize (IH Hrest e' w' k' tr').
      destruct (zmu_succ_from rest pres_of fuel e' w' k' (Z.of_nat k') tr')
        as [[[[[[w2 k2] kz2] tr2] e2] conv2] ends].
      simpl. unfold pdm_mu_succ_from in *. simpl. unfold pdm_mu_run_from at 2. rewrite S1.
      destruct IH as [I1 [I2 I3]]. split; [exact I1|]. split; [|exact I3].
      rewrite I2, S2, <- app_assoc. unfold pdm_mu_run_from. rewrite S1. reflexivity.
    + simpl. unfold pdm_mu_succ_from. simpl. unfold pdm_mu_run_from. rewrite S1.
      destruct rest as [|[? ?] ?]; simpl; rewrite ?app_nil_r; repeat split; try assumption.
Qed.

(** The integer stages with multiple updates are [pdm_mu_succ] on the patterns Z_i / L with
    the stages they ran: the same weights over L, count and updated indices. *)
Theorem zmu_succ_correct epss L Zs perm_of pres_of fuel :
  Forall (fun p => (0 < fst p)%Z /\ (fst p <= snd p)%Z) epss -> (0 < L)%Z ->
  Forall (fun Z => (0 < zdot Z Z)%Z) Zs ->
  (forall e, pres_of e = zpresent Zs (perm_of e)) ->
  (forall e, valid_order (scaled L Zs) (perm_of e)) ->
  let '(w, k, kz, tr, E, conv, ends) := zmu_succ epss pres_of fuel in
  let stages := stages_of epss perm_of 0 ends in
  pdm_mu_succ (scaled L Zs) stages = (sc (/ IZR L) w, k) /\
  rev tr = mu_succ_trace stages (scaled L Zs) init /\ kz = Z.of_nat k.
Proof.
  intros Hall HL Hpos Hp Hv.
  pose proof (zmu_succ_from_R epss L Zs perm_of pres_of fuel 0 [] 0 [] Hall HL Hpos Hp Hv) as H.
  change (Z.of_nat 0) with 0%Z in H. unfold zmu_succ.
  destruct (zmu_succ_from epss pres_of fuel 0 [] 0 0 []) as [[[[[[w k] kz] tr] E] conv] ends].
  exact H.
Qed.
