"""``novikoff run DATA --algorithm ...`` and ``novikoff margins``: one run, what it achieved, its theorems.

--exact (the default) runs the exact reference, which checks D3 at every update and
D1/D2/P1 at convergence (N1-N3 for the perceptron, M1 for multiclass, S2 for msvmav).
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
from pathlib import Path
from typing import Any

from novikoff.approx import show, show_ratio_sqrt
from novikoff.certify import SeparableCertificate, certify
from novikoff.data import Dataset
from novikoff.errors import InputError, InvariantViolation
from novikoff.jsonout import float_or_none, print_json
from novikoff.limits import phase
from novikoff.rational import format_rational, parse_rational
from novikoff.runlog import RunBounds, record_json, stopped_by, write_trace
from novikoff.runs import RunRecord

__all__ = ["add_run_parser", "cmd_run"]

ALGORITHMS = ("perceptron", "pfm", "pdm", "pdm-succ", "pocket", "multiclass", "msvmav")


def add_run_parser(sub: Any, add_data_options: Any) -> None:
    r = sub.add_parser(
        "run",
        help="run the perceptron, PFM, PDM or PDM-succ; report the certified margin and theorem checks",
        description=(__doc__ or "").split("\n\n")[1].replace("\n", " "),
    )
    r.add_argument("data", metavar="DATA")
    add_data_options(r)
    r.add_argument("--algorithm", choices=ALGORITHMS, default="pdm")
    r.add_argument("--epsilon", metavar="E", help="PDM accuracy eps in (0, 1] (default 1/100)")
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
    from novikoff.cli import add_run_bounds

    add_run_bounds(r)


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


def _number(text: str | None, option: str) -> Fraction | None:
    if text is None:
        return None
    try:
        return parse_rational(text)
    except InputError as exc:
        raise InputError(f"{option}: {exc}") from None


def _parameters(args: argparse.Namespace) -> dict[str, Any]:
    from novikoff.parameters import parse_epsilons, validate_beta, validate_epsilon

    algo = args.algorithm
    if args.alpha is not None:
        raise InputError(f"--alpha does not apply to --algorithm {algo}")
    given = {"--epsilon": args.epsilon, "--beta": args.beta, "--epsilons": args.epsilons}
    allowed = {
        "perceptron": set(),
        "pocket": set(),
        "pfm": {"--beta"},
        "pdm": {"--epsilon"},
        "pdm-succ": {"--epsilons"},
    }[algo]
    for option, value in given.items():
        if value is not None and option not in allowed:
            raise InputError(f"{option} does not apply to --algorithm {algo}")
    if algo == "pfm":
        if args.beta is None:
            raise InputError("--algorithm pfm needs --beta B")
        return {"beta": validate_beta(_number(args.beta, "--beta"))}
    if algo == "pdm":
        eps = _number(args.epsilon, "--epsilon")
        return {"eps": validate_epsilon(Fraction(1, 100) if eps is None else eps, "--epsilon")}
    if algo == "pdm-succ":
        if args.epsilons is None:
            raise InputError("--algorithm pdm-succ needs --epsilons E1,E2,...")
        parts = [p.strip() for p in args.epsilons.split(",") if p.strip()]
        return {"epsilons": parse_epsilons([_number(p, "--epsilons") for p in parts])}
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
    if algo == "perceptron":
        from novikoff.twins.exact import exact_perceptron

        return exact_perceptron(ds, max_epochs=cap, certificate=cert)
    if algo == "pocket":
        from novikoff.reference.pocket import run_pocket

        return run_pocket(ds, max_epochs=cap)
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
    if algo == "perceptron":
        return perceptron_twin(ds, max_epochs=cap)
    if algo == "pocket":
        from novikoff.twins.pocket import pocket_twin

        return pocket_twin(ds, max_epochs=cap)
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


def cmd_run(args: argparse.Namespace, load: Any) -> int:
    from novikoff.reference.achieved import achieved_margin, format_interval
    from novikoff.transforms import soft_margin

    if args.algorithm == "multiclass":
        return cmd_run_multiclass(args)
    if args.algorithm == "msvmav":
        return cmd_run_msvmav(args, load)
    params = _parameters(args)
    delta = _number(args.soft_margin, "--soft-margin")
    with phase("reading the data"):
        ds = load(args)
        if delta is not None:
            ds = soft_margin(ds, delta)
    t0 = time.perf_counter()
    with phase("the exact certificate"):
        cert = certify(ds)
    t_cert = time.perf_counter() - t0
    sep = cert if isinstance(cert, SeparableCertificate) else None
    t0 = time.perf_counter()
    with phase(f"the {args.algorithm} run"):
        run = (
            _fast_run(ds, args.algorithm, params, args)
            if args.fast
            else _exact_run(ds, args.algorithm, params, sep, args)
        )
    t_run = time.perf_counter() - t0
    if args.trace:
        write_trace(args.trace, run.updates)
    bounds = RunBounds(args.max_epochs, args.max_updates)
    one_per_presentation = args.algorithm in ("perceptron", "pocket")
    stopped = stopped_by(
        run.converged, run.epochs, bounds, ds.n_samples, getattr(run, "stopped", ""), one_per_presentation
    )
    checks: dict[str, str] = dict(getattr(run, "checks", {}))
    if args.algorithm == "perceptron" and not args.fast and sep is not None:
        checks["N1-N3"] = f"held at all {run.mistakes} updates"
    margin = None
    if any(v != 0 for v in run.weights):
        margin = achieved_margin(ds, list(run.weights), run.mistakes, sep)
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
        "algorithm": args.algorithm,
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
            "epochs": run.epochs,
            "converged": run.converged,
            "stopped_by": stopped,
            "stages": [[format_rational(Fraction(e)), t, n] for e, t, n in getattr(run, "stages", [])],
            "record": record_json(run.updates, args.record),
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
    if args.json:
        print_json(report)
        return 0
    parameters = report["parameters"].items()
    shown = ", ".join(f"{k} = {','.join(map(str, v)) if isinstance(v, list) else v}" for k, v in parameters)
    lines = [
        f"novikoff run: {ds.name} ({ds.n_samples} samples x {ds.n_features} features, bias {ds.bias}"
        + ("" if delta is None else f", soft margin Delta = {delta}")
        + ")",
        f"  {args.algorithm}{' ' + shown if shown else ''}"
        f" ({report['mode']}): {run.mistakes} updates in {run.epochs} epochs, "
        + ("converged" if run.converged else f"NOT converged ({_stop_text(stopped, args)})"),
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
    for key, value in checks.items():
        lines.append(f"  {key}: {value}")
    lines.append(f"  time: certificate {t_cert:.3f} s, run {t_run:.3f} s")
    print("\n".join(lines))
    return 0


def _stop_text(stopped: str | None, args: argparse.Namespace) -> str:
    """Which bound ended a run that did not converge, as the option and its value."""
    if stopped == "max_updates":
        return f"stopped by --max-updates {args.max_updates}"
    return f"stopped by --max-epochs {args.max_epochs}"


KESLER_CERTIFY_LIMIT = 5_000_000  # Kesler vectors x their dimension; above it the certificate is skipped


def load_multiclass(args: argparse.Namespace) -> Any:
    """DATA for --algorithm multiclass: ``sklearn:iris|wine|digits`` or a CSV file (label column
    as given, its distinct texts are the classes)."""
    from novikoff.multiclass import MulticlassData
    from novikoff.readers import read_csv_multiclass

    bias = args.bias if args.bias is not None else 1
    if args.data.startswith("sklearn:"):
        name = args.data.removeprefix("sklearn:")
        try:
            from sklearn import datasets
        except ImportError:
            raise InputError(
                "sklearn: datasets need scikit-learn (pip install 'novikoff[datasets]')"
            ) from None
        loaders = {"iris": datasets.load_iris, "wine": datasets.load_wine, "digits": datasets.load_digits}
        if name not in loaders:
            raise InputError(f"{args.data}: unknown; use sklearn:{', sklearn:'.join(loaders)}")
        X, y = loaders[name](return_X_y=True)
        return MulticlassData.from_arrays(X, y, bias=bias, name=args.data)
    return read_csv_multiclass(
        args.data,
        header={"auto": None, "yes": True, "no": False}[args.header],
        label_column=args.label_column,
        bias=bias,
    )


def _multiclass_errors(data: Any, weights: Any) -> int:
    """Training errors of the final weights, decided exactly (float weights are exact dyadic
    rationals; a positive common scale of weights or rows changes no prediction)."""
    import math

    import numpy as np

    from novikoff.reference.multiclass import predict_first_max

    if isinstance(weights, np.ndarray):  # the twin's K x D float64 matrix
        weights = weights.ravel().tolist()
    values = [v if isinstance(v, Fraction) else Fraction(float(v)) for v in weights]
    den = math.lcm(*(v.denominator for v in values)) if values else 1
    flat = [int(v * den) for v in values]
    D = data.dimension
    W = [flat[k * D : (k + 1) * D] for k in range(data.n_classes)]
    X, _ = data.scaled_rows
    return sum(1 for x, y in zip(X, data.labels) if predict_first_max(W, x) != y)


def cmd_run_multiclass(args: argparse.Namespace) -> int:
    from novikoff.multiclass import kesler
    from novikoff.reference.multiclass import run_multiclass
    from novikoff.twins.multiclass import multiclass_twin

    for option in ("epsilon", "beta", "epsilons", "soft_margin", "alpha", "positive"):
        if getattr(args, option) is not None:
            raise InputError(f"--{option.replace('_', '-')} does not apply to --algorithm multiclass")
    if args.format not in (None, "csv"):
        raise InputError(f"--format {args.format}: --algorithm multiclass reads CSV files (or sklearn:NAME)")
    data = load_multiclass(args)
    size = data.n_samples * (data.n_classes - 1) * data.n_classes * data.dimension
    cert = None
    t0 = time.perf_counter()
    if size <= KESLER_CERTIFY_LIMIT:
        cert = certify(kesler(data))
    t_cert = time.perf_counter() - t0
    sep = cert if isinstance(cert, SeparableCertificate) else None
    t0 = time.perf_counter()
    bounds = RunBounds(args.max_epochs, args.max_updates)
    cap = bounds.epoch_cap(data.n_samples)  # at most one update per presentation
    if args.fast:
        run = multiclass_twin(data, max_epochs=cap)
    else:
        run = run_multiclass(data, max_epochs=cap, certificate=sep)
    t_run = time.perf_counter() - t0
    if args.trace:
        write_trace(args.trace, run.updates)
    stopped = stopped_by(run.converged, run.epochs, bounds, data.n_samples)
    errors = _multiclass_errors(data, run.weights)
    report: dict[str, Any] = {
        "dataset": data.name,
        "samples": data.n_samples,
        "classes": list(data.class_names),
        "algorithm": "multiclass",
        "mode": "fast" if args.fast else "exact",
        "kesler": "not computed (too large)" if cert is None else ("separable" if sep else "not separable"),
        "R2": format_rational(data.R2),
        "gammaK2": None if sep is None else format_rational(sep.gamma2),
        "m1_bound": None if sep is None else format_rational(2 * data.R2 / sep.gamma2),
        "run": {
            "updates": run.mistakes,
            "epochs": run.epochs,
            "converged": run.converged,
            "stopped_by": stopped,
            "record": record_json(run.updates, args.record),
        },
        "training_errors": errors,
        "checks": {"M1 and Kesler N1": f"held at all {run.mistakes} updates"}
        if sep and not args.fast
        else {},
        "seconds": {"certificate": round(t_cert, 4), "run": round(t_run, 4)},
    }
    if args.json:
        print_json(report)
        return 0
    lines = [
        f"novikoff run: {data.name} ({data.n_samples} samples, {data.n_classes} classes, bias {data.bias})",
        f"  multiclass ({report['mode']}): {run.mistakes} updates in {run.epochs} epochs, "
        + ("converged" if run.converged else f"NOT converged ({_stop_text(stopped, args)})"),
        f"  Kesler construction: {report['kesler']}"
        + (
            ""
            if sep is None
            else f", gamma_K^2 = {show(sep.gamma2)}, M1 bound 2R^2/gamma_K^2 = "
            f"{show(2 * data.R2 / sep.gamma2)}"
        ),
        f"  training errors of the final weights: {errors} of {data.n_samples}",
    ]
    lines += [f"  {k}: {v}" for k, v in report["checks"].items()]
    lines.append(f"  time: certificate {t_cert:.3f} s, run {t_run:.3f} s")
    print("\n".join(lines))
    return 0


def read_weights(path: str) -> list[Fraction]:
    """Numbers separated by commas, spaces or newlines (read exactly; '#' starts a comment).

    Guarantees: the exact values, or InputError naming ``--weights``, the file and the line.
    """
    if Path(path).is_dir():
        raise InputError(f"--weights {path}: is a directory")
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(f"--weights {path}: not UTF-8 text (byte {exc.start}: {exc.reason})") from None
    except OSError as exc:
        raise InputError(f"--weights {path}: {exc.strerror or exc}") from None
    values: list[Fraction] = []
    for line_no, line in enumerate(text.splitlines(), 1):
        for token in line.split("#", 1)[0].replace(",", " ").split():
            try:
                values.append(parse_rational(token))
            except InputError as exc:
                raise InputError(f"--weights {path}:{line_no}: {exc}") from None
    if not values:
        raise InputError(f"--weights {path}: no numbers")
    return values


def add_margins_parser(sub: Any, add_data_options: Any) -> None:
    mg = sub.add_parser(
        "margins",
        help="margin statistics of a linear model on DATA (average, semi-variance, CDF), exact",
        description="WEIGHTS holds d + 1 numbers (bias weight last, for the bias input rho). Prints the "
        "average margin, the semi-variance, S1's margin loss, the minimum margin, the training errors "
        "and CDF values; --plot draws the cumulative margin distribution.",
    )
    mg.add_argument("data", metavar="DATA")
    add_data_options(mg)
    mg.add_argument("--weights", required=True, metavar="FILE")
    mg.add_argument("--plot", metavar="FILE.png")
    mg.add_argument("--json", action="store_true")


def _min_margin(stats: Any) -> str:
    """The smallest margin u_i/||w||, shown from the exact u_i (any magnitude)."""
    return show_ratio_sqrt(min(stats.scaled_margins), stats.w_norm2)


def cmd_margins(args: argparse.Namespace, load: Any) -> int:
    from novikoff.margin_stats import margin_statistics
    from novikoff.spec import S1

    if args.plot is not None:
        from novikoff.plot import check_plot_path

        check_plot_path(args.plot)
    ds = load(args)
    stats = margin_statistics(ds, read_weights(args.weights))
    s1 = "not applicable (average margin <= 0)"
    if stats.mean_scaled > 0:  # S1 per sample, scale-free: theta -> theta ||w||, m -> u_i
        for u in stats.scaled_margins:
            if not S1.check({"theta": stats.mean_scaled, "m": u}):
                raise InvariantViolation("S1", str(S1.conclusion), {"theta": stats.mean_scaled, "m": u}, "")
        lhs = sum(
            (max(Fraction(0), 1 - u / stats.mean_scaled) ** 2 for u in stats.scaled_margins), Fraction(0)
        )
        if lhs / stats.n != stats.margin_loss:
            raise InvariantViolation("S1", "mean((1 - m/theta)_+^2) = SV/theta^2", {}, "summed over the data")
        s1 = f"held at all {stats.n} samples and on the mean"
    margins = stats.margins()
    grid = [-1.0, -0.5, 0.0, 0.5, 1.0]
    report = {
        "dataset": ds.name,
        "samples": stats.n,
        "average_margin": stats.theta,
        "average_margin_times_norm": format_rational(stats.mean_scaled),
        "w_norm2": format_rational(stats.w_norm2),
        "semivariance": format_rational(stats.semivariance),
        "margin_loss": None if stats.margin_loss is None else format_rational(stats.margin_loss),
        "min_margin": min(margins),
        "training_errors": stats.errors,
        "cdf": {str(t): format_rational(stats.cdf(t)) for t in grid},
        "S1": s1,
    }
    if args.plot:
        from novikoff.plot import plot_margin_cdf

        plot_margin_cdf(args.plot, {"weights": margins}, f"{ds.name}: cumulative margin distribution")
    if args.json:
        print_json(report)
        return 0
    print(
        f"novikoff margins: {ds.name} ({stats.n} samples), weights from {args.weights}\n"
        f"  average margin theta = {show_ratio_sqrt(stats.mean_scaled, stats.w_norm2)}  "
        f"(theta ||w|| = {show(stats.mean_scaled)}, "
        f"||w||^2 = {show(stats.w_norm2)}, both exact)\n"
        f"  semi-variance SV = {show(stats.semivariance)} (exact rational)\n"
        + (
            f"  margin loss mean((1 - m/theta)_+^2) = SV/theta^2 = {show(stats.margin_loss)}; S1 {s1}\n"
            if stats.margin_loss is not None
            else f"  S1: {s1}\n"
        )
        + f"  minimum margin {_min_margin(stats)}; training errors (margin <= 0): {stats.errors}\n"
        f"  CDF: "
        + ", ".join(f"F({t:g}) = {float(stats.cdf(t)):.4g}" for t in grid)
        + (f"\n  cumulative margin distribution drawn to {args.plot}" if args.plot else "")
    )
    return 0


def cmd_run_msvmav(args: argparse.Namespace, load: Any) -> int:
    """MSVMAv: the exact-with-mpmath reference (default) or the Sherman-Morrison twin (--fast)."""
    from novikoff.margin_stats import margin_statistics
    from novikoff.reference.msvmav import run_msvmav, validate_positive
    from novikoff.twins.msvmav import msvmav_twin

    for option in ("epsilon", "epsilons", "soft_margin"):
        if getattr(args, option) is not None:
            raise InputError(f"--{option.replace('_', '-')} does not apply to --algorithm msvmav")
    alpha = validate_positive(_number(args.alpha, "--alpha") if args.alpha is not None else 1, "--alpha")
    beta = validate_positive(_number(args.beta, "--beta") if args.beta is not None else 1, "--beta")
    for option, value in (("--alpha", alpha), ("--beta", beta)):
        f = float_or_none(value)
        if f is None or f == 0:
            raise InputError(
                f"{option} {show(value)}: outside the float64 range that MSVMAv's weights are computed in"
            )
    ds = load(args)
    t0 = time.perf_counter()
    if args.fast:
        twin = msvmav_twin(ds, alpha=float(alpha), beta=float(beta), iterations=args.iterations)
        weights, thetas = [float(v) for v in twin.weights], twin.theta
    else:
        ref = run_msvmav(ds, alpha, beta, iterations=args.iterations)
        weights, thetas = ref.float_weights(), ref.theta
    seconds = time.perf_counter() - t0
    stats = margin_statistics(ds, [Fraction(v) for v in weights])
    report = {
        "dataset": ds.name,
        "algorithm": "msvmav",
        "mode": "fast" if args.fast else "exact (M exact, weights mpmath 256 bits)",
        "alpha": format_rational(alpha),
        "beta": format_rational(beta),
        "iterations": args.iterations,
        "weights": weights,
        "average_margin": stats.theta,
        "semivariance": float_or_none(stats.semivariance),
        "training_errors": stats.errors,
        "theta_history": thetas,
        "seconds": round(seconds, 4),
    }
    if args.json:
        print_json(report)
        return 0
    print(
        f"novikoff run: {ds.name} ({ds.n_samples} samples x {ds.n_features} features, bias {ds.bias})\n"
        f"  msvmav alpha = {alpha}, beta = {beta}, {args.iterations} iterations ({report['mode']})"
        + ("" if args.fast else "; S2 (Sherman-Morrison = direct inverse) held at every iteration")
        + f"\n  average margin {show_ratio_sqrt(stats.mean_scaled, stats.w_norm2)}, "
        f"semi-variance {show(stats.semivariance)}, "
        f"training errors {stats.errors} of {ds.n_samples}\n  time: {seconds:.3f} s"
    )
    return 0
