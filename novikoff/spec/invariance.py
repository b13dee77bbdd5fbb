"""G1: transformations that leave the perceptron's run (or the margin) unchanged.

Each relation names a dataset transform and the sympy statement of *why* the
decisions are unchanged; tests check the relation metamorphically on exact runs
(the update sequences must be identical) and, for the added point, on the
certificates (gamma^2 unchanged, R^2 = max(R^2, c^2 gamma^2)).

- scale: every z_i times one c > 0 (features and rho together) makes
  w_k times c, so each decision value w.z times c^2 > 0: the same signs.
- rotate: z_i -> Q z_i with Q^T Q = I (rational Q from a Cayley transform) keeps
  every inner product, hence every decision value.
- pad: appending zero features adds 0 to every inner product.
- add_point: z_new = c p* with c >= 1 satisfies z_new.p* = c ||p*||^2 >= ||p*||^2, so
  p* stays the min-norm point (gamma unchanged) and R^2 becomes max(R^2, c^2 gamma^2).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import sympy as sp

from novikoff.data.dataset import Dataset
from novikoff.exact.rational import to_fraction
from novikoff.spec.core import Statement
from novikoff.spec.perceptron import R2, gamma2

__all__ = [
    "G1",
    "G1_ADD_POINT",
    "G1_PAD",
    "G1_ROTATE",
    "G1_SCALE",
    "add_point_along_pstar",
    "fold_bias",
    "pad_zero_features",
    "rotate_patterns",
    "scale_patterns",
]

c = sp.Symbol("c", positive=True)
s = sp.Symbol("s", real=True)  # a decision value w.z
R2_new = sp.Symbol("R2_new", positive=True)
znew_norm2 = sp.Symbol("znew_norm2", nonnegative=True)
znew_dot_pstar = sp.Symbol("znew_dot_pstar", real=True)
gamma2_new = sp.Symbol("gamma2_new", positive=True)

G1_SCALE = Statement(
    id="G1",
    name="scaling_patterns_preserves_mistake_decisions",
    symbols=(c, s),
    hypotheses=(sp.Gt(c, 0, evaluate=False),),
    conclusion=sp.Equivalent(sp.Le(c**2 * s, 0, evaluate=False), sp.Le(s, 0, evaluate=False), evaluate=False),
    source="the textbook, exercise 6.2 (invariance)",
)

a = sp.Symbol("a", real=True)  # Cayley parameter of a plane rotation
w1, w2, w3, z1, z2, z3 = sp.symbols("w1 w2 w3 z1 z2 z3", real=True)
_Q = sp.Matrix([[1 - a**2, -2 * a], [2 * a, 1 - a**2]]) / (
    1 + a**2
)  # (I - A)(I + A)^-1, A = [[0, a], [-a, 0]]
_Qw, _Qz = _Q * sp.Matrix([w1, w2]), _Q * sp.Matrix([z1, z2])

G1_ROTATE = Statement(
    id="G1",
    name="cayley_rotation_preserves_inner_products",
    symbols=(a, w1, w2, z1, z2),
    hypotheses=(),
    conclusion=sp.Eq(_Qw[0] * _Qz[0] + _Qw[1] * _Qz[1], w1 * z1 + w2 * z2, evaluate=False),
    source="the textbook, exercise 6.2 (invariance), for rotations (Cayley transform)",
    note="stated for a plane rotation; in n dimensions (Qw).(Qz) = w^T Q^T Q z = w.z and "
    "Q^T Q = I is checked exactly on every Q the tests use",
)
G1_PAD = Statement(
    id="G1",
    name="zero_features_preserve_inner_products",
    symbols=(w1, w2, w3, z1, z2, z3),
    hypotheses=(sp.Eq(z3, 0, evaluate=False),),
    conclusion=sp.Eq(w1 * z1 + w2 * z2 + w3 * z3, w1 * z1 + w2 * z2, evaluate=False),
    source="the textbook, exercise 6.2",
)
G1_ADD_POINT = Statement(
    id="G1",
    name="point_along_pstar_keeps_gamma_raises_radius",
    symbols=(c, gamma2, R2, gamma2_new, R2_new),
    hypotheses=(sp.Ge(c, 1, evaluate=False), sp.Gt(gamma2, 0, evaluate=False)),
    hypothesis_names=("c_ge_1", "gamma2_pos"),
    premises=(
        ("radius", sp.Eq(R2_new, sp.Max(R2, znew_norm2))),  # R^2 is the largest squared norm
        ("znew_norm", sp.Eq(znew_norm2, c**2 * gamma2)),  # ||c p*||^2
        ("znew_dot", sp.Eq(znew_dot_pstar, c * gamma2)),  # (c p*).p*
        # p* in conv{z_i} with every z.p* >= ||p*||^2 is the min-norm point
        (
            "certificate",
            sp.Implies(
                sp.Ge(znew_dot_pstar, gamma2, evaluate=False), sp.Eq(gamma2_new, gamma2), evaluate=False
            ),
        ),
    ),
    conclusion=sp.And(
        sp.Eq(gamma2_new, gamma2, evaluate=False),
        sp.Eq(R2_new, sp.Max(R2, c**2 * gamma2), evaluate=False),
        evaluate=False,
    ),
    source="the notes (margin and radius)",
)
G1 = (G1_SCALE, G1_ROTATE, G1_PAD, G1_ADD_POINT)


def _rows(ds: Dataset) -> list[list[Fraction]]:
    return [ds.features(i) for i in range(ds.n_samples)]


def scale_patterns(ds: Dataset, factor: object) -> Dataset:
    """Every z_i times ``factor`` > 0: features and rho scaled together."""
    f = to_fraction(factor)
    if f <= 0:
        raise ValueError(f"scale factor must be > 0, got {f}")
    rows = [[f * v for v in r] for r in _rows(ds)]
    return Dataset.from_fraction_rows(rows, ds.labels, bias=ds.bias * f, name=f"{ds.name}*{f}")


def rotate_patterns(ds: Dataset, Q: Sequence[Sequence[Fraction]]) -> Dataset:
    """z_i -> Q z_i for an orthogonal Q, expressed as a dataset with rho = 0.

    The bias coordinate is folded into the features (x_i' = Q x~_i, label y_i
    kept, so z_i' = Q z_i), since a rotation mixes it with the others.
    """
    dim = ds.dimension
    if len(Q) != dim or any(len(r) != dim for r in Q):
        raise ValueError(f"Q must be {dim} x {dim}")
    rows = []
    for i in range(ds.n_samples):
        xt = ds.features(i) + ([ds.bias] if ds.bias != 0 else [])
        rows.append([sum((Q[a][b] * xt[b] for b in range(dim)), Fraction(0)) for a in range(dim)])
    return Dataset.from_fraction_rows(rows, ds.labels, bias=0, name=f"{ds.name} rotated")


def pad_zero_features(ds: Dataset, extra: int) -> Dataset:
    """Append ``extra`` zero features before the bias coordinate."""
    rows = [r + [Fraction(0)] * extra for r in _rows(ds)]
    return Dataset.from_fraction_rows(rows, ds.labels, bias=ds.bias, name=f"{ds.name}+{extra}zeros")


def fold_bias(ds: Dataset) -> Dataset:
    """The same patterns z_i with the bias written as a last feature and rho = 0."""
    if ds.bias == 0:
        return ds
    rows = [[*r, ds.bias] for r in _rows(ds)]
    return Dataset.from_fraction_rows(rows, ds.labels, bias=0, name=ds.name)


def add_point_along_pstar(ds: Dataset, pstar: Sequence[Fraction], factor: object) -> Dataset:
    """Append z_new = factor * p* (label +1) to the bias-folded dataset (same z_i, rho = 0)."""
    f = to_fraction(factor)
    folded = fold_bias(ds)
    rows = [*_rows(folded), [f * p for p in pstar]]
    return Dataset.from_fraction_rows(rows, [*folded.labels, 1], bias=0, name=f"{ds.name}+{f}p*")
