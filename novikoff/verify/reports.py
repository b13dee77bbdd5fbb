"""The reports of ``novikoff verify``: a table (theorem, check, status, seconds), JSON, JUnit XML
and Markdown; with a baseline (a previous ``--json`` output), the regressions."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from pathlib import Path

from novikoff.errors import InputError
from novikoff.proofs.results import Check, CheckResult
from novikoff.verify.coq import coq_section, kernel_column
from novikoff.verify.proof_checks import theorem_summary

__all__ = [
    "REGRESSION",
    "md_cell",
    "ok",
    "regression_results",
    "regressions",
    "summary_rows",
    "to_json",
    "to_junit",
    "to_markdown",
    "to_table",
]


def _status(r: CheckResult) -> str:
    return "skipped" if r.skipped else ("passed" if r.ok else "FAILED")


def ok(results: Sequence[CheckResult]) -> bool:
    """The one verdict: every check (regressions included) passed or was skipped."""
    return all(r.ok for r in results)


def _verdict(results: Sequence[CheckResult]) -> str:
    return "all checks hold" if ok(results) else "SOME CHECKS FAILED"


def to_json(results: Sequence[CheckResult]) -> dict[str, object]:
    out = _to_json(results)
    coq = coq_section(results)
    if coq is not None:
        out["coq"] = coq
    return out


def _to_json(results: Sequence[CheckResult]) -> dict[str, object]:
    return {
        "ok": ok(results),
        "regressions": [r.check.name for r in results if r.check.group == REGRESSION],
        "theorems": theorem_summary(results),
        "checks": [
            {
                "group": r.check.group,
                "id": r.check.spec_id,
                "ids": sorted(r.check.ids),
                "name": r.check.name,
                "status": _status(r),
                "seconds": round(r.seconds, 4),
                "message": r.message,
            }
            for r in results
        ],
    }


def to_junit(results: Sequence[CheckResult]) -> str:
    """JUnit XML: one testsuite per group, one testcase per check."""
    root = ET.Element(
        "testsuites",
        name="novikoff verify",
        tests=str(len(results)),
        failures=str(sum(not r.ok for r in results)),
        skipped=str(sum(r.skipped for r in results)),
    )
    for group in dict.fromkeys(r.check.group for r in results):
        rs = [r for r in results if r.check.group == group]
        suite = ET.SubElement(
            root,
            "testsuite",
            name=group,
            tests=str(len(rs)),
            failures=str(sum(not r.ok for r in rs)),
            skipped=str(sum(r.skipped for r in rs)),
            time=f"{sum(r.seconds for r in rs):.3f}",
        )
        for r in rs:
            case = ET.SubElement(
                suite,
                "testcase",
                classname=f"novikoff.{group}.{r.check.spec_id}",
                name=r.check.name,
                time=f"{r.seconds:.3f}",
            )
            if r.skipped:
                ET.SubElement(case, "skipped", message=r.message)
            elif not r.ok:
                failure = ET.SubElement(
                    case, "failure", message=(r.message.splitlines() or ["failed"])[0][:500]
                )
                failure.text = r.message
    return ET.tostring(root, encoding="unicode")


def summary_rows(results: Sequence[CheckResult]) -> list[tuple[str, str, int, int, int, float]]:
    """Per spec id that some check bears on: (id, status, passed, failed, skipped, seconds)
    over the checks whose ``ids`` contain it (a check bearing on several ids counts in
    each of their rows). Ids in order of first appearance, a check's own ``spec_id`` first."""
    order = dict.fromkeys(r.check.spec_id for r in results)
    order.update(dict.fromkeys(sorted(i for r in results for i in r.check.ids)))
    rows = []
    for sid in order:
        rs = [r for r in results if sid in r.check.ids]
        failed = sum(not r.ok for r in rs)
        skipped = sum(r.skipped for r in rs)
        rows.append(
            (
                sid,
                "FAILED" if failed else "passed",
                len(rs) - failed - skipped,
                failed,
                skipped,
                sum(r.seconds for r in rs),
            )
        )
    return rows


