"""Apply: a checked lemma instantiated at images that lie in its symbols' domains."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import sympy as sp

from novikoff.proofs.core.admission import admit_expr as _admit_expr
from novikoff.proofs.core.admission import expand_sums as _expand_sums
from novikoff.proofs.core.context import Context, Hyps
from novikoff.proofs.core.context import as_context as _context
from novikoff.proofs.core.definedness import domain_fits as _domain_fits
from novikoff.proofs.core.definedness import established as _established
from novikoff.proofs.core.failures import FailureKind, ProofFailure
from novikoff.proofs.core.instances import instance as _instance
from novikoff.proofs.core.instances import map_relation as _map_relation
from novikoff.proofs.core.instances import same_claim as _same_claim
from novikoff.proofs.core.obligations import Obligation, Proof, check_obligation
from novikoff.spec.core import Forall

__all__ = ["Apply"]


@dataclass(frozen=True)
class Apply(Proof):
    """Use a proved lemma: check ``lemma`` itself, prove each of its hypotheses after
    ``mapping`` (symbol -> expression) with the proof in ``premises`` (by hypothesis
    name), and require the mapped claim to be the claim (or, for inequalities, to
    have the same difference)."""

    lemma: Obligation
    mapping: Mapping[sp.Symbol, sp.Expr]
    premises: Mapping[str, Proof]

    def verify(self, hyps: Hyps, claim: sp.Basic) -> None:
        ctx = _context(hyps)
        images: dict[sp.Symbol, sp.Expr] = {}
        for symbol, image in self.mapping.items():
            if not isinstance(symbol, sp.Symbol):
                raise ProofFailure(
                    f"a lemma is instantiated at symbols, not at {symbol}", FailureKind.MALFORMED
                )
            image = images[symbol] = _admit_expr(image, ctx, f"the image of {symbol}: ")
            # the lemma holds for every value in its symbols' declared domains only: the
            # image is a defined real number; its sign and integrality must be known here
            bad = _domain_fits(symbol, _established(image, ctx))
            if bad is not None:
                raise ProofFailure(
                    f"lemma symbol {symbol} is declared {bad} but that is not known of its image {image}",
                    FailureKind.DOMAIN,
                )
        result = check_obligation(self.lemma)
        if not result.ok:
            raise ProofFailure(
                f"lemma {self.lemma.name!r}: {result.message}", result.kind or FailureKind.MALFORMED
            )
        for name, h in self.lemma.hypotheses.items():
            if isinstance(h, Forall):
                raise ProofFailure(
                    f"lemma hypothesis {name!r} is a Forall: not applicable", FailureKind.MALFORMED
                )
            if name not in self.premises:
                raise ProofFailure(
                    f"lemma {self.lemma.name!r}: no proof for its hypothesis {name!r}", FailureKind.UNKNOWN
                )
            premise = _instance(h, images, ctx, f"lemma hypothesis {name!r}: ")
            try:
                self.premises[name].verify(ctx, premise)
            except ProofFailure as exc:
                raise exc.within(f"lemma hypothesis {name!r}") from None
        # the lemma's claim as its own check admitted it (sums expanded under its
        # hypotheses); the lemma makes it defined at the images, where its hypotheses
        # (just proved) hold and which lie in its symbols' domains (checked above)
        mapped = _map_relation(_expand_sums(self.lemma.claim, Context(self.lemma.hypotheses)), images)
        if not _same_claim(claim, mapped):
            raise ProofFailure(f"the lemma gives {mapped}, not {claim}", FailureKind.MISMATCH)
