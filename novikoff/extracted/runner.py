"""Run the perceptron extracted from Coq on a dataset and read its exact answer.

The program is built by :mod:`novikoff.extracted.build` from ``coq/ZPerceptron.v``: its
run is proved (``zepochs_correct``, ``zrun_rational``) to make the decisions, the updates
and the weights of ``Perceptron.run`` of the Coq development, the run Novikoff's theorem
is about. The driver that parses the request and prints the answer is hand-written and
not verified. The request is the diff protocol's (version 1, ``docs/howto/protocol.md``),
plus the driver's ``order cycle N`` (N following ``perm ...`` lines, epoch e presents the
(e mod N)-th), which carries every order kind of :func:`novikoff.runtime.runs.epoch_order`.
"""

from __future__ import annotations

import shlex
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from pathlib import Path

from novikoff.data.dataset import Dataset
from novikoff.data.multiclass import MulticlassData
from novikoff.errors import InputError
from novikoff.exact.rational import unlimited_int_digits
from novikoff.extracted.build import BuildError, build, missing_tools
from novikoff.runtime.runs import Order, RunRecord, epoch_order

__all__ = [
    "IMPLEMENTATIONS",
    "ExtractedError",
    "ExtractedRun",
    "Replay",
    "compare_runs",
    "differences",
    "extracted_binary",
    "format_request",
    "parse_answer",
    "protocol_command",
    "replay",
    "run_extracted",
    "unavailable",
]


class ExtractedError(RuntimeError):
    """The extracted program could not be built or run, or answered outside the format."""


@dataclass(frozen=True)
class ExtractedRun:
    """What the extracted program printed: weights W/L (bias weight last, present iff the
    dataset has a bias; the averaged perceptron's w_avg for ``averaged``), the updated
    sample indices in update order, the counts, and for ``voted`` the voters (w_j, c_j),
    j = 0..k (None for the other algorithms)."""

    weights: tuple[Fraction, ...]
    update_indices: tuple[int, ...]
    mistakes: int
    epochs: int
    converged: bool
    voters: tuple[tuple[tuple[Fraction, ...], int], ...] | None = None
    #: ROMMA only: the mistakes among the updates (w.z <= 0) and the stop ("none", "empty":
    #: the constraint set was empty, "limit": the update limit was reached).
    romma_mistakes: int | None = None
    stopped: str | None = None


def unavailable() -> str | None:
    """None when the extracted program can be built here, else the reason it cannot."""
    return missing_tools()


def extracted_binary() -> Path:
    """The built (cached) driver binary; ExtractedError when it cannot be built."""
    try:
        return build().binary
    except BuildError as exc:
        raise ExtractedError(f"the extracted perceptron could not be built: {exc}") from exc


#: The named implementations of ``novikoff diff --impl NAME``.
IMPLEMENTATIONS = ("extracted",)


def protocol_command(name: str) -> str:
    """The ``novikoff diff --command`` that runs the named implementation as a protocol
    target: for ``extracted``, the driver binary (built, or found in the cache, by
    :func:`extracted_binary`), shell-quoted; it speaks protocol versions 1 and 2 and answers
    "unsupported" outside its algorithms and declared semantics. InputError for another name,
    ExtractedError when the program cannot be built."""
    if name not in IMPLEMENTATIONS:
        raise InputError(f"--impl: the named implementations are {', '.join(IMPLEMENTATIONS)}, not {name!r}")
    return shlex.quote(str(extracted_binary()))


def _num(v: Fraction) -> str:
    return str(v.numerator) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"


#: The algorithms of the extracted program and the name of each one's parameter.
ALGORITHMS = {
    "perceptron": None,
    "pfm": "beta",
    "pdm": "eps",
    "pdm-multiple": "eps",
    "pdm-succ": "epsilons",
    "pdm-succ-multiple": "epsilons",
    "multiclass": None,
    "voted": None,
    "averaged": None,
    "romma": None,
    "romma-aggressive": "eps",
}
Parameter = Fraction | int | str | Sequence[Fraction | int | str] | None
#: The algorithms whose parameter is the list of stages' epsilons (max_epochs per stage).
SUCC_ALGORITHMS = ("pdm-succ", "pdm-succ-multiple")


