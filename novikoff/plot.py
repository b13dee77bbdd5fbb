"""The seed's squeeze figure for one exact run (needs the ``plot`` extra: matplotlib)."""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path
from typing import Any

from novikoff.errors import InputError

__all__ = ["FORMATS", "check_plot_path", "plot_margin_cdf", "plot_squeeze"]

#: File suffixes the Agg backend writes without further software (no LaTeX, no Pillow plug-ins).
FORMATS = ("png", "pdf", "svg", "svgz", "ps", "eps", "jpg", "jpeg", "tif", "tiff")


def check_plot_path(path: str) -> Path:
    """``path`` as the file a figure will be written to; InputError (naming --plot) unless it is
    a non-empty name with a known image suffix that is not a directory. Checked before any run, so
    a bad name costs nothing, and the figure goes exactly where the message says."""
    if not path.strip():
        raise InputError("--plot: empty file name")
    target = Path(path)
    if target.is_dir():
        raise InputError(f"--plot {path}: is a directory; give a file name such as {target / 'figure.png'}")
    suffix = target.suffix.lower().lstrip(".")
    if suffix not in FORMATS:
        raise InputError(
            f"--plot {path}: unknown image format {target.suffix or '(no suffix)'!r}; use one of "
            + ", ".join(f".{f}" for f in FORMATS)
        )
    if not target.parent.is_dir():
        raise InputError(f"--plot {path}: directory {target.parent} does not exist")
    return target


def _finite(value: Fraction, what: str) -> float:
    """``value`` as a float64 for drawing; InputError when it is beyond the float64 range."""
    try:
        f = float(value)
    except OverflowError:
        f = math.inf
    if not math.isfinite(f):
        raise InputError(f"--plot: {what} is beyond the float64 range; the figure cannot be drawn")
    return f


def _pyplot() -> Any:
    """matplotlib.pyplot on the Agg backend; InputError when matplotlib is missing."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise InputError("--plot needs matplotlib: pip install 'novikoff[plot]'") from None
    return plt


def _save(plt: Any, fig: Any, path: str | Path, dpi: int) -> None:
    """Lay out, write and close ``fig``; InputError naming the path when it cannot be written."""
    fig.tight_layout()
    try:
        fig.savefig(path, dpi=dpi)
    except OSError as exc:
        raise InputError(f"--plot: cannot write {path}: {exc.strerror or exc}") from None
    finally:
        plt.close(fig)


def plot_squeeze(
    path: str | Path, norm2_history: list[Fraction], R2: Fraction, gamma2: Fraction | None, title: str
) -> None:
    """Draw ||w_k|| between k gamma and sqrt(k) R, and ||w_k||^2 between k^2 gamma^2 and k R^2.

    ``norm2_history[k]`` is ||w_k||^2 (exact, k = 0..updates). Without a margin
    (non-separable data) only the upper bounds are drawn.
    """
    plt = _pyplot()
    ks = list(range(len(norm2_history)))
    top = max(ks[-1] if ks else 1, 1)
    r2 = _finite(R2, "R^2")
    norm2s = [_finite(v, "||w_k||^2") for v in norm2_history]
    ratio = None if gamma2 is None else _finite(R2 / gamma2, "R^2/gamma^2")
    if ratio is not None and ratio <= 4 * top:
        top = max(top, math.ceil(ratio))  # draw the bounds up to where they cross
    grid = [top * j / 200 for j in range(201)]
    fig, axes = plt.subplots(1, 2, figsize=(13, 5))
    norms = [math.sqrt(v) for v in norm2s]
    r = math.sqrt(r2)
    axes[0].plot(ks, norms, "b.-", label=r"$\|w_k\|$ (exact run)")
    axes[0].plot(grid, [math.sqrt(k) * r for k in grid], "r--", label=r"$\sqrt{k}\,R$")
    axes[1].plot(ks, norm2s, "b.-", label=r"$\|w_k\|^2$")
    axes[1].plot(grid, [k * r2 for k in grid], "r--", label=r"$k R^2$")
    if gamma2 is not None and ratio is not None:
        g2 = _finite(gamma2, "gamma^2")
        g = math.sqrt(g2)
        axes[0].plot(grid, [k * g for k in grid], "g--", label=r"$k\gamma$")
        axes[1].plot(grid, [k * k * g2 for k in grid], "g--", label=r"$k^2\gamma^2$")
        bound = ratio
        if bound <= top:
            axes[1].axvline(bound, color="purple", linestyle=":", label=rf"$R^2/\gamma^2={bound:.4g}$")
    for ax, ylabel in zip(axes, [r"$\|w_k\|$", r"$\|w_k\|^2$"]):
        ax.set_xlabel("updates $k$")
        ax.set_ylabel(ylabel)
        ax.grid(True, alpha=0.3)
        ax.legend()
    fig.suptitle(title)
    _save(plt, fig, path, dpi=100)


def plot_margin_cdf(path: str | Path, curves: dict[str, list[float]], title: str) -> None:
    """The cumulative margin distribution (seed 003's Figure 1 style): for each named model,
    the fraction of samples with margin <= t against t."""
    for margins in curves.values():
        if not all(math.isfinite(v) for v in margins):
            raise InputError("--plot: a margin is beyond the float64 range; the figure cannot be drawn")
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 5))
    for name, margins in curves.items():
        xs = sorted(margins)
        n = len(xs)
        ax.step(xs, [(k + 1) / n for k in range(n)], where="post", label=name)
    ax.axvline(0.0, color="gray", linewidth=0.8, linestyle=":")
    ax.set_xlabel("normalized margin $y\\,w\\cdot\\tilde x/\\|w\\|$")
    ax.set_ylabel("cumulative frequency")
    ax.set_title(title)
    ax.legend()
    ax.grid(alpha=0.3)
    _save(plt, fig, path, dpi=120)
