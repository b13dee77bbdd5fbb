"""The ``novikoff`` command line.

Exit status: 0 success (separable or not); 1 an invariant or certificate check
failed (a bug or a false theorem: never bad input), a bound the user set
(--time-limit) stopped the command, or an internal error (a bug; one line, the
traceback with NOVIKOFF_TRACEBACK=1); 2 bad input or usage (or output that cannot be
written), with a one-line message naming the file, line and column or the argument;
130 on SIGINT (Ctrl-C), 143 on SIGTERM, 129 on SIGHUP, each with a one-line message.
With --json, stdout holds one standard JSON object even then: {"error": ..., "exit_code": ...}.
"""

from __future__ import annotations

import argparse
import errno
import os
import sys
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

from novikoff.approx import show
from novikoff.certify import Certificate, SeparableCertificate, certify
from novikoff.data import Dataset
from novikoff.errors import CertificateError, InputError, InvariantViolation, NovikoffError
from novikoff.jsonout import dumps, error_json, float_or_none, print_json
from novikoff.limits import Terminated, TimeLimitReached, deadline, phase, termination_signals
from novikoff.parallel import kill_children
from novikoff.rational import RationalVector, format_rational, parse_rational
from novikoff.runlog import (
    DEFAULT_MAX_UPDATES,
    DEFAULT_RECORD,
    RunBounds,
    record_json,
    stopped_by,
    write_trace,
)
from novikoff.runs import RunRecord, parse_order

__all__ = ["certify_report", "main"]


class _Output:
    """Whether the command line asked for JSON (known before argparse can fail)."""

    json = False


