"""Random cutouts on folded paper, and how many cutouts a folded sheet can hold.

Counts follow the published distribution (1: 25 %, 2: 30 %, 3: 40 %, 4: 5 %), restricted to what the sheet can
hold; shapes are drawn without replacement; all cutouts of a puzzle share one size. A cutout is centred on a
corner of the folded outline (20 %), on the middle of one of its edges (30 %) or inside it (50 %).

**Capacity.** A folded sheet holds ``floor(A / 2**folds / FOOTPRINT)`` cutouts, where ``A`` is the sheet's area
(a corner-fold step counts as one fold) and ``FOOTPRINT = (1.5 * MIN_CUTOUT_SIZE)**2`` is the room one smallest
cutout needs with its clearance. With three folds the hexagon and the house hold 3, the other sheets 4.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from itertools import pairwise

import numpy as np
import shapely
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry

from foldbench.pfp.shapes import CUTOUT_SHAPES, Cutout, SheetShape, cutout_polygon, sheet_polygon
from foldbench.pfp.tolerance import CUTOUT_GAP
from foldbench.pfp.weighted import cumulative, weighted_index

MIN_INSIDE_FRACTION = 0.2
"""At least this fraction of every cutout must lie on the folded paper."""

__all__ = [
    "COUNT_PROBABILITIES",
    "MAX_CUTOUT_SIZE",
    "MIN_CUTOUT_SIZE",
    "PLACEMENT_PROBABILITIES",
    "capacity",
    "capacity_of",
    "count_distribution",
    "outline_corners",
    "sample_cutouts",
]

COUNT_PROBABILITIES = {1: 0.25, 2: 0.30, 3: 0.40, 4: 0.05}
PLACEMENT_PROBABILITIES = {"corner": 0.2, "edge": 0.3, "centre": 0.5}
_PLACEMENT_SUMS = cumulative([PLACEMENT_PROBABILITIES[k] for k in ("corner", "edge", "centre")])
MIN_CUTOUT_SIZE = 36.0
MAX_CUTOUT_SIZE = 72.0
_FOOTPRINT = (1.5 * MIN_CUTOUT_SIZE) ** 2
_CORNER_TURN = math.radians(20)


def capacity(sheet: SheetShape, folds: int) -> int:
    """How many cutouts the sheet holds after ``folds`` folds (see the module docstring).

    >>> capacity("hexagon", 3), capacity("square", 3)
    (3, 5)
    """
    return int(sheet_polygon(sheet).area / 2**folds // _FOOTPRINT)


def capacity_of(outline: BaseGeometry) -> int:
    """How many cutouts fit on a folded outline (its area over the footprint of one smallest cutout).

    >>> from shapely.geometry import box
    >>> capacity_of(box(0, 0, 54, 54))
    1
    """
    return int(outline.area // _FOOTPRINT)


def count_distribution(counts: tuple[int, ...], limit: int) -> tuple[tuple[int, ...], np.ndarray]:
    """The allowed counts (at most ``limit``) and their renormalised probabilities.

    >>> count_distribution((1, 2, 3, 4), 1)[0]
    (1,)
    """
    allowed = tuple(c for c in counts if c <= limit)
    weights = np.array([COUNT_PROBABILITIES[c] for c in allowed], dtype=float)
    return allowed, weights / weights.sum()


def outline_corners(outline: BaseGeometry) -> list[tuple[float, float]]:
    """The vertices of an outline where it turns by at least 20 degrees (its visible corners).

    >>> outline_corners(Polygon())
    []
    """
    if outline.is_empty or not isinstance(outline, Polygon):
        return []
    coords = list(outline.exterior.coords)[:-1]
    corners = []
    for k, (x, y) in enumerate(coords):
        px, py = coords[k - 1]
        nx, ny = coords[(k + 1) % len(coords)]
        a = math.atan2(y - py, x - px)
        b = math.atan2(ny - y, nx - x)
        turn = abs((b - a + math.pi) % (2 * math.pi) - math.pi)
        if turn >= _CORNER_TURN:
            corners.append((x, y))
    return corners


def _edge_midpoints(outline: BaseGeometry, minimum: float) -> list[tuple[float, float]]:
    simple = outline.simplify(0.5)
    if not isinstance(simple, Polygon):
        return []
    coords = list(simple.exterior.coords)
    return [
        ((x0 + x1) / 2, (y0 + y1) / 2)
        for (x0, y0), (x1, y1) in pairwise(coords)
        if math.hypot(x1 - x0, y1 - y0) >= minimum
    ]


def _inside_point(rng: np.random.Generator, outline: BaseGeometry) -> tuple[float, float] | None:
    minx, miny, maxx, maxy = outline.bounds
    for _ in range(20):
        x, y = float(rng.uniform(minx, maxx)), float(rng.uniform(miny, maxy))
        if shapely.contains_xy(outline, x, y):
            return x, y
    return None


def sample_cutouts(
    rng: np.random.Generator,
    outline: BaseGeometry,
    count: int,
    *,
    size: float | None = None,
    accept: Callable[[Polygon, tuple[Polygon, ...]], bool] | None = None,
) -> tuple[Cutout, ...] | None:
    """``count`` cutouts of distinct shapes on the folded ``outline``, or None when they do not fit.

    The size, unless given, is drawn in proportion to the outline's size and clamped to
    ``[MIN_CUTOUT_SIZE, MAX_CUTOUT_SIZE]``. ``accept``, when given, must also hold for each cutout's polygon and
    the polygons of the cutouts placed before it (a placement it refuses is drawn again, like one that lies off
    the paper).

    >>> from shapely.geometry import box
    >>> sample_cutouts(np.random.default_rng(0), box(0, 0, 100, 100), 0)
    ()
    """
    if size is None:
        size = float(np.clip(rng.uniform(0.24, 0.34) * math.sqrt(outline.area), MIN_CUTOUT_SIZE, MAX_CUTOUT_SIZE))
    shapes = [CUTOUT_SHAPES[int(i)] for i in rng.choice(len(CUTOUT_SHAPES), size=count, replace=False)]
    corners = outline_corners(outline)
    edges = _edge_midpoints(outline, size)
    placed: list[Cutout] = []
    polygons: list[Polygon] = []
    for shape in shapes:
        for _ in range(15):
            where = weighted_index(rng, _PLACEMENT_SUMS)
            if where == 0 and corners:
                center = corners[int(rng.integers(len(corners)))]
            elif where == 1 and edges:
                center = edges[int(rng.integers(len(edges)))]
            else:
                inside = _inside_point(rng, outline)
                if inside is None:
                    continue
                center = inside
            angle = float(rng.choice((0.0, 90.0))) if shape == "rectangle" else 0.0
            cutout = Cutout(shape, (round(center[0], 3), round(center[1], 3)), round(size, 3), angle)
            polygon = cutout_polygon(cutout)
            if polygon.intersection(outline).area < MIN_INSIDE_FRACTION * polygon.area:
                continue
            if any(polygon.distance(other) < CUTOUT_GAP for other in polygons):
                continue
            if accept is not None and not accept(polygon, tuple(polygons)):
                continue
            placed.append(cutout)
            polygons.append(polygon)
            break
        else:
            return None
    return tuple(placed)
