from __future__ import annotations

import itertools

import pytest

from foldbench.crease.layers.constraints import (
    CONFLICT,
    CONSTRAINT_SLOTS,
    DEAD,
    FREE,
    PROPAGATION_TABLES,
    TACO_TACO,
    TACO_TORTILLA,
    TORTILLA_TORTILLA,
    TRANSITIVITY,
    valid_slot_values,
)


def test_valid_counts() -> None:
    assert len(valid_slot_values(TACO_TACO)) == 16
    assert len(valid_slot_values(TACO_TORTILLA)) == 4
    assert len(valid_slot_values(TORTILLA_TORTILLA)) == 2
    assert len(valid_slot_values(TRANSITIVITY)) == 6


def test_transitivity_forbids_exactly_the_cycles() -> None:
    assert (1, 1, 1) not in valid_slot_values(TRANSITIVITY)
    assert (2, 2, 2) not in valid_slot_values(TRANSITIVITY)


def test_taco_tortilla_forbids_the_tortilla_inside_the_taco() -> None:
    # slots (a, b), (a, c), (c, b): a above c above b puts the tortilla c inside the taco
    assert (1, 1, 1) not in valid_slot_values(TACO_TORTILLA)
    assert (2, 2, 2) not in valid_slot_values(TACO_TORTILLA)


@pytest.mark.parametrize("kind", range(4))
def test_tables_agree_with_brute_force(kind: int) -> None:
    slots = len(CONSTRAINT_SLOTS[kind])
    valid = valid_slot_values(kind)
    for code, entry in enumerate(PROPAGATION_TABLES[kind]):
        values = [(code // 3**i) % 3 for i in range(slots)]
        completions = [c for c in itertools.product((1, 2), repeat=slots)
                       if all(v in (0, t) for v, t in zip(values, c, strict=False)) and c in valid]
        if not completions:
            assert entry == CONFLICT
        elif len(completions) == 2 ** values.count(0):
            assert entry == DEAD
        else:  # every slot the completions agree on is forced, and nothing else
            forced = tuple((slot, completions[0][slot]) for slot in range(slots)
                           if values[slot] == 0 and len({c[slot] for c in completions}) == 1)
            assert entry == (forced or FREE), (code, entry, forced)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_table_and_search_lookups_give_the_same_transitivity(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    import numpy as np

    from foldbench.crease.graph.pattern import build_crease_pattern
    from foldbench.crease.layers import layer_constraints
    from foldbench.crease.layers.cells import build_cells
    from foldbench.crease.layers.folding import fold_faces
    from foldbench.crease.simple_folds import random_simple_folds

    folds = random_simple_folds(np.random.default_rng(seed), 6)
    pattern = build_crease_pattern(folds.segments, folds.assignments)
    cells = build_cells(pattern, fold_faces(pattern))
    with_tables = layer_constraints.build_layer_constraints(pattern, cells)
    monkeypatch.setattr(layer_constraints, "DENSE_LOOKUP_FACES", 0)
    with_searches = layer_constraints.build_layer_constraints(pattern, cells)
    assert with_tables.counts == with_searches.counts and with_tables.counts["transitivity"] > 0
    assert np.array_equal(with_tables.local_variables, with_searches.local_variables)
    assert np.array_equal(with_tables.transitivity, with_searches.transitivity)
