"""Mirror folds of a flat sheet, cuts through every layer, and unfolding.

A folded state is a stack of layers, bottom to top. Each layer is a region of the flat sheet together with the
isometry ``transform`` (a shapely affine 6-tuple ``(a, b, d, e, x_offset, y_offset)``) that carries it to where it
lies now; ``parity`` counts its reflections (a layer seen from its back when odd). A fold step is one or more
creases made at once; a crease is a line through ``point`` with unit ``normal``, and the paper on its positive side
(``(x - point) . normal > 0``) is reflected across it and laid on top, the last layer first. Several creases in one
step (corner folds) must move disjoint parts of the paper.

Cutting the folded paper with a region ``C`` removes ``T⁻¹(C ∩ T(region))`` from every layer; unfolding collects
these holes on the flat sheet (:func:`unfold_cut`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np
import shapely
from shapely.errors import GEOSException
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry
from shapely.ops import unary_union

from foldbench.pfp.tolerance import MIN_FLAP_FRACTION, SAME_AREA, SNAP_DECIMALS, UNION_GRID, union

__all__ = [
    "IDENTITY",
    "Affine",
    "Crease",
    "FoldState",
    "Layer",
    "UnfoldedPieces",
    "apply_step",
    "carry_back",
    "compose",
    "cut_layers",
    "flat_state",
    "fold_region",
    "folded_pieces",
    "half_plane",
    "invert",
    "overlap_areas",
    "pieces_difference_area",
    "reflection",
    "step_problem",
    "unfold_cut",
    "unfold_pieces",
]

Affine = tuple[float, float, float, float, float, float]
IDENTITY: Affine = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
_FAR = 1.0e4
_SLIVER = SAME_AREA * 1e-3
_EMPTY = Polygon()
_LOST_AREA = 1e-6
_HAIR = 1e-4
"""Parts of a union closer than this (sheet units) are a crack left by rounding, not a gap in the paper."""


@dataclass(frozen=True, slots=True)
class Crease:
    """A fold line through ``point`` with unit ``normal``; the paper on the normal's side moves.

    ``code`` names the fold family it came from (see :mod:`foldbench.pfp.sequences`).
    """

    point: tuple[float, float]
    normal: tuple[float, float]
    code: str = ""

    def to_dict(self) -> dict[str, Any]:
        """The crease as item data."""
        return {"code": self.code, "point": list(self.point), "normal": list(self.normal)}

    @staticmethod
    def from_dict(data: dict[str, Any]) -> Crease:
        """The inverse of :meth:`to_dict`."""
        point, normal = data["point"], data["normal"]
        return Crease((float(point[0]), float(point[1])), (float(normal[0]), float(normal[1])), str(data["code"]))

    def side(self, x: float, y: float) -> float:
        """The signed distance of ``(x, y)`` from the crease (positive on the moving side)."""
        return (x - self.point[0]) * self.normal[0] + (y - self.point[1]) * self.normal[1]


@dataclass(frozen=True, slots=True)
class Layer:
    """A piece of paper: where it lies now (``position``) and the isometry that brought it there from the flat
    sheet (``transform``, with ``parity`` reflections)."""

    transform: Affine
    parity: int
    position: BaseGeometry

    @property
    def region(self) -> BaseGeometry:
        """The part of the flat sheet this layer is."""
        return _transformed(self.position, invert(self.transform))


@dataclass(frozen=True, slots=True)
class FoldState:
    """The stack of layers of a folded sheet (bottom first) and its outline (``silhouette``)."""

    layers: tuple[Layer, ...]
    silhouette: BaseGeometry = field(compare=False)


def flat_state(sheet: Polygon) -> FoldState:
    """The unfolded sheet: one layer in place.

    >>> flat_state(Polygon([(0, 0), (1, 0), (0, 1)])).layers[0].parity
    0
    """
    return FoldState((Layer(IDENTITY, 0, sheet),), sheet)


def reflection(crease: Crease) -> Affine:
    """The reflection across a crease as an affine 6-tuple: ``x' = x - 2 ((x - p) . n) n``.

    >>> reflection(Crease((0.0, 0.0), (1.0, 0.0)))
    (-1.0, -0.0, -0.0, 1.0, 0.0, 0.0)
    """
    (px, py), (nx, ny) = crease.point, crease.normal
    distance = px * nx + py * ny
    return (1 - 2 * nx * nx, -2 * nx * ny, -2 * nx * ny, 1 - 2 * ny * ny, 2 * distance * nx, 2 * distance * ny)


def compose(outer: Affine, inner: Affine) -> Affine:
    """The affine map ``outer ∘ inner``.

    >>> compose(IDENTITY, IDENTITY) == IDENTITY
    True
    """
    a1, b1, d1, e1, x1, y1 = outer
    a2, b2, d2, e2, x2, y2 = inner
    return (
        a1 * a2 + b1 * d2,
        a1 * b2 + b1 * e2,
        d1 * a2 + e1 * d2,
        d1 * b2 + e1 * e2,
        a1 * x2 + b1 * y2 + x1,
        d1 * x2 + e1 * y2 + y1,
    )


def invert(transform: Affine) -> Affine:
    """The inverse of an isometry (its linear part is orthogonal, so the inverse is its transpose).

    >>> invert(IDENTITY) == IDENTITY
    True
    """
    a, b, d, e, x, y = transform
    return (a, d, b, e, -(a * x + d * y), -(b * x + e * y))


@lru_cache(maxsize=1024)
def half_plane(crease: Crease) -> Polygon:
    """The moving side of a crease as a (very large) polygon.

    >>> half_plane(Crease((0.0, 0.0), (1.0, 0.0))).bounds[0]
    0.0
    """
    (px, py), (nx, ny) = crease.point, crease.normal
    tx, ty = -ny, nx
    return Polygon(
        [
            (px - _FAR * tx, py - _FAR * ty),
            (px + _FAR * tx, py + _FAR * ty),
            (px + _FAR * tx + _FAR * nx, py + _FAR * ty + _FAR * ny),
            (px - _FAR * tx + _FAR * nx, py - _FAR * ty + _FAR * ny),
        ]
    )


def _snapped(transform: Affine) -> Callable[[np.ndarray], np.ndarray]:
    """The coordinate function of an affine map, rounding to ``SNAP_DECIMALS`` (see the tolerance module)."""
    a, b, d, e, x_offset, y_offset = transform
    matrix = np.array([[a, d], [b, e]])
    offset = np.array([x_offset, y_offset])
    return lambda coords: np.round(coords @ matrix + offset, SNAP_DECIMALS)


def _repaired(geometry: BaseGeometry) -> BaseGeometry:
    """A valid polygonal geometry for one that snapping made invalid (a hair-thin spike crossing itself)."""
    if geometry.is_valid:
        return geometry
    parts = [g for g in shapely.get_parts(shapely.make_valid(geometry)) if g.geom_type in ("Polygon", "MultiPolygon")]
    return union(parts)


def _transformed(region: BaseGeometry, transform: Affine) -> BaseGeometry:
    if transform == IDENTITY:
        return region
    return _repaired(shapely.transform(region, _snapped(transform)))


def _bounds_side(bounds: tuple[float, float, float, float], crease: Crease) -> int:
    """+1 when a bounding box lies wholly on the crease's moving side, -1 wholly on the other, 0 across it."""
    minx, miny, maxx, maxy = bounds
    sides = [crease.side(x, y) for x, y in ((minx, miny), (maxx, miny), (maxx, maxy), (minx, maxy))]
    if min(sides) >= 0:
        return 1
    return -1 if max(sides) <= 0 else 0


