"""The three fold-and-cut tasks: single-step, multi-step and inverse reasoning.

* **single-step** (1-fold, 2-fold, 3-fold, others): the folds and the cut are shown; choose the unfolded sheet.
  Distractors change a fold's axis, or the number, size, shape or position of the cutouts, or cut the layers
  seen from the back differently; each is a clean sheet visibly different from the answer and the others.
* **multi-step** (3-fold): the flat sheet, the cutouts and the unfolded sheet are shown; choose the folded state
  that does not occur. The odd state comes from a sequence with one fold changed, which unfolds to a visibly
  different result with the same cut.
* **inverse** (1-fold, 2-fold, others): the unfolded sheet is shown; choose the fold sequence that makes it. A
  sequence is consistent when some cut through it gives exactly the holes shown
  (:func:`foldbench.pfp.puzzle.refold_mismatch`); every wrong option misses by at least ``DISTINCT_AREA``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from shapely import affinity
from shapely.geometry import box

from foldbench.pfp.folding import Crease, FoldState, apply_step, half_plane, reflection
from foldbench.pfp.puzzle import (
    Puzzle,
    cutout_problem,
    holes_of,
    paper_problem,
    puzzle_holes,
    refold_mismatch,
    remember_states,
    sheet_states,
)
from foldbench.pfp.sequences import Step, sample_corner_step, sample_sequence
from foldbench.pfp.shapes import SheetShape, sheet_polygon
from foldbench.pfp.tolerance import DISTINCT_AREA, SAME_AREA, distinct_regions, same_region
from foldbench.pfp.variants import altered_sequence, make_variant, perturbed_corner_step
from foldbench.tasks.base import Item
from foldbench.tasks.pfp.common import PfpTaskBase
from foldbench.tasks.pfp.fold_sampling import SUBTASK_FOLDS, check_fold_knobs, sample_puzzle

__all__ = ["OPTION_SIZE", "QUESTION_SIZE", "InverseTask", "MultiStepTask", "SingleStepTask"]

QUESTION_SIZE = 128
OPTION_SIZE = 168
_STRIP_SIZE = 112
_PROCESS_KINDS = ("axis", "count", "size", "shape", "position")
_PROCESS_WEIGHTS = np.array([0.3, 0.175, 0.175, 0.175, 0.175])
_DISTRACTOR_TRIES = 40
_ALTERNATIVE_TRIES = 4
Drawn = tuple[dict[str, Any], dict[str, Any], dict[str, Any]]


def _steps_data(steps: tuple[Step, ...]) -> list[list[dict[str, Any]]]:
    return [[c.to_dict() for c in step] for step in steps]


def _steps_from(data: list[list[dict[str, Any]]]) -> tuple[Step, ...]:
    return tuple(tuple(Crease.from_dict(c) for c in step) for step in data)


def _place(answer: Any, others: list[Any], answer_index: int) -> list[Any]:
    return others[:answer_index] + [answer] + others[answer_index:]


def _describe(puzzle: Puzzle) -> dict[str, Any]:
    return {
        "sheet": puzzle.sheet,
        "folds": [[c.code for c in step] for step in puzzle.steps],
        "cutouts": [c.shape for c in puzzle.cutouts],
    }


def _creases_touch(state: FoldState, step: Step, holes: Any) -> bool:
    """Whether some crease of a one-step fold moves paper with holes or lays its flap on holes (when none does,
    the folds leave the holes alone and are consistent with them)."""
    for crease in step:
        flap = state.silhouette.intersection(half_plane(crease))
        if holes.intersects(flap) or holes.intersects(affinity.affine_transform(flap, reflection(crease))):
            return True
    return False


def _corners_near(outline: Any, holes: Any) -> tuple[int, ...]:
    """The corners of the outline's bounding box (0 lower left, counter-clockwise) with holes within 65 % of the
    box's sides, where a corner fold can reach them."""
    minx, miny, maxx, maxy = outline.bounds
    reach_x, reach_y = 0.65 * (maxx - minx), 0.65 * (maxy - miny)
    boxes = (
        box(minx, miny, minx + reach_x, miny + reach_y),
        box(maxx - reach_x, miny, maxx, miny + reach_y),
        box(maxx - reach_x, maxy - reach_y, maxx, maxy),
        box(minx, maxy - reach_y, minx + reach_x, maxy),
    )
    return tuple(k for k, corner_box in enumerate(boxes) if holes.intersects(corner_box))


