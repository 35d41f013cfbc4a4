"""Local flat-foldability checks at each interior vertex: Maekawa, Kawasaki, big-little-big.

A vertex is interior when no boundary edge touches it. Only folded creases (``M``, ``V``, ``U``) count; flat
``F`` edges are ignored. With an unassigned crease at the vertex, Maekawa's count is replaced by the parity
test (an even number of creases) and big-little-big is skipped.

Big-little-big is checked in its general form: a run of ``k`` equal sectors with a bigger sector on each side
is bounded by ``k + 1`` creases whose mountain and valley counts must differ by ``(k + 1) mod 2`` (for one
small sector: its two creases differ).
"""

from __future__ import annotations

import functools
import math
import operator
from dataclasses import dataclass

import numpy as np

from foldbench.crease.errors import GeometricallyImpossibleFold, PrecisionProblem
from foldbench.crease.graph.pattern import CreasePattern
from foldbench.crease.precision.measure import kawasaki_explained_by, kawasaki_noise
from foldbench.crease.precision.policy import DEFAULT_POLICY, PrecisionPolicy

__all__ = ["LocalCheckReport", "check_vertices", "vertices_creases"]


@dataclass(frozen=True)
class LocalCheckReport:
    """Outcome of the local checks.

    Attributes:
        checked_vertices: number of interior vertices with at least one folded crease.
        kawasaki_errors: worst ``|alternating sum - pi|`` per checked vertex id.
        imprecise_vertices: vertices whose Kawasaki error lies within the precision margin (warnings).
        input_precision: the input precision the Kawasaki errors imply (see
            :func:`foldbench.crease.precision.measure.kawasaki_noise`), 0 for exact input.
    """

    checked_vertices: int
    kawasaki_errors: dict[int, float]
    imprecise_vertices: tuple[int, ...]
    input_precision: float = 0.0


def vertices_creases(pattern: CreasePattern) -> tuple[list[list[int]], list[bool]]:
    """For each vertex: its folded creases sorted counter-clockwise, and whether it touches the boundary."""
    angled, on_boundary = _vertices_crease_angles(pattern)
    return [[edge for _, edge in creases] for creases in angled], list(on_boundary)


def _vertices_crease_angles(pattern: CreasePattern) -> tuple[list[list[tuple[float, int]]], list[bool]]:
    """For each vertex: ``(direction angle, edge)`` of its folded creases sorted counter-clockwise (ties kept in
    edge order), and whether it touches the boundary. Each direction is ``atan2`` of the other end minus the
    vertex, subtracted in that order for both ends of an edge (so a signed zero is the one the vertex sees).

    The answers for the last two patterns are kept (reading a pattern measures its Kawasaki residuals, and
    compiling it checks its vertices: one walk serves both); callers only read them."""
    return _crease_angles(np.ascontiguousarray(pattern.vertices_coords, dtype=np.float64).tobytes(),
                          np.ascontiguousarray(pattern.edges_vertices, dtype=np.int64).tobytes(),
                          tuple(pattern.edges_assignment))


@functools.lru_cache(maxsize=2)
def _crease_angles(
    coords_bytes: bytes, edges_bytes: bytes, edges_assignment: tuple[str, ...]
) -> tuple[list[list[tuple[float, int]]], list[bool]]:
    """:func:`_vertices_crease_angles` of the pattern whose coordinates and edges have these bytes."""
    coords = np.frombuffer(coords_bytes, dtype=np.float64).reshape(-1, 2)
    edges_vertices = np.frombuffer(edges_bytes, dtype=np.int64).reshape(-1, 2)
    vertex_count = len(coords)
    neighbours: list[list[tuple[float, int]]] = [[] for _ in range(vertex_count)]
    on_boundary = [False] * vertex_count
    forward = (coords[edges_vertices[:, 1]] - coords[edges_vertices[:, 0]]).tolist()
    backward = (coords[edges_vertices[:, 0]] - coords[edges_vertices[:, 1]]).tolist()
    atan2 = math.atan2
    for edge, ((a, b), assignment) in enumerate(zip(edges_vertices.tolist(), edges_assignment, strict=True)):
        if assignment == "B":
            on_boundary[a] = on_boundary[b] = True
        elif assignment in "MVU":
            neighbours[a].append((atan2(forward[edge][1], forward[edge][0]), edge))
            neighbours[b].append((atan2(backward[edge][1], backward[edge][0]), edge))
    for creases in neighbours:
        creases.sort(key=_ANGLE)  # by angle only: ties stay in edge order
    return neighbours, on_boundary


