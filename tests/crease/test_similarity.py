"""Scoring generated crease patterns against references: hand-made pairs, invariants over random simple folds."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from foldbench.crease import build_crease_pattern, random_simple_folds, simple_fold_pattern
from foldbench.crease.score.similarity import (
    SUBSCORE_NAMES,
    prepare_reference,
    score_generated,
)

VERTICAL = ((0.5, 0.0), (0.0, 1.0))
HORIZONTAL = ((0.0, 0.5), (1.0, 0.0))
LOW_HORIZONTAL = ((0.0, 0.3), (1.0, 0.0))
DIAGONAL = ((0.0, 0.0), (1.0, 1.0))


def _fold_document(simple) -> tuple[object, dict]:
    pattern = build_crease_pattern(simple.segments, "".join(simple.assignments))
    fields = pattern.to_fold_fields()
    del fields["edges_foldAngle"]
    return pattern, fields


def _by_lines(lines) -> tuple[object, dict]:
    return _fold_document(simple_fold_pattern(list(lines)))


def _random(seed: int, folds: int, grid: int | None = None) -> tuple[object, dict]:
    return _fold_document(random_simple_folds(np.random.default_rng(seed), folds, grid=grid))


@pytest.mark.parametrize(("seed", "folds", "grid"), [(1, 4, None), (3, 3, 4), (5, 5, None)])
def test_identical_pattern_scores_one_everywhere(seed: int, folds: int, grid: int | None) -> None:
    pattern, document = _random(seed, folds, grid)
    score = score_generated(document, prepare_reference(pattern))
    assert score.error is None and score.passed
    assert set(score.subscores) == set(SUBSCORE_NAMES)
    assert all(value == pytest.approx(1.0) for value in score.subscores.values()), score.subscores
    assert all(value == pytest.approx(1.0) for value in score.dimensions.values())
    assert score.total == pytest.approx(1.0)


def test_mirrored_pattern_keeps_shape_but_not_place() -> None:
    """Mirroring the paper gives the same flat model turned over: the graph, the folded geometry and the folded
    outline match, but faces, vertices and constraints lie elsewhere on the paper, so constraints and layers do
    not."""
    pattern, document = _random(1, 4)
    mirrored = {**document, "vertices_coords": [[1 - x, y] for x, y in document["vertices_coords"]]}
    score = score_generated(mirrored, prepare_reference(pattern))
    assert score.passed
    assert score.dimensions["topology"] == pytest.approx(1.0)
    assert score.dimensions["geometry"] == pytest.approx(1.0, abs=1e-6)
    assert score.subscores["shape"] == pytest.approx(1.0, abs=1e-6)
    assert score.dimensions["constraints"] < 0.5
    assert score.subscores["layer_order"] < 0.5
    assert 0.5 < score.total < 0.9


@pytest.mark.parametrize("second", [HORIZONTAL, LOW_HORIZONTAL])
def test_one_crease_line_removed_ranks_between_identical_and_other_model(second) -> None:
    """Two perpendicular folds against the first of them alone (one crease line removed, still foldable) and
    against a diagonal fold (another model): the missing crease keeps more of the structure and shape."""
    reference = prepare_reference(_by_lines([VERTICAL, second])[0])
    identical = score_generated(_by_lines([VERTICAL, second])[1], reference)
    removed = score_generated(_by_lines([VERTICAL])[1], reference)
    other = score_generated(_by_lines([DIAGONAL])[1], reference)
    assert removed.passed and other.passed
    assert identical.total == pytest.approx(1.0)
    assert identical.total > removed.total > other.total
    assert removed.dimensions["topology"] > other.dimensions["topology"]
    assert removed.dimensions["folded_state"] > other.dimensions["folded_state"]


def test_one_crease_segment_removed_breaks_a_vertex() -> None:
    """Half of a crease line removed: the centre vertex breaks Maekawa (GIF), so topology is scored and the other
    dimensions take appendix D's fallbacks (geometry 0.2, constraints 0.2, folded state 0.3)."""
    pattern, document = _by_lines([VERTICAL, HORIZONTAL])
    reference = prepare_reference(pattern)
    creases = [i for i, letter in enumerate(document["edges_assignment"]) if letter != "B"]
    dropped = creases[0]
    broken = {**document,
              "edges_vertices": [e for i, e in enumerate(document["edges_vertices"]) if i != dropped],
              "edges_assignment": [a for i, a in enumerate(document["edges_assignment"]) if i != dropped]}
    broken.pop("faces_vertices")
    score = score_generated(broken, reference)
    assert score.error_class == "GIF" and not score.passed
    assert 0.5 < score.dimensions["topology"] < 1.0
    assert (score.dimensions["geometry"], score.dimensions["constraints"], score.dimensions["folded_state"]) == \
        (0.2, 0.2, 0.3)
    assert score.total == pytest.approx(0.25 * score.dimensions["topology"] + 0.25 * (0.2 + 0.2 + 0.3))
    # the headline still compares the crease drawing: three of the four half-lines are there, with their letters
    assert score.creases == pytest.approx(0.75, abs=0.01) and score.score == pytest.approx(score.creases)


def test_a_syntax_error_scores_nothing_on_either_total() -> None:
    reference = prepare_reference(_by_lines([VERTICAL, HORIZONTAL])[0])
    for junk in (None, "no pattern", {"vertices_coords": [[0, 0]], "edges_vertices": [[0, 5]]}):
        score = score_generated(junk, reference)
        assert score.error_class == "CSE" and score.total == 0.0 and score.score == 0.0


def test_no_subscore_is_constant_over_random_pairs() -> None:
    references = [_random(seed, folds) for seed, folds in [(0, 2), (1, 3), (2, 4), (4, 3)]]
    candidates = references + [_random(seed, folds, 4) for seed, folds in [(10, 2), (11, 3), (12, 5)]]
    seen: dict[str, set[float]] = {name: set() for name in SUBSCORE_NAMES}
    for pattern, _ in references:
        reference = prepare_reference(pattern)
        for _, document in candidates:
            score = score_generated(document, reference)
            for name, value in score.subscores.items():
                assert 0.0 <= value <= 1.0 + 1e-9, (name, value)
                seen[name].add(round(value, 9))
    constant = [name for name, values in seen.items() if len(values) < 2]
    assert not constant, constant


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), folds=st.integers(0, 5), grid=st.sampled_from([None, 4, 8]))
def test_random_simple_fold_pattern_scores_one_against_itself(seed: int, folds: int, grid: int | None) -> None:
    pattern, document = _random(seed, folds, grid)
    score = score_generated(document, prepare_reference(pattern))
    assert score.passed
    assert score.total == pytest.approx(1.0)
