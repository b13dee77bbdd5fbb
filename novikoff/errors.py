"""One exception hierarchy for everything novikoff reports to a user.

Every error a user can cause (bad data, bad arguments) is a
:class:`NovikoffError`; the CLI prints its message on one line and exits 2.
An invariant that fails during a checked run is an :class:`InvariantViolation`
(exit 1): that is a bug in novikoff or a false theorem, never bad input.
"""

from __future__ import annotations

__all__ = [
    "CertificateError",
    "DataFormatError",
    "InputError",
    "InvariantViolation",
    "NovikoffError",
]


class NovikoffError(Exception):
    """Base class of all errors novikoff raises on purpose."""


class InputError(NovikoffError, ValueError):
    """Bad input data or arguments; the message names the place."""


class DataFormatError(InputError):
    """A data file that cannot be read exactly.

    The message names the file, the 1-based line and, where it applies, the
    1-based column (field number), e.g. ``data.csv:3:2: not a number: 'abc'``.
    """

    def __init__(self, source: str, line: int | None, column: int | None, message: str) -> None:
        self.source = source
        self.line = line
        self.column = column
        self.detail = message
        where = source
        if line is not None:
            where += f":{line}"
            if column is not None:
                where += f":{column}"
        super().__init__(f"{where}: {message}")


class InvariantViolation(NovikoffError, AssertionError):
    """A theorem's invariant failed on an exact run.

    ``theorem`` is the spec id (e.g. ``"N2"``), ``values`` the exact numbers
    that were substituted into the statement.
    """

    def __init__(self, theorem: str, statement: str, values: dict[str, object], where: str) -> None:
        self.theorem = theorem
        self.statement = statement
        self.values = values
        shown = ", ".join(f"{k}={v}" for k, v in values.items())
        super().__init__(f"{theorem} failed {where}: {statement} is false for {shown}")


class CertificateError(NovikoffError):
    """A certificate that the exact checker rejects; the message says which check."""
