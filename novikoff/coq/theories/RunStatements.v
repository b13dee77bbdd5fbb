(** * What the reported Coq theorems say about the algorithms: one [Definition
    <NAME>_run_statement : Prop] per printed statement that has a run theorem.

    Each is a statement about a run of an algorithm on LABELLED data ([Labelled]:
    features, labels in {-1, +1}, the bias rho; reflection and the bias coordinate are
    Coq functions), for every dataset, every presentation order and every dimension.
    [Bridges] proves [<NAME>_bridge : Statements.<NAME>_statement -> <NAME>_run_statement]
    (the run satisfies the printed statement's premises, so its conclusion holds of the
    run) and [<NAME>_run : <NAME>_run_statement] by the bridge applied to the printed
    statement's theorem.  novikoff.coq.kernel types both against these definitions. *)

From Coq Require Import Reals List.
Import ListNotations.
From Novikoff Require Import Vectors Perceptron Tightness Multiclass LargeMargin PfmBound Labelled.
From Novikoff Require Import VotedRun NonSeparableRun.
From Novikoff Require Import RommaRun.
From Novikoff Require Import Invariance LabelledInvariance.
From Novikoff Require MarginDistribution.
From Novikoff Require Import LabelledMargin.
From Novikoff Require Import RademacherRun.
Local Open Scope R_scope.

(** N3 (Novikoff 1962): for every labelled dataset D, bias rho, presentation order and
    separating certificate (lambda, p* ) of the reflected patterns, with gamma^2 the
    squared distance from 0 to conv{z_i} and R^2 = max_i ||(x_i, rho)||^2, the
    perceptron makes at most R^2 / gamma^2 updates. *)
Definition N3_run_statement : Prop :=
  forall (D : dataset) (rho : R) (order : list nat) (lam : list R) (p : vec) (gamma2 : R),
  valid D order ->
  separable_certificate (reflected rho D) lam p ->
  min_norm_sq (reflected rho D) gamma2 ->
  INR (perceptron_updates rho D order) <= radius2 rho D / gamma2.

(** N1 (progress): for every labelled dataset, rho, order and separating certificate,
    p*.w_k >= ||p*||^2 k for the perceptron's weights w_k after its k updates. *)
Definition N1_run_statement : Prop :=
  forall (D : dataset) (rho : R) (order : list nat) (lam : list R) (p : vec),
  valid D order ->
  separable_certificate (reflected rho D) lam p ->
  dot p (perceptron_weights rho D order) >= dot p p * INR (perceptron_updates rho D order).

(** N2 (energy): for every labelled dataset with R^2 > 0, rho and order,
    ||w_k||^2 <= R^2 k for the perceptron's weights after its k updates. *)
Definition N2_run_statement : Prop :=
  forall (D : dataset) (rho : R) (order : list nat),
  valid D order ->
  0 < radius2 rho D ->
  norm2 (perceptron_weights rho D order) <= radius2 rho D * INR (perceptron_updates rho D order).

(** The textbook's tightness family (section 6.7, exercise 6.3) as labelled data:
    the n standard basis vectors e_i of R^n, all labelled +1, no bias (rho = 0). *)
Definition basis_data (n : nat) : dataset := map (fun x => mk_sample x pos) (basis n).

(** T1: on [basis_data n] presented in the order 0, ..., n-1, the perceptron makes exactly
    R^2 / gamma^2 updates (R^2 from the data, gamma^2 the squared distance from 0 to the
    hull of the reflected patterns): Novikoff's bound is attained. *)
Definition T1_run_statement : Prop :=
  forall (n : nat) (gamma2 : R),
  (0 < n)%nat ->
  min_norm_sq (reflected 0 (basis_data n)) gamma2 ->
  INR (perceptron_updates 0 (basis_data n) (seq 0 n)) = radius2 0 (basis_data n) / gamma2.

(** Multiclass labelled data (the notes on the multiclass perceptron): samples (x_i, c_i) with
    features x_i and a class c_i in {0, ..., K-1}; [maugment] appends the bias rho. The run
    is [Multiclass.mrun] (predict the first argmax of W_j . (x, rho), on a mistake add
    (x, rho) to the true class and subtract it from the predicted one). *)
Definition maugment (rho : R) (data : list (vec * nat)) : list (vec * nat) :=
  map (fun s => (augment rho (fst s), snd s)) data.
Definition multiclass_mistakes (K : nat) (rho : R) (data : list (vec * nat)) (order : list nat) : nat :=
  mistakes K (maugment rho data) order.
(** R^2 = max_i ||(x_i, rho)||^2. *)
Definition mradius2 (rho : R) (data : list (vec * nat)) : R :=
  fold_right Rmax 0 (map (fun s => norm2 (augment rho (fst s))) data).

(** M1: for every multiclass labelled dataset, rho, order and K weight vectors U with
    Kesler margin g > 0 on (x_i, rho), the multiclass perceptron makes at most
    2 R^2 ||U||_F^2 / g^2 mistakes. *)
Definition M1_run_statement : Prop :=
  forall (K : nat) (rho : R) (data : list (vec * nat)) (U : mweights) (g : R) (order : list nat),
  (0 < K)%nat ->
  (forall x c, In (x, c) data -> (c < K)%nat) ->
  kesler_margin K (maugment rho data) U g ->
  0 < g ->
  0 < frob2 K U ->
  0 < mradius2 rho data ->
  Forall (fun i => (i < length data)%nat) order ->
  INR (multiclass_mistakes K rho data order) <= 2 * mradius2 rho data * frob2 K U / g ^ 2.

(** PFM(beta) (the perceptron with fixed margin, IJCAI paper) on labelled data: update iff
    y (w . (x, rho)) <= beta ||w|| ([LabelledMargin.pfm_mistake]); its number of updates. *)
Definition pfm_updates (beta rho : R) (D : dataset) (order : list nat) : nat :=
  snd (pfm_labelled beta rho D order).

(** P1: for every labelled dataset, rho, order, separating certificate p* (gamma^2 = ||p*||^2)
    and 0 < eps <= 1, PFM((1 - eps) gamma) with t >= 1 updates has
    t <= (1 + 1/e) delta (C + ln((1 + e) delta)), delta = R^2/(2 eps gamma^2), C = 2 gamma/R,
    R^2 = [radius2 rho D]. *)
Definition P1_run_statement : Prop :=
  forall (D : dataset) (rho : R) (order : list nat) (lam : list R) (p : vec) (eps : R),
  valid D order ->
  separable_certificate (reflected rho D) lam p ->
  0 < eps -> eps <= 1 ->
  (1 <= pfm_updates ((1 - eps) * sqrt (dot p p)) rho D order)%nat ->
  INR (pfm_updates ((1 - eps) * sqrt (dot p p)) rho D order) <= p1_bound (radius2 rho D) (dot p p) eps.

(** PDM(eps) (the perceptron with dynamic margin, the PDM paper) on labelled data: with t
    updates so far, update iff t y (w . (x, rho)) <= (1 - eps) ||w||^2
    ([LabelledMargin.pdm_mistake]); its number of updates and its weights. *)
Definition pdm_updates (eps rho : R) (D : dataset) (order : list nat) : nat :=
  snd (pdm_labelled eps rho D order).
Definition pdm_weights (eps rho : R) (D : dataset) (order : list nat) : vec :=
  fst (pdm_labelled eps rho D order).

(** D3: for every labelled dataset, rho, order, eps and separating certificate p*, PDM(eps)
    after t >= 1 updates has ||w_t||^2 >= gamma^2 t^2 (gamma^2 = ||p*||^2). *)
Definition D3_run_statement : Prop :=
  forall (D : dataset) (rho eps : R) (order : list nat) (lam : list R) (p : vec),
  valid D order ->
  separable_certificate (reflected rho D) lam p ->
  (1 <= pdm_updates eps rho D order)%nat ->
  dot p p * INR (pdm_updates eps rho D order) ^ 2 <= norm2 (pdm_weights eps rho D order).

(** D1 (1/2 < eps <= 1): for every labelled dataset, rho, order and separating certificate,
    PDM(eps) makes at most R^2 / (gamma^2 (2 eps - 1)) updates. *)
Definition D1_above_half_run_statement : Prop :=
  forall (D : dataset) (rho eps : R) (order : list nat) (lam : list R) (p : vec),
  valid D order ->
  separable_certificate (reflected rho D) lam p ->
  1 / 2 < eps -> eps <= 1 ->
  (1 <= pdm_updates eps rho D order)%nat ->
  INR (pdm_updates eps rho D order) <= radius2 rho D / (dot p p * (2 * eps - 1)).

(** D1 (eps = 1/2): for every labelled dataset, rho, order and separating certificate,
    PDM(1/2) after t >= 1 updates has t <= R^2 (1/e + 1) ln(R^2 (1 + e) / gamma^2) / gamma^2. *)
Definition D1_half_run_statement : Prop :=
  forall (D : dataset) (rho : R) (order : list nat) (lam : list R) (p : vec),
  valid D order ->
  separable_certificate (reflected rho D) lam p ->
  (1 <= pdm_updates (1 / 2) rho D order)%nat ->
  INR (pdm_updates (1 / 2) rho D order) <=
    radius2 rho D * (exp (- 1) + 1) * ln (radius2 rho D * (1 + exp 1) / dot p p) / dot p p.

(** D1 (0 < eps < 1/2): for every labelled dataset, rho, order and separating certificate,
    PDM(eps) after t >= 1 updates has
    t <= (R^2 (2 - 2 eps) / (gamma^2 (1 - 2 eps)))^(1 / (2 eps)). *)
Definition D1_below_half_run_statement : Prop :=
  forall (D : dataset) (rho eps : R) (order : list nat) (lam : list R) (p : vec),
  valid D order ->
  separable_certificate (reflected rho D) lam p ->
  0 < eps -> eps < 1 / 2 ->
  (1 <= pdm_updates eps rho D order)%nat ->
  INR (pdm_updates eps rho D order) <=
    Rpower (radius2 rho D * (2 - 2 * eps) / (dot p p * (1 - 2 * eps))) (1 / (2 * eps)).

(** D2: for every labelled dataset, rho, 0 < eps <= 1, separating certificate and order
    after which PDM(eps) has converged (no sample would update it) with t >= 1 updates,
    every sample's normalised signed margin y (w.(x, rho))/||w|| exceeds ||w|| (1 - eps)/t,
    which is at least gamma (1 - eps). *)
Definition D2_run_statement : Prop :=
  forall (D : dataset) (rho eps : R) (order : list nat) (lam : list R) (p : vec),
  valid D order ->
  separable_certificate (reflected rho D) lam p ->
  0 < eps -> eps <= 1 ->
  (1 <= pdm_updates eps rho D order)%nat ->
  pdm_converged_labelled eps rho D (pdm_labelled eps rho D order) ->
  forall s, In s D ->
    let w := pdm_weights eps rho D order in
    let t := INR (pdm_updates eps rho D order) in
    signed_margin w rho s / sqrt (norm2 w) > sqrt (norm2 w) * (1 - eps) / t /\
    sqrt (norm2 w) * (1 - eps) / t >= sqrt (dot p p) * (1 - eps).

(** MU (PDM with multiple updates): for every labelled sample s, bias rho, weights w, update
    count t, eps > 0 and n >= 1, PDM's test quantity after n repeated updates on
    z = y (x, rho) from (w, t), (t + n) (w'.z) - (1 - eps) ||w'||^2 with w' = w + n z, is the
    quadratic eps q n^2 + (q t - (1 - 2 eps) p) n - ((1 - eps) l - t p) in n
    (p = w.z, q = ||z||^2, l = ||w||^2). *)
Definition MU_run_statement : Prop :=
  forall (rho eps : R) (s : sample) (w : vec) (t n : nat),
  (0 < n)%nat -> (1 <= t)%nat -> 0 < eps ->
  let z := reflect rho s in
  INR (t + n) * dot (rep_add w z n) z - (1 - eps) * norm2 (rep_add w z n) =
  eps * INR n ^ 2 * norm2 z - norm2 w * (1 - eps) + INR n * (- (dot w z * (1 - 2 * eps)) + norm2 z * INR t)
    + dot w z * INR t.

(** Scaling a labelled dataset by a: every feature and the bias multiplied by a. *)
Definition scale_sample (a : R) (s : sample) : sample := mk_sample (vscale a (features s)) (lab s).
Definition scale_data (a : R) (D : dataset) : dataset := map (scale_sample a) D.

(** G1 (scaling): for every labelled dataset, rho, order and a > 0, the perceptron on the
    data and bias scaled by a makes the same number of updates, with weights a w. *)
Definition G1_scale_run_statement : Prop :=
  forall (D : dataset) (rho a : R) (order : list nat),
  0 < a ->
  perceptron_updates (a * rho) (scale_data a D) order = perceptron_updates rho D order /\
  perceptron_weights (a * rho) (scale_data a D) order = vscale a (perceptron_weights rho D order).

(** G1 (a far point): for every labelled dataset with a separating certificate p*, bias rho
    and c >= 1, adding a sample whose reflected pattern is c p* keeps gamma^2 (the hull's
    minimum) and makes R^2 = max(R^2, c^2 gamma^2). *)
Definition G1_add_point_run_statement : Prop :=
  forall (D : dataset) (rho c gamma2 gamma2_new : R) (lam : list R) (p : vec) (s : sample),
  separable_certificate (reflected rho D) lam p ->
  1 <= c ->
  reflect rho s = vscale c p ->
  min_norm_sq (reflected rho D) gamma2 ->
  min_norm_sq (reflected rho (D ++ [s])) gamma2_new ->
  gamma2_new = gamma2 /\ radius2 rho (D ++ [s]) = Rmax (radius2 rho D) (c ^ 2 * gamma2).

(** A zero feature appended to every sample (before the bias coordinate). *)
Definition pad_sample (s : sample) : sample := mk_sample (features s ++ [0]) (lab s).
Definition pad_data (D : dataset) : dataset := map pad_sample D.

(** G1 (zero features): for every labelled dataset whose samples have d features, rho and
    order, the perceptron on the data with a zero feature appended makes the same
    decisions and the same number of updates. *)
Definition G1_pad_run_statement : Prop :=
  forall (D : dataset) (d : nat) (rho : R) (order : list nat),
  Forall (fun s => length (features s) = d) D ->
  valid D order ->
  decisions (reflected rho (pad_data D)) order = decisions (reflected rho D) order /\
  perceptron_updates rho (pad_data D) order = perceptron_updates rho D order.

(** The Cayley rotation of the plane with parameter a (any real a; the printed statement's
    form), applied to the first two features of samples with d >= 2 features (the others
    kept), in every dimension d. *)
Definition cayley1 (a u1 u2 : R) : R := 2 * a * u1 / (a ^ 2 + 1) + u2 * (1 - a ^ 2) / (a ^ 2 + 1).
Definition cayley2 (a u1 u2 : R) : R := - (2 * a * u2 / (a ^ 2 + 1)) + u1 * (1 - a ^ 2) / (a ^ 2 + 1).
Definition cayley_data (a : R) (D : dataset) : dataset :=
  map (map_features (cayley_front (cayley1 a) (cayley2 a))) D.

(** G1 (rotations), in every dimension: for every labelled dataset whose samples have d
    features, rho and order, (1) rotating the features by any orthogonal d x d matrix Q
    (its columns [qs], Q^T Q = I) and (2) the Cayley rotation of the first two features
    (d >= 2) leave the perceptron's decisions and its number of updates unchanged. *)
Definition G1_rotate_run_statement : Prop :=
  (forall (D : dataset) (rho : R) (order : list nat) (qs : list vec),
    orthonormal qs -> Forall (fun q => length q = length qs) qs ->
    Forall (fun s => length (features s) = length qs) D -> valid D order ->
    decisions (reflected rho (rotate_features qs D)) order = decisions (reflected rho D) order /\
    perceptron_updates rho (rotate_features qs D) order = perceptron_updates rho D order) /\
  (forall (D : dataset) (d : nat) (rho a : R) (order : list nat),
    (2 <= d)%nat -> Forall (fun s => length (features s) = d) D -> valid D order ->
    decisions (reflected rho (cayley_data a D)) order = decisions (reflected rho D) order /\
    perceptron_updates rho (cayley_data a D) order = perceptron_updates rho D order).

(** V1 (the voted perceptron's vote; Freund and Schapire 1999, the deterministic core of
    Theorem 1): for every labelled dataset D, bias rho, presentation order and test sample s,
    when the vote of the voted perceptron trained on D in that order is wrong on s
    (y sum_j c_j sign(v_j . x~) <= 0, [VotedRun.vote]), the voters that err on s carry at
    least half of the total weight: W <= 2 Ew. *)
Definition V1_vote_run_statement : Prop :=
  forall (D : dataset) (rho : R) (order : list nat) (s : sample),
  vote rho (voted rho D order) s <= 0 ->
  total_weight (voted rho D order) <= 2 * erring_weight rho (voted rho D order) s.

(** V1 (over a finite test sample; Freund and Schapire 1999, Theorem 1's deterministic core):
    for every labelled training set D, bias rho, nonempty presentation order and list T of
    labelled test samples, the voted perceptron trained on D in that order has
    W (number of wrong votes on T) <= 2 (sum over T of the erring voters' weight), where
    W = sum_j c_j is the total weight. *)
Definition V1_sample_run_statement : Prop :=
  forall (D : dataset) (rho : R) (order : list nat) (T : list sample),
  order <> [] ->
  total_weight (voted rho D order) * wrong_votes rho (voted rho D order) T
    <= 2 * erring_weight_sum rho (voted rho D order) T.

(** V1 (the prefixes; Freund and Schapire 1999, the deterministic core of Theorem 1): for
    every labelled dataset D, bias rho and presentation order, the number of prefixes of the
    run whose perceptron errs on the next presented sample equals the run's number of updates
    k; so wherever k obeys a bound gamma^2 k <= (Dv + R)^2 (FS1's, a premise here as in the
    printed statement), the erring prefixes obey it too. *)
Definition V1_prefixes_run_statement : Prop :=
  forall (D : dataset) (rho : R) (order : list nat) (gamma R_ Dv : R),
  0 < gamma -> 0 <= R_ -> 0 <= Dv ->
  gamma ^ 2 * INR (perceptron_updates rho D order) <= (Dv + R_) ^ 2 ->
  INR (prefix_errors rho D order) = INR (perceptron_updates rho D order) /\
  INR (prefix_errors rho D order) * gamma ^ 2 <= (Dv + R_) ^ 2.

(** FS1 (one pass; Freund and Schapire 1999, Theorem 2): for every labelled dataset D (not
    necessarily separable), bias rho, presentation order, unit vector u and gamma > 0, with
    D_dev^2 the sum over the presented sequence of the deviations
    max(0, gamma - y (u . x~))^2 and R^2 = max_i ||(x_i, rho)||^2, the perceptron's number of
    updates k obeys gamma^2 k <= (D_dev + R)^2. *)
Definition FS1_one_pass_run_statement : Prop :=
  forall (D : dataset) (rho : R) (order : list nat) (u : vec) (gamma : R),
  valid D order -> norm2 u = 1 -> 0 < gamma ->
  gamma ^ 2 * INR (perceptron_updates rho D order)
    <= (sqrt (presented_deviation2 u gamma rho D order) + sqrt (radius2 rho D)) ^ 2.

(** FS1 (several passes; Freund and Schapire 1999, Theorem 2): for every labelled dataset D
    (not necessarily separable), bias rho, unit vector u, gamma > 0 and presentation order in
    which each sample is presented at most T times (T passes over any permutations, or any
    order), with D_data^2 = sum over the dataset of the deviations
    max(0, gamma - y (u . x~))^2 and R^2 = max_i ||(x_i, rho)||^2, the perceptron's number of
    updates k obeys gamma^2 k <= (R + sqrt T D_data)^2. *)
Definition FS1_passes_run_statement : Prop :=
  forall (D : dataset) (rho : R) (order : list nat) (u : vec) (gamma : R) (T : nat),
  valid D order -> norm2 u = 1 -> 0 < gamma ->
  (forall i, (i < length D)%nat -> (count_occ Nat.eq_dec order i <= T)%nat) ->
  gamma ^ 2 * INR (perceptron_updates rho D order)
    <= (sqrt (radius2 rho D) + sqrt (INR T) * sqrt (data_deviation2 u gamma rho D)) ^ 2.

(** R1 (ROMMA, Li and Long 2002): for every labelled dataset D, bias rho, update rule
    (conservative: update iff y (w . x~) <= 0; or aggressive with eps >= 0: iff
    y (w . x~) < 1 - eps), presentation order and separating certificate (lambda, p* ) of
    the reflected patterns, with gamma^2 the squared distance from 0 to conv{z_i} and
    R^2 = max_i ||(x_i, rho)||^2, ROMMA's run ([RommaRun.romma], the closed-form update)
    never finds its constraint set empty and makes k mistakes (updates on
    y (w . x~) <= 0) with k gamma^2 <= R^2. *)
Definition R1_run_statement : Prop :=
  forall (D : dataset) (rho : R) (rule : romma_rule) (order : list nat) (lam : list R) (p : vec)
    (gamma2 : R),
  rule_ok rule ->
  valid D order ->
  separable_certificate (reflected rho D) lam p ->
  min_norm_sq (reflected rho D) gamma2 ->
  romma_stopped rho rule D order = false /\
  INR (romma_mistakes rho rule D order) * gamma2 <= radius2 rho D.

(** S2 (the Sherman-Morrison formula; the IJCAI paper's (7)-(8)), n x n for every n (matrices are
    functions nat -> nat -> R over 0..n-1, [MarginDistribution]): when A B = I and
    1 + v^T B u <> 0, the rank-one update A + u v^T has the inverse
    B - (B u)(v^T B) / (1 + v^T B u).  (The printed statement is its 1 x 1 case.) *)
Definition S2_run_statement : Prop :=
  forall (n : nat) (A B : MarginDistribution.mat) (u v : MarginDistribution.vecf),
  MarginDistribution.is_right_inverse n A B ->
  1 + MarginDistribution.vdot n v (MarginDistribution.mvec n B u) <> 0 ->
  MarginDistribution.is_right_inverse n (MarginDistribution.rank1 A u v)
    (MarginDistribution.sm_inverse n B u v).

(** S1 (the IJCAI paper's margin loss and semi-variance): for every labelled dataset D, bias
    rho, weight vector w and theta > 0, the squared hinge of every sample's normalised
    margin m_i / theta, m_i = y_i (w . (x_i, rho)) ([Labelled.signed_margin]), is
    (theta - m_i)_+^2 / theta^2: the list of the one is the list of the other, so their
    sums and means over the data agree. *)
Definition S1_run_statement : Prop :=
  forall (D : dataset) (rho : R) (w : vec) (theta : R),
  0 < theta ->
  map (fun s => Rmax 0 (1 - signed_margin w rho s / theta) ^ 2) D
    = map (fun s => Rmax 0 (theta - signed_margin w rho s) ^ 2 / theta ^ 2) D.

(** DS1 (PDM-succ, the PDM paper section 3): for every labelled dataset D, bias rho,
    separating certificate (lambda, p* ) of the reflected patterns, stages so far (each a
    PDM(eps_i) run over a valid order, [LargeMargin.pdm_succ]) ending after t0 >= 1 updates
    where PDM(eps') (0 < eps' < 1) has converged, and a next stage PDM(eps) (0 < eps < 1/2)
    over a valid order, ending after t updates: with gamma^2 = ||p*||^2 and
    R^2 = max_i ||(x_i, rho)||^2,
    t^(2 eps) <= t0^(2 eps) (R^2 / (gamma^2 t0 (1 - 2 eps)) + 1 / (1 - eps')^2). *)
Definition DS1_run_statement : Prop :=
  forall (D : dataset) (rho : R) (stages : list (R * list nat)) (eps_prev eps : R)
    (order : list nat) (lam : list R) (p : vec),
  separable_certificate (reflected rho D) lam p ->
  (forall st, In st stages -> valid D (snd st)) -> valid D order ->
  0 < eps_prev -> eps_prev < 1 -> 0 < eps -> eps < 1 / 2 ->
  (1 <= snd (pdm_succ (reflected rho D) stages))%nat ->
  pdm_converged eps_prev (reflected rho D) (pdm_succ (reflected rho D) stages) ->
  let t0 := INR (snd (pdm_succ (reflected rho D) stages)) in
  let t := INR (snd (pdm_succ (reflected rho D) (stages ++ [(eps, order)]))) in
  Rpower t (2 * eps)
    <= Rpower t0 (2 * eps) * (radius2 rho D / (dot p p * t0 * (1 - 2 * eps)) + / (1 - eps_prev) ^ 2).

(** RC1 (the IJCAI-22 paper section 3, the linear class's empirical Rademacher complexity):
    for every labelled dataset D of n >= 1 samples whose feature vectors have norm at most
    r > 0, and every Lam > 0, (Lam / n) E_s ||sum_i s_i x_i|| <= Lam r / sqrt n, the
    expectation over the signs s in {-1, +1}^n being the average over all 2^n sign vectors
    ([RademacherRun.rad_e1]). *)
Definition RC1_run_statement : Prop :=
  forall (D : dataset) (r Lam : R),
  (1 <= length D)%nat -> 0 < r -> 0 < Lam ->
  (forall s, In s D -> norm2 (features s) <= r ^ 2) ->
  Lam * rad_e1 (map features D) / INR (length D)
    <= Lam * Rpower (INR (length D)) (- (1 / 2)) * r.

(** L1 (the PDM paper, Lemma 1) where PFM meets it: for every labelled dataset, rho, order,
    separating certificate p* (gamma^2 = ||p*||^2) and 0 < eps <= 1, the number t >= 1 of
    updates of PFM((1 - eps) gamma) satisfies the lemma's hypothesis
    t <= delta (1 + C + ln t), delta = R^2/(2 eps gamma^2), C = 2 gamma/R, R^2 =
    [radius2 rho D], and therefore its conclusion t <= delta (C + ln(delta (1 + e))) (1/e + 1). *)
Definition L1_run_statement : Prop :=
  forall (D : dataset) (rho : R) (order : list nat) (lam : list R) (p : vec) (eps : R),
  valid D order ->
  separable_certificate (reflected rho D) lam p ->
  0 < eps -> eps <= 1 ->
  (1 <= pfm_updates ((1 - eps) * sqrt (dot p p)) rho D order)%nat ->
  INR (pfm_updates ((1 - eps) * sqrt (dot p p)) rho D order)
    <= p1_delta (radius2 rho D) (dot p p) eps
       * (1 + p1_C (radius2 rho D) (dot p p)
          + ln (INR (pfm_updates ((1 - eps) * sqrt (dot p p)) rho D order))) /\
  INR (pfm_updates ((1 - eps) * sqrt (dot p p)) rho D order)
    <= p1_delta (radius2 rho D) (dot p p) eps
       * (p1_C (radius2 rho D) (dot p p)
          + ln (p1_delta (radius2 rho D) (dot p p) eps * (1 + exp 1))) * (exp (- 1) + 1).
