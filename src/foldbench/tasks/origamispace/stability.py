"""Whether the compiler's verdict on a crease pattern rests on a hair.

A choice item is only as good as its key. A pattern that folds flat with one folded vertex 4e-5 from a folded
edge is "foldable" at the compiler's starting tolerance and may not be at another, or to another solver: the
answer would rest on a coincidence of rounding, not on the folding the question asks about. The OrigamiSpace
choice tasks keep a pattern only when its verdict is **stable**:

1. **Nothing in the pattern is nearly anything else.** No two crease-pattern vertices, and no vertex and a crease
   it does not end on, lie closer than :data:`FEATURE_MARGIN` unless they coincide (closer than
   :data:`COINCIDENT`); the same for the folded state (vertex-vertex and vertex-edge distances after folding).
2. **No vertex nearly meets Kawasaki.** Every interior vertex's Kawasaki error is either rounding (below
   :data:`~foldbench.crease.precision.tolerance.EXACT_ANGLE`) or at least :data:`ANGLE_MARGIN`.
3. **Every sound tolerance agrees.** For a pattern whose vertices pass the local checks, the folded edges are
   overlaid at every level of the compiler's tolerance series
   (:func:`~foldbench.crease.precision.overlay.folded_tolerance_levels`); each level that is sound (the overlay at a
   quarter
   of it has as many points and segments, and the cells and constraints build without a precision problem) is
   solved, and every such level must give the compiler's verdict (folds, or self-intersects).
4. **The verdict is a geometric one** (folds, GIF or PSI), never a precision problem.

A failed local check (Maekawa, Kawasaki, an odd degree) is stable under 1 and 2: the planar graph cannot change,
and the angle it misses by is beyond the angle margin. The same test applies to the references of the spatial
questions (:func:`reference_stability`), whose answers are a distance, an order or a count read off the folded
state.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from foldbench.crease.compiler import CompiledFold, crease_assignment_orders
from foldbench.crease.errors import CreasePatternError, PrecisionProblem, SelfIntersection
from foldbench.crease.graph.local_checks import check_vertices, vertices_creases
from foldbench.crease.graph.pattern import CreasePattern
from foldbench.crease.graph.planar import PlanarGraph
from foldbench.crease.io.fold_format import pattern_from_fold
from foldbench.crease.layers.cells import build_cells, overlay_folded_edges
from foldbench.crease.layers.folding import FoldedGeometry, fold_faces
from foldbench.crease.layers.layer_constraints import build_layer_constraints
from foldbench.crease.layers.solver import LayerSolver
from foldbench.crease.precision.folded_gaps import folded_features
from foldbench.crease.precision.overlay import LEVEL_STEP, folded_tolerance_levels
from foldbench.crease.precision.tolerance import EXACT_ANGLE

__all__ = ["ANGLE_MARGIN", "COINCIDENT", "FEATURE_MARGIN", "Stability", "kawasaki_errors", "option_stability",
           "reference_stability"]

FEATURE_MARGIN: float = 1e-3
"""The least distance (paper size 1) between two features of a kept pattern, flat or folded, that do not
coincide: vertex to vertex, and vertex to a crease or folded edge it does not end on. A thousandth of the paper
is a third of a pixel at 384 px, far above every tolerance the compiler tries for exact input (1e-11 to 1e-4)
and below the sizes the generators draw (creases at least 0.03 apart), so no kept verdict changes with the
tolerance and none depends on a detail no picture can show."""

COINCIDENT: float = 1e-9
"""Features closer than this (paper size 1) are one feature of the design (the same point reached along two
paths of reflections, with rounding of about 1e-15)."""

ANGLE_MARGIN: float = 2e-2
"""The least Kawasaki error (radians, about 1.1 degrees) of a vertex that does not meet Kawasaki: twice the error
above which the compiler calls the failure geometric
(:data:`~foldbench.crease.precision.tolerance.KAWASAKI_IMPOSSIBLE`)."""

SWEEP_TIMEOUT: float = 5.0
"""Seconds a layer search may take at one tolerance level of the sweep."""


@dataclass(frozen=True)
class Stability:
    """The verdict on a pattern and whether it rests on a hair.

    Attributes:
        verdict: ``"folds"``, or the error class (``"GIF"``, ``"PSI"``, ``"PRECISION"``, ``"CSE"``).
        stable: True when every check of the module holds.
        reasons: why it is not stable (empty when it is).
        closest: the smallest distance between two features that do not coincide, flat or folded (None when
            there are no two such features within 1e-2).
        levels: the sound tolerance levels tried and the verdict at each.
    """

    verdict: str
    stable: bool
    reasons: tuple[str, ...] = ()
    closest: float | None = None
    levels: tuple[tuple[float, str], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready record."""
        return {"verdict": self.verdict, "stable": self.stable, "reasons": list(self.reasons),
                "closest": self.closest, "levels": [[level, verdict] for level, verdict in self.levels]}


