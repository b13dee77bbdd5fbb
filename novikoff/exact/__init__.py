"""Exact arithmetic: rationals, dyadic floats, big dot products and display approximations."""

__all__: list[str] = []
