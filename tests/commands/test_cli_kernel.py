"""``novikoff certify DATA --kernel poly:DEGREE[:C]`` on the command line: the wiring of
:func:`novikoff.commands.kernel.kernel_certify` into certify, its refusals and exit statuses."""

from __future__ import annotations

import argparse
import json

import pytest

from novikoff import cli
from novikoff.commands.kernel import kernel_certify
from novikoff.data.examples import load_example


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    try:
        code = cli.main(list(args))
    except SystemExit as exc:  # argparse's usage errors
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_xor_is_not_linearly_separable_and_separable_with_degree_two(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run_cli(capsys, "certify", "example:xor", "--json")
    assert code == 0 and json.loads(out)["separable"] is False
    code, out, _ = run_cli(capsys, "certify", "example:xor", "--kernel", "poly:2", "--json")
    report = json.loads(out)
    assert code == 0 and report["separable"] is True and report["kernel"] == "poly:2:1"
    # the command prints what the library hook computes, nothing else
    status, expected, text = kernel_certify(argparse.Namespace(kernel="poly:2"), load_example("xor"))
    assert (status, report) == (0, json.loads(json.dumps(expected)))
    code, out, _ = run_cli(capsys, "certify", "example:xor", "--kernel", "poly:2")
    assert code == 0 and out.rstrip("\n") == text.rstrip("\n")


def test_degree_one_without_offset_is_the_linear_answer(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "certify", "example:xor", "--kernel", "poly:1:0", "--json")
    assert code == 0 and json.loads(out)["separable"] is False


@pytest.mark.parametrize(
    ("extra", "named"),
    [
        (["--kernel", "rbf:1"], "--kernel"),
        (["--kernel", "poly:0"], "--kernel"),
        (["--kernel", "poly:2:-1"], "--kernel"),
        (["--kernel", "sigmoid:1"], "--kernel"),
        (["--kernel", "poly:2", "--certificate", "c.json"], "--certificate"),
        (["--kernel", "poly:2", "--coq", "bad-name.v"], "--coq"),
    ],
)
def test_bad_kernel_uses_exit_2_naming_the_option(
    capsys: pytest.CaptureFixture[str], extra: list[str], named: str
) -> None:
    code, out, err = run_cli(capsys, "certify", "example:xor", *extra)
    assert code == 2, (out, err)
    assert named in err
    assert "Traceback" not in err
