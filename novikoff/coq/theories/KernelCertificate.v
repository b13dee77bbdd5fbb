(** * The kernel perceptron (dual form) on labelled data, and its certificate by computation.

    The run.  The kernel perceptron keeps one count alpha_i per sample (from alpha = 0); it
    presents the samples in an arbitrary ORDER (any permutation, any number of epochs, any
    prefix) and, at sample i, updates alpha_i <- alpha_i + 1 iff
        y_i f(x_i) = y_i sum_j alpha_j y_j K(x_j, x_i) <= 0
    (ties update).  [kernel_perceptron] is that run in dual form: it never leaves the
    kernel's values K(x_j, x_i).

    The general theorem ([kernel_novikoff]).  Whatever the kernel, when its values on the
    data are the inner products of a feature map phi (K(x, x') = phi(x).phi(x') for every
    two samples: the Gram matrix is positive semidefinite, in the form of a Gram
    representation, which every PSD matrix has), a dual separator a (any real coefficients)
    with margin mu > 0 (y_i sum_j a_j y_j K(x_j, x_i) >= mu for every i) and
    R^2 >= K(x_i, x_i) for every i bound the run's updates k:
        k mu^2 <= R^2 (a^T (Y K Y) a),   i.e.   k <= R^2 / gamma^2,
    gamma^2 = mu^2 / (a^T (Y K Y) a) the squared geometric margin of the dual separator in
    feature space.  The proof is Novikoff's, in feature space: the weight vector of the run
    is w = sum_j alpha_j y_j phi(x_j), its progress along p = sum_j a_j y_j phi(x_j) and its
    energy follow N1 and N2, and Cauchy-Schwarz squeezes them.

    The polynomial kernel with the bias ([kpoly]): K(x, x') = (x.x' + c)^p + rho^2
    (c >= 0; the bias rho enters as a constant feature, as the CLI's kernel adds rho^2).
    [kpoly_feature_map] gives it an explicit feature map on every dataset (the p-th tensor
    power of (x, 0..0, sqrt c), then rho), so [kpoly_novikoff] holds on every labelled
    dataset.

    The certificate.  [kernel_summary] computes by [vm_compute] over Z, from the data as
    read ([LabelledCertificate.qsample]), the kernel's constant c = a/b, its degree p and
    integer coefficients A (a = A / q): with s the data's common denominator, every
    K(x_i, x_j) = N_ij / L over one denominator L = (b s^2)^p s^2, the margins
    m_i = y_i sum_j A_j y_j N_ji (so the margin of a is m_i / (q L)), their minimum mu,
    S = sum_i A_i m_i (a^T (Y K Y) a = S / (q^2 L)) and M = max_i N_ii (R^2 = M / L).
    Only the support (A_j <> 0) and the diagonal are evaluated.
    [kernel_certificate_bound] turns the computed numbers into the bound
    k <= floor(M S / mu^2) = floor(R^2 / gamma^2) for the kernel perceptron on THAT
    labelled dataset, in every order ([kernel_certificate_ratio]: the same over R);
    [kernel_certificate_values] says what the numbers are in real terms.

    Not separable in feature space ([kernel_gordan_sound]): convex weights with
    a^T (Y K Y) a = 0 (S = 0 computed) put the origin in the feature-space hull, so no
    dual separator has a positive margin on every sample. *)

From Coq Require Import Reals List Lra Psatz Arith ZArith Bool.
From Novikoff Require Import Vectors Perceptron DatasetCertificate Labelled LabelledCertificate.
Import ListNotations.
Local Open Scope R_scope.

(** ** The dual-form kernel perceptron on labelled data *)

Definition kernel : Type := vec -> vec -> R.

(** sum_j c_j y_j K(x_j, x) (stops at the shorter list). *)
Fixpoint ksum (K : kernel) (cs : list R) (D : dataset) (x : vec) : R :=
  match cs, D with
  | c :: cs', s :: D' => c * y (lab s) * K (features s) x + ksum K cs' D' x
  | _, _ => 0
  end.

(** The margin of sample [s] under the dual separator [cs]: y_s sum_j c_j y_j K(x_j, x_s). *)
Definition kmargin (K : kernel) (cs : list R) (D : dataset) (s : sample) : R :=
  y (lab s) * ksum K cs D (features s).

(** The feature-space norm^2 of the dual separator: c^T (Y K Y) c. *)
Definition knorm2 (K : kernel) (cs : list R) (D : dataset) : R :=
  dot cs (map (kmargin K cs D) D).

(** R^2 = max_i K(x_i, x_i) (0 for no data). *)
Definition kradius2 (K : kernel) (D : dataset) : R :=
  fold_right Rmax 0 (map (fun s => K (features s) (features s)) D).

Fixpoint incr_at (i : nat) (al : list nat) : list nat :=
  match al, i with
  | a :: al', O => S a :: al'
  | a :: al', S i' => a :: incr_at i' al'
  | [], _ => []
  end.

(** The state: the counts alpha and the number of updates. *)
Definition kstate : Type := (list nat * nat)%type.

(** One presentation of sample i: update alpha_i iff y_i f(x_i) <= 0. *)
Definition kstep (K : kernel) (D : dataset) (st : kstate) (i : nat) : kstate :=
  if Rle_dec (kmargin K (map INR (fst st)) D (sample_at D i)) 0
  then (incr_at i (fst st), S (snd st)) else st.

(** The run from alpha = 0 over [order]. *)
Definition kernel_perceptron (K : kernel) (D : dataset) (order : list nat) : kstate :=
  fold_left (kstep K D) order (repeat 0%nat (length D), 0%nat).
Definition kernel_alphas K D order : list nat := fst (kernel_perceptron K D order).
Definition kernel_updates K D order : nat := snd (kernel_perceptron K D order).

(** ** A feature map: the kernel's values on the data are inner products *)

Definition feature_map (K : kernel) (phi : vec -> vec) (D : dataset) : Prop :=
  forall s s', In s D -> In s' D ->
  K (features s) (features s') = dot (phi (features s)) (phi (features s')).

(** The feature-space pattern y_s phi(x_s). *)
Definition fpattern (phi : vec -> vec) (s : sample) : vec := vscale (y (lab s)) (phi (features s)).
Definition fpatterns (phi : vec -> vec) (D : dataset) : list vec := map (fpattern phi) D.

Lemma ksum_dot K phi D cs s' :
  (forall s, In s D -> K (features s) (features s') = dot (phi (features s)) (phi (features s'))) ->
  y (lab s') * ksum K cs D (features s') = dot (lin_comb cs (fpatterns phi D)) (fpattern phi s').
Proof.
  unfold fpatterns. revert D; induction cs as [|c cs IH]; intros [|s D] H;
    cbn [ksum lin_comb map]; try (rewrite dot_nil_l; ring).
  rewrite dot_vadd_l, dot_vscale_l, <- IH by (intros; apply H; right; assumption).
  rewrite H by (left; reflexivity). unfold fpattern. rewrite dot_vscale_l, dot_vscale_r. ring.
Qed.

Lemma kmargin_dot K phi D cs s' :
  feature_map K phi D -> In s' D ->
  kmargin K cs D s' = dot (lin_comb cs (fpatterns phi D)) (fpattern phi s').
