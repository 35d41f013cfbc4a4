"""``foldbench export --format hf``: dataset directories as Parquet shards a ``datasets`` user loads directly.

Layout of the output directory (one *config* per dataset, named after its task)::

    README.md                                 dataset card (the Hub's YAML header: configs, license, categories)
    <config>/<split>-00000-of-00002.parquet   one row per item
    <config>/foldbench.json                   the source manifest (so ``foldbench eval --data`` can read it back)
    <config>/<video files>                    videos (and other non-image files) beside the shards

Each row holds the item's id, task, split, seed and engine version; its inputs, target and metadata as JSON text
and, where a value is a flat scalar, as typed columns (``input_*``, ``target_*``, ``meta_*``); the prompt text per
modality (``prompt_<modality>``, pictures shown as ``<image path>``, and ``prompt_<modality>_images``, the indexes in
``images`` of the pictures that prompt shows, in order); the images the inputs show (``images``) and
those the ground truth refers to (``target_images``) as the ``datasets`` Image feature (a struct of bytes and path,
in order of mention); and the paths of videos and other files (``videos``). Rows are written in
small batches and shards are closed at a size limit, so memory stays constant however large the dataset.
"""

from __future__ import annotations

import json
import posixpath
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from foldbench import __version__
from foldbench.export._columns import scalar_kind
from foldbench.export._output import Destination, ExportError, destination, staged
from foldbench.export._source import IMAGE_SUFFIXES, Source, json_text, open_source
from foldbench.export.hf_read import EXPORT_FILE, EXPORT_FORMAT
from foldbench.messages import ImagePart
from foldbench.tasks.base import Item

__all__ = ["EXPORT_FORMAT", "EXPORT_FILE", "config_name", "export_hf", "write_shards"]

BATCH_ROWS = 64
SHARD_BYTES = 256 * 1024 * 1024
_SECTIONS = (("inputs", "input_"), ("target", "target_"), ("metadata", "meta_"))


def config_name(task_id: str) -> str:
    """The config (and folder) name of a task's data: the task id with ``/`` as ``_``.

    >>> config_name("mentalblackboard/prediction-v1")
    'mentalblackboard_prediction-v1'
    """
    return task_id.replace("/", "_")


def _flat_columns(source: Source) -> dict[str, tuple[str, str, str]]:
    """Typed columns for the flat scalar fields: column -> (section, key, arrow type). A key whose values are
    not all scalars of one type (ints widen to floats; None is allowed) gets no column."""
    kinds: dict[tuple[str, str], set[str]] = {}
    for item in source.items():
        for section, _prefix in _SECTIONS:
            for key, value in getattr(item, section).items():
                if value is None:
                    kinds.setdefault((section, key), set())
                    continue
                kind = scalar_kind(value)
                kinds.setdefault((section, key), set()).add(kind if kind else "unsupported")
    columns: dict[str, tuple[str, str, str]] = {}
    for (section, key), found in kinds.items():
        if found == {"int64", "float64"}:
            found = {"float64"}
        if len(found) != 1 or "unsupported" in found:
            continue
        prefix = dict(_SECTIONS)[section]
        columns[f"{prefix}{key}"] = (section, key, found.pop())
    return columns


_ARROW = {"string": pa.string(), "int64": pa.int64(), "float64": pa.float64(), "bool": pa.bool_()}
_DTYPES = {pa.string(): "string", pa.int64(): "int64", pa.float64(): "float64", pa.bool_(): "bool"}
_IMAGE = pa.struct([("bytes", pa.binary()), ("path", pa.string())])