class _FoldTaskBase(PfpTaskBase):
    knob_names = PfpTaskBase.knob_names | {"shapes", "cutouts"}

    def _check_knobs(self, config: dict[str, Any]) -> None:
        check_fold_knobs(self.id, config)

    def _sequence_pictures(self, sheet: SheetShape, steps: tuple[Step, ...], size: int) -> list[Any]:
        from foldbench.pfp.render_folds import draw_state

        states = sheet_states(sheet, steps)
        return [draw_state(states[k + 1], size, previous=states[k], creases=steps[k]) for k in range(len(steps))]


class SingleStepTask(_FoldTaskBase):
    """Choose the unfolded sheet after the shown folds and cut."""

    id = "pfp/single-step-v1"
    name = "single-step"
    type_name = "single-step"
    subtasks = ("1-fold", "2-fold", "3-fold", "others")

    def _draw(
        self, rng: np.random.Generator, subtask: str, answer_index: int, config: Mapping[str, Any]
    ) -> Drawn | None:
        sampled = sample_puzzle(rng, subtask, config)
        if sampled is None:
            return None
        centre, states, _ = sampled
        chosen: list[tuple[Puzzle, str]] = []
        seen: list[Any] = []
        for _ in range(_DISTRACTOR_TRIES):
            kind = _PROCESS_KINDS[int(rng.choice(len(_PROCESS_KINDS), p=_PROCESS_WEIGHTS))]
            variant = make_variant(rng, centre, states, kind)
            if variant is None:
                continue
            puzzle, variant_states = variant
            if cutout_problem(puzzle, variant_states[-1]) is not None:
                continue  # every option is a real fold-and-cut: its cutouts lie on its own folded paper
            variant_holes = holes_of(puzzle, variant_states[-1])
            if paper_problem(puzzle.sheet, variant_holes) is not None:
                continue
            if any(not distinct_regions(variant_holes, other) for other in seen):
                continue
            remember_states(puzzle.sheet, puzzle.steps, variant_states)
            chosen.append((puzzle, kind))
            seen.append(variant_holes)
            if len(chosen) == 4:
                break
        else:
            return None
        truth = chosen[answer_index][0]
        inputs = {"puzzle": truth.to_dict(), "options": [p.to_dict() for p, _ in chosen]}
        metadata = {**_describe(truth), "option_kinds": [k for _, k in chosen]}
        return inputs, {}, metadata

    def consistent_options(self, item: Item) -> list[bool]:
        """An option is right when its holes are the puzzle's holes."""
        truth = puzzle_holes(Puzzle.from_dict(item.inputs["puzzle"]))
        return [same_region(puzzle_holes(Puzzle.from_dict(o)), truth) for o in item.inputs["options"]]

    def options_distinct(self, item: Item) -> bool:
        """Every two options' holes differ by at least ``DISTINCT_AREA``."""
        holes = [puzzle_holes(Puzzle.from_dict(o)) for o in item.inputs["options"]]
        return all(distinct_regions(holes[i], holes[j]) for i in range(4) for j in range(i))

    def _question_panel_count(self, inputs: Mapping[str, Any]) -> int:
        return len(inputs["puzzle"]["steps"]) + 3

    def _pictures(self, item: Item) -> tuple[list[Any], list[Any]]:
        from foldbench.pfp.drawing import question_panel
        from foldbench.pfp.puzzle import cut_region, pattern_of
        from foldbench.pfp.render_folds import draw_cut_state, draw_pattern, draw_state

        puzzle = Puzzle.from_dict(item.inputs["puzzle"])
        states = puzzle.states()
        question = [draw_state(states[0], QUESTION_SIZE)]
        question += self._sequence_pictures(puzzle.sheet, puzzle.steps, QUESTION_SIZE)
        question += [
            draw_cut_state(states[-1], cut_region(puzzle.cutouts), QUESTION_SIZE),
            question_panel(QUESTION_SIZE),
        ]
        options = [draw_pattern(pattern_of(Puzzle.from_dict(o)), OPTION_SIZE) for o in item.inputs["options"]]
        return question, options