def step_problem(state: FoldState, creases: Sequence[Crease]) -> str | None:
    """Why a fold step cannot be made on ``state`` (None when it can).

    A step is refused when a crease moves less than ``MIN_FLAP_FRACTION`` of the paper, when two creases move
    overlapping paper or lay their flaps on each other, or when a flap would reach beyond the paper it is folded
    onto (the folded result must stay inside the outline it had before the fold).

    >>> step_problem(flat_state(Polygon([(0, 0), (2, 0), (2, 2), (0, 2)])), [Crease((3.0, 0.0), (1.0, 0.0))])
    'a crease moves too little paper'
    """
    if not creases:
        return "a step needs at least one crease"
    outline = state.silhouette
    flaps = [outline.intersection(half_plane(c)) for c in creases]
    if any(f.area < MIN_FLAP_FRACTION * outline.area for f in flaps):
        return "a crease moves too little paper"
    landed = [_transformed(f, reflection(c)) for f, c in zip(flaps, creases, strict=True)]
    for i in range(len(creases)):
        if landed[i].difference(outline).area > SAME_AREA:
            return "a flap reaches beyond the paper"
        for j in range(i):
            if flaps[i].intersection(flaps[j]).area > SAME_AREA or landed[i].intersection(landed[j]).area > SAME_AREA:
                return "two creases of one step overlap"
    return None


