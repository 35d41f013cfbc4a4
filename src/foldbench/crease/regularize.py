"""Regularise a noisy crease pattern: the nearest pattern on which every vertex meets Kawasaki exactly.

A pattern exported with rounded coordinates misses Kawasaki's theorem at its vertices by small angles; folded,
its vertices then land at points that disagree by far more than the rounding, and no folded tolerance may be
trusted (``E_PRECISION_TOLERANCE``). Moving the interior vertices by the least amount that makes every
alternating sector sum exactly 180 degrees removes the disagreement altogether: around every vertex the faces
close up, so on a sheet of paper every face lands at one place whichever way it is reached.

:func:`regularize_kawasaki` finds that movement by Gauss-Newton steps of least norm (boundary vertices stay
where they are); the compiler uses the result only when no vertex moves farther than the snap tolerance (the
distance at which the policy already calls two points the same), and says so in the summary.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from foldbench.crease.local_checks import vertices_creases
from foldbench.crease.pattern import CreasePattern

__all__ = ["REGULARIZED_RESIDUAL", "Regularized", "kawasaki_system", "regularize_kawasaki"]

REGULARIZED_RESIDUAL: float = 1e-12
"""The Kawasaki error (radians) below which a regularised vertex counts as exact."""

NEWTON_STEPS: int = 8
"""Gauss-Newton steps tried (two or three suffice for rounding noise)."""


@dataclass(frozen=True)
class Regularized:
    """A pattern whose interior vertices meet Kawasaki exactly, and how far they were moved.

    Attributes:
        pattern: the regularised pattern (same graph, moved coordinates).
        moved: the largest distance any vertex moved (paper size = 1).
        residual: the largest Kawasaki error left (radians).
        vertices: how many vertices the conditions constrain.
    """

    pattern: CreasePattern
    moved: float
    residual: float
    vertices: int


def kawasaki_system(
    pattern: CreasePattern, coords: np.ndarray, vertices: list[int], creases: list[list[int]]
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Kawasaki residuals (alternating sector sums, radians) at ``vertices`` and their sparse Jacobian with
    respect to the flattened coordinates, as ``(residuals, rows, columns, values)``."""
    edges_vertices = pattern.edges_vertices
    residuals = np.zeros(len(vertices))
    rows: list[np.ndarray] = []
    columns: list[np.ndarray] = []
    values: list[np.ndarray] = []
    for row, vertex in enumerate(vertices):
        edges = np.asarray(creases[vertex])
        ends = edges_vertices[edges]
        others = np.where(ends[:, 0] == vertex, ends[:, 1], ends[:, 0])
        offsets = coords[others] - coords[vertex]
        angles = np.arctan2(offsets[:, 1], offsets[:, 0])
        order = np.argsort(angles)
        angles, others, offsets = angles[order], others[order], offsets[order]
        sectors = np.diff(np.concatenate([angles, [angles[0] + 2 * math.pi]]))
        signs = (-1.0) ** np.arange(len(angles))
        residuals[row] = float(signs @ sectors)
        # sector j runs from crease j to crease j + 1: crease j enters with -signs[j] + signs[j - 1]
        weights = np.roll(signs, 1) - signs
        gradient = np.stack([-offsets[:, 1], offsets[:, 0]], axis=1) / np.einsum("ij,ij->i", offsets, offsets)[:, None]
        gradient *= weights[:, None]
        for axis in (0, 1):
            rows += [np.full(len(others), row), np.full(len(others), row)]
            columns += [2 * others + axis, np.full(len(others), 2 * vertex + axis)]
            values += [gradient[:, axis], -gradient[:, axis]]
    if not rows:
        return residuals, np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0)
    return residuals, np.concatenate(rows), np.concatenate(columns), np.concatenate(values)


def _least_norm_step(
    residuals: np.ndarray, rows: np.ndarray, columns: np.ndarray, values: np.ndarray, size: int
) -> np.ndarray:
    """The smallest ``step`` with ``J @ step = -residuals`` (conjugate gradients on ``J J^T``)."""
    count = len(residuals)

    def times_transpose(y: np.ndarray) -> np.ndarray:
        return np.bincount(columns, weights=values * y[rows], minlength=size)

    def times(x: np.ndarray) -> np.ndarray:
        return np.bincount(rows, weights=values * x[columns], minlength=count)

    target = -residuals
    solution = np.zeros(count)
    remainder = target.copy()
    direction = remainder.copy()
    norm = float(remainder @ remainder)
    for _ in range(10 * count + 100):
        if norm <= (1e-14 * max(1.0, float(np.abs(target).max()))) ** 2:
            break
        product = times(times_transpose(direction))
        curvature = float(direction @ product)
        if curvature <= 0:
            break
        alpha = norm / curvature
        solution += alpha * direction
        remainder -= alpha * product
        new_norm = float(remainder @ remainder)
        direction = remainder + (new_norm / norm) * direction
        norm = new_norm
    return times_transpose(solution)


def regularize_kawasaki(pattern: CreasePattern) -> Regularized:
    """Move the interior vertices as little as possible so that every interior vertex with folded creases
    meets Kawasaki exactly (boundary vertices stay). The graph, assignments and faces are unchanged.

    >>> from foldbench.crease.pattern import build_crease_pattern
    >>> centre = [0.5 + 1e-5, 0.5 + 2e-5]
    >>> segments = np.array([[[0, 0], [1, 0]], [[1, 0], [1, 1]], [[1, 1], [0, 1]], [[0, 1], [0, 0]],
    ...                      [[0, 0.5], centre], [centre, [1, 0.5]], [[0.5, 0], centre], [centre, [0.5, 1]]])
    >>> result = regularize_kawasaki(build_crease_pattern(segments, "BBBBMMVM"))
    >>> result.residual < 1e-12, 1e-6 < result.moved < 3e-5
    (True, True)
    """
    creases, on_boundary = vertices_creases(pattern)
    vertices = [v for v in range(pattern.vertex_count) if not on_boundary[v] and len(creases[v]) >= 2]
    coords = pattern.vertices_coords.astype(float).copy()
    fixed = np.zeros(2 * len(coords), dtype=bool)
    for vertex, boundary in enumerate(on_boundary):
        fixed[2 * vertex : 2 * vertex + 2] = boundary
    residual = 0.0
    for _ in range(NEWTON_STEPS):
        residuals, rows, columns, values = kawasaki_system(pattern, coords, vertices, creases)
        residual = float(np.abs(residuals).max()) if len(residuals) else 0.0
        if residual < REGULARIZED_RESIDUAL:
            break
        keep = ~fixed[columns]
        step = _least_norm_step(residuals, rows[keep], columns[keep], values[keep], 2 * len(coords))
        coords += step.reshape(-1, 2)
    moved = float(np.hypot(*(coords - pattern.vertices_coords).T).max()) if len(coords) else 0.0
    return Regularized(replace(pattern, vertices_coords=coords), moved, residual, len(vertices))
