"""Crease patterns made by simple folds of a square: fold every layer along a line, valley side up.

Such patterns always fold flat (the folding sequence itself is a witness), so they are the project's test
oracle for the compiler: grid-aligned folds exercise exact coincidences, free-angle folds exercise the
tolerance policy, and folds through existing vertices create straight degree-2 vertices.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["SimpleFoldPattern", "random_simple_folds", "simple_fold_pattern"]


@dataclass(frozen=True)
class SimpleFoldPattern:
    """Segments and assignments of a crease pattern made by simple folds of the unit square.

    Attributes:
        segments: ``(k, 2, 2)`` crease and boundary segments (creases may be cut into pieces).
        assignments: FOLD letter of each segment.
        fold_lines: the fold lines used, each ``(point, direction)`` in folded coordinates.
    """

    segments: np.ndarray
    assignments: tuple[str, ...]
    fold_lines: tuple[tuple[tuple[float, float], tuple[float, float]], ...]


_SQUARE = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])


def _side(points: np.ndarray, point: np.ndarray, direction: np.ndarray) -> np.ndarray:
    offset = points - point
    return direction[0] * offset[:, 1] - direction[1] * offset[:, 0]


def _clip(polygon: np.ndarray, values: np.ndarray, keep_positive: bool) -> np.ndarray:
    """The part of a convex polygon where ``values`` (signed distances at the corners) has the given sign."""
    sign = 1.0 if keep_positive else -1.0
    kept = []
    count = len(polygon)
    for i in range(count):
        a, b = polygon[i], polygon[(i + 1) % count]
        va, vb = sign * values[i], sign * values[(i + 1) % count]
        if va >= 0:
            kept.append(a)
        if (va > 0 > vb) or (va < 0 < vb):
            kept.append(a + (b - a) * (va / (va - vb)))
    return np.array(kept).reshape(-1, 2)


Face = tuple[np.ndarray, np.ndarray, np.ndarray]
"""A piece of the paper: its polygon on the square, and the isometry ``x -> matrix @ x + shift`` that places it."""
_START: tuple[Face, ...] = ((_SQUARE.copy(), np.eye(2), np.zeros(2)),)
for _array in _START[0]:
    _array.flags.writeable = False  # shared by every folding; each fold makes new arrays


def _fold_once(faces: tuple[Face, ...], raw_point: tuple[float, float], raw_direction: tuple[float, float],
               tolerance: float) -> tuple[tuple[Face, ...], list[tuple[np.ndarray, str]], tuple[tuple[float, float],
                                                                                             tuple[float, float]]]:
    """One simple fold of the folded ``faces``: the faces after it, the creases it adds and the line as used."""
    point = np.asarray(raw_point, dtype=float)
    direction = np.asarray(raw_direction, dtype=float)
    direction = direction / np.hypot(*direction)
    reflect = 2 * np.outer(direction, direction) - np.eye(2)
    reflect_shift = point - reflect @ point
    new_faces: list[Face] = []
    creases: list[tuple[np.ndarray, str]] = []
    for polygon, matrix, shift in faces:
        folded = polygon @ matrix.T + shift
        values = _side(folded, point, direction)
        values[np.abs(values) < tolerance] = 0.0
        flipped = np.linalg.det(matrix) < 0
        moving_matrix, moving_shift = reflect @ matrix, reflect @ shift + reflect_shift
        if (values <= 0).all():
            new_faces.append((polygon, matrix, shift))
            continue
        if (values >= 0).all():
            new_faces.append((polygon, moving_matrix, moving_shift))
            continue
        moving = _clip(polygon, values, True)
        staying = _clip(polygon, values, False)
        new_faces.append((staying, matrix, shift))
        new_faces.append((moving, moving_matrix, moving_shift))
        on_line = [p for p, v in zip(moving, _side(moving @ matrix.T + shift, point, direction), strict=False)
                   if abs(v) < 1e-7]
        if len(on_line) >= 2:
            ends = np.array(on_line)
            along = ends @ (np.linalg.inv(matrix) @ direction)
            creases.append((np.array([ends[along.argmin()], ends[along.argmax()]]), "M" if flipped else "V"))
    return tuple(new_faces), creases, (tuple(point.tolist()), tuple(direction.tolist()))


def _pattern(creases: list[tuple[np.ndarray, str]], used: list[tuple[tuple[float, float], tuple[float, float]]]
             ) -> SimpleFoldPattern:
    boundary = [np.array([_SQUARE[i], _SQUARE[(i + 1) % 4]]) for i in range(4)]
    segments = np.array(boundary + [segment for segment, _ in creases]).reshape(-1, 2, 2)
    assignments = tuple(["B"] * 4 + [letter for _, letter in creases])
    return SimpleFoldPattern(segments, assignments, tuple(used))


def simple_fold_pattern(
    fold_lines: list[tuple[tuple[float, float], tuple[float, float]]], tolerance: float = 1e-9
) -> SimpleFoldPattern:
    """Fold the unit square along each line in turn (left side of the direction folds up as a valley).

    >>> pattern = simple_fold_pattern([((0.5, 0.0), (0.0, 1.0))])
    >>> sorted(pattern.assignments)
    ['B', 'B', 'B', 'B', 'V']
    >>> len(simple_fold_pattern([]).segments)
    4
    """
    faces = _START
    creases: list[tuple[np.ndarray, str]] = []
    used: list[tuple[tuple[float, float], tuple[float, float]]] = []
    for raw_point, raw_direction in fold_lines:
        faces, added, line = _fold_once(faces, raw_point, raw_direction, tolerance)
        creases += added
        used.append(line)
    return _pattern(creases, used)


def random_simple_folds(
    rng: np.random.Generator, fold_count: int, *, grid: int | None = None, max_tries: int = 200
) -> SimpleFoldPattern:
    """A pattern from ``fold_count`` random simple folds, each cutting the current folded shape in two.

    Args:
        rng: the random generator.
        fold_count: number of folds.
        grid: if given, fold lines are horizontal, vertical or diagonal through multiples of ``1 / grid``;
            otherwise lines have a free angle and position.
        max_tries: attempts per fold to find a line that cuts the folded shape.

    Each candidate line is folded on the state the kept lines reached (the same arithmetic, in the same order, as
    folding the square along all of them again).

    >>> len(random_simple_folds(np.random.default_rng(0), 0).assignments)
    4
    """
    lines: list[tuple[tuple[float, float], tuple[float, float]]] = []
    faces = _START
    creases: list[tuple[np.ndarray, str]] = []
    used: list[tuple[tuple[float, float], tuple[float, float]]] = []
    for _ in range(fold_count):
        folded_edges: list[tuple[np.ndarray, np.ndarray]] | None = None  # the folded state's, once per fold
        for _attempt in range(max_tries):
            if grid is None:
                point = rng.uniform(0.2, 0.8, size=2)
                angle = rng.uniform(0, 2 * np.pi)
                direction = np.array([np.cos(angle), np.sin(angle)])
            else:
                point = rng.integers(1, grid, size=2) / grid
                direction = np.array([[1, 0], [0, 1], [1, 1], [1, -1], [-1, 0], [0, -1]][rng.integers(6)], float)
            candidate = (tuple(point.tolist()), tuple(direction.tolist()))
            trial_faces, added, line = _fold_once(faces, *candidate, 1e-9)
            if not added:  # the line cuts no crease into the paper
                continue
            if folded_edges is None:
                folded_edges = _folded_segments(lines)
            if not _runs_along(folded_edges, candidate):
                lines.append(candidate)
                faces, creases, used = trial_faces, creases + added, [*used, line]
                break
    return _pattern(creases, used)


def _runs_along(folded_edges: list[tuple[np.ndarray, np.ndarray]], candidate: tuple) -> bool:
    """True when the new fold line runs along an earlier crease in the folded state (not a simple fold)."""
    point, direction = np.asarray(candidate[0]), np.asarray(candidate[1])
    direction = direction / np.hypot(*direction)
    for start, end in folded_edges:
        if abs(float(_side(np.array([start, end]), point, direction)[0])) < 1e-7 and abs(
            float(_side(np.array([start, end]), point, direction)[1])
        ) < 1e-7 and np.hypot(*(end - start)) > 1e-7:
            return True
    return False


def _folded_segments(lines: list) -> list[tuple[np.ndarray, np.ndarray]]:
    """Creases and boundary of the folded state after ``lines`` (folded coordinates)."""
    faces: list[Face] = list(_START)
    for raw_point, raw_direction in lines:
        point = np.asarray(raw_point, dtype=float)
        direction = np.asarray(raw_direction, dtype=float) / np.hypot(*raw_direction)
        reflect = 2 * np.outer(direction, direction) - np.eye(2)
        reflect_shift = point - reflect @ point
        updated = []
        for polygon, matrix, shift in faces:
            values = _side(polygon @ matrix.T + shift, point, direction)
            values[np.abs(values) < 1e-9] = 0.0
            moving = (reflect @ matrix, reflect @ shift + reflect_shift)
            if (values <= 0).all():
                updated.append((polygon, matrix, shift))
            elif (values >= 0).all():
                updated.append((polygon, *moving))
            else:
                updated.append((_clip(polygon, values, False), matrix, shift))
                updated.append((_clip(polygon, values, True), *moving))
        faces = updated
    segments = []
    for polygon, matrix, shift in faces:
        folded = polygon @ matrix.T + shift
        for i in range(len(folded)):
            segments.append((folded[i], folded[(i + 1) % len(folded)]))
    return segments
