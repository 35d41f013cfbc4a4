"""Multi-step reasoning as the Paper Folding Puzzles papers ask it: which step does not occur?

The question shows the flat sheet, a "?" for the three folds, the shapes cut through the folded paper (where they
were cut) and the sheet unfolded again. The options are four fold steps, each drawn enlarged to fill its picture
(:func:`foldbench.pfp.render_folds.draw_step_filled`), at a random size (``MIN_SIZE`` to 1) and place: the
paper before the fold as a grey outline, the fold's crease in red and the paper after it. Three are the first,
second and third step of the folding that made the result; the fourth, the answer, is another fold of the paper the
third step folds, as if the folding had branched off at its last step: then the odd step continues the chain of
the other options as well as the true third step does, and only the result tells the two apart (with the knob
``odd_step=any`` it branches off at step 1, 2 or 3, drawn uniformly, as a first reading of the papers allows; an
odd step at step 1 or 2 breaks the chain of the options and can be found without the result). It is a
fold of the other kind than the true step there (a fold at a third beside a centre fold, or the reverse): a fold
of the same kind looks so much like its twin that "the option least like the others" would almost never be the
answer (``foldbench audit``, see docs/papers/pfp.md).

The engine proves the answer: a step *occurs* in some folding that makes the result when a cut through the paper
folded up to that step can make exactly the holes shown (:func:`foldbench.pfp.puzzle.refold_mismatch`: any cut
after later folds is such a cut, since later folds move whole stacks). The three true steps do, by construction;
the odd step is kept only when every cut through its folding misses the holes by at least ``DISTINCT_AREA``. Every
two option pictures differ visibly (their papers after the fold, as drawn, differ by at least ``DISTINCT_AREA``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import numpy as np
from shapely import affinity
from shapely.geometry.base import BaseGeometry

from foldbench.pfp.folding import Crease, FoldState, step_problem
from foldbench.pfp.puzzle import Puzzle, puzzle_holes, refold_mismatch, refold_misses_by, sheet_states
from foldbench.pfp.render_folds import filling
from foldbench.pfp.sequences import SYMMETRIC_CODES, Step, resolve_code
from foldbench.pfp.tolerance import DISTINCT_AREA, SAME_AREA, SHEET_SIZE, distinct_regions
from foldbench.tasks.base import Item, TaskSpec
from foldbench.tasks.choice_fields import option_records, options_field
from foldbench.tasks.pfp.fold_sampling import sample_puzzle
from foldbench.tasks.pfp.fold_tasks import OPTION_SIZE, FoldTaskBase
from foldbench.tasks.pfp.knobs import MissingStepKnobs

__all__ = ["MIN_SIZE", "MissingStepTask", "drawn_outline"]

MIN_SIZE = 0.8
"""Each option's step is drawn at a random size between this and the whole picture, at a random place in it, so
that the two folds of the same paper (the odd step and its twin) do not share pixels exactly."""
_MARGIN = 0.1
"""The picture's margin around the sheet, as a fraction of its side (:class:`foldbench.pfp.drawing.Frame`)."""
Drawn = tuple[dict[str, Any], dict[str, Any], dict[str, Any]]


def drawn_outline(state: FoldState, previous: FoldState) -> BaseGeometry:
    """The paper after a fold as its option picture draws it (enlarged with the paper before the fold)."""
    return affinity.affine_transform(state.silhouette, filling(previous.silhouette))


def _steps_data(steps: tuple[Step, ...]) -> list[list[dict[str, Any]]]:
    return [[c.to_dict() for c in step] for step in steps]


def _steps_from(data: list[list[dict[str, Any]]]) -> tuple[Step, ...]:
    return tuple(tuple(Crease.from_dict(c) for c in step) for step in data)


def _placement(rng: np.random.Generator) -> list[float]:
    """A random size (``MIN_SIZE``-1 of the picture) and offset for one option's step, inside its picture."""
    size = float(rng.uniform(MIN_SIZE, 1.0))
    room = (1 + 2 * _MARGIN - size) * SHEET_SIZE / 2 * 0.9
    return [round(size, 4), round(float(rng.uniform(-room, room)), 2), round(float(rng.uniform(-room, room)), 2)]


def _other_kind(rng: np.random.Generator, code: str) -> list[str]:
    """The symmetric fold codes of the other kind than ``code`` (fold at a third for a centre fold, centre fold
    for a fold at a third), in random order."""
    centre = code[1] == "c"
    return [c for c in rng.permutation(SYMMETRIC_CODES).tolist() if (c[1] == "c") != centre]


