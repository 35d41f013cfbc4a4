"""Dataset directories: ``items.jsonl``, the files the items refer to, and ``manifest.json``.

A dataset is written in a fixed order with no timestamps, so the same task, seed, size, options and engine version
give the same bytes. The manifest is written first with ``"complete": false`` and rewritten with ``true`` only
after every item and file is on disk, so an interrupted run never looks finished. Nothing is written outside the
directory the user names.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from foldbench import __version__
from foldbench.errors import FoldbenchError
from foldbench.tasks.base import Item
from foldbench.tasks.registry import make, resolve

__all__ = ["DATASET_FORMAT", "DatasetError", "write_dataset", "read_manifest", "read_items"]

DATASET_FORMAT = "foldbench-dataset/1"
ITEMS_FILE = "items.jsonl"
MANIFEST_FILE = "manifest.json"


class DatasetError(FoldbenchError, OSError):
    """A dataset directory that cannot be written or read."""


def _dump(data: Any) -> str:
    return json.dumps(data, indent=2, sort_keys=True) + "\n"


def _write_bytes(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + ".part")
    temporary.write_bytes(data)
    os.replace(temporary, path)


def write_dataset(
    task_name: str,
    out: Path,
    *,
    n: int,
    seed: int,
    modalities: tuple[str, ...],
    knobs: Mapping[str, Any] | None = None,
    overwrite: bool = False,
    on_item: Callable[[Item], None] | None = None,
) -> dict[str, Any]:
    """Generate ``n`` items of a task into the directory ``out`` and return the manifest.

    Raises :class:`DatasetError` when ``out`` already holds a dataset (unless ``overwrite``) or other files.
    """
    task_id = resolve(task_name)
    task = make(task_id)
    if n < 0:
        raise DatasetError(f"-n must be at least 0, got {n}")
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise DatasetError(f"{out} exists and is not a directory")
    if out.exists() and any(out.iterdir()):
        if not (out / MANIFEST_FILE).exists():
            raise DatasetError(f"{out} is not empty and is not a foldbench dataset; choose another --out")
        if not overwrite:
            raise DatasetError(f"{out} already holds a dataset; pass --overwrite to replace it")
    out.mkdir(parents=True, exist_ok=True)
    manifest: dict[str, Any] = {
        "format": DATASET_FORMAT,
        "task": task_id,
        "foldbench_version": __version__,
        "seed": seed,
        "n": n,
        "modalities": list(modalities),
        "knobs": dict(knobs or {}),
        "complete": False,
        "items_written": 0,
        "files": {},
    }
    _write_bytes(out / MANIFEST_FILE, _dump(manifest).encode())
    files: dict[str, int] = {}
    engine_versions: set[str] = set()
    written = 0
    items_path = out / ITEMS_FILE
    with items_path.open("w", encoding="utf-8", newline="\n") as items_file:
        for item in task.generate(n, seed, modalities=modalities, knobs=dict(knobs or {})):
            for relative, data in task.assets(item):
                if relative not in files:
                    _write_bytes(out / relative, data)
                    files[relative] = len(data)
            items_file.write(item.model_dump_json() + "\n")
            engine_versions.add(item.engine_version)
            written += 1
            if on_item is not None:
                on_item(item)
    manifest.update(
        complete=True,
        items_written=written,
        engine_version=sorted(engine_versions)[0] if engine_versions else None,
        files={"items": ITEMS_FILE, "assets": len(files)},
    )
    _write_bytes(out / MANIFEST_FILE, _dump(manifest).encode())
    return manifest


def read_manifest(directory: Path) -> dict[str, Any]:
    """The manifest of a dataset directory; raises :class:`DatasetError` if it is missing or incomplete."""
    path = Path(directory) / MANIFEST_FILE
    if not path.exists():
        raise DatasetError(f"{directory} is not a foldbench dataset (no {MANIFEST_FILE}); run 'foldbench generate'")
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as error:
        raise DatasetError(f"{path}: cannot read the manifest: {error}") from None
    if not isinstance(manifest, dict) or manifest.get("format") != DATASET_FORMAT:
        raise DatasetError(f"{path}: not a {DATASET_FORMAT} manifest")
    if not manifest.get("complete"):
        raise DatasetError(f"{directory}: the dataset is incomplete (its generation was interrupted); generate it again")
    return manifest


def read_items(directory: Path) -> list[Item]:
    """Every item of a complete dataset directory."""
    read_manifest(directory)
    items = []
    with (Path(directory) / ITEMS_FILE).open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            try:
                items.append(Item.model_validate_json(line))
            except ValueError as error:
                raise DatasetError(f"{directory}/{ITEMS_FILE} line {number}: not a valid item: {error}") from None
    return items
