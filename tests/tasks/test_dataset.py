from __future__ import annotations

import json
from pathlib import Path

import pytest

from foldbench.tasks.dataset import DatasetError, read_items, read_manifest, write_dataset


def _tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.mark.parametrize(
    "task", ["mentalblackboard/prediction", "mentalblackboard/planning", "mentalblackboard/generalization"]
)
def test_same_seed_gives_the_same_bytes(tmp_path: Path, task: str) -> None:
    for name in ("a", "b"):
        write_dataset(task, tmp_path / name, n=4, seed=5, modalities=("text", "image"))
    assert _tree(tmp_path / "a") == _tree(tmp_path / "b")
    items = read_items(tmp_path / "a")
    assert len(items) == 4
    for item in items:
        for path in item.inputs["images"].values():
            for relative in path if isinstance(path, list) else [path]:
                if isinstance(relative, str):
                    assert (tmp_path / "a" / relative).is_file()


def test_manifest_records_seed_version_and_completion(tmp_path: Path) -> None:
    manifest = write_dataset(
        "mentalblackboard/prediction", tmp_path / "d", n=3, seed=9, modalities=("text",), knobs={"groups": [1, 2]}
    )
    on_disk = read_manifest(tmp_path / "d")
    assert on_disk == json.loads(json.dumps(manifest))
    assert on_disk["seed"] == 9 and on_disk["complete"] is True and on_disk["engine_version"] == "pft-1"
    assert on_disk["knobs"] == {"groups": [1, 2]}


def test_existing_data_is_never_overwritten_silently(tmp_path: Path) -> None:
    write_dataset("mentalblackboard/prediction", tmp_path / "d", n=1, seed=0, modalities=("text",))
    with pytest.raises(DatasetError, match="--overwrite"):
        write_dataset("mentalblackboard/prediction", tmp_path / "d", n=1, seed=0, modalities=("text",))
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("mine")
    with pytest.raises(DatasetError, match="not a foldbench dataset"):
        write_dataset("mentalblackboard/prediction", tmp_path / "other", n=1, seed=0, modalities=("text",))
    assert (tmp_path / "other" / "notes.txt").read_text() == "mine"


def test_an_interrupted_dataset_does_not_look_complete(tmp_path: Path) -> None:
    def stop(_item: object) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        write_dataset("mentalblackboard/prediction", tmp_path / "d", n=5, seed=0, modalities=("text",), on_item=stop)
    with pytest.raises(DatasetError, match="incomplete"):
        read_manifest(tmp_path / "d")
    with pytest.raises(DatasetError, match="not a foldbench dataset"):
        read_manifest(tmp_path / "missing")


def test_parallel_generation_writes_the_same_bytes(tmp_path: Path) -> None:
    write_dataset("mentalblackboard/generalization", tmp_path / "one", n=13, seed=2, modalities=("text", "image"))
    write_dataset(
        "mentalblackboard/generalization", tmp_path / "two", n=13, seed=2, modalities=("text", "image"), workers=2
    )
    assert _tree(tmp_path / "one") == _tree(tmp_path / "two")


def test_bad_knobs_fail_before_anything_is_written(tmp_path: Path) -> None:
    from foldbench.errors import FoldbenchError

    with pytest.raises(FoldbenchError, match="groups"):
        write_dataset(
            "mentalblackboard/prediction", tmp_path / "d", n=5, seed=0, modalities=("text",), knobs={"groups": [0]}
        )
    assert not (tmp_path / "d").exists()
