"""The falsifier: finds counterexamples to wrong bounds at once, none for Novikoff's,
decides 'updates > bound' rigorously, and writes a file certify replays."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import time
from fractions import Fraction
from pathlib import Path

import pytest

from novikoff import cli
from novikoff.certificates import SeparableCertificate, certify
from novikoff.data.dataset import Dataset
from novikoff.data.multiclass import MulticlassData
from novikoff.errors import InputError
from novikoff.fuzz.bounds import parse_bound
from novikoff.fuzz.falsify import (
    Progress,
    adversarial_orders,
    bound_exceeded,
    certify_check,
    falsify,
    stderr_progress,
)
from novikoff.fuzz.shrinking import shrink_failure
from novikoff.runtime.runs import epoch_order


def test_one_percent_below_novikoff_is_falsified_by_t1() -> None:
    result = falsify("0.99*R**2/gamma**2", examples=50)
    ce = result.counterexample
    assert ce is not None and ce.source.startswith("T1")
    assert certify_check(ce)  # the certificate and the exact run give the same numbers again


def test_novikoffs_bound_has_no_counterexample() -> None:
    result = falsify("R**2/gamma**2", examples=100)
    assert result.counterexample is None and result.examples >= 100


def test_a_constant_bound_is_beaten_by_the_smallest_t1_instance_that_exceeds_it() -> None:
    result = falsify("R2/gamma2 - R2/gamma2 + 1", examples=50)  # the constant 1, written the long way
    ce = result.counterexample
    assert ce is not None and ce.source == "T1 with n = 2, scale 1" and ce.updates == 2
    assert certify_check(ce)


def test_comparison_is_rigorous_at_the_boundary() -> None:
    bound = parse_bound("sqrt(R2)*sqrt(R2)/gamma2")  # equals R2/gamma2 exactly
    values = {"R2": Fraction(2), "gamma2": Fraction(2, 3), "m": Fraction(3), "d": Fraction(3)}
    assert not bound_exceeded(bound, 3, values)  # 3 updates == bound 3: not a counterexample
    assert bound_exceeded(bound, 4, values)
    assert not bound_exceeded(parse_bound("log(m - 3)"), 5, values)  # undefined: never a counterexample


def test_falsify_cli_writes_a_replayable_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "ce.csv"
    code = cli.main(["falsify", "0.99*R**2/gamma**2", "--out", str(out), "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 1 and report["updates"] == 1 and out.exists()
    assert report["replay"] == f"novikoff replay {out}"
    code = cli.main(["replay", str(out), "--json"])
    replay = json.loads(capsys.readouterr().out)
    assert code == 1 and replay["updates"] == report["updates"] and replay["violated"]
    assert cli.main(["falsify", "R**2/gamma**2", "--examples", "20"]) == 0
    assert "not a proof" in capsys.readouterr().out
    assert cli.main(["falsify", "R ** foo"]) == 2
    assert "column 6" in capsys.readouterr().err


# --- campaigns: seeds, example databases, workers, Redis shards, steering -------------------------

# "d" (no more updates than features) is not refuted by T1 (n updates, n features), but two
# points on a line can need two updates; with seed 2 the search finds and shrinks that in
# under a second.
_CHEAP_BOUND, _CHEAP_SEED, _BUDGET = "d", 2, 100


def _data(ds: Dataset | MulticlassData) -> tuple[object, ...]:
    """What makes two datasets the same data (Dataset compares by identity)."""
    return ds.numerators, ds.denominator, ds.labels, ds.bias


def test_a_seed_reproduces_the_search_exactly() -> None:
    first = falsify(_CHEAP_BOUND, examples=_BUDGET, seed=_CHEAP_SEED, database=None, precheck=False)
    again = falsify(_CHEAP_BOUND, examples=_BUDGET, seed=_CHEAP_SEED, database=None, precheck=False)
    assert first.counterexample is not None and again.counterexample is not None
    assert first.examples == again.examples
    assert _data(first.counterexample.dataset) == _data(again.counterexample.dataset)
    assert (
        first.counterexample.updates == again.counterexample.updates > first.counterexample.dataset.n_features
    )


def test_a_directory_database_replays_a_counterexample_before_searching(tmp_path: Path) -> None:
    db = str(tmp_path / "examples")
    found = falsify(_CHEAP_BOUND, examples=_BUDGET, seed=_CHEAP_SEED, database=db, precheck=False)
    assert found.counterexample is not None and not found.replayed
    assert any((tmp_path / "examples").rglob("*")), "the counterexample was not stored"
    # another seed, a budget of one example: only the database can produce the counterexample now
    rerun = falsify(_CHEAP_BOUND, examples=1, seed=12345, database=db, precheck=False)
    assert rerun.counterexample is not None and rerun.replayed
    assert _data(rerun.counterexample.dataset) == _data(found.counterexample.dataset)
    assert "replayed" in rerun.counterexample.source
    # a different bound has its own key: nothing is replayed for it
    other = falsify("d + 1000", examples=1, seed=12345, database=db, precheck=False)
    assert other.counterexample is None


def test_workers_share_one_database(tmp_path: Path) -> None:
    db = str(tmp_path / "shared")
    found = falsify(
        _CHEAP_BOUND, examples=2 * _BUDGET, seed=_CHEAP_SEED, database=db, workers=2, precheck=False
    )
    assert found.counterexample is not None
    assert certify_check(found.counterexample)
    rerun = falsify(_CHEAP_BOUND, examples=2, seed=999, database=db, workers=2, precheck=False)
    assert rerun.counterexample is not None and rerun.replayed


def _redis_server_or_skip(tmp_path: Path) -> str:
    """Start Debian's redis-server on a free loopback port; required on CI (.ci/run installs it)."""
    server = shutil.which("redis-server")
    try:
        import redis  # noqa: F401
    except ImportError:
        server = None
    if server is None:
        if os.environ.get("CI"):
            pytest.fail("redis-server or the redis package is missing on CI")
        pytest.skip("redis-server or the redis package is not installed")
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"{server}\0{port}"


