"""Folding by breadth-first levels gives, bit for bit, what crossing the creases one at a time gives: the face
maps of :func:`fold_faces` and the trial refolds of the gap judge."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from foldbench.crease.graph.pattern import CreasePattern, build_crease_pattern
from foldbench.crease.layers.folding import _face_transforms, crossing_order, fold_plan
from foldbench.crease.precision.folded_gaps import _refold
from foldbench.crease.simple_folds import random_simple_folds

from .builders import CUBE_NETS, jitter, polyomino_segments


def one_crossing_at_a_time(pattern: CreasePattern, coords: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each face's map, crossing one crease after another in breadth-first order (the reference)."""
    matrices = np.zeros((pattern.face_count, 2, 2))
    shifts = np.zeros((pattern.face_count, 2))
    matrices[0] = np.eye(2)
    for face, other, edge in crossing_order(pattern):
        if pattern.edges_assignment[edge] == "F":
            matrices[other], shifts[other] = matrices[face], shifts[face]
            continue
        start, end = coords[pattern.edges_vertices[edge]]
        direction = (end - start) / np.hypot(*(end - start))
        reflection = 2 * np.outer(direction, direction) - np.eye(2)
        matrices[other] = matrices[face] @ reflection
        shifts[other] = matrices[face] @ (start - reflection @ start) + shifts[face]
    return matrices, shifts


def refold_one_at_a_time(pattern: CreasePattern, coords: np.ndarray) -> np.ndarray:
    """Folded vertices of a batch of coordinates ``(t, n, 2)``, each trial folded crease by crease."""
    trials = len(coords)
    matrices = np.zeros((trials, pattern.face_count, 2, 2))
    shifts = np.zeros((trials, pattern.face_count, 2))
    matrices[:, 0] = np.eye(2)
    for face, other, edge in crossing_order(pattern):
        if pattern.edges_assignment[edge] == "F":
            matrices[:, other], shifts[:, other] = matrices[:, face], shifts[:, face]
            continue
        start, end = coords[:, pattern.edges_vertices[edge, 0]], coords[:, pattern.edges_vertices[edge, 1]]
        direction = (end - start) / np.hypot(*(end - start).T)[:, None]
        reflection = 2 * direction[:, :, None] * direction[:, None, :] - np.eye(2)
        offset = start - np.einsum("tij,tj->ti", reflection, start)
        matrices[:, other] = matrices[:, face] @ reflection
        shifts[:, other] = np.einsum("tij,tj->ti", matrices[:, face], offset) + shifts[:, face]
    first_face = np.zeros(pattern.vertex_count, dtype=np.int64)
    for face, vertices in reversed(list(enumerate(pattern.faces_vertices))):
        first_face[list(vertices)] = face
    return np.einsum("tvij,tvj->tvi", matrices[:, first_face], coords) + shifts[:, first_face]


def _pattern(seed: int, folds: int, grid: bool, noisy: bool) -> CreasePattern:
    rng = np.random.default_rng(seed)
    pattern = random_simple_folds(rng, folds, grid=8 if grid else None)
    segments = jitter(pattern.segments, 1e-6, seed) if noisy else pattern.segments
    return build_crease_pattern(segments, list(pattern.assignments))


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.integers(1, 6), st.booleans(), st.booleans())
def test_levels_give_the_face_maps_of_one_crossing_at_a_time(seed: int, folds: int, grid: bool, noisy: bool) -> None:
    pattern = _pattern(seed, folds, grid, noisy)
    order = crossing_order(pattern)
    matrices, shifts = _face_transforms(pattern, pattern.vertices_coords, order)
    expected_matrices, expected_shifts = one_crossing_at_a_time(pattern, pattern.vertices_coords)
    assert np.array_equal(matrices, expected_matrices)
    assert np.array_equal(shifts, expected_shifts)
    plan = fold_plan(pattern, order)
    placed = sorted(plan.others.tolist())
    assert placed == sorted(set(placed)) and 0 not in placed  # every face placed once, face 0 never


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.integers(1, 6), st.booleans())
def test_batched_refolds_match_refolding_crease_by_crease(seed: int, folds: int, grid: bool) -> None:
    pattern = _pattern(seed, folds, grid, noisy=False)
    moves = np.random.default_rng(seed).uniform(-1e-6, 1e-6, (5, *pattern.vertices_coords.shape))
    coords = pattern.vertices_coords[None] + moves
    assert np.array_equal(_refold(pattern, coords), refold_one_at_a_time(pattern, coords))


def test_a_cube_net_with_flat_edges_folds_level_by_level() -> None:
    segments, letters = polyomino_segments(list(CUBE_NETS[0]))
    letters = ["F" if letter != "B" and index % 2 else letter for index, letter in enumerate(letters)]
    pattern = build_crease_pattern(segments, letters)
    order = crossing_order(pattern)
    plan = fold_plan(pattern, order)
    assert len(plan.levels) < len(order)  # some level places several faces at once
    matrices, shifts = _face_transforms(pattern, pattern.vertices_coords, order)
    expected_matrices, expected_shifts = one_crossing_at_a_time(pattern, pattern.vertices_coords)
    assert np.array_equal(matrices, expected_matrices) and np.array_equal(shifts, expected_shifts)
