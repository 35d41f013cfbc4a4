"""The fast partial score that rewards progress between steps of the code environment."""

from __future__ import annotations

import numpy as np

from foldbench.crease.io.generated import compile_generated
from foldbench.crease.score.similarity import partial_similarity, prepare_reference, score_generated
from foldbench.origami.instances import simple_fold_instance

SQUARE = {"vertices_coords": [[0, 0], [1, 0], [1, 1], [0, 1]], "edges_vertices": [[0, 1], [1, 2], [2, 3], [3, 0]],
          "edges_assignment": ["B", "B", "B", "B"]}
HALF_CREASE = {"vertices_coords": [[0, 0], [0.5, 0], [1, 0], [1, 1], [0, 1], [0.5, 0.5]],
               "edges_vertices": [[0, 1], [1, 2], [2, 3], [3, 4], [4, 0], [1, 5]],
               "edges_assignment": ["B", "B", "B", "B", "B", "V"]}


def test_partial_scores_order_answers_like_the_full_score() -> None:
    instance = simple_fold_instance(np.random.default_rng(8), 4, 200)
    reference = prepare_reference(instance.pattern)
    assert partial_similarity(compile_generated(instance.fold_document()), reference) == 1.0
    square = partial_similarity(compile_generated(SQUARE), reference)
    assert square is not None and 0.0 < square < 1.0
    # a pattern that does not fold flat, or is not a pattern, has no partial score
    assert compile_generated(HALF_CREASE).error["class"] == "GIF"
    assert partial_similarity(compile_generated(HALF_CREASE), reference) is None
    assert partial_similarity(compile_generated("not a document"), reference) is None
    # other models of as many folds: below 1, and on average above the bare square, as the full score says
    rng = np.random.default_rng(1)
    others = [simple_fold_instance(rng, 4, 200).fold_document() for _ in range(6)]
    partial = [partial_similarity(compile_generated(other), reference) for other in others]
    full = [score_generated(other, reference).total for other in others]
    assert all(value is not None and value < 1.0 for value in partial)
    assert np.mean(partial) > square
    assert np.mean(full) > score_generated(SQUARE, reference).total
