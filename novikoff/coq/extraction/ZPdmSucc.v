(** * PDM-succ over integers, proved equal to [LargeMargin.pdm_succ].

    PDM-succ (the PDM paper's successive PDM runs, eps_1 > ... > eps_final) runs PDM(eps_1)
    until an epoch makes no update, then PDM(eps_2) from the same weights and update count,
    and so on; a stage that does not converge within the epoch limit ends the run.  Epochs
    are numbered across stages.  [zsucc_correct]: the integer stages [zsucc] (each the loop
    [zg_epochs_from] of [ZLargeMargin] with the integer PDM decision) are [pdm_succ] on the
    patterns Z_i / L with the stages they ran (the orders of the epochs each presented):
    the same weights over L, the same count, the same updated indices. *)

From Coq Require Import Reals List Lra Psatz Arith ZArith.
From Novikoff Require Import Vectors Perceptron LargeMargin.
From NovikoffExtracted Require Import ZPerceptron ZLargeMargin.
Import ListNotations.

Fixpoint zsucc_from (epss : list (Z * Z)) (pres_of : nat -> list (nat * zvec)) (fuel e : nat)
    (w : zvec) (k : nat) (kz : Z) (tr : list nat)
  : zvec * nat * Z * list nat * nat * bool * list nat :=
  match epss with
  | [] => (w, k, kz, tr, e, true, [])
  | (en, ed) :: rest =>
      let '(w', k', kz', tr', e', conv) := zg_epochs_from (zpdm_test en ed) pres_of fuel e w k kz tr in
      if conv then
        let '(w2, k2, kz2, tr2, e2, conv2, ends) := zsucc_from rest pres_of fuel e' w' k' kz' tr' in
        (w2, k2, kz2, tr2, e2, conv2, e' :: ends)
      else (w', k', kz', tr', e', false, [e'])
  end.

(** The stages the integer run made: eps_i with the epochs from the previous stage's end
    to its own ([ends] lists the epoch after each stage). *)
Fixpoint stages_of (epss : list (Z * Z)) (perm_of : nat -> list nat) (e : nat) (ends : list nat)
  : list (R * list nat) :=
  match epss, ends with
  | (en, ed) :: rest, e' :: ends' =>
      ((IZR en / IZR ed)%R, epochs_order perm_of e (e' - e)) :: stages_of rest perm_of e' ends'
  | _, _ => []
  end.

(** The indices the real PDM-succ run updates on. *)
Fixpoint succ_trace (stages : list (R * list nat)) (zs : list vec) (s : state) : list nat :=
  match stages with
  | [] => []
  | (eps, o) :: rest =>
      gtrace (pdm_test eps) (rpresent zs o) s ++ succ_trace rest zs (pdm_run_from eps zs o s)
  end.

Local Open Scope R_scope.

Lemma stage_R en ed L Zs perm_of pres_of fuel e w k tr :
  (0 < ed)%Z -> (0 < L)%Z -> (forall e, pres_of e = zpresent Zs (perm_of e)) ->
  let '(w', k', kz', tr', e', conv) :=
    zg_epochs_from (zpdm_test en ed) pres_of fuel e w k (Z.of_nat k) tr in
  pdm_run_from (IZR en / IZR ed) (scaled L Zs) (epochs_order perm_of e (e' - e)%nat) (sc (/ IZR L) w, k)
    = (sc (/ IZR L) w', k') /\
  rev tr' = rev tr ++ gtrace (pdm_test (IZR en / IZR ed)) (rpresent (scaled L Zs) (epochs_order perm_of e (e' - e)%nat))
                        (sc (/ IZR L) w, k) /\
  kz' = Z.of_nat k'.
