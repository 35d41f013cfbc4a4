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

from foldbench.crease.graph.local_checks import vertices_creases
from foldbench.crease.graph.pattern import CreasePattern
from foldbench.crease.precision.policy import DEFAULT_POLICY, PrecisionPolicy

__all__ = [
    "REGULARIZED_MISMATCH", "REGULARIZED_RESIDUAL", "KawasakiTopology", "Regularized", "kawasaki_system",
    "kawasaki_topology", "least_norm_steps",
    "regularize_kawasaki",
]

REGULARIZED_RESIDUAL: float = DEFAULT_POLICY.regularized_residual
"""The default policy's ``regularized_residual``: the Kawasaki error (radians) below which a regularised vertex
counts as exact."""

REGULARIZED_MISMATCH: float = DEFAULT_POLICY.regularized_mismatch
"""The default policy's ``regularized_mismatch``: a regularised pattern is used only when its folded vertices
agree to within this (paper size = 1)."""

DENSE_LIMIT: int = 250_000
"""Systems with at most this many matrix entries are solved densely (less fixed cost than the iterations)."""

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


KawasakiTopology = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]
"""What :func:`kawasaki_system` needs of the graph alone: each vertex's crease count, and per crease end its
row, its centre vertex and its other vertex (see :func:`kawasaki_topology`)."""


def kawasaki_topology(pattern: CreasePattern, vertices: list[int], creases: list[list[int]]) -> KawasakiTopology:
    """The part of :func:`kawasaki_system` that does not depend on the coordinates, made once for a series of
    systems of one pattern (Newton steps, trial moves)."""
    counts = np.array([len(creases[vertex]) for vertex in vertices], dtype=np.int64)
    if not len(vertices) or not counts.sum():
        empty = np.zeros(0, np.int64)
        return counts, empty, empty, empty
    row_of = np.repeat(np.arange(len(vertices)), counts)
    centre = np.repeat(np.asarray(vertices, dtype=np.int64), counts)
    edges = np.concatenate([np.asarray(creases[vertex], dtype=np.int64) for vertex in vertices])
    ends = pattern.edges_vertices[edges]
    others = np.where(ends[:, 0] == centre, ends[:, 1], ends[:, 0])
    return counts, row_of, centre, others


