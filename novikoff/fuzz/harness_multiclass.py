"""``novikoff diff --algorithm multiclass``: the harness's data, oracle and contract for K classes.

Contract: ``fit(X, y, max_epochs=E, order=O)`` with ``X`` float64 (m x d) and ``y``
class indices 0..K-1 (int64). It returns the weights as a K x (d + 1) array (bias
weight last, bias input 1) or flattened (class after class), or a mapping/object
with ``weights`` and any of ``mistakes``, ``updates``, ``epochs``, ``converged``.
The reference is :func:`novikoff.reference.multiclass.run_multiclass` (first argmax).

Oracle as for the binary harness: decisions and the direction of the flattened
weights are compared. On general float data a difference is ambiguous (rounding)
when some exact score difference between the top class and another class came
within the float64 error bound of the scores (dot products plus the accumulation
of the weights); otherwise it is a bug.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
from hypothesis import strategies as st

from novikoff.multiclass import MulticlassData
from novikoff.reference.multiclass import MulticlassRun, run_multiclass
from novikoff.runs import epoch_order

__all__ = ["MULTICLASS_FAMILIES", "multiclass_verdict", "multiclass_with_order"]

_U = 2.0**-53


@st.composite
def _small_integer_data(draw: Any, separable: bool) -> MulticlassData:
    K, d = draw(st.integers(2, 4)), draw(st.integers(1, 3))
    rows = draw(st.lists(st.lists(st.integers(-4, 4), min_size=d, max_size=d), min_size=2, max_size=8))
    if separable:
        W = draw(
            st.lists(st.lists(st.integers(-3, 3), min_size=d + 1, max_size=d + 1), min_size=K, max_size=K)
        )
        labels = []
        for x in rows:
            scores = [sum(a * b for a, b in zip(w, [*x, 1])) for w in W]
            labels.append(scores.index(max(scores)))
    else:
        labels = draw(st.lists(st.integers(0, K - 1), min_size=len(rows), max_size=len(rows)))
    if len(set(labels)) < 2:
        labels[0] = 1 - labels[0] if labels[0] <= 1 else 0
    return MulticlassData.from_arrays(rows, labels, name="generated")


@st.composite
def _gaussian_blobs(draw: Any) -> MulticlassData:
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    K, d, m = draw(st.integers(2, 4)), draw(st.integers(1, 4)), draw(st.integers(4, 30))
    centres = rng.standard_normal((K, d)) * 3
    y = rng.integers(0, K, size=m)
    y[:2] = [0, 1]
    X = centres[y] + rng.standard_normal((m, d))
    return MulticlassData.from_arrays(X, y, name="gaussian blobs")


MULTICLASS_FAMILIES: dict[str, tuple[st.SearchStrategy[MulticlassData], bool, int]] = {
    # name: (datasets, float arithmetic exact?, max_epochs)
    "multiclass, planted, exactly representable": (_small_integer_data(separable=True), True, 300),
    "multiclass, random labels, exactly representable": (_small_integer_data(separable=False), True, 7),
    "multiclass, gaussian float data": (_gaussian_blobs(), False, 50),
}


def multiclass_with_order(family: str) -> st.SearchStrategy[tuple[MulticlassData, Any, None]]:
    data, _, _ = MULTICLASS_FAMILIES[family]
    return data.flatmap(
        lambda ds: st.tuples(
            st.just(ds), st.one_of(st.none(), st.permutations(range(ds.n_samples))), st.none()
        )
    )


def _ambiguous(data: MulticlassData, run: MulticlassRun, order: Any) -> bool:
    X, s = data.scaled_rows
    Xf = np.abs(data.float_rows())
    K, D = data.n_classes, data.dimension
    W = [[0] * D for _ in range(K)]
    acc = np.zeros(D)
    present = epoch_order(order, data.n_samples)
    pending = iter(zip(run.updates, run.predictions))
    nxt = next(pending, None)
    g = D * _U / (1 - D * _U)
    k = 0
    for epoch in range(run.epochs):
        for i in present(epoch):
            scores = [Fraction(sum(a * b for a, b in zip(w, X[i])), s * s) for w in W]
            wmax = max(float(np.abs(np.array(w, dtype=float) / s) @ Xf[i]) for w in W)
            bound = 2 * (2 * g * wmax + 2 * (k * _U / (1 - k * _U)) * float(acc @ Xf[i]))
            top = max(scores)
            if bound > 0 and any(j != scores.index(top) and top - v <= bound for j, v in enumerate(scores)):
                return True
            if nxt is not None and nxt[0] == (epoch, i):
                y, p = data.labels[i], nxt[1]
                W[y] = [a + b for a, b in zip(W[y], X[i])]
                W[p] = [a - b for a, b in zip(W[p], X[i])]
                acc += Xf[i]
                k += 1
                nxt = next(pending, None)
    return False


def multiclass_verdict(
    fit: Any, family: str, data: MulticlassData, order: Any, value: Any = None
) -> tuple[str, str]:
    """('agree'|'bug'|'ambiguous'|'error'|'unsupported', message) for one example."""
    from novikoff.fuzz.harness import ImplementationError, Unsupported, call_implementation, compare

    _, exact, max_epochs = MULTICLASS_FAMILIES[family]
    K, D = data.n_classes, data.dimension
    try:
        impl = call_implementation(fit, data, order, max_epochs, "multiclass", None, ((K, D), (K * D,)))
    except ImplementationError as exc:
        return "error", str(exc)
    except Unsupported as exc:
        return "unsupported", str(exc)
    run = run_multiclass(data, order=order, max_epochs=max_epochs)

    def reference_update(k: int) -> str:
        epoch, i = run.updates[k]
        return f"sample {i} in epoch {epoch} (predicted class {run.predictions[k]}, true {data.labels[i]})"

    message = compare(data, run, impl, exact, reference_update)
    if message is None:
        return "agree", ""
    if not exact and _ambiguous(data, run, order):
        return "ambiguous", message
    return "bug", message
