"""``novikoff verify``: re-check every theorem novikoff states, as a CI regression suite.

Groups of checks, each check named, reported under one spec id and carrying ``ids``,
the set of every spec id it bears on (``--only N1`` runs every check whose ids contain
N1; the JSON lists them per check):

- ``spec``: per statement, its headline proof proves exactly that statement (ids: the
  statement's id);
- ``registry``: every spec statement has exactly one headline proof (ids: all);
- ``proof``: every proof obligation (:mod:`novikoff.proofs.registry`; ids: the theorem it
  serves and every theorem whose proof applies it as a lemma);
- ``certificate``: exact certificates and checked exact runs on built-in
  datasets (T1 for n = 1..50 plain and rotated, the textbook's section 6.6 data and
  exercise 6.1, iris setosa-vs-rest, breast cancer when scikit-learn is installed);
- ``campaign``: a derandomized Hypothesis campaign of N1-N3 on exact runs;
- ``crosshair`` (only with ``--crosshair``): CrossHair on the integer kernels;
- ``coq`` (only with ``--coq``): one check per spec id, Coq's kernel
  (:func:`novikoff.coq.kernel.coq_report`: ``Statements.v`` re-printed from the spec and
  compared byte for byte, the development built in a temporary copy, an audit file typing
  each theorem as its statement and each Example as an instance of its hypotheses, and
  ``Print Assumptions`` equal to the axioms expected). An id passes only if all of that
  holds for every statement of it; an id without a Coq theorem (and none expected) is
  skipped ("not proved in Coq"), never passed; all are skipped without ``coqc``; anything
  else fails, with Coq's reason. The JSON gets a ``"coq"`` section (with the audit file)
  and the table and Markdown a kernel column.

Reports: a table (theorem, check, status, seconds), JSON, JUnit XML and
Markdown. With a baseline (a previous ``--json`` output), a check that passed
before and now fails or is missing is a regression.

Modules: the proof checks (:mod:`~novikoff.verify.proof_checks`), the certificate checks
(:mod:`~novikoff.verify.certificate_checks`), the campaigns and CrossHair
(:mod:`~novikoff.verify.campaigns`), Coq's kernel and the extracted program
(:mod:`~novikoff.verify.coq`), collecting and running them (:mod:`~novikoff.verify.collect`)
and the reports (:mod:`~novikoff.verify.reports`); this package re-exports their public names.
"""

from __future__ import annotations

from novikoff.proofs.results import Check, CheckResult, Skip
from novikoff.verify.collect import collect_checks, run_checks
from novikoff.verify.coq import CoqCheck, coq_checks, coq_section, extracted_check
from novikoff.verify.proof_checks import theorem_summary
from novikoff.verify.reports import (
    REGRESSION,
    md_cell,
    ok,
    regression_results,
    regressions,
    summary_rows,
    to_json,
    to_junit,
    to_markdown,
    to_table,
)

__all__ = [
    "REGRESSION",
    "Check",
    "CheckResult",
    "CoqCheck",
    "Skip",
    "collect_checks",
    "coq_checks",
    "coq_section",
    "extracted_check",
    "md_cell",
    "ok",
    "regression_results",
    "regressions",
    "run_checks",
    "summary_rows",
    "theorem_summary",
    "to_json",
    "to_junit",
    "to_markdown",
    "to_table",
]
