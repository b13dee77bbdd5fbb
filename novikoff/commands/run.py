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
from novikoff.commands.run_averaged import (
    AVERAGED_ALGORITHMS,
    averaged_json,
    averaged_lines,
    averaged_run,
    check_averaged_options,
)
from novikoff.commands.run_msvmav import msvmav_command
from novikoff.commands.run_multiclass import multiclass_command
from novikoff.commands.weights import weights_json, write_weights
from novikoff.data.dataset import Dataset
from novikoff.errors import InputError
from novikoff.exact.approx import show
from novikoff.exact.rational import format_rational
from novikoff.runtime.jsonout import print_json
from novikoff.runtime.limits import phase
from novikoff.runtime.runlog import RunBounds, record_json, stopped_by, write_trace
from novikoff.runtime.runs import RunRecord

__all__ = ["ALGORITHMS", "register", "run"]


ALGORITHMS = (
    "perceptron",
    "pfm",
    "pdm",
    "pdm-succ",
    "pocket",
    "averaged",
    "voted",
    "romma",
    "multiclass",
    "msvmav",
)


def register(sub: Any) -> None:
    """Add the ``run`` sub-parser to ``sub``; its handler is :func:`run`."""
    r = sub.add_parser(
        "run",
        help="run the perceptron, PFM, PDM, PDM-succ, pocket, averaged, voted, ROMMA, multiclass or "
        "MSVMAv; report the certified margin and theorem checks",
        description=(__doc__ or "").split("\n\n")[1].replace("\n", " "),
    )
    r.add_argument("data", metavar="DATA")
    add_data_options(r)
    r.add_argument("--algorithm", choices=ALGORITHMS, default="pdm")
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


def _parameters(args: argparse.Namespace) -> dict[str, Any]:
    from novikoff.runtime.parameters import parse_epsilons, validate_beta, validate_epsilon

    algo = args.algorithm
    if getattr(args, "aggressive", False) and algo != "romma":
        raise InputError(f"--aggressive does not apply to --algorithm {algo}")
    if args.alpha is not None:
        raise InputError(f"--alpha does not apply to --algorithm {algo}")
    given = {"--epsilon": args.epsilon, "--beta": args.beta, "--epsilons": args.epsilons}
    allowed = {
        "perceptron": set(),
        "pocket": set(),
        "averaged": set(),
        "voted": set(),
        "pfm": {"--beta"},
        "pdm": {"--epsilon"},
        "pdm-succ": {"--epsilons"},
        "romma": {"--epsilon"},
    }[algo]
    for option, value in given.items():
        if value is not None and option not in allowed:
            raise InputError(f"{option} does not apply to --algorithm {algo}")
    if algo in AVERAGED_ALGORITHMS:
        check_averaged_options(args)
    if algo == "pfm":
        if args.beta is None:
            raise InputError("--algorithm pfm needs --beta B")
        return {"beta": validate_beta(rational_option(args.beta, "--beta"))}
    if algo == "pdm":
        eps = rational_option(args.epsilon, "--epsilon")
        return {"eps": validate_epsilon(Fraction(1, 100) if eps is None else eps, "--epsilon")}
    if algo == "romma":
        from novikoff.reference.romma import validate_romma_eps

        eps = rational_option(args.epsilon, "--epsilon")
        return {"eps": validate_romma_eps(Fraction(0) if eps is None else eps, args.aggressive)}
    if algo == "pdm-succ":
        if args.epsilons is None:
            raise InputError("--algorithm pdm-succ needs --epsilons E1,E2,...")
        parts = [p.strip() for p in args.epsilons.split(",") if p.strip()]
        return {"epsilons": parse_epsilons([rational_option(p, "--epsilons") for p in parts])}
    return {}


