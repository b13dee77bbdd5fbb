"""``novikoff run DATA --algorithm ...`` and ``novikoff margins``: one run, what it achieved, its theorems.

--exact (the default) runs the exact reference, which checks D3 at every update and
D1/D2/P1 at convergence (N1-N3 for the perceptron, averaged and voted, M1 for multiclass,
S2 for msvmav).
--fast runs the float64 twin (multiple updates and active sets on) and then certifies
what it produced: the margin of its final weights against the exact certificate, and D2
on its final state, exactly. DATA is a CSV or LIBSVM file, example:NAME, or for
multiclass also sklearn:iris|wine|digits. Exit 0 on success, 1 when a theorem check
fails, 2 on bad input.
"""

from __future__ import annotations

import argparse
import time
from fractions import Fraction
from typing import Any

from novikoff.certificates import SeparableCertificate, certify
from novikoff.commands.options import (
    add_data_options,
    add_run_bounds,
    load_data,
    rational_option,
    stop_text,
)
from novikoff.commands.weights import weights_json, write_weights
from novikoff.data.dataset import Dataset
from novikoff.errors import InputError
from novikoff.exact.approx import show
from novikoff.exact.rational import format_rational
from novikoff.runtime.algorithms import AlgorithmEntry, get, names, resolve
from novikoff.runtime.jsonout import print_json
from novikoff.runtime.limits import phase
from novikoff.runtime.runlog import RunBounds, record_json, stopped_by, write_trace
from novikoff.runtime.runs import RunRecord

__all__ = ["register", "run"]


def register(sub: Any) -> None:
    """Add the ``run`` sub-parser to ``sub``; its handler is :func:`run`. The ``--algorithm``
    choices are the registry's (:data:`novikoff.runtime.algorithms.ALGORITHMS`)."""
    choices = names()
    r = sub.add_parser(
        "run",
        help=f"run {', '.join(choices)}; report the certified margin and theorem checks",
        description=(__doc__ or "").split("\n\n")[1].replace("\n", " "),
    )
    r.add_argument("data", metavar="DATA")
    add_data_options(r)
    r.add_argument("--algorithm", choices=choices, default="pdm")
    r.add_argument(
        "--epsilon",
        metavar="E",
        help="PDM accuracy eps in (0, 1] (default 1/100); ROMMA --aggressive: update iff w.z < 1 - E "
        "(default 0)",
    )
    r.add_argument(
        "--aggressive", action="store_true", help="ROMMA: the aggressive rule (update iff w.z < 1 - eps)"
    )
    r.add_argument("--beta", metavar="B", help="PFM fixed margin beta >= 0 (pfm); MSVMAv's beta > 0 (msvmav)")
    r.add_argument("--alpha", metavar="A", help="MSVMAv's alpha > 0 (default 1)")
    r.add_argument(
        "--iterations",
        type=_iterations,
        default=100,
        metavar="T",
        help=f"MSVMAv iterations (default 100, at most {MAX_ITERATIONS})",
    )
    r.add_argument("--epsilons", metavar="E1,E2,...", help="PDM-succ: strictly decreasing eps values")
    r.add_argument("--soft-margin", metavar="DELTA", help="extend x_k -> (x_k, DELTA e_k) first (DELTA > 0)")
    speed = r.add_mutually_exclusive_group()
    speed.add_argument("--exact", action="store_true", help="exact reference (default)")
    speed.add_argument("--fast", action="store_true", help="float64 twin, then exact certification")
    r.add_argument("--multiple-updates", action="store_true", help="multiple updates in the exact run too")
    r.add_argument("--json", action="store_true", help="print one JSON object")
    r.add_argument(
        "--weights-out",
        metavar="FILE",
        help="write the final weights (exact, bias last) where `novikoff margins --weights` reads them",
    )
    add_run_bounds(r)
    r.set_defaults(handler=run)


MAX_ITERATIONS = 10**6


def _iterations(text: str) -> int:
    digits = text.strip().lstrip("+-")
    try:
        value = int(text) if len(digits) <= 20 else MAX_ITERATIONS + 1
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text[:40]!r}") from None
    if not 0 <= value <= MAX_ITERATIONS:
        raise argparse.ArgumentTypeError(f"must be between 0 and {MAX_ITERATIONS}, got {text[:40]}")
    return value


