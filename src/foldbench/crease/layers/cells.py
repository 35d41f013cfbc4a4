"""Overlap cells of the folded state and the overlapping face pairs (the layer-order variables).

The folded edges are overlaid and planarised (same tolerance policy, folded-state tolerance); the faces of
that arrangement are the *cells*. Walking from a cell on the outside of the folded shape across each segment
toggles the paper faces whose edges lie on that segment, which gives the faces covering every cell without any
point-in-polygon test.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

import numpy as np

from foldbench.crease.errors import PrecisionProblem
from foldbench.crease.graph.pattern import CreasePattern
from foldbench.crease.graph.planar import PlanarGraph, find_faces, planarize_segments
from foldbench.crease.layers.folding import FoldedGeometry

__all__ = ["OverlapCells", "build_cells", "overlay_folded_edges"]


@dataclass(frozen=True)
class OverlapCells:
    """The arrangement of folded edges.

    Attributes:
        points_coords: ``(p, 2)`` arrangement vertices (folded coordinates).
        segments_points: ``(s, 2)`` arrangement edges.
        segments_edges: crease-pattern edges lying on each segment.
        segments_cells: ``(s, 2)`` cells on the two sides of each segment (``-1`` outside).
        cells_points: point cycles of the cells.
        cells_faces: sorted paper faces covering each cell.
    """

    points_coords: np.ndarray
    segments_points: np.ndarray
    segments_edges: tuple[tuple[int, ...], ...]
    segments_cells: np.ndarray
    cells_points: tuple[tuple[int, ...], ...]
    cells_faces: tuple[tuple[int, ...], ...]


def overlay_folded_edges(pattern: CreasePattern, folded: FoldedGeometry, tolerance: float) -> PlanarGraph:
    """The folded edges planarised at ``tolerance`` (the arrangement whose faces are the cells)."""
    return planarize_segments(folded.vertices_coords_folded[pattern.edges_vertices], tolerance)


def build_cells(
    pattern: CreasePattern,
    folded: FoldedGeometry,
    tolerance: float | None = None,
    graph: PlanarGraph | None = None,
) -> OverlapCells:
    """Overlay the folded edges into cells and find the faces covering each cell.

    ``tolerance`` defaults to the pattern's policy's ``folded_distance``; ``graph`` is the overlay at
    ``tolerance`` when the caller has it already.

    Raises:
        PrecisionProblem: walking the cells gives a cell two different face sets (imprecise coordinates).

    >>> from foldbench.crease.graph.pattern import build_crease_pattern
    >>> from foldbench.crease.layers.folding import fold_faces
    >>> square = np.array([[[0, 0], [1, 0]], [[1, 0], [1, 1]], [[1, 1], [0, 1]], [[0, 1], [0, 0]]], float)
    >>> pattern = build_crease_pattern(square, "BBBB")
    >>> build_cells(pattern, fold_faces(pattern)).cells_faces
    ((0,),)
    """
    tolerance = pattern.policy.folded_distance if tolerance is None else tolerance
    if graph is None:
        graph = overlay_folded_edges(pattern, folded, tolerance)
    faces = find_faces(graph.vertices_coords, graph.edges_vertices)
    segments_cells = faces.edges_faces
    edges_faces = pattern.edges_faces.tolist()
    segment_face_lists: list[list[int]] = []
    for sources in graph.edges_sources:
        # a face on both sides of an edge (a flat slit into the face) is crossed twice: no change in cover
        toggled_faces: set[int] = set()
        for edge in sources:
            for face in edges_faces[edge]:
                if face >= 0:
                    toggled_faces ^= {face}
        segment_face_lists.append(sorted(toggled_faces))
    cell_count = len(faces.faces_vertices)
    cells_faces: list[set[int] | None] = [None] * cell_count
    cell_segments: list[list[int]] = [[] for _ in range(cell_count)]
    sides = segments_cells.tolist()
    for segment, (left, right) in enumerate(sides):
        if left >= 0:
            cell_segments[left].append(segment)
        if right >= 0 and right != left:
            cell_segments[right].append(segment)
    queue: deque[int] = deque()
    consistent = True
    for segment, (left, right) in enumerate(sides):
        if (left < 0) != (right < 0):
            inside = left if left >= 0 else right
            if cells_faces[inside] is None:
                cells_faces[inside] = set(segment_face_lists[segment])
                queue.append(inside)
                break
    while queue:
        cell = queue.popleft()
        current = cells_faces[cell]
        assert current is not None
        for segment in cell_segments[cell]:
            left, right = sides[segment]
            neighbour = right if left == cell else left
            if neighbour < 0:
                continue
            toggled = set(current)
            toggled.symmetric_difference_update(segment_face_lists[segment])
            if cells_faces[neighbour] is None:
                cells_faces[neighbour] = toggled
                queue.append(neighbour)
            elif cells_faces[neighbour] != toggled:
                consistent = False
    if not consistent or any(faces_set is None for faces_set in cells_faces):
        raise PrecisionProblem(
            "E_PRECISION_CELLS",
            "the folded edges do not overlay consistently (a cell is covered by different faces depending on "
            f"the path across segments) at folded tolerance {tolerance:.1e}; the coordinates are too imprecise",
            {"tolerance": tolerance, "cells": cell_count},
        )
    return OverlapCells(
        points_coords=graph.vertices_coords,
        segments_points=graph.edges_vertices,
        segments_edges=graph.edges_sources,
        segments_cells=segments_cells,
        cells_points=faces.faces_vertices,
        cells_faces=tuple([tuple(sorted(faces_set or ())) for faces_set in cells_faces]),
    )
