"""Fold families of the fold-and-cut puzzles and random fold sequences.

**Symmetric folds** (twelve types). A crease has one of four orientations — ``H`` (a horizontal line), ``V``
(vertical), ``D`` (the rising diagonal ``/``) and ``A`` (the falling diagonal ``\\``) — and one of three positions
across the current folded paper, measured along the crease's normal between the paper's extremes: the centre
(``c``), one third (``l``) or two thirds (``h``). Centre folds are made in both directions (``c+`` moves the side
the normal points to: up for ``H``, right for ``V``, lower right for ``D``, upper right for ``A``; ``c-`` the other
side); a third fold always moves the smaller, outer third (``l`` the low side, ``h`` the high side) over the rest.
A centre fold gives 2-layer symmetry, two centre folds 4 layers, a third fold followed by a centre fold the 3-layer
tri-fold. The sixteen codes are ``Hc+ Hc- Hl Hh Vc+ ... Ah``.

**Corner folds** (the "others" family, code ``K``): one to four corners of the paper's bounding box are folded in
at once, each along a crease through the two points at sampled distances from the corner on its two sides.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from typing import Literal

import numpy as np
from shapely import affinity
from shapely.geometry import Point, Polygon
from shapely.geometry.base import BaseGeometry

from foldbench.pfp.folding import (
    Crease,
    FoldState,
    apply_step,
    flat_state,
    half_plane,
    reflection,
    step_problem,
)
from foldbench.pfp.memo import FoldMemo
from foldbench.pfp.tolerance import MIN_FLAP_FRACTION, SAME_AREA

__all__ = [
    "ORIENTATIONS",
    "SYMMETRIC_CODES",
    "FoldFamily",
    "Step",
    "corner_crease",
    "describe_step",
    "replay",
    "resolve_code",
    "sample_corner_step",
    "sample_sequence",
    "sample_symmetric_step",
]

Step = tuple[Crease, ...]
FoldFamily = Literal["symmetric", "corner"]
ORIENTATIONS = ("H", "V", "D", "A")
_ROOT_HALF = math.sqrt(0.5)
_NORMALS = {"H": (0.0, 1.0), "V": (1.0, 0.0), "D": (_ROOT_HALF, -_ROOT_HALF), "A": (_ROOT_HALF, _ROOT_HALF)}
_POSITIONS = ("c+", "c-", "l", "h")
SYMMETRIC_CODES: tuple[str, ...] = tuple(o + p for o in ORIENTATIONS for p in _POSITIONS)
_ORIENTATION_NAMES = {"H": "horizontal", "V": "vertical", "D": "rising diagonal", "A": "falling diagonal"}


def resolve_code(outline: BaseGeometry, code: str) -> Crease:
    """The crease of a symmetric fold code on paper with outline ``outline``.

    >>> from shapely.geometry import box
    >>> resolve_code(box(0, 0, 6, 6), "Vl")
    Crease(point=(2.0, 0.0), normal=(-1.0, -0.0), code='Vl')
    """
    if code not in SYMMETRIC_CODES:
        raise ValueError(f"unknown fold code {code!r}; codes are {', '.join(SYMMETRIC_CODES)}")
    nx, ny = _NORMALS[code[0]]
    hull = outline if isinstance(outline, Polygon) else outline.convex_hull
    assert isinstance(hull, Polygon), f"the paper's outline is empty: {outline}"
    projections = [x * nx + y * ny for x, y, *_ in hull.exterior.coords]
    low, high = min(projections), max(projections)
    position = code[1:]
    fraction = {"c+": 0.5, "c-": 0.5, "l": 1 / 3, "h": 2 / 3}[position]
    distance = low + fraction * (high - low)
    point = (distance * nx, distance * ny)
    if position in ("c-", "l"):
        return Crease(point, (-nx, -ny), code)
    return Crease(point, (nx, ny), code)


def corner_crease(outline: BaseGeometry, corner: int, leg_x: float, leg_y: float) -> Crease:
    """The crease folding in corner ``corner`` (0 lower left, 1 lower right, 2 upper right, 3 upper left) of the
    outline's bounding box, through the points ``leg_x`` and ``leg_y`` (fractions of the box's width and height)
    away from the corner along its two sides.

    >>> from shapely.geometry import box
    >>> corner_crease(box(0, 0, 4, 4), 0, 0.5, 0.5).side(0.0, 0.0) > 0
    True
    """
    minx, miny, maxx, maxy = outline.bounds
    sx = 1.0 if corner in (0, 3) else -1.0
    sy = 1.0 if corner in (0, 1) else -1.0
    cx = minx if sx > 0 else maxx
    cy = miny if sy > 0 else maxy
    first = (cx + sx * leg_x * (maxx - minx), cy)
    second = (cx, cy + sy * leg_y * (maxy - miny))
    dx, dy = second[0] - first[0], second[1] - first[1]
    length = math.hypot(dx, dy)
    normal = (dy / length, -dx / length)
    if (cx - first[0]) * normal[0] + (cy - first[1]) * normal[1] < 0:
        normal = (-normal[0], -normal[1])
    return Crease(first, normal, f"K{corner}")


def sample_symmetric_step(
    rng: np.random.Generator,
    state: FoldState,
    *,
    exclude: str = "",
    memo: FoldMemo | None = None,
    key: Hashable = None,
) -> Step | None:
    """A random valid symmetric fold of ``state`` (other than ``exclude``), or None when none is valid.

    With ``memo``, each fold's verdict (:func:`~foldbench.pfp.folding.step_problem`) is looked up in and kept in
    it under ``key``, which must name ``state`` exactly (for example the sheet's name and the steps that made it).

    >>> from shapely.geometry import box
    >>> sample_symmetric_step(np.random.default_rng(0), flat_state(box(0, 0, 1, 1)), exclude="Hc+")[0].code != "Hc+"
    True
    """
    for index in rng.permutation(len(SYMMETRIC_CODES)):
        code = SYMMETRIC_CODES[int(index)]
        if code == exclude:
            continue
        step = (resolve_code(state.silhouette, code),)
        if memo is None:
            valid = step_problem(state, step) is None
        else:
            verdict = memo.get("step_problem", (key, step))
            if verdict is None:
                verdict = step_problem(state, step) or ""  # "" for a valid step: the memo's misses are None
                memo.put("step_problem", (key, step), verdict)
            valid = verdict == ""
        if valid:
            return step
    return None


def sample_corner_step(
    rng: np.random.Generator,
    state: FoldState,
    *,
    tries: int = 4,
    include: tuple[int, ...] = (),
    count: int | None = None,
    corners: tuple[int, ...] | None = None,
) -> Step | None:
    """One to four corner folds made at once (``count`` of them, or exactly at ``corners``, when given), valid on
    ``state``, or None when not even one fits (or, with ``count`` or ``corners``, when not all of them fit).

    Corners are added one at a time, each given ``tries`` chances to fit beside those already chosen. Legs are
    20-45 % of the box's sides at a corner that has paper, 40-65 % where the paper's outline is rounded off. With
    ``include``, the corners are drawn so that at least one of those is among them. Corner ``k`` is the ``k``-th
    corner of the bounding box counter-clockwise from the lower left; a crease's code is ``K`` and its corner.

    >>> from shapely.geometry import box
    >>> 1 <= len(sample_corner_step(np.random.default_rng(0), flat_state(box(0, 0, 360, 360)))) <= 4
    True
    """
    outline = state.silhouette
    minx, miny, maxx, maxy = outline.bounds
    box_corners = ((minx, miny), (maxx, miny), (maxx, maxy), (minx, maxy))
    if corners is not None:
        wanted: int | None = len(corners)
        chosen = list(corners)
    else:
        wanted = count
        count = int(rng.integers(1, 5)) if wanted is None else wanted
        chosen = [int(c) for c in rng.choice(4, size=count, replace=False)]
        if include and not set(chosen) & set(include):
            chosen[0] = include[int(rng.integers(len(include)))]
    accepted: list[Crease] = []
    flaps: list[BaseGeometry] = []
    landed: list[BaseGeometry] = []
    for corner in sorted(chosen):
        on_paper = outline.distance(Point(box_corners[corner])) < 1.0
        low, high = (0.2, 0.45) if on_paper else (0.4, 0.65)
        for _ in range(tries):
            crease = corner_crease(outline, corner, float(rng.uniform(low, high)), float(rng.uniform(low, high)))
            flap = outline.intersection(half_plane(crease))
            if flap.area < MIN_FLAP_FRACTION * outline.area:
                continue
            image = affinity.affine_transform(flap, reflection(crease))
            if image.difference(outline).area > SAME_AREA:
                continue
            if any(
                flap.intersection(f).area > SAME_AREA or image.intersection(g).area > SAME_AREA
                for f, g in zip(flaps, landed, strict=True)
            ):
                continue
            accepted.append(crease)
            flaps.append(flap)
            landed.append(image)
            break
        else:
            if wanted is not None:
                return None  # this corner does not fit: the step cannot have ``count`` corners
    if wanted is not None and len(accepted) != wanted:
        return None
    return tuple(accepted) if accepted else None


def sample_sequence(
    rng: np.random.Generator,
    sheet: Polygon,
    num_folds: int,
    family: FoldFamily,
    *,
    memo: FoldMemo | None = None,
    sheet_name: str | None = None,
) -> tuple[tuple[Step, ...], tuple[FoldState, ...]] | None:
    """A random valid fold sequence and its states (the flat sheet first), or None when a fold finds no room.

    ``family="corner"`` makes one step of corner folds (``num_folds`` must be 1). With ``memo`` and ``sheet_name``
    (the name of the base shape ``sheet`` is), the states of symmetric folds and the verdicts on them are looked up
    in and kept in ``memo`` (under the keys :func:`foldbench.pfp.puzzle.sheet_states` uses): the same random
    draws give the same sequence, with less folding.

    >>> from shapely.geometry import box
    >>> steps, states = sample_sequence(np.random.default_rng(0), box(0, 0, 1, 1), 0, "symmetric")
    >>> steps, len(states)
    ((), 1)
    """
    remember = memo is not None and sheet_name is not None and family == "symmetric"
    states = [flat_state(sheet)]
    steps: list[Step] = []
    for _ in range(num_folds):
        if family == "corner":
            step = sample_corner_step(rng, states[-1])
        elif remember:
            step = sample_symmetric_step(rng, states[-1], memo=memo, key=(sheet_name, tuple(steps)))
        else:
            step = sample_symmetric_step(rng, states[-1])
        if step is None:
            return None
        steps.append(step)
        known = memo.get("states", (sheet_name, tuple(steps))) if remember and memo is not None else None
        if known is not None:
            states = list(known)
            continue
        states.append(apply_step(states[-1], step))
        if remember and memo is not None:
            memo.put("states", (sheet_name, tuple(steps)), tuple(states))
    return tuple(steps), tuple(states)


def replay(sheet: Polygon, steps: Sequence[Step]) -> tuple[FoldState, ...]:
    """Every state of a fold sequence, the flat sheet first (steps are not re-checked).

    >>> from shapely.geometry import box
    >>> len(replay(box(0, 0, 1, 1), []))
    1
    """
    states = [flat_state(sheet)]
    for step in steps:
        states.append(apply_step(states[-1], step))
    return tuple(states)


def describe_step(step: Step) -> str:
    """A short human-readable description of a step, for metadata and reports.

    >>> describe_step((Crease((0.0, 0.0), (0.0, 1.0), "Hc+"),))
    'horizontal fold through the centre'
    """
    codes = [c.code for c in step]
    if codes and codes[0].startswith("K"):
        return f"{len(codes)} corner fold{'s' if len(codes) > 1 else ''}"
    code = codes[0]
    where = "through the centre" if code[1] == "c" else "at one third"
    return f"{_ORIENTATION_NAMES[code[0]]} fold {where}"
