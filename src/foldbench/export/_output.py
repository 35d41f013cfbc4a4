"""Where exports go: a local path or a pyarrow filesystem URI (``file://``, ``s3://``, ``gs://``), written into a
temporary directory beside the destination and moved into place only when complete.

An export that fails half-way leaves nothing at the destination: the temporary directory is removed, and an
existing destination is refused before anything is written.
"""

from __future__ import annotations

import posixpath
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pyarrow.fs as pafs

from foldbench.errors import FoldbenchError

__all__ = ["ExportError", "Destination", "destination", "staged"]


class ExportError(FoldbenchError):
    """An export that cannot be written: a bad source, an unknown format, an existing destination."""


@dataclass(frozen=True, slots=True)
class Destination:
    """A directory (or file) on a pyarrow filesystem."""

    filesystem: pafs.FileSystem
    path: str
    label: str
    """How the user named it (for messages)."""

    def join(self, *parts: str) -> str:
        """The path of ``parts`` under this destination."""
        return posixpath.join(self.path, *parts)

    def exists(self) -> bool:
        """Whether anything is at the destination."""
        return self.filesystem.get_file_info(self.path).type != pafs.FileType.NotFound

    def write_bytes(self, relative: str, data: bytes) -> None:
        """Write ``data`` to ``relative`` under the destination (parents created)."""
        path = self.join(relative)
        self.filesystem.create_dir(posixpath.dirname(path), recursive=True)
        with self.filesystem.open_output_stream(path) as stream:
            stream.write(data)


def destination(target: str | Path) -> Destination:
    """The destination named by a local path or a filesystem URI (``s3://bucket/x``, ``file:///tmp/x``).

    >>> destination("out/data").path.endswith("out/data")
    True
    """
    text = str(target)
    if "://" in text:
        try:
            filesystem, path = pafs.FileSystem.from_uri(text)
        except (OSError, ValueError) as error:  # pyarrow.ArrowInvalid is a ValueError
            raise ExportError(f"cannot open {text}: {error}") from None
        return Destination(filesystem, path.rstrip("/"), text)
    return Destination(pafs.LocalFileSystem(), str(Path(text).absolute()), text)


@contextmanager
def staged(target: Destination) -> Iterator[Destination]:
    """A temporary destination beside ``target``, moved onto it when the block ends without an error.

    Raises :class:`ExportError` if ``target`` already exists.
    """
    if target.exists():
        raise ExportError(f"{target.label} already exists; choose another --out or remove it first")
    parent = posixpath.dirname(target.path)
    temporary = posixpath.join(parent, f".{posixpath.basename(target.path)}.part-{uuid.uuid4().hex[:8]}")
    stage = Destination(target.filesystem, temporary, target.label)
    try:
        if parent:
            target.filesystem.create_dir(parent, recursive=True)
        yield stage
        if target.exists():
            raise ExportError(f"{target.label} appeared while the export was written; nothing was moved onto it")
        target.filesystem.move(temporary, target.path)
    finally:
        info = target.filesystem.get_file_info(temporary)
        if info.type == pafs.FileType.Directory:
            target.filesystem.delete_dir(temporary)
        elif info.type == pafs.FileType.File:
            target.filesystem.delete_file(temporary)
