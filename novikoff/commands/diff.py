"""``novikoff diff MODULE:CALLABLE`` or ``novikoff diff --command 'CMD ...'``: differential-test
an implementation against the exact reference."""

from __future__ import annotations

import argparse
import shlex
from typing import Any

from novikoff.commands.options import add_time_limit, int_arg, positive_int, rational_arg, seconds_arg
from novikoff.errors import InputError
from novikoff.runtime.algorithms import names
from novikoff.runtime.jsonout import dumps
from novikoff.runtime.limits import phase

__all__ = ["fuzz_names", "register", "run"]


def fuzz_names() -> tuple[str, ...]:
    """The registered algorithms that diff and falsify test (those with a fuzz spec)."""
    return names(lambda e: e.fuzz is not None)


_SEMANTICS_HELP = (
    "declared semantics (docs/howto/diff.md): what the implementation does where implementations "
    "legitimately differ; the exact reference then runs that rule"
)


def register(sub: Any) -> None:
    """Add the sub-parser to ``sub`` (argparse's subparsers action); its handler is :func:`run`."""
    df = sub.add_parser(
        "diff",
        help="differential-test a perceptron implementation against the exact reference",
        description="MODULE:CALLABLE is fit(X, y, max_epochs=, order=) (docs/howto/diff.md), or with "
        "--sklearn an estimator class such as sklearn.linear_model:Perceptron; --command runs an "
        "executable speaking the text protocol (docs/howto/protocol.md), --impl a named one. "
        "Every call runs in a killable worker process. Exit 0 if no bug was found (rounding "
        "ambiguities are reported, not failed), 1 on a bug or an implementation error, 2 on usage errors.",
    )
    df.add_argument("target", metavar="MODULE:CALLABLE", nargs="?")
    df.add_argument(
        "--command",
        metavar="CMD",
        help="an executable and its arguments (split like a shell does, no shell runs it), run once "
        "per call with the request on stdin and the response on stdout; placeholders {tie_rule}, "
        "{margin}, {learning_rate}, {initial_weights}, {order}, {stop}, {precision}, {l2}, {schedule}, "
        "{algorithm}, {protocol} take the declared values (protocol version 1, or 2 for voted, "
        "multiclass and the SGD semantics)",
    )
    df.add_argument(
        "--impl",
        choices=IMPLEMENTATIONS,
        help="a named implementation run as a --command: extracted = the perceptron family extracted "
        "from Coq (built on first use with coqc, OCaml and Zarith, then cached; "
        "docs/verified-reference.md), which answers unsupported outside its algorithms",
    )
    df.add_argument(
        "--algorithm",
        default="perceptron",
        choices=fuzz_names(),
        help="the algorithms of the registry that diff tests; pdm calls fit(..., eps=E), pfm "
        "fit(..., beta=B); averaged expects the average of the weights after every presentation, voted "
        "a mapping with voters = [(weights, count), ...]; romma is conservative ROMMA (update iff "
        "w.z <= 0); multiclass passes y as class indices 0..K-1 and expects K x (d + 1) weights",
    )
    df.add_argument("--examples", type=positive_int, default=50, metavar="N", help="examples per data family")
    df.add_argument("--seed", type=int_arg, default=0, metavar="S")
    df.add_argument("--json", action="store_true")
    df.add_argument("--sklearn", metavar="PARAMS", help='estimator parameters, e.g. "shuffle=False,tol=None"')
    df.add_argument(
        "--families",
        metavar="IDS",
        help="only these data families: their ids or names, comma-separated (default: all)",
    )
    sem = df.add_argument_group("declared semantics", _SEMANTICS_HELP)
    sem.add_argument(
        "--tie-rule",
        default="nonstrict",
        metavar="RULE",
        help="nonstrict (update iff y w.x~ <= b, default), strict (iff y w.x~ < b), sign-positive "
        "(predict sign(w.x~) with sign(0) = +1, mlxtend's rule), sign-negative (sign(0) = -1)",
    )
    sem.add_argument(
        "--margin", type=rational_arg, default=None, metavar="B", help="the threshold b >= 0 (default 0)"
    )
    sem.add_argument(
        "--learning-rate",
        type=rational_arg,
        default=None,
        metavar="ETA",
        help="w <- w + eta z (default 1; alone it only rescales the weights)",
    )
    sem.add_argument(
        "--initial-weights",
        default="zero",
        metavar="zero|drawn",
        help="drawn: small integer initial weights per example, passed as initial_weights=",
    )
    sem.add_argument(
        "--order",
        default="given",
        metavar="given|natural|shuffle-v1:SEED|sklearn:SEED",
        help="given (default): the implementation presents the order it is passed; natural: always "
        "0..m-1; shuffle-v1:SEED: the documented per-epoch shuffle; sklearn:SEED: scikit-learn's SGD "
        "shuffling with random_state=SEED",
    )
    sem.add_argument(
        "--stop",
        default="converged",
        metavar="converged|all-epochs|tol:TOL:N",
        help="converged (default): stop after an epoch without an update; all-epochs: run max_epochs; "
        "tol:TOL:N: scikit-learn's tol/n_iter_no_change rule on the mean objective",
    )
    sem.add_argument(
        "--precision",
        default="float64",
        metavar="float64|float32",
        help="float32: the reference runs on the float32-rounded inputs with the float32 rounding bound",
    )
    sem.add_argument(
        "--l2",
        type=rational_arg,
        default=None,
        metavar="ALPHA",
        help="an L2 penalty: w <- (1 - eta alpha) w before each step, the intercept not penalised "
        "(scikit-learn's penalty='l2', alpha=ALPHA); the reference is then a float64 replica with a "
        "rounding bound (docs/howto/diff.md)",
    )
    sem.add_argument(
        "--schedule",
        default="constant",
        metavar="constant|optimal",
        help="optimal: scikit-learn's eta_t = 1 / (alpha (t0 + t - 1)) (needs --l2)",
    )
    df.add_argument(
        "--call-timeout",
        type=seconds_arg,
        default=30.0,
        metavar="SECONDS",
        help="one call of the implementation may take this long; a call that does not return is an "
        "error finding, its worker is killed and the next data family starts in a fresh one "
        "(0 = no limit; default 30)",
    )
    df.add_argument(
        "--executor",
        default="local",
        metavar="local|dask://HOST:PORT",
        help="local (default): the data families one after another in this process; dask://HOST:PORT: "
        "one task per family on that Dask cluster (MODULE must be importable there, a --command's "
        "executable present at the same path), the first bug cancels the rest",
    )
    add_time_limit(df, 3600)
    df.set_defaults(handler=run)


