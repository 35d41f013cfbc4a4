"""How much of a reference crease pattern a generated one draws: crease lines compared where they lie on the paper.

Both patterns are brought to the unit square (their paper's bounding box moved to the origin and scaled so the
longest side is 1). A generated crease earns full credit for the length that lies within
:data:`CREASE_TOLERANCE` of a reference crease of the same assignment, half credit where the nearby reference
crease has another assignment, and none elsewhere; the reference's creases are credited in the same way against
the generated ones. Precision is the credited share of the generated crease length, recall the credited share of
the reference's, and the agreement is their harmonic mean (F1). The comparison is the best over the ways the same
sheet can lie: turned by quarter turns (creases unchanged), or turned over (its mirror image with mountains and
valleys swapped); either folds the same model.

A pattern with no crease agrees with nothing (0). The comparison needs no compiling, so a near miss that no
longer folds is still compared on what it draws.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import shapely

from foldbench.crease.pattern import CreasePattern

__all__ = ["CREASE_TOLERANCE", "CreaseAgreement", "crease_agreement", "crease_lines"]

CREASE_TOLERANCE: float = 0.005
"""Crease lines closer than this (in units of the paper's side) lie at the same place: about 2.5 pixels of the
512-pixel pictures the tasks show, so an answer read off the pictures as precisely as they allow matches."""
WRONG_ASSIGNMENT_CREDIT: float = 0.5
"""The credit of crease length at the right place with another assignment."""
_SYMMETRIES = [np.array(m, float) for m in (
    [[1, 0], [0, 1]], [[0, -1], [1, 0]], [[-1, 0], [0, -1]], [[0, 1], [-1, 0]],
    [[1, 0], [0, -1]], [[-1, 0], [0, 1]], [[0, 1], [1, 0]], [[0, -1], [-1, 0]])]
_SWAP = str.maketrans("MV", "VM")


@dataclass(frozen=True)
class CreaseAgreement:
    """Credited shares of the generated (precision) and reference (recall) crease length, and their F1."""

    precision: float
    recall: float

    @property
    def f1(self) -> float:
        """The harmonic mean of precision and recall (0 when both are 0)."""
        total = self.precision + self.recall
        return 0.0 if total <= 0 else 2 * self.precision * self.recall / total


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


def _agreement(gen: tuple[np.ndarray, str], ref: tuple[np.ndarray, str], tolerance: float) -> CreaseAgreement:
    gen_length = float(np.hypot(*(gen[0][:, 1] - gen[0][:, 0]).T).sum()) if len(gen[0]) else 0.0
    ref_length = float(np.hypot(*(ref[0][:, 1] - ref[0][:, 0]).T).sum()) if len(ref[0]) else 0.0
    if gen_length <= 0 or ref_length <= 0:
        return CreaseAgreement(0.0, 0.0)
    precision = _credited(*gen, *ref, tolerance) / gen_length
    recall = _credited(*ref, *gen, tolerance) / ref_length
    return CreaseAgreement(min(1.0, precision), min(1.0, recall))


def crease_agreement(generated: CreasePattern, reference: CreasePattern,
                     tolerance: float = CREASE_TOLERANCE) -> CreaseAgreement:
    """The best agreement of the generated creases with the reference's over the sheet's quarter turns and its
    turning over (see the module docstring)."""
    gen_lines, gen_letters = crease_lines(generated)
    reference_lines = crease_lines(reference)
    best = CreaseAgreement(0.0, 0.0)
    if len(gen_lines) == 0 or len(reference_lines[0]) == 0:
        return best
    for turn in _SYMMETRIES:
        turned = (gen_lines - 0.5) @ turn.T + 0.5
        letters = gen_letters if np.linalg.det(turn) > 0 else gen_letters.translate(_SWAP)
        found = _agreement((turned, letters), reference_lines, tolerance)
        if found.f1 > best.f1:
            best = found
        if best.f1 >= 1.0:
            break
    return best
