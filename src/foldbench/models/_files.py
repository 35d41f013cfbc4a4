"""The pictures a conversation shows, read once: base64 data URLs and sha256 digests of dataset files (cached by
path, mtime and size) and of PNG bytes held in memory."""

from __future__ import annotations

import base64
import hashlib
import os
from collections import OrderedDict
from pathlib import Path

from foldbench.messages import ImagePart
from foldbench.models.errors import PromptInputError

__all__ = ["MEDIA_TYPES", "PromptFiles", "dataset_file", "media_type"]

#: Media types of the image files a prompt may show, by file suffix.
MEDIA_TYPES = {
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".webp": "image/webp",
    ".gif": "image/gif",
}

_Key = tuple[str, int, int]


def media_type(path: str | Path) -> str:
    """The media type of an image file by its suffix (``image/png`` when the suffix is unknown).

    >>> media_type("images/a.JPG"), media_type("frame")
    ('image/jpeg', 'image/png')
    """
    return MEDIA_TYPES.get(Path(path).suffix.lower(), "image/png")


def dataset_file(dataset_dir: Path | None, relative: str) -> Path:
    """The file ``relative`` inside ``dataset_dir``; a path that is absolute or climbs out (``..``) is refused.

    >>> dataset_file(Path("data"), "images/a.png").as_posix()
    'data/images/a.png'
    >>> dataset_file(Path("data"), "../secret.png")
    Traceback (most recent call last):
    ...
    foldbench.models.errors.PromptInputError: prompt file '../secret.png' is not inside the dataset directory data
    """
    if dataset_dir is None:
        raise PromptInputError(f"prompt file {relative!r} needs a dataset directory, and the request has none")
    parts = Path(relative)
    if not relative or parts.is_absolute() or ".." in parts.parts:
        raise PromptInputError(f"prompt file {relative!r} is not inside the dataset directory {dataset_dir}")
    return Path(dataset_dir) / parts


class PromptFiles:
    """Reads prompt files and keeps their data URLs and digests while the file is unchanged.

    A file is read again only when its modification time or size changes. Data URLs are kept up to
    ``max_bytes`` in total (least recently used first out); digests are small and always kept.

    Not thread-safe: one instance per event loop (or per adapter).
    """

    def __init__(self, *, max_bytes: int = 128 * 2**20) -> None:
        self.max_bytes = max_bytes
        self.reads = 0
        """How many times a file was read from disk (for tests and logs)."""
        self._data_urls: OrderedDict[_Key, str] = OrderedDict()
        self._data_url_bytes = 0
        self._digests: dict[_Key, str] = {}

    def _key(self, path: Path) -> _Key:
        try:
            stat = os.stat(path)
        except OSError as error:
            raise PromptInputError(f"prompt file {path} cannot be read: {error.strerror or error}") from None
        return (os.fspath(path), stat.st_mtime_ns, stat.st_size)

    def read(self, path: Path) -> bytes:
        """The bytes of ``path``; raises :class:`PromptInputError` when it cannot be read."""
        try:
            data = Path(path).read_bytes()
        except OSError as error:
            raise PromptInputError(f"prompt file {path} cannot be read: {error.strerror or error}") from None
        self.reads += 1
        return data

    def _load(self, key: _Key, path: Path) -> bytes:
        data = self.read(path)
        self._digests[key] = hashlib.sha256(data).hexdigest()
        return data

    def data_url(self, path: Path) -> str:
        """``data:<media type>;base64,...`` for the image at ``path``."""
        key = self._key(path)
        cached = self._data_urls.get(key)
        if cached is not None:
            self._data_urls.move_to_end(key)
            return cached
        url = f"data:{media_type(path)};base64,{base64.b64encode(self._load(key, path)).decode('ascii')}"
        self._data_urls[key] = url
        self._data_url_bytes += len(url)
        while self._data_url_bytes > self.max_bytes and len(self._data_urls) > 1:
            _, evicted = self._data_urls.popitem(last=False)
            self._data_url_bytes -= len(evicted)
        return url

    def image_data_url(self, part: ImagePart, dataset_dir: Path | None) -> str:
        """The data URL of an image part: its dataset file, or its bytes (PNG) when held in memory."""
        if part.data is not None:
            return f"data:image/png;base64,{base64.b64encode(part.data).decode('ascii')}"
        assert part.path is not None
        return self.data_url(dataset_file(dataset_dir, part.path))

    def image_sha256(self, part: ImagePart, dataset_dir: Path | None) -> str:
        """The sha256 hex digest of an image part's bytes, wherever they are held."""
        if part.data is not None:
            return hashlib.sha256(part.data).hexdigest()
        assert part.path is not None
        return self.sha256(dataset_file(dataset_dir, part.path))

    def image_bytes(self, part: ImagePart, dataset_dir: Path | None) -> bytes:
        """The bytes of an image part, wherever they are held."""
        if part.data is not None:
            return part.data
        assert part.path is not None
        return self.read(dataset_file(dataset_dir, part.path))

    def sha256(self, path: Path) -> str:
        """The sha256 hex digest of the bytes of ``path``."""
        key = self._key(path)
        digest = self._digests.get(key)
        if digest is None:
            self._load(key, path)
            digest = self._digests[key]
        return digest