def _exact_run(
    ds: Dataset,
    algo: str,
    params: dict[str, Any],
    cert: SeparableCertificate | None,
    args: argparse.Namespace,
) -> RunRecord:
    from novikoff.reference.large_margin import run_pdm, run_pdm_succ, run_pfm

    bounds = RunBounds(args.max_epochs, args.max_updates)
    cap = bounds.epoch_cap(ds.n_samples)  # at most one update per presentation
    if algo in AVERAGED_ALGORITHMS:
        return averaged_run(ds, algo, False, cap, cert)
    if algo == "perceptron":
        from novikoff.twins.exact import exact_perceptron

        return exact_perceptron(ds, max_epochs=cap, certificate=cert)
    if algo == "pocket":
        from novikoff.reference.pocket import run_pocket

        return run_pocket(ds, max_epochs=cap)
    if algo == "romma":
        from novikoff.reference.romma import DEFAULT_MAX_UPDATES, run_romma

        # exact ROMMA's numbers double with every update: its own default unless --max-updates is given
        given = args.max_updates is not None and getattr(args, "max_updates_given", True)
        limit = args.max_updates if given else DEFAULT_MAX_UPDATES
        args.max_updates = limit  # the bound the summary names
        return run_romma(
            ds,
            aggressive=args.aggressive,
            eps=params["eps"],
            max_epochs=args.max_epochs,
            certificate=cert,
            max_updates=limit,
        )
    extra = {
        "max_epochs": args.max_epochs,
        "certificate": cert,
        "multiple_updates": args.multiple_updates,
        "max_updates": args.max_updates,
    }
    if algo == "pfm":
        return run_pfm(ds, params["beta"], **extra)
    if algo == "pdm":
        return run_pdm(ds, params["eps"], **extra)
    return run_pdm_succ(ds, params["epsilons"], **extra)


def _fast_run(ds: Dataset, algo: str, params: dict[str, Any], args: argparse.Namespace) -> RunRecord:
    from novikoff.twins import perceptron_twin
    from novikoff.twins.large_margin import pdm_succ_twin, pdm_twin, pfm_twin

    opts = {
        "max_epochs": args.max_epochs,
        "multiple_updates": True,
        "active_sets": True,
        "max_updates": args.max_updates,
    }
    cap = RunBounds(args.max_epochs, args.max_updates).epoch_cap(ds.n_samples)
    if algo in AVERAGED_ALGORITHMS:
        return averaged_run(ds, algo, True, cap, None)
    if algo == "perceptron":
        return perceptron_twin(ds, max_epochs=cap)
    if algo == "pocket":
        from novikoff.twins.pocket import pocket_twin

        return pocket_twin(ds, max_epochs=cap)
    if algo == "romma":
        from novikoff.twins.romma import romma_twin

        return romma_twin(
            ds, aggressive=args.aggressive, eps=float(params["eps"]), max_epochs=args.max_epochs
        )
    if algo == "pfm":
        Z, s = ds.scaled_patterns
        beta = params["beta"]
        multiple = all(beta * beta * s * s < sum(v * v for v in z) for z in Z)
        # beta >= ||z_i|| for some i: that sample updates at every presentation (Cauchy-Schwarz),
        # the run cannot converge, and active-set rounds would only re-present it hundreds of
        # times per epoch: plain epochs, at most m updates each
        return pfm_twin(ds, beta=beta, **{**opts, "multiple_updates": multiple, "active_sets": multiple})
    if algo == "pdm":
        return pdm_twin(ds, eps=params["eps"], **opts)
    return pdm_succ_twin(ds, epsilons=params["epsilons"], **opts)


def _romma_checks(
    run: RunRecord, sep: SeparableCertificate | None, margin: Any, fast: bool
) -> dict[str, str]:
    """R1 on a twin's mistake count (the exact run checks it itself), exactly; and ROMMA's
    after-run bound: ||w|| <= 1/gamma gives gamma'/gamma >= min_i w.z_i."""
    from novikoff.spec.romma import R1

    out: dict[str, str] = {}
    mistakes = getattr(run, "mistake_count", run.mistakes)
    if fast and sep is not None:
        R1.require({"k": mistakes, "gamma2": sep.gamma2, "R2": sep.R2}, "on the twin's mistake count")
        out["R1"] = f"held: {mistakes} mistakes <= R^2/gamma^2 = {show(sep.R2 / sep.gamma2)} (exactly)"
    if margin is not None and margin.min_decision > 0:
        out["after-run"] = (
            f"gamma'/gamma >= min_i w.z_i = {show(margin.min_decision)}"
            " (||w|| <= 1/gamma for ROMMA's weights)"
        )
    return out


def _pocket_report(run: RunRecord) -> dict[str, Any] | None:
    from novikoff.reference.pocket import PocketRun
    from novikoff.twins.pocket import PocketTwinRun

    if not isinstance(run, (PocketRun, PocketTwinRun)):
        return None
    return {
        "errors": run.pocket_errors,
        "epoch": run.pocket_epoch,
        "errors_per_epoch": run.errors_per_epoch,
        "weights": [
            format_rational(Fraction(v) if isinstance(v, Fraction) else Fraction(float(v)))
            for v in run.pocket_weights
        ],
    }