def test_two_redis_shards_share_a_counterexample(tmp_path: Path) -> None:
    server, port = _redis_server_or_skip(tmp_path).split("\0")
    proc = subprocess.Popen(
        [
            server,
            "--port",
            port,
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(tmp_path),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"redis://127.0.0.1:{port}/0"
    try:
        import redis

        client = redis.Redis.from_url(url)
        for _ in range(100):
            try:
                client.ping()
                break
            except redis.ConnectionError:
                time.sleep(0.05)
        # shard A finds the counterexample; shard B (another seed, one example) replays it
        shard_a = falsify(_CHEAP_BOUND, examples=_BUDGET, seed=_CHEAP_SEED, database=url, precheck=False)
        assert shard_a.counterexample is not None and not shard_a.replayed
        shard_b = falsify(_CHEAP_BOUND, examples=1, seed=777, database=url, precheck=False)
        assert shard_b.counterexample is not None and shard_b.replayed
        assert _data(shard_b.counterexample.dataset) == _data(shard_a.counterexample.dataset)
        # the CLI takes the same URL
        assert (
            cli.main(
                [
                    "falsify",
                    _CHEAP_BOUND,
                    "--examples",
                    "1",
                    "--database",
                    url,
                    "--out",
                    str(tmp_path / "ce.csv"),
                    "--json",
                ]
            )
            == 1
        )
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_an_unreachable_redis_database_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as sock:  # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    assert cli.main(["falsify", "m", "--database", f"redis://127.0.0.1:{port}/0"]) == 2
    assert f"redis://127.0.0.1:{port}/0" in capsys.readouterr().err


def test_progress_reports_examples_and_the_best_ratio() -> None:
    seen: list[Progress] = []
    result = falsify("R2/gamma2", examples=40, seed=1, database=None, progress=seen.append, precheck=False)
    assert result.counterexample is None
    assert [p.examples for p in seen] == list(range(1, len(seen) + 1)) and len(seen) == result.examples
    ratios = [p.best_ratio for p in seen if p.best_ratio is not None]
    assert ratios == sorted(ratios) and ratios[-1] == result.best_ratio
    assert 0 < ratios[-1] <= 1  # Novikoff: updates never exceed R^2/gamma^2


def test_the_stderr_progress_line(capsys: pytest.CaptureFixture[str]) -> None:
    show = stderr_progress(every=0)
    show(Progress(7, 0.5))
    show(Progress(8, None))
    err = capsys.readouterr().err
    assert (
        "7 examples tried, best updates/bound 0.5" in err and "8 examples tried, best updates/bound -" in err
    )


def test_json_mode_prints_no_progress(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["falsify", "R2/gamma2", "--examples", "5", "--json", "--database", "none"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["counterexample"] is None and captured.err == ""


def test_adversarial_orders_sort_by_progress_toward_the_certificate() -> None:
    # z_i . p* with p* = (1, 0) for these patterns (bias 0): progress 3, 1, 2
    ds = Dataset.from_fraction_rows(
        [[Fraction(3), Fraction(5)], [Fraction(1), Fraction(-5)], [Fraction(2), Fraction(0)]],
        [1, 1, 1],
        bias=0,
    )
    cert = certify(ds)
    assert isinstance(cert, SeparableCertificate)
    Z, _ = ds.scaled_patterns
    progress = [sum(a * b for a, b in zip(z, cert.pstar)) for z in Z]
    least, most = adversarial_orders(ds, cert)
    assert [progress[i] for i in least] == sorted(progress)
    assert [progress[i] for i in most] == sorted(progress, reverse=True)


def test_the_shrinker_keeps_the_failure_and_removes_what_it_does_not_need() -> None:
    # failure: "some sample has a feature >= 3" (any order); the minimal failing data is one sample (3)
    ds = Dataset.from_fraction_rows(
        [[Fraction(1, 3), Fraction(7, 2)], [Fraction(5), Fraction(-2)], [Fraction(0), Fraction(1)]],
        [1, -1, 1],
        bias=Fraction(5, 2),
    )

    def still_fails(candidate: Dataset, order: object) -> bool:
        return any(v >= 3 for i in range(candidate.n_samples) for v in candidate.features(i))

    small, order = shrink_failure(ds, [[2, 0, 1], [1, 2, 0]], still_fails)
    assert still_fails(small, order) and order is None
    assert small.n_samples == 1 and small.n_features == 1 and small.bias == 1
    assert small.features(0) == [5]  # 5 cannot become 0 or 1; it is already an integer


def test_the_shrinker_renumbers_orders_when_it_deletes_a_sample() -> None:
    ds = Dataset.from_fraction_rows([[Fraction(i)] for i in range(1, 5)], [1, 1, 1, 1])
    kept: list[object] = []

    def still_fails(candidate: Dataset, order: object) -> bool:
        kept.append(order)  # every order offered must be valid for the candidate
        epoch_order(order, candidate.n_samples)  # type: ignore[arg-type]
        return candidate.n_samples >= 3 and order is not None

    small, order = shrink_failure(ds, [3, 1, 0, 2], still_fails)
    # sample 0 deleted: [3, 1, 0, 2] -> [3, 1, 2] -> renumbered [2, 0, 1]; then every value shrinks to 0
    assert small.n_samples == 3 and order == [2, 0, 1]
    assert all(small.features(i) == [0] for i in range(3))
    assert None in kept  # the natural order was tried first and refused


# --- PDM and PFM campaigns -------------------------------------------------------------------------


def test_pdm_below_one_half_can_exceed_novikoffs_bound_and_the_file_replays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    result = falsify("R2/gamma2", examples=100, algorithm="pdm", epsilons=[Fraction(1, 10)], database=None)
    ce = result.counterexample
    assert ce is not None and ce.setting.value == Fraction(1, 10) and certify_check(ce)
    out = tmp_path / "ce.csv"
    ce.write_csv(out)
    command = ce.replay_command(out).split()
    assert command == ["novikoff", "replay", str(out)]
    assert cli.main([*command[1:], "--json"]) == 1  # the bound is violated
    replay = json.loads(capsys.readouterr().out)
    assert replay["updates"] == ce.updates and replay["parameters"] == {"eps": "1/10"} and replay["violated"]


def test_the_derived_pdm_and_pfm_bounds_survive_a_search() -> None:
    d1 = falsify(
        "R2/((2*eps-1)*gamma2)",
        examples=60,
        algorithm="pdm",
        epsilons=[Fraction(1), Fraction(3, 4)],
        database=None,
    )
    assert d1.counterexample is None and d1.best_ratio is not None and d1.best_ratio <= 1
    p1 = "(1+1/exp(1))*R2/(2*eps*gamma2)*(2*gamma/R + log((1+exp(1))*R2/(2*eps*gamma2)))"
    result = falsify(
        p1, examples=60, algorithm="pfm", epsilons=[Fraction(1, 2), Fraction(1, 10)], database=None
    )
    assert result.counterexample is None


def test_a_bound_just_below_novikoff_is_refuted_by_t1_for_pdm_and_pfm() -> None:
    for algorithm in ("pdm", "pfm"):
        ce = falsify("R2/gamma2 - 1/2", examples=10, algorithm=algorithm, database=None).counterexample
        assert ce is not None and ce.source.startswith("T1") and certify_check(ce)


def test_symbols_belong_to_their_algorithm(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(InputError, match="of --algorithm perceptron"):
        parse_bound("R2/gamma2/eps")
    assert parse_bound("beta*R", "pfm") is not None
    assert cli.main(["falsify", "R2/gamma2", "--epsilons", "1/2"]) == 2
    assert "pdm and pfm only" in capsys.readouterr().err
    assert cli.main(["falsify", "R2/gamma2", "--algorithm", "pdm", "--epsilons", "0"]) == 2


# --- the multiclass campaign -----------------------------------------------------------------------


def test_multiclass_m1_survives_and_half_of_it_does_not(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    m1 = falsify("2*R2/gamma2", examples=60, algorithm="multiclass", database=None)
    assert m1.counterexample is None and m1.best_ratio is not None and 0 < m1.best_ratio <= 1
    # R2/gamma2 is not a bound: Kesler vectors have squared norm 2 ||x~||^2, so gamma_K^2 may exceed R^2
    small = falsify("R2/gamma2/4", examples=60, algorithm="multiclass", database=None)
    ce = small.counterexample
    assert ce is not None and not small.replayed  # no database: never "replayed"
    assert certify_check(ce)
    out = tmp_path / "mc.csv"
    ce.write_csv(out)
    command = ce.replay_command(out).split()
    assert cli.main([*command[1:], "--json"]) == 1  # the bound is violated
    replay = json.loads(capsys.readouterr().out)
    assert replay["updates"] == ce.updates and replay["algorithm"] == "multiclass" and replay["violated"]


def test_multiclass_bounds_may_use_k_and_only_k() -> None:
    assert parse_bound("K*R2/gamma2", "multiclass") is not None
    with pytest.raises(InputError, match="of --algorithm perceptron"):
        parse_bound("K*R2/gamma2")
    with pytest.raises(InputError, match="one process"):
        falsify("2*R2/gamma2", algorithm="multiclass", workers=2, database=None)


def test_bound_expression_limits_are_the_users_to_set(capsys: pytest.CaptureFixture[str]) -> None:
    from novikoff import cli
    from novikoff.errors import InputError
    from novikoff.fuzz.bounds import DEFAULT_LIMITS, BoundLimits, BoundSyntaxError, parse_bound

    with pytest.raises(BoundSyntaxError, match="at most 10000 in absolute value, --max-bound-exponent"):
        parse_bound("R2/gamma2 + 2**20000")
    raised = BoundLimits(exponent=30_000, power_digits=DEFAULT_LIMITS.power_digits)
    assert parse_bound("R2/gamma2 + 2**20000", limits=raised) is not None
    with pytest.raises(BoundSyntaxError, match="--max-bound-length"):
        parse_bound("R2 + " * 10 + "R2", limits=BoundLimits(length=20))
    with pytest.raises(BoundSyntaxError, match="at most 2, --max-bound-depth"):
        parse_bound("((R2))/gamma2", limits=BoundLimits(depth=2))
    with pytest.raises(BoundSyntaxError, match="--max-bound-digits"):
        parse_bound("R2/gamma2 + 7**90", limits=BoundLimits(power_digits=50))
    with pytest.raises(InputError, match="positive integer"):
        BoundLimits(exponent=0)
    code = cli.main(["falsify", "R2/gamma2 + 2**20", "--max-bound-exponent", "10", "--database", ""])
    assert code == 2 and "--max-bound-exponent" in capsys.readouterr().err
