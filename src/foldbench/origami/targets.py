"""Targets of the synthesis environment: a crease pattern of the square to fold, optionally with the actions
that fold it from the blank square (one ``add_creases`` per fold step), its category and its tier.

Any object with ``name``, ``category``, ``final_pattern`` and ``actions()`` (a fold sequence) becomes a target
through :func:`target_from_sequence`; :func:`simple_fold_target` makes one from simple folds of the square.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from foldbench.crease.compiler import CompiledFold
from foldbench.crease.errors import CreasePatternError
from foldbench.crease.graph.pattern import CreasePattern, build_crease_pattern
from foldbench.crease.io.importers import read_crease_pattern
from foldbench.crease.simple_folds import random_simple_folds, simple_fold_pattern
from foldbench.crease.summary import compile_with_summary
from foldbench.errors import FoldbenchError
from foldbench.origami.actions import PAPER_SIZE
from foldbench.origami.folded import AlignedFold, align_fold
from foldbench.origami.geometry import MIN_CREASE_LENGTH

__all__ = [
    "FoldSequenceLike",
    "InvalidTargetError",
    "MATCH_CAP",
    "MATCH_FACTOR",
    "MATCH_FLOOR",
    "Target",
    "complexity_tier",
    "match_distance",
    "random_simple_fold_target",
    "simple_fold_target",
    "smallest_feature",
    "target_from_file",
    "target_from_sequence",
    "written_resolution",
]

FoldLine = tuple[tuple[float, float], tuple[float, float]]

MATCH_FLOOR: float = 1e-7
"""The least distance (paper frame, side 10) by which two folded outlines may differ and still match: floating
point noise of folding an exactly given target."""
MATCH_FACTOR: float = 1000.0
"""How much folding may amplify a target's precision: a fold matches when the outlines differ by slivers no wider
than this many times the target's precision (its points' possible offset, carried through a few reflections and
the turn a short crease's offset causes over the width of the paper). Over 200 targets of 1 to 4 free simple folds
written to 9 decimals and replayed from the file's coordinates, the outlines lie at most 4.3e-7 apart (Hausdorff),
about a twelfth of the 5e-6 this factor allows (``bench/synthesis_target_precision.py``)."""
MATCH_CAP: float = 1e-3
"""The largest match distance (paper frame): a twentieth of a pixel of the 512-pixel raster. A file written to
one or two decimals (``0.25``, ``0.5``: usually an exact design, not a rounding) never makes a visibly different
fold count as the target."""
_FULL_PRECISION_DECIMALS = 15


class InvalidTargetError(FoldbenchError, ValueError):
    """A target that is not a flat-foldable crease pattern of a square."""


def complexity_tier(pattern: CreasePattern) -> str:
    """The paper's tier from vertices + edges: Easy up to 300, Medium up to 800, Hard above.

    >>> square = np.array([[[0, 0], [1, 0]], [[1, 0], [1, 1]], [[1, 1], [0, 1]], [[0, 1], [0, 0]]], float)
    >>> complexity_tier(build_crease_pattern(square, "BBBB"))
    'Easy'
    """
    size = pattern.vertex_count + pattern.edge_count
    return "Easy" if size <= 300 else "Medium" if size <= 800 else "Hard"


@dataclass(frozen=True)
class Target:
    """A shape to fold.

    Attributes:
        name: a short unique name.
        pattern: its crease pattern (a square; any units, read in its normalised frame).
        actions: environment actions that fold it from the blank square, or None when unknown.
        category: a semantic category (``"simple folds"``, ``"bases"``, ``"animals"``, ...).
        tier: ``Easy``, ``Medium`` or ``Hard`` (see :func:`complexity_tier`).
    """

    name: str
    pattern: CreasePattern
    actions: tuple[dict[str, Any], ...] | None = None
    category: str = "uncategorised"
    tier: str = "Easy"
    precision: float = 0.0
    """How far the target's points may lie from where they were meant (paper size = 1): half the last decimal its
    file was written to, or the noise measured in it (0 for a target built exactly). The environment counts a fold
    within this precision as the target (see :func:`match_distance`)."""
    compile_timeout: float | None = 10.0
    """Seconds of wall time the first compilation may take (None: no limit, as for the shipped models, so that a
    loaded machine never turns a slow compilation into a refused target)."""

    @cached_property
    def compiled(self) -> CompiledFold:
        """The target compiled (first flat-folded state).

        Raises:
            CreasePatternError: the target does not fold flat.
        """
        summary, compiled = compile_with_summary(self.pattern, limit=1, timeout=self.compile_timeout)
        if compiled is None:
            error = summary["error"]
            raise CreasePatternError(error["code"], f"target {self.name}: {error['class']} {error['message']}",
                                     error["where"])
        return compiled

    @cached_property
    def aligned(self) -> AlignedFold:
        """The target's folded form in the paper frame (see :mod:`foldbench.origami.folded`)."""
        return align_fold(self.compiled)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready record: name, category, tier, the crease pattern (FOLD fields) and the actions."""
        return {"name": self.name, "category": self.category, "tier": self.tier, "precision": self.precision,
                "compile_timeout": self.compile_timeout,
                "fold": self.pattern.to_fold_fields(), "actions": list(self.actions) if self.actions else None}


class FoldSequenceLike(Protocol):
    """What a fold sequence offers to become a target."""

    @property
    def name(self) -> str: ...

    @property
    def category(self) -> str: ...

    @property
    def final_pattern(self) -> CreasePattern: ...

    def actions(self) -> list[dict[str, Any]]: ...


def target_from_sequence(sequence: FoldSequenceLike) -> Target:
    """A target from a fold sequence (its final pattern, its actions, its category)."""
    pattern = sequence.final_pattern
    return Target(sequence.name, pattern, tuple(sequence.actions()), sequence.category, complexity_tier(pattern))


def _fold_step_actions(fold_lines: Sequence[FoldLine]) -> list[dict[str, Any]]:
    actions = []
    before = 0
    for count in range(1, len(fold_lines) + 1):
        pattern = simple_fold_pattern(list(fold_lines[:count]))
        new = [(s * PAPER_SIZE, a) for s, a in zip(pattern.segments[4:], pattern.assignments[4:], strict=True)]
        creases = [{"p1": s[0].tolist(), "p2": s[1].tolist(), "assignment": a} for s, a in new[before:]]
        before = len(new)
        if creases:
            actions.append({"action": "add_creases", "creases": creases})
    return actions


def simple_fold_target(name: str, fold_lines: Sequence[FoldLine], category: str = "simple folds") -> Target:
    """A target made by folding the unit square along each line in turn (:func:`simple_fold_pattern`), with one
    ``add_creases`` action per fold (its crease pieces, paper frame).

    >>> book = simple_fold_target("book", [((0.5, 0.0), (0.0, 1.0))])
    >>> book.actions[0]["creases"][0]["p1"], book.tier
    ([5.0, 0.0], 'Easy')
    """
    folds = simple_fold_pattern(list(fold_lines))
    pattern = build_crease_pattern(folds.segments * PAPER_SIZE, folds.assignments, source=name)
    return Target(name, pattern, tuple(_fold_step_actions(folds.fold_lines)), category, complexity_tier(pattern))


def smallest_feature(pattern: CreasePattern) -> float:
    """The shortest distance between two vertices of a square pattern, in the paper frame (inf for < 2 vertices).

    >>> square = np.array([[[0, 0], [1, 0]], [[1, 0], [1, 1]], [[1, 1], [0, 1]], [[0, 1], [0, 0]]], float)
    >>> smallest_feature(build_crease_pattern(square, "BBBB"))
    10.0
    """
    coords = pattern.vertices_coords * PAPER_SIZE
    if len(coords) < 2:
        return float("inf")
    gaps = np.hypot(*(coords[:, None, :] - coords[None, :, :]).transpose(2, 0, 1))
    return float(gaps[np.triu_indices(len(coords), 1)].min())


def random_simple_fold_target(rng: np.random.Generator, folds: int, *, grid: int | None = 8,
                              name: str = "", max_tries: int = 50) -> Target:
    """A target of ``folds`` random simple folds (lines on a ``1/grid`` lattice, or free when ``grid`` is None)
    whose vertices lie at least :data:`~foldbench.origami.geometry.MIN_CREASE_LENGTH` apart, so that its own
    actions survive the environment's snapping (draws again up to ``max_tries`` times, then takes the last)."""
    for _ in range(max_tries):
        pattern = random_simple_folds(rng, folds, grid=grid)
        label = name or f"{len(pattern.fold_lines)}-fold {'grid' if grid else 'free'}"
        target = simple_fold_target(label, pattern.fold_lines, category=f"{'grid' if grid else 'free'} simple folds")
        if smallest_feature(target.pattern) >= MIN_CREASE_LENGTH:
            break
    return target


