"""Proof obligations, their mechanical checker, and the proofs of every theorem.

- :mod:`novikoff.proofs.core`: obligations and proof kinds (identities,
  Positivstellensatz certificates, interval branch and bound, monotonicity,
  induction, chains, case splits, lemma application) and ``check_obligation``;
- :mod:`novikoff.proofs.perceptron` (N1-N3, Cauchy-Schwarz, D3, T1, G1),
  :mod:`~novikoff.proofs.lemma1` (L1), :mod:`~novikoff.proofs.pdm` (D1, D2, MU,
  S1, S2, M1), :mod:`~novikoff.proofs.pdm_small_eps` (D1 for eps < 1/2),
  :mod:`~novikoff.proofs.pfm` (P1);
- :mod:`novikoff.proofs.registry`: every obligation and the wrong variants the
  checker must reject; :mod:`novikoff.proofs.contracts`: CrossHair on the
  reference's integer kernels.

``novikoff verify`` (:mod:`novikoff.verify`) runs all of it.
"""
