"""``novikoff certify --verified``: the exact run replayed by the perceptron extracted from Coq.

The replay agrees on the shipped examples; a run that differs from the verified program's (a
planted change of the fast path's weights) is exit 1 with one stderr line; where the replay
cannot be made (``--kernel``, a Dask executor, missing tools) it is refused before any work.
"""

from __future__ import annotations

import dataclasses
import json
from fractions import Fraction
from typing import Any

import pytest

from novikoff.cli.app import main
from novikoff.extracted import unavailable

REASON = unavailable()
needs_tools = pytest.mark.skipif(REASON is not None, reason=f"extracted program not buildable: {REASON}")


@needs_tools
@pytest.mark.parametrize("name", ["exercise-6.1", "seed-6.6:3", "xor", "t1:5"])
def test_the_verified_replay_agrees_with_the_exact_run(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["certify", f"example:{name}", "--verified", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    replay = report["verified_replay"]
    assert replay["agrees"] is True and replay["differences"] == []
    assert [Fraction(str(v)) for v in replay["weights"]] == [
        Fraction(str(v)) for v in report["perceptron"]["weights"]
    ]
    assert replay["mistakes"] == report["perceptron"]["mistakes"]


@needs_tools
def test_a_run_that_differs_from_the_verified_program_is_exit_1(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import novikoff.twins.exact as exact

    real = exact.exact_perceptron

    def planted(*args: Any, **kwargs: Any) -> Any:  # the fast path with one weight off by 1
        run = real(*args, **kwargs)
        w = list(run.weights)
        w[0] += Fraction(1)
        return dataclasses.replace(run, weights=tuple(w))

    monkeypatch.setattr(exact, "exact_perceptron", planted)
    assert main(["certify", "example:exercise-6.1", "--verified"]) == 1
    out, err = capsys.readouterr()
    assert "DISAGREES" in out
    assert err.count("\n") == 1 and err.startswith("novikoff: verified replay: DISAGREES")
    assert "weight" in err


@pytest.mark.parametrize(
    ("extra", "reason"),
    [
        (["--kernel", "poly:2"], "does not apply to --kernel"),
        (["--executor", "dask://127.0.0.1:1"], "does not apply to --executor dask"),
    ],
)
def test_verified_is_refused_where_it_cannot_replay(
    extra: list[str], reason: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["certify", "example:exercise-6.1", "--verified", *extra]) == 2
    assert reason in capsys.readouterr().err


def test_verified_without_the_tools_is_exit_2_naming_them(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import novikoff.extracted as extracted

    monkeypatch.setattr(extracted, "unavailable", lambda: "ocamlfind not found")
    assert main(["certify", "example:exercise-6.1", "--verified"]) == 2
    err = capsys.readouterr().err
    assert "cannot be built here: ocamlfind not found" in err
