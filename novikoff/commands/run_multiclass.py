"""``novikoff run --algorithm multiclass``: Kesler's construction, the exact certificate, M1."""

from __future__ import annotations

import argparse
import time
from fractions import Fraction
from typing import Any

from novikoff.certificates import SeparableCertificate, certify
from novikoff.commands.options import stop_text
from novikoff.commands.weights import weights_json, write_weights
from novikoff.errors import InputError
from novikoff.exact.approx import show
from novikoff.exact.rational import format_rational
from novikoff.runtime.jsonout import print_json
from novikoff.runtime.runlog import RunBounds, record_json, stopped_by, write_trace

__all__ = ["KESLER_CERTIFY_LIMIT", "load_multiclass", "multiclass_command"]


KESLER_CERTIFY_LIMIT = 5_000_000  # Kesler vectors x their dimension; above it the certificate is skipped


def load_multiclass(args: argparse.Namespace) -> Any:
    """DATA for --algorithm multiclass: ``sklearn:iris|wine|digits`` or a CSV file (label column
    as given, its distinct texts are the classes)."""
    from novikoff.data.multiclass import MulticlassData
    from novikoff.data.readers import read_csv_multiclass

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


def _flat(weights: Any) -> list[Any]:
    """The K x D weights as one row-major list (the twin's matrix or the reference's list)."""
    import numpy as np

    return weights.ravel().tolist() if isinstance(weights, np.ndarray) else list(weights)


def _class_rows(fields: dict[str, list[Any]], width: int) -> dict[str, list[list[Any]]]:
    """Every flat weight list of ``fields`` cut into one row of ``width`` values per class."""
    return {k: [v[i : i + width] for i in range(0, len(v), width)] for k, v in fields.items()}


def multiclass_command(args: argparse.Namespace) -> int:
    from novikoff.data.multiclass import kesler
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
            **_class_rows(weights_json(_flat(run.weights), args.fast), data.dimension),
        },
        "training_errors": errors,
        "checks": {"M1 and Kesler N1": f"held at all {run.mistakes} updates"}
        if sep and not args.fast
        else {},
        "seconds": {"certificate": round(t_cert, 4), "run": round(t_run, 4)},
    }
    if args.weights_out:
        what = f"novikoff run multiclass on {data.name} ({data.n_classes} classes)"
        write_weights(args.weights_out, _flat(run.weights), what, row_length=data.dimension)
    if args.json:
        print_json(report)
        return 0
    lines = [
        f"novikoff run: {data.name} ({data.n_samples} samples, {data.n_classes} classes, bias {data.bias})",
        f"  multiclass ({report['mode']}): {run.mistakes} updates in {run.epochs} epochs, "
        + ("converged" if run.converged else f"NOT converged ({stop_text(stopped, args)})"),
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
