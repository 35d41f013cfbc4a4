from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from shapely import affinity
from shapely.geometry import Point, box
from shapely.ops import unary_union

from foldbench.pfp.folding import (
    Crease,
    apply_step,
    flat_state,
    fold_region,
    folded_pieces,
    half_plane,
    pieces_difference_area,
    reflection,
    unfold_cut,
    unfold_pieces,
)
from foldbench.pfp.puzzle import (
    Puzzle,
    _mismatch_bounds,
    _quick_lower_bound,
    holes_of,
    paper_left,
    paper_problem,
    quality_problem,
    refold_mismatch,
    refold_misses_by,
)
from foldbench.pfp.sequences import SYMMETRIC_CODES, resolve_code, sample_sequence
from foldbench.pfp.shapes import SHEET_SHAPES, Cutout, cutout_polygon, sheet_polygon
from foldbench.pfp.tolerance import SAME_AREA, difference_area, same_region
from foldbench.tasks.pfp.fold_sampling import SUBTASK_FOLDS, Sampled, check_fold_knobs, sample_puzzle

SQUARE = box(-180, -180, 180, 180)


def _puzzles(seed: int, subtask: str, count: int = 1, *, one_sheet: bool = False) -> list[Sampled]:
    """``count`` random puzzles of ``subtask`` (all on one random sheet with ``one_sheet``)."""
    rng = np.random.default_rng(seed)
    config: dict[str, object] = {"subtasks": (subtask,)}
    if one_sheet:
        config["shapes"] = (str(rng.choice(SHEET_SHAPES)),)
    check_fold_knobs("test", config)
    found: list[Sampled] = []
    while len(found) < count:
        sampled = sample_puzzle(rng, subtask, config)
        if sampled is not None:
            found.append(sampled)
    return found


def test_a_vertical_centre_fold_mirrors_a_hole_and_merges_one_on_the_crease() -> None:
    right_half_moves = Crease((0.0, 0.0), (1.0, 0.0), "Vc+")
    folded = apply_step(flat_state(SQUARE), [right_half_moves])
    assert folded.silhouette.bounds == (-180.0, -180.0, 0.0, 180.0)
    assert [layer.parity for layer in folded.layers] == [0, 1]
    away = unfold_cut(folded, box(-100, -20, -60, 20))
    assert away.geom_type == "MultiPolygon"
    assert same_region(away, box(-100, -20, -60, 20).union(box(60, -20, 100, 20)))
    on_crease = unfold_cut(folded, box(-20, -20, 0, 20))
    assert on_crease.geom_type == "Polygon" and same_region(on_crease, box(-20, -20, 20, 20))


def test_folding_twice_makes_four_layers_and_a_corner_cut_makes_one_central_hole() -> None:
    state = flat_state(SQUARE)
    state = apply_step(state, [resolve_code(state.silhouette, "Vc+")])
    state = apply_step(state, [resolve_code(state.silhouette, "Hc+")])
    assert len(state.layers) == 4 and same_region(state.silhouette, box(-180, -180, 0, 0))
    hole = unfold_cut(state, Point(0, 0).buffer(30, quad_segs=16))
    assert hole.geom_type == "Polygon"
    assert abs(hole.area - Point(0, 0).buffer(30, quad_segs=16).area) < 1.0


def test_a_third_fold_moves_the_outer_third() -> None:
    state = flat_state(SQUARE)
    crease = resolve_code(state.silhouette, "Vl")
    assert crease.point[0] == pytest.approx(-60.0)
    folded = apply_step(state, [crease])
    assert same_region(folded.silhouette, box(-60, -180, 180, 180))


@pytest.mark.parametrize("code", SYMMETRIC_CODES)
def test_every_fold_code_is_a_reflection_that_fixes_its_line(code: str) -> None:
    crease = resolve_code(SQUARE, code)
    mirror = reflection(crease)
    point = Point(crease.point[0] - 50 * crease.normal[1], crease.point[1] + 50 * crease.normal[0])
    assert affinity.affine_transform(point, mirror).distance(point) < 1e-9
    off = Point(crease.point[0] + 10 * crease.normal[0], crease.point[1] + 10 * crease.normal[1])
    assert crease.side(off.x, off.y) > 0 and half_plane(crease).contains(off)


