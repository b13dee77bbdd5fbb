"""``novikoff run``'s per-algorithm pieces for the binary algorithms, named by their
registry entries (:mod:`novikoff.runtime.algorithms`, :class:`~novikoff.runtime.algorithms.CliSpec`).

Each ``*_parameters(args)`` reads the algorithm's options into its parameters (InputError on
a bad value); each ``*_exact(ds, params, args, certificate)`` and ``*_fast(ds, params, args)``
runs it; the ``*_checks`` functions add theorem checks after a run, ``pocket_report`` and
``pocket_lines`` the pocket's report. :mod:`novikoff.commands.run` calls them without knowing
which algorithm it runs.
"""

from __future__ import annotations

import argparse
from fractions import Fraction
from typing import Any

from novikoff.certificates import SeparableCertificate
from novikoff.commands.options import rational_option
from novikoff.data.dataset import Dataset
from novikoff.errors import InputError
from novikoff.exact.approx import show
from novikoff.exact.rational import format_rational
from novikoff.runtime.runlog import RunBounds
from novikoff.runtime.runs import RunRecord

__all__ = [
    "d2_checks",
    "epoch_cap",
    "large_margin_exact",
    "pdm_fast",
    "pdm_parameters",
    "pdm_succ_fast",
    "pdm_succ_parameters",
    "perceptron_checks",
    "perceptron_exact",
    "perceptron_fast",
    "pfm_fast",
    "pfm_parameters",
    "pocket_exact",
    "pocket_fast",
    "pocket_lines",
    "pocket_report",
    "romma_checks",
    "romma_exact",
    "romma_fast",
    "romma_parameters",
]


def epoch_cap(ds: Dataset, args: argparse.Namespace) -> int:
    """The epochs a one-update-per-presentation run gets: ``--max-epochs``, lowered so that
    ``--max-updates`` updates cannot be exceeded."""
    return RunBounds(args.max_epochs, args.max_updates).epoch_cap(ds.n_samples)


# ---------------------------------------------------------------------------- parameters


def pfm_parameters(args: argparse.Namespace) -> dict[str, Any]:
    """PFM's beta >= 0 (``--beta``, required)."""
    from novikoff.runtime.parameters import validate_beta

    if args.beta is None:
        raise InputError("--algorithm pfm needs --beta B")
    return {"beta": validate_beta(rational_option(args.beta, "--beta"))}


def pdm_parameters(args: argparse.Namespace) -> dict[str, Any]:
    """PDM's eps in (0, 1] (``--epsilon``, default 1/100)."""
    from novikoff.runtime.parameters import validate_epsilon

    eps = rational_option(args.epsilon, "--epsilon")
    return {"eps": validate_epsilon(Fraction(1, 100) if eps is None else eps, "--epsilon")}


def pdm_succ_parameters(args: argparse.Namespace) -> dict[str, Any]:
    """PDM-succ's strictly decreasing eps values (``--epsilons``, required)."""
    from novikoff.runtime.parameters import parse_epsilons

    if args.epsilons is None:
        raise InputError("--algorithm pdm-succ needs --epsilons E1,E2,...")
    parts = [p.strip() for p in args.epsilons.split(",") if p.strip()]
    return {"epsilons": parse_epsilons([rational_option(p, "--epsilons") for p in parts])}


def romma_parameters(args: argparse.Namespace) -> dict[str, Any]:
    """ROMMA's eps (``--epsilon``, default 0; eps > 0 only with ``--aggressive``)."""
    from novikoff.reference.romma import validate_romma_eps

    eps = rational_option(args.epsilon, "--epsilon")
    return {"eps": validate_romma_eps(Fraction(0) if eps is None else eps, args.aggressive)}


# ---------------------------------------------------------------------------------- runs


def perceptron_exact(
    ds: Dataset, params: dict[str, Any], args: argparse.Namespace, cert: SeparableCertificate | None
) -> RunRecord:
    """The exact perceptron (the exact twin: the reference's run, N1-N3 checked with ``cert``)."""
    from novikoff.twins.exact import exact_perceptron

    return exact_perceptron(ds, max_epochs=epoch_cap(ds, args), certificate=cert)


