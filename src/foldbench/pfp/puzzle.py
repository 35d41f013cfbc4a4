"""A fold-and-cut puzzle as data, its unfolded result, and the quality rules every puzzle must pass.

A :class:`Puzzle` is a recipe: a base sheet, fold steps, and cutouts placed on the folded paper. Its *holes* are
the region cut out of the flat sheet (:func:`holes_of`); its *pattern* is the sheet minus the holes. A distractor
may cut the layers seen from the back (odd parity) with other cutouts (``back_cutouts``), which breaks the mirror
symmetry the folds impose.

Results needed more than once are kept in a :class:`~foldbench.pfp.memo.FoldMemo` that the caller passes in; there
is no module-level memo (:func:`cut_region` keeps an ``lru_cache`` of a pure function of its argument).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from foldbench.pfp.cutouts import MIN_INSIDE_FRACTION
from foldbench.pfp.folding import Crease, FoldState, fold_region, folded_pieces, overlap_areas, unfold_cut
from foldbench.pfp.memo import FoldMemo
from foldbench.pfp.sequences import Step, replay
from foldbench.pfp.shapes import Cutout, SheetShape, check_sheet_shape, cutout_polygon, sheet_polygon
from foldbench.pfp.tolerance import (
    CUTOUT_GAP,
    MIN_FEATURE,
    MIN_HOLE_AREA,
    MIN_PAPER_WIDTH,
    UNION_GRID,
    difference_area,
    union,
)

__all__ = [
    "MIN_INSIDE_FRACTION",
    "MIN_PAPER_LEFT",
    "Puzzle",
    "clean_paper",
    "cut_region",
    "cutout_problem",
    "holes_of",
    "legibility_problem",
    "paper_left",
    "paper_problem",
    "pattern_of",
    "piece_size_problem",
    "piece_spacing_problem",
    "puzzle_holes",
    "quality_problem",
    "refold_misses_by",
    "refold_mismatch",
    "sheet_states",
    "remember_states",
]

MIN_PAPER_LEFT = 0.45
"""At least this fraction of the sheet's area must remain after cutting."""


@dataclass(frozen=True, slots=True)
class Puzzle:
    """A base sheet, its fold steps, and the cutouts made through the folded paper."""

    sheet: SheetShape
    steps: tuple[Step, ...]
    cutouts: tuple[Cutout, ...]
    back_cutouts: tuple[Cutout, ...] | None = None

    def states(self, memo: FoldMemo | None = None) -> tuple[FoldState, ...]:
        """Every folded state, the flat sheet first."""
        return sheet_states(self.sheet, self.steps, memo)

    def to_dict(self) -> dict[str, Any]:
        """The puzzle as item data."""
        data: dict[str, Any] = {
            "sheet": self.sheet,
            "steps": [[c.to_dict() for c in step] for step in self.steps],
            "cutouts": [c.to_dict() for c in self.cutouts],
        }
        if self.back_cutouts is not None:
            data["back_cutouts"] = [c.to_dict() for c in self.back_cutouts]
        return data

    @staticmethod
    def from_dict(data: dict[str, Any]) -> Puzzle:
        """The inverse of :meth:`to_dict`."""
        back = data.get("back_cutouts")
        return Puzzle(
            check_sheet_shape(str(data["sheet"])),
            tuple(tuple(Crease.from_dict(c) for c in step) for step in data["steps"]),
            tuple(Cutout.from_dict(c) for c in data["cutouts"]),
            None if back is None else tuple(Cutout.from_dict(c) for c in back),
        )


def sheet_states(sheet: SheetShape, steps: tuple[Step, ...], memo: FoldMemo | None = None) -> tuple[FoldState, ...]:
    """Every folded state of the base sheet ``sheet`` under ``steps`` (looked up in, and kept in, ``memo``).

    >>> len(sheet_states("square", ()))
    1
    """
    key = (sheet, steps)
    states = memo.get("states", key) if memo is not None else None
    if states is None:
        states = replay(sheet_polygon(sheet), steps)
    if memo is not None:
        memo.put("states", key, states)
    return states


def remember_states(memo: FoldMemo, sheet: SheetShape, steps: tuple[Step, ...], states: tuple[FoldState, ...]) -> None:
    """Record in ``memo`` the states of a fold sequence computed elsewhere (they must be ``replay``'s result).

    >>> memo = FoldMemo()
    >>> remember_states(memo, "square", (), sheet_states("square", ())); len(memo)
    1
    """
    memo.put("states", (sheet, steps), states)


