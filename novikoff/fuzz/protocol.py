"""The text protocol of ``novikoff diff --command``, version :data:`PROTOCOL_VERSION`.

One call is one run of the command: novikoff writes a *request* on its standard input and
closes it; the command writes a *response* on its standard output and exits 0. The full
specification, with an example of each, is docs/howto/protocol.md; in short:

Request (every number exact: an integer, or p/q in lowest terms with q > 1)::

    novikoff-perceptron 1
    algorithm perceptron            # or pdm, pfm, averaged
    parameter none                  # pdm: parameter eps 3/4; pfm: parameter beta 1/2
    samples 3
    features 2
    bias 1                          # the bias input: z_i = y_i (x_i, bias)
    max_epochs 1000
    order natural                   # or: order given 2 0 1 / order shuffle-v1 SEED
    tie_rule nonstrict              # the declared semantics (novikoff.fuzz.semantics)
    margin 0
    learning_rate 1
    initial_weights 0 0 0           # d + 1 values, bias weight last
    stop converged
    precision float64
    sample +1 1/2 -3                # label, then the d features; one line per sample
    sample -1 2 0
    sample +1 0 1
    end

Response::

    novikoff-perceptron 1
    weights 1 -1/2 0x1.8p+1         # d + 1 numbers, bias weight last
    updates 0 2 1                   # optional: sample indices in update order
    mistakes 3                      # optional
    epochs 2                        # optional
    converged yes                   # optional: yes or no
    note free text                  # optional, repeatable: shown in a finding
    end

or ``unsupported REASON`` instead of the weights (counted, not failed). A weight is an
integer or p/q (taken exactly), or a decimal or C99 hexadecimal float (``%.17g``,
``%a``: taken as the float64 nearest to it, as strtod reads it). Blank lines and lines
starting with ``#`` are ignored. Anything else (a missing ``end``, an unknown key, a
wrong count) is a protocol error: a finding that quotes the line.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from novikoff.data import Dataset
from novikoff.fuzz.semantics import DEFAULT, Semantics
from novikoff.rational import format_rational

__all__ = [
    "HEADER",
    "PROTOCOL_NAME",
    "PROTOCOL_VERSION",
    "ProtocolError",
    "Request",
    "Response",
    "format_request",
    "format_response",
    "parse_number",
    "parse_request",
    "parse_response",
]

PROTOCOL_NAME = "novikoff-perceptron"
#: The version this module speaks; a response with another version is a protocol error.
PROTOCOL_VERSION = 1
HEADER = f"{PROTOCOL_NAME} {PROTOCOL_VERSION}"

_EXACT = re.compile(r"[+-]?\d+(/\d+)?\Z")
_DECIMAL = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\Z")
_HEX = re.compile(r"[+-]?0[xX]([0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)([pP][+-]?\d+)?\Z")


class ProtocolError(ValueError):
    """A request or response outside the protocol; the message names the line."""


def _num(v: Fraction | int) -> str:
    return str(format_rational(Fraction(v)))


def parse_number(token: str, where: str) -> tuple[Fraction, bool]:
    """``(value, exact)``: an integer or p/q exactly (``exact`` True); a decimal or C99
    hexadecimal float as the float64 nearest to it (``exact`` False). Anything else, a zero
    denominator or a non-finite value raises ProtocolError naming ``where``."""
    if len(token) > 10_000:
        raise ProtocolError(f"{where}: a number of {len(token)} characters")
    if _EXACT.match(token):
        num, _, den = token.partition("/")
        if den and int(den) == 0:
            raise ProtocolError(f"{where}: zero denominator in {token!r}")
        return Fraction(int(num), int(den or 1)), True
    if _HEX.match(token):
        value = float.fromhex(token)
    elif _DECIMAL.match(token):
        value = float(token)
    else:
        raise ProtocolError(f"{where}: not a number: {token[:40]!r}")
    if not np.isfinite(value):
        raise ProtocolError(f"{where}: {token[:40]!r} is not finite in float64")
    return Fraction(value), False


@dataclass(frozen=True)
class Request:
    """A parsed request (what an implementation written in Python reads)."""

    algorithm: str
    parameter: tuple[str, Fraction] | None
    bias: Fraction
    max_epochs: int
    order: str | list[int]  # "natural", "shuffle-v1:SEED", or the given permutation
    semantics: Semantics
    initial_weights: tuple[Fraction, ...]
    X: tuple[tuple[Fraction, ...], ...]
    y: tuple[int, ...]


@dataclass(frozen=True)
class Response:
    """A parsed response: ``weights`` (exact values; ``exact`` False when some weight was
    written as a float), the optional run quantities, ``notes``, or ``unsupported``."""

    weights: tuple[Fraction, ...] = ()
    exact: bool = True
    updates: list[int] | None = None
    mistakes: int | None = None
    epochs: int | None = None
    converged: bool | None = None
    notes: list[str] = field(default_factory=list)
    unsupported: str | None = None

    def payload(self) -> dict[str, Any]:
        """The response as the Python contract's mapping (``weights`` as float64, and
        ``exact_weights`` when every weight was written exactly)."""
        out: dict[str, Any] = {
            "weights": np.array([float(v) for v in self.weights], dtype=np.float64),
            "updates": self.updates,
            "mistakes": self.mistakes,
            "epochs": self.epochs,
            "converged": self.converged,
            "notes": list(self.notes),
        }
        if self.exact:
            out["exact_weights"] = self.weights
        return out


def format_request(
    ds: Dataset,
    *,
    max_epochs: int,
    order: Any = None,
    algorithm: str = "perceptron",
    parameter: tuple[str, Fraction] | None = None,
    semantics: Semantics = DEFAULT,
    initial_weights: Sequence[Fraction] | None = None,
) -> str:
    """The request for one call on ``ds`` (order as the implementation is given it: None,
    a permutation, or ``"shuffle-v1:SEED"``)."""
    d = ds.n_features
    if isinstance(order, str) and order.startswith("shuffle-v1:"):
        order_line = "order shuffle-v1 " + order.partition(":")[2]
    elif order is None or order == "natural":
        order_line = "order natural"
    else:
        order_line = "order given " + " ".join(str(int(i)) for i in order)
    w0 = [Fraction(0)] * (d + 1) if initial_weights is None else list(initial_weights)
    param = "parameter none" if parameter is None else f"parameter {parameter[0]} {_num(parameter[1])}"
    lines = [
        HEADER,
        f"algorithm {algorithm}",
        param,
        f"samples {ds.n_samples}",
        f"features {d}",
        f"bias {_num(ds.bias)}",
        f"max_epochs {max_epochs}",
        order_line,
        f"tie_rule {semantics.tie_rule}",
        f"margin {_num(semantics.margin)}",
        f"learning_rate {_num(semantics.learning_rate)}",
        "initial_weights " + " ".join(_num(v) for v in w0),
        f"stop {semantics.stop}",
        f"precision {semantics.precision}",
    ]
    den = ds.denominator
    for i in range(ds.n_samples):
        xs = " ".join(_num(Fraction(v, den)) for v in ds.numerators[i])
        lines.append(f"sample {ds.labels[i]:+d} {xs}".rstrip())
    lines.append("end")
    return "\n".join(lines) + "\n"


def _lines(text: str) -> list[tuple[int, list[str]]]:
    out = []
    for no, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if line and not line.startswith("#"):
            out.append((no, line.split()))
    return out


def _header(lines: list[tuple[int, list[str]]], what: str) -> None:
    if not lines:
        raise ProtocolError(f"{what}: empty (expected a first line {HEADER!r})")
    no, words = lines[0]
    if words[:1] != [PROTOCOL_NAME] or len(words) != 2:
        raise ProtocolError(f"{what} line {no}: expected {HEADER!r}, got {' '.join(words)[:60]!r}")
    if words[1] != str(PROTOCOL_VERSION):
        raise ProtocolError(
            f"{what} line {no}: protocol version {words[1][:20]!r}; "
            f"novikoff speaks version {PROTOCOL_VERSION}"
        )
    if lines[-1][1] != ["end"]:
        raise ProtocolError(f"{what}: no final 'end' line (truncated output?)")


def _int(token: str, where: str) -> int:
    if not re.fullmatch(r"[+-]?\d{1,30}", token):
        raise ProtocolError(f"{where}: not an integer: {token[:40]!r}")
    return int(token)


def parse_response(text: str, dimension: int) -> Response:
    """The response to a request whose weights have ``dimension`` (d + 1) entries;
    ProtocolError names the first line outside the protocol."""
    lines = _lines(text)
    _header(lines, "response")
    fields: dict[str, Any] = {"notes": []}
    for no, words in lines[1:-1]:
        key, args = words[0], words[1:]
        where = f"response line {no} ({key})"
        if key in fields and key != "notes" and key != "note":
            raise ProtocolError(f"{where}: given twice")
        if key == "weights":
            if len(args) != dimension:
                raise ProtocolError(f"{where}: {len(args)} weights, expected {dimension} (bias weight last)")
            parsed = [parse_number(a, where) for a in args]
            fields["weights"] = tuple(v for v, _ in parsed)
            fields["exact"] = all(e for _, e in parsed)
        elif key == "updates":
            fields["updates"] = [_int(a, where) for a in args]
        elif key in ("mistakes", "epochs"):
            if len(args) != 1:
                raise ProtocolError(f"{where}: expected one integer")
            fields[key] = _int(args[0], where)
        elif key == "converged":
            if args not in (["yes"], ["no"]):
                raise ProtocolError(f"{where}: expected yes or no")
            fields["converged"] = args == ["yes"]
        elif key == "note":
            fields["notes"].append(" ".join(args))
        elif key == "unsupported":
            fields["unsupported"] = " ".join(args) or "unsupported"
        else:
            raise ProtocolError(f"{where}: unknown key {key[:40]!r}")
    if "unsupported" in fields:
        return Response(unsupported=fields["unsupported"], notes=fields["notes"])
    if "weights" not in fields:
        raise ProtocolError("response: no 'weights' line (and no 'unsupported')")
    return Response(**fields)


def format_response(
    weights: Sequence[Fraction | int | float],
    *,
    updates: Sequence[int] | None = None,
    mistakes: int | None = None,
    epochs: int | None = None,
    converged: bool | None = None,
    notes: Sequence[str] = (),
) -> str:
    """A response (floats written exactly in C99 hexadecimal, rationals as p/q)."""

    def number(v: Fraction | int | float) -> str:
        return float(v).hex() if isinstance(v, float) else _num(v)

    lines = [HEADER, "weights " + " ".join(number(v) for v in weights)]
    if updates is not None:
        lines.append("updates " + " ".join(str(int(i)) for i in updates))
    if mistakes is not None:
        lines.append(f"mistakes {int(mistakes)}")
    if epochs is not None:
        lines.append(f"epochs {int(epochs)}")
    if converged is not None:
        lines.append(f"converged {'yes' if converged else 'no'}")
    lines += [f"note {n}" for n in notes]
    lines.append("end")
    return "\n".join(lines) + "\n"


def parse_request(text: str) -> Request:
    """A request as an implementation in Python reads it; ProtocolError names the first
    line outside the protocol."""
    lines = _lines(text)
    _header(lines, "request")
    keys: dict[str, list[str]] = {}
    X: list[tuple[Fraction, ...]] = []
    y: list[int] = []
    for no, words in lines[1:-1]:
        key, args = words[0], words[1:]
        if key == "sample":
            where = f"request line {no} (sample)"
            if not args or args[0] not in ("+1", "-1"):
                raise ProtocolError(f"{where}: expected a label +1 or -1 first")
            y.append(int(args[0]))
            X.append(tuple(parse_number(a, where)[0] for a in args[1:]))
        else:
            keys[key] = args
    need = ("algorithm", "parameter", "samples", "features", "bias", "max_epochs", "order")
    missing = [k for k in need if k not in keys]
    if missing:
        raise ProtocolError(f"request: missing {', '.join(missing)}")
    m, d = _int(keys["samples"][0], "samples"), _int(keys["features"][0], "features")
    if len(X) != m or any(len(x) != d for x in X):
        raise ProtocolError(f"request: expected {m} samples of {d} features")
    order_words = keys["order"]
    order: str | list[int]
    if order_words[:1] == ["shuffle-v1"]:
        order = f"shuffle-v1:{order_words[1]}"
    elif order_words[:1] == ["given"]:
        order = [int(i) for i in order_words[1:]]
    else:
        order = "natural"
    p = keys["parameter"]
    parameter = None if p == ["none"] else (p[0], parse_number(p[1], "parameter")[0])

    def get(key: str, default: str) -> str:
        return keys.get(key, [default])[0]

    w0 = tuple(parse_number(a, "initial_weights")[0] for a in keys.get("initial_weights", ["0"] * (d + 1)))
    sem = Semantics(
        tie_rule=get("tie_rule", "nonstrict"),
        margin=parse_number(get("margin", "0"), "margin")[0],
        learning_rate=parse_number(get("learning_rate", "1"), "learning_rate")[0],
        initial_weights="drawn" if any(w0) else "zero",
        order="natural" if order == "natural" else (order if isinstance(order, str) else "given"),
        stop=get("stop", "converged"),
        precision=get("precision", "float64"),
    )
    return Request(
        keys["algorithm"][0],
        parameter,
        parse_number(keys["bias"][0], "bias")[0],
        _int(keys["max_epochs"][0], "max_epochs"),
        order,
        sem,
        w0,
        tuple(X),
        tuple(y),
    )