class MultiStepTask(_FoldTaskBase):
    """Choose the folded state that does not occur on the way from the flat sheet to the unfolded result."""

    id = "pfp/multi-step-v1"
    name = "multi-step"
    type_name = "multi-step"
    subtasks = ("3-fold",)

    def _draw(
        self, rng: np.random.Generator, subtask: str, answer_index: int, config: Mapping[str, Any]
    ) -> Drawn | None:
        sampled = sample_puzzle(rng, subtask, config)
        if sampled is None:
            return None
        puzzle, states, holes = sampled
        for _ in range(_ALTERNATIVE_TRIES):
            changed = int(rng.integers(len(puzzle.steps)))
            altered = altered_sequence(rng, puzzle.sheet, puzzle.steps, changed)
            if altered is None:
                continue
            alt_steps, alt_states = altered
            odd = alt_states[changed + 1]
            if any(not distinct_regions(odd.silhouette, s.silhouette) for s in states[1:]):
                continue
            alt_holes = holes_of(Puzzle(puzzle.sheet, alt_steps, puzzle.cutouts), alt_states[-1])
            if distinct_regions(alt_holes, holes):
                remember_states(puzzle.sheet, alt_steps, alt_states)
                break
        else:
            return None
        true_options = [{"sequence": "true", "state": int(k) + 1} for k in rng.permutation(len(puzzle.steps))]
        options = _place({"sequence": "alternative", "state": changed + 1}, true_options, answer_index)
        inputs = {"puzzle": puzzle.to_dict(), "alternative_steps": _steps_data(alt_steps), "options": options}
        metadata = {**_describe(puzzle), "changed_step": changed + 1}
        return inputs, {}, metadata

    def _option_states(self, item: Item) -> tuple[tuple[FoldState, ...], list[FoldState]]:
        puzzle = Puzzle.from_dict(item.inputs["puzzle"])
        true_states = puzzle.states()
        alt_states = sheet_states(puzzle.sheet, _steps_from(item.inputs["alternative_steps"]))
        chosen = [(true_states if o["sequence"] == "true" else alt_states)[o["state"]] for o in item.inputs["options"]]
        return true_states, chosen

    def consistent_options(self, item: Item) -> list[bool]:
        """An option is right when its outline matches none of the puzzle's folded states."""
        true_states, chosen = self._option_states(item)
        return [all(not same_region(c.silhouette, s.silhouette) for s in true_states[1:]) for c in chosen]

    def options_distinct(self, item: Item) -> bool:
        """Every two options' outlines differ by at least ``DISTINCT_AREA``."""
        _, chosen = self._option_states(item)
        return all(distinct_regions(chosen[i].silhouette, chosen[j].silhouette) for i in range(4) for j in range(i))

    def _question_panel_count(self, inputs: Mapping[str, Any]) -> int:
        return 4

    def _pictures(self, item: Item) -> tuple[list[Any], list[Any]]:
        from foldbench.pfp.drawing import question_panel
        from foldbench.pfp.puzzle import pattern_of
        from foldbench.pfp.render_folds import draw_cutouts_alone, draw_pattern, draw_state

        puzzle = Puzzle.from_dict(item.inputs["puzzle"])
        true_states, chosen = self._option_states(item)
        question = [
            draw_state(true_states[0], QUESTION_SIZE),
            question_panel(QUESTION_SIZE),
            draw_cutouts_alone(puzzle.cutouts, QUESTION_SIZE),
            draw_pattern(pattern_of(puzzle), QUESTION_SIZE),
        ]
        return question, [draw_state(state, OPTION_SIZE) for state in chosen]


