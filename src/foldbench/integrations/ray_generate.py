"""``generate --executor ray``: Ray tasks write their own shards; the driver only merges them in index order.

The item indexes are cut into ranges. Each range is a Ray task that generates its items and writes them itself
into a shard directory under a temporary folder inside the dataset directory: ``items.jsonl`` with one line per
item and every file the items refer to. The task returns only a short account (per item: engine version and
file names). The driver takes the shards in index order as they finish, appends their ``items.jsonl`` to the
dataset's and moves each file into place the first time its name appears, so the dataset is byte-identical to
one written by a single process. The temporary folder is removed at the end, whether the run succeeds or not.

The workers write to the dataset directory's path, so on a cluster of several machines it must be on a file
system every node sees at that path. :func:`sharded_items` is an item source of
:func:`foldbench.tasks.dataset.write_dataset`; :func:`ray_item_source` joins Ray for the time it is used:

    with ray_item_source(workers=8) as source:
        write_dataset("pfp/single-step", out, n=1000, seed=0, modalities=("image",), workers=8, source=source)
"""

from __future__ import annotations

import shutil
import uuid
from collections.abc import Generator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from foldbench.integrations.ray import connect, ray_map_ordered
from foldbench.tasks.dataset import GenerationJob, ItemSource, chunk_size

__all__ = ["ShardedItem", "ray_item_source", "sharded_items"]

_SHARD_ITEMS = "items.jsonl"
_SHARD_FILES = "files"


@dataclass(frozen=True, slots=True)
class _Range:
    """One Ray task's work: items ``start .. stop-1`` into ``directory``."""

    task_id: str
    seed: int
    start: int
    stop: int
    modalities: tuple[str, ...]
    knobs: dict[str, Any]
    directory: str


class ShardedItem(NamedTuple):
    """One item as its shard holds it: the JSON line, its engine version and its files on disk."""

    item_json: str
    engine_version: str
    files: tuple[tuple[str, Path], ...]
    """(relative path in the dataset, where the shard wrote it) per file."""


def _write_shard(work: _Range) -> list[tuple[str, list[str]]]:
    """Generate a range and write it as a shard (runs in a Ray worker); returns (engine version, file names)
    per item."""
    from foldbench.tasks.registry import make

    task = make(work.task_id)
    directory = Path(work.directory)
    files = directory / _SHARD_FILES
    written: set[str] = set()
    account: list[tuple[str, list[str]]] = []
    directory.mkdir()  # under the driver's folder: if that is gone, the run has ended and nothing is written
    with (directory / _SHARD_ITEMS).open("w", encoding="utf-8", newline="\n") as items:
        for item in task.generate(work.stop, work.seed, modalities=work.modalities, knobs=work.knobs,
                                  start=work.start):  # fmt: skip
            names = []
            for relative, data in task.assets(item):
                if relative not in written:
                    path = files / relative
                    path.parent.mkdir(parents=True, exist_ok=True)
                    path.write_bytes(data)
                    written.add(relative)
                names.append(relative)
            items.write(item.model_dump_json() + "\n")
            account.append((item.engine_version, names))
    return account


def sharded_items(job: GenerationJob) -> Generator[ShardedItem]:
    """Every item of the job in index order, generated and written by Ray tasks into shards under ``job.out``
    (Ray must be connected). A file yielded belongs to the caller until the next item is asked for; the shards are
    removed when the iteration ends or is closed."""
    task_id, out, n, seed, modalities, knobs = job.task_id, job.out, job.n, job.seed, job.modalities, job.knobs
    workers = job.workers
    root = out.absolute() / f".shards-{uuid.uuid4().hex[:12]}"  # the workers may run in another directory
    size = chunk_size(n, workers)
    ranges = [
        _Range(task_id, seed, start, min(n, start + size), modalities, knobs, str(root / f"{start:09d}"))
        for start in range(0, n, size)
    ]
    root.mkdir()
    try:
        for work, account in zip(ranges, ray_map_ordered(_write_shard, ranges, workers=workers), strict=True):
            directory = Path(work.directory)
            with (directory / _SHARD_ITEMS).open(encoding="utf-8", newline="\n") as items:
                for line, (engine_version, names) in zip(items, account, strict=True):
                    files = tuple((name, directory / _SHARD_FILES / name) for name in names)
                    yield ShardedItem(line.removesuffix("\n"), engine_version, files)
            shutil.rmtree(directory)
    finally:
        shutil.rmtree(root, ignore_errors=True)


@contextmanager
def ray_item_source(*, workers: int, address: str | None = None) -> Iterator[ItemSource]:
    """Join (or start, with ``workers`` CPUs) Ray, give :func:`sharded_items` as the item source, and leave Ray
    again at the end. A missing extra or an unreachable address fails on entry, before anything is written."""
    leave = connect(workers, address)
    try:
        yield sharded_items
    finally:
        leave()
