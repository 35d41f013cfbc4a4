"""``write_dataset`` takes the source of its items as an argument: any source that yields the job's items in order
(their files as bytes or as paths a worker wrote) gives the dataset's bytes, and is closed when the writer stops."""

from __future__ import annotations

from collections.abc import Generator
from pathlib import Path

import pytest

from foldbench.tasks.dataset import GeneratedItem, GenerationJob, local_items, write_dataset


def _tree(directory: Path) -> dict[str, bytes]:
    return {str(p.relative_to(directory)): p.read_bytes() for p in sorted(directory.rglob("*")) if p.is_file()}


def test_a_source_writing_its_own_files_gives_the_same_bytes(tmp_path: Path) -> None:
    jobs: list[GenerationJob] = []

    def files_on_disk(job: GenerationJob) -> Generator[GeneratedItem]:
        """The items of ``local_items``, each file first written by 'a worker' under the dataset directory."""
        jobs.append(job)
        scratch = job.out / ".worker"
        for index, (line, version, assets) in enumerate(local_items(job)):
            written = []
            for relative, data in assets:
                path = scratch / str(index) / relative
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(data if isinstance(data, bytes) else data.read_bytes())
                written.append((relative, path))
            yield line, version, written
        for leftover in sorted(scratch.rglob("*"), reverse=True):
            leftover.rmdir() if leftover.is_dir() else leftover.unlink()
        scratch.rmdir()

    task, modalities = "mentalblackboard/prediction", ("text", "image")
    write_dataset(task, tmp_path / "local", n=5, seed=4, modalities=modalities)
    write_dataset(task, tmp_path / "moved", n=5, seed=4, modalities=modalities, workers=3, source=files_on_disk)
    assert _tree(tmp_path / "moved") == _tree(tmp_path / "local")
    assert [(j.task_id, j.n, j.seed, j.modalities, j.workers) for j in jobs] == [
        ("mentalblackboard/prediction-v1", 5, 4, modalities, 3)
    ]
    assert jobs[0].out == tmp_path / "moved"


def test_the_source_is_closed_when_the_writer_stops(tmp_path: Path) -> None:
    closed: list[bool] = []

    def watched(job: GenerationJob) -> Generator[GeneratedItem]:
        try:
            yield from local_items(job)
        finally:
            closed.append(True)

    def stop(_line: str) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        write_dataset("mentalblackboard/prediction", tmp_path / "d", n=4, seed=0, modalities=("text",),
                      source=watched, on_item=stop)  # fmt: skip
    assert closed == [True]
