"""One documentation page per theorem, generated from the code: ``docs/theorems/<ID>.md``.

For every spec id of :data:`novikoff.spec.THEOREMS` the page gathers what is otherwise
spread over the package, each part read from where it lives (nothing typed by hand):

- the statements: the sympy hypotheses, premises and conclusion rendered in LaTeX, the
  symbols' domains, the source, the note and the modules that check it on runs (those
  importing it);
- the algorithms checked against it: the entries of the algorithm registry
  (:data:`novikoff.runtime.algorithms.ALGORITHMS`) whose ``theorems`` name the id, with their pages;
- the Python proof: the headline obligation, its module (:data:`novikoff.proofs.registry.PROOF_MODULES`),
  the outline of its proof rules and the lemmas it applies;
- Coq: the printed statement (a doctest of :func:`novikoff.coq.printer.print_statement`,
  so ``tests/test_docs.py`` re-checks it), the theorem and Example the audit tries first
  (:func:`novikoff.coq.kernel.find_theorems`), the run statement, run theorem and bridge
  (:func:`novikoff.coq.kernel.find_runs`), each with its file, and the axioms expected;
- the runtime checks: what ``novikoff verify --only ID`` runs
  (:func:`novikoff.verify.collect_checks`), by group, and what the options add;
- the wrong variants, all three mechanisms: the Python checker's
  (:mod:`novikoff.proofs.wrong_variants`), the generated Coq ones replayed with the true
  proof script (:func:`novikoff.coq.variants.wrong_statements`), and the hand-written Coq
  files of ``novikoff/coq/theories/wrong/`` with their counterexamples;
- the tests that exercise it: every test function under ``tests/`` whose source (its
  decorators included) names the id, a statement's Python or Coq name, or its Lean-style name.

``docs/theorems/index.md`` links them. ``python docs/gen_theorems.py`` writes the pages;
``--check`` exits 1 naming the pages that differ from what the code gives now (what
``tests/test_theorem_pages.py`` asserts). Building reads the Coq sources but never runs Coq.
"""

from __future__ import annotations

import argparse
import ast
import html
import importlib
import re
import sys
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PAGES_DIR = ROOT / "docs" / "theorems"
TESTS_DIR = ROOT / "tests"
PACKAGE_DIR = ROOT / "novikoff"
GENERATED = "<!-- generated from the code by docs/gen_theorems.py; do not edit, rerun it -->"

if str(ROOT) not in sys.path:  # run as a script from anywhere
    sys.path.insert(0, str(ROOT))


# --------------------------------------------------------------------------- what the code says


@dataclass
class StatementFacts:
    """Everything about one spec statement, gathered once."""

    statement: Any
    python_name: str
    spec_module: str
    coq_name: str
    proof_module: str = ""
    headline: Any = None
    scope: str = ""
    checked_by: list[str] = field(default_factory=list)


@cache
def _statement_facts() -> dict[str, list[StatementFacts]]:
    """Spec id -> one :class:`StatementFacts` per statement, in ``THEOREMS`` order."""
    from novikoff.coq.printer import coq_name
    from novikoff.proofs.registry import PROOF_MODULES
    from novikoff.spec import THEOREMS
    from novikoff.spec.core import Statement

    names: dict[int, tuple[str, str]] = {}
    for module_name in PROOF_MODULES:
        spec_module = importlib.import_module(f"novikoff.spec.{module_name}")
        for attr, value in vars(spec_module).items():
            if isinstance(value, Statement) and not attr.startswith("_"):
                names.setdefault(id(value), (attr, spec_module.__name__))
    proofs: dict[int, tuple[str, Any]] = {}
    for module_name, module in PROOF_MODULES.items():
        for record in module.headline_proofs():
            proofs[id(record.statement)] = (f"novikoff.proofs.{module_name}", record)
    users = _users()
    out: dict[str, list[StatementFacts]] = {}
    for spec_id, statements in THEOREMS.items():
        for st in statements:
            attr, where = names.get(id(st), ("", ""))
            facts = StatementFacts(st, attr, where, coq_name(st))
            if id(st) in proofs:
                facts.proof_module, record = proofs[id(st)]
                facts.headline, facts.scope = record.obligation(), record.scope
            facts.checked_by = sorted(users.get(attr, ())) if attr else []
            out.setdefault(spec_id, []).append(facts)
    return out