#: The named implementations of --impl (novikoff.extracted.runner.IMPLEMENTATIONS).
IMPLEMENTATIONS = ("extracted",)


def _impl_command(name: str) -> str:
    """The --command of the named implementation (building it if needed); InputError (exit 2)
    when it cannot be built here."""
    from novikoff.extracted.runner import ExtractedError, protocol_command

    try:
        return protocol_command(name)
    except ExtractedError as exc:
        raise InputError(f"--impl {name}: {exc}") from None


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


def _semantics(args: argparse.Namespace) -> Any:
    from fractions import Fraction

    from novikoff.fuzz.semantics import Semantics

    return Semantics(
        tie_rule=args.tie_rule,
        margin=Fraction(0) if args.margin is None else args.margin,
        learning_rate=Fraction(1) if args.learning_rate is None else args.learning_rate,
        initial_weights=args.initial_weights,
        order=args.order,
        stop=args.stop,
        precision=args.precision,
        l2=Fraction(0) if args.l2 is None else args.l2,
        schedule=args.schedule,
    )


def _families(text: str | None) -> list[str] | None:
    if text is None:
        return None
    return [name.strip() for name in text.split(",") if name.strip()]


def _reproduce(args: argparse.Namespace, semantics: Any, report: Any) -> str:
    """The command that reruns the configuration that failed: the same target or command,
    options and seed, restricted to the data family of the first finding."""
    words = ["novikoff", "diff"]
    if getattr(args, "impl", None) is not None:
        words += ["--impl", args.impl]
    else:
        words += ["--command", args.command] if args.command is not None else [args.target]
    if args.algorithm != "perceptron":
        words += ["--algorithm", args.algorithm]
    if args.sklearn is not None:
        words += ["--sklearn", args.sklearn]
    words += ["--examples", str(args.examples), "--seed", str(args.seed), *semantics.options()]
    if args.call_timeout != 30.0:
        words += ["--call-timeout", f"{args.call_timeout:g}"]
    first = (report.bugs + report.errors)[:1]
    if first and first[0].family_id:
        words += ["--families", first[0].family_id]
    elif args.families is not None:
        words += ["--families", args.families]
    return " ".join(shlex.quote(w) for w in words)


