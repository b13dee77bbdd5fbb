"""Search for datasets that break a proposed bound on the perceptron's number of updates.

``falsify(text)`` parses the bound (:func:`novikoff.fuzz.bounds.parse_bound`), then

1. checks the T1 family (e_1..e_n, plain and scaled, n = 1..200), where the
   perceptron makes exactly n = R^2/gamma^2 updates: any bound below R^2/gamma^2 there
   fails at once, with the T1 witness;
2. searches certified separable datasets and orderings with Hypothesis
   (derandomized by the seed; failures shrink to small examples).

Every value is exact: R2 and gamma2 come from the exact certificate, the update
count from the exact reference, and ``updates > bound`` is decided by interval
arithmetic at 60 digits (``sqrt``/``log``/``exp``/``floor``/... included); an
interval that straddles the count is never called a counterexample. The answer is
a counterexample or "no counterexample in N examples", never a proof.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import mpmath
import sympy as sp
from hypothesis import HealthCheck, find, settings
from hypothesis.errors import NoSuchExample

from novikoff.certify import SeparableCertificate, certify
from novikoff.data import Dataset
from novikoff.fuzz.bounds import BOUND_SYMBOLS, parse_bound
from novikoff.fuzz.strategies import certified_separable, orderings
from novikoff.rational import format_rational, unlimited_int_digits
from novikoff.reference import run_perceptron
from novikoff.spec.tightness import basis_dataset

__all__ = ["Counterexample", "FalsifyResult", "bound_exceeded", "falsify"]

_iv = mpmath.iv


def _interval(lo: Any, hi: Any | None = None) -> Any:
    return _iv.mpf([lo, lo if hi is None else hi])


def _floor(x: Any) -> Any:
    return _interval(mpmath.floor(x.a), mpmath.floor(x.b))


def _ceil(x: Any) -> Any:
    return _interval(mpmath.ceil(x.a), mpmath.ceil(x.b))


def _min(*xs: Any) -> Any:
    return _interval(min(x.a for x in xs), min(x.b for x in xs))


def _max(*xs: Any) -> Any:
    return _interval(max(x.a for x in xs), max(x.b for x in xs))


_FUNCTIONS = {
    "sqrt": _iv.sqrt,
    "log": _iv.log,
    "exp": _iv.exp,
    "floor": _floor,
    "ceiling": _ceil,
    "Min": _min,
    "Max": _max,
    "E": _iv.e,
    "pi": _iv.pi,
    "mpf": _iv.mpf,
}


def _evaluate(bound: sp.Expr, values: dict[str, Fraction]) -> Any:
    """An interval containing the bound's value (60 digits)."""
    symbols = [BOUND_SYMBOLS[n] for n in BOUND_SYMBOLS]
    f = sp.lambdify(symbols, bound, modules=[_FUNCTIONS, "mpmath"])
    saved = _iv.prec
    _iv.prec = 200
    try:
        args = []
        for name in BOUND_SYMBOLS:
            q = values[name] if name not in ("R", "gamma") else None
            if name == "R":
                args.append(
                    _iv.sqrt(_interval(mpmath.mpf(values["R2"].numerator)) / values["R2"].denominator)
                )
            elif name == "gamma":
                args.append(
                    _iv.sqrt(_interval(mpmath.mpf(values["gamma2"].numerator)) / values["gamma2"].denominator)
                )
            else:
                assert q is not None
                args.append(_interval(mpmath.mpf(q.numerator)) / q.denominator)
        value = f(*args)
        if not isinstance(value, type(_iv.mpf(0))):
            value = _iv.mpf(value)
        return value
    finally:
        _iv.prec = saved


def bound_exceeded(bound: sp.Expr, updates: int, values: dict[str, Fraction]) -> bool:
    """True iff ``updates`` > the bound's value, decided rigorously (False when unsure)."""
    try:
        value = _evaluate(bound, values)
    except (ZeroDivisionError, ValueError, TypeError):
        return False  # undefined here: not a counterexample
    if not (mpmath.isfinite(value.a) and mpmath.isfinite(value.b)):
        return False  # e.g. log(0): the bound says nothing here
    return bool(value.b < updates)


