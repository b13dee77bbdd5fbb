"""Decide a proposed bound on the number of updates: proved (an exact certificate and a Coq
proof from the kernel-checked run theorem), refuted (a replayable counterexample) or open.

See :func:`novikoff.prove.api.prove_bound` and ``docs/howto/prove.md``.
"""

from __future__ import annotations

from novikoff.prove.api import assert_verdict, prove_bound
from novikoff.prove.verdict import EXIT_CODES, ProveVerdict

__all__ = ["EXIT_CODES", "ProveVerdict", "assert_verdict", "prove_bound"]
