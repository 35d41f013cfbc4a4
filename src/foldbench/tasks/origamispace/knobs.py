"""The knob schemas of the OrigamiSpace tasks (see :mod:`foldbench.tasks.knobs`)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from foldbench.tasks.knobs import CommaList, Knobs, Whole

__all__ = ["CodegenKnobs"]


class CodegenKnobs(Knobs):
    """Knobs of the crease-pattern code-generation tasks."""

    folds: CommaList[Whole] | None = None
    """Numbers of simple folding steps to draw from (taken in turn by item index); default 3, 4, 5, 6. The
    simple-fold generator gives up on a step that no longer cuts the folded shape, so long sequences may come out
    shorter: the item records the steps it has."""
    folder: str | None = None
    """A folder of crease-pattern files (FOLD, ORIPA .cp/.opx, SVG) to use instead of simple folds, e.g.
    ``../shared/corpus/flat-folder/grids``; files that do not compile, or have more than ``max_faces`` faces,
    are skipped."""
    max_faces: Whole = Field(200, ge=2, le=1000)
    """The most faces a reference pattern may have."""
    preset: Literal["paper"] | None = None
    """``paper``: OrigamiSpace's composition on OrigamiBench's 366 models that ship with foldbench (Table 3's
    names and categories): items take the Easy, Medium and Hard tiers in turn (the paper's 120 items are the
    first 120: 40 per tier), each a model the compiler folds within ``max_faces`` faces (1,000 unless given)
    and its time budget. Not with ``folds``, ``folder`` or ``difficulty``."""
    difficulty: Literal["easy", "medium", "hard", "mixed"] = "easy"
    """OrigamiSpace's difficulty by folding steps: ``easy`` (the simple folds of ``folds``), ``medium`` (10-19
    steps) or ``hard`` (20-30 steps: pleated models, the steps drawn uniformly), or ``mixed`` (easy, medium and
    hard in turn by item index). Not with ``folder``."""