@lru_cache(maxsize=256)
def cut_region(cutouts: tuple[Cutout, ...]) -> BaseGeometry:
    """The union of the cutouts' polygons (memoised).

    >>> cut_region(()).is_empty
    True
    """
    return union([cutout_polygon(c) for c in cutouts])


def holes_of(puzzle: Puzzle, final: FoldState | None = None) -> BaseGeometry:
    """The region cut out of the flat sheet once the puzzle is unfolded.

    >>> holes_of(Puzzle("square", (), ())).is_empty
    True
    """
    final = final if final is not None else puzzle.states()[-1]
    cut = cut_region(puzzle.cutouts)
    if puzzle.back_cutouts is None:
        return unfold_cut(final, cut)
    back = cut_region(puzzle.back_cutouts)
    front_layers = FoldState(tuple(layer for layer in final.layers if layer.parity % 2 == 0), final.silhouette)
    back_layers = FoldState(tuple(layer for layer in final.layers if layer.parity % 2 == 1), final.silhouette)
    return unfold_cut(front_layers, cut).union(unfold_cut(back_layers, back))


def puzzle_holes(puzzle: Puzzle, memo: FoldMemo | None = None) -> BaseGeometry:
    """:func:`holes_of`, looked up in and kept in ``memo`` (a question's options are drawn and checked more than
    once).

    >>> puzzle_holes(Puzzle("square", (), ())).is_empty
    True
    """
    holes = memo.get("holes", puzzle) if memo is not None else None
    if holes is None:
        holes = holes_of(puzzle, sheet_states(puzzle.sheet, puzzle.steps, memo)[-1])
    if memo is not None:
        memo.put("holes", puzzle, holes)
    return holes


def pattern_of(puzzle: Puzzle, final: FoldState | None = None, memo: FoldMemo | None = None) -> BaseGeometry:
    """The unfolded paper: the sheet minus the holes.

    >>> pattern_of(Puzzle("square", (), ())).area
    129600.0
    """
    if final is None and memo is not None:
        pattern = memo.get("pattern", puzzle)
        if pattern is not None:
            return pattern
    holes = puzzle_holes(puzzle, memo) if final is None else holes_of(puzzle, final)
    pattern = paper_left(puzzle.sheet, holes)
    if final is None and memo is not None:
        memo.put("pattern", puzzle, pattern)
    return pattern


def paper_left(sheet: SheetShape, holes: BaseGeometry) -> BaseGeometry:
    """The sheet minus the holes, computed on the :data:`~foldbench.pfp.tolerance.UNION_GRID`.

    Holes share edges with the sheet (a cutout over a corner or an edge); a plain floating-point difference can
    leave a zero-width spike along such an edge, and a ring that runs out along the spike and back around the
    notch, which a drawing fills as paper. On the grid the shared edges coincide and the notch is a notch.

    >>> from shapely.geometry import Polygon
    >>> paper_left("square", Polygon()).area
    129600.0
    """
    return sheet_polygon(sheet).difference(holes, grid_size=UNION_GRID)


def _pieces(geometry: BaseGeometry) -> list[BaseGeometry]:
    return list(getattr(geometry, "geoms", [geometry])) if not geometry.is_empty else []


def quality_problem(puzzle: Puzzle, final: FoldState | None = None) -> str | None:
    """Why a puzzle fails the quality rules (None when it passes).

    The rules: every cutout lies at least ``MIN_INSIDE_FRACTION`` on the folded paper; cutouts keep
    ``CUTOUT_GAP`` apart; every piece of every hole has at least ``MIN_HOLE_AREA``; the paper left is one piece
    (also when eroded by ``MIN_PAPER_WIDTH / 2``) with at least ``MIN_PAPER_LEFT`` of the sheet's area.

    >>> quality_problem(Puzzle("square", (), ()))
    'no cutouts'
    """
    if not puzzle.cutouts:
        return "no cutouts"
    final = final if final is not None else puzzle.states()[-1]
    problem = cutout_problem(puzzle, final)
    if problem is not None:
        return problem
    return paper_problem(puzzle.sheet, holes_of(puzzle, final))


def cutout_problem(puzzle: Puzzle, final: FoldState) -> str | None:
    """The cutout rules of :func:`quality_problem` alone (on the paper, apart from each other).

    >>> from foldbench.pfp.folding import flat_state
    >>> cutout_problem(Puzzle("square", (), ()), flat_state(sheet_polygon("square"))) is None
    True
    """
    polygons = [cutout_polygon(c) for c in puzzle.cutouts]
    for polygon in polygons:
        if polygon.intersection(final.silhouette).area < MIN_INSIDE_FRACTION * polygon.area:
            return "a cutout lies mostly off the paper"
    for i in range(len(polygons)):
        for j in range(i):
            if polygons[i].distance(polygons[j]) < CUTOUT_GAP:
                return "two cutouts touch"
    return None


