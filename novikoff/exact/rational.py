"""Exact conversions of user numbers into rationals.

Guarantees: every function here either returns the exact rational value of its
input or raises :class:`~novikoff.errors.InputError`; nothing is rounded.
Decimal text is read as the decimal it spells (``"0.1"`` is 1/10), float64
values become the dyadic rational they store, NaN and infinities are refused.
"""

from __future__ import annotations

import contextlib
import math
import numbers
import re
import sys
from collections.abc import Iterable, Iterator, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, overload

from novikoff.errors import InputError

if TYPE_CHECKING:
    from flint import fmpz

__all__ = [
    "RationalVector",
    "common_denominator",
    "decimal",
    "exact_parameter",
    "format_rational",
    "format_vector",
    "parse_rational",
    "parse_rational_pair",
    "rational_text",
    "to_fraction",
    "vector_texts",
]

#: Numbers in text may have at most this many digits (and decimal exponents at most this
#: size): far beyond float64, small enough that exact arithmetic on them stays practical.
MAX_DIGITS = 10_000


@contextlib.contextmanager
def unlimited_int_digits() -> Iterator[None]:
    """Lift Python's int/str conversion limit (4300 digits) for the duration of the block."""
    get = getattr(sys, "get_int_max_str_digits", None)
    if get is None:  # Python < 3.11 has no limit
        yield
        return
    old = get()
    sys.set_int_max_str_digits(0)
    try:
        yield
    finally:
        sys.set_int_max_str_digits(old)


def _check_length(text: str) -> None:
    if len(text) > MAX_DIGITS + 32:
        raise InputError(f"number too long: {len(text)} characters (at most {MAX_DIGITS} digits)")


_DECIMAL = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?\Z")
_RATIO = re.compile(r"[+-]?[0-9]+\s*/\s*[+-]?[0-9]+\Z")


def parse_rational(token: str) -> Fraction:
    """Read an integer, a decimal (``-1.25e-3``) or a ratio ``p/q`` exactly.

    Raises ``InputError`` with a short reason for anything else (``nan``,
    ``inf``, ``1/0``, words, empty text). The caller adds the place.
    """
    text = token.strip()
    if not text:
        raise InputError("empty field")
    if "_" in text or not text.isascii():
        raise InputError(f"not a number: {text!r}")
    _check_length(text)
    if _RATIO.match(text):
        num, den = text.split("/")
        with unlimited_int_digits():
            d, n = int(den), int(num)
        if d == 0:
            raise InputError(f"zero denominator in {text!r}")
        return Fraction(n, d)
    if _DECIMAL.match(text):
        exponent = text.lower().partition("e")[2]
        if exponent and abs(int(exponent)) > MAX_DIGITS:
            raise InputError(f"exponent out of range in {text[:40]!r} (at most {MAX_DIGITS})")
        with unlimited_int_digits():
            return Fraction(text)
    low = text.lower().lstrip("+-")
    if low in {"nan", "inf", "infinity"}:
        raise InputError(f"{text!r} is not a finite number")
    raise InputError(f"not a number: {text!r}")


def exact_parameter(value: object, name: str) -> Fraction:
    """``value`` as an exact Fraction (:func:`to_fraction`); InputError naming the parameter otherwise."""
    try:
        return to_fraction(value)
    except (InputError, TypeError, ValueError) as exc:
        raise InputError(f"{name}: not an exact number: {value!r} ({exc})") from None


def to_fraction(value: object) -> Fraction:
    """Exact rational value of an int, Fraction, finite float, numpy scalar or numeric str."""
    if isinstance(value, bool):
        raise InputError(f"booleans are not numbers here: {value!r}")
    if isinstance(value, Fraction):
        return value
    if isinstance(value, numbers.Integral):
        return Fraction(int(value))
    if isinstance(value, str):
        return parse_rational(value)
    if isinstance(value, numbers.Rational):
        return Fraction(int(value.numerator), int(value.denominator))
    if isinstance(value, numbers.Real):
        f = float(value)
        if not math.isfinite(f):
            raise InputError(f"{value!r} is not a finite number")
        if f != value:  # a float type wider than float64 (longdouble)
            raise InputError(f"{value!r} is not exactly a float64; pass it as a str or Fraction")
        return Fraction(f)
    raise InputError(f"not a number: {value!r} (type {type(value).__name__})")


def common_denominator(values: Iterable[Fraction]) -> int:
    """Least common multiple of the denominators (1 for an empty input)."""
    dens = {v.denominator for v in values}
    return math.lcm(*dens) if dens else 1


def format_rational(value: Fraction | int) -> str | int:
    """JSON form of an exact rational: an int when integral, else the string ``"p/q"``
    (any number of digits, :func:`rational_text`)."""
    q = Fraction(value)
    if q.denominator == 1:
        return int(q.numerator)
    return rational_text(q)


#: From this many bits on, an int is written in decimal by GMP (python-flint), whose conversion
#: is subquadratic; Python's ``str`` is quadratic (72 us for 2600 digits against GMP's 13 us)
#: and, below about 450 digits, the faster of the two.
_GMP_BITS = 1500


