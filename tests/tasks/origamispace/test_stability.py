"""Keys that do not rest on a hair: a pattern whose verdict rests on a folded gap, a crease-pattern gap or a
near-Kawasaki vertex is rejected, and every kept foldability option passes the check (margins of
:mod:`foldbench.tasks.origamispace.stability`)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from foldbench.crease import pattern_from_fold
from foldbench.crease.errors import CreasePatternError
from foldbench.crease.io.generated import compile_generated
from foldbench.crease.layers.cells import overlay_folded_edges
from foldbench.crease.layers.folding import fold_faces
from foldbench.crease.precision.overlay import LEVEL_STEP, folded_tolerance_levels
from foldbench.tasks import make
from foldbench.tasks.dataset import read_items
from foldbench.tasks.origamispace import stability as stability_module
from foldbench.tasks.origamispace.stability import (
    ANGLE_MARGIN,
    FEATURE_MARGIN,
    _search,
    _sweep,
    kawasaki_errors,
    option_stability,
    reference_stability,
)


def _single_fold(x: float) -> dict:
    """A square with one vertical valley fold at ``x``: folded, the left edge lands ``|1 - 2x|`` from the right."""
    return {"vertices_coords": [[0, 0], [x, 0], [1, 0], [1, 1], [x, 1], [0, 1]],
            "edges_vertices": [[0, 1], [1, 2], [2, 3], [3, 4], [4, 5], [5, 0], [1, 4]],
            "edges_assignment": ["B", "B", "B", "B", "B", "B", "V"]}


def _bird_foot(angle: float) -> dict:
    """A degree-4 vertex at the centre: creases to the left, right and top edges, and one to the bottom edge
    turned by ``angle`` (radians) from straight down; it meets Kawasaki only at ``angle == 0``."""
    bottom = [0.5 + 0.5 * math.tan(angle), 0.0]
    return {"vertices_coords": [[0, 0], bottom, [1, 0], [1, 0.5], [1, 1], [0.5, 1], [0, 1], [0, 0.5],
                                [0.5, 0.5]],
            "edges_vertices": [[0, 1], [1, 2], [2, 3], [3, 4], [4, 5], [5, 6], [6, 7], [7, 0],
                               [8, 1], [8, 3], [8, 5], [8, 7]],
            "edges_assignment": ["B"] * 8 + ["V", "M", "V", "V"]}


def test_an_option_resting_on_a_4e_5_folded_gap_is_rejected() -> None:
    document = _single_fold(0.5 + 2e-5)  # folded, corner (0, 0) lands 4e-5 from corner (1, 0)
    verdict = compile_generated(document).error
    assert verdict is None  # the compiler folds it at its starting tolerance
    stability = option_stability(document, verdict)
    assert not stability.stable
    assert stability.closest == pytest.approx(4e-5, rel=1e-6)
    assert any("folded features" in reason for reason in stability.reasons)


@settings(max_examples=25, deadline=None)
@given(st.floats(min_value=0.02, max_value=0.48))
def test_a_fold_with_clear_gaps_is_stable_and_every_sound_level_agrees(offset: float) -> None:
    gap = 2 * offset  # the folded edges lie 2 * offset apart
    document = _single_fold(0.5 - offset)
    stability = option_stability(document, compile_generated(document).error)
    assert stability.verdict == "folds"
    assert stability.stable == (gap > FEATURE_MARGIN), stability.reasons
    assert stability.levels and {verdict for _, verdict in stability.levels} == {"folds"}


@settings(max_examples=25, deadline=None)
@given(st.floats(min_value=1e-8, max_value=1e-3))
def test_folded_gaps_below_the_margin_are_rejected(offset: float) -> None:
    document = _single_fold(0.5 + offset / 2)
    stability = option_stability(document, compile_generated(document).error)
    assert not stability.stable
    assert stability.closest == pytest.approx(offset, rel=1e-5)


@settings(max_examples=40, deadline=None)
@given(st.floats(min_value=1e-8, max_value=0.48))
@example(1e-4)  # a folded gap below the margin: unstable before the sweep
@example(0.2)  # clear gaps: stable, swept
def test_a_judgement_without_every_reason_keeps_the_verdict_and_skips_the_sweep_of_an_unstable_pattern(
        offset: float) -> None:  # fmt: skip
    """``every_reason=False`` gives the full judgement's ``stable`` (options and references alike); a pattern
    already unstable before the sweep is not swept, and its reasons are the full judgement's first ones."""
    document = _single_fold(0.5 - offset / 2)  # folded, the edges lie ``offset`` apart
    generated = compile_generated(document)
    full = option_stability(document, generated.error)
    swept: list[object] = []
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(stability_module, "_sweep", lambda *args: swept.append(args) or _sweep(*args))
        quick = option_stability(document, generated.error, every_reason=False)
        assert generated.compiled is not None
        reference_quick = reference_stability(generated.compiled, every_reason=False)
    assert quick.stable == full.stable == reference_quick.stable == reference_stability(generated.compiled).stable
    assert (quick.verdict, quick.closest) == (full.verdict, full.closest)
    if quick.reasons:
        assert not swept and quick.levels == () == reference_quick.levels
        assert full.reasons[:len(quick.reasons)] == quick.reasons
        assert all(reason.startswith(("sound tolerance levels", "no tolerance level"))
                   for reason in full.reasons[len(quick.reasons):])
    else:
        assert len(swept) == 2 and quick == full


