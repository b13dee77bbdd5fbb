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
From Novikoff Require Import Vectors Perceptron Labelled.
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
