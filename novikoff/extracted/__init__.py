"""A verified executable reference: the perceptron extracted from Coq.

``coq/ZPerceptron.v`` defines the perceptron over integers and proves it equal to the
run of the Coq development's ``Perceptron.run`` (the run Novikoff's theorem is about);
``coq/Extract.v`` extracts it to OCaml (Zarith integers); ``ocaml/driver.ml`` (hand
written, not verified) reads a request and prints the run. :mod:`.build` compiles it all
from the sources, :mod:`.runner` runs it and compares it with the Python reference,
:mod:`.campaign` runs seeded differential campaigns (what ``verify --coq`` calls).
``ZLargeMargin.v``, ``ZPdmSucc.v`` and ``ZLabelled.v`` extend this to PFM, PDM, PDM-succ
and the labelled-data run; ``ZPdmMultiple.v`` to PDM and PDM-succ with multiple updates,
``ZVoted.v`` and ``ZAveraged.v`` to the voted and averaged perceptrons.
:func:`.runner.protocol_command` is what ``novikoff diff --impl extracted`` runs.
"""

from novikoff.extracted.runner import (
    ExtractedError,
    ExtractedRun,
    Replay,
    compare_runs,
    differences,
    extracted_binary,
    replay,
    run_extracted,
    unavailable,
)

__all__ = [
    "ExtractedError",
    "ExtractedRun",
    "Replay",
    "compare_runs",
    "differences",
    "extracted_binary",
    "replay",
    "run_extracted",
    "unavailable",
]