def to_table(results: Sequence[CheckResult]) -> str:
    kernel = kernel_column(results)
    col = f" {'kernel':<20}" if kernel else ""
    lines = [f"{'theorem':<8} {'status':<8} {'passed':>6} {'failed':>6} {'skipped':>7} {'seconds':>8}{col}"]
    for sid, status, ok, bad, skip, secs in summary_rows(results):
        k = f" {kernel.get(sid, '-'):<20}" if kernel else ""
        lines.append(f"{sid:<8} {status:<8} {ok:>6} {bad:>6} {skip:>7} {secs:>8.2f}{k}")
    for r in results:
        if not r.ok:
            lines.append(f"\nFAILED [{r.check.spec_id}] {r.check.name}\n  {r.message.strip()}")
    total = sum(r.seconds for r in results)
    verdict = _verdict(results)
    lines.append(
        f"\n{len(results)} checks, {sum(not r.ok for r in results)} failed, "
        f"{sum(r.skipped for r in results)} skipped, {total:.1f} s: {verdict}"
    )
    return "\n".join(lines)


_MD_SPECIAL = frozenset("\\`*_[]<>|~&")


def md_cell(text: object) -> str:
    """``text`` as one Markdown table cell that renders as exactly that text: pipes and the
    other inline-markup characters backslash-escaped, newlines as spaces."""
    flat = " ".join(str(text).split())
    return "".join("\\" + ch if ch in _MD_SPECIAL else ch for ch in flat)


def _fence(message: str) -> str:
    """A code fence longer than any run of backticks in ``message``."""
    run = best = 0
    for ch in message:
        run = run + 1 if ch == "`" else 0
        best = max(best, run)
    return "`" * max(3, best + 1)


def to_markdown(results: Sequence[CheckResult]) -> str:
    kernel = kernel_column(results)
    lines = [
        "# novikoff verify",
        "",
        f"**{_verdict(results)}**",
        "",
        "| theorem | status | passed | failed | skipped | seconds |" + (" kernel |" if kernel else ""),
        "|---|---|---|---|---|---|" + ("---|" if kernel else ""),
    ]
    for sid, status, ok, bad, skip, secs in summary_rows(results):
        k = f" {md_cell(kernel.get(sid, '-'))} |" if kernel else ""
        lines.append(f"| {md_cell(sid)} | {status} | {ok} | {bad} | {skip} | {secs:.2f} |{k}")
    lines += ["", "## Checks", "", "| group | theorem | check | status | seconds |", "|---|---|---|---|---|"]
    for r in results:
        lines.append(
            f"| {md_cell(r.check.group)} | {md_cell(r.check.spec_id)} | {md_cell(r.check.name)} "
            f"| {_status(r)} | {r.seconds:.3f} |"
        )
    failures = [r for r in results if not r.ok]
    if failures:
        lines += ["", "## Failures", ""]
        for r in failures:
            fence = _fence(r.message)
            title = md_cell(f"[{r.check.spec_id}] {r.check.name}")
            lines += [f"### {title}", "", fence, r.message.strip(), fence, ""]
    return "\n".join(lines) + "\n"


REGRESSION = "regression"


def regression_results(
    results: Sequence[CheckResult], baseline_path: str | Path, only: Sequence[str] = ()
) -> list[CheckResult]:
    """One failed ``regression`` result per check that passed in the baseline and now fails
    or is missing: append them to ``results`` so that every report and the exit status agree."""
    try:
        baseline = json.loads(Path(baseline_path).read_text())
        before = {
            (str(c["group"]), str(c["name"])): (str(c["id"]), frozenset(map(str, c.get("ids", [c["id"]]))))
            for c in baseline["checks"]
            if c["status"] == "passed" and (not only or not set(c.get("ids", [c["id"]])).isdisjoint(only))
        }
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise InputError(f"--baseline {baseline_path}: not a novikoff verify --json file ({exc})") from None
    now = {(r.check.group, r.check.name): r for r in results}
    out = []
    for (group, name), (sid, ids) in sorted(before.items()):
        r = now.get((group, name))
        if r is not None and r.ok:
            continue
        what = "missing" if r is None else "now failing"
        message = f"{what}: [{group}] {name} (passed in the baseline {baseline_path})"
        check = Check(REGRESSION, sid, f"{what}: [{group}] {name}", _noop, ids)
        out.append(CheckResult(check, False, 0.0, message))
    return out


def _noop() -> None:
    return None


def regressions(
    results: Sequence[CheckResult], baseline_path: str | Path, only: Sequence[str] = ()
) -> list[str]:
    """Checks that passed in the baseline and now fail or are missing (within ``only``, if given)."""
    return [r.check.name for r in regression_results(results, baseline_path, only)]
