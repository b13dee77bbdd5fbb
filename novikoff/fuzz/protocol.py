"""The text protocol of ``novikoff diff --command``, versions 1 and 2 (:data:`VERSIONS`).

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

or ``unsupported REASON`` instead of the weights (counted, not failed).

Version 2 adds, on top of version 1 (a request is written in the lowest version that can
say it, so a version-1 implementation never sees version 2; the response must carry the
request's version): ``algorithm voted`` (the response adds one ``voter COUNT w...`` line
per weight vector with its survival count, in order), ``algorithm multiclass`` (a line
``classes K`` after ``features``; a sample's label is its class index 0..K-1; the weights
and initial weights are K (d + 1) numbers, class after class), the lines ``l2 ALPHA`` and
``schedule constant|optimal`` of the SGD semantics (:mod:`novikoff.fuzz.sgd`), and the
orders ``order sklearn SEED``.

A weight is an
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

from novikoff.data.dataset import Dataset
from novikoff.data.multiclass import MulticlassData
from novikoff.exact.rational import format_rational
from novikoff.fuzz.semantics import DEFAULT, Semantics

__all__ = [
    "HEADER",
    "PROTOCOL_NAME",
    "PROTOCOL_VERSION",
    "V1_ALGORITHMS",
    "VERSIONS",
    "VOTER_ALGORITHMS",
    "ProtocolError",
    "Request",
    "Response",
    "format_request",
    "format_response",
    "parse_number",
    "parse_request",
    "parse_response",
    "request_version",
]

PROTOCOL_NAME = "novikoff-perceptron"
#: The newest version this module speaks.
PROTOCOL_VERSION = 2
#: Every version spoken: a response must carry its request's version.
VERSIONS = (1, 2)
#: The algorithms of version 1 (version 2 adds voted and multiclass).
V1_ALGORITHMS = ("perceptron", "pdm", "pfm", "averaged")
#: The algorithms whose responses (version 2) carry ``voter`` lines.
VOTER_ALGORITHMS = ("voted",)
HEADER = f"{PROTOCOL_NAME} 1"  # the header of version 1

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
    order: str | list[int]  # "natural", "shuffle-v1:SEED", "sklearn:SEED" or the permutation
    semantics: Semantics
    initial_weights: tuple[Fraction, ...]
    X: tuple[tuple[Fraction, ...], ...]
    y: tuple[int, ...]
    version: int = 1
    classes: int = 2  # multiclass: K, labels 0..K-1


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
    voters: list[tuple[tuple[Fraction, ...], int]] | None = None

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
        if self.voters is not None:
            out["voters"] = [(np.array([float(v) for v in w]), c) for w, c in self.voters]
        return out


def request_version(algorithm: str, semantics: Semantics, order: Any = None) -> int:
    """The lowest version that can say a call: 1 unless the algorithm is voted or
    multiclass, or the SGD semantics or the ``sklearn`` order are declared."""
    sklearn = isinstance(order, str) and order.startswith("sklearn:")
    if algorithm in V1_ALGORITHMS and not semantics.replica and not sklearn:
        return 1
    return 2


def format_request(
    ds: Dataset | MulticlassData,
    *,
    max_epochs: int,
    order: Any = None,
    algorithm: str = "perceptron",
    parameter: tuple[str, Fraction] | None = None,
    semantics: Semantics = DEFAULT,
    initial_weights: Sequence[Fraction] | None = None,
) -> str:
    """The request for one call on ``ds`` (a Dataset, or MulticlassData for multiclass;
    order as the implementation is given it: None, a permutation, ``"shuffle-v1:SEED"`` or
    ``"sklearn:SEED"``), in the version :func:`request_version` chooses."""
    version = request_version(algorithm, semantics, order)
    d = ds.n_features
    multiclass = isinstance(ds, MulticlassData)
    classes = ds.n_classes if isinstance(ds, MulticlassData) else 1
    if isinstance(order, str) and ":" in order:
        head, _, seed = order.partition(":")
        order_line = f"order {head} {seed}"
    elif order is None or order == "natural":
        order_line = "order natural"
    else:
        order_line = "order given " + " ".join(str(int(i)) for i in order)
    w0 = [Fraction(0)] * (classes * (d + 1)) if initial_weights is None else list(initial_weights)
    param = "parameter none" if parameter is None else f"parameter {parameter[0]} {_num(parameter[1])}"
    lines = [
        f"{PROTOCOL_NAME} {version}",
        f"algorithm {algorithm}",
        param,
        f"samples {ds.n_samples}",
        f"features {d}",
        *([f"classes {classes}"] if multiclass else []),
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
    if version >= 2:
        lines += [f"l2 {_num(semantics.l2)}", f"schedule {semantics.schedule}"]
    den = ds.denominator
    for i in range(ds.n_samples):
        xs = " ".join(_num(Fraction(v, den)) for v in ds.numerators[i])
        label = str(ds.labels[i]) if multiclass else f"{ds.labels[i]:+d}"
        lines.append(f"sample {label} {xs}".rstrip())
    lines.append("end")
    return "\n".join(lines) + "\n"


def _lines(text: str) -> list[tuple[int, list[str]]]:
    out = []
    for no, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if line and not line.startswith("#"):
            out.append((no, line.split()))
    return out


def _header(lines: list[tuple[int, list[str]]], what: str, versions: Sequence[int] = VERSIONS) -> int:
    """The version of the first line, one of ``versions``; ProtocolError otherwise."""
    expected = " or ".join(repr(f"{PROTOCOL_NAME} {v}") for v in versions)
    if not lines:
        raise ProtocolError(f"{what}: empty (expected a first line {expected})")
    no, words = lines[0]
    if words[:1] != [PROTOCOL_NAME] or len(words) != 2:
        raise ProtocolError(f"{what} line {no}: expected {expected}, got {' '.join(words)[:60]!r}")
    if words[1] not in [str(v) for v in versions]:
        spoken = "version " + " or ".join(str(v) for v in versions)
        raise ProtocolError(f"{what} line {no}: protocol version {words[1][:20]!r}; expected {spoken}")
    if lines[-1][1] != ["end"]:
        raise ProtocolError(f"{what}: no final 'end' line (truncated output?)")
    return int(words[1])


def _int(token: str, where: str) -> int:
    if not re.fullmatch(r"[+-]?\d{1,30}", token):
        raise ProtocolError(f"{where}: not an integer: {token[:40]!r}")
    return int(token)


def parse_response(
    text: str, dimension: int, version: int = 1, voter_dimension: int | None = None
) -> Response:
    """The response to a request of ``version`` whose weights have ``dimension`` entries
    (d + 1, or K (d + 1) for multiclass); ``voter_dimension``: the length of a ``voter``
    line's vector (voted, version 2; None: no voter lines allowed). ProtocolError names the
    first line outside the protocol."""
    lines = _lines(text)
    _header(lines, "response", (version,))
    fields: dict[str, Any] = {"notes": []}
    for no, words in lines[1:-1]:
        key, args = words[0], words[1:]
        where = f"response line {no} ({key})"
        if key in fields and key not in ("notes", "note", "voters", "voter"):
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
        elif key == "voter" and voter_dimension is not None:
            if len(args) != voter_dimension + 1:
                raise ProtocolError(
                    f"{where}: expected a count and {voter_dimension} weights, got {len(args)} numbers"
                )
            count = _int(args[0], where)
            if count < 0:
                raise ProtocolError(f"{where}: a negative count {count}")
            fields.setdefault("voters", []).append(
                (tuple(parse_number(a, where)[0] for a in args[1:]), count)
            )
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
    version: int = 1,
    voters: Sequence[tuple[Sequence[Fraction | int | float], int]] | None = None,
) -> str:
    """A response of ``version`` (floats written exactly in C99 hexadecimal, rationals as
    p/q; ``voters`` as version 2's voter lines)."""

    def number(v: Fraction | int | float) -> str:
        return float(v).hex() if isinstance(v, float) else _num(v)

    lines = [f"{PROTOCOL_NAME} {version}", "weights " + " ".join(number(v) for v in weights)]
    if updates is not None:
        lines.append("updates " + " ".join(str(int(i)) for i in updates))
    if mistakes is not None:
        lines.append(f"mistakes {int(mistakes)}")
    if epochs is not None:
        lines.append(f"epochs {int(epochs)}")
    if converged is not None:
        lines.append(f"converged {'yes' if converged else 'no'}")
    lines += [f"note {n}" for n in notes]
    for w, c in voters or ():
        lines.append(f"voter {int(c)} " + " ".join(number(v) for v in w))
    lines.append("end")
    return "\n".join(lines) + "\n"


def parse_request(text: str) -> Request:
    """A request as an implementation in Python reads it; ProtocolError names the first
    line outside the protocol."""
    lines = _lines(text)
    version = _header(lines, "request")
    keys: dict[str, list[str]] = {}
    X: list[tuple[Fraction, ...]] = []
    y: list[int] = []
    for no, words in lines[1:-1]:
        key, args = words[0], words[1:]
        if key == "sample":
            where = f"request line {no} (sample)"
            multiclass = keys.get("algorithm") == ["multiclass"]
            if not args or (args[0] not in ("+1", "-1") and not (multiclass and args[0].isdigit())):
                raise ProtocolError(f"{where}: expected a label +1 or -1 (multiclass: 0..K-1) first")
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
    if order_words[:1] in (["shuffle-v1"], ["sklearn"]):
        order = f"{order_words[0]}:{order_words[1]}"
    elif order_words[:1] == ["given"]:
        order = [int(i) for i in order_words[1:]]
    else:
        order = "natural"
    p = keys["parameter"]
    parameter = None if p == ["none"] else (p[0], parse_number(p[1], "parameter")[0])

    def get(key: str, default: str) -> str:
        return keys.get(key, [default])[0]

    classes = _int(keys.get("classes", ["2"])[0], "classes")
    size = classes * (d + 1) if keys["algorithm"] == ["multiclass"] else d + 1
    w0 = tuple(parse_number(a, "initial_weights")[0] for a in keys.get("initial_weights", ["0"] * size))
    sem = Semantics(
        tie_rule=get("tie_rule", "nonstrict"),
        margin=parse_number(get("margin", "0"), "margin")[0],
        learning_rate=parse_number(get("learning_rate", "1"), "learning_rate")[0],
        initial_weights="drawn" if any(w0) else "zero",
        order="natural" if order == "natural" else (order if isinstance(order, str) else "given"),
        stop=get("stop", "converged"),
        precision=get("precision", "float64"),
        l2=parse_number(get("l2", "0"), "l2")[0],
        schedule=get("schedule", "constant"),
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
        version,
        classes,
    )