Proof.
  intros Hed HL Hp.
  pose proof (zg_epochs_from_spec (zpdm_test en ed) pres_of fuel e w k (Z.of_nat k) tr) as H.
  destruct (zg_epochs_from (zpdm_test en ed) pres_of fuel e w k (Z.of_nat k) tr)
    as [[[[[w' k'] kz'] tr'] e'] conv].
  destruct H as [_ [Hrun _]].
  rewrite (pairs_of_present Zs perm_of pres_of e (e' - e) Hp) in Hrun.
  pose proof (zg_pairs_R (zpdm_test en ed) (pdm_test (IZR en / IZR ed)) (/ IZR L)
                (fun W t Z => zpdm_test_R en ed L W t Z Hed HL)
                (zpresent Zs (epochs_order perm_of e (e' - e)%nat)) w k tr) as HR.
  rewrite Hrun in HR.
  destruct (present_sc (/ IZR L) Zs (epochs_order perm_of e (e' - e)%nat)) as [P1 P2].
  rewrite P1, P2 in HR. destruct HR as [R1 [R2 [R3 _]]].
  split; [exact R1|]. split; [exact R3|exact R2].
Qed.

Lemma zsucc_from_R epss L Zs perm_of pres_of fuel e w k tr :
  Forall (fun p => (0 < snd p)%Z) epss -> (0 < L)%Z -> (forall e, pres_of e = zpresent Zs (perm_of e)) ->
  let '(w2, k2, kz2, tr2, e2, conv2, ends) := zsucc_from epss pres_of fuel e w k (Z.of_nat k) tr in
  pdm_succ_from (scaled L Zs) (stages_of epss perm_of e ends) (sc (/ IZR L) w, k) = (sc (/ IZR L) w2, k2) /\
  rev tr2 = rev tr ++ succ_trace (stages_of epss perm_of e ends) (scaled L Zs) (sc (/ IZR L) w, k) /\
  kz2 = Z.of_nat k2.
Proof.
  intros Hall HL Hp. revert e w k tr.
  induction epss as [|[en ed] rest IH]; intros e w k tr; simpl.
  - rewrite app_nil_r. repeat split.
  - inversion Hall as [|? ? Hed Hrest]; subst. simpl in Hed.
    pose proof (stage_R en ed L Zs perm_of pres_of fuel e w k tr Hed HL Hp) as S.
    destruct (zg_epochs_from (zpdm_test en ed) pres_of fuel e w k (Z.of_nat k) tr)
      as [[[[[w' k'] kz'] tr'] e'] conv].
    destruct S as [S1 [S2 S3]]. subst kz'.
    destruct conv.
    + specialize (IH Hrest e' w' k' tr').
      destruct (zsucc_from rest pres_of fuel e' w' k' (Z.of_nat k') tr')
        as [[[[[[w2 k2] kz2] tr2] e2] conv2] ends].
      simpl. unfold pdm_succ_from in *. simpl. rewrite S1.
      destruct IH as [I1 [I2 I3]]. split; [exact I1|]. split; [|exact I3].
      rewrite I2, S2, <- app_assoc. reflexivity.
    + simpl. unfold pdm_succ_from. simpl. rewrite S1.
      destruct rest as [|[? ?] ?]; simpl; rewrite ?app_nil_r; repeat split; try assumption.
Qed.

Theorem zsucc_correct epss L Zs perm_of pres_of fuel :
  Forall (fun p => (0 < snd p)%Z) epss -> (0 < L)%Z -> (forall e, pres_of e = zpresent Zs (perm_of e)) ->
  let '(w, k, kz, tr, E, conv, ends) := zsucc_from epss pres_of fuel 0 [] 0 0%Z [] in
  let stages := stages_of epss perm_of 0 ends in
  pdm_succ (scaled L Zs) stages = (sc (/ IZR L) w, k) /\
  rev tr = succ_trace stages (scaled L Zs) init /\ kz = Z.of_nat k.
Proof.
  intros Hall HL Hp.
  pose proof (zsucc_from_R epss L Zs perm_of pres_of fuel 0 [] 0 [] Hall HL Hp) as H.
  change (Z.of_nat 0) with 0%Z in H.
  destruct (zsucc_from epss pres_of fuel 0 [] 0 0 []) as [[[[[[w k] kz] tr] E] conv] ends].
  exact H.
Qed.

Definition zsucc epss pres_of fuel := zsucc_from epss pres_of fuel 0 [] 0 0%Z [].