_ANGLE = operator.itemgetter(0)
"""The sort key of a ``(direction angle, edge)`` pair: its angle."""


def _sector_angles(angles: list[float]) -> list[float]:
    """The sectors between consecutive crease directions (counter-clockwise, in radians)."""
    return [((angles[(i + 1) % len(angles)] - angles[i]) % (2 * math.pi)) or 2 * math.pi for i in range(len(angles))]


def _edge_lengths(pattern: CreasePattern) -> list[float]:
    """Every edge's length (the shortest crease at a vertex is the least of its creases' lengths)."""
    ends = pattern.vertices_coords[pattern.edges_vertices]
    return np.hypot(*(ends[:, 1] - ends[:, 0]).T).tolist()


def kawasaki_residuals(pattern: CreasePattern) -> tuple[dict[int, float], dict[int, float]]:
    """For each interior vertex with an even number of folded creases: its Kawasaki error (radians) and the
    length of its shortest crease (no verdict; :func:`check_vertices` decides)."""
    angled, on_boundary = _vertices_crease_angles(pattern)
    lengths = _edge_lengths(pattern)
    errors: dict[int, float] = {}
    shortest: dict[int, float] = {}
    for vertex, creases in enumerate(angled):
        if on_boundary[vertex] or not creases or len(creases) % 2:
            continue
        sectors = _sector_angles([angle for angle, _ in creases])
        errors[vertex] = abs(sum(sectors[0::2]) - math.pi)
        shortest[vertex] = min(lengths[edge] for _, edge in creases)
    return errors, shortest


def check_vertices(pattern: CreasePattern) -> LocalCheckReport:
    """Raise :class:`GeometricallyImpossibleFold` at the first vertex breaking a local condition (angles judged
    by the pattern's precision policy).

    >>> from foldbench.crease.graph.pattern import build_crease_pattern
    >>> square = np.array([[[0, 0], [1, 0]], [[1, 0], [1, 1]], [[1, 1], [0, 1]], [[0, 1], [0, 0]]], float)
    >>> check_vertices(build_crease_pattern(square, "BBBB")).checked_vertices
    0
    """
    policy = pattern.policy
    angled, on_boundary = _vertices_crease_angles(pattern)
    lengths = _edge_lengths(pattern)
    errors: dict[int, float] = {}
    shortest: dict[int, float] = {}
    imprecise: list[int] = []
    failures: list[tuple[int, float, list[float], dict]] = []
    checked = 0
    for vertex, directions in enumerate(angled):
        if on_boundary[vertex] or not directions:
            continue
        edges = [edge for _, edge in directions]
        checked += 1
        letters = [pattern.edges_assignment[e] for e in edges]
        mountains, valleys = letters.count("M"), letters.count("V")
        if "U" not in letters and abs(mountains - valleys) != 2:
            raise GeometricallyImpossibleFold(
                "E_GEOM_MAEKAWA",
                f"vertex {vertex}: |M - V| = |{mountains} - {valleys}| = {abs(mountains - valleys)}, must be 2",
                {**_where(pattern, vertex, edges, letters), "mountains": mountains, "valleys": valleys},
            )
        if len(edges) % 2:
            raise GeometricallyImpossibleFold(
                "E_GEOM_ODD_DEGREE", f"vertex {vertex} has {len(edges)} creases; a flat vertex needs an even number",
                _where(pattern, vertex, edges, letters),
            )
        sectors = _sector_angles([angle for angle, _ in directions])
        alternating = sum(sectors[0::2])
        error = abs(alternating - math.pi)
        errors[vertex] = error
        shortest[vertex] = min(lengths[edge] for edge in edges)
        if error > policy.angle:
            if error > policy.kawasaki_impossible:
                failures.append((vertex, alternating, sectors, _where(pattern, vertex, edges, letters)))
                continue
            imprecise.append(vertex)
        if "U" in letters:
            continue
        for first, length in _locally_smallest_runs(sectors, max(policy.angle, policy.angle_noise_factor * error),
                                                    policy):
            creases = [(first + offset) % len(sectors) for offset in range(length + 1)]
            run_letters = [letters[c] for c in creases]
            difference = abs(run_letters.count("M") - run_letters.count("V"))
            if difference != (length + 1) % 2:
                raise GeometricallyImpossibleFold(
                    "E_GEOM_BIG_LITTLE_BIG",
                    f"vertex {vertex}: {length} equal locally smallest sector(s) of {math.degrees(sectors[first]):.4f} "
                    f"degrees lie between creases {''.join(run_letters)} (edges {[edges[c] for c in creases]}); "
                    f"between bigger sectors their mountains and valleys must differ by {(length + 1) % 2}, "
                    f"not {difference}",
                    {**_where(pattern, vertex, edges, letters),
                     "sector_angles_degrees": [round(math.degrees(s), 6) for s in sectors],
                     "run_edges": [edges[c] for c in creases]},
                )
    noise = kawasaki_noise(errors, shortest, policy)
    if failures:
        _judge_kawasaki_failures(pattern, failures, max(noise, pattern.input_precision))
    return LocalCheckReport(checked, errors, tuple(imprecise), noise)


