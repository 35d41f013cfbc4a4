from __future__ import annotations

import itertools

import pytest

from foldbench.crease.constraints import (
    CONFLICT,
    CONSTRAINT_SLOTS,
    DEAD,
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
        elif isinstance(entry, tuple):
            for slot, value in entry:
                assert values[slot] == 0
                assert all(c[slot] == value for c in completions)
