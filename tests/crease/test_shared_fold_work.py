"""Work that folding and gap judging share is made once and is what each would make on its own, to the bit."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from foldbench.crease.graph.local_checks import vertices_creases
from foldbench.crease.graph.pattern import build_crease_pattern
from foldbench.crease.graph.regularize import kawasaki_system, kawasaki_topology
from foldbench.crease.layers.folding import crossing_order, fold_faces, fold_plan, pattern_crossings
from foldbench.crease.precision.folded_gaps import GapJudge, _refold, narrow_gaps, noise_judge
from foldbench.crease.simple_folds import random_simple_folds


def _jittered(seed: int, folds: int, grid: int | None, amount: float) -> tuple[np.ndarray, list[str]]:
    """Random simple folds with every distinct point moved by up to ``amount`` (paper size 1)."""
    rng = np.random.default_rng(seed)
    pattern = random_simple_folds(rng, folds, grid=grid)
    points, inverse = np.unique(pattern.segments.reshape(-1, 2), axis=0, return_inverse=True)
    moves = rng.uniform(-amount, amount, points.shape)
    return (points + moves)[inverse.ravel()].reshape(pattern.segments.shape), list(pattern.assignments)


def _same_plan(first: object, second: object) -> None:
    assert len(first.levels) == len(second.levels)
    for one, other in zip(first.levels, second.levels, strict=True):
        assert all(np.array_equal(a, b) for a, b in zip(one, other, strict=True))
    for name in ("faces", "others", "edges", "reflecting"):
        assert np.array_equal(getattr(first, name), getattr(second, name))


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.integers(1, 5), st.sampled_from([None, 8]))
def test_kept_crossings_are_the_patterns_own(seed: int, folds: int, grid: int | None) -> None:
    segments, letters = _jittered(seed, folds, grid, 0.0)
    pattern = build_crease_pattern(segments, letters)
    other = build_crease_pattern(*_jittered(seed + 1, folds % 5 + 1, grid, 0.0))
    order, plan = pattern_crossings(pattern)
    assert order == crossing_order(pattern)
    _same_plan(plan, fold_plan(pattern, order))
    pattern_crossings(other)  # another pattern in between: both are kept
    assert pattern_crossings(pattern)[1] is plan
    moved = replace(pattern, vertices_coords=pattern.vertices_coords + 1e-9)  # the same graph, moved
    assert pattern_crossings(moved)[1] is plan
    relettered = replace(pattern, edges_assignment=tuple(list(pattern.edges_assignment)))  # equal, another
    assert pattern_crossings(relettered)[1] is not plan
    assert pattern_crossings(other)[0] == crossing_order(other)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**6), st.integers(1, 5), st.sampled_from([None, 8]))
def test_the_judges_kept_reference_is_a_fresh_refold(seed: int, folds: int, grid: int | None) -> None:
    pattern = build_crease_pattern(*_jittered(seed, folds, grid, 1e-6))
    folded = fold_faces(pattern)
    judge = noise_judge(pattern, folded, max(pattern.input_precision, 1e-7))
    pairs, kinds = narrow_gaps(pattern, folded.vertices_coords_folded, 0.0, 1e-2)
    assume(len(pairs) > 0 and judge.amplitude > 0)
    widths, worst = judge.worst_moves(pairs, kinds, projected=False)
    assert judge._start is not None and judge._reference is not None
    fresh = _refold(pattern, judge._start[None])[0]
    assert fresh.tobytes() == judge._reference.tobytes()
    again = judge.worst_moves(pairs, kinds, projected=False)
    assert again[0].tobytes() == widths.tobytes() and again[1].tobytes() == worst.tobytes()
    # a judge made afresh, whose reference is refolded on the spot, bounds the gaps to the same bits
    other = GapJudge(pattern, folded, judge.amplitude, measured=judge.measured_amplitude)
    other._prepare()
    other._reference = None
    bounds = other.worst_moves(pairs, kinds, projected=False)
    assert bounds[0].tobytes() == widths.tobytes() and bounds[1].tobytes() == worst.tobytes()


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.integers(1, 5), st.sampled_from([None, 8]), st.sampled_from([0.0, 1e-6]))
def test_a_kawasaki_system_from_kept_topology_is_the_one_made_afresh(
    seed: int, folds: int, grid: int | None, amount: float
) -> None:
    pattern = build_crease_pattern(*_jittered(seed, folds, grid, amount))
    creases, on_boundary = vertices_creases(pattern)
    vertices = [v for v in range(pattern.vertex_count) if not on_boundary[v] and len(creases[v]) >= 2]
    topology = kawasaki_topology(pattern, vertices, creases)
    rng = np.random.default_rng(seed)
    for _ in range(3):  # one topology serves systems at several coordinates, as the Newton steps use it
        coords = pattern.vertices_coords + rng.uniform(-1e-4, 1e-4, pattern.vertices_coords.shape)
        kept = kawasaki_system(pattern, coords, vertices, creases, topology)
        fresh = kawasaki_system(pattern, coords, vertices, creases)
        assert [part.tobytes() for part in kept] == [part.tobytes() for part in fresh]
        assert [part.dtype for part in kept] == [part.dtype for part in fresh]
