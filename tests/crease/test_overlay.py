from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from foldbench.crease import compiler
from foldbench.crease.compiler import compile_crease_pattern
from foldbench.crease.errors import PrecisionProblem, SelfIntersection
from foldbench.crease.graph.pattern import build_crease_pattern
from foldbench.crease.layers.folding import fold_faces
from foldbench.crease.precision import folded_gaps, overlay
from foldbench.crease.precision.folded_gaps import GapJudge, unresolved_open_gaps
from foldbench.crease.precision.overlay import build_overlay, folded_tolerance_levels
from foldbench.crease.precision.tolerance import FOLDED_DISTANCE_TOLERANCE, FOLDED_TOLERANCE_FLOOR, LEAST_NOISE

from .builders import jitter, square_with


def _pleat(width: float):  # type: ignore[no-untyped-def]
    return square_with([((0.5, 0), (0.5, 1), "M"), ((0.5 + width, 0), (0.5 + width, 1), "V"),
                        ((0.2, 0), (0.2, 1), "V")])


def test_a_pleat_narrower_than_the_default_tolerance_is_resolved_at_a_finer_level() -> None:
    wide, narrow = compile_crease_pattern(_pleat(0.1)), compile_crease_pattern(_pleat(3e-7))
    assert wide.folded_tolerance == FOLDED_DISTANCE_TOLERANCE
    assert narrow.folded_tolerance < 3e-7  # the strip's two folded edges stay apart
    assert narrow.state_count == wide.state_count
    assert len(narrow.constraints.variables_faces) == len(wide.constraints.variables_faces)
    assert any("folded tolerance" in warning for warning in narrow.warnings)


def test_levels_go_down_to_the_floor_then_up_then_again_halfway() -> None:
    pattern = _pleat(0.1)
    levels = list(folded_tolerance_levels(pattern, fold_faces(pattern)))
    halfway = levels.index(2 * FOLDED_DISTANCE_TOLERANCE)
    for series in (levels[:halfway], levels[halfway:]):
        descending = [level for level in series if level <= series[0]]
        assert descending == sorted(descending, reverse=True) and descending[-1] >= FOLDED_TOLERANCE_FLOOR
        coarser = series[len(descending):]
        assert coarser == sorted(coarser) and all(level < 0.1 for level in coarser)
    first = np.log2(levels[:halfway])
    second = np.log2(levels[halfway:])
    # on a logarithmic scale every second-series level lies halfway between two neighbours of the first
    assert np.allclose(np.min(np.abs(second[:, None] - first[None, :]), axis=1), 1.0)


