"""Pinned values of the crease-pattern-code score (OrigamiSpace appendix D), worked out by hand.

Every expected number below is derived in the comments from the paper's definitions (see the docstring of
:mod:`foldbench.crease.score.similarity`) on small patterns drawn on the unit square; none is read back from the code
under test. The pairs are chosen so that one ingredient differs at a time and every other sub-score stays at
exactly 1, so a sub-score that moves without its own ingredient changing, or a dimension that leaves out one of
its parts, fails a test here.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from foldbench.crease import build_crease_pattern, random_simple_folds
from foldbench.crease.graph.pattern import CreasePattern
from foldbench.crease.score._similarity_features import pattern_features
from foldbench.crease.score.similarity import (
    SUBSCORE_NAMES,
    _constraints,
    _dimensions,
    _face_map,
    prepare_reference,
    score_generated,
)

from .builders import fold_document, square_with

# A crease from the middle of the bottom side to the middle of the top side.
VERTICAL = ((0.5, 0.0), (0.5, 1.0))


def _half_fold(letter: str) -> CreasePattern:
    """The square folded once in half along the vertical midline."""
    return square_with([(*VERTICAL, letter)])


def _quarter_fold() -> CreasePattern:
    """Folded in half (valley), then in half again through both layers: the horizontal midline is a valley on
    one side of the centre and a mountain on the other (3 V + 1 M at the centre, Maekawa holds)."""
    return square_with([(*VERTICAL, "V"), ((0.0, 0.5), (0.5, 0.5), "V"), ((0.5, 0.5), (1.0, 0.5), "M")])


def _score(generated: CreasePattern | dict, reference: CreasePattern):
    document = generated if isinstance(generated, dict) else fold_document(generated)
    return score_generated(document, prepare_reference(reference))


NOISE = 1e-7
"""Folded outlines are buffered by 1e-9 before they are compared, so an exact match may read 1 - 1e-8."""


def _others_are_one(subscores: dict[str, float], moved: set[str]) -> None:
    unexpected = {name: value for name, value in subscores.items() if name not in moved and abs(value - 1) > NOISE}
    assert not unexpected, unexpected


# ---------------------------------------------------------------------------------------------------------------
# Flipping the only crease of a half fold: the assignment is the one ingredient that changes.
#
# Both patterns: 6 vertices (4 corners + 2 ends of the crease), 7 edges (6 boundary pieces + 1 crease), 2 faces
# of 4 vertices. Same graph, same faces, same folded positions (a flat fold is the same set of points whether the
# moving half goes up or down), same outline, no interior vertex, no taco constraint (one crease, two layers).
#
# * crease types: shares M: 1 - |1/7 - 0| = 6/7, V: 1 - |0 - 1/7| = 6/7, B: 1 - |6/7 - 6/7| = 1;
#   (0.4 * 6/7 + 0.4 * 6/7 + 0.2 * 1) * (7/7) = 4.8/7 + 1.4/7 = 6.2/7 = 31/35.
#   topology = 0.2 + 0.3 + 0.3 + 0.2 * 31/35 = 0.8 + 6.2/35.
# * fold angles: the reference's one angle is +180 (valley), the generated one -180 (mountain): two histograms
#   with no common bin, cosine 0. geometry = 0.4 * 1 + 0.3 * 0 + 0.3 * 1 = 0.7.
# * layer order: one overlapping pair in each, the left half in front of the right half in one fold and behind it
#   in the other: 0 agreeing pairs over a union of 1. folded state = 0.7 * 1 + 0.3 * 0 = 0.7.
# * constraints: all three constraint sets are empty in both (1 each), no interior vertex (1 each) -> 1.
# ---------------------------------------------------------------------------------------------------------------
FLIP_CREASE_TYPES = 31 / 35


def test_flipping_the_crease_of_a_half_fold_lowers_only_assignment_dependent_scores() -> None:
    score = _score(_half_fold("M"), _half_fold("V"))
    assert score.error is None and score.passed
    _others_are_one(score.subscores, {"crease_types", "fold_angles", "layer_order"})
    assert score.subscores["crease_types"] == pytest.approx(FLIP_CREASE_TYPES, abs=1e-12)
    assert score.subscores["fold_angles"] == pytest.approx(0.0, abs=1e-12)
    assert score.subscores["layer_order"] == pytest.approx(0.0, abs=1e-12)
    assert score.dimensions["topology"] == pytest.approx(0.8 + 0.2 * FLIP_CREASE_TYPES, abs=1e-12)
    assert score.dimensions["geometry"] == pytest.approx(0.7, abs=1e-12)
    assert score.dimensions["constraints"] == 1.0
    assert score.dimensions["folded_state"] == pytest.approx(0.7, abs=1e-12)
    # 0.25 * (0.8 + 6.2/35 + 0.7 + 1 + 0.7)
    assert score.total == pytest.approx(0.25 * (3.2 + 0.2 * FLIP_CREASE_TYPES), abs=1e-12)


def test_the_same_half_fold_scores_one_everywhere() -> None:
    score = _score(_half_fold("V"), _half_fold("V"))
    assert score.passed
    _others_are_one(score.subscores, set())
    assert score.dimensions == dict.fromkeys(("topology", "geometry", "constraints", "folded_state"), 1.0)


# ---------------------------------------------------------------------------------------------------------------
# Counts: a quarter fold (generated) against a half fold (reference).
#
#   reference: 6 vertices, 7 edges (6 B + 1 V), 2 faces of 4 vertices; degrees 2,2,2,2,3,3.
#   generated: 9 vertices (4 corners, 4 side midpoints, centre), 12 edges (8 B, 3 V, 1 M), 4 faces of 4
#              vertices; degrees 2,2,2,2,3,3,3,3,4.
# * vertex count: exp(-0.5 * |9 - 6| / min(9, 6)) = exp(-0.25)   (the larger count would give exp(-1/6)).
# * face count: exp(-|4 - 2| / min(4, 2)) = exp(-1)               (the larger count would give exp(-1/2)).
# * face vertices (mean face size 4 and 4) = 1; face-size distribution (all 4) = 1.
# * degree distribution: CDFs at 2: 4/6 vs 4/9, at 3: 1 vs 8/9, at 4: 1 vs 1 -> Wasserstein 2/9 + 1/9 = 1/3;
#   largest degree 4 -> 1 - (1/3) / 4 = 11/12.
# * components of the creases (boundary left out): one in each -> exp(0) = 1.
# * crease types: shares M: 1 - |1/12 - 0| = 11/12 = 77/84, V: 1 - |3/12 - 1/7| = 25/28 = 75/84,
#   B: 1 - |8/12 - 6/7| = 17/21 = 68/84; (0.4 * 77 + 0.4 * 75 + 0.2 * 68) / 84 = 74.4/84, times the ratio of
#   edge counts 7/12 -> 74.4/144 = 31/60.
# * proportions: bounding boxes 1/2 x 1/2 (a square) and 1/2 x 1 -> vectors (1, 1, 0) and (1, 1/2, 0), cosine
#   1.5 / (sqrt(2) * sqrt(1.25)) = 1.5 / sqrt(2.5).
# ---------------------------------------------------------------------------------------------------------------
QUARTER_VS_HALF = {
    "vertex_count": math.exp(-0.25),
    "face_count": math.exp(-1.0),
    "face_vertices": 1.0,
    "face_size_distribution": 1.0,
    "degree_distribution": 11 / 12,
    "components": 1.0,
    "crease_types": 31 / 60,
    "proportions": 1.5 / math.sqrt(2.5),
}


def test_count_ratios_are_scaled_by_the_smaller_count() -> None:
    score = _score(_quarter_fold(), _half_fold("V"))
    assert score.error is None and score.passed
    for name, expected in QUARTER_VS_HALF.items():
        assert score.subscores[name] == pytest.approx(expected, abs=1e-9), name
    edges = 0.7 * 11 / 12 + 0.3 * 1.0
    faces = 0.3 * math.exp(-1.0) + 0.3 + 0.4
    topology = 0.2 * math.exp(-0.25) + 0.3 * edges + 0.3 * faces + 0.2 * 31 / 60
    assert score.dimensions["topology"] == pytest.approx(topology, abs=1e-9)


def test_a_count_ratio_is_symmetric_in_which_pattern_is_the_reference() -> None:
    """Swapping the roles keeps every count sub-score (the formulas use min and |difference| only)."""
    score = _score(_half_fold("V"), _quarter_fold())
    for name in ("vertex_count", "face_count", "degree_distribution", "crease_types"):
        assert score.subscores[name] == pytest.approx(QUARTER_VS_HALF[name], abs=1e-9), name


# ---------------------------------------------------------------------------------------------------------------
# Geometry: a half fold (generated) against the plain square (reference, no crease at all).
#
# * point positions. Reference: the 4 corners, centred and scaled into the unit disc: (±1/√2, ±1/√2).
#   Generated: 6 vertices folded onto the right half: (1,0) and (1,1) twice each, (1/2,0), (1/2,1); their mean
#   is (5/6, 1/2), so centred they are (1/6, ±1/2) twice and (-1/3, ±1/2); the farthest is at √13/6, so scaled
#   they are (1/√13, ±3/√13) and (-2/√13, ±3/√13). Each generated point's nearest corner and each corner's
#   nearest generated point are in the same quadrant; the largest gap is between (1/√13, 3/√13) and
#   (1/√2, 1/√2): d² = 1/2 - 2/√26 + 1/13 + 9/13 - 6/√26 + 1/2 = 23/13 - 8/√26 (d ≈ 0.4476; every symmetry of
#   the square gives the same). Score exp(-5 d).
# * fold angles: the reference has no fold, the generated one has one: 0.
# * proportions: (1, 1, 0) against (1, 1/2, 0): 1.5 / sqrt(2.5).
# geometry = 0.4 exp(-5 d) + 0.3 * 0 + 0.3 * 1.5 / sqrt(2.5).
# Constraints: nothing on either side -> 1. Layer order: the reference has no overlapping pair, the generated one
# has one -> 0.
# ---------------------------------------------------------------------------------------------------------------
HALF_VS_SQUARE_POINTS = math.exp(-5 * math.sqrt(23 / 13 - 8 / math.sqrt(26)))


def test_geometry_weighs_points_angles_and_proportions() -> None:
    score = _score(_half_fold("V"), square_with([]))
    assert score.passed
    assert score.subscores["point_positions"] == pytest.approx(HALF_VS_SQUARE_POINTS, abs=1e-9)
    assert score.subscores["fold_angles"] == 0.0
    assert score.subscores["proportions"] == pytest.approx(1.5 / math.sqrt(2.5), abs=1e-9)
    assert score.dimensions["geometry"] == pytest.approx(
        0.4 * HALF_VS_SQUARE_POINTS + 0.3 * 1.5 / math.sqrt(2.5), abs=1e-9)
    assert score.dimensions["constraints"] == 1.0
    assert score.subscores["layer_order"] == 0.0


def test_proportions_alone_move_when_only_the_bounding_box_changes() -> None:
    """The half fold against the plain square and against the quarter fold both have proportions 1.5/√2.5:
    a 1/2 x 1 box against a square box, whatever the square's size."""
    for reference in (square_with([]), _quarter_fold()):
        score = _score(_half_fold("V"), reference)
        assert score.subscores["proportions"] == pytest.approx(1.5 / math.sqrt(2.5), abs=1e-9)
    same_box = _score(_half_fold("M"), _half_fold("V"))
    assert same_box.subscores["proportions"] == 1.0