@dataclass
class Counterexample:
    """A dataset, an order and its exact update count above the bound."""

    dataset: Dataset
    order: Any
    updates: int
    values: dict[str, Fraction]
    bound_value: str
    source: str

    def write_csv(self, path: str | Path) -> None:
        """Write the dataset so that ``novikoff certify FILE --bias RHO`` replays it.

        A single sample is written twice: the file readers need two samples, and a
        duplicate changes neither R, gamma nor the run (it is never a mistake).
        """
        with unlimited_int_digits():
            lines = [
                f"# novikoff falsify counterexample ({self.source}): {self.updates} updates, "
                f"bias {self.dataset.bias}, order {'natural' if self.order is None else list(self.order)}"
            ]
            for i in range(self.dataset.n_samples):
                xs = [str(format_rational(v)) for v in self.dataset.features(i)]
                lines.append(",".join([*xs, str(self.dataset.labels[i])]))
            if self.dataset.n_samples == 1:
                lines.append(lines[-1])
        Path(path).write_text("\n".join(lines) + "\n")


@dataclass
class FalsifyResult:
    bound: sp.Expr
    examples: int
    counterexample: Counterexample | None


def _values(ds: Dataset, cert: SeparableCertificate) -> dict[str, Fraction]:
    return {"R2": cert.R2, "gamma2": cert.gamma2, "m": Fraction(ds.n_samples), "d": Fraction(ds.n_features)}


def _bound_value(bound: sp.Expr, values: dict[str, Fraction]) -> str:
    try:
        v = _evaluate(bound, values)
        return f"in {_iv.nstr(v, 15)}"
    except (ZeroDivisionError, ValueError, TypeError):
        return "undefined"


def falsify(text: str, examples: int = 200, seed: int = 0) -> FalsifyResult:
    """Search for a counterexample to ``updates <= bound`` (see the module docstring)."""
    bound = parse_bound(text)
    tried = 0
    for scale in (Fraction(1), Fraction(1, 3), Fraction(5)):
        for n in range(1, 201):
            tried += 1
            values = {"R2": scale**2, "gamma2": scale**2 / n, "m": Fraction(n), "d": Fraction(n)}
            if bound_exceeded(bound, n, values):
                ds = basis_dataset(n, scale=scale)
                return FalsifyResult(
                    bound,
                    tried,
                    Counterexample(
                        ds, None, n, values, _bound_value(bound, values), f"T1 with n = {n}, scale {scale}"
                    ),
                )

    def violates(pair: tuple[tuple[Dataset, SeparableCertificate], Any]) -> bool:
        nonlocal tried
        tried += 1
        (ds, cert), order = pair
        run = run_perceptron(ds, order=order, max_epochs=10_000)
        return bound_exceeded(bound, run.mistakes, _values(ds, cert))

    strategy = certified_separable().flatmap(lambda p: orderings(p[0].n_samples).map(lambda o: (p, o)))
    try:
        found = find(
            strategy,
            violates,
            settings=settings(
                max_examples=examples,
                database=None,
                deadline=None,
                derandomize=seed == 0,
                suppress_health_check=list(HealthCheck),
            ),
            random=None if seed == 0 else __import__("random").Random(seed),
        )
    except NoSuchExample:
        return FalsifyResult(bound, tried, None)
    (ds, cert), order = found
    run = run_perceptron(ds, order=order, max_epochs=10_000)
    values = _values(ds, cert)
    return FalsifyResult(
        bound,
        tried,
        Counterexample(
            ds, order, run.mistakes, values, _bound_value(bound, values), "Hypothesis search (shrunk)"
        ),
    )


def certify_check(ce: Counterexample) -> bool:
    """Re-derive the counterexample's numbers from scratch (certificate and exact run)."""
    cert = certify(ce.dataset)
    if not isinstance(cert, SeparableCertificate):
        return False
    run = run_perceptron(ce.dataset, order=ce.order, max_epochs=10_000)
    return run.mistakes == ce.updates and _values(ce.dataset, cert) == {
        k: ce.values[k] for k in ("R2", "gamma2", "m", "d")
    }
