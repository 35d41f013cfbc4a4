"""Crease patterns the tests build themselves."""

from __future__ import annotations

import math

import numpy as np

from foldbench.crease.pattern import CreasePattern, build_crease_pattern

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
