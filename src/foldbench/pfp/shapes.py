"""Base sheets and cutouts of the fold-and-cut puzzles, as polygons in the sheet frame.

The frame is centred on the origin with y pointing up; every sheet fits in a square of side
:data:`~foldbench.pfp.tolerance.SHEET_SIZE` (360 units): a 360 square, a 360 by 270 rectangle, a house (a 360 by
200 body under an 80-unit roof), a circle of diameter 360 and a regular hexagon (two corners on the x axis) of
circumradius 180. Circles are regular polygons (see :mod:`foldbench.pfp.tolerance`).

A cutout has a shape, a centre and a size ``s``: a circle of diameter ``s``, a square of side ``s``, a rectangle of
``s`` by ``0.7 s`` and a hexagon of circumradius ``s / 2``; ``angle`` turns it (degrees, counter-clockwise).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import cache
from typing import Any, Literal, get_args

import numpy as np
import shapely
from shapely import affinity
from shapely.geometry import Polygon, box

from foldbench.errors import UnknownNameError
from foldbench.pfp.tolerance import BASE_CIRCLE_SIDES, CUTOUT_CIRCLE_SIDES, SHEET_SIZE

__all__ = [
    "CUTOUT_SHAPES",
    "SHEET_SHAPES",
    "Cutout",
    "CutoutShape",
    "SheetShape",
    "check_sheet_shape",
    "cutout_polygon",
    "regular_polygon",
    "sheet_polygon",
]

SheetShape = Literal["circle", "house", "rectangle", "square", "hexagon"]
CutoutShape = Literal["circle", "rectangle", "square", "hexagon"]
SHEET_SHAPES: tuple[SheetShape, ...] = get_args(SheetShape)
CUTOUT_SHAPES: tuple[CutoutShape, ...] = get_args(CutoutShape)
RECTANGLE_ASPECT = 0.7


def regular_polygon(
    sides: int, radius: float, *, center: tuple[float, float] = (0.0, 0.0), phase: float = 0.0
) -> Polygon:
    """A regular polygon with a corner at angle ``phase`` (radians) from the x axis.

    >>> round(regular_polygon(4, 1.0).area, 6)
    2.0
    """
    cx, cy = center
    return Polygon(
        [
            (
                cx + radius * math.cos(phase + 2 * math.pi * k / sides),
                cy + radius * math.sin(phase + 2 * math.pi * k / sides),
            )
            for k in range(sides)
        ]
    )


def check_sheet_shape(name: str) -> SheetShape:
    """``name`` if it is a base sheet shape, else :class:`~foldbench.errors.UnknownNameError`.

    >>> check_sheet_shape("house")
    'house'
    """
    if name not in SHEET_SHAPES:
        raise UnknownNameError("sheet shape", name, SHEET_SHAPES)
    return name


@cache
def sheet_polygon(name: str) -> Polygon:
    """The flat sheet ``name`` (see the module docstring).

    >>> sheet_polygon("square").area
    129600.0
    """
    half = SHEET_SIZE / 2
    shape = check_sheet_shape(name)
    if shape == "square":
        return box(-half, -half, half, half)
    if shape == "rectangle":
        return box(-half, -half * 0.75, half, half * 0.75)
    if shape == "house":
        return Polygon([(-half, -140.0), (half, -140.0), (half, 60.0), (0.0, 140.0), (-half, 60.0)])
    if shape == "circle":
        return regular_polygon(BASE_CIRCLE_SIDES, half)
    return regular_polygon(6, half)


@dataclass(frozen=True, slots=True)
class Cutout:
    """One cutout: ``shape`` centred on ``center`` with size ``size``, turned by ``angle`` degrees."""

    shape: CutoutShape
    center: tuple[float, float]
    size: float
    angle: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        """The cutout as item data."""
        return {"shape": self.shape, "center": list(self.center), "size": self.size, "angle": self.angle}

    @staticmethod
    def from_dict(data: dict[str, Any]) -> Cutout:
        """The inverse of :meth:`to_dict`."""
        if data["shape"] not in CUTOUT_SHAPES:
            raise UnknownNameError("cutout shape", str(data["shape"]), CUTOUT_SHAPES)
        center = data["center"]
        return Cutout(data["shape"], (float(center[0]), float(center[1])), float(data["size"]), float(data["angle"]))

    def moved(self, dx: float, dy: float) -> Cutout:
        """The cutout shifted by ``(dx, dy)``."""
        return replace(self, center=(self.center[0] + dx, self.center[1] + dy))


@cache
def _unit_cutout(shape: str, size: float, angle: float) -> Polygon:
    half = size / 2
    if shape == "circle":
        polygon = regular_polygon(CUTOUT_CIRCLE_SIDES, half)
    elif shape == "square":
        polygon = box(-half, -half, half, half)
    elif shape == "rectangle":
        polygon = box(-half, -half * RECTANGLE_ASPECT, half, half * RECTANGLE_ASPECT)
    else:
        polygon = regular_polygon(6, half, phase=math.pi / 2)
    return affinity.rotate(polygon, angle, origin=(0, 0)) if angle else polygon


def cutout_polygon(cutout: Cutout) -> Polygon:
    """The polygon of a cutout in the frame of the folded paper.

    >>> cutout_polygon(Cutout("square", (0.0, 0.0), 2.0)).bounds
    (-1.0, -1.0, 1.0, 1.0)
    """
    offset = np.array(cutout.center)
    return shapely.transform(_unit_cutout(cutout.shape, cutout.size, cutout.angle), lambda coords: coords + offset)
