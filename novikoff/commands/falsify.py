"""``novikoff falsify EXPR``: search for data on which an algorithm exceeds a proposed bound."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from novikoff.commands.diff import fuzz_names
from novikoff.commands.options import (
    add_bound_limits,
    add_time_limit,
    bound_limits,
    int_arg,
    positive_int,
    printable,
)
from novikoff.errors import InputError
from novikoff.exact.rational import format_rational, parse_rational
from novikoff.runtime.jsonout import dumps
from novikoff.runtime.limits import phase

__all__ = ["register", "run"]


def register(sub: Any) -> None:
    """Add the sub-parser to ``sub`` (argparse's subparsers action); its handler is :func:`run`."""
    fz = sub.add_parser(
        "falsify",
        help="search for a dataset on which the perceptron makes more updates than a proposed bound",
        description="EXPR bounds the number of updates over R, gamma, R2, gamma2, m, d with + - * / ** "
        "and floor, ceil, sqrt, log, exp, min, max; with --nonseparable it bounds the mistakes in T "
        "passes over non-separable data and may use D, D2 and T too. Exit 1 when a counterexample is "
        "found (written to --out), 0 when none was found in the examples tried (never a proof), 2 on a "
        "malformed EXPR.",
    )
    fz.add_argument("expr", metavar="EXPR")
    fz.add_argument(
        "--algorithm",
        default="perceptron",
        choices=fuzz_names(),
        help="the algorithms of the registry that falsify tests; pdm adds the symbol eps, pfm adds beta "
        "and eps = 1 - beta/gamma, multiclass adds K (gamma is then the Kesler margin); averaged and "
        "voted bound the underlying perceptron's updates, romma conservative ROMMA's",
    )
    fz.add_argument(
        "--nonseparable",
        action="store_true",
        help="a non-separable campaign (perceptron only): EXPR bounds the mistakes in T passes and may "
        "also use D, D2 (the Freund-Schapire deviation) and T; it is evaluated at the direction u and "
        "margin gamma of the best Freund-Schapire bound found for each dataset "
        "(docs/howto/falsify.md)",
    )
    fz.add_argument(
        "--epsilons",
        metavar="E1,E2,...",
        help="the eps values drawn for pdm (and for pfm's beta = (1 - eps) gamma); "
        "default 1,3/4,1/2,1/3,1/10 (pdm) and 1,3/4,1/2,1/4,1/10 (pfm)",
    )
    fz.add_argument(
        "--examples", type=positive_int, default=200, metavar="N", help="Hypothesis examples in all"
    )
    fz.add_argument("--seed", type=int_arg, default=0, metavar="S", help="worker i uses seed S + i")
    fz.add_argument("--json", action="store_true", help="one JSON object on stdout, no progress display")
    fz.add_argument(
        "--database",
        metavar="DIR|redis://HOST:PORT/DB|none",
        help="example database: counterexamples are saved there and replayed first "
        "(default $NOVIKOFF_DATABASE or .novikoff/examples)",
    )
    fz.add_argument(
        "--workers",
        type=positive_int,
        default=1,
        metavar="N",
        help="shards sharing the database (worker processes here, or tasks on --executor)",
    )
    fz.add_argument(
        "--executor",
        default="local",
        metavar="local|dask://HOST:PORT",
        help="where the --workers shards run: processes on this machine (default) or a Dask "
        "cluster's workers (docs/howto/distributed.md); the first counterexample cancels the rest",
    )
    fz.add_argument(
        "--out",
        default="counterexample.csv",
        metavar="FILE",
        help="where a counterexample is written (default counterexample.csv)",
    )
    add_bound_limits(fz)
    add_time_limit(fz, 3600)
    fz.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from novikoff.fuzz.database import default_database
    from novikoff.fuzz.falsify import falsify, order_to_json, stderr_progress
    from novikoff.runtime.executors import parse_executor

    executor = parse_executor(args.executor)
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
            executor=executor,
            nonseparable=args.nonseparable,
            progress=stderr_progress() if show else None,
            limits=bound_limits(args),
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
    fs = ce.header().get("nonseparable")
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
                    **({} if fs is None else {"nonseparable": fs}),
                }
            )
        )
    else:
        values = ", ".join(f"{k} = {format_rational(v)}" for k, v in ce.values.items())
        if fs is not None:
            u = "(" + ", ".join(fs["u"]) + ")"
            if len(u) > 60:
                u = f"a direction in {len(fs['u'])} coordinates (in the file's header)"
            print(
                f"COUNTEREXAMPLE ({ce.source}): {ce.updates} mistakes of the perceptron in "
                f"{fs['passes']} pass{'' if fs['passes'] == 1 else 'es'} > bound {result.bound} = "
                f"{ce.bound_value}\n  {values}; order {order}\n"
                f"  at u = {u}, gamma = {fs['gamma']} (margins u.z_i)\n"
                f"  dataset written to {args.out}; replay: {replay}"
            )
        else:
            print(
                f"COUNTEREXAMPLE ({ce.source}): {ce.updates} updates of "
                f"{ce.setting.describe(ce.values['gamma2'])} > bound {result.bound} = {ce.bound_value}\n"
                f"  {values}; order {order}\n  dataset written to {args.out}; replay: {replay}"
            )
    what = "mistakes" if fs is not None else "updates"
    print(  # every non-zero exit says why on stderr too, on one line
        printable(
            f"novikoff: counterexample: {ce.updates} {what} > bound {result.bound} {ce.bound_value}; "
            f"written to {args.out}"
        ),
        file=sys.stderr,
        flush=True,
    )
    return 1
