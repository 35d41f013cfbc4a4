"""Where foldbench keeps files it can always make again: ``$FOLDBENCH_CACHE_DIR``, default ``~/.cache/foldbench``.

Nothing in the cache is the only copy of anything: the package data unpacked there (the OrigamiBench models) and
the datasets rebuilt from exports are written anew when missing.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["CACHE_ENV", "cache_root"]

CACHE_ENV = "FOLDBENCH_CACHE_DIR"


def cache_root() -> Path:
    """The cache folder (not created here)."""
    return Path(os.environ.get(CACHE_ENV) or Path.home() / ".cache" / "foldbench")
