(** * PFM and PDM over integers, proved equal to the runs of [LargeMargin].

    [LargeMargin.pfm_run] and [LargeMargin.pdm_run] (the PDM paper's perceptron with
    fixed margin and perceptron with decreasing margin) are runs over the reals.  This
    file defines one integer epoch loop [zg_epochs], parametrized by an integer decision,
    and proves ([zg_epochs_correct]) that it is the real run of the matching real decision
    on the patterns Z_i / L, whenever the two decisions agree on every integer state.
    The two integer decisions, with the parameters as fractions (beta = bn / bd,
    eps = en / ed) and the scale L > 0 of the patterns:

    - PFM: update iff W.Z <= 0, or (W.Z)^2 bd^2 <= bn^2 L^2 ||W||^2 ([zpfm_test_R]);
    - PDM: update iff t = 0, or t (W.Z) ed <= (ed - en) ||W||^2 ([zpdm_test_R]);

    so [zpfm_correct] and [zpdm_correct] state that the loop's weights over L, its count
    and its updated indices are those of [pfm_run] and [pdm_run].  The update count is
    carried both as [nat] (for the statements) and as [Z] (for the decision, no unary
    arithmetic), proved equal. *)

From Coq Require Import Reals List Lra Psatz Arith ZArith.
From Novikoff Require Import Vectors Perceptron LargeMargin.
From NovikoffExtracted Require Import ZPerceptron.
Import ListNotations.

(** ** A real run of any additive rule, and the indices it updates on *)

Definition gstep (rt : vec -> nat -> vec -> bool) (s : state) (z : vec) : state :=
  if rt (fst s) (snd s) z then update s z else s.

Fixpoint gtrace (rt : vec -> nat -> vec -> bool) (ps : list (nat * vec)) (s : state) : list nat :=
  match ps with
  | [] => []
  | (i, z) :: ps' => if rt (fst s) (snd s) z then i :: gtrace rt ps' (update s z) else gtrace rt ps' s
  end.

(** The presentations of [order] as (index, pattern) pairs. *)
Definition rpresent (zs : list vec) (order : list nat) : list (nat * vec) :=
  map (fun i => (i, pattern zs i)) order.

(** ** The integer loop *)

Fixpoint zg_pairs (zt : zvec -> Z -> zvec -> bool) (ps : list (nat * zvec))
    (w : zvec) (k : nat) (kz : Z) (tr : list nat) : zvec * nat * Z * list nat :=
  match ps with
  | [] => (w, k, kz, tr)
  | (i, z) :: ps' =>
      if zt w kz z then zg_pairs zt ps' (zvadd w z) (S k) (Z.succ kz) (i :: tr)
      else zg_pairs zt ps' w k kz tr
  end.

Fixpoint zg_epochs_from (zt : zvec -> Z -> zvec -> bool) (pres_of : nat -> list (nat * zvec))
    (fuel e : nat) (w : zvec) (k : nat) (kz : Z) (tr : list nat)
  : zvec * nat * Z * list nat * nat * bool :=
  match fuel with
  | O => (w, k, kz, tr, e, false)
  | S fuel' =>
      let '(w', k', kz', tr') := zg_pairs zt (pres_of e) w k kz tr in
      if Nat.eqb k' k then (w', k', kz', tr', S e, true)
      else zg_epochs_from zt pres_of fuel' (S e) w' k' kz' tr'
  end.

Definition zg_epochs zt pres_of fuel := zg_epochs_from zt pres_of fuel 0 [] 0 0%Z [].

Section Generic.

Variable zt : zvec -> Z -> zvec -> bool.
Variable rt : vec -> nat -> vec -> bool.
Variable c : R.
Definition sc (u : zvec) : vec := vscale c (inj u).
Hypothesis Hdec : forall W t Z, zt W (Z.of_nat t) Z = rt (sc W) t (sc Z).

Lemma sc_vadd u v : sc (zvadd u v) = vadd (sc u) (sc v).
Proof. unfold sc. rewrite zvadd_R, vadd_vscale. reflexivity. Qed.

Definition scp (p : nat * zvec) : nat * vec := (fst p, sc (snd p)).

