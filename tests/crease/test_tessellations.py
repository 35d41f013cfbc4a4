"""Real-world shapes the compiler meets: twist tessellations (exact, jittered, rounded as old exports are) and
pleated hyperbolic paraboloids, which cannot fold flat and must be rejected before the transitivity build."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from foldbench.crease import compiler
from foldbench.crease.compiler import compile_crease_pattern
from foldbench.crease.errors import CreasePatternError, GeometricallyImpossibleFold, PrecisionProblem, SelfIntersection
from foldbench.crease.graph.local_checks import check_vertices
from foldbench.crease.graph.pattern import build_crease_pattern
from foldbench.crease.layers import layer_constraints
from foldbench.crease.layers.folding import fold_faces
from foldbench.crease.layers.solver import STAGE_LOCAL
from foldbench.crease.precision.folded_gaps import GapJudge, noise_amplitude, noise_judge
from foldbench.crease.precision.tolerance import FOLDED_MISMATCH_FACTOR, LEAST_NOISE
from foldbench.crease.summary import summarize

from .builders import jitter
from .tessellations import cp_text, hyperbolic_paraboloid, opx_text, oripa_coordinates, shrink_rotate

TWISTS = {
    # a 6 x 6 square-twist tessellation (169 faces) and a triangle-twist tessellation with hexagonal dual
    # polygons (176 faces), both fully assigned
    "square": ("square", 6, math.radians(30), 0.5),
    "triangle": ("triangle", 5, math.radians(40), 0.5),
}


def _segments(name: str) -> tuple[np.ndarray, list[str]]:
    tiling, count, twist, scale = TWISTS[name]
    segments, letters = shrink_rotate(tiling, count, twist, scale)
    size = float(np.ptp(segments.reshape(-1, 2), axis=0).max())
    return (segments - segments.reshape(-1, 2).min(axis=0)) / size, letters


@pytest.mark.parametrize("name", sorted(TWISTS))
def test_an_exact_twist_tessellation_folds_in_one_state(name: str) -> None:
    segments, letters = _segments(name)
    pattern = build_crease_pattern(segments, letters)
    report = check_vertices(pattern)
    assert report.checked_vertices > 50 and not report.imprecise_vertices  # Kawasaki holds exactly everywhere
    compiled = compile_crease_pattern(pattern)
    # every crease is assigned and every twist is a square (or triangle) twist, which folds one way only: the
    # pleats' layers are forced by the mountains and valleys, so the whole tessellation has one state
    assert compiled.state_count == 1
    assert pattern.face_count > 150 and not compiled.solution.stopped
    assert compiled.folded.worst_mismatch < 1e-9


@pytest.mark.parametrize("name", sorted(TWISTS))
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1), shared=st.booleans())
def test_jittering_a_twist_tessellation_by_1e_6_keeps_its_one_state(name: str, seed: int, shared: bool) -> None:
    segments, letters = _segments(name)
    compiled = compile_crease_pattern(build_crease_pattern(jitter(segments, 1e-6, seed, shared=shared), letters))
    assert compiled.state_count == 1


@pytest.mark.parametrize("name", sorted(TWISTS))
def test_a_twist_tessellation_rounded_to_1e_3_is_a_precision_problem(name: str) -> None:
    segments, letters = _segments(name)
    rounded = np.round(segments, 3)  # an old export: three decimals of the paper
    summary = summarize(build_crease_pattern(rounded, letters), timeout=60)
    assert summary["error"] is not None and summary["error"]["code"].startswith("E_PRECISION_")


@pytest.mark.parametrize("name", sorted(TWISTS))
@pytest.mark.parametrize("step", [1e-3, 5e-4, 2e-4, 1e-4, 3e-5])
def test_a_rounded_twist_tessellation_never_counts_from_a_tolerance_far_below_its_disagreement(
    name: str, step: float
) -> None:
    """Rounded coordinates make the folded vertices disagree (up to a few 1e-3 here): the answer is a precision
    error, or the exact pattern's count from a folded tolerance no finer than the policy allows."""
    segments, letters = _segments(name)
    rounded = np.round(segments / step) * step
    try:
        compiled = compile_crease_pattern(build_crease_pattern(rounded, letters), timeout=60)
    except PrecisionProblem:
        return
    assert compiled.state_count == 1 and not compiled.solution.stopped
    assert compiled.folded_tolerance * FOLDED_MISMATCH_FACTOR >= compiled.folded.worst_mismatch


