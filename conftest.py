"""Bytecode for test runs, kept out of the source tree.

pytest rewrites the asserts of every test module and Python compiles every module it imports; both keep the result
as bytecode only where bytecode may be written. With ``PYTHONDONTWRITEBYTECODE`` set, every run compiled the whole
tree again (a collection took about 9 s longer). For the test run, bytecode is written and read under
``.pytest_cache/pycache`` of the repository (``sys.pycache_prefix``): later runs reuse it, and no ``__pycache__``
folder appears beside the sources. This file is loaded before any test module or package module is imported.
"""

from __future__ import annotations

import sys
from pathlib import Path

PYCACHE = Path(__file__).resolve().parent / ".pytest_cache" / "pycache"
"""Where the test run's bytecode goes (``.pytest_cache`` is ignored by git)."""

if sys.pycache_prefix is None:
    sys.pycache_prefix = str(PYCACHE)
sys.dont_write_bytecode = False
