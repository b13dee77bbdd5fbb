"""``novikoff prove EXPR``: decide a proposed bound (proved by the kernel, refuted, or open)."""

from __future__ import annotations

import argparse
from typing import Any

from novikoff.commands.options import add_bound_limits, add_time_limit, bound_limits, int_arg, positive_int
from novikoff.errors import InputError
from novikoff.exact.rational import format_rational, parse_rational
from novikoff.runtime.jsonout import dumps
from novikoff.runtime.limits import phase

__all__ = ["register", "run"]


def register(sub: Any) -> None:
    """Add the sub-parser to ``sub`` (argparse's subparsers action); its handler is :func:`run`."""
    pr = sub.add_parser(
        "prove",
        help="decide a proposed bound on the updates: proved (Coq), refuted (a counterexample) or open",
        description="EXPR is a bound in falsify's grammar. Exit 0 when it is proved (an exact "
        "certificate that EXPR >= the kernel-checked bound everywhere, and a Coq file applying the run "
        "theorem that coqc accepted), 4 when proved by the Python checker only (no coqc, or --no-coq), "
        "1 when refuted (a counterexample written to --out), 3 when open (neither), 2 on bad input or "
        "a claim prove does not decide yet (--nonseparable).",
    )
    pr.add_argument("expr", metavar="EXPR")
    pr.add_argument(
        "--algorithm",
        default="perceptron",
        choices=["perceptron", "pdm", "pfm", "multiclass", "averaged", "voted", "romma"],
        help="as for falsify; romma: the claim is on ROMMA's mistakes under both rules (conservative, "
        "and aggressive at every eps >= 0: the Coq theorem quantifies over the rule), refuted by a "
        "conservative run",
    )
    pr.add_argument(
        "--nonseparable",
        action="store_true",
        help="refused: claims on non-separable data (the Freund-Schapire bound) are not decided yet",
    )
    pr.add_argument(
        "--epsilons",
        metavar="E1,E2,...",
        help="pdm: make the claim for these eps values only (default: every eps in (0, 1])",
    )
    pr.add_argument(
        "--examples", type=positive_int, default=100, metavar="N", help="falsifier examples (default 100)"
    )
    pr.add_argument("--seed", type=int_arg, default=0, metavar="S", help="the falsifier's seed")
    pr.add_argument("--json", action="store_true", help="one JSON object on stdout")
    pr.add_argument(
        "--out", default="counterexample.csv", metavar="FILE", help="where a counterexample is written"
    )
    pr.add_argument(
        "--coq-out",
        default="proposed_bound.v",
        metavar="FILE",
        help="where the Coq file of a proved bound is written (default proposed_bound.v)",
    )
    pr.add_argument(
        "--no-coq", action="store_true", help="do not run coqc (proved by the Python checker only)"
    )
    add_bound_limits(pr)
    add_time_limit(pr, 900)
    pr.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from novikoff.prove import prove_bound

    epsilons = None
    if args.epsilons is not None:
        epsilons = [parse_rational(e.strip()) for e in args.epsilons.split(",") if e.strip()]
        if not epsilons:
            raise InputError("--epsilons: no values")
    with phase("the proof"):
        v = prove_bound(
            args.expr,
            args.algorithm,
            nonseparable=args.nonseparable,
            epsilons=epsilons,
            examples=args.examples,
            seed=args.seed,
            limits=bound_limits(args),
            coq=not args.no_coq,
        )
    out: dict[str, Any] = {
        "verdict": v.verdict,
        "algorithm": v.algorithm,
        "bound": v.bound_text,
        "known_bound": v.known_text,
        "inequality": v.inequality,
        "domain": v.domain,
        "cpu_seconds": round(v.seconds, 3),
    }
    lines = [v.summary()]
    if v.verdict == "proved" and v.coq_text is not None:
        _write(args.coq_out, v.coq_text, "--coq-out")
        out.update(
            coq_file=args.coq_out,
            coq_checked=v.coq_checked,
            ratio=None if v.ratio is None else str(v.ratio),
            certificates=[c.as_dict() for c in v.certificates],
        )
        lines.append(f"  Coq file written to {args.coq_out}")
    elif v.verdict == "refuted":
        ce = v.counterexample
        try:
            ce.write_csv(args.out)
        except OSError as exc:
            raise InputError(f"--out {args.out}: {exc.strerror or exc}") from None
        values = ", ".join(f"{k} = {format_rational(x)}" for k, x in ce.values.items())
        out.update(
            counterexample=args.out,
            source=ce.source,
            updates=ce.updates,
            bound_value=ce.bound_value,
            values={k: format_rational(x) for k, x in ce.values.items()},
            replay=ce.replay_command(args.out),
        )
        lines.append(
            f"  {ce.updates} updates > bound = {ce.bound_value} ({ce.source}); {values}\n"
            f"  dataset written to {args.out}; replay: {ce.replay_command(args.out)}"
        )
    else:
        out.update(
            reasons=v.reasons,
            examples=v.examples,
            best_ratio=None if v.best_ratio is None else round(v.best_ratio, 6),
        )
    print(dumps(out) if args.json else "\n".join(lines))
    return v.exit_code


def _write(path: str, text: str, option: str) -> None:
    from pathlib import Path

    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise InputError(f"{option} {path}: {exc.strerror or exc}") from None