def kawasaki_errors(pattern: CreasePattern) -> dict[int, float]:
    """Each interior crease vertex's Kawasaki error: how far (radians) its alternating sector sum misses pi.

    >>> from foldbench.crease.graph.pattern import build_crease_pattern
    >>> square = np.array([[[0, 0], [1, 0]], [[1, 0], [1, 1]], [[1, 1], [0, 1]], [[0, 1], [0, 0]]], float)
    >>> kawasaki_errors(build_crease_pattern(square, "BBBB"))
    {}
    """
    neighbours, on_boundary = vertices_creases(pattern)
    coords = pattern.vertices_coords
    errors: dict[int, float] = {}
    for vertex, edges in enumerate(neighbours):
        if on_boundary[vertex] or not edges:
            continue
        ends = pattern.edges_vertices[list(edges)]
        others = np.where(ends[:, 0] == vertex, ends[:, 1], ends[:, 0])
        offsets = coords[others] - coords[vertex]
        angles = np.sort(np.mod(np.arctan2(offsets[:, 1], offsets[:, 0]), 2 * math.pi))
        sectors = np.diff(np.concatenate([angles, [angles[0] + 2 * math.pi]]))
        errors[vertex] = abs(float(sectors[::2].sum()) - math.pi) if len(sectors) % 2 == 0 else math.pi
    return errors


def _closest(pattern: CreasePattern, coords: np.ndarray) -> tuple[float | None, float | None]:
    """The smallest feature distance above :data:`COINCIDENT` and the smallest at most :data:`FEATURE_MARGIN`."""
    _, _, widths = folded_features(pattern, np.asarray(coords, float), COINCIDENT, 1e-2)
    if not len(widths):
        return None, None
    closest = float(widths.min())
    return closest, (closest if closest <= FEATURE_MARGIN else None)


def _graph_key(graph: PlanarGraph) -> tuple[Any, ...]:
    """The overlay's exact content (coordinates bit for bit): equal keys are equal inputs to the layer search."""
    coords, edges = graph.vertices_coords, graph.edges_vertices
    return (coords.dtype.str, coords.shape, coords.tobytes(), edges.dtype.str, edges.shape, edges.tobytes(),
            graph.edges_sources)


def _search(pattern: CreasePattern, folded: FoldedGeometry, level: float, graph: PlanarGraph) -> str | None:
    """The verdict of the layer search on ``graph``, the overlay at ``level`` (None on a precision problem)."""
    try:
        cells = build_cells(pattern, folded, level, graph)
        constraints = build_layer_constraints(pattern, cells)
        LayerSolver(constraints).solve(crease_assignment_orders(pattern, folded, constraints), 1,
                                       timeout=SWEEP_TIMEOUT)
    except PrecisionProblem:
        return None
    except SelfIntersection:
        return "PSI"
    return "folds"