Lemma zg_pairs_R ps w k tr :
  let '(w', k', kz', tr') := zg_pairs zt ps w k (Z.of_nat k) tr in
  fold_left (gstep rt) (map (fun p => sc (snd p)) ps) (sc w, k) = (sc w', k') /\
  kz' = Z.of_nat k' /\
  rev tr' = rev tr ++ gtrace rt (map scp ps) (sc w, k) /\
  (k <= k')%nat /\ (k' = k -> w' = w /\ tr' = tr).
Proof.
  revert w k tr; induction ps as [|[i z] ps IH]; intros w k tr; simpl.
  - rewrite app_nil_r. repeat split; auto.
  - unfold gstep at 2; cbn [fst snd]. rewrite <- Hdec.
    destruct (zt w (Z.of_nat k) z).
    + rewrite <- Nat2Z.inj_succ.
      specialize (IH (zvadd w z) (S k) (i :: tr)).
      destruct (zg_pairs zt ps (zvadd w z) (S k) (Z.of_nat (S k)) (i :: tr)) as [[[w' k'] kz'] tr'].
      unfold update in *; cbn [fst snd]. rewrite <- sc_vadd.
      destruct IH as [H1 [H2 [H3 [H4 _]]]]. split; [exact H1|]. split; [exact H2|].
      split; [rewrite H3; simpl; rewrite <- app_assoc; reflexivity|]. split; [lia|intros; lia].
    + apply IH.
Qed.

Lemma zg_pairs_app p1 p2 w k kz tr :
  zg_pairs zt (p1 ++ p2) w k kz tr =
  let '(w', k', kz', tr') := zg_pairs zt p1 w k kz tr in zg_pairs zt p2 w' k' kz' tr'.
Proof.
  revert w k kz tr; induction p1 as [|[i z] p IH]; intros w k kz tr; simpl; [reflexivity|].
  destruct (zt w kz z); apply IH.
Qed.

(** The presentations of epochs [e] .. [e + n - 1]. *)
Fixpoint pairs_of (pres_of : nat -> list (nat * zvec)) (e n : nat) : list (nat * zvec) :=
  match n with
  | O => []
  | S n' => pres_of e ++ pairs_of pres_of (S e) n'
  end.

Lemma zg_epochs_from_spec pres_of fuel e w k kz tr :
  let '(w', k', kz', tr', e', conv) := zg_epochs_from zt pres_of fuel e w k kz tr in
  (e <= e' <= e + fuel)%nat /\
  zg_pairs zt (pairs_of pres_of e (e' - e)) w k kz tr = (w', k', kz', tr') /\
  (conv = true -> (e < e')%nat /\ zg_pairs zt (pres_of (pred e')) w' k' kz' tr' = (w', k', kz', tr')).
