(** * Kernel certificates for a labelled dataset as the user's file has it.

    The data are written as read: each feature a fraction n/d (d > 0), each label
    [pos] or [neg], the bias rho a fraction.  Everything else is computed here, by
    [vm_compute] over Z: the common denominator s ([data_scale], the lcm of all
    denominators), the reflected and scaled integer rows s y_i (x_i, rho) ([zrows]),
    and the certificate checks of [DatasetCertificate.check_cert] on those rows.
    [labelled_certificate_sound] turns a [true] answer into facts about the
    real-valued labelled dataset [to_dataset data] with bias [frac_R rho]: the
    reflected patterns of [Labelled] are the rows divided by s, gamma^2 is the
    squared distance from 0 to their hull, R^2 ([Labelled.radius2]) is M / s^2, and
    the perceptron run on the labelled data ([Labelled.perceptron], its decision
    rule y (w . x~) <= 0) makes at most floor(R^2 / gamma^2) updates in every order. *)

From Coq Require Import Reals List Lra Psatz Arith ZArith Bool.
From Novikoff Require Import Vectors Perceptron DatasetCertificate Labelled.
Import ListNotations.
Local Open Scope R_scope.

(** ** The data as read *)

(** A rational number as read: numerator / denominator. *)
Definition frac : Type := (Z * Z)%type.
Definition frac_R (q : frac) : R := IZR (fst q) / IZR (snd q).

(** A sample as read: its features and its label. *)
Definition qsample : Type := (list frac * label)%type.

Definition to_sample (s : qsample) : sample := mk_sample (map frac_R (fst s)) (snd s).
Definition to_dataset (data : list qsample) : dataset := map to_sample data.

(** ** Computed in Z *)

Definition denominators (data : list qsample) (rho : frac) : list Z :=
  snd rho :: concat (map (fun s => map snd (fst s)) data).

