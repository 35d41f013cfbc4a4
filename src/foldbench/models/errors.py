"""Errors of the model adapters that a user can cause: a bad model spec or setting, or an unreadable prompt file.

A backend failure (an HTTP error, a timeout, a malformed reply) is never raised: adapters return it as a
:class:`~foldbench.models.base.ModelReply` with ``error`` set.
"""

from __future__ import annotations

from foldbench.errors import FoldbenchError, UsageError

__all__ = ["ModelConfigError", "PromptInputError"]


class ModelConfigError(UsageError, ValueError):
    """A model that cannot be set up as asked: a missing API key, an unknown parameter, a model that won't load."""


class PromptInputError(FoldbenchError, OSError):
    """A prompt refers to a file that cannot be read (an image or video missing from the dataset directory)."""
