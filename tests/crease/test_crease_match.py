"""foldbench's code-generation headline: the crease agreement, and the order it puts hand-made answers in."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from foldbench.crease import build_crease_pattern, random_simple_folds, simple_fold_pattern
from foldbench.crease.graph.pattern import CreasePattern
from foldbench.crease.score import similarity
from foldbench.crease.score.crease_match import CreaseAgreement, chance_corrected, crease_agreement, paper_grid
from foldbench.crease.score.similarity import prepare_reference, score_generated
from foldbench.origami.instances import pleat_instance

BORDER = np.array([[[0, 0], [1, 0]], [[1, 0], [1, 1]], [[1, 1], [0, 1]], [[0, 1], [0, 0]]], float)
# a reference without symmetry: a vertical fold off centre, then a slanted fold of the folded strip
REFERENCE_LINES = [((0.4, 0.0), (0.0, 1.0)), ((0.0, 0.3), (1.0, 0.25))]


def _document(segments: np.ndarray, letters: str) -> dict:
    fields = build_crease_pattern(np.asarray(segments, float), letters).to_fold_fields()
    del fields["edges_foldAngle"]
    return fields


def _segments(document: dict) -> tuple[np.ndarray, str]:
    coords = np.asarray(document["vertices_coords"], float)
    return coords[np.asarray(document["edges_vertices"])], "".join(document["edges_assignment"])


@pytest.fixture(scope="module")
def reference():
    simple = simple_fold_pattern(REFERENCE_LINES)
    return simple, build_crease_pattern(simple.segments, "".join(simple.assignments))


def _longest_crease(segments: np.ndarray, letters: str) -> int:
    lengths = np.hypot(*(segments[:, 1] - segments[:, 0]).T)
    lengths[[letter == "B" for letter in letters]] = -1
    return int(np.argmax(lengths))


def _ladder(simple, pattern) -> dict[str, object]:
    """Hand-made answers to the reference, best first."""
    document = pattern.to_fold_fields()
    del document["edges_foldAngle"]
    segments, letters = _segments(document)
    longest = _longest_crease(segments, letters)
    coords = np.asarray(document["vertices_coords"], float)
    inside = ((coords > 1e-9) & (coords < 1 - 1e-9)).all(axis=1)
    jittered = coords.copy()
    jittered[inside] += np.random.default_rng(3).uniform(-1e-3, 1e-3, (int(inside.sum()), 2))
    flipped = list(letters)
    flipped[longest] = "M" if letters[longest] == "V" else "V"
    direction = segments[longest, 1] - segments[longest, 0]
    moved = segments.copy()
    moved[longest] += 0.04 * np.array([-direction[1], direction[0]]) / np.hypot(*direction)
    kept = [i for i in range(len(letters)) if i != longest]
    extra = np.concatenate([segments, [[[0.0, 0.8], [0.7, 1.0]]]])
    other = random_simple_folds(np.random.default_rng(11), 2)
    return {
        "reference": document,
        "jittered": {**document, "vertices_coords": jittered.tolist()},
        "flipped": {**document, "edges_assignment": flipped},
        "moved": _document(np.clip(moved, 0, 1), letters),
        "removed": _document(segments[kept], "".join(letters[i] for i in kept)),
        "extra": _document(extra, letters + "V"),
        "unrelated": _document(other.segments, "".join(other.assignments)),
        "one fold": _document(np.concatenate([BORDER, [[[0.0, 0.5], [1.0, 0.5]]]]), "BBBBV"),
        "bare square": _document(BORDER, "BBBB"),
        "unparseable": None,
    }


def test_the_headline_ranks_answers_as_a_person_would(reference) -> None:
    prepared = prepare_reference(reference[1])
    scores = {name: score_generated(answer, prepared) for name, answer in _ladder(*reference).items()}
    headline = {name: score.score for name, score in scores.items()}
    near_misses = [headline[name] for name in ("flipped", "moved", "removed", "extra")]
    far = [headline[name] for name in ("unrelated", "one fold", "bare square")]
    assert headline["reference"] == 1.0
    assert headline["jittered"] >= 0.99
    assert headline["jittered"] > max(near_misses)
    assert min(near_misses) > 0.5
    assert min(near_misses) > max(far) + 0.3
    assert min(far) > 0.0 == headline["unparseable"]
    # the paper's total does not separate them so: a near miss that no longer folds sits with the far answers
    assert not scores["flipped"].compiled
    assert scores["flipped"].total < scores["unrelated"].total + 0.1


def test_a_near_miss_that_does_not_fold_is_compared_on_its_creases(reference) -> None:
    prepared = prepare_reference(reference[1])
    flipped = score_generated(_ladder(*reference)["flipped"], prepared)
    assert flipped.error_class is not None and flipped.error_class != "CSE"
    assert 0.7 < flipped.creases < 1.0 and flipped.score == pytest.approx(flipped.creases)


def _turned(pattern, turn: np.ndarray, swap: bool):
    segments = (pattern.vertices_coords[pattern.edges_vertices] - 0.5) @ turn.T + 0.5
    letters = "".join(pattern.edges_assignment)
    return build_crease_pattern(segments, letters.translate(str.maketrans("MV", "VM")) if swap else letters)


def test_the_same_sheet_turned_or_turned_over_agrees_fully(reference) -> None:
    pattern = reference[1]
    quarter = np.array([[0.0, -1.0], [1.0, 0.0]])
    mirror = np.array([[-1.0, 0.0], [0.0, 1.0]])
    assert crease_agreement(_turned(pattern, quarter, False), pattern).f1 == pytest.approx(1.0)
    assert crease_agreement(_turned(pattern, mirror, True), pattern).f1 == pytest.approx(1.0)
    # a mirror image that keeps its letters is the mirror model: right places, wrong assignments
    mirrored = crease_agreement(_turned(pattern, mirror, False), pattern)
    assert 0.45 < mirrored.f1 < 0.6


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), other=st.integers(0, 10_000), folds=st.integers(1, 4))
def test_agreement_is_one_with_itself_and_mirrors_precision_and_recall(seed: int, other: int, folds: int) -> None:
    first = random_simple_folds(np.random.default_rng(seed), folds)
    second = random_simple_folds(np.random.default_rng(other), folds)
    a = build_crease_pattern(first.segments, "".join(first.assignments))
    b = build_crease_pattern(second.segments, "".join(second.assignments))
    assert crease_agreement(a, a).f1 == pytest.approx(1.0)
    forward, backward = crease_agreement(a, b), crease_agreement(b, a)
    assert 0.0 <= forward.f1 <= 1.0
    # the raw shares mirror; the chance correction reads the reference's grid, so it is not symmetric
    assert forward.raw_precision == pytest.approx(backward.raw_recall, abs=1e-6)
    assert forward.raw_recall == pytest.approx(backward.raw_precision, abs=1e-6)
    assert forward.precision <= forward.raw_precision and forward.recall <= forward.raw_recall


def _one_crease_removed(document: dict) -> dict:
    segments, letters = _segments(document)
    kept = [i for i in range(len(letters)) if i != _longest_crease(segments, letters)]
    return _document(segments[kept], "".join(letters[i] for i in kept))


def test_a_random_pleated_pattern_on_the_grid_scores_far_below_a_one_crease_near_miss(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two random hard pleated models (24 pleats on the same 1/64 grid) share much of their crease length by
    coincidence; only what is beyond chance counts, so such a pattern sits far below the reference with one crease
    removed (without the correction it took about half the near miss's score)."""
    agreements: list[CreaseAgreement] = []

    def recorded(generated: CreasePattern, reference: CreasePattern) -> CreaseAgreement:
        agreements.append(crease_agreement(generated, reference))
        return agreements[-1]

    # The score's own crease agreement (about a second each) is read for the 40 % check instead of a second one.
    monkeypatch.setattr(similarity, "crease_agreement", recorded)
    randoms, near_misses = [], []
    for seed in range(3):
        reference = pleat_instance(np.random.default_rng(seed), 25, 200)
        prepared = prepare_reference(reference.pattern)
        # Searching from 1000 + seed, the first random pleated model that shares at least 40 % of its creases
        # by chance is seed 1003's for each of the three references; the search starts there (each rejected
        # candidate costs a one-second agreement) and the loop still checks the 40 %.
        other_seed = 1003
        while True:
            other = pleat_instance(np.random.default_rng(other_seed), 25, 200)
            agreements.clear()
            score = score_generated(other.fold_document(), prepared)
            (agreement,) = agreements  # the one agreement the score made, of the compiled model with the reference
            if agreement.raw_precision > 0.4:
                break
            other_seed += 1
        randoms.append(score)
        near_misses.append(score_generated(_one_crease_removed(reference.fold_document()), prepared))
    assert max(score.creases for score in randoms) < 0.15
    # its folded shape, a strip as the reference's, is credited only as far as its creases agree (full credit: ~0.13)
    assert max(score.score for score in randoms) < 0.08
    assert min(score.creases for score in near_misses) > 0.8
    assert min(score.score for score in near_misses) > max(score.score for score in randoms) + 0.55


