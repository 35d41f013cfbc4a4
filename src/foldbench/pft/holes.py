"""Holes punched through the folded paper, and how their directions transform.

A hole has a shape, a size, a direction (degrees counter-clockwise; 0 = the shape stands upright) and a
location ``1..32``. Every shape is mirror-symmetric about its pointing axis, so an isometry acts on directions
as ``d -> sign * d + offset (mod 360)``; :class:`DirectionMap` is that pair. The reflections of the four crease
directions and the rotations are:

============================ =====================
crease / action              direction map
============================ =====================
horizontal crease ("-")      ``d -> 180 - d``
vertical crease ("|")        ``d -> -d``
"/" crease                   ``d -> 270 - d``
"\\" crease                   ``d -> 90 - d``
rotation by ρ                 ``d -> d + ρ``
============================ =====================

Directions are compared by *class*: circle and square have one class, ellipse and rectangle two
(``{0, 180}`` and ``{90, 270}``), the other shapes four.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from foldbench.errors import InvalidHoleError
from foldbench.pft.grid import NUM_POSITIONS

__all__ = [
    "Shape",
    "Size",
    "Hole",
    "DirectionMap",
    "IDENTITY",
    "REFLECTION_BY_AXIS",
    "direction_period",
    "canonical_direction",
    "ROTATION_FREE_SHAPES",
]


class Shape(StrEnum):
    """The nine hole shapes."""

    CIRCLE = "circle"
    SQUARE = "square"
    TRIANGLE = "triangle"
    TRAPEZOID = "trapezoid"
    STAR = "star"
    LETTER = "letter"
    TEXT = "text"
    ELLIPSE = "ellipse"
    RECTANGLE = "rectangle"


class Size(StrEnum):
    """The two hole sizes."""

    SMALL = "small"
    LARGE = "large"


#: Shapes that look the same at every direction (left out of rotation tasks).
ROTATION_FREE_SHAPES = frozenset({Shape.CIRCLE, Shape.SQUARE})

_PERIOD = {Shape.CIRCLE: 90, Shape.SQUARE: 90, Shape.ELLIPSE: 180, Shape.RECTANGLE: 180}


def direction_period(shape: Shape) -> int:
    """The smallest turn (degrees) that leaves ``shape`` looking the same: 90 (no direction), 180 or 360."""
    return _PERIOD.get(shape, 360)


def canonical_direction(shape: Shape, direction: int) -> int:
    """The representative of ``direction``'s class for ``shape``: 0 for circle and square, 0 or 90 for ellipse
    and rectangle, else ``direction mod 360``.

    >>> canonical_direction(Shape.ELLIPSE, 270), canonical_direction(Shape.SQUARE, 90)
    (90, 0)
    >>> canonical_direction(Shape.STAR, -90)
    270
    """
    return direction % direction_period(shape)


@dataclass(frozen=True, slots=True)
class DirectionMap:
    """How an isometry acts on hole directions: ``d -> sign * d + offset (mod 360)``."""

    sign: int
    offset: int

    def __call__(self, direction: int) -> int:
        return (self.sign * direction + self.offset) % 360

    def then(self, other: DirectionMap) -> DirectionMap:
        """The map that applies ``self`` first, then ``other``."""
        return DirectionMap(self.sign * other.sign, (other.sign * self.offset + other.offset) % 360)

    def inverse(self) -> DirectionMap:
        """The map that undoes ``self``."""
        return DirectionMap(self.sign, (-self.sign * self.offset) % 360)

    @staticmethod
    def rotation(degrees: int) -> DirectionMap:
        """The map of a counter-clockwise rotation."""
        return DirectionMap(1, degrees % 360)


IDENTITY = DirectionMap(1, 0)

REFLECTION_BY_AXIS: dict[str, DirectionMap] = {
    "-": DirectionMap(-1, 180),
    "|": DirectionMap(-1, 0),
    "/": DirectionMap(-1, 270),
    "\\": DirectionMap(-1, 90),
}


@dataclass(frozen=True, slots=True)
class Hole:
    """A hole: shape, size, direction (degrees counter-clockwise) and location ``1..32``.

    The direction is stored as its canonical class representative, so equal-looking holes compare equal.
    """

    shape: Shape
    size: Size
    direction: int
    location: int

    def __post_init__(self) -> None:
        shape, direction, location = self.shape, self.direction, self.location
        if (
            type(shape) is Shape
            and type(self.size) is Size
            and type(direction) is int
            and type(location) is int
            and not direction % 90
            and 1 <= location <= NUM_POSITIONS
        ):  # the engine's own values, as most holes are made: only the direction to bring to its class
            object.__setattr__(self, "direction", direction % _PERIOD.get(shape, 360))
            return
        try:
            object.__setattr__(self, "shape", Shape(self.shape))
        except ValueError:
            raise InvalidHoleError(
                f"unknown hole shape {self.shape!r} (expected one of {', '.join(s.value for s in Shape)})"
            ) from None
        try:
            object.__setattr__(self, "size", Size(self.size))
        except ValueError:
            raise InvalidHoleError(f"unknown hole size {self.size!r} (expected small or large)") from None
        if isinstance(self.direction, bool) or not isinstance(self.direction, int) or self.direction % 90:
            raise InvalidHoleError(f"hole direction must be 0, 90, 180 or 270, got {self.direction!r}")
        if (
            isinstance(self.location, bool)
            or not isinstance(self.location, int)
            or not (1 <= self.location <= NUM_POSITIONS)
        ):
            raise InvalidHoleError(f"hole location must be an integer 1..32, got {self.location!r}")
        object.__setattr__(self, "direction", canonical_direction(self.shape, self.direction))

    def moved(self, location: int, direction_map: DirectionMap) -> Hole:
        """This hole at another location, its direction mapped by ``direction_map``."""
        return Hole(self.shape, self.size, direction_map(self.direction), location)

    def sort_key(self) -> tuple[int, str, str, int]:
        """A key that orders holes by location, then shape, size and direction."""
        return self.location, self.shape.value, self.size.value, self.direction