def _users() -> dict[str, set[str]]:
    """Statement's Python name -> the package modules outside the spec, the proofs and Coq
    that import it from :mod:`novikoff.spec` (those check it on runs)."""
    out: dict[str, set[str]] = {}
    skip = {"spec", "proofs", "coq"}
    for path in sorted(PACKAGE_DIR.rglob("*.py")):
        rel = path.relative_to(ROOT)
        if rel.parts[1] in skip:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        module = ".".join(rel.with_suffix("").parts)
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("novikoff.spec"):
                for alias in node.names:
                    out.setdefault(alias.name, set()).add(module)
    return out


def _rule(proof: Any) -> str:
    return type(proof).__name__


def outline(proof: Any, depth: int = 0, limit: int = 2) -> list[str]:
    """The proof's rules as Markdown list lines, ``limit`` levels deep: a :class:`Chain`'s
    steps by name, a case split's two cases, an induction's base and step, a lemma applied."""
    from novikoff.proofs import core

    pad = "    " * depth
    lines: list[str] = []

    def child(label: str, sub: Any) -> None:
        lines.append(f"{pad}- {label}: {_describe(sub)}")
        if depth + 1 < limit:
            lines.extend(outline(sub, depth + 1, limit))

    if isinstance(proof, core.Chain):
        for step in proof.steps:
            child(f"step `{step.name}` (`{_code(plain(step.claim))}`)", step.proof)
        child("final", proof.final)
    elif isinstance(proof, core.Cases):
        child(f"case `{_code(proof.expr)} >= 0`", proof.nonneg)
        child(f"case `{_code(proof.expr)} < 0`", proof.neg)
    elif isinstance(proof, core.Induction):
        child(f"base (`{proof.n} = {proof.start}`)", proof.base)
        child(f"step (`{proof.n} -> {proof.n} + 1`)", proof.step)
    elif isinstance(proof, core.Both):
        for i, part in enumerate(_fields(proof)):
            child(f"part {i + 1}", part)
    return lines


def _fields(proof: Any) -> list[Any]:
    import dataclasses

    from novikoff.proofs.core import Proof

    return [
        getattr(proof, f.name) for f in dataclasses.fields(proof) if isinstance(getattr(proof, f.name), Proof)
    ]


def _describe(proof: Any) -> str:
    from novikoff.proofs import core

    if isinstance(proof, core.Apply):
        return f"`Apply` the lemma `{proof.lemma.name}`"
    return f"`{_rule(proof)}`"


def lemmas(obligation: Any) -> list[str]:
    """The names of the lemmas the obligation's proof applies, directly or through lemmas."""
    from novikoff.proofs.registry import applied_lemmas

    return list(dict.fromkeys(ob.name for ob in applied_lemmas(obligation)))


@cache
def _coq() -> tuple[dict[str, tuple[str, str | None]], dict[str, tuple[str, str | None, str | None]]]:
    from novikoff.coq.kernel import find_runs, find_theorems

    return find_theorems(), find_runs()


def _coq_file(qualified: str | None) -> str:
    """``Novikoff.Theorems.N1`` -> ``novikoff/coq/theories/Theorems.v``."""
    if not qualified:
        return ""
    from novikoff.coq.printer import COQ_DIR

    module = qualified.split(".")[1]
    return str((COQ_DIR / f"{module}.v").relative_to(ROOT))


