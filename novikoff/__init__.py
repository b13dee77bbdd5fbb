"""novikoff: perceptron convergence theory checked by machine.

``novikoff.__version__`` is read from the installed package's metadata (pyproject.toml
is its single source) on first access; a source tree that is not installed reports
``0+unknown``. ``novikoff.prove_bound`` (:func:`novikoff.prove.prove_bound`) decides a
proposed bound on the updates.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # for type checkers and the API reference; set on first access
    # (prove_bound is not imported here even for type checkers: novikoff.runtime reads
    # novikoff.__version__, and the layers forbid it to depend on novikoff.prove)
    __version__: str

__all__ = ["__version__", "prove_bound"]


def __getattr__(name: str) -> Any:
    """``__version__`` or ``prove_bound``, computed or imported on first access.

    Raises:
        AttributeError: ``name`` is neither.
    """
    if name == "prove_bound":
        # Imported on first use (it loads sympy and the falsifier), by name: modules low in
        # the layers read ``novikoff.__version__`` and must not depend on novikoff.prove.
        prove_bound: Any = importlib.import_module("novikoff.prove").prove_bound
        return prove_bound
    if name != "__version__":
        raise AttributeError(f"module 'novikoff' has no attribute {name!r}")
    from importlib.metadata import PackageNotFoundError, version

    try:
        value = version("novikoff")
    except PackageNotFoundError:  # pragma: no cover - running from an uninstalled source tree
        value = "0+unknown"
    globals()["__version__"] = value
    return value
