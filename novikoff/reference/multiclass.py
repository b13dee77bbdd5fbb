"""The exact multiclass perceptron (the notes).

Weights w_1..w_K on x~ (bias coordinate rho last), kept as integers W_k = s w_k.
Predict the FIRST class attaining max_k w_k.x~; on a mistake (prediction p != y)
w_y += x~ and w_p -= x~. Converged = an epoch without mistakes.

With the Kesler certificate (gamma_K^2 from :func:`novikoff.certificates.certify` on
:func:`novikoff.data.multiclass.kesler`), M1 (k gamma_K^2 <= 2 R^2, R^2 = max ||x~||^2)
is evaluated from the spec after every update, and so is the Kesler progress
p*.W_k >= k ||p*||^2 (N1 in the Kesler space, with W flattened), which is what
makes M1 true.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from novikoff.certificates import SeparableCertificate
from novikoff.data.multiclass import MulticlassData
from novikoff.reference.kernels import dot
from novikoff.reference.perceptron import DEFAULT_MAX_EPOCHS
from novikoff.runtime.runs import Order, RunRecord, check_max_epochs, epoch_order
from novikoff.spec import M1, N1

__all__ = ["MulticlassRun", "predict_first_max", "run_multiclass"]


@dataclass
class MulticlassRun(RunRecord):
    """``weights`` is flattened (w_1, ..., w_K); ``class_weights`` keeps them per class;
    ``predictions`` the wrong class predicted at each update."""

    class_weights: tuple[tuple[Fraction, ...], ...] = ()
    predictions: list[int] = field(default_factory=list)


def predict_first_max(W: list[list[int]], x: tuple[int, ...]) -> int:
    """The first k attaining max_k W_k.x (exact integers)."""
    scores = [dot(w, x) for w in W]
    best = max(scores)
    return scores.index(best)


def run_multiclass(
    data: MulticlassData,
    *,
    order: Order = None,
    max_epochs: int = DEFAULT_MAX_EPOCHS,
    certificate: SeparableCertificate | None = None,
) -> MulticlassRun:
    """Run the exact multiclass perceptron from W = 0 (see the module docstring).

    Args:
        data: The exact K-class data (:meth:`novikoff.data.multiclass.MulticlassData.from_arrays`).
        order: The presentation order of each epoch (:func:`novikoff.runtime.runs.epoch_order`).
        max_epochs: The number of passes after which a run that has not converged stops.
        certificate: A certificate of the data's Kesler construction: M1 is then checked.

    Returns:
        The run record: one exact weight vector per class (``class_weights``), the
        updates, the epochs and whether it converged.

    Raises:
        InputError: A malformed ``order`` or ``max_epochs``.
        InvariantViolation: With ``certificate``, M1's check failed at an update.

    Examples:
        >>> from novikoff.data.multiclass import MulticlassData
        >>> data = MulticlassData.from_arrays([[2, 0], [0, 2], [-2, -2], [1, 0]], [0, 1, 2, 0])
        >>> run = run_multiclass(data)
        >>> run.converged, run.updates
        (True, [(0, 1), (0, 2), (0, 3)])
    """
    max_epochs = check_max_epochs(max_epochs)
    X, s = data.scaled_rows
    K, D = data.n_classes, data.dimension
    W = [[0] * D for _ in range(K)]
    presentation = epoch_order(order, data.n_samples)
    updates: list[tuple[int, int]] = []
    predictions: list[int] = []
    checked = 0
    converged, epoch = False, 0
    if certificate is not None:
        # Kesler p* = P / pd over the Kesler patterns' scale s (the same s)
        P, pd = certificate.pstar.numerators, certificate.pstar.denominator
    for epoch in range(max_epochs):
        clean = True
        for i in presentation(epoch):
            y = data.labels[i]
            p = predict_first_max(W, X[i])
            if p == y:
                continue
            W[y] = [a + b for a, b in zip(W[y], X[i])]
            W[p] = [a - b for a, b in zip(W[p], X[i])]
            updates.append((epoch, i))
            predictions.append(p)
            clean = False
            if certificate is not None:
                k = Fraction(len(updates))
                where = f"after update {len(updates)} (epoch {epoch}, sample {i}, predicted {p}, true {y})"
                flat = [v for w in W for v in w]
                progress = Fraction(dot(P, flat), pd * s)
                N1.require({"k": k, "gamma2": certificate.gamma2, "pstar_dot_w": progress}, where)
                M1.require({"k": k, "R2": data.R2, "gammaK2": certificate.gamma2}, where)
                checked += 2
        if clean:
            converged = True
            break
    class_weights = tuple(tuple(Fraction(v, s) for v in w) for w in W)
    return MulticlassRun(
        weights=tuple(v for w in class_weights for v in w),
        updates=updates,
        epochs=epoch + 1,
        converged=converged,
        invariants_checked=checked,
        algorithm="multiclass",
        class_weights=class_weights,
        predictions=predictions,
    )
