"""The paper's composition of each MentalBlackboard task (the ``preset=paper`` knob).

Figures read from the paper (section 4, 6.1, 6.3 and Table 8) and counted in its published records:

* prediction: 900 items, 100 per configuration group 1-9, folds toward the viewer;
* backward prediction: 180 items, 20 per group 1-9, folds away from the viewer;
* planning: 400 items, 100 per fold count 1-4, no rotation, holes of six shapes (circle, ellipse, trapezoid,
  letter, triangle, star), 1, 2 or 3 punches per item in the published proportions per fold count (below), at
  most 16 holes on the unfolded sheet;
* generalization: 240 analogies over groups 1 (one fold), 2 (two folds) and 5 (a fold and a rotation), 80 per
  group, 20 per changed attribute (shape, size, location, direction) in each group, holes of the same six shapes;
  the published pairs change location and direction on a single hole, and change size or shape on every hole
  of a pair, with 1-3 holes in the published proportions.

Item ``i`` takes its stratum from ``i`` alone, cycling through the strata, so a dataset of the paper's size has
exactly the paper's composition and any shorter one is as balanced as its length allows.
"""

from __future__ import annotations

from functools import cache

from foldbench.pft.holes import Shape

__all__ = [
    "GENERALIZATION_ATTRIBUTES",
    "GENERALIZATION_GROUPS",
    "PAPER_SHAPES",
    "PAPER_SIZES",
    "PLANNING_MAX_RESULT_HOLES",
    "PLANNING_PUNCHES",
    "generalization_stratum",
    "planning_stratum",
    "prediction_group",
]

#: The number of items of each task in the paper.
PAPER_SIZES = {"prediction": 900, "backward-prediction": 180, "planning": 400, "generalization": 240}

#: The six hole shapes of the planning and generalization records.
PAPER_SHAPES = (Shape.CIRCLE, Shape.ELLIPSE, Shape.TRAPEZOID, Shape.LETTER, Shape.TRIANGLE, Shape.STAR)

#: Planning: of the 100 items with this many folds, how many have 1, 2 and 3 punches (the published records).
PLANNING_PUNCHES: dict[int, tuple[int, int, int]] = {1: (32, 34, 34), 2: (40, 53, 7), 3: (70, 30, 0), 4: (100, 0, 0)}

#: Planning: the most holes an unfolded sheet has in the published records.
PLANNING_MAX_RESULT_HOLES = 16

GENERALIZATION_GROUPS = (1, 2, 5)
GENERALIZATION_ATTRIBUTES = ("shape", "size", "location", "direction")

#: Generalization: of the 60 analogies changing this attribute, how many punch 1, 2 and 3 holes (published).
GENERALIZATION_HOLES: dict[str, tuple[int, int, int]] = {
    "shape": (52, 8, 0),
    "size": (28, 22, 10),
    "location": (60, 0, 0),
    "direction": (60, 0, 0),
}


@cache
def _spread(counts: tuple[int, ...]) -> tuple[int, ...]:
    """Category indices in an order whose every prefix is as close to the proportions ``counts`` as it can be.

    >>> _spread((2, 1))
    (0, 1, 0)
    """
    total = sum(counts)
    taken = [0] * len(counts)
    order = []
    for step in range(1, total + 1):
        open_ = [k for k in range(len(counts)) if taken[k] < counts[k]]
        chosen = max(open_, key=lambda k: counts[k] * step / total - taken[k])
        taken[chosen] += 1
        order.append(chosen)
    return tuple(order)


def prediction_group(index: int) -> int:
    """The configuration group of item ``index``: 1, 2, ..., 9, 1, 2, ..."""
    return index % 9 + 1


def planning_stratum(index: int) -> tuple[int, int]:
    """The fold count and the number of punches of planning item ``index``."""
    num_folds = index % 4 + 1
    within = (index // 4) % 100
    return num_folds, _spread(PLANNING_PUNCHES[num_folds])[within] + 1


def generalization_stratum(index: int) -> tuple[int, str, int]:
    """The group, the changed attribute and the number of punched holes of generalization item ``index``."""
    cell = index % 12
    group = GENERALIZATION_GROUPS[cell // 4]
    attribute = GENERALIZATION_ATTRIBUTES[cell % 4]
    within = (index // 12) % 20 * 3 + GENERALIZATION_GROUPS.index(group)  # the attribute's 60 spread over groups
    return group, attribute, _spread(GENERALIZATION_HOLES[attribute])[within] + 1
