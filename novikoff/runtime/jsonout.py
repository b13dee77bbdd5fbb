"""Standard JSON only: what every ``--json`` output goes through.

Guarantees: :func:`dumps` returns RFC 8259 JSON (``allow_nan=False``): a float that
is not finite becomes ``null``, and an integer beyond the float64 range becomes a
string of its digits (a parser that reads numbers as doubles would turn it into
Infinity or refuse it). Floats that approximate an exact value are made by
:func:`float_or_none`, which gives ``None`` (JSON ``null``) when the exact value
does not fit a float64; every such ``*_float`` field has its exact value beside it
as an integer or a string (``"p/q"`` or digits), so nothing is lost.
"""

from __future__ import annotations

import json
import math
import sys
from typing import Any

from novikoff.exact.approx import to_float as float_or_none
from novikoff.exact.rational import decimal

__all__ = ["dumps", "error_json", "float_or_none", "print_json"]


_FLOAT_MAX = int(sys.float_info.max)


def _clean(obj: Any) -> Any:
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if isinstance(obj, int) and not isinstance(obj, bool) and abs(obj) > _FLOAT_MAX:
        return decimal(obj)
    if isinstance(obj, dict):
        return {k: _clean(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_clean(v) for v in obj]
    return obj


def print_json(obj: Any) -> None:
    """Print ``obj`` as one standard JSON line on stdout, whole: no deadline can cut it."""
    from novikoff.runtime.limits import no_deadline

    text = dumps(obj)
    with no_deadline():
        print(text, flush=True)


def dumps(obj: Any) -> str:
    """``obj`` as standard JSON (non-finite floats as null; never NaN or Infinity)."""
    return json.dumps(_clean(obj), allow_nan=False)


def error_json(message: str, exit_code: int, **extra: Any) -> str:
    """The one JSON object printed on stdout when a ``--json`` command fails."""
    return dumps({"error": message, "exit_code": exit_code, **extra})
