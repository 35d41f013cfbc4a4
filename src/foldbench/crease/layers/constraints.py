"""Layer-order constraints between overlapping faces, and their propagation tables.

A variable is an overlapping face pair ``(f, g)`` with ``f < g``; its value is :data:`ABOVE` (``f`` lies above
``g`` in the folded stack, seen from the side face 0 faces) or :data:`BELOW`. Four constraint types, each over a
few pairs ("slots"), say which combinations can occur in a physical stack:

- **taco-taco** ``[a, b, c, d]``: faces ``a|b`` and ``c|d`` are folded together along overlapping creases on the
  same side; the two folds must nest or stack, never interleave.
- **taco-tortilla** ``[a, b, c]``: ``a|b`` is folded along a crease that face ``c`` crosses (or continues); ``c``
  cannot lie between ``a`` and ``b``.
- **tortilla-tortilla** ``[a, b, c, d]``: ``a|b`` and ``c|d`` join flat along overlapping edges, ``a`` over ``c``;
  ``a`` is above ``c`` exactly when ``b`` is above ``d``.
- **transitivity** ``[a, b, c]``: three faces sharing a cell cannot form a cycle.

The valid combinations are derived here from these physical rules by enumerating stack orders, then every
partial assignment of a constraint's slots is tabulated as conflict, implication or free (``propagation_table``).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Literal

import numpy as np

__all__ = [
    "ABOVE",
    "BELOW",
    "CONSTRAINT_NAMES",
    "CONSTRAINT_SLOTS",
    "DEAD",
    "FREE",
    "PropagationEntry",
    "TACO_TACO",
    "TACO_TORTILLA",
    "TORTILLA_TORTILLA",
    "TRANSITIVITY",
    "CONFLICT",
    "PROPAGATION_TABLES",
    "propagation_table",
    "propagation_arrays",
    "valid_slot_values",
]

ABOVE: Literal[1] = 1
"""The first face of the pair lies above the second."""
BELOW: Literal[2] = 2
"""The first face of the pair lies below the second."""

TACO_TACO, TACO_TORTILLA, TORTILLA_TORTILLA, TRANSITIVITY = 0, 1, 2, 3
CONSTRAINT_NAMES: tuple[str, ...] = ("taco-taco", "taco-tortilla", "tortilla-tortilla", "transitivity")

CONSTRAINT_SLOTS: tuple[tuple[tuple[int, int], ...], ...] = (
    ((0, 1), (2, 3), (2, 1), (0, 3), (0, 2), (1, 3)),
    ((0, 1), (0, 2), (2, 1)),
    ((0, 2), (1, 3)),
    ((0, 1), (1, 2), (2, 0)),
)
"""For each constraint type, the face pairs (positions in the constraint's face list) its slots compare."""


def _between(order: Sequence[int], inner: int, first: int, second: int) -> bool:
    low, high = sorted((order.index(first), order.index(second)))
    return low < order.index(inner) < high


def _stack_rule(kind: int) -> Callable[[Sequence[int]], bool]:
    if kind == TACO_TACO:
        return lambda order: _between(order, 2, 0, 1) == _between(order, 3, 0, 1)
    if kind == TACO_TORTILLA:
        return lambda order: not _between(order, 2, 0, 1)
    return lambda order: True


def valid_slot_values(kind: int) -> frozenset[tuple[int, ...]]:
    """All slot value tuples a physical stack allows for a constraint type.

    Stacks are listed top to bottom; a slot ``(x, y)`` is :data:`ABOVE` when ``x`` comes first.

    >>> sorted(valid_slot_values(TORTILLA_TORTILLA))
    [(1, 1), (2, 2)]
    >>> len(valid_slot_values(TACO_TACO)), len(valid_slot_values(TRANSITIVITY))
    (16, 6)
    """
    slots = CONSTRAINT_SLOTS[kind]
    if kind == TORTILLA_TORTILLA:
        return frozenset({(ABOVE, ABOVE), (BELOW, BELOW)})
    face_count = 4 if kind == TACO_TACO else 3
    rule = _stack_rule(kind)
    valid = set()
    for order in itertools.permutations(range(face_count)):
        if rule(order):
            valid.add(tuple(ABOVE if order.index(x) < order.index(y) else BELOW for x, y in slots))
    return frozenset(valid)


PropagationEntry = int | tuple[tuple[int, int], ...]
CONFLICT: int = -1
"""Table entry: no completion of the partial assignment is valid."""
FREE: int = 0
"""Table entry: some completions are valid, none is forced."""
DEAD: int = 1
"""Table entry: every completion is valid (the constraint no longer matters)."""


def propagation_table(kind: int) -> list[PropagationEntry]:
    """For every partial assignment (base-3 code, slot ``i`` weighs ``3**i``, 0 = unset) its consequence.

    An entry is :data:`CONFLICT`, :data:`FREE`, :data:`DEAD`, or a tuple of ``(slot, value)`` pairs forced by
    the assigned slots.

    >>> table = propagation_table(TORTILLA_TORTILLA)
    >>> table[0], table[1], table[1 + 3 * 2]
    (0, ((1, 1),), -1)
    """
    valid = sorted(valid_slot_values(kind))
    slot_count = len(CONSTRAINT_SLOTS[kind])
    completions: list[list[tuple[int, ...]]] = [[] for _ in range(3**slot_count)]
    for values in valid:  # a valid tuple completes the partial assignment of each subset of its slots
        codes = [0]
        for i, value in enumerate(values):
            codes += [code + value * 3**i for code in codes]
        for code in codes:
            completions[code].append(values)
    table: list[PropagationEntry] = []
    for code, matching in enumerate(completions):
        if not matching:
            table.append(CONFLICT)
            continue
        unset = [i for i in range(slot_count) if (code // 3**i) % 3 == 0]
        if len(matching) == 2 ** len(unset):
            table.append(DEAD)
            continue
        forced = tuple((i, matching[0][i]) for i in unset if all(c[i] == matching[0][i] for c in matching))
        table.append(forced if forced else FREE)
    return table


PROPAGATION_TABLES: tuple[list[PropagationEntry], ...] = tuple(propagation_table(kind) for kind in range(4))
"""The four tables, built once on import (a few thousand entries)."""


def propagation_arrays() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The tables as arrays for compiled loops: slot counts ``(4,)``, states ``(4, 729)`` (-1 conflict, 0 free,
    1 dead, 2 forced) and forced values ``(4, 729, 6)`` (0 where a slot is not forced).

    >>> counts, states, forced = propagation_arrays()
    >>> counts.tolist(), int(states[2, 0]), int(forced[2, 1, 1])
    ([6, 3, 2, 3], 0, 1)
    """
    slot_counts = np.array([len(slots) for slots in CONSTRAINT_SLOTS], dtype=np.int64)
    states = np.full((4, 3**6), CONFLICT, dtype=np.int8)
    forced = np.zeros((4, 3**6, 6), dtype=np.int8)
    for kind, table in enumerate(PROPAGATION_TABLES):
        for code, entry in enumerate(table):
            if isinstance(entry, tuple):
                states[kind, code] = 2
                for slot, value in entry:
                    forced[kind, code, slot] = value
            else:
                states[kind, code] = entry
    return slot_counts, states, forced
