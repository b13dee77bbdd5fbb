"""``novikoff replay FILE``: a falsify counterexample file replays alone -- the recorded
algorithm, parameters and order rerun exactly, the recorded bound evaluated, exit 1 when
it is violated and 0 when it holds (m = 1 and shuffled orders included)."""

from __future__ import annotations

import contextlib
import io
import json
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from novikoff import cli
from novikoff.certificates import SeparableCertificate, certify
from novikoff.fuzz.falsify import Counterexample, falsify, replay_file
from novikoff.fuzz.settings_space import RunSetting
from novikoff.spec.tightness import rotated_basis_dataset


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    try:
        code = cli.main(list(args))
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_one_sample_counterexample_is_written_once_and_replays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "m1.csv"
    code, stdout, _ = run_cli(capsys, "falsify", "m - 1", "--out", str(out), "--examples", "5")
    assert code == 1 and f"replay: novikoff replay {out}" in stdout
    rows = [line for line in out.read_text().splitlines() if not line.startswith("#")]
    assert len(rows) == 1  # m = 1 stays m = 1
    header = json.loads(out.read_text().splitlines()[0].removeprefix("# novikoff-replay "))
    assert header["bound"] == "m - 1" and header["samples"] == 1 and header["algorithm"] == "perceptron"
    code, stdout, _ = run_cli(capsys, "replay", str(out), "--json")
    data = json.loads(stdout)
    assert code == 1 and data["violated"] and data["values"]["m"] == 1 and data["updates"] == 1


def _shuffled_counterexample(seed: int) -> Counterexample:
    """T1 rotated, n = 6, in order shuffle:SEED, against the bound (its update count) - 1."""
    ds = rotated_basis_dataset(6, seed=1)
    cert = certify(ds)
    assert isinstance(cert, SeparableCertificate)
    setting = RunSetting("perceptron")
    order = f"shuffle:{seed}"
    updates = setting.run(ds, cert, order, 10_000)
    values = {"R2": cert.R2, "gamma2": cert.gamma2, "m": Fraction(6), "d": Fraction(ds.n_features)}
    ce = Counterexample(ds, order, updates, values, "", "by hand", setting)
    ce.bound_text = f"{updates} - 1"
    return ce


def test_a_shuffled_order_is_recorded_as_text_and_replayed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ce = _shuffled_counterexample(414)
    out = tmp_path / "shuffled.csv"
    ce.write_csv(out)
    header = json.loads(out.read_text().splitlines()[0].removeprefix("# novikoff-replay "))
    assert header["order"] == "shuffle:414"
    code, stdout, _ = run_cli(capsys, "replay", str(out))
    assert code == 1 and "order shuffle:414" in stdout and f"{ce.updates} updates" in stdout
    assert "VIOLATED" in stdout


def test_a_bound_that_holds_replays_with_exit_0(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ce = _shuffled_counterexample(3)
    ce.bound_text = "R2/gamma2"  # Novikoff's bound holds in every order
    out = tmp_path / "holds.csv"
    ce.write_csv(out)
    replay = replay_file(out)
    assert not replay.violated and replay.updates == ce.updates
    code, stdout, _ = run_cli(capsys, "replay", str(out))
    assert code == 0 and "holds" in stdout


@pytest.mark.parametrize("algorithm", ["pdm", "pfm"])
def test_pdm_and_pfm_counterexamples_record_their_parameters(tmp_path: Path, algorithm: str) -> None:
    ce = falsify("R2/gamma2 - 1/2", examples=10, algorithm=algorithm, database=None).counterexample
    assert ce is not None
    out = tmp_path / f"{algorithm}.csv"
    ce.write_csv(out)  # the autouse fixture replays it too
    replay = replay_file(out)
    assert replay.violated and replay.updates == ce.updates and replay.algorithm == algorithm
    assert "eps" in replay.parameters and (algorithm == "pdm") != ("beta" in replay.parameters)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1,2,1\n", "line 1: not a novikoff falsify counterexample"),
        ("# novikoff-replay {nope\n1,1\n", "line 1: bad replay header"),
        ('# novikoff-replay {"novikoff_counterexample": 1}\n1,1\n', "line 1: bad replay header"),
        (
            '# novikoff-replay {"novikoff_counterexample": 1, "algorithm": "perceptron", "bias": "1", '
            '"bound": "m", "samples": 2}\n1,1\n',
            "records 2 samples, the file has 1",
        ),
        (
            '# novikoff-replay {"novikoff_counterexample": 1, "algorithm": "perceptron", "bias": "1", '
            '"bound": "m"}\n1,x\n',
            "line 2",
        ),
    ],
)
def test_bad_files_are_one_line_errors_with_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, message: str
) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text(text)
    code, _, err = run_cli(capsys, "replay", str(bad))
    assert code == 2 and message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


_GOOD = {
    "novikoff_counterexample": 1,
    "algorithm": "perceptron",
    "parameters": {},
    "bias": "1",
    "order": "natural",
    "bound": "m",
    "bound_limits": [2000, 100, 10000, 10000],
    "samples": 2,
    "updates": 1,
}
_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 10**30) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8,
)


@settings(max_examples=60, deadline=None, database=None)
@given(
    st.dictionaries(st.sampled_from(sorted(_GOOD)), _JSON, max_size=3),
    st.sampled_from(["1,0,1\n0,1,-1\n", "1,1\n", "1,0,2\n0,1,-1\n", "1\n", "a,b\n", "1,0,1\n0,1\n"]),
)
def test_hostile_headers_and_rows_never_crash(overrides: dict[str, object], rows: str) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "ce.csv"
        path.write_text("# novikoff-replay " + json.dumps({**_GOOD, **overrides}) + "\n" + rows)
        for args in (["replay", str(path)], ["replay", str(path), "--json"]):
            out, err = io.StringIO(), io.StringIO()
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                try:
                    code = cli.main(args)
                except SystemExit as exc:
                    code = int(exc.code or 0)
            assert code in (0, 1, 2), (overrides, rows, err.getvalue())
            problem = err.getvalue()
            assert "INTERNAL ERROR" not in problem and "Traceback" not in problem, problem
            if code == 2:
                assert len(err.getvalue().strip().splitlines()) == 1 or "--json" in args
            if "--json" in args:
                assert isinstance(json.loads(out.getvalue()), dict)
