"""The crease pattern: a planar graph with assigned edges and faces, built from segments of any format.

Assignments follow FOLD: ``B`` boundary, ``M`` mountain, ``V`` valley, ``F`` flat (not folded), ``U``
unassigned (folded, direction unknown), ``C`` cut (treated as boundary), ``J`` join (treated as flat).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from foldbench.crease.budget import enter_stage
from foldbench.crease.errors import CreasePatternSyntaxError, GeometricallyImpossibleFold
from foldbench.crease.graph.planar import PlanarGraph, find_faces, planarize_segments
from foldbench.crease.precision.measure import direction_noise, written_precision
from foldbench.crease.precision.policy import DEFAULT_POLICY, PrecisionPolicy

__all__ = [
    "ASSIGNMENTS",
    "MAX_SEGMENTS",
    "CreasePattern",
    "build_crease_pattern",
    "nearest_vertex_gap",
    "normalize_coordinates",
]

ASSIGNMENTS: frozenset[str] = frozenset("BMVFUCJ")
"""The FOLD edge assignments the compiler accepts."""

MAX_SEGMENTS: int = 250_000
"""Inputs with more segments are refused (CSE ``E_CP_TOO_LARGE``): ten times the largest corpus pattern
(27,277 edges), well beyond what folds in reasonable time and memory."""

NOISY_JOINT_ERRORS: frozenset[str] = frozenset({"E_GEOM_CREASE_OUTSIDE_PAPER", "E_CP_DEGENERATE_FACE", "E_CP_NO_FACES"})
"""Errors that, in an input with measured noise or in a drawing, may come from joints drawn apart: the pattern is
then built again with the snap tolerance ten times wider (up to the policy's ``import_limit``), like a
disconnected drawing. A mountain and a valley crease that overlap over less than its ``tiny_overlap_limit`` are
merged the same way."""

MAX_DANGLING_CHECKED: int = 1000
"""Dangling crease ends beyond this number are not measured (a drawing that broken is reported as it is)."""

NEAREST_BY_ALL_PAIRS: int = 512
"""Vertices up to which the distance from each vertex to its nearest one is found over all pairs with numpy;
above, with shapely's tree (imported then). Both measure as GEOS does and leave out vertices at the same point."""

_ASSIGNMENT_MEANING = {"C": "B", "J": "F"}
_PRIORITY = {"B": 4, "M": 3, "V": 3, "U": 2, "F": 1}


@dataclass(frozen=True)
class CreasePattern:
    """A planar crease pattern on paper normalised to a unit bounding box.

    Attributes:
        vertices_coords: ``(n, 2)`` float array (paper's bounding box scaled to longest side 1).
        edges_vertices: ``(m, 2)`` int array.
        edges_assignment: one of ``B M V F U`` per edge.
        faces_vertices: counter-clockwise vertex cycles of the faces.
        faces_edges: the edge of each face side.
        edges_faces: ``(m, 2)`` faces left and right of each edge (``-1`` outside the paper).
        scale: the factor that normalised the input coordinates (input = coords * scale + offset).
        offset: the translation that normalised the input coordinates.
        notes: non-fatal remarks about the input (merged duplicates, split crossings, ...).
        input_precision: how far the input's endpoints seem to have been moved by noise (paper size = 1; 0 for
            exact input), see :mod:`foldbench.crease.precision.measure`.
        snap_tolerance: the distance at which points were merged and segments split (paper size = 1).
        written_precision: half the last decimal digit the input coordinates were written to (paper size = 1;
            0 for integers or full-precision numbers), see :func:`foldbench.crease.precision.measure.written_precision`.
        carried_noise: the noise amplitude of the input this pattern was made from (paper size = 1; 0 for an
            input): a Kawasaki-regularised pattern meets Kawasaki exactly but keeps the rest of its input's
            noise, and its folded gaps are judged against it
            (:func:`foldbench.crease.precision.folded_gaps.noise_amplitude`).
        policy: the precision policy the pattern was built with, which every later stage follows
            (:class:`~foldbench.crease.precision.policy.PrecisionPolicy`).
    """

    vertices_coords: np.ndarray
    edges_vertices: np.ndarray
    edges_assignment: tuple[str, ...]
    faces_vertices: tuple[tuple[int, ...], ...]
    faces_edges: tuple[tuple[int, ...], ...]
    edges_faces: np.ndarray
    scale: float = 1.0
    offset: tuple[float, float] = (0.0, 0.0)
    notes: tuple[str, ...] = field(default=())
    input_precision: float = 0.0
    snap_tolerance: float = DEFAULT_POLICY.crease_distance
    written_precision: float = 0.0
    carried_noise: float = 0.0
    policy: PrecisionPolicy = field(default=DEFAULT_POLICY, repr=False)

    @property
    def vertex_count(self) -> int:
        """Number of vertices."""
        return len(self.vertices_coords)

    @property
    def edge_count(self) -> int:
        """Number of edges."""
        return len(self.edges_vertices)

    @property
    def face_count(self) -> int:
        """Number of faces."""
        return len(self.faces_vertices)

    def to_fold_fields(self) -> dict[str, Any]:
        """The pattern as FOLD fields in the input's coordinates."""
        coords = self.vertices_coords * self.scale + np.array(self.offset)
        return {
            "vertices_coords": coords.tolist(),
            "edges_vertices": self.edges_vertices.tolist(),
            "edges_assignment": list(self.edges_assignment),
            "edges_foldAngle": [_fold_angle(a) for a in self.edges_assignment],
            "faces_vertices": [list(face) for face in self.faces_vertices],
        }


def _fold_angle(assignment: str) -> float | None:
    return {"M": -180.0, "V": 180.0, "F": 0.0, "B": 0.0}.get(assignment)


def normalize_coordinates(points: np.ndarray) -> tuple[np.ndarray, float, tuple[float, float]]:
    """Translate and scale points so their bounding box starts at 0 with longest side 1.

    >>> coords, scale, offset = normalize_coordinates(np.array([[2.0, 2.0], [6.0, 4.0]]))
    >>> coords.tolist(), scale, offset
    ([[0.0, 0.0], [1.0, 0.5]], 4.0, (2.0, 2.0))
    >>> normalize_coordinates(np.zeros((0, 2)))[1]
    1.0
    """
    points = np.asarray(points, dtype=float).reshape(-1, 2)
    if len(points) == 0:
        return points, 1.0, (0.0, 0.0)
    low = points.min(axis=0)
    size = float((points.max(axis=0) - low).max())
    scale = size if size > 0 else 1.0
    return (points - low) / scale, scale, (float(low[0]), float(low[1]))


def build_crease_pattern(
    segments: np.ndarray,
    assignments: Sequence[str],
    *,
    tolerance: float | None = None,
    source: str = "segments",
    split_crossings: bool = True,
    policy: PrecisionPolicy = DEFAULT_POLICY,
) -> CreasePattern:
    """Planarise assigned segments into a crease pattern with faces; validate its structure.

    Args:
        segments: ``(k, 2, 2)`` endpoints in any units.
        assignments: one FOLD letter per segment.
        tolerance: merge distance as a fraction of the paper size (default: the policy's ``crease_distance``).
        source: names the input in error messages.
        split_crossings: split segments where they cross or touch another one (drawings); when False, such
            a segment is an error (a FOLD graph must already be planar). Duplicates merge either way.
        policy: the precision policy; the pattern carries it to every later stage.

    Raises:
        CreasePatternSyntaxError: unknown assignment, a coordinate that is not a finite number, conflicting
            duplicates, no faces, disconnected creases, crossing edges (with ``split_crossings=False``).
        GeometricallyImpossibleFold: a crease outside the paper.

    >>> square = np.array([[[0, 0], [1, 0]], [[1, 0], [1, 1]], [[1, 1], [0, 1]], [[0, 1], [0, 0]]], float)
    >>> pattern = build_crease_pattern(np.vstack([square, [[[0, 0], [1, 1]]]]), "BBBBV")
    >>> pattern.vertex_count, pattern.edge_count, pattern.face_count
    (4, 5, 2)
    """
    enter_stage("planarising")
    segments = np.asarray(segments, dtype=float).reshape(-1, 2, 2)
    if len(segments) != len(assignments):
        raise CreasePatternSyntaxError(
            "E_CP_LENGTH_MISMATCH",
            f"{len(segments)} segments but {len(assignments)} assignments",
            {"source": source},
        )
    letters = []
    for index, letter in enumerate(assignments):
        upper = str(letter).upper()
        if upper not in ASSIGNMENTS:
            raise CreasePatternSyntaxError(
                "E_CP_UNKNOWN_ASSIGNMENT",
                f"unknown edge assignment {letter!r} (expected one of B M V F U C J)",
                {"field": "edges_assignment", "index": index, "value": str(letter)},
            )
        letters.append(_ASSIGNMENT_MEANING.get(upper, upper))
    if len(segments) == 0:
        raise CreasePatternSyntaxError("E_CP_EMPTY", "the crease pattern has no edges", {"source": source})
    if len(segments) > MAX_SEGMENTS:
        raise CreasePatternSyntaxError(
            "E_CP_TOO_LARGE", f"{len(segments)} segments (limit {MAX_SEGMENTS})",
            {"source": source, "segments": len(segments), "limit": MAX_SEGMENTS},
        )
    if not np.isfinite(segments).all():
        index = int(np.flatnonzero(~np.isfinite(segments).reshape(len(segments), -1).all(axis=1))[0])
        raise CreasePatternSyntaxError(
            "E_CP_SYNTAX_VALUE_OUT_OF_RANGE", f"segment {index} has a coordinate that is not a finite number",
            {"source": source, "index": index},
        )
    tolerance = policy.crease_distance if tolerance is None else tolerance
    normalized, scale, offset = normalize_coordinates(segments.reshape(-1, 2))
    precision = direction_noise(normalized.reshape(-1, 2, 2), policy)
    snapped, precision = _noise_snap(normalized.reshape(-1, 2, 2), tolerance, precision, policy)
    current = snapped
    merged_overlap = False
    while True:
        try:
            pattern = _build_at_tolerance(
                normalized.reshape(-1, 2, 2), letters, current, scale, offset, source, split_crossings, policy
            )
        except (CreasePatternSyntaxError, GeometricallyImpossibleFold) as error:
            tiny_overlap = (error.code == "E_CP_CONFLICTING_ASSIGNMENT"
                            and error.where.get("length", np.inf) < policy.tiny_overlap_limit)
            retry = (error.code == "E_CP_DISCONNECTED" or tiny_overlap
                     or ((precision > 0 or split_crossings) and error.code in NOISY_JOINT_ERRORS))
            wider = max(current * 10, 2 * error.where["length"]) if tiny_overlap else current * 10
            if not retry or wider > policy.import_limit:
                raise
            if tiny_overlap:
                merged_overlap = True
            current = wider
            continue
        residual = _kawasaki_precision(pattern)
        if policy.snap_factor * residual > current and current < policy.import_limit:
            precision = max(precision, residual)
            wider = min(policy.snap_factor * residual, max(tolerance, policy.import_limit))
            try:
                pattern = _build_at_tolerance(
                    normalized.reshape(-1, 2, 2), letters, wider, scale, offset, source, split_crossings, policy
                )
                snapped = current = wider
            except (CreasePatternSyntaxError, GeometricallyImpossibleFold):
                pass  # keep the pattern built at the finer tolerance; the compiler reports what follows
        notes = pattern.notes
        if snapped > tolerance:
            notes += (f"input precision {precision:.1e} (nearly parallel creases, Kawasaki residuals): points "
                      f"snapped at {snapped:.1e}",)
        if current > snapped:
            notes += (f"creases connected only at the wider import tolerance {current:.0e} (drawing imprecise)",)
        if merged_overlap:
            notes += (f"a mountain and a valley crease overlapped over less than {current:.0e} of the paper: "
                      "merged at their meeting point",)
        return replace(pattern, notes=notes, input_precision=max(precision, current / policy.snap_factor)
                       if current > snapped else precision, snap_tolerance=current,
                       written_precision=written_precision(segments, scale, policy))


def _build_at_tolerance(
    normalized: np.ndarray, letters: list[str], tolerance: float, scale: float, offset: tuple[float, float],
    source: str, split_crossings: bool = True, policy: PrecisionPolicy = DEFAULT_POLICY,
) -> CreasePattern:
    graph = planarize_segments(normalized, tolerance)
    segments = normalized
    if not split_crossings:
        _reject_split_segments(graph, len(segments), scale, offset)
    notes: list[str] = []
    if len(graph.edges_vertices) != len(segments):
        notes.append(f"planarised {len(segments)} segments into {len(graph.edges_vertices)} edges")
    edges_assignment = []
    for edge_index, sources in enumerate(graph.edges_sources):
        if len(sources) == 1:  # one segment: its own letter (no conflict, no choice)
            edges_assignment.append(letters[sources[0]])
            continue
        options = {letters[s] for s in sources}
        if {"M", "V"} <= options and "B" not in options:
            ends = graph.vertices_coords[graph.edges_vertices[edge_index]]
            raise CreasePatternSyntaxError(
                "E_CP_CONFLICTING_ASSIGNMENT",
                "a mountain and a valley crease overlap",
                {"field": "edges_assignment", "index": list(sources),
                 "coordinates": (ends * scale + np.array(offset)).tolist(),
                 "length": float(np.hypot(*(ends[1] - ends[0])))},
            )
        edges_assignment.append(max(options, key=lambda a: _PRIORITY[a]))
    faces = find_faces(graph.vertices_coords, graph.edges_vertices)
    if not faces.faces_vertices:
        raise CreasePatternSyntaxError("E_CP_NO_FACES", "the edges enclose no face of paper", {"source": source})
    if len(faces.outer_cycles) != 1:
        raise CreasePatternSyntaxError(
            "E_CP_DISCONNECTED",
            f"the crease graph has {len(faces.outer_cycles)} separate pieces; creases must connect to the paper",
            {"pieces": len(faces.outer_cycles),
             "vertices": [list(cycle[:4]) for cycle in faces.outer_cycles[1:4]]},
        )
    vertex_count, edge_count, face_count = len(graph.vertices_coords), len(graph.edges_vertices), len(
        faces.faces_vertices
    )
    if vertex_count - edge_count + face_count != 1:
        raise CreasePatternSyntaxError(
            "E_CP_EULER",
            f"V - E + F = {vertex_count - edge_count + face_count}, expected 1 (2 counting the outside)",
            {"vertices": vertex_count, "edges": edge_count, "faces": face_count},
        )
    tiny = [index for index, area in enumerate(faces.faces_areas) if area < policy.area]
    if tiny:
        raise CreasePatternSyntaxError(
            "E_CP_DEGENERATE_FACE", f"{len(tiny)} face(s) have (almost) zero area", {"faces": tiny[:10]}
        )
    outer_edges = np.flatnonzero((faces.edges_faces == -1).any(axis=1))
    has_boundary = "B" in edges_assignment
    for edge_index in outer_edges.tolist():
        if edges_assignment[edge_index] == "B":
            continue
        if has_boundary:
            a, b = graph.edges_vertices[edge_index]
            raise GeometricallyImpossibleFold(
                "E_GEOM_CREASE_OUTSIDE_PAPER",
                f"crease {edge_index} ({edges_assignment[edge_index]}) lies outside the paper boundary",
                {"edge": edge_index, "vertices": [int(a), int(b)],
                 "coordinates": (graph.vertices_coords[[a, b]] * scale + np.array(offset)).tolist()},
            )
        edges_assignment[edge_index] = "B"
    if not has_boundary:
        notes.append("no boundary edges given: the outline of the graph is the paper boundary")
    return CreasePattern(
        vertices_coords=graph.vertices_coords,
        edges_vertices=graph.edges_vertices,
        edges_assignment=tuple(edges_assignment),
        faces_vertices=faces.faces_vertices,
        faces_edges=faces.faces_edges,
        edges_faces=faces.edges_faces,
        scale=scale,
        offset=offset,
        notes=tuple(notes),
        policy=policy,
    )


def _noise_snap(
    segments: np.ndarray, tolerance: float, precision: float, policy: PrecisionPolicy = DEFAULT_POLICY
) -> tuple[float, float]:
    """The snap tolerance for an input with measured ``precision``, and the precision revised by artefacts.

    Noise shows again after planarising: crossings meant to be one point become tiny edges, and creases meant
    to end on another crease stop just short of it. Such features shorter than the policy's
    ``noise_feature_factor`` times the precision are taken as noise: the precision grows to cover them and the
    input is snapped again (at most three times). Exact input (precision 0) is left alone.
    """
    limit = max(tolerance, policy.import_limit)
    snap = min(max(tolerance, policy.snap_factor * precision), limit)
    for _ in range(3):
        if precision <= 0 or snap >= limit:
            break
        artefact = _noise_artefact(planarize_segments(segments, snap), policy.noise_feature_factor * precision,
                                   precision, policy)
        if artefact <= precision:
            break
        precision = artefact
        wider = min(policy.snap_factor * precision, limit)
        if wider <= snap:
            break
        snap = wider
    return snap, precision


def nearest_vertex_gap(coords: np.ndarray, below: float) -> float:
    """The longest distance from a vertex to its nearest vertex elsewhere, over the vertices whose nearest one is
    at most ``below`` away (0.0 if none): shapely's ``STRtree.query_nearest(max_distance=below, exclusive=True)``,
    computed over all pairs for up to :data:`NEAREST_BY_ALL_PAIRS` vertices, where importing shapely would cost
    more than the search.

    >>> nearest_vertex_gap(np.array([[0.0, 0.0], [0.0, 0.0], [0.5, 0.0], [3.0, 0.0]]), 1.0)
    0.5
    """
    if below <= 0:
        return 0.0  # no vertex elsewhere is that near (and shapely takes only a positive distance)
    if len(coords) > NEAREST_BY_ALL_PAIRS:
        import shapely

        points = shapely.points(coords)
        _, distances = shapely.STRtree(points).query_nearest(points, max_distance=below, exclusive=True,
                                                             return_distance=True)
        return float(distances.max()) if len(distances) else 0.0
    dx = coords[:, None, 0] - coords[None, :, 0]
    dy = coords[:, None, 1] - coords[None, :, 1]
    distances = np.sqrt(dx * dx + dy * dy)  # as GEOS measures two points
    distances[(dx == 0) & (dy == 0)] = np.inf  # the vertex itself, and any at the same point
    nearest = distances.min(axis=1)
    near = nearest[nearest <= below]
    return float(near.max()) if len(near) else 0.0


def _noise_artefact(
    graph: PlanarGraph, below: float, precision: float, policy: PrecisionPolicy = DEFAULT_POLICY
) -> float:
    """The longest noise artefact: an edge, a gap between a dangling crease end and another edge, or the
    distance between two vertices (creases meant to meet at one point that stop at several), shorter than
    ``below``; or an edge shorter than ``noise_crossing_factor * precision`` that every other edge exceeds by
    ``noise_gap_ratio`` (the policy's; lines crossing at a small angle move their crossing by much more than the
    noise)."""
    ends = graph.vertices_coords[graph.edges_vertices]
    lengths = np.hypot(*(ends[:, 1] - ends[:, 0]).T)
    short = lengths[lengths < below]
    worst = float(short.max()) if len(short) else 0.0
    if len(graph.vertices_coords) > 1:
        worst = max(worst, nearest_vertex_gap(graph.vertices_coords, below))
    ordered = np.sort(lengths[lengths > 0])
    ratios = ordered[1:] / ordered[:-1]
    gaps = np.flatnonzero((ratios >= policy.noise_gap_ratio)
                          & (ordered[:-1] < policy.noise_crossing_factor * precision))
    if len(gaps):
        worst = max(worst, float(ordered[gaps[-1]]))
    degree = np.bincount(graph.edges_vertices.ravel(), minlength=len(graph.vertices_coords))
    dangling = np.flatnonzero(degree == 1)
    if 0 < len(dangling) <= MAX_DANGLING_CHECKED:
        import shapely

        lines = shapely.linestrings(ends)
        for vertex in dangling.tolist():
            distances = shapely.distance(shapely.points(graph.vertices_coords[vertex]), lines)
            incident = (graph.edges_vertices == vertex).any(axis=1)
            distances[incident] = np.inf
            gap = float(distances.min()) if len(distances) else np.inf
            if gap < below:
                worst = max(worst, gap)
    return worst


def _kawasaki_precision(pattern: CreasePattern) -> float:
    """The input precision the pattern's Kawasaki residuals imply (see :mod:`foldbench.crease.precision.measure`)."""
    from foldbench.crease.graph.local_checks import kawasaki_residuals
    from foldbench.crease.precision.measure import kawasaki_noise

    return kawasaki_noise(*kawasaki_residuals(pattern), pattern.policy)


def _reject_split_segments(graph: PlanarGraph, segment_count: int, scale: float, offset: tuple[float, float]) -> None:
    """Raise when another segment crosses or touches an input segment inside, away from any collinear overlap.

    An input segment that became several edges was split at inner points. A split where one of the two pieces
    meeting there is shared with another input segment is an overlap of collinear segments (an export artefact
    such as a long boundary edge drawn over its pieces) and is merged; any other split means an edge crosses
    it or ends on it, and the graph is not planar.
    """
    pieces_of: dict[int, list[int]] = {}
    for edge, sources in enumerate(graph.edges_sources):
        for source in sources:
            pieces_of.setdefault(source, []).append(edge)
    for segment in range(segment_count):
        pieces = pieces_of.get(segment, [])
        if len(pieces) < 2:
            continue
        shared_at: dict[int, bool] = {}
        for edge in pieces:
            shared = len(graph.edges_sources[edge]) > 1
            for vertex in graph.edges_vertices[edge].tolist():
                shared_at[vertex] = shared_at.get(vertex, False) or shared
        counts = np.unique(graph.edges_vertices[pieces].ravel(), return_counts=True)
        for inner in counts[0][counts[1] > 1].tolist():
            if shared_at[inner]:
                continue
            others = sorted({s for e, sources in enumerate(graph.edges_sources) if inner in graph.edges_vertices[e]
                             for s in sources if s != segment})
            point = (graph.vertices_coords[inner] * scale + np.array(offset)).tolist()
            raise CreasePatternSyntaxError(
                "E_CP_NOT_PLANAR",
                f"edge {segment} is crossed or touched inside by edge(s) {others} at {point}: the graph is not "
                "planar",
                {"field": "edges_vertices", "index": segment, "edges": others, "coordinates": point},
            )
