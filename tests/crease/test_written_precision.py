"""Patterns written at the precision FOLD exporters use (coordinates off by 1e-9 to 1e-15, or rounded to 9 to 15
decimals) keep the exact pattern's count: such digits are rounding, not noise that could close a folded gap
(rabbit-ear's and Flat-Folder's own test files are written this way, and both count them exactly)."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from foldbench.crease.compiler import compile_crease_pattern
from foldbench.crease.graph.pattern import CreasePattern, build_crease_pattern
from foldbench.crease.io.fold_format import pattern_from_fold

from .builders import fold_document, map_pattern
from .tessellations import shrink_rotate


def _triangle_twists(count: int) -> CreasePattern:
    """A triangle-twist tessellation (hexagons and triangles) on a paper of size 1, every crease assigned."""
    segments, letters = shrink_rotate("triangle", count, math.radians(40), 0.5)
    points = segments.reshape(-1, 2)
    return build_crease_pattern((segments - points.min(axis=0)) / float(np.ptp(points, axis=0).max()), letters)


def _written(
    pattern: CreasePattern, *, noise: float = 0.0, decimals: int | None = None, seed: int = 0
) -> CreasePattern:
    """The pattern as a FOLD file writes it: each vertex moved once by up to ``noise``, or rounded."""
    document = fold_document(pattern)
    coords = np.asarray(document["vertices_coords"], dtype=float)
    if decimals is not None:
        coords = np.round(coords, decimals)
    else:
        coords = coords + np.random.default_rng(seed).uniform(-noise, noise, coords.shape)
    return pattern_from_fold({**document, "vertices_coords": coords.tolist()})


PATTERNS = {
    "triangle twists (hexagonal dual), 3 rows": lambda: _triangle_twists(3),
    "triangle twists (hexagonal dual), 5 rows": lambda: _triangle_twists(5),
    "2 x 3 map, unassigned": lambda: map_pattern(2, 3),
}


@settings(max_examples=8, deadline=None)
@given(name=st.sampled_from(sorted(PATTERNS)), exponent=st.integers(9, 15), seed=st.integers(0, 2**16))
def test_a_pattern_written_with_rounding_noise_keeps_its_count(name: str, exponent: int, seed: int) -> None:
    pattern = PATTERNS[name]()
    exact = compile_crease_pattern(pattern)
    written = compile_crease_pattern(_written(pattern, noise=10.0**-exponent, seed=seed))
    assert exact.state_count >= 1 and not exact.solution.stopped
    assert written.state_count == exact.state_count
    assert len(written.constraints.variables_faces) == len(exact.constraints.variables_faces)


@settings(max_examples=5, deadline=None)
@given(name=st.sampled_from(sorted(PATTERNS)), decimals=st.integers(9, 15))
def test_a_pattern_rounded_to_9_to_15_decimals_keeps_its_count(name: str, decimals: int) -> None:
    pattern = PATTERNS[name]()
    assert compile_crease_pattern(_written(pattern, decimals=decimals)).state_count == \
        compile_crease_pattern(pattern).state_count
