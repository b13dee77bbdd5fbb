"""The exact reference perceptron (the textbook, section 6.3), one update per loop turn.

Arithmetic: the patterns are the dataset's integer rows Z_i = s z_i (one scale
s > 0), and the weights are kept as integers W = s w. The decision
``w.z_i <= 0`` is ``W.Z_i <= 0`` (both sides times s^2 > 0), so every decision
is exact. The reported weights are the exact Fractions W / s.

Given a separability certificate, N1, N2 and N3 are evaluated after every update
by the spec's own sympy statements (``novikoff.spec``) on exact values; the
first failure raises :class:`~novikoff.errors.InvariantViolation` naming the
theorem, the statement and the numbers.
"""

from __future__ import annotations

from fractions import Fraction

from novikoff.certificates import SeparableCertificate
from novikoff.data.dataset import Dataset
from novikoff.reference.kernels import dot, perceptron_mistake
from novikoff.runtime.runs import Order, RunRecord, check_max_epochs, epoch_order
from novikoff.spec import N1, N2, N3

__all__ = ["DEFAULT_MAX_EPOCHS", "run_perceptron"]

DEFAULT_MAX_EPOCHS = 1000


def run_perceptron(
    dataset: Dataset,
    *,
    order: Order = None,
    max_epochs: int = DEFAULT_MAX_EPOCHS,
    certificate: SeparableCertificate | None = None,
    track_norms: bool = False,
) -> RunRecord:
    """Run the exact perceptron from w_0 = 0.

    Guarantees: ``updates`` is the exact sequence of (epoch, index) at which
    ``w.z_i <= 0``; ``converged`` iff an epoch made no update (then ``epochs``
    counts it); otherwise ``epochs == max_epochs``. With ``certificate``, N1-N3
    hold at every update or InvariantViolation is raised (``invariants_checked``
    counts the statement evaluations).

    Args:
        dataset: The exact data (each sample with its bias coordinate).
        order: The presentation order of each epoch (:func:`novikoff.runtime.runs.epoch_order`):
            None or ``"natural"``, ``"shuffle:SEED"``, one permutation, or a list of them.
        max_epochs: The number of passes after which a run that has not converged stops.
        certificate: A separability certificate of ``dataset``
            (:func:`novikoff.certificates.solver.certify`): N1-N3 are then checked at every update.
        track_norms: Keep ``||w_k||^2`` after every update in ``norm2_history``.

    Returns:
        The run record: exact weights, the updates, the epochs and whether it converged.

    Raises:
        InputError: ``max_epochs`` is not a positive integer, or ``order`` is malformed.
        InvariantViolation: With ``certificate``, an N1-N3 check failed at an update.

    Examples:
        >>> from novikoff.data.dataset import Dataset
        >>> ds = Dataset.from_arrays([[0, 1], [2, 1], [-1, 1], [-2, -1]], [1, 1, -1, -1])
        >>> run = run_perceptron(ds)
        >>> run.converged, len(run.updates), run.weights
        (True, 7, (Fraction(3, 1), Fraction(1, 1), Fraction(1, 1)))
    """
    max_epochs = check_max_epochs(max_epochs)
    Z, s = dataset.scaled_patterns
    m = dataset.n_samples
    presentation = epoch_order(order, m)
    W = [0] * dataset.dimension
    updates: list[tuple[int, int]] = []
    history: list[Fraction] = [Fraction(0)] if track_norms else []
    checked = 0
    if certificate is not None:
        # p* = P / pd with integer P; p*.w_k = (P.W) / (pd s)
        P, pd = certificate.pstar.numerators, certificate.pstar.denominator
        gamma2, R2 = certificate.gamma2, certificate.R2
    converged = False
    epoch = 0
    for epoch in range(max_epochs):
        clean = True
        for i in presentation(epoch):
            if perceptron_mistake(W, Z[i]):
                W = [a + b for a, b in zip(W, Z[i])]
                updates.append((epoch, i))
                clean = False
                if track_norms or certificate is not None:
                    w_norm2 = Fraction(dot(W, W), s * s)
                    if track_norms:
                        history.append(w_norm2)
                if certificate is not None:
                    k = Fraction(len(updates))
                    where = f"after update {len(updates)} (epoch {epoch}, sample {i})"
                    N1.require({"k": k, "gamma2": gamma2, "pstar_dot_w": Fraction(dot(P, W), pd * s)}, where)
                    N2.require({"k": k, "R2": R2, "w_norm2": w_norm2}, where)
                    N3.require({"k": k, "gamma2": gamma2, "R2": R2}, where)
                    checked += 3
        if clean:
            converged = True
            break
    return RunRecord(
        weights=tuple(Fraction(v, s) for v in W),
        updates=updates,
        epochs=epoch + 1,
        converged=converged,
        invariants_checked=checked,
        norm2_history=history,
    )