def test_no_answer_from_an_overlay_that_failed_its_checks(monkeypatch: pytest.MonkeyPatch) -> None:
    def always_inconsistent(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise PrecisionProblem("E_PRECISION_CELLS", "inconsistent", {})

    monkeypatch.setattr(overlay, "build_cells", always_inconsistent)
    pattern = _pleat(0.1)
    with pytest.raises(PrecisionProblem) as caught:
        build_overlay(pattern, fold_faces(pattern))
    tried = caught.value.where["tried"]
    assert caught.value.code == "E_PRECISION_TOLERANCE"
    assert len(tried) == len(list(folded_tolerance_levels(pattern, fold_faces(pattern))))
    assert {entry["reason"] for entry in tried} <= {"E_PRECISION_CELLS", "unstable"}


def test_a_flat_slit_into_a_face_changes_nothing() -> None:
    plain = compile_crease_pattern(square_with([((0.5, 0), (0.5, 1), "V")]))
    slit = compile_crease_pattern(square_with([((0.5, 0), (0.5, 1), "V"), ((0.25, 0), (0.25, 0.3), "F")]))
    assert slit.pattern.edge_count == plain.pattern.edge_count + 2  # the slit, and the split boundary edge
    assert slit.state_count == plain.state_count == 1
    assert len(slit.constraints.variables_faces) == len(plain.constraints.variables_faces)


def _letter_fold(overhang: float) -> tuple[np.ndarray, str]:
    """A strip folded in thirds by two valleys, each end third longer than the middle one by ``overhang`` of
    the paper's length (full-length coordinates: nothing is written rounded). Folded, each end lies that far
    past the other end's crease, inside the taco it makes: any overhang at all is a self-intersection."""
    extra = 3 * overhang / (1 - 2 * overhang) * (1 + 1e-3 * np.sqrt(2))
    left, right, height = -extra, 3 + extra, 0.5
    segments = np.array([[[left, 0], [right, 0]], [[right, 0], [right, height]], [[right, height], [left, height]],
                         [[left, height], [left, 0]], [[1, 0], [1, height]], [[2, 0], [2, height]]])
    return (segments - left) / (right - left), "BBBBVV"


def test_a_self_intersection_resting_on_a_gap_the_input_cannot_resolve_is_no_verdict() -> None:
    """An exact ORIPA design of a hexagon was a self-intersection because two folded corners lay 1.1e-6 of the
    paper past two creases, just wider than the default folded tolerance, while rounded to 1e-6 it folded
    once, as other solvers find. The same cause, re-created: the letter fold's ends overhang by 1.1e-6. Moving
    the input by 1e-6 (the jitter that may change no verdict) moves those gaps by more than half their width,
    so the level that closes them decides: the two states of the flush fold, exact, rounded or jittered. An
    overhang of 2e-5 (the width of a clipped twist's slivers) is resolved: a self-intersection."""
    flush = compile_crease_pattern(build_crease_pattern(*_letter_fold(0.0)))
    segments, letters = _letter_fold(1.1e-6)
    exact = compile_crease_pattern(build_crease_pattern(segments, letters))
    assert flush.state_count == exact.state_count == 2
    assert exact.folded_tolerance > 1.1e-6 > FOLDED_DISTANCE_TOLERANCE
    assert any("self-intersection found at a finer level" in warning for warning in exact.warnings)
    assert compile_crease_pattern(build_crease_pattern(np.round(segments, 6), letters)).state_count == 2
    for seed in range(3):
        assert compile_crease_pattern(build_crease_pattern(jitter(segments, 1e-6, seed), letters)).state_count == 2
    with pytest.raises(SelfIntersection):
        compile_crease_pattern(build_crease_pattern(*_letter_fold(2e-5)))


def test_the_gaps_a_level_keeps_open_are_judged_against_a_jitter_of_1e_6() -> None:
    """A jitter of 1e-6 can close the letter fold's overhang of 1.1e-6: kept open by the default level, it is
    unresolved; it cannot close an overhang of 2e-5, which is resolved."""
    for overhang, unresolved in ((1.1e-6, True), (2e-5, False)):
        pattern = build_crease_pattern(*_letter_fold(overhang))
        folded = fold_faces(pattern)
        judge = GapJudge(pattern, folded, LEAST_NOISE)
        gaps = unresolved_open_gaps(pattern, folded, FOLDED_DISTANCE_TOLERANCE, judge)
        assert bool(gaps) == unresolved
        assert all(overhang * 0.9 < gap.width < overhang * 1.1 and gap.noise >= gap.width for gap in gaps)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), amplitude=st.sampled_from([1e-7, 1e-6, 1e-5]))
