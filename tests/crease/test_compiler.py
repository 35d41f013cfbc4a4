"""State counts with independent, known answers: stamp and map folding (OEIS A000136, A001418, 3x3 = 1368)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from foldbench.crease.compiler import compile_crease_pattern
from foldbench.crease.errors import AmbiguousFoldedState, SelfIntersection
from foldbench.crease.graph.pattern import CreasePattern, build_crease_pattern
from foldbench.crease.io.fold_format import pattern_from_fold
from foldbench.crease.layers.solver import LayerSolver

from .builders import map_pattern, square_with


@pytest.mark.parametrize(("stamps", "foldings"), [(1, 1), (2, 2), (3, 6), (4, 16), (5, 50), (6, 144), (7, 462)])
def test_strip_of_stamps(stamps: int, foldings: int) -> None:
    compiled = compile_crease_pattern(map_pattern(1, stamps))
    assert compiled.state_count == foldings
    assert len(compiled.constraints.variables_faces) == stamps * (stamps - 1) // 2


@pytest.mark.parametrize(
    ("rows", "columns", "foldings"), [(2, 2, 8), (2, 3, 60), (2, 4, 320), (2, 5, 1980), (2, 6, 10512), (3, 3, 1368)]
)
def test_maps(rows: int, columns: int, foldings: int) -> None:
    assert compile_crease_pattern(map_pattern(rows, columns)).state_count == foldings


def test_limit_caps_each_component() -> None:
    compiled = compile_crease_pattern(map_pattern(1, 6), limit=10)
    assert compiled.state_count == 10
    assert compiled.summary()["limited"] is True


def test_single_valley_fold() -> None:
    compiled = compile_crease_pattern(square_with([((0.5, 0), (0.5, 1), "V")]))
    summary = compiled.summary()
    assert (summary["faces"], summary["variables"], summary["states"]) == (2, 1, 1)
    assert summary["flipped_faces"] == 1
    folded_x = {round(float(x), 9) for x in compiled.folded.vertices_coords_folded[:, 0]}
    assert folded_x in ({0.0, 0.5}, {0.5, 1.0})  # one half lands on the other


def test_valley_puts_the_folded_face_on_top_and_mountain_below() -> None:
    for letter, expected in (("V", 1), ("M", -1)):
        compiled = compile_crease_pattern(square_with([((0.5, 0), (0.5, 1), letter)]))
        moving = 1 - int(np.flatnonzero(~compiled.folded.faces_flipped)[0])
        layers = compiled.cells_layer_order()
        assert len(layers) == 1
        assert (layers[0][0] == moving) == (expected == 1)
        orders = compiled.face_orders()
        assert len(orders) == 1 and orders[0][2] in (-1, 1)


def test_pleat_has_one_state() -> None:
    compiled = compile_crease_pattern(square_with([((1 / 3, 0), (1 / 3, 1), "V"), ((2 / 3, 0), (2 / 3, 1), "M")]))
    assert compiled.state_count == 1
    assert compiled.summary()["constraints"]["taco-tortilla"] + compiled.summary()["constraints"]["transitivity"] > 0


def test_every_assigned_2x2_map_has_exactly_one_state() -> None:
    total = 0
    for odd in range(4):
        for odd_letter, other in (("M", "V"), ("V", "M")):
            letters = [odd_letter if i == odd else other for i in range(4)]
            creases = [((0.5, 0.5), end, letter) for end, letter in
                       zip([(1, 0.5), (0.5, 1), (0, 0.5), (0.5, 0)], letters, strict=False)]
            total += compile_crease_pattern(square_with(creases)).state_count
    assert total == 8


def test_ambiguity_is_an_error_only_on_request() -> None:
    pattern = map_pattern(1, 3)
    assert any("AFS" in warning for warning in compile_crease_pattern(pattern).warnings)
    with pytest.raises(AmbiguousFoldedState) as caught:
        compile_crease_pattern(pattern, require_unique=True)
    assert caught.value.where["states"] == 6


def _strip(lengths: list[float], letters: str) -> CreasePattern:
    """A strip of unit height cut into stamps of the given lengths, creases assigned by ``letters``."""
    total = sum(lengths)
    segments = [[[0, 0], [total, 0]], [[total, 0], [total, 1]], [[total, 1], [0, 1]], [[0, 1], [0, 0]]]
    position = 0.0
    for length in lengths[:-1]:
        position += length
        segments.append([[position, 0], [position, 1]])
    return build_crease_pattern(np.array(segments, float), "BBBB" + letters)


def test_long_ends_folded_over_a_short_middle_cannot_stack() -> None:
    # each end folds over the middle stamp and crosses the other end's crease line: no layer order exists
    with pytest.raises(SelfIntersection) as caught:
        compile_crease_pattern(_strip([2, 1, 2], "VV"))
    assert caught.value.error_class == "PSI"
    assert caught.value.where["constraint_type"] in ("taco-tortilla", "taco-taco", "transitivity")
    assert set(caught.value.where["conflicting_faces"]) <= {0, 1, 2}
    assert compile_crease_pattern(_strip([2, 1, 2], "VM")).state_count == 1
    assert compile_crease_pattern(_strip([1, 1, 1], "VV")).state_count == 2


def test_state_export_is_a_fold_frame_with_face_orders() -> None:
    compiled = compile_crease_pattern(map_pattern(1, 4))
    for state in (0, compiled.state_count - 1):
        frame = compiled.folded_frame(state)
        assert frame["frame_classes"] == ["foldedForm"]
        assert len(frame["faceOrders"]) == len(compiled.constraints.variables_faces)
    layers = [tuple(compiled.cells_layer_order(state)[0]) for state in range(compiled.state_count)]
    assert len(set(layers)) == 16  # every state is a different stacking
    document = compiled.fold_document(1)
    json.dumps(document)
    assert pattern_from_fold(document).face_count == 4
    with pytest.raises(ValueError):
        compiled.state_values(compiled.state_count)


def test_solver_reports_a_cycle_as_self_intersection() -> None:
    compiled = compile_crease_pattern(map_pattern(1, 3))
    solver = LayerSolver(compiled.constraints)
    wanted = {(0, 1): 1, (1, 2): 1, (0, 2): 2}  # 0 above 1 above 2 above 0
    seeds = [(variable, wanted[(f, g)]) for variable, (f, g) in
             enumerate(compiled.constraints.variables_faces.tolist())]
    with pytest.raises(SelfIntersection) as caught:
        solver.solve(seeds)
    assert caught.value.where["constraint_type"] in ("transitivity", "taco-tortilla")
    assert set(caught.value.where["faces"]) <= {0, 1, 2}


@pytest.mark.parametrize("seed", range(4))
def test_transitivity_counts_every_triple_of_faces_sharing_a_cell(seed: int) -> None:
    import itertools

    from foldbench.crease.simple_folds import random_simple_folds

    folds = random_simple_folds(np.random.default_rng(seed), 5)
    compiled = compile_crease_pattern(build_crease_pattern(folds.segments, folds.assignments))
    triples = {triple for faces in compiled.cells.cells_faces for triple in itertools.combinations(faces, 3)}
    counts = compiled.summary()["constraints"]
    assert counts["transitivity"] == len(triples) > 0
    assert counts["transitivity_kept"] <= counts["transitivity"]
