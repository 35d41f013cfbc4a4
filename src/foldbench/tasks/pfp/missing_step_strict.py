"""Multi-step reasoning in a form whose options cannot give the answer away (a foldbench variant of the papers'
multi-step question, :mod:`foldbench.tasks.pfp.missing_step`).

The papers' options are three steps of one folding and one other step. Whether a step occurs (some cut through the
paper folded up to it makes the holes shown) passes from a step to every step before it, so the odd step is always
one that no other option continues, and reading the options alone narrows the answer to two. No set of four single
steps avoids that while three of them occur: the four would have to be steps none of which continues another, and
three such steps occur together only for results symmetric about several lines at once.

Here every option is a whole folding of the flat sheet, three steps drawn one after another (the paper before each
fold as a grey outline, its fold line in red, the paper after it). The four are made alike from one hidden folding
of three symmetric folds, the *hub*: each option is the hub with one of its three folds, drawn at random, replaced
by another valid fold of the paper at that step (the later folds keep their codes and are laid on the paper as it
now lies). The shapes are cut through the paper of the option at the answer's letter; every other option has a
step that cannot occur on the way to the result. Which option holds the answer is known only through the result:
the options are exchangeable, and no option is a prefix of another.

The question row shows the flat sheet, a "?" for the three folds and the sheet unfolded with its holes; unlike the
papers' row it does not show the cutouts where they were cut: the cut lies on the answer's folded paper, which is
often the only option's paper under it, so its position alone would point at the answer.

The engine proves the answer: a cut through the answer's folds makes the holes shown
(:func:`foldbench.pfp.puzzle.refold_mismatch` is zero), and every cut through any other option's folds misses them
by at least ``DISTINCT_AREA``. Every two options differ visibly: in at least one of their three folded papers the
outlines differ by at least ``DISTINCT_AREA``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from foldbench.pfp.cutouts import capacity
from foldbench.pfp.folding import Crease, FoldState, apply_step, step_problem
from foldbench.pfp.memo import FoldMemo
from foldbench.pfp.puzzle import (
    Puzzle,
    remember_states,
    sheet_states,
)
from foldbench.pfp.sequences import SYMMETRIC_CODES, Step, resolve_code, sample_sequence
from foldbench.pfp.shapes import SheetShape, sheet_polygon
from foldbench.pfp.tolerance import distinct_regions
from foldbench.tasks.base import Item
from foldbench.tasks.choice_fields import option_records, options_field
from foldbench.tasks.pfp.fold_sampling import cuts_through, draw_cutout_count
from foldbench.tasks.pfp.fold_tasks import FoldTaskBase, first_cut_missing_others, options_make_the_holes

__all__ = ["FOLDS", "MissingStepStrictTask", "variant_of"]

FOLDS = 3
"""Folds of every option (the papers' multi-step questions are built on their 3-fold puzzles)."""
_VARIANT_TRIES = 40
"""Variants of one hub drawn before the hub is drawn again."""
_CUT_TRIES = 8
"""Cuts tried through the answer's folds before all four options are drawn again."""
_STRIP_SIZE = 112
"""Pixels of each fold picture in an option's strip of three."""
Drawn = tuple[dict[str, Any], dict[str, Any], dict[str, Any]]
Folding = tuple[tuple[Step, ...], tuple[FoldState, ...]]


def _steps_data(steps: tuple[Step, ...]) -> list[list[dict[str, Any]]]:
    return [[c.to_dict() for c in step] for step in steps]


def _steps_from(data: list[list[dict[str, Any]]]) -> tuple[Step, ...]:
    return tuple(tuple(Crease.from_dict(c) for c in step) for step in data)


def _valid(state: FoldState, step: Step, memo: FoldMemo, key: Any) -> bool:
    """Whether ``step`` can be made on ``state`` (the verdict kept in ``memo`` under ``key``, as the samplers do)."""
    verdict = memo.get("step_problem", (key, step))
    if verdict is None:
        verdict = step_problem(state, step) or ""
        memo.put("step_problem", (key, step), verdict)
    return verdict == ""


def variant_of(
    sheet: SheetShape, codes: tuple[str, ...], position: int, code: str, memo: FoldMemo
) -> Folding | None:
    """The folding ``codes`` with its fold at ``position`` replaced by ``code``, every fold laid on the paper as it
    lies at that step, and its states (the flat sheet first); None when one of its folds cannot be made.

    >>> [step[0].code for step in variant_of("square", ("Hc+", "Hc+"), 1, "Vc+", FoldMemo())[0]]
    ['Hc+', 'Vc+']
    >>> variant_of("square", ("Hc+", "Vc+"), 1, "Dc+", FoldMemo()) is None  # a diagonal of the half sheet overhangs
    True
    """
    wanted = codes[:position] + (code,) + codes[position + 1 :]
    states = [sheet_states(sheet, (), memo)[0]]
    steps: list[Step] = []
    for fold in wanted:
        step = (resolve_code(states[-1].silhouette, fold),)
        if not _valid(states[-1], step, memo, (sheet, tuple(steps))):
            return None
        steps.append(step)
        known = memo.get("states", (sheet, tuple(steps)))
        states = list(known) if known is not None else [*states, apply_step(states[-1], step)]
    result = tuple(steps), tuple(states)
    remember_states(memo, sheet, *result)
    return result


def _visibly_different(first: Folding, second: Folding) -> bool:
    """Whether two foldings differ visibly: in some step, their folded papers' outlines differ by ``DISTINCT_AREA``."""
    return any(
        distinct_regions(a.silhouette, b.silhouette) for a, b in zip(first[1][1:], second[1][1:], strict=True)
    )


class MissingStepStrictTask(FoldTaskBase):
    """Choose the three-fold folding that can have made the result: each other option has a step that cannot
    occur on the way to it (foldbench's variant of multi-step; its options alone do not reveal the answer)."""

    id = "pfp/missing-step-strict-v1"
    name = "missing-step-strict"
    type_name = "missing-step-strict"
    subtasks = ("3-fold",)

    def _hub_variants(
        self, rng: np.random.Generator, sheet: SheetShape, codes: tuple[str, ...]
    ) -> list[Folding] | None:
        """Four foldings, each the hub ``codes`` with one fold (at a random step) replaced by another valid fold,
        pairwise visibly different; None when four are not found in ``_VARIANT_TRIES`` draws."""
        chosen: list[Folding] = []
        seen: set[tuple[str, ...]] = set()
        for _ in range(_VARIANT_TRIES):
            position = int(rng.integers(len(codes)))
            code = SYMMETRIC_CODES[int(rng.integers(len(SYMMETRIC_CODES)))]
            if code == codes[position]:
                continue
            key = codes[:position] + (code,) + codes[position + 1 :]
            if key in seen:
                continue
            variant = variant_of(sheet, codes, position, code, self.memo)
            if variant is None or not all(_visibly_different(variant, other) for other in chosen):
                continue
            seen.add(key)
            chosen.append(variant)
            if len(chosen) == 4:
                return chosen
        return None

    def _draw(
        self, rng: np.random.Generator, subtask: str, answer_index: int, config: Mapping[str, Any]
    ) -> Drawn | None:
        shapes = config["shapes"]
        sheet = shapes[int(rng.integers(len(shapes)))]
        hub = sample_sequence(rng, sheet_polygon(sheet), FOLDS, "symmetric", memo=self.memo, sheet_name=sheet)
        if hub is None:
            return None
        codes = tuple(step[0].code for step in hub[0])
        options = self._hub_variants(rng, sheet, codes)
        if options is None:
            return None
        steps, states = options[answer_index]
        count = draw_cutout_count(rng, config["cutouts"], capacity(sheet, FOLDS))
        if count is None:
            return None
        others = [option for k, option in enumerate(options) if k != answer_index]
        kept = first_cut_missing_others(
            sheet, cuts_through(rng, sheet, steps, states[-1], count, _CUT_TRIES, legible=True), others
        )
        if kept is None:
            return None
        puzzle, holes, left = kept
        self.memo.put("holes", puzzle, holes)
        self.memo.put("pattern", puzzle, left)
        option_codes = [[step[0].code for step in option[0]] for option in options]
        inputs = {"puzzle": puzzle.to_dict(), **options_field([_steps_data(option[0]) for option in options])}
        metadata = {
            "sheet": sheet,
            "folds": option_codes[answer_index],
            "cutouts": [c.shape for c in puzzle.cutouts],
            "hub": list(codes),
            "option_folds": option_codes,
            "changed_step": [next(k for k in range(FOLDS) if o[k] != codes[k]) + 1 for o in option_codes],
        }
        return inputs, {}, metadata

    def consistent_options(self, item: Item) -> list[bool]:
        """An option is right when some cut through its three folds makes exactly the holes shown (then each of its
        steps occurs on the way to the result)."""
        return options_make_the_holes(item, self.memo)

    def options_distinct(self, item: Item) -> bool:
        """Every two options differ visibly in the outline of at least one of their folded papers."""
        sheet = item.inputs["puzzle"]["sheet"]
        foldings = [(_steps_from(o), sheet_states(sheet, _steps_from(o), self.memo))
            for o in option_records(item.inputs)]
        return all(_visibly_different(foldings[i], foldings[j]) for i in range(4) for j in range(i))

    def _question_panel_count(self, inputs: Mapping[str, Any]) -> int:
        return 3

    def _pictures(self, item: Item) -> tuple[list[Any], list[Any]]:
        from foldbench.pfp.drawing import hstack

        puzzle = Puzzle.from_dict(item.inputs["puzzle"])
        flat, unknown, _where_cut, result = self._flat_to_result_row(puzzle)
        question = [flat, unknown, result]  # where the cut was made would point at the answer's folded paper
        options = [
            hstack(self._sequence_pictures(puzzle.sheet, _steps_from(o), _STRIP_SIZE))
            for o in option_records(item.inputs)
        ]
        return question, options
