"""``novikoff run --algorithm msvmav``: the margin-distribution optimizer, exact or fast."""

from __future__ import annotations

import argparse
import time
from fractions import Fraction

from novikoff.commands.options import load_data, rational_option
from novikoff.commands.weights import write_weights
from novikoff.errors import InputError
from novikoff.exact.approx import show, show_ratio_sqrt
from novikoff.exact.rational import format_rational
from novikoff.runtime.jsonout import float_or_none, print_json

__all__ = ["msvmav_command"]


def msvmav_command(args: argparse.Namespace) -> int:
    """MSVMAv: the exact-with-mpmath reference (default) or the Sherman-Morrison twin (--fast)."""
    from novikoff.reference.margin_stats import margin_statistics
    from novikoff.reference.msvmav import run_msvmav, validate_positive
    from novikoff.twins.msvmav import msvmav_twin

    for option in ("epsilon", "epsilons", "soft_margin"):
        if getattr(args, option) is not None:
            raise InputError(f"--{option.replace('_', '-')} does not apply to --algorithm msvmav")
    alpha_given = rational_option(args.alpha, "--alpha") if args.alpha is not None else 1
    alpha = validate_positive(alpha_given, "--alpha")
    beta = validate_positive(rational_option(args.beta, "--beta") if args.beta is not None else 1, "--beta")
    for option, value in (("--alpha", alpha), ("--beta", beta)):
        f = float_or_none(value)
        if f is None or f == 0:
            raise InputError(
                f"{option} {show(value)}: outside the float64 range that MSVMAv's weights are computed in"
            )
    ds = load_data(args)
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
    if args.weights_out:
        what = f"novikoff run msvmav on {ds.name}"
        write_weights(args.weights_out, [Fraction(v) for v in weights], what)
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
