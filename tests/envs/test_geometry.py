"""Snapping and the geometric checks of a proposed crease (paper frame)."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from foldbench.origami.geometry import MIN_CREASE_LENGTH, SNAP_DISTANCE, GeometryRejection, check_crease, snap_point
from foldbench.origami.sheet import apply_action, blank_sheet

SQUARE = np.array([[[0, 0], [10, 0]], [[10, 0], [10, 10]], [[10, 10], [0, 10]], [[0, 10], [0, 0]]], float)
DIAGONAL = np.array([[[0, 0], [10, 10]]], float)
SEGMENTS = np.concatenate([SQUARE, DIAGONAL])
VERTICES = SQUARE[:, 0]
COORD = st.floats(-1, 11, allow_nan=False)


@given(COORD, COORD, COORD, COORD)
def test_kept_creases_lie_on_the_paper_and_are_long_enough(x1: float, y1: float, x2: float, y2: float) -> None:
    result = check_crease((x1, y1), (x2, y2), VERTICES, SEGMENTS)
    if isinstance(result, GeometryRejection):
        assert result.code in {"E_ACTION_OUTSIDE_PAPER", "E_ACTION_DEGENERATE", "E_ACTION_OVERLAPS_CREASE"}
        return
    start, end = result
    assert ((0 <= start) & (start <= 10)).all() and ((0 <= end) & (end <= 10)).all()
    assert np.hypot(*(end - start)) >= MIN_CREASE_LENGTH
    for given_point, kept in (((x1, y1), start), ((x2, y2), end)):
        assert np.hypot(*(np.asarray(given_point) - kept)) <= SNAP_DISTANCE * 1.5 + 1e-12


@given(COORD.filter(lambda v: 0 <= v <= 10), COORD.filter(lambda v: 0 <= v <= 10))
def test_snapping_is_idempotent(x: float, y: float) -> None:
    once = snap_point(np.array([x, y]), VERTICES, SEGMENTS)
    assert np.allclose(snap_point(once, VERTICES, SEGMENTS), once)


def test_a_crease_a_hair_away_from_a_vertex_goes_through_it() -> None:
    sheet = apply_action(blank_sheet(), {"action": "add_crease", "p1": [0, 0], "p2": [10, 10], "assignment": "V"}).sheet
    hair = 1e-4
    result = apply_action(sheet, {"action": "add_creases", "creases": [
        {"p1": [10, 0], "p2": [5 + hair, 5 - hair], "assignment": "M"},
        {"p1": [5 - hair, 5 + hair], "p2": [0, 10], "assignment": "V"}]})
    assert result.accepted, result.feedback
    assert [5.0, 5.0] in result.sheet.vertices_and_segments()[0].round(9).tolist()


def test_a_near_duplicate_of_an_existing_crease_is_refused() -> None:
    result = check_crease((0.02, 0.0), (10.0, 9.99), VERTICES, SEGMENTS)
    assert isinstance(result, GeometryRejection) and result.code == "E_ACTION_OVERLAPS_CREASE"
    assert result.where["segment"] == 4
