"""Baseline policies for the synthesis environment: random valid creases, and replaying a target's fold steps."""

from __future__ import annotations

from typing import Any

import numpy as np

from foldbench.origami.actions import AddCrease, ParsedAction
from foldbench.origami.sheet import Sheet, apply_action
from foldbench.origami.targets import Target

__all__ = ["LATTICE", "RANDOM_TRIES", "oracle_action", "random_valid_action"]

LATTICE: tuple[float, ...] = tuple(np.linspace(0.0, 10.0, 9).tolist())
"""The 9 x 9 lattice (paper frame) random creases are drawn between."""
RANDOM_TRIES: int = 40
"""Random creases tried before giving up and returning the last one (which the sheet will refuse)."""


def random_valid_action(sheet: Sheet, rng: np.random.Generator, tries: int = RANDOM_TRIES) -> AddCrease:
    """A random crease between two lattice points, mountain or valley, that ``sheet`` accepts (the last one drawn
    when none of ``tries`` is accepted)."""
    candidate: AddCrease | None = None
    for _ in range(max(1, tries)):
        ends = rng.integers(0, len(LATTICE), size=4)
        candidate = AddCrease(action="add_crease", p1=(LATTICE[ends[0]], LATTICE[ends[1]]),
                              p2=(LATTICE[ends[2]], LATTICE[ends[3]]), assignment="M" if rng.random() < 0.5 else "V")
        if apply_action(sheet, ParsedAction((candidate,))).accepted:
            return candidate
    assert candidate is not None
    return candidate


def oracle_action(target: Target, kept_steps: int) -> dict[str, Any]:
    """The target's fold step number ``kept_steps`` (its last step once all were made).

    Raises:
        ValueError: the target has no known fold steps.
    """
    if not target.actions:
        raise ValueError(f"target {target.name} has no known fold steps")
    return dict(target.actions[min(kept_steps, len(target.actions) - 1)])