(** The common denominator s: the lcm of every denominator, rho's included. *)
Definition data_scale (data : list qsample) (rho : frac) : Z :=
  fold_right Z.lcm 1%Z (denominators data rho).

Definition zlabel (l : label) : Z := match l with pos => 1%Z | neg => (-1)%Z end.

(** q s as an integer (exact when the denominator of q divides s). *)
Definition zscaled (s : Z) (q : frac) : Z := (fst q * (s / snd q))%Z.

(** The reflected, scaled row s y (x, rho). *)
Definition zrow (s : Z) (rho : frac) (smp : qsample) : list Z :=
  map (Z.mul (zlabel (snd smp))) (map (zscaled s) (fst smp ++ [rho])).
Definition zrows (data : list qsample) (rho : frac) : list (list Z) :=
  map (zrow (data_scale data rho) rho) data.

(** s > 0 and every denominator is positive and divides s. *)
Definition check_scale (data : list qsample) (rho : frac) : bool :=
  let s := data_scale data rho in
  Z.ltb 0 s && forallb (fun d => Z.ltb 0 d && Z.eqb (s mod d) 0) (denominators data rho).

(** ** Soundness: the computed rows are the labelled data's reflected patterns *)

Lemma y_zlabel l : IZR (zlabel l) = y l.
Proof. destruct l; reflexivity. Qed.

Lemma zscaled_R s q :
  (0 < s)%Z -> (0 < snd q)%Z -> (s mod snd q = 0)%Z ->
  IZR (zscaled s q) / IZR s = frac_R q.
Proof.
  intros Hs Hd Hm. destruct q as [n d]. unfold zscaled, frac_R; cbn [fst snd] in *.
  pose proof (Z_div_exact_full_2 s d ltac:(lia) Hm) as Hk.
  set (k := (s / d)%Z) in *.
  assert (Hk0 : k <> 0%Z) by (intros E; rewrite E in Hk; lia).
  rewrite Hk, !mult_IZR. field. split; apply not_0_IZR; lia.
Qed.

Lemma in_denominators_feature data rho smp q :
  In smp data -> In q (fst smp) -> In (snd q) (denominators data rho).
Proof.
  intros Hs Hq. right. apply in_concat. exists (map snd (fst smp)). split.
  - apply in_map_iff. exists smp. auto.
  - apply in_map. exact Hq.
Qed.

Lemma check_scale_sound data rho :
  check_scale data rho = true ->
  (0 < data_scale data rho)%Z /\
  forall d, In d (denominators data rho) -> (0 < d)%Z /\ (data_scale data rho mod d = 0)%Z.
Proof.
  unfold check_scale. intros H. apply andb_prop in H as [Hs Hd].
  apply Z.ltb_lt in Hs. split; [exact Hs|].
  intros d Hin. rewrite forallb_forall in Hd. specialize (Hd d Hin).
  apply andb_prop in Hd as [H1 H2]. apply Z.ltb_lt in H1. apply Z.eqb_eq in H2. auto.
Qed.

Theorem zrows_reflected data rho :
  check_scale data rho = true ->
  patterns (zrows data rho) (data_scale data rho) = reflected (frac_R rho) (to_dataset data).
Proof.
  intros Hc. destruct (check_scale_sound data rho Hc) as [Hs Hd].
  unfold patterns, zrows, reflected, to_dataset. rewrite !map_map.
  apply map_ext_in. intros smp Hsmp.
  unfold rvec, zrow, reflect, to_sample, augment, vscale; cbn [features lab].
  replace (map frac_R (fst smp) ++ [frac_R rho]) with (map frac_R (fst smp ++ [rho]))
    by (rewrite map_app; reflexivity).
  rewrite !map_map. apply map_ext_in. intros q Hq.
  assert (Hq' : (0 < snd q)%Z /\ (data_scale data rho mod snd q = 0)%Z).
  { apply Hd. apply in_app_or in Hq as [Hq|[<-|[]]].
    - eapply in_denominators_feature; eauto.
    - left. reflexivity. }
  destruct Hq' as [Hq0 Hqm].
  rewrite mult_IZR, y_zlabel, <- (zscaled_R (data_scale data rho) q Hs Hq0 Hqm).
  field. apply not_0_IZR. lia.
Qed.

(** The maximum of a list that bounds every element and is one of them (or 0). *)
Lemma fold_Rmax_eq (l : list R) (m : R) :
  0 <= m -> (forall x, In x l -> x <= m) -> (exists x, In x l /\ x = m) ->
  fold_right Rmax 0 l = m.
Proof.
  intros Hm Hle Hex. induction l as [|a l IH]; [destruct Hex as [x [[] _]]|].
  simpl. destruct Hex as [x [[<-|Hx] <-]].
  - apply Rmax_left. clear IH. induction l as [|b l IHl]; simpl; [exact Hm|].
    apply Rmax_lub; [apply Hle; right; left; reflexivity|].
    apply IHl; intros; apply Hle; simpl in *; tauto.
  - rewrite IH; [| intros; apply Hle; right; assumption | exists x; auto].
    apply Rmax_right. apply Hle. left. reflexivity.
Qed.

(** ** What a passing check proves about the labelled data *)

Theorem labelled_certificate_sound data rho L q P M :
  check_scale data rho = true ->
  check_cert (zrows data rho) L q P M = true ->
  let D := to_dataset data in
  let s := data_scale data rho in
  separable_certificate (reflected (frac_R rho) D) (cert_lambda L q) (cert_p P q s) /\
  min_norm_sq (reflected (frac_R rho) D) (IZR (zdot P P) / (IZR (q * s) * IZR (q * s))) /\
  radius2 (frac_R rho) D = IZR M / (IZR s * IZR s).
Proof.
  intros Hs Hc D s.
  pose proof (zrows_reflected data rho Hs) as E.
  destruct (check_cert_sound (zrows data rho) s L q P M
              (proj1 (check_scale_sound data rho Hs)) Hc) as [Hcert [HR [Hex [HR0 _]]]].
  fold s in E. rewrite E in Hcert, HR, Hex.
  split; [exact Hcert|]. split.
  - pose proof (check_cert_gamma2 (zrows data rho) s L q P M
                  (proj1 (check_scale_sound data rho Hs)) Hc) as G.
    fold s in G. rewrite E in G. exact G.
  - unfold radius2. apply fold_Rmax_eq; [exact HR0| |].
    + intros x Hx. apply in_map_iff in Hx as [smp [<- Hsmp]].
      rewrite <- norm2_reflect. apply HR. apply in_map. exact Hsmp.
    + destruct Hex as [z [Hz Hzz]]. unfold reflected in Hz.
      apply in_map_iff in Hz as [smp [<- Hsmp]]. exists (norm2 (augment (frac_R rho) (features smp))).
      split; [apply in_map_iff; exists smp; auto|]. rewrite <- norm2_reflect. exact Hzz.
Qed.

(** The perceptron on the labelled data makes at most floor(R^2/gamma^2) updates. *)
Theorem labelled_updates_bound data rho L q P M order :
  check_scale data rho = true ->
  check_cert (zrows data rho) L q P M = true ->
  valid (to_dataset data) order ->
  (Z.of_nat (perceptron_updates (frac_R rho) (to_dataset data) order) <= cert_bound q P M)%Z.
Proof.
  intros Hs Hc Hv.
  pose proof (zrows_reflected data rho Hs) as E.
  pose proof (proj1 (valid_reflected (frac_R rho) (to_dataset data) order) Hv) as Ho.
  rewrite <- E in Ho.
  rewrite perceptron_updates_run by exact Hv. rewrite <- E.
  exact (certified_updates_bound _ _ L q P M order
           (proj1 (check_scale_sound data rho Hs)) Hc Ho).
Qed.

(** ** Non-vacuity: exercise 6.1 of the textbook as read (rho = 1). *)
Example labelled_certificate_example :
  let data : list qsample :=
    [([(1, 1); (1, 1)]%Z, pos); ([(2, 1); (2, 1)]%Z, pos);
     ([(-1, 1); (-1, 1)]%Z, neg); ([(-2, 1); (0, 1)]%Z, neg)] in
  check_scale data (1, 1)%Z = true /\
  check_cert (zrows data (1, 1)%Z) [1; 0; 1; 0]%Z 2 [2; 2; 0]%Z 9 = true.
Proof. split; vm_compute; reflexivity. Qed.

(** ** Non-separable data: a Gordan certificate, checked in Z

    lambda_i = L_i / q >= 0, sum lambda = 1 and sum_i lambda_i z_i = 0 (on the rows computed
    from the data): then no weight vector w has y_i (w . (x_i, rho)) > 0 for every sample. *)

Definition check_gordan (rows : list (list Z)) (L : list Z) (q : Z) : bool :=
  Z.ltb 0 q && forallb (Z.leb 0) L && Z.eqb (fold_right Z.add 0%Z L) q &&
  Nat.eqb (length L) (length rows) && forallb (Z.eqb 0) (zcomb L rows).

Lemma dot_zero_vec x (v : list Z) : forallb (Z.eqb 0) v = true -> dot x (map IZR v) = 0.
Proof.
  revert x; induction v as [|a v IH]; intros x H; [apply dot_nil_r|].
  cbn [forallb] in H. apply andb_prop in H as [Ha Hv]. apply Z.eqb_eq in Ha. subst a.
  destruct x as [|b x]; simpl; [reflexivity|]. rewrite IH by exact Hv. ring.
Qed.

Lemma zsum_nonneg (L : list Z) : Forall (fun l => (0 <= l)%Z) L -> (0 <= fold_right Z.add 0%Z L)%Z.
Proof. induction 1; simpl; lia. Qed.

Lemma dot_nonneg_combination (L : list Z) (fs : list R) :
  Forall (fun l => (0 <= l)%Z) L -> Forall (fun f => 0 < f) fs -> 0 <= dot (map IZR L) fs.
Proof.
  intros HL. revert fs; induction HL as [|l L Hl HL IH]; intros [|f fs] Hf; simpl; try lra.
  inversion Hf; subst. pose proof (IH fs H2).
  assert (0 <= IZR l * f) by (apply Rmult_le_pos; [apply IZR_le; lia | lra]). lra.
Qed.

Lemma dot_pos_combination (L : list Z) (fs : list R) :
  length L = length fs -> Forall (fun l => (0 <= l)%Z) L -> (0 < fold_right Z.add 0%Z L)%Z ->
  Forall (fun f => 0 < f) fs -> 0 < dot (map IZR L) fs.
Proof.
  revert fs; induction L as [|l L IH]; intros [|f fs] Hlen HL Hsum Hf; simpl in *;
    try discriminate; try lia.
  inversion HL as [|? ? Hl HL']; subst. inversion Hf as [|? ? Hf0 Hf']; subst.
  pose proof (zsum_nonneg L HL') as HL0.
  destruct (Z.eq_dec (fold_right Z.add 0%Z L) 0) as [E|E].
  - pose proof (dot_nonneg_combination L fs HL' Hf').
    assert (0 < IZR l * f) by (apply Rmult_lt_0_compat; [apply IZR_lt; lia | lra]). lra.
  - assert (0 < dot (map IZR L) fs) by (apply IH; auto; lia).
    assert (0 <= IZR l * f) by (apply Rmult_le_pos; [apply IZR_le; lia | lra]). lra.
Qed.

Theorem check_gordan_sound rows s L q :
  (0 < s)%Z -> check_gordan rows L q = true ->
  forall w, exists z, In z (patterns rows s) /\ dot w z <= 0.
Proof.
  intros Hs H w. unfold check_gordan in H. repeat rewrite andb_true_iff in H.
  destruct H as [[[[Hq HL] Hsum] Hlen] Hzero].
  apply Z.ltb_lt in Hq. apply Z.eqb_eq in Hsum. apply Nat.eqb_eq in Hlen.
  assert (HLf : Forall (fun l => (0 <= l)%Z) L).
  { apply Forall_forall. intros l Hl. rewrite forallb_forall in HL. apply Z.leb_le. auto. }
  destruct (Forall_dec (fun z => 0 < dot w z) (fun z => Rlt_dec 0 (dot w z)) (patterns rows s))
    as [Hall|Hnot].
  - exfalso.
    pose proof (dot_zero_vec w _ Hzero) as E0.
    rewrite map_IZR_zcomb, dot_lin_comb in E0.
    assert (Hs0 : 0 < / IZR s) by (apply Rinv_0_lt_compat, IZR_lt; exact Hs).
    assert (Hpos : Forall (fun f => 0 < f) (map (dot w) (map (map IZR) rows))).
    { apply Forall_forall. intros f Hf. rewrite map_map in Hf.
      apply in_map_iff in Hf as [r [<- Hr]].
      rewrite Forall_forall in Hall. specialize (Hall (rvec s r) (in_map _ _ _ Hr)).
      unfold rvec in Hall. rewrite dot_vscale_r in Hall.
      apply (Rmult_lt_reg_l (/ IZR s)); [exact Hs0|]. lra. }
    assert (0 < dot (map IZR L) (map (dot w) (map (map IZR) rows))).
    { apply dot_pos_combination; auto; [rewrite !map_length; exact Hlen | lia]. }
    lra.
  - apply neg_Forall_Exists_neg in Hnot; [|intros z; apply Rlt_dec].
    apply Exists_exists in Hnot as [z [Hz Hn]]. exists z. split; [exact Hz | lra].
Qed.

(** No weight vector separates the labelled data: for every w some sample has
    y_i (w . (x_i, rho)) <= 0. *)
Theorem labelled_gordan_sound data rho L q :
  check_scale data rho = true -> check_gordan (zrows data rho) L q = true ->
  forall w, exists s, In s (to_dataset data) /\ signed_margin w (frac_R rho) s <= 0.
Proof.
  intros Hs Hg w.
  destruct (check_gordan_sound _ _ L q (proj1 (check_scale_sound data rho Hs)) Hg w) as [z [Hz Hw]].
  rewrite zrows_reflected in Hz by exact Hs. unfold reflected in Hz.
  apply in_map_iff in Hz as [s [<- Hin]]. exists s. split; [exact Hin|].
  rewrite signed_margin_reflect. exact Hw.
Qed.
