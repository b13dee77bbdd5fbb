"""The textbook's and the IJCAI paper's figures for exact runs (needs the ``plot`` extra: matplotlib).

:func:`plot_squeeze` and :func:`plot_margin_cdf` draw one run for the CLI's ``--plot``;
:func:`plot_squeeze_margins` and :func:`plot_margin_cdfs` draw the several-margin and
several-dataset versions used by ``benchmarks/figures.py``. Every function draws on the Agg
backend, converts exact values to floats only for drawing (InputError beyond the float64
range) and writes exactly one file.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

from novikoff.errors import InputError

__all__ = [
    "FORMATS",
    "cdf_steps",
    "check_plot_path",
    "plot_margin_cdf",
    "plot_margin_cdfs",
    "plot_squeeze",
    "plot_squeeze_margins",
    "save_figure",
]

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


def _save(plt: Any, fig: Any, path: str | Path, dpi: int, palette: bool = False) -> None:
    """Lay out, write and close ``fig``; InputError naming the path when it cannot be written.
    With ``palette`` a PNG is stored with an adaptive 256-colour palette (see :func:`save_figure`)."""
    fig.tight_layout()
    try:
        if palette and Path(path).suffix.lower() == ".png":
            import io

            from PIL import Image  # a dependency of matplotlib

            buffer = io.BytesIO()
            fig.savefig(buffer, format="png", dpi=dpi)
            buffer.seek(0)
            with Image.open(buffer) as image:
                image.convert("RGB").quantize(256).save(path, optimize=True)
        else:
            fig.savefig(path, dpi=dpi)
    except OSError as exc:
        raise InputError(f"--plot: cannot write {path}: {exc.strerror or exc}") from None
    finally:
        plt.close(fig)


def save_figure(fig: Any, path: str | Path, *, dpi: int = 100, palette: bool = True) -> None:
    """Lay out, write and close a matplotlib figure. A ``.png`` is written with an adaptive
    256-colour palette when ``palette`` (line plots come out about three times smaller, the
    colours of a few lines and a colour map are kept); other formats as matplotlib writes
    them. InputError naming the path when it cannot be written."""
    _save(_pyplot(), fig, path, dpi, palette)


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
    """The cumulative margin distribution (the IJCAI paper's Figure 1 style): for each named model,
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


def cdf_steps(margins: Sequence[float]) -> tuple[list[float], list[float]]:
    """The empirical CDF's jump points: sorted margins ``xs`` and ``ys[k] = (k + 1)/n``, the
    fraction of margins ``<= xs[k]`` (for tied margins, the last of the tie gives the right
    value). InputError for an empty list or a margin that is not finite."""
    if not margins:
        raise InputError("--plot: no margins to draw")
    if not all(math.isfinite(v) for v in margins):
        raise InputError("--plot: a margin is beyond the float64 range; the figure cannot be drawn")
    xs = sorted(margins)
    n = len(xs)
    return xs, [(k + 1) / n for k in range(n)]


def plot_squeeze_margins(
    path: str | Path,
    norm2_history: Sequence[Fraction],
    R2: Fraction,
    margins: Mapping[str, Fraction],
    title: str,
    *,
    k_max: int | None = None,
    dpi: int = 100,
) -> None:
    """The squeeze of one run against several margins (each a unit direction's gamma^2 > 0).

    Left: ||w_k|| with sqrt(k) R above and, for each named gamma^2, k gamma below; right:
    ||w_k||^2 with k R^2 above, k^2 gamma^2 below and a vertical line at R^2/gamma^2, the
    crossing of the two bounds. The k axis runs to ``k_max`` (default: the largest of the
    updates and every crossing). InputError when a gamma^2 is not positive, when
    ``norm2_history`` is empty or when a value is beyond the float64 range.
    """
    if not norm2_history:
        raise InputError("--plot: empty norm history (it starts with ||w_0||^2 = 0)")
    for label, g2 in margins.items():
        if g2 <= 0:
            raise InputError(f"--plot: margin {label!r} has gamma^2 = {g2}; it must be positive")
    plt = _pyplot()
    r2 = _finite(R2, "R^2")
    norm2s = [_finite(v, "||w_k||^2") for v in norm2_history]
    ks = list(range(len(norm2s)))
    crossings = {label: _finite(R2 / g2, "R^2/gamma^2") for label, g2 in margins.items()}
    top = k_max if k_max is not None else max([ks[-1], *(math.ceil(c) for c in crossings.values())])
    top = max(top, 1)
    grid = [top * j / 400 for j in range(401)]
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.6))
    r = math.sqrt(r2)
    axes[0].plot(ks, [math.sqrt(v) for v in norm2s], "b.-", zorder=3, label=r"$\|w_k\|$ (exact run)")
    axes[0].plot(grid, [math.sqrt(k) * r for k in grid], "r--", label=r"$\sqrt{k}\,R$")
    axes[1].plot(ks, norm2s, "b.-", zorder=3, label=r"$\|w_k\|^2$ (exact run)")
    axes[1].plot(grid, [k * r2 for k in grid], "r--", label=r"$k R^2$")
    styles = ["g--", "m-.", "c:", "y--"]
    for (label, g2), style in zip(margins.items(), styles * (1 + len(margins) // len(styles))):
        g2f = _finite(g2, "gamma^2")
        g = math.sqrt(g2f)
        axes[0].plot(grid, [k * g for k in grid], style, label=rf"$k\gamma$, {label}")
        axes[1].plot(grid, [k * k * g2f for k in grid], style, label=rf"$k^2\gamma^2$, {label}")
        cross = crossings[label]
        if cross <= top:
            axes[1].axvline(
                cross, color=style[0], linestyle=":", linewidth=1.2, label=f"$R^2/\\gamma^2$ = {cross:.4g}"
            )
    if ks[-1] * 10 < top:  # the run is a speck at this scale: show it in an inset as well
        zoom = max(ks[-1], 1) * 1.5
        zgrid = [zoom * j / 100 for j in range(101)]
        for ax, run, upper, lowers in (
            (axes[0], [math.sqrt(v) for v in norm2s], [math.sqrt(k) * r for k in zgrid], "sqrt"),
            (axes[1], norm2s, [k * r2 for k in zgrid], "square"),
        ):
            inset = ax.inset_axes((0.6, 0.1, 0.37, 0.37))
            inset.plot(ks, run, "b.-", zorder=3)
            inset.plot(zgrid, upper, "r--")
            for (_, g2), style in zip(margins.items(), styles * (1 + len(margins) // len(styles))):
                g2f = _finite(g2, "gamma^2")
                lower = (
                    [k * math.sqrt(g2f) for k in zgrid] if lowers == "sqrt" else [k * k * g2f for k in zgrid]
                )
                inset.plot(zgrid, lower, style)
            inset.set_xlim(0, zoom)
            inset.set_ylim(0, max(*run, upper[-1]) * 1.05)
            inset.set_title(f"the run: k = 0..{ks[-1]}", fontsize=8)
            inset.tick_params(labelsize=7)
            inset.grid(True, alpha=0.3)
    for ax, ylabel in zip(axes, [r"$\|w_k\|$", r"$\|w_k\|^2$"]):
        ax.set_xlabel("updates $k$")
        ax.set_ylabel(ylabel)
        ax.set_xlim(0, top)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=8)
    axes[1].set_ylim(0, top * r2 * 1.05)
    axes[0].set_ylim(0, math.sqrt(top) * r * 1.05)
    fig.suptitle(title)
    _save(plt, fig, path, dpi=dpi, palette=True)


def plot_margin_cdfs(
    path: str | Path,
    panels: Mapping[str, Mapping[str, Sequence[float]]],
    title: str,
    *,
    columns: int = 2,
    dpi: int = 100,
) -> None:
    """One cumulative-margin panel per dataset (the IJCAI paper's Figure 1): ``panels[dataset][model]``
    are the normalized margins of that model on that dataset; each curve is the fraction of
    samples with margin <= t against t. InputError when there is no panel, a panel has no
    curve, or a margin list is empty or not finite."""
    if not panels:
        raise InputError("--plot: no dataset to draw")
    steps = {}
    for name, curves in panels.items():
        if not curves:
            raise InputError(f"--plot: dataset {name!r} has no model to draw")
        steps[name] = {model: cdf_steps(list(ms)) for model, ms in curves.items()}
    plt = _pyplot()
    cols = max(1, min(columns, len(steps)))
    rows = math.ceil(len(steps) / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(5.2 * cols, 3.9 * rows), squeeze=False)
    for ax, (name, curves_steps) in zip(axes.flat, steps.items()):
        for model, (xs, ys) in curves_steps.items():
            ax.step(xs, ys, where="post", label=model)
        ax.axvline(0.0, color="gray", linewidth=0.8, linestyle=":")
        ax.set_title(name, fontsize=10)
        ax.set_xlabel("margin $y\\,w\\cdot\\tilde x/\\|w\\|$")
        ax.set_ylabel("cumulative frequency")
        ax.set_ylim(0, 1.02)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    for ax in list(axes.flat)[len(steps) :]:
        ax.set_visible(False)
    fig.suptitle(title)
    _save(plt, fig, path, dpi=dpi, palette=True)