@pytest.mark.parametrize("decimals", [3, 12])
def test_a_crease_turned_by_degrees_in_an_exact_tessellation_stays_a_kawasaki_verdict(decimals: int) -> None:
    """Precision excuses only what it can explain, and only in visibly noisy input: one crease turned by ten
    degrees in an otherwise exact pattern is a Kawasaki error, however many decimals the file is written
    with."""
    segments, letters = _segments("square")
    moved = segments.copy()
    creases = [i for i, letter in enumerate(letters) if letter in "MV"]
    end = moved[creases[len(creases) // 2], 1]
    start = moved[creases[len(creases) // 2], 0]
    # turn one crease by 10 degrees about its start: its far end moves, every other point stays exact
    angle = math.radians(10)
    offset = end - start
    turned = start + [offset[0] * math.cos(angle) - offset[1] * math.sin(angle),
                      offset[0] * math.sin(angle) + offset[1] * math.cos(angle)]
    moved[(np.abs(moved - end).sum(axis=-1) < 1e-12)] = turned
    scale = 10.0**decimals  # written with this many decimals on a paper of size 1000
    with pytest.raises(CreasePatternError) as caught:
        compile_crease_pattern(build_crease_pattern(np.round(moved * 1000 * scale) / scale, letters))
    assert caught.value.code == "E_GEOM_KAWASAKI"


@pytest.mark.parametrize("rings", [3, 4, 6, 10])
@pytest.mark.parametrize("sides", [6, 10])
def test_a_pleated_hyperbolic_paraboloid_is_rejected_before_the_transitivity_build(
    monkeypatch: pytest.MonkeyPatch, sides: int, rings: int
) -> None:
    segments, letters = hyperbolic_paraboloid(sides, rings)
    pattern = build_crease_pattern(segments, letters)
    assert check_vertices(pattern).checked_vertices > 0  # every local check passes
    built: list[int] = []
    original = layer_constraints.transitivity_variables

    def counting(*args, **kwargs):  # type: ignore[no-untyped-def]
        built.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(layer_constraints, "transitivity_variables", counting)
    summary = summarize(pattern)
    assert summary["error"]["class"] == "PSI"
    assert summary["error"]["where"]["stage"] == STAGE_LOCAL
    assert not built


@pytest.mark.parametrize("rings", [3, 6])
def test_a_square_hyperbolic_paraboloid_breaks_a_local_check(rings: int) -> None:
    """With four sides no letters pass the first ring's corners and the centre together (a parity argument)."""
    segments, letters = hyperbolic_paraboloid(4, rings)
    with pytest.raises(GeometricallyImpossibleFold):
        compile_crease_pattern(build_crease_pattern(segments, letters))


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), rings=st.integers(3, 8))
def test_a_noisy_hyperbolic_paraboloid_is_rejected_early_too(seed: int, rings: int) -> None:
    segments, letters = hyperbolic_paraboloid(6, rings)
    with pytest.raises(SelfIntersection) as caught:
        compile_crease_pattern(build_crease_pattern(jitter(segments, 1e-6, seed), letters))
    assert caught.value.where["stage"] == STAGE_LOCAL


HEXAGONAL = [  # triangle-twist tessellations: every crease at 0, 60 or 120 degrees to a pleat, irrational corners
    ("triangle", 3, math.radians(42), 0.5),
    ("triangle", 4, math.radians(50), 0.5),
    ("triangle", 2, math.radians(45), 0.6),
]


@pytest.mark.parametrize("design", HEXAGONAL)
@pytest.mark.parametrize("file_format", ["cp", "opx"])
def test_an_exact_oripa_hexagonal_design_folds_once_however_it_is_placed(
    tmp_path: Path, design: tuple, file_format: str
) -> None:
    """Written as ORIPA writes it (paper of 400 centred on 0, numbers such as 346.41016151377545), the design
    folds in one state, rotated, scaled, mirrored or with mountains and valleys swapped, and rounded to 1e-8."""
    tiling, count, twist, scale = design
    segments, letters = shrink_rotate(tiling, count, twist, scale)
    placed = oripa_coordinates(segments)
    turn = np.array([[math.cos(1.0), math.sin(1.0)], [-math.sin(1.0), math.cos(1.0)]])
    swapped = [{"M": "V", "V": "M"}.get(letter, letter) for letter in letters]
    variants = {
        "exact": (placed, letters), "rotated": (placed @ turn, letters), "scaled": (placed * 3.7, letters),
        "mirrored": (placed * [-1.0, 1.0], letters), "swapped": (placed, swapped),
        "rounded": (np.round(placed / 400, 8) * 400, letters),
    }
    writer = cp_text if file_format == "cp" else opx_text
    for name, (variant, variant_letters) in variants.items():
        path = tmp_path / f"{name}.{file_format}"
        path.write_text(writer(variant, variant_letters))
        summary = summarize(path)
        assert summary["error"] is None, (name, summary["error"])
        assert summary["states"] == 1, name


def test_jitter_does_not_swallow_small_genuine_overlaps() -> None:
    """A triangle-twist tessellation clipped so that six corners overlap other faces by about 2e-5 of the
    paper: 64 states exactly. Rounded to 1e-6, its folded vertices disagree by 3e-5, and a folded tolerance of
    8 times that would close the six gaps (one state): the answer is 64 or a precision error, never 1."""
    height = math.sqrt(3) / 2
    segments, letters = shrink_rotate("triangle", 6, math.radians(45), 0.55,
                                      window=(0.25, 0.1, 5.75, 6 * height - 0.1))
    size = float(np.ptp(segments.reshape(-1, 2), axis=0).max())
    segments = (segments - segments.reshape(-1, 2).min(axis=0)) / size
    assert compile_crease_pattern(build_crease_pattern(segments, letters)).state_count == 64
    try:
        rounded = compile_crease_pattern(build_crease_pattern(np.round(segments, 6), letters))
    except PrecisionProblem:
        return
    assert rounded.state_count == 64


def _clipped_triangle_twist() -> tuple[np.ndarray, list[str]]:
    height = math.sqrt(3) / 2
    segments, letters = shrink_rotate("triangle", 6, math.radians(45), 0.55,
                                      window=(0.25, 0.1, 5.75, 6 * height - 0.1))
    size = float(np.ptp(segments.reshape(-1, 2), axis=0).max())
    return (segments - segments.reshape(-1, 2).min(axis=0)) / size, letters


@settings(max_examples=3, deadline=None)
@given(scale=st.floats(0.8, 1.0), offset=st.tuples(st.floats(0, 1e-3), st.floats(0, 1e-3)))
def test_rounding_a_pattern_with_slivers_anywhere_on_the_grid_never_gives_a_wrong_count(
    scale: float, offset: tuple[float, float]
) -> None:
    """Placed anywhere and rounded to six decimals, the clipped triangle twist counts its 64 states (or refuses
    with a precision error): its slivers are gaps of the design, whatever the rounding did to them."""
    segments, letters = _clipped_triangle_twist()
    try:
        compiled = compile_crease_pattern(build_crease_pattern(np.round(segments * scale + offset, 6), letters))
    except PrecisionProblem:
        return
    assert compiled.state_count == 64


@pytest.mark.parametrize("seed", range(6))
def test_jitter_with_no_written_precision_does_not_swallow_small_genuine_overlaps(seed: int) -> None:
    """Jittered by 5e-7 and written with full-length numbers, the slivers move by a third of their width under
    four times the measured precision and by a twelfth under the measured precision itself: neither noise nor
    design for sure. No tolerance may close them, so the answer is 64 (the states of the regularised pattern,
    on which they no longer depend on the noise) or a precision error naming a gap, never 1."""
    segments, letters = _clipped_triangle_twist()
    try:
        compiled = compile_crease_pattern(build_crease_pattern(jitter(segments, 5e-7, seed), letters))
    except PrecisionProblem as problem:
        assert "gap" in problem.message
        return
    assert compiled.state_count == 64


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), amount=st.sampled_from([2e-7, 5e-7, 1e-6]),
       shared=st.booleans())
