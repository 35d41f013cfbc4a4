"""Fold sequences derived from OrigamiBench's 366 models, for one-step items on real crease patterns.

A model ships as its final crease pattern only, so a sequence has to be derived. The rule used here keeps
every step one action of the environment and every state checked by the compiler:

1. the model's *full lines*, straight creases of one letter running from edge to edge of the square (a fold
   of every layer along a line in the unfolded sheet), are taken one at a time, longest first, and a line
   becomes the next step when the creases so far plus that line fold flat;
2. the model's remaining creases are the last step (a collapse, like the bird base's), when there are at most
   :data:`~foldbench.crease.sheet_rules.MAX_CREASES_PER_ACTION` of them, so the step is one ``add_creases`` action;
3. the sequence counts when it has at least two steps (a one-step item needs a folded reference and the fold
   after it) and its final state, the model itself, folds flat.

:func:`derive_model_sequence` returns the sequence or the reason it could not be derived;
:func:`model_sequences` derives every model's (once per process) and :func:`model_coverage` counts them by
reason. Most models are not covered: their creases cross in many-crease vertices, so no proper subset of
them folds flat, and their collapse needs far more creases than one action.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from functools import cache

import numpy as np

from foldbench.crease.errors import CreasePatternError
from foldbench.crease.io.collection import CollectionEntry, paper_models
from foldbench.crease.io.importers import read_crease_pattern
from foldbench.crease.sequences import PAPER_SIZE, Crease, FoldSequence, FoldStep
from foldbench.crease.sheet_rules import MAX_CREASES_PER_ACTION

__all__ = ["ModelSequence", "derive_model_sequence", "model_coverage", "model_sequences", "model_stems"]

_ON_LINE = 1e-6
"""Distance (paper frame, side 10) within which a crease lies on a line."""
_EDGE = 1e-4
"""Distance (paper frame) within which a point lies on the square's edge."""


@dataclass(frozen=True)
class ModelSequence:
    """A model's derived sequence, or the reason there is none."""

    file: str
    sequence: FoldSequence | None
    reason: str
    """``covered``, or why the model has no sequence (one of a few fixed phrases)."""


def _creases(entry: CollectionEntry) -> list[Crease] | str:
    """The model's mountain and valley creases in the paper frame, or why they cannot be used."""
    try:
        pattern = read_crease_pattern(entry.path)
    except CreasePatternError:
        return "unreadable"
    coords = np.asarray(pattern.vertices_coords, float)
    low, high = coords.min(axis=0), coords.max(axis=0)
    if np.abs(low).max() > 1e-6 or np.abs(high - 1).max() > 1e-6:
        return "paper not a square"
    coords = coords * PAPER_SIZE
    return [Crease(tuple(coords[a]), tuple(coords[b]), letter)  # type: ignore[arg-type]
            for (a, b), letter in zip(pattern.edges_vertices.tolist(), pattern.edges_assignment, strict=True)
            if letter in "MV"]


def _on_edge(point: np.ndarray) -> bool:
    return bool(min(point[0], point[1], PAPER_SIZE - point[0], PAPER_SIZE - point[1]) < _EDGE)


