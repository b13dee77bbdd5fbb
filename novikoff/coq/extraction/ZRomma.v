(** * ROMMA over integers, proved equal to [RommaRun.romma] on labelled data.

    [RommaRun.romma] (Li and Long 2002; the closed-form update) runs over Coq's reals.  Its
    update divides, so here the weights are kept as integer numerators W over one positive
    integer denominator D (w = W / D), the patterns as integer numerators Z over the scale
    L > 0 of the data (z = Z / L, [ZLabelled]).  With P = W.Z, N = W.W, Q = Z.Z:

    - the decision ([ztest]): conservative P <= 0; aggressive (eps = en/ed, ed > 0)
      ed P < (ed - en) D L; a mistake is P <= 0;
    - the update ([zr_update]): Q = 0: empty; Q N <= P L D (p >= q l): W' = 0 W + L Z,
      D' = Q; else A = Q N - P^2 = 0: empty; else W' = (Q N - P D L) W + N (D L - P) Z,
      D' = D A (the real closed form's coefficients over a common denominator);
    - the new W', D' are divided by a common divisor g ([znormalize]: the gcd of D' and the
      entries; the division is done only after checking, with [Z.modulo], that g > 0
      divides every entry and D', so the gcd's implementation is not trusted: any g that
      passes the check gives the same rational weights).

    The loop [zromma] runs epochs on the per-epoch pairs (index, pattern) of
    [ZPerceptron.zpresent] until an epoch makes no update (converged), an update finds the
    constraint set empty (stop 1), an update would exceed [maxu] updates (stop 2, the
    exact reference's size limit), or [fuel] epochs.  [zromma_correct]: its weights over D,
    mistake count, updated indices and empty-set stop are those of [RommaRun.romma] on the
    rational dataset ([ZLabelled.rdataset]) in the order of the presentations it made
    ([zpres], latest first), and those presentations are a prefix of the epochs' orders
    (all of them unless it stopped). *)

From Coq Require Import Reals List Lra Psatz Arith Lia ZArith Bool.
From Novikoff Require Import Vectors Perceptron Labelled RommaRun.
From NovikoffExtracted Require Import ZPerceptron ZLabelled.
Import ListNotations.

(** ** The integer algorithm *)

(** The rule: conservative, or aggressive with eps = en / ed. *)
Inductive zrule : Set := zconservative | zaggressive (en ed : Z).

Definition rrule (r : zrule) : romma_rule :=
  match r with zconservative => conservative | zaggressive en ed => aggressive (IZR en / IZR ed) end.

Definition zrule_ok (r : zrule) : Prop :=
  match r with zconservative => True | zaggressive en ed => (0 <= en /\ 0 < ed)%Z end.

Definition ztest (r : zrule) (L P D : Z) : bool :=
  match r with
  | zconservative => Z.leb P 0
  | zaggressive en ed => Z.ltb (ed * P) ((ed - en) * D * L)
  end.

Definition zscale (c : Z) (u : zvec) : zvec := map (Z.mul c) u.

Definition zr_update (L : Z) (W : zvec) (D : Z) (Zp : zvec) (P : Z) : option (zvec * Z) :=
  let Q := zdot Zp Zp in
  let N := zdot W W in
  if Z.eqb Q 0 then None
  else if Z.leb (Q * N) (P * L * D) then Some (zvadd (zscale 0 W) (zscale L Zp), Q)
  else let A := (Q * N - P * P)%Z in
       if Z.eqb A 0 then None
       else Some (zvadd (zscale (Q * N - P * D * L) W) (zscale (N * (D * L - P)) Zp), (D * A)%Z).

Definition zgcd_all (D : Z) (W : zvec) : Z := fold_left Z.gcd W D.

Definition znormalize (W : zvec) (D : Z) : zvec * Z :=
  let g := zgcd_all D W in
  if (Z.ltb 0 g && forallb (fun x => Z.eqb (Z.modulo x g) 0) W && Z.eqb (Z.modulo D g) 0)%bool
  then (map (fun x => Z.div x g) W, Z.div D g)
  else (W, D).

(** The state: weights W / D, mistakes, updated indices and presented indices (latest
    first), and the stop (0 running, 1 empty constraint set, 2 update limit). *)
Record zrstate : Set := mk_zr { zw : zvec; zd : Z; zk : nat; ztr : list nat; zpres : list nat; zstop : nat }.

