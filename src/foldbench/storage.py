"""Where outputs go: a local path or a pyarrow filesystem URI (``s3://``, ``gs://``, ``file://``, ...).

An output appears at its destination only when it is complete. On a local disk it is written into a temporary
directory beside the destination and renamed onto it. On any other filesystem (an object store, where a directory
cannot be renamed) it is written into a local temporary directory and uploaded with :func:`pyarrow.fs.copy_files`
when done, the files named ``last`` after every other; if the upload fails, whatever reached the destination is
deleted again. Credentials and endpoints come from pyarrow's usual sources (for S3: ``AWS_ACCESS_KEY_ID``,
``AWS_SECRET_ACCESS_KEY``, ``AWS_ENDPOINT_URL``, ``AWS_DEFAULT_REGION``, or query parameters of the URI such as
``?endpoint_override=host:port&scheme=http``).
"""

from __future__ import annotations

import contextlib
import posixpath
import shutil
import tempfile
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

from foldbench.errors import FoldbenchError

if TYPE_CHECKING:
    import pyarrow.fs as pafs

__all__ = ["Destination", "OutputError", "destination", "is_uri", "local_copy", "staged"]


def _pafs() -> ModuleType:
    """pyarrow's filesystems, imported on first use (a local run store never needs them)."""
    import pyarrow.fs

    return pyarrow.fs


class OutputError(FoldbenchError):
    """An output that cannot be written: an unusable URI, an existing destination, a failed upload."""


@dataclass(frozen=True, slots=True)
class Destination:
    """A directory (or file) on a pyarrow filesystem."""

    filesystem: pafs.FileSystem
    path: str
    label: str
    """How the user named it (for messages)."""

    @property
    def is_local(self) -> bool:
        """Whether the destination is on this machine's disk (a directory there can be renamed into place)."""
        return isinstance(self.filesystem, _pafs().LocalFileSystem)

    def join(self, *parts: str) -> str:
        """The path of ``parts`` under this destination."""
        return posixpath.join(self.path, *parts)

    def location(self, *parts: str) -> str:
        """The path of ``parts`` under this destination as another tool opens it: a local path, or a URI such
        as ``s3://bucket/key`` (``gs://`` for Google Cloud Storage)."""
        path = self.join(*parts)
        if self.is_local:
            return path
        scheme = {"gcs": "gs"}.get(self.filesystem.type_name, self.filesystem.type_name)
        return f"{scheme}://{path}"

    def exists(self, *parts: str) -> bool:
        """Whether anything is at the destination (or at ``parts`` under it)."""
        try:
            return self.filesystem.get_file_info(self.join(*parts)).type != _pafs().FileType.NotFound
        except OSError as error:
            raise OutputError(f"cannot reach {self.label}: {error}") from None

    def write_bytes(self, relative: str, data: bytes) -> None:
        """Write ``data`` to ``relative`` under the destination (parents created)."""
        path = self.join(relative)
        self.filesystem.create_dir(posixpath.dirname(path), recursive=True)
        with self.filesystem.open_output_stream(path) as stream:
            stream.write(data)

    def delete(self) -> None:
        """Remove whatever is at the destination (nothing if there is nothing)."""
        info = self.filesystem.get_file_info(self.path)
        if info.type == _pafs().FileType.Directory:
            self.filesystem.delete_dir(self.path)
        elif info.type == _pafs().FileType.File:
            self.filesystem.delete_file(self.path)


def is_uri(target: str | Path) -> bool:
    """Whether ``target`` names a filesystem URI rather than a local path.

    >>> is_uri("s3://bucket/data"), is_uri("runs/data"), is_uri(Path("data"))
    (True, False, False)
    """
    return isinstance(target, str) and "://" in target


def destination(target: str | Path | Destination) -> Destination:
    """The destination named by a local path or a filesystem URI (``s3://bucket/x``, ``file:///tmp/x``).

    >>> destination("out/data").path.endswith("out/data")
    True
    """
    if isinstance(target, Destination):
        return target
    text = str(target)
    if is_uri(text):
        try:
            filesystem, path = _pafs().FileSystem.from_uri(text)
        except (OSError, ValueError) as error:  # pyarrow.ArrowInvalid is a ValueError
            raise OutputError(f"cannot open {text}: {error}") from None
        return Destination(filesystem, path.rstrip("/"), text)
    return Destination(_pafs().LocalFileSystem(), str(Path(text).absolute()), text)