def _parameter_line(algorithm: str, parameter: Parameter) -> str:
    if algorithm not in ALGORITHMS:
        raise InputError(f"algorithm: the extracted program runs {', '.join(ALGORITHMS)}, not {algorithm!r}")
    name = ALGORITHMS[algorithm]
    if name is None and parameter is not None:
        raise InputError(f"parameter: {algorithm} takes none")
    if name is None:
        return "parameter none"
    if parameter is None:
        raise InputError(f"parameter: {algorithm} needs {name}")
    if algorithm in SUCC_ALGORITHMS:
        if isinstance(parameter, (str, int, Fraction)) or not parameter:
            raise InputError(f"parameter: {algorithm} needs a non-empty list of epsilons")
        return f"parameter {name} " + " ".join(_num(Fraction(e)) for e in parameter)
    if not isinstance(parameter, (str, int, Fraction)):
        raise InputError(f"parameter: {algorithm} needs one number {name}")
    return f"parameter {name} {_num(Fraction(parameter))}"


def format_request(
    dataset: Dataset | MulticlassData,
    *,
    order: Order = None,
    max_epochs: int = 1000,
    algorithm: str = "perceptron",
    parameter: Parameter = None,
) -> str:
    """The driver's request for ``algorithm`` (the perceptron, PFM with ``parameter`` =
    beta, PDM with ``parameter`` = eps, PDM-succ with ``parameter`` = the epsilons; one update
    per mistake) on ``dataset`` from w_0 = 0 (``max_epochs`` per stage for PDM-succ).

    ``order`` is any order of :func:`novikoff.runtime.runs.epoch_order`: natural and one
    permutation are sent as protocol orders; a list of permutations is sent as a cycle;
    ``"shuffle:SEED"`` as the cycle of every epoch the run can reach (``max_epochs``, times
    the number of stages for PDM-succ).
    """
    m, d = dataset.n_samples, dataset.n_features
    if order is None or order == "natural":
        order_lines = ["order natural"]
    else:
        presentation = epoch_order(order, m)
        if isinstance(order, str):
            # every epoch the run can reach: max_epochs per stage, epochs numbered across stages
            succ = algorithm in SUCC_ALGORITHMS
            stages = len(parameter) if succ and isinstance(parameter, Sequence) else 1
            perms = [list(presentation(e)) for e in range(max_epochs * stages)]
        else:
            seq = list(order)
            nested = isinstance(seq[0], Sequence) and not isinstance(seq[0], str)
            perms = [list(presentation(e)) for e in range(len(seq) if nested else 1)]
        order_lines = [f"order cycle {len(perms)}", *("perm " + " ".join(map(str, p)) for p in perms)]
    multiclass = isinstance(dataset, MulticlassData)
    if multiclass != (algorithm == "multiclass"):
        raise InputError("algorithm: multiclass runs on MulticlassData, the others on a Dataset")
    den = dataset.denominator
    lines = [
        "novikoff-perceptron 1",
        f"algorithm {algorithm}",
        _parameter_line(algorithm, parameter),
        f"samples {m}",
        f"features {d}",
        *([f"classes {dataset.n_classes}"] if isinstance(dataset, MulticlassData) else []),
        f"bias {_num(Fraction(dataset.bias))}",
        f"max_epochs {max_epochs}",
        *order_lines,
        "tie_rule nonstrict",
        "margin 0",
        "learning_rate 1",
        "initial_weights " + " ".join(["0"] * (d + 1)),
        "stop converged",
        "precision exact",
        *_romma_lines(algorithm),
    ]
    for i in range(m):
        xs = " ".join(_num(Fraction(v, den)) for v in dataset.numerators[i])
        label = str(dataset.labels[i]) if multiclass else f"{dataset.labels[i]:+d}"
        lines.append(f"sample {label} {xs}".rstrip())
    lines.append("end")
    return "\n".join(lines) + "\n"


def _romma_lines(algorithm: str) -> list[str]:
    """ROMMA's update limit (the driver's extension): the exact reference's default."""
    if not algorithm.startswith("romma"):
        return []
    from novikoff.reference.romma import DEFAULT_MAX_UPDATES

    return [f"max_updates {DEFAULT_MAX_UPDATES}"]


