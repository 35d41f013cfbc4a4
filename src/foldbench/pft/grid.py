"""The paper of the paper folding test: a 4×4 square cut into 32 triangles.

Coordinates are integers in screen convention: ``x`` grows to the right, ``y`` grows downward, the sheet is
``[0, 4] × [0, 4]`` and cell (row ``r``, column ``c``) is ``[c, c+1] × [r, r+1]``. A cell is cut along "\\"
(top-left to bottom-right) when ``r + c`` is even and along "/" when it is odd.

A *position* is a triangle slot of the grid, ``0..31``; its *location* (the benchmark's name for it) is
``position + 1``. Positions run row by row, two per cell, the left triangle first: in a "\\" cell the lower-left
triangle, in a "/" cell the upper-left one. ``[row, column, tri]`` uses the same cells with ``tri`` 0 = left.

Isometries of the plane that map the grid onto itself are given as integer point maps and turned into
position maps by :func:`position_map`; the engine works on those tables only.
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = [
    "SIZE",
    "NUM_POSITIONS",
    "Point",
    "location_of",
    "position_of_location",
    "row_col_tri",
    "position_of_row_col_tri",
    "triangle_vertices",
    "CENTROIDS3",
    "BOUNDS",
    "position_map",
]

SIZE = 4
NUM_POSITIONS = 2 * SIZE * SIZE

Point = tuple[int, int]


def row_col_tri(position: int) -> tuple[int, int, int]:
    """The ``(row, column, tri)`` of a position.

    >>> row_col_tri(0), row_col_tri(31)
    ((0, 0, 0), (3, 3, 1))
    """
    row, rest = divmod(position, 2 * SIZE)
    column, tri = divmod(rest, 2)
    return row, column, tri


def position_of_row_col_tri(row: int, column: int, tri: int) -> int:
    """The position of ``[row, column, tri]``; the inverse of :func:`row_col_tri`."""
    return 2 * SIZE * row + 2 * column + tri


def location_of(position: int) -> int:
    """The benchmark's 1-based location number of a position."""
    return position + 1


def position_of_location(location: int) -> int:
    """The position of a 1-based location number."""
    return location - 1


def triangle_vertices(position: int) -> tuple[Point, Point, Point]:
    """The three integer vertices of a position's triangle.

    >>> triangle_vertices(0)  # cell (0, 0) is a "\\\\" cell; its left triangle is the lower-left one
    ((0, 0), (0, 1), (1, 1))
    >>> triangle_vertices(2)  # cell (0, 1) is a "/" cell; its left triangle is the upper-left one
    ((1, 0), (2, 0), (1, 1))
    """
    row, column, tri = row_col_tri(position)
    x0, y0, x1, y1 = column, row, column + 1, row + 1
    if (row + column) % 2 == 0:  # "\" cell: diagonal (x0, y0)-(x1, y1)
        return ((x0, y0), (x0, y1), (x1, y1)) if tri == 0 else ((x0, y0), (x1, y0), (x1, y1))
    # "/" cell: diagonal (x0, y1)-(x1, y0)
    return ((x0, y0), (x1, y0), (x0, y1)) if tri == 0 else ((x1, y0), (x1, y1), (x0, y1))


def _centroid3(position: int) -> Point:
    vertices = triangle_vertices(position)
    return sum(v[0] for v in vertices), sum(v[1] for v in vertices)


#: Three times each position's centroid (integers, so comparisons with creases stay exact).
CENTROIDS3: tuple[Point, ...] = tuple(_centroid3(p) for p in range(NUM_POSITIONS))

#: Each position's bounding box ``(xmin, ymin, xmax, ymax)``.
BOUNDS: tuple[tuple[int, int, int, int], ...] = tuple(
    (
        min(v[0] for v in triangle_vertices(p)),
        min(v[1] for v in triangle_vertices(p)),
        max(v[0] for v in triangle_vertices(p)),
        max(v[1] for v in triangle_vertices(p)),
    )
    for p in range(NUM_POSITIONS)
)

_POSITION_BY_VERTICES: dict[frozenset[Point], int] = {frozenset(triangle_vertices(p)): p for p in range(NUM_POSITIONS)}


def position_map(point_map: Callable[[Point], Point]) -> tuple[int | None, ...]:
    """The position table of an isometry given as a map of integer points.

    Entry ``p`` is the position the triangle at ``p`` lands on, or ``None`` when its image is not a triangle of
    the sheet (it leaves the sheet, or straddles a cell's diagonal).

    >>> identity = position_map(lambda point: point)
    >>> identity == tuple(range(NUM_POSITIONS))
    True
    """
    table: list[int | None] = []
    for position in range(NUM_POSITIONS):
        image = frozenset(point_map(v) for v in triangle_vertices(position))
        table.append(_POSITION_BY_VERTICES.get(image))
    return tuple(table)
