(** * ROMMA's run on labelled data (Li and Long 2002), in every dimension.

    The relaxed online maximum margin algorithm as [novikoff.reference.romma.run_romma] runs
    it: from w = 0, on each presented sample s (reflected pattern z = y (x, rho), [Labelled]),
    with p = y (w . (x, rho)) ([Labelled.signed_margin]):

    - the decision rule, written once ([romma_test]): update iff p <= 0 (the conservative
      rule, Li and Long's ROMMA; ties update) or iff p < 1 - eps (the aggressive rule,
      eps >= 0); a mistake is an update with p <= 0 ([is_mistake]);
    - the closed-form update ([romma_coeffs], [romma_update]), with l = ||w||^2, q = ||z||^2,
      a = q l - p^2: if q = 0 the constraint set is empty; if p >= q l, w <- z/q; else if
      a = 0 the set is empty; else w <- ((q l - p)/a) w + (l (1 - p)/a) z.  An empty set
      stops the run ([rstopped]): it certifies that the data are not separable.

    What is proved of the closed form, and used: for p < 1 the new w' satisfies both
    constraints, w'.w >= ||w||^2 and w'.z = 1, and every v satisfying them has
    v.w' >= ||w'||^2 ([romma_update_optimal]; hence w' IS the minimum-norm point of
    {v : v.w >= ||w||^2, v.z >= 1}, [romma_update_min_norm]).  The mistake bound is proved
    from these facts about the closed form, not from a separate optimisation argument:

    - every v with v.z_i >= 1 for all patterns (such as u = p*/||p*||^2 for a separating
      certificate p* ) keeps v.w >= ||w||^2 through the run, so ||w||^2 <= ||v||^2
      ([romma_norm_le]): gamma^2 ||w||^2 <= 1;
    - the update never shrinks ||w|| and raises q (||w'||^2 - ||w||^2) >= (1 - p)^2
      (Cauchy-Schwarz on (w' - w).z = 1 - p);
    - on separable data the set is never empty ([romma_coeffs_some]): the run never stops.

    [romma_premises] collects, for the run's k mistakes, the sequences the printed statement
    R1 speaks of ([novikoff.spec.romma.R1]): ||w||^2 before and after each mistake's update,
    w.z and ||z||^2 at it.  The bridge ([RommaBridge]) feeds them to [R1_statement]. *)

From Coq Require Import Reals List Lra Psatz Arith Lia.
From Novikoff Require Import Vectors Perceptron Labelled.
Import ListNotations.
Local Open Scope R_scope.

(** ** The algorithm *)

(** The update rule: conservative (update iff w.z <= 0) or aggressive (iff w.z < 1 - eps). *)
Inductive romma_rule : Type := conservative | aggressive (eps : R).

(** The rules the theorems are about: eps >= 0 for the aggressive one (so an update has
    w.z < 1). *)
Definition rule_ok (rule : romma_rule) : Prop :=
  match rule with conservative => True | aggressive eps => 0 <= eps end.

(** The decision on the signed margin p = y (w . x~), written once. *)
Definition romma_test (rule : romma_rule) (p : R) : bool :=
  match rule with
  | conservative => if Rle_dec p 0 then true else false
  | aggressive eps => if Rlt_dec p (1 - eps) then true else false
  end.

(** An update is a mistake iff p <= 0. *)
Definition is_mistake (p : R) : bool := if Rle_dec p 0 then true else false.

(** The closed form's coefficients (c_w, c_z), w' = c_w w + c_z z, from l = ||w||^2,
    p = w.z, q = ||z||^2; None when the constraint set is empty. *)
Definition romma_coeffs (l p q : R) : option (R * R) :=
  if Req_EM_T q 0 then None
  else if Rle_dec (q * l) p then Some (0, / q)
  else if Req_EM_T (q * l - p * p) 0 then None
  else Some ((q * l - p) / (q * l - p * p), l * (1 - p) / (q * l - p * p)).

Definition romma_update (w z : vec) (c : R * R) : vec := vadd (vscale (fst c) w) (vscale (snd c) z).

(** The state: the weights, the mistakes, the updated sample indices (latest first) and
    whether an update found the constraint set empty. *)
Record rstate : Type := mk_rstate { rw : vec; rmistakes : nat; rtrace : list nat; rstopped : bool }.

Definition rinit : rstate := mk_rstate [] 0 [] false.

(** One presentation of sample [i] of [D]. *)
Definition romma_lstep (rho : R) (rule : romma_rule) (D : dataset) (st : rstate) (i : nat) : rstate :=
  let s := sample_at D i in
  let w := rw st in
  let z := reflect rho s in
  let p := signed_margin w rho s in
  if rstopped st then st
  else if romma_test rule p then
    match romma_coeffs (norm2 w) p (norm2 z) with
    | None => mk_rstate w (rmistakes st) (rtrace st) true
    | Some c =>
        mk_rstate (romma_update w z c) (if is_mistake p then S (rmistakes st) else rmistakes st)
          (i :: rtrace st) false
    end
  else st.

(** ROMMA on labelled data: from w = 0, the samples in [order]. *)
Definition romma (rho : R) (rule : romma_rule) (D : dataset) (order : list nat) : rstate :=
  fold_left (romma_lstep rho rule D) order rinit.
Definition romma_weights rho rule D order : vec := rw (romma rho rule D order).
Definition romma_mistakes rho rule D order : nat := rmistakes (romma rho rule D order).
Definition romma_updates rho rule D order : nat := length (rtrace (romma rho rule D order)).
Definition romma_stopped rho rule D order : bool := rstopped (romma rho rule D order).

(** ** The closed form *)

Lemma update_dot_r v w z c : dot v (romma_update w z c) = fst c * dot v w + snd c * dot v z.
Proof. unfold romma_update. rewrite dot_vadd_r, !dot_vscale_r. reflexivity. Qed.

Lemma update_dot_l v w z c : dot (romma_update w z c) v = fst c * dot w v + snd c * dot z v.
Proof. rewrite dot_comm, update_dot_r, (dot_comm v w), (dot_comm v z). reflexivity. Qed.

Lemma test_lt_1 rule p : rule_ok rule -> romma_test rule p = true -> p < 1.
Proof.
  destruct rule as [|eps]; simpl; intros Hok.
  - destruct (Rle_dec p 0); [lra|discriminate].
  - destruct (Rlt_dec p (1 - eps)); [lra|discriminate].
Qed.

(** The scalar facts of the closed form: c_w, c_z >= 0; w'.z = c_w p + c_z q = 1;
    w'.w = c_w l + c_z p >= l; and c_w (w'.w) = c_w l (c_w = 0 or w'.w = l). *)
Lemma romma_coeffs_facts l p q cw cz :
  0 <= l -> 0 <= q -> p * p <= l * q -> p < 1 ->
  romma_coeffs l p q = Some (cw, cz) ->
  0 <= cw /\ 0 <= cz /\ cw * p + cz * q = 1 /\ cw * l + cz * p >= l /\
  cw * (cw * l + cz * p) = cw * l.
Proof.
  intros Hl Hq Hcs Hp. unfold romma_coeffs.
  destruct (Req_EM_T q 0) as [Hq0|Hq0]; [discriminate|].
  assert (Hqp : 0 < q) by lra.
  destruct (Rle_dec (q * l) p) as [Hz|Hz].
  - intros H; injection H as <- <-.
    assert (Hi : 0 < / q) by (apply Rinv_0_lt_compat; exact Hqp).
    split; [lra|]. split; [lra|]. split; [field; lra|]. split; [|ring].
    replace (0 * l + / q * p) with (p / q) by (field; lra).
    apply Rle_ge. apply Rmult_le_reg_r with q; [exact Hqp|].
    unfold Rdiv. rewrite Rmult_assoc, Rinv_l by lra. lra.
  - destruct (Req_EM_T (q * l - p * p) 0) as [Ha|Ha]; [discriminate|].
    intros H; injection H as <- <-.
    assert (Hapos : 0 < q * l - p * p) by lra.
    assert (Hi : 0 < / (q * l - p * p)) by (apply Rinv_0_lt_compat; exact Hapos).
    assert (E1 : (q * l - p) / (q * l - p * p) * l + l * (1 - p) / (q * l - p * p) * p = l)
      by (field; exact Ha).
    split; [unfold Rdiv; apply Rmult_le_pos; lra|].
    split; [unfold Rdiv; apply Rmult_le_pos; [apply Rmult_le_pos|]; lra|].
    split; [field; exact Ha|]. rewrite E1. split; [lra|reflexivity].
Qed.

(** When the set is empty: q = 0, or p < q l with q l = p^2. *)
Lemma romma_coeffs_none l p q :
  romma_coeffs l p q = None -> q = 0 \/ (p < q * l /\ q * l - p * p = 0).
Proof.
  unfold romma_coeffs.
  destruct (Req_EM_T q 0) as [H|H]; [left; exact H|].
  destruct (Rle_dec (q * l) p) as [Hz|Hz]; [discriminate|].
  destruct (Req_EM_T (q * l - p * p) 0) as [Ha|Ha]; [|discriminate].
  intros _. right. split; [lra|exact Ha].
Qed.

Section Update.
  Variables (w z : vec) (cw cz : R).
  Let l := norm2 w.
  Let p := dot w z.
  Let q := norm2 z.
  Let w' := romma_update w z (cw, cz).
  Variable Hp : p < 1.
  Variable Hc : romma_coeffs l p q = Some (cw, cz).

  Lemma romma_facts :
    0 <= cw /\ 0 <= cz /\ cw * p + cz * q = 1 /\ cw * l + cz * p >= l /\
    cw * (cw * l + cz * p) = cw * l.
  Proof.
    apply romma_coeffs_facts; try apply norm2_nonneg; try assumption.
    unfold p, l, q, norm2. apply cauchy_schwarz.
  Qed.

  (** w' lies in both constraints: w'.w >= ||w||^2 and w'.z = 1. *)
  Lemma romma_update_feasible : dot w' w >= l /\ dot w' z = 1.
  Proof.
    destruct romma_facts as [_ [_ [E2 [E3 _]]]].
    unfold w'. rewrite !update_dot_l. simpl. unfold l, p, q, norm2 in *. rewrite (dot_comm z w).
    split; lra.
  Qed.

  Lemma romma_update_norm2 : norm2 w' = cw * l + cz.
  Proof.
    destruct romma_facts as [_ [_ [E2 [_ E4]]]].
    unfold w', norm2. rewrite update_dot_l, !update_dot_r. simpl.
    unfold l, p, q, norm2 in *. rewrite (dot_comm z w).
    replace (cw * (cw * dot w w + cz * dot w z) + cz * (cw * dot w z + cz * dot z z))
      with (cw * (cw * dot w w + cz * dot w z) + cz * (cw * dot w z + cz * dot z z)) by ring.
    rewrite E4, E2. ring.
  Qed.

  (** Every v satisfying both constraints has v.w' >= ||w'||^2. *)
  Lemma romma_update_optimal v : dot v w >= l -> dot v z >= 1 -> dot v w' >= norm2 w'.
  Proof.
    intros Hvw Hvz. destruct romma_facts as [Hcw [Hcz _]].
    rewrite romma_update_norm2. unfold w'. rewrite update_dot_r. simpl.
    assert (cw * (dot v w - l) >= 0) by (apply Rle_ge, Rmult_le_pos; lra).
    assert (cz * (dot v z - 1) >= 0) by (apply Rle_ge, Rmult_le_pos; lra).
    lra.
  Qed.

  (** So w' is the minimum-norm point of {v : v.w >= ||w||^2, v.z >= 1}. *)
  Lemma romma_update_min_norm v : dot v w >= l -> dot v z >= 1 -> norm2 w' <= norm2 v.
  Proof.
    intros Hvw Hvz. pose proof (romma_update_optimal v Hvw Hvz) as Ho.
    pose proof (cauchy_schwarz v w') as Hcs. pose proof (norm2_nonneg w') as H0.
    pose proof (norm2_nonneg v) as Hv. unfold norm2 in *.
    destruct (Rle_lt_or_eq_dec 0 (dot w' w') H0) as [Hpos|Heq]; [|lra].
    assert (dot w' w' * dot w' w' <= dot v v * dot w' w') by nra.
    apply Rmult_le_reg_r with (dot w' w'); [exact Hpos|]. lra.
  Qed.

  (** The update never shrinks ||w||, and q (||w'||^2 - ||w||^2) >= (1 - p)^2. *)
  Lemma romma_update_growth : norm2 w' >= l /\ q * (norm2 w' - l) >= (1 - p) ^ 2.
  Proof.
    destruct romma_update_feasible as [Hww Hwz].
    pose proof (norm2_vsub w' w) as Hd. pose proof (norm2_nonneg (vsub w' w)) as Hd0.
    pose proof (cauchy_schwarz_sq (vsub w' w) z) as Hcs.
    rewrite dot_vsub_l, Hwz in Hcs.
    pose proof (norm2_nonneg z) as Hq.
    unfold l, p, q, norm2 in *.
    set (d2 := dot (vsub w' w) (vsub w' w)) in *. set (n' := dot w' w') in *.
    split; [lra|].
    assert (Hle : d2 <= n' - dot w w) by lra.
    assert (d2 * dot z z <= (n' - dot w w) * dot z z) by (apply Rmult_le_compat_r; lra).
    lra.
  Qed.
End Update.

(** Where some v has v.w >= ||w||^2 and v.z >= 1, the set is not empty (for p < 1). *)
Lemma romma_coeffs_some w z v :
  dot w z < 1 -> dot v w >= norm2 w -> dot v z >= 1 ->
  romma_coeffs (norm2 w) (dot w z) (norm2 z) <> None.
Proof.
  intros Hp Hvw Hvz Hnone. apply romma_coeffs_none in Hnone.
  set (l := norm2 w) in *. set (p := dot w z) in *. set (q := norm2 z) in *.
  pose proof (norm2_nonneg w) as Hl. pose proof (norm2_nonneg v) as Hv. fold l in Hl.
  destruct Hnone as [Hq|[Hlt Ha]].
  - pose proof (cauchy_schwarz v z) as Hcs. unfold q, norm2 in Hq. rewrite Hq in Hcs. nra.
  - set (x := vsub (vscale q w) (vscale p z)).
    assert (Hx : dot x x = q * (q * l - p * p)).
    { unfold x. rewrite norm2_vsub, !norm2_vscale, dot_vscale_l, dot_vscale_r. fold p.
      unfold l, q, norm2. ring. }
    rewrite Ha, Rmult_0_r in Hx.
    pose proof (cauchy_schwarz v x) as Hcs. rewrite Hx, Rmult_0_r in Hcs.
    assert (Hvx : dot v x = 0) by nra.
    unfold x in Hvx. rewrite dot_vsub_r, !dot_vscale_r in Hvx.
    pose proof (norm2_nonneg z) as Hq0. fold q in Hq0.
    assert (Hqp : 0 < q) by (destruct (Rle_lt_or_eq_dec 0 q Hq0) as [h|h]; [exact h|]; rewrite <- h in Hlt; nra).
    assert (Hpn : p < 0) by nra.
    assert (p * dot v z <= p) by nra.
    assert (q * dot v w >= q * l) by (apply Rle_ge, Rmult_le_compat_l; lra).
    nra.
Qed.

(** Where v.w >= ||w||^2, ||w||^2 <= ||v||^2 (Cauchy-Schwarz). *)
Lemma romma_norm_le v w : dot v w >= norm2 w -> norm2 w <= norm2 v.
Proof.
  intros H. pose proof (cauchy_schwarz v w) as Hcs. pose proof (norm2_nonneg w) as H0.
  pose proof (norm2_nonneg v). unfold norm2 in *.
  destruct (Rle_lt_or_eq_dec 0 (dot w w) H0) as [Hpos|Heq]; [|lra].
  assert (dot w w * dot w w <= dot v v * dot w w) by nra.
  apply Rmult_le_reg_r with (dot w w); [exact Hpos|]. lra.
Qed.

(** ** The run's invariant on data that some v separates with margin 1 *)

Section Run.
  Variables (rho : R) (rule : romma_rule) (D : dataset) (v : vec).
  Variable Hrule : rule_ok rule.
  Variable Hv : forall z, In z (reflected rho D) -> dot v z >= 1.
  Let R2 := radius2 rho D.

  (** Not stopped, v.w >= ||w||^2, and for the k mistakes so far the sequences of R1:
      [w2 j] = ||w||^2 after the j-th mistake's update, [v2 j], [wz j], [z2 j] = ||w||^2, w.z,
      ||z||^2 at mistake j + 1, with ||w||^2 now >= [w2 k]. *)
  Definition romma_inv (st : rstate) : Prop :=
    rstopped st = false /\ dot v (rw st) >= norm2 (rw st) /\
    exists v2 w2 wz z2 : nat -> R,
      w2 0%nat = 0 /\
      (forall j, (j < rmistakes st)%nat ->
         v2 j >= w2 j /\ (- v2 j + w2 (S j)) * z2 j >= (1 - wz j) ^ 2 /\
         wz j <= 0 /\ 0 < z2 j /\ z2 j <= R2) /\
      w2 (rmistakes st) <= norm2 (rw st).

  Lemma romma_inv_init : romma_inv rinit.
  Proof.
    split; [reflexivity|]. split; [simpl; rewrite dot_nil_r; unfold norm2; simpl; lra|].
    exists (fun _ => 0), (fun _ => 0), (fun _ => 0), (fun _ => 0).
    split; [reflexivity|]. split; [intros j Hj; simpl in Hj; lia|]. simpl. unfold norm2; simpl. lra.
  Qed.

  Lemma in_reflected i : (i < length D)%nat -> In (reflect rho (sample_at D i)) (reflected rho D).
  Proof. intros Hi. unfold reflected. apply in_map. unfold sample_at. apply nth_In. exact Hi. Qed.

  Lemma romma_inv_step st i :
    (i < length D)%nat -> romma_inv st -> romma_inv (romma_lstep rho rule D st i).
  Proof.
    intros Hi [Hst [Hvw [v2 [w2 [wz [z2 [H0 [Hj Hlast]]]]]]]].
    pose proof (in_reflected i Hi) as Hin. set (z := reflect rho (sample_at D i)) in *.
    pose proof (Hv z Hin) as Hvz.
    unfold romma_lstep. fold z. rewrite Hst. rewrite signed_margin_reflect. fold z.
    set (w := rw st) in *. set (k := rmistakes st) in *.
    destruct (romma_test rule (dot w z)) eqn:Ht;
      [|split; [exact Hst|split; [exact Hvw|exists v2, w2, wz, z2; auto]]].
    pose proof (test_lt_1 rule _ Hrule Ht) as Hp.
    destruct (romma_coeffs (norm2 w) (dot w z) (norm2 z)) as [[cw cz]|] eqn:Hc;
      [|exfalso; exact (romma_coeffs_some w z v Hp Hvw Hvz Hc)].
    destruct (romma_update_growth w z cw cz Hp Hc) as [Hgrow Hstep].
    set (w' := romma_update w z (cw, cz)) in *.
    split; [reflexivity|]. cbn [rw rmistakes]. fold w'.
    split; [exact (romma_update_optimal w z cw cz Hp Hc v Hvw Hvz)|].
    destruct (is_mistake (dot w z)) eqn:Hm.
    - unfold is_mistake in Hm. destruct (Rle_dec (dot w z) 0) as [Hle|]; [|discriminate].
      pose proof (norm2_nonneg z) as Hq0.
      assert (Hq : 0 < norm2 z).
      { destruct (Rle_lt_or_eq_dec 0 (norm2 z) Hq0) as [h|h]; [exact h|].
        pose proof (cauchy_schwarz v z) as Hcs. unfold norm2 in h. rewrite <- h in Hcs.
        pose proof (norm2_nonneg v). unfold norm2 in *. nra. }
      assert (HR : norm2 z <= R2) by (apply radius2_bound; exact Hin).
      exists (fun j => if Nat.ltb j k then v2 j else norm2 w),
             (fun j => if Nat.leb j k then w2 j else norm2 w'),
             (fun j => if Nat.ltb j k then wz j else dot w z),
             (fun j => if Nat.ltb j k then z2 j else norm2 z).
      split; [simpl; exact H0|]. split.
      + intros j Hjk. destruct (Nat.ltb_spec j k) as [Hlt|Hge].
        * destruct (Nat.leb_spec j k); [|lia]. destruct (Nat.leb_spec (S j) k); [|lia].
          apply Hj. exact Hlt.
        * assert (j = k) by lia. subst j.
          destruct (Nat.leb_spec k k); [|lia]. destruct (Nat.leb_spec (S k) k); [lia|].
          split; [lra|]. split; [lra|]. split; [exact Hle|]. split; lra.
      + destruct (Nat.leb_spec (S k) k); [lia|]. lra.
    - exists v2, w2, wz, z2. split; [exact H0|]. split; [exact Hj|]. lra.
  Qed.

  Lemma romma_inv_fold order st :
    valid D order -> romma_inv st -> romma_inv (fold_left (romma_lstep rho rule D) order st).
  Proof.
    revert st; induction order as [|i order IH]; intros st Hval Hinv; simpl; [exact Hinv|].
    inversion Hval as [|? ? Hi Hrest]; subst.
    apply IH; [exact Hrest|]. apply romma_inv_step; assumption.
  Qed.

  Theorem romma_premises order : valid D order -> romma_inv (romma rho rule D order).
  Proof. intros H. apply romma_inv_fold; [exact H|apply romma_inv_init]. Qed.
End Run.

(** ** With a separating certificate p*: u = p*/||p*||^2 has u.z_i >= 1, ||u||^2 = 1/||p*||^2 *)

Definition unit_margin (p : vec) : vec := vscale (/ dot p p) p.

Lemma unit_margin_spec rho D lam p :
  separable_certificate (reflected rho D) lam p ->
  (forall z, In z (reflected rho D) -> dot (unit_margin p) z >= 1) /\
  dot p p * norm2 (unit_margin p) = 1.
Proof.
  intros [_ [_ [_ [Hcond Hpp]]]]. unfold unit_margin, norm2. split.
  - intros z Hz. rewrite dot_vscale_l, (dot_comm p z). specialize (Hcond z Hz).
    apply Rle_ge. apply Rmult_le_reg_l with (dot p p); [exact Hpp|].
    rewrite <- Rmult_assoc, Rinv_r by lra. lra.
  - rewrite norm2_vscale. field. lra.
Qed.

(** On separable data the run never stops, and gamma^2 ||w||^2 <= 1 throughout. *)
Theorem romma_separable rho rule D order lam p :
  rule_ok rule -> valid D order -> separable_certificate (reflected rho D) lam p ->
  romma_stopped rho rule D order = false /\
  dot p p * norm2 (romma_weights rho rule D order) <= 1.
Proof.
  intros Hr Hval Hcert. destruct (unit_margin_spec rho D lam p Hcert) as [Hu Hn].
  destruct (romma_premises rho rule D (unit_margin p) Hr Hu order Hval) as [Hs [Hvw _]].
  split; [exact Hs|]. apply romma_norm_le in Hvw.
  pose proof Hcert as [_ [_ [_ [_ Hpp]]]].
  unfold romma_weights.
  assert (dot p p * norm2 (rw (romma rho rule D order)) <= dot p p * norm2 (unit_margin p))
    by (apply Rmult_le_compat_l; lra).
  lra.
Qed.
