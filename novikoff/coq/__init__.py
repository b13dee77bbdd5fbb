"""Coq bridge: kernel-checked statements and certificates (see novikoff/proofs/coq/)."""
