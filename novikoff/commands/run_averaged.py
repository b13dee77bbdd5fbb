"""``novikoff run --algorithm averaged|voted``: the run and its report fields.

--exact runs the exact perceptron (the exact twin, N1-N3 checked with a certificate) and
reads the averaged or voted perceptron off its updates with
:mod:`novikoff.reference.averaged`; --fast runs the float64 twins of
:mod:`novikoff.twins.averaged`. In both modes the training errors of the prediction rule
(ties predict -1) are counted exactly, on the exact weights or on the twin's float
weights taken at their exact dyadic values.

For ``averaged`` the run's ``weights`` are w_avg = (1/N) sum over every presentation of
the weights after it; for ``voted`` they are the last voter w_k (the perceptron's own
weights) and the voters (w_j, c_j) are listed like the updates: the first and last
``--record`` pairs and how many were left out.
"""

from __future__ import annotations

import argparse
from fractions import Fraction
from typing import Any

from novikoff.certificates import SeparableCertificate
from novikoff.commands.weights import exact_weights, weights_json
from novikoff.data.dataset import Dataset
from novikoff.errors import InputError
from novikoff.runtime.limits import phase
from novikoff.runtime.runs import RunRecord

__all__ = [
    "averaged_exact",
    "averaged_fast",
    "averaged_json",
    "averaged_lines",
    "averaged_parameters",
    "averaged_report",
    "averaged_report_lines",
    "averaged_run",
    "check_averaged_options",
]


def check_averaged_options(args: argparse.Namespace) -> None:
    """InputError for the options that make no sense with the averaged or voted perceptron."""
    algo = args.algorithm
    if getattr(args, "multiple_updates", False):
        raise InputError(f"--multiple-updates does not apply to --algorithm {algo} (one update per mistake)")
    if algo == "voted" and getattr(args, "weights_out", None):
        raise InputError(
            "--weights-out: the voted perceptron is not one weight vector (its voters are in --json); "
            "--algorithm averaged writes sum_j c_j w_j / N"
        )


def averaged_parameters(args: argparse.Namespace) -> dict[str, Any]:
    """No parameters; InputError for the options that make no sense here (the registry
    entries of ``averaged`` and ``voted`` name this as their parameter reader)."""
    check_averaged_options(args)
    return {}


def _cap(ds: Dataset, args: argparse.Namespace) -> int:
    from novikoff.runtime.runlog import RunBounds

    return RunBounds(args.max_epochs, args.max_updates).epoch_cap(ds.n_samples)


def averaged_exact(
    ds: Dataset, params: dict[str, Any], args: argparse.Namespace, cert: SeparableCertificate | None
) -> RunRecord:
    """``novikoff run --exact``: :func:`averaged_run` with the epoch cap of the run bounds."""
    return averaged_run(ds, args.algorithm, False, _cap(ds, args), cert)


def averaged_fast(ds: Dataset, params: dict[str, Any], args: argparse.Namespace) -> RunRecord:
    """``novikoff run --fast``: :func:`averaged_run` on the twins."""
    return averaged_run(ds, args.algorithm, True, _cap(ds, args), None)


def averaged_report(ds: Dataset, run: RunRecord, args: argparse.Namespace) -> dict[str, Any]:
    """The JSON report's extra run fields (:func:`averaged_json`)."""
    return {"run": averaged_json(ds, run, args.fast, args.record)}


def averaged_report_lines(
    report: dict[str, Any], ds: Dataset, run: RunRecord, args: argparse.Namespace
) -> list[str]:
    """The text report's extra lines (:func:`averaged_lines`)."""
    return averaged_lines(args.algorithm, report["run"], ds.n_samples)