def _full_lines(creases: list[Crease]) -> list[tuple[Crease, frozenset[int]]]:
    """The full lines of a pattern (one crease from edge to edge, and the indices of the creases on it)."""
    groups: dict[tuple[float, float, float], list[int]] = {}
    for index, crease in enumerate(creases):
        start, end = np.array(crease.p1), np.array(crease.p2)
        direction = (end - start) / float(np.hypot(*(end - start)))
        if direction[0] < -1e-9 or (abs(direction[0]) <= 1e-9 and direction[1] < 0):
            direction = -direction
        offset = float(start @ np.array([-direction[1], direction[0]]))
        key = (round(float(direction[0]), 6), round(float(direction[1]), 6), round(offset, 5))
        groups.setdefault(key, []).append(index)
    lines = []
    for (dx, dy, _), members in groups.items():
        if len({creases[i].assignment for i in members}) != 1:
            continue
        direction = np.array([dx, dy])
        ends = np.array([[creases[i].p1, creases[i].p2] for i in members])
        positions = np.sort(ends @ direction, axis=1)
        order = np.argsort(positions[:, 0])
        reach = positions[order[0], 1]
        for i in order[1:]:
            if positions[i, 0] > reach + _ON_LINE:
                break
            reach = max(reach, positions[i, 1])
        else:
            first = ends.reshape(-1, 2)[np.argmin(ends.reshape(-1, 2) @ direction)]
            last = ends.reshape(-1, 2)[np.argmax(ends.reshape(-1, 2) @ direction)]
            if _on_edge(first) and _on_edge(last):
                letter = creases[members[0]].assignment
                lines.append((Crease(tuple(first), tuple(last), letter), frozenset(members)))
    return sorted(lines, key=lambda line: (-math.dist(line[0].p1, line[0].p2), line[0].p1, line[0].p2))


def _folds_flat(creases: tuple[Crease, ...]) -> bool:
    sequence = FoldSequence("probe", "model", (FoldStep("probe", creases),))
    try:
        return sequence.compiled(1, limit=2).state_count > 0
    except CreasePatternError:
        return False


def derive_model_sequence(entry: CollectionEntry) -> ModelSequence:
    """The sequence of :mod:`this module's <foldbench.tasks.origamibench.model_sequences>` rule for one model."""

    creases = _creases(entry)
    if isinstance(creases, str):
        return ModelSequence(entry.file, None, creases)
    lines = _full_lines(creases)
    covered = frozenset().union(*(members for _, members in lines)) if lines else frozenset()
    if len(creases) - len(covered) > MAX_CREASES_PER_ACTION:
        return ModelSequence(entry.file, None, "collapse needs more creases than one action")
    steps: list[FoldStep] = []
    used: set[int] = set()
    for line, members in lines:
        state = tuple(c for step in steps for c in step.creases) + (line,)
        if _folds_flat(state):
            steps.append(FoldStep(f"fold along the full {'valley' if line.assignment == 'V' else 'mountain'} line",
                                  (line,)))
            used |= members
    rest = tuple(c for i, c in enumerate(creases) if i not in used)
    if len(rest) > MAX_CREASES_PER_ACTION:
        return ModelSequence(entry.file, None, "collapse needs more creases than one action")
    if rest:
        steps.append(FoldStep("collapse the remaining creases", rest))
    if len(steps) < 2:
        return ModelSequence(entry.file, None, "no line folds flat before the collapse")
    name = f"model-{entry.path.stem}"
    sequence = FoldSequence(name, "model", tuple(steps), f"derived from {entry.name or entry.file}")
    try:
        if sequence.compiled(len(steps), limit=2).state_count < 1:
            return ModelSequence(entry.file, None, "the model does not fold flat")
    except CreasePatternError:
        return ModelSequence(entry.file, None, "the model does not fold flat")
    return ModelSequence(entry.file, sequence, "covered")


def model_stems() -> tuple[str, ...]:
    """The shipped models' file names without ``.fold`` (sorted), as the ``models`` knob names them."""
    return tuple(entry.path.stem for entry in paper_models().entries)


@cache
def model_sequences(stems: tuple[str, ...] | None = None) -> tuple[ModelSequence, ...]:
    """The derivation of every shipped model (sorted by file name), or of those named by ``stems``; once per
    process."""
    chosen = None if stems is None else set(stems)
    return tuple(derive_model_sequence(entry) for entry in paper_models().entries
                 if chosen is None or entry.path.stem in chosen)


def model_coverage() -> dict[str, int]:
    """How many of the shipped models have a derived sequence (``covered``), and how many fail for each reason."""
    return dict(Counter(result.reason for result in model_sequences()))
