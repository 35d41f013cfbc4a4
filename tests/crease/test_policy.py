"""The precision policy is the one place the compiler's tolerances live: changing a field changes the answer for
a pattern on that field's boundary, and no stage reads a tolerance of its own."""

from __future__ import annotations

import ast
import math
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import foldbench.crease as crease
from foldbench.crease.compiler import compile_crease_pattern
from foldbench.crease.errors import SelfIntersection
from foldbench.crease.graph.local_checks import check_vertices
from foldbench.crease.graph.pattern import build_crease_pattern
from foldbench.crease.io.fold_format import pattern_from_fold
from foldbench.crease.precision import tolerance
from foldbench.crease.precision.policy import DEFAULT_POLICY, PrecisionPolicy

from .builders import UNIT_SQUARE, centre_vertex, fold_document
from .test_overlay import _letter_fold

STAGES = ("graph/pattern", "precision/measure", "graph/planar", "graph/local_checks", "layers/folding",
          "layers/cells", "precision/overlay", "precision/folded_gaps", "graph/regularize", "compiler", "io/importers",
          "io/fold_format")
"""The modules of the compiler's stages, from reading to counting."""

DEGENERACY_GUARDS = {("graph/planar", 1e-12)}
"""Literals that guard against a division by (almost) zero, not a precision decision: the sine below which two
segments that are not within the snap distance of each other count as parallel."""


def _two_valleys(gap: float) -> tuple[np.ndarray, str]:
    """The unit square with two parallel valley creases ``gap`` apart: one crease drawn twice, or a sliver."""
    creases = [[[0.5, 0.0], [0.5, 1.0]], [[0.5 + gap, 0.0], [0.5 + gap, 1.0]]]
    return np.array([*UNIT_SQUARE.tolist(), *creases], dtype=float), "BBBBVV"


@settings(max_examples=12, deadline=None)
@given(exponent=st.floats(min_value=-6.5, max_value=-4.5), margin=st.floats(min_value=1.2, max_value=3.0))
def test_the_snap_distance_decides_whether_two_close_creases_are_one(exponent: float, margin: float) -> None:
    """Two valleys ``gap`` apart merge into one when the policy's snap distance exceeds the gap (one state of a
    square folded in half) and stay two otherwise (a sliver face between two valleys: no flat folding)."""
    gap = 10.0**exponent
    segments, letters = _two_valleys(gap)
    wide = DEFAULT_POLICY.with_changes(crease_distance=gap * margin, import_limit=max(gap * margin, 1e-4))
    narrow = DEFAULT_POLICY.with_changes(crease_distance=gap / margin)
    merged = build_crease_pattern(segments, letters, policy=wide)
    apart = build_crease_pattern(segments, letters, policy=narrow)
    assert (merged.face_count, apart.face_count) == (2, 3)
    assert merged.snap_tolerance == gap * margin and merged.policy is wide
    assert compile_crease_pattern(merged).state_count == 1
    with pytest.raises(SelfIntersection):
        compile_crease_pattern(apart)


def test_the_snap_distance_reaches_the_readers() -> None:
    """A FOLD document read with a policy is built with it, and the pattern carries the policy on."""
    segments, letters = _two_valleys(3e-6)
    document = fold_document(build_crease_pattern(segments, letters))
    wide = DEFAULT_POLICY.with_changes(crease_distance=1e-5)
    assert pattern_from_fold(document).face_count == 3
    read = pattern_from_fold(document, policy=wide)
    assert read.face_count == 2 and read.policy is wide


def test_the_least_noise_decides_whether_an_overhang_is_the_design() -> None:
    """The letter fold whose ends overhang by 1.1e-6: a jitter of the default least noise (1e-6) can close the
    overhang, so the flush fold's two states are counted; judged against a least noise of 1e-8, nothing can
    close it, and the overhang is the self-intersection the exact drawing has. The policy given to the compiler
    reaches the gap judge."""
    pattern = build_crease_pattern(*_letter_fold(1.1e-6))
    assert compile_crease_pattern(pattern).state_count == 2
    strict = DEFAULT_POLICY.with_changes(least_noise=1e-8)
    with pytest.raises(SelfIntersection):
        compile_crease_pattern(pattern, policy=strict)
    with pytest.raises(SelfIntersection):
        compile_crease_pattern(build_crease_pattern(*_letter_fold(1.1e-6), policy=strict))


