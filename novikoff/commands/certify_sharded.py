"""``novikoff certify DATA --executor dask://HOST:PORT``: the certificate, the checked exact run
and (on data that are not separable) the Freund-Schapire bound, for data kept in shards that
the Dask workers read: the driver never holds all the rows.

The steps are those of :func:`novikoff.commands.certify.run` on one machine, each on the
shards (:mod:`novikoff.certificates.sharded`, :mod:`novikoff.commands.sharded_runs`): the
main certificate and its check, the geometric margin and its check, the exact perceptron
(natural order: an epoch is a relay through the shards), the Freund-Schapire bound, the
report (:func:`~novikoff.commands.certify.certify_report`: the ``--json`` contract) and the
certificate file. The certificate and the run are those of ``novikoff certify`` on the
concatenation of the shards, byte for byte; the Freund-Schapire direction may in rare cases
differ (:mod:`novikoff.commands.sharded_runs`), which the summary says
(docs/howto/distributed.md, "Certify beyond one machine").
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from novikoff.certificates import Certificate, SeparableCertificate, certificate_document, to_json
from novikoff.commands.options import write_file
from novikoff.data.dataset import Dataset
from novikoff.errors import InputError
from novikoff.exact.approx import show
from novikoff.runtime.jsonout import print_json
from novikoff.runtime.limits import phase
from novikoff.runtime.runlog import RunBounds, stopped_by, write_trace
from novikoff.runtime.runs import Order

__all__ = ["Reporting", "certify_sharded", "names_shards", "read_shards", "sharded"]

FS_NOTE = (
    "its direction comes from float sums taken shard by shard: in rare cases another u than "
    "on one machine; the bound is exact and checked either way"
)


@dataclass(frozen=True)
class Reporting:
    """What this command shares with the single-machine one, given by
    :func:`novikoff.commands.certify.run` (which imports this module, so not imported here):
    its ``report`` (``certify_report``: the ``--json`` contract), the run's ``epochs``
    (``run_epochs``) and the ``stop`` note (``stop_text``)."""

    report: Callable[..., dict[str, Any]]
    epochs: Callable[..., tuple[int, bool]]
    stop: Callable[..., str]


@contextlib.contextmanager
def _stage(name: str, shown: bool) -> Iterator[None]:
    """:func:`~novikoff.runtime.limits.phase` ``name``; on a terminal, its start and time on stderr."""
    start = time.monotonic()
    if shown:
        sys.stderr.write(f"novikoff certify: {name} ...\n")
        sys.stderr.flush()
    with phase(name):
        yield
    if shown:
        sys.stderr.write(f"novikoff certify: {name}: {time.monotonic() - start:.1f} s\n")
        sys.stderr.flush()


def _epochs_shown(epochs: int, updates: int) -> None:
    sys.stderr.write(f"novikoff certify:   {epochs} epoch{'' if epochs == 1 else 's'}, {updates} updates\n")
    sys.stderr.flush()


def _refuse(args: argparse.Namespace, order: Order) -> None:
    """InputError for what needs the data on one machine."""
    if args.data.startswith("example:"):
        raise InputError(f"{args.data}: an example is not a file the workers can read (leave out --executor)")
    if order is not None:
        raise InputError(
            f"--order {args.order}: with --executor the run presents the samples in their natural "
            "order (an epoch is a relay through the shards)"
        )
    for option, value in (("--coq", args.coq), ("--kernel", args.kernel)):
        if value is not None:
            raise InputError(f"{option}: needs the data on one machine (leave out --executor)")


def sharded(executor: str) -> bool:
    """Whether ``--executor`` names a Dask scheduler (InputError for a bad value)."""
    from novikoff.runtime.executors import parse_executor

    return parse_executor(executor).kind == "dask"


def names_shards(data: str) -> bool:
    """Whether DATA is a directory or a glob of shard files (:func:`~novikoff.data.readers.is_sharded`)."""
    from novikoff.data.readers import is_sharded

    return not data.startswith("example:") and is_sharded(data)


def _options(args: argparse.Namespace) -> Any:
    from novikoff.certificates.sharded import ReadOptions

    return ReadOptions(
        format=args.format,
        header={"auto": None, "yes": True, "no": False}[args.header],
        label_column=args.label_column,
        positive=args.positive,
        bias=args.bias if args.bias is not None else 1,
    )


def read_shards(args: argparse.Namespace) -> Dataset:
    """DATA's shards read here as one dataset (their samples in order), under the data options."""
    from novikoff.data.readers import read_sharded

    o = _options(args)
    return read_sharded(
        args.data,
        format=o.format,
        header=o.header,
        label_column=o.label_column,
        positive=o.positive,
        bias=o.bias,
    )


def certify_sharded(args: argparse.Namespace, order: Order, reporting: Reporting) -> int:
    """``novikoff certify`` for ``args.executor`` a Dask scheduler (module docstring)."""
    from novikoff.certificates.sharded import open_dask
    from novikoff.runtime.executors import dask_client, parse_executor

    _refuse(args, order)
    spec = parse_executor(args.executor)
    shown = not args.json and sys.stderr.isatty()
    options = _options(args)
    with _stage(f"connecting to {spec}", shown):
        client = dask_client(spec)
    try:
        with _stage("reading the shards", shown):
            data = open_dask(client, args.data, options)
        return _certify(args, data, str(spec), shown, reporting)
    finally:
        client.close()