def match_distance(target: Target) -> float:
    """How far apart (paper frame) a folded outline may lie from the target's and still be the target:
    :data:`MATCH_FACTOR` times the target's precision, between :data:`MATCH_FLOOR` and :data:`MATCH_CAP`.

    >>> from dataclasses import replace
    >>> square = np.array([[[0, 0], [1, 0]], [[1, 0], [1, 1]], [[1, 1], [0, 1]], [[0, 1], [0, 0]]], float)
    >>> exact = Target("square", build_crease_pattern(square, "BBBB"))
    >>> match_distance(exact) == MATCH_FLOOR, round(match_distance(replace(exact, precision=5e-10)), 12)
    (True, 5e-06)
    >>> match_distance(replace(exact, precision=0.005)) == MATCH_CAP
    True
    """
    return min(MATCH_CAP, max(MATCH_FLOOR, MATCH_FACTOR * target.precision * PAPER_SIZE))


def written_resolution(values: Sequence[float], extent: float) -> float:
    """Half the last decimal digit ``values`` are written to (their shortest decimal form), over ``extent``
    (0 for integers, for values that need full double precision, or for no values).

    >>> written_resolution([0.0, 0.123456789, 1.0], 1.0)
    5e-10
    >>> written_resolution([0.0, 200.0, 400.0], 400.0), written_resolution([1 / 3], 1.0)
    (0.0, 0.0)
    """
    decimals = 0
    for value in values:
        text = repr(float(value)).lower()
        mantissa, _, exponent = text.partition("e")
        places = len(mantissa.partition(".")[2].rstrip("0")) - int(exponent or 0)
        decimals = max(decimals, places)
    if decimals == 0 or decimals >= _FULL_PRECISION_DECIMALS or extent <= 0:
        return 0.0
    return 0.5 * 10.0**-decimals / extent


