"""Planarise line segments into a plane graph and find its faces.

Used twice: on the crease pattern (segments from any input format) and on the folded state (the folded
edges, whose overlay gives the overlap cells). Follows the tolerance policy of
:mod:`foldbench.crease.precision.tolerance`: endpoints closer than ``tolerance`` merge, an endpoint within ``tolerance``
of a segment splits it (the two then meet there and nowhere else), proper crossings add a vertex (the crossings
of segments that nearly meet at one point, one vertex), and duplicate pieces merge while remembering every
input segment they came from (``edges_sources``).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

import numpy as np

from foldbench.crease.graph._planar_kernels import merge_small as _merge_small
from foldbench.crease.graph._planar_kernels import planarize_small
from foldbench.jit import kernels_compiled

__all__ = ["SMALL_INPUT", "PlanarGraph", "PlaneFaces", "find_faces", "merge_close_points", "planarize_segments"]

SMALL_INPUT: int = 400
"""Up to this many points (or segments), merging and candidate pairs use compiled or all-pairs code, which
has less fixed cost than the grid and the spatial index used above it (same results)."""

COMPILED_SEGMENTS: int = SMALL_INPUT
"""Up to this many segments, once kernels run compiled in the process (:func:`foldbench.jit.kernels_compiled`),
:func:`planarize_segments` runs compiled loops (:func:`foldbench.crease.graph._planar_kernels.planarize_small`: the
same arithmetic in the same order, so the same graph) instead of array code, whose fixed cost per operation
dominates there. Above :data:`SMALL_INPUT` the array code lists candidate pairs through a spatial index, in
another order, which can number the same graph's vertices differently."""

COMPILED_MERGE: int = 4000
"""Up to this many points, once kernels run compiled, :func:`merge_close_points` runs the compiled loop (which
compares a point with every kept point, in the grid order of the dictionary code: the same result) instead of
the dictionary of grid cells in Python."""


@dataclass(frozen=True)
class PlanarGraph:
    """A plane straight-line graph made from segments.

    Attributes:
        vertices_coords: ``(n, 2)`` float array.
        edges_vertices: ``(m, 2)`` int array, each row ``[smaller, larger]`` vertex index.
        edges_sources: for each edge, the sorted indices of the input segments it lies on.
    """

    vertices_coords: np.ndarray
    edges_vertices: np.ndarray
    edges_sources: tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class PlaneFaces:
    """Faces of a plane graph, found by walking half-edges.

    Attributes:
        faces_vertices: bounded faces, each a counter-clockwise list of vertex indices.
        faces_edges: for each face, the edge index of the side from ``faces_vertices[f][i]`` to the next vertex.
        edges_faces: ``(m, 2)`` int array: the face left of the edge walked from ``edges_vertices[e][0]`` to
            ``[1]``, then the face on its right; ``-1`` for the unbounded side.
        outer_cycles: vertex cycles of the unbounded side (one per connected component).
        faces_areas: each face's area (shoelace sum over its sides in walking order).
    """

    faces_vertices: tuple[tuple[int, ...], ...]
    faces_edges: tuple[tuple[int, ...], ...]
    edges_faces: np.ndarray
    outer_cycles: tuple[tuple[int, ...], ...]
    faces_areas: tuple[float, ...] = ()


def merge_close_points(points: np.ndarray, tolerance: float) -> tuple[np.ndarray, np.ndarray]:
    """Merge points closer than ``tolerance`` (first come, first kept).

    Returns the kept coordinates and, for each input point, the index of the kept point it merged into.

    >>> coords, labels = merge_close_points(np.array([[0.0, 0.0], [1e-9, 0.0], [1.0, 0.0]]), 1e-6)
    >>> labels.tolist(), len(coords)
    ([0, 0, 1], 2)
    >>> merge_close_points(np.zeros((0, 2)), 1e-6)[1].tolist()
    []
    """
    cells = np.floor(points / tolerance).astype(np.int64)
    if len(points) <= SMALL_INPUT or (len(points) <= COMPILED_MERGE and kernels_compiled()):
        kept_array, labels = _merge_small(points, cells, tolerance)
        return points[kept_array].reshape(-1, 2), labels
    labels = np.empty(len(points), dtype=np.int64)
    grid: dict[tuple[int, int], list[int]] = {}
    kept: list[int] = []
    tolerance_squared = tolerance * tolerance
    for index in range(len(points)):
        cell_x, cell_y = int(cells[index, 0]), int(cells[index, 1])
        found = -1
        x, y = points[index]
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                for candidate in grid.get((cell_x + dx, cell_y + dy), ()):
                    cx, cy = points[kept[candidate]]
                    if (cx - x) ** 2 + (cy - y) ** 2 <= tolerance_squared:
                        found = candidate
                        break
                if found >= 0:
                    break
            if found >= 0:
                break
        if found < 0:
            found = len(kept)
            kept.append(index)
            grid.setdefault((cell_x, cell_y), []).append(found)
        labels[index] = found
    return points[np.array(kept, dtype=np.int64)].reshape(-1, 2), labels


