"""The geometry of the hole shapes: outlines as polygons, shared by the 2D and 3D renderers.

Every shape is first drawn in a *unit frame* (``u`` to the right, ``v`` **up**, centred on the origin, standing
upright) and fits inside the unit disc. :func:`hole_outline` then scales it by its size, turns it by its direction
(counter-clockwise as the viewer sees it) and places it in screen coordinates (``x`` right, ``y`` **down**):

    x = cx + r * (u cos d - v sin d),    y = cy - r * (u sin d + v cos d)

where ``r`` is :data:`RADIUS_BY_SIZE` times the grid unit. Because screen ``y`` grows downward, the ``-`` before
the second term is what makes a positive ``d`` turn the shape counter-clockwise on screen.

Sizes (fractions of a grid cell's side): small holes reach at most ``0.12`` from their centre, large ones
``0.21`` (1.75 times as far). A triangle's centroid lies ``√2/6 ≈ 0.2357`` from its hypotenuse and ``1/3`` from
its legs, so a hole of either size, at any direction, lies strictly inside its triangle.

The shapes, as they stand at direction 0 (each is mirror-symmetric about its vertical axis):

========== ============================================================================
circle     a regular 32-gon of radius 1
square     an axis-aligned square with corners on the unit circle
triangle   an equilateral triangle with one corner straight up, corners on the unit circle
trapezoid  an isosceles trapezoid, the short side on top
star       a five-pointed star, one point straight up
letter     a capital T (bar on top, stem down)
text       three centred lines of text, longest on top (like a heading over a paragraph)
ellipse    a 32-gon on the ellipse with semi-axes 1 (horizontal) and 0.45 (vertical)
rectangle  a rectangle 1.8 wide and 0.8 tall
========== ============================================================================
"""

from __future__ import annotations

import math
from functools import cache

from foldbench.errors import InvalidHoleError
from foldbench.pft.grid import CENTROIDS3
from foldbench.pft.holes import Hole, Shape, Size

__all__ = [
    "RADIUS_BY_SIZE",
    "Polygon",
    "hole_center",
    "hole_outline",
    "outline_of_hole",
    "unit_outline",
]

#: A closed polygon as its vertex list (the last vertex joins the first).
Polygon = list[tuple[float, float]]

#: How far a hole reaches from its centre, as a fraction of a grid cell's side.
RADIUS_BY_SIZE: dict[Size, float] = {Size.SMALL: 0.12, Size.LARGE: 0.21}

_CURVE_VERTICES = 32


