"""Obligations, the base class of the proof kinds, and :func:`check_obligation`.

Every rule's ``verify`` is wrapped so that its body sees only a :class:`Context` and an
admitted claim (:mod:`novikoff.proofs.core.admission`).
"""

from __future__ import annotations

import functools
import time
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

import sympy as sp

from novikoff.proofs.core.admission import admit as _admit
from novikoff.proofs.core.context import Context, Hypothesis, Hyps
from novikoff.proofs.core.context import as_context as _context
from novikoff.proofs.core.failures import FailureKind, ProofFailure
from novikoff.proofs.core.language import screen_hypothesis as _screen_hypothesis

__all__ = ["Obligation", "Proof", "ProofResult", "check_obligation"]


class Proof(ABC):
    """Base class of proof kinds: ``verify(hyps, claim)`` raises ProofFailure or returns None.

    Every subclass's ``verify`` is wrapped (:meth:`__init_subclass__`) so that its body
    only ever sees a :class:`Context` and an admitted claim: hypotheses passed as a plain
    mapping are screened, the claim's sums are expanded, every node is screened against
    the language, and the claim's side conditions are discharged. No rule can forget
    the definedness check. A rule with ``defined_at_entry = False`` discharges them
    where it has more facts, and says where in its docstring: the interval rules on
    every covering box, :class:`Chain` in its final rule (with the steps as hypotheses),
    :class:`Cases` in each case (before the case rewrites the claim),
    :class:`Contradiction` nowhere (no point satisfies its hypotheses).
    """

    defined_at_entry: ClassVar[bool] = True

    # runs when a class is created, at import: before mutmut can switch a mutant on, so
    # no mutant of it could ever be killed (docs/mutation.md); the tests check directly
    # that every rule's verify is wrapped. _admitted, which the wrapper calls, is mutated.
    def __init_subclass__(cls, **kwargs: Any) -> None:  # pragma: no mutate
        super().__init_subclass__(**kwargs)  # pragma: no mutate
        body = cls.__dict__.get("verify")  # pragma: no mutate
        if body is None or getattr(body, "admits_its_claim", False):  # pragma: no mutate
            return  # pragma: no mutate

        @functools.wraps(body)  # pragma: no mutate
        def verify(self: Proof, hyps: Hyps, claim: sp.Basic) -> None:  # pragma: no mutate
            _admitted(body, self, hyps, claim)  # pragma: no mutate

        verify.admits_its_claim = True  # type: ignore[attr-defined]  # pragma: no mutate
        cls.verify = verify  # type: ignore[method-assign]  # pragma: no mutate

    @abstractmethod
    def verify(self, hyps: Hyps, claim: sp.Basic) -> None:
        """Check that this proof establishes ``claim`` from ``hyps``."""


def _admitted(body: Any, proof: Proof, hyps: Hyps, claim: sp.Basic) -> None:
    """Run a rule's ``body`` on a :class:`Context` and its admitted claim: hypotheses
    passed as a plain mapping (not yet screened) are screened first."""
    if not isinstance(hyps, Context):
        for name, h in hyps.items():
            _screen_hypothesis(name, h)
    ctx = _context(hyps)
    body(proof, ctx, _admit(claim, ctx, proof.defined_at_entry))


@dataclass(frozen=True)
class Obligation:
    """Prove ``claim`` under named ``hypotheses`` with ``proof``; ``spec_id`` names the theorem."""

    name: str
    spec_id: str
    hypotheses: Mapping[str, Hypothesis]
    claim: sp.Basic
    proof: Proof
    note: str = ""


@dataclass(frozen=True)
class ProofResult:
    """Outcome of checking one obligation; ``kind`` says why it failed (None when ok)."""

    obligation: Obligation
    ok: bool
    seconds: float
    message: str = ""
    kind: FailureKind | None = None


def check_obligation(ob: Obligation) -> ProofResult:
    """Check one obligation; never raises for a failed proof (the result says why).

    ``ok`` is True only if the proof establishes the claim for every point of the
    symbols' domains that satisfies the hypotheses (see the package docstring of
    :mod:`novikoff.proofs.core`).
    """
    start = time.perf_counter()
    try:
        for name, h in ob.hypotheses.items():
            _screen_hypothesis(name, h)
        ob.proof.verify(Context(ob.hypotheses), ob.claim)
    except ProofFailure as exc:
        return ProofResult(ob, False, time.perf_counter() - start, str(exc), exc.kind)
    except RecursionError:
        return ProofResult(ob, False, time.perf_counter() - start, "proof too deep", FailureKind.MALFORMED)
    except Exception as exc:  # a malformed proof is a failed proof, with its reason
        return ProofResult(
            ob, False, time.perf_counter() - start, f"{type(exc).__name__}: {exc}", FailureKind.MALFORMED
        )
    return ProofResult(ob, True, time.perf_counter() - start)
