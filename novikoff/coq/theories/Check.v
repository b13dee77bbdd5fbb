(** Print Assumptions for every main theorem of the development.
    Expected: only the axioms of Coq's standard real numbers
    (ClassicalDedekindReals.sig_forall_dec, ClassicalDedekindReals.sig_not_dec,
    FunctionalExtensionality.functional_extensionality_dep, and the
    Rdefinitions/Raxioms constructions they support). *)

From Novikoff Require Import Vectors Perceptron Tightness Invariance Multiclass DatasetCertificate.
From Novikoff Require Import Romma NonSeparable Voted.

Print Assumptions Novikoff.Vectors.cauchy_schwarz.
Print Assumptions Novikoff.Vectors.cauchy_schwarz_blocks.
Print Assumptions Novikoff.Perceptron.N1_scalar.
Print Assumptions Novikoff.Perceptron.N2_scalar.
Print Assumptions Novikoff.Perceptron.N3_scalar.
Print Assumptions Novikoff.Perceptron.N1_progress.
Print Assumptions Novikoff.Perceptron.N2_energy.
Print Assumptions Novikoff.Perceptron.N3_mistake_bound.
Print Assumptions Novikoff.Perceptron.N3_updates_le_ratio.
Print Assumptions Novikoff.Perceptron.N3_stream.
Print Assumptions Novikoff.Perceptron.N3_separating_direction.
Print Assumptions Novikoff.Perceptron.certificate_min_norm.
Print Assumptions Novikoff.Perceptron.ex61_N3_bound.
Print Assumptions Novikoff.Tightness.T1_tight.
Print Assumptions Novikoff.Tightness.T1_attains_N3.
Print Assumptions Novikoff.Tightness.T1_basis3.
Print Assumptions Novikoff.Invariance.run_gram_invariant.
Print Assumptions Novikoff.Invariance.scale_run_invariant.
Print Assumptions Novikoff.Invariance.orthogonal_run_invariant.
Print Assumptions Novikoff.Invariance.pad_run_invariant.
Print Assumptions Novikoff.Invariance.add_point_certificate.
Print Assumptions Novikoff.Invariance.add_point_gamma.
Print Assumptions Novikoff.Invariance.add_point_example.
Print Assumptions Novikoff.Multiclass.M1_mistake_bound.
Print Assumptions Novikoff.Multiclass.M1_normalized.
Print Assumptions Novikoff.Multiclass.m_data_example.
Print Assumptions Novikoff.DatasetCertificate.check_cert_sound.
Print Assumptions Novikoff.DatasetCertificate.certified_updates_bound.
Print Assumptions Novikoff.Romma.R1.
Print Assumptions Novikoff.NonSeparable.FS1_one_pass.
Print Assumptions Novikoff.NonSeparable.FS1_passes.
Print Assumptions Novikoff.Voted.V1_prefixes.
Print Assumptions Novikoff.Voted.V1_vote.
Print Assumptions Novikoff.Voted.V1_sample.