@cache
def _checks() -> dict[str, list[Any]]:
    """Option ("" for the default run) -> the checks ``novikoff verify`` collects with it."""
    from novikoff.verify import collect_checks

    default = collect_checks()
    seen = {(c.group, c.name) for c in default}
    out: dict[str, list[Any]] = {"": default}
    options = {
        "--full": collect_checks(full=True),
        "--crosshair": collect_checks(crosshair=True),
        "--coq": collect_checks(coq=True),
    }
    for option, checks in options.items():
        out[option] = [c for c in checks if (c.group, c.name) not in seen]
    return out


@cache
def _python_variants() -> list[Any]:
    from novikoff.proofs.wrong_variants import wrong_variants

    return wrong_variants()


@cache
def _coq_variants() -> list[Any]:
    from novikoff.coq.variants import wrong_statements

    return wrong_statements()


def hand_written_variants(coq_name: str) -> list[tuple[str, str, str]]:
    """``(file, what it breaks, counterexample file or "")`` for each file of
    ``novikoff/coq/theories/wrong/`` about the statement ``coq_name``."""
    from novikoff.coq.printer import COQ_DIR

    wrong = COQ_DIR / "wrong"
    out = []
    for path in sorted(wrong.glob(f"{coq_name}_*.v")):
        comment = re.search(r"\(\*\*(.*?)\*\)", path.read_text(encoding="utf-8"), re.S)
        what = " ".join(comment.group(1).split()) if comment else ""
        counter = wrong / "counterexamples" / f"{path.stem}_is_false.v"
        out.append(
            (
                str(path.relative_to(ROOT)),
                what,
                str(counter.relative_to(ROOT)) if counter.exists() else "",
            )
        )
    return out


def _word(name: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])")


def test_functions(root: Path = TESTS_DIR) -> Iterator[tuple[str, str, str]]:
    """``(file relative to the repository, test name, its source with decorators)`` for every
    ``test_*`` function (methods of ``Test*`` classes as ``Class::test``) under ``root``."""
    for path in sorted(root.rglob("test_*.py")):
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines()
        rel = str(path.relative_to(root.parent))

        yield from _visit(ast.parse(text).body, "", rel, lines)


def _visit(
    body: Iterable[ast.stmt], prefix: str, rel: str, lines: list[str]
) -> Iterator[tuple[str, str, str]]:
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
            start = min([d.lineno for d in node.decorator_list] + [node.lineno])
            yield rel, prefix + node.name, "\n".join(lines[start - 1 : node.end_lineno])
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            yield from _visit(node.body, f"{node.name}::", rel, lines)


def tests_naming(words: Sequence[str], root: Path = TESTS_DIR) -> dict[str, list[str]]:
    """Test file -> the tests whose source names one of ``words`` (whole words, case-sensitive)."""
    patterns = [_word(w) for w in dict.fromkeys(words) if w]
    out: dict[str, list[str]] = {}
    for rel, name, source in test_functions(root):
        if any(p.search(source) for p in patterns):
            out.setdefault(rel, []).append(name)
    return out


# --------------------------------------------------------------------------- rendering


def _code(expr: Any) -> str:
    """``expr`` as inline code text: one line, backticks and pipes made harmless."""
    return " ".join(str(expr).split()).replace("`", "'").replace("|", "\\|")


def _names(items: Iterable[str]) -> str:
    return ", ".join(f"`{a}`" for a in items)


def _cell(text: object) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


_SQUARED = re.compile(r"^([A-Za-z]+)2$")


def symbol_tex(sym: Any) -> str:
    """A symbol's LaTeX: ``R2``, ``gamma2`` (the spec's squares) as ``R^{2}``, ``\\gamma^{2}``;
    other names of several letters upright, underscores kept (``\\mathrm{w\\_norm}``)."""
    import sympy as sp

    name = sym.name
    squared = _SQUARED.match(name)
    if squared and (len(squared.group(1)) == 1 or squared.group(1) in _GREEK):
        return f"{sp.latex(sp.Symbol(squared.group(1)))}^{{2}}"
    if len(name) == 1 or name in _GREEK:
        return str(sp.latex(sym))
    return rf"\mathrm{{{_tex_text(name)}}}"


