"""Fixed-size numeric pictures of folded silhouettes, for policies that take vectors (MLPs, SB3's MlpPolicy).

A silhouette is cut by a ``cells`` x ``cells`` grid over a fixed window of the paper frame; each cell holds the
share of its :data:`SAMPLES` x :data:`SAMPLES` sample points (centres of equal sub-cells) inside the silhouette:
an estimate of the share of its area covered, at a small fraction of the cost of exact polygon overlaps. Aligned
folded forms keep the face near the bottom-left corner in place and fold the rest toward it, so the window,
:data:`COVERAGE_WINDOW`, is a square twice the paper's side with the paper in its top-right quarter (what falls
outside it is not counted).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from foldbench.origami.actions import PAPER_SIZE

__all__ = ["COVERAGE_WINDOW", "SAMPLES", "coverage_grid"]

COVERAGE_WINDOW: tuple[float, float, float] = (-PAPER_SIZE, -PAPER_SIZE, 2 * PAPER_SIZE)
"""``(left, bottom, side)`` of the window the grid covers, paper frame."""
SAMPLES: int = 4
"""Sample points per side of each cell."""


@lru_cache(maxsize=8)
def _sample_points(cells: int, window: tuple[float, float, float]) -> tuple[np.ndarray, np.ndarray]:
    """x and y of every sample point, ordered cell by cell (row-major from the bottom row)."""
    left, bottom, side = window
    fine = cells * SAMPLES
    centres = (np.arange(fine) + 0.5) * side / fine
    xs, ys = np.meshgrid(centres + left, centres + bottom)  # row 0 is the bottom row
    order = lambda grid: grid.reshape(cells, SAMPLES, cells, SAMPLES).transpose(0, 2, 1, 3).ravel()  # noqa: E731
    return order(xs), order(ys)


def coverage_grid(silhouette: BaseGeometry, cells: int = 16,
                  window: tuple[float, float, float] = COVERAGE_WINDOW) -> np.ndarray:
    """The share of each cell's sample points inside ``silhouette``, ``(cells, cells)`` float32 in [0, 1], row 0
    at the bottom.

    >>> coverage_grid(shapely.box(0, 0, 10, 10), cells=2).tolist()
    [[0.0, 0.0], [0.0, 1.0]]
    >>> coverage_grid(shapely.box(0, 0, 5, 10), cells=2)[1].tolist()
    [0.0, 0.5]
    >>> float(coverage_grid(shapely.Polygon(), cells=2).sum())
    0.0
    """
    if cells < 1:
        raise ValueError(f"cells must be at least 1, got {cells}")
    xs, ys = _sample_points(cells, window)
    if silhouette.is_empty:
        return np.zeros((cells, cells), np.float32)
    inside = shapely.contains_xy(silhouette, xs, ys)
    return inside.reshape(cells, cells, SAMPLES * SAMPLES).mean(axis=2).astype(np.float32)
