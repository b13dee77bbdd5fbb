"""Build the Coq development and print (or write into docs/howto/coq.md) its two tables.

    python benchmarks/coq_tables.py            # print the Markdown
    python benchmarks/coq_tables.py --write    # replace the block between the page's markers

The tables come from :func:`novikoff.coq.kernel.coq_report` (a fresh build in a temporary
copy, ``Print Assumptions`` for every theorem): per spec id, whether it is kernel-checked (its
printed statements' theorems AND a run theorem with its bridge for each, docs/coq-chain.md),
the printed statements' theorems, the run theorems and bridges, the axioms and the
non-vacuity examples; per file, the compile time on this machine.
Nothing in them is typed by hand.
"""

from __future__ import annotations

import argparse
import platform
import sys
from pathlib import Path

from novikoff.coq.kernel import coq_report

PAGE = Path(__file__).resolve().parent.parent / "docs" / "howto" / "coq.md"
START, END = "<!-- coq-tables:start -->", "<!-- coq-tables:end -->"


def _short(axiom: str) -> str:
    return axiom.rsplit(".", 1)[-1]


def tables() -> str:
    rep = coq_report().to_json()
    theorems = rep["theorems"]
    assert isinstance(theorems, dict)
    lines = [
        f"Coq {rep['version']}; built and checked in {rep['seconds']:.0f} s on {platform.machine()} "
        "(2 cores), by `python benchmarks/coq_tables.py --write`.",
        "",
        "| id | kernel-checked (run theorem + bridge) | printed statements' theorem(s) | "
        "run theorem(s) | bridge(s) | axioms (`Print Assumptions`) | example |",
        "|---|---|---|---|---|---|---|",
    ]

    def code(value: object) -> str:
        return f"`{value}`" if value else "-"

    for sid, entry in theorems.items():
        subs = entry.get("statements") or {}
        run_axioms = {a for s in subs.values() for a in s.get("run_axioms") or []}
        axioms = ", ".join(sorted({_short(a) for a in [*(entry.get("axioms") or []), *run_axioms]})) or "-"
        lines.append(
            f"| {sid} | {'yes' if entry.get('kernel_checked') else 'no: ' + str(entry.get('status'))} | "
            f"{code(entry.get('theorem'))} | {code(entry.get('run_theorem'))} | "
            f"{code(entry.get('bridge'))} | {axioms} | {code(entry.get('example'))} |"
        )
    files = rep.get("files") or {}
    assert isinstance(files, dict)
    lines += ["", "| file | compile seconds |", "|---|---|"]
    lines += [f"| {name} | {seconds:.1f} |" for name, seconds in files.items()]
    lines.append(f"| total | {sum(files.values()):.1f} |")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--write", action="store_true", help=f"replace the block between the markers in {PAGE.name}"
    )
    args = parser.parse_args()
    text = tables()
    if not args.write:
        print(text)
        return 0
    page = PAGE.read_text(encoding="utf-8")
    if START not in page or END not in page:
        print(f"{PAGE} has no {START} ... {END} block", file=sys.stderr)
        return 2
    head, rest = page.split(START, 1)
    _, tail = rest.split(END, 1)
    PAGE.write_text(f"{head}{START}\n{text}\n{END}{tail}", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