def test_jittering_the_clipped_twist_never_closes_its_slivers(seed: int, amount: float, shared: bool) -> None:
    """Whatever the jitter (up to 1e-6, joints moved together or apart), the clipped twist counts its 64
    states: never the one state of the slivers closed, and no precision error either."""
    segments, letters = _clipped_triangle_twist()
    compiled = compile_crease_pattern(build_crease_pattern(jitter(segments, amount, seed, shared=shared), letters))
    assert compiled.state_count == 64


@pytest.mark.parametrize("seed", [2047, 0, 1])
def test_the_clipped_twist_jittered_by_1e_6_counts_its_states_on_the_regularised_pattern(seed: int) -> None:
    """Jittered by 1e-6 and written with full-length numbers, the clipped twist measures its precision at about
    2e-6, and its folded vertices disagree by 1e-4, five times the slivers' width. Judged against four times
    that precision the slivers moved like noise, a folded tolerance closed them (one state) and the
    cross-check with the regularised pattern refused (E_PRECISION_GAPS). The least movement that makes the
    pattern meet Kawasaki, about 2e-6, is measured noise too and the better amplitude: the slivers then move
    by a fifth to a half of their width, too little to close them, and the states are those of the
    regularised pattern."""
    segments, letters = _clipped_triangle_twist()
    pattern = build_crease_pattern(jitter(segments, 1e-6, seed), letters)
    compiled = compile_crease_pattern(pattern)
    assert compiled.state_count == 64
    assert 0 < compiled.regularized_moved <= pattern.snap_tolerance
    folded = fold_faces(pattern, compiled.input_precision)
    judge = noise_judge(pattern, folded, compiled.input_precision)
    assert LEAST_NOISE <= judge.amplitude < noise_amplitude(pattern, compiled.input_precision) / 2