def kawasaki_system(
    pattern: CreasePattern, coords: np.ndarray, vertices: list[int], creases: list[list[int]],
    topology: KawasakiTopology | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Kawasaki residuals (alternating sector sums, radians) at ``vertices`` and their sparse Jacobian with
    respect to the flattened coordinates, as ``(residuals, rows, columns, values)``. ``topology`` is
    :func:`kawasaki_topology` of the same pattern, vertices and creases, when the caller has it."""
    residuals = np.zeros(len(vertices))
    counts, row_of, centre, others = topology or kawasaki_topology(pattern, vertices, creases)
    if not len(vertices) or not counts.sum():
        return residuals, np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0)
    offsets = coords[others] - coords[centre]
    angles = np.arctan2(offsets[:, 1], offsets[:, 0])
    order = np.lexsort((angles, row_of))  # by vertex, then counter-clockwise
    row_of, centre, others, offsets, angles = row_of[order], centre[order], others[order], offsets[order], angles[order]
    first = np.concatenate([[0], np.cumsum(counts)[:-1]])
    position = np.arange(len(angles)) - first[row_of]
    last = first + counts - 1
    # sector j runs from crease j to crease j + 1 (the last one wraps around to the first)
    following = np.where(position == counts[row_of] - 1, first[row_of], np.arange(len(angles)) + 1)
    sectors = angles[following] - angles + np.where(following == first[row_of], 2 * math.pi, 0.0)
    signs = np.where(position % 2 == 0, 1.0, -1.0)
    residuals = np.bincount(row_of, weights=signs * sectors, minlength=len(vertices))
    # crease j enters with -signs[j] + signs[j - 1] (sector j - 1 ends at it, sector j starts at it)
    previous = np.where(position == 0, last[row_of], np.arange(len(angles)) - 1)
    weights = signs[previous] - signs
    gradient = np.stack([-offsets[:, 1], offsets[:, 0]], axis=1) / np.einsum("ij,ij->i", offsets, offsets)[:, None]
    gradient *= weights[:, None]
    rows = np.concatenate([row_of, row_of, row_of, row_of])
    columns = np.concatenate([2 * others, 2 * centre, 2 * others + 1, 2 * centre + 1])
    values = np.concatenate([gradient[:, 0], -gradient[:, 0], gradient[:, 1], -gradient[:, 1]])
    return residuals, rows, columns, values


class _SparseRows:
    """A sparse matrix ``J`` (``rows``, ``columns``, ``values``) that multiplies blocks of vectors at once."""

    def __init__(self, rows: np.ndarray, columns: np.ndarray, values: np.ndarray, shape: tuple[int, int]) -> None:
        self.values, self.shape = values, shape
        self._by_row = self._grouping(rows)
        self._by_column = self._grouping(columns)
        self.rows, self.columns = rows, columns

    @staticmethod
    def _grouping(index: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        order = np.argsort(index, kind="stable")
        sorted_index = index[order]
        starts = np.flatnonzero(np.concatenate([[True], sorted_index[1:] != sorted_index[:-1]])) if len(index) else \
            np.zeros(0, np.int64)
        return order, starts, sorted_index[starts]

    def _sum(self, grouping: tuple[np.ndarray, np.ndarray, np.ndarray], terms: np.ndarray, size: int) -> np.ndarray:
        order, starts, targets = grouping
        out = np.zeros((size, terms.shape[1]))
        if len(starts):
            out[targets] = np.add.reduceat(terms[order], starts, axis=0)
        return out

    def times(self, block: np.ndarray) -> np.ndarray:
        """``J @ block`` for a ``(columns, k)`` block."""
        return self._sum(self._by_row, self.values[:, None] * block[self.columns], self.shape[0])

    def times_transpose(self, block: np.ndarray) -> np.ndarray:
        """``J.T @ block`` for a ``(rows, k)`` block."""
        return self._sum(self._by_column, self.values[:, None] * block[self.rows], self.shape[1])


def least_norm_steps(
    targets: np.ndarray, rows: np.ndarray, columns: np.ndarray, values: np.ndarray, size: int,
    policy: PrecisionPolicy = DEFAULT_POLICY,
) -> np.ndarray:
    """The smallest ``steps`` (``(size, k)``) with ``J @ steps = targets`` (``(count, k)``), one column per
    right-hand side (a dense least-norm solve for small systems, else conjugate gradients on ``J J^T``, all
    columns at once, to the policy's ``linear_solve_rounding``)."""
    targets = np.asarray(targets, dtype=float).reshape(len(targets), -1)
    if len(targets) * size <= DENSE_LIMIT:
        dense = np.zeros((len(targets), size))
        np.add.at(dense, (rows, columns), values)
        return np.linalg.lstsq(dense, targets, rcond=None)[0]
    matrix = _SparseRows(rows, columns, values, (len(targets), size))
    solution = np.zeros_like(targets)
    remainder = targets.copy()
    direction = remainder.copy()
    norm = np.einsum("ij,ij->j", remainder, remainder)
    goal = (policy.linear_solve_rounding * np.maximum(1.0, np.abs(targets).max(axis=0, initial=0.0))) ** 2
    for _ in range(10 * len(targets) + 100):
        active = norm > goal
        if not active.any():
            break
        product = matrix.times(matrix.times_transpose(direction))
        curvature = np.einsum("ij,ij->j", direction, product)
        active &= curvature > 0
        if not active.any():
            break
        alpha = np.where(active, norm / np.where(active, curvature, 1.0), 0.0)
        solution += alpha * direction
        remainder -= alpha * product
        new_norm = np.einsum("ij,ij->j", remainder, remainder)
        direction = remainder + np.where(active, new_norm / np.where(norm > 0, norm, 1.0), 0.0) * direction
        norm = np.where(active, new_norm, 0.0)
    return matrix.times_transpose(solution)


def regularize_kawasaki(pattern: CreasePattern) -> Regularized:
    """Move the interior vertices as little as possible so that every interior vertex with folded creases
    meets Kawasaki exactly (boundary vertices stay; exact means below the pattern's policy's
    ``regularized_residual``). The graph, assignments and faces are unchanged.

    >>> from foldbench.crease.graph.pattern import build_crease_pattern
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
    residual, policy = 0.0, pattern.policy
    topology = kawasaki_topology(pattern, vertices, creases)
    for _ in range(NEWTON_STEPS):
        residuals, rows, columns, values = kawasaki_system(pattern, coords, vertices, creases, topology)
        residual = float(np.abs(residuals).max()) if len(residuals) else 0.0
        if residual < policy.regularized_residual:
            break
        keep = ~fixed[columns]
        step = least_norm_steps(-residuals[:, None], rows[keep], columns[keep], values[keep], 2 * len(coords),
                                policy)[:, 0]
        coords += step.reshape(-1, 2)
    moved = float(np.hypot(*(coords - pattern.vertices_coords).T).max()) if len(coords) else 0.0
    return Regularized(replace(pattern, vertices_coords=coords), moved, residual, len(vertices))
