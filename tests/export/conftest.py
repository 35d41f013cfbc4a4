from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Imports of exports go to a cache under the test's own directory."""
    monkeypatch.setenv("FOLDBENCH_CACHE_DIR", str(tmp_path / "cache"))


def run_cli(*args: str) -> int:
    """Run the ``foldbench`` CLI in this process; returns its exit code."""
    from foldbench.cli import main

    try:
        main(list(args))
    except SystemExit as stop:
        return int(stop.code or 0)
    return 0
