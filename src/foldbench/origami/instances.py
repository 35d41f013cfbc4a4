"""OrigamiSpace instances: a reference crease pattern with its compiled fold and the pictures a model sees.

Instances come from seeded random simple folds of a square (they always fold flat; difficulty is the number of
folding steps, after OrigamiSpace's Easy 3-9 / Medium 10-19 / Hard 20-30) or from a folder of crease-pattern
files. Folding every layer doubles the faces, so simple folds of all layers stop at about ten steps; the medium
and hard instances (:func:`pleat_instance`) are pleated models, whose faces grow by two per step.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from foldbench.crease import CompiledFold, CreasePattern, build_crease_pattern, random_simple_folds
from foldbench.crease.errors import CreasePatternError
from foldbench.crease.io.importers import read_crease_pattern
from foldbench.crease.summary import compile_with_summary

__all__ = ["DIFFICULTY_FOLDS", "PATTERN_SUFFIXES", "Instance", "difficulty_of", "folder_instance", "pattern_files",
           "pleat_instance", "png_bytes", "simple_fold_instance"]

PATTERN_SUFFIXES: tuple[str, ...] = (".fold", ".cp", ".opx", ".svg")
"""The crease-pattern files a folder knob picks up."""
REFERENCE_TIMEOUT: float = 10.0
"""Seconds the compiler may spend on one reference pattern."""
DIFFICULTY_FOLDS: dict[str, tuple[int, int]] = {"easy": (3, 9), "medium": (10, 19), "hard": (20, 30)}
"""OrigamiSpace's folding steps per difficulty (inclusive)."""


@dataclass(frozen=True)
class Instance:
    """A reference crease pattern that folds flat.

    Attributes:
        name: the model's name shown to the solver.
        pattern: the crease pattern.
        compiled: its compiled fold.
        fold_count: folding steps (None when the pattern comes from a file).
        source: where it came from (``simple-folds`` or the file name).
    """

    name: str
    pattern: CreasePattern
    compiled: CompiledFold
    fold_count: int | None
    source: str

    def fold_document(self) -> dict[str, Any]:
        """The reference as FOLD fields (what a perfect answer writes)."""
        fields = self.pattern.to_fold_fields()
        del fields["edges_foldAngle"]
        return fields


def difficulty_of(fold_count: int | None) -> str:
    """OrigamiSpace's difficulty by folding steps: easy (up to 9), medium (10-19), hard (20 and more).

    >>> difficulty_of(3), difficulty_of(12), difficulty_of(None)
    ('easy', 'medium', 'unknown')
    """
    if fold_count is None:
        return "unknown"
    return "easy" if fold_count <= 9 else "medium" if fold_count <= 19 else "hard"


def _compiled(pattern: CreasePattern, max_faces: int) -> CompiledFold | None:
    if pattern.face_count > max_faces:
        return None
    summary, compiled = compile_with_summary(pattern, timeout=REFERENCE_TIMEOUT)
    if compiled is None or summary["stopped"]:
        return None
    return compiled


def simple_fold_instance(rng: np.random.Generator, folds: int, max_faces: int, tries: int = 50) -> Instance:
    """A random simple-fold pattern of ``folds`` steps that compiles within ``max_faces`` faces.

    Raises:
        RuntimeError: no such pattern in ``tries`` draws.
    """
    for _ in range(tries):
        simple = random_simple_folds(rng, folds)
        pattern = build_crease_pattern(simple.segments, "".join(simple.assignments))
        compiled = _compiled(pattern, max_faces)
        if compiled is not None:
            steps = len(simple.fold_lines)
            return Instance(f"simple-fold model of {steps} steps", pattern, compiled, steps, "simple-folds")
    raise RuntimeError(f"no {folds}-step simple-fold pattern with at most {max_faces} faces in {tries} draws")


def pleat_instance(rng: np.random.Generator, folds: int, max_faces: int, tries: int = 20) -> Instance:
    """A pleated model of ``folds`` steps (2-32): ``folds - 1`` parallel pleat creases (alternately valley and
    mountain, on the 1/64 grid, at least 2/64 apart), then the pleated strip folded across them, which creases
    every layer (a zigzag of valleys and mountains). ``2 folds`` faces, one folded state; turned a random
    quarter turn.

    >>> instance = pleat_instance(np.random.default_rng(0), 12, 200)
    >>> instance.fold_count, instance.pattern.face_count
    (12, 24)

    Raises:
        RuntimeError: no such pattern compiles within ``max_faces`` faces in ``tries`` draws.
    """
    pleats = folds - 1
    for _ in range(tries):
        heights = (2 * np.sort(rng.choice(np.arange(1, 32), size=pleats, replace=False)) - rng.integers(0, 2)) / 64
        across = int(rng.integers(16, 49)) / 64
        first, up = ("V", "M") if rng.random() < 0.5 else ("M", "V"), ("V", "M") if rng.random() < 0.5 else ("M", "V")
        letters = [first[i % 2] for i in range(pleats)]
        bands = np.concatenate([[0.0], heights, [1.0]])
        segments = [np.array([[0.0, y], [1.0, y]]) for y in heights]
        # the fold across: one letter on the bands facing up (even), the other on the flipped ones
        segments += [np.array([[across, a], [across, b]]) for a, b in zip(bands[:-1], bands[1:], strict=True)]
        letters += [up[i % 2] for i in range(pleats + 1)]
        turns = int(rng.integers(4))
        rotation = np.array([[0.0, -1.0], [1.0, 0.0]])
        points = np.array(segments) - 0.5
        for _turn in range(turns):
            points = points @ rotation.T
        border = np.array([[[0, 0], [1, 0]], [[1, 0], [1, 1]], [[1, 1], [0, 1]], [[0, 1], [0, 0]]], float)
        pattern = build_crease_pattern(np.concatenate([border, points + 0.5]), "BBBB" + "".join(letters))
        compiled = _compiled(pattern, max_faces)
        if compiled is not None:
            return Instance(f"pleated model of {folds} steps", pattern, compiled, folds, "pleats")
    raise RuntimeError(f"no {folds}-step pleated pattern with at most {max_faces} faces in {tries} draws")


def pattern_files(folder: str | Path) -> list[Path]:
    """The crease-pattern files of a folder, sorted by name."""
    return sorted(p for p in Path(folder).iterdir() if p.suffix.lower() in PATTERN_SUFFIXES and p.is_file())


def folder_instance(path: Path, max_faces: int) -> Instance | None:
    """The instance of one crease-pattern file, or None when it does not compile within ``max_faces`` faces."""
    try:
        pattern = read_crease_pattern(path)
    except CreasePatternError:
        return None
    compiled = _compiled(pattern, max_faces)
    if compiled is None:
        return None
    return Instance(path.stem.replace("_", " "), pattern, compiled, None, path.name)


def png_bytes(image: Any) -> bytes:
    """A PIL image as PNG bytes."""
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()
