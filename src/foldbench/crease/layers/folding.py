"""Folded geometry: where each face lands when every folded crease turns by 180 degrees.

Faces are visited breadth-first from face 0 (which keeps its place and side). Crossing an ``M``, ``V`` or
``U`` crease reflects across the crease line; crossing an ``F`` edge keeps the transform; ``B`` edges are not
crossed. Each face gets an orientation-preserving or -reversing isometry ``x -> matrix @ x + shift``.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

import numpy as np

from foldbench.crease.errors import GeometricallyImpossibleFold, PrecisionProblem
from foldbench.crease.graph.pattern import CreasePattern
from foldbench.crease.precision.policy import DEFAULT_POLICY, PrecisionPolicy

__all__ = ["FoldedGeometry", "crossing_order", "fold_faces", "folded_vertex_positions"]


@dataclass(frozen=True)
class FoldedGeometry:
    """The folded image of a crease pattern.

    Attributes:
        vertices_coords_folded: ``(n, 2)`` folded vertex coordinates.
        faces_flipped: for each face, True when it shows its back (reflected an odd number of times).
        faces_matrix: ``(F, 2, 2)`` linear part of each face's isometry.
        faces_shift: ``(F, 2)`` translation part of each face's isometry.
        worst_mismatch: the largest disagreement between a vertex's position computed from two faces.
        input_precision: how far the input's points may be off (paper size = 1), see
            :mod:`foldbench.crease.precision.measure`; the overlay trusts no arrangement that moving the folded
            vertices this far would change.
        vertices_coords_other: each vertex's folded position from the face that disagrees most with the one
            kept (equal to ``vertices_coords_folded`` where every face agrees).
        policy: the precision policy of the pattern folded, carried on to the overlay.
    """

    vertices_coords_folded: np.ndarray
    faces_flipped: np.ndarray
    faces_matrix: np.ndarray
    faces_shift: np.ndarray
    worst_mismatch: float
    input_precision: float | None = None
    vertices_coords_other: np.ndarray | None = None
    policy: PrecisionPolicy = field(default=DEFAULT_POLICY, repr=False)


def _reflection(start: np.ndarray, end: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    direction = (end - start) / np.hypot(*(end - start))
    matrix = 2 * np.outer(direction, direction) - np.eye(2)
    return matrix, start - matrix @ start


def crossing_order(pattern: CreasePattern) -> list[tuple[int, int, int]]:
    """Breadth-first crossings ``(face, other, edge)`` from face 0; unreachable faces are left out."""
    reached = np.zeros(pattern.face_count, dtype=bool)
    reached[0] = True
    queue = deque([0])
    edges_faces = pattern.edges_faces.tolist()
    order = []
    while queue:
        face = queue.popleft()
        for edge in pattern.faces_edges[face]:
            if pattern.edges_assignment[edge] == "B":
                continue
            left, right = edges_faces[edge]
            other = right if left == face else left
            if other < 0 or reached[other]:
                continue
            order.append((face, other, edge))
            reached[other] = True
            queue.append(other)
    return order


def _face_transforms(
    pattern: CreasePattern, coords: np.ndarray, order: list[tuple[int, int, int]]
) -> tuple[np.ndarray, np.ndarray]:
    matrices = np.zeros((pattern.face_count, 2, 2))
    shifts = np.zeros((pattern.face_count, 2))
    matrices[0] = np.eye(2)
    for face, other, edge in order:
        if pattern.edges_assignment[edge] == "F":
            matrices[other], shifts[other] = matrices[face], shifts[face]
        else:
            a, b = pattern.edges_vertices[edge]
            reflect, offset = _reflection(coords[a], coords[b])
            matrices[other] = matrices[face] @ reflect
            shifts[other] = matrices[face] @ offset + shifts[face]
    return matrices, shifts


def _folded_corners(
    matrices: np.ndarray, shifts: np.ndarray, coords: np.ndarray, face_of_corner: np.ndarray,
    vertex_of_corner: np.ndarray,
) -> np.ndarray:
    return np.einsum("kij,kj->ki", matrices[face_of_corner], coords[vertex_of_corner]) + shifts[face_of_corner]


def folded_vertex_positions(
    pattern: CreasePattern, coords: np.ndarray, order: list[tuple[int, int, int]] | None = None
) -> np.ndarray:
    """Folded positions of the vertices when the crease pattern's vertices are at ``coords`` (same graph), each
    from the first face that lists it, as :func:`fold_faces` keeps them. ``order`` is
    :func:`crossing_order` of the pattern, when the caller has it."""
    matrices, shifts = _face_transforms(pattern, coords, crossing_order(pattern) if order is None else order)
    face_of_corner = np.concatenate([np.full(len(f), i) for i, f in enumerate(pattern.faces_vertices)])
    vertex_of_corner = np.concatenate([np.asarray(f) for f in pattern.faces_vertices])
    folded = np.zeros_like(coords)
    corners = _folded_corners(matrices, shifts, coords, face_of_corner, vertex_of_corner)
    folded[vertex_of_corner[::-1]] = corners[::-1]
    return folded


def fold_faces(pattern: CreasePattern, input_precision: float | None = None) -> FoldedGeometry:
    """Fold every crease flat and return the folded vertex coordinates and face flips.

    ``input_precision`` (default: the pattern's own) is how far the input may be off; it travels with the
    folded geometry to the overlay.

    Raises:
        GeometricallyImpossibleFold: a face is unreachable without crossing a boundary.
        PrecisionProblem: faces disagree about a vertex by more than the policy's ``folded_mismatch_limit`` (the local
            checks passed, so the disagreement comes from rounded coordinates).

    >>> from foldbench.crease.graph.pattern import build_crease_pattern
    >>> square = np.array([[[0, 0], [1, 0]], [[1, 0], [1, 1]], [[1, 1], [0, 1]], [[0, 1], [0, 0]]], float)
    >>> fold_faces(build_crease_pattern(square, "BBBB")).faces_flipped.tolist()
    [False]
    """
    coords = pattern.vertices_coords
    order = crossing_order(pattern)
    if len(order) + 1 < pattern.face_count:
        reached = np.zeros(pattern.face_count, dtype=bool)
        reached[0] = True
        reached[[other for _, other, _ in order]] = True
        missing = np.flatnonzero(~reached).tolist()
        raise GeometricallyImpossibleFold(
            "E_GEOM_DISCONNECTED_PAPER",
            f"{len(missing)} face(s) are cut off from face 0 by boundary edges",
            {"faces": missing[:20]},
        )
    matrices, shifts = _face_transforms(pattern, coords, order)
    face_of_corner = np.concatenate([np.full(len(f), i) for i, f in enumerate(pattern.faces_vertices)])
    vertex_of_corner = np.concatenate([np.asarray(f) for f in pattern.faces_vertices])
    folded_corners = _folded_corners(matrices, shifts, coords, face_of_corner, vertex_of_corner)
    folded = np.zeros_like(coords)
    folded[vertex_of_corner[::-1]] = folded_corners[::-1]  # first face listed wins
    mismatch = np.hypot(*(folded_corners - folded[vertex_of_corner]).T)
    worst = float(mismatch.max()) if len(mismatch) else 0.0
    other = folded.copy()
    by_mismatch = np.argsort(mismatch, kind="stable")
    other[vertex_of_corner[by_mismatch]] = folded_corners[by_mismatch]  # the most distant position wins
    if worst > pattern.policy.folded_mismatch_limit:
        corner = int(mismatch.argmax())
        vertex = int(vertex_of_corner[corner])
        raise PrecisionProblem(
            "E_PRECISION_FOLDED_VERTEX",
            f"vertex {vertex} lands at points {worst:.2e} apart when reached around different faces; "
            "the coordinates are too imprecise to fold consistently",
            {"vertex": vertex, "face": int(face_of_corner[corner]), "mismatch": worst,
             "coordinates": (coords[vertex] * pattern.scale + np.array(pattern.offset)).tolist()},
        )
    flipped = np.linalg.det(matrices) < 0
    precision = pattern.input_precision if input_precision is None else input_precision
    return FoldedGeometry(folded, flipped, matrices, shifts, worst, precision, other, pattern.policy)
