"""Solving a spatial-relationship question again from its marks alone: the compiler's fold, flips, layer counts
and orders give the right option, independently of how the question was drawn (the oracle, and the check that
every item has exactly one right option)."""

from __future__ import annotations

import numpy as np

from foldbench.tasks.origamispace.relationship_questions import UNITS, Mark, angle_between, side_words
from foldbench.tasks.origamispace.relationships import FoldReference

__all__ = ["MARK_TOLERANCE", "solve_question"]

MARK_TOLERANCE: float = 1e-4
"""How far (paper side 1) a stored mark may lie from the point it stands for (marks are stored to 6 decimals;
two marks of one picture are far further apart)."""


def _pose_answer(reference: FoldReference, options: tuple[str, ...], pattern_marks: tuple[Mark, ...],
                 folded_marks: tuple[Mark, ...]) -> str:
    point = pattern_marks[0].point
    face = reference.face_at(point)
    if face is None:
        raise AssertionError("P is not inside one face")
    target = reference.fold_point(point, face)
    distances = [float(np.hypot(*(m.point - target))) for m in folded_marks]
    nearest = int(np.argmin(distances))
    if distances[nearest] > MARK_TOLERANCE:
        raise AssertionError(f"no mark where P lands (nearest {distances[nearest]:.3g} away)")
    return f"mark {folded_marks[nearest].label}, {side_words(reference.shows_front(face))}"


def _thickest_answer(reference: FoldReference, folded_marks: tuple[Mark, ...]) -> str:
    layers = [reference.layers_at(m.point) for m in folded_marks]
    if any(n is None for n in layers):
        raise AssertionError("a region mark lies on a layer boundary")
    counts = [int(n) for n in layers if n is not None]
    best = max(counts)
    if counts.count(best) != 1:
        raise AssertionError(f"no single thickest region: {counts}")
    return f"region {folded_marks[counts.index(best)].label}"


def _stacking_answer(reference: FoldReference, pattern_marks: tuple[Mark, ...],
                     folded_marks: tuple[Mark, ...]) -> str:
    faces = [reference.face_at(m.point) for m in pattern_marks]
    cell = reference.cell_at(folded_marks[0].point)
    if cell is None or any(f is None for f in faces) or len(set(faces)) != len(faces):
        raise AssertionError("a stacking mark is not inside one face or cell")
    found = [int(f) for f in faces if f is not None]
    order = reference.stacking(cell, found)
    if order is None or len(order) != len(found):
        raise AssertionError("the faces do not all cover X, or their order differs between folded states")
    label_of = {face: mark.label for face, mark in zip(found, pattern_marks, strict=True)}
    return ", ".join(label_of[face] for face in order)


def _distance_answer(reference: FoldReference, options: tuple[str, ...], pattern_marks: tuple[Mark, ...]) -> str:
    points = [m.point for m in pattern_marks]
    faces = [reference.face_at(p) for p in points]
    if any(f is None for f in faces):
        raise AssertionError("P or Q is not inside one face")
    folded = [reference.fold_point(p, int(f)) for p, f in zip(points, faces, strict=True) if f is not None]
    value = float(np.hypot(*(folded[0] - folded[1]))) * UNITS
    gaps = [abs(float(o) - value) for o in options]
    nearest = int(np.argmin(gaps))
    if gaps[nearest] > 0.05 + 1e-9:
        raise AssertionError(f"no option within rounding of the folded distance {value:.3f}")
    return options[nearest]


def _angle_answer(reference: FoldReference, options: tuple[str, ...], pattern_marks: tuple[Mark, ...]) -> str:
    points = [m.point for m in pattern_marks]
    faces = [reference.face_at(p) for p in points]
    if any(f is None for f in faces):
        raise AssertionError("P, Q or R is not inside one face")
    folded = [reference.fold_point(p, int(f)) for p, f in zip(points, faces, strict=True) if f is not None]
    value = angle_between(folded[1] - folded[0], folded[2] - folded[0])
    gaps = [abs(float(o.rstrip("°")) - value) for o in options]
    nearest = int(np.argmin(gaps))
    if gaps[nearest] > 0.5 + 1e-9:
        raise AssertionError(f"no option within rounding of the folded angle {value:.3f}")
    return options[nearest]


def solve_question(reference: FoldReference, question_type: str, options: tuple[str, ...],
                   pattern_marks: tuple[Mark, ...], folded_marks: tuple[Mark, ...]) -> int:
    """The index of the right option, computed again from the marks alone (the compiler's fold, flips, layer
    counts and orders), independently of how the question was drawn.

    Raises:
        AssertionError: the marks do not determine one option.
    """
    if question_type == "pose":
        answer = _pose_answer(reference, options, pattern_marks, folded_marks)
    elif question_type == "layers":
        answer = str(reference.layers_at(folded_marks[0].point))
    elif question_type == "thickest":
        answer = _thickest_answer(reference, folded_marks)
    elif question_type == "stacking":
        answer = _stacking_answer(reference, pattern_marks, folded_marks)
    elif question_type == "distance":
        answer = _distance_answer(reference, options, pattern_marks)
    elif question_type == "angle":
        answer = _angle_answer(reference, options, pattern_marks)
    else:
        raise ValueError(f"unknown question type {question_type!r}")
    if options.count(answer) != 1:
        raise AssertionError(f"the answer {answer!r} is not exactly one of the options {options}")
    return options.index(answer)