def test_moving_a_pleat_changes_the_geometry_but_not_the_topology() -> None:
    """A pleat (valley at 1/3, mountain at 2/3) against a wider pleat (valley at 1/4, mountain at 3/4): the same
    graph (8 vertices, 8 boundary pieces + 1 V + 1 M, three faces of 4 vertices, two crease components), so every
    topology sub-score is exactly 1. One +180 and one -180 fold angle on both sides: fold angles 1. The folded
    boxes are 1/3 x 1 (three stacked thirds) and 1/2 x 1 (the two quarters meet in the middle of [1/4, 3/4]):
    proportions (1, 1/3, 0) . (1, 1/2, 0) / (sqrt(10/9) sqrt(5/4)) = (7/6) / (sqrt(50)/6) = 7 / sqrt(50)."""
    narrow = square_with([((1 / 3, 0.0), (1 / 3, 1.0), "V"), ((2 / 3, 0.0), (2 / 3, 1.0), "M")])
    wide = square_with([((0.25, 0.0), (0.25, 1.0), "V"), ((0.75, 0.0), (0.75, 1.0), "M")])
    score = _score(wide, narrow)
    assert score.passed
    topology_parts = ("vertex_count", "degree_distribution", "components", "face_count", "face_vertices",
                      "face_size_distribution", "crease_types")
    assert all(score.subscores[name] == 1.0 for name in topology_parts)
    assert score.dimensions["topology"] == 1.0
    assert score.subscores["fold_angles"] == pytest.approx(1.0, abs=1e-12)
    assert score.subscores["proportions"] == pytest.approx(7 / math.sqrt(50), abs=1e-9)
    assert score.subscores["point_positions"] < 1.0 and score.subscores["shape"] < 1.0


