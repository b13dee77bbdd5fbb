"""``novikoff margins DATA --weights FILE``: exact margin statistics of a linear model."""

from __future__ import annotations

import argparse
from fractions import Fraction
from typing import Any

from novikoff.commands.options import add_data_options, load_data
from novikoff.errors import InputError, InvariantViolation
from novikoff.exact.approx import show, show_ratio_sqrt
from novikoff.exact.rational import format_rational, parse_rational
from novikoff.runtime.jsonout import print_json

__all__ = ["MAX_WEIGHTS_BYTES", "read_weights", "register", "run"]

#: Weights files larger than this are refused (d + 1 numbers of at most 10,000 digits each).
MAX_WEIGHTS_BYTES = 256 << 20


def read_weights(path: str) -> list[Fraction]:
    """Numbers separated by commas, spaces or newlines (read exactly; '#' starts a comment).

    Guarantees: the exact values, or InputError naming ``--weights``, the file and the line.
    """
    from novikoff.runtime.bounded import read_text

    try:
        text = read_text(path, MAX_WEIGHTS_BYTES)  # at most that many bytes, whatever st_size says
    except InputError as exc:
        raise InputError(f"--weights {exc}") from None
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


def register(sub: Any) -> None:
    """Add the ``margins`` sub-parser to ``sub``; its handler is :func:`run`."""
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
    mg.set_defaults(handler=run)


def _min_margin(stats: Any) -> str:
    """The smallest margin u_i/||w||, shown from the exact u_i (any magnitude)."""
    return show_ratio_sqrt(min(stats.scaled_margins), stats.w_norm2)


def run(args: argparse.Namespace) -> int:
    """Exact margin statistics of the weights on DATA (S1 checked per sample and on the mean)."""
    from novikoff.reference.margin_stats import margin_statistics
    from novikoff.spec import S1

    if args.plot is not None:
        from novikoff.integrations.plot import check_plot_path

        check_plot_path(args.plot)
    ds = load_data(args)
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
        from novikoff.integrations.plot import plot_margin_cdf

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
