"""Proof obligations and their checker.

Not implemented yet: the obligations (polynomial identities, interval
arithmetic, case splits), the proofs of DESIGN section 3 and ``novikoff
verify`` are the next issue. Today the theorems are checked on exact runs
(``novikoff.reference``), not proved here.
"""