Proof. intros H Hs. apply ksum_dot. intros s Hin. apply H; assumption. Qed.

Lemma knorm2_dot K phi D cs :
  feature_map K phi D ->
  knorm2 K cs D = dot (lin_comb cs (fpatterns phi D)) (lin_comb cs (fpatterns phi D)).
Proof.
  intros H. rewrite dot_lin_comb. unfold knorm2. f_equal. unfold fpatterns. rewrite map_map.
  apply map_ext_in. intros s Hs. rewrite (kmargin_dot K phi D cs s H Hs). reflexivity.
Qed.

Lemma incr_at_length i al : length (incr_at i al) = length al.
Proof. revert i; induction al as [|a al IH]; intros [|i]; cbn; auto. Qed.

(** Updating alpha_i adds the i-th feature-space pattern to the weight vector. *)
Lemma lin_comb_incr al zs i v :
  (i < length al)%nat -> length al = length zs ->
  dot (lin_comb (map INR (incr_at i al)) zs) v =
  dot (lin_comb (map INR al) zs) v + dot (nth i zs []) v.
Proof.
  revert zs i; induction al as [|a al IH]; intros [|z zs] [|i] Hi Hl;
    cbn [length] in Hi, Hl; try lia; cbn [incr_at map lin_comb nth].
  - rewrite !dot_vadd_l, !dot_vscale_l, S_INR. ring.
  - rewrite !dot_vadd_l, IH by lia. ring.
Qed.

Lemma map_INR_repeat0 n : map INR (repeat 0%nat n) = repeat 0 n.
Proof. induction n as [|n IH]; cbn; [reflexivity|]. rewrite IH. reflexivity. Qed.

Lemma nth_fpatterns phi D i :
  (i < length D)%nat -> nth i (fpatterns phi D) [] = fpattern phi (sample_at D i).
Proof.
  intros Hi. unfold fpatterns, sample_at.
  rewrite nth_indep with (d' := fpattern phi no_sample) by (rewrite map_length; exact Hi).
  apply map_nth.
Qed.

Lemma y_sq_R l : y l * y l = 1.
Proof. destruct l; cbn; ring. Qed.

(** ** Novikoff's bound for the dual-form run, for every kernel with a feature map *)

Theorem kernel_novikoff K phi D a mu R2 order :
  feature_map K phi D ->
  0 < mu -> 0 <= R2 ->
  (forall s, In s D -> kmargin K a D s >= mu) ->
  (forall s, In s D -> K (features s) (features s) <= R2) ->
  valid D order ->
  INR (kernel_updates K D order) * (mu * mu) <= R2 * knorm2 K a D.
Proof.
  intros Hphi Hmu HR0 Hmarg HR Hv.
  set (zs := fpatterns phi D).
  set (p := lin_comb a zs).
  set (W := fun al => lin_comb (map INR al) zs).
  assert (Hlen : length zs = length D) by (unfold zs, fpatterns; apply map_length).
  set (Inv := fun st : kstate =>
    length (fst st) = length D /\
    dot p (W (fst st)) >= INR (snd st) * mu /\
    dot (W (fst st)) (W (fst st)) <= INR (snd st) * R2).
  assert (Hrun : Inv (kernel_perceptron K D order)).
  { unfold kernel_perceptron. unfold valid in Hv.
    assert (H0 : Inv (repeat 0%nat (length D), 0%nat)).
    { unfold Inv, W; cbn [fst snd]. rewrite repeat_length. split; [reflexivity|].
      rewrite !dot_lin_comb, map_INR_repeat0, !dot_repeat0_l. cbn [INR]. lra. }
    revert H0. generalize (repeat 0%nat (length D), 0%nat) as st.
    induction order as [|i order IH]; intros st Hst; cbn [fold_left]; [exact Hst|].
    inversion Hv as [|? ? Hi Hv']; subst. apply IH; [exact Hv'|].
    destruct st as [al k]. destruct Hst as [Hal [H1 H2]]; cbn [fst snd] in *.
    unfold kstep; cbn [fst snd].
    destruct (Rle_dec (kmargin K (map INR al) D (sample_at D i)) 0) as [Hle|Hgt];
      [|split; [exact Hal|split; assumption]].
    assert (Hin : In (sample_at D i) D) by (apply nth_In; exact Hi).
    assert (Hz : nth i zs [] = fpattern phi (sample_at D i)) by (apply nth_fpatterns; exact Hi).
    set (z := fpattern phi (sample_at D i)) in *.
    assert (HW : forall v, dot (W (incr_at i al)) v = dot (W al) v + dot z v).
    { intros v. unfold W. rewrite lin_comb_incr by lia. rewrite Hz. reflexivity. }
    assert (Hwz : dot (W al) z <= 0).
    { unfold W, z, zs. rewrite <- (kmargin_dot K phi D (map INR al) _ Hphi Hin). exact Hle. }
    assert (Hpz : dot p z >= mu).
    { unfold p, z, zs. rewrite <- (kmargin_dot K phi D a _ Hphi Hin). apply Hmarg. exact Hin. }
    assert (Hzz : dot z z <= R2).
    { unfold z, fpattern. rewrite dot_vscale_l, dot_vscale_r.
      rewrite <- (Hphi _ _ Hin Hin). pose proof (HR _ Hin).
      rewrite <- Rmult_assoc, y_sq_R. lra. }
    unfold Inv; cbn [fst snd]. split; [rewrite incr_at_length; exact Hal|]. rewrite S_INR. split.
    - rewrite dot_comm, HW, (dot_comm (W al) p), (dot_comm z p). lra.
    - rewrite HW, (dot_comm z (W (incr_at i al))), HW, (dot_comm (W al) (W (incr_at i al))), HW.
      rewrite (dot_comm z (W al)). lra. }
  destruct Hrun as [_ [H1 H2]].
  unfold kernel_updates.
  set (k := INR (snd (kernel_perceptron K D order))) in *.
  set (w := W (fst (kernel_perceptron K D order))) in *.
  rewrite (knorm2_dot K phi D a Hphi). fold zs p.
  pose proof (cauchy_schwarz p w) as Hcs.
  pose proof (norm2_nonneg p) as Hp0.
  pose proof (pos_INR (snd (kernel_perceptron K D order))) as Hk0. fold k in Hk0.
  destruct (Rle_lt_or_eq_dec 0 k Hk0) as [Hk|Hk]; [|rewrite <- Hk; nra].
  assert (Hpw : 0 < dot p w) by nra.
  assert (Hsq : (k * mu) * (k * mu) <= dot p p * (k * R2)).
  { assert (0 <= k * mu) by nra.
    apply Rle_trans with (dot p w * dot p w); [apply Rmult_le_compat; lra|].
    apply Rle_trans with (dot p p * dot w w); [exact Hcs|]. apply Rmult_le_compat_l; assumption. }
  apply Rmult_le_reg_l with k; [exact Hk|]. nra.
Qed.

(** ** The polynomial kernel with the bias, and its feature map *)

(** K(x, x') = (x.x' + c)^p + rho^2. *)
Definition kpoly (c : R) (p : nat) (rho : R) : kernel :=
  fun x x' => (dot x x' + c) ^ p + rho * rho.

Definition tensor (u v : vec) : vec := flat_map (fun a => vscale a v) u.

Fixpoint tpow (n : nat) (u : vec) : vec :=
  match n with
  | O => [1]
  | S n' => tensor u (tpow n' u)
  end.

