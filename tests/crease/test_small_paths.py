"""The plain-Python paths for small inputs give what the array code gives, to the last bit."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import foldbench.crease.graph.planar as planar
import foldbench.crease.layers.layer_constraints as layer_constraints
import foldbench.crease.precision.measure as measure
from foldbench.crease.errors import PrecisionProblem
from foldbench.crease.graph.pattern import build_crease_pattern
from foldbench.crease.graph.planar import find_faces, planarize_segments
from foldbench.crease.layers.folding import fold_faces
from foldbench.crease.simple_folds import random_simple_folds


def _grid_segments(size: int, diagonals: list[bool], seed: int, noise: float) -> np.ndarray:
    """A ``size`` by ``size`` grid with some cells cut by a diagonal, each point moved by up to ``noise``."""
    segments = [((x, y), (x + 1, y)) for x in range(size) for y in range(size + 1)]
    segments += [((x, y), (x, y + 1)) for x in range(size + 1) for y in range(size)]
    cells = [(x, y) for x in range(size) for y in range(size)]
    segments += [((x, y), (x + 1, y + 1)) for (x, y), cut in zip(cells, diagonals, strict=False) if cut]
    array = np.array(segments, dtype=float)
    points, inverse = np.unique(array.reshape(-1, 2), axis=0, return_inverse=True)
    moves = np.random.default_rng(seed).uniform(-noise, noise, points.shape)
    return (points + moves)[inverse.ravel()].reshape(array.shape)


def _faces_both_ways(vertices: np.ndarray, edges: np.ndarray, monkeypatch: pytest.MonkeyPatch) -> tuple:
    small = find_faces(vertices, edges)
    with monkeypatch.context() as patch:
        patch.setattr(planar, "FEW_FACE_EDGES", -1)
        arrays = find_faces(vertices, edges)
    return small, arrays


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 5), st.lists(st.booleans(), max_size=25), st.integers(0, 2**32 - 1),
       st.sampled_from([0.0, 1e-9, 1e-6]))
def test_faces_of_small_graphs_are_the_array_codes_faces(
    size: int, diagonals: list[bool], seed: int, noise: float
) -> None:
    graph = planarize_segments(_grid_segments(size, diagonals, seed, noise), 1e-7)
    with pytest.MonkeyPatch.context() as monkeypatch:
        small, arrays = _faces_both_ways(graph.vertices_coords, graph.edges_vertices, monkeypatch)
    assert len(graph.edges_vertices) <= planar.FEW_FACE_EDGES
    assert small.faces_vertices == arrays.faces_vertices
    assert small.faces_edges == arrays.faces_edges
    assert small.outer_cycles == arrays.outer_cycles
    assert small.faces_areas == arrays.faces_areas
    assert small.edges_faces.dtype == arrays.edges_faces.dtype == np.int64
    assert small.edges_faces.flags.c_contiguous
    assert small.edges_faces.tolist() == arrays.edges_faces.tolist()
    assert len(small.faces_vertices) == size * size + sum(diagonals[: size * size])


def test_a_vertex_with_one_edge_and_a_slit_walk_the_same_way(monkeypatch: pytest.MonkeyPatch) -> None:
    # a square with a dangling edge inside: the face walks down the slit and back
    vertices = np.array([[0, 0], [1, 0], [1, 1], [0, 1], [0.5, 0.5]], dtype=float)
    edges = np.array([[0, 1], [1, 2], [2, 3], [3, 0], [0, 4]])
    small, arrays = _faces_both_ways(vertices, edges, monkeypatch)
    assert small.faces_vertices == arrays.faces_vertices == ((0, 1, 2, 3, 0, 4),)
    assert small.edges_faces.tolist() == arrays.edges_faces.tolist() == [[0, -1]] * 4 + [[0, 0]]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(-1e3, 1e3, allow_nan=False), min_size=1, max_size=60), st.integers(0, 8),
       st.booleans())
def test_written_precision_at_once_is_one_number_of_decimals_at_a_time(
    values: list[float], decimals: int, rounded: bool
) -> None:
    points = np.round(np.array(values), decimals) if rounded else np.array(values)
    at_once = measure.written_precision(points, 100.0)
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(measure, "WRITTEN_AT_ONCE", 0)
        one_at_a_time = measure.written_precision(points, 100.0)
    assert at_once == one_at_a_time
    if rounded and 1 <= decimals <= 6 and not np.allclose(points, np.round(points, decimals - 1), rtol=0, atol=0):
        assert at_once == 0.5 * 10.0**-decimals / 100.0


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(-(2**40), 2**40), max_size=80))
def test_dense_labels_are_numpys_unique_inverse(labels: list[int]) -> None:
    array = np.array(labels, dtype=np.int64)
    dense = np.array(layer_constraints._dense_labels(array), dtype=np.int64)
    assert dense.tolist() == np.unique(array, return_inverse=True)[1].ravel().tolist()


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 12).flatmap(lambda faces: st.tuples(
    st.just(faces), st.lists(st.sets(st.integers(0, faces - 1), min_size=1, max_size=faces), max_size=30))))
def test_incidences_in_lists_are_the_array_codes(case: tuple[int, list[set[int]]]) -> None:
    face_count, cells = case
    cells_faces = tuple(tuple(sorted(cell)) for cell in cells)
    small = layer_constraints._incidences(cells_faces, face_count)
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(layer_constraints, "FEW_CELLS", -1)
        arrays = layer_constraints._incidences(cells_faces, face_count)
    for ours, theirs in zip(small, arrays, strict=True):
        assert ours.dtype == theirs.dtype == np.int64
        assert ours.tolist() == theirs.tolist()
    cell_offsets, _, face_offsets, face_cells = small
    assert cell_offsets[-1] == face_offsets[-1] == sum(len(cell) for cell in cells_faces)
    for face in range(face_count):
        assert face_cells[face_offsets[face]:face_offsets[face + 1]].tolist() == [
            index for index, cell in enumerate(cells_faces) if face in cell]


@pytest.mark.parametrize("seed", range(12))
def test_face_flips_are_the_signs_of_the_determinants(seed: int) -> None:
    rng = np.random.default_rng(seed)
    folds = random_simple_folds(rng, 1 + seed % 5, grid=None if seed % 2 else 8)
    folded = fold_faces(build_crease_pattern(folds.segments, list(folds.assignments)))
    assert folded.faces_flipped.tolist() == (np.linalg.det(folded.faces_matrix) < 0).tolist()
    assert folded.faces_flipped.any() == (len(folded.faces_flipped) > 1)


@settings(max_examples=200, deadline=None)
@given(st.integers(2, 9).flatmap(lambda faces: st.tuples(
    st.just(faces),
    st.sets(st.tuples(st.integers(0, faces - 1), st.integers(0, faces - 1)).filter(lambda p: p[0] < p[1]),
            max_size=faces * (faces - 1) // 2),
    st.lists(st.tuples(st.integers(0, 2), st.permutations(range(faces)).map(lambda p: p[:4])), max_size=40))),
    st.booleans())
def test_slot_variables_in_lists_are_the_array_codes(case: tuple, every_pair: bool) -> None:
    face_count, pairs, constraints = case
    if every_pair:  # every slot finds its variable
        pairs = {(f, g) for f in range(face_count) for g in range(f + 1, face_count)}
    keys = np.array(sorted(f * face_count + g for f, g in pairs), dtype=np.int64)
    kinds = np.array([kind for kind, _ in constraints], dtype=np.int8)
    faces = np.array([[*chosen[: 3 if kind == 1 else 4], -1, -1, -1, -1][:4] for kind, chosen in constraints],
                     dtype=np.int32).reshape(-1, 4)

    def outcome(limit: int) -> tuple:
        with pytest.MonkeyPatch.context() as monkeypatch:
            monkeypatch.setattr(layer_constraints, "FEW_LOCAL_CONSTRAINTS", limit)
            try:
                variables, flipped = layer_constraints._slot_variables(kinds, faces, keys, face_count)
            except PrecisionProblem as problem:
                return problem.code, problem.message, problem.where
            return variables.dtype, variables.tolist(), flipped.dtype, flipped.tolist()

    assert outcome(10**6) == outcome(-1)


def _near_parallel_segments(directions: list[float], spreads: list[float], lengths: list[float]) -> np.ndarray:
    """Segments from the origin, each in one of ``directions`` turned by its share of ``spreads`` (radians)."""
    angles = [directions[i % len(directions)] + spreads[i] for i in range(len(spreads))]
    ends = [(length * np.cos(angle), length * np.sin(angle)) for angle, length in zip(angles, lengths, strict=False)]
    return np.array([((0.0, 0.0), end) for end in ends], dtype=float).reshape(-1, 2, 2)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([0.0, 0.3, np.pi / 2, np.pi - 1e-7, np.pi, 2.5]), min_size=1, max_size=4),
       st.lists(st.one_of(st.just(0.0), st.floats(-1e-5, 1e-5), st.floats(-1e-13, 1e-13)), min_size=1,
                max_size=40),
       st.lists(st.floats(0.0, 2.0), min_size=40, max_size=40))
def test_direction_noise_of_few_segments_is_the_array_codes(
    directions: list[float], spreads: list[float], lengths: list[float]
) -> None:
    segments = _near_parallel_segments(directions, spreads, lengths)
    few = measure.direction_noise(segments)
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(measure, "FEW_DIRECTIONS", -1)
        arrays = measure.direction_noise(segments)
    assert len(segments) <= measure.FEW_DIRECTIONS
    assert few == arrays


def test_direction_noise_of_few_segments_sees_a_tilted_parallel() -> None:
    # three parallel creases, the middle one tilted by 2e-6 over its unit length; a fourth alone
    segments = np.array([[[0, 0], [1, 0]], [[0, 0.5], [1, 0.5 + 2e-6]], [[0, 1], [1, 1]], [[0, 0], [0, 1]]], float)
    noise = measure.direction_noise(segments)
    assert 0.5e-6 < noise < 2e-6
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(measure, "FEW_DIRECTIONS", -1)
        assert measure.direction_noise(segments) == noise