_GIVEN = {
    "--epsilon": "epsilon",
    "--beta": "beta",
    "--alpha": "alpha",
    "--epsilons": "epsilons",
    "--aggressive": "aggressive",
}


def _parameters(entry: AlgorithmEntry, args: argparse.Namespace) -> dict[str, Any]:
    """The entry's parameters from the options; an option it does not take is bad input."""
    for option, attr in _GIVEN.items():
        value = getattr(args, attr, None)
        if value not in (None, False) and option not in entry.cli.options:
            raise InputError(f"{option} does not apply to --algorithm {entry.name}")
    if entry.cli.parameters is None:
        return {}
    params: dict[str, Any] = resolve(entry.cli.parameters)(args)
    return params


def _exact_run(
    entry: AlgorithmEntry,
    ds: Dataset,
    params: dict[str, Any],
    cert: SeparableCertificate | None,
    args: argparse.Namespace,
) -> RunRecord:
    if entry.cli.exact is not None:
        record: RunRecord = resolve(entry.cli.exact)(ds, params, args, cert)
        return record
    record = resolve(entry.reference)(ds, max_epochs=_cap(entry, ds, args), **params)
    return record


def _fast_run(
    entry: AlgorithmEntry, ds: Dataset, params: dict[str, Any], args: argparse.Namespace
) -> RunRecord:
    if entry.cli.fast is not None:
        record: RunRecord = resolve(entry.cli.fast)(ds, params, args)
        return record
    record = resolve(entry.twin)(ds, max_epochs=_cap(entry, ds, args), **params)
    return record


def _cap(entry: AlgorithmEntry, ds: Dataset, args: argparse.Namespace) -> int:
    """The epochs a default run gets: ``--max-epochs``, capped by ``--max-updates`` for a run
    with at most one update per presentation."""
    if not entry.cli.one_update_per_presentation:
        return int(args.max_epochs)
    return RunBounds(args.max_epochs, args.max_updates).epoch_cap(ds.n_samples)


