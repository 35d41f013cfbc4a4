"""Relationship questions on hand-made crease patterns, checked against answers worked out by hand: a single
valley fold of a square (two layers wherever the paper lies, points reflected across the fold line), a zigzag
of three panels (the middle panel in the middle) and a letter fold of two valleys (two stacking orders, so no
stacking question)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from foldbench.crease import build_crease_pattern, compile_crease_pattern
from foldbench.tasks.origamispace.relationship_answers import solve_question
from foldbench.tasks.origamispace.relationship_questions import (
    UNITS,
    Mark,
    angle_question,
    build_question,
    distance_question,
    layers_question,
    pose_question,
    stacking_question,
)
from foldbench.tasks.origamispace.relationships import FoldReference

SQUARE = [[[0, 0], [1, 0]], [[1, 0], [1, 1]], [[1, 1], [0, 1]], [[0, 1], [0, 0]]]


def _reference(creases: list[tuple[float, str]]) -> FoldReference:
    """The unit square with vertical creases at the given x positions."""
    segments = np.array(SQUARE + [[[x, 0], [x, 1]] for x, _ in creases], float)
    pattern = build_crease_pattern(segments, "BBBB" + "".join(letter for _, letter in creases))
    return FoldReference(compile_crease_pattern(pattern, limit=8), "hand-made", len(creases))


@pytest.fixture(scope="module")
def half_fold() -> FoldReference:
    return _reference([(0.5, "V")])


def _fixed_half_is_left(reference: FoldReference) -> bool:
    """Face 0 keeps its place (the compiler's convention): is it the left half?"""
    pattern = reference.compiled.pattern
    return float(pattern.vertices_coords[list(pattern.faces_vertices[0])][:, 0].mean()) < 0.5


def _by_hand(point: np.ndarray, left_fixed: bool) -> np.ndarray:
    """Where a point of the half-folded square lands: the moving half is reflected across x = 0.5."""
    moves = point[0] > 0.5 if left_fixed else point[0] < 0.5
    return np.array([1 - point[0], point[1]]) if moves else point


@given(st.floats(0.05, 0.45), st.floats(0.05, 0.95), st.booleans())
@settings(max_examples=60, deadline=None)
def test_a_point_lands_reflected_across_the_fold_line(x: float, y: float, right: bool) -> None:
    reference = _reference([(0.5, "V")])
    point = np.array([1 - x if right else x, y])
    face = reference.face_at(point)
    assert face is not None
    expected = _by_hand(point, _fixed_half_is_left(reference))
    assert np.allclose(reference.fold_point(point, face), expected)
    moved = not np.allclose(expected, point)
    assert reference.shows_front(face) is not moved  # the moving half turns over


def test_two_layers_wherever_the_half_folded_square_lies(half_fold: FoldReference) -> None:
    rng = np.random.default_rng(3)
    stays_left = _fixed_half_is_left(half_fold)
    for _ in range(50):
        x = rng.uniform(0.05, 0.45) if stays_left else rng.uniform(0.55, 0.95)
        assert half_fold.layers_at(np.array([x, rng.uniform(0.05, 0.95)])) == 2
    assert half_fold.layers_at(np.array([0.5, 0.5])) is None  # on the fold line: no answer
    outside = np.array([0.75, 0.5]) if stays_left else np.array([0.25, 0.5])
    assert half_fold.layers_at(outside) in (None, 0)


@pytest.mark.parametrize("slot", [0, 1])
def test_the_layer_count_options_put_two_at_the_answers_rank(half_fold: FoldReference, slot: int) -> None:
    question = layers_question(half_fold, np.random.default_rng(slot), slot)
    assert question is not None
    assert question.options[question.answer] == "2" and question.answer == slot
    assert [int(o) for o in question.options] == list(range(2 - slot, 6 - slot))
    assert layers_question(half_fold, np.random.default_rng(0), 2) is None  # 2 layers cannot be third of 1..4


@pytest.mark.parametrize("slot", range(4))
def test_the_pose_answer_is_the_hand_reflected_point(half_fold: FoldReference, slot: int) -> None:
    question = None
    rng = np.random.default_rng(slot)
    while question is None:
        question = pose_question(half_fold, rng, slot)
    point = question.pattern_marks[0].point
    assert question.pattern_marks[0].label == "P"
    expected = _by_hand(point, _fixed_half_is_left(half_fold))
    mirror = np.array([1 - point[0], point[1]])  # the point of the other half that lands with P
    answer_mark = [m for m in question.pattern_marks if m.label in ("1", "2") and np.allclose(m.point, mirror)]
    assert len(answer_mark) == 1
    front = np.allclose(expected, point)
    assert question.options[question.answer] == f"mark {answer_mark[0].label}, {'front' if front else 'back'} side up"
    assert solve_question(half_fold, "pose", question.options, question.pattern_marks) == slot


def test_the_distance_across_the_fold_by_hand(half_fold: FoldReference) -> None:
    marks = (Mark("P", 0.2, 0.5), Mark("Q", 0.9, 0.5))  # 0.7 apart flat; folded, |0.2 - 0.1| = 0.1 either way
    options = ("0.5", "1.0", "1.5", "2.0")
    assert solve_question(half_fold, "distance", options, marks) == 1
    with pytest.raises(AssertionError):
        solve_question(half_fold, "distance", ("2.0", "3.0", "4.0", "5.0"), marks)


@pytest.mark.parametrize("slot", range(4))
def test_distance_options_are_an_even_grid_below_the_flat_value(half_fold: FoldReference, slot: int) -> None:
    rng = np.random.default_rng(slot)
    question = None
    while question is None:
        question = distance_question(half_fold, rng, slot)
    p, q = (m.point for m in question.pattern_marks)
    folded = [_by_hand(x, _fixed_half_is_left(half_fold)) for x in (p, q)]
    by_hand = float(np.hypot(*(folded[0] - folded[1]))) * UNITS
    values = [float(o) for o in question.options]
    assert question.options[slot] == f"{by_hand:.1f}"
    assert values == sorted(values) and np.allclose(np.diff(values), values[1] - values[0], atol=0.11)
    assert max(values) < float(np.hypot(*(p - q))) * UNITS


def test_the_angle_across_the_fold_by_hand(half_fold: FoldReference) -> None:
    # flat: QPR between (0, 0.4) and (0.6, 0.4), 56.3 degrees; folded either way: (0, 0.4) and (-0.2, 0.4) up to
    # a mirror, atan(0.5) = 26.6 degrees
    marks = (Mark("P", 0.3, 0.5), Mark("Q", 0.3, 0.9), Mark("R", 0.9, 0.9))
    assert solve_question(half_fold, "angle", ("12°", "27°", "42°", "57°"), marks) == 1
    with pytest.raises(AssertionError):
        solve_question(half_fold, "angle", ("56°", "71°", "86°", "101°"), marks)


@pytest.mark.parametrize("slot", range(4))
def test_angle_options_are_an_even_grid_of_whole_degrees(slot: int) -> None:
    zigzag = _reference([(1 / 3, "V"), (2 / 3, "M")])
    rng = np.random.default_rng(slot)
    question = None
    while question is None:
        question = angle_question(zigzag, rng, slot)
    values = [int(o.rstrip("°")) for o in question.options]
    assert values == sorted(values) and 0 <= values[0] and values[3] <= 180
    assert min(np.diff(values)) >= 14
    assert solve_question(zigzag, "angle", question.options, question.pattern_marks) == slot


def test_the_middle_panel_of_a_zigzag_is_stacked_in_the_middle() -> None:
    zigzag = _reference([(1 / 3, "V"), (2 / 3, "M")])
    question = None
    rng = np.random.default_rng(0)
    for _ in range(100):
        question = stacking_question(zigzag, rng, 2)
        if question is not None:
            break
    assert question is not None
    middle_label = next(m.label for m in question.pattern_marks if m.label in "123" and 1 / 3 < m.x < 2 / 3)
    assert question.options[question.answer].split(", ")[1] == middle_label
    assert solve_question(zigzag, "stacking", question.options, question.pattern_marks) == 2


def test_a_letter_fold_of_two_valleys_gives_no_stacking_question() -> None:
    letter_fold = _reference([(1 / 3, "V"), (2 / 3, "V")])
    assert letter_fold.compiled.state_count == 2  # either flap may lie on top
    rng = np.random.default_rng(1)
    assert all(stacking_question(letter_fold, rng, slot % 4) is None for slot in range(40))


def test_a_question_type_that_does_not_exist_is_refused(half_fold: FoldReference) -> None:
    with pytest.raises(KeyError):
        build_question("colour", half_fold, np.random.default_rng(0), 0)
    with pytest.raises(ValueError, match="unknown question type"):
        solve_question(half_fold, "colour", ("1", "2", "3", "4"), ())