def _certify(args: argparse.Namespace, data: Any, where: str, shown: bool, reporting: Reporting) -> int:
    from novikoff.certificates.sharded import sharded_certify, sharded_check, sharded_geometric_margin
    from novikoff.commands.sharded_runs import sharded_nonseparable_bound, sharded_perceptron

    with _stage("the exact certificate", shown):
        main = sharded_certify(data, verify=False)
        sep = main if isinstance(main, SeparableCertificate) else None
        cert: Certificate = main
        if sep is not None and data.bias > 0 and len(data.classes) == 2:
            geo = sharded_geometric_margin(data, sep)
            if geo is not None:
                cert = dataclasses.replace(sep, geometric=geo)
        sharded_check(data, cert)  # the certificate and its geometric margin, checked together
    bounds = RunBounds(args.max_epochs, args.max_updates)
    epochs, proven = reporting.epochs(bounds, data.n_samples, sep)
    with _stage("the exact perceptron run", shown):
        run = sharded_perceptron(
            data,
            max_epochs=epochs,
            certificate=sep,
            track_norms=bool(args.plot),
            progress=_epochs_shown if shown else None,
        )
    stopped = stopped_by(run.converged, run.epochs, bounds, data.n_samples, capped=not proven)
    fs = None
    if sep is None and data.dimension > 0:
        with _stage("the Freund-Schapire bound", shown):
            fs = sharded_nonseparable_bound(data, run)
    view = cast(Dataset, data)  # certify_report reads name, sizes and bias, which data has
    report = reporting.report(
        view, cert, run, vectors=args.json, record=args.record, stopped=stopped, nonseparable=fs
    )
    if args.certificate is not None:
        with _stage("the certificate file (the data's digest)", shown):
            # certificate_document binds the data it is given: here one sample, whose binding
            # the shards' (sizes, bias and the digest of every sample) replaces
            document = certificate_document(
                data.subset([0]), cert, run, "natural", None if fs is None else fs.claim()
            )
            document = dataclasses.replace(document, dataset=data.binding())
        write_file(args.certificate, to_json(document), "--certificate")
        report["certificate_file"] = args.certificate
    _side_files(args, data.name, cert, run, sep)
    if args.json:
        print_json(report)
        return 0
    note = reporting.stop(stopped, bounds, data.n_samples)
    print("\n".join(_summary(report, cert, data, where, note)))
    if args.plot:
        print(f"  squeeze figure written to {args.plot}")
    if args.certificate is not None:
        print(f"  certificate written to {args.certificate} (check: novikoff check DATA {args.certificate})")
    return 0


def _side_files(
    args: argparse.Namespace, name: str, cert: Certificate, run: Any, sep: SeparableCertificate | None
) -> None:
    """``--trace`` and ``--plot``, as on one machine."""
    if args.trace:
        write_trace(args.trace, run.updates)
    if not args.plot:
        return
    from novikoff.integrations.plot import plot_squeeze

    bound, gamma2 = (
        ("not separable", None) if sep is None else (f"R^2/gamma^2 = {show(sep.bound, 4)}", sep.gamma2)
    )
    plot_squeeze(
        args.plot, run.norm2_history, cert.R2, gamma2, f"{Path(name).name}: {run.mistakes} updates, {bound}"
    )


def _summary(report: dict[str, Any], cert: Certificate, data: Any, where: str, note: str) -> list[str]:
    """The readable summary: the numbers of the local one, and where they were found."""
    count = data.shards.count
    lines = [
        f"novikoff certify: {report['dataset']} ({report['n_samples']} samples x {report['n_features']} "
        f"features, bias rho = {report['bias']}) in {count} shard{'' if count == 1 else 's'} on {where}",
    ]
    support = sum(1 for v in cert.lambdas.numerators if v)
    if isinstance(cert, SeparableCertificate):
        lines.append("  separable: yes (exact minimum-norm-point certificate, re-checked shard by shard)")
        shown = [("R^2", cert.R2), ("gamma^2", cert.gamma2), ("Novikoff bound R^2/gamma^2", cert.bound)]
        if cert.geometric is not None:
            shown.append(("geometric margin^2 (free bias)", cert.geometric.margin2))
        lines += [f"  {name:<34} {show(value)}" for name, value in shown]
        lines.append(f"  support vectors (lambda > 0): {support} of {report['n_samples']}")
    else:
        lines.append("  separable: no (Gordan certificate: sum lambda_i z_i = 0, re-checked shard by shard)")
        lines.append(f"  {support} samples with lambda > 0 combine to the origin; R^2 = {show(cert.R2)}")
    p = report["perceptron"]
    status = "converged" if p["converged"] else f"did NOT converge (stopped by {note})"
    checks = (
        f"; N1-N3 held at every update ({p['invariants_checked']} checks)" if p["invariants_checked"] else ""
    )
    mistakes = f"{p['mistakes']} mistake{'' if p['mistakes'] == 1 else 's'}"
    epochs = f"{p['epochs']} epoch{'' if p['epochs'] == 1 else 's'}"
    lines.append(
        f"  exact perceptron (natural order, relayed through the shards): {mistakes} in {epochs}, "
        f"{status}{checks}"
    )
    fs = report.get("nonseparable_bound")
    if fs is not None:
        bound = "beyond float64" if fs["bound_float"] is None else f"{fs['bound_float']:.6g}"
        lines.append(
            f"  Freund-Schapire bound over {fs['passes']} passes: {fs['mistakes']} mistakes <= "
            f"((R + D)/gamma)^2 = {bound} (checked exactly after every pass; {FS_NOTE})"
        )
    return lines
