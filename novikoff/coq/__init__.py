"""Coq bridge: kernel-checked statements and certificates (see novikoff/coq/theories/)."""

__all__: list[str] = []