def _romma_fields(fields: dict[str, list[str]]) -> tuple[int | None, str | None]:
    """The answer's ``romma_mistakes`` and ``stopped`` (None when absent)."""
    try:
        mistakes = int(fields["romma_mistakes"][0]) if "romma_mistakes" in fields else None
        stopped = fields["stopped"][0] if "stopped" in fields else None
    except (IndexError, ValueError) as exc:
        raise ExtractedError(f"the extracted program's ROMMA lines are not in its format ({exc!r})") from exc
    if stopped not in (None, "none", "empty", "limit"):
        raise ExtractedError(f"the extracted program's stop {stopped!r} is not none, empty or limit")
    return mistakes, stopped


def romma_stop(reference: RunRecord) -> str:
    """The stop of a :class:`~novikoff.reference.romma.RommaRun` as the driver names it."""
    stopped = str(getattr(reference, "stopped", ""))
    if not stopped:
        return "none"
    return "limit" if stopped.startswith("update limit") else "empty"


def parse_answer(text: str, features: int, bias: bool, classes: int = 1) -> ExtractedRun:
    """Read the driver's answer (``classes`` blocks of d + 1 weights, the bias weight last in
    each; with ``bias`` False that weight must be 0 and is dropped). ExtractedError naming
    the line otherwise."""
    fields: dict[str, list[str]] = {}
    voter_lines: list[tuple[int, list[str]]] = []
    for no, raw in enumerate(text.splitlines(), start=1):
        words = raw.split()
        if not words or words[0] in ("note", "end") or words[0].startswith("#"):
            continue
        if words[0] == "voter":
            voter_lines.append((no, words[1:]))
            continue
        if words[0] in fields:
            raise ExtractedError(f"answer line {no}: {words[0]} twice")
        fields[words[0]] = words[1:]
    if "unsupported" in fields:
        raise ExtractedError("the extracted program: unsupported " + " ".join(fields["unsupported"]))
    try:
        weights = tuple(Fraction(v) for v in fields["weights"])
        run = ExtractedRun(
            weights=weights,
            update_indices=tuple(int(v) for v in fields["updates"]),
            mistakes=int(fields["mistakes"][0]),
            epochs=int(fields["epochs"][0]),
            converged={"yes": True, "no": False}[fields["converged"][0]],
        )
    except (KeyError, IndexError, ValueError) as exc:
        raise ExtractedError(
            f"the extracted program's answer is not in its format ({exc!r}):\n{text[:500]}"
        ) from exc
    size = features + 1
    if len(weights) != classes * size:
        raise ExtractedError(
            f"the extracted program printed {len(weights)} weights, {classes * size} expected"
        )
    voters = _voters(voter_lines, size) if voter_lines else None
    if not bias:
        if any(weights[j * size + features] != 0 for j in range(classes)) or any(
            w[features] != 0 for w, _ in voters or ()
        ):
            raise ExtractedError("the extracted program's bias weight is not 0 on data without a bias")
        kept = tuple(v for j, v in enumerate(weights) if j % size != features)
        voters = None if voters is None else tuple((w[:features], c) for w, c in voters)
        run = ExtractedRun(kept, run.update_indices, run.mistakes, run.epochs, run.converged)
    romma_mistakes, stopped = _romma_fields(fields)
    return ExtractedRun(
        run.weights,
        run.update_indices,
        run.mistakes,
        run.epochs,
        run.converged,
        voters,
        romma_mistakes,
        stopped,
    )


def _voters(lines: list[tuple[int, list[str]]], size: int) -> tuple[tuple[tuple[Fraction, ...], int], ...]:
    """The ``voter COUNT w_1 ... w_size`` lines; ExtractedError naming a malformed one."""
    out = []
    for no, args in lines:
        try:
            if len(args) != size + 1:
                raise ValueError(f"{len(args)} numbers, a count and {size} weights expected")
            out.append((tuple(Fraction(v) for v in args[1:]), int(args[0])))
        except ValueError as exc:
            raise ExtractedError(f"answer line {no}: voter: {exc}") from None
    return tuple(out)


