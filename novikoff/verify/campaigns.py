"""The ``campaign`` checks of ``novikoff verify`` (derandomized Hypothesis campaigns on exact runs:
the perceptron with N1-N3, PDM, PFM, multiclass and MSVMAv) and the ``crosshair`` checks."""

from __future__ import annotations

import math
from fractions import Fraction
from functools import partial
from typing import Any

from novikoff.errors import InputError
from novikoff.proofs.results import Check
from novikoff.verify.certificate_checks import NOVIKOFF_IDS

__all__ = ["campaign_checks", "crosshair_checks"]


def campaign_checks(full: bool) -> list[Check]:
    def run() -> None:
        from hypothesis import HealthCheck, given, settings
        from hypothesis import strategies as st

        from novikoff.fuzz import certified_separable, orderings
        from novikoff.reference import run_perceptron
        from novikoff.twins.exact import exact_perceptron

        @settings(
            max_examples=300 if full else 60,
            derandomize=True,
            deadline=None,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
        @given(st.data())
        def campaign(data: st.DataObject) -> None:
            ds, cert = data.draw(certified_separable())
            order = data.draw(orderings(ds.n_samples))
            run = run_perceptron(ds, order=order, certificate=cert, max_epochs=10_000)  # N1-N3 every update
            if not run.converged:  # N3 bounds the mistakes, hence the epochs
                raise AssertionError(f"no convergence on separable data: {ds!r}")
            fast = exact_perceptron(ds, order=order, certificate=cert, max_epochs=10_000)
            if (fast.updates, tuple(fast.weights)) != (run.updates, tuple(run.weights)):
                raise AssertionError(f"the exact fast path's run differs from the reference's: {ds!r}")

        campaign()

    return [
        Check(
            "campaign",
            "N3",
            "Hypothesis campaign: N1-N3 on exact runs, and the exact fast path equal to them (derandomized)",
            run,
            NOVIKOFF_IDS,
        ),
        *_large_margin_campaigns(full),
    ]


def _derandomized(full: bool, examples: int) -> Any:
    from hypothesis import HealthCheck, settings

    return settings(
        max_examples=examples * (5 if full else 1),
        derandomize=True,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )


def _large_margin_campaigns(full: bool) -> list[Check]:
    """Exact PDM/PFM runs (D3 per update, D1/D2/P1 at convergence), multiclass runs (M1 and
    the Kesler progress per update) and MSVMAv runs (S2 per iteration), derandomized."""
    from hypothesis import given
    from hypothesis import strategies as st

    def pdm() -> None:
        from novikoff.fuzz import certified_separable
        from novikoff.reference.large_margin import run_pdm

        eps = st.sampled_from([Fraction(1), Fraction(3, 4), Fraction(1, 2), Fraction(1, 4), Fraction(1, 10)])

        @_derandomized(full, 25)
        @given(certified_separable(max_samples=7, max_dim=4), eps, st.booleans())
        def campaign(pair: Any, e: Fraction, multiple: bool) -> None:
            ds, cert = pair
            run = run_pdm(ds, e, certificate=cert, multiple_updates=multiple, max_epochs=10_000)
            if not run.converged:
                raise AssertionError(f"PDM({e}) did not converge on separable data: {ds!r}")
            bad = {k: v for k, v in run.checks.items() if not v.startswith(("held", "not applicable"))}
            if bad:
                raise AssertionError(f"undecided checks {bad} on {ds!r}")

        campaign()

    def pfm() -> None:
        from novikoff.fuzz import certified_separable
        from novikoff.reference.large_margin import run_pfm

        @_derandomized(full, 20)
        @given(
            certified_separable(max_samples=6, max_dim=3), st.sampled_from([Fraction(1, 4), Fraction(3, 4)])
        )
        def campaign(pair: Any, ratio: Fraction) -> None:
            ds, cert = pair
            target = ratio * ratio * cert.gamma2 * 10**12  # beta = ratio gamma, rounded down
            beta = Fraction(math.isqrt(target.numerator // target.denominator), 10**6)
            run = run_pfm(ds, beta, certificate=cert, max_epochs=10_000)
            if not run.converged or not run.checks.get("P1", "held").startswith(("held", "not applicable")):
                raise AssertionError(f"PFM({beta}): {run.checks} on {ds!r}")

        campaign()

    def multiclass() -> None:
        from novikoff.certificates import SeparableCertificate, certify
        from novikoff.data.multiclass import MulticlassData, kesler
        from novikoff.reference.multiclass import run_multiclass

        @_derandomized(full, 20)
        @given(
            st.integers(2, 4),
            st.lists(st.tuples(st.integers(-3, 3), st.integers(-3, 3)), min_size=2, max_size=8),
        )
        def campaign(K: int, points: list[tuple[int, int]]) -> None:
            labels = [(3 * x + 5 * y) % K for x, y in points]
            if len(set(labels)) < 2:
                return
            data = MulticlassData.from_arrays([list(p) for p in points], labels)
            cert = certify(kesler(data))
            run = run_multiclass(
                data, certificate=cert if isinstance(cert, SeparableCertificate) else None, max_epochs=200
            )
            if isinstance(cert, SeparableCertificate) and not run.converged:
                raise AssertionError(f"multiclass run did not converge on Kesler-separable data {points}")

        campaign()

    def msvmav() -> None:
        from novikoff.data.dataset import Dataset
        from novikoff.reference.msvmav import run_msvmav

        @_derandomized(full, 10)
        @given(
            st.lists(
                st.tuples(st.integers(0, 4), st.integers(0, 4), st.sampled_from([-1, 1])),
                min_size=3,
                max_size=8,
            )
        )
        def campaign(rows: list[tuple[int, int, int]]) -> None:
            ds = Dataset.from_arrays([[a, b] for a, b, _ in rows], [y for _, _, y in rows])
            try:
                run_msvmav(ds, 1, Fraction(1, 4), iterations=10)  # InvariantViolation if S2 fails
            except InputError:  # sum_i z_i = 0: w_0 undefined, nothing to check
                return

        campaign()

    return [
        Check(
            "campaign",
            "D2",
            "Hypothesis campaign: exact PDM runs, D3 per update, D1/D2 at convergence",
            pdm,
            frozenset({"D1", "D2", "D3", "MU"}),  # MU: the repeated-update count, with multiple updates
        ),
        Check(
            "campaign",
            "P1",
            "Hypothesis campaign: exact PFM runs, D3 per update, P1 at convergence",
            pfm,
            frozenset({"P1", "D3"}),
        ),
        Check(
            "campaign",
            "M1",
            "Hypothesis campaign: exact multiclass runs, M1 per update",
            multiclass,
            frozenset({"M1", "N1"}),  # N1 in the Kesler space, per update
        ),
        Check("campaign", "S2", "Hypothesis campaign: MSVMAv, Sherman-Morrison = direct inverse", msvmav),
    ]


def crosshair_checks() -> list[Check]:
    from novikoff.proofs.contracts import KERNELS, crosshair_check

    return [
        Check("crosshair", sid, f"CrossHair: {fn}", partial(crosshair_check, fn))
        for fn, sid in KERNELS.items()
    ]
