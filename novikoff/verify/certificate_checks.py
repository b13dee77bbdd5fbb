"""The ``certificate`` checks of ``novikoff verify``: exact certificates and checked exact runs on
built-in datasets (T1 for n = 1..50 plain and rotated, the textbook's section 6.6 data and
exercise 6.1, iris setosa-vs-rest, breast cancer when scikit-learn is installed)."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import partial
from typing import TYPE_CHECKING, Any

from novikoff.proofs.results import Check, Skip

if TYPE_CHECKING:
    from novikoff.data.dataset import Dataset

__all__ = ["NOVIKOFF_IDS", "certificate_checks", "dataset_check"]


def _certified_run(
    ds: Dataset, expect_separable: bool | None = None, t1_n: int | None = None, max_epochs: int = 200
) -> None:
    """Certify exactly, re-check the certificate, run the exact perceptron with N1-N3 at
    every update (up to ``max_epochs``) and replay the run with the checker."""
    from novikoff.certificates import SeparableCertificate, certify
    from novikoff.certificates.checker import check_certificate, check_run
    from novikoff.reference import run_perceptron
    from novikoff.spec import N3, T1

    cert = certify(ds)
    check_certificate(ds, cert)
    separable = isinstance(cert, SeparableCertificate)
    if expect_separable is not None and separable != expect_separable:
        raise AssertionError(f"{ds.name}: expected separable={expect_separable}")
    sep = cert if isinstance(cert, SeparableCertificate) else None
    run = run_perceptron(ds, certificate=sep, max_epochs=max_epochs)
    check_run(ds, run.updates, list(run.weights), run.epochs, run.converged)
    if sep is not None and not N3.check({"k": run.mistakes, "gamma2": sep.gamma2, "R2": sep.R2}):
        raise AssertionError(f"{ds.name}: {run.mistakes} updates exceed R^2/gamma^2")
    if t1_n is not None:
        assert sep is not None
        values: dict[str, Fraction | int] = {
            "n": t1_n,
            "k": run.mistakes,
            "R2": sep.R2 / sep.R2,
            "gamma2": sep.gamma2 / sep.R2,
        }
        if not T1.check(values) or run.mistakes != t1_n:
            raise AssertionError(f"T1 fails for n = {t1_n}: {run.mistakes} updates")


#: What a certified run checks: N1-N3 at every update (with a separating certificate).
NOVIKOFF_IDS = frozenset({"N1", "N2", "N3"})


def dataset_check(
    spec_id: str, name: str, load: Callable[[], Dataset], ids: frozenset[str] = NOVIKOFF_IDS, **expect: Any
) -> Check:
    """A certificate check on the dataset ``load()`` builds when the check runs."""
    return Check("certificate", spec_id, name, lambda: _certified_run(load(), **expect), ids)


def certificate_checks(full: bool) -> list[Check]:
    from novikoff.data.examples import exercise_6_1, textbook_6_6
    from novikoff.spec.tightness import basis_dataset, rotated_basis_dataset

    checks: list[Check] = []
    tight = NOVIKOFF_IDS | {"T1"}
    for n in range(1, 51):
        checks.append(
            dataset_check(
                "T1", f"T1 basis n={n}", partial(basis_dataset, n), tight, expect_separable=True, t1_n=n
            )
        )
        checks.append(
            dataset_check(
                "T1",
                f"T1 rotated n={n}",
                partial(rotated_basis_dataset, n, seed=n),
                tight,
                expect_separable=True,
                t1_n=n,
            )
        )
    for sep in (2.0, 3.0, 4.0, 5.0, 6.0):
        separable = sep != 2.0  # not separable: only the certificate of infeasibility is checked
        checks.append(
            dataset_check(
                "N3",
                f"seed 6.6 separation {sep:g}",
                partial(textbook_6_6, sep),
                NOVIKOFF_IDS if separable else frozenset({"N3"}),
                expect_separable=separable,
            )
        )
    checks.append(dataset_check("N3", "exercise 6.1", exercise_6_1, expect_separable=True))
    checks.append(
        dataset_check("N3", "iris setosa vs rest", partial(_sklearn, "iris"), expect_separable=True)
    )
    wdbc_epochs = 200 if full else 3  # its margin is tiny: a long exact run, N1-N3 checked throughout
    checks.append(
        dataset_check(
            "N3",
            f"breast cancer (wdbc), {wdbc_epochs} exact epochs",
            partial(_sklearn, "wdbc"),
            max_epochs=wdbc_epochs,
        )
    )
    return checks


def _sklearn(name: str) -> Dataset:
    try:
        from sklearn import datasets
    except ImportError:
        raise Skip("scikit-learn is not installed (pip install 'novikoff[datasets]')") from None
    from novikoff.data.dataset import Dataset

    if name == "iris":
        X, y = datasets.load_iris(return_X_y=True)
        return Dataset.from_arrays(X, y, positive=0, one_vs_rest=True, name="iris setosa-vs-rest")
    X, y = datasets.load_breast_cancer(return_X_y=True)
    return Dataset.from_arrays(X, y, name="breast cancer (wdbc)")
