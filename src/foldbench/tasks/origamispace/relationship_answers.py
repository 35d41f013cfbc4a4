"""Solving a spatial-relationship question again from its marks alone: the compiler's fold, flips, layer counts
and orders give the right option, independently of how the question was drawn (the oracle, and the check that
every item has exactly one right option). Every mark is a point of the crease pattern; where it lands is read
from the face holding it."""

from __future__ import annotations

import numpy as np

from foldbench.tasks.origamispace.relationship_questions import UNITS, Mark, angle_between, side_words
from foldbench.tasks.origamispace.relationships import FoldReference

__all__ = ["MARK_TOLERANCE", "solve_question"]

MARK_TOLERANCE: float = 1e-4
"""How far (paper side 1) two landing places may lie apart and still be one place (marks are stored to 6
decimals; two places of one question are far further apart)."""


def _marks(pattern_marks: tuple[Mark, ...], labels: tuple[str, ...]) -> list[Mark]:
    found = [m for m in pattern_marks if m.label in labels]
    if sorted(m.label for m in found) != sorted(labels):
        raise AssertionError(f"the marks {[m.label for m in pattern_marks]} are not {list(labels)}")
    return sorted(found, key=lambda m: labels.index(m.label))


def _landing(reference: FoldReference, mark: Mark) -> tuple[int, np.ndarray]:
    found = reference.landing(mark.point)
    if found is None:
        raise AssertionError(f"{mark.label} is not inside one face")
    return found


def _layers_at(reference: FoldReference, mark: Mark) -> int:
    layers = reference.layers_at(_landing(reference, mark)[1])
    if layers is None:
        raise AssertionError(f"{mark.label} lands on a layer boundary")
    return layers


def _pose_answer(reference: FoldReference, pattern_marks: tuple[Mark, ...]) -> str:
    point, *candidates = _marks(pattern_marks, ("P", "1", "2"))
    face, target = _landing(reference, point)
    distances = [float(np.hypot(*(_landing(reference, m)[1] - target))) for m in candidates]
    nearest = int(np.argmin(distances))
    if distances[nearest] > MARK_TOLERANCE or max(distances) <= MARK_TOLERANCE:
        raise AssertionError(f"not exactly one mark lands where P lands ({distances})")
    return f"mark {candidates[nearest].label}, {side_words(reference.shows_front(face))}"


def _thickest_answer(reference: FoldReference, pattern_marks: tuple[Mark, ...]) -> str:
    marks = _marks(pattern_marks, ("1", "2", "3", "4"))
    counts = [_layers_at(reference, m) for m in marks]
    best = max(counts)
    if counts.count(best) != 1:
        raise AssertionError(f"no single thickest place: {counts}")
    return f"point {marks[counts.index(best)].label}"


def _stacking_answer(reference: FoldReference, pattern_marks: tuple[Mark, ...]) -> str:
    marks = _marks(pattern_marks, ("1", "2", "3"))
    landed = [_landing(reference, m) for m in marks]
    faces = [face for face, _ in landed]
    places = np.array([place for _, place in landed])
    if len(set(faces)) != 3 or float(np.ptp(places, axis=0).max()) > MARK_TOLERANCE:
        raise AssertionError("the stacking marks are not on three faces landing at one place")
    cell = reference.cell_at(places[0])
    order = None if cell is None else reference.stacking(cell, faces)
    if order is None or len(order) != 3:
        raise AssertionError("the faces do not all cover the place, or their order differs between folded states")
    label_of = {face: mark.label for face, mark in zip(faces, marks, strict=True)}
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
                   pattern_marks: tuple[Mark, ...]) -> int:
    """The index of the right option, computed again from the marks alone (the compiler's fold, flips, layer
    counts and orders), independently of how the question was drawn.

    Raises:
        AssertionError: the marks do not determine one option.
    """
    if question_type == "pose":
        answer = _pose_answer(reference, pattern_marks)
    elif question_type == "layers":
        answer = str(_layers_at(reference, _marks(pattern_marks, ("X",))[0]))
    elif question_type == "thickest":
        answer = _thickest_answer(reference, pattern_marks)
    elif question_type == "stacking":
        answer = _stacking_answer(reference, pattern_marks)
    elif question_type == "distance":
        answer = _distance_answer(reference, options, pattern_marks)
    elif question_type == "angle":
        answer = _angle_answer(reference, options, pattern_marks)
    else:
        raise ValueError(f"unknown question type {question_type!r}")
    if options.count(answer) != 1:
        raise AssertionError(f"the answer {answer!r} is not exactly one of the options {options}")
    return options.index(answer)