def decimal(n: int) -> str:
    """Exactly ``str(n)`` for every int ``n``, of any size: no 4300-digit limit, and
    subquadratic time for big ``n``."""
    if n.bit_length() < _GMP_BITS:  # at most 452 digits: under any int_max_str_digits (>= 640)
        return str(n)
    import flint

    return flint.fmpz(n).str()


def rational_text(value: Fraction | int) -> str:
    """Exactly ``str(Fraction(value))``: ``"p"`` when integral, else ``"p/q"`` in lowest terms
    with ``q > 1``; any number of digits (:func:`decimal`)."""
    q = Fraction(value)
    if q.denominator == 1:
        return decimal(q.numerator)
    return f"{decimal(q.numerator)}/{decimal(q.denominator)}"


def vector_texts(values: Iterable[Fraction | int]) -> list[str]:
    """Exactly ``[rational_text(v) for v in values]``; fast for a :class:`RationalVector` of
    big numbers, whose texts are made once (:meth:`RationalVector.texts`)."""
    if not isinstance(values, RationalVector):
        return [rational_text(v) for v in values]
    return list(values.texts())


def format_vector(values: Iterable[Fraction | int]) -> list[int | str]:
    """Exactly ``[format_rational(v) for v in values]`` (an int for an integral entry, else
    ``"p/q"``); fast for a :class:`RationalVector` of big numbers (:meth:`RationalVector.texts`)."""
    if not isinstance(values, RationalVector):
        return [format_rational(v) for v in values]
    den = values.denominator
    return [t if "/" in t else n // den for n, t in zip(values.numerators, values.texts())]


def _lowest_terms(vec: RationalVector) -> tuple[str, ...]:
    """Every entry of ``vec`` as :func:`rational_text` writes it: ``decimal(p)`` when ``q = 1``,
    else ``decimal(p)/decimal(q)``, with ``p/q`` the entry, ``q > 0`` and ``gcd(p, q) = 1``.

    Each entry is ``n_i/D`` over the common denominator ``D``; its lowest terms need
    ``g_i = gcd(n_i, D)``. One full-size gcd per entry (thousands of digits each) would cost
    more than all the rest of the output, so: take ``S = gcd(prod r_j, D)`` over the residues
    ``r_j = n_j mod D`` that are not 0. For each prime ``p`` and such an entry ``i``,
    ``v_p(r_i) >= min(v_p(n_i), v_p(D)) = v_p(g_i)`` (as ``r_i = n_i - kD``), so
    ``v_p(g_i) <= v_p(S) <= v_p(D)`` and ``g_i = gcd(n_i, S) = gcd(r_i mod S, S)``; ``S`` is
    usually small, so each of these gcds is cheap. (An entry with ``r_i = 0`` is the integer
    ``n_i/D``.) The decimal form of each distinct ``q`` is made once.
    """
    import flint

    den = flint.fmpz(vec.denominator)
    nums = [flint.fmpz(n) for n in vec.numerators]
    # divide out gcd(D, n_1, n_2, ...) first: it would be part of S, making every gcd full-size
    common = den.gcd(nums[0]) if nums else den
    quotients: list[fmpz] = []  # n_i // common while common divides them all
    for n in nums:
        if common == 1:
            break
        q, r = divmod(n, common)
        if r != 0:
            common = common.gcd(r)  # gcd(common, n_i), smaller: the quotients are stale
        else:
            quotients.append(q)
    if common != 1:
        den, nums = den // common, quotients if len(quotients) == len(nums) else [n // common for n in nums]
    residues = [n % den for n in nums]
    product = flint.fmpz(1)
    for r in residues:
        if r != 0:
            product = product * r % den
    shared = product.gcd(den)  # S
    texts: dict[int, str] = {}  # "/" + decimal(q) by g (q = D/g), "" for q = 1
    out: list[str] = []
    for n, r in zip(nums, residues):
        g = den if r == 0 else (r % shared).gcd(shared)
        key = int(g)
        tail = texts.get(key)
        if tail is None:
            q = den // g
            tail = texts[key] = "" if q == 1 else "/" + q.str()
        out.append((n // g).str() + tail)
    return tuple(out)


_DECIMAL_PARTS = re.compile(r"([+-]?)([0-9]*)(?:\.([0-9]*))?(?:[eE]([+-]?[0-9]+))?\Z")


def parse_rational_pair(token: str) -> tuple[int, int]:
    """Fast exact reading of a number as an unreduced pair ``(num, den)``, ``den > 0``.

    Same language and errors as :func:`parse_rational`; used by the file
    readers, where building a normalized Fraction per field is the bottleneck.
    """
    text = token.strip()
    if "_" in text or not text.isascii():
        raise InputError(f"not a number: {text[:40]!r}")
    if len(text) > 4000:  # Python refuses int() on more than 4300 digits unless asked
        _check_length(text)
        with unlimited_int_digits():
            return _parse_pair(text)
    return _parse_pair(text)


def _parse_pair(text: str) -> tuple[int, int]:
    if "/" not in text and "." not in text and "e" not in text and "E" not in text:
        try:
            return int(text), 1
        except ValueError:
            pass
    num_text, slash, den_text = text.partition("/")
    if slash:
        try:  # int() accepts exactly [+-]digits with surrounding blanks here
            num, den = int(num_text), int(den_text)
        except ValueError:
            raise InputError(f"not a number: {text!r}") from None
        if den == 0:
            raise InputError(f"zero denominator in {text!r}")
        return (num, den) if den > 0 else (-num, -den)
    match = _DECIMAL_PARTS.match(text)
    if match is None or not (match.group(2) or match.group(3)):
        parse_rational(text)  # raises the right message
        raise InputError(f"not a number: {text!r}")  # pragma: no cover
    sign, whole, frac, exp = match.groups()
    frac = frac or ""
    num = int((whole or "0") + frac)
    if sign == "-":
        num = -num
    shift = int(exp or 0) - len(frac)
    if abs(int(exp or 0)) > MAX_DIGITS:
        raise InputError(f"exponent out of range in {text[:40]!r} (at most {MAX_DIGITS})")
    if shift >= 0:
        return num * 10**shift, 1
    return num, 10**-shift


class RationalVector(Sequence[Fraction]):
    """An exact rational vector stored as integer numerators over one positive denominator.

    Certificates hold their vectors this way: the numbers in a minimum-norm
    point have determinant-sized denominators (thousands of digits), and
    comparing or combining them over one denominator avoids a gcd per entry.
    Indexing and iteration give reduced Fractions; equality is exact and also
    holds against any sequence of numbers with the same values.
    """

    __slots__ = ("_hash", "_texts", "denominator", "numerators")

    def __init__(self, numerators: Iterable[int], denominator: int = 1) -> None:
        nums = tuple(int(v) for v in numerators)
        den = int(denominator)
        if den == 0:
            raise ZeroDivisionError("RationalVector with denominator 0")
        if den < 0:
            nums, den = tuple(-v for v in nums), -den
        self.numerators = nums
        self.denominator = den
        self._hash: int | None = None
        self._texts: tuple[str, ...] | None = None

    @classmethod
    def from_values(cls, values: Iterable[object]) -> RationalVector:
        """From exact numbers (ints, Fractions, numeric str, finite floats)."""
        fr = [to_fraction(v) for v in values]
        den = common_denominator(fr)
        return cls((v.numerator * (den // v.denominator) for v in fr), den)

    def __reduce__(self) -> tuple[type[RationalVector], tuple[tuple[int, ...], int]]:
        """Pickled as its numbers only: the kept hash and texts are remade when asked for."""
        return (RationalVector, (self.numerators, self.denominator))

    def texts(self) -> tuple[str, ...]:
        """The entries as exact text, ``"p"`` or ``"p/q"`` in lowest terms with ``q > 1``
        (exactly ``str`` of each Fraction entry), made once and kept: a vector of thousands of
        digits per entry is written in a few milliseconds, not one full-size gcd per entry."""
        if self._texts is None:
            self._texts = _lowest_terms(self)
        return self._texts

    def __len__(self) -> int:
        return len(self.numerators)

    @overload
    def __getitem__(self, index: int) -> Fraction: ...
    @overload
    def __getitem__(self, index: slice) -> list[Fraction]: ...
    def __getitem__(self, index: int | slice) -> Fraction | list[Fraction]:
        if isinstance(index, slice):
            return [Fraction(v, self.denominator) for v in self.numerators[index]]
        return Fraction(self.numerators[index], self.denominator)

    def __iter__(self) -> Iterator[Fraction]:
        return (Fraction(v, self.denominator) for v in self.numerators)

    def equals_scaled(self, numerators: Sequence[int], denominator: int) -> bool:
        """Exactly equal to ``numerators / denominator`` (fast when the denominators agree)."""
        if len(numerators) != len(self.numerators) or denominator == 0:
            return False
        if denominator == self.denominator:
            return list(self.numerators) == list(numerators)
        return all(a * denominator == b * self.denominator for a, b in zip(self.numerators, numerators))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, RationalVector):
            return self.equals_scaled(other.numerators, other.denominator)
        if isinstance(other, (list, tuple)):
            try:
                return len(other) == len(self) and all(a == to_fraction(b) for a, b in zip(self, other))
            except InputError:
                return False
        return NotImplemented

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(tuple(self))
        return self._hash

    def replace(self, index: int, value: object) -> RationalVector:
        """A copy with entry ``index`` set to ``value`` (exact)."""
        values: list[object] = list(self)
        values[index] = to_fraction(value)
        return RationalVector.from_values(values)

    def __repr__(self) -> str:
        shown = ", ".join(str(v) for v in self[:6])
        return f"RationalVector([{shown}{', ...' if len(self) > 6 else ''}])"