class InverseTask(_FoldTaskBase):
    """Choose the fold sequence that produces the shown unfolded sheet."""

    id = "pfp/inverse-v1"
    name = "inverse"
    type_name = "inverse"
    subtasks = ("1-fold", "2-fold", "others")

    def _draw(
        self, rng: np.random.Generator, subtask: str, answer_index: int, config: Mapping[str, Any]
    ) -> Drawn | None:
        sampled = sample_puzzle(rng, subtask, config)
        if sampled is None:
            return None
        puzzle, states, holes = sampled
        num_folds, family = SUBTASK_FOLDS[subtask]
        sheet = sheet_polygon(puzzle.sheet)
        chosen: list[tuple[Step, ...]] = []
        outlines = [[s.silhouette for s in states[1:]]]
        hole_corners = _corners_near(states[0].silhouette, holes) if family == "corner" else ()
        touching = (
            ()
            if family != "corner"
            else tuple(i for i, c in enumerate(puzzle.steps[0]) if _creases_touch(states[0], (c,), holes))
        )
        for _ in range(_DISTRACTOR_TRIES):
            candidate: tuple[tuple[Step, ...], tuple[FoldState, ...]] | None
            draw = rng.random()
            if family == "corner":
                if touching and draw < 0.25:
                    step = perturbed_corner_step(rng, states[0], puzzle.steps[0], among=touching)
                else:
                    step = sample_corner_step(rng, states[0], include=hole_corners)
                if step is None or not _creases_touch(states[0], step, holes):
                    continue  # no fold here, or the holes lie away from every flap: these folds make them too
                candidate = ((step,), (states[0], apply_step(states[0], step)))
            elif draw < 0.5:
                candidate = sample_sequence(rng, sheet, num_folds, family)
            else:
                candidate = altered_sequence(rng, puzzle.sheet, puzzle.steps, int(rng.integers(num_folds)))
            if candidate is None:
                continue
            steps, candidate_states = candidate
            if steps == puzzle.steps or steps in chosen:
                continue
            candidate_outlines = [s.silhouette for s in candidate_states[1:]]
            if any(
                all(not distinct_regions(a, b) for a, b in zip(candidate_outlines, other, strict=True))
                for other in outlines
            ):
                continue
            if refold_mismatch(puzzle.sheet, steps, holes, candidate_states[-1]) < DISTINCT_AREA:
                continue
            chosen.append(steps)
            outlines.append(candidate_outlines)
            remember_states(puzzle.sheet, steps, candidate_states)
            if len(chosen) == 3:
                break
        else:
            return None
        options = _place(puzzle.steps, chosen, answer_index)
        inputs = {"puzzle": puzzle.to_dict(), "options": [_steps_data(steps) for steps in options]}
        return inputs, {}, _describe(puzzle)

    def consistent_options(self, item: Item) -> list[bool]:
        """An option is right when some cut through its folds makes exactly the holes shown."""
        puzzle = Puzzle.from_dict(item.inputs["puzzle"])
        holes = holes_of(puzzle)
        return [refold_mismatch(puzzle.sheet, _steps_from(o), holes) < SAME_AREA for o in item.inputs["options"]]

    def options_distinct(self, item: Item) -> bool:
        """Every two options differ visibly in the outline of at least one folded state."""
        sheet = item.inputs["puzzle"]["sheet"]
        outlines = [[s.silhouette for s in sheet_states(sheet, _steps_from(o))[1:]] for o in item.inputs["options"]]
        return all(
            any(distinct_regions(a, b) for a, b in zip(outlines[i], outlines[j], strict=True))
            for i in range(4)
            for j in range(i)
        )

    def _question_panel_count(self, inputs: Mapping[str, Any]) -> int:
        return 2

    def _pictures(self, item: Item) -> tuple[list[Any], list[Any]]:
        from foldbench.pfp.drawing import hstack, question_panel
        from foldbench.pfp.puzzle import pattern_of
        from foldbench.pfp.render_folds import draw_pattern

        puzzle = Puzzle.from_dict(item.inputs["puzzle"])
        question = [draw_pattern(pattern_of(puzzle), 2 * QUESTION_SIZE), question_panel(QUESTION_SIZE)]
        size = OPTION_SIZE if len(puzzle.steps) == 1 else _STRIP_SIZE
        options = [hstack(self._sequence_pictures(puzzle.sheet, _steps_from(o), size)) for o in item.inputs["options"]]
        return question, options