def run(args: argparse.Namespace) -> int:
    from novikoff.fuzz.harness import check_implementation, load_callable, select_families, sklearn_fit
    from novikoff.fuzz.protocol import request_version
    from novikoff.fuzz.worker import CommandRunner
    from novikoff.runtime.executors import parse_executor

    executor = parse_executor(args.executor)
    if args.impl is not None:
        if args.target is not None or args.command is not None:
            raise InputError("--impl runs a named implementation: give no MODULE:CALLABLE and no --command")
        if args.sklearn is not None:
            raise InputError("--sklearn adapts a Python estimator class, not --impl")
        args.command = _impl_command(args.impl)
    if (args.target is None) == (args.command is None):
        raise InputError("diff: give MODULE:CALLABLE or --command 'CMD ...' (exactly one)")
    if args.sklearn is not None and args.algorithm != "perceptron":
        raise InputError("--sklearn adapts perceptron estimators only (use --algorithm perceptron)")
    if args.sklearn is not None and args.command is not None:
        raise InputError("--sklearn adapts a Python estimator class, not a --command")
    semantics = _semantics(args)
    families = _families(args.families)
    select_families(args.algorithm, families)  # unknown names: a usage error before any call
    timeout = args.call_timeout or None
    params = _sklearn_params(args.sklearn) if args.sklearn is not None else {}
    fit: Any
    if args.command is not None:
        fit = CommandRunner(args.command, semantics, timeout)
    else:
        target = load_callable(args.target)
        if args.sklearn is not None:
            _check_estimator(target, args.target, params)
        fit = sklearn_fit(target, **params) if args.sklearn is not None else target
    with phase("the differential test"):
        if executor.kind == "local":
            report = check_implementation(
                fit,
                args.algorithm,
                examples=args.examples,
                seed=args.seed,
                call_timeout=timeout,
                semantics=semantics,
                families=families,
            )
        else:
            from novikoff.fuzz.shards import run_diff_shards

            sklearn = params if args.sklearn is not None else None
            report = run_diff_shards(
                executor,
                args.target,
                sklearn,
                args.algorithm,
                args.examples,
                args.seed,
                timeout,
                "",
                command=args.command,
                semantics=semantics,
                families=families,
            )
    report.repro = _reproduce(args, semantics, report)
    if args.json:
        print(
            dumps(
                {
                    "ok": report.ok,
                    "examples": report.examples,
                    "agreed": report.agreed,
                    "bugs": [f.to_json() for f in report.bugs[:5]],
                    "ambiguous": len(report.ambiguous),
                    "errors": [f.message for f in report.errors[:5]],
                    "error_findings": [f.to_json() for f in report.errors[:5]],
                    "unsupported": report.unsupported,
                    "timeouts": report.timeouts,
                    "not_run": report.not_run,
                    "families": [c.to_json() for c in report.families],
                    "semantics": semantics.placeholders(),
                    "protocol_version": request_version(args.algorithm, semantics, semantics.order)
                    if args.command is not None
                    else None,
                    "reproduce": report.repro,
                }
            )
        )
    else:
        print(report.summary())
    return 0 if report.ok else 1
