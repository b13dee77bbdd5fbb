"""``verify --coq``'s check of the program extracted from Coq against the Python reference."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from novikoff.extracted import unavailable
from novikoff.verify import collect_checks, extracted_check, run_checks

REASON = unavailable()


def test_verify_coq_includes_the_extracted_check_and_plain_verify_does_not() -> None:
    assert [c.group for c in collect_checks(coq=True)].count("extracted") == 1
    assert "extracted" not in {c.group for c in collect_checks()}
    assert any(c.group == "extracted" for c in collect_checks(["M1"], coq=True))


@pytest.mark.skipif(REASON is not None, reason=f"extracted program not buildable: {REASON}")
def test_the_extracted_check_passes_on_the_real_programs() -> None:
    (result,) = run_checks([extracted_check(examples=3)], lambda r: None)
    assert result.ok and not result.skipped, result.message


@pytest.mark.skipif(REASON is not None, reason=f"extracted program not buildable: {REASON}")
def test_a_planted_reference_bug_fails_the_check_with_the_minimal_request(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import novikoff.extracted.campaign as campaign
    import novikoff.reference.perceptron as reference

    real = reference.run_perceptron

    def planted(*args: Any, **kwargs: Any) -> Any:  # the first weight off by one after an update
        run = real(*args, **kwargs)
        if run.mistakes == 0:
            return run
        return dataclasses.replace(run, weights=(run.weights[0] + 1, *run.weights[1:]))

    real_campaign = campaign.run_campaign
    monkeypatch.setattr(
        campaign,
        "run_campaign",
        lambda **kw: real_campaign(
            algorithms=("perceptron",), reference=lambda *a, **k: planted(*a, **k), **kw
        ),
    )
    (result,) = run_checks([extracted_check(examples=5)], lambda r: None)
    assert not result.ok
    assert "runs differ" in result.message and "request:" in result.message


def test_the_check_is_a_skip_saying_why_without_the_tools(monkeypatch: pytest.MonkeyPatch) -> None:
    import novikoff.extracted as extracted

    monkeypatch.setattr(extracted, "unavailable", lambda: "ocamlfind not found")
    (result,) = run_checks([extracted_check()], lambda r: None)
    assert result.ok and result.skipped and "ocamlfind not found" in result.message