def _cos_sin(direction: float) -> tuple[float, float]:
    """Cosine and sine of ``direction`` degrees, exact for multiples of 90."""
    if float(direction).is_integer() and int(direction) % 90 == 0:
        return ((1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0))[(int(direction) // 90) % 4]
    angle = math.radians(direction)
    return math.cos(angle), math.sin(angle)


def _regular(count: int, radius_u: float, radius_v: float, start_degrees: float) -> tuple[tuple[float, float], ...]:
    points = []
    for index in range(count):
        cos_a, sin_a = _cos_sin(start_degrees + 360.0 * index / count)
        points.append((radius_u * cos_a, radius_v * sin_a))
    return tuple(points)


def _symmetric(right_half: list[tuple[float, float]]) -> tuple[tuple[float, float], ...]:
    """A polygon mirror-symmetric about ``u = 0`` from its right half, listed top to bottom (``u > 0``)."""
    left_half = [(-u, v) for u, v in reversed(right_half)]
    return tuple(right_half + left_half)


def _star() -> tuple[tuple[float, float], ...]:
    outer, inner = 1.0, 0.4
    points = []
    for index in range(10):
        radius = outer if index % 2 == 0 else inner
        cos_a, sin_a = _cos_sin(90.0 + 36.0 * index)
        points.append((radius * cos_a, radius * sin_a))
    return tuple(points)


def _bar(half_width: float, top: float, bottom: float) -> tuple[tuple[float, float], ...]:
    return ((half_width, top), (half_width, bottom), (-half_width, bottom), (-half_width, top))


_UNIT_OUTLINES: dict[Shape, tuple[tuple[tuple[float, float], ...], ...]] = {
    Shape.CIRCLE: (_regular(_CURVE_VERTICES, 1.0, 1.0, 0.0),),
    Shape.SQUARE: (_regular(4, 1.0, 1.0, 45.0),),
    Shape.TRIANGLE: (_regular(3, 1.0, 1.0, 90.0),),
    Shape.TRAPEZOID: (_symmetric([(0.45, 0.55), (0.85, -0.5)]),),
    Shape.STAR: (_star(),),
    Shape.LETTER: (_symmetric([(0.7, 0.7), (0.7, 0.36), (0.17, 0.36), (0.17, -0.9)]),),
    Shape.TEXT: (_bar(0.82, 0.52, 0.32), _bar(0.58, 0.1, -0.1), _bar(0.34, -0.32, -0.52)),
    Shape.ELLIPSE: (_regular(_CURVE_VERTICES, 1.0, 0.45, 0.0),),
    Shape.RECTANGLE: (_bar(0.9, 0.4, -0.4),),
}


def unit_outline(shape: Shape | str) -> tuple[tuple[tuple[float, float], ...], ...]:
    """The polygons of ``shape`` in its unit frame (``v`` up, upright, inside the unit disc).

    >>> len(unit_outline("text")), unit_outline("square")[0][0]
    (3, (0.7071067811865476, 0.7071067811865475))
    """
    return _UNIT_OUTLINES[_shape(shape)]


def _shape(shape: Shape | str) -> Shape:
    try:
        return Shape(shape)
    except ValueError:
        raise InvalidHoleError(
            f"unknown hole shape {shape!r} (expected one of {', '.join(s.value for s in Shape)})"
        ) from None


def _size(size: Size | str) -> Size:
    try:
        return Size(size)
    except ValueError:
        raise InvalidHoleError(f"unknown hole size {size!r} (expected small or large)") from None


def hole_outline(
    shape: Shape | str,
    size: Size | str,
    direction: float,
    center: tuple[float, float] = (0.0, 0.0),
    unit: float = 1.0,
) -> list[Polygon]:
    """The outline of a hole as closed polygons in screen coordinates (``y`` down).

    Args:
        shape: one of the nine hole shapes.
        size: ``"small"`` or ``"large"`` (see :data:`RADIUS_BY_SIZE`).
        direction: degrees, counter-clockwise as the viewer sees it; 0 stands the shape upright.
        center: where the hole's centre lies, in screen coordinates.
        unit: the side of a grid cell in the same coordinates.

    Raises:
        InvalidHoleError: for an unknown shape or size.

    >>> hole_outline("triangle", "small", 0, unit=100)[0][0]  # the top corner: straight up, i.e. towards -y
    (0.0, -12.0)
    >>> hole_outline("triangle", "small", 90, unit=100)[0][0]  # turned a quarter counter-clockwise: to the left
    (-12.0, 0.0)
    >>> hole_outline("square", "large", 0, center=(5.0, 7.0), unit=0.0)  # a zero unit collapses it to its centre
    [[(5.0, 7.0), (5.0, 7.0), (5.0, 7.0), (5.0, 7.0)]]
    """
    radius = RADIUS_BY_SIZE[_size(size)] * unit
    cos_d, sin_d = _cos_sin(direction)
    cx, cy = center
    return [
        [(cx + radius * (u * cos_d - v * sin_d), cy - radius * (u * sin_d + v * cos_d)) for u, v in polygon]
        for polygon in unit_outline(shape)
    ]


def hole_center(location: int) -> tuple[float, float]:
    """The centre of the triangle at a location ``1..32``, in grid units (screen coordinates).

    >>> hole_center(1)
    (0.3333333333333333, 0.6666666666666666)
    """
    cx3, cy3 = CENTROIDS3[location - 1]
    return cx3 / 3, cy3 / 3


@cache
def _outline_of_hole(
    hole: Hole, unit: float, origin: tuple[float, float]
) -> tuple[tuple[tuple[float, float], ...], ...]:
    cx, cy = hole_center(hole.location)
    center = (origin[0] + unit * cx, origin[1] + unit * cy)
    return tuple(tuple(polygon) for polygon in hole_outline(hole.shape, hole.size, hole.direction, center, unit))


def outline_of_hole(
    hole: Hole, *, unit: float = 1.0, origin: tuple[float, float] = (0.0, 0.0)
) -> tuple[tuple[tuple[float, float], ...], ...]:
    """A hole's outline at its triangle's centroid, on a sheet whose top-left corner is at ``origin`` and whose
    cells have side ``unit`` (screen coordinates). Cached: callers must not mutate the result.

    >>> outline_of_hole(Hole("square", "large", 0, 1), unit=3.0)[0][0]
    (1.4454772721475249, 1.5545227278524751)
    """
    return _outline_of_hole(hole, float(unit), (float(origin[0]), float(origin[1])))