def test_a_sliver_closed_as_noise_that_the_regularised_pattern_keeps_is_a_precision_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Judged against the cruder amplitude (four times the measured precision), the slivers of the clipped
    twist jittered by 1e-6 pass for noise and a folded tolerance closes them (one state). The regularised
    pattern, whose folded vertices agree, keeps them open (64 states): the cross-check answers
    E_PRECISION_GAPS with both counts, never 1 (counted with a per-component cap, both counts are capped)."""
    monkeypatch.setattr(compiler, "noise_judge", lambda pattern, folded, precision:
                        GapJudge(pattern, folded, noise_amplitude(pattern, precision)))
    segments, letters = _clipped_triangle_twist()
    with pytest.raises(PrecisionProblem) as caught:
        compile_crease_pattern(build_crease_pattern(jitter(segments, 1e-6, 2047), letters))
    assert caught.value.code == "E_PRECISION_GAPS"
    assert (caught.value.where["states"], caught.value.where["regularized_states"]) == (1, 64)
    assert caught.value.where["gap_count"] == len(caught.value.where["gaps"]) > 0
    # with a cap of one state per component both counts are capped alike: nothing to refuse
    capped = compile_crease_pattern(build_crease_pattern(jitter(segments, 1e-6, 2047), letters), limit=1)
    assert capped.state_count == 1
