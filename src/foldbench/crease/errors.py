"""Typed errors of the crease-pattern compiler, in OrigamiSpace's four classes.

Every error carries ``error_class`` (``"CSE"``, ``"GIF"``, ``"PSI"``, ``"AFS"`` or ``"PRECISION"``), a
stable ``code`` (e.g. ``"E_GEOM_MAEKAWA"``), a human message, and ``where``: a JSON-serialisable dict that
locates the problem (field and index, vertex ids and coordinates, conflicting faces, ...).
"""

from __future__ import annotations

from typing import Any, Literal

from foldbench.errors import FoldbenchError

__all__ = [
    "AmbiguousFoldedState",
    "CreasePatternError",
    "CreasePatternSyntaxError",
    "ErrorClass",
    "GeometricallyImpossibleFold",
    "PrecisionProblem",
    "SelfIntersection",
]

ErrorClass = Literal["CSE", "GIF", "PSI", "AFS", "PRECISION"]


class CreasePatternError(FoldbenchError, ValueError):
    """Base class: a crease pattern that cannot be compiled, with a code and a location."""

    error_class: ErrorClass = "CSE"

    def __init__(self, code: str, message: str, where: dict[str, Any] | None = None) -> None:
        self.code = code
        self.message = message
        self.where: dict[str, Any] = dict(where or {})
        super().__init__(f"{self.error_class} {code}: {message}")

    def to_dict(self) -> dict[str, Any]:
        """The error as the ``error`` object of ``foldbench fold --json``."""
        return {"class": self.error_class, "code": self.code, "message": self.message, "where": self.where}


class CreasePatternSyntaxError(CreasePatternError):
    """CSE: missing or ill-typed fields, dangling indices, unknown assignments, a non-planar or broken graph."""

    error_class: ErrorClass = "CSE"


class GeometricallyImpossibleFold(CreasePatternError):
    """GIF: a vertex breaks Maekawa, Kawasaki or big-little-big, or a crease lies outside the paper."""

    error_class: ErrorClass = "GIF"


class SelfIntersection(CreasePatternError):
    """PSI: no layer order exists; names the constraint type and the faces in conflict."""

    error_class: ErrorClass = "PSI"


class AmbiguousFoldedState(CreasePatternError):
    """AFS: more than one flat-folded state (an error only for callers that require a unique state)."""

    error_class: ErrorClass = "AFS"


class PrecisionProblem(CreasePatternError):
    """The floating-point input is too imprecise to decide; never reported as a geometric verdict."""

    error_class: ErrorClass = "PRECISION"