def run(args: argparse.Namespace) -> int:
    """Run the chosen algorithm on DATA and report; exit status as the module docstring says."""
    from novikoff.data.transforms import soft_margin
    from novikoff.reference.achieved import achieved_margin, format_interval

    if args.algorithm == "multiclass":
        return multiclass_command(args)
    if args.algorithm == "msvmav":
        return msvmav_command(args)
    params = _parameters(args)
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
                run = _fast_run(ds, args.algorithm, params, args)
            except OverflowError:  # a parameter or value beyond float64 (--beta 1e300): bad input
                raise InputError(
                    f"--fast: the values of this {args.algorithm} run overflow float64 (a parameter "
                    "such as --beta, or the data, is too large); run it exactly without --fast"
                ) from None
        else:
            run = _exact_run(ds, args.algorithm, params, sep, args)
    t_run = time.perf_counter() - t0
    if args.trace:
        write_trace(args.trace, run.updates)
    bounds = RunBounds(args.max_epochs, args.max_updates)
    one_per_presentation = args.algorithm in ("perceptron", "pocket", *AVERAGED_ALGORITHMS)
    early = getattr(run, "stopped", "")
    if args.algorithm == "romma" and early.startswith("update limit"):
        early = "max_updates"  # exact ROMMA's own update limit, --max-updates or its default
    stopped = stopped_by(run.converged, run.epochs, bounds, ds.n_samples, early, one_per_presentation)
    checks: dict[str, str] = dict(getattr(run, "checks", {}))
    if args.algorithm in ("perceptron", *AVERAGED_ALGORITHMS) and not args.fast and sep is not None:
        checks["N1-N3"] = f"held at all {run.mistakes} updates"
    margin = None
    romma = args.algorithm == "romma"
    if args.algorithm != "voted" and any(v != 0 for v in run.weights):
        # ROMMA's weights and the average are not a sum of updates: no ||w||/t estimate;
        # the voted perceptron is not one linear classifier: no margin
        no_estimate = romma or args.algorithm == "averaged"
        margin = achieved_margin(ds, list(run.weights), 0 if no_estimate else run.mistakes, sep)
    if romma:
        checks.update(_romma_checks(run, sep, margin, args.fast))
    if (
        args.fast
        and sep
        and margin
        and run.converged
        and run.mistakes
        and args.algorithm in ("pdm", "pdm-succ")
    ):
        # D2 on the twin's final state, exactly: its float weights are exact dyadic rationals
        from novikoff.reference.large_margin import check_d2

        eps = params["eps"] if args.algorithm == "pdm" else params["epsilons"][-1]
        where = "on the twin's final state"
        held = check_d2(run.mistakes, eps, margin.min_decision, margin.w_norm2, sep.gamma2, where)
        checks["D2"] = held + " (exactly, on the twin's final float weights)" if held == "held" else held
    report: dict[str, Any] = {
        "dataset": ds.name,
        "samples": ds.n_samples,
        "features": ds.n_features,
        "bias": format_rational(ds.bias),
        "soft_margin": None if delta is None else format_rational(delta),
        "algorithm": run.algorithm if romma else args.algorithm,
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
            **({"mistakes": getattr(run, "mistake_count", run.mistakes)} if romma else {}),
            "epochs": run.epochs,
            "converged": run.converged,
            "stopped_by": stopped,
            "stages": [[format_rational(Fraction(e)), t, n] for e, t, n in getattr(run, "stages", [])],
            "record": record_json(run.updates, args.record),
            **weights_json(run.weights, args.fast),
            **(
                averaged_json(ds, run, args.fast, args.record)
                if args.algorithm in AVERAGED_ALGORITHMS
                else {}
            ),
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
        "pocket": _pocket_report(run),
        "seconds": {"certificate": round(t_cert, 4), "run": round(t_run, 4)},
    }
    if args.weights_out:
        what = f"novikoff run {args.algorithm} on {ds.name}"
        if args.algorithm == "averaged":
            what += " (the average of the weights after every presentation)"
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
    pocket = report["pocket"]
    if pocket is not None:
        lines.append(
            f"  pocket: {pocket['errors']} training errors of {ds.n_samples}, the weights at the end of "
            f"epoch {pocket['epoch'] + 1} (the fewest over all {run.epochs} epoch ends, counted "
            f"{'exactly' if not args.fast else 'in float64'})"
        )
    if args.algorithm in AVERAGED_ALGORITHMS:
        lines += averaged_lines(args.algorithm, report["run"], ds.n_samples)
    for key, value in checks.items():
        lines.append(f"  {key}: {value}")
    lines.append(f"  time: certificate {t_cert:.3f} s, run {t_run:.3f} s")
    print("\n".join(lines))
    return 0
