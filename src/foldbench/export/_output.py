"""Where exports go: a local path or a pyarrow filesystem URI (``file://``, ``s3://``, ``gs://``), through the one
output helper of :mod:`foldbench.storage`: an export appears at its destination only when complete, and one that
fails half-way leaves nothing there; an existing destination is refused before anything is written."""

from __future__ import annotations

from foldbench.storage import Destination, OutputError, destination, staged

__all__ = ["ExportError", "Destination", "destination", "staged"]


class ExportError(OutputError):
    """An export that cannot be written: a bad source, an unknown format, an existing destination."""