# ---------------------------------------------------------------------------------------------------------------
# Layer order: creases at x = 1/4 and 1/2 (reference) against x = 1/4, 1/2 and 3/4 (generated), all valleys.
#
# Reference faces A = [0, 1/4], B = [1/4, 1/2], C = [1/2, 1]: with B fixed, A reflects onto [1/4, 1/2] and C onto
# [0, 1/2], so all three pairs overlap: AB, AC, BC.
# Generated faces A, B, C1 = [1/2, 3/4], C2 = [3/4, 1]: A and C1 reflect onto [1/4, 1/2], C2 reflects twice onto
# [1/4, 1/2]: all four are stacked, 6 pairs. A and B are the only faces of the reference found at the same place
# (C was cut in two), so AB is the only shared pair; it is joined by the same valley crease in both, so A lies on
# the same side of B in both. Agreeing pairs 1, union of the pairs 3 + 6 - 1 = 8: layer order 1/8
# (over the reference's pairs alone it would be 1/3, over the generated pairs alone 1/6).
# ---------------------------------------------------------------------------------------------------------------
def test_layer_order_share_is_over_the_union_of_both_folds_pairs() -> None:
    reference = square_with([((0.25, 0.0), (0.25, 1.0), "V"), (*VERTICAL, "V")])
    generated = square_with([((0.25, 0.0), (0.25, 1.0), "V"), (*VERTICAL, "V"), ((0.75, 0.0), (0.75, 1.0), "V")])
    score = _score(generated, reference)
    assert score.compiled
    assert score.subscores["layer_order"] == pytest.approx(1 / 8, abs=1e-12)
    # and the same with the roles swapped: the union does not depend on which fold is the reference
    swapped = _score(reference, generated)
    assert swapped.subscores["layer_order"] == pytest.approx(1 / 8, abs=1e-12)


