"""The orders the creases force are the same whether the creases are walked one by one or in arrays."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from foldbench.crease.compiler import (
    FEW_CREASE_EDGES,
    _orders_edge_by_edge,
    _orders_in_arrays,
    compile_crease_pattern,
    crease_assignment_orders,
)
from foldbench.crease.errors import CreasePatternError
from foldbench.crease.graph.pattern import build_crease_pattern
from foldbench.crease.layers.constraints import ABOVE, BELOW
from foldbench.crease.simple_folds import random_simple_folds

from .builders import map_pattern


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.integers(1, 7), st.booleans())
def test_walking_the_creases_and_arrays_force_the_same_orders(seed: int, folds: int, grid: bool) -> None:
    pattern_folds = random_simple_folds(np.random.default_rng(seed), folds, grid=8 if grid else None)
    try:
        compiled = compile_crease_pattern(build_crease_pattern(pattern_folds.segments,
                                                               list(pattern_folds.assignments)))
    except CreasePatternError:
        return
    pattern, folded, constraints = compiled.pattern, compiled.folded, compiled.constraints
    walked = _orders_edge_by_edge(pattern, folded, constraints)
    assert _orders_in_arrays(pattern, folded, constraints) == walked
    assert all(value in (ABOVE, BELOW) for _, value in walked)
    assert len({variable for variable, _ in walked}) <= len(constraints.variables_faces)


def test_a_map_with_many_creases_takes_the_array_way_to_the_same_orders() -> None:
    pattern = map_pattern(1, 30, "V")
    assert pattern.edge_count > FEW_CREASE_EDGES
    compiled = compile_crease_pattern(pattern)
    orders = crease_assignment_orders(compiled.pattern, compiled.folded, compiled.constraints)
    assert orders == _orders_edge_by_edge(compiled.pattern, compiled.folded, compiled.constraints)
    assert len(orders) > 0
