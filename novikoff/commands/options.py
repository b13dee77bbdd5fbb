"""What the commands share: the parser class, argument types, the data and run options, and
the loader of DATA. Every argument type raises ``argparse.ArgumentTypeError`` with a one-line
message (argparse turns it into exit 2 naming the option)."""

from __future__ import annotations

import argparse
import re
from fractions import Fraction
from pathlib import Path
from typing import Any

from novikoff.data.dataset import Dataset
from novikoff.errors import InputError
from novikoff.exact.approx import show
from novikoff.exact.rational import parse_rational
from novikoff.fuzz.bound_limits import DEFAULT_LIMITS, LIMIT_OPTIONS, BoundLimits
from novikoff.runtime.jsonout import error_json
from novikoff.runtime.runlog import DEFAULT_MAX_UPDATES, DEFAULT_RECORD

__all__ = [
    "MAX_EPOCHS_LIMIT",
    "MAX_UPDATES_LIMIT",
    "OutputMode",
    "Parser",
    "add_data_options",
    "add_run_bounds",
    "add_time_limit",
    "bounded_int",
    "int_arg",
    "load_data",
    "memory_arg",
    "positive_int",
    "printable",
    "rational_arg",
    "rational_option",
    "seconds_arg",
    "stop_text",
    "write_file",
]


class OutputMode:
    """Whether the command line asked for JSON (known before argparse can fail)."""

    json = False


def printable(text: str) -> str:
    """``text`` with every non-printable character escaped (``\\x0b``), so that a message
    quoting user input stays one line whatever the input holds."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        message = printable(message)
        if OutputMode.json:
            print(error_json(f"{self.prog}: {message}", 2))
        self.exit(2, f"{self.prog}: error: {message}\n")


#: Integer arguments may have at most this many digits (``--max-epochs 10**30`` is refused
#: by value, ``--seed`` with a million digits by length).
MAX_INT_DIGITS = 100


_INT = re.compile(r"[+-]?[0-9]+\Z")


def int_arg(text: str) -> int:
    """An integer written in ASCII digits with an optional sign (no ``_``, no other scripts'
    digits), at most :data:`MAX_INT_DIGITS` digits, checked before conversion."""
    stripped = text.strip()
    digits = stripped.lstrip("+-")
    if len(digits) > MAX_INT_DIGITS:
        raise argparse.ArgumentTypeError(f"integer too long: {len(digits)} digits (at most {MAX_INT_DIGITS})")
    if not stripped.isascii() or not _INT.match(stripped):
        raise argparse.ArgumentTypeError(f"not an integer: {printable(ascii(text[:40]))}")
    return int(stripped)


def positive_int(text: str) -> int:
    value = int_arg(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be >= 1, got {value}")
    return value


#: Bounds on the loops a user controls; larger requests are refused (exit 2), not attempted.
MAX_EPOCHS_LIMIT = 10**9
MAX_UPDATES_LIMIT = 10**9


def bounded_int(limit: int) -> Any:
    def parse(text: str) -> int:
        value = positive_int(text)
        if value > limit:
            raise argparse.ArgumentTypeError(f"must be <= {limit}, got {show(value, 3)}")
        return value

    return parse


def seconds_arg(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text[:40]!r}") from None
    if not (value >= 0 and value < 10**9):
        raise argparse.ArgumentTypeError(f"must be between 0 (no limit) and 1e9 seconds, got {text[:40]!r}")
    return value


def add_time_limit(p: argparse.ArgumentParser, default: float) -> None:
    """``--time-limit SECONDS``: the wall-clock bound of the whole command (0 = none)."""
    p.add_argument(
        "--time-limit",
        type=seconds_arg,
        default=default,
        metavar="SECONDS",
        help=f"stop the command (exit 1, saying so) after this many seconds; 0 = no limit "
        f"(default {default:g})",
    )
    p.add_argument(
        "--max-memory",
        type=memory_arg,
        default=None,
        metavar="SIZE",
        help="memory budget such as 2G or 512M: work that would need more is refused before it "
        "starts (exit 2); helper processes get it as their address-space limit "
        "(default: a quarter of the machine's memory, or half the address-space limit if lower)",
    )


def memory_arg(text: str) -> int:
    """``--max-memory SIZE`` in bytes (:func:`novikoff.runtime.bounded.parse_memory`)."""
    from novikoff.runtime.bounded import parse_memory

    try:
        return parse_memory(text)
    except InputError as exc:
        raise argparse.ArgumentTypeError(str(exc).removeprefix("--max-memory: ")) from None


class _StoreGiven(argparse.Action):
    """Store the value and record that the option was given (``DEST_given = True``), so that
    an algorithm with its own default (exact ROMMA) can tell a default from a choice."""

    def __call__(
        self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any, option: Any = None
    ) -> None:
        setattr(namespace, self.dest, values)
        setattr(namespace, f"{self.dest}_given", True)


def add_run_bounds(p: argparse.ArgumentParser) -> None:
    """``--max-updates``, ``--record`` and ``--trace`` (certify and run)."""
    p.set_defaults(max_updates_given=False)
    p.add_argument(
        "--max-updates",
        type=bounded_int(MAX_UPDATES_LIMIT),
        action=_StoreGiven,
        default=DEFAULT_MAX_UPDATES,
        metavar="N",
        help=f"stop the run after at most N updates (default {DEFAULT_MAX_UPDATES}; see "
        "docs/reference/contract.md for algorithms with one update per presentation, bounded at epoch ends)",
    )
    p.add_argument(
        "--record",
        type=bounded_int(10**6),
        default=DEFAULT_RECORD,
        metavar="N",
        help="--json lists the first and last N updates and how many were left out "
        f"(default {DEFAULT_RECORD})",
    )
    p.add_argument("--trace", metavar="FILE", help="write every update to FILE, one 'epoch,sample' line each")


_BOUND_LIMIT_WHAT = {
    "length": "characters of EXPR",
    "depth": "nesting levels of EXPR",
    "exponent": "absolute value of a numeric exponent in EXPR",
    "power_digits": "digits of a power of two numbers in EXPR",
}


def add_bound_limits(p: argparse.ArgumentParser, *, for_file: bool = False) -> None:
    """The ``--max-bound-*`` options (:data:`~novikoff.fuzz.bound_limits.LIMIT_OPTIONS`), with
    :data:`~novikoff.fuzz.bound_limits.DEFAULT_LIMITS` as defaults; ``for_file``: they cap the
    limits a file records (``replay``) rather than the command's own EXPR."""
    for name, flag in LIMIT_OPTIONS:
        default = getattr(DEFAULT_LIMITS, name)
        what = (
            f"refuse a file whose bound_limits record a larger {name}"
            if for_file
            else f"at most N {_BOUND_LIMIT_WHAT[name]}"
        )
        p.add_argument(flag, type=int_arg, default=default, metavar="N", help=f"{what} (default {default})")


