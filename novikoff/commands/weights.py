"""A run's final weights in the run record: JSON fields and the ``--weights-out`` file."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from novikoff.commands.options import write_file
from novikoff.exact.rational import format_rational

__all__ = ["exact_weights", "weights_json", "write_weights"]


def exact_weights(weights: Any) -> list[Fraction]:
    """The run's final weights as exact rationals (a float64 is its exact dyadic value)."""
    return [v if isinstance(v, Fraction) else Fraction(float(v)) for v in weights]


def weights_json(weights: Any, fast: bool) -> dict[str, Any]:
    """``weights`` (bias weight last): exact strings for an exact run; for a fast run the floats
    and, as ``weights_exact``, their exact dyadic values."""
    exact = [str(format_rational(v)) for v in exact_weights(weights)]
    if not fast:
        return {"weights": exact}
    return {"weights": [float(v) for v in weights], "weights_exact": exact}


def write_weights(path: str, weights: Any, what: str, row_length: int | None = None) -> None:
    """Write the final weights to ``path`` exactly (bias weight last), under a ``#`` comment, in
    the form ``novikoff margins --weights`` reads back: one value per line, or for a multiclass
    run (``row_length`` = D) one class per line, D comma-separated values each."""
    values = [str(format_rational(v)) for v in exact_weights(weights)]
    if row_length is None:
        lines = [f"# {what}: final weights, bias weight last (exact)", *values]
    else:
        rows = [values[i : i + row_length] for i in range(0, len(values), row_length)]
        lines = [f"# {what}: final weights, one class per line, bias weight last (exact)"]
        lines += [", ".join(row) for row in rows]
    write_file(path, "\n".join(lines) + "\n", "--weights-out")
