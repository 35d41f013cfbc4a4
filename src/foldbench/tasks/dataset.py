"""Dataset directories: ``items.jsonl``, the files the items refer to, and ``manifest.json``.

A dataset is written in a fixed order with no timestamps, so the same task, seed, size, options and engine version
give the same bytes. The manifest is written first with ``"complete": false`` and rewritten with ``true`` only
after every item and file is on disk, so an interrupted run never looks finished. Nothing is written outside the
directory the user names.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Generator, Mapping, Sequence
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from foldbench import __version__, jsontext
from foldbench.errors import FoldbenchError
from foldbench.tasks.base import Item, ParseFailure, Prompt, Task
from foldbench.tasks.registry import make, resolve

__all__ = [
    "DATASET_FORMAT",
    "DatasetError",
    "GeneratedItem",
    "GenerationJob",
    "ItemSource",
    "check_items",
    "chunk_size",
    "local_items",
    "read_items",
    "read_manifest",
    "write_dataset",
]

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


def _place(path: Path, data: bytes | Path, folders: set[Path]) -> int:
    """Write ``data`` at ``path``, or move there the file a worker wrote at ``data``; returns the size.

    ``folders`` are the folders already made. A file is written in place, not beside and renamed: until the
    manifest says the dataset is complete, no reader takes any of its files (:func:`read_manifest`)."""
    if path.parent not in folders:
        path.parent.mkdir(parents=True, exist_ok=True)
        folders.add(path.parent)
    if isinstance(data, Path):
        size = data.stat().st_size
        os.replace(data, path)
        return size
    path.write_bytes(data)
    return len(data)


GeneratedItem = tuple[str, str, Sequence[tuple[str, bytes | Path]]]
"""One generated item as the writer takes it: its JSON line, its engine version and its files, each a relative path
with its bytes or with the path of a file a worker already wrote (moved into place)."""


@dataclass(frozen=True, slots=True)
class GenerationJob:
    """What an :data:`ItemSource` generates: items ``0 .. n-1`` of a task, for the dataset directory ``out``.

    Attributes:
        task_id: the registered task id.
        out: the dataset directory being written (a source may put files of its own under it, and must remove
            them when its iteration ends).
        n / seed / modalities / knobs: as :func:`write_dataset` takes them.
        workers: how many workers the source may use.
    """

    task_id: str
    out: Path
    n: int
    seed: int
    modalities: tuple[str, ...]
    knobs: dict[str, Any]
    workers: int


ItemSource = Callable[[GenerationJob], Generator[GeneratedItem]]
"""Generates a job's items in index order (a generator, closed when the writer stops early). The default,
:func:`local_items`, uses processes on this machine; ``generate --executor ray`` passes
:func:`foldbench.integrations.ray_generate.sharded_items`."""

_Chunk = tuple[str, int, int, int, tuple[str, ...], dict[str, Any]]
_Generated = list[tuple[str, str, list[tuple[str, bytes]]]]


def chunk_size(n: int, workers: int) -> int:
    """Items per chunk handed to a worker: about eight chunks per worker, between 1 and 64 items each.

    >>> chunk_size(300, 2), chunk_size(3, 8), chunk_size(100_000, 4)
    (18, 1, 64)
    """
    return max(1, min(64, n // (8 * workers) or 1))


def _generate_chunk(chunk: _Chunk) -> _Generated:
    """Items ``start .. stop-1`` with their files, as (item JSON, engine version, files); runs in a worker."""
    task_id, seed, start, stop, modalities, knobs = chunk
    task = make(task_id)
    return [
        (item.model_dump_json(), item.engine_version, list(task.assets(item)))
        for item in task.generate(stop, seed, modalities=modalities, knobs=knobs, start=start)
    ]


def local_items(job: GenerationJob) -> Generator[GeneratedItem]:
    """Every item of the job in order, generated here (``workers == 1``) or by a pool of processes in chunks."""
    if job.workers <= 1:
        task = make(job.task_id)
        for item in task.generate(job.n, job.seed, modalities=job.modalities, knobs=job.knobs):
            yield item.model_dump_json(), item.engine_version, list(task.assets(item))
        return
    size = chunk_size(job.n, job.workers)
    chunks = [
        (job.task_id, job.seed, start, min(job.n, start + size), job.modalities, job.knobs)
        for start in range(0, job.n, size)
    ]
    from concurrent.futures import ProcessPoolExecutor  # (multiprocessing is imported only to generate in parallel)

    with ProcessPoolExecutor(max_workers=job.workers) as pool:
        for generated in pool.map(_generate_chunk, chunks):
            yield from generated


def write_dataset(
    task_name: str,
    out: Path | str,
    *,
    n: int,
    seed: int,
    modalities: tuple[str, ...],
    knobs: Mapping[str, Any] | None = None,
    overwrite: bool = False,
    on_item: Callable[[str], None] | None = None,
    workers: int = 1,
    source: ItemSource = local_items,
) -> dict[str, Any]:
    """Generate ``n`` items of a task into the directory ``out`` and return the manifest.

    With ``workers > 1`` the items are generated by that many processes, in chunks, and written in order: the
    dataset is byte-identical to one generated by a single process. ``source`` generates the items (default:
    :func:`local_items`); another one, such as Ray's
    (:func:`foldbench.integrations.ray_generate.sharded_items`), must give the same items in the same order, so
    the bytes are the same. ``on_item`` is called with each item's JSON line as it is written.

    ``out`` may also be a pyarrow filesystem URI (``s3://bucket/data``, ``gs://...``): the dataset is then written
    into a local temporary directory and uploaded when complete, its manifest last (:mod:`foldbench.storage`).

    Raises :class:`DatasetError` when ``out`` already holds a dataset (unless ``overwrite``) or other files.
    """
    if isinstance(out, str) and "://" in out:  # a filesystem URI (foldbench.storage.is_uri)
        from foldbench.storage import destination, staged

        target = destination(out)
        if target.exists() and not target.exists(MANIFEST_FILE):
            raise DatasetError(f"{out} is not empty and is not a foldbench dataset; choose another --out")
        if target.exists() and not overwrite:
            raise DatasetError(f"{out} already holds a dataset; pass --overwrite to replace it")
        with staged(target, last=(MANIFEST_FILE,), replace=overwrite) as stage:
            return write_dataset(task_name, Path(stage.path), n=n, seed=seed, modalities=modalities, knobs=knobs,
                                 on_item=on_item, workers=workers, source=source)  # fmt: skip
    task_id = resolve(task_name)
    task = make(task_id)
    if n < 0:
        raise DatasetError(f"-n must be at least 0, got {n}")
    if workers < 1:
        raise DatasetError(f"--workers must be at least 1, got {workers}")

    knobs = dict(knobs or {})
    # fail on bad knobs or modalities before touching the directory
    next(iter(task.generate(min(n, 1), seed, modalities=modalities, knobs=knobs)), None)
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise DatasetError(f"{out} exists and is not a directory")
    if out.exists() and any(out.iterdir()):
        if not (out / MANIFEST_FILE).exists():
            raise DatasetError(f"{out} is not empty and is not a foldbench dataset; choose another --out")
        if not overwrite:
            raise DatasetError(f"{out} already holds a dataset; pass --overwrite to replace it")
    return _write(task, out, n, seed, modalities, knobs, on_item, workers, source)


def _write(
    task: Task,
    out: Path,
    n: int,
    seed: int,
    modalities: tuple[str, ...],
    knobs: dict[str, Any],
    on_item: Callable[[str], None] | None,
    workers: int,
    source: ItemSource,
) -> dict[str, Any]:
    out.mkdir(parents=True, exist_ok=True)
    task_id = task.id
    manifest: dict[str, Any] = {
        "format": DATASET_FORMAT,
        "task": task_id,
        "foldbench_version": __version__,
        "seed": seed,
        "n": n,
        "modalities": list(modalities),
        "knobs": knobs,
        "complete": False,
        "items_written": 0,
        "files": {},
    }
    _write_bytes(out / MANIFEST_FILE, _dump(manifest).encode())
    files: dict[str, int] = {}
    folders = {out}
    engine_versions: set[str] = set()
    written = 0
    items_path = out / ITEMS_FILE
    generated = source(GenerationJob(task_id, out, n, seed, modalities, knobs, workers))
    with items_path.open("w", encoding="utf-8", newline="\n") as items_file, closing(generated):
        for item_json, engine_version, assets in generated:
            for relative, data in assets:
                if relative not in files:
                    files[relative] = _place(out / relative, data, folders)
            items_file.write(item_json + "\n")
            engine_versions.add(engine_version)
            written += 1
            if on_item is not None:
                on_item(item_json)
    notes = task.spec.manifest_notes  # facts a task states about its whole dataset
    if notes is not None:
        manifest.update(notes(knobs))
    manifest.update(
        complete=True,
        items_written=written,
        engine_version=min(engine_versions) if engine_versions else None,
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
        manifest = jsontext.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as error:
        raise DatasetError(f"{path}: cannot read the manifest: {error}") from None
    if not isinstance(manifest, dict) or manifest.get("format") != DATASET_FORMAT:
        raise DatasetError(f"{path}: not a {DATASET_FORMAT} manifest")
    if not manifest.get("complete"):
        raise DatasetError(
            f"{directory}: the dataset is incomplete (its generation was interrupted); generate it again"
        )
    return manifest


def _validation_summary(error: ValidationError) -> str:
    """The first problem pydantic found, on one line: ``field 'target': Field required``."""
    first = error.errors()[0]
    where = ".".join(str(part) for part in first.get("loc", ())) or "<record>"
    more = f" (and {error.error_count() - 1} more)" if error.error_count() > 1 else ""
    return f"field '{where}': {first.get('msg', 'invalid')}{more}"


def read_items(directory: Path) -> list[Item]:
    """Every item of a complete dataset directory; a line that is not UTF-8, not JSON or not an item is a
    :class:`DatasetError` naming its line number."""
    read_manifest(directory)
    items = []
    path = Path(directory) / ITEMS_FILE
    try:
        handle = path.open("rb")
    except OSError as error:
        raise DatasetError(f"{path}: cannot read: {error.strerror or error}") from None
    with handle:
        for number, raw in enumerate(handle, start=1):
            where = f"{directory}/{ITEMS_FILE} line {number}"
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise DatasetError(f"{where}: not UTF-8 text (changed after generation)") from None
            try:
                items.append(Item.model_validate_json(line))
            except ValidationError as error:
                raise DatasetError(f"{where}: not a valid item: {_validation_summary(error)}") from None
            except ValueError as error:
                raise DatasetError(f"{where}: not a valid item: {' '.join(str(error).split())[:200]}") from None
    return items


ITEM_DATA_ERRORS = (KeyError, IndexError, TypeError, ValueError, AttributeError, AssertionError, ValidationError)
"""What a task raises on an item whose fields were changed by hand (a field missing, an index out of range, an
engine invariant the changed data breaks)."""


def check_items(task: Task, items: Sequence[Item], directory: Path, modality: str) -> list[Prompt]:
    """Refuse, in one line naming the first bad line, a dataset whose items cannot be asked and scored: each item is
    rendered in ``modality``, every file it shows must exist in ``directory``, and a reply with no answer in it
    must score against the item's target (which reads the target as any reply's score does, without the cost or
    the state of running the task's engine answer). A field that neither the prompt nor the score reads cannot
    change a run, and is not checked.

    Returns the items' prompts in ``modality``, in order (a run asks them without rendering them again).

    Raises:
        DatasetError: the first item that fails, with its line number in ``items.jsonl``.
    """
    root = Path(directory)
    prompts: list[Prompt] = []
    for number, item in enumerate(items, start=1):
        where = f"{root}/{ITEMS_FILE} line {number} (item {item.id})"
        try:
            prompt = task.render(item, modality)
            for part in prompt.parts:
                relative = getattr(part, "path", None)
                if relative is not None and not (root / relative).is_file():
                    raise DatasetError(f"{where}: the file {relative} it shows is missing")
            task.score(item, ParseFailure("empty", "the dataset check scores an empty reply"))
            prompts.append(prompt)
        except DatasetError:
            raise
        except ITEM_DATA_ERRORS as error:
            detail = f"{type(error).__name__}: {' '.join(str(error).split())[:160]}"
            raise DatasetError(
                f"{where}: cannot be asked or scored ({detail}); the file was changed after 'foldbench generate'"
            ) from None
    return prompts
