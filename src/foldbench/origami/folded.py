"""The folded form in the paper frame, aligned the same way for every crease pattern of the square.

The compiler folds with its face 0 fixed, and which face is face 0 depends on how the pattern was built. To
compare two folded forms of the same square, both are moved so that the face under :data:`REFERENCE_POINT`
(a point near the bottom-left corner, off every crease a lattice or simple fold makes) stays where it lies on
the unfolded square, front side up. Every square pattern is read in its normalised frame (the square's bounding
box scaled to side 1), then scaled to the paper frame (side :data:`~foldbench.origami.actions.PAPER_SIZE`), so a
pattern drawn on a unit square and one drawn on a 400-unit square align the same way. A blank square is then
the square itself; folding the right half over onto the left half gives the left half.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from foldbench.crease.compiler import CompiledFold
from foldbench.origami.actions import PAPER_SIZE

__all__ = ["REFERENCE_POINT", "AlignedFold", "align_fold", "silhouette_of"]

REFERENCE_POINT: tuple[float, float] = (0.2, 0.0618)
"""The point (paper frame) whose face stays in place when folded forms are aligned."""


@dataclass(frozen=True)
class AlignedFold:
    """A compiled fold moved into the paper frame with the reference face fixed.

    Attributes:
        compiled: the compiled fold.
        vertices_coords: ``(n, 2)`` folded vertex coordinates in the paper frame.
        faces_flipped: per face, True when it shows its back after alignment.
        reference_face: the face under :data:`REFERENCE_POINT`.
    """

    compiled: CompiledFold
    vertices_coords: np.ndarray
    faces_flipped: np.ndarray
    reference_face: int

    def face_polygons(self) -> list[np.ndarray]:
        """Each face's folded polygon (paper frame)."""
        return [self.vertices_coords[list(face)] for face in self.compiled.pattern.faces_vertices]

    def transform(self, points: np.ndarray) -> np.ndarray:
        """Points of the compiler's folded frame (normalised units) mapped into the aligned paper frame."""
        matrix = self.compiled.folded.faces_matrix[self.reference_face]
        shift = self.compiled.folded.faces_shift[self.reference_face]
        return (np.asarray(points, float).reshape(-1, 2) - shift) @ matrix * PAPER_SIZE


def _reference_face(compiled: CompiledFold) -> int:
    pattern = compiled.pattern
    point = np.asarray(REFERENCE_POINT) / PAPER_SIZE
    target = shapely.Point(point)
    best, best_distance = 0, np.inf
    for index, face in enumerate(pattern.faces_vertices):
        polygon = shapely.Polygon(pattern.vertices_coords[list(face)])
        distance = polygon.distance(target)
        if distance < best_distance:
            best, best_distance = index, distance
            if distance == 0.0:
                break
    return best


def align_fold(compiled: CompiledFold) -> AlignedFold:
    """The folded form of ``compiled`` with the face under :data:`REFERENCE_POINT` fixed (see module docstring)."""
    face = _reference_face(compiled)
    matrix = compiled.folded.faces_matrix[face]
    shift = compiled.folded.faces_shift[face]
    # x -> M x + s maps the face's unfolded place to its folded place; its inverse y -> M^T (y - s) undoes it.
    coords = (compiled.folded.vertices_coords_folded - shift) @ matrix
    coords = coords * PAPER_SIZE
    flipped = compiled.folded.faces_flipped != compiled.folded.faces_flipped[face]
    return AlignedFold(compiled, coords, np.asarray(flipped), face)


def silhouette_of(aligned: AlignedFold) -> BaseGeometry:
    """The region the folded paper covers (union of the folded faces), paper frame."""
    polygons = [shapely.Polygon(p) for p in aligned.face_polygons() if len(p) >= 3]
    return shapely.union_all([p if p.is_valid else p.buffer(0) for p in polygons])