def perceptron_fast(ds: Dataset, params: dict[str, Any], args: argparse.Namespace) -> RunRecord:
    """The float64 perceptron twin."""
    from novikoff.twins import perceptron_twin

    return perceptron_twin(ds, max_epochs=epoch_cap(ds, args))


def pocket_exact(
    ds: Dataset, params: dict[str, Any], args: argparse.Namespace, cert: SeparableCertificate | None
) -> RunRecord:
    """The exact pocket algorithm."""
    from novikoff.reference.pocket import run_pocket

    return run_pocket(ds, max_epochs=epoch_cap(ds, args))


def pocket_fast(ds: Dataset, params: dict[str, Any], args: argparse.Namespace) -> RunRecord:
    """The float64 pocket twin."""
    from novikoff.twins.pocket import pocket_twin

    return pocket_twin(ds, max_epochs=epoch_cap(ds, args))


def large_margin_exact(
    ds: Dataset, params: dict[str, Any], args: argparse.Namespace, cert: SeparableCertificate | None
) -> RunRecord:
    """The exact PFM, PDM or PDM-succ (chosen by its parameter: beta, eps or epsilons)."""
    from novikoff.reference.large_margin import run_pdm, run_pdm_succ, run_pfm

    extra = {
        "max_epochs": args.max_epochs,
        "certificate": cert,
        "multiple_updates": args.multiple_updates,
        "max_updates": args.max_updates,
    }
    if "beta" in params:
        return run_pfm(ds, params["beta"], **extra)
    if "eps" in params:
        return run_pdm(ds, params["eps"], **extra)
    return run_pdm_succ(ds, params["epsilons"], **extra)


def _twin_options(args: argparse.Namespace) -> dict[str, Any]:
    return {
        "max_epochs": args.max_epochs,
        "multiple_updates": True,
        "active_sets": True,
        "max_updates": args.max_updates,
    }


def pfm_fast(ds: Dataset, params: dict[str, Any], args: argparse.Namespace) -> RunRecord:
    """The PFM twin (multiple updates and active sets unless some ||z_i|| <= beta)."""
    from novikoff.twins.large_margin import pfm_twin

    Z, s = ds.scaled_patterns
    beta = params["beta"]
    multiple = all(beta * beta * s * s < sum(v * v for v in z) for z in Z)
    # beta >= ||z_i|| for some i: that sample updates at every presentation (Cauchy-Schwarz),
    # the run cannot converge, and active-set rounds would only re-present it hundreds of
    # times per epoch: plain epochs, at most m updates each
    opts = {**_twin_options(args), "multiple_updates": multiple, "active_sets": multiple}
    return pfm_twin(ds, beta=beta, **opts)


def pdm_fast(ds: Dataset, params: dict[str, Any], args: argparse.Namespace) -> RunRecord:
    """The PDM twin (multiple updates and active sets on)."""
    from novikoff.twins.large_margin import pdm_twin

    return pdm_twin(ds, eps=params["eps"], **_twin_options(args))


def pdm_succ_fast(ds: Dataset, params: dict[str, Any], args: argparse.Namespace) -> RunRecord:
    """The PDM-succ twin (multiple updates and active sets on)."""
    from novikoff.twins.large_margin import pdm_succ_twin

    return pdm_succ_twin(ds, epsilons=params["epsilons"], **_twin_options(args))


def romma_exact(
    ds: Dataset, params: dict[str, Any], args: argparse.Namespace, cert: SeparableCertificate | None
) -> RunRecord:
    """Exact ROMMA, with its own update limit unless ``--max-updates`` is given (its numbers
    double with every update); ``args.max_updates`` is set to the limit it ran with, the
    bound the summary names."""
    from novikoff.reference.romma import DEFAULT_MAX_UPDATES, run_romma

    given = args.max_updates is not None and getattr(args, "max_updates_given", True)
    limit = args.max_updates if given else DEFAULT_MAX_UPDATES
    args.max_updates = limit
    return run_romma(
        ds,
        aggressive=args.aggressive,
        eps=params["eps"],
        max_epochs=args.max_epochs,
        certificate=cert,
        max_updates=limit,
    )


