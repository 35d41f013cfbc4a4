"""What the spatial-relationship questions ask of a compiled fold: where a point of the paper lands, which side
of it faces the viewer, how many layers lie at a place of the folded model and in which order.

A :class:`FoldReference` wraps a :class:`~foldbench.crease.CompiledFold` with the polygons the questions need:
the crease-pattern faces (paper coordinates, longest side 1) and the overlap cells of the folded state (folded
coordinates). Every answer comes from the compiler's own output: a face's isometry ``x -> matrix @ x + shift``
and flip (:class:`~foldbench.crease.layers.folding.FoldedGeometry`), the faces covering each cell and their layer order
(:meth:`~foldbench.crease.CompiledFold.cells_layer_order`). Points are only ever taken at least
:data:`INTERIOR_MARGIN` inside a face or cell, so no answer depends on which side of a crease or layer boundary
a point is read.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np
import shapely
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry

from foldbench.crease import CompiledFold
from foldbench.tasks.origamispace.stability import reference_stability

__all__ = ["INTERIOR_MARGIN", "MAX_ORDER_STATES", "FoldReference", "sample_inside"]

INTERIOR_MARGIN: float = 0.025
"""How far (paper side 1) a marked point stays from every edge of its face or cell."""
MAX_ORDER_STATES: int = 16
"""A stacking order is only asked when it is the same in every folded state; at most this many are compared."""


def _polygon(points: np.ndarray) -> BaseGeometry:
    return shapely.make_valid(Polygon(points)) if len(points) >= 3 else Polygon()


@dataclass(frozen=True)
class FoldReference:
    """A compiled fold with the geometry the relationship questions read.

    Attributes:
        compiled: the compiler's result.
        name: a name for the reference (sequence and state, or file).
        fold_count: folding steps (None when unknown).
    """

    compiled: CompiledFold
    name: str
    fold_count: int | None = None

    @cached_property
    def stable(self) -> bool:
        """Whether the folded state rests on no hair (:func:`reference_stability`), judged once per reference."""
        return reference_stability(self.compiled, every_reason=False).stable

    # ---- the crease pattern -------------------------------------------------------------------------------
    @cached_property
    def faces_polygons(self) -> list[BaseGeometry]:
        """Each crease-pattern face as a polygon (paper coordinates)."""
        pattern = self.compiled.pattern
        return [_polygon(pattern.vertices_coords[list(face)]) for face in pattern.faces_vertices]

    @cached_property
    def faces_inner(self) -> list[BaseGeometry]:
        """Each face shrunk by :data:`INTERIOR_MARGIN` (empty for faces too thin to mark)."""
        return [polygon.buffer(-INTERIOR_MARGIN) for polygon in self.faces_polygons]

    @cached_property
    def paper_size(self) -> float:
        """The side of the paper in the pattern's own units (10 for the built-in sequences)."""
        return float(self.compiled.pattern.scale)

    def face_at(self, point: np.ndarray) -> int | None:
        """The face whose interior (at least :data:`INTERIOR_MARGIN` from its edges) holds ``point``, or None."""
        hits = np.flatnonzero(shapely.contains_xy(np.array(self.faces_inner, dtype=object), *point))
        return int(hits[0]) if len(hits) == 1 else None

    def fold_point(self, point: np.ndarray, face: int) -> np.ndarray:
        """Where ``point`` of ``face`` lands in the folded state."""
        folded = self.compiled.folded
        return folded.faces_matrix[face] @ np.asarray(point, float) + folded.faces_shift[face]

    def unfold_point(self, point: np.ndarray, face: int) -> np.ndarray:
        """The point of ``face`` (paper coordinates) that lands at the folded ``point`` (the inverse of
        :meth:`fold_point`; a face's isometry is orthogonal)."""
        folded = self.compiled.folded
        return folded.faces_matrix[face].T @ (np.asarray(point, float) - folded.faces_shift[face])

    def landing(self, point: np.ndarray) -> tuple[int, np.ndarray] | None:
        """The face holding a paper ``point`` (at least :data:`INTERIOR_MARGIN` inside) and where the point lands
        after folding, or None near a crease."""
        face = self.face_at(point)
        return None if face is None else (face, self.fold_point(point, face))

    def shows_front(self, face: int) -> bool:
        """Whether ``face`` shows the paper's front side (the side of face 0) to a viewer of the folded front."""
        return not bool(self.compiled.folded.faces_flipped[face])

    # ---- the folded state --------------------------------------------------------------------------------
    @cached_property
    def cells_polygons(self) -> list[BaseGeometry]:
        """Each overlap cell as a polygon (folded coordinates)."""
        cells = self.compiled.cells
        return [_polygon(cells.points_coords[list(points)]) for points in cells.cells_points]

    @cached_property
    def cells_inner(self) -> list[BaseGeometry]:
        """Each cell shrunk by :data:`INTERIOR_MARGIN` (empty for cells too thin to mark)."""
        return [polygon.buffer(-INTERIOR_MARGIN) for polygon in self.cells_polygons]

    @cached_property
    def cells_layers(self) -> np.ndarray:
        """The number of paper layers in each cell."""
        return np.array([len(faces) for faces in self.compiled.cells.cells_faces])

    @cached_property
    def silhouette(self) -> BaseGeometry:
        """The folded shape (union of the cells with paper)."""
        return shapely.union_all([p for p, n in zip(self.cells_polygons, self.cells_layers, strict=True) if n])

    @cached_property
    def folded_points(self) -> np.ndarray:
        """Every cell corner of the folded state (what the folded picture is framed on)."""
        return np.asarray(self.compiled.cells.points_coords, float)

    def cell_at(self, point: np.ndarray) -> int | None:
        """The cell whose interior (at least :data:`INTERIOR_MARGIN` from its edges) holds ``point``, or None."""
        hits = np.flatnonzero(shapely.contains_xy(np.array(self.cells_inner, dtype=object), *point))
        return int(hits[0]) if len(hits) == 1 else None

    def layers_at(self, point: np.ndarray) -> int | None:
        """How many layers of paper lie at a folded ``point`` (None on or near a layer boundary)."""
        cell = self.cell_at(point)
        return None if cell is None else int(self.cells_layers[cell])

    @cached_property
    def states_orders(self) -> list[list[list[int]]]:
        """For the first :data:`MAX_ORDER_STATES` folded states, each cell's faces from top (front) to bottom."""
        count = min(self.compiled.state_count, MAX_ORDER_STATES)
        return [self.compiled.cells_layer_order(state) for state in range(count)]

    def stacking(self, cell: int, faces: list[int]) -> list[int] | None:
        """``faces`` (all covering ``cell``) from top to bottom, or None when the folded states disagree (or
        when the compiler found more states than :data:`MAX_ORDER_STATES`)."""
        if self.compiled.state_count > MAX_ORDER_STATES:
            return None
        found = None
        for orders in self.states_orders:
            order = [face for face in orders[cell] if face in faces]
            if found is not None and order != found:
                return None
            found = order
        return found


def sample_inside(polygon: BaseGeometry, rng: np.random.Generator, tries: int = 40) -> np.ndarray | None:
    """A point drawn uniformly inside ``polygon`` (None when it is empty or the draws miss)."""
    if polygon.is_empty or polygon.area <= 0:
        return None
    low_x, low_y, high_x, high_y = polygon.bounds
    xs = rng.uniform(low_x, high_x, tries)
    ys = rng.uniform(low_y, high_y, tries)
    inside = np.flatnonzero(shapely.contains_xy(polygon, xs, ys))
    return None if len(inside) == 0 else np.array([xs[inside[0]], ys[inside[0]]])