def paper_problem(sheet: SheetShape, holes: BaseGeometry, left: BaseGeometry | None = None) -> str | None:
    """Why the sheet ``sheet`` with ``holes`` cut out is not a clean result (None when it is).

    >>> from shapely.geometry import Polygon
    >>> paper_problem("square", Polygon())
    'the cut misses the paper'
    """
    problem = _hole_size_problem(holes)
    if problem is not None:
        return problem
    left = left if left is not None else paper_left(sheet, holes)
    return _left_problem(sheet, left) or legibility_problem(sheet, holes, left)


def clean_paper(sheet: SheetShape, holes: BaseGeometry) -> BaseGeometry | None:
    """The paper left when ``holes`` pass :func:`paper_problem`, else None: the same rules, with the checks of
    the holes alone before the paper left is computed (most rejected cuts fail those).

    >>> from shapely.geometry import box
    >>> clean_paper("square", box(-20, -20, 20, 20)).area
    128000.0
    """
    if _hole_size_problem(holes) is not None or _hole_legibility_problem(sheet, holes) is not None:
        return None
    left = paper_left(sheet, holes)
    if _left_problem(sheet, left) is not None or _bridge_problem(left) is not None:
        return None
    return left


def _hole_size_problem(holes: BaseGeometry) -> str | None:
    if holes.area < MIN_HOLE_AREA:
        return "the cut misses the paper"
    if any(piece.area < MIN_HOLE_AREA for piece in _pieces(holes)):
        return "a hole is too small"
    return None


def _left_problem(sheet: SheetShape, left: BaseGeometry) -> str | None:
    if left.area < MIN_PAPER_LEFT * sheet_polygon(sheet).area:
        return "too little paper is left"
    if left.geom_type != "Polygon":
        return "the paper falls apart"
    if left.buffer(-MIN_PAPER_WIDTH / 2, quad_segs=2).geom_type != "Polygon":
        return "the paper hangs together by a thread"
    return None


def legibility_problem(sheet: SheetShape, holes: BaseGeometry, left: BaseGeometry | None = None) -> str | None:
    """Why the holes of a pattern are hard to see (None when every feature is at least ``MIN_FEATURE`` wide).

    Checked: every hole piece is at least ``MIN_FEATURE`` wide somewhere; two hole pieces keep ``MIN_FEATURE``
    apart; a hole keeps ``MIN_FEATURE`` from the edge or opens onto it (a notch) at least that wide; the paper
    left stays one piece when eroded by ``MIN_FEATURE / 2``.

    >>> from shapely.geometry import box
    >>> legibility_problem("square", box(-5, -5, 5, 5).union(box(6, -5, 16, 5)))
    'a hole is too narrow to see'
    >>> legibility_problem("square", box(-20, -20, 0, 0).union(box(4, -20, 24, 0)))
    'two holes are too close to tell apart'
    """
    if holes.is_empty:
        return None
    problem = _hole_legibility_problem(sheet, holes)
    if problem is not None:
        return problem
    return _bridge_problem(left if left is not None else paper_left(sheet, holes))


def _hole_legibility_problem(sheet: SheetShape, holes: BaseGeometry) -> str | None:
    """The legibility rules that look at the holes alone (every rule but the bridges of paper)."""
    half = MIN_FEATURE / 2
    pieces = np.array(_pieces(holes), dtype=object)
    if len(pieces) == 0:
        return None
    if shapely.is_empty(shapely.buffer(pieces, -half, quad_segs=1)).any():
        return "a hole is too narrow to see"
    if len(pieces) > 1:
        near = shapely.STRtree(pieces).query(pieces, predicate="dwithin", distance=MIN_FEATURE)
        if (near[0] != near[1]).any():
            return "two holes are too close to tell apart"
    edge = sheet_polygon(sheet).exterior
    gaps = shapely.distance(pieces, edge)
    if ((gaps >= _TOUCH) & (gaps < MIN_FEATURE)).any():
        return "a hole is too close to the edge"
    for piece in pieces[gaps < _TOUCH]:
        opening = piece.buffer(_TOUCH, quad_segs=1).intersection(edge).length
        if opening < MIN_FEATURE:
            return "a notch opens too narrowly"
        if piece.buffer(MIN_FEATURE, quad_segs=2).intersection(edge).length - opening > _NEAR_EDGE_SLACK * MIN_FEATURE:
            return "a hole runs too close along the edge"
    return None


