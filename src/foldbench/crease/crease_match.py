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


def _credited(lines: np.ndarray, letters: str, other: np.ndarray, other_letters: str, tolerance: float) -> float:
    """The credited length of ``lines`` against ``other`` (full for the same letter, partial for another)."""
    if len(lines) == 0:
        return 0.0
    if len(other) == 0:
        return 0.0
    near_any = shapely.buffer(shapely.union_all(shapely.linestrings(other)), tolerance)
    credit = 0.0
    for letter in sorted(set(letters)):
        mine = shapely.union_all(shapely.linestrings(lines[[c == letter for c in letters]]))
        same = [c == letter for c in other_letters]
        near_same = shapely.buffer(shapely.union_all(shapely.linestrings(other[same])), tolerance) if any(same) \
            else shapely.Polygon()
        full = shapely.length(shapely.intersection(mine, near_same))
        nearby = shapely.length(shapely.intersection(mine, near_any))
        credit += float(full + WRONG_ASSIGNMENT_CREDIT * max(0.0, nearby - full))
    return credit


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