def _pleat_lines(heights: np.ndarray):
    lines = np.array([[[0.0, y], [1.0, y]] for y in heights])
    return build_crease_pattern(np.concatenate([BORDER, lines]), "BBBB" + "VM" * (len(heights) // 2))


def test_the_same_pleats_moved_along_the_grid_count_as_chance() -> None:
    """Pleat lines on 20 of the 31 even 64ths, and the same drawing moved up one grid step (2/64): the family at
    the wrong place, which shares most of its lines by coincidence; next to nothing counts once chance is taken
    out, while the reference itself keeps 1."""
    heights = np.sort(np.random.default_rng(4).choice(np.arange(1, 31), size=20, replace=False)) * 2 / 64
    reference = _pleat_lines(heights)
    moved = crease_agreement(_pleat_lines(heights + 2 / 64), reference)
    assert moved.raw_precision > 0.5 and moved.f1 < 0.25
    assert crease_agreement(reference, reference).f1 == pytest.approx(1.0)


@settings(max_examples=40, deadline=None)
@given(n=st.integers(1, 256), start=st.floats(0.0, 0.99), steps=st.lists(st.integers(2, 255), max_size=6))
def test_paper_grid_finds_the_coarsest_lattice(n: int, start: float, steps: list[int]) -> None:
    values = start + np.array([0, 1, *steps]) / n  # one step of 1/n: no coarser lattice holds them
    assert paper_grid(values) == n


@settings(max_examples=60, deadline=None)
@given(observed=st.floats(0.0, 1.0), expected=st.floats(0.0, 1.0), more=st.floats(0.0, 1.0))
def test_chance_correction_is_zero_at_chance_one_at_one_and_monotone(observed: float, expected: float,
                                                                      more: float) -> None:
    corrected = chance_corrected(observed, expected)
    assert 0.0 <= corrected <= 1.0
    assert chance_corrected(1.0, expected) == 1.0  # a full share stays full, even where chance gives everything
    if expected < 1.0:
        assert chance_corrected(expected, expected) == 0.0
        assert (corrected > 0.0) == (observed > expected)
    assert chance_corrected(max(observed, more), expected) >= corrected
