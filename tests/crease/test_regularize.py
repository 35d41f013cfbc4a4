"""Regularisation of noisy patterns (Kawasaki made exact by the least movement) and the folded gaps a tolerance
may not close (a sliver of overlap is a feature of the design, not noise)."""

from __future__ import annotations

import functools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from foldbench.crease.graph.local_checks import check_vertices, vertices_creases
from foldbench.crease.graph.pattern import CreasePattern, build_crease_pattern
from foldbench.crease.graph.regularize import REGULARIZED_RESIDUAL, regularize_kawasaki
from foldbench.crease.layers.folding import fold_faces
from foldbench.crease.precision.folded_gaps import GAP_NOISE_FACTOR, genuine_gaps, narrow_gaps
from foldbench.crease.summary import summarize

from .builders import jitter
from .tessellations import shrink_rotate


def _square_twist() -> tuple[np.ndarray, list[str]]:
    segments, letters = shrink_rotate("square", 6, math.radians(30), 0.5)
    size = float(np.ptp(segments.reshape(-1, 2), axis=0).max())
    return (segments - segments.reshape(-1, 2).min(axis=0)) / size, letters


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), amount=st.sampled_from([1e-7, 1e-6, 1e-5]))
def test_regularising_a_jittered_tessellation_makes_kawasaki_exact_by_a_small_move(seed: int, amount: float) -> None:
    segments, letters = _square_twist()
    pattern = build_crease_pattern(jitter(segments, amount, seed), letters)
    before = check_vertices(pattern)
    assert max(before.kawasaki_errors.values()) > 1e-9  # the jitter broke Kawasaki
    result = regularize_kawasaki(pattern)
    assert result.residual < REGULARIZED_RESIDUAL
    # every vertex moved by about the noise, not more: the nearest exact pattern is that close
    assert 0 < result.moved < 20 * amount
    _, on_boundary = vertices_creases(pattern)
    boundary = np.flatnonzero(on_boundary)
    assert np.array_equal(result.pattern.vertices_coords[boundary], pattern.vertices_coords[boundary])
    assert np.array_equal(result.pattern.edges_vertices, pattern.edges_vertices)
    # faces around each vertex close up, so the folded vertices agree wherever they are reached from
    assert fold_faces(pattern).worst_mismatch > 1e3 * fold_faces(result.pattern).worst_mismatch
    assert fold_faces(result.pattern).worst_mismatch < 1e-11
    assert max(check_vertices(result.pattern).kawasaki_errors.values()) < REGULARIZED_RESIDUAL


def test_a_rounded_twist_with_no_trustworthy_tolerance_counts_its_state_on_the_regularised_pattern() -> None:
    """Rounded to 1e-4, the square twist tessellation's folded vertices disagree so much that no folded tolerance
    is sound; moved by at most the snap tolerance it meets Kawasaki exactly and folds in its one state."""
    segments, letters = _square_twist()
    summary = summarize(build_crease_pattern(np.round(segments, 4), letters), timeout=60)
    assert summary["error"] is None and summary["states"] == 1
    assert 0 < summary["regularized_moved"] <= summary["snap_tolerance"]
    assert summary["input_precision"] > 0
    assert any(warning.startswith("regularised:") for warning in summary["warnings"])


def test_regularisation_is_refused_when_it_would_move_a_vertex_beyond_the_snap_tolerance() -> None:
    segments, letters = _square_twist()
    summary = summarize(build_crease_pattern(np.round(segments / 2e-4) * 2e-4, letters), timeout=60)
    error = summary["error"]
    assert error is not None and error["code"] == "E_PRECISION_TOLERANCE"
    needed = error["where"]["regularization"]
    assert needed["moved"] > needed["allowed"]


def test_an_exact_pattern_is_never_regularised() -> None:
    segments, letters = _square_twist()
    summary = summarize(build_crease_pattern(segments, letters))
    assert summary["states"] == 1 and summary["regularized_moved"] == 0
    assert not any(warning.startswith("regularised:") for warning in summary["warnings"])


@functools.cache
def _square_twist_pattern() -> CreasePattern:
    """The exact square twist's pattern, built once: the property below only reads its edges."""
    return build_crease_pattern(*_square_twist())


@settings(max_examples=40, deadline=None)
@given(
    width=st.floats(2e-6, 1e-3),
    along=st.floats(0.2, 0.8),
    side=st.sampled_from([-1.0, 1.0]),
    angle=st.floats(0, 2 * math.pi),
)
def test_narrow_gaps_finds_a_vertex_near_an_edge_at_its_distance(
    width: float, along: float, side: float, angle: float
) -> None:
    """A vertex ``width`` away from the interior of an edge is a gap of that width between the two bounds, and
    none outside them."""
    pattern = _square_twist_pattern()
    direction = np.array([math.cos(angle), math.sin(angle)])
    normal = np.array([-direction[1], direction[0]])
    # every other vertex far away on the other side of the edge, so that no other edge passes near the gap
    spread = np.arange(pattern.vertex_count)[:, None]
    coords = -side * normal * (10.0 + 5.0 * spread) + direction * (spread % 7)
    first, second = pattern.edges_vertices[0]
    coords[first], coords[second] = np.zeros(2), direction * 0.1
    loose = next(v for v in range(pattern.vertex_count) if v not in (first, second))
    coords[loose] = direction * 0.1 * along + side * width * normal
    pairs, kinds = narrow_gaps(pattern, coords, width / 2, width * 2)
    assert pairs.tolist() == [[loose, 0]] and kinds.tolist() == [1]
    assert not len(narrow_gaps(pattern, coords, width * 2, width * 4)[0])


