"""Proof obligations, their mechanical checker, and the proofs of every theorem.

The proof modules mirror :mod:`novikoff.spec` module for module: ``novikoff.proofs.<name>``
proves what ``novikoff.spec.<name>`` states (:data:`novikoff.proofs.registry.PROOF_MODULES`).

- :mod:`novikoff.proofs.perceptron` (N1, N2, N3), :mod:`~novikoff.proofs.tightness` (T1),
  :mod:`~novikoff.proofs.invariance` (G1), :mod:`~novikoff.proofs.multiclass` (M1),
  :mod:`~novikoff.proofs.msvmav` (S1, S2) and the package :mod:`~novikoff.proofs.pdm`
  (P1, D1, D2, D3, L1, MU; its step modules ``lemma1``, ``steps``, ``small_eps`` and
  ``pfm`` are helpers of that one spec module). Each has ``obligations()`` (the step
  obligations) and ``headline_proofs()`` (one
  :class:`~novikoff.proofs.statements.HeadlineProof` per statement, pointing at the
  statement object itself);
- :mod:`novikoff.proofs.core`: obligations and proof kinds (identities,
  Positivstellensatz certificates, interval branch and bound, monotonicity,
  induction, chains, case splits, lemma application) and ``check_obligation``;
- :mod:`novikoff.proofs.statements`: from a statement to its headline obligation;
- :mod:`novikoff.proofs.registry`: every obligation, derived from the proof modules, and
  the spec ids each bears on; :mod:`novikoff.proofs.wrong_variants`: the broken copies the
  checker must reject; :mod:`novikoff.proofs.contracts`: CrossHair on the reference's
  integer kernels; :mod:`novikoff.proofs.results`: the check types ``novikoff verify``
  runs.

``novikoff verify`` (:mod:`novikoff.verify`) runs all of it.
"""

__all__: list[str] = []
