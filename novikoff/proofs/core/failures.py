"""Why a proof was rejected: the :class:`FailureKind` of a :class:`ProofFailure`."""

from __future__ import annotations

from enum import Enum

__all__ = ["FailureKind", "ProofFailure"]


class FailureKind(str, Enum):
    """Why a proof was rejected."""

    RESIDUAL = "residual"  # an identity or certificate does not reduce to zero
    SIGN = "sign"  # a coefficient, multiplier or term lacks the sign or strictness it needs
    COUNTEREXAMPLE = "counterexample"  # interval arithmetic shows the claim false on a box
    UNDECIDED = "undecided"  # interval arithmetic could not separate the bound
    UNCOVERED = "uncovered"  # a box, interval or induction range the hypotheses do not give
    DOMAIN = "domain"  # a variable's declared domain is not what the rule quantifies over
    UNDEFINED = "undefined"  # a denominator may vanish, a log/real power base may be <= 0, not real
    SCOPE = "scope"  # a hypothesis about a bound variable, used where it does not hold
    UNKNOWN = "unknown"  # a hypothesis name that does not exist
    MISMATCH = "mismatch"  # the proof proves some other claim
    MALFORMED = "malformed"  # an ill-formed proof object or an unsupported construct


class ProofFailure(Exception):
    """A proof step that does not check; the message names the step and the residual."""

    def __init__(self, message: str, kind: FailureKind = FailureKind.MALFORMED) -> None:
        super().__init__(message)
        self.kind = kind

    def within(self, prefix: str) -> ProofFailure:
        """The same failure, its message prefixed by the enclosing step."""
        return ProofFailure(f"{prefix}: {self}", self.kind)