def _candidate_pairs(starts: np.ndarray, ends: np.ndarray, tolerance: float) -> tuple[np.ndarray, np.ndarray]:
    """Pairs ``i < j`` of segments whose bounding boxes (grown by ``tolerance``) meet."""
    low = np.minimum(starts, ends) - tolerance
    high = np.maximum(starts, ends) + tolerance
    if len(starts) <= SMALL_INPUT:
        meet = ((low[:, None, 0] <= high[None, :, 0]) & (low[None, :, 0] <= high[:, None, 0])
                & (low[:, None, 1] <= high[None, :, 1]) & (low[None, :, 1] <= high[:, None, 1]))
        first, second = np.nonzero(np.triu(meet, 1))
        return first.astype(np.int64), second.astype(np.int64)
    import shapely  # only large inputs need its spatial index

    boxes = shapely.box(low[:, 0], low[:, 1], high[:, 0], high[:, 1])
    tree = shapely.STRtree(boxes)
    first, second = tree.query(boxes, predicate="intersects")
    keep = first < second
    return first[keep], second[keep]


def _cross(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]


def _near_concurrent(
    starts: np.ndarray, ends: np.ndarray, pairs: tuple[np.ndarray, np.ndarray],
    parameters: tuple[np.ndarray, np.ndarray], points: np.ndarray, tolerance: float,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Crossings of lines that nearly meet at one point, merged into one: lines through one point, moved by
    noise and meeting at shallow angles, cross up to tolerance / sine apart, each crossing within the
    tolerance of the other lines.

    Two crossings next to each other along a segment, ``gap`` apart, are linked when the sine of the angle at
    one of them times ``gap`` is within the tolerance: that is how far the other lies from the segment
    crossing there. Groups whose links are all shorter than a quarter of the tolerance are left to merging.
    Of each other group,
    one crossing is kept, moved to the point nearest to all the group's segments (least squares; or to the
    group's crossing nearest to them all), provided that point lies within the tolerance of every one of
    them; the others are dropped and every segment of the group is put through it. A group with no such
    point is left as it is. ``points`` and ``parameters`` (the crossings ``pairs``' points and parameters
    along both segments) are updated in place for the kept crossings. Returns ``(dropped, segment,
    parameter, crossing)``: a mask over the crossings, and the splits to add, each a segment, the parameter
    along it and the index of the crossing put there.
    """
    none = np.zeros(0, dtype=np.int64)
    dropped = np.zeros(len(points), dtype=bool)
    if len(points) < 2:
        return dropped, none, np.zeros(0), none
    directions = ends - starts
    lengths = np.hypot(directions[:, 0], directions[:, 1])
    first, second = pairs
    sine = np.abs(_cross(directions[first], directions[second])) / (lengths[first] * lengths[second])
    # every crossing twice, once along each of its segments, sorted along each segment
    segment = np.concatenate([first, second])
    position = np.concatenate([parameters[0] * lengths[first], parameters[1] * lengths[second]])
    crossing = np.concatenate([np.arange(len(points)), np.arange(len(points))])
    order = np.lexsort((position, segment))
    before, after = order[:-1], order[1:]
    same = segment[before] == segment[after]
    before, after = before[same], after[same]
    gap = position[after] - position[before]
    linked = np.minimum(sine[crossing[before]], sine[crossing[after]]) * gap <= tolerance
    far = linked & (gap > tolerance / 4)
    if not far.any():
        return dropped, none, np.zeros(0), none
    # the groups holding a link longer than a quarter of the tolerance (merging points one by one may leave
    # a chain of such crossings as two points)
    one, two = crossing[before[linked]], crossing[after[linked]]
    member = np.zeros(len(points), dtype=bool)
    member[crossing[before[far]]] = member[crossing[after[far]]] = True
    while (growing := member[one] != member[two]).any():
        member[one[growing]] = member[two[growing]] = True
    inner = member[one] & member[two]
    root = list(range(len(points)))

    def find(index: int) -> int:
        while root[index] != index:
            root[index] = root[root[index]]
            index = root[index]
        return index

    for a, b in zip(one[inner].tolist(), two[inner].tolist(), strict=True):
        root[find(a)] = find(b)
    groups: dict[int, list[int]] = {}
    for index in np.flatnonzero(member).tolist():
        groups.setdefault(find(index), []).append(index)
    split_segment: list[int] = []
    split_parameter: list[float] = []
    split_crossing: list[int] = []
    for members in groups.values():
        group = np.array(members)
        lines = np.unique(np.concatenate([first[group], second[group]]))
        # the point nearest to all the group's lines (least squares), else the crossing nearest to them all
        normals = np.stack([-directions[lines, 1], directions[lines, 0]], axis=1) / lengths[lines][:, None]
        meeting = np.linalg.lstsq(normals, np.einsum("li,li->l", normals, starts[lines]), rcond=None)[0]
        candidates = np.vstack([meeting[None], points[group]])
        offset = candidates[:, None, :] - starts[lines][None, :, :]
        along = np.einsum("mli,li->ml", offset, directions[lines]) / lengths[lines] ** 2
        nearest = starts[lines][None] + np.clip(along, 0, 1)[..., None] * directions[lines][None]
        farthest = np.hypot(*(candidates[:, None, :] - nearest).transpose(2, 0, 1)).max(axis=1)
        best = int(np.argmin(farthest))
        if farthest[best] > tolerance:
            continue
        kept = int(group[max(best - 1, 0)])
        dropped[group] = True
        dropped[kept] = False
        points[kept] = candidates[best]
        margin = tolerance / lengths[lines]
        for column, line in enumerate(lines.tolist()):
            if line in (first[kept], second[kept]):
                parameters[0 if line == first[kept] else 1][kept] = np.clip(along[best, column], 0, 1)
                continue
            if not margin[column] < along[best, column] < 1 - margin[column]:
                continue
            split_segment.append(line)
            split_parameter.append(float(along[best, column]))
            split_crossing.append(kept)
    return (dropped, np.array(split_segment, dtype=np.int64), np.array(split_parameter),
            np.array(split_crossing, dtype=np.int64))


def planarize_segments(segments: np.ndarray, tolerance: float) -> PlanarGraph:
    """Split segments at every intersection, merge close points and duplicate pieces.

    Args:
        segments: ``(k, 2, 2)`` array of segment endpoints.
        tolerance: merge distance (see :mod:`foldbench.crease.precision.tolerance`).

    >>> cross = np.array([[[0, 0], [2, 2]], [[0, 2], [2, 0]]], dtype=float)
    >>> graph = planarize_segments(cross, 1e-9)
    >>> len(graph.vertices_coords), len(graph.edges_vertices)
    (5, 4)
    >>> len(planarize_segments(np.zeros((0, 2, 2)), 1e-9).edges_vertices)
    0
    """
    segments = np.asarray(segments, dtype=float).reshape(-1, 2, 2)
    if 0 < len(segments) <= COMPILED_SEGMENTS and kernels_compiled():
        done, vertices, edges_vertices, offsets, sources = planarize_small(
            np.ascontiguousarray(segments.reshape(-1, 2)), float(tolerance))
        if done:
            bounds = offsets.tolist()
            flat = sources.tolist()
            return PlanarGraph(vertices_coords=vertices, edges_vertices=edges_vertices,
                               edges_sources=tuple([tuple(flat[a:b]) for a, b in pairwise(bounds)]))
    return _planarize_arrays(segments, tolerance)


def _planarize_arrays(segments: np.ndarray, tolerance: float) -> PlanarGraph:
    """:func:`planarize_segments` in array operations (any size; ``segments`` shaped ``(k, 2, 2)``)."""
    vertices, labels = merge_close_points(segments.reshape(-1, 2), tolerance)
    segment_vertices = labels.reshape(-1, 2)
    alive = np.flatnonzero(segment_vertices[:, 0] != segment_vertices[:, 1])
    # split points per segment: (segment, parameter, vertex)
    split_segment: list[np.ndarray] = [alive, alive]
    split_parameter: list[np.ndarray] = [np.zeros(len(alive)), np.ones(len(alive))]
    split_vertex: list[np.ndarray] = [segment_vertices[alive, 0], segment_vertices[alive, 1]]
    starts = vertices[segment_vertices[alive, 0]]
    ends = vertices[segment_vertices[alive, 1]]
    new_points = np.zeros((0, 2))
    crossing_pairs = (np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64))
    crossing_parameters = (np.zeros(0), np.zeros(0))
    on_segment, on_parameter, on_crossing = np.zeros(0, dtype=np.int64), np.zeros(0), np.zeros(0, dtype=np.int64)
    if len(alive) > 1:
        first, second = _candidate_pairs(starts, ends, tolerance)
        directions = ends - starts
        lengths = np.hypot(directions[:, 0], directions[:, 1])
        # endpoints of one segment lying on the interior of the other
        touching = np.zeros(len(first), dtype=bool)
        for host, guest in ((first, second), (second, first)):
            for end_index in (0, 1):
                point = starts[guest] if end_index == 0 else ends[guest]
                offset = point - starts[host]
                distance = np.abs(_cross(directions[host], offset)) / lengths[host]
                parameter = np.einsum("ij,ij->i", offset, directions[host]) / lengths[host] ** 2
                margin = tolerance / lengths[host]
                on_interior = (distance <= tolerance) & (parameter > margin) & (parameter < 1 - margin)
                touching |= on_interior
                split_segment.append(alive[host[on_interior]])
                split_parameter.append(parameter[on_interior])
                split_vertex.append(segment_vertices[alive[guest[on_interior]], end_index])
        # proper crossings
        denominator = _cross(directions[first], directions[second])
        offset = starts[second] - starts[first]
        with np.errstate(divide="ignore", invalid="ignore"):
            parameter_first = _cross(offset, directions[second]) / denominator
            parameter_second = _cross(offset, directions[first]) / denominator
        sine = np.abs(denominator) / (lengths[first] * lengths[second])
        # nearly collinear pairs never cross: their overlap is handled by the endpoint splits above
        second_off_first = np.maximum(
            np.abs(_cross(directions[first], starts[second] - starts[first])),
            np.abs(_cross(directions[first], ends[second] - starts[first])),
        ) / lengths[first]
        first_off_second = np.maximum(
            np.abs(_cross(directions[second], starts[first] - starts[second])),
            np.abs(_cross(directions[second], ends[first] - starts[second])),
        ) / lengths[second]
        collinear = (second_off_first <= tolerance) | (first_off_second <= tolerance)
        margin_first = tolerance / lengths[first]
        margin_second = tolerance / lengths[second]
        # a segment whose end is put on another meets it there, and two straight segments meet once: crossing
        # at a shallow angle, the unmoved end would add a second meeting point up to tolerance / sine away
        crossing = (
            (sine > 1e-12)
            & ~collinear
            & ~touching
            & (parameter_first > margin_first)
            & (parameter_first < 1 - margin_first)
            & (parameter_second > margin_second)
            & (parameter_second < 1 - margin_second)
        )
        crossing_pairs = (first[crossing], second[crossing])
        crossing_parameters = (parameter_first[crossing], parameter_second[crossing])
        new_points = starts[crossing_pairs[0]] + crossing_parameters[0][:, None] * directions[crossing_pairs[0]]
        dropped, on_segment, on_parameter, on_crossing = _near_concurrent(starts, ends, crossing_pairs,
                                                                          crossing_parameters, new_points, tolerance)
        if dropped.any():
            crossing_pairs = (crossing_pairs[0][~dropped], crossing_pairs[1][~dropped])
            crossing_parameters = (crossing_parameters[0][~dropped], crossing_parameters[1][~dropped])
            renumbered = np.cumsum(~dropped) - 1
            new_points, on_crossing = new_points[~dropped], renumbered[on_crossing]
    if len(new_points):
        all_points = np.vstack([vertices, new_points])
        vertices, relabel = merge_close_points(all_points, tolerance)
        split_vertex = [relabel[v] for v in split_vertex]
        crossing_vertices = relabel[len(all_points) - len(new_points) :]
        split_segment += [alive[crossing_pairs[0]], alive[crossing_pairs[1]], alive[on_segment]]
        split_parameter += [crossing_parameters[0], crossing_parameters[1], on_parameter]
        split_vertex += [crossing_vertices, crossing_vertices, crossing_vertices[on_crossing]]
    all_segments = np.concatenate(split_segment)
    all_parameters = np.concatenate(split_parameter)
    all_vertices = np.concatenate(split_vertex)
    order = np.lexsort((all_parameters, all_segments))
    all_segments, all_vertices = all_segments[order], all_vertices[order]
    same_segment = all_segments[1:] == all_segments[:-1]
    edge_start = all_vertices[:-1][same_segment]
    edge_end = all_vertices[1:][same_segment]
    edge_source = all_segments[:-1][same_segment]
    proper = edge_start != edge_end
    edge_start, edge_end, edge_source = edge_start[proper], edge_end[proper], edge_source[proper]
    low = np.minimum(edge_start, edge_end)
    high = np.maximum(edge_start, edge_end)
    keys = low * (len(vertices) + 1) + high
    unique_keys, inverse = np.unique(keys, return_inverse=True)
    edges_vertices = np.stack([unique_keys // (len(vertices) + 1), unique_keys % (len(vertices) + 1)], axis=1)
    source_order = np.lexsort((edge_source, inverse))
    sources: list[list[int]] = [[] for _ in range(len(unique_keys))]
    for edge, source in zip(inverse[source_order].tolist(), edge_source[source_order].tolist(), strict=False):
        bucket = sources[edge]
        if not bucket or bucket[-1] != source:
            bucket.append(source)
    return PlanarGraph(
        vertices_coords=vertices,
        edges_vertices=edges_vertices.astype(np.int64).reshape(-1, 2),
        edges_sources=tuple(tuple(bucket) for bucket in sources),
    )


def find_faces(vertices_coords: np.ndarray, edges_vertices: np.ndarray) -> PlaneFaces:
    """Faces of a plane graph by walking each half-edge with the face on its left.

    >>> square = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], dtype=float)
    >>> faces = find_faces(square, np.array([[0, 1], [1, 2], [2, 3], [0, 3]]))
    >>> faces.faces_vertices, len(faces.outer_cycles)
    (((0, 1, 2, 3),), 1)
    >>> find_faces(np.zeros((0, 2)), np.zeros((0, 2), dtype=int)).faces_vertices
    ()
    """
    edges_vertices = np.asarray(edges_vertices, dtype=np.int64).reshape(-1, 2)
    edge_count = len(edges_vertices)
    origin = np.concatenate([edges_vertices[:, 0], edges_vertices[:, 1]])
    target = np.concatenate([edges_vertices[:, 1], edges_vertices[:, 0]])
    delta = vertices_coords[target] - vertices_coords[origin] if edge_count else np.zeros((0, 2))
    angle = np.arctan2(delta[:, 1], delta[:, 0])
    if edge_count <= FEW_FACE_EDGES:
        next_list = _next_half_edges(origin.tolist(), angle.tolist(), edge_count)
    else:
        next_list = _next_half_edges_in_arrays(origin, angle, edge_count)
    half_edge_cycle = [-1] * (2 * edge_count)
    walk: list[int] = []  # half-edges cycle after cycle, each cycle in walking order
    cycle_starts: list[int] = []
    for start in range(2 * edge_count):
        if half_edge_cycle[start] != -1:
            continue
        cycle = len(cycle_starts)
        cycle_starts.append(len(walk))
        current = start
        while half_edge_cycle[current] == -1:
            half_edge_cycle[current] = cycle
            walk.append(current)
            current = next_list[current]
    if not walk:
        return PlaneFaces((), (), np.zeros((0, 2), dtype=np.int64), ())
    walked = np.array(walk, dtype=np.int64)
    a, b = vertices_coords[origin[walked]], vertices_coords[target[walked]]
    areas = (0.5 * np.add.reduceat(a[:, 0] * b[:, 1] - a[:, 1] * b[:, 0], cycle_starts)).tolist()
    walk_origins = origin[walked].tolist()
    walk_edges = [half - edge_count if half >= edge_count else half for half in walk]
    cycle_stops = [*cycle_starts[1:], len(walk)]
    faces_vertices: list[tuple[int, ...]] = []
    faces_edges: list[tuple[int, ...]] = []
    faces_areas: list[float] = []
    outer_cycles: list[tuple[int, ...]] = []
    cycle_to_face: list[int] = []
    for first, stop, area in zip(cycle_starts, cycle_stops, areas, strict=True):
        if area > 0:
            cycle_to_face.append(len(faces_vertices))
            faces_vertices.append(tuple(walk_origins[first:stop]))
            faces_edges.append(tuple(walk_edges[first:stop]))
            faces_areas.append(area)
        else:
            cycle_to_face.append(-1)
            outer_cycles.append(tuple(walk_origins[first:stop]))
    face_of_half_edge = [cycle_to_face[cycle] for cycle in half_edge_cycle]
    edges_faces = np.array(list(zip(face_of_half_edge[:edge_count], face_of_half_edge[edge_count:], strict=True)),
                           dtype=np.int64)
    return PlaneFaces(
        faces_vertices=tuple(faces_vertices),
        faces_edges=tuple(faces_edges),
        edges_faces=edges_faces.reshape(-1, 2),
        outer_cycles=tuple(outer_cycles),
        faces_areas=tuple(faces_areas),
    )


FEW_FACE_EDGES: int = 256
"""Up to this many edges, :func:`find_faces` links the half-edges in plain Python (the same order as the array
operations above it, without their fixed cost per call)."""


def _next_half_edges(origin: list[int], angle: list[float], edge_count: int) -> list[int]:
    """For each half-edge ``u -> v`` (``h`` and its twin ``h + edge_count``), the half-edge ``v -> w`` that follows it
    on the face to its left: ``w`` the neighbour of ``v`` just clockwise of ``u``. Half-edges are ordered by origin,
    then angle, then index (the stable sort of :func:`_next_half_edges_in_arrays`)."""
    count = 2 * edge_count
    order = sorted(range(count), key=list(zip(origin, angle, strict=True)).__getitem__)  # (origin, angle) pairs
    position = [0] * count
    group_start = [0] * count
    group_size = [0] * count
    start = 0
    for index, half in enumerate(order):
        position[half] = index
        if index and origin[half] != origin[order[index - 1]]:
            for member in range(start, index):
                group_size[member] = index - start
            start = index
        group_start[index] = start
    for member in range(start, count):
        group_size[member] = count - start
    next_list = [0] * count
    for half in range(count):
        twin_position = position[half + edge_count if half < edge_count else half - edge_count]
        first = group_start[twin_position]
        next_list[half] = order[first + (twin_position - first - 1) % group_size[twin_position]]
    return next_list


def _next_half_edges_in_arrays(origin: np.ndarray, angle: np.ndarray, edge_count: int) -> list[int]:
    """:func:`_next_half_edges` in array operations (large graphs)."""
    order = np.lexsort((angle, origin))  # half-edges grouped by origin, counter-clockwise
    position = np.empty(2 * edge_count, dtype=np.int64)
    position[order] = np.arange(2 * edge_count)
    group_start = np.searchsorted(origin[order], origin[order], side="left")
    group_end = np.searchsorted(origin[order], origin[order], side="right")
    twin = np.concatenate([np.arange(edge_count) + edge_count, np.arange(edge_count)])
    # next(u->v) = v->w with w the neighbour of v just clockwise of u
    twin_position = position[twin]
    start_of_twin = group_start[twin_position]
    size_of_twin = group_end[twin_position] - start_of_twin
    previous = start_of_twin + (twin_position - start_of_twin - 1) % np.maximum(size_of_twin, 1)
    next_half_edge = order[previous] if edge_count else np.zeros(0, dtype=np.int64)
    return next_half_edge.tolist()
