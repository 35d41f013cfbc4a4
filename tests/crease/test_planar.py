from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from foldbench.crease.graph.planar import find_faces, merge_close_points, planarize_segments

from .builders import UNIT_SQUARE


def _area(points: np.ndarray) -> float:
    shifted = np.roll(points, -1, axis=0)
    return 0.5 * float(np.sum(points[:, 0] * shifted[:, 1] - points[:, 1] * shifted[:, 0]))


def test_crossing_segments_are_split_at_their_intersection() -> None:
    graph = planarize_segments(np.array([[[0, 0], [2, 2]], [[0, 2], [2, 0]]], float), 1e-9)
    assert len(graph.vertices_coords) == 5
    assert len(graph.edges_vertices) == 4
    assert any(np.allclose(p, [1, 1]) for p in graph.vertices_coords)


def test_duplicates_merge_and_remember_their_sources() -> None:
    segments = np.array([[[0, 0], [1, 0]], [[1, 0], [0, 0]], [[0.5, 0], [2, 0]]], float)
    graph = planarize_segments(segments, 1e-9)
    assert len(graph.edges_vertices) == 3  # 0-0.5, 0.5-1, 1-2
    sources = sorted(graph.edges_sources)
    assert sources == [(0, 1), (0, 1, 2), (2,)]


def test_point_within_tolerance_of_a_segment_splits_it() -> None:
    segments = np.array([[[0, 0], [1, 0]], [[0.5, 1e-10], [0.5, 1]]], float)
    graph = planarize_segments(segments, 1e-8)
    assert len(graph.edges_vertices) == 3


def test_merge_close_points_keeps_distant_points_apart() -> None:
    coords, labels = merge_close_points(np.array([[0, 0], [0, 1e-12], [0, 1e-3]], float), 1e-9)
    assert labels.tolist() == [0, 0, 1]
    assert len(coords) == 2


def test_faces_of_a_square_with_a_diagonal() -> None:
    segments = np.vstack([UNIT_SQUARE, [[[0, 0], [1, 1]]]])
    graph = planarize_segments(segments, 1e-9)
    faces = find_faces(graph.vertices_coords, graph.edges_vertices)
    assert len(faces.faces_vertices) == 2
    assert len(faces.outer_cycles) == 1
    assert sorted(round(_area(graph.vertices_coords[list(f)]), 9) for f in faces.faces_vertices) == [0.5, 0.5]


chord = st.tuples(st.floats(0.05, 0.95), st.floats(0.05, 0.95), st.sampled_from(["h", "v", "d"]))


@settings(max_examples=40, deadline=None)
@given(st.lists(chord, min_size=0, max_size=6))
def test_chords_of_a_square_tile_it_and_satisfy_euler(chords: list[tuple[float, float, str]]) -> None:
    segments = [*UNIT_SQUARE.tolist()]
    for a, b, kind in chords:
        if kind == "h":
            segments.append([[0, a], [1, a]])
        elif kind == "v":
            segments.append([[a, 0], [a, 1]])
        else:
            segments.append([[0, a], [1, b]])
    graph = planarize_segments(np.array(segments, float), 1e-9)
    faces = find_faces(graph.vertices_coords, graph.edges_vertices)
    total = sum(_area(graph.vertices_coords[list(f)]) for f in faces.faces_vertices)
    assert abs(total - 1) < 1e-9
    assert len(graph.vertices_coords) - len(graph.edges_vertices) + len(faces.faces_vertices) == 1
    # each face's area comes with it, the polygon's own shoelace area, never zero or negative
    assert len(faces.faces_areas) == len(faces.faces_vertices)
    for face, area in zip(faces.faces_vertices, faces.faces_areas, strict=True):
        assert area > 0
        assert abs(area - _area(graph.vertices_coords[list(face)])) < 1e-12


def _through(point: np.ndarray, degrees: float, half_length: float = 0.3) -> np.ndarray:
    direction = np.array([np.cos(np.radians(degrees)), np.sin(np.radians(degrees))])
    return np.array([point - half_length * direction, point + half_length * direction])


@settings(max_examples=80, deadline=None)
@given(
    centre=st.tuples(st.floats(0.35, 0.65), st.floats(0.35, 0.65)),
    first=st.floats(0, 180),
    spreads=st.lists(st.floats(0.5, 10), min_size=2, max_size=4),
    seed=st.integers(0, 2**32 - 1),
)
def test_lines_through_one_point_moved_by_noise_still_meet_once(
    centre: tuple[float, float], first: float, spreads: list[float], seed: int,
) -> None:
    """Three to five segments through one point, at angles 0.5 to 10 degrees apart, each end moved by up to
    1e-6: pairwise they cross up to 1e-6 / sine (2e-4) apart, but some crossing lies within the tolerance of
    each other segment, so at a tolerance of 1e-5 they meet at one vertex, as the exact ones do."""
    point = np.array(centre)
    angles = first + np.concatenate([[0.0], np.cumsum(spreads)])
    exact = np.array([_through(point, angle) for angle in angles])
    moved = exact + np.random.default_rng(seed).uniform(-1e-6, 1e-6, exact.shape)
    reference = planarize_segments(exact, 1e-9)
    graph = planarize_segments(moved, 1e-5)
    assert len(reference.vertices_coords) == len(graph.vertices_coords) == 2 * len(angles) + 1
    assert len(reference.edges_vertices) == len(graph.edges_vertices) == 2 * len(angles)


@settings(max_examples=60, deadline=None)
@given(angle=st.floats(0.3, 20), lift=st.floats(-1e-6, 1e-6), along=st.floats(0.2, 0.8))
def test_a_segment_ending_on_another_at_a_shallow_angle_meets_it_once(angle: float, lift: float, along: float) -> None:
    """A segment leaving another at a shallow angle from a point of it, that point moved off the other by up
    to 1e-6: within the tolerance it lies on it and the two meet there; the unmoved end would cross the other
    segment a second time up to 1e-6 / sine away (2e-4), a sliver the exact drawing does not have."""
    start = np.array([along, 0.5 + lift])
    direction = np.array([np.cos(np.radians(angle)), np.sin(np.radians(angle))])
    segments = np.array([[[0.0, 0.5], [1.0, 0.5]], [start, start + 0.1 * direction]])
    graph = planarize_segments(segments, 1e-5)
    assert len(graph.vertices_coords) == 4 and len(graph.edges_vertices) == 3
