"""novikoff: perceptron convergence theory checked by machine.

``novikoff.__version__`` is read from the installed package's metadata (pyproject.toml
is its single source); a source tree that is not installed reports ``0+unknown``.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

try:
    __version__: str = version("novikoff")
except PackageNotFoundError:  # pragma: no cover - running from an uninstalled source tree
    __version__ = "0+unknown"

__all__ = ["__version__"]