_GREEK = frozenset({"alpha", "beta", "gamma", "delta", "eps", "epsilon", "lambda", "rho", "sigma", "theta"})


def latex(item: Any) -> str:
    """LaTeX of a hypothesis, premise (a :class:`~novikoff.spec.core.Forall` too) or conclusion,
    the symbols written by :func:`symbol_tex`."""
    import sympy as sp

    from novikoff.spec.core import Forall

    expr = item.body if isinstance(item, Forall) else item
    names = {s: symbol_tex(s) for s in expr.free_symbols if isinstance(s, sp.Symbol)}
    if isinstance(item, Forall):
        names.pop(item.var, None)
        return rf"\forall {sp.latex(item.var)} \geq {item.start}:\ {sp.latex(item.body, symbol_names=names)}"
    return str(sp.latex(item, symbol_names=names))


_RELATIONS = {"==": "=", "!=": "!=", ">=": ">=", "<=": "<=", ">": ">", "<": "<"}


def plain(item: Any) -> str:
    """A hypothesis, premise or conclusion as one line of text: relations written with their
    operator (``pw(0) = 0``, not ``Eq(pw(0), 0)``), conjunctions with ``and``."""
    import sympy as sp

    from novikoff.spec.core import Forall

    if isinstance(item, Forall):
        return f"for all integers {item.var} >= {item.start}: {plain(item.body)}"
    if isinstance(item, sp.core.relational.Relational) and item.rel_op in _RELATIONS:
        return f"{item.lhs} {_RELATIONS[item.rel_op]} {item.rhs}"
    if isinstance(item, sp.And):
        return " and ".join(f"({plain(a)})" for a in item.args)
    return str(item)


def _tex_text(name: str) -> str:
    """``name`` inside ``\\text{...}``: underscores escaped."""
    return name.replace("_", r"\_")


def _domain(sym: Any) -> str:
    facts = sym.assumptions0
    for key in ("positive", "nonnegative", "negative", "nonpositive"):
        if facts.get(key):
            kind = "integer" if facts.get("integer") else "real"
            return f"{kind}, {key}"
    return "integer" if facts.get("integer") else "real"


def _math(lines: Sequence[str]) -> str:
    """A display-math block (MathJax's ``\\[ ... \\]`` in raw HTML, left alone by Markdown)."""
    body = html.escape(" \\\\\n".join(lines), quote=False)
    return f'<div class="arithmatex">\\[\n\\begin{{aligned}}\n{body}\n\\end{{aligned}}\n\\]</div>'


def _statement_section(spec_id: str, facts: StatementFacts, index: int) -> list[str]:
    st = facts.statement
    hyps = st.theorem_hypotheses()
    premise_names = {name for name, _ in st.premises}
    out = [f"### `{facts.coq_name}`: `{st.name}`", ""]
    where = f"`{facts.spec_module}.{facts.python_name}`" if facts.python_name else "(not a module attribute)"
    out += [
        f"- Python: {where} (`THEOREMS[{spec_id!r}][{index}]`); Coq: `{facts.coq_name}`",
        f"- Source: {st.source}",
    ]
    if facts.checked_by:
        out.append(f"- Checked on runs by: {', '.join(f'`{m}`' for m in facts.checked_by)}")
    symbols = ", ".join(f"`{s}` ({_domain(s)})" for s in st.symbols)
    out += [f"- Symbols: {symbols or '-'}", ""]
    rendered = [rf"& \text{{{_tex_text(name)}}}:\ {latex(h)}" for name, h in hyps.items()]
    rendered.append(rf"\Longrightarrow\ & {latex(st.conclusion)}")
    out += [_math(rendered), ""]
    out += ["| name | kind | statement |", "|---|---|---|"]
    for name, h in hyps.items():
        kind = "premise (about the algorithm)" if name in premise_names else "hypothesis"
        out.append(f"| `{name}` | {kind} | `{_code(plain(h))}` |")
    out.append(f"| | conclusion | `{_code(plain(st.conclusion))}` |")
    out.append("")
    if st.note:
        out += [f"Note: {_cell(st.note)}", ""]
    return out


