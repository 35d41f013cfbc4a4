"""The environment's state: the creases made so far on the square, compiled; and adding an action's creases.

An action's creases are checked and snapped (:mod:`foldbench.origami.geometry`), inserted into the planar graph
with the square's boundary (:func:`foldbench.crease.build_crease_pattern` splits them where they cross), and kept
only when the compiler finds at least one flat-folded state within :data:`COMPILE_TIME_BUDGET`. A refused
action leaves the sheet as it was and says why: the stage (schema, geometry or compiler), the compiler's error
class (CSE, GIF, PSI, PRECISION), its code and where the problem lies.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from foldbench.crease.compiler import CompiledFold
from foldbench.crease.errors import CreasePatternError
from foldbench.crease.graph.pattern import build_crease_pattern
from foldbench.crease.summary import compile_with_summary
from foldbench.origami.actions import PAPER_SIZE, Crease, ParsedAction, SchemaRejection, parse_action
from foldbench.origami.folded import AlignedFold, align_fold
from foldbench.origami.geometry import GeometryRejection, check_crease

__all__ = ["COMPILE_TIME_BUDGET", "MAX_CREASES", "ActionResult", "Sheet", "apply_action", "blank_sheet"]

COMPILE_TIME_BUDGET: float = 2.0
"""Seconds the compiler may search for a flat-folded state before the action is judged on what it found."""
MAX_CREASES: int = 400
"""A sheet holds at most this many creases (as given by actions, before splitting at crossings)."""

_CORNERS = np.array([[0.0, 0.0], [PAPER_SIZE, 0.0], [PAPER_SIZE, PAPER_SIZE], [0.0, PAPER_SIZE]])
_BOUNDARY = np.array([[_CORNERS[i], _CORNERS[(i + 1) % 4]] for i in range(4)])


@dataclass(frozen=True)
class Sheet:
    """The square with its creases, compiled (it always folds flat).

    Attributes:
        creases: ``(k, 2, 2)`` creases as added (snapped), paper frame.
        assignments: ``M`` or ``V`` per crease.
        compiled: the compiled crease pattern (boundary plus creases, split at crossings).
        aligned: the folded form aligned in the paper frame (:mod:`foldbench.origami.folded`).
    """

    creases: np.ndarray
    assignments: tuple[str, ...]
    compiled: CompiledFold
    aligned: AlignedFold

    @property
    def crease_count(self) -> int:
        """Number of creases added."""
        return len(self.assignments)

    def vertices_and_segments(self) -> tuple[np.ndarray, np.ndarray]:
        """The planar graph's vertices ``(n, 2)`` and edges ``(m, 2, 2)``, paper frame."""
        fields = self.compiled.pattern.to_fold_fields()
        vertices = np.asarray(fields["vertices_coords"], float)
        return vertices, vertices[np.asarray(fields["edges_vertices"], int)]

    def crease_list(self) -> list[dict[str, Any]]:
        """The creases as action-style dicts (rounded to 1e-6)."""
        return [
            {"p1": np.round(c[0], 6).tolist(), "p2": np.round(c[1], 6).tolist(), "assignment": a}
            for c, a in zip(self.creases, self.assignments, strict=True)
        ]

    def fold_document(self, title: str = "") -> dict[str, Any]:
        """The sheet as a FOLD 1.2 document (crease pattern in the paper frame, plus its folded state)."""
        return self.compiled.fold_document(0, title)

    def fold_text(self, title: str = "") -> str:
        """The ``.fold`` file text of :meth:`fold_document`."""
        return json.dumps(self.fold_document(title), indent=1)


@dataclass(frozen=True)
class ActionResult:
    """What one action did: the sheet after it (unchanged when refused) and the feedback record."""

    sheet: Sheet
    accepted: bool
    feedback: dict[str, Any] = field(default_factory=dict)
    added: np.ndarray = field(default_factory=lambda: np.zeros((0, 2, 2)))


