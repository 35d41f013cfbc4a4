"""The crease agreement expected by chance: the shares a generated drawing earns when it is placed elsewhere on
the paper (see :mod:`foldbench.crease.score.crease_match`).

Each drawing is a set of sample points along its creases, each with the length it stands for and its crease's
letter. A drawing is moved by a shift and wrapped around the paper's edges (points taken modulo 1, so no crease
length is lost); "near a crease of the other" is read from a raster of the other drawing's sample points,
widened by the tolerance, so that many placements cost little. The raster's cells are half the tolerance wide,
so "near" is exact to about half a cell; the chance estimate needs no more.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["Drawing", "expected_shares", "placements"]


@dataclass(frozen=True)
class Drawing:
    """Sample points along a pattern's creases on the unit square, the length each stands for, their letters."""

    points: np.ndarray
    weights: np.ndarray
    letters: np.ndarray

    @property
    def length(self) -> float:
        """The drawing's crease length."""
        return float(self.weights.sum())


def placements(grids: tuple[int | None, int | None], count: int, seed: int) -> np.ndarray:
    """``count`` seeded shifts ``(dx, dy)`` other than none: along an axis with a grid of ``n`` steps a whole
    number of steps ``k / n``, along one without any amount in [0, 1)."""
    rng = np.random.default_rng(seed)
    shifts = np.empty((count, 2))
    for row in range(count):
        shift = np.zeros(2)
        while not shift.any():
            shift = np.array([rng.integers(grid) / grid if grid else rng.random() for grid in grids])
        shifts[row] = shift
    return shifts


def _cells(points: np.ndarray, shift: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray]:
    cells = np.floor(np.mod(points + shift, 1.0) * size).astype(np.int64) % size
    return cells[:, 0], cells[:, 1]


def _near(drawing: Drawing, size: int, radius: int) -> dict[int, np.ndarray]:
    """Per letter (and ``-1`` for any letter), the raster cells within ``radius`` cells of the drawing's points
    (wrapping around the edges)."""
    offsets = [(dx, dy) for dx in range(-radius, radius + 1) for dy in range(-radius, radius + 1)
               if dx * dx + dy * dy <= radius * radius]
    masks: dict[int, np.ndarray] = {}
    any_letter = np.zeros((size, size), dtype=bool)
    for letter in np.unique(drawing.letters):
        marked = np.zeros((size, size), dtype=bool)
        marked[_cells(drawing.points[drawing.letters == letter], np.zeros(2), size)] = True
        widened = np.zeros_like(marked)
        for dx, dy in offsets:
            widened |= np.roll(marked, (dx, dy), axis=(0, 1))
        masks[int(letter)] = widened
        any_letter |= widened
    masks[-1] = any_letter
    return masks


def _credited(drawing: Drawing, shift: np.ndarray, other: dict[int, np.ndarray], size: int,
              wrong_letter_credit: float) -> float:
    """The credited length of the drawing moved by ``shift`` against another drawing's raster."""
    cells = _cells(drawing.points, shift, size)
    credit = np.where(other[-1][cells], wrong_letter_credit, 0.0)
    for letter, mask in other.items():
        if letter >= 0:
            same = (drawing.letters == letter) & mask[cells]
            credit[same] = 1.0
    return float((credit * drawing.weights).sum())


def expected_shares(views: list[Drawing], reference: Drawing, shifts: np.ndarray, *, tolerance: float,
                    wrong_letter_credit: float) -> tuple[float, float]:
    """The mean (precision, recall) of the generated drawing moved by each shift, taking at each shift the best
    of its ``views`` (the ways the sheet can lie) by F1, as the observed agreement does."""
    size = int(round(2 / tolerance))
    radius = 2
    reference_near = _near(reference, size, radius)
    views_near = [_near(view, size, radius) for view in views]
    totals = np.zeros(2)
    for shift in shifts:
        best = (-1.0, 0.0, 0.0)
        for view, near in zip(views, views_near, strict=True):
            precision = _credited(view, shift, reference_near, size, wrong_letter_credit) / view.length
            recall = _credited(reference, -shift, near, size, wrong_letter_credit) / reference.length
            f1 = 0.0 if precision + recall <= 0 else 2 * precision * recall / (precision + recall)
            if f1 > best[0]:
                best = (f1, precision, recall)
        totals += best[1:]
    return float(min(1.0, totals[0] / len(shifts))), float(min(1.0, totals[1] / len(shifts)))
