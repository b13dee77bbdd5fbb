"""Write the table of registered algorithms into docs/contributing.md (between its
``<!-- algorithms:start -->`` and ``<!-- algorithms:end -->`` markers), from
:func:`novikoff.runtime.algorithms.algorithm_table`. Not a benchmark: it measures nothing, and
tests/runtime/test_algorithm_registry.py fails when the page differs from the registry.

Usage: ``python benchmarks/algorithm_table.py``
"""

from __future__ import annotations

from _common import REPO, write_between

from novikoff.runtime.algorithms import algorithm_table

DOC = REPO / "docs" / "contributing.md"


def main() -> None:
    """Regenerate the table in place."""
    write_between(DOC, "<!-- algorithms:start -->", "<!-- algorithms:end -->", algorithm_table())


if __name__ == "__main__":
    main()
