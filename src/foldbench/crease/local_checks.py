"""Local flat-foldability checks at each interior vertex: Maekawa, Kawasaki, big-little-big.

A vertex is interior when no boundary edge touches it. Only folded creases (``M``, ``V``, ``U``) count; flat
``F`` edges are ignored. With an unassigned crease at the vertex, Maekawa's count is replaced by the parity
test (an even number of creases) and big-little-big is skipped.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from foldbench.crease.errors import GeometricallyImpossibleFold
from foldbench.crease.pattern import CreasePattern
from foldbench.crease.tolerance import ANGLE_TOLERANCE, KAWASAKI_IMPOSSIBLE, PRECISION_MARGIN

__all__ = ["LocalCheckReport", "check_vertices", "vertices_creases"]


@dataclass(frozen=True)
class LocalCheckReport:
    """Outcome of the local checks.

    Attributes:
        checked_vertices: number of interior vertices with at least one folded crease.
        kawasaki_errors: worst ``|alternating sum - pi|`` per checked vertex id.
        imprecise_vertices: vertices whose Kawasaki error lies within the precision margin (warnings).
    """

    checked_vertices: int
    kawasaki_errors: dict[int, float]
    imprecise_vertices: tuple[int, ...]


def vertices_creases(pattern: CreasePattern) -> tuple[list[list[int]], list[bool]]:
    """For each vertex: its folded creases sorted counter-clockwise, and whether it touches the boundary."""
    neighbours: list[list[int]] = [[] for _ in range(pattern.vertex_count)]
    on_boundary = [False] * pattern.vertex_count
    for edge, (a, b) in enumerate(pattern.edges_vertices.tolist()):
        assignment = pattern.edges_assignment[edge]
        if assignment == "B":
            on_boundary[a] = on_boundary[b] = True
        elif assignment in "MVU":
            neighbours[a].append(edge)
            neighbours[b].append(edge)
    coords = pattern.vertices_coords
    for vertex, edges in enumerate(neighbours):
        def angle(edge: int, vertex: int = vertex) -> float:
            a, b = pattern.edges_vertices[edge]
            other = b if a == vertex else a
            dx, dy = coords[other] - coords[vertex]
            return math.atan2(dy, dx)

        edges.sort(key=angle)
    return neighbours, on_boundary


def _sector_angles(pattern: CreasePattern, vertex: int, edges: list[int]) -> list[float]:
    coords = pattern.vertices_coords
    angles = []
    for edge in edges:
        a, b = pattern.edges_vertices[edge]
        other = b if a == vertex else a
        dx, dy = coords[other] - coords[vertex]
        angles.append(math.atan2(dy, dx))
    return [((angles[(i + 1) % len(angles)] - angles[i]) % (2 * math.pi)) or 2 * math.pi for i in range(len(angles))]


def check_vertices(pattern: CreasePattern) -> LocalCheckReport:
    """Raise :class:`GeometricallyImpossibleFold` at the first vertex breaking a local condition.

    >>> from foldbench.crease.pattern import build_crease_pattern
    >>> square = np.array([[[0, 0], [1, 0]], [[1, 0], [1, 1]], [[1, 1], [0, 1]], [[0, 1], [0, 0]]], float)
    >>> check_vertices(build_crease_pattern(square, "BBBB")).checked_vertices
    0
    """
    neighbours, on_boundary = vertices_creases(pattern)
    errors: dict[int, float] = {}
    imprecise: list[int] = []
    checked = 0
    for vertex, edges in enumerate(neighbours):
        if on_boundary[vertex] or not edges:
            continue
        checked += 1
        letters = [pattern.edges_assignment[e] for e in edges]
        where = {"vertex": vertex, "coordinates": _input_coords(pattern, vertex), "edges": edges,
                 "assignments": letters}
        mountains, valleys = letters.count("M"), letters.count("V")
        if "U" not in letters and abs(mountains - valleys) != 2:
            raise GeometricallyImpossibleFold(
                "E_GEOM_MAEKAWA",
                f"vertex {vertex}: |M - V| = |{mountains} - {valleys}| = {abs(mountains - valleys)}, must be 2",
                {**where, "mountains": mountains, "valleys": valleys},
            )
        if len(edges) % 2:
            raise GeometricallyImpossibleFold(
                "E_GEOM_ODD_DEGREE", f"vertex {vertex} has {len(edges)} creases; a flat vertex needs an even number",
                where,
            )
        sectors = _sector_angles(pattern, vertex, edges)
        alternating = sum(sectors[0::2])
        error = abs(alternating - math.pi)
        errors[vertex] = error
        if error > ANGLE_TOLERANCE:
            degrees = [round(math.degrees(s), 6) for s in sectors]
            if error > KAWASAKI_IMPOSSIBLE:
                raise GeometricallyImpossibleFold(
                    "E_GEOM_KAWASAKI",
                    f"vertex {vertex}: alternating angle sums {math.degrees(alternating):.6f} and "
                    f"{math.degrees(2 * math.pi - alternating):.6f} degrees, must both be 180",
                    {**where, "sector_angles_degrees": degrees},
                )
            imprecise.append(vertex)
        if "U" in letters:
            continue
        count = len(sectors)
        for index in range(count):
            before, here, after = sectors[index - 1], sectors[index], sectors[(index + 1) % count]
            clearly = ANGLE_TOLERANCE * PRECISION_MARGIN  # nearly equal sectors are left to the solver
            if here < before - clearly and here < after - clearly:
                left, right = letters[index], letters[(index + 1) % count]
                if left == right:
                    raise GeometricallyImpossibleFold(
                        "E_GEOM_BIG_LITTLE_BIG",
                        f"vertex {vertex}: the smallest sector ({math.degrees(here):.4f} degrees) lies between "
                        f"two {left} creases (edges {edges[index]}, {edges[(index + 1) % count]}); "
                        "they must differ",
                        {**where, "sector_angles_degrees": [round(math.degrees(s), 6) for s in sectors]},
                    )
    return LocalCheckReport(checked, errors, tuple(imprecise))


def _input_coords(pattern: CreasePattern, vertex: int) -> list[float]:
    point = pattern.vertices_coords[vertex] * pattern.scale + np.array(pattern.offset)
    return [float(point[0]), float(point[1])]
