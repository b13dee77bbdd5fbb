"""benchmarks/figures.py (the textbook's figures from exact runs) and the plot helpers it uses."""

from __future__ import annotations

import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from novikoff.errors import InputError

pytest.importorskip("matplotlib")
pytest.importorskip("sklearn")

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "benchmarks" / "figures.py"
DOCS = REPO / "docs"
START, END = "<!-- figures:start -->", "<!-- figures:end -->"


def _figures_module() -> Any:
    sys.path.insert(0, str(SCRIPT.parent))
    try:
        import figures
    finally:
        sys.path.remove(str(SCRIPT.parent))
    return figures


def _images(page: str) -> list[str]:
    return re.findall(r"!\[[^\]]*\]\(figures/([^)]+)\)", page)


def test_quick_run_writes_every_figure_and_the_numbers_block(tmp_path: Path) -> None:
    """--quick --write into a temporary docs directory: every figure, small, and the page."""
    (tmp_path / "figures.md").write_text(f"# kept head\n\n{START}\nold block\n{END}\n\nkept tail\n")
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--quick", "--write", "--docs", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    figures = _figures_module()
    written = sorted(p.name for p in (tmp_path / "figures").iterdir())
    assert written == sorted(figures.FIGURES)
    for name in written:
        data = (tmp_path / "figures" / name).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n", name
        assert len(data) < 150_000, (name, len(data))
    page = (tmp_path / "figures.md").read_text()
    assert page.startswith("# kept head") and page.rstrip().endswith("kept tail")
    assert "old block" not in page
    block = page[page.index(START) : page.index(END)]
    assert sorted(_images(block)) == written
    # the numbers are the script's: the textbook's exact 6.5 run is in the block
    assert "| bound R^2/gamma^2 | 161.4 | 161.4 |" in block
    assert "| actual mistakes | 2 | 2 |" in block


def test_docs_page_references_exactly_the_files_in_docs_figures() -> None:
    page = DOCS / "figures.md"
    folder = DOCS / "figures"
    assert page.exists(), "docs/figures.md is missing: run python benchmarks/figures.py --write"
    referenced = _images(page.read_text())
    assert len(referenced) == len(set(referenced)), "an image is shown twice"
    assert sorted(referenced) == sorted(_figures_module().FIGURES)
    # the folder holds exactly the images some page shows (figures.md's, and the benchmarks'
    # own, such as the ODM curve on replications.md): none missing, none orphaned
    shown = {name for md in DOCS.rglob("*.md") for name in _images(md.read_text())}
    assert shown == {p.name for p in folder.iterdir()}


def test_textbook_margin_is_the_mean_difference_direction_exactly() -> None:
    """Hand-computed: x+ = (2, 0), (4, 2); x- = (0, 0), (0, 2); w = (3, 0, 0), bias cancels;
    min y w.x~ = 6, ||w||^2 = 9, gamma^2 = 4."""
    from novikoff.data.dataset import Dataset

    ds = Dataset.from_fraction_rows(
        [
            [Fraction(2), Fraction(0)],
            [Fraction(4), Fraction(2)],
            [Fraction(0), Fraction(0)],
            [Fraction(0), Fraction(2)],
        ],
        [1, 1, -1, -1],
    )
    sm = _figures_module().seed_margin(ds)
    assert (sm.low, sm.w2, sm.gamma2) == (Fraction(0), Fraction(9), Fraction(0))
    assert not sm.positive  # the negatives sit on w.x = 0: the seed would skip this set
    shifted = Dataset.from_fraction_rows(
        [
            [Fraction(2), Fraction(0)],
            [Fraction(4), Fraction(2)],
            [Fraction(-1), Fraction(0)],
            [Fraction(-1), Fraction(2)],
        ],
        [1, 1, -1, -1],
    )
    sm = _figures_module().seed_margin(shifted)
    # w = (3, 1) - (-1, 1) = (4, 0): min(8, 16, 4, 4) = 4, ||w||^2 = 16, gamma^2 = 1
    assert (sm.low, sm.w2, sm.gamma2) == (Fraction(4), Fraction(16), Fraction(1))


