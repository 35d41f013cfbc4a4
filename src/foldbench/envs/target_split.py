"""A seeded distribution of random simple-fold targets for training, with a fixed held-out set kept apart.

Training draws a new target at every reset; evaluation uses a fixed list of held-out targets drawn from another
seed stream. No training draw has the folded shape of a held-out target: a draw whose shape key
(:func:`shape_key`, the aligned folded silhouette) is held out is drawn again, so a policy scored on the held-out
targets has never been rewarded on those shapes.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import shapely

from foldbench.crease.simple_folds import random_simple_folds
from foldbench.origami.folded import silhouette_of
from foldbench.origami.geometry import MIN_CREASE_LENGTH
from foldbench.origami.targets import FoldLine, Target, simple_fold_target, smallest_feature

__all__ = ["HELD_OUT_STREAM", "KEY_GRID", "SimpleFoldTargets", "TRAINING_STREAM", "VALIDATION_STREAM", "shape_key"]

TRAINING_STREAM: int = 1
"""Second word of the seed of the training draws (``default_rng([seed, TRAINING_STREAM])``)."""
HELD_OUT_STREAM: int = 2
"""Second word of the seed of the held-out draws."""
VALIDATION_STREAM: int = 3
"""Second word of the seed of the validation draws."""
KEY_GRID: float = 1e-6
"""The silhouette's coordinates are rounded to this (paper frame) in a shape key."""
REDRAWS: int = 100
"""Training draws tried before giving up on finding a target outside the held-out set."""


def shape_key(target: Target) -> str:
    """The target's aligned folded silhouette as normalised text, rounded to :data:`KEY_GRID`: two targets with
    the same key fold to the same outline (the only thing the reward compares), whatever their creases.

    >>> from foldbench.origami.targets import simple_fold_target
    >>> book = simple_fold_target("book", [((0.5, 0.0), (0.0, 1.0))])
    >>> shape_key(book) == shape_key(simple_fold_target("other book", [((0.5, 1.0), (0.0, -1.0))]))
    True
    """
    outline = shapely.set_precision(silhouette_of(target.aligned), KEY_GRID)
    return str(shapely.normalize(outline).wkt)


@dataclass
class SimpleFoldTargets:
    """Random targets of ``folds`` simple folds on a ``1/grid`` lattice, split by seed into training and held out.

    Args:
        folds: the numbers of folds a target may have (drawn uniformly).
        grid: fold lines run through multiples of ``1/grid`` (horizontal, vertical or diagonal).
        seed: the seed of the held-out set (the training draws take theirs from the caller's generator).
        held_out: how many distinct held-out shapes to keep apart.
        validation: how many further distinct shapes to keep apart for choosing when to stop training (never
            held-out shapes, never drawn for training), so that the held-out set is scored only once.
    """

    folds: tuple[int, ...] = (1, 2)
    grid: int = 4
    seed: int = 0
    held_out: int = 16
    validation: int = 0
    _cache: dict[tuple[FoldLine, ...], tuple[Target, str] | None] = field(default_factory=dict, init=False, repr=False)
    _held_out: tuple[Target, ...] | None = field(default=None, init=False, repr=False)
    _held_out_keys: frozenset[str] = field(default=frozenset(), init=False, repr=False)
    _validation: tuple[Target, ...] | None = field(default=None, init=False, repr=False)
    _kept_apart: frozenset[str] = field(default=frozenset(), init=False, repr=False)

    def __post_init__(self) -> None:
        if not self.folds or min(self.folds) < 1:
            raise ValueError(f"folds must be positive fold counts, got {self.folds}")
        if self.grid < 2:
            raise ValueError(f"grid must be at least 2, got {self.grid}")
        if self.held_out < 0 or self.validation < 0:
            raise ValueError(f"held_out and validation must be 0 or more, got {self.held_out}, {self.validation}")

    def _draw_any(self, rng: np.random.Generator) -> tuple[Target, str]:
        """One target of the distribution and its shape key. Targets are remembered by their fold lines, so a
        repeated draw costs only the drawing of its lines; a draw whose vertices lie closer than the environment's
        snapping distance is drawn again (at most :data:`REDRAWS` times)."""
        for _ in range(REDRAWS):
            folds = int(self.folds[int(rng.integers(len(self.folds)))])
            lines = tuple(random_simple_folds(rng, folds, grid=self.grid).fold_lines)
            if lines not in self._cache:
                name = f"{len(lines)}-fold grid {self.grid}"
                target = simple_fold_target(name, lines, category="grid simple folds")
                usable = smallest_feature(target.pattern) >= MIN_CREASE_LENGTH
                self._cache[lines] = (target, shape_key(target)) if usable else None
            drawn = self._cache[lines]
            if drawn is not None:
                return drawn
        raise ValueError(f"{REDRAWS} draws in a row had vertices closer than {MIN_CREASE_LENGTH}")

    def _distinct(self, stream: int, count: int, excluded: frozenset[str]) -> dict[str, Target]:
        """The first ``count`` distinct shapes drawn from ``[seed, stream]`` whose keys are not ``excluded``."""
        rng = np.random.default_rng([self.seed, stream])
        chosen: dict[str, Target] = {}
        for _ in range(50 * count + 50):
            if len(chosen) >= count:
                break
            target, key = self._draw_any(rng)
            if key not in excluded:
                chosen.setdefault(key, target)
        if len(chosen) < count:
            raise ValueError(f"the distribution has fewer than {count} distinct shapes to keep apart")
        return chosen

    def held_out_targets(self) -> tuple[Target, ...]:
        """The held-out targets: the first ``held_out`` distinct shapes drawn from ``[seed, HELD_OUT_STREAM]``."""
        if self._held_out is None:
            chosen = self._distinct(HELD_OUT_STREAM, self.held_out, frozenset())
            self._held_out = tuple(chosen.values())
            self._held_out_keys = frozenset(chosen)
            validation = self._distinct(VALIDATION_STREAM, self.validation, self._held_out_keys)
            self._validation = tuple(validation.values())
            self._kept_apart = self._held_out_keys | frozenset(validation)
        return self._held_out

    def validation_targets(self) -> tuple[Target, ...]:
        """The validation targets: the first ``validation`` distinct shapes drawn from
        ``[seed, VALIDATION_STREAM]`` that are not held out."""
        self.held_out_targets()
        assert self._validation is not None
        return self._validation

    def is_held_out(self, target: Target) -> bool:
        """Whether ``target`` folds to the shape of a held-out target."""
        self.held_out_targets()
        return shape_key(target) in self._held_out_keys

    def draw(self, rng: np.random.Generator) -> Target:
        """A training target: drawn from ``rng`` again until its shape is neither held out nor a validation shape.

        Raises:
            ValueError: :data:`REDRAWS` draws in a row were kept apart (the kept-apart shapes cover the
                distribution).
        """
        self.held_out_targets()
        for _ in range(REDRAWS):
            target, key = self._draw_any(rng)
            if key not in self._kept_apart:
                return target
        raise ValueError(f"{REDRAWS} draws in a row were held-out shapes or validation shapes: keep fewer "
                         f"apart than "
                         f"{self.held_out + self.validation}")
