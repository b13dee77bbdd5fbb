"""``novikoff certify DATA --kernel poly:DEGREE[:C]``: the certificate and the exact run in feature space.

:func:`add_kernel_argument` adds ``--kernel`` to a parser (the RBF kernel is refused there:
certify is exact, and RBF values are transcendental; the float twin takes it, see
:mod:`novikoff.twins.kernel_perceptron`). :func:`kernel_certify` does the work once the data
are loaded: the exact Gram matrix with K~ = K + rho^2, the checked minimum-norm certificate
in the Gram geometry (gamma^2 > 0: separable in feature space; = 0: the origin is in the
feature-space hull), and the exact dual perceptron with N1-N3 checked after every update, so
its update count is reported beside the Novikoff bound R^2/gamma^2 it provably respects.
With ``--coq FILE.v`` it also writes the Coq file of
:func:`novikoff.coq.dataset_certificate.kernel_certificate_to_coq`: the data as read, the
kernel and the dual certificate, from which Coq computes the kernel values and proves the
bound for the kernel perceptron's run (``KernelCertificate.v``); on data not separable in
feature space, :func:`~novikoff.coq.dataset_certificate.kernel_gordan_to_coq`'s proof that
no dual separator exists.
"""

from __future__ import annotations

import argparse
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from novikoff.data.dataset import Dataset
from novikoff.errors import InputError
from novikoff.exact.approx import show
from novikoff.exact.rational import format_rational
from novikoff.runtime.jsonout import float_or_none
from novikoff.runtime.limits import phase
from novikoff.runtime.runlog import (
    DEFAULT_MAX_UPDATES,
    DEFAULT_RECORD,
    RunBounds,
    record_json,
    stop_text,
    stopped_by,
    write_trace,
)
from novikoff.runtime.runs import parse_order

if TYPE_CHECKING:  # imported when certify --kernel runs, not by the parser (every CLI start builds it)
    from novikoff.certificates.kernel_checker import KernelCertificate
    from novikoff.data.kernels import KernelSpec
    from novikoff.reference.kernel_perceptron import KernelRun

__all__ = [
    "MAX_KERNEL_DIGITS",
    "add_kernel_argument",
    "check_kernel_size",
    "kernel_arg",
    "kernel_certify",
    "kernel_report",
    "kernel_summary",
]

#: certify's options that have no meaning with --kernel (each is refused, exit 2).
_NOT_WITH_KERNEL = (("certificate", "--certificate"), ("plot", "--plot"))


#: A kernel value (x.x' + C)^DEGREE may have at most about this many digits (the contract's
#: limit on numbers): a larger one makes every exact step of the run a huge multiplication.
MAX_KERNEL_DIGITS = 10_000
_LOG10_2 = 0.30103


def _value_digits(degree: int, bits: int) -> int:
    """Decimal digits of a number of ``bits`` bits raised to ``degree`` (an upper estimate)."""
    return int(degree * bits * _LOG10_2) + 1


def kernel_arg(text: str) -> KernelSpec:
    """argparse type of ``--kernel``: a polynomial kernel (ArgumentTypeError otherwise, exit 2)
    whose C^DEGREE alone has at most :data:`MAX_KERNEL_DIGITS` digits (checked before any power
    is computed)."""
    from novikoff.data.kernels import parse_kernel

    try:
        spec = parse_kernel(text)
    except InputError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    if spec.kind == "poly" and spec.c:
        bits = abs(spec.c.numerator).bit_length() + spec.c.denominator.bit_length()
        digits = _value_digits(spec.degree, bits)
        if digits > MAX_KERNEL_DIGITS:
            raise argparse.ArgumentTypeError(
                f"kernel {text[:60]!a}: C^DEGREE would have about {digits} digits, more than "
                f"{MAX_KERNEL_DIGITS} (a smaller DEGREE or a C with fewer digits)"
            )
    return spec