def apply_step(state: FoldState, creases: Sequence[Crease]) -> FoldState:
    """Fold ``state`` along every crease of one step (checked by :func:`step_problem` beforehand).

    >>> square = Polygon([(0, 0), (2, 0), (2, 2), (0, 2)])
    >>> folded = apply_step(flat_state(square), [Crease((1.0, 0.0), (1.0, 0.0))])
    >>> len(folded.layers), folded.silhouette.area
    (2, 2.0)
    """
    planes = [half_plane(c) for c in creases]
    reflections = [reflection(c) for c in creases]
    positions = np.empty(len(state.layers), dtype=object)
    positions[:] = [layer.position for layer in state.layers]
    bounds = shapely.bounds(positions)
    corner_x, corner_y = bounds[:, [0, 2, 2, 0]], bounds[:, [1, 1, 3, 3]]
    rest = positions.copy()
    moved: list[Layer] = []
    for crease, plane, mirror in zip(creases, planes, reflections, strict=True):
        (px, py), (nx, ny) = crease.point, crease.normal
        sides = (corner_x - px) * nx + (corner_y - py) * ny
        whole = sides.min(axis=1) >= 0
        across = ~whole & (sides.max(axis=1) > 0)
        parts = positions.copy()
        parts[across] = shapely.intersection(positions[across], plane)
        rest[across] = shapely.difference(rest[across], plane)
        rest[whole] = _EMPTY
        chosen = np.nonzero((whole | across) & (shapely.area(parts) > _SLIVER))[0]
        if len(chosen) == 0:
            continue
        landed = [_repaired(g) for g in shapely.transform(parts[chosen], _snapped(mirror))]
        for index, position in zip(chosen, landed, strict=True):
            layer = state.layers[index]
            moved.append(Layer(compose(mirror, layer.transform), layer.parity + 1, position))
    areas = shapely.area(rest)
    kept = [
        Layer(layer.transform, layer.parity, rest[index])
        for index, layer in enumerate(state.layers)
        if areas[index] > _SLIVER
    ]
    layers = tuple(kept) + tuple(reversed(moved))
    staying = (
        state.silhouette.difference(unary_union(planes)) if len(planes) > 1 else state.silhouette.difference(planes[0])
    )
    flaps = [_transformed(state.silhouette.intersection(p), m) for p, m in zip(planes, reflections, strict=True)]
    return FoldState(layers, union([staying, *flaps]))


@dataclass(frozen=True, slots=True)
class UnfoldedPieces:
    """A cut through a folded state, unfolded piece by piece: ``pieces`` are the holes each layer gets, carried
    back to the flat sheet (disjoint parts of it, up to rounding), and ``area`` their summed area measured before
    they were carried back (the layers' maps keep areas). Joining the pieces gives :func:`unfold_cut`'s holes."""

    pieces: tuple[BaseGeometry, ...]
    area: float

    def holes(self) -> BaseGeometry:
        """The joined holes (exactly :func:`unfold_cut`'s result)."""
        return _disjoint_union(list(self.pieces))


