"""The mutation benchmark of ``novikoff diff``: every broken and correct perceptron of
``tests/impls/mutants.py`` through the differential tester with its DEFAULT budget
(``--examples 50`` per family, seed 0), as ``novikoff diff tests.impls.mutants:NAME``
runs it.

For each implementation: whether diff found a bug (or an error), the examples it ran up
to the first bug (counted over the families in their order, before shrinking), the family
and check that caught it, and the CPU seconds the whole campaign took (this process and
its worker processes, shrinking included).
Goal: every broken one caught, every correct one passed.

    nice -n 10 python benchmarks/bench_mutants.py [--only NAME ...] [--write]

``--write`` puts the table into ``docs/diff-detection.md`` between its markers (the
table is generated, never typed). Exit 1 if a broken one passed or a correct one failed.
"""

from __future__ import annotations

import argparse
import resource
import sys
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from novikoff.fuzz.harness import check_implementation  # noqa: E402
from novikoff.fuzz.registry import lookup  # noqa: E402
from tests.impls.mutants import MUTANTS, Mutant  # noqa: E402

DOC = REPO / "docs" / "diff-detection.md"
BEGIN, END = "<!-- mutants:begin -->", "<!-- mutants:end -->"
EXAMPLES = 50  # novikoff diff's default --examples
SEED = 0  # and its default --seed


@dataclass(frozen=True)
class Row:
    """One implementation's outcome."""

    mutant: Mutant
    caught: bool
    examples: int
    first_bug: int | None
    family: str
    check: str
    families: tuple[str, ...]
    seconds: float

    @property
    def as_expected(self) -> bool:
        return self.caught == self.mutant.broken


def _cpu() -> float:
    """CPU seconds of this process and its finished children (the forked workers)."""
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def measure(mutant: Mutant) -> Row:
    """Run diff's default campaign on ``mutant``."""
    t0 = _cpu()
    report = check_implementation(mutant.fit, mutant.algorithm, examples=EXAMPLES, seed=SEED)
    seconds = _cpu() - t0
    findings = report.bugs or report.errors
    first = findings[0] if findings else None
    algo = lookup(mutant.algorithm)
    hit = {f.family for f in report.bugs + report.errors}
    families = tuple(fam.id for fam in algo.data_families if fam.name in hit)
    return Row(
        mutant,
        not report.ok,
        report.examples,
        report.first_bug,
        "" if first is None else first.family,
        "" if first is None else (first.check or "error"),
        families,
        seconds,
    )


def table(rows: list[Row]) -> str:
    """The detection table (Markdown)."""
    lines = [
        "| implementation | kind | algorithm | caught? | examples to the first bug | family | check "
        "| families with a bug | CPU s |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        m = r.mutant
        verdict = (
            ("caught" if r.caught else "**missed**")
            if m.broken
            else ("**flagged**" if r.caught else "passed")
        )
        first = "-" if r.first_bug is None else str(r.first_bug)
        kind = m.kind.replace("|", "\\|")  # a table cell
        lines.append(
            f"| `{m.name}` | {kind} | {m.algorithm} | {verdict} | {first} | {r.family or '-'} | "
            f"{r.check or '-'} | {', '.join(r.families) or '-'} | {r.seconds:.1f} |"
        )
    broken = [r for r in rows if r.mutant.broken]
    correct = [r for r in rows if not r.mutant.broken]
    lines.append("")
    lines.append(
        f"{sum(r.caught for r in broken)} of {len(broken)} broken implementations caught, "
        f"{sum(not r.caught for r in correct)} of {len(correct)} correct ones passed "
        f"(`--examples {EXAMPLES}`, seed {SEED}; CPU seconds of the campaign and its worker "
        "processes, shrinking included)."
    )
    return "\n".join(lines)


def write(text: str) -> None:
    """Replace the part of the page between the markers."""
    page = DOC.read_text()
    head, sep, rest = page.partition(BEGIN + "\n")
    _, sep2, tail = rest.partition(END)
    if not sep or not sep2:
        raise SystemExit(f"{DOC}: markers {BEGIN} / {END} not found")
    DOC.write_text(head + sep + text + "\n" + sep2 + tail)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="*", metavar="NAME", help="these implementations only")
    parser.add_argument("--write", action="store_true", help=f"write the table into {DOC.relative_to(REPO)}")
    args = parser.parse_args(argv)
    chosen = [m for m in MUTANTS if not args.only or m.name in args.only]
    rows = []
    for m in chosen:
        row = measure(m)
        rows.append(row)
        print(
            f"{m.name:30s} {'broken' if m.broken else 'correct':8s} caught={row.caught!s:5s} "
            f"first_bug={row.first_bug} {row.family} {row.check} {row.seconds:.1f}s",
            flush=True,
        )
    text = table(rows)
    print(text)
    if args.write:
        if args.only:
            raise SystemExit("--write needs the whole table (no --only)")
        write(text)
    return 0 if all(r.as_expected for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