def piece_size_problem(pieces: np.ndarray) -> str | None:
    """Why some piece of a cut's holes, one per cut layer (folded or carried back: the layers' maps keep shapes),
    is too small to see (None when none is): every part of every piece must be at least ``MIN_HOLE_AREA`` large
    and ``MIN_FEATURE`` wide, so that a cutout crossing a crease by a sliver (a feature too small to see) is
    refused. Stricter than the hole rules of :func:`legibility_problem`, and checked before pieces are joined.

    >>> from shapely.geometry import box
    >>> piece_size_problem(np.array([box(-20, -20, 0, 0), box(0, -20, 20, 0)])) is None
    True
    >>> piece_size_problem(np.array([box(-20, -20, 0, 0), box(0, -20, 3, 0)]))
    'a piece of a hole is too narrow to see'
    """
    parts = _parts(pieces)
    if len(parts) == 0:
        return "the cut misses the paper"
    if (shapely.area(parts) < MIN_HOLE_AREA).any():
        return "a hole is too small"
    if shapely.is_empty(shapely.buffer(parts, -MIN_FEATURE / 2, quad_segs=1)).any():
        return "a piece of a hole is too narrow to see"
    return None


def piece_spacing_problem(sheet: SheetShape, pieces: Sequence[BaseGeometry]) -> str | None:
    """Why the unjoined pieces of a cut's holes, carried back to the flat sheet, lie too close together or to the
    edge (None when they do not): two parts either meet (parts of one hole) or keep ``MIN_FEATURE`` apart, and a
    part either opens onto the edge or keeps ``MIN_FEATURE`` from it. Stricter than the hole rules of
    :func:`legibility_problem`, and checked before the pieces are joined.

    >>> from shapely.geometry import box
    >>> piece_spacing_problem("square", [box(-20, -20, 0, 0), box(0, -20, 20, 0)]) is None
    True
    >>> piece_spacing_problem("square", [box(-20, -20, 0, 0), box(4, -20, 24, 0)])
    'two holes are too close to tell apart'
    """
    parts = _parts(np.array(pieces, dtype=object))
    if len(parts) > 1:
        first, second = shapely.STRtree(parts).query(parts, predicate="dwithin", distance=MIN_FEATURE)
        pairs = first < second
        if (shapely.distance(parts[first[pairs]], parts[second[pairs]]) >= _TOUCH).any():
            return "two holes are too close to tell apart"
    edge_gaps = shapely.distance(parts, sheet_polygon(sheet).exterior)
    if ((edge_gaps >= _TOUCH) & (edge_gaps < MIN_FEATURE)).any():
        return "a hole is too close to the edge"
    return None


def _parts(pieces: np.ndarray) -> np.ndarray:
    parts = shapely.get_parts(pieces)
    return parts[~shapely.is_empty(parts)]


def _bridge_problem(left: BaseGeometry) -> str | None:
    if left.buffer(-MIN_FEATURE / 2, quad_segs=2).geom_type != "Polygon":
        return "a bridge of paper is too narrow"
    return None


_NEAR_EDGE_SLACK = 2.5
"""A notch may come within ``MIN_FEATURE`` of the edge along at most this many ``MIN_FEATURE`` beside its
opening (where its sides leave the edge); more means a thin strip of paper runs along the edge."""
_TOUCH = 1e-3
"""A hole closer than this to the edge of the sheet opens onto it."""


def refold_mismatch(
    sheet: SheetShape,
    steps: Sequence[Step],
    holes: BaseGeometry,
    final: FoldState | None = None,
    memo: FoldMemo | None = None,
) -> float:
    """How far ``holes`` are from anything the fold sequence could make: 0 when some cut through the folded
    paper gives exactly these holes.

    Any cut ``C`` that makes the holes must contain every layer's piece of them, folded (:func:`fold_region`),
    and unfolding is monotone in the cut, so the smallest candidate decides: the result is the area of the
    symmetric difference between the holes and what that smallest cut unfolds to.

    >>> from shapely.geometry import Polygon
    >>> refold_mismatch("square", (), Polygon())
    0.0
    """
    final = final if final is not None else sheet_states(sheet, tuple(steps), memo)[-1]
    smallest_cut = fold_region(final, holes)
    return difference_area(unfold_cut(final, smallest_cut), holes)