def test_no_jitter_moves_a_gap_farther_than_its_worst_case_bound(seed: int, amplitude: float) -> None:
    """The bound the unresolved and doubtful gaps are judged by holds: refolding the letter fold with every
    vertex moved by up to the amplitude never changes a gap (the vector between two vertices) by more than
    the sum of the one-coordinate changes, up to second order."""
    pattern = build_crease_pattern(*_letter_fold(2e-5))
    folded = fold_faces(pattern)
    judge = GapJudge(pattern, folded, amplitude)
    pairs = np.array([[0, 6], [1, 4], [2, 5], [3, 7]])
    kinds = np.zeros(len(pairs), dtype=np.int8)
    widths, worst = judge.worst_moves(pairs, kinds, projected=False)
    assert np.all(np.abs(widths) > 1e-5) and np.all(worst > 0)
    moves = np.random.default_rng(seed).uniform(-amplitude, amplitude, (8, *pattern.vertices_coords.shape))
    moved = folded_gaps._refold(pattern, pattern.vertices_coords[None] + moves)
    base = folded.vertices_coords_folded
    change = (moved[:, pairs[:, 0]] - moved[:, pairs[:, 1]]) - (base[pairs[:, 0]] - base[pairs[:, 1]])[None]
    assert np.all(np.hypot(change[..., 0], change[..., 1]) <= worst[None] * (1 + 1e-3) + 1e-12)


@settings(max_examples=12, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1), overhang=st.sampled_from([2e-5, 5e-5, 1e-4]))
def test_a_jittered_design_gap_is_never_closed_as_noise(seed: int, overhang: float) -> None:
    """Jittered by 1e-6, the letter fold measures its noise at 2e-7 to 8e-7, estimated at up to four times
    that: an overhang of 2e-5 is within what the estimate can close but beyond what the measured noise (at
    least 1e-6) can, so no level may close it. The jitter also spreads the strip's flush edges up to 6e-6
    apart, less than a factor of four below the overhang: no level of the first two series is stable, and the
    third (levels between the folded features, stable against half the level where the features between are
    all noise) keeps the overhang open. The answer is the exact pattern's self-intersection at every seed."""
    segments, letters = _letter_fold(overhang)
    with pytest.raises(SelfIntersection):
        compile_crease_pattern(build_crease_pattern(segments, letters))
    with pytest.raises(SelfIntersection):
        compile_crease_pattern(build_crease_pattern(jitter(segments, 1e-6, seed), letters))


@pytest.mark.xfail(strict=True, reason="known defect: this jitter of the 2e-5 letter fold counts 2 states where the "
                   "exact pattern self-intersects (found by the property test above; open)")
def test_the_jitter_that_closes_the_letter_folds_gap() -> None:
    segments, letters = _letter_fold(2e-5)
    with pytest.raises(SelfIntersection):
        compile_crease_pattern(build_crease_pattern(jitter(segments, 1e-6, 58628574), letters))


def test_noise_explained_levels_lie_between_the_noise_and_the_design() -> None:
    """For the jittered letter fold whose first two series fail, the third series offers a level above the
    noise features by a factor of two and below the overhang, and nothing for the exact pattern (its noise is
    only a hypothesis)."""
    segments, letters = _letter_fold(2e-5)
    exact = build_crease_pattern(segments, letters)
    assert list(overlay.noise_explained_levels(exact, fold_faces(exact), GapJudge(exact, fold_faces(exact), 1e-6),
                                               [])) == []
    found = 0
    for seed in range(24):
        pattern = build_crease_pattern(jitter(segments, 1e-6, seed), letters)
        folded = fold_faces(pattern)
        judge = folded_gaps.noise_judge(pattern, folded, folded.input_precision or 0.0)
        series = list(overlay.folded_tolerance_levels(pattern, folded))
        _, _, widths = folded_gaps.folded_features(pattern, folded.vertices_coords_folded, FOLDED_DISTANCE_TOLERANCE,
                                                   1e-4)
        noise, design = widths[widths < 1e-5], widths[widths > 1e-5]
        for level in overlay.noise_explained_levels(pattern, folded, judge, series):
            assert not any(abs(level / old - 1) < 1e-6 for old in series)
            if level < design.min():
                assert overlay.NOISE_STEP * noise.max() < level
                found += 1
    assert found >= 5  # the seeds where no level of the first two series holds the window