class MissingStepTask(FoldTaskBase):
    """Choose the fold step that does not occur between the flat sheet and the unfolded result."""

    id = "pfp/multi-step-v6"
    name = "multi-step"
    type_name = "multi-step"
    subtasks = ("3-fold",)
    paper_counts = {"3-fold": 600}
    balance_shapes = True
    knob_schema = MissingStepKnobs

    @property
    def spec(self) -> TaskSpec:
        """As every PFP task, with results also broken down by base shape (the papers' Table 1) and by the step the
        odd one branches off at (only at the third step does the result alone decide; see docs/papers/pfp.md)."""
        return replace(super().spec, breakdowns=("type", "subtask", "sheet", "odd_step"))

    def _draw(
        self, rng: np.random.Generator, subtask: str, answer_index: int, config: Mapping[str, Any]
    ) -> Drawn | None:
        sampled = sample_puzzle(rng, subtask, config, self.memo)
        if sampled is None:
            return None
        puzzle, states, holes = sampled
        last = len(puzzle.steps)
        level = int(rng.integers(1, last + 1)) if config.get("odd_step") == "any" else last  # where it branches off
        before = states[level - 1]
        shown = [drawn_outline(states[k], states[k - 1]) for k in range(1, len(states))]
        true_code = puzzle.steps[level - 1][0].code
        odd_steps: tuple[Step, ...] | None = None
        for code in _other_kind(rng, true_code):
            odd = (resolve_code(before.silhouette, code),)
            if step_problem(before, odd) is not None:
                continue
            candidate = (*puzzle.steps[: level - 1], odd)
            odd_states = sheet_states(puzzle.sheet, candidate, self.memo)
            outline = drawn_outline(odd_states[-1], before)
            if any(not distinct_regions(outline, other) for other in shown):
                continue
            if refold_misses_by(puzzle.sheet, candidate, holes, DISTINCT_AREA, odd_states[-1]):
                odd_steps = candidate
                break
        if odd_steps is None:
            return None
        if any(not distinct_regions(shown[i], shown[j]) for i in range(len(shown)) for j in range(i)):
            return None
        true_steps = [puzzle.steps[:k] for k in rng.permutation(np.arange(1, len(puzzle.steps) + 1)).tolist()]
        options = true_steps[:answer_index] + [odd_steps] + true_steps[answer_index:]
        self.memo.put("holes", puzzle, holes)
        inputs = {
            "puzzle": puzzle.to_dict(),
            **options_field([_steps_data(steps) for steps in options]),
            "placements": [_placement(rng) for _ in options],
        }
        metadata = {
            "sheet": puzzle.sheet,
            "folds": [[c.code for c in step] for step in puzzle.steps],
            "cutouts": [c.shape for c in puzzle.cutouts],
            "odd_step": level,
            "odd_fold": odd_steps[-1][0].code,
        }
        return inputs, {}, metadata

    def occurs(self, item: Item) -> list[bool]:
        """For each option, whether some cut through the paper folded up to that step makes exactly the holes
        shown (then some folding through that step makes the result)."""
        puzzle = Puzzle.from_dict(item.inputs["puzzle"])
        holes = puzzle_holes(puzzle, self.memo)
        return [
            refold_mismatch(puzzle.sheet, _steps_from(o), holes, memo=self.memo) < SAME_AREA
            for o in option_records(item.inputs)
        ]

    def consistent_options(self, item: Item) -> list[bool]:
        """An option is right when it is a step of no folding that makes the result (:meth:`occurs` is false)."""
        return [not occurs for occurs in self.occurs(item)]

    def options_distinct(self, item: Item) -> bool:
        """Every two options' papers after the fold, as drawn, differ by at least ``DISTINCT_AREA``."""
        sheet = item.inputs["puzzle"]["sheet"]
        outlines = []
        for option in option_records(item.inputs):
            states = sheet_states(sheet, _steps_from(option), self.memo)
            outlines.append(drawn_outline(states[-1], states[-2]))
        return all(distinct_regions(outlines[i], outlines[j]) for i in range(4) for j in range(i))

    def _question_panel_count(self, inputs: Mapping[str, Any]) -> int:
        return 4

    def _pictures(self, item: Item) -> tuple[list[Any], list[Any]]:
        from foldbench.pfp.render_folds import draw_step_filled

        puzzle = Puzzle.from_dict(item.inputs["puzzle"])
        question = self._flat_to_result_row(puzzle)
        options = []
        for option, placement in zip(option_records(item.inputs), item.inputs["placements"], strict=True):
            steps = _steps_from(option)
            states = sheet_states(puzzle.sheet, steps, self.memo)
            options.append(draw_step_filled(states[-1], states[-2], steps[-1], OPTION_SIZE, tuple(placement)))
        return question, options