def _judge_kawasaki_failures(
    pattern: CreasePattern, failures: list[tuple[int, float, list[float], dict]], measured_noise: float
) -> None:
    """Raise for vertices whose Kawasaki error exceeds the policy's ``kawasaki_impossible``: a verdict, unless the
    input is visibly noisy (``measured_noise`` > 0) and moving every point by its precision (the measured noise,
    or half the last decimal the coordinates are written to, whichever is larger) could explain every failure;
    then a precision problem (rule 9 of :mod:`foldbench.crease.precision.tolerance`)."""
    precision = max(measured_noise, pattern.written_precision) if measured_noise > 0 else 0.0
    explained = []
    for vertex, alternating, sectors, where in failures:
        error = abs(alternating - math.pi)
        creases = where["edges"]
        ends = pattern.vertices_coords[pattern.edges_vertices[creases]]
        bound = kawasaki_explained_by(precision, np.hypot(*(ends[:, 1] - ends[:, 0]).T))
        if error > bound:
            raise GeometricallyImpossibleFold(
                "E_GEOM_KAWASAKI",
                f"vertex {vertex}: alternating angle sums {math.degrees(alternating):.6f} and "
                f"{math.degrees(2 * math.pi - alternating):.6f} degrees, must both be 180",
                {**where, "sector_angles_degrees": [round(math.degrees(s), 6) for s in sectors]},
            )
        explained.append({"vertex": vertex, "kawasaki_error_degrees": round(math.degrees(error), 6),
                          "explainable_degrees": round(math.degrees(bound), 6)})
    raise PrecisionProblem(
        "E_PRECISION_KAWASAKI",
        f"{len(explained)} vertices miss Kawasaki by up to {max(e['kawasaki_error_degrees'] for e in explained):.3f}"
        f" degrees, which moving the points by the input's precision ({precision:.1e} of the paper) can explain;"
        " the coordinates are too imprecise to decide",
        {"input_precision": precision, "vertices": explained[:20], "vertex_count": len(explained)},
    )


def _locally_smallest_runs(
    sectors: list[float], tolerance: float | None = None, policy: PrecisionPolicy = DEFAULT_POLICY
) -> list[tuple[int, int]]:
    """Runs of equal sectors with a clearly bigger sector on each side, as ``(first sector, length)``.

    Sector ``i`` lies between creases ``i`` and ``i + 1``. Sectors within ``tolerance`` (the vertex's angle
    tolerance, the one Kawasaki used; default the policy's ``angle``) are equal; a neighbour must be bigger by
    ``tolerance`` and by at least ``angle * precision_margin`` (closer calls are left to the layer solver). A
    vertex whose sectors are all equal has no such run.

    >>> _locally_smallest_runs([1.0, 1.0, 2.0, 1.0, 1.0, 2.0])
    [(0, 2), (3, 2)]
    >>> _locally_smallest_runs([2.0, 1.0, 3.0, 0.5])
    [(1, 1), (3, 1)]
    """
    count = len(sectors)
    tolerance = policy.angle if tolerance is None else tolerance
    clearly = max(tolerance, policy.angle * policy.precision_margin)
    starts = [i for i in range(count) if abs(sectors[i] - sectors[i - 1]) > tolerance]
    runs = []
    for position, first in enumerate(starts):
        following = starts[(position + 1) % len(starts)]
        length = (following - first) % count or count
        value = sectors[first]
        if sectors[first - 1] - value > clearly and sectors[following % count] - value > clearly:
            runs.append((first, length))
    return runs


def _where(pattern: CreasePattern, vertex: int, edges: list[int], letters: list[str]) -> dict:
    """The ``where`` of an error at ``vertex``: its input coordinates, creases and their assignments."""
    return {"vertex": vertex, "coordinates": _input_coords(pattern, vertex), "edges": edges, "assignments": letters}


def _input_coords(pattern: CreasePattern, vertex: int) -> list[float]:
    point = pattern.vertices_coords[vertex] * pattern.scale + np.array(pattern.offset)
    return [float(point[0]), float(point[1])]