def test_a_rigid_gap_is_genuine_and_a_gap_the_noise_opened_is_not() -> None:
    """Folded gaps that do not move when the input moves (two vertices of one face) are the design; gaps that
    move by their own width (points meant to coincide, pulled apart by rounding) are noise."""
    segments, letters = _square_twist()
    exact = build_crease_pattern(segments, letters)
    folded = fold_faces(exact)
    # no gap of the exact tessellation lies between 1e-6 and 1e-3: nothing to judge
    assert not genuine_gaps(exact, folded, 1e-3, 1e-6)
    noisy = build_crease_pattern(jitter(segments, 3e-6, 7), letters)
    noisy_folded = fold_faces(noisy)
    tolerance = 8 * noisy_folded.worst_mismatch
    assert len(narrow_gaps(noisy, noisy_folded.vertices_coords_folded, 1e-6, tolerance)[0]) > 0
    assert not genuine_gaps(noisy, noisy_folded, tolerance, 3e-6)
    # judged as exact input (no noise to explain them), the same gaps are all genuine
    assert genuine_gaps(noisy, noisy_folded, tolerance, 0.0)


CORPUS_LANG = {  # Lang's tessellations written with rounded coordinates: the reference's (states, variables)
    "049_lang_Egg13-3_Tessellation.fold": (1, 1136),
    "041_lang_5-Fold_2-Layer_Weave.fold": (1073741824, 1830),
    "361_lang_Squaring_the_Circle.fold": (1, 1552),
    "354_lang_rings4.fold": (1, 2074),
    "025_lang_Golden_Weave.fold": (4194304, 3138),
    "019_lang_Rings8.fold": (1, 4590),
}


@pytest.mark.parametrize("name", sorted(CORPUS_LANG))
def test_rounded_lang_tessellations_agree_with_the_reference(name: str) -> None:
    """No folded tolerance of the usual series is sound for them; regularised within the snap tolerance (or,
    for Egg13-3, at a level of the halfway series that the folded vertices' disagreement does not change)
    they give the reference's states and variables."""
    from tests.support.shared import SHARED

    from .test_corpus import CORPUS, _rows

    if not SHARED.is_dir():
        pytest.skip(f"no ../shared beside the repository ({SHARED})")
    path = CORPUS / "instagram" / name
    row = _rows("instagram")[name[:3]]
    assert (int(row["states"]), int(row["variables"])) == CORPUS_LANG[name]
    summary = summarize(path)
    assert summary["error"] is None
    assert (summary["states"], summary["variables"]) == CORPUS_LANG[name]
    if name.startswith("049_"):
        assert summary["regularized_moved"] == 0 and summary["folded_tolerance"] > summary["snap_tolerance"]
    else:
        assert 0 < summary["regularized_moved"] <= summary["snap_tolerance"]


def test_a_jittered_brochure_fold_keeps_its_two_states_and_is_not_regularised() -> None:
    """Its folded vertices agree exactly (no interior vertex): the flaps' edges, pulled 3e-6 apart by the
    jitter, are noise, and nothing about Kawasaki could be improved by moving vertices."""
    segments = np.array([[[0, 0], [1, 0]], [[1, 0], [1, 1]], [[1, 1], [0, 1]], [[0, 1], [0, 0]],
                         [[1 / 3, 0], [1 / 3, 1]], [[2 / 3, 0], [2 / 3, 1]]])
    summary = summarize(build_crease_pattern(jitter(segments, 1e-6, 22684603, shared=False), "BBBBVV"))
    assert summary["states"] == 2 and summary["regularized_moved"] == 0


def test_a_gap_between_the_doubt_and_the_noise_factors_is_returned_as_doubtful() -> None:
    """With a doubt factor, gaps wider than it but not GAP_NOISE_FACTOR times their movement come back marked
    ``certain=False``; without one the same gaps are noise."""
    segments, letters = _square_twist()
    noisy = build_crease_pattern(jitter(segments, 3e-6, 7), letters)
    folded = fold_faces(noisy)
    tolerance = 8 * folded.worst_mismatch
    every = genuine_gaps(noisy, folded, tolerance, 3e-6, doubt_factor=1e-9)
    assert every and not any(gap.certain for gap in every)
    assert all(gap.width > 1e-9 * gap.noise for gap in every)
    assert not genuine_gaps(noisy, folded, tolerance, 3e-6)
    assert genuine_gaps(noisy, folded, tolerance, 3e-6, doubt_factor=GAP_NOISE_FACTOR) == []
