"""Small gaps of the folded state that a folded tolerance would close, judged against the input's noise.

When the input is rounded, the folded tolerance has to be wide enough to merge points that should coincide
but land a little apart. The same tolerance may also close a small gap the design really has (a corner that
overlaps another face by a sliver), which changes the count. The two look alike by size; they differ by
*how they move when the input moves*: a gap the noise opened changes by about its own width when the input is
moved again by its precision, a genuine gap hardly changes.

:func:`genuine_gaps` finds, among the folded vertices, every vertex-vertex and vertex-edge gap narrower than a
tolerance (and wider than :data:`~foldbench.crease.tolerance.FOLDED_DISTANCE_TOLERANCE`, which the policy
merges even in exact input), refolds the pattern :data:`GAP_TRIALS` times with every crease-pattern vertex
moved at random by up to the input's noise (:func:`noise_amplitude`), and returns the gaps wider than
:data:`GAP_NOISE_FACTOR` times the most they moved: those are features of the design that the tolerance must
not merge.

Without a written precision the noise is only estimated (``NOISE_MARGIN`` times the measured precision, which
can be several times too large on a big pattern and up to three times too small on a tiny one), and a gap may
be neither clearly noise nor clearly design: wider than :data:`GAP_DOUBT_FACTOR` but at most
``GAP_NOISE_FACTOR`` times its movement. Such a gap is returned too, marked ``certain=False``: the tolerance may
not close it either where the folding amplifies the noise (:mod:`foldbench.crease.overlay`), and when no
other level is sound the answer is a precision error naming it (or, in the compiler, the states of the
Kawasaki-regularised pattern, whose folded vertices agree).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import shapely

from foldbench.crease.folding import FoldedGeometry, crossing_order
from foldbench.crease.pattern import CreasePattern
from foldbench.crease.planar import SMALL_INPUT
from foldbench.crease.tolerance import FOLDED_DISTANCE_TOLERANCE

__all__ = [
    "GAP_NOISE_FACTOR", "GAP_TRIALS", "NOISE_MARGIN", "FoldedGap", "genuine_gaps", "narrow_gaps", "noise_amplitude",
    "GAP_DOUBT_FACTOR",
]

GAP_TRIALS: int = 16
"""How many times the pattern is refolded with its vertices moved by up to the input precision."""

GAP_NOISE_FACTOR: float = 5.0
"""A gap wider than this many times the most the trials moved it is a feature of the design, not noise (gaps
opened by jitter of up to 1e-6 reach 1.6 times in 1,400 jittered test patterns; the six slivers of the
clipped triangle twist rounded to 1e-6 reach 23 times)."""


GAP_DOUBT_FACTOR: float = 2.0
"""Under an estimated noise amplitude (no written precision) in a pattern whose folding amplifies the noise, a
gap wider than this many times the most the trials moved it, but not ``GAP_NOISE_FACTOR`` times, is
doubtful: not closed, not trusted (the slivers of the clipped triangle twist jittered by 5e-7 reach 2.2 to 3.7
times; noise gaps of the jittered test patterns stay under 1.6 times, except where the folded vertices agree,
where a tiny pattern's measured precision can be 7 times too small: a single fold jittered by 1e-6, 3 times)."""

NOISE_MARGIN: float = 4.0
"""Without a written precision, the noise amplitude is this many times the measured input precision."""


def noise_amplitude(pattern: CreasePattern, measured_precision: float) -> float:
    """How far each input coordinate may be off: half the last written decimal when the coordinates are
    rounded (:func:`~foldbench.crease.precision.written_precision`, a bound), otherwise four times the measured
    precision (an estimate from nearly parallel creases, which a pattern with few creases can make several
    times too small)."""
    return pattern.written_precision if pattern.written_precision > 0 else NOISE_MARGIN * measured_precision


@dataclass(frozen=True)
class FoldedGap:
    """A narrow gap of the folded state.

    Attributes:
        vertex: the crease-pattern vertex on one side.
        other: the vertex (``kind == "vertex"``) or the edge (``kind == "edge"``) on the other side.
        kind: ``"vertex"`` or ``"edge"``.
        width: the gap's width (paper size = 1).
        noise: the most the gap's width changed over the trials.
        certain: False for a doubtful gap (between ``GAP_DOUBT_FACTOR`` and ``GAP_NOISE_FACTOR`` times its
            noise): neither design nor noise can be told apart.
    """

    vertex: int
    other: int
    kind: str
    width: float
    noise: float = 0.0
    certain: bool = True

    def to_dict(self) -> dict[str, object]:
        """The gap as a JSON-ready record."""
        return {"vertex": self.vertex, self.kind: self.other, "width": self.width, "noise": self.noise,
                "certain": self.certain}

    def describe(self) -> str:
        """One line naming the gap, e.g. ``vertex 12 to edge 40, 2.1e-05 wide (noise moves it by 7.0e-06)``."""
        return (f"vertex {self.vertex} to {self.kind} {self.other}, {self.width:.1e} wide (the input's noise moves "
                f"it by up to {self.noise:.1e})")


def _signed_gaps(coords: np.ndarray, pattern: CreasePattern, pairs: np.ndarray, kinds: np.ndarray) -> np.ndarray:
    """Widths of the gaps ``pairs`` at folded positions ``coords`` (``(..., n, 2)``): distances between
    vertices, signed distances of vertices from edge lines."""
    widths = np.zeros((*coords.shape[:-2], len(pairs)))
    vertex_rows = kinds == 0
    first, second = pairs[vertex_rows, 0], pairs[vertex_rows, 1]
    between = coords[..., first, :] - coords[..., second, :]
    widths[..., vertex_rows] = np.hypot(between[..., 0], between[..., 1])
    edge_rows = ~vertex_rows
    ends = pattern.edges_vertices[pairs[edge_rows, 1]]
    start = coords[..., ends[:, 0], :]
    direction = coords[..., ends[:, 1], :] - start
    offset = coords[..., pairs[edge_rows, 0], :] - start
    cross = offset[..., 0] * direction[..., 1] - offset[..., 1] * direction[..., 0]
    widths[..., edge_rows] = cross / np.hypot(direction[..., 0], direction[..., 1])
    return widths


def _refold(pattern: CreasePattern, coords: np.ndarray) -> np.ndarray:
    """Folded vertex positions for a batch of crease-pattern coordinates ``(t, n, 2)``, each vertex from the
    first face that lists it (as :func:`~foldbench.crease.folding.fold_faces` keeps it)."""
    trials = len(coords)
    matrices = np.zeros((trials, pattern.face_count, 2, 2))
    shifts = np.zeros((trials, pattern.face_count, 2))
    matrices[:, 0] = np.eye(2)
    for face, other, edge in crossing_order(pattern):
        if pattern.edges_assignment[edge] == "F":
            matrices[:, other], shifts[:, other] = matrices[:, face], shifts[:, face]
            continue
        start, end = coords[:, pattern.edges_vertices[edge, 0]], coords[:, pattern.edges_vertices[edge, 1]]
        direction = (end - start) / np.hypot(*(end - start).T)[:, None]
        reflection = 2 * direction[:, :, None] * direction[:, None, :] - np.eye(2)
        offset = start - np.einsum("tij,tj->ti", reflection, start)
        matrices[:, other] = matrices[:, face] @ reflection
        shifts[:, other] = np.einsum("tij,tj->ti", matrices[:, face], offset) + shifts[:, face]
    first_face = np.zeros(pattern.vertex_count, dtype=np.int64)
    for face, vertices in reversed(list(enumerate(pattern.faces_vertices))):
        first_face[list(vertices)] = face
    return np.einsum("tvij,tvj->tvi", matrices[:, first_face], coords) + shifts[:, first_face]


def narrow_gaps(pattern: CreasePattern, coords: np.ndarray, low: float, high: float) -> tuple[np.ndarray, np.ndarray]:
    """Vertex-vertex and vertex-edge gaps of the folded vertices ``coords`` with ``low < width <= high``.

    Returns ``(pairs, kinds)``: rows ``[vertex, other vertex]`` (kind 0) or ``[vertex, edge]`` (kind 1, the
    vertex within ``high`` of the edge's interior and farther than ``high`` from both its ends).
    """
    ends = pattern.edges_vertices
    start, end = coords[ends[:, 0]], coords[ends[:, 1]]
    if len(coords) <= SMALL_INPUT and len(ends) <= SMALL_INPUT:
        # few points: every pair is a candidate (less fixed cost than the spatial index; same result)
        first, second = np.triu_indices(len(coords), 1)
        vertex, edge = (grid.ravel() for grid in np.meshgrid(np.arange(len(coords)), np.arange(len(ends)),
                                                             indexing="ij"))
    else:
        points = shapely.points(coords)
        first, second = shapely.STRtree(points).query(points, predicate="dwithin", distance=high)
        keep = first < second
        first, second = first[keep], second[keep]
        lines = shapely.linestrings(np.stack([start, end], axis=1))
        vertex, edge = shapely.STRtree(lines).query(points, predicate="dwithin", distance=high)
    distance = np.hypot(*(coords[first] - coords[second]).T)
    close = (distance > low) & (distance <= high)
    vertex_pairs = np.stack([first[close], second[close]], axis=1)
    direction = end[edge] - start[edge]
    length_squared = np.einsum("ij,ij->i", direction, direction)
    offset = coords[vertex] - start[edge]
    with np.errstate(divide="ignore", invalid="ignore"):
        parameter = np.einsum("ij,ij->i", offset, direction) / length_squared
        across = np.abs(offset[:, 0] * direction[:, 1] - offset[:, 1] * direction[:, 0]) / np.sqrt(length_squared)
    to_ends = np.minimum(np.hypot(*offset.T), np.hypot(*(coords[vertex] - end[edge]).T))
    on_edge = ((parameter > 0) & (parameter < 1) & (across > low) & (across <= high) & (to_ends > high)
               & (ends[edge, 0] != vertex) & (ends[edge, 1] != vertex))
    edge_pairs = np.stack([vertex[on_edge], edge[on_edge]], axis=1)
    pairs = np.concatenate([vertex_pairs, edge_pairs]).astype(np.int64).reshape(-1, 2)
    kinds = np.concatenate([np.zeros(len(vertex_pairs), np.int8), np.ones(len(edge_pairs), np.int8)])
    return pairs, kinds


def genuine_gaps(
    pattern: CreasePattern, folded: FoldedGeometry, tolerance: float, precision: float, seed: int = 0, *,
    doubt_factor: float | None = None,
) -> list[FoldedGap]:
    """The gaps narrower than ``tolerance`` that moving the input by ``precision`` cannot explain.

    ``precision`` is the noise amplitude (:func:`noise_amplitude`). A gap counts when it is wider than
    ``FOLDED_DISTANCE_TOLERANCE`` and wider than ``GAP_NOISE_FACTOR`` times the most its width changed over
    ``GAP_TRIALS`` refolds with every crease-pattern vertex moved by up to ``precision`` in each coordinate
    (a fixed random sequence from ``seed``: the answer is reproducible). With ``doubt_factor`` (for an
    estimated amplitude, :data:`GAP_DOUBT_FACTOR`), a gap wider than that many times its movement is returned
    too, with ``certain=False``. Returns the gaps widest first relative to their noise, so certain ones first
    (empty when none is in range).
    """
    coords = folded.vertices_coords_folded
    if tolerance <= FOLDED_DISTANCE_TOLERANCE or not len(coords):
        return []
    pairs, kinds = narrow_gaps(pattern, coords, FOLDED_DISTANCE_TOLERANCE, tolerance)
    if not len(pairs):
        return []
    widths = _signed_gaps(coords, pattern, pairs, kinds)
    noise = np.zeros(len(pairs))
    if precision > 0:
        generator = np.random.default_rng(seed)
        moved = pattern.vertices_coords + generator.uniform(-precision, precision,
                                                            (GAP_TRIALS, *pattern.vertices_coords.shape))
        noise = np.abs(_signed_gaps(_refold(pattern, moved), pattern, pairs, kinds) - widths).max(axis=0)
    ratio = np.abs(widths) / np.maximum(noise, 1e-300)
    kept = np.flatnonzero(ratio > min(GAP_NOISE_FACTOR, doubt_factor or GAP_NOISE_FACTOR))
    kept = kept[np.argsort(-ratio[kept])]
    return [FoldedGap(int(pairs[i, 0]), int(pairs[i, 1]), "vertex" if kinds[i] == 0 else "edge",
                      float(abs(widths[i])), float(noise[i]), bool(ratio[i] > GAP_NOISE_FACTOR)) for i in kept]