def _printable(text: str) -> str:
    """``text`` with every non-printable character escaped (``\\x0b``), so that a message
    quoting user input stays one line whatever the input holds."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        message = _printable(message)
        if _Output.json:
            print(error_json(f"{self.prog}: {message}", 2))
        self.exit(2, f"{self.prog}: error: {message}\n")


#: Integer arguments may have at most this many digits (``--max-epochs 10**30`` is refused
#: by value, ``--seed`` with a million digits by length).
_MAX_INT_DIGITS = 100


def _int(text: str) -> int:
    digits = text.strip().lstrip("+-")
    if len(digits) > _MAX_INT_DIGITS:
        raise argparse.ArgumentTypeError(
            f"integer too long: {len(digits)} digits (at most {_MAX_INT_DIGITS})"
        )
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text[:40]!r}") from None


def _positive_int(text: str) -> int:
    value = _int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be >= 1, got {value}")
    return value


#: Bounds on the loops a user controls; larger requests are refused (exit 2), not attempted.
MAX_EPOCHS_LIMIT = 10**9
MAX_UPDATES_LIMIT = 10**9


def _bounded_int(limit: int) -> Any:
    def parse(text: str) -> int:
        value = _positive_int(text)
        if value > limit:
            raise argparse.ArgumentTypeError(f"must be <= {limit}, got {show(value, 3)}")
        return value

    return parse


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text[:40]!r}") from None
    if not (value >= 0 and value < 10**9):
        raise argparse.ArgumentTypeError(f"must be between 0 (no limit) and 1e9 seconds, got {text[:40]!r}")
    return value


def add_time_limit(p: argparse.ArgumentParser, default: float) -> None:
    """``--time-limit SECONDS``: the wall-clock bound of the whole command (0 = none)."""
    p.add_argument(
        "--time-limit",
        type=_seconds,
        default=default,
        metavar="SECONDS",
        help=f"stop the command (exit 1, saying so) after this many seconds; 0 = no limit "
        f"(default {default:g})",
    )


def add_run_bounds(p: argparse.ArgumentParser) -> None:
    """``--max-updates``, ``--record`` and ``--trace`` (certify and run)."""
    p.add_argument(
        "--max-updates",
        type=_bounded_int(MAX_UPDATES_LIMIT),
        default=DEFAULT_MAX_UPDATES,
        metavar="N",
        help=f"stop the run after at most N updates (default {DEFAULT_MAX_UPDATES}; see the README for "
        "algorithms with one update per presentation, bounded at epoch ends)",
    )
    p.add_argument(
        "--record",
        type=_bounded_int(10**6),
        default=DEFAULT_RECORD,
        metavar="N",
        help="--json lists the first and last N updates and how many were left out "
        f"(default {DEFAULT_RECORD})",
    )
    p.add_argument("--trace", metavar="FILE", help="write every update to FILE, one 'epoch,sample' line each")


def _rational(text: str) -> Fraction:
    try:
        return parse_rational(text)
    except InputError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _add_data_options(p: argparse.ArgumentParser) -> None:
    """The options that say how DATA is read (shared by certify and run), and --max-epochs."""
    p.add_argument("--format", choices=["csv", "libsvm"], help="file format (default: from the suffix)")
    p.add_argument(
        "--bias",
        type=_rational,
        default=None,
        metavar="RHO",
        help="bias coordinate rho >= 0 appended last (default 1, or the example's own; 0 = no bias)",
    )
    p.add_argument(
        "--label-column",
        type=_int,
        default=-1,
        metavar="N",
        help="CSV label column, 0-based, negative from the end (default -1: last)",
    )
    p.add_argument("--header", choices=["auto", "yes", "no"], default="auto", help="CSV header line")
    p.add_argument(
        "--positive", metavar="LABEL", help="the label mapped to +1 when labels are not {-1,1}/{0,1}"
    )
    p.add_argument(
        "--max-epochs",
        type=_bounded_int(MAX_EPOCHS_LIMIT),
        default=1000,
        metavar="N",
        help=f"stop after N full passes over the data (default 1000, at most {MAX_EPOCHS_LIMIT})",
    )
    add_time_limit(p, 600)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="novikoff", description=__doc__.splitlines()[0] if __doc__ else None)
    from novikoff import __version__

    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    c = sub.add_parser(
        "certify",
        help="exact margin certificate, Novikoff bound and a checked exact perceptron run",
        description="Certify separability of DATA exactly and run the exact perceptron, checking "
        "N1-N3 at every update. DATA is a CSV or LIBSVM file, or example:NAME "
        "(exercise-6.1, seed-6.6:SEP, t1:N, t1-rotated:N[:SEED]).",
    )
    c.add_argument("data", metavar="DATA")
    _add_data_options(c)
    c.add_argument("--order", type=str, default="natural", help="natural (default) or shuffle:SEED")
    c.add_argument("--json", action="store_true", help="print one JSON object")
    c.add_argument("--plot", metavar="FILE.png", help="draw the squeeze figure of the run")
    c.add_argument(
        "--coq",
        metavar="FILE.v",
        help="write a Coq file that checks this certificate by computation and proves "
        "updates <= floor(R^2/gamma^2) in every order (separable data only)",
    )
    add_run_bounds(c)
    from novikoff.cli_run import add_margins_parser, add_run_parser

    add_run_parser(sub, _add_data_options)
    add_margins_parser(sub, _add_data_options)
    t = sub.add_parser("seed-tables", help="seed 000's tables (6.6, ex. 6.1, ex. 6.3) with exact bounds")
    t.add_argument("--json", action="store_true")
    add_time_limit(t, 600)
    df = sub.add_parser(
        "diff",
        help="differential-test a perceptron implementation against the exact reference",
        description="MODULE:CALLABLE is fit(X, y, max_epochs=, order=) (see the README's contract), or with "
        "--sklearn an estimator class such as sklearn.linear_model:Perceptron. Exit 0 if no bug was "
        "found (rounding ambiguities are reported, not failed), 1 on a bug, 2 on usage errors.",
    )
    df.add_argument("target", metavar="MODULE:CALLABLE")
    df.add_argument(
        "--algorithm",
        default="perceptron",
        choices=["perceptron", "pdm", "pfm", "multiclass"],
        help="pdm calls fit(..., eps=E), pfm fit(..., beta=B); multiclass passes y as class indices "
        "0..K-1 and expects K x (d + 1) weights",
    )
    df.add_argument(
        "--examples", type=_positive_int, default=50, metavar="N", help="examples per data family"
    )
    df.add_argument("--seed", type=_int, default=0, metavar="S")
    df.add_argument("--json", action="store_true")
    df.add_argument("--sklearn", metavar="PARAMS", help='estimator parameters, e.g. "shuffle=False,tol=None"')
    df.add_argument(
        "--call-timeout",
        type=_seconds,
        default=30.0,
        metavar="SECONDS",
        help="one call of the implementation may take this long; a call that does not return is an "
        "error finding, and the implementation is not called again (0 = no limit; default 30)",
    )
    add_time_limit(df, 3600)
    fz = sub.add_parser(
        "falsify",
        help="search for a dataset on which the perceptron makes more updates than a proposed bound",
        description="EXPR bounds the number of updates over R, gamma, R2, gamma2, m, d with + - * / ** "
        "and floor, ceil, sqrt, log, exp, min, max. Exit 1 when a counterexample is found (written to "
        "--out), 0 when none was found in the examples tried (never a proof), 2 on a malformed EXPR.",
    )
    fz.add_argument("expr", metavar="EXPR")
    fz.add_argument(
        "--algorithm",
        default="perceptron",
        choices=["perceptron", "pdm", "pfm", "multiclass"],
        help="pdm adds the symbol eps, pfm adds beta and eps = 1 - beta/gamma, multiclass adds K "
        "(gamma is then the Kesler margin)",
    )
    fz.add_argument(
        "--epsilons",
        metavar="E1,E2,...",
        help="the eps values drawn for pdm (and for pfm's beta = (1 - eps) gamma); "
        "default 1,3/4,1/2,1/3,1/10 (pdm) and 1,3/4,1/2,1/4,1/10 (pfm)",
    )
    fz.add_argument(
        "--examples", type=_positive_int, default=200, metavar="N", help="Hypothesis examples in all"
    )
    fz.add_argument("--seed", type=_int, default=0, metavar="S", help="worker i uses seed S + i")
    fz.add_argument("--json", action="store_true", help="one JSON object on stdout, no progress display")
    fz.add_argument(
        "--database",
        metavar="DIR|redis://HOST:PORT/DB|none",
        help="example database: counterexamples are saved there and replayed first "
        "(default $NOVIKOFF_DATABASE or .novikoff/examples)",
    )
    fz.add_argument(
        "--workers", type=_positive_int, default=1, metavar="N", help="processes sharing the database"
    )
    fz.add_argument(
        "--out",
        default="counterexample.csv",
        metavar="FILE",
        help="where a counterexample is written (default counterexample.csv)",
    )
    from novikoff.fuzz.bounds import DEFAULT_LIMITS

    for flag, default, what in (
        ("--max-bound-length", DEFAULT_LIMITS.length, "characters of EXPR"),
        ("--max-bound-depth", DEFAULT_LIMITS.depth, "nesting levels of EXPR"),
        ("--max-bound-exponent", DEFAULT_LIMITS.exponent, "absolute value of a numeric exponent in EXPR"),
        ("--max-bound-digits", DEFAULT_LIMITS.power_digits, "digits of a power of two numbers in EXPR"),
    ):
        fz.add_argument(
            flag, type=_int, default=default, metavar="N", help=f"at most N {what} (default {default})"
        )
    add_time_limit(fz, 3600)
    rp = sub.add_parser(
        "replay",
        help="rerun a falsify counterexample file: its algorithm, order and bound",
        description="Rerun the counterexample FILE written by falsify: the recorded algorithm and "
        "parameters in the recorded order, exactly, and the recorded bound evaluated at the data. "
        "Prints both; exit 1 when the bound is violated, 0 when it holds, 2 on a bad file.",
    )
    rp.add_argument("file", metavar="FILE")
    rp.add_argument("--json", action="store_true", help="print one JSON object")
    add_time_limit(rp, 600)
    v = sub.add_parser(
        "verify",
        help="re-check every theorem: proofs, certificates on built-in data, a Hypothesis campaign",
        description="Run every proof obligation, the exact certificate checker on built-in datasets "
        "and a derandomized Hypothesis campaign of N1-N3. Exit 0 iff everything holds, 1 if "
        "anything failed (or regressed against --baseline), 2 on usage errors.",
    )
    v.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    v.add_argument("--junit", metavar="FILE", help="write JUnit XML")
    v.add_argument("--report", metavar="FILE.md", help="write a Markdown report")
    v.add_argument("--baseline", metavar="FILE", help="a previous --json output; fail on regressions")
    v.add_argument("--only", nargs="+", metavar="ID", default=[], help="only these theorem ids (N1, D1, ...)")
    v.add_argument("--full", action="store_true", help="a longer Hypothesis campaign")
    v.add_argument("--crosshair", action="store_true", help="also run CrossHair on the integer kernels")
    v.add_argument("--coq", action="store_true", help="also run the Coq kernel checks (needs coqc)")
    add_time_limit(v, 3600)
    return parser


def _load(args: argparse.Namespace) -> Dataset:
    from novikoff.readers import guess_format, load_dataset

    if args.data.startswith("example:"):
        from novikoff.examples import load_example  # imports the spec (sympy): only when asked

        ds = load_example(args.data.removeprefix("example:"))
        return ds.with_bias(args.bias) if args.bias is not None else ds
    bias = args.bias if args.bias is not None else 1
    options: dict[str, Any] = {"bias": bias, "positive": args.positive}
    fmt = args.format or guess_format(args.data)
    if fmt == "csv":
        options["label_column"] = args.label_column
        options["header"] = {"auto": None, "yes": True, "no": False}[args.header]
    return load_dataset(args.data, format=fmt, **options)


def certify_report(
    ds: Dataset,
    cert: Certificate,
    run: RunRecord,
    vectors: bool = True,
    record: int = DEFAULT_RECORD,
    stopped: str | None = None,
) -> dict[str, Any]:
    """The JSON contract of ``novikoff certify --json`` (see the README).

    ``vectors=False`` leaves out the per-sample and per-coordinate lists (lambda,
    weights, p*, updates), which the readable summary does not show. Guarantees: at
    most ``2 record`` updates are listed (the first and last ``record``, and how many
    were left out between them); a ``*_float`` field is null when its exact value
    (beside it) does not fit a float64.
    """
    out: dict[str, Any] = {
        "dataset": ds.name,
        "separable": cert.separable,
        "n_samples": ds.n_samples,
        "n_features": ds.n_features,
        "bias": format_rational(ds.bias),
        "R2": format_rational(cert.R2),
        "R2_float": float_or_none(cert.R2),
        "certificate_checked": True,
    }
    if isinstance(cert, SeparableCertificate):
        out.update(
            gamma2=format_rational(cert.gamma2),
            gamma2_float=float_or_none(cert.gamma2),
            bound=format_rational(cert.bound),
            bound_float=float_or_none(cert.bound),
        )
        if vectors:
            out.update(weights=_vector_json(cert.weights), pstar=_vector_json(cert.pstar))
        if cert.geometric is not None:
            out["geometric_margin2"] = format_rational(cert.geometric.margin2)
            out["geometric_margin2_float"] = float_or_none(cert.geometric.margin2)
    else:
        out.update(gamma2=0, gamma2_float=0.0, bound=None, bound_float=None, gordan={})
        if vectors:
            out["gordan"]["lambda"] = [str(v) for v in _vector_json(cert.lambdas)]
    if vectors:
        out["lambda"] = _vector_json(cert.lambdas)
    out["perceptron"] = {
        "mistakes": run.mistakes,
        "epochs": run.epochs,
        "converged": run.converged,
        "stopped_by": stopped,
        "invariants_checked": run.invariants_checked,
    }
    if vectors:
        rec = record_json(run.updates, record)
        out["perceptron"]["updates"] = rec["first"]
        out["perceptron"]["updates_last"] = rec["last"]
        out["perceptron"]["updates_omitted"] = rec["omitted"]
        out["perceptron"]["weights"] = [format_rational(v) for v in run.weights]
    return out


def _vector_json(vec: RationalVector) -> list[int | str]:
    return [format_rational(v) for v in vec]


def _summary(report: dict[str, Any], cert: Certificate, run: RunRecord, order: str) -> str:
    lines = [
        f"novikoff certify: {report['dataset']} ({report['n_samples']} samples x "
        f"{report['n_features']} features, bias rho = {report['bias']})",
    ]

    def row(name: str, value: Fraction) -> None:
        text = str(format_rational(value))
        if len(text) > 40:
            num, _, den = text.partition("/")
            text = f"exact: {len(num.lstrip('-'))}-digit" + (
                f" / {len(den)}-digit rational" if den else " integer"
            )
        lines.append(f"  {name:<34} {text:<40} ({show(value)})")

    if isinstance(cert, SeparableCertificate):
        lines.append("  separable: yes (exact minimum-norm-point certificate, re-checked)")
        row("R^2 = max ||z_i||^2", cert.R2)
        row("gamma^2 = ||p*||^2", cert.gamma2)
        row("Novikoff bound R^2/gamma^2", cert.bound)
        if cert.geometric is not None:
            row("geometric margin^2 (free bias)", cert.geometric.margin2)
        support = sum(1 for v in cert.lambdas.numerators if v)
        lines.append(f"  support vectors (lambda > 0): {support} of {report['n_samples']}")
    else:
        support = sum(1 for v in cert.lambdas.numerators if v)
        lines.append("  separable: no (Gordan certificate: sum lambda_i z_i = 0, re-checked)")
        lines.append(f"  {support} samples with lambda > 0 combine to the origin")
        row("R^2 = max ||z_i||^2", cert.R2)
    stopped = report["perceptron"]["stopped_by"]
    status = (
        "converged" if run.converged else f"did NOT converge (stopped by --{str(stopped).replace('_', '-')})"
    )
    checks = (
        f"; N1-N3 held at every update ({run.invariants_checked} checks)" if run.invariants_checked else ""
    )
    lines.append(
        f"  exact perceptron ({order} order): {run.mistakes} mistake{'' if run.mistakes == 1 else 's'} "
        f"in {run.epochs} epoch{'' if run.epochs == 1 else 's'}, "
        f"{status}{checks}"
    )
    return "\n".join(lines)


def _check_coq_path(path: str) -> None:
    """InputError (naming --coq) unless ``path`` is a new or existing ``.v`` file in an existing
    directory whose stem is a Coq identifier (coqc names the module after it)."""
    target = Path(path)
    if target.suffix != ".v" or not target.stem.replace("_", "a").isalnum() or not target.stem[:1].isalpha():
        raise InputError(f"--coq {path}: give a file name like cert_data.v (letters, digits, _, then .v)")
    if target.is_dir() or not target.parent.is_dir():
        raise InputError(f"--coq {path}: not a file in an existing directory")


def _write_coq_certificate(path: str, ds: Dataset, cert: Certificate) -> None:
    """Write the Coq file of ``--coq``; a non-separable dataset has no bound to prove (exit 2)."""
    from novikoff.coq.dataset_certificate import certificate_to_coq

    if not isinstance(cert, SeparableCertificate):
        raise InputError(f"--coq {path}: {ds.name} is not separable; there is no mistake bound to prove")
    Path(path).write_text(certificate_to_coq(ds, cert), encoding="utf-8")


def _cmd_certify(args: argparse.Namespace) -> int:
    from novikoff.twins.exact import exact_perceptron

    order = parse_order(args.order)
    if args.plot is not None:
        from novikoff.plot import check_plot_path

        check_plot_path(args.plot)
    if args.coq is not None:
        _check_coq_path(args.coq)
    with phase("reading the data"):
        ds = _load(args)
    with phase("the exact certificate"):
        cert = certify(ds)
    sep = cert if isinstance(cert, SeparableCertificate) else None
    if args.coq is not None:
        _write_coq_certificate(args.coq, ds, cert)
    bounds = RunBounds(args.max_epochs, args.max_updates)
    # the exact fast path: identical to the reference's run (differential-tested), N1-N3
    # checked at every update in integer form; at most one update per presentation
    with phase("the exact perceptron run"):
        run = exact_perceptron(
            ds,
            order=order,
            max_epochs=bounds.epoch_cap(ds.n_samples),
            certificate=sep,
            track_norms=bool(args.plot),
        )
    stopped = stopped_by(run.converged, run.epochs, bounds, ds.n_samples)
    report = certify_report(ds, cert, run, vectors=args.json, record=args.record, stopped=stopped)
    if args.coq:
        report["coq_file"] = args.coq
    if args.trace:
        write_trace(args.trace, run.updates)
    if args.plot:
        from novikoff.plot import plot_squeeze

        bound = f"R^2/gamma^2 = {show(sep.bound, 4)}" if sep else "not separable"
        title = f"{Path(ds.name).name}: {run.mistakes} updates, {bound}"
        plot_squeeze(args.plot, run.norm2_history, cert.R2, sep.gamma2 if sep else None, title)
    if args.json:
        print_json(report)
    else:
        print(_summary(report, cert, run, args.order))
        if args.plot:
            print(f"  squeeze figure written to {args.plot}")
        if args.coq:
            print(f"  Coq file written to {args.coq} (compile: coqc -R BUILT_DEVELOPMENT Novikoff FILE)")
    return 0


def _cmd_seed_tables(args: argparse.Namespace) -> int:
    from novikoff.seedtables import format_tables, seed_tables

    tables = seed_tables()
    print(dumps(tables) if args.json else format_tables(tables))
    return 0


def _cmd_verify(args: argparse.Namespace) -> int:
    from novikoff import verify

    checks = verify.collect_checks(args.only, full=args.full, crosshair=args.crosshair, coq=args.coq)

    def progress(r: verify.CheckResult) -> None:
        if not args.json and not r.ok:
            print(f"FAILED [{r.check.spec_id}] {r.check.name}", file=sys.stderr, flush=True)

    results = verify.run_checks(checks, progress)
    if args.baseline:  # regressions are failed results: every report and the exit status agree
        results += verify.regression_results(results, args.baseline, args.only)
    if args.junit:
        _write(args.junit, verify.to_junit(results), "--junit")
    if args.report:
        _write(args.report, verify.to_markdown(results), "--report")
    if args.json:
        print_json(verify.to_json(results))
    else:
        print(verify.to_table(results))
        for r in results:
            if r.check.group == verify.REGRESSION:
                print(f"REGRESSION {r.check.name}")
    return 0 if verify.ok(results) else 1


def _sklearn_params(text: str) -> dict[str, Any]:
    """``"a=1,b=None,c=False,d=0.5,e=name"`` -> a dict (literals only, never evaluated)."""
    import ast

    params: dict[str, Any] = {}
    for item in filter(None, (p.strip() for p in text.split(","))):
        key, eq, value = item.partition("=")
        if not eq or not key.strip().isidentifier():
            raise InputError(f"--sklearn: expected name=value, got {item!r}")
        try:
            params[key.strip()] = ast.literal_eval(value.strip())
        except (ValueError, SyntaxError):
            params[key.strip()] = value.strip()  # a bare word, e.g. penalty=l2
    return params


def _check_estimator(target: Any, name: str, params: dict[str, Any]) -> None:
    """InputError (exit 2) unless ``target(**params)`` builds an estimator with a ``fit`` method:
    a misused --sklearn is a usage error, not a bug of the implementation."""
    if not isinstance(target, type):
        raise InputError(f"--sklearn: {name} is not an estimator class (got {type(target).__name__})")
    if not callable(getattr(target, "fit", None)):
        raise InputError(f"--sklearn: {name} has no fit method")
    try:
        target(**{**params, "max_iter": 1})
    except Exception as exc:
        raise InputError(
            f"--sklearn: {name}({', '.join(params)}) failed: {type(exc).__name__}: {exc}"
        ) from None


def _cmd_diff(args: argparse.Namespace) -> int:
    from novikoff.fuzz.harness import check_implementation, load_callable, sklearn_fit

    if args.sklearn is not None and args.algorithm != "perceptron":
        raise InputError("--sklearn adapts perceptron estimators only (use --algorithm perceptron)")
    params = _sklearn_params(args.sklearn) if args.sklearn is not None else {}
    target = load_callable(args.target)
    if args.sklearn is not None:
        _check_estimator(target, args.target, params)
    fit = sklearn_fit(target, **params) if args.sklearn is not None else target
    sk = f' --sklearn "{args.sklearn}"' if args.sklearn is not None else ""
    algo = "" if args.algorithm == "perceptron" else f" --algorithm {args.algorithm}"
    repro = f"novikoff diff {args.target}{algo}{sk} --examples {args.examples} --seed {args.seed}"
    with phase("the differential test"):
        report = check_implementation(
            fit,
            args.algorithm,
            examples=args.examples,
            seed=args.seed,
            repro=repro,
            call_timeout=args.call_timeout or None,
        )
    if args.json:

        def finding(f: Any) -> dict[str, Any]:
            return {
                "family": f.family,
                "message": f.message,
                "bias": 1,
                "order": None if f.order is None else list(f.order),
                "max_epochs": f.max_epochs,
                "algorithm": f.algorithm,
                "parameter": None if f.value is None else format_rational(f.value),
                "X": [
                    [format_rational(v) for v in f.dataset.features(i)] for i in range(f.dataset.n_samples)
                ],
                "y": list(f.dataset.labels),
            }

        print(
            dumps(
                {
                    "ok": report.ok,
                    "examples": report.examples,
                    "agreed": report.agreed,
                    "bugs": [finding(f) for f in report.bugs[:5]],
                    "ambiguous": len(report.ambiguous),
                    "errors": [f.message for f in report.errors[:5]],
                    "reproduce": repro,
                }
            )
        )
    else:
        print(report.summary())
    return 0 if report.ok else 1


def _cmd_falsify(args: argparse.Namespace) -> int:
    from novikoff.fuzz.bounds import BoundLimits
    from novikoff.fuzz.database import default_database
    from novikoff.fuzz.falsify import falsify, order_to_json, stderr_progress

    show = not args.json and sys.stderr.isatty()
    epsilons = None
    if args.epsilons is not None:
        epsilons = [parse_rational(e.strip()) for e in args.epsilons.split(",") if e.strip()]
        if not epsilons:
            raise InputError("--epsilons: no values")
    with phase("the search"):
        result = falsify(
            args.expr,
            algorithm=args.algorithm,
            epsilons=epsilons,
            examples=args.examples,
            seed=args.seed,
            database=args.database or default_database(),
            workers=args.workers,
            progress=stderr_progress() if show else None,
            limits=BoundLimits(
                args.max_bound_length, args.max_bound_depth, args.max_bound_exponent, args.max_bound_digits
            ),
        )
    if show:
        sys.stderr.write("\n")
    ce = result.counterexample
    best = None if result.best_ratio is None else round(result.best_ratio, 6)
    if ce is None:
        message = f"no counterexample in {result.examples} examples (this is not a proof)" + (
            "" if best is None else f"; the highest updates/bound seen was {best}"
        )
        print(
            dumps({"counterexample": None, "examples": result.examples, "best_ratio": best})
            if args.json
            else message
        )
        return 0
    try:
        ce.write_csv(args.out)
    except OSError as exc:
        raise InputError(f"--out {args.out}: {exc.strerror or exc}") from None
    order = order_to_json(ce.order)
    replay = ce.replay_command(args.out)
    if args.json:
        print(
            dumps(
                {
                    "counterexample": args.out,
                    "source": ce.source,
                    "updates": ce.updates,
                    "bound": str(result.bound),
                    "bound_value": ce.bound_value,
                    "order": order,
                    "values": {k: format_rational(v) for k, v in ce.values.items()},
                    "examples": result.examples,
                    "replayed_from_database": result.replayed,
                    "replay": replay,
                }
            )
        )
    else:
        values = ", ".join(f"{k} = {format_rational(v)}" for k, v in ce.values.items())
        print(
            f"COUNTEREXAMPLE ({ce.source}): {ce.updates} updates of "
            f"{ce.setting.describe(ce.values['gamma2'])} > bound {result.bound} = {ce.bound_value}\n"
            f"  {values}; order {order}\n  dataset written to {args.out}; replay: {replay}"
        )
    return 1


def _cmd_replay(args: argparse.Namespace) -> int:
    from novikoff.fuzz.falsify import replay_file

    with phase("the replay"):
        r = replay_file(args.file)
    if args.json:
        print(
            dumps(
                {
                    "file": args.file,
                    "algorithm": r.algorithm,
                    "parameters": r.parameters,
                    "order": r.order,
                    "updates": r.updates,
                    "recorded_updates": r.recorded_updates,
                    "bound": r.bound,
                    "bound_value": r.bound_value,
                    "values": {k: format_rational(v) for k, v in r.values.items()},
                    "violated": r.violated,
                }
            )
        )
    else:
        print(r.summary())
    return 1 if r.violated else 0


def _write(path: str, text: str, option: str) -> None:
    try:
        Path(path).write_text(text)
    except OSError as exc:
        raise InputError(f"{option} {path}: {exc.strerror or exc}") from None


def _dispatch(args: argparse.Namespace) -> int:
    if args.command == "certify":
        return _cmd_certify(args)
    if args.command == "verify":
        return _cmd_verify(args)
    if args.command == "diff":
        return _cmd_diff(args)
    if args.command == "falsify":
        return _cmd_falsify(args)
    if args.command == "replay":
        return _cmd_replay(args)
    if args.command == "run":
        from novikoff.cli_run import cmd_run

        return cmd_run(args, _load)
    if args.command == "margins":
        from novikoff.cli_run import cmd_margins

        return cmd_margins(args, _load)
    return _cmd_seed_tables(args)


def _one_line(text: str, limit: int = 2000) -> str:
    """``text`` as one line (non-printable characters escaped), at most ``limit`` characters."""
    line = _printable(str(text).strip())
    return line if len(line) <= limit else line[: limit - 3] + "..."


def _fail(prefix: str, message: str, code: int, **extra: Any) -> int:
    """Report a failure: one line on stderr, and the error object on stdout under --json."""
    message = _one_line(message)
    if _Output.json:
        try:
            print(error_json(message, code, **extra), flush=True)
        except OSError:
            pass
    print(f"novikoff: {prefix}{message}", file=sys.stderr, flush=True)
    return code


def _run_command(args: argparse.Namespace) -> int:
    """The command with its exceptions mapped to exit statuses (see the module docstring)."""
    try:
        with deadline(args.time_limit, lambda: TimeLimitReached(args.time_limit)):
            code = _dispatch(args)
        sys.stdout.flush()
        return code
    except InvariantViolation as exc:
        return _fail("INVARIANT FAILED: ", str(exc), 1)
    except CertificateError as exc:
        return _fail("CERTIFICATE CHECK FAILED: ", str(exc), 1)
    except NovikoffError as exc:
        from novikoff.fuzz.bounds import BoundSyntaxError

        # a bound's message points at the column on two more lines: the CLI keeps the first
        message = str(exc).split("\n", 1)[0] if isinstance(exc, BoundSyntaxError) else str(exc)
        return _fail("error: ", message, 2)
    except TimeLimitReached as exc:
        return _fail(
            "",
            f"{exc} (the command did not finish; raise the limit or pass --time-limit 0)",
            1,
            stopped_by="time_limit",
        )
    except RecursionError:
        return _fail("error: ", "input nested too deeply (RecursionError)", 2)
    except MemoryError:
        return _fail("", "out of memory (lower --max-updates, --max-epochs or the input size)", 1)
    except OSError as exc:
        if exc.errno in (errno.EPIPE, errno.ENOSPC, errno.EDQUOT) or isinstance(exc, BrokenPipeError):
            return _output_failed(exc)  # stdout gone (broken pipe) or full
        where = f" {exc.filename}" if exc.filename else ""
        return _fail("error: ", f"{exc.strerror or exc}{where}", 2)
    except Exception as exc:  # a bug in novikoff: one line, exit 1; the traceback on request
        if os.environ.get("NOVIKOFF_TRACEBACK"):
            raise
        return _fail(
            "INTERNAL ERROR (a bug in novikoff; NOVIKOFF_TRACEBACK=1 shows the traceback): ",
            f"{type(exc).__name__}: {exc}",
            1,
        )
    finally:
        kill_children()


def _output_failed(exc: OSError) -> int:
    """stdout could not be written: one line on stderr if it still works, exit 2, no traceback."""
    try:  # later flushes (at exit) must not fail again
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass
    try:
        print(f"novikoff: error: cannot write the output: {exc.strerror or exc}", file=sys.stderr, flush=True)
    except (OSError, ValueError):
        pass
    return 2


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the exit status (see the module docstring). Never raises but for
    argparse's own exits (--help, usage errors: SystemExit 0 or 2)."""
    words = list(sys.argv[1:] if argv is None else argv)
    _Output.json = "--json" in words
    if hasattr(sys, "set_int_max_str_digits"):
        sys.set_int_max_str_digits(0)  # exact results may have more than 4300 digits
    try:
        with termination_signals():
            parser = build_parser()
            args = parser.parse_args(words)
            code = _run_command(args)
    except Terminated as exc:
        kill_children()
        code = _fail("", f"{exc}; stopped, no result", exc.exit_code)
    except KeyboardInterrupt:
        kill_children()
        code = _fail("", "interrupted (SIGINT); stopped, no result", 130)
    except OSError as exc:
        code = _output_failed(exc)
    if argv is None and code >= 128:  # a signal: leave at once, without interpreter teardown
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
        os._exit(code)
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