Proof.
  revert e w k kz tr; induction fuel as [|fuel IH]; intros e w k kz tr; simpl.
  - rewrite Nat.sub_diag. simpl. split; [lia|]. split; [reflexivity|discriminate].
  - destruct (zg_pairs zt (pres_of e) w k kz tr) as [[[w1 k1] kz1] tr1] eqn:E1.
    destruct (Nat.eqb_spec k1 k) as [Heq|Hne].
    + subst k1. split; [lia|]. replace (S e - e)%nat with 1%nat by lia. simpl.
      rewrite app_nil_r, E1. split; [reflexivity|]. intros _. split; [lia|]. simpl.
      (* no update in this epoch: the pairs leave the state as it was *)
      assert (Hstill : forall ps w k kz tr,
                 let '(w', k', kz', tr') := zg_pairs zt ps w k kz tr in
                 k' = k -> w' = w /\ kz' = kz /\ tr' = tr).
      { clear. induction ps as [|[i z] ps IH]; intros w k kz tr; simpl; [auto|].
        destruct (zt w kz z); [|apply IH].
        assert (Hmono : forall ps w k kz tr, let '(_, k', _, _) := zg_pairs zt ps w k kz tr in (k <= k')%nat).
        { clear. induction ps as [|[i z] ps IH]; intros w k kz tr; simpl; [lia|].
          destruct (zt w kz z); [|apply IH].
          specialize (IH (zvadd w z) (S k) (Z.succ kz) (i :: tr)).
          destruct (zg_pairs zt ps (zvadd w z) (S k) (Z.succ kz) (i :: tr)) as [[[? ?] ?] ?]. lia. }
        specialize (Hmono ps (zvadd w z) (S k) (Z.succ kz) (i :: tr)).
        destruct (zg_pairs zt ps (zvadd w z) (S k) (Z.succ kz) (i :: tr)) as [[[? ?] ?] ?]. lia. }
      specialize (Hstill (pres_of e) w k kz tr). rewrite E1 in Hstill.
      destruct (Hstill eq_refl) as [-> [-> ->]]. exact E1.
    + specialize (IH (S e) w1 k1 kz1 tr1).
      destruct (zg_epochs_from zt pres_of fuel (S e) w1 k1 kz1 tr1) as [[[[[w' k'] kz'] tr'] e'] conv].
      destruct IH as [Hle [Hrun Hconv]]. split; [lia|].
      replace (e' - e)%nat with (S (e' - S e)) by lia. simpl.
      rewrite zg_pairs_app, E1. split; [exact Hrun|].
      intros Hc'. destruct (Hconv Hc') as [Hl He]. split; [lia|exact He].
Qed.

Variable Zs : list zvec.
Definition zsR : list vec := map sc Zs.

Lemma pairs_of_present perm_of pres_of e n :
  (forall e, pres_of e = zpresent Zs (perm_of e)) ->
  pairs_of pres_of e n = zpresent Zs (epochs_order perm_of e n).
Proof.
  intros Hp. revert e; induction n as [|n IH]; intros e; simpl; [reflexivity|].
  rewrite IH, Hp. unfold zpresent. rewrite map_app. reflexivity.
Qed.

Lemma present_sc order :
  map (fun p => sc (snd p)) (zpresent Zs order) = presented zsR order /\
  map scp (zpresent Zs order) = rpresent zsR order.
Proof.
  unfold zpresent, presented, rpresent, zsR, pattern, zpattern, scp. rewrite !map_map.
  assert (E : forall i, sc (nth i Zs []) = nth i (map sc Zs) []).
  { intros i. change (@nil R) with (sc []). symmetry. apply map_nth. }
  split; apply map_ext; intros i; simpl; rewrite E; reflexivity.
Qed.

(** The integer loop is the real run of [rt] on the patterns c Z_i, over the epochs it
    presented: same weights (times c), count, updated indices; "converged" means its last
    epoch made no update. *)
Theorem zg_epochs_correct perm_of pres_of fuel :
  (forall e, pres_of e = zpresent Zs (perm_of e)) ->
  let '(w, k, kz, tr, E, conv) := zg_epochs zt pres_of fuel in
  let order := epochs_order perm_of 0 E in
  fold_left (gstep rt) (presented zsR order) init = (sc w, k) /\
  rev tr = gtrace rt (rpresent zsR order) init /\
  kz = Z.of_nat k /\ (E <= fuel)%nat /\
  (conv = true -> (0 < E)%nat /\ zg_pairs zt (pres_of (pred E)) w k kz tr = (w, k, kz, tr)).
Proof.
  intros Hp. unfold zg_epochs.
  pose proof (zg_epochs_from_spec pres_of fuel 0 [] 0 0%Z []) as H.
  destruct (zg_epochs_from zt pres_of fuel 0 [] 0 0 []) as [[[[[w k] kz] tr] E] conv].
  destruct H as [HE [Hrun Hconv]]. rewrite Nat.sub_0_r, (pairs_of_present perm_of) in Hrun by exact Hp.
  pose proof (zg_pairs_R (zpresent Zs (epochs_order perm_of 0 E)) [] 0 []) as HR.
  change (Z.of_nat 0) with 0%Z in HR. rewrite Hrun in HR.
  destruct (present_sc (epochs_order perm_of 0 E)) as [P1 P2].
  rewrite P1, P2 in HR. change (sc []) with (@nil RbaseSymbolsImpl.R) in HR.
  destruct HR as [R1 [R2 [R3 _]]].
  split; [exact R1|]. split; [exact R3|]. split; [exact R2|]. split; [lia|].
  intros Hc'. destruct (Hconv Hc') as [Hl He]. split; [lia|exact He].
Qed.

End Generic.

(** ** The two decisions *)

Local Open Scope Z_scope.

Definition zpfm_test (bn bd L : Z) (w : zvec) (_ : Z) (z : zvec) : bool :=
  let p := zdot_acc 0 w z in
  if Z.leb p 0 then true else Z.leb (p * p * (bd * bd)) (bn * bn * (L * L) * zdot_acc 0 w w).

Definition zpdm_test (en ed : Z) (w : zvec) (t : Z) (z : zvec) : bool :=
  if Z.eqb t 0 then true else Z.leb (t * zdot_acc 0 w z * ed) ((ed - en) * zdot_acc 0 w w).

Local Open Scope R_scope.

Lemma dot_sc c u v : dot (sc c u) (sc c v) = c * c * IZR (zdot u v).
Proof. unfold sc. rewrite dot_vscale_l, dot_vscale_r, zdot_R. ring. Qed.

Lemma leb_R a b : Z.leb a b = if Rle_dec (IZR a) (IZR b) then true else false.
Proof.
  destruct (Rle_dec (IZR a) (IZR b)) as [H|H].
  - apply Z.leb_le, le_IZR, H.
  - apply Z.leb_gt, lt_IZR. lra.
Qed.

Lemma zpfm_test_R bn bd L W t Z :
  (0 < bd)%Z -> (0 < L)%Z ->
  zpfm_test bn bd L W (Z.of_nat t) Z =
  pfm_test (IZR bn / IZR bd) (sc (/ IZR L) W) (sc (/ IZR L) Z).
Proof.
  intros Hbd HL. apply IZR_lt in Hbd, HL.
  unfold zpfm_test, pfm_test, norm2. rewrite !zdot_acc_spec, !Z.add_0_l, !dot_sc.
  rewrite (leb_R (zdot W Z) 0), (leb_R (_ * _ * _) _), !mult_IZR. change (IZR 0) with 0.
  set (p := IZR (zdot W Z)). set (w2 := IZR (zdot W W)).
  set (l := IZR L). set (b := IZR bn). set (d := IZR bd).
  assert (HL' : 0 < l) by exact HL. assert (Hd' : 0 < d) by exact Hbd.
  clearbody p w2 l b d.
  assert (Hl : 0 < / l) by (apply Rinv_0_lt_compat; exact HL').
  assert (Hll : 0 < / l * / l) by nra.
  destruct (Rle_dec p 0) as [H0|H0]; destruct (Rle_dec (/ l * / l * p) 0) as [H1|H1].
  - reflexivity.
  - exfalso. apply H1. nra.
  - exfalso. apply H0. nra.
  - (* both tests, multiplied by l^4 d^2 > 0, read p^2 d^2 <= b^2 l^2 w2 *)
    assert (HK : 0 < l * l * l * l * (d * d)) by (repeat apply Rmult_lt_0_compat; assumption).
    assert (EL : (/ l * / l * p) ^ 2 * (l * l * l * l * (d * d)) = p * p * (d * d)) by (field; lra).
    assert (ER : (b / d) ^ 2 * (/ l * / l * w2) * (l * l * l * l * (d * d)) = b * b * (l * l) * w2)
      by (field; lra).
    destruct (Rle_dec (p * p * (d * d)) (b * b * (l * l) * w2)) as [A|A];
      destruct (Rle_dec ((/ l * / l * p) ^ 2) ((b / d) ^ 2 * (/ l * / l * w2))) as [B|B];
      try reflexivity; exfalso.
    + apply B. apply Rmult_le_reg_r with (l * l * l * l * (d * d)); [exact HK|]. lra.
    + apply A. rewrite <- EL, <- ER. apply Rmult_le_compat_r; [lra|exact B].
Qed.

Lemma zpdm_test_R en ed L W t Z :
  (0 < ed)%Z -> (0 < L)%Z ->
  zpdm_test en ed W (Z.of_nat t) Z =
  pdm_test (IZR en / IZR ed) (sc (/ IZR L) W) t (sc (/ IZR L) Z).
Proof.
  intros Hed HL. apply IZR_lt in Hed, HL.
  unfold zpdm_test, pdm_test, norm2. rewrite !zdot_acc_spec, !Z.add_0_l. destruct t as [|t].
  - reflexivity.
  - change (Z.of_nat (S t) =? 0)%Z with false. rewrite !dot_sc, leb_R, !mult_IZR, minus_IZR.
    rewrite <- INR_IZR_INZ.
    set (p := IZR (zdot W Z)). set (w2 := IZR (zdot W W)). set (tt := INR (S t)).
    set (l := IZR L). set (e := IZR en). set (d := IZR ed).
    assert (HL' : 0 < l) by exact HL. assert (Hd' : 0 < d) by exact Hed.
    assert (Ht : 0 < tt) by (apply lt_0_INR; lia).
    clearbody p w2 tt l e d.
    assert (HK : 0 < l * l * d) by (repeat apply Rmult_lt_0_compat; assumption).
    assert (EL : tt * (/ l * / l * p) * (l * l * d) = tt * p * d) by (field; lra).
    assert (ER : (1 - e / d) * (/ l * / l * w2) * (l * l * d) = (d - e) * w2) by (field; lra).
    destruct (Rle_dec (tt * p * d) ((d - e) * w2)) as [A|A];
      destruct (Rle_dec (tt * (/ l * / l * p)) ((1 - e / d) * (/ l * / l * w2))) as [B|B];
      try reflexivity; exfalso.
    + apply B. apply Rmult_le_reg_r with (l * l * d); [exact HK|]. lra.
    + apply A. rewrite <- EL, <- ER. apply Rmult_le_compat_r; [lra|exact B].
Qed.

(** ** PFM and PDM: the integer loops are the runs of [LargeMargin] *)

(** The rational patterns Z_i / L. *)
Definition scaled (L : Z) (Zs : list zvec) : list vec := map (sc (/ IZR L)) Zs.

Theorem zpfm_correct bn bd L Zs perm_of pres_of fuel :
  (0 < bd)%Z -> (0 < L)%Z -> (forall e, pres_of e = zpresent Zs (perm_of e)) ->
  let beta := IZR bn / IZR bd in
  let '(w, k, kz, tr, E, conv) := zg_epochs (zpfm_test bn bd L) pres_of fuel in
  let order := epochs_order perm_of 0 E in
  pfm_run beta (scaled L Zs) order = (sc (/ IZR L) w, k) /\
  rev tr = gtrace (fun w _ z => pfm_test beta w z) (rpresent (scaled L Zs) order) init /\
  (E <= fuel)%nat /\
  (conv = true -> (0 < E)%nat /\ zg_pairs (zpfm_test bn bd L) (pres_of (pred E)) w k kz tr = (w, k, kz, tr)).
Proof.
  intros Hbd HL Hp beta.
  assert (Hc : 0 < / IZR L) by (apply Rinv_0_lt_compat, IZR_lt; exact HL).
  pose proof (zg_epochs_correct (zpfm_test bn bd L) (fun w _ z => pfm_test beta w z) (/ IZR L)
                (fun W t Z => zpfm_test_R bn bd L W t Z Hbd HL) Zs perm_of pres_of fuel Hp) as H.
  destruct (zg_epochs (zpfm_test bn bd L) pres_of fuel) as [[[[[w k] kz] tr] E] conv].
  destruct H as [H1 [H2 [_ [H3 H4]]]]. split; [exact H1|]. split; [exact H2|]. split; [exact H3|exact H4].
Qed.

Theorem zpdm_correct en ed L Zs perm_of pres_of fuel :
  (0 < ed)%Z -> (0 < L)%Z -> (forall e, pres_of e = zpresent Zs (perm_of e)) ->
  let eps := IZR en / IZR ed in
  let '(w, k, kz, tr, E, conv) := zg_epochs (zpdm_test en ed) pres_of fuel in
  let order := epochs_order perm_of 0 E in
  pdm_run eps (scaled L Zs) order = (sc (/ IZR L) w, k) /\
  rev tr = gtrace (pdm_test eps) (rpresent (scaled L Zs) order) init /\
  (E <= fuel)%nat /\
  (conv = true -> (0 < E)%nat /\ zg_pairs (zpdm_test en ed) (pres_of (pred E)) w k kz tr = (w, k, kz, tr)).
Proof.
  intros Hed HL Hp eps.
  assert (Hc : 0 < / IZR L) by (apply Rinv_0_lt_compat, IZR_lt; exact HL).
  pose proof (zg_epochs_correct (zpdm_test en ed) (pdm_test eps) (/ IZR L)
                (fun W t Z => zpdm_test_R en ed L W t Z Hed HL) Zs perm_of pres_of fuel Hp) as H.
  destruct (zg_epochs (zpdm_test en ed) pres_of fuel) as [[[[[w k] kz] tr] E] conv].
  destruct H as [H1 [H2 [_ [H3 H4]]]]. split; [exact H1|]. split; [exact H2|]. split; [exact H3|exact H4].
Qed.
