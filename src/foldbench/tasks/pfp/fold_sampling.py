"""Knobs and random puzzles shared by the three fold-and-cut tasks.

Knobs: ``shapes`` (base sheets to draw from, default all five) and ``cutouts`` (cutout counts, default 1-4 with
the published probabilities, limited to what each folded sheet holds — see :func:`foldbench.pfp.cutouts.capacity`;
counts asked for explicitly that a sheet cannot hold are an error).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from shapely.geometry.base import BaseGeometry

from foldbench.errors import UnknownNameError
from foldbench.pfp.cutouts import COUNT_PROBABILITIES, capacity, count_distribution, sample_cutouts
from foldbench.pfp.errors import PfpKnobError
from foldbench.pfp.folding import FoldState
from foldbench.pfp.memo import FoldMemo
from foldbench.pfp.puzzle import Puzzle, cutout_problem, holes_of, paper_problem, remember_states
from foldbench.pfp.sequences import FoldFamily, sample_sequence
from foldbench.pfp.shapes import SHEET_SHAPES, sheet_polygon

__all__ = ["CUT_TRIES", "SUBTASK_FOLDS", "Sampled", "check_fold_knobs", "sample_puzzle"]

SUBTASK_FOLDS: dict[str, tuple[int, FoldFamily]] = {
    "1-fold": (1, "symmetric"),
    "2-fold": (2, "symmetric"),
    "3-fold": (3, "symmetric"),
    "others": (1, "corner"),
}
Sampled = tuple[Puzzle, tuple[FoldState, ...], BaseGeometry]
CUT_TRIES = 3
"""Cutouts are drawn up to this many times on one folded sheet before the folds are drawn again."""


def _int_list(value: Any, name: str) -> tuple[int, ...]:
    if isinstance(value, int):
        return (value,)
    if isinstance(value, str):
        value = [v for v in value.split(",") if v.strip()]
    try:
        return tuple(int(v) for v in value)
    except (TypeError, ValueError):
        raise PfpKnobError(f"knob {name!r} must be a list of integers, got {value!r}") from None


def check_fold_knobs(task_id: str, config: dict[str, Any]) -> None:
    """Fill in and check ``shapes`` and ``cutouts`` for every requested subtask, before generating anything."""
    shapes = config.get("shapes") or SHEET_SHAPES
    if isinstance(shapes, str):
        shapes = [s.strip() for s in shapes.split(",") if s.strip()]
    for shape in shapes:
        if shape not in SHEET_SHAPES:
            raise UnknownNameError("sheet shape", str(shape), SHEET_SHAPES)
    explicit = config.get("cutouts") is not None
    counts = _int_list(config["cutouts"], "cutouts") if explicit else tuple(COUNT_PROBABILITIES)
    bad = [c for c in counts if c not in COUNT_PROBABILITIES]
    if bad or not counts:
        raise PfpKnobError(f"{task_id}: cutouts must be chosen from 1-4, got {list(counts)}")
    for subtask in config["subtasks"]:
        folds = SUBTASK_FOLDS[subtask][0]
        for shape in shapes:
            room = capacity(shape, folds)
            too_many = [c for c in counts if c > room]
            if (explicit and too_many) or min(counts) > room:
                raise PfpKnobError(
                    f"{task_id}: {max(too_many)} cutouts are impossible on the {subtask} {shape} "
                    f"(it holds at most {room}); lower 'cutouts' or leave out that shape"
                )
    config["shapes"] = tuple(shapes)
    config["cutouts"] = counts


def sample_puzzle(
    rng: np.random.Generator, subtask: str, config: Mapping[str, Any], memo: FoldMemo | None = None
) -> Sampled | None:
    """A random puzzle of ``subtask`` that passes the quality rules, its fold states and holes (None on a miss);
    its states are kept in ``memo`` when given."""
    num_folds, family = SUBTASK_FOLDS[subtask]
    shapes = config["shapes"]
    sheet = shapes[int(rng.integers(len(shapes)))]
    sequence = sample_sequence(rng, sheet_polygon(sheet), num_folds, family)
    if sequence is None:
        return None
    steps, states = sequence
    allowed, weights = count_distribution(config["cutouts"], capacity(sheet, num_folds))
    count = int(allowed[int(rng.choice(len(allowed), p=weights))])
    for _ in range(CUT_TRIES):
        cutouts = sample_cutouts(rng, states[-1].silhouette, count)
        if cutouts is None:
            continue
        puzzle = Puzzle(sheet, steps, cutouts)
        if cutout_problem(puzzle, states[-1]) is not None:
            continue
        holes = holes_of(puzzle, states[-1])
        if paper_problem(sheet, holes) is None:
            if memo is not None:
                remember_states(memo, sheet, steps, states)
            return puzzle, states, holes
    return None
