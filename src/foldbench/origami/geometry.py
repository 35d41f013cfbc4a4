"""Checking and snapping a proposed crease against the paper and the creases already made (paper frame 0..10).

Rules, in order, for each crease of an action:

1. Endpoints more than :data:`SNAP_DISTANCE` outside the square are refused; those within it are clamped.
2. An endpoint within :data:`SNAP_DISTANCE` of an existing vertex (a corner, a crease end or a crossing) moves
   onto it; otherwise, within :data:`SNAP_DISTANCE` of an existing crease or the boundary, it moves onto the
   nearest point of that segment.
3. A crease shorter than :data:`MIN_CREASE_LENGTH` after snapping is refused (degenerate).
4. A crease that runs along an existing crease or the boundary (parallel, within :data:`SNAP_DISTANCE`, sharing
   more than :data:`SNAP_DISTANCE` of length) is refused: it duplicates or overlaps it. A crease that continues an
   existing one along the same line without overlapping it is allowed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from foldbench.crease.sheet_rules import MIN_CREASE_LENGTH, SNAP_DISTANCE
from foldbench.origami.actions import PAPER_SIZE

__all__ = [
    "MIN_CREASE_LENGTH",
    "SNAP_DISTANCE",
    "GeometryRejection",
    "check_crease",
    "snap_point",
]

_PARALLEL_SINE = 1e-6


@dataclass(frozen=True, slots=True)
class GeometryRejection:
    """A crease refused before compilation: ``code`` names the rule, ``where`` locates it (paper frame)."""

    code: str
    message: str
    where: dict[str, Any] = field(default_factory=dict)


def snap_point(point: np.ndarray, vertices: np.ndarray, segments: np.ndarray) -> np.ndarray:
    """``point`` moved onto the nearest vertex within :data:`SNAP_DISTANCE`, else onto the nearest segment within
    it, else unchanged.

    >>> square = np.array([[[0, 0], [10, 0]], [[10, 0], [10, 10]], [[10, 10], [0, 10]], [[0, 10], [0, 0]]], float)
    >>> snap_point(np.array([0.01, 9.98]), square[:, 0], square).tolist()
    [0.0, 10.0]
    >>> snap_point(np.array([5.0, 0.03]), square[:, 0], square).tolist()
    [5.0, 0.0]
    >>> snap_point(np.array([5.0, 5.0]), np.zeros((0, 2)), np.zeros((0, 2, 2))).tolist()
    [5.0, 5.0]
    """
    if len(vertices):
        distances = np.hypot(*(vertices - point).T)
        nearest = int(distances.argmin())
        if distances[nearest] <= SNAP_DISTANCE:
            return vertices[nearest].astype(float).copy()
    segments = np.asarray(segments, float).reshape(-1, 2, 2)
    if len(segments) == 0:
        return np.asarray(point, dtype=float).copy()
    starts, directions = segments[:, 0], segments[:, 1] - segments[:, 0]
    lengths_squared = (directions**2).sum(axis=1)
    safe = np.where(lengths_squared > 0, lengths_squared, 1.0)
    t = np.clip(((point - starts) * directions).sum(axis=1) / safe, 0.0, 1.0)
    nearest = starts + t[:, None] * directions
    distances = np.hypot(*(nearest - point).T)
    best_index = int(distances.argmin())
    best = nearest[best_index] if distances[best_index] <= SNAP_DISTANCE else point
    return np.asarray(best, dtype=float).copy()


def _overlap(new: np.ndarray, old: np.ndarray) -> float:
    """Length shared by two segments lying along the same line within :data:`SNAP_DISTANCE` (0 otherwise)."""
    direction = new[1] - new[0]
    length = float(np.hypot(*direction))
    old_direction = old[1] - old[0]
    old_length = float(np.hypot(*old_direction))
    if length == 0.0 or old_length == 0.0:
        return 0.0
    unit = direction / length
    sine = abs(float(unit[0] * old_direction[1] - unit[1] * old_direction[0])) / old_length
    if sine > _PARALLEL_SINE:
        return 0.0
    offsets = old - new[0]
    normal_distance = np.abs(offsets[:, 0] * unit[1] - offsets[:, 1] * unit[0])
    if normal_distance.max() > SNAP_DISTANCE:
        return 0.0
    along = np.sort(offsets @ unit)
    return max(0.0, min(length, float(along[1])) - max(0.0, float(along[0])))


def check_crease(
    p1: tuple[float, float], p2: tuple[float, float], vertices: np.ndarray, segments: np.ndarray
) -> tuple[np.ndarray, np.ndarray] | GeometryRejection:
    """The crease's snapped endpoints, or why it is refused (see the module docstring for the rules).

    Args:
        p1, p2: the endpoints as given (paper frame).
        vertices: ``(n, 2)`` existing vertices.
        segments: ``(k, 2, 2)`` existing creases and boundary edges.
    """
    points = []
    for name, raw in (("p1", p1), ("p2", p2)):
        point = np.asarray(raw, dtype=float)
        if not np.isfinite(point).all():
            return GeometryRejection("E_ACTION_NOT_FINITE", f"{name} is not a finite point", {"point": name})
        if (point < -SNAP_DISTANCE).any() or (point > PAPER_SIZE + SNAP_DISTANCE).any():
            return GeometryRejection(
                "E_ACTION_OUTSIDE_PAPER",
                f"{name} = ({point[0]:g}, {point[1]:g}) lies outside the paper (0..{PAPER_SIZE:g} on both axes)",
                {"point": name, "coordinates": point.tolist()},
            )
        points.append(snap_point(np.clip(point, 0.0, PAPER_SIZE), vertices, segments))
    start, end = points
    length = float(np.hypot(*(end - start)))
    if length < MIN_CREASE_LENGTH:
        return GeometryRejection(
            "E_ACTION_DEGENERATE",
            f"the crease is {length:.3g} long after snapping (at least {MIN_CREASE_LENGTH:g} needed)",
            {"p1": start.tolist(), "p2": end.tolist()},
        )
    candidate = np.array([start, end])
    for index, old in enumerate(segments):
        shared = _overlap(candidate, old)
        if shared > SNAP_DISTANCE:
            return GeometryRejection(
                "E_ACTION_OVERLAPS_CREASE",
                f"the crease runs along an existing segment from ({old[0][0]:g}, {old[0][1]:g}) to "
                f"({old[1][0]:g}, {old[1][1]:g}) over {shared:.3g}",
                {"segment": index, "segment_coordinates": old.tolist(), "shared_length": shared},
            )
    return start, end
