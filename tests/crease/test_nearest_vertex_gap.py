"""The nearest-vertex distance the noise measure uses: over all pairs with numpy for a small pattern, exactly as
shapely's tree finds it (which a large pattern uses)."""

from __future__ import annotations

import numpy as np
import pytest
import shapely
from hypothesis import given
from hypothesis import strategies as st

from foldbench.crease.graph import pattern
from foldbench.crease.graph.pattern import nearest_vertex_gap


def _by_shapely(coords: np.ndarray, below: float) -> float:
    points = shapely.points(coords)
    _, distances = shapely.STRtree(points).query_nearest(points, max_distance=below, exclusive=True,
                                                         return_distance=True)
    return float(distances.max()) if len(distances) else 0.0


# Coordinates on a coarse grid (coinciding vertices and distances exactly at ``below``) or anywhere in the square.
COORDINATE = st.integers(-4, 4).map(lambda k: k / 4) | st.floats(-1, 1, allow_subnormal=False)
POINTS = st.lists(st.tuples(COORDINATE, COORDINATE), min_size=2, max_size=40).map(
    lambda rows: np.array(rows, dtype=float))
BELOW = st.sampled_from([0.25, 0.5, 2**-0.5, 1e-9]) | st.floats(0, 3, exclude_min=True)


@given(POINTS, BELOW)
def test_all_pairs_find_what_shapely_finds(coords: np.ndarray, below: float) -> None:
    assert nearest_vertex_gap(coords, below) == _by_shapely(coords, below)


@given(POINTS, BELOW)
def test_a_large_pattern_asks_shapely(coords: np.ndarray, below: float) -> None:
    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(pattern, "NEAREST_BY_ALL_PAIRS", 1)
        assert nearest_vertex_gap(coords, below) == _by_shapely(coords, below)


def test_coinciding_vertices_do_not_count_as_near() -> None:
    square = np.array([[0, 0], [0, 0], [1, 0], [1, 1], [0, 1]], dtype=float)
    assert nearest_vertex_gap(square, 0.5) == 0.0
    assert nearest_vertex_gap(square, 1.0) == 1.0
    assert nearest_vertex_gap(square, 0.0) == 0.0
