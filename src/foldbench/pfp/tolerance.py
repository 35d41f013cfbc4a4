"""The one tolerance policy of the fold-and-cut engine.

Shapes live in a frame where the flat sheet spans :data:`SHEET_SIZE` units. Circles are regular polygons with a
fixed number of sides, and every other operation (reflection, union, difference) is floating-point geometry from
shapely, exact up to rounding. Two regions are *the same* when the area of their symmetric difference is below
:data:`SAME_AREA`, and *visibly different* when it is at least :data:`DISTINCT_AREA`; nothing in between is ever
accepted as an answer option, so rounding can never decide a question.
"""

from __future__ import annotations

from collections.abc import Sequence

import shapely
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry

__all__ = [
    "BASE_CIRCLE_SIDES",
    "CUTOUT_CIRCLE_SIDES",
    "CUTOUT_GAP",
    "DISTINCT_AREA",
    "MIN_FEATURE",
    "MIN_FEATURE_PX",
    "MIN_FLAP_FRACTION",
    "MIN_HOLE_AREA",
    "MIN_PAPER_WIDTH",
    "SAME_AREA",
    "SHEET_SIZE",
    "SNAP_DECIMALS",
    "UNION_GRID",
    "difference_area",
    "distinct_regions",
    "union",
    "same_region",
]

SHEET_SIZE = 360.0
"""The side of the square sheet; every other base shape fits in a square of this side."""
BASE_CIRCLE_SIDES = 36
"""A circular sheet is a regular polygon with this many sides."""
CUTOUT_CIRCLE_SIDES = 20
"""A circular cutout is a regular polygon with this many sides."""
SNAP_DECIMALS = 9
"""Folded coordinates are rounded to this many decimals, so layers that coincide share their vertices exactly
(without it, rounding noise of 1e-14 can make shapely build invalid unions of stacked layers)."""
UNION_GRID = 1e-6
"""Unions of pieces are computed on a precision grid of this size. Pieces that meet along a crease come from
different computations (an intersection on one side, a reflection on the other), so their shared edge agrees only
up to rounding, and a plain GEOS union of such pieces can silently drop one of them; on the grid the edges
coincide exactly."""
SAME_AREA = 0.5
"""Two regions whose symmetric difference is smaller than this (square units) are the same region."""
DISTINCT_AREA = 600.0
"""Options must differ by at least this much area (a 25 by 25 square on a 360-unit sheet; about 10 by 10
pixels in an option picture)."""
MIN_HOLE_AREA = 60.0
"""Every connected piece of an unfolded hole must have at least this area (no slivers)."""
MIN_PAPER_WIDTH = 3.0
"""The paper left after cutting must stay in one piece when eroded by half this width (no hairline bridges)."""
MIN_FLAP_FRACTION = 0.06
"""A fold must move at least this fraction of the folded paper's area."""
MIN_FEATURE = 10.5
"""Legibility: every hole is at least this wide, every bridge of paper between two holes or between a hole and
the edge at least this wide, and every notch opens at least this wide (sheet units). At the smallest size a
pattern is drawn (a 128 px panel showing 432 units) this is :data:`MIN_FEATURE_PX` pixels; in a 168 px option
picture it is 4 px."""
MIN_FEATURE_PX = 3
""":data:`MIN_FEATURE` in pixels of the smallest pattern picture."""
CUTOUT_GAP = 4.0
"""Cutouts of one puzzle keep at least this distance from each other."""


def union(pieces: Sequence[BaseGeometry]) -> BaseGeometry:
    """The union of regions on the :data:`UNION_GRID` (an empty polygon for no pieces).

    >>> from shapely.geometry import box
    >>> union([box(0, 0, 1, 1), box(1, 0, 2, 1)]).area, union([]).is_empty
    (2.0, True)
    """
    return shapely.union_all(list(pieces), grid_size=UNION_GRID) if pieces else Polygon()


def difference_area(first: BaseGeometry, second: BaseGeometry) -> float:
    """The area of the symmetric difference of two regions.

    >>> from shapely.geometry import Polygon
    >>> difference_area(Polygon(), Polygon())
    0.0
    """
    if first.is_empty and second.is_empty:
        return 0.0
    return float(first.symmetric_difference(second).area)


def same_region(first: BaseGeometry, second: BaseGeometry) -> bool:
    """Whether two regions are the same under :data:`SAME_AREA`.

    >>> from shapely.geometry import Polygon, box
    >>> same_region(Polygon(), box(0, 0, 0.1, 0.1))
    True
    """
    return difference_area(first, second) < SAME_AREA


def distinct_regions(first: BaseGeometry, second: BaseGeometry) -> bool:
    """Whether two regions differ visibly, by at least :data:`DISTINCT_AREA`.

    >>> from shapely.geometry import Polygon, box
    >>> distinct_regions(Polygon(), box(0, 0, 30, 30))
    True
    """
    if abs(first.area - second.area) >= DISTINCT_AREA:
        return True  # the symmetric difference is at least the difference of the areas
    return difference_area(first, second) >= DISTINCT_AREA
