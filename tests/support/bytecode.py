"""Bytecode for test runs, kept out of the source tree; loaded as a plugin (``-p tests.support.bytecode`` in the
pytest options of ``pyproject.toml``) before the installed pytest plugins.

pytest rewrites the asserts of every test module and of every installed pytest plugin (hypothesis, anyio, xdist,
...), and Python compiles every module it imports; both keep the result as bytecode only where bytecode may be
written. With ``PYTHONDONTWRITEBYTECODE`` set, every pytest process compiled them all again: the plugins alone,
about 120 modules, cost each process (the controller and every xdist worker) about 2 s. For the test run, bytecode
is written and read under ``.pytest_cache/pycache`` of the repository (``sys.pycache_prefix``): later runs reuse
it, and no ``__pycache__`` folder appears beside the sources. A conftest file would come too late: pytest imports
the installed plugins before the first conftest file.
"""

from __future__ import annotations

import sys
from pathlib import Path

PYCACHE = Path(__file__).resolve().parents[2] / ".pytest_cache" / "pycache"
"""Where the test run's bytecode goes (``.pytest_cache`` is ignored by git)."""

if sys.pycache_prefix is None:
    sys.pycache_prefix = str(PYCACHE)
sys.dont_write_bytecode = False