@dataclass(frozen=True, slots=True)
class _Layout:
    """The columns of one config's shards."""

    modalities: tuple[str, ...]
    flat: dict[str, tuple[str, str, str]]

    def schema(self) -> pa.Schema:
        fields = [
            ("id", pa.string()),
            ("task", pa.string()),
            ("split", pa.string()),
            ("seed", pa.int64()),
            ("engine_version", pa.string()),
            *[(f"prompt_{m}", pa.string()) for m in self.modalities],
            *[(f"prompt_{m}_images", pa.list_(pa.int32())) for m in self.modalities],
            ("images", pa.list_(_IMAGE)),
            ("target_images", pa.list_(_IMAGE)),
            ("videos", pa.list_(pa.string())),
            ("inputs", pa.string()),
            ("target", pa.string()),
            ("metadata", pa.string()),
            *[(name, _ARROW[kind]) for name, (_s, _k, kind) in self.flat.items()],
        ]
        features: dict[str, Any] = {}
        for name, kind in fields:
            if name in ("images", "target_images"):
                features[name] = [{"_type": "Image"}]
            elif name == "videos":
                features[name] = [{"dtype": "string", "_type": "Value"}]
            elif name.endswith("_images"):
                features[name] = [{"dtype": "int32", "_type": "Value"}]
            else:
                features[name] = {"dtype": _DTYPES[kind], "_type": "Value"}
        metadata = {"huggingface": json.dumps({"info": {"features": features}})}
        return pa.schema(fields, metadata=metadata)


def card_features(source: Source) -> list[dict[str, str]]:
    """The columns of a dataset's export in the form of a dataset card's ``dataset_info.features``."""
    layout = _Layout(tuple(source.manifest["modalities"]), _flat_columns(source))
    features = []
    for field in layout.schema():
        if pa.types.is_list(field.type):
            item = field.type.value_type
            element = "image" if field.name in ("images", "target_images") else str(item)
            features.append({"name": field.name, "sequence": element})
        else:
            features.append({"name": field.name, "dtype": str(field.type).replace("double", "float64")})
    return features


def _row(source: Source, item: Item, layout: _Layout, split: str, media: Callable[[str], None]) -> dict[str, Any]:
    prompts = {m: source.task.render(item, m) for m in layout.modalities}
    pictures = {m: [p.path for p in prompts[m].parts if isinstance(p, ImagePart) and p.path] for m in prompts}
    shown = source.files(item, "inputs")
    shown += [path for paths in pictures.values() for path in paths if path not in shown]
    images: list[dict[str, Any]] = []
    target_images: list[dict[str, Any]] = []
    videos: list[str] = []
    for relative in dict.fromkeys(shown + source.files(item, "inputs", "target", "metadata")):
        if posixpath.splitext(relative)[1].lower() in IMAGE_SUFFIXES:
            image = {"bytes": (source.directory / relative).read_bytes(), "path": relative}
            (images if relative in shown else target_images).append(image)
        else:
            media(relative)
            videos.append(relative)
    row: dict[str, Any] = {
        "id": item.id,
        "task": item.task,
        "split": split,
        "seed": item.seed,
        "engine_version": item.engine_version,
        "images": images,
        "target_images": target_images,
        "videos": videos,
        "inputs": json_text(item.inputs),
        "target": json_text(item.target),
        "metadata": json_text(item.metadata),
    }
    order = [image["path"] for image in images]
    for modality, prompt in prompts.items():
        row[f"prompt_{modality}"] = prompt.text
        row[f"prompt_{modality}_images"] = [order.index(path) for path in pictures[modality]]
    for name, (section, key, _kind_name) in layout.flat.items():
        value = getattr(item, section).get(key)
        row[name] = float(value) if _kind_name == "float64" and value is not None else value
    return row


