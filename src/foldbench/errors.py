"""The one error hierarchy of foldbench.

Every error a user can cause (a bad file, a bad argument, an invalid fold sequence) is a subclass of
:class:`FoldbenchError`. The CLI prints these as one line and exits non-zero; anything else is a bug.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

__all__ = [
    "FoldbenchError",
    "UsageError",
    "InvalidActionError",
    "InvalidSequenceError",
    "InvalidFoldError",
    "InvalidHoleError",
    "RecordError",
    "InvalidKnobError",
    "UnknownNameError",
    "MissingDependencyError",
    "did_you_mean",
]


class FoldbenchError(Exception):
    """Base class of every error foldbench raises on purpose."""


class UsageError(FoldbenchError):
    """An error in how a command or function was called (an unknown name, a knob out of range, options that do
    not go together), as opposed to an error in the data it was given; the CLI exits 2 for these, 1 for others."""


class InvalidActionError(FoldbenchError, ValueError):
    """A fold or rotation code that foldbench does not know (e.g. ``"H3-F"``)."""


class InvalidSequenceError(FoldbenchError, ValueError):
    """A sequence of actions that breaks the paper folding test's validation rules."""


class InvalidFoldError(InvalidSequenceError):
    """A fold that cannot be made on the paper as it lies (crease off the grid, paper leaves the sheet, ...)."""


class InvalidHoleError(FoldbenchError, ValueError):
    """A hole that is malformed, off the paper, or on a spot with no paper."""


class RecordError(FoldbenchError, ValueError):
    """A malformed record in an input file; names the record and the field."""

    def __init__(self, record: str, field: str, message: str) -> None:
        self.record = record
        self.field = field
        self.message = message
        super().__init__(f"record {record}: field '{field}': {message}")


class InvalidKnobError(UsageError, ValueError):
    """A generator option that is unknown, out of range, or impossible together with the others."""


class UnknownNameError(UsageError, KeyError):
    """An unknown task, model, shape or other registered name; suggests the closest known one."""

    def __init__(self, kind: str, name: str, known: Iterable[str]) -> None:
        self.kind = kind
        self.name = name
        self.known = sorted(known)
        super().__init__(f"unknown {kind} '{name}'.{did_you_mean(name, self.known)}")

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0])


class MissingDependencyError(FoldbenchError, ImportError):
    """An optional dependency is not installed; the message names the extra that provides it."""

    def __init__(self, package: str, extra: str, purpose: str) -> None:
        self.package = package
        self.extra = extra
        super().__init__(f"{purpose} needs the '{package}' package: pip install 'foldbench[{extra}]'")


def did_you_mean(name: str, known: Iterable[str]) -> str:
    """A " Did you mean: x?" hint (or the list of known names) for an unknown ``name``."""
    known = list(known)
    close = difflib.get_close_matches(name, known, n=1)
    if close:
        return f" Did you mean: {close[0]}?"
    return f" Known: {', '.join(known)}." if known else ""
