"""The exact certificate of 10k x 50 separable data against a float SVM fit of the same data.

Anchor: ``sklearn.svm.SVC(kernel="linear", C=1e10)`` (a hard-margin SVM in
floats) on the same arrays, in the same process. novikoff's side: the exact
minimum-norm-point certificate (Wolfe in exact arithmetic, warm-started from a
float NNLS solution on a working set of columns), re-verified by the exact
checker; with and without the geometric margin (a second exact certificate,
computed on the other core), plus the exact conversion of the float arrays.
"""

from __future__ import annotations

import sys

from _common import timed
from bench_twin_sklearn import separable_ints


def main(quick: bool = False) -> list[tuple[str, str, str]]:
    from sklearn.svm import SVC

    from novikoff.certificates import SeparableCertificate, certify
    from novikoff.data.dataset import Dataset

    X, y = separable_ints(10_000, 50)
    repeat = 1 if quick else 3
    t_svc, svc = timed(lambda: SVC(kernel="linear", C=1e10).fit(X, y), repeat=repeat)
    t_data, _ = timed(lambda: Dataset.from_arrays(X, y, bias=1), repeat=repeat)
    t_plain, cert = timed(lambda: certify(Dataset.from_arrays(X, y, bias=1), geometric=False), repeat=repeat)
    t_geo, cert_geo = timed(lambda: certify(Dataset.from_arrays(X, y, bias=1)), repeat=repeat)
    assert isinstance(cert, SeparableCertificate) and isinstance(cert_geo, SeparableCertificate)
    support = sum(1 for v in cert.lambdas.numerators if v)
    return [
        (
            f"exact certificate 10000x50 ({support} support vectors, checked; arrays converted exactly)",
            f"{t_plain:.2f} s",
            f"SVC(linear, C=1e10) {t_svc:.2f} s ({int(svc.n_support_.sum())} SV): "
            f"{t_plain / t_svc:.2f}x (goal <= 2x)",
        ),
        (
            "  with the geometric margin certificate too (free bias)",
            f"{t_geo:.2f} s",
            f"{t_geo / t_svc:.2f}x the SVC fit; exact conversion alone {t_data:.2f} s",
        ),
    ]


if __name__ == "__main__":
    for row in main("--quick" in sys.argv):
        print(" | ".join(row))