@cache
def _obligations() -> tuple[list[Any], dict[str, frozenset[str]]]:
    """Every proof obligation and the spec ids each bears on (built once for all pages)."""
    from novikoff.proofs.registry import all_obligations, obligation_ids

    obligations = all_obligations()
    return obligations, obligation_ids(obligations)


def _proof_section(spec_id: str) -> list[str]:
    out = ["## The Python proof", ""]
    for facts in _statement_facts()[spec_id]:
        ob = facts.headline
        if ob is None:
            out += [f"`{facts.coq_name}`: no headline proof.", ""]
            continue
        out += [
            f"### `{ob.name}`",
            "",
            f"Module `{facts.proof_module}`; rule `{_rule(ob.proof)}`.",
        ]
        if facts.scope:
            out.append(f"Scope of the Python proof: {facts.scope}.")
        out.append("")
        steps = outline(ob.proof)
        if steps:
            out += [*steps, ""]
        used = lemmas(ob)
        if used:
            out += ["Lemmas it applies (each a proof obligation of its own):", ""]
            out += [f"- `{name}`" for name in used] + [""]
    obligations, ids = _obligations()
    headlines = {f.headline.name for f in _statement_facts()[spec_id] if f.headline is not None}
    steps_here = [ob for ob in obligations if spec_id in ids[ob.name] and ob.name not in headlines]
    if steps_here:
        out += [
            "### Step obligations",
            "",
            f"Every obligation that bears on {spec_id} (its own, and lemmas its proofs apply), "
            "each checked on its own by `novikoff verify`:",
            "",
            "| obligation | its id | rule |",
            "|---|---|---|",
        ]
        out += [f"| `{_cell(ob.name)}` | {ob.spec_id} | `{_rule(ob.proof)}` |" for ob in steps_here]
        out.append("")
    return out


def _coq_section(spec_id: str) -> list[str]:
    from novikoff.coq.kernel import EXPECTED_AXIOMS

    theorems, runs = _coq()
    out = ["## Coq", ""]
    for index, facts in enumerate(_statement_facts()[spec_id]):
        name = facts.coq_name
        thm, example = theorems.get(name, (None, None))
        run_statement, run, bridge = runs.get(name, (None, None, None))
        rows = [
            (
                "printed statement",
                f"Novikoff.Statements.{name}_statement",
                "novikoff/coq/theories/Statements.v",
            ),
            ("theorem", thm, _coq_file(thm)),
            ("non-vacuity Example", example, _coq_file(example)),
            ("run statement", run_statement, _coq_file(run_statement)),
            ("run theorem", run, _coq_file(run)),
            ("bridge", bridge, _coq_file(bridge)),
        ]
        out += [f"### `{name}`", "", "| what | Coq name | file |", "|---|---|---|"]
        out += [f"| {what} | `{q}` | `{f}` |" if q else f"| {what} | none | - |" for what, q, f in rows]
        axioms = EXPECTED_AXIOMS.get(name)
        out.append("")
        if axioms is not None:
            out += [
                f"Axioms its theorem must assume, exactly: {', '.join(f'`{a}`' for a in sorted(axioms))}.",
                "",
            ]
        out += [
            "The printed statement (``Statements.v`` is this print of the spec; the audit types the "
            "theorem as it):",
            "",
            "```python",
            ">>> from novikoff.coq.printer import print_statement",
            ">>> from novikoff.spec import THEOREMS",
            f'>>> print(print_statement(THEOREMS["{spec_id}"][{index}], with_hypotheses=False).strip())',
            _print_statement(facts.statement),
            "```",
            "",
        ]
    return out