subtasks = st.sampled_from(sorted(SUBTASK_FOLDS))


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), subtasks)
def test_layers_partition_the_sheet(seed: int, subtask: str) -> None:
    puzzle, states, _ = _puzzles(seed, subtask)[0]
    sheet = sheet_polygon(puzzle.sheet)
    for state in states:
        regions = [layer.region for layer in state.layers]
        assert abs(sum(r.area for r in regions) - sheet.area) < 1.0
        assert same_region(unary_union(regions), sheet)
        assert state.silhouette.area <= sheet.area + SAME_AREA
    areas = [s.silhouette.area for s in states]
    assert all(b < a for a, b in itertools.pairwise(areas))


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), subtasks)
@example(150, "1-fold")  # a cut piece along a diagonal crease that a plain GEOS union once dropped
def test_the_unfolded_holes_are_symmetric_under_every_crease(seed: int, subtask: str) -> None:
    puzzle, states, holes = _puzzles(seed, subtask)[0]
    for k, step in enumerate(puzzle.steps):
        before = states[k]
        cut_there = fold_region(before, holes)  # the holes as they lie in the state before fold k+1
        outline = before.silhouette
        for crease in step:
            mirror = reflection(crease)
            flap = outline.intersection(half_plane(crease))
            domain = flap.intersection(affinity.affine_transform(outline, mirror))
            mirrored = affinity.affine_transform(cut_there.intersection(domain), mirror)
            assert same_region(mirrored, cut_there.intersection(affinity.affine_transform(domain, mirror)))


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**6), subtasks)
def test_generated_puzzles_pass_quality_and_refold_exactly(seed: int, subtask: str) -> None:
    puzzle, states, holes = _puzzles(seed, subtask)[0]
    assert quality_problem(puzzle) is None
    assert refold_mismatch(puzzle.sheet, puzzle.steps, holes) < SAME_AREA
    assert Puzzle.from_dict(puzzle.to_dict()) == puzzle
    left = paper_left(puzzle.sheet, holes)
    assert left.geom_type == "Polygon"
    for cutout in puzzle.cutouts:
        assert cutout_polygon(cutout).intersection(states[-1].silhouette).area > 0


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(["1-fold", "2-fold", "others"]), st.floats(-3.0, 3.0))
def test_the_cheap_refold_comparison_agrees_with_the_exact_mismatch(seed: int, subtask: str, offset: float) -> None:
    """Holes of one puzzle against another random sequence of the same sheet (as the options of an inverse item
    are): the union-free comparison gives the exact answer, also for bounds within rounding of the mismatch."""
    (puzzle, _, holes), (other, other_states, _) = _puzzles(seed, subtask, 2, one_sheet=True)
    exact = refold_mismatch(puzzle.sheet, other.steps, holes)
    for bound in (exact + offset, 600.0, SAME_AREA):
        expected = exact >= bound
        assert refold_misses_by(puzzle.sheet, other.steps, holes, bound) == expected, (exact, bound)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(["2-fold", "3-fold"]), st.floats(-3.0, 3.0))
def test_the_quick_bound_of_many_layers_never_exceeds_the_full_one_nor_the_mismatch(
    seed: int, subtask: str, offset: float
) -> None:
    """Holes of one puzzle against another random sequence of the same sheet (four or eight layers, as the options
    of an inverse or strict multi-step item): the one-piece-per-layer bound is at most the bound over every piece,
    to the last bit, which is at most the exact mismatch; and the comparison that tries it first is still exact."""
    (puzzle, _, holes), (other, other_states, _) = _puzzles(seed, subtask, 2, one_sheet=True)
    final = other_states[-1]
    pieces = folded_pieces(final, holes)
    quick, (lower, _) = _quick_lower_bound(final, pieces), _mismatch_bounds(final, pieces)
    exact = refold_mismatch(puzzle.sheet, other.steps, holes)
    assert quick <= lower <= exact + 1e-3, (quick, lower, exact)
    for bound in (exact + offset, quick - 1.0, 600.0, SAME_AREA):
        assert refold_misses_by(puzzle.sheet, other.steps, holes, bound) == (exact >= bound), (exact, bound)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), subtasks)