# ---------------------------------------------------------------------------------------------------------------
# Local flat-foldability. A compiled pattern meets both conditions at every vertex, so the two conditions are
# pinned on the crease-pattern side: the generated pattern's features come from a pattern that does not fold,
# put against the folded features of the reference (the quarter fold: one interior vertex, at the centre).
#
# * all four centre creases valleys: Maekawa fails (|0 - 4| = 4), Kawasaki holds (four right angles);
# * 3 V + 1 M with one ray turned from 90 to 80 degrees: Maekawa holds, Kawasaki fails (80 + 90 ≠ 180).
# Either way the centre is matched: total interior vertices 1 + 1, matched 1, so a condition that holds scores
# 1 / (2 - 1) = 1 and one that fails 0.2 / 1 = 0.2.
# ---------------------------------------------------------------------------------------------------------------
def _local_scores(generated: CreasePattern) -> dict[str, float]:
    reference = prepare_reference(_quarter_fold())
    gen_features = pattern_features(generated)
    face_map = _face_map(gen_features, reference.pattern_features)
    return _constraints((gen_features, reference.folded_features), reference, face_map)


def test_maekawa_and_kawasaki_are_checked_separately() -> None:
    all_valleys = square_with([(*VERTICAL, "V"), ((0.0, 0.5), (1.0, 0.5), "V")])
    scores = _local_scores(all_valleys)
    assert scores["maekawa"] == pytest.approx(0.2)
    assert scores["kawasaki"] == 1.0
    # 80° from the centre leaves the square on its top side at x = 0.5 + 0.5 / tan(80°)
    bent = square_with([((0.5, 0.0), (0.5, 0.5), "V"), ((0.5, 0.5), (0.5 + 0.5 / math.tan(math.radians(80)), 1.0), "V"),
                        ((0.0, 0.5), (0.5, 0.5), "V"), ((0.5, 0.5), (1.0, 0.5), "M")])
    scores = _local_scores(bent)
    assert scores["maekawa"] == 1.0
    assert scores["kawasaki"] == pytest.approx(0.2)


def _subscores(**changes: float) -> dict[str, float]:
    return {**dict.fromkeys(SUBSCORE_NAMES, 1.0), **changes}