def romma_fast(ds: Dataset, params: dict[str, Any], args: argparse.Namespace) -> RunRecord:
    """The float64 ROMMA twin."""
    from novikoff.twins.romma import romma_twin

    return romma_twin(ds, aggressive=args.aggressive, eps=float(params["eps"]), max_epochs=args.max_epochs)


# -------------------------------------------------------------------------------- checks


def perceptron_checks(
    ds: Dataset, run: RunRecord, params: dict[str, Any], sep: Any, margin: Any, args: argparse.Namespace
) -> dict[str, str]:
    """The exact perceptron checked N1-N3 at every update (with a certificate): say so."""
    if args.fast or sep is None:
        return {}
    return {"N1-N3": f"held at all {run.mistakes} updates"}


def d2_checks(
    ds: Dataset, run: RunRecord, params: dict[str, Any], sep: Any, margin: Any, args: argparse.Namespace
) -> dict[str, str]:
    """--fast PDM and PDM-succ: D2 on the twin's final state, exactly (its float weights are
    exact dyadic rationals); the exact run checks D2 itself."""
    if not (args.fast and sep and margin and run.converged and run.mistakes):
        return {}
    from novikoff.reference.large_margin import check_d2

    eps = params["eps"] if "eps" in params else params["epsilons"][-1]
    where = "on the twin's final state"
    held = check_d2(run.mistakes, eps, margin.min_decision, margin.w_norm2, sep.gamma2, where)
    return {"D2": held + " (exactly, on the twin's final float weights)" if held == "held" else held}


def romma_checks(
    ds: Dataset, run: RunRecord, params: dict[str, Any], sep: Any, margin: Any, args: argparse.Namespace
) -> dict[str, str]:
    """R1 on a twin's mistake count (the exact run checks it itself), exactly; and ROMMA's
    after-run bound: ||w|| <= 1/gamma gives gamma'/gamma >= min_i w.z_i."""
    from novikoff.spec.romma import R1

    out: dict[str, str] = {}
    mistakes = getattr(run, "mistake_count", run.mistakes)
    if args.fast and sep is not None:
        R1.require({"k": mistakes, "gamma2": sep.gamma2, "R2": sep.R2}, "on the twin's mistake count")
        out["R1"] = f"held: {mistakes} mistakes <= R^2/gamma^2 = {show(sep.R2 / sep.gamma2)} (exactly)"
    if margin is not None and margin.min_decision > 0:
        out["after-run"] = (
            f"gamma'/gamma >= min_i w.z_i = {show(margin.min_decision)}"
            " (||w|| <= 1/gamma for ROMMA's weights)"
        )
    return out


# -------------------------------------------------------------------------------- report


def pocket_report(ds: Dataset, run: Any, args: argparse.Namespace) -> dict[str, Any]:
    """The report's ``pocket`` field: the pocket's errors, epoch, errors per epoch and weights."""
    return {
        "pocket": {
            "errors": run.pocket_errors,
            "epoch": run.pocket_epoch,
            "errors_per_epoch": run.errors_per_epoch,
            "weights": [
                format_rational(Fraction(v) if isinstance(v, Fraction) else Fraction(float(v)))
                for v in run.pocket_weights
            ],
        }
    }


def pocket_lines(report: dict[str, Any], ds: Dataset, run: RunRecord, args: argparse.Namespace) -> list[str]:
    """The text report's pocket line."""
    pocket = report["pocket"]
    return [
        f"  pocket: {pocket['errors']} training errors of {ds.n_samples}, the weights at the end of "
        f"epoch {pocket['epoch'] + 1} (the fewest over all {run.epochs} epoch ends, counted "
        f"{'exactly' if not args.fast else 'in float64'})"
    ]
