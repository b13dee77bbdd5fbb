"""How large a ``falsify`` bound expression may be: :class:`BoundLimits` and its defaults.

Apart from :mod:`novikoff.fuzz.bounds` (which imports sympy and the algorithm registry) so
that building the command line's parser, which shows the defaults, loads neither.
"""

from __future__ import annotations

from dataclasses import dataclass

from novikoff.errors import InputError

__all__ = ["DEFAULT_LIMITS", "MAX_DEPTH", "MAX_EXPONENT", "MAX_LENGTH", "MAX_POWER_DIGITS", "BoundLimits"]

MAX_LENGTH = 2000
MAX_DEPTH = 100
MAX_POWER_DIGITS = 10_000
MAX_EXPONENT = 10_000


@dataclass(frozen=True)
class BoundLimits:
    """How large a bound expression may be before it is refused (each is a CLI option of
    ``falsify``): characters of text, nesting depth, the absolute value of a numeric
    exponent and the digits of a power of two numbers. Parsing and building the
    expression cost at most a polynomial in these."""

    length: int = MAX_LENGTH
    depth: int = MAX_DEPTH
    exponent: int = MAX_EXPONENT
    power_digits: int = MAX_POWER_DIGITS

    def __post_init__(self) -> None:
        for name in ("length", "depth", "exponent", "power_digits"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise InputError(f"bound limit {name} must be a positive integer, got {value!r}")


DEFAULT_LIMITS = BoundLimits()
