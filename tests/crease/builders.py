"""Crease patterns the tests build themselves."""

from __future__ import annotations

import math

import numpy as np

from foldbench.crease.graph.pattern import CreasePattern, build_crease_pattern

UNIT_SQUARE = np.array([[[0, 0], [1, 0]], [[1, 0], [1, 1]], [[1, 1], [0, 1]], [[0, 1], [0, 0]]], dtype=float)


def map_pattern(rows: int, columns: int, letter: str = "U") -> CreasePattern:
    """A ``rows`` x ``columns`` map (grid of unit squares) with every inner crease given ``letter``."""
    segments, letters = [], []
    for x in range(columns + 1):
        segments.append([[x, 0], [x, rows]])
        letters.append("B" if x in (0, columns) else letter)
    for y in range(rows + 1):
        segments.append([[0, y], [columns, y]])
        letters.append("B" if y in (0, rows) else letter)
    return build_crease_pattern(np.array(segments, dtype=float), letters)


def square_with(creases: list[tuple[tuple[float, float], tuple[float, float], str]]) -> CreasePattern:
    """The unit square with the given creases ``(start, end, letter)``."""
    segments = [*UNIT_SQUARE.tolist(), *[[list(a), list(b)] for a, b, _ in creases]]
    letters = ["B"] * 4 + [letter for _, _, letter in creases]
    return build_crease_pattern(np.array(segments, dtype=float), letters)


def fold_document(pattern: CreasePattern) -> dict:
    """The FOLD fields of a pattern (as a reader would see them)."""
    fields = pattern.to_fold_fields()
    return {key: fields[key] for key in ("vertices_coords", "edges_vertices", "edges_assignment")}


def ray_end(degrees: float) -> tuple[float, float]:
    """Where the ray from the centre of the unit square at ``degrees`` leaves the square."""
    dx, dy = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
    t = min(0.5 / abs(c) for c in (dx, dy) if abs(c) > 1e-12)
    return (0.5 + t * dx, 0.5 + t * dy)


def centre_vertex(directions: list[tuple[float, str]]) -> CreasePattern:
    """The unit square with creases from its centre along ``(degrees, letter)``."""
    return square_with([((0.5, 0.5), ray_end(angle), letter) for angle, letter in directions])


def _to_boundary(point: tuple[float, float], degrees: float) -> tuple[float, float]:
    """Where the ray from ``point`` at ``degrees`` leaves the unit square."""
    dx, dy = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
    steps = [((1 - c) / d if d > 0 else -c / d) for c, d in zip(point, (dx, dy), strict=True) if abs(d) > 1e-12]
    t = min(steps)
    return (point[0] + t * dx, point[1] + t * dy)


def square_twist(sides: str = "M", swapped_corner: int | None = None) -> CreasePattern:
    """A square twist: a central square whose four corners each send out two pleat creases.

    At each corner the sectors are 90 (the square), 45, 90 and 135 degrees. The square's sides get ``sides``;
    the pleat crease next to the 45-degree sector gets the other letter (big-little-big) and the last one
    ``sides`` again (Maekawa). ``swapped_corner`` swaps the two pleat letters at one corner, which keeps
    Maekawa but breaks big-little-big there.
    """
    low, high = 0.375, 0.625
    corners = [((low, low), 0), ((high, low), 90), ((high, high), 180), ((low, high), 270)]
    other = "V" if sides == "M" else "M"
    creases = []
    for index, (point, side) in enumerate(corners):
        creases.append((point, corners[(index + 1) % 4][0], sides))
        letters = (sides, other) if index == swapped_corner else (other, sides)
        creases.append((point, _to_boundary(point, side + 135), letters[0]))
        creases.append((point, _to_boundary(point, side + 225), letters[1]))
    return square_with(creases)


def polyomino_creases(cells: list[tuple[int, int]]) -> tuple[list[tuple[tuple[int, int], tuple[int, int]]], list]:
    """The inner creases of a polyomino of unit squares ``(column, row)``, each as ``(cell, neighbour)``,
    and its boundary sides, each as a segment."""
    cell_set = set(cells)
    creases, boundary = [], []
    for c, r in sorted(cell_set):
        for (dc, dr), side in (((1, 0), ((c + 1, r), (c + 1, r + 1))), ((0, 1), ((c, r + 1), (c + 1, r + 1))),
                               ((-1, 0), ((c, r), (c, r + 1))), ((0, -1), ((c, r), (c + 1, r)))):
            neighbour = (c + dc, r + dr)
            if neighbour in cell_set:
                if (dc, dr) in ((1, 0), (0, 1)):
                    creases.append(((c, r), neighbour))
            else:
                boundary.append(side)
    return creases, boundary


def polyomino_segments(cells: list[tuple[int, int]], letters: str | None = None) -> tuple[np.ndarray, list[str]]:
    """Segments and assignments of a polyomino (a cube net, a map) with its inner creases given ``letters``
    (in the order of :func:`polyomino_creases`; all ``U`` when None)."""
    creases, boundary = polyomino_creases(cells)
    letters = letters or "U" * len(creases)
    segments = [list(side) for side in boundary]
    for (c, r), (c2, r2) in creases:
        segments.append([(c2, r2), (c + 1, r + 1)])
    return np.array(segments, dtype=float), ["B"] * len(boundary) + list(letters)


def jitter(segments: np.ndarray, amount: float, seed: int, *, shared: bool = True) -> np.ndarray:
    """Move every point by up to ``amount`` times the paper size, at random.

    With ``shared`` an endpoint used by several segments moves once (a drawing with exact joints, written
    with noisy coordinates); otherwise every endpoint moves on its own (joints drawn by hand).
    """
    rng = np.random.default_rng(seed)
    points = segments.reshape(-1, 2)
    size = float(np.ptp(points, axis=0).max())
    if shared:
        unique, inverse = np.unique(points, axis=0, return_inverse=True)
        moves = rng.uniform(-amount, amount, size=unique.shape) * size
        return (points + moves[inverse.ravel()]).reshape(segments.shape)
    return (points + rng.uniform(-amount, amount, size=points.shape) * size).reshape(segments.shape)


CUBE_NETS: tuple[tuple[tuple[int, int], ...], ...] = (
    *(tuple([(x, 1) for x in range(4)] + [(top, 2), (bottom, 0)])
      for top, bottom in ((0, 0), (0, 1), (0, 2), (0, 3), (1, 1), (1, 2))),
    *(((0, 0), (1, 0), (1, 1), (2, 1), (3, 1), (top, 2)) for top in (1, 2, 3)),
    ((0, 0), (1, 0), (1, 1), (2, 1), (2, 2), (3, 2)),
    ((0, 0), (1, 0), (2, 0), (2, 1), (3, 1), (4, 1)),
)
"""The eleven nets of the cube, as cells ``(column, row)`` of unit squares."""