Definition zr_init : zrstate := mk_zr [] 1 0 [] [] 0.

Definition zr_step (r : zrule) (L : Z) (maxu : nat) (st : zrstate) (iz : nat * zvec) : zrstate :=
  let (i, Zp) := iz in
  if Nat.eqb (zstop st) 0 then
    let P := zdot (zw st) Zp in
    if ztest r L P (zd st) then
      if Nat.leb maxu (length (ztr st)) then mk_zr (zw st) (zd st) (zk st) (ztr st) (zpres st) 2
      else match zr_update L (zw st) (zd st) Zp P with
           | None => mk_zr (zw st) (zd st) (zk st) (ztr st) (i :: zpres st) 1
           | Some (W', D') =>
               let (W'', D'') := znormalize W' D' in
               mk_zr W'' D'' (if Z.leb P 0 then S (zk st) else zk st) (i :: ztr st) (i :: zpres st) 0
           end
    else mk_zr (zw st) (zd st) (zk st) (ztr st) (i :: zpres st) 0
  else st.

Fixpoint zr_epochs_from (r : zrule) (L : Z) (maxu : nat) (pres_of : nat -> list (nat * zvec))
    (fuel e : nat) (st : zrstate) : zrstate * nat * bool :=
  match fuel with
  | O => (st, e, false)
  | S fuel' =>
      let st' := fold_left (zr_step r L maxu) (pres_of e) st in
      if negb (Nat.eqb (zstop st') 0) then (st', S e, false)
      else if Nat.eqb (length (ztr st')) (length (ztr st)) then (st', S e, true)
      else zr_epochs_from r L maxu pres_of fuel' (S e) st'
  end.

(** ROMMA from w = 0: the final state, the epochs run, and whether an epoch made no update. *)
Definition zromma (r : zrule) (L : Z) (maxu : nat) (pres_of : nat -> list (nat * zvec)) (fuel : nat)
  : zrstate * nat * bool :=
  zr_epochs_from r L maxu pres_of fuel 0 zr_init.

(** ** Real arithmetic of the integer quantities *)

Local Open Scope R_scope.

Lemma rdiv_lt a b c : 0 < c -> (a / c < b / c <-> a < b).
Proof.
  intros Hc. assert (Hi : 0 < / c) by (apply Rinv_0_lt_compat; exact Hc). unfold Rdiv. split; intros H.
  - apply Rmult_lt_reg_r with (/ c); assumption.
  - apply Rmult_lt_compat_r; assumption.
Qed.

Lemma rdiv_le a b c : 0 < c -> (a / c <= b / c <-> a <= b).
Proof.
  intros Hc. assert (Hi : 0 < / c) by (apply Rinv_0_lt_compat; exact Hc). unfold Rdiv. split; intros H.
  - apply Rmult_le_reg_r with (/ c); assumption.
  - apply Rmult_le_compat_r; lra.
Qed.

Lemma rdiv_le0 a c : 0 < c -> (a / c <= 0 <-> a <= 0).
Proof. intros Hc. rewrite <- (rdiv_le a 0 c Hc). unfold Rdiv. rewrite Rmult_0_l. reflexivity. Qed.

Lemma rdiv_eq0 a c : 0 < c -> (a / c = 0 <-> a = 0).
Proof.
  intros Hc. split; intros H; [|subst; unfold Rdiv; ring].
  assert (a = a / c * c) by (field; lra). rewrite H in *. lra.
Qed.

Lemma vscale_vscale a b u : vscale a (vscale b u) = vscale (a * b) u.
Proof. unfold vscale. rewrite map_map. apply map_ext. intros x. ring. Qed.

Lemma vscale_vadd c u v : vscale c (vadd u v) = vadd (vscale c u) (vscale c v).
Proof. symmetry. apply vadd_vscale. Qed.

Lemma zscale_R c u : inj (zscale c u) = vscale (IZR c) (inj u).
Proof. unfold zscale, inj, vscale. rewrite !map_map. apply map_ext. intros x. apply mult_IZR. Qed.

Lemma zdot_nonneg u : (0 <= zdot u u)%Z.
Proof. apply le_IZR. rewrite zdot_R. apply norm2_nonneg. Qed.

Lemma zcs W Zp : (zdot W Zp * zdot W Zp <= zdot W W * zdot Zp Zp)%Z.
Proof. apply le_IZR. rewrite !mult_IZR, !zdot_R. apply cauchy_schwarz. Qed.

(** The real weights and pattern the integers stand for. *)
Definition rvec (D : Z) (W : zvec) : vec := vscale (/ IZR D) (inj W).

Section Step.
  Variables (L D : Z) (W Zp : zvec).
  Variable HL : (0 < L)%Z.
  Variable HD : (0 < D)%Z.
  Let w := rvec D W.
  Let z := rvec L Zp.
  Let P := zdot W Zp.
  Let N := zdot W W.
  Let Q := zdot Zp Zp.

  Lemma step_pos : 0 < IZR L /\ 0 < IZR D.
  Proof. split; apply IZR_lt; assumption. Qed.

  Lemma p_R : dot w z = IZR P / (IZR D * IZR L).
  Proof.
    destruct step_pos. unfold w, z, rvec. rewrite dot_vscale_l, dot_vscale_r, <- zdot_R.
    fold P. field. lra.
  Qed.

  Lemma l_R : norm2 w = IZR N / (IZR D * IZR D).
  Proof.
    destruct step_pos. unfold w, rvec, norm2. rewrite dot_vscale_l, dot_vscale_r, <- zdot_R.
    fold N. field. lra.
  Qed.

  Lemma q_R : norm2 z = IZR Q / (IZR L * IZR L).
  Proof.
    destruct step_pos. unfold z, rvec, norm2. rewrite dot_vscale_l, dot_vscale_r, <- zdot_R.
    fold Q. field. lra.
  Qed.

  Lemma ztest_R r : zrule_ok r -> romma_test (rrule r) (dot w z) = ztest r L P D.
  Proof.
    intros Hr. destruct step_pos as [Lp Dp]. rewrite p_R.
    assert (Hc : 0 < IZR D * IZR L) by nra.
    destruct r as [|en ed]; simpl.
    - destruct (Rle_dec (IZR P / (IZR D * IZR L)) 0) as [H|H];
        rewrite (rdiv_le0 _ _ Hc) in H; destruct (Z.leb_spec P 0) as [H'|H']; auto;
        first [apply IZR_lt in H' | apply IZR_le in H']; lra.
    - destruct Hr as [Hen Hed]. apply IZR_lt in Hed.
      assert (Hc' : 0 < IZR ed * (IZR D * IZR L)) by nra.
      replace (IZR P / (IZR D * IZR L)) with (IZR (ed * P) / (IZR ed * (IZR D * IZR L)))
        by (rewrite mult_IZR; field; lra).
      replace (1 - IZR en / IZR ed) with (IZR ((ed - en) * D * L) / (IZR ed * (IZR D * IZR L)))
        by (rewrite !mult_IZR, minus_IZR; field; lra).
      destruct (Rlt_dec _ _) as [H|H]; rewrite (rdiv_lt _ _ _ Hc') in H;
        destruct (Z.ltb_spec (ed * P) ((ed - en) * D * L)) as [H'|H']; auto;
        first [apply IZR_lt in H' | apply IZR_le in H']; lra.
  Qed.

  Lemma mistake_R : is_mistake (dot w z) = Z.leb P 0.
  Proof.
    exact (ztest_R zconservative I).
  Qed.

  (** The integer update is the real closed form (both say empty, or give the same w'). *)
  Lemma zr_update_R :
    match zr_update L W D Zp P, romma_coeffs (norm2 w) (dot w z) (norm2 z) with
    | None, None => True
    | Some (W', D'), Some c => (0 < D')%Z /\ romma_update w z c = rvec D' W'
    | _, _ => False
    end.
  Proof.
    destruct step_pos as [Lp Dp].
    assert (HLD : 0 < IZR L * IZR D) by (apply Rmult_lt_0_compat; lra).
    assert (HLD2 : 0 < (IZR L * IZR D) * (IZR L * IZR D)) by (apply Rmult_lt_0_compat; lra).
    assert (HLL : 0 < IZR L * IZR L) by (apply Rmult_lt_0_compat; lra).
    assert (HLne : IZR L <> 0) by lra. assert (HDne : IZR D <> 0) by lra.
    pose proof (zdot_nonneg Zp) as HQ0. pose proof (zcs W Zp) as Hcs.
    fold P N Q in HQ0, Hcs.
    pose proof p_R as Hp. pose proof l_R as Hl. pose proof q_R as Hq.
    set (p := dot w z) in *. set (l := norm2 w) in *. set (q := norm2 z) in *.
    assert (E1 : q * l = IZR (Q * N) / ((IZR L * IZR D) * (IZR L * IZR D)))
      by (rewrite Hq, Hl, mult_IZR; field; lra).
    assert (E1' : p = IZR (P * L * D) / ((IZR L * IZR D) * (IZR L * IZR D)))
      by (rewrite Hp, !mult_IZR; field; lra).
    assert (E2 : q * l - p * p = IZR (Q * N - P * P) / ((IZR L * IZR D) * (IZR L * IZR D)))
      by (rewrite Hq, Hl, Hp, minus_IZR, !mult_IZR; field; lra).
    assert (E3 : q * l - p = IZR (Q * N - P * D * L) / ((IZR L * IZR D) * (IZR L * IZR D)))
      by (rewrite Hq, Hl, Hp, minus_IZR, !mult_IZR; field; lra).
    assert (E4 : 1 - p = IZR (D * L - P) / (IZR D * IZR L))
      by (rewrite Hp, minus_IZR, !mult_IZR; field; lra).
    unfold zr_update, romma_coeffs. fold P N Q. fold p l q.
    destruct (Z.eqb_spec Q 0) as [HQ|HQ].
    - destruct (Req_EM_T q 0) as [_|H]; [exact I|]. exfalso. apply H. rewrite Hq, HQ. unfold Rdiv. ring.
    - destruct (Req_EM_T q 0) as [H|_].
      { exfalso. rewrite Hq in H. apply (proj1 (rdiv_eq0 _ _ HLL)) in H. apply HQ. apply eq_IZR. exact H. }
      assert (HQp : (0 < Q)%Z) by lia.
      destruct (Rle_dec (q * l) p) as [H|H]; rewrite E1, E1', (rdiv_le _ _ _ HLD2) in H;
        destruct (Z.leb_spec (Q * N) (P * L * D)) as [H'|H']; try (apply IZR_lt in H'; lra);
        try (apply IZR_le in H'; lra).
      + split; [exact HQp|].
        unfold romma_update, rvec, w, z, rvec; simpl.
        rewrite zvadd_R, !zscale_R, vscale_vadd, !vscale_vscale. fold Q.
        assert (IZR Q <> 0) by (apply not_0_IZR; lia).
        f_equal; f_equal; [field; auto|]. rewrite Hq. field. auto.
      + destruct (Z.eqb_spec (Q * N - P * P) 0) as [HA|HA].
        * destruct (Req_EM_T (q * l - p * p) 0) as [_|Hn]; [exact I|].
          exfalso. apply Hn. rewrite E2, HA. unfold Rdiv. ring.
        * destruct (Req_EM_T (q * l - p * p) 0) as [Hn|_].
          { exfalso. rewrite E2 in Hn. apply (proj1 (rdiv_eq0 _ _ HLD2)) in Hn. apply HA. apply eq_IZR. exact Hn. }
          assert (HApos : (0 < Q * N - P * P)%Z) by lia.
          assert (HAne : IZR (Q * N - P * P) <> 0) by (apply not_0_IZR; lia).
          split; [apply Z.mul_pos_pos; lia|].
          unfold romma_update, rvec, w, z, rvec; simpl.
          rewrite zvadd_R, !zscale_R, vscale_vadd, !vscale_vscale.
          f_equal; f_equal.
          -- rewrite E2, E3, mult_IZR. field. repeat split; auto.
          -- rewrite E2, E4, Hl, !mult_IZR. field. repeat split; auto.
  Qed.
End Step.

(** ** Normalisation changes no rational weight *)

Lemma znormalize_R W D :
  (0 < D)%Z -> let '(W', D') := znormalize W D in (0 < D')%Z /\ rvec D' W' = rvec D W.
Proof.
  intros HD. unfold znormalize. set (g := zgcd_all D W).
  destruct (Z.ltb 0 g && forallb (fun x => Z.eqb (Z.modulo x g) 0) W && Z.eqb (Z.modulo D g) 0)%bool
    eqn:E; [|split; [exact HD|reflexivity]].
  apply andb_true_iff in E as [E HDg]. apply andb_true_iff in E as [Hg HW].
  apply Z.ltb_lt in Hg. apply Z.eqb_eq in HDg. rewrite forallb_forall in HW.
  assert (HDe : D = (g * (D / g))%Z) by (apply Z.div_exact; [lia|exact HDg]).
  assert (HDg' : (0 < D / g)%Z).
  { apply (Z.mul_pos_cancel_l g); [lia|]. rewrite <- HDe. exact HD. }
  split; [exact HDg'|].
  assert (Hg0 : IZR g <> 0) by (apply not_0_IZR; lia).
  assert (HD0 : IZR (D / g) <> 0) by (apply not_0_IZR; lia).
  unfold rvec, inj, vscale. rewrite !map_map. apply map_ext_in. intros x Hx.
  specialize (HW x Hx). apply Z.eqb_eq in HW.
  assert (Hxe : x = (g * (x / g))%Z) by (apply Z.div_exact; [lia|exact HW]).
  assert (E1 : IZR x = IZR g * IZR (x / g)) by (rewrite <- mult_IZR; f_equal; exact Hxe).
  assert (E2 : IZR D = IZR g * IZR (D / g)) by (rewrite <- mult_IZR; f_equal; exact HDe).
  rewrite E1, E2. field. split; assumption.
Qed.

(** ** The integer run is the real run *)

(** The real state an integer state stands for (stop 2, the size limit, is no stop of the
    algorithm: the real run is then simply not continued). *)
Definition zr_real (st : zrstate) : rstate :=
  mk_rstate (rvec (zd st) (zw st)) (zk st) (ztr st) (Nat.eqb (zstop st) 1).

Section Run.
  Variables (r : zrule) (L rhoZ : Z) (zD : list (label * zvec)) (maxu : nat).
  Variable HL : (0 < L)%Z.
  Variable Hr : zrule_ok r.
  Let rD := rdataset L zD.
  Let rrho := IZR rhoZ / IZR L.
  Let zs := zlabelled_patterns rhoZ zD.

  Lemma reflect_at i : (i < length zD)%nat -> reflect rrho (sample_at rD i) = rvec L (zpattern zs i).
  Proof.
    intros Hi. unfold sample_at, rD, rdataset, zpattern, zs, zlabelled_patterns, rvec.
    set (f := fun s : label * zvec => mk_sample (vscale (/ IZR L) (inj (snd s))) (fst s)).
    set (h := fun s : label * zvec => zreflect (zy (fst s)) rhoZ (snd s)).
    rewrite (nth_indep _ no_sample (f (pos, []))) by (rewrite map_length; exact Hi).
    rewrite (nth_indep _ [] (h (pos, []))) by (rewrite map_length; exact Hi).
    rewrite !map_nth. unfold f, h. destruct (nth i zD (pos, [])) as [l x]. simpl.
    apply reflect_z.
  Qed.

  Lemma zr_step_R st i :
    (i < length zD)%nat -> (0 < zd st)%Z -> zstop st = 0%nat ->
    let st' := zr_step r L maxu st (i, zpattern zs i) in
    (0 < zd st')%Z /\
    ((zpres st' = i :: zpres st /\ romma_lstep rrho (rrule r) rD (zr_real st) i = zr_real st') \/
     (zpres st' = zpres st /\ zstop st' <> 0%nat /\ zr_real st' = zr_real st)).
  Proof.
    intros Hi HD Hs. unfold zr_step. rewrite Hs. cbv beta iota. simpl (Nat.eqb 0 0).
    unfold romma_lstep. unfold zr_real. cbn [rw rmistakes rtrace rstopped zw zd zk ztr zpres zstop].
    rewrite Hs. simpl (Nat.eqb 0 1).
    rewrite signed_margin_reflect, (reflect_at i Hi).
    set (Zp := zpattern zs i).
    rewrite (ztest_R L (zd st) (zw st) Zp HL HD r Hr).
    destruct (ztest r L (zdot (zw st) Zp) (zd st)).
    - destruct (Nat.leb maxu (length (ztr st))).
      + split; [exact HD|]. right. split; [reflexivity|]. split; [discriminate|].
        simpl; try rewrite Hs; reflexivity.
      + pose proof (zr_update_R L (zd st) (zw st) Zp HL HD) as Hu.
        destruct (zr_update L (zw st) (zd st) Zp (zdot (zw st) Zp)) as [[W' D']|];
          destruct (romma_coeffs (norm2 (rvec (zd st) (zw st))) (dot (rvec (zd st) (zw st)) (rvec L Zp))
                      (norm2 (rvec L Zp))) as [c|]; try contradiction.
        * destruct Hu as [HD' Hc]. pose proof (znormalize_R W' D' HD') as Hn.
          destruct (znormalize W' D') as [W'' D'']. destruct Hn as [HD'' Heq].
          split; [exact HD''|]. left. split; [reflexivity|].
          simpl. rewrite (mistake_R L (zd st) (zw st) Zp HL HD), Hc, Heq. reflexivity.
        * split; [exact HD|]. left. split; [reflexivity|]. reflexivity.
    - split; [exact HD|]. left. split; [reflexivity|]. simpl; try rewrite Hs; reflexivity.
  Qed.

  Definition zr_inv (st : zrstate) : Prop :=
    (0 < zd st)%Z /\ romma rrho (rrule r) rD (rev (zpres st)) = zr_real st.

  Lemma zr_fold_stopped l st : zstop st <> 0%nat -> fold_left (zr_step r L maxu) l st = st.
  Proof.
    revert st; induction l as [|[i z] l IH]; intros st Hs; simpl; [reflexivity|].
    destruct (Nat.eqb_spec (zstop st) 0); [contradiction|]. apply IH. exact Hs.
  Qed.

  Lemma zr_fold_R perm st :
    Forall (fun i => (i < length zD)%nat) perm -> zr_inv st ->
    let st' := fold_left (zr_step r L maxu) (zpresent zs perm) st in
    zr_inv st' /\
    exists pre rest, perm = pre ++ rest /\ zpres st' = rev pre ++ zpres st /\
                     (zstop st' = 0%nat -> rest = []).
  Proof.
    revert st; induction perm as [|i perm IH]; intros st Hv [HD Hrun]; cbn [zpresent map fold_left].
    - split; [split; assumption|]. exists [], []. split; [reflexivity|]. split; reflexivity.
    - inversion Hv as [|? ? Hi Hv']; subst.
      change (map (fun i0 : nat => (i0, zpattern zs i0)) perm) with (zpresent zs perm).
      destruct (Nat.eqb_spec (zstop st) 0) as [Hs|Hs].
      + pose proof (zr_step_R st i Hi HD Hs) as [HD1 [[Hp1 Hr1]|[Hp1 [Hs1 Hr1]]]];
          set (st1 := zr_step r L maxu st (i, zpattern zs i)) in *.
        * assert (Hinv1 : zr_inv st1).
          { split; [exact HD1|]. rewrite Hp1. simpl. unfold romma. rewrite fold_left_app. simpl.
            fold (romma rrho (rrule r) rD (rev (zpres st))). rewrite Hrun. exact Hr1. }
          destruct (IH st1 Hv' Hinv1) as [Hinv' [pre [rest [Hperm [Hpres Hrest]]]]].
          split; [exact Hinv'|]. exists (i :: pre), rest. split; [rewrite Hperm; reflexivity|].
          split; [|exact Hrest]. rewrite Hpres, Hp1. simpl. rewrite <- app_assoc. reflexivity.
        * rewrite (zr_fold_stopped _ st1 Hs1).
          split; [split; [exact HD1|]; rewrite Hp1, Hr1; exact Hrun|].
          exists [], (i :: perm). split; [reflexivity|]. split; [exact Hp1|]. intros H; contradiction.
      + assert (E : zr_step r L maxu st (i, zpattern zs i) = st)
          by (unfold zr_step; destruct (Nat.eqb_spec (zstop st) 0) as [|_]; [contradiction|reflexivity]).
        rewrite E, (zr_fold_stopped _ st Hs).
        split; [split; assumption|]. exists [], (i :: perm). split; [reflexivity|].
        split; [reflexivity|]. intros H; contradiction.
  Qed.

  Lemma zr_epochs_R perm_of pres_of fuel e st :
    (forall e, Forall (fun i => (i < length zD)%nat) (perm_of e)) ->
    (forall e, pres_of e = zpresent zs (perm_of e)) ->
    zr_inv st -> zstop st = 0%nat ->
    let '(st', E, conv) := zr_epochs_from r L maxu pres_of fuel e st in
    zr_inv st' /\ (e <= E)%nat /\
    exists pre rest, epochs_order perm_of e (E - e) = pre ++ rest /\
                     zpres st' = rev pre ++ zpres st /\ (zstop st' = 0%nat -> rest = []).
  Proof.
    intros Hv Hp. revert e st; induction fuel as [|fuel IH]; intros e st Hinv Hs; simpl.
    - split; [exact Hinv|]. split; [lia|]. exists [], []. rewrite Nat.sub_diag. simpl.
      split; [reflexivity|]. split; reflexivity.
    - rewrite Hp. destruct (zr_fold_R (perm_of e) st (Hv e) Hinv) as [Hinv1 [pre [rest [Hperm [Hpres Hrest]]]]].
      set (st1 := fold_left (zr_step r L maxu) (zpresent zs (perm_of e)) st) in *.
      destruct (Nat.eqb_spec (zstop st1) 0) as [Hs1|Hs1]; cbn [negb].
      + assert (rest = []) by (apply Hrest; exact Hs1). subst rest. rewrite app_nil_r in Hperm.
        destruct (Nat.eqb (length (ztr st1)) (length (ztr st))).
        * split; [exact Hinv1|]. split; [lia|]. exists pre, []. replace (S e - e)%nat with 1%nat by lia.
          simpl. rewrite !app_nil_r. split; [exact Hperm|]. split; [exact Hpres|]. reflexivity.
        * specialize (IH (S e) st1 Hinv1 Hs1).
          destruct (zr_epochs_from r L maxu pres_of fuel (S e) st1) as [[st' E] conv].
          destruct IH as [Hinv' [HE [pre2 [rest2 [Hperm2 [Hpres2 Hrest2]]]]]].
          split; [exact Hinv'|]. split; [lia|]. exists (pre ++ pre2), rest2.
          replace (E - e)%nat with (S (E - S e)) by lia. simpl.
          rewrite Hperm2, Hperm, app_assoc. split; [reflexivity|]. split; [|exact Hrest2].
          rewrite Hpres2, Hpres, rev_app_distr, app_assoc. reflexivity.
      + split; [exact Hinv1|]. split; [lia|]. exists pre, rest. replace (S e - e)%nat with 1%nat by lia.
        simpl. rewrite app_nil_r. split; [exact Hperm|]. split; [exact Hpres|]. exact Hrest.
  Qed.
End Run.

(** The integer loop is [RommaRun.romma] on the rational dataset x_i = (L x_i)/L, rho =
    (L rho)/L, in the order of the presentations it made: the same weights (W / D), the same
    mistakes, the same updated indices, the same empty-set stop; its presentations are the
    epochs' orders up to where it stopped (all of them when it did not stop). *)
Theorem zromma_correct r L rhoZ zD maxu perm_of pres_of fuel :
  (0 < L)%Z -> zrule_ok r ->
  (forall e, valid (rdataset L zD) (perm_of e)) ->
  (forall e, pres_of e = zpresent (zlabelled_patterns rhoZ zD) (perm_of e)) ->
  let '(st, E, conv) := zromma r L maxu pres_of fuel in
  (0 < zd st)%Z /\
  romma (IZR rhoZ / IZR L) (rrule r) (rdataset L zD) (rev (zpres st)) =
    mk_rstate (rvec (zd st) (zw st)) (zk st) (ztr st) (Nat.eqb (zstop st) 1) /\
  exists rest, epochs_order perm_of 0 E = rev (zpres st) ++ rest /\ (zstop st = 0%nat -> rest = []).
Proof.
  intros HL Hr Hv Hp.
  assert (Hv' : forall e, Forall (fun i => (i < length zD)%nat) (perm_of e)).
  { intros e. specialize (Hv e). unfold valid, rdataset in Hv. rewrite map_length in Hv. exact Hv. }
  assert (Hinit : zr_inv r L rhoZ zD zr_init).
  { split; [simpl; lia|]. reflexivity. }
  pose proof (zr_epochs_R r L rhoZ zD maxu HL Hr perm_of pres_of fuel 0 zr_init Hv' Hp Hinit eq_refl) as H.
  unfold zromma. destruct (zr_epochs_from r L maxu pres_of fuel 0 zr_init) as [[st E] conv].
  destruct H as [[HD Hrun] [_ [pre [rest [Hperm [Hpres Hrest]]]]]].
  split; [exact HD|]. split; [exact Hrun|]. exists rest.
  rewrite Nat.sub_0_r in Hperm. rewrite Hpres. simpl. rewrite app_nil_r, rev_involutive.
  split; [exact Hperm|exact Hrest].
Qed.
