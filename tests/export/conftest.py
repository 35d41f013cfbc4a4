from __future__ import annotations

from pathlib import Path

import pytest

from foldbench.tasks import make, task_ids
from foldbench.tasks.dataset import write_dataset


def _modalities(task_id: str) -> tuple[str, ...]:
    """Every modality of the task but video (which needs ffmpeg and is covered by its own tests)."""
    return tuple(m for m in make(task_id).modalities if m != "video") or make(task_id).modalities[:1]


@pytest.fixture(scope="session")
def every_task_dataset(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A three-item dataset of every registered task (every modality but video)."""
    root = tmp_path_factory.mktemp("datasets")
    out = {}
    for task_id in task_ids():
        directory = root / task_id.replace("/", "_")
        write_dataset(task_id, directory, n=3, seed=5, modalities=_modalities(task_id))
        out[task_id] = directory
    return out


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
