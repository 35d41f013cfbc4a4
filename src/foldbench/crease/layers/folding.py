"""Folded geometry: where each face lands when every folded crease turns by 180 degrees.

Faces are visited breadth-first from face 0 (which keeps its place and side). Crossing an ``M``, ``V`` or
``U`` crease reflects across the crease line; crossing an ``F`` edge keeps the transform; ``B`` edges are not
crossed. Each face gets an orientation-preserving or -reversing isometry ``x -> matrix @ x + shift``.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from itertools import chain

import numpy as np

from foldbench.crease.errors import GeometricallyImpossibleFold, PrecisionProblem
from foldbench.crease.graph.pattern import CreasePattern
from foldbench.crease.precision.policy import DEFAULT_POLICY, PrecisionPolicy

__all__ = ["FoldPlan", "FoldedGeometry", "crossing_order", "fold_faces", "fold_plan", "folded_vertex_positions",
           "pattern_crossings"]


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


def crossing_order(pattern: CreasePattern) -> list[tuple[int, int, int]]:
    """Breadth-first crossings ``(face, other, edge)`` from face 0; unreachable faces are left out."""
    reached = [False] * pattern.face_count
    reached[0] = True
    queue = deque([0])
    edges_faces = pattern.edges_faces.tolist()
    assignments, faces_edges = pattern.edges_assignment, pattern.faces_edges
    order = []
    while queue:
        face = queue.popleft()
        for edge in faces_edges[face]:
            if assignments[edge] == "B":
                continue
            left, right = edges_faces[edge]
            other = right if left == face else left
            if other < 0 or reached[other]:
                continue
            order.append((face, other, edge))
            reached[other] = True
            queue.append(other)
    return order


@dataclass(frozen=True)
class FoldPlan:
    """The crossings of :func:`crossing_order` grouped for batched folding.

    Attributes:
        levels: per breadth-first level (the crossings whose ``face`` lies at one distance from face 0, in
            crossing order), the crossing indices over a reflecting crease, their rows in ``reflecting``, and
            the crossing indices over an ``F`` edge.
        faces: each crossing's ``face`` (already placed when its level is folded).
        others: each crossing's ``other`` face.
        edges: each crossing's edge.
        reflecting: the crossings over a crease that reflects (not ``F``), in crossing order.
    """

    levels: tuple[tuple[np.ndarray, np.ndarray, np.ndarray], ...]
    faces: np.ndarray
    others: np.ndarray
    edges: np.ndarray
    reflecting: np.ndarray


def fold_plan(pattern: CreasePattern, order: list[tuple[int, int, int]]) -> FoldPlan:
    """Group the crossings ``order`` (:func:`crossing_order`) by breadth-first level: every face a level places
    hangs from a face placed before it, so a level folds in a few array operations, each crossing with the
    same arithmetic as one at a time."""
    array = np.array(order, dtype=np.int64).reshape(-1, 3)
    faces, others, edges = array[:, 0], array[:, 1], array[:, 2]
    depth = [0] * pattern.face_count
    assignments = pattern.edges_assignment
    bounds = [0]
    for index, (face, other, _) in enumerate(order):
        depth[other] = depth[face] + 1
        if index and depth[face] != depth[order[index - 1][0]]:
            bounds.append(index)
    bounds.append(len(order))
    folds = np.array([assignments[edge] != "F" for _, _, edge in order], dtype=bool)
    position = np.cumsum(folds) - 1  # each reflecting crossing's row among the reflections
    levels = []
    for low, high in zip(bounds[:-1], bounds[1:], strict=True):
        rows = np.arange(low, high)
        if folds[low:high].all():
            levels.append((rows, position[low:high], rows[:0]))
            continue
        reflecting = rows[folds[low:high]]
        levels.append((reflecting, position[reflecting], rows[~folds[low:high]]))
    return FoldPlan(tuple(levels), faces, others, edges, np.flatnonzero(folds))


_PLANS: list[tuple[tuple[object, ...], list[tuple[int, int, int]], FoldPlan]] = []
"""The crossings and plans of the last two patterns (see :func:`pattern_crossings`)."""


def pattern_crossings(pattern: CreasePattern) -> tuple[list[tuple[int, int, int]], FoldPlan]:
    """:func:`crossing_order` of a pattern and its :func:`fold_plan`; callers only read them.

    The last two patterns' are kept, found again by the identity of the fields they are made from (faces,
    their edges, the edges' faces and letters; a pattern copied with other notes or noise shares them): folding
    a pattern and judging its folded gaps both need them."""
    key = (pattern.faces_vertices, pattern.faces_edges, pattern.edges_faces, pattern.edges_assignment)
    for known, order, plan in tuple(_PLANS):  # a snapshot: another thread may replace the entries
        if all(mine is theirs for mine, theirs in zip(key, known, strict=True)):
            return order, plan
    order = crossing_order(pattern)
    plan = fold_plan(pattern, order)
    _PLANS[:] = [(key, order, plan), *_PLANS[:1]]
    return order, plan


_IDENTITY = np.eye(2)
_IDENTITY.flags.writeable = False


def _face_transforms(
    pattern: CreasePattern, coords: np.ndarray, order: list[tuple[int, int, int]], plan: FoldPlan | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Each face's isometry ``x -> matrix @ x + shift``, composed along the crossings ``order``.

    Crossing a reflecting crease from ``a`` to ``b`` reflects across its line (``2 d d^T - I`` with ``d`` its unit
    direction, the shift making ``a`` fixed), then applies the face's own map; the reflections of every crease
    are computed at once and each breadth-first level is composed in one batched product (numpy's products of
    stacked matrices give each matrix the same result as a product of that matrix alone)."""
    matrices = np.zeros((pattern.face_count, 2, 2))
    shifts = np.zeros((pattern.face_count, 2))
    matrices[0] = _IDENTITY
    if not order:
        return matrices, shifts
    plan = fold_plan(pattern, order) if plan is None else plan
    ends = pattern.edges_vertices[plan.edges[plan.reflecting]]
    start, end = coords[ends[:, 0]], coords[ends[:, 1]]
    delta = end - start
    direction = delta / np.hypot(delta[:, 0], delta[:, 1])[:, None]
    reflections = 2 * (direction[:, :, None] * direction[:, None, :]) - _IDENTITY
    offsets = start - (reflections @ start[:, :, None])[:, :, 0]
    for folds, index, flats in plan.levels:
        if len(folds):
            face, other = plan.faces[folds], plan.others[folds]
            parent = matrices[face]
            matrices[other] = parent @ reflections[index]
            shifts[other] = (parent @ offsets[index][:, :, None])[:, :, 0] + shifts[face]
        if len(flats):
            matrices[plan.others[flats]] = matrices[plan.faces[flats]]
            shifts[plan.others[flats]] = shifts[plan.faces[flats]]
    return matrices, shifts