@contextlib.contextmanager
def staged(target: Destination, *, last: tuple[str, ...] = (), replace: bool = False) -> Iterator[Destination]:
    """A temporary destination that becomes ``target`` when the block ends without an error (see the module
    docstring): beside it on a local disk, a local temporary directory uploaded onto it otherwise.

    Args:
        target: Where the output goes.
        last: Files (relative paths) uploaded after every other one, e.g. the manifest that marks a dataset
            complete.
        replace: Remove what is at ``target`` once the output is complete, just before moving or uploading it;
            otherwise an existing ``target`` is refused with :class:`OutputError` before anything is written.
    """
    if not replace and target.exists():
        raise OutputError(f"{target.label} already exists; choose another --out or remove it first")
    if target.is_local:
        with _staged_beside(target, replace=replace) as stage:
            yield stage
        return
    with tempfile.TemporaryDirectory(prefix="foldbench-out-") as scratch:
        yield Destination(_pafs().LocalFileSystem(), scratch, target.label)
        if replace:
            target.delete()
        elif target.exists():
            raise OutputError(f"{target.label} appeared while the output was written; nothing was uploaded onto it")
        _upload(Path(scratch), target, last)


@contextlib.contextmanager
def _staged_beside(target: Destination, *, replace: bool) -> Iterator[Destination]:
    parent = posixpath.dirname(target.path)
    temporary = posixpath.join(parent, f".{posixpath.basename(target.path)}.part-{uuid.uuid4().hex[:8]}")
    stage = Destination(target.filesystem, temporary, target.label)
    try:
        if parent:
            target.filesystem.create_dir(parent, recursive=True)
        yield stage
        if replace:
            target.delete()
        elif target.exists():
            raise OutputError(f"{target.label} appeared while the output was written; nothing was moved onto it")
        target.filesystem.move(temporary, target.path)
    finally:
        stage.delete()


def _upload(source: Path, target: Destination, last: tuple[str, ...]) -> None:
    """Copy the directory ``source`` onto ``target`` (``last`` files at the end); on failure delete what arrived."""
    held = source.with_name(source.name + "-last")
    try:
        for relative in last:  # kept aside so the bulk copy cannot send them early
            if (source / relative).is_file():
                (held / relative).parent.mkdir(parents=True, exist_ok=True)
                shutil.move(source / relative, held / relative)
        _pafs().copy_files(str(source), target.path, source_filesystem=_pafs().LocalFileSystem(),
                        destination_filesystem=target.filesystem)  # fmt: skip
        for relative in last:
            if (held / relative).is_file():
                _pafs().copy_files(str(held / relative), target.join(relative),
                                source_filesystem=_pafs().LocalFileSystem(),
                                destination_filesystem=target.filesystem)  # fmt: skip
    except BaseException as error:
        with contextlib.suppress(OSError):  # the upload's own error is the one to report
            target.delete()
        if isinstance(error, OSError):
            raise OutputError(f"cannot upload to {target.label}: {error}") from None
        raise
    finally:
        shutil.rmtree(held, ignore_errors=True)


@contextlib.contextmanager
def local_copy(target: str | Path, *, upload: bool = True) -> Iterator[Path]:
    """A file on this machine that stands for ``target`` while the block runs (a run store on an object store).

    A local ``target`` is itself. Otherwise it is downloaded into a temporary directory (when it exists) and,
    unless ``upload`` is false (a command that only reads it), uploaded back when the block ends, by an error or
    an interrupt too, so what was committed is kept; the upload goes beside ``target`` first and is then moved
    onto it. A process killed outright uploads nothing: its work since the download is lost.
    """
    if not is_uri(target):
        yield Path(target).absolute()
        return
    place = destination(target)
    with tempfile.TemporaryDirectory(prefix="foldbench-file-") as scratch:
        local = Path(scratch) / posixpath.basename(place.path)
        if place.exists():
            try:
                _pafs().copy_files(place.path, str(local), source_filesystem=place.filesystem,
                                destination_filesystem=_pafs().LocalFileSystem())  # fmt: skip
            except OSError as error:
                raise OutputError(f"cannot download {place.label}: {error}") from None
        try:
            yield local
        finally:
            if upload and local.exists():
                _upload_file(local, place)


def _upload_file(source: Path, target: Destination) -> None:
    """Copy one file onto ``target``: beside it first, then moved onto it."""
    part = Destination(target.filesystem, f"{target.path}.part-{uuid.uuid4().hex[:8]}", target.label)
    try:
        _pafs().copy_files(str(source), part.path, source_filesystem=_pafs().LocalFileSystem(),
                        destination_filesystem=target.filesystem)  # fmt: skip
        target.filesystem.move(part.path, target.path)
    except OSError as error:
        raise OutputError(f"cannot upload to {target.label}: {error}") from None
    finally:
        with contextlib.suppress(OSError):
            part.delete()
