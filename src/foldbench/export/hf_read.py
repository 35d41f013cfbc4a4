"""Reading an ``--format hf`` export back as a dataset directory, so ``foldbench eval --data`` takes either.

The export's rows are written out once into a cache directory (``$FOLDBENCH_CACHE_DIR``, default
``~/.cache/foldbench``) as the dataset directory they came from: the same ``items.jsonl`` bytes, the same image
files, the same manifest. Item files are placed only under that directory (a path that would leave it is refused,
since an export downloaded from the Hub is untrusted input).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from pathlib import Path, PurePosixPath
from typing import Any

from foldbench import jsontext
from foldbench.cache import CACHE_ENV, cache_root
from foldbench.export._output import ExportError
from foldbench.tasks.base import Item

EXPORT_FORMAT = "foldbench-hf-export/1"
"""The ``format`` an export's ``foldbench.json`` names (written by :mod:`foldbench.export.hf`)."""
EXPORT_FILE = "foldbench.json"
"""The file in each exported config that records its manifest and shards."""

__all__ = ["CACHE_ENV", "dataset_directory", "materialize", "export_configs"]

_COLUMNS = ["id", "task", "seed", "engine_version", "inputs", "target", "metadata", "images", "target_images", "videos"]


def _cache_root() -> Path:
    return cache_root()


def _record(config_dir: Path) -> dict[str, Any]:
    try:
        record = jsontext.loads((config_dir / EXPORT_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise ExportError(f"{config_dir / EXPORT_FILE}: cannot read it: {error}") from None
    if not isinstance(record, dict) or record.get("format") != EXPORT_FORMAT or "manifest" not in record:
        raise ExportError(f"{config_dir / EXPORT_FILE}: not a {EXPORT_FORMAT} file")
    return record


def export_configs(directory: Path) -> dict[str, Path]:
    """The configs of an export directory (or of one config folder): task id -> config folder."""
    directory = Path(directory)
    folders = (
        [directory]
        if (directory / EXPORT_FILE).is_file()
        else sorted(p for p in directory.iterdir() if (p / EXPORT_FILE).is_file())
        if directory.is_dir()
        else []
    )
    return {_record(folder)["manifest"]["task"]: folder for folder in folders}


def _safe(relative: str) -> PurePosixPath:
    path = PurePosixPath(relative)
    if path.is_absolute() or ".." in path.parts or not path.parts or "\\" in relative:
        raise ExportError(f"the export names a file outside its directory: {relative!r}")
    return path


def materialize(config_dir: Path, out: Path) -> Path:
    """Write the dataset directory an export config holds into ``out`` (which must not exist); returns ``out``."""
    import pyarrow.parquet as pq  # only an export needs it: a dataset directory is read without pyarrow

    from foldbench.tasks.dataset import ITEMS_FILE, MANIFEST_FILE

    record = _record(config_dir)
    manifest = record["manifest"]
    written: set[str] = set()
    rows = 0
    stage = Path(tempfile.mkdtemp(prefix=".import-", dir=out.parent))
    try:
        with (stage / ITEMS_FILE).open("w", encoding="utf-8", newline="\n") as items:
            for shard in record["shards"]:
                reader = pq.ParquetFile(config_dir / _safe(shard))
                for batch in reader.iter_batches(batch_size=64, columns=_COLUMNS):
                    for row in batch.to_pylist():
                        item = Item(
                            id=row["id"],
                            task=row["task"],
                            seed=row["seed"],
                            engine_version=row["engine_version"],
                            inputs=json.loads(row["inputs"]),
                            target=json.loads(row["target"]),
                            metadata=json.loads(row["metadata"]),
                        )
                        items.write(item.model_dump_json() + "\n")
                        rows += 1
                        for image in row["images"] + row["target_images"]:
                            if image["path"] not in written:
                                target = stage / _safe(image["path"])
                                target.parent.mkdir(parents=True, exist_ok=True)
                                target.write_bytes(image["bytes"])
                                written.add(image["path"])
                        for video in row["videos"]:
                            if video not in written:
                                target = stage / _safe(video)
                                target.parent.mkdir(parents=True, exist_ok=True)
                                shutil.copyfile(config_dir / _safe(video), target)
                                written.add(video)
        if rows != manifest.get("items_written"):
            raise ExportError(f"{config_dir} holds {rows} rows but its manifest says {manifest.get('items_written')}")
        (stage / MANIFEST_FILE).write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n", encoding="utf-8")
        os.replace(stage, out)
    except (OSError, ValueError) as error:
        shutil.rmtree(stage, ignore_errors=True)
        if isinstance(error, ExportError):
            raise
        raise ExportError(f"{config_dir}: cannot read the export: {error}") from None
    except BaseException:
        shutil.rmtree(stage, ignore_errors=True)
        raise
    return out


def dataset_directory(data: Path, task_id: str) -> Path:
    """The dataset directory for ``--data``: ``data`` itself when it is one, else the directory materialized
    (once, in the cache) from the config of ``task_id`` in the export ``data``."""
    from foldbench.tasks.dataset import MANIFEST_FILE

    data = Path(data)
    if (data / MANIFEST_FILE).exists() or not data.is_dir():
        return data
    configs = export_configs(data)
    if not configs:
        return data
    if task_id not in configs:
        known = ", ".join(sorted(configs))
        raise ExportError(f"{data} is an export of {known}, not {task_id}; pass the matching --task")
    config_dir = configs[task_id]
    digest = hashlib.sha256((config_dir / EXPORT_FILE).read_bytes())
    for shard in _record(config_dir)["shards"]:
        digest.update(f"{shard}:{(config_dir / _safe(shard)).stat().st_size}".encode())
    out = _cache_root() / "datasets" / f"{config_dir.name}-{digest.hexdigest()[:16]}"
    if (out / MANIFEST_FILE).exists():
        return out
    out.parent.mkdir(parents=True, exist_ok=True)
    return materialize(config_dir, out)