def test_the_union_free_difference_of_two_cuts_is_the_difference_of_their_holes(seed: int, subtask: str) -> None:
    """One cut through two fold sequences of the same sheet: the areas and overlaps of the unjoined pieces give
    the symmetric difference of the joined holes, and joining the pieces gives the holes themselves."""
    (puzzle, states, holes), (_, other_states, _) = _puzzles(seed, subtask, 2)
    cut = unary_union([cutout_polygon(c) for c in puzzle.cutouts])
    ours, theirs = unfold_pieces(states[-1], cut), unfold_pieces(other_states[-1], cut)
    assert same_region(ours.holes(), holes)
    exact = difference_area(holes, theirs.holes())
    assert pieces_difference_area(ours, theirs) == pytest.approx(exact, abs=1e-3)
    assert pieces_difference_area(theirs, ours) == pytest.approx(exact, abs=1e-3)
    assert pieces_difference_area(ours, ours) == pytest.approx(0.0, abs=1e-3)


def test_a_symmetric_pattern_is_not_made_by_an_asymmetric_fold() -> None:
    # Two holes mirrored across the vertical centre line: a vertical fold makes them, a horizontal one cannot.
    holes = box(-100, 50, -60, 90).union(box(60, 50, 100, 90))
    vertical = ((resolve_code(SQUARE, "Vc+"),),)
    horizontal = ((resolve_code(SQUARE, "Hc+"),),)
    assert refold_mismatch("square", vertical, holes) < SAME_AREA
    assert refold_mismatch("square", horizontal, holes) == pytest.approx(2 * 1600.0)


def test_quality_rules_reject_broken_paper_and_slivers() -> None:
    across = box(-200, -5, 200, 5)
    assert paper_problem("square", across) == "the paper falls apart"
    assert paper_problem("square", box(0, 0, 5, 5)) == "the cut misses the paper"
    thread = box(-200, -200, 200, -1).union(box(-200, 0.5, 200, 200)).intersection(SQUARE.buffer(-0.1))
    assert paper_problem("square", thread) is not None
    assert paper_problem("square", box(-30, -30, 30, 30)) is None
    off_paper = Puzzle("square", (), (Cutout("circle", (192.0, 192.0), 40.0),))
    assert quality_problem(off_paper) == "a cutout lies mostly off the paper"
    touching = Puzzle("square", (), (Cutout("square", (0.0, 0.0), 40.0), Cutout("circle", (41.0, 0.0), 40.0)))
    assert quality_problem(touching) == "two cutouts touch"


def test_cutting_the_whole_folded_paper_removes_the_whole_sheet() -> None:
    rng = np.random.default_rng(3)
    for shape in SHEET_SHAPES:
        sheet = sheet_polygon(shape)
        sequence = sample_sequence(rng, sheet, 2, "symmetric")
        assert sequence is not None
        final = sequence[1][-1]
        assert same_region(unfold_cut(final, final.silhouette.buffer(1)), sheet)
        assert unfold_cut(final, box(1000, 1000, 1001, 1001)).is_empty


def test_back_cutouts_only_change_the_mirrored_layers() -> None:
    state = flat_state(SQUARE)
    step = (resolve_code(state.silhouette, "Vc+"),)
    front = (Cutout("square", (-100.0, 0.0), 40.0),)
    back = (Cutout("circle", (-100.0, 0.0), 40.0),)
    broken = holes_of(Puzzle("square", (step,), front, back))
    expected = box(-120, -20, -80, 20).union(affinity.translate(cutout_polygon(back[0]), 200, 0))
    assert same_region(broken, expected)
