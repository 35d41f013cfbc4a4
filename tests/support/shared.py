"""The project's reference material, found beside the repository (``../shared`` from its root), never by an
absolute path. Tests that read it skip only when ``../shared`` itself is absent; with it present, a file missing
from it fails the test that reads it instead of skipping it."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared"
FLAT_FOLDER = SHARED / "corpus" / "flat-folder"

needs_shared = pytest.mark.skipif(not SHARED.is_dir(), reason=f"no ../shared beside the repository ({SHARED})")