def _print_statement(statement: Any) -> str:
    from novikoff.coq.printer import print_statement

    return str(print_statement(statement, with_hypotheses=False).strip())


def _checks_section(spec_id: str) -> list[str]:
    checks = _checks()
    mine = [c for c in checks[""] if c.bears_on([spec_id])]
    out = [
        "## Runtime checks",
        "",
        f"`novikoff verify --only {spec_id}` runs these (from `novikoff.verify.collect_checks`), "
        "one row per check:",
        "",
        "| group | check |",
        "|---|---|",
    ]
    out += [f"| {c.group} | {_cell(c.name)} |" for c in mine]
    for option, extra in checks.items():
        more = [c for c in extra if option and c.bears_on([spec_id])]
        if more:
            out += ["", f"`{option}` adds:", "", "| group | check |", "|---|---|"]
            out += [f"| {c.group} | {_cell(c.name)} |" for c in more]
    out.append("")
    return out


def _variants_section(spec_id: str) -> list[str]:
    names = [f.coq_name for f in _statement_facts()[spec_id]]
    python = [wv for wv in _python_variants() if wv.spec_id == spec_id]
    coq = [ws for ws in _coq_variants() if ws.name in names]
    hand = [v for n in names for v in hand_written_variants(n)]
    out = [
        "## Wrong variants",
        "",
        "Broken copies of the theorem that must be rejected, by three mechanisms.",
        "",
        f"**The Python checker** (`novikoff.proofs.wrong_variants.MAKERS`, {len(python)}): "
        "each must fail with the failure kind shown.",
        "",
    ]
    if python:
        out += ["| wrong variant | must fail with |", "|---|---|"]
        out += [f"| `{_cell(wv.obligation.name)}` | {wv.kind.value} |" for wv in python]
    else:
        out.append("None.")
    out += [
        "",
        f"**Coq, generated** (`novikoff.coq.variants.wrong_statements`, {len(coq)}): the true "
        "theorem's proof script replayed against the broken statement must not compile.",
        "",
    ]
    out += [f"- `{_cell(ws.label)}`" for ws in coq] or ["None (no Coq theorem to replay)."]
    out += [
        "",
        f"**Coq, hand-written** (`novikoff/coq/theories/wrong/`, {len(hand)}): each file must fail "
        "to compile; its counterexample file proves the broken statement false.",
        "",
    ]
    if hand:
        out += ["| file | what it breaks | counterexample |", "|---|---|---|"]
        out += [f"| `{f}` | {_cell(what)} | {f'`{c}`' if c else '-'} |" for f, what, c in hand]
    else:
        out.append("None.")
    out.append("")
    return out


def _words(spec_id: str) -> list[str]:
    words = [spec_id]
    for facts in _statement_facts()[spec_id]:
        words += [facts.python_name, facts.coq_name, facts.statement.name]
    return words


def _tests_section(spec_id: str) -> list[str]:
    found = tests_naming(_words(spec_id))
    total = sum(len(v) for v in found.values())
    out = [
        "## Tests",
        "",
        f"{total} tests name {spec_id} or one of its statements "
        f"({', '.join(f'`{w}`' for w in dict.fromkeys(_words(spec_id)) if w)}):",
        "",
        "| file | tests |",
        "|---|---|",
    ]
    out += [f"| `{f}` | {', '.join(f'`{t}`' for t in tests)} |" for f, tests in found.items()]
    out.append("")
    return out


def algorithms_of(spec_id: str) -> list[tuple[str, str]]:
    """``(name, docs page)`` of every algorithm of the registry checked against ``spec_id``
    (its ``theorems`` name it), in the registry's order."""
    from novikoff.runtime.algorithms import ALGORITHMS

    return [(name, entry.docs) for name, entry in ALGORITHMS.items() if spec_id in entry.theorems]


