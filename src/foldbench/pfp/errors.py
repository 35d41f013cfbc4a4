"""Errors of the Paper Folding Puzzles engines and generators (all :class:`~foldbench.errors.FoldbenchError`)."""

from __future__ import annotations

from foldbench.errors import FoldbenchError, InvalidKnobError

__all__ = ["InvalidNetError", "PfpError", "PfpGenerationError", "PfpKnobError"]


class PfpError(FoldbenchError):
    """Base class of the Paper Folding Puzzles errors."""


class PfpKnobError(PfpError, InvalidKnobError):
    """A generator option that is unknown, out of range, or impossible together with the others."""


class PfpGenerationError(PfpError, RuntimeError):
    """A seed and index for which no valid item was found within the bounded number of tries."""


class InvalidNetError(PfpError, ValueError):
    """A layout of six squares that is not a net of the cube."""
