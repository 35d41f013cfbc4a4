"""The synthesis metrics on hand-made cases whose values are worked out by hand, so that a plausible slip in QE or
GS (two empty shapes scored as identical, a crease judged by its ends, distance to the infinite line) fails."""

from __future__ import annotations

import numpy as np
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from foldbench.origami.metrics import geometric_similarity, mask_iou, query_efficiency, raster_geometric_similarity


def _creases(*segments: tuple[float, float, float, float]) -> np.ndarray:
    return np.array([[[x0, y0], [x1, y1]] for x0, y0, x1, y1 in segments], dtype=float)


# The final pattern of a 10 x 10 sheet: a full vertical crease x = 5, a horizontal line y = 5 drawn as two creases
# with a gap between x = 2 and x = 3, and a short diagonal from (0, 0) to (4, 4).
FINAL = _creases((5, 0, 5, 10), (0, 5, 2, 5), (3, 5, 10, 5), (0, 0, 4, 4))


def test_query_efficiency_counts_only_creases_wholly_kept() -> None:
    steps = [
        _creases((5, 0, 5, 10)),   # 1: lies on the vertical crease, changed the form -> counts
        _creases((0, 5, 10, 5)),   # 2: its ends and midpoint lie on final creases, but it crosses the gap -> no
        _creases((6, 6, 8, 8)),    # 3: on the diagonal's line, beyond the diagonal's end -> no
        None,                      # 4: refused -> no
        _creases((5, 0, 5, 10)),   # 5: kept, but the form did not change -> no
    ]
    changed = [True, True, True, False, False]
    # Hand count: only step 1 counts, out of five steps: 1 / 5.
    assert query_efficiency(steps, changed, FINAL) == 0.2


def test_query_efficiency_counts_a_crease_covered_by_several_final_creases() -> None:
    # (3, 5)-(10, 5) is covered by the one final crease there; (0, 5)-(2, 5) too; a step adding both counts.
    steps = [_creases((3, 5, 10, 5), (0, 5, 2, 5)), _creases((3, 5, 9, 5))]
    assert query_efficiency(steps, [True, True], FINAL) == 1.0
    # Half a step's creases kept is the step not kept: 1 of 2 steps.
    assert query_efficiency([_creases((3, 5, 10, 5), (1, 1, 9, 2)), _creases((5, 0, 5, 4))], [True, True],
                            FINAL) == 0.5


def test_two_empty_shapes_are_not_a_perfect_match() -> None:
    empty = shapely.Polygon()
    assert geometric_similarity(empty, empty) == 0.0
    blank = np.zeros((6, 6), bool)
    assert mask_iou(blank, blank) == 0.0
    white = np.full((6, 6, 3), 255, np.uint8)
    assert raster_geometric_similarity(white, white) == 0.0


def test_geometric_similarity_by_hand() -> None:
    square = shapely.box(0, 0, 4, 4)
    # Overlap 2 x 4 = 8; union 16 + 16 - 8 = 24: 1/3.
    assert abs(geometric_similarity(square, shapely.box(2, 0, 6, 4)) - 1 / 3) < 1e-12
    # A triangle half of the square: 8 / 16.
    assert geometric_similarity(square, shapely.Polygon([(0, 0), (4, 0), (0, 4)])) == 0.5


@settings(max_examples=60, deadline=None)
@given(st.floats(1, 10), st.floats(1, 10), st.floats(0.05, 0.95))
def test_the_reference_scores_1_and_shrinking_it_lowers_gs(width: float, height: float, share: float) -> None:
    reference = shapely.box(0, 0, width, height)
    assert geometric_similarity(reference, reference) == 1.0
    smaller = shapely.box(0, 0, width * share, height)
    assert abs(geometric_similarity(reference, smaller) - share) < 1e-9


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 9), st.integers(0, 9)), min_size=1, max_size=6))
def test_the_final_pattern_itself_is_wholly_kept(points: list[tuple[int, int]]) -> None:
    """Every step that added one of the final creases and changed the form counts: QE 1."""
    finals = _creases(*[(x, y, x + 1, y + 2) for x, y in points])
    steps = [finals[i : i + 1] for i in range(len(finals))]
    assert query_efficiency(steps, [True] * len(steps), finals) == 1.0
    # Moving one step's crease off its line by more than the tolerance loses exactly that step.
    moved = [s.copy() for s in steps]
    moved[0][0, :, 0] += 0.37  # off every line 2x - y = integer that the lattice creases lie on
    assert query_efficiency(moved, [True] * len(steps), finals) == (len(steps) - 1) / len(steps)
