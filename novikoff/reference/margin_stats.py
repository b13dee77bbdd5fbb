"""Margin statistics of any linear model on a dataset, exact on rational data (the IJCAI paper's statistics).

For weights w (bias coordinate last, matching the dataset's rho) the margin of
sample i is m_i = y_i w.x~_i / ||w||. With u_i = y_i w.x~_i (rational):

- average margin theta = mean(u)/||w||: reported as theta ||w|| = mean(u) and
  ||w||^2, both exact, and as a float;
- semi-variance SV = (1/n) sum ((theta - m_i)_+)^2 = (1/(n ||w||^2)) sum ((mean(u) - u_i)_+)^2,
  exactly rational;
- S1's margin loss: for theta > 0, mean((1 - m_i/theta)_+^2) = SV/theta^2
  = sum((mean(u) - u_i)_+^2) / (n mean(u)^2), exactly rational;
- the margin CDF F(t) = #{i : m_i <= t}/n, a step function with jumps at the m_i;
- the minimum margin and the training errors #{i : u_i <= 0}.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from novikoff.data.dataset import Dataset
from novikoff.errors import InputError
from novikoff.exact.approx import signed_sqrt_ratio
from novikoff.exact.rational import to_fraction

__all__ = ["MarginStatistics", "margin_statistics"]


@dataclass(frozen=True)
class MarginStatistics:
    """Exact margin statistics (see the module docstring)."""

    scaled_margins: tuple[Fraction, ...]  # u_i = y_i w.x~_i (times ||w|| of the margin)
    w_norm2: Fraction
    mean_scaled: Fraction  # theta ||w||
    semivariance: Fraction  # SV
    margin_loss: Fraction | None  # S1's mean((1 - m_i/theta)_+^2), None unless theta > 0
    errors: int

    @property
    def n(self) -> int:
        return len(self.scaled_margins)

    @property
    def theta(self) -> float:
        """The average margin as a float (display; +-inf beyond the float64 range, never raises)."""
        return signed_sqrt_ratio(self.mean_scaled, self.w_norm2)

    def margins(self) -> list[float]:
        """m_i as floats, in sample order (display and plots; +-inf beyond the float64 range)."""
        return [signed_sqrt_ratio(u, self.w_norm2) for u in self.scaled_margins]

    def cdf(self, t: float | Fraction) -> Fraction:
        """F(t) = #{i : m_i <= t}/n, decided exactly for rational t (u_i <= t ||w|| by the sign split)."""
        q = to_fraction(t)
        count = 0
        for u in self.scaled_margins:
            # u <= q ||w||: compare signs, then squares
            if q >= 0:
                count += u <= 0 or u * u <= q * q * self.w_norm2
            else:
                count += u < 0 and u * u >= q * q * self.w_norm2
        return Fraction(count, self.n)


def margin_statistics(dataset: Dataset, weights: Sequence[object]) -> MarginStatistics:
    """The statistics of ``weights`` (length = the dataset's dimension, bias last) on ``dataset``."""
    w = [to_fraction(v) for v in weights]
    if len(w) != dataset.dimension:
        raise InputError(
            f"weights have {len(w)} values; the data need {dataset.dimension} "
            f"({dataset.n_features} features{' and the bias weight last' if dataset.bias else ''})"
        )
    w_norm2 = sum((v * v for v in w), Fraction(0))
    if w_norm2 == 0:
        raise InputError("weights are all zero: margins are undefined")
    Z, s = dataset.scaled_patterns
    u = tuple(sum((Fraction(a, s) * b for a, b in zip(z, w)), Fraction(0)) for z in Z)
    n = len(u)
    mean = sum(u, Fraction(0)) / n
    below = sum(((mean - x) ** 2 for x in u if x < mean), Fraction(0))
    semivariance = below / (n * w_norm2)
    loss = below / (n * mean * mean) if mean > 0 else None
    return MarginStatistics(u, w_norm2, mean, semivariance, loss, sum(1 for x in u if x <= 0))
