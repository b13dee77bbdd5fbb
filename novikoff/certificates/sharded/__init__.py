"""Exact certificates of data that do not fit one machine: shards read and kept by Dask
workers (or in this process), the driver doing the support-sized exact work.

- :mod:`novikoff.certificates.sharded.data`: the blocks, where they run, the driver's view;
- :mod:`novikoff.certificates.sharded.rows`: the float warm start's passes and the exact atoms;
- :mod:`novikoff.certificates.sharded.solve`: the certificates found and checked.
"""

from __future__ import annotations

from novikoff.certificates.sharded.data import (
    DaskShards,
    LocalShards,
    ReadOptions,
    ShardedData,
    open_dask,
    open_local,
)
from novikoff.certificates.sharded.solve import (
    sharded_certify,
    sharded_check,
    sharded_check_geometric,
    sharded_geometric_margin,
)

__all__ = [
    "DaskShards",
    "LocalShards",
    "ReadOptions",
    "ShardedData",
    "open_dask",
    "open_local",
    "sharded_certify",
    "sharded_check",
    "sharded_check_geometric",
    "sharded_geometric_margin",
]
