"""``novikoff verify``: every proof obligation, certificate check and campaign, one verdict."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from novikoff.commands.options import add_time_limit, write_file
from novikoff.runtime.jsonout import print_json

__all__ = ["register", "run"]


def register(sub: Any) -> None:
    """Add the sub-parser to ``sub`` (argparse's subparsers action); its handler is :func:`run`."""
    v = sub.add_parser(
        "verify",
        help="re-check every theorem: proofs, certificates on built-in data, a Hypothesis campaign",
        description="Run every proof obligation, the exact certificate checker on built-in datasets "
        "and a derandomized Hypothesis campaign of N1-N3. Exit 0 iff everything holds, 1 if "
        "anything failed (or regressed against --baseline), 2 on usage errors.",
    )
    v.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    v.add_argument("--junit", metavar="FILE", help="write JUnit XML")
    v.add_argument("--report", metavar="FILE.md", help="write a Markdown report")
    v.add_argument("--baseline", metavar="FILE", help="a previous --json output; fail on regressions")
    v.add_argument(
        "--only",
        nargs="+",
        metavar="ID",
        default=[],
        help="only the checks bearing on these theorem ids (N1, D1, ...): those whose ids contain one",
    )
    v.add_argument("--full", action="store_true", help="a longer Hypothesis campaign")
    v.add_argument("--crosshair", action="store_true", help="also run CrossHair on the integer kernels")
    v.add_argument(
        "--coq",
        action="store_true",
        help="also run the Coq kernel checks (needs coqc): Statements.v is the spec's print, Coq types "
        "each theorem as its statement and each Example as its hypotheses, the axioms are those expected",
    )
    add_time_limit(v, 3600)
    v.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from novikoff import verify

    if args.baseline:  # a malformed baseline is bad input: say so before minutes of checks
        verify.regression_results([], args.baseline, args.only)
    checks = verify.collect_checks(args.only, full=args.full, crosshair=args.crosshair, coq=args.coq)

    def progress(r: verify.CheckResult) -> None:
        if not args.json and not r.ok:
            print(f"FAILED [{r.check.spec_id}] {r.check.name}", file=sys.stderr, flush=True)

    results = verify.run_checks(checks, progress)
    if args.baseline:  # regressions are failed results: every report and the exit status agree
        results += verify.regression_results(results, args.baseline, args.only)
    if args.junit:
        write_file(args.junit, verify.to_junit(results), "--junit")
    if args.report:
        write_file(args.report, verify.to_markdown(results), "--report")
    if args.json:
        print_json(verify.to_json(results))
    else:
        print(verify.to_table(results))
        for r in results:
            if r.check.group == verify.REGRESSION:
                print(f"REGRESSION {r.check.name}")
    if verify.ok(results):
        return 0
    failed = sum(not r.ok for r in results)  # every non-zero exit says why on stderr, on one line
    print(f"novikoff: verify: {failed} of {len(results)} checks failed", file=sys.stderr, flush=True)
    return 1