def write_shards(
    source: Source,
    out: Destination,
    folder: str,
    *,
    split: str,
    on_item: Callable[[], None] | None = None,
    shard_bytes: int = SHARD_BYTES,
) -> dict[str, Any]:
    """Write one dataset's rows into ``folder`` of ``out`` as ``<split>-NNNNN-of-MMMMM.parquet`` shards, copy its
    videos beside them, and write ``foldbench.json``; returns what that file records."""
    layout = _Layout(tuple(source.manifest["modalities"]), _flat_columns(source))
    schema = layout.schema()
    filesystem = out.filesystem
    filesystem.create_dir(out.join(folder), recursive=True)
    copied: set[str] = set()

    def copy_media(relative: str) -> None:
        if relative not in copied:
            out.write_bytes(posixpath.join(folder, relative), (source.directory / relative).read_bytes())
            copied.add(relative)

    shards: list[str] = []
    writer: pq.ParquetWriter | None = None
    shard_size = 0
    batch: list[dict[str, Any]] = []
    rows = 0

    def flush() -> None:
        nonlocal writer, shard_size
        if not batch:
            return
        if writer is None:
            name = posixpath.join(folder, f".{split}-{len(shards):05d}.parquet")
            shards.append(name)
            writer = pq.ParquetWriter(out.join(name), schema, filesystem=filesystem, compression="zstd")
        table = pa.Table.from_pylist(batch, schema=schema)
        writer.write_table(table)
        shard_size += table.nbytes
        batch.clear()
        if shard_size >= shard_bytes:
            writer.close()
            writer, shard_size = None, 0

    for item in source.items():
        batch.append(_row(source, item, layout, split, copy_media))
        rows += 1
        if len(batch) >= BATCH_ROWS:
            flush()
        if on_item is not None:
            on_item()
    flush()
    if writer is not None:
        writer.close()
    if not shards:  # an empty dataset still gets one (empty) shard, so every split loads
        name = posixpath.join(folder, f".{split}-00000.parquet")
        pq.write_table(schema.empty_table(), out.join(name), filesystem=filesystem)
        shards.append(name)
    final = []
    shard_total = 0
    for index, name in enumerate(shards):
        target = posixpath.join(folder, f"{split}-{index:05d}-of-{len(shards):05d}.parquet")
        filesystem.move(out.join(name), out.join(target))
        final.append(posixpath.basename(target))
        shard_total += int(filesystem.get_file_info(out.join(target)).size or 0)
    record = {
        "format": EXPORT_FORMAT,
        "config": folder,
        "split": split,
        "rows": rows,
        "shards": final,
        "bytes": shard_total,
        "files": sorted(copied),
        "typed_columns": {name: f"{section}.{key}" for name, (section, key, _k) in layout.flat.items()},
        "foldbench_version": __version__,
        "manifest": source.manifest,
    }
    out.write_bytes(posixpath.join(folder, EXPORT_FILE), (json.dumps(record, indent=2) + "\n").encode())
    return record


def check_split(split: str) -> None:
    """Raise :class:`ExportError` unless ``split`` is a word (it names files and configs)."""
    if not split or not split.replace("_", "").isalnum():
        raise ExportError(f"--split must be a word of letters, digits and '_', got {split!r}")


def export_hf(
    datasets: Sequence[Path],
    out: str | Path,
    *,
    split: str = "test",
    license: str = "mit",
    on_start: Callable[[str, int], Callable[[], None] | None] | None = None,
) -> list[dict[str, Any]]:
    """Export dataset directories to ``out`` (a path or a filesystem URI): Parquet shards per config and a dataset
    card; returns each config's record. Nothing is left at ``out`` unless every dataset was written.

    ``on_start(description, item count)`` may return a function called after each item (a progress bar).
    """
    from foldbench.export.card import dataset_card

    check_split(split)
    sources = [open_source(Path(d)) for d in datasets]
    names = [config_name(s.manifest["task"]) for s in sources]
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise ExportError(f"two datasets of the same task ({repeated[0]}); export them into separate directories")
    target = destination(out)
    records = []
    with staged(target) as stage:
        for source, name in zip(sources, names, strict=True):
            advance = on_start(f"exporting {source.manifest['task']}", source.count) if on_start else None
            records.append(write_shards(source, stage, name, split=split, on_item=advance))
        card = dataset_card([(s, r) for s, r in zip(sources, records, strict=True)], license=license)
        stage.write_bytes("README.md", card.encode())
    return records
