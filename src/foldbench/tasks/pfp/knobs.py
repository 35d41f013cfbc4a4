"""The knob schemas of the Paper Folding Puzzles tasks (see :mod:`foldbench.tasks.knobs`).

The schemas fix each knob's type; which subtask names, sheet shapes and cutout counts a task allows (and whether
a count fits on a shape) is checked by the task itself, which knows them.
"""

from __future__ import annotations

from typing import Literal

from pydantic import StrictBool

from foldbench.tasks.knobs import CommaList, Knobs, Whole

__all__ = ["MissingStepKnobs", "PfpFoldKnobs", "PfpKnobs"]


class PfpKnobs(Knobs):
    """Knobs of every PFP task."""

    subtasks: CommaList[str] | None = None
    """Subtasks to draw from, taken in turn by item index (1-fold, 2-fold, 3-fold, others; or easy, hard);
    default: all of the task's."""
    panels: StrictBool = True
    """Also write each question and option picture on its own, beside the composite."""
    split: Literal["train", "validation", "test"] | None = None
    """Generate only this split (exactly n items of it); default: the splits in the published proportions."""
    preset: Literal["paper"] | None = None
    """``paper``: compose as the papers' test split (600 items of a type in the subtask counts of their tables,
    multi-step balanced over the base shapes; the test split unless ``split`` says otherwise)."""


class PfpFoldKnobs(PfpKnobs):
    """Knobs of the fold-and-cut tasks (single-step, multi-step, inverse)."""

    shapes: CommaList[str] | None = None
    """Base sheet shapes to draw from; default: all five."""
    cutouts: CommaList[Whole] | None = None
    """Cutout counts 1-4 to draw from; default: each count that fits the shape and folds."""


class MissingStepKnobs(PfpFoldKnobs):
    """Knobs of multi-step (which fold step does not occur)."""

    odd_step: Literal["last", "any"] = "last"
    """Where the odd step branches off the folding: ``last`` (the third step; every option then continues the chain
    of the others and the result decides) or ``any`` (step 1, 2 or 3 drawn uniformly; at step 1 or 2 the options
    alone give the answer away, see docs/papers/pfp.md)."""
