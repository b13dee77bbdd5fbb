"""The ``novikoff`` command line: :func:`main` (the console script) and :func:`build_parser`.

The commands live in :mod:`novikoff.commands`, one module each; this package parses the
command line, dispatches to the chosen command's handler and maps exceptions to exit
statuses (see :mod:`novikoff.cli.app`).

The command line runs BLAS on one thread unless ``OPENBLAS_NUM_THREADS`` is set: its
exact products are small, its parallel work is processes (certify's second core, the
campaigns' workers), and OpenBLAS's idle threads spin beside them (measured on
``novikoff certify vec400_1.csv``: numpy's import 0.20-0.26 s -> 0.12-0.15 s, the whole
command about 0.3-0.45 s less CPU). Set the variable to choose otherwise.
"""

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before numpy loads OpenBLAS

from novikoff.cli.app import build_parser, main

__all__ = ["build_parser", "main"]
