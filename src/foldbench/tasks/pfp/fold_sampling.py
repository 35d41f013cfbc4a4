"""Knobs and random puzzles shared by the three fold-and-cut tasks.

Knobs: ``shapes`` (base sheets to draw from, default all five) and ``cutouts`` (cutout counts, default 1-4 with
the published probabilities, limited to what each folded sheet holds — see :func:`foldbench.pfp.cutouts.capacity`;
counts asked for explicitly that a sheet cannot hold are an error).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

import numpy as np
from shapely.geometry.base import BaseGeometry

from foldbench.errors import UnknownNameError
from foldbench.pfp.cutouts import COUNT_PROBABILITIES, capacity, count_distribution, sample_cutouts
from foldbench.pfp.errors import PfpKnobError
from foldbench.pfp.folding import FoldState, UnfoldedPieces, carry_back, cut_layers
from foldbench.pfp.memo import FoldMemo
from foldbench.pfp.puzzle import (
    Puzzle,
    clean_paper,
    cut_region,
    holes_of,
    piece_size_problem,
    piece_spacing_problem,
    remember_states,
)
from foldbench.pfp.sequences import FoldFamily, Step, sample_sequence
from foldbench.pfp.shapes import SHEET_SHAPES, SheetShape, sheet_polygon

__all__ = [
    "CUT_TRIES",
    "SUBTASK_FOLDS",
    "Sampled",
    "check_fold_knobs",
    "cuts_through",
    "legible_pieces",
    "draw_cutout_count",
    "sample_puzzle",
]

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


def draw_cutout_count(rng: np.random.Generator, counts: tuple[int, ...], room: int) -> int | None:
    """A cutout count drawn from ``counts`` with the published probabilities, limited to the ``room`` a folded
    sheet has (None when no count fits)."""
    allowed, weights = count_distribution(counts, room)
    if not allowed:
        return None
    return int(allowed[int(rng.choice(len(allowed), p=weights))])


def cuts_through(
    rng: np.random.Generator,
    sheet: SheetShape,
    steps: tuple[Step, ...],
    final: FoldState,
    count: int,
    tries: int,
    *,
    legible: bool = False,
    first_pieces_rule: Callable[[UnfoldedPieces], bool] | None = None,
) -> Iterator[tuple[Puzzle, BaseGeometry]]:
    """Up to ``tries`` random cuts of ``count`` cutouts through the folded paper ``final``: each cut whose cutouts
    lie on the paper (:func:`~foldbench.pfp.puzzle.cutout_problem`), as a puzzle with the holes it makes. The
    caller checks the holes and stops at the first cut it keeps.

    With ``legible``, only cuts whose hole pieces pass the stricter, cheaper rules checked before the pieces are
    joined (:func:`legible_pieces`) are kept, and each cutout is placed where it passes them alone; the first
    cutout's pieces must also pass ``first_pieces_rule``, when given."""

    def legible_here(polygon: BaseGeometry, placed: tuple[BaseGeometry, ...]) -> bool:
        pieces = legible_pieces(sheet, final, polygon)
        return pieces is not None and (placed or first_pieces_rule is None or first_pieces_rule(pieces))

    for _ in range(tries):
        cutouts = sample_cutouts(rng, final.silhouette, count, accept=legible_here if legible else None)
        if cutouts is None:
            continue
        # sample_cutouts placed them by cutout_problem's rules on this paper (each cutout's share on it, the gaps
        # between them, with the same polygons and comparisons), so they pass it
        puzzle = Puzzle(sheet, steps, cutouts)
        if not legible:
            yield puzzle, holes_of(puzzle, final)
            continue
        pieces = legible_pieces(sheet, final, cut_region(cutouts))
        if pieces is not None:
            yield puzzle, pieces.holes()


def legible_pieces(sheet: SheetShape, final: FoldState, region: BaseGeometry) -> UnfoldedPieces | None:
    """The pieces ``region`` cuts from the layers of ``final``, carried back to the sheet, when they pass the
    rules checked before pieces are joined (:func:`~foldbench.pfp.puzzle.piece_size_problem` on the folded
    layers, then :func:`~foldbench.pfp.puzzle.piece_spacing_problem` on the sheet); None when they do not."""
    parts = cut_layers(final, region)
    if piece_size_problem(parts) is not None:
        return None
    pieces = carry_back(final, parts)
    return pieces if piece_spacing_problem(sheet, pieces.pieces) is None else None


def sample_puzzle(
    rng: np.random.Generator, subtask: str, config: Mapping[str, Any], memo: FoldMemo | None = None
) -> Sampled | None:
    """A random puzzle of ``subtask`` that passes the quality rules, its fold states and holes (None on a miss);
    its states are kept in ``memo`` when given."""
    num_folds, family = SUBTASK_FOLDS[subtask]
    shapes = config["shapes"]
    sheet = shapes[int(rng.integers(len(shapes)))]
    sequence = sample_sequence(rng, sheet_polygon(sheet), num_folds, family, memo=memo, sheet_name=sheet)
    if sequence is None:
        return None
    steps, states = sequence
    count = draw_cutout_count(rng, config["cutouts"], capacity(sheet, num_folds))
    if count is None:
        return None
    for puzzle, holes in cuts_through(rng, sheet, steps, states[-1], count, CUT_TRIES):
        if clean_paper(sheet, holes) is not None:
            if memo is not None:
                remember_states(memo, sheet, steps, states)
            return puzzle, states, holes
    return None