def test_a_vertex_that_nearly_meets_kawasaki_is_rejected_and_a_clear_miss_is_kept() -> None:
    exact = _bird_foot(0.0)
    assert max(kawasaki_errors(pattern_from_fold(exact)).values()) < 1e-12
    near = _bird_foot(ANGLE_MARGIN / 4)
    far = _bird_foot(0.2)
    near_stability = option_stability(near, compile_generated(near).error)
    assert not near_stability.stable and any("Kawasaki" in reason for reason in near_stability.reasons)
    far_verdict = compile_generated(far).error
    assert far_verdict is not None and far_verdict["code"] == "E_GEOM_KAWASAKI"
    assert option_stability(far, far_verdict).stable


def test_every_option_of_a_generated_dataset_is_stable(foldability_audit_dataset: Path) -> None:
    for item in read_items(foldability_audit_dataset)[:24]:
        for option, verdict in zip(item.inputs["options"], item.target["verdicts"], strict=True):
            stability = option_stability(option, verdict)
            assert stability.stable, (item.id, stability.reasons)
            assert stability.closest is None or stability.closest > FEATURE_MARGIN


def _level_by_level(pattern, folded) -> list[tuple[float, str]]:
    """The sweep written out plainly: both overlays and a fresh layer search at every level."""
    levels = []
    for level in folded_tolerance_levels(pattern, folded):
        graph = overlay_folded_edges(pattern, folded, level)
        finer = overlay_folded_edges(pattern, folded, level / LEVEL_STEP)
        if (len(graph.vertices_coords), len(graph.edges_vertices)) != (len(finer.vertices_coords),
                                                                       len(finer.edges_vertices)):
            continue
        found = _search(pattern, folded, level, graph)
        if found is not None:
            levels.append((level, found))
    return levels


@pytest.mark.parametrize("offset", [0.25, 0.5 - 2e-5, 0.5 - 3e-4, 0.5 - 1e-2])
def test_levels_sharing_one_overlay_share_one_search_and_give_the_same_levels(offset: float) -> None:
    pattern = pattern_from_fold(_single_fold(offset))
    folded = fold_faces(pattern, 0.0)
    assert _sweep(pattern, folded) == _level_by_level(pattern, folded)


def test_the_sweep_of_generated_options_matches_a_search_at_every_level() -> None:
    task = make("origamispace/foldability-v2")
    for item in task.generate(2, 3, modalities=("image",)):
        for option in item.inputs["options"]:
            pattern = pattern_from_fold(option)
            try:
                folded = fold_faces(pattern, 0.0)
            except CreasePatternError:  # a near-miss that does not close up has no folded state to sweep
                continue
            assert _sweep(pattern, folded) == _level_by_level(pattern, folded)
