"""Exact arithmetic: rationals, dyadic floats, big dot products and display approximations."""
