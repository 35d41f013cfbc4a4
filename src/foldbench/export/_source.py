"""Reading a dataset directory for export: its manifest, its task, and its items one at a time, with the files
each item refers to."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from foldbench.export._output import ExportError
from foldbench.tasks.base import Item, Task

__all__ = ["Source", "open_source", "IMAGE_SUFFIXES", "VIDEO_SUFFIXES"]

IMAGE_SUFFIXES = frozenset({".png", ".jpg", ".jpeg", ".webp", ".gif", ".bmp"})
VIDEO_SUFFIXES = frozenset({".mp4", ".webm", ".mov", ".avi", ".mkv"})
_MAX_PATH = 400


@dataclass(slots=True)
class Source:
    """A complete dataset directory opened for export."""

    directory: Path
    manifest: dict[str, Any]
    task: Task
    _exists: dict[str, bool] = field(default_factory=dict, repr=False)

    @property
    def count(self) -> int:
        """How many items the manifest says the dataset holds."""
        return int(self.manifest["items_written"])

    def items(self) -> Iterator[Item]:
        """The items in order, read one line at a time (constant memory)."""
        from foldbench.tasks.dataset import ITEMS_FILE

        path = self.directory / ITEMS_FILE
        if not path.is_file():
            raise ExportError(f"{self.directory} has no {ITEMS_FILE}; it is not a complete dataset")
        seen = 0
        with path.open(encoding="utf-8") as handle:
            for number, line in enumerate(handle, start=1):
                try:
                    item = Item.model_validate_json(line)
                except ValueError as error:
                    raise ExportError(f"{path} line {number}: not a valid item: {error}") from None
                seen += 1
                yield item
        if seen != self.count:
            raise ExportError(f"{path} holds {seen} items but the manifest says {self.count}; generate it again")

    def files(self, item: Item, *sections: str) -> list[str]:
        """The dataset files the given sections of an item (``"inputs"``, ``"target"``, ``"metadata"``) refer to,
        as relative paths in order of first mention."""
        found: list[str] = []
        for section in sections or ("inputs",):
            self._collect(getattr(item, section), found)
        return list(dict.fromkeys(found))

    def _collect(self, value: Any, found: list[str]) -> None:
        if isinstance(value, str):
            if self._is_file(value):
                found.append(value)
        elif isinstance(value, dict):
            for inner in value.values():
                self._collect(inner, found)
        elif isinstance(value, list):
            for inner in value:
                self._collect(inner, found)

    def _is_file(self, text: str) -> bool:
        if len(text) > _MAX_PATH or "\n" in text or "." not in text or text.startswith(("/", "..")):
            return False
        known = self._exists.get(text)
        if known is None:
            known = (self.directory / text).is_file()
            self._exists[text] = known
        return known


def open_source(directory: Path) -> Source:
    """Open a complete dataset directory; raises :class:`ExportError` (one line) when it is not one."""
    from foldbench.tasks import make
    from foldbench.tasks.dataset import DatasetError, read_manifest

    directory = Path(directory)
    if not directory.is_dir():
        raise ExportError(f"{directory} is not a directory")
    try:
        manifest = read_manifest(directory)
        task = make(manifest["task"])
    except DatasetError as error:
        raise ExportError(str(error)) from None
    if "items_written" not in manifest:
        raise ExportError(f"{directory}: the manifest has no item count; generate the dataset again")
    return Source(directory, manifest, task)


def item_json(item: Item) -> str:
    """The item as the dataset's ``items.jsonl`` holds it."""
    return item.model_dump_json()


def json_text(value: Any) -> str:
    """Compact JSON with the key order kept (what ``items.jsonl`` holds)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
