"""The rules checked on a cut's unjoined hole pieces are stricter than the hole rules checked on the joined holes."""

from __future__ import annotations

import numpy as np
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import Polygon, box

from foldbench.pfp.cutouts import sample_cutouts
from foldbench.pfp.puzzle import legibility_problem, piece_size_problem, piece_spacing_problem
from foldbench.pfp.shapes import cutout_polygon
from foldbench.pfp.tolerance import MIN_FEATURE, MIN_HOLE_AREA

HALF = 180.0  # the square sheet spans [-180, 180] on both axes
HOLE_RULES = {
    "a hole is too narrow to see",
    "two holes are too close to tell apart",
    "a hole is too close to the edge",
    "a hole is too small",
}

coordinate = st.integers(-340, 300).map(lambda k: k / 2)  # half units: pieces meet exactly or keep >= 0.5 apart
extent = st.integers(2, 80).map(lambda k: k / 2)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(coordinate, coordinate, extent, extent), min_size=1, max_size=4))
def test_pieces_that_pass_leave_no_hole_rule_to_fail(boxes: list[tuple[float, float, float, float]]) -> None:
    pieces = [box(x, y, x + w, y + h) for x, y, w, h in boxes]
    if piece_size_problem(np.array(pieces, dtype=object)) is None and piece_spacing_problem("square", pieces) is None:
        assert legibility_problem("square", shapely.union_all(pieces)) not in HOLE_RULES


@given(st.floats(0.5, MIN_FEATURE - 0.5), st.floats(-100, 100))
def test_a_sliver_beside_a_crease_is_refused(width: float, offset: float) -> None:
    wide = box(offset - 30, -20, offset, 20)
    sliver = box(offset, -20, offset + width, 20)  # the same cut on the next layer, crossing the crease by a sliver
    assert piece_size_problem(np.array([wide, sliver], dtype=object)) is not None
    assert piece_size_problem(np.array([wide, box(offset, -20, offset + 2 * MIN_FEATURE, 20)])) is None


@given(st.floats(0.01, MIN_FEATURE - 0.01))
def test_pieces_meet_or_keep_their_distance(gap: float) -> None:
    left, right = box(-40, -20, 0, 20), box(gap, -20, gap + 40, 20)
    assert piece_spacing_problem("square", [left, right]) == "two holes are too close to tell apart"
    assert piece_spacing_problem("square", [left, box(0, -20, 40, 20)]) is None
    assert piece_spacing_problem("square", [left, box(MIN_FEATURE + 0.5, -20, MIN_FEATURE + 40, 20)]) is None


@given(st.floats(0.01, MIN_FEATURE - 0.01))
def test_a_piece_opens_onto_the_edge_or_keeps_away(gap: float) -> None:
    near = box(HALF - gap - 30, -20, HALF - gap, 20)
    assert piece_spacing_problem("square", [near]) == "a hole is too close to the edge"
    assert piece_spacing_problem("square", [box(HALF - 30, -20, HALF + 5, 20)]) is None


def test_tiny_parts_of_one_layer_are_seen_apart() -> None:
    """A layer's piece with two parts (two cutouts) is judged part by part."""
    side = (MIN_HOLE_AREA / 2) ** 0.5
    two = box(0, 0, 40, 40).union(box(60, 0, 60 + side, side))
    assert piece_size_problem(np.array([two], dtype=object)) == "a hole is too small"


@given(st.integers(0, 2**32 - 1))
def test_sampled_cutouts_satisfy_the_placement_rule(seed: int) -> None:
    def right_half(polygon: Polygon, placed: tuple[Polygon, ...]) -> bool:
        return polygon.bounds[0] > 0

    cutouts = sample_cutouts(np.random.default_rng(seed), box(-100, -100, 100, 100), 2, accept=right_half)
    if cutouts is not None:
        assert all(cutout_polygon(c).bounds[0] > 0 for c in cutouts)