def check_kernel_size(dataset: Dataset, spec: KernelSpec) -> None:
    """InputError when the Gram matrix of ``spec`` on ``dataset`` would hold values of more than
    :data:`MAX_KERNEL_DIGITS` digits (estimated from the largest ||x||^2 and C, before the
    Gram matrix is computed)."""
    if spec.kind != "poly":
        return
    den = dataset.denominator
    top = max((sum(v * v for v in row) for row in dataset.numerators), default=0)
    bits = top.bit_length() + 2 * den.bit_length()
    if spec.c:
        bits += abs(spec.c.numerator).bit_length() + spec.c.denominator.bit_length()
    digits = _value_digits(spec.degree, bits + 1)
    if digits > MAX_KERNEL_DIGITS:
        raise InputError(
            f"--kernel poly:{spec.degree}: kernel values on {dataset.name} would have about {digits} "
            f"digits, more than {MAX_KERNEL_DIGITS} (a smaller DEGREE or C, or smaller data values)"
        )


def add_kernel_argument(parser: argparse.ArgumentParser) -> None:
    """Add ``--kernel poly:DEGREE[:C]`` (default None: the linear certificate)."""
    parser.add_argument(
        "--kernel",
        type=kernel_arg,
        default=None,
        metavar="poly:DEGREE[:C]",
        help="certify in the feature space of K(x, x') = (x.x' + C)^DEGREE (C >= 0 rational, default 1), "
        "with the bias as K + rho^2, and run the exact kernel perceptron (dual form)",
    )


def kernel_certify(args: argparse.Namespace, dataset: Dataset) -> tuple[int, dict[str, Any], str]:
    """Certify ``dataset`` in the feature space of ``args.kernel`` and run the exact kernel perceptron.

    Reads ``args.kernel`` (a KernelSpec or its text), ``order``, ``max_epochs``, ``max_updates``,
    ``record`` and ``trace`` (each optional, with certify's defaults). Returns (exit status 0, the
    JSON object, the readable lines). With ``coq`` (a path) it writes the Coq certificate of the
    bound there (the feature-space Gordan certificate on data not separable in feature space)
    and the report names it (``coq_file``). InputError (exit 2) for a bad kernel or an option
    that has no kernel form (--certificate, --plot); InvariantViolation (exit 1) if the run
    breaks N1-N3 in feature space.
    """
    from novikoff.certificates.kernel_solver import certify_kernel
    from novikoff.data.kernels import KernelSpec, exact_gram, parse_kernel

    for name, option in _NOT_WITH_KERNEL:
        if getattr(args, name, None):
            raise InputError(f"{option} is not available with --kernel (linear certificates only)")
    spec = args.kernel if isinstance(args.kernel, KernelSpec) else parse_kernel(str(args.kernel))
    order_text = getattr(args, "order", "natural") or "natural"
    order = parse_order(order_text)
    bounds = RunBounds(getattr(args, "max_epochs", 1000), getattr(args, "max_updates", DEFAULT_MAX_UPDATES))
    check_kernel_size(dataset, spec)
    with phase("the exact Gram matrix"):
        gram = exact_gram(dataset, spec)
    with phase("the exact kernel certificate"):
        cert = certify_kernel(dataset, spec, gram)
    coq_path = getattr(args, "coq", None)
    if coq_path:
        _write_kernel_coq(coq_path, dataset, spec, cert)
    from novikoff.reference.kernel_perceptron import run_kernel_perceptron

    with phase("the exact kernel perceptron run"):
        run = run_kernel_perceptron(
            dataset,
            spec,
            order=order,
            max_epochs=bounds.epoch_cap(dataset.n_samples),
            certificate=cert,
            gram=gram,
        )
    stopped = stopped_by(run.converged, run.epochs, bounds, dataset.n_samples)
    trace = getattr(args, "trace", None)
    if trace:
        write_trace(trace, run.updates)
    report = kernel_report(
        dataset, cert, run, record=getattr(args, "record", DEFAULT_RECORD), stopped=stopped
    )
    note = stop_text(stopped, bounds, dataset.n_samples)
    text = kernel_summary(report, cert, run, order_text, note)
    if coq_path:
        report["coq_file"] = coq_path
        text += f"\n  Coq file written to {coq_path} (compile: coqc -R BUILT_DEVELOPMENT Novikoff FILE)"
    return 0, report, text


