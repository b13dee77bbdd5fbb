"""What the Coq audit takes as given: the allowed axioms, the axioms each statement's theorem
must list, and the development's fixed names (its logical root, the statements' and run
statements' modules, the audit file).

These are constants, not decisions: :mod:`novikoff.coq.kernel` (the report) and
:mod:`novikoff.coq.audit` (the build and the audit file) decide with them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

__all__ = [
    "ALLOWED_AXIOMS",
    "ALLOWED_TEXT",
    "AUDIT_FILE",
    "AUDIT_MARKER",
    "DECLARATION",
    "EXPECTED_AXIOMS",
    "LN_AXIOMS",
    "LOGICAL_ROOT",
    "NOT_PROVED",
    "NO_RUN",
    "REALS_AXIOMS",
    "REALS_NOT_DEC",
    "REFERENCE_LEMMA",
    "RUN_STATEMENTS",
    "SKIPPED",
    "STATEMENTS",
]

#: The axioms a theorem may assume: those of Coq's standard real numbers. The first three
#: are behind every [R] (the classical Dedekind construction of Coq >= 8.12 and function
#: extensionality); [Classical_Prop.classic] enters through the standard library's
#: [ln]/[Rpower] (Coq.Reals.Rpower and the analysis it imports), used by D1_below_half.
ALLOWED_AXIOMS = frozenset(
    {
        "ClassicalDedekindReals.sig_forall_dec",
        "ClassicalDedekindReals.sig_not_dec",
        "FunctionalExtensionality.functional_extensionality_dep",
        "Classical_Prop.classic",
    }
)

#: What every theorem over [R] assumes: [lra], [field] and [nra] reach the Dedekind reals'
#: [sig_forall_dec] and function extensionality (Coq 8.16, Coq.Reals.ClassicalDedekindReals).
REALS_AXIOMS = frozenset(
    {"ClassicalDedekindReals.sig_forall_dec", "FunctionalExtensionality.functional_extensionality_dep"}
)
#: ... and through [sqrt]'s lemmas (Coq.Reals.R_sqrt: FS1's proofs take sqrt k) and [ln]'s
#: also [sig_not_dec]; [ln]'s analysis (Coq.Reals.Rpower) also [Classical_Prop.classic].
REALS_NOT_DEC = REALS_AXIOMS | {"ClassicalDedekindReals.sig_not_dec"}
LN_AXIOMS = REALS_NOT_DEC | {"Classical_Prop.classic"}

#: Exactly the axioms ``Print Assumptions`` must list for each statement's theorem (by Coq
#: name). A statement listed here must have a theorem; one with a theorem must be listed.
EXPECTED_AXIOMS: Mapping[str, frozenset[str]] = {
    "N1": REALS_AXIOMS,
    "N2": REALS_AXIOMS,
    "N3": REALS_AXIOMS,
    "T1": REALS_AXIOMS,
    "G1_scale": REALS_AXIOMS,
    "G1_rotate": REALS_AXIOMS,
    "G1_pad": REALS_AXIOMS,
    "G1_add_point": REALS_AXIOMS,
    "M1": REALS_AXIOMS,
    "P1": LN_AXIOMS,
    "D1_above_half": REALS_AXIOMS,
    "D1_half": LN_AXIOMS,
    "D1_below_half": LN_AXIOMS,
    "D2": REALS_AXIOMS,
    "D3": REALS_AXIOMS,
    "L1": LN_AXIOMS,
    "S1": REALS_AXIOMS,
    "S2": REALS_AXIOMS,
    "MU": REALS_AXIOMS,
    "DS1": LN_AXIOMS,
    "RC1": LN_AXIOMS,
    "R1": REALS_AXIOMS,
    "FS1_one_pass": REALS_NOT_DEC,
    "FS1_passes": REALS_NOT_DEC,
    "V1_prefixes": REALS_AXIOMS,
    "V1_vote": REALS_AXIOMS,
    "V1_sample": REALS_AXIOMS,
}

#: A standard-library lemma that assumes exactly :data:`ALLOWED_AXIOMS` (ln (exp x) = x).
REFERENCE_LEMMA = "Coq.Reals.Rpower.ln_exp"
ALLOWED_TEXT = ", ".join(sorted(ALLOWED_AXIOMS))
AUDIT_FILE = "NovikoffAudit.v"
SKIPPED = "skipped (coqc not found)"
NOT_PROVED = "not proved in Coq"
LOGICAL_ROOT = "Novikoff"
STATEMENTS = "Statements.v"
#: The module of the run statements (``<NAME>_run_statement``).
RUN_STATEMENTS = "RunStatements"
NO_RUN = "printed statement kernel-checked; no run theorem"

#: A declaration's name at the start of a line (after comments are stripped). Only finds
#: where a name is declared; whether it proves anything is Coq's decision (the audit).
DECLARATION = re.compile(
    r"^\s*(?:Theorem|Lemma|Corollary|Proposition|Fact|Remark|Example|Definition)\s+"
    r"([A-Za-z_][A-Za-z0-9_']*)",
    re.M,
)
AUDIT_MARKER = "@@audit "
