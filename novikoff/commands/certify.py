"""``novikoff certify DATA``: the exact certificate, the Novikoff bound and a checked exact run.

On data that are not separable, beside the Gordan certificate: the Freund-Schapire bound
(:func:`novikoff.reference.nonseparable.nonseparable_bound`) over the run's passes, checked
exactly on the run after every pass.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import sys
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from novikoff.certificates import Certificate, SeparableCertificate, certificate_document, certify, to_json
from novikoff.commands.kernel import add_kernel_argument, kernel_certify
from novikoff.commands.options import add_data_options, add_run_bounds, load_data, printable, write_file
from novikoff.data.dataset import Dataset
from novikoff.errors import InputError
from novikoff.exact.approx import show
from novikoff.exact.rational import (
    RationalVector,
    format_rational,
    format_vector,
    rational_text,
    vector_texts,
)
from novikoff.runtime.jsonout import float_or_none, print_json
from novikoff.runtime.limits import phase
from novikoff.runtime.runlog import DEFAULT_RECORD, RunBounds, record_json, stop_text, stopped_by, write_trace
from novikoff.runtime.runs import Order, RunRecord, parse_order

if TYPE_CHECKING:
    from novikoff.certificates.solver import GeometricMarginStarted
    from novikoff.reference.nonseparable import NonseparableBound

__all__ = ["certify_report", "nonseparable_json", "register", "run", "run_epochs"]


def register(sub: Any) -> None:
    """Add the sub-parser to ``sub`` (argparse's subparsers action); its handler is :func:`run`."""
    c = sub.add_parser(
        "certify",
        help="exact margin certificate, Novikoff bound and a checked exact perceptron run",
        description="Certify separability of DATA exactly and run the exact perceptron, checking "
        "N1-N3 at every update; on non-separable data, the Freund-Schapire mistake bound over the "
        "run's passes, checked exactly on the run. DATA is a CSV or LIBSVM file, a directory or a "
        "glob of shard files (their samples in file-name order), or example:NAME "
        "(exercise-6.1, textbook-6.6:SEP, t1:N, t1-rotated:N[:SEED], xor).",
    )
    c.add_argument("data", metavar="DATA")
    add_data_options(c)
    c.add_argument("--order", type=str, default="natural", help="natural (default) or shuffle:SEED")
    c.add_argument("--json", action="store_true", help="print one JSON object")
    c.add_argument("--plot", metavar="FILE.png", help="draw the squeeze figure of the run")
    c.add_argument(
        "--coq",
        metavar="FILE.v",
        help="write a Coq file holding the data as read that checks this certificate by "
        "computation and proves updates <= floor(R^2/gamma^2) in every order (separable data), "
        "or that no weight vector separates the data (a Gordan certificate); with --kernel, "
        "the kernel perceptron's bound (or its Gordan certificate) in feature space",
    )
    c.add_argument(
        "--verified",
        action="store_true",
        help="replay the exact run with the perceptron extracted from Coq (proved equal to the run "
        "the theorems speak of; docs/verified-reference.md) and report whether the two agree; exit 1 "
        "if they do not. Needs coqc, OCaml and Zarith; built once and cached",
    )
    c.add_argument(
        "--certificate",
        metavar="FILE.json",
        help="write the certificate and the exact run as a certificate file "
        "(docs/reference/certificate-format.md); anyone can check it with: novikoff check DATA FILE.json",
    )
    c.add_argument(
        "--executor",
        default="local",
        metavar="local|dask://HOST:PORT",
        help="where DATA is read and certified: this machine (default), or the workers of a Dask "
        "cluster, each reading its shards (docs/howto/distributed.md, Certify beyond one machine)",
    )
    add_kernel_argument(c)
    add_run_bounds(c)
    c.set_defaults(handler=run)


def certify_report(
    ds: Dataset,
    cert: Certificate,
    run: RunRecord,
    vectors: bool = True,
    record: int = DEFAULT_RECORD,
    stopped: str | None = None,
    nonseparable: NonseparableBound | None = None,
) -> dict[str, Any]:
    """The JSON contract of ``novikoff certify --json`` (docs/reference/contract.md).

    ``vectors=False`` leaves out the per-sample and per-coordinate lists (lambda,
    weights, p*, updates), which the readable summary does not show. Guarantees: at
    most ``2 record`` updates are listed (the first and last ``record``, and how many
    were left out between them); a ``*_float`` field is null when its exact value
    (beside it) does not fit a float64. With ``nonseparable``, the object
    ``"nonseparable_bound"`` (:func:`nonseparable_json`).
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
        if vectors:  # the same numbers as "lambda", all as strings
            out["gordan"]["lambda"] = vector_texts(cert.lambdas)
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
        out["perceptron"]["weights"] = format_vector(run.weights)
    if nonseparable is not None:
        out["nonseparable_bound"] = nonseparable_json(nonseparable)
    return out


def nonseparable_json(fs: NonseparableBound) -> dict[str, Any]:
    """The ``"nonseparable_bound"`` object: exact values as strings (``"p"`` or ``"p/q"``): the
    direction ``u``, ``gamma`` in the units of u.z_i, the normalized ``gamma2`` = gamma^2/||u||^2,
    ``deviation2``, ``R2``; floats ``gamma_float`` (normalized gamma) and ``bound_float``
    (((R + D)/gamma)^2, null beyond float64); ``passes``, ``mistakes`` and ``order``."""
    return {
        "u": vector_texts(fs.u),
        "gamma": rational_text(fs.gamma),
        "gamma2": rational_text(fs.gamma2),
        "gamma_float": fs.gamma_float,
        "deviation2": rational_text(fs.deviation2),
        "R2": rational_text(fs.R2),
        "bound_float": fs.bound_float,
        "passes": fs.passes,
        "mistakes": fs.mistakes,
        "order": fs.order,
    }


def _vector_json(vec: RationalVector) -> list[int | str]:
    """Exactly ``[format_rational(v) for v in vec]`` (:func:`~novikoff.exact.rational.format_vector`)."""
    return format_vector(vec)


def _float_text(value: float | None) -> str:
    return "beyond float64" if value is None else f"{value:.6g}"


def _nonseparable_lines(fs: NonseparableBound) -> list[str]:
    shown = _float_text(fs.bound_float)
    u = "(" + ", ".join(str(format_rational(v)) for v in fs.u) + ")"
    if len(u) > 60:
        u = f"a direction in {len(fs.u)} coordinates (--json lists it)"
    gamma = str(format_rational(fs.gamma))
    if len(gamma) > 40:
        gamma = show(fs.gamma)
    plural = "" if fs.passes == 1 else "es"
    return [
        f"  Freund-Schapire bound over {fs.passes} pass{plural}: {fs.mistakes} "
        f"mistake{'' if fs.mistakes == 1 else 's'} <= ((R + D)/gamma)^2 = {shown} "
        f"(checked exactly after every pass)",
        f"    u = {u}, gamma = {gamma} (margins u.z_i; normalized {_float_text(fs.gamma_float)}), "
        f"D^2 = {show(fs.deviation2)}",
    ]


def run_epochs(bounds: RunBounds, samples: int, sep: SeparableCertificate | None) -> tuple[int, bool]:
    """``(epochs, proven)``: the epochs the exact run may take. On separable data whose
    Novikoff bound R^2/gamma^2 is at most ``--max-updates``, N3 itself keeps the run within
    that many updates, so it gets ``--max-epochs`` (at most floor(bound) + 1 are ever used:
    each epoch but the clean last one makes an update) and ``proven`` is True; otherwise
    :meth:`RunBounds.epoch_cap` (``--max-updates`` N allows N // m whole epochs)."""
    if sep is not None and sep.bound <= bounds.max_updates:
        return min(bounds.max_epochs, math.floor(sep.bound) + 1), True
    return bounds.epoch_cap(samples), False


def _summary(
    report: dict[str, Any], cert: Certificate, run: RunRecord, order: str, stop_note: str = ""
) -> str:
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
    status = "converged" if run.converged else f"did NOT converge (stopped by {stop_note})"
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


def _check_output_path(path: str, option: str) -> None:
    """InputError (naming ``option``) unless ``path`` can be a file in an existing directory."""
    target = Path(path)
    if target.is_dir() or not target.parent.is_dir():
        raise InputError(f"{option} {path}: not a file in an existing directory")


def _write_coq_certificate(path: str, ds: Dataset, cert: Certificate) -> None:
    """Write the Coq file of ``--coq``: the bound for separable data, the Gordan certificate
    (no weight vector separates the data) otherwise."""
    from novikoff.coq.dataset_certificate import certificate_to_coq, gordan_to_coq

    text = certificate_to_coq(ds, cert) if isinstance(cert, SeparableCertificate) else gordan_to_coq(ds, cert)
    Path(path).write_text(text, encoding="utf-8")


def run(args: argparse.Namespace) -> int:
    order = parse_order(args.order)
    if args.plot is not None:
        from novikoff.integrations.plot import check_plot_path

        check_plot_path(args.plot)
    if args.coq is not None:
        _check_coq_path(args.coq)
    if args.certificate is not None:
        _check_output_path(args.certificate, "--certificate")
    if args.verified:
        _check_verified(args)
    from novikoff.commands.certify_sharded import (
        Reporting,
        certify_sharded,
        names_shards,
        read_shards,
        sharded,
    )

    if sharded(args.executor):  # the shards are read and worked on by Dask workers
        return certify_sharded(args, order, Reporting(certify_report, run_epochs, stop_text))
    with phase("reading the data"):
        # a directory or glob of shards is read here as their concatenation
        ds = read_shards(args) if names_shards(args.data) else load_data(args)
    if args.kernel is not None:
        status, report, text = kernel_certify(args, ds)
        print_json(report) if args.json else print(text)
        return status
    if ds.n_samples * ds.dimension < _ONE_BLAS_THREAD_SIZE:
        return _certify_and_run(args, ds, order)
    from novikoff.exact.bigdot import one_blas_thread

    # this command keeps both cores busy with its own processes (the geometric margin and
    # half the checker run in forked children): BLAS threads would only spin beside them
    # (0.4 s of CPU on vec400); the children inherit the limit
    with one_blas_thread():
        return _certify_and_run(args, ds, order)


_ONE_BLAS_THREAD_SIZE = 100_000  # samples x pattern length from which certify forks helpers


def _check_verified(args: argparse.Namespace) -> None:
    """--verified is refused, before any work, where it cannot be done (exit 2 naming why)."""
    if args.kernel is not None:
        raise InputError("--verified replays the linear perceptron's run; it does not apply to --kernel")
    if args.executor != "local":
        raise InputError("--verified replays the run on this machine; it does not apply to --executor dask")
    from novikoff.extracted import unavailable

    why = unavailable()
    if why is not None:
        raise InputError(f"--verified: the extracted perceptron cannot be built here: {why}")


def _verified_replay(ds: Dataset, run: RunRecord, order: Order, epochs: int) -> Any:
    """The extracted program's replay of ``run`` (a :class:`novikoff.extracted.Replay`)."""
    from novikoff.extracted import ExtractedError, replay

    with phase("the verified replay"):
        try:
            return replay(ds, run, order=order, max_epochs=epochs)
        except ExtractedError as exc:
            raise InputError(f"--verified: {exc}") from None


def _whole(main: Certificate, geometric: GeometricMarginStarted) -> Certificate:
    """``main`` with the geometric margin attached, as :func:`certify` returns it."""
    geo = geometric.result()
    return (
        main
        if geo is None or not isinstance(main, SeparableCertificate)
        else dataclasses.replace(main, geometric=geo)
    )


def _certify_and_run(args: argparse.Namespace, ds: Dataset, order: Order) -> int:
    """The rest of :func:`run` once the data are read: certificate, run, report."""
    from novikoff.certificates.checker import prepare_checker, release_checker
    from novikoff.certificates.solver import GeometricMarginStarted
    from novikoff.twins.exact import exact_perceptron

    with phase("the exact certificate"):
        if ds.n_samples * ds.dimension >= _ONE_BLAS_THREAD_SIZE:
            prepare_checker(ds)  # one FLINT matrix for both certificates' checks and their forks
        try:
            # the geometric margin starts as soon as the main certificate's float guess is known,
            # seeded with it, on the other core (large data) beside the exact work and the run;
            # on data that are not separable (the class hulls meet) its child is killed at once
            started: list[GeometricMarginStarted] = []
            main = certify(  # checked
                ds,
                geometric=False,
                on_guess=lambda w: started.append(GeometricMarginStarted(ds, seed_weights=w)),
            )
            geometric = started[0] if started else GeometricMarginStarted(ds, seed=main)
            if not isinstance(main, SeparableCertificate):
                geometric.cancel()
            whole = _whole(main, geometric) if args.coq is not None else None  # a Coq file from the whole
        finally:
            release_checker()  # forked children keep their copy
    sep = main if isinstance(main, SeparableCertificate) else None
    if whole is not None:
        _write_coq_certificate(args.coq, ds, whole)
    bounds = RunBounds(args.max_epochs, args.max_updates)
    epochs, proven = run_epochs(bounds, ds.n_samples, sep)
    # the exact fast path: identical to the reference's run (differential-tested), N1-N3
    # checked at every update in integer form; at most one update per presentation
    with phase("the exact perceptron run"):
        run = exact_perceptron(
            ds,
            order=order,
            max_epochs=epochs,
            certificate=sep,
            track_norms=bool(args.plot),
        )
    if whole is None:
        if args.json or args.certificate is not None:  # the texts they print, while the margin may run
            for vec in (main.lambdas, *((sep.pstar, sep.weights) if sep is not None else ())):
                vec.texts()
        with phase("the exact certificate"):  # the geometric margin, found and checked beside the run
            whole = _whole(main, geometric)
    cert: Certificate = whole
    stopped = stopped_by(run.converged, run.epochs, bounds, ds.n_samples, capped=not proven)
    fs = None
    if sep is None and ds.dimension > 0:  # without coordinates there is no direction u
        from novikoff.reference.nonseparable import nonseparable_bound

        with phase("the Freund-Schapire bound"):
            fs = nonseparable_bound(ds, order=order, run=run)
    report = certify_report(
        ds, cert, run, vectors=args.json, record=args.record, stopped=stopped, nonseparable=fs
    )
    if args.coq:
        report["coq_file"] = args.coq
    verified = _verified_replay(ds, run, order, epochs) if args.verified else None
    if verified is not None:
        report["verified_replay"] = verified.to_json()
    if args.certificate is not None:
        document = certificate_document(
            ds, cert, run, "natural" if order is None else str(order), None if fs is None else fs.claim()
        )
        write_file(args.certificate, to_json(document), "--certificate")
        report["certificate_file"] = args.certificate
    if args.trace:
        write_trace(args.trace, run.updates)
    if args.plot:
        from novikoff.integrations.plot import plot_squeeze

        bound = f"R^2/gamma^2 = {show(sep.bound, 4)}" if sep else "not separable"
        title = f"{Path(ds.name).name}: {run.mistakes} updates, {bound}"
        plot_squeeze(args.plot, run.norm2_history, cert.R2, sep.gamma2 if sep else None, title)
    if args.json:
        print_json(report)
    else:
        print(_summary(report, cert, run, args.order, stop_text(stopped, bounds, ds.n_samples)))
        if fs is not None:
            print("\n".join(_nonseparable_lines(fs)))
        if args.plot:
            print(f"  squeeze figure written to {args.plot}")
        if args.coq:
            print(f"  Coq file written to {args.coq} (compile: coqc -R BUILT_DEVELOPMENT Novikoff FILE)")
        if args.certificate is not None:
            print(
                f"  certificate written to {args.certificate} (check: novikoff check DATA {args.certificate})"
            )
        if verified is not None:
            print(f"  {verified.summary()}")
    if verified is not None and not verified.agrees:
        print(printable(f"novikoff: {verified.summary()}"), file=sys.stderr, flush=True)
        return 1
    return 0
