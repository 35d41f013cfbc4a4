"""OrigamiSpace instances: a reference crease pattern with its compiled fold and the pictures a model sees.

Instances come from seeded random simple folds of a square (they always fold flat; difficulty is the number of
folding steps, after OrigamiSpace's Easy 3-9 / Medium 10-19 / Hard 20-30) or from a folder of crease-pattern
files.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from foldbench.crease import CompiledFold, CreasePattern, build_crease_pattern, random_simple_folds
from foldbench.crease.errors import CreasePatternError
from foldbench.crease.importers import read_crease_pattern
from foldbench.crease.summary import compile_with_summary

__all__ = ["PATTERN_SUFFIXES", "Instance", "difficulty_of", "folder_instance", "pattern_files", "png_bytes",
           "simple_fold_instance"]

PATTERN_SUFFIXES: tuple[str, ...] = (".fold", ".cp", ".opx", ".svg")
"""The crease-pattern files a folder knob picks up."""
REFERENCE_TIMEOUT: float = 10.0
"""Seconds the compiler may spend on one reference pattern."""


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