def run(args: argparse.Namespace) -> int:
    """Run the chosen algorithm on DATA and report; exit status as the module docstring says."""
    from novikoff.data.transforms import soft_margin
    from novikoff.reference.achieved import achieved_margin, format_interval

    entry = get(args.algorithm)
    if entry.cli.command is not None:  # an algorithm with its own command and report
        status: int = resolve(entry.cli.command)(args)
        return status
    params = _parameters(entry, args)
    delta = rational_option(args.soft_margin, "--soft-margin")
    with phase("reading the data"):
        ds = load_data(args)
        if delta is not None:
            ds = soft_margin(ds, delta)
    t0 = time.perf_counter()
    with phase("the exact certificate"):
        cert = certify(ds)
    t_cert = time.perf_counter() - t0
    sep = cert if isinstance(cert, SeparableCertificate) else None
    t0 = time.perf_counter()
    with phase(f"the {args.algorithm} run"):
        if args.fast:
            try:
                run = _fast_run(entry, ds, params, args)
            except OverflowError:  # a parameter or value beyond float64 (--beta 1e300): bad input
                raise InputError(
                    f"--fast: the values of this {args.algorithm} run overflow float64 (a parameter "
                    "such as --beta, or the data, is too large); run it exactly without --fast"
                ) from None
        else:
            run = _exact_run(entry, ds, params, sep, args)
    t_run = time.perf_counter() - t0
    if args.trace:
        write_trace(args.trace, run.updates)
    bounds = RunBounds(args.max_epochs, args.max_updates)
    early = getattr(run, "stopped", "")
    if early.startswith("update limit"):
        early = "max_updates"  # the run's own update limit (exact ROMMA's), --max-updates or its default
    capped = entry.cli.one_update_per_presentation
    stopped = stopped_by(run.converged, run.epochs, bounds, ds.n_samples, early, capped)
    checks: dict[str, str] = dict(getattr(run, "checks", {}))
    margin = None
    if entry.cli.margin != "none" and any(v != 0 for v in run.weights):
        # weights that are not a sum of the t updates (ROMMA's, the average): no ||w||/t estimate;
        # "none": not one linear classifier (the voted perceptron), no margin
        estimate = entry.cli.margin == "estimate"
        margin = achieved_margin(ds, list(run.weights), run.mistakes if estimate else 0, sep)
    if entry.cli.checks is not None:
        checks.update(resolve(entry.cli.checks)(ds, run, params, sep, margin, args))
    extra: dict[str, Any] = {} if entry.cli.report is None else dict(resolve(entry.cli.report)(ds, run, args))
    mistakes = getattr(run, "mistake_count", None)  # the mistakes among the updates, when they differ
    report: dict[str, Any] = {
        "dataset": ds.name,
        "samples": ds.n_samples,
        "features": ds.n_features,
        "bias": format_rational(ds.bias),
        "soft_margin": None if delta is None else format_rational(delta),
        "algorithm": run.algorithm if entry.cli.name_from_run else entry.name,
        "mode": "fast" if args.fast else "exact",
        "parameters": {
            k: format_rational(v) if isinstance(v, Fraction) else [format_rational(e) for e in v]
            for k, v in params.items()
        },
        "separable": sep is not None,
        "R2": format_rational(cert.R2),
        "gamma2": None if sep is None else format_rational(sep.gamma2),
        "novikoff_bound": None if sep is None else format_rational(sep.bound),
        "run": {
            "updates": run.mistakes,
            **({} if mistakes is None else {"mistakes": mistakes}),
            "epochs": run.epochs,
            "converged": run.converged,
            "stopped_by": stopped,
            "stages": [[format_rational(Fraction(e)), t, n] for e, t, n in getattr(run, "stages", [])],
            "record": record_json(run.updates, args.record),
            **weights_json(run.weights, args.fast),
            **extra.pop("run", {}),
        },
        "margin": None
        if margin is None
        else {
            "gamma_prime2": format_rational(margin.gamma_prime2),
            "sign": margin.sign,
            "ratio2": None if margin.ratio2 is None else format_rational(margin.ratio2),
            "ratio_exact": None if margin.ratio_exact is None else format_rational(margin.ratio_exact),
            "ratio_interval": None
            if margin.ratio_interval is None
            else [format_rational(margin.ratio_interval[0]), format_rational(margin.ratio_interval[1])],
            "after_run_estimate": None
            if margin.after_run_estimate is None
            else format_rational(margin.after_run_estimate),
        },
        "checks": checks,
        "pocket": None,
        "seconds": {"certificate": round(t_cert, 4), "run": round(t_run, 4)},
    }
    report.update(extra)
    if args.weights_out:
        what = f"novikoff run {entry.name} on {ds.name}"
        if entry.cli.weights_note:
            what += f" ({entry.cli.weights_note})"
        write_weights(args.weights_out, run.weights, what)
    if args.json:
        print_json(report)
        return 0
    parameters = report["parameters"].items()
    shown = ", ".join(f"{k} = {','.join(map(str, v)) if isinstance(v, list) else v}" for k, v in parameters)
    lines = [
        f"novikoff run: {ds.name} ({ds.n_samples} samples x {ds.n_features} features, bias {ds.bias}"
        + ("" if delta is None else f", soft margin Delta = {delta}")
        + ")",
        f"  {report['algorithm']}{' ' + shown if shown else ''}"
        f" ({report['mode']}): {run.mistakes} updates in {run.epochs} epochs, "
        + ("converged" if run.converged else f"NOT converged ({stop_text(stopped, args)})"),
    ]
    if sep is None:
        lines.append(
            "  not separable: Gordan certificate (novikoff certify shows it); no margin to compare with"
        )
    else:
        lines.append(f"  gamma^2 = {show(sep.gamma2)} (exact certificate), R^2 = {show(cert.R2)}")
    if margin is not None and margin.ratio_interval is not None and margin.ratio2 is not None:
        exact = "" if margin.ratio_exact is None else f" = {margin.ratio_exact} exactly"
        lines.append(
            f"  achieved margin gamma'/gamma in {format_interval(*margin.ratio_interval)}{exact}"
            f"  (certified: (gamma'/gamma)^2 = {show(margin.ratio2, 12)} exact rational)"
        )
        if margin.after_run_estimate is not None:
            lines.append(
                f"  after-run estimate 1 - gamma' t/||w|| = {show(margin.after_run_estimate)}"
                " (bounds 1 - gamma'/gamma from above)"
            )
    if entry.cli.lines is not None:
        lines += resolve(entry.cli.lines)(report, ds, run, args)
    for key, value in checks.items():
        lines.append(f"  {key}: {value}")
    lines.append(f"  time: certificate {t_cert:.3f} s, run {t_run:.3f} s")
    print("\n".join(lines))
    return 0