def _write_kernel_coq(path: str, dataset: Dataset, spec: KernelSpec, cert: KernelCertificate) -> None:
    """Write the Coq certificate: the feature-space bound, or (not separable there) the
    feature-space Gordan certificate."""
    from novikoff.commands.options import write_file
    from novikoff.coq.dataset_certificate import kernel_certificate_to_coq, kernel_gordan_to_coq

    write = kernel_certificate_to_coq if cert.separable else kernel_gordan_to_coq
    write_file(path, write(dataset, spec, cert.lambdas), "--coq")


def kernel_report(
    ds: Dataset,
    cert: KernelCertificate,
    run: KernelRun,
    record: int = DEFAULT_RECORD,
    stopped: str | None = None,
) -> dict[str, Any]:
    """The JSON object of ``certify --kernel --json``: the fields of the linear report that apply
    (exact values as strings, ``*_float`` beside them, null when they do not fit a float64), plus
    ``kernel``, ``lambda`` and the run's ``alphas``; at most ``2 record`` updates are listed."""
    out: dict[str, Any] = {
        "dataset": ds.name,
        "kernel": cert.kernel,
        "separable": cert.separable,
        "n_samples": ds.n_samples,
        "n_features": ds.n_features,
        "bias": format_rational(ds.bias),
        "R2": format_rational(cert.R2),
        "R2_float": float_or_none(cert.R2),
        "gamma2": format_rational(cert.gamma2),
        "gamma2_float": float_or_none(cert.gamma2),
        "bound": None if cert.bound is None else format_rational(cert.bound),
        "bound_float": None if cert.bound is None else float_or_none(cert.bound),
        "certificate_checked": True,
        "lambda": [format_rational(v) for v in cert.lambdas],
    }
    rec = record_json(run.updates, record)
    out["perceptron"] = {
        "mistakes": run.mistakes,
        "epochs": run.epochs,
        "converged": run.converged,
        "stopped_by": stopped,
        "within_bound": None if cert.bound is None else run.mistakes <= cert.bound,
        "invariants_checked": run.invariants_checked,
        "alphas": list(run.alphas),
        "updates": rec["first"],
        "updates_last": rec["last"],
        "updates_omitted": rec["omitted"],
    }
    return out


def _row(name: str, value: Fraction) -> str:
    text = str(format_rational(value))
    if len(text) > 40:
        num, _, den = text.partition("/")
        text = f"exact: {len(num.lstrip('-'))}-digit" + (
            f" / {len(den)}-digit rational" if den else " integer"
        )
    return f"  {name:<34} {text:<40} ({show(value)})"


def kernel_summary(
    report: dict[str, Any], cert: KernelCertificate, run: KernelRun, order: str, stop_note: str = ""
) -> str:
    """The readable lines of ``certify --kernel`` (no trailing newline)."""
    lines = [
        f"novikoff certify: {report['dataset']} ({report['n_samples']} samples x {report['n_features']} "
        f"features, bias rho = {report['bias']}), kernel {cert.kernel}",
    ]
    support = sum(1 for v in cert.lambdas.numerators if v)
    if cert.bound is not None:
        lines.append(
            "  separable in feature space: yes (exact minimum-norm point of the Gram hull, re-checked)"
        )
        lines.append(_row("R^2 = max K~(x_i, x_i)", cert.R2))
        lines.append(_row("gamma^2 = lambda^T G lambda", cert.gamma2))
        lines.append(_row("Novikoff bound R^2/gamma^2", cert.bound))
        lines.append(f"  support vectors (lambda > 0): {support} of {report['n_samples']}")
        checks = f"; N1-N3 held at every update ({run.invariants_checked} checks)"
    else:
        lines.append(
            "  separable in feature space: no (lambda^T G lambda = 0: the origin is in the hull, re-checked)"
        )
        lines.append(f"  {support} samples with lambda > 0 combine to the origin in feature space")
        lines.append(_row("R^2 = max K~(x_i, x_i)", cert.R2))
        checks = (
            f"; N2 held at every update ({run.invariants_checked} checks)" if run.invariants_checked else ""
        )
    status = "converged" if run.converged else f"did NOT converge (stopped by {stop_note})"
    mistakes = f"{run.mistakes} mistake{'' if run.mistakes == 1 else 's'}"
    epochs = f"{run.epochs} epoch{'' if run.epochs == 1 else 's'}"
    lines.append(f"  exact kernel perceptron ({order} order): {mistakes} in {epochs}, {status}{checks}")
    return "\n".join(lines)
