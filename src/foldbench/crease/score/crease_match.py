"""How much of a reference crease pattern a generated one draws: crease lines compared where they lie on the paper.

Both patterns are brought to the unit square (their paper's bounding box moved to the origin and scaled so the
longest side is 1). A generated crease earns full credit for the length that lies within
:data:`CREASE_TOLERANCE` of a reference crease of the same assignment, half credit where the nearby reference
crease has another assignment, and none elsewhere; the reference's creases are credited in the same way against
the generated ones. Precision is the credited share of the generated crease length, recall the credited share of
the reference's, and the agreement is their harmonic mean (F1). The comparison is the best over the ways the same
sheet can lie: turned by quarter turns (creases unchanged), or turned over (its mirror image with mountains and
valleys swapped); either folds the same model.

Shared crease length counts only beyond what chance gives. Patterns drawn on a grid share whole lines by
coincidence (two random pleated models on the same 1/64 grid share most of their pleat lines), so each share is
corrected like Cohen's kappa: ``(observed - expected) / (1 - expected)``, 0 when it is no better than chance. The
expected share is the mean share of the same generated drawing placed elsewhere on the paper: moved by
:data:`CHANCE_PLACEMENTS` seeded shifts, wrapped around the paper's edges so no crease length is lost, along each
axis by whole steps of the reference's grid (the coarsest ``1/n``, ``n`` up to :data:`MAX_GRID`, on which all the
reference's inner crease ends lie) or by any amount where it has none. An answer keeps full credit only for
creases at their right places; a drawing of the right family at the wrong places scores near 0.

A pattern with no crease agrees with nothing (0). The comparison needs no compiling, so a near miss that no
longer folds is still compared on what it draws.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import shapely

from foldbench.crease.graph.pattern import CreasePattern
from foldbench.crease.score._crease_chance import Drawing, expected_shares, placements

__all__ = ["CHANCE_PLACEMENTS", "CREASE_TOLERANCE", "CreaseAgreement", "chance_corrected", "crease_agreement",
           "crease_lines", "paper_grid"]

CREASE_TOLERANCE: float = 0.005
"""Crease lines closer than this (in units of the paper's side) lie at the same place: about 2.5 pixels of the
512-pixel pictures the tasks show, so an answer read off the pictures as precisely as they allow matches."""
WRONG_ASSIGNMENT_CREDIT: float = 0.5
"""The credit of crease length at the right place with another assignment."""
_SYMMETRIES = [np.array(m, float) for m in (
    [[1, 0], [0, 1]], [[0, -1], [1, 0]], [[-1, 0], [0, -1]], [[0, 1], [-1, 0]],
    [[1, 0], [0, -1]], [[-1, 0], [0, 1]], [[0, 1], [1, 0]], [[0, -1], [-1, 0]])]
_SWAP = str.maketrans("MV", "VM")


CHANCE_PLACEMENTS: int = 32
"""How many other placements of the generated drawing estimate the share expected by chance."""
CHANCE_SEED: int = 0x5EED
"""The seed of those placements (fixed, so a score never changes between runs)."""
MAX_GRID: int = 256
"""The finest grid looked for in a reference: steps of ``1/MAX_GRID`` of the side."""
GRID_SNAP: float = 1e-5
"""A coordinate this close to a grid line lies on it (the rounding of files written with few decimals)."""
_EDGE = 1e-9


@dataclass(frozen=True)
class CreaseAgreement:
    """Credited shares of the generated (precision) and reference (recall) crease length beyond chance, their
    F1, and the raw shares before the chance correction."""

    precision: float
    recall: float
    raw_precision: float | None = None
    raw_recall: float | None = None

    @property
    def f1(self) -> float:
        """The harmonic mean of precision and recall (0 when both are 0)."""
        total = self.precision + self.recall
        return 0.0 if total <= 0 else 2 * self.precision * self.recall / total


def chance_corrected(observed: float, expected: float) -> float:
    """``(observed - expected) / (1 - expected)``, at least 0; a full share stays full.

    >>> chance_corrected(1.0, 1.0), chance_corrected(0.6, 0.6), chance_corrected(0.75, 0.5), chance_corrected(0.3, 0.6)
    (1.0, 0.0, 0.5, 0.0)
    """
    if observed >= 1.0:
        return 1.0
    if observed <= expected:
        return 0.0
    return (observed - expected) / (1.0 - expected)


def paper_grid(values: np.ndarray) -> int | None:
    """The smallest ``n <= MAX_GRID`` such that the values lie on one lattice ``x0 + k/n``, or None (fewer than
    two different values, or none fits).

    >>> paper_grid(np.array([3 / 64, 7 / 64, 31 / 64])), paper_grid(np.array([0.3]))
    (16, None)
    >>> print(paper_grid(np.array([0.1, 0.1 + 2 ** 0.5 / 10, 0.1 + 3 ** 0.5 / 10])))
    None
    """
    values = np.asarray(values, float)
    if len(values) < 2 or float(np.ptp(values)) <= GRID_SNAP:
        return None
    offsets = values - values[0]
    for n in range(1, MAX_GRID + 1):
        scaled = offsets * n
        if float(np.abs(scaled - np.round(scaled)).max()) <= GRID_SNAP * n:
            return n
    return None


def crease_lines(pattern: CreasePattern) -> tuple[np.ndarray, str]:
    """The crease segments ``(n, 2, 2)`` on the unit square (boundary edges left out) and their letters."""
    coords = np.asarray(pattern.vertices_coords, float)
    low, high = coords.min(axis=0), coords.max(axis=0)
    span = float((high - low).max()) or 1.0
    keep = [index for index, letter in enumerate(pattern.edges_assignment) if letter != "B"]
    edges = np.asarray(pattern.edges_vertices, dtype=np.int64).reshape(-1, 2)[keep]
    letters = "".join(pattern.edges_assignment[index] for index in keep)
    return (coords[edges] - low) / span, letters


SAMPLE_STEP: float = CREASE_TOLERANCE / 2
"""Crease length is measured at sample points this far apart (each standing for its share of the length)."""


def _samples(lines: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Points along the lines (the middles of equal pieces at most :data:`SAMPLE_STEP` long), the length each
    stands for, and the line it lies on."""
    lengths = np.hypot(*(lines[:, 1] - lines[:, 0]).T)
    pieces = np.maximum(1, np.ceil(lengths / SAMPLE_STEP).astype(np.int64))
    owner = np.repeat(np.arange(len(lines)), pieces)
    starts = np.cumsum(pieces) - pieces
    fraction = (np.arange(int(pieces.sum())) - starts[owner] + 0.5) / pieces[owner]
    points = lines[owner, 0] + fraction[:, None] * (lines[owner, 1] - lines[owner, 0])
    return points, (lengths / pieces)[owner], owner


def _credited(lines: np.ndarray, letters: str, other: np.ndarray, other_letters: str, tolerance: float) -> float:
    """The credited length of ``lines`` against ``other`` (full for the same letter, partial for another)."""
    if len(lines) == 0 or len(other) == 0:
        return 0.0
    points, weights, owner = _samples(lines)
    tree = shapely.STRtree(np.asarray(shapely.linestrings(other), dtype=object).reshape(-1))
    found_point, found_line = tree.query(shapely.points(points), predicate="dwithin", distance=tolerance)
    mine = np.frombuffer(letters.encode(), dtype=np.uint8)
    theirs = np.frombuffer(other_letters.encode(), dtype=np.uint8)
    near_any = np.zeros(len(points), dtype=bool)
    near_any[found_point] = True
    near_same = np.zeros(len(points), dtype=bool)
    near_same[found_point[mine[owner[found_point]] == theirs[found_line]]] = True
    credit = np.where(near_same, 1.0, np.where(near_any, WRONG_ASSIGNMENT_CREDIT, 0.0))
    return float((credit * weights).sum())


def _lengths(lines: np.ndarray) -> float:
    return float(np.hypot(*(lines[:, 1] - lines[:, 0]).T).sum()) if len(lines) else 0.0


SHARE_ROUNDING: float = 1e-12
"""A share this close to 1 is full: the credited length and the whole length are sums of the same pieces in another
order, which can differ in the last bits (a reference read back from its FOLD text scored 0.9999999999999998)."""


def _share(credited: float, length: float) -> float:
    share = credited / length
    return 1.0 if share >= 1.0 - SHARE_ROUNDING else share


def _shares(gen: tuple[np.ndarray, str], ref: tuple[np.ndarray, str], tolerance: float) -> tuple[float, float]:
    """The raw credited shares (precision, recall) of the generated lines against the reference's."""
    gen_length, ref_length = _lengths(gen[0]), _lengths(ref[0])
    if gen_length <= 0 or ref_length <= 0:
        return 0.0, 0.0
    return _share(_credited(*gen, *ref, tolerance), gen_length), _share(_credited(*ref, *gen, tolerance), ref_length)


def _drawing(lines: np.ndarray, letters: str) -> Drawing:
    points, weights, owner = _samples(lines)
    return Drawing(points, weights, np.frombuffer(letters.encode(), dtype=np.uint8)[owner])


def _grids(lines: np.ndarray) -> tuple[int | None, int | None]:
    """The reference's grid along each axis, read from its crease ends off the paper's edge."""
    points = lines.reshape(-1, 2)
    inner = [points[:, axis][(points[:, axis] > _EDGE) & (points[:, axis] < 1 - _EDGE)] for axis in (0, 1)]
    return paper_grid(inner[0]), paper_grid(inner[1])


def crease_agreement(generated: CreasePattern, reference: CreasePattern,
                     tolerance: float = CREASE_TOLERANCE) -> CreaseAgreement:
    """The best agreement of the generated creases with the reference's over the sheet's quarter turns and its
    turning over, corrected for chance (see the module docstring).

    >>> from foldbench.crease import build_crease_pattern
    >>> border = np.array([[[0, 0], [1, 0]], [[1, 0], [1, 1]], [[1, 1], [0, 1]], [[0, 1], [0, 0]]], float)
    >>> book = build_crease_pattern(np.concatenate([border, [[[0.5, 0], [0.5, 1]]]]), "BBBBV")
    >>> round(crease_agreement(book, book).f1, 9), crease_agreement(build_crease_pattern(border, "BBBB"), book).f1
    (1.0, 0.0)
    """
    gen_lines, gen_letters = crease_lines(generated)
    reference_lines = crease_lines(reference)
    if len(gen_lines) == 0 or len(reference_lines[0]) == 0:
        return CreaseAgreement(0.0, 0.0)
    views: list[tuple[np.ndarray, str]] = []
    best = (-1.0, 0.0, 0.0)
    for turn in _SYMMETRIES:
        turned = (gen_lines - 0.5) @ turn.T + 0.5
        views.append((turned, gen_letters if np.linalg.det(turn) > 0 else gen_letters.translate(_SWAP)))
        precision, recall = _shares(views[-1], reference_lines, tolerance)
        f1 = 0.0 if precision + recall <= 0 else 2 * precision * recall / (precision + recall)
        if precision >= 1.0 and recall >= 1.0:  # full agreement: no other way the sheet lies can do better
            return CreaseAgreement(1.0, 1.0, precision, recall)
        if f1 > best[0]:
            best = (f1, precision, recall)
    _, precision, recall = best
    shifts = placements(_grids(reference_lines[0]), CHANCE_PLACEMENTS, seed=CHANCE_SEED)
    expected_precision, expected_recall = expected_shares(
        [_drawing(*view) for view in views], _drawing(*reference_lines), shifts, tolerance=tolerance,
        wrong_letter_credit=WRONG_ASSIGNMENT_CREDIT)
    return CreaseAgreement(chance_corrected(precision, expected_precision),
                           chance_corrected(recall, expected_recall), precision, recall)
