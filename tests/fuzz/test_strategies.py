"""The strategies generate what they promise, degenerate cases included (each search can fail)."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from hypothesis import Phase, find, settings

from novikoff.data.dataset import Dataset
from novikoff.fuzz import nonseparable_datasets, orderings, separable_datasets, t1_datasets

# coverage searches only need one example: generate, do not shrink
FAST = settings(max_examples=1000, database=None, deadline=None, phases=[Phase.generate])
SHRINK = settings(max_examples=1000, database=None, deadline=None)


def rows(ds: Dataset) -> list[tuple[Fraction, ...]]:
    return [tuple(ds.features(i)) for i in range(ds.n_samples)]


def test_separable_strategy_reaches_degenerate_cases() -> None:
    find(separable_datasets(), lambda ds: len(set(rows(ds))) < ds.n_samples, settings=FAST)  # duplicates
    find(separable_datasets(), lambda ds: len(ds.classes) == 1 and ds.n_samples >= 2, settings=FAST)
    find(separable_datasets(), lambda ds: any(all(v == 0 for v in r) for r in rows(ds)), settings=FAST)
    find(separable_datasets(), lambda ds: ds.n_features > ds.n_samples, settings=FAST)
    find(separable_datasets(), lambda ds: ds.n_samples > ds.n_features + 2, settings=FAST)
    find(separable_datasets(values="dyadic"), lambda ds: ds.denominator > 1, settings=FAST)
    find(separable_datasets(values="rational"), lambda ds: ds.denominator % 3 == 0, settings=FAST)
    find(separable_datasets(), lambda ds: ds.n_features == 8, settings=FAST)
    find(separable_datasets(), lambda ds: ds.bias == 0, settings=FAST)


def test_collinear_layout_is_collinear() -> None:
    ds = find(
        separable_datasets(min_dim=2, max_dim=2, bias=1),
        lambda ds: ds.name.endswith("collinear]") and ds.n_samples >= 3,
        settings=FAST,
    )
    (x0, y0), (x1, y1) = rows(ds)[:2]
    for x, y in rows(ds)[2:]:
        assert (x1 - x0) * (y - y0) == (y1 - y0) * (x - x0)


def named(kind: str) -> Callable[[Dataset], bool]:
    """A predicate: the dataset's name ends with ``kind]`` (the strategy's tag)."""
    return lambda ds: ds.name.endswith(f"{kind}]")


def test_nonseparable_kinds_are_generated() -> None:
    for kind in ("conflict", "xor", "opposite"):
        find(nonseparable_datasets(), named(kind), settings=FAST)


def test_orderings_cover_every_form() -> None:
    find(orderings(4), lambda o: o is None, settings=FAST)
    find(orderings(4), lambda o: isinstance(o, str) and o.startswith("shuffle:"), settings=FAST)
    find(orderings(4), lambda o: isinstance(o, list) and len(o) > 0 and isinstance(o[0], int), settings=FAST)
    find(
        orderings(4), lambda o: isinstance(o, list) and len(o) >= 2 and isinstance(o[0], list), settings=FAST
    )


def test_t1_family_has_rotations_and_scales() -> None:
    find(t1_datasets(), lambda p: "rotated" in p[1].name and p[0] >= 3, settings=FAST)
    find(t1_datasets(), lambda p: p[1].R2 != 1, settings=FAST)


def test_failures_shrink_to_small_examples() -> None:
    # a deliberately false claim ("no separable set has 3 samples in dimension >= 2")
    smallest = find(
        separable_datasets(min_samples=1),
        lambda ds: ds.n_samples >= 3 and ds.n_features >= 2,
        settings=SHRINK,
    )
    assert smallest.n_samples == 3  # the minimal count; the values shrink to 0 and +-1
    assert all(abs(v) <= 1 for r in rows(smallest) for v in r)


def test_strategy_values_are_exact_fractions() -> None:
    ds = find(separable_datasets(values="rational"), lambda ds: ds.denominator > 1, settings=FAST)
    assert all(isinstance(v, Fraction) for r in rows(ds) for v in r)


def test_the_package_re_exports_exactly_the_strategies() -> None:
    import novikoff.fuzz
    from novikoff.fuzz import strategies

    assert sorted(novikoff.fuzz.__all__) == sorted(strategies.__all__)
    assert all(getattr(novikoff.fuzz, name) is getattr(strategies, name) for name in strategies.__all__)