def test_a_self_intersection_resting_on_a_gap_the_measured_noise_closes_is_no_verdict(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The letter fold's overhang of 2e-5 judged against a noise of 4e-6, measured as such: the noise can close
    the gap, so a self-intersection found with it open may be a coincidence the noise broke. With every level
    that closes it made unsound (here by hand), a jittered input, whose noise is evidence, gets a precision
    error naming the gap; the exact input, whose noise is only a hypothesis, keeps its self-intersection. The
    same holds when the layer search finds the self-intersection rather than the early check."""
    segments, letters = _letter_fold(2e-5)
    closing_refused = [folded_gaps.FoldedGap(0, 1, "vertex", 1.0, 0.0, False)]
    with monkeypatch.context() as patch:
        patch.setattr(compiler, "noise_judge", lambda p, f, precision: GapJudge(p, f, 4e-6))
        patch.setattr(overlay, "gaps_beyond_measured_noise",
                      lambda p, f, tolerance, judge: closing_refused if tolerance > 1.6e-5 else [])
        with pytest.raises(SelfIntersection):
            compile_crease_pattern(build_crease_pattern(segments, letters))
        for seed in range(3):
            with pytest.raises(PrecisionProblem) as caught:
                compile_crease_pattern(build_crease_pattern(jitter(segments, 1e-6, seed), letters))
            assert caught.value.code == "E_PRECISION_TOLERANCE"
            gap = caught.value.where["unresolved_gap"]
            assert gap["certain"] and 1.6e-5 < gap["width"] < 2.4e-5 <= gap["noise"]
            assert "no layer order" in caught.value.where["self_intersection"]
        # the same where the self-intersection is found by the search, after the overlay (no early check)
        patch.setattr(compiler, "build_overlay", lambda p, f, check_local, **options: overlay.build_overlay(
            p, f, None, **options))
        with pytest.raises(SelfIntersection):
            compile_crease_pattern(build_crease_pattern(segments, letters))
        with pytest.raises(PrecisionProblem) as caught:
            compile_crease_pattern(build_crease_pattern(jitter(segments, 1e-6, 0), letters))
        assert caught.value.where["unresolved_gap"]["certain"]
        assert caught.value.where["self_intersection"].count("no layer order") == 1


def test_a_self_intersection_on_a_gap_only_the_noise_estimate_can_close_is_no_count(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The letter fold's overhang of 2e-5, judged against a noise estimated at 4e-6 but measured at 1e-6: the
    estimate can close the gap, the measured noise cannot. The self-intersection found with it open is no
    verdict, and the level that closes it is refused for closing what the measured noise cannot: the
    self-intersection stands. Where that refusal does not apply (a pattern whose folding amplifies its noise),
    the closing level's count cannot be told from the self-intersection either: a precision error naming
    both. Judged against 4e-6 without a measurement, the gap is noise and the flush fold's two states are
    counted."""
    pattern = build_crease_pattern(*_letter_fold(2e-5))
    with monkeypatch.context() as patch:
        patch.setattr(compiler, "noise_judge", lambda p, f, precision: GapJudge(p, f, 4e-6, measured=1e-6))
        with pytest.raises(SelfIntersection):
            compile_crease_pattern(pattern)
        patch.setattr(overlay, "gaps_beyond_measured_noise", lambda *args: [])
        with pytest.raises(PrecisionProblem) as caught:
            compile_crease_pattern(pattern)
    assert caught.value.code == "E_PRECISION_GAPS"
    assert caught.value.where["states"] == 2 and caught.value.where["self_intersection"]["class"] == "PSI"
    assert caught.value.where["measured_noise"] == 1e-6 and caught.value.where["estimated_noise"] == 4e-6
    with monkeypatch.context() as patch:
        patch.setattr(compiler, "noise_judge", lambda p, f, precision: GapJudge(p, f, 4e-6))
        assert compile_crease_pattern(pattern).state_count == 2