def _folded_corners(
    matrices: np.ndarray, shifts: np.ndarray, coords: np.ndarray, face_of_corner: np.ndarray,
    vertex_of_corner: np.ndarray,
) -> np.ndarray:
    return np.einsum("kij,kj->ki", matrices[face_of_corner], coords[vertex_of_corner]) + shifts[face_of_corner]


def _corners(pattern: CreasePattern) -> tuple[np.ndarray, np.ndarray]:
    """Every face corner's face and vertex, face after face in ``faces_vertices`` order."""
    faces = pattern.faces_vertices
    sizes = [len(face) for face in faces]
    face_of_corner = np.repeat(np.arange(len(faces), dtype=np.int64), sizes)
    vertex_of_corner = np.fromiter(chain.from_iterable(faces), dtype=np.int64, count=sum(sizes))
    return face_of_corner, vertex_of_corner


def folded_vertex_positions(
    pattern: CreasePattern, coords: np.ndarray, order: list[tuple[int, int, int]] | None = None
) -> np.ndarray:
    """Folded positions of the vertices when the crease pattern's vertices are at ``coords`` (same graph), each
    from the first face that lists it, as :func:`fold_faces` keeps them. ``order`` is
    :func:`crossing_order` of the pattern, when the caller has it."""
    matrices, shifts = _face_transforms(pattern, coords, crossing_order(pattern) if order is None else order)
    face_of_corner, vertex_of_corner = _corners(pattern)
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
    order, plan = pattern_crossings(pattern)
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
    matrices, shifts = _face_transforms(pattern, coords, order, plan)
    face_of_corner, vertex_of_corner = _corners(pattern)
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
    # each matrix is a product of reflections (determinant +-1): the sign of the 2x2 determinant, written out
    flipped = matrices[:, 0, 0] * matrices[:, 1, 1] - matrices[:, 0, 1] * matrices[:, 1, 0] < 0
    precision = pattern.input_precision if input_precision is None else input_precision
    return FoldedGeometry(folded, flipped, matrices, shifts, worst, precision, other, pattern.policy)