Lemma length_vscale c v : length (vscale c v) = length v.
Proof. apply map_length. Qed.

Lemma length_tensor u v : length (tensor u v) = (length u * length v)%nat.
Proof.
  unfold tensor. induction u as [|a u IH]; cbn [flat_map length]; [reflexivity|].
  rewrite app_length, IH, length_vscale. reflexivity.
Qed.

Lemma dot_tensor u v u' v' :
  length u = length u' -> length v = length v' ->
  dot (tensor u v) (tensor u' v') = dot u u' * dot v v'.
Proof.
  intros Hu Hv. unfold tensor. revert u' Hu; induction u as [|a u IH]; intros [|a' u'] Hu;
    cbn [length] in Hu; try discriminate; cbn [flat_map dot]; [ring|].
  rewrite dot_app_l by (rewrite !length_vscale; exact Hv).
  rewrite IH by lia. rewrite dot_vscale_l, dot_vscale_r. ring.
Qed.

Lemma length_tpow n u : length (tpow n u) = (length u ^ n)%nat.
Proof. induction n as [|n IH]; cbn [tpow]; [reflexivity|]. rewrite length_tensor, IH. reflexivity. Qed.

Lemma dot_tpow n u u' : length u = length u' -> dot (tpow n u) (tpow n u') = dot u u' ^ n.
Proof.
  intros H. induction n as [|n IH]; cbn [tpow].
  - cbn. ring.
  - rewrite dot_tensor by (rewrite ?length_tpow; congruence). rewrite IH. reflexivity.
Qed.

(** x padded with zeros to length d. *)
Definition pad (d : nat) (x : vec) : vec := x ++ repeat 0 (d - length x).

Lemma length_pad d x : (length x <= d)%nat -> length (pad d x) = d.
Proof. intros H. unfold pad. rewrite app_length, repeat_length. lia. Qed.

(** phi(x) = (x, 0..0, sqrt c)^{(x) p} followed by rho. *)
Definition kphi (d : nat) (c : R) (p : nat) (rho : R) (x : vec) : vec :=
  tpow p (pad d x ++ [sqrt c]) ++ [rho].

Lemma kpoly_features d c p rho x x' :
  0 <= c -> (length x <= d)%nat -> (length x' <= d)%nat ->
  kpoly c p rho x x' = dot (kphi d c p rho x) (kphi d c p rho x').
Proof.
  intros Hc Hx Hx'. unfold kpoly, kphi.
  assert (Hl : length (pad d x ++ [sqrt c]) = length (pad d x' ++ [sqrt c]))
    by (rewrite !app_length, !length_pad by assumption; reflexivity).
  rewrite dot_app_l by (rewrite !length_tpow, Hl; reflexivity).
  rewrite dot_tpow by exact Hl.
  rewrite dot_app_l by (rewrite !length_pad by assumption; reflexivity).
  unfold pad. rewrite dot_pad_l, dot_pad_r. cbn [dot]. rewrite sqrt_sqrt by exact Hc. rewrite !Rplus_0_r. reflexivity.
Qed.

Definition max_length (D : dataset) : nat := fold_right Nat.max 0%nat (map (fun s => length (features s)) D).

Lemma max_length_ge D s : In s D -> (length (features s) <= max_length D)%nat.
Proof.
  unfold max_length. induction D as [|t D IH]; intros H; [destruct H|].
  cbn [map fold_right]. destruct H as [<-|H]; [lia|]. specialize (IH H). lia.
Qed.

Theorem kpoly_feature_map c p rho D :
  0 <= c -> feature_map (kpoly c p rho) (kphi (max_length D) c p rho) D.
Proof.
  intros Hc s s' Hs Hs'. apply kpoly_features; [exact Hc|apply max_length_ge; assumption..].
Qed.

(** Novikoff's bound for the kernel perceptron with the polynomial kernel, on every labelled dataset. *)
Corollary kpoly_novikoff c p rho D a mu R2 order :
  0 <= c -> 0 < mu -> 0 <= R2 ->
  (forall s, In s D -> kmargin (kpoly c p rho) a D s >= mu) ->
  (forall s, In s D -> kpoly c p rho (features s) (features s) <= R2) ->
  valid D order ->
  INR (kernel_updates (kpoly c p rho) D order) * (mu * mu) <= R2 * knorm2 (kpoly c p rho) a D.
Proof. intros Hc. apply kernel_novikoff with (phi := kphi (max_length D) c p rho), kpoly_feature_map, Hc. Qed.

(** ** The certificate, computed over Z from the data as read *)

(** The integer rows s x_i with their labels. *)
Definition zsample : Type := (list Z * label)%type.
Definition zsamples (s : Z) (data : list qsample) : list zsample :=
  map (fun smp => (map (zscaled s) (fst smp), snd smp)) data.

(** N(X, X') = (b X.X' + a2)^p ss + t: with ss = s^2, a2 = a s^2 and t = r^2 (b s^2)^p
    (c = a/b, r = s rho) it is L ((x.x' + c)^p + rho^2), L = (b s^2)^p s^2. *)
Definition zkernel (b a2 ss t : Z) (p : nat) (X X' : list Z) : Z :=
  ((b * zdot X X' + a2) ^ Z.of_nat p * ss + t)%Z.

(** sum_j A_j y_j N(X_j, X); a zero coefficient skips its kernel value (only the support is
    evaluated). *)
Fixpoint zksum (Kz : list Z -> list Z -> Z) (A : list Z) (zs : list zsample) (X : list Z) : Z :=
  match A, zs with
  | a :: A', z :: zs' =>
      if Z.eqb a 0 then zksum Kz A' zs' X else (a * zlabel (snd z) * Kz (fst z) X + zksum Kz A' zs' X)%Z
  | _, _ => 0%Z
  end.

Definition zkmargin (Kz : list Z -> list Z -> Z) (A : list Z) (zs : list zsample) (z : zsample) : Z :=
  (zlabel (snd z) * zksum Kz A zs (fst z))%Z.

Definition zmin (l : list Z) : Z :=
  match l with
  | [] => 0%Z
  | h :: t => fold_right Z.min h t
  end.
Definition zmax0 (l : list Z) : Z := fold_right Z.max 0%Z l.

(** (L, M, mu, S): the common denominator of the kernel values, max_i N_ii, the least
    margin numerator and sum_i A_i m_i. *)
Definition kernel_summary (data : list qsample) (rho c : frac) (p : nat) (A : list Z) : Z * Z * Z * Z :=
  let s := data_scale data rho in
  let ss := (s * s)%Z in
  let bss := (snd c * ss)%Z in
  let r := zscaled s rho in
  let Kz := zkernel (snd c) (fst c * ss) ss (r * r * bss ^ Z.of_nat p) p in
  let zs := zsamples s data in
  let ms := map (zkmargin Kz A zs) zs in
  ((bss ^ Z.of_nat p * ss)%Z, zmax0 (map (fun z => Kz (fst z) (fst z)) zs), zmin ms, zdot A ms).

(** The data's denominators divide their common denominator, c = a/b has b > 0 and a >= 0,
    q > 0, and there is one coefficient per sample. *)
Definition check_kernel_params (data : list qsample) (rho c : frac) (A : list Z) (q : Z) : bool :=
  check_scale data rho && Z.ltb 0 (snd c) && Z.leb 0 (fst c) && Z.ltb 0 q &&
  Nat.eqb (length A) (length data).

(** The bound floor(M S / mu^2) = floor(R^2 / gamma^2). *)
Definition kernel_bound (M mu S : Z) : Z := (M * S / (mu * mu))%Z.

(** The dual separator a = A / q. *)
Definition kalpha (A : list Z) (q : Z) : list R := map (fun v => IZR v / IZR q) A.

(** ** Soundness of the computation *)

Lemma zmin_le l v : In v l -> (zmin l <= v)%Z.
Proof.
  destruct l as [|h t]; [intros []|]. cbn [zmin].
  assert (Hh : (fold_right Z.min h t <= h)%Z)
    by (induction t as [|a t IH]; cbn [fold_right]; lia).
  intros [<-|Hv]; [exact Hh|]. clear Hh.
  induction t as [|a t IH]; [destruct Hv|].
  cbn [fold_right]. destruct Hv as [<-|Hv]; [lia|]. specialize (IH Hv). lia.
Qed.

Lemma zmax0_ge l v : In v l -> (v <= zmax0 l)%Z.
Proof.
  unfold zmax0. induction l as [|a l IH]; intros H; [destruct H|].
  cbn [fold_right]. destruct H as [<-|H]; [lia|]. specialize (IH H). lia.
Qed.

Lemma zmax0_nonneg l : (0 <= zmax0 l)%Z.
Proof. induction l as [|a l IH]; unfold zmax0 in *; cbn [fold_right]; lia. Qed.

Lemma features_rvec data rho smp :
  check_scale data rho = true -> In smp data ->
  features (to_sample smp) = rvec (data_scale data rho) (map (zscaled (data_scale data rho)) (fst smp)).
Proof.
  intros Hc Hin. destruct (check_scale_sound data rho Hc) as [Hs Hd].
  unfold to_sample, rvec, vscale; cbn [features]. rewrite !map_map. apply map_ext_in. intros q Hq.
  destruct (Hd (snd q) (in_denominators_feature data rho smp q Hin Hq)) as [Hq0 Hqm].
  rewrite <- (zscaled_R _ q Hs Hq0 Hqm). unfold Rdiv. ring.
Qed.

Lemma kpoly_scaled (u a b s r : R) (p : nat) :
  b <> 0 -> s <> 0 ->
  (u / (s * s) + a / b) ^ p + r / s * (r / s) =
  ((b * u + a * (s * s)) ^ p * (s * s) + r * r * (b * (s * s)) ^ p) / ((b * (s * s)) ^ p * (s * s)).
Proof.
  intros Hb Hs.
  replace (u / (s * s) + a / b) with ((b * u + a * (s * s)) * / (b * (s * s))) by (field; auto).
  rewrite Rpow_mult_distr, pow_inv.
  assert ((b * (s * s)) ^ p <> 0) by (apply pow_nonzero; apply Rmult_integral_contrapositive; split; [|apply Rmult_integral_contrapositive]; auto).
  field. auto.
Qed.

(** Every kernel value on the data is its integer N over L. *)
Lemma zkernel_R data rho c p smp smp' :
  check_scale data rho = true -> (0 < snd c)%Z -> In smp data -> In smp' data ->
  let s := data_scale data rho in
  let ss := (s * s)%Z in
  let r := zscaled s rho in
  kpoly (frac_R c) p (frac_R rho) (features (to_sample smp)) (features (to_sample smp')) =
  IZR (zkernel (snd c) (fst c * ss) ss (r * r * (snd c * ss) ^ Z.of_nat p) p
         (map (zscaled s) (fst smp)) (map (zscaled s) (fst smp'))) /
  IZR ((snd c * ss) ^ Z.of_nat p * ss).
Proof.
  intros Hc Hb Hin Hin' s ss r.
  destruct (check_scale_sound data rho Hc) as [Hs Hd].
  assert (Hrho : frac_R rho = IZR r / IZR s).
  { unfold r. destruct (Hd (snd rho) (or_introl eq_refl)) as [H0 Hm]. symmetry. apply zscaled_R; assumption. }
  assert (Hs0 : IZR s <> 0) by (apply not_0_IZR; lia).
  assert (Hb0 : IZR (snd c) <> 0) by (apply not_0_IZR; lia).
  unfold kpoly. rewrite (features_rvec data rho smp Hc Hin), (features_rvec data rho smp' Hc Hin').
  fold s. rewrite dot_rvec by assumption. rewrite Hrho.
  unfold frac_R at 1. rewrite kpoly_scaled by assumption.
  unfold zkernel, ss. rewrite !plus_IZR, !mult_IZR, <- !pow_IZR, ?plus_IZR, !mult_IZR. reflexivity.
Qed.

(** The sums over the data, for any integer kernel Kz that is K times L on the data. *)
Lemma ksum_zksum_gen (K : kernel) (Kz : list Z -> list Z -> Z) (f : qsample -> list Z) L q A
      (data : list qsample) (x : vec) (X : list Z) :
  IZR q <> 0 -> IZR L <> 0 ->
  (forall smp, In smp data -> K (features (to_sample smp)) x = IZR (Kz (f smp) X) / IZR L) ->
  ksum K (kalpha A q) (to_dataset data) x =
  IZR (zksum Kz A (map (fun smp => (f smp, snd smp)) data) X) / (IZR q * IZR L).
Proof.
  intros Hq HL. unfold kalpha, to_dataset.
  revert data; induction A as [|v A IH]; intros [|smp data] H; cbn [map ksum zksum]; try (unfold Rdiv; ring).
  rewrite H by (left; reflexivity). rewrite IH by (intros; apply H; right; assumption).
  destruct (Z.eqb_spec v 0) as [->|_]; [unfold Rdiv; ring|].
  cbn [fst snd]. unfold to_sample at 1; cbn [lab].
  rewrite plus_IZR, !mult_IZR, y_zlabel. field. auto.
Qed.

Lemma dot_kalpha A q (ms : list Z) (e : R) :
  IZR q <> 0 -> e <> 0 ->
  dot (kalpha A q) (map (fun m => IZR m / e) ms) = IZR (zdot A ms) / (IZR q * e).
Proof.
  intros Hq He. unfold kalpha. revert ms; induction A as [|v A IH]; intros [|m ms];
    cbn [map dot zdot]; try (unfold Rdiv; ring).
  rewrite IH, plus_IZR, mult_IZR. field. auto.
Qed.

Lemma IZR_max_div (a b L : Z) :
  (0 < L)%Z -> Rmax (IZR a / IZR L) (IZR b / IZR L) = IZR (Z.max a b) / IZR L.
Proof.
  intros HL. assert (Hi : 0 < / IZR L) by (apply Rinv_0_lt_compat, IZR_lt; exact HL).
  unfold Rmax. destruct (Rle_dec (IZR a / IZR L) (IZR b / IZR L)) as [H|H].
  - rewrite Z.max_r; [reflexivity|]. apply le_IZR. apply (Rmult_le_reg_r (/ IZR L)); [exact Hi|exact H].
  - rewrite Z.max_l; [reflexivity|]. apply le_IZR. apply Rnot_le_lt in H. apply Rlt_le.
    apply (Rmult_lt_reg_r (/ IZR L)); [exact Hi|exact H].
Qed.

Lemma fold_Rmax_IZR (l : list Z) (L : Z) :
  (0 < L)%Z -> fold_right Rmax 0 (map (fun v => IZR v / IZR L) l) = IZR (zmax0 l) / IZR L.
Proof.
  intros HL. unfold zmax0. induction l as [|v l IH]; cbn [map fold_right].
  - unfold Rdiv. rewrite Rmult_0_l. reflexivity.
  - rewrite IH. apply IZR_max_div. exact HL.
Qed.

(** What the computed numbers are, for the labelled dataset and its polynomial kernel. *)
Theorem kernel_certificate_values data rho c p A q L M mu S :
  check_kernel_params data rho c A q = true ->
  kernel_summary data rho c p A = (L, M, mu, S) ->
  let D := to_dataset data in
  let K := kpoly (frac_R c) p (frac_R rho) in
  (0 < L)%Z /\
  (forall s, In s D -> kmargin K (kalpha A q) D s >= IZR mu / (IZR q * IZR L)) /\
  (forall s, In s D -> K (features s) (features s) <= IZR M / IZR L) /\
  (0 <= M)%Z /\
  kradius2 K D = IZR M / IZR L /\
  knorm2 K (kalpha A q) D = IZR S / (IZR q * (IZR q * IZR L)).
Proof.
  intros Hp Hsum D K.
  unfold check_kernel_params in Hp. repeat rewrite andb_true_iff in Hp.
  destruct Hp as [[[[Hsc Hb] Ha] Hq] _].
  apply Z.ltb_lt in Hb. apply Z.leb_le in Ha. apply Z.ltb_lt in Hq.
  destruct (check_scale_sound data rho Hsc) as [Hs _].
  unfold kernel_summary in Hsum.
  set (s := data_scale data rho) in *.
  set (ss := (s * s)%Z) in *.
  set (r := zscaled s rho) in *.
  set (Kz := zkernel (snd c) (fst c * ss) ss (r * r * (snd c * ss) ^ Z.of_nat p) p) in *.
  set (zs := zsamples s data) in *.
  set (ms := map (zkmargin Kz A zs) zs) in *.
  injection Hsum as EL EM Emu ES.
  assert (HL : (0 < L)%Z).
  { rewrite <- EL. apply Z.mul_pos_pos; [apply Z.pow_pos_nonneg; [|lia]|]; unfold ss; nia. }
  assert (HL0 : IZR L <> 0) by (apply not_0_IZR; lia).
  assert (Hq0 : IZR q <> 0) by (apply not_0_IZR; lia).
  assert (HK : forall smp smp', In smp data -> In smp' data ->
             K (features (to_sample smp)) (features (to_sample smp')) =
             IZR (Kz (map (zscaled s) (fst smp)) (map (zscaled s) (fst smp'))) / IZR L).
  { intros smp smp' Hin Hin'. rewrite <- EL. exact (zkernel_R data rho c p smp smp' Hsc Hb Hin Hin'). }
  assert (Hmarg : forall smp, In smp data ->
             kmargin K (kalpha A q) D (to_sample smp) =
             IZR (zkmargin Kz A zs (map (zscaled s) (fst smp), snd smp)) / (IZR q * IZR L)).
  { intros smp Hin. unfold kmargin, zkmargin, D. cbn [fst snd].
    rewrite (ksum_zksum_gen K Kz (fun smp => map (zscaled s) (fst smp)) L q A data
               (features (to_sample smp)) (map (zscaled s) (fst smp)) Hq0 HL0)
      by (intros t Ht; apply HK; assumption).
    unfold to_sample at 1; cbn [lab]. rewrite mult_IZR, y_zlabel. unfold zs, zsamples. unfold Rdiv. rewrite Rmult_assoc. reflexivity. }
  assert (HinD : forall t, In t D -> exists smp, In smp data /\ t = to_sample smp).
  { intros t Ht. unfold D, to_dataset in Ht. apply in_map_iff in Ht as [smp [<- Hin]]. eauto. }
  assert (Hinms : forall smp, In smp data -> In (zkmargin Kz A zs (map (zscaled s) (fst smp), snd smp)) ms).
  { intros smp Hin. unfold ms, zs, zsamples. rewrite map_map. apply in_map_iff. exists smp. auto. }
  split; [exact HL|]. split; [|split; [|split; [|split]]].
  - intros t Ht. destruct (HinD t Ht) as [smp [Hin ->]]. rewrite (Hmarg smp Hin).
    apply Rle_ge. unfold Rdiv. apply Rmult_le_compat_r.
    + left. apply Rinv_0_lt_compat. apply Rmult_lt_0_compat; apply IZR_lt; lia.
    + apply IZR_le. rewrite <- Emu. apply zmin_le. apply Hinms. exact Hin.
  - intros t Ht. destruct (HinD t Ht) as [smp [Hin ->]]. rewrite (HK smp smp Hin Hin).
    unfold Rdiv. apply Rmult_le_compat_r; [left; apply Rinv_0_lt_compat, IZR_lt; lia|].
    apply IZR_le. rewrite <- EM. apply zmax0_ge. unfold zs, zsamples. rewrite map_map.
    apply in_map_iff. exists smp. auto.
  - rewrite <- EM. apply zmax0_nonneg.
  - unfold kradius2, D, to_dataset. rewrite map_map, <- EM, <- fold_Rmax_IZR by exact HL.
    unfold zs, zsamples. rewrite !map_map. f_equal. apply map_ext_in. intros smp Hin.
    apply HK; assumption.
  - unfold knorm2.
    replace (map (kmargin K (kalpha A q) D) D) with (map (fun m => IZR m / (IZR q * IZR L)) ms).
    + rewrite dot_kalpha by (try apply Rmult_integral_contrapositive; auto). rewrite ES. reflexivity.
    + unfold ms, zs, zsamples, D, to_dataset. rewrite !map_map. apply map_ext_in.
      intros smp Hin. symmetry. apply Hmarg. exact Hin.
Qed.

(** The kernel perceptron on the labelled dataset makes at most floor(M S / mu^2) updates
    in every order, when the least margin mu is positive. *)
Theorem kernel_certificate_bound data rho c p A q L M mu S order :
  check_kernel_params data rho c A q = true ->
  kernel_summary data rho c p A = (L, M, mu, S) ->
  (0 < mu)%Z ->
  valid (to_dataset data) order ->
  (Z.of_nat (kernel_updates (kpoly (frac_R c) p (frac_R rho)) (to_dataset data) order)
     <= kernel_bound M mu S)%Z.
Proof.
  intros Hp Hsum Hmu Hv.
  destruct (kernel_certificate_values data rho c p A q L M mu S Hp Hsum) as [HL [Hm [HR [HM0 [_ Hn]]]]].
  unfold check_kernel_params in Hp. repeat rewrite andb_true_iff in Hp.
  destruct Hp as [[[[_ Hb] Ha] Hq] _].
  apply Z.ltb_lt in Hb. apply Z.leb_le in Ha. apply Z.ltb_lt in Hq.
  assert (Hqp : 0 < IZR q) by (apply IZR_lt; exact Hq).
  assert (HLp : 0 < IZR L) by (apply IZR_lt; exact HL).
  assert (Hmup : 0 < IZR mu) by (apply IZR_lt; exact Hmu).
  assert (Hc : 0 <= frac_R c).
  { unfold frac_R, Rdiv. apply Rmult_le_pos; [apply IZR_le; exact Ha|].
    left. apply Rinv_0_lt_compat, IZR_lt. exact Hb. }
  assert (HM : 0 <= IZR M / IZR L).
  { unfold Rdiv. apply Rmult_le_pos; [apply IZR_le; exact HM0|]. left. apply Rinv_0_lt_compat. exact HLp. }
  assert (Hmu' : 0 < IZR mu / (IZR q * IZR L)) by (apply Rdiv_lt_0_compat; nra).
  pose proof (kpoly_novikoff (frac_R c) p (frac_R rho) (to_dataset data) (kalpha A q)
                (IZR mu / (IZR q * IZR L)) (IZR M / IZR L) order Hc Hmu' HM Hm HR Hv) as H.
  rewrite Hn in H.
  set (k := kernel_updates (kpoly (frac_R c) p (frac_R rho)) (to_dataset data) order) in *.
  assert (HZ : (Z.of_nat k * (mu * mu) <= M * S)%Z).
  { apply le_IZR. rewrite !mult_IZR, <- INR_IZR_INZ.
    set (e := IZR q * IZR L) in *.
    assert (He : 0 < e) by (unfold e; nra).
    replace (IZR M / IZR L * (IZR S / (IZR q * e))) with (IZR M * IZR S / (e * e)) in H
      by (unfold e; field; split; lra).
    replace (INR k * (IZR mu / e * (IZR mu / e))) with (INR k * (IZR mu * IZR mu) / (e * e)) in H
      by (field; lra).
    apply (Rmult_le_compat_r (e * e)) in H; [|nra].
    unfold Rdiv in H. rewrite !Rmult_assoc, Rinv_l, !Rmult_1_r in H by nra. exact H. }
  unfold kernel_bound. apply Z.div_le_lower_bound; [nia|]. lia.
Qed.

(** The same bound in real terms: k margin^2 <= R^2 (a^T (Y K Y) a), i.e. k <= R^2 / gamma^2
    with R^2 = max_i K(x_i, x_i) and gamma^2 = margin^2 / (a^T (Y K Y) a), margin the least
    y_i sum_j a_j y_j K(x_j, x_i). *)
Theorem kernel_certificate_ratio data rho c p A q L M mu S order :
  check_kernel_params data rho c A q = true ->
  kernel_summary data rho c p A = (L, M, mu, S) ->
  (0 < mu)%Z ->
  valid (to_dataset data) order ->
  let D := to_dataset data in
  let K := kpoly (frac_R c) p (frac_R rho) in
  let margin := IZR mu / (IZR q * IZR L) in
  INR (kernel_updates K D order) * (margin * margin) <= kradius2 K D * knorm2 K (kalpha A q) D.
Proof.
  intros Hp Hsum Hmu Hv D K margin.
  destruct (kernel_certificate_values data rho c p A q L M mu S Hp Hsum) as [HL [Hm [HR [HM0 [Hr _]]]]].
  fold D K in Hm, HR, Hr. rewrite Hr.
  unfold check_kernel_params in Hp. repeat rewrite andb_true_iff in Hp.
  destruct Hp as [[[[_ Hb] Ha] Hq] _].
  apply Z.ltb_lt in Hb. apply Z.leb_le in Ha. apply Z.ltb_lt in Hq.
  assert (Hc : 0 <= frac_R c).
  { unfold frac_R, Rdiv. apply Rmult_le_pos; [apply IZR_le; exact Ha|].
    left. apply Rinv_0_lt_compat, IZR_lt. exact Hb. }
  assert (HLp : 0 < IZR L) by (apply IZR_lt; exact HL).
  assert (HM : 0 <= IZR M / IZR L).
  { unfold Rdiv. apply Rmult_le_pos; [apply IZR_le; exact HM0|]. left. apply Rinv_0_lt_compat. exact HLp. }
  assert (Hmu' : 0 < margin).
  { unfold margin. apply Rdiv_lt_0_compat; [apply IZR_lt; exact Hmu|].
    apply Rmult_lt_0_compat; [apply IZR_lt; exact Hq | exact HLp]. }
  exact (kpoly_novikoff (frac_R c) p (frac_R rho) D (kalpha A q) margin (IZR M / IZR L) order
           Hc Hmu' HM Hm HR Hv).
Qed.

(** ** Non-vacuity: XOR, not linearly separable, separated by the kernel (x.x' + 1)^2

    (1,1)+, (-1,-1)+, (1,-1)-, (-1,1)- with rho = 0 and a = (1, 1, 1, 1) / 4: K(x_i, x_i) = 9
    and K(x_i, x_j) = 1 for i <> j, so L = 1, M = 9, every margin numerator is 9 + 1 - 1 - 1 = 8
    and S = 32: R^2 = 9, a^T (Y K Y) a = 2, margins 2, gamma^2 = 4 / 2 and at most
    floor(9 / 2) = 4 updates. *)
Example kernel_certificate_example :
  let data : list qsample :=
    [([(1, 1); (1, 1)]%Z, pos); ([(-1, 1); (-1, 1)]%Z, pos);
     ([(1, 1); (-1, 1)]%Z, neg); ([(-1, 1); (1, 1)]%Z, neg)] in
  check_kernel_params data (0, 1)%Z (1, 1)%Z [1; 1; 1; 1]%Z 4 = true /\
  kernel_summary data (0, 1)%Z (1, 1)%Z 2 [1; 1; 1; 1]%Z = (1, 9, 8, 32)%Z /\
  kernel_bound 9 8 32 = 4%Z.
Proof. split; [|split]; vm_compute; reflexivity. Qed.

(** ** Not separable in feature space: a Gordan certificate, checked in Z

    lambda_i = A_i / q >= 0 with sum lambda = 1 and lambda^T (Y K Y) lambda = 0 (computed as
    S = 0 by [kernel_summary]): the feature-space patterns y_i phi(x_i) combine to the zero
    vector, so no dual separator has a positive margin on every sample: for every
    coefficients c some sample has y_i sum_j c_j y_j K(x_j, x_i) <= 0, and the kernel
    perceptron, whatever its counts alpha, errs on some sample. *)

Definition check_kernel_gordan (data : list qsample) (rho c : frac) (A : list Z) (q : Z) : bool :=
  check_kernel_params data rho c A q && forallb (Z.leb 0) A && Z.eqb (fold_right Z.add 0%Z A) q.

Lemma dot_kalpha_l A q (fs : list R) : dot (kalpha A q) fs = dot (map IZR A) fs / IZR q.
Proof.
  unfold kalpha. revert fs; induction A as [|v A IH]; intros [|f fs]; cbn [map dot];
    try (unfold Rdiv; ring).
  rewrite IH. unfold Rdiv. ring.
Qed.

(** No dual separator: the feature-space hull of the patterns holds the origin. *)
Theorem kernel_gordan_sound data rho c p A q L M mu :
  check_kernel_gordan data rho c A q = true ->
  kernel_summary data rho c p A = (L, M, mu, 0%Z) ->
  let D := to_dataset data in
  let K := kpoly (frac_R c) p (frac_R rho) in
  forall cs : list R, exists s, In s D /\ kmargin K cs D s <= 0.
Proof.
  intros Hg Hsum D K cs.
  unfold check_kernel_gordan in Hg. apply andb_prop in Hg as [Hg Hsum1].
  apply andb_prop in Hg as [Hp HA]. apply Z.eqb_eq in Hsum1.
  destruct (kernel_certificate_values data rho c p A q L M mu 0 Hp Hsum) as [HL [_ [_ [_ [_ Hn]]]]].
  fold D K in Hn.
  pose proof Hp as Hp'. unfold check_kernel_params in Hp'. repeat rewrite andb_true_iff in Hp'.
  destruct Hp' as [[[[_ Hb] Ha] Hq] Hlen].
  apply Z.ltb_lt in Hb. apply Z.leb_le in Ha. apply Z.ltb_lt in Hq. apply Nat.eqb_eq in Hlen.
  assert (Hc : 0 <= frac_R c).
  { unfold frac_R, Rdiv. apply Rmult_le_pos; [apply IZR_le; exact Ha|].
    left. apply Rinv_0_lt_compat, IZR_lt. exact Hb. }
  set (phi := kphi (max_length D) (frac_R c) p (frac_R rho)).
  assert (Hphi : feature_map K phi D) by (apply kpoly_feature_map; exact Hc).
  set (zs := fpatterns phi D).
  set (P := lin_comb (kalpha A q) zs).
  set (W := lin_comb cs zs).
  assert (HPP : dot P P = 0).
  { unfold P, zs. rewrite <- (knorm2_dot K phi D _ Hphi), Hn. unfold Rdiv. ring. }
  assert (HWP : dot W P = 0).
  { pose proof (cauchy_schwarz W P) as Hcs. rewrite HPP in Hcs. nra. }
  assert (Hcomb : dot (kalpha A q) (map (kmargin K cs D) D) = 0).
  { rewrite <- HWP. unfold P. rewrite dot_lin_comb. f_equal. unfold zs, fpatterns. rewrite map_map.
    apply map_ext_in. intros s Hs. rewrite (kmargin_dot K phi D cs s Hphi Hs). reflexivity. }
  destruct (Forall_dec (fun s => 0 < kmargin K cs D s) (fun s => Rlt_dec 0 (kmargin K cs D s)) D)
    as [Hall|Hnot].
  - exfalso.
    assert (HAf : Forall (fun l => (0 <= l)%Z) A).
    { apply Forall_forall. intros l Hl. rewrite forallb_forall in HA. apply Z.leb_le. auto. }
    assert (Hpos : 0 < dot (map IZR A) (map (kmargin K cs D) D)).
    { apply dot_pos_combination; [rewrite map_length; unfold D, to_dataset; rewrite map_length; exact Hlen
                                 | exact HAf | lia | apply Forall_map; exact Hall]. }
    rewrite dot_kalpha_l in Hcomb.
    assert (Hq0 : 0 < IZR q) by (apply IZR_lt; exact Hq).
    unfold Rdiv in Hcomb. apply Rmult_integral in Hcomb as [E|E]; [lra|].
    apply Rinv_neq_0_compat in E; [exact E|lra].
  - apply neg_Forall_Exists_neg in Hnot; [|intros s; apply Rlt_dec].
    apply Exists_exists in Hnot as [s [Hs Hn']]. exists s. split; [exact Hs | lra].
Qed.

(** Non-vacuity: XOR with the linear kernel x.x' + 0 and no bias, lambda = 1/4 each. *)
Example kernel_gordan_example :
  let data : list qsample :=
    [([(1, 1); (1, 1)]%Z, pos); ([(-1, 1); (-1, 1)]%Z, pos);
     ([(1, 1); (-1, 1)]%Z, neg); ([(-1, 1); (1, 1)]%Z, neg)] in
  check_kernel_gordan data (0, 1)%Z (0, 1)%Z [1; 1; 1; 1]%Z 4 = true /\
  kernel_summary data (0, 1)%Z (0, 1)%Z 1 [1; 1; 1; 1]%Z = (1, 2, 0, 0)%Z.
Proof. split; vm_compute; reflexivity. Qed.