_AREA_ROUNDING = 1.0
"""Square units: an area found without unions decides a comparison only when it clears the bound by this much."""


def _mismatch_bounds(final: FoldState, pieces: np.ndarray) -> tuple[float, float]:
    """Bounds on :func:`refold_mismatch` from the folded pieces ``Q_a`` of the holes, one per layer ``L_a``
    (:func:`~foldbench.pfp.folding.folded_pieces`), without joining them.

    The smallest cut ``U`` is the union of the ``Q_b``, and the mismatch is the paper it adds to each layer beside
    that layer's own piece, ``sum_a area((L_a & U) - Q_a)``. Each term is at least the largest and at most the sum
    over ``b`` of ``area((L_a & Q_b) - Q_a) = area(L_a & Q_b) - area(Q_a & Q_b)`` (``Q_a`` lies in ``L_a``). NaN
    bounds (decide nothing) when an overlap cannot be found (:func:`~foldbench.pfp.folding.overlap_areas`)."""
    count = len(final.layers)
    if count < 2:
        return 0.0, 0.0
    positions = np.empty(count, dtype=object)
    positions[:] = [layer.position for layer in final.layers]
    mine, other = np.nonzero(~np.eye(count, dtype=bool))
    added = overlap_areas(positions[mine], pieces[other]) - overlap_areas(pieces[mine], pieces[other])
    per_layer = added.reshape(count, count - 1)
    return float(per_layer.max(axis=1).sum()), float(per_layer.sum())


def _quick_lower_bound(final: FoldState, pieces: np.ndarray) -> float:
    """A lower bound on :func:`refold_mismatch` no larger than :func:`_mismatch_bounds`' lower bound, for a quarter
    of its overlaps or less: each layer's term for one other layer's piece only (the largest one; the two pieces
    compared are each layer's own and that one), instead of the largest over every other layer. Each term is one of
    the values that bound takes the largest of, found by the same overlaps, and the terms are summed in the same
    order, so this bound never exceeds it, also after rounding. NaN (decides nothing) as there."""
    count = len(final.layers)
    positions = np.empty(count, dtype=object)
    positions[:] = [layer.position for layer in final.layers]
    largest = np.argsort(-shapely.area(pieces), kind="stable")[:2]
    other = np.where(np.arange(count) == largest[0], largest[1], largest[0])
    return float((overlap_areas(positions, pieces[other]) - overlap_areas(pieces, pieces[other])).sum())


_QUICK_BOUND_LAYERS = 4
"""Folded states with at least this many layers try :func:`_quick_lower_bound` before the full bounds."""


def refold_misses_by(
    sheet: SheetShape,
    steps: Sequence[Step],
    holes: BaseGeometry,
    area: float,
    final: FoldState | None = None,
    memo: FoldMemo | None = None,
) -> bool:
    """Whether :func:`refold_mismatch` is at least ``area``, found cheaply when the answer is clear.

    First from bounds on the mismatch that need no union (:func:`_quick_lower_bound`, which decides most misses
    of folded states of several layers alone, then :func:`_mismatch_bounds`). Then from the smallest cut:
    what it unfolds to contains the holes and is made of pieces of distinct layers (disjoint on the flat sheet),
    so the mismatch is the summed area of the layers' pieces of that cut less the holes' area (the layers' maps
    keep areas): no piece needs to be carried back or joined. Within rounding of the bound, the mismatch is
    computed exactly.

    >>> from shapely.geometry import box
    >>> refold_misses_by("square", (), box(0, 0, 30, 30), 1.0)
    False
    """
    final = final if final is not None else sheet_states(sheet, tuple(steps), memo)[-1]
    pieces = folded_pieces(final, holes)
    if len(final.layers) >= _QUICK_BOUND_LAYERS and _quick_lower_bound(final, pieces) >= area + _AREA_ROUNDING:
        return True  # the full lower bound is at least as large
    lower, upper = _mismatch_bounds(final, pieces)
    if lower >= area + _AREA_ROUNDING:
        return True
    if upper < area - _AREA_ROUNDING:
        return False
    smallest_cut = union([piece for piece in pieces if not piece.is_empty])
    positions = np.empty(len(final.layers), dtype=object)
    positions[:] = [layer.position for layer in final.layers]
    estimate = float(shapely.area(shapely.intersection(positions, smallest_cut)).sum()) - holes.area
    if abs(estimate - area) > _AREA_ROUNDING:
        return estimate > area
    return difference_area(unfold_cut(final, smallest_cut), holes) >= area