def _file_numbers(path: Path) -> list[float]:
    """The coordinates as written in a ``.fold`` or ``.cp`` file (empty for other formats or unreadable ones)."""
    text = path.read_text(encoding="utf-8", errors="replace")
    if path.suffix.lower() == ".fold":
        from foldbench.crease.io.fold_format import parse_fold_text

        coords = parse_fold_text(text, path.name).get("vertices_coords")
        if not isinstance(coords, list):
            return []
        return [float(v) for point in coords if isinstance(point, list) for v in point[:2]
                if isinstance(v, int | float) and not isinstance(v, bool)]
    if path.suffix.lower() == ".cp":
        numbers = []
        for line in text.splitlines():
            for token in line.split()[1:5]:
                try:
                    numbers.append(float(token))
                except ValueError:
                    continue
        return numbers
    return []


def target_from_file(path: str | Path, category: str | None = None, *, check_folds: bool = True) -> Target:
    """A target (without actions) from a ``.fold``, ``.cp``, ``.opx`` or ``.svg`` crease pattern of a square.

    A file of OrigamiBench's collection (its file name is in Table 3,
    :func:`~foldbench.crease.io.collection.table3`) takes the table's category and tier; any other file is
    ``uncategorised`` (unless ``category`` names one) with the tier of its counts. ``check_folds=False`` leaves
    the compilation to the first use of :attr:`Target.compiled` (reading a collection without folding each model).

    Raises:
        CreasePatternError: the file cannot be read, or the pattern does not fold flat (class, code, location).
        InvalidTargetError: the paper is not a square.
    """
    from foldbench.crease.io.collection import table3

    path = Path(path)
    pattern = read_crease_pattern(path)
    boundary = pattern.vertices_coords[[v for e, a in zip(pattern.edges_vertices, pattern.edges_assignment,
                                                          strict=True) if a == "B" for v in e]]
    if len(boundary) == 0 or not np.allclose([boundary.min(axis=0), boundary.max(axis=0)], [[0, 0], [1, 1]],
                                             atol=1e-6):
        raise InvalidTargetError(f"{path}: the paper is not a square (a target is folded from the square)")
    row = table3().get(path.name, {})
    chosen = category or row.get("category") or "uncategorised"
    precision = max(pattern.input_precision, pattern.written_precision,
                    written_resolution(_file_numbers(path), pattern.scale))
    target = Target(path.stem, pattern, None, chosen, row.get("tier") or complexity_tier(pattern), precision)
    if check_folds:
        target.compiled  # noqa: B018  (raises now for a pattern that does not fold flat)
    return target