@pytest.mark.parametrize(("changes", "dimension", "expected"), [
    # constraints = 0.3 taco-taco + 0.3 taco-tortilla + 0.2 transitivity + 0.2 (0.5 Maekawa + 0.5 Kawasaki)
    ({"maekawa": 0.0}, "constraints", 0.9),
    ({"kawasaki": 0.0}, "constraints", 0.9),
    ({"maekawa": 0.0, "kawasaki": 0.2}, "constraints", 0.8 + 0.2 * 0.1),
    ({"taco_taco": 0.0}, "constraints", 0.7),
    ({"transitivity": 0.5}, "constraints", 0.9),
    # geometry = 0.4 points + 0.3 angles + 0.3 proportions
    ({"proportions": 0.0}, "geometry", 0.7),
    ({"fold_angles": 0.0}, "geometry", 0.7),
    ({"point_positions": 0.5}, "geometry", 0.8),
    # folded state = 0.7 shape + 0.3 layer order
    ({"layer_order": 0.0}, "folded_state", 0.7),
    ({"shape": 0.0}, "folded_state", 0.3),
    # topology = 0.2 vertices + 0.3 (0.7 degrees + 0.3 components) + 0.3 (0.3 count + 0.3 size + 0.4 sizes)
    #            + 0.2 crease types
    ({"crease_types": 0.0}, "topology", 0.8),
    ({"vertex_count": 0.0}, "topology", 0.8),
    ({"components": 0.0}, "topology", 1 - 0.3 * 0.3),
    ({"face_size_distribution": 0.0}, "topology", 1 - 0.3 * 0.4),
])
def test_each_dimension_is_the_papers_weighted_sum(changes: dict[str, float], dimension: str,
                                                   expected: float) -> None:
    dimensions = _dimensions(_subscores(**changes))
    assert dimensions[dimension] == pytest.approx(expected, abs=1e-12)
    assert all(value == 1.0 for name, value in dimensions.items() if name != dimension)


# ---------------------------------------------------------------------------------------------------------------
# Empty and degenerate inputs.
# ---------------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("junk", [{}, [], 0, "", {"vertices_coords": [], "edges_vertices": []}])
def test_nothing_to_read_scores_zero_in_every_dimension(junk) -> None:
    score = score_generated(junk, prepare_reference(_half_fold("V")))
    assert score.error_class == "CSE" and not score.passed and not score.compiled
    assert score.dimensions == dict.fromkeys(("topology", "geometry", "constraints", "folded_state"), 0.0)
    assert score.total == 0.0


def test_the_plain_square_against_itself_scores_one() -> None:
    score = _score(square_with([]), square_with([]))
    assert score.passed
    _others_are_one(score.subscores, set())


def test_a_pattern_that_does_not_fold_keeps_topology_and_takes_the_fallbacks() -> None:
    """Four valleys at the centre (Maekawa fails, nothing folds) against the quarter fold (3 V + 1 M): the same
    graph, so only the crease types differ: shares M 1 - 1/12, V 1 - 1/12, B 1 -> 0.8 * 11/12 + 0.2 = 14/15,
    edge counts equal. topology = 0.8 + 0.2 * 14/15; geometry 0.2, constraints 0.2, folded state 0.3."""
    all_valleys = square_with([(*VERTICAL, "V"), ((0.0, 0.5), (1.0, 0.5), "V")])
    score = _score(all_valleys, _quarter_fold())
    assert not score.compiled and not score.passed
    assert score.dimensions["topology"] == pytest.approx(0.8 + 0.2 * 14 / 15, abs=1e-12)
    assert (score.dimensions["geometry"], score.dimensions["constraints"], score.dimensions["folded_state"]) == \
        (0.2, 0.2, 0.3)
    assert score.total == pytest.approx(0.25 * (0.8 + 0.2 * 14 / 15 + 0.7), abs=1e-12)


# ---------------------------------------------------------------------------------------------------------------
# Properties.
# ---------------------------------------------------------------------------------------------------------------
_SIDES = (
    lambda t: (t, 0.0),  # bottom
    lambda t: (1.0, t),  # right
    lambda t: (t, 1.0),  # top
    lambda t: (0.0, t),  # left
)


@settings(max_examples=20, deadline=None, derandomize=True)
@given(sides=st.permutations(range(4)), start=st.integers(1, 19), end=st.integers(1, 19),
       letter=st.sampled_from("MV"))