def bound_limits(args: argparse.Namespace) -> BoundLimits:
    """The :class:`~novikoff.fuzz.bound_limits.BoundLimits` of the ``--max-bound-*`` options."""
    return BoundLimits(**{name: getattr(args, flag[2:].replace("-", "_")) for name, flag in LIMIT_OPTIONS})


def rational_arg(text: str) -> Fraction:
    try:
        return parse_rational(text)
    except InputError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_data_options(p: argparse.ArgumentParser) -> None:
    """The options that say how DATA is read (shared by certify and run), and --max-epochs."""
    p.add_argument("--format", choices=["csv", "libsvm"], help="file format (default: from the suffix)")
    p.add_argument(
        "--bias",
        type=rational_arg,
        default=None,
        metavar="RHO",
        help="bias coordinate rho >= 0 appended last (default 1, or the example's own; 0 = no bias)",
    )
    p.add_argument(
        "--label-column",
        type=int_arg,
        default=-1,
        metavar="N",
        help="CSV label column, 0-based, negative from the end (default -1: last)",
    )
    p.add_argument("--header", choices=["auto", "yes", "no"], default="auto", help="CSV header line")
    p.add_argument(
        "--positive", metavar="LABEL", help="the label mapped to +1 when labels are not {-1,1}/{0,1}"
    )
    p.add_argument(
        "--max-epochs",
        type=bounded_int(MAX_EPOCHS_LIMIT),
        default=1000,
        metavar="N",
        help=f"stop after N full passes over the data (default 1000, at most {MAX_EPOCHS_LIMIT})",
    )
    add_time_limit(p, 600)


def load_data(args: argparse.Namespace) -> Dataset:
    """DATA as the data options say: example:NAME, or a CSV/LIBSVM file (InputError naming it)."""
    from novikoff.data.readers import guess_format, load_dataset

    if args.data.startswith("example:"):
        from novikoff.data.examples import load_example  # imports the spec (sympy): only when asked

        ds = load_example(args.data.removeprefix("example:"))
        return ds.with_bias(args.bias) if args.bias is not None else ds
    bias = args.bias if args.bias is not None else 1
    options: dict[str, Any] = {"bias": bias, "positive": args.positive}
    fmt = args.format or guess_format(args.data)
    if fmt == "csv":
        options["label_column"] = args.label_column
        options["header"] = {"auto": None, "yes": True, "no": False}[args.header]
    return load_dataset(args.data, format=fmt, **options)


def write_file(path: str, text: str, option: str) -> None:
    """Write ``text`` to ``path``; an OSError becomes an InputError naming ``option`` (exit 2)."""
    try:
        Path(path).write_text(text)
    except OSError as exc:
        raise InputError(f"{option} {path}: {exc.strerror or exc}") from None


def stop_text(stopped: str | None, args: argparse.Namespace) -> str:
    """Which bound ended a run that did not converge, as the option and its value."""
    if stopped == "max_updates":
        return f"stopped by --max-updates {args.max_updates}"
    return f"stopped by --max-epochs {args.max_epochs}"


def rational_option(text: str | None, option: str) -> Fraction | None:
    """The exact value of an option given as text (None if absent); InputError naming ``option``."""
    if text is None:
        return None
    try:
        return parse_rational(text)
    except InputError as exc:
        raise InputError(f"{option}: {exc}") from None
