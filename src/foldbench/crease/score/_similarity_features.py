"""What the similarity scores compare, read once from a crease pattern and its compiled fold.

Faces and vertices are identified across two patterns by where they lie on the (normalised) paper, so that the
constraint sets and layer orders of two patterns can be compared without any shared numbering.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import shapely

from foldbench.crease.compiler import CompiledFold
from foldbench.crease.graph.local_checks import vertices_creases
from foldbench.crease.graph.pattern import CreasePattern
from foldbench.crease.layers.constraints import ABOVE, TACO_TACO, TACO_TORTILLA
from foldbench.crease.precision.tolerance import ANGLE_TOLERANCE

__all__ = ["FoldedFeatures", "PatternFeatures", "folded_features", "pattern_features"]



@dataclass(frozen=True)
class PatternFeatures:
    """The crease pattern alone: its graph, its faces on the paper and its interior vertices.

    Attributes:
        vertex_count / edge_count / face_count: sizes of the planarised pattern.
        degrees: the degree of every vertex (all edges, boundary included).
        components: connected components of the creases (boundary edges left out).
        face_sizes: the number of vertices of every face.
        assignment_counts: number of edges per FOLD letter.
        face_centroids / face_areas: each face on the paper (coordinates normalised to longest side 1).
        interior_coords: the interior vertices carrying creases.
        maekawa_ok / kawasaki_ok: whether each interior vertex meets Maekawa's and Kawasaki's conditions.
    """

    vertex_count: int
    edge_count: int
    face_count: int
    degrees: np.ndarray
    components: int
    face_sizes: np.ndarray
    assignment_counts: dict[str, int]
    face_centroids: np.ndarray
    face_areas: np.ndarray
    interior_coords: np.ndarray
    maekawa_ok: np.ndarray
    kawasaki_ok: np.ndarray


@dataclass(frozen=True)
class FoldedFeatures:
    """The compiled fold: where the paper went, how each crease is folded, which constraints and layers exist.

    Attributes:
        points: the folded vertex positions.
        outline: the folded shape (union of the folded faces) as a polygon.
        face_transforms: ``(F, 2, 3)`` each face's isometry ``[matrix | shift]`` from paper to folded state.
        fold_angles: the signed fold angle (degrees) of every edge between two faces, read from the folded
            state: 0 when the faces keep their relative side, ±180 when one lies on the other, positive
            when it lies on the front (valley) side.
        constraints: per type (``taco-taco``, ``taco-tortilla``, ``transitivity``), an ``(n, k)`` array of the
            faces each constraint speaks about, in a canonical order.
        layer_pairs: ``(p, 2)`` overlapping face pairs ``f < g``.
        layer_relations: for each pair, +1 when ``f`` lies on the front side of ``g`` in every folded state,
            -1 when on its back side in every state, 0 when the states disagree.
        states: the number of flat-folded states.
        faces_flipped: whether each face shows its back in the folded state.
    """

    points: np.ndarray
    outline: shapely.Geometry
    face_transforms: np.ndarray
    fold_angles: np.ndarray
    constraints: dict[str, np.ndarray]
    layer_pairs: np.ndarray
    layer_relations: np.ndarray
    states: int
    faces_flipped: np.ndarray


def _polygons(coords: np.ndarray, faces: tuple[tuple[int, ...], ...]) -> np.ndarray:
    return np.array([shapely.Polygon(coords[list(face)]) for face in faces], dtype=object)


def _face_geometry(pattern: CreasePattern) -> tuple[np.ndarray, np.ndarray]:
    polygons = _polygons(pattern.vertices_coords, pattern.faces_vertices)
    centroids = shapely.get_coordinates(shapely.centroid(polygons)).reshape(-1, 2)
    return centroids, shapely.area(polygons)


def _local_conditions(pattern: CreasePattern) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Interior vertices with creases and, for each, Maekawa's and Kawasaki's verdict (no exception)."""
    neighbours, on_boundary = vertices_creases(pattern)
    coords, maekawa, kawasaki = [], [], []
    for vertex, edges in enumerate(neighbours):
        if on_boundary[vertex] or not edges:
            continue
        letters = [pattern.edges_assignment[e] for e in edges]
        mountains, valleys = letters.count("M"), letters.count("V")
        even = len(edges) % 2 == 0
        maekawa.append(even if "U" in letters else abs(mountains - valleys) == 2)
        angles = []
        for edge in edges:
            a, b = pattern.edges_vertices[edge]
            dx, dy = pattern.vertices_coords[b if a == vertex else a] - pattern.vertices_coords[vertex]
            angles.append(math.atan2(dy, dx))
        sectors = [((angles[(i + 1) % len(angles)] - angles[i]) % (2 * math.pi)) or 2 * math.pi
                   for i in range(len(angles))]
        kawasaki.append(even and abs(sum(sectors[0::2]) - math.pi) <= ANGLE_TOLERANCE)
        coords.append(pattern.vertices_coords[vertex])
    return np.array(coords, float).reshape(-1, 2), np.array(maekawa, bool), np.array(kawasaki, bool)