def _sweep(pattern: CreasePattern, folded: FoldedGeometry) -> list[tuple[float, str]]:
    """Each sound level of the compiler's tolerance series with the layer search's verdict at it.

    A level is sound when the overlay at a quarter of it has as many points and segments. The search reads
    nothing of the level but its overlay (the cells, the constraints and the search are functions of the
    overlay's points, segments and sources), so levels whose overlays are identical share one search, and each
    level's overlay is made once (the finer overlay of one level is the overlay of the next finer level): the
    levels and verdicts are those of a search at every level."""
    overlays: dict[float, PlanarGraph] = {}
    verdicts: dict[tuple[Any, ...], str | None] = {}

    def overlay(level: float) -> PlanarGraph:
        if level not in overlays:
            overlays[level] = overlay_folded_edges(pattern, folded, level)
        return overlays[level]

    levels: list[tuple[float, str]] = []
    for level in folded_tolerance_levels(pattern, folded):
        graph, finer = overlay(level), overlay(level / LEVEL_STEP)
        if (len(graph.vertices_coords), len(graph.edges_vertices)) != (len(finer.vertices_coords),
                                                                       len(finer.edges_vertices)):
            continue
        key = _graph_key(graph)
        if key not in verdicts:
            verdicts[key] = _search(pattern, folded, level, graph)
        found = verdicts[key]
        if found is not None:
            levels.append((level, found))
    return levels


def _judge(pattern: CreasePattern, verdict: str, folded: FoldedGeometry | None, every_reason: bool = True
           ) -> Stability:
    reasons: list[str] = []
    if verdict not in ("folds", "GIF", "PSI"):
        reasons.append(f"the compiler's verdict is {verdict}, not a geometric one")
    closest, flat_hair = _closest(pattern, pattern.vertices_coords)
    if flat_hair is not None:
        reasons.append(f"two crease-pattern features {flat_hair:.1e} apart (margin {FEATURE_MARGIN:g})")
    errors = kawasaki_errors(pattern)
    near = [e for e in errors.values() if EXACT_ANGLE <= e < ANGLE_MARGIN]
    if near:
        reasons.append(f"a vertex misses Kawasaki by {min(near):.1e} rad (margin {ANGLE_MARGIN:g})")
    levels: list[tuple[float, str]] = []
    if folded is not None:
        folded_closest, folded_hair = _closest(pattern, folded.vertices_coords_folded)
        if folded_closest is not None:
            closest = folded_closest if closest is None else min(closest, folded_closest)
        if folded_hair is not None:
            reasons.append(f"two folded features {folded_hair:.1e} apart (margin {FEATURE_MARGIN:g})")
        if reasons and not every_reason:  # unstable already: the sweep (most of the cost) cannot change that
            return Stability(verdict, False, tuple(reasons), closest)
        levels = _sweep(pattern, folded)
        disagreeing = sorted({found for _, found in levels if found != verdict})
        if disagreeing:
            reasons.append(f"sound tolerance levels give {', '.join(disagreeing)} where the compiler says {verdict}")
        if not levels and verdict in ("folds", "PSI"):
            reasons.append("no tolerance level of the sweep is sound")
    return Stability(verdict, not reasons, tuple(reasons), closest, tuple(levels))


def _folded_or_none(pattern: CreasePattern) -> FoldedGeometry | None:
    try:
        check_vertices(pattern)
        return fold_faces(pattern, 0.0)
    except CreasePatternError:  # a local check fails, or the paper does not close up: no folded state to judge
        return None


def option_stability(document: dict[str, Any], error: dict[str, Any] | None,
                     pattern: CreasePattern | None = None, *, every_reason: bool = True) -> Stability:
    """Whether the compiler's verdict on a FOLD document (``error`` from
    :func:`~foldbench.crease.io.generated.compile_generated`, None when it folds) rests on nothing closer than the
    margins, and every sound tolerance level agrees with it. ``pattern`` is the document's crease pattern when the
    caller has it (``compile_generated``'s), which saves building it again.

    With ``every_reason=False`` a pattern already found unstable by the checks of points 1, 2 and 4 is not swept
    over the tolerance levels: ``stable`` is the same, but the sweep's reason and ``levels`` are left out (for a
    caller that only keeps or draws again)."""
    verdict = "folds" if error is None else str(error.get("class") or error.get("code"))
    if pattern is None:
        try:
            pattern = pattern_from_fold(document)
        except CreasePatternError as problem:
            return Stability(verdict, False, (f"the pattern does not build: {problem}",))
    return _judge(pattern, verdict, _folded_or_none(pattern), every_reason)


def reference_stability(compiled: CompiledFold, *, every_reason: bool = True) -> Stability:
    """:func:`option_stability` for a pattern the compiler folds (a spatial question's reference)."""
    return _judge(compiled.pattern, "folds", compiled.folded, every_reason)
