"""Deprecated import path: the scikit-learn estimators live in :mod:`novikoff.integrations.sklearn`.

``from novikoff.sklearn import ...`` keeps working and warns once (``DeprecationWarning``);
new code imports :mod:`novikoff.integrations.sklearn`.
"""

from __future__ import annotations

import warnings

from novikoff.integrations.sklearn import *  # noqa: F403
from novikoff.integrations.sklearn import __all__ as __all__

warnings.warn(
    "novikoff.sklearn moved to novikoff.integrations.sklearn; import it from there",
    DeprecationWarning,
    stacklevel=2,
)