def averaged_run(
    ds: Dataset, algo: str, fast: bool, max_epochs: int, certificate: SeparableCertificate | None
) -> RunRecord:
    """The run: an AveragedRun / AveragedTwinRun, or for ``voted`` a VotedTwinRun (--fast) or
    the exact perceptron's own record (--exact: its voters are streamed by :func:`averaged_json`,
    never all held at once)."""
    if fast:
        from novikoff.twins.averaged import run_averaged, run_voted

        return (run_averaged if algo == "averaged" else run_voted)(ds, max_epochs=max_epochs)
    from novikoff.reference.averaged import averaged_from_run
    from novikoff.twins.exact import exact_perceptron

    run = exact_perceptron(ds, max_epochs=max_epochs, certificate=certificate)
    if algo == "averaged":
        return averaged_from_run(ds, run)
    run.algorithm = "voted"
    return run


def _voters(ds: Dataset, run: RunRecord) -> tuple[Any, Any]:
    """(a function returning a fresh iterator over (weights, count) pairs, where each weight
    vector may be a positive multiple of w_j; a function giving the JSON of one such vector)."""
    from novikoff.reference.averaged import iter_voters, survival_counts
    from novikoff.twins.averaged import VotedTwinRun

    if isinstance(run, VotedTwinRun):  # the twin's float w_j, taken at their exact values
        rows, counts = run.voter_weights, [int(c) for c in run.counts]
        return (lambda: zip(rows, counts)), (lambda w: weights_json(w, True))
    counts = list(survival_counts(run.updates, ds.n_samples, run.epochs))
    s = ds.scaled_patterns[1]  # iter_voters gives W_j = s w_j in integers
    return (lambda: iter_voters(ds, run.updates, counts)), (
        lambda W: weights_json([Fraction(v, s) for v in W], False)
    )


def averaged_json(ds: Dataset, run: RunRecord, fast: bool, record: int) -> dict[str, Any]:
    """The fields ``run`` gets in the JSON report beside the perceptron's: ``presentations``
    (N), ``training_errors`` (exact, ties predict -1); for averaged ``perceptron_weights``
    (the last weights w_k); for voted ``voters`` ({"total", "first", "last", "omitted"}: at
    most ``record`` pairs {"weights", "count"} at each end, as the updates are listed)."""
    from novikoff.reference.averaged import AveragedRun, averaged_errors, voted_errors
    from novikoff.twins.averaged import AveragedTwinRun

    if isinstance(run, (AveragedRun, AveragedTwinRun)):
        with phase("the averaged perceptron's training errors"):
            errors = averaged_errors(ds, exact_weights(run.weights))
        return {
            "presentations": run.presentations,
            "training_errors": errors,
            "perceptron_weights": weights_json(run.final_weights, fast)["weights"],
        }
    # voted: a VotedTwinRun (--fast) or the exact perceptron's record
    pairs, show = _voters(ds, run)
    with phase("the voted perceptron's training errors"):
        errors = voted_errors(ds, pairs())
    total = len(run.updates) + 1
    cut = total > 2 * record
    first: list[dict[str, Any]] = []
    last: list[dict[str, Any]] = []
    for j, (w, c) in enumerate(pairs()):
        if not cut or j < record:
            first.append({**show(w), "count": c})
        elif j >= total - record:
            last.append({**show(w), "count": c})
    return {
        "presentations": run.epochs * ds.n_samples,  # every epoch presents every sample once
        "training_errors": errors,
        "voters": {"total": total, "first": first, "last": last, "omitted": total - len(first) - len(last)},
    }


def averaged_lines(algo: str, fields: dict[str, Any], samples: int) -> list[str]:
    """The text report's lines for the averaged or voted perceptron."""
    n, errors = fields["presentations"], fields["training_errors"]
    if algo == "averaged":
        return [
            f"  averaged weights: the mean of the weights after each of the {n} presentations "
            f"(Freund-Schapire); {errors} training errors of {samples} (exact, ties predict -1)"
        ]
    return [
        f"  voted: {fields['voters']['total']} voters (w_j, c_j) over {n} presentations; "
        f"{errors} training errors of {samples} (exact vote, ties predict -1)"
    ]
