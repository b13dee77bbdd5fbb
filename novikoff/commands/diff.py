"""``novikoff diff MODULE:CALLABLE``: differential-test an implementation against the exact reference."""

from __future__ import annotations

import argparse
from typing import Any

from novikoff.commands.options import add_time_limit, int_arg, positive_int, seconds_arg
from novikoff.errors import InputError
from novikoff.jsonout import dumps
from novikoff.limits import phase
from novikoff.rational import format_rational

__all__ = ["register", "run"]


def register(sub: Any) -> None:
    """Add the sub-parser to ``sub`` (argparse's subparsers action); its handler is :func:`run`."""
    df = sub.add_parser(
        "diff",
        help="differential-test a perceptron implementation against the exact reference",
        description="MODULE:CALLABLE is fit(X, y, max_epochs=, order=) (docs/howto/diff.md), or with "
        "--sklearn an estimator class such as sklearn.linear_model:Perceptron. Exit 0 if no bug was "
        "found (rounding ambiguities are reported, not failed), 1 on a bug, 2 on usage errors.",
    )
    df.add_argument("target", metavar="MODULE:CALLABLE")
    df.add_argument(
        "--algorithm",
        default="perceptron",
        choices=["perceptron", "pdm", "pfm", "averaged", "voted", "multiclass"],
        help="pdm calls fit(..., eps=E), pfm fit(..., beta=B); averaged expects the average of the "
        "weights after every presentation, voted a mapping with voters = [(weights, count), ...]; "
        "multiclass passes y as class indices 0..K-1 and expects K x (d + 1) weights",
    )
    df.add_argument("--examples", type=positive_int, default=50, metavar="N", help="examples per data family")
    df.add_argument("--seed", type=int_arg, default=0, metavar="S")
    df.add_argument("--json", action="store_true")
    df.add_argument("--sklearn", metavar="PARAMS", help='estimator parameters, e.g. "shuffle=False,tol=None"')
    df.add_argument(
        "--call-timeout",
        type=seconds_arg,
        default=30.0,
        metavar="SECONDS",
        help="one call of the implementation may take this long; a call that does not return is an "
        "error finding, and the implementation is not called again (0 = no limit; default 30)",
    )
    df.add_argument(
        "--executor",
        default="local",
        metavar="local|dask://HOST:PORT",
        help="local (default): the data families one after another in this process; dask://HOST:PORT: "
        "one task per family on that Dask cluster (MODULE must be importable there), the first "
        "bug cancels the rest",
    )
    add_time_limit(df, 3600)
    df.set_defaults(handler=run)


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


def run(args: argparse.Namespace) -> int:
    from novikoff.executors import parse_executor
    from novikoff.fuzz.harness import check_implementation, load_callable, sklearn_fit

    executor = parse_executor(args.executor)
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
        if executor.kind == "local":
            report = check_implementation(
                fit,
                args.algorithm,
                examples=args.examples,
                seed=args.seed,
                repro=repro,
                call_timeout=args.call_timeout or None,
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
                args.call_timeout or None,
                repro,
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