def unfold_pieces(state: FoldState, cut: BaseGeometry) -> UnfoldedPieces:
    """The holes made by cutting every layer of ``state`` along ``cut``, as separate pieces on the flat sheet.

    >>> square = Polygon([(0, 0), (2, 0), (2, 2), (0, 2)])
    >>> folded = apply_step(flat_state(square), [Crease((1.0, 0.0), (1.0, 0.0))])
    >>> unfolded = unfold_pieces(folded, Polygon([(0, 0), (1, 0), (1, 1)]))
    >>> len(unfolded.pieces), unfolded.area
    (2, 1.0)
    """
    return carry_back(state, cut_layers(state, cut))


def cut_layers(state: FoldState, cut: BaseGeometry) -> np.ndarray:
    """Each layer's piece of the region ``cut``, where the layer lies folded (an array with one geometry per layer,
    empty where the cut misses the layer). The layers' maps keep shapes, so sizes can be judged here, before the
    pieces are carried back (:func:`carry_back`).

    >>> square = Polygon([(0, 0), (2, 0), (2, 2), (0, 2)])
    >>> folded = apply_step(flat_state(square), [Crease((1.0, 0.0), (1.0, 0.0))])
    >>> [part.area for part in cut_layers(folded, Polygon([(0, 0), (1, 0), (1, 1)]))]
    [0.5, 0.5]
    """
    positions = np.empty(len(state.layers), dtype=object)
    positions[:] = [layer.position for layer in state.layers]
    return shapely.intersection(positions, cut)


def carry_back(state: FoldState, parts: np.ndarray) -> UnfoldedPieces:
    """The layers' pieces of a cut (:func:`cut_layers`), carried back to the flat sheet."""
    pieces = tuple(
        _transformed(part, invert(layer.transform))
        for layer, part in zip(state.layers, parts, strict=True)
        if not part.is_empty
    )
    return UnfoldedPieces(pieces, float(shapely.area(parts).sum()))


def unfold_cut(state: FoldState, cut: BaseGeometry) -> BaseGeometry:
    """The holes on the flat sheet made by cutting every layer of ``state`` along the region ``cut``.

    >>> square = Polygon([(0, 0), (2, 0), (2, 2), (0, 2)])
    >>> unfold_cut(flat_state(square), Polygon()).is_empty
    True
    """
    return unfold_pieces(state, cut).holes()


