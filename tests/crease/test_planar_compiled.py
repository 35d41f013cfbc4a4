"""The compiled planarisation of few segments gives the array code's graph, to the last bit."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from foldbench.crease.graph._planar_kernels import planarize_small
from foldbench.crease.graph.planar import (
    COMPILED_MERGE,
    COMPILED_SEGMENTS,
    SMALL_INPUT,
    PlanarGraph,
    _planarize_arrays,
    merge_close_points,
    planarize_segments,
)
from foldbench.jit import kernels_run_as

TOLERANCES = st.sampled_from([1e-9, 2.5e-7, 1e-6, 1e-4, 1e-2])


def _assert_same(compiled: PlanarGraph, arrays: PlanarGraph) -> None:
    assert compiled.vertices_coords.shape == arrays.vertices_coords.shape
    assert compiled.vertices_coords.tobytes() == arrays.vertices_coords.tobytes()
    assert compiled.edges_vertices.dtype == arrays.edges_vertices.dtype
    assert compiled.edges_vertices.tolist() == arrays.edges_vertices.tolist()
    assert compiled.edges_sources == arrays.edges_sources


def _ran_compiled(segments: np.ndarray, tolerance: float) -> bool:
    return bool(planarize_small(np.ascontiguousarray(segments.reshape(-1, 2)), tolerance)[0])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=4, max_size=4 * 30).map(lambda v: v[: len(v) // 4 * 4]),
       st.integers(0, 2**32 - 1), st.sampled_from([0.0, 1e-9, 1e-6]), TOLERANCES)
def test_grid_segments_with_noise_give_the_array_codes_graph(
    values: list[int], seed: int, noise: float, tolerance: float
) -> None:
    segments = np.array(values, float).reshape(-1, 2, 2) / 4
    segments += np.random.default_rng(seed).uniform(-noise, noise, segments.shape)
    _assert_same(planarize_segments(segments, tolerance), _planarize_arrays(segments, tolerance))


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 40), st.integers(0, 2**32 - 1), TOLERANCES)
def test_random_segments_give_the_array_codes_graph(count: int, seed: int, tolerance: float) -> None:
    segments = np.random.default_rng(seed).uniform(0, 1, (count, 2, 2))
    _assert_same(planarize_segments(segments, tolerance), _planarize_arrays(segments, tolerance))


@settings(max_examples=200, deadline=None)
@given(st.integers(3, 8), st.integers(0, 2**32 - 1), st.sampled_from([1e-7, 1e-6, 1e-5]))
def test_lines_nearly_through_one_point_give_the_array_codes_graph(count: int, seed: int, tolerance: float) -> None:
    rng = np.random.default_rng(seed)
    angles = rng.uniform(0, np.pi, count)
    centre = rng.uniform(0.4, 0.6, 2)
    half = np.stack([np.cos(angles), np.sin(angles)], axis=1) * 0.3
    segments = np.stack([centre - half, centre + half], axis=1) + rng.uniform(-1e-6, 1e-6, (count, 2, 2))
    _assert_same(planarize_segments(segments, tolerance), _planarize_arrays(segments, tolerance))


def test_the_compiled_loops_run_for_a_small_grid_and_leave_near_concurrent_crossings_to_the_arrays() -> None:
    lines = [[[x / 4, 0], [x / 4, 1]] for x in range(5)] + [[[0, y / 4], [1, y / 4]] for y in range(5)]
    grid = np.array(lines, float)
    assert len(grid) <= COMPILED_SEGMENTS and _ran_compiled(grid, 1e-6)
    graph = planarize_segments(grid, 1e-6)
    assert (len(graph.vertices_coords), len(graph.edges_vertices)) == (25, 40)
    # three lines through (0.5, 0.5), one moved by 3e-6: crossings 3e-6 / sin(45°) apart merge into one point
    star = np.array([[[0, 0.5], [1, 0.5]], [[0, 0], [1, 1]], [[0.5 + 3e-6, 0], [0.5 + 3e-6, 1]]], float)
    assert not _ran_compiled(star, 1e-5)
    assert len(planarize_segments(star, 1e-5).vertices_coords) == 7


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([0.0, 1e-6]), st.sampled_from([1e-6, 1e-4]))
def test_a_folded_grid_of_up_to_four_hundred_segments_gives_the_array_codes_graph(
    seed: int, noise: float, tolerance: float
) -> None:
    rng = np.random.default_rng(seed)
    count = int(rng.integers(201, COMPILED_SEGMENTS + 1))
    ends = rng.integers(0, 12, (count, 2, 2)) / 12  # many shared ends and crossings, as a folded state has
    segments = ends + rng.uniform(-noise, noise, ends.shape)
    with kernels_run_as("compiled"):
        compiled = planarize_segments(segments, tolerance)
    _assert_same(compiled, _planarize_arrays(segments, tolerance))


@settings(max_examples=20, deadline=None)
@given(st.integers(SMALL_INPUT + 1, COMPILED_MERGE), st.integers(0, 2**32 - 1), st.sampled_from([1e-6, 1e-3]))
def test_merging_many_points_compiled_keeps_the_dictionary_codes_points_and_labels(
    count: int, seed: int, tolerance: float
) -> None:
    rng = np.random.default_rng(seed)
    centres = rng.uniform(0, 1, (count // 3 + 1, 2))
    points = centres[rng.integers(0, len(centres), count)] + rng.uniform(-tolerance, tolerance, (count, 2))
    with kernels_run_as("compiled"):
        compiled = merge_close_points(points, tolerance)
    with kernels_run_as("python"):
        dictionary = merge_close_points(points, tolerance)
    assert compiled[0].tobytes() == dictionary[0].tobytes()
    assert compiled[1].tolist() == dictionary[1].tolist()