def _algorithms_text(spec_id: str, prefix: str = "../") -> str:
    found = algorithms_of(spec_id)
    return ", ".join(f"[`{name}`]({prefix}{page})" for name, page in found) or "none"


def theorem_page(spec_id: str) -> str:
    """The Markdown page of ``spec_id``."""
    facts = _statement_facts()[spec_id]
    out = [
        GENERATED,
        "",
        f"# {spec_id}",
        "",
        f"{len(facts)} statement{'s' if len(facts) > 1 else ''}: "
        + ", ".join(f"`{f.statement.name}`" for f in facts)
        + f". Algorithms checked against it (the algorithm registry): {_algorithms_text(spec_id)}. "
        "[All theorems](index.md); [the table of statements](../reference/theorems.md).",
        "",
        "## The statement" + ("s" if len(facts) > 1 else ""),
        "",
    ]
    for index, f in enumerate(facts):
        out += _statement_section(spec_id, f, index)
    out += _proof_section(spec_id)
    out += _coq_section(spec_id)
    out += _checks_section(spec_id)
    out += _variants_section(spec_id)
    out += _tests_section(spec_id)
    return "\n".join(out).rstrip() + "\n"


def index_page() -> str:
    """``docs/theorems/index.md``: one row per spec id, linking its page."""
    theorems, runs = _coq()
    out = [
        GENERATED,
        "",
        "# One page per theorem",
        "",
        "Each page gathers, from the code, everything about one theorem: its statements, the "
        "Python proof, the Coq theorem, run theorem and bridge, the runtime checks, the wrong "
        "variants and the tests.",
        "",
        "| id | statements | algorithms | Coq theorems | Coq run theorems | source |",
        "|---|---|---|---|---|---|",
    ]
    for spec_id, facts in _statement_facts().items():
        names = [f.coq_name for f in facts]
        out.append(
            f"| [{spec_id}]({spec_id}.md) | {', '.join(f'`{f.statement.name}`' for f in facts)} | "
            f"{_algorithms_text(spec_id)} | {sum(n in theorems for n in names)} of {len(names)} | "
            f"{sum(bool(runs.get(n, (None, None))[1]) for n in names)} of {len(names)} | "
            f"{_cell('; '.join(dict.fromkeys(f.statement.source for f in facts)))} |"
        )
    return "\n".join(out) + "\n"


def generate() -> dict[str, str]:
    """File name (in ``docs/theorems/``) -> content, for the index and every spec id."""
    from novikoff.spec import THEOREMS

    pages = {"index.md": index_page()}
    pages.update({f"{spec_id}.md": theorem_page(spec_id) for spec_id in THEOREMS})
    return pages


def stale(directory: Path = PAGES_DIR) -> list[str]:
    """The pages of ``directory`` that differ from :func:`generate`, are missing or are extra."""
    pages = generate()
    bad = [
        name
        for name, text in pages.items()
        if not (directory / name).exists() or (directory / name).read_text(encoding="utf-8") != text
    ]
    bad += sorted(p.name for p in directory.glob("*.md") if p.name not in pages)
    return bad


def main(argv: Sequence[str] | None = None) -> int:
    """Write the pages (or with ``--check`` report the stale ones, exit 1 if any)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="exit 1 if a committed page is stale")
    args = parser.parse_args(argv)
    if args.check:
        bad = stale()
        if bad:
            print(f"stale theorem pages: {', '.join(bad)}; run python docs/gen_theorems.py", file=sys.stderr)
            return 1
        return 0
    PAGES_DIR.mkdir(exist_ok=True)
    pages = generate()
    for old in PAGES_DIR.glob("*.md"):
        if old.name not in pages:
            old.unlink()
    for name, text in pages.items():
        (PAGES_DIR / name).write_text(text, encoding="utf-8")
    print(f"wrote {len(pages)} pages to {PAGES_DIR.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