def test_write_page_creates_then_replaces_only_the_block(tmp_path: Path) -> None:
    figures = _figures_module()
    page = tmp_path / "figures.md"
    figures.write_page(page, "first")
    text = page.read_text()
    assert text.startswith("# ") and f"{START}\nfirst\n{END}" in text
    page.write_text(text.replace("# ", "# Edited ", 1))
    figures.write_page(page, "second")
    text = page.read_text()
    assert text.startswith("# Edited ") and "first" not in text and f"{START}\nsecond\n{END}" in text


# ------------------------------------------------------------------ novikoff.integrations.plot helpers
def test_cdf_steps() -> None:
    from novikoff.integrations.plot import cdf_steps

    assert cdf_steps([0.5, -1.0, 0.5, 2.0]) == ([-1.0, 0.5, 0.5, 2.0], [0.25, 0.5, 0.75, 1.0])
    with pytest.raises(InputError, match="no margins"):
        cdf_steps([])
    with pytest.raises(InputError, match="float64 range"):
        cdf_steps([0.0, float("inf")])


def test_plot_squeeze_margins_writes_and_refuses_bad_margins(tmp_path: Path) -> None:
    from novikoff.integrations.plot import plot_squeeze_margins

    history = [Fraction(0), Fraction(1), Fraction(2)]
    out = tmp_path / "s.png"
    plot_squeeze_margins(out, history, Fraction(1), {"a": Fraction(1, 50), "b": Fraction(1, 4)}, "t")
    assert out.read_bytes()[:4] == b"\x89PNG"
    with pytest.raises(InputError, match="'bad' has gamma\\^2 = 0"):
        plot_squeeze_margins(tmp_path / "x.png", history, Fraction(1), {"bad": Fraction(0)}, "t")
    with pytest.raises(InputError, match="empty norm history"):
        plot_squeeze_margins(tmp_path / "x.png", [], Fraction(1), {"a": Fraction(1)}, "t")
    with pytest.raises(InputError, match="beyond the float64 range"):
        plot_squeeze_margins(tmp_path / "x.png", history, Fraction(10**400), {"a": Fraction(1)}, "t")
    assert not (tmp_path / "x.png").exists()


def test_plot_margin_cdfs_writes_and_refuses_empty_input(tmp_path: Path) -> None:
    from novikoff.integrations.plot import plot_margin_cdfs

    out = tmp_path / "c.png"
    plot_margin_cdfs(
        out, {"d1": {"m1": [0.1, -0.2], "m2": [0.3]}, "d2": {"m1": [1.0]}, "d3": {"m": [0.0]}}, "t"
    )
    assert out.read_bytes()[:4] == b"\x89PNG"
    with pytest.raises(InputError, match="no dataset"):
        plot_margin_cdfs(tmp_path / "x.png", {}, "t")
    with pytest.raises(InputError, match="'d' has no model"):
        plot_margin_cdfs(tmp_path / "x.png", {"d": {}}, "t")
    with pytest.raises(InputError, match="no margins"):
        plot_margin_cdfs(tmp_path / "x.png", {"d": {"m": []}}, "t")


def test_save_figure_palette_png_and_unwritable_path(tmp_path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from PIL import Image

    from novikoff.integrations.plot import save_figure

    fig, ax = plt.subplots()
    ax.plot([0, 1], [0, 1])
    save_figure(fig, tmp_path / "p.png")
    with Image.open(tmp_path / "p.png") as image:
        assert image.mode == "P"
    fig, ax = plt.subplots()
    save_figure(fig, tmp_path / "p.svg")
    assert (tmp_path / "p.svg").read_text().lstrip().startswith("<?xml")
    fig, _ = plt.subplots()
    with pytest.raises(InputError, match="cannot write"):
        save_figure(fig, tmp_path / "missing" / "p.png")