def overlap_areas(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """The areas of the intersections of two arrays of regions, pair by pair.

    A floating-point overlay can return a whole input where two edges agree only up to rounding; a result that
    reaches outside both inputs' bounding boxes is such a failure, and those pairs are intersected again on the
    :data:`~foldbench.pfp.tolerance.UNION_GRID`. NaN where an overlay refuses an input with lines beside its
    area.

    >>> from shapely.geometry import box
    >>> overlap_areas(np.array([box(0, 0, 2, 2)]), np.array([box(1, 1, 3, 3)])).tolist()
    [1.0]
    """
    try:
        overlaps = shapely.intersection(first, second)
    except GEOSException:  # an input with lines beside its area that the overlay cannot place
        return np.full(len(first), math.nan)
    areas = shapely.area(overlaps)
    low = np.maximum(shapely.bounds(first)[:, :2], shapely.bounds(second)[:, :2]) - _HAIR
    high = np.minimum(shapely.bounds(first)[:, 2:], shapely.bounds(second)[:, 2:]) + _HAIR
    reach = shapely.bounds(overlaps)
    failed = (areas > 0) & ((reach[:, :2] < low).any(axis=1) | (reach[:, 2:] > high).any(axis=1))
    if failed.any():
        try:
            areas[failed] = shapely.area(shapely.intersection(first[failed], second[failed], grid_size=UNION_GRID))
        except GEOSException:
            areas[failed] = math.nan
    return areas


def pieces_difference_area(first: UnfoldedPieces, second: UnfoldedPieces) -> float:
    """The area of the symmetric difference of two unfolded cuts' holes, found without joining either: each one's
    pieces are disjoint, so it is both areas less twice the summed overlaps of their pieces (equal to
    :func:`~foldbench.pfp.tolerance.difference_area` of the joined holes up to rounding; NaN when an overlap
    cannot be found, see :func:`overlap_areas`).

    >>> from shapely.geometry import box
    >>> one = UnfoldedPieces((box(0, 0, 1, 1), box(1, 0, 2, 1)), 2.0)
    >>> pieces_difference_area(one, UnfoldedPieces((box(0.5, 0, 1.5, 1),), 1.0))
    1.0
    """
    overlap = 0.0
    if first.pieces and second.pieces:
        ours = np.array(first.pieces, dtype=object)
        theirs = np.array(second.pieces, dtype=object)
        query_index, tree_index = shapely.STRtree(theirs).query(ours, predicate="intersects")
        overlap = float(overlap_areas(ours[query_index], theirs[tree_index]).sum())
    return first.area + second.area - 2 * overlap


def _disjoint_union(pieces: list[BaseGeometry]) -> BaseGeometry:
    """The union of pieces that do not overlap (parts of different layers of one sheet): a plain GEOS union when
    it is clean, else the union on the grid (:func:`~foldbench.pfp.tolerance.union`).

    Clean means that no area was lost (a plain union can drop a piece) and that no two parts of the result lie
    within a hair of each other (pieces meeting along a crease whose shared edge disagrees by rounding). The plain
    union is several times faster and is clean for most cuts.

    >>> from shapely.geometry import box
    >>> _disjoint_union([box(0, 0, 1, 1), box(1, 0, 2, 1)]).area
    2.0
    """
    if len(pieces) < 2:
        return union(pieces)
    merged = shapely.union_all(pieces)
    expected = float(shapely.area(np.array(pieces, dtype=object)).sum())
    if abs(merged.area - expected) > _LOST_AREA:
        return union(pieces)
    parts = shapely.get_parts(merged)
    if len(parts) > 1:
        near = shapely.STRtree(parts).query(parts, predicate="dwithin", distance=_HAIR)
        if (near[0] != near[1]).any():
            return union(pieces)
    return merged


def folded_pieces(state: FoldState, holes: BaseGeometry) -> np.ndarray:
    """Each layer's piece of a region of the flat sheet, where that layer lies once folded (an array with one
    geometry per layer, empty where the layer has none of the region).

    >>> square = Polygon([(0, 0), (2, 0), (2, 2), (0, 2)])
    >>> folded = apply_step(flat_state(square), [Crease((1.0, 0.0), (1.0, 0.0))])
    >>> [piece.area for piece in folded_pieces(folded, Polygon([(1, 0), (2, 0), (2, 1)]))]
    [0.0, 0.5]
    """
    # A layer's piece of the holes, folded, is its position cut by the holes carried along with it (the layer's
    # map is an isometry): one transform per layer instead of two.
    positions = np.empty(len(state.layers), dtype=object)
    positions[:] = [layer.position for layer in state.layers]
    carried = np.empty(len(state.layers), dtype=object)
    carried[:] = [_transformed(holes, layer.transform) for layer in state.layers]
    return shapely.intersection(positions, carried)


def fold_region(state: FoldState, holes: BaseGeometry) -> BaseGeometry:
    """Where a region of the flat sheet lies once folded: the union of its pieces over every layer.

    This is the smallest cut that could make ``holes`` through the fold (see :func:`consistent_with`).

    >>> square = Polygon([(0, 0), (2, 0), (2, 2), (0, 2)])
    >>> fold_region(flat_state(square), Polygon()).is_empty
    True
    """
    if holes.is_empty:
        return union([])
    return union([piece for piece in folded_pieces(state, holes) if not piece.is_empty])
