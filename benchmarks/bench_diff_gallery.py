"""The gallery of ``novikoff diff`` findings: what diff prints for one implementation of each
kind of difference (a planted bug of the C++ example of the protocol, a Python mutant, a
difference by design left undeclared), run as a user runs it, so the page shows real output.

    nice -n 10 python benchmarks/bench_diff_gallery.py [--only NAME ...] [--write]

It builds ``examples/perceptron-cpp/perceptron.cpp`` with each ``-DBUG_*`` flag it needs
(g++ and libgmp-dev), runs ``novikoff diff`` on every entry in this process and prints the
output; ``--write`` puts the entries into ``docs/diff-gallery.md`` between its markers
(generated, never typed; not run in CI: minutes of campaigns). Paths of this machine are
written as ``./``. Exit 1 if an entry's exit status is not the one it is there to show.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import shlex
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from novikoff import cli  # noqa: E402

DOC = REPO / "docs" / "diff-gallery.md"
BEGIN, END = "<!-- gallery:begin -->", "<!-- gallery:end -->"
SOURCE = REPO / "examples" / "perceptron-cpp" / "perceptron.cpp"


@dataclass(frozen=True)
class Entry:
    """One gallery entry: ``name`` (a file name of the page), what it shows, the ``diff``
    arguments (``{bin}`` is the directory of the built C++ variants) and the exit status
    it must give."""

    name: str
    title: str
    what: str
    args: tuple[str, ...]
    status: int = 1


ENTRIES = (
    Entry(
        "cpp-tie",
        "C++: no update on a tie (`-DBUG_TIE`)",
        "Every failing check, the reference's trace, and the hint that the difference may be by design.",
        ("--command", "{bin}/perceptron-tie", "--examples", "20", "--families", "float-exact near ties"),
    ),
    Entry(
        "cpp-tie-declared",
        "C++: the same, declared",
        "Declared, the tie rule is no bug: the exact reference runs the strict rule.",
        ("--command", "{bin}/perceptron-tie", "--examples", "20", "--tie-rule", "strict"),
        0,
    ),
    Entry(
        "cpp-last",
        "C++: the last sample of every epoch skipped (`-DBUG_LAST`)",
        "The trace around the first update that differs: the reference updates on the sample the "
        "implementation never presents.",
        ("--command", "{bin}/perceptron-last", "--examples", "20", "--families", "float-exact copies"),
    ),
    Entry(
        "cpp-crash",
        "C++: a null pointer on an all-zero sample (`-DBUG_CRASH`)",
        "A signal is a finding, and the crashing example is shrunk to its cause.",
        ("--command", "{bin}/perceptron-crash", "--examples", "20", "--families", "float-exact separable"),
    ),
    Entry(
        "cpp-hang",
        "C++: a call that never returns (`-DBUG_HANG`)",
        "Each hang is killed with its process group after --call-timeout; the first is the one "
        "finding, the others are counted, and each family's rest is not run.",
        (
            "--command",
            "{bin}/perceptron-hang",
            "--examples",
            "5",
            "--call-timeout",
            "1",
            "--families",
            "float-exact separable,general float",
        ),
    ),
    Entry(
        "cpp-stdout",
        "C++: a debug line on stdout (`-DBUG_STDOUT`)",
        "Output outside the protocol is a finding that names the line; it never reaches diff's own output.",
        ("--command", "{bin}/perceptron-stdout", "--examples", "5", "--families", "float-exact separable"),
    ),
    Entry(
        "py-mlxtend",
        "Python: mlxtend's rule, undeclared",
        "sign(0) = +1 and every epoch run (emulated in tests/impls/semantics.py): the hint names both.",
        ("tests.impls.semantics:mlxtend_rule", "--examples", "20", "--families", "float-exact separable"),
    ),
    Entry(
        "py-tenth",
        "Python: a learning rate of 0.1",
        "0.1 is no float64 value, so the weights are not exactly a multiple of the reference's; "
        "the hint reads the rate off the weights.",
        ("tests.impls.semantics:tenth_rate", "--examples", "20", "--families", "float-exact separable"),
    ),
    Entry(
        "py-float32",
        "Python: float32 arithmetic, undeclared",
        "Caught on the float64 integer boundary; --precision float32 declares it.",
        (
            "tests.impls.mutants:float32_accumulation",
            "--examples",
            "20",
            "--families",
            "float-exact integer boundary",
        ),
    ),
    Entry(
        "py-stale",
        "Python: margins computed once per epoch (vectorized)",
        "A bug no declared semantics explains: no hint, the trace from the start.",
        ("tests.impls.mutants:stale_margins", "--examples", "20", "--families", "float-exact separable"),
    ),
)

_FLAGS = {
    "tie": "BUG_TIE",
    "last": "BUG_LAST",
    "crash": "BUG_CRASH",
    "hang": "BUG_HANG",
    "stdout": "BUG_STDOUT",
}


def build(out: Path) -> None:
    """Every C++ variant the entries name, into ``out``."""
    for suffix, flag in _FLAGS.items():
        exe = out / f"perceptron-{suffix}"
        cmd = ["g++", "-O2", "-std=c++17", f"-D{flag}", "-o", str(exe), str(SOURCE), "-lgmpxx", "-lgmp"]
        subprocess.run(cmd, check=True)


def run(entry: Entry, bindir: Path) -> tuple[int, str, float]:
    """``novikoff diff`` on the entry in this process: (exit status, output, seconds)."""
    args = [a.replace("{bin}", str(bindir)) for a in entry.args]
    out = io.StringIO()
    t0 = time.perf_counter()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        code = cli.main(["diff", *args])
    text = out.getvalue().replace(str(bindir), ".").replace(str(REPO) + "/", "")
    return code, text, time.perf_counter() - t0


def section(entry: Entry, text: str) -> str:
    command = "novikoff diff " + " ".join(shlex.quote(a.replace("{bin}", ".")) for a in entry.args)
    return (
        f"## {entry.title}\n\n{entry.what}\n\n`{command}`\n\n"
        f'```text title="{entry.name}.out"\n{text.rstrip()}\n```\n'
    )


def write(body: str) -> None:
    page = DOC.read_text()
    head, rest = page.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    DOC.write_text(f"{head}{BEGIN}\n\n{body}\n{END}{tail}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="*", metavar="NAME", help="these entries only")
    parser.add_argument(
        "--write", action="store_true", help=f"write the entries into {DOC.relative_to(REPO)}"
    )
    args = parser.parse_args(argv)
    chosen = [e for e in ENTRIES if not args.only or e.name in args.only]
    sections, ok = [], True
    with tempfile.TemporaryDirectory() as tmp:
        build(Path(tmp))
        for entry in chosen:
            code, text, seconds = run(entry, Path(tmp))
            ok = ok and code == entry.status
            print(f"{entry.name:20s} exit {code} (expected {entry.status}) {seconds:.1f}s", flush=True)
            sections.append(section(entry, text))
    body = "\n".join(sections)
    print(body)
    if args.write:
        if args.only:
            raise SystemExit("--write needs every entry (no --only)")
        write(body)
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
