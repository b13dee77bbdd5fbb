"""How large a ``falsify`` bound expression may be: :class:`BoundLimits` and its defaults.

Apart from :mod:`novikoff.fuzz.bounds` (which imports sympy and the algorithm registry) so
that building the command line's parser, which shows the defaults, loads neither.
"""

from __future__ import annotations

from dataclasses import dataclass

from novikoff.errors import InputError

__all__ = [
    "DEFAULT_LIMITS",
    "LIMIT_OPTIONS",
    "MAX_DEPTH",
    "MAX_EXPONENT",
    "MAX_LENGTH",
    "MAX_POWER_DIGITS",
    "BoundLimits",
    "limits_from_file",
]

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


#: The command-line option of each limit, in the order of :class:`BoundLimits`' fields.
LIMIT_OPTIONS: tuple[tuple[str, str], ...] = (
    ("length", "--max-bound-length"),
    ("depth", "--max-bound-depth"),
    ("exponent", "--max-bound-exponent"),
    ("power_digits", "--max-bound-digits"),
)


def limits_from_file(recorded: object, own: BoundLimits, where: str) -> BoundLimits:
    """The limits a file records (a list of up to four positive integers, the fields of
    :class:`BoundLimits` in order; missing ones are ``own``'s), capped by the command's
    ``own`` limits: a file never lifts them. InputError naming ``where`` and the option to
    raise when a recorded limit is above the command's, or when the record is malformed."""
    if recorded is None:
        return own
    if not isinstance(recorded, list) or len(recorded) > len(LIMIT_OPTIONS):
        raise InputError(f"{where}: bound_limits must be a list of at most {len(LIMIT_OPTIONS)} integers")
    values = {}
    for value, (name, option) in zip(recorded, LIMIT_OPTIONS):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise InputError(f"{where}: bound_limits.{name} must be a positive integer")
        cap = getattr(own, name)
        if value > cap:
            shown = value if value < 10**30 else f"a {len(str(value))}-digit number"
            raise InputError(
                f"{where}: the file asks for bound {name} {shown}, more than {option} {cap} "
                f"(pass a larger {option} to replay it)"
            )
        values[name] = value
    return BoundLimits(**{name: values.get(name, getattr(own, name)) for name, _ in LIMIT_OPTIONS})