def run_extracted(
    dataset: Dataset | MulticlassData,
    *,
    order: Order = None,
    max_epochs: int = 1000,
    timeout: float = 600.0,
    binary: Path | None = None,
    algorithm: str = "perceptron",
    parameter: Parameter = None,
) -> ExtractedRun:
    """Run the extracted ``algorithm`` (perceptron, pfm with beta, pdm with eps, pdm-succ
    with a list of epsilons, pdm-multiple with eps (PDM with multiple updates), multiclass,
    voted, averaged) on
    ``dataset`` (every order kind of :func:`novikoff.runtime.runs.epoch_order`, at most
    ``max_epochs`` epochs). Raises InputError for a bad order or parameter and
    ExtractedError when the program fails."""
    if max_epochs < 1:
        raise InputError(f"max_epochs: must be >= 1, got {max_epochs}")
    request = format_request(
        dataset, order=order, max_epochs=max_epochs, algorithm=algorithm, parameter=parameter
    )
    program = binary or extracted_binary()
    try:
        proc = subprocess.run([str(program)], input=request, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise ExtractedError(f"the extracted program ran past {timeout:g} s") from None
    if proc.returncode != 0:
        raise ExtractedError(f"the extracted program exited {proc.returncode}: {proc.stderr.strip()[:500]}")
    classes = dataset.n_classes if isinstance(dataset, MulticlassData) else 1
    with unlimited_int_digits():  # exact ROMMA's numbers pass 4300 digits
        return parse_answer(proc.stdout, dataset.n_features, dataset.bias != 0, classes)


def differences(extracted: ExtractedRun, reference: RunRecord) -> list[str]:
    """Every way the two runs differ (empty iff identical: weights, updated indices, mistake
    count, epochs, convergence, and the voters when the extracted run has them: every
    (w_j, c_j) of the reference's ``voters``, in order)."""
    out = []
    ref_idx = tuple(reference.update_indices)
    if extracted.update_indices != ref_idx:
        k = next(
            (j for j, (a, b) in enumerate(zip(extracted.update_indices, ref_idx)) if a != b),
            min(len(ref_idx), len(extracted.update_indices)),
        )
        out.append(
            f"update #{k + 1} differs: extracted {extracted.update_indices[k : k + 1] or 'none'}, "
            f"reference {ref_idx[k : k + 1] or 'none'}"
        )
    if extracted.weights != tuple(Fraction(v) for v in reference.weights):
        out.append(
            f"weights: extracted {[str(v) for v in extracted.weights]}, "
            f"reference {[str(v) for v in reference.weights]}"
        )
    if extracted.mistakes != reference.mistakes:
        out.append(f"mistakes: extracted {extracted.mistakes}, reference {reference.mistakes}")
    if extracted.epochs != reference.epochs:
        out.append(f"epochs: extracted {extracted.epochs}, reference {reference.epochs}")
    if extracted.converged != reference.converged:
        out.append(f"converged: extracted {extracted.converged}, reference {reference.converged}")
    if extracted.voters is not None:
        theirs = tuple(
            (tuple(Fraction(v) for v in w), int(c)) for w, c in getattr(reference, "voters", None) or ()
        )
        if extracted.voters != theirs:
            j = next(
                (j for j, (a, b) in enumerate(zip(extracted.voters, theirs)) if a != b),
                min(len(theirs), len(extracted.voters)),
            )

            def show(vs: tuple[tuple[tuple[Fraction, ...], int], ...]) -> str:
                return " ".join(f"({[str(v) for v in w]}, {c})" for w, c in vs[j : j + 1]) or "none"

            out.append(
                f"voter #{j} differs ({len(extracted.voters)} voters extracted, {len(theirs)} in the "
                f"reference): extracted {show(extracted.voters)}, reference {show(theirs)}"
            )
    if extracted.romma_mistakes is not None:
        theirs_k = getattr(reference, "mistake_count", None)
        if extracted.romma_mistakes != theirs_k:
            out.append(f"ROMMA mistakes: extracted {extracted.romma_mistakes}, reference {theirs_k}")
        if extracted.stopped != romma_stop(reference):
            out.append(f"stop: extracted {extracted.stopped}, reference {romma_stop(reference)}")
    return out


def compare_runs(
    dataset: Dataset | MulticlassData,
    *,
    order: Order = None,
    max_epochs: int = 1000,
    reference: Callable[..., RunRecord] | None = None,
    binary: Path | None = None,
    algorithm: str = "perceptron",
    parameter: Parameter = None,
) -> list[str]:
    """Run the extracted program and the Python reference (``run_perceptron``, ``run_pfm``,
    ``run_pdm`` (with ``multiple_updates`` for pdm-multiple), ``run_pdm_succ``,
    ``run_multiclass``, ``run_voted`` or ``run_averaged`` unless ``reference`` is given) on
    the same input; the differences (empty when they agree)."""
    mine = run_extracted(
        dataset, order=order, max_epochs=max_epochs, binary=binary, algorithm=algorithm, parameter=parameter
    )
    if reference is not None:
        args = () if parameter is None else (parameter,)
        theirs = reference(dataset, *args, order=order, max_epochs=max_epochs)
    elif algorithm == "perceptron":
        from novikoff.reference.perceptron import run_perceptron

        assert isinstance(dataset, Dataset)  # format_request checked the kind
        theirs = run_perceptron(dataset, order=order, max_epochs=max_epochs)
    elif algorithm in ("voted", "averaged"):
        from novikoff.reference.averaged import run_averaged, run_voted

        assert isinstance(dataset, Dataset)
        run = run_voted if algorithm == "voted" else run_averaged
        theirs = run(dataset, order=order, max_epochs=max_epochs)
    elif algorithm in ("romma", "romma-aggressive"):
        from novikoff.reference.romma import run_romma

        assert isinstance(dataset, Dataset)
        eps = 0 if parameter is None else parameter
        theirs = run_romma(
            dataset, aggressive=algorithm == "romma-aggressive", eps=eps, order=order, max_epochs=max_epochs
        )
    elif algorithm == "multiclass":
        from novikoff.reference.multiclass import run_multiclass

        assert isinstance(dataset, MulticlassData)
        theirs = run_multiclass(dataset, order=order, max_epochs=max_epochs)
    else:
        from novikoff.reference.large_margin import run_pdm, run_pdm_succ, run_pfm

        solvers: dict[str, Callable[..., RunRecord]] = {
            "pfm": run_pfm,
            "pdm": run_pdm,
            "pdm-multiple": partial(run_pdm, multiple_updates=True),
            "pdm-succ": run_pdm_succ,
            "pdm-succ-multiple": partial(run_pdm_succ, multiple_updates=True),
        }
        solver = solvers[algorithm]
        theirs = solver(dataset, parameter, order=order, max_epochs=max_epochs)
    with unlimited_int_digits():
        return differences(mine, theirs)


@dataclass(frozen=True)
class Replay:
    """The extracted program's replay of a run another solver made (``certify --verified``)."""

    extracted: ExtractedRun
    differences: tuple[str, ...]

    @property
    def agrees(self) -> bool:
        """True iff the verified program made exactly the same run."""
        return not self.differences

    def summary(self) -> str:
        """One line for a report."""
        if self.agrees:
            return (
                f"verified replay: the perceptron extracted from Coq made the same run "
                f"({self.extracted.mistakes} updates, {self.extracted.epochs} epochs, the same weights)"
            )
        return "verified replay: DISAGREES with the perceptron extracted from Coq: " + "; ".join(
            self.differences
        )

    def to_json(self) -> dict[str, object]:
        """The JSON form: agreement, the differences, the extracted run's counts."""
        return {
            "agrees": self.agrees,
            "differences": list(self.differences),
            "mistakes": self.extracted.mistakes,
            "epochs": self.extracted.epochs,
            "converged": self.extracted.converged,
            "weights": [str(v) for v in self.extracted.weights],
            "program": "novikoff/extracted (ZPerceptron.zepochs_pairs, extracted to OCaml)",
        }


def replay(
    dataset: Dataset,
    run: RunRecord,
    *,
    order: Order = None,
    max_epochs: int = 1000,
    binary: Path | None = None,
) -> Replay:
    """Replay ``run`` (an exact perceptron run of ``dataset`` in ``order`` with at most
    ``max_epochs`` epochs, from the reference or the exact fast path) with the extracted
    program, and report whether the two runs are identical. ExtractedError when the
    program cannot be built or run."""
    mine = run_extracted(dataset, order=order, max_epochs=max_epochs, binary=binary)
    return Replay(mine, tuple(differences(mine, run)))