@settings(max_examples=10, deadline=None)
@given(error=st.floats(min_value=2e-6, max_value=5e-4))
def test_the_angle_tolerance_decides_which_vertices_are_imprecise(error: float) -> None:
    """A vertex missing Kawasaki by ``error`` radians is approximately flat under a policy whose angle tolerance
    is below the error, and exact under one above it."""
    pattern = centre_vertex([(0, "M"), (90 + math.degrees(error), "M"), (180, "M"), (270, "V")])
    measured = max(check_vertices(pattern).kawasaki_errors.values())
    assert measured == pytest.approx(error, rel=1e-3)
    below = DEFAULT_POLICY.with_changes(angle=error / 2)
    above = DEFAULT_POLICY.with_changes(angle=error * 2)
    assert check_vertices(replace(pattern, policy=below)).imprecise_vertices
    assert not check_vertices(replace(pattern, policy=above)).imprecise_vertices


def test_the_default_policy_keeps_the_values_of_the_old_names() -> None:
    """The constants of :mod:`foldbench.crease.precision.tolerance` are the default policy's fields (public API
    kept)."""
    pairs = {"CREASE_DISTANCE_TOLERANCE": 1e-7, "FOLDED_DISTANCE_TOLERANCE": 1e-6, "FOLDED_TOLERANCE_FLOOR": 1e-11,
             "ANGLE_TOLERANCE": 1e-6, "AREA_TOLERANCE": 1e-12, "PRECISION_MARGIN": 1e3,
             "FOLDED_MISMATCH_FACTOR": 8.0, "FOLDED_MISMATCH_LIMIT": 1e-2, "KAWASAKI_IMPOSSIBLE": 1e-2,
             "EXACT_ANGLE": 1e-10, "NOISE_ANGLE_LIMIT": 1e-5, "SNAP_FACTOR": 8.0, "ANGLE_NOISE_FACTOR": 10.0,
             "NOISE_FEATURE_FACTOR": 16.0, "NOISE_CROSSING_FACTOR": 1000.0, "NOISE_GAP_RATIO": 100.0,
             "TINY_OVERLAP_LIMIT": 5e-5, "LEAST_NOISE": 1e-6, "IMPORT_TOLERANCE_LIMIT": 1e-4}
    assert {name: getattr(tolerance, name) for name in pairs} == pairs
    assert PrecisionPolicy() == DEFAULT_POLICY


def test_a_policy_change_must_name_a_field_and_a_positive_number() -> None:
    with pytest.raises(ValueError, match="unknown precision policy field 'snap'"):
        DEFAULT_POLICY.with_changes(snap=1e-6)
    for bad in (0.0, -1e-7, math.nan, "1e-7", True):
        with pytest.raises(ValueError, match="must be a positive number"):
            DEFAULT_POLICY.with_changes(crease_distance=bad)


def _small_literals(path: Path) -> list[float]:
    """Float literals below 1e-3 in a module's code (docstrings and doctests are strings, not code)."""
    tree = ast.parse(path.read_text())
    return [node.value for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, float) and 0 < abs(node.value) < 1e-3]


@pytest.mark.parametrize("stage", STAGES)
def test_no_stage_keeps_a_tolerance_of_its_own(stage: str) -> None:
    """The stages read every tolerance from the policy: none imports the old constants, none writes a small
    number of its own (but the degeneracy guards listed above)."""
    path = Path(crease.__file__).parent / f"{stage}.py"
    tree = ast.parse(path.read_text())
    imported = [node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]
    assert "foldbench.crease.precision.tolerance" not in imported
    assert [value for value in _small_literals(path) if (stage, value) not in DEGENERACY_GUARDS] == []
