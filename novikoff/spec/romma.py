"""R1: ROMMA's mistake bound (Li and Long 2002), mistakes <= R^2/gamma^2 as Novikoff's.

Quantities: k = mistakes (updates on ``w.z <= 0``) so far; gamma^2 =
||p*||^2, R^2 = max ||z_i||^2. The run, for the premises, indexed by mistakes j = 0, 1, ...:
``w2(j)`` = ||w||^2 right after the j-th mistake's update (``w2(0) = 0``: w_1 = 0);
``v2(j)``, ``wz(j)`` and ``z2(j)`` = ||w||^2, w.z and ||z||^2 right before the update of
mistake j + 1 (the aggressive rule's updates in between never shrink ||w||, so v2(j) >= w2(j)).

Why the premises hold (checked exactly by :func:`novikoff.reference.romma.run_romma` on every
run, and proved for the closed form by :mod:`novikoff.proofs.romma`): the new w' lies in
{v : v.w >= ||w||^2}, so ||w'||^2 >= ||w||^2 + ||w' - w||^2; and w'.z >= 1 with
Cauchy-Schwarz gives ||w' - w||^2 ||z||^2 >= (1 - w.z)^2 ("step"). Every w is the minimum-norm
point of a set that u/gamma satisfies (u the unit max-margin direction), so
||w||^2 <= 1/gamma^2 ("minnorm"). Then k/R^2 <= ||w_k||^2 <= 1/gamma^2.
"""

from __future__ import annotations

import sympy as sp

from novikoff.spec.core import Forall, Statement

__all__ = ["R1", "R2", "gamma2", "k", "v2", "w2", "wz", "z2"]

k = sp.Symbol("k", integer=True, nonnegative=True)
gamma2 = sp.Symbol("gamma2", positive=True)
R2 = sp.Symbol("R2", positive=True)
j = sp.Symbol("j", integer=True, nonnegative=True)
w2, v2, wz, z2 = (sp.Function(name) for name in ("w2", "v2", "wz", "z2"))

R1 = Statement(
    id="R1",
    name="romma_mistakes_mul_gamma_sq_le_radius_sq",
    symbols=(k, gamma2, R2),
    hypotheses=(sp.Ge(k, 0, evaluate=False), sp.Gt(gamma2, 0, evaluate=False), sp.Gt(R2, 0, evaluate=False)),
    hypothesis_names=("k_nonneg", "gamma2_pos", "R2_pos"),
    conclusion=sp.Le(k * gamma2, R2, evaluate=False),
    premises=(
        ("w0", sp.Eq(w2(0), 0)),
        ("monotone", Forall(j, sp.Ge(v2(j), w2(j), evaluate=False))),
        ("step", Forall(j, sp.Ge(z2(j) * (w2(j + 1) - v2(j)), (1 - wz(j)) ** 2, evaluate=False))),
        ("mistake", Forall(j, sp.Le(wz(j), 0, evaluate=False))),
        ("pattern", Forall(j, sp.Gt(z2(j), 0, evaluate=False))),
        ("radius", Forall(j, sp.Le(z2(j), R2, evaluate=False))),
        ("minnorm", sp.Le(gamma2 * w2(k), 1, evaluate=False)),
    ),
    source="Li and Long 2002 (ROMMA: mistake bound R^2/gamma^2, as Novikoff's)",
    note="each mistake raises ||w||^2 by at least (1 - w.z)^2/||z||^2 >= 1/R^2, and ||w|| <= 1/gamma "
    "throughout: k/R^2 <= ||w_k||^2 <= 1/gamma^2",
)