def _compile(creases: np.ndarray, assignments: tuple[str, ...]) -> tuple[Sheet | None, dict[str, Any] | None]:
    segments = np.concatenate([_BOUNDARY, creases.reshape(-1, 2, 2)])
    letters = ("B",) * 4 + assignments
    try:
        pattern = build_crease_pattern(segments, letters, source="sheet")
    except CreasePatternError as error:
        return None, error.to_dict()
    summary, compiled = compile_with_summary(pattern, limit=1, timeout=COMPILE_TIME_BUDGET)
    if compiled is None:
        return None, summary["error"]
    if compiled.state_count < 1:  # pragma: no cover - the compiler raises PSI instead
        return None, {"class": "PSI", "code": "E_NO_STATE", "message": "no flat-folded state", "where": {}}
    return Sheet(creases.reshape(-1, 2, 2), assignments, compiled, align_fold(compiled)), None


def blank_sheet() -> Sheet:
    """The uncreased square."""
    sheet, error = _compile(np.zeros((0, 2, 2)), ())
    assert sheet is not None, error
    return sheet


def sheet_from_creases(creases: np.ndarray, assignments: tuple[str, ...]) -> Sheet:
    """A sheet with the given creases (paper frame), compiled.

    Raises:
        CreasePatternError: the creases do not fold flat (a rebuilt :class:`CreasePatternError` of the class found).
    """
    sheet, error = _compile(np.asarray(creases, float).reshape(-1, 2, 2), tuple(assignments))
    if sheet is None:
        assert error is not None
        raise CreasePatternError(error["code"], f"{error['class']}: {error['message']}", error["where"])
    return sheet


def _refusal(stage: str, error_class: str, code: str, message: str, where: dict[str, Any]) -> dict[str, Any]:
    return {"accepted": False, "stage": stage, "class": error_class, "code": code, "message": message,
            "where": where}


def apply_action(sheet: Sheet, action: Any) -> ActionResult:
    """Add the creases of ``action`` (a dict, JSON text or a :class:`ParsedAction`) to ``sheet``.

    Never raises for a bad action: a refused action returns ``sheet`` itself with ``accepted`` False and the reason.
    """
    parsed = action if isinstance(action, ParsedAction) else parse_action(action)
    if isinstance(parsed, SchemaRejection):
        return ActionResult(sheet, False, _refusal("schema", "SCHEMA", parsed.code, parsed.message, {}))
    if sheet.crease_count + len(parsed.creases) > MAX_CREASES:
        return ActionResult(sheet, False, _refusal(
            "geometry", "GEOMETRY", "E_TOO_MANY_CREASES", f"the sheet holds at most {MAX_CREASES} creases", {}))
    vertices, segments = sheet.vertices_and_segments()
    added: list[np.ndarray] = []
    letters: list[str] = []
    for index, crease in enumerate(parsed.creases):
        checked = check_crease(crease.p1, crease.p2, vertices, segments)
        if isinstance(checked, GeometryRejection):
            where = {"crease": index, **checked.where}
            return ActionResult(sheet, False, _refusal("geometry", "GEOMETRY", checked.code, checked.message, where))
        segment = np.array(checked)
        added.append(segment)
        letters.append(crease.assignment)
        segments = np.concatenate([segments, segment[None]])
        vertices = np.concatenate([vertices, segment])
    new_creases = np.concatenate([sheet.creases.reshape(-1, 2, 2), np.array(added)])
    new_sheet, error = _compile(new_creases, sheet.assignments + tuple(letters))
    if new_sheet is None:
        assert error is not None
        return ActionResult(sheet, False, _refusal("compiler", error["class"], error["code"], error["message"],
                                                   _paper_frame_where(error["where"])))
    feedback = {"accepted": True, "stage": None, "class": None, "code": None,
                "message": f"added {len(added)} crease(s); the paper folds flat",
                "where": {"creases": [np.round(a, 6).tolist() for a in added]}}
    return ActionResult(new_sheet, True, feedback, np.array(added))


def _paper_frame_where(where: dict[str, Any]) -> dict[str, Any]:
    """The compiler's location record as JSON-safe data (its coordinates are already in the input frame)."""
    return json.loads(json.dumps(where, default=str))


def crease_of(segment: np.ndarray, letter: str) -> Crease:
    """A :class:`Crease` from a segment (paper frame) and its letter."""
    return Crease(p1=tuple(segment[0].tolist()), p2=tuple(segment[1].tolist()), assignment=letter)  # type: ignore[arg-type]
