"""Where fuzzing campaigns keep their counterexamples: Hypothesis example databases.

A campaign's database is named by one string (the CLI's ``--database``):

- a directory path (default :data:`DEFAULT_DATABASE`, ``.novikoff/examples`` under
  the current directory, like Hypothesis's own ``.hypothesis/``): a
  :class:`hypothesis.database.DirectoryBasedExampleDatabase`, safe to share between
  processes on one machine (``--workers N``);
- ``redis://HOST:PORT/DB``: a :class:`hypothesis.extra.redis.RedisExampleDatabase`
  (needs ``pip install "hypothesis[redis]"``), shared by shards on many machines;
- ``none``: no database (nothing is stored, nothing replayed).

The environment variable ``NOVIKOFF_DATABASE`` replaces the default. Every
counterexample a search finds is saved under a key made of the algorithm and the
parsed bound (never the seed or the example budget), so a rerun, another worker or
another shard with the same bound replays it before searching anything new.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from hypothesis.database import DirectoryBasedExampleDatabase, ExampleDatabase

from novikoff.errors import InputError

__all__ = ["DEFAULT_DATABASE", "campaign_key", "default_database", "has_stored_examples", "open_database"]

DEFAULT_DATABASE = ".novikoff/examples"

# Bumped whenever the search strategy changes shape: stored choice sequences of an
# older strategy would replay as different datasets.
_STRATEGY_VERSION = "falsify-v2"


def default_database() -> str:
    """``$NOVIKOFF_DATABASE`` if set, else :data:`DEFAULT_DATABASE`."""
    return os.environ.get("NOVIKOFF_DATABASE", DEFAULT_DATABASE)


def open_database(spec: str | None) -> ExampleDatabase | None:
    """The database a spec names (see the module docstring); ``None``/``"none"`` gives None.

    Raises InputError when a Redis URL cannot be used (package missing, server not
    answering), naming the URL.
    """
    if spec is None or spec.strip().lower() == "none":
        return None
    if spec.startswith(("redis://", "rediss://", "unix://")):
        try:
            import redis
            from hypothesis.extra.redis import RedisExampleDatabase
        except ImportError:
            raise InputError(
                f'--database {spec}: Redis needs the redis package (pip install "hypothesis[redis]")'
            ) from None
        try:
            client = redis.Redis.from_url(spec)
            client.ping()
        except (redis.RedisError, ValueError) as exc:
            raise InputError(f"--database {spec}: cannot use the Redis server: {exc}") from None
        return RedisExampleDatabase(client)
    if not spec.strip():
        raise InputError("--database: empty path (use 'none' for no database)")
    path = Path(spec)
    if path.exists() and not path.is_dir():
        raise InputError(f"--database {spec}: exists and is not a directory")
    for parent in path.parents:  # the directory is created on first use: its ancestors must allow it
        if parent.exists():
            if not parent.is_dir():
                raise InputError(f"--database {spec}: {parent} is not a directory")
            break
    return DirectoryBasedExampleDatabase(spec)


def campaign_key(algorithm: str, bound: str) -> bytes:
    """The database key of a falsification campaign: algorithm and canonical bound text."""
    text = f"{_STRATEGY_VERSION}\0{algorithm}\0{bound}"
    return b"novikoff-falsify:" + hashlib.sha256(text.encode()).hexdigest().encode()


def has_stored_examples(db: ExampleDatabase | None, key: bytes) -> bool:
    """True iff ``db`` holds an example under ``key`` (so a first-example hit is a replay)."""
    return db is not None and next(iter(db.fetch(key)), None) is not None