def _component_count(vertex_count: int, edges: np.ndarray) -> int:
    """Connected components of a graph (union-find with path halving)."""
    parent = list(range(vertex_count))

    def root(vertex: int) -> int:
        while parent[vertex] != vertex:
            parent[vertex] = parent[parent[vertex]]
            vertex = parent[vertex]
        return vertex

    for a, b in edges.tolist():
        parent[root(a)] = root(b)
    return len({root(v) for v in range(vertex_count)})


def pattern_features(pattern: CreasePattern) -> PatternFeatures:
    """The features of a crease pattern (no compilation needed)."""
    edges = pattern.edges_vertices
    degrees = np.bincount(edges.ravel(), minlength=pattern.vertex_count)
    creases = edges[[letter != "B" for letter in pattern.edges_assignment]] if pattern.edge_count else edges
    crease_vertices = np.unique(creases)
    renumber = np.full(pattern.vertex_count, -1)
    renumber[crease_vertices] = np.arange(len(crease_vertices))
    components = _component_count(len(crease_vertices), renumber[creases])
    counts = {letter: pattern.edges_assignment.count(letter) for letter in "BMVFU"}
    centroids, areas = _face_geometry(pattern)
    interior, maekawa, kawasaki = _local_conditions(pattern)
    return PatternFeatures(
        pattern.vertex_count, pattern.edge_count, pattern.face_count, degrees, components,
        np.array([len(face) for face in pattern.faces_vertices]), counts, centroids, areas, interior, maekawa,
        kawasaki,
    )


def _outline(compiled: CompiledFold) -> shapely.Geometry:
    folded = compiled.folded.vertices_coords_folded
    polygons = _polygons(folded, compiled.pattern.faces_vertices)
    return shapely.union_all(shapely.buffer(polygons, 1e-9, join_style="mitre"))


def _fold_angles(compiled: CompiledFold, values: list[int]) -> np.ndarray:
    pattern, folded = compiled.pattern, compiled.folded
    edges_faces = pattern.edges_faces.reshape(-1, 2)
    inner = edges_faces[(edges_faces >= 0).all(axis=1)]
    if len(inner) == 0:
        return np.zeros(0)
    flipped = folded.faces_flipped.astype(bool)
    low, high = inner.min(axis=1), inner.max(axis=1)
    face_count = pattern.face_count
    variables = compiled.constraints.variables_faces.astype(np.int64).reshape(-1, 2)
    keys = variables[:, 0] * face_count + variables[:, 1]  # sorted: the variables are sorted pairs
    wanted = low * face_count + high
    position = np.minimum(np.searchsorted(keys, wanted), max(0, len(keys) - 1))
    found = keys[position] == wanted if len(keys) else np.zeros(len(wanted), bool)
    above = np.asarray(values, dtype=np.int64)[position] == ABOVE if len(keys) else found
    low_on_front_of_high = above != flipped[high]
    angles = np.where(low_on_front_of_high, 180.0, -180.0)
    angles = np.where(found, angles, 180.0)
    return np.where(flipped[low] == flipped[high], 0.0, angles)


def _constraint_faces(compiled: CompiledFold) -> dict[str, np.ndarray]:
    constraints = compiled.constraints
    kinds, faces = constraints.local_kinds, constraints.local_faces
    taco_taco = faces[kinds == TACO_TACO, :4]
    pairs = np.sort(taco_taco.reshape(-1, 2, 2), axis=2)
    order = np.lexsort((pairs[:, :, 1], pairs[:, :, 0]), axis=1) if len(pairs) else np.zeros((0, 2), int)
    taco_taco = np.take_along_axis(pairs, order[:, :, None], axis=1).reshape(-1, 4)
    taco_tortilla = faces[kinds == TACO_TORTILLA, :3].copy()
    taco_tortilla[:, :2] = np.sort(taco_tortilla[:, :2], axis=1)
    triples = constraints.transitivity
    variables = constraints.variables_faces
    transitivity = np.column_stack([variables[triples[:, 0]], variables[triples[:, 2], 1]]) if len(triples) \
        else np.zeros((0, 3), np.int64)
    return {"taco-taco": taco_taco.astype(np.int64), "taco-tortilla": taco_tortilla.astype(np.int64),
            "transitivity": np.sort(transitivity, axis=1).astype(np.int64)}


def folded_features(compiled: CompiledFold) -> FoldedFeatures:
    """The features of a compiled fold (layer relations are the ones every folded state shares)."""
    folded = compiled.folded
    values = compiled.state_values(0)
    pairs = compiled.constraints.variables_faces.astype(np.int64).reshape(-1, 2)
    forced = np.array(compiled.solution.forced_values, dtype=np.int64)
    f_above = forced == ABOVE
    relations = np.where(f_above != folded.faces_flipped[pairs[:, 1]], 1, -1) if len(pairs) else np.zeros(0, int)
    relations = np.where(forced == 0, 0, relations)
    transforms = np.concatenate([folded.faces_matrix, folded.faces_shift[:, :, None]], axis=2)
    return FoldedFeatures(
        folded.vertices_coords_folded.copy(), _outline(compiled), transforms, _fold_angles(compiled, values),
        _constraint_faces(compiled), pairs, relations.astype(np.int64), compiled.state_count,
        folded.faces_flipped.astype(bool),
    )