def test_flipping_a_single_fold_moves_exactly_the_assignment_scores(sides, start, end, letter) -> None:
    """Any single straight fold from one side to another (never through a corner): against itself everything is
    1; with its letter flipped the numbers are those worked out for the half fold above, whatever the line:
    7 edges (6 boundary pieces + 1 crease) give crease types 31/35, the angle histograms are disjoint, the one
    overlapping pair swaps sides, and nothing else changes."""
    a, b = _SIDES[sides[0]](start / 20), _SIDES[sides[1]](end / 20)
    other = "M" if letter == "V" else "V"
    reference = square_with([(a, b, letter)])
    same = _score(reference, reference)
    _others_are_one(same.subscores, set())
    flipped = _score(square_with([(a, b, other)]), reference)
    assert flipped.passed
    _others_are_one(flipped.subscores, {"crease_types", "fold_angles", "layer_order"})
    assert flipped.subscores["crease_types"] == pytest.approx(FLIP_CREASE_TYPES, abs=1e-12)
    assert flipped.subscores["fold_angles"] == pytest.approx(0.0, abs=1e-12)
    assert flipped.subscores["layer_order"] == pytest.approx(0.0, abs=1e-12)
    assert flipped.dimensions["constraints"] == 1.0
    assert flipped.dimensions["folded_state"] == pytest.approx(0.7, abs=1e-12)


@settings(max_examples=12, deadline=None, derandomize=True)
@given(seed=st.integers(0, 10_000), folds=st.integers(1, 4), grid=st.sampled_from([None, 4]))
def test_turning_every_crease_over_keeps_what_does_not_depend_on_the_letters(seed, folds, grid) -> None:
    """Flipping every letter of a simple-fold pattern folds the same model turned over: same graph, same folded
    points and outline, same constraint sets, same local conditions. The crease types fall to
    1 - 0.8 |M - V| / E (the M and V shares swap, the edge count stays), and the layer order falls below 1."""
    simple = random_simple_folds(np.random.default_rng(seed), folds, grid=grid)
    letters = "".join(simple.assignments)
    reference = build_crease_pattern(simple.segments, letters)
    swapped = build_crease_pattern(simple.segments, letters.translate(str.maketrans("MV", "VM")))
    same = _score(reference, reference)
    _others_are_one(same.subscores, set())
    score = _score(swapped, reference)
    assert score.passed
    counts = {c: reference.edges_assignment.count(c) for c in "MV"}
    expected_types = 1 - 0.8 * abs(counts["M"] - counts["V"]) / reference.edge_count
    assert score.subscores["crease_types"] == pytest.approx(expected_types, abs=1e-9)
    _others_are_one(score.subscores, {"crease_types", "fold_angles", "layer_order"})
    assert score.dimensions["constraints"] == 1.0
    assert score.subscores["layer_order"] < 1.0
    assert score.dimensions["folded_state"] < 1.0


def test_a_waterbomb_base_against_its_turned_over_twin() -> None:
    """A waterbomb base: both diagonals valley, the horizontal midline mountain (4 V + 2 M rays at the centre).
    Turned over (M and V swapped) the graph, the folded points, the outline and the constraint sets stay; the
    counts become 2 V + 4 M, so with E = 6 boundary pieces (the diagonals end at corners, the midline cuts two
    sides) + 6 rays = 12 edges the crease types fall to 0.4 (1 - 2/12) + 0.4 (1 - 2/12) + 0.2 = 1 - 0.8 * 2/12
    = 13/15, and the layer order reverses."""
    diagonals = [((0.0, 0.0), (0.5, 0.5)), ((0.5, 0.5), (1.0, 1.0)), ((1.0, 0.0), (0.5, 0.5)), ((0.5, 0.5), (0.0, 1.0))]
    midline = [((0.0, 0.5), (0.5, 0.5)), ((0.5, 0.5), (1.0, 0.5))]
    base = square_with([(a, b, "V") for a, b in diagonals] + [(a, b, "M") for a, b in midline])
    twin = square_with([(a, b, "M") for a, b in diagonals] + [(a, b, "V") for a, b in midline])
    assert _score(base, base).total == pytest.approx(1.0, abs=NOISE)
    score = _score(twin, base)
    assert score.passed
    _others_are_one(score.subscores, {"crease_types", "fold_angles", "layer_order"})
    assert score.subscores["crease_types"] == pytest.approx(13 / 15, abs=1e-12)
    assert score.dimensions["topology"] == pytest.approx(0.8 + 0.2 * 13 / 15, abs=1e-12)
    assert score.dimensions["constraints"] == 1.0
    assert score.subscores["layer_order"] < 1.0
