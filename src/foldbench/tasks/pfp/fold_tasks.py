"""Three fold-and-cut tasks: single-step, final-fold and inverse reasoning.

* **single-step** (1-fold, 2-fold, 3-fold, others): the folds and the cut are shown; choose the unfolded sheet.
  The four options are the results of four fold-and-cut processes, each a hidden puzzle with one mistake made
  (another fold line or side, a cutout moved, resized, reshaped, added or forgotten); the question shows the
  process of one of them. Each option is a clean sheet visibly different from the others.
* **final-fold** (3-fold; the papers' multi-step question is :mod:`foldbench.tasks.pfp.missing_step`): the flat
  sheet, the cutouts and the unfolded sheet are shown; choose the paper as it lies after the three folds. The four
  options share the first two folds and differ in the third (four of the valid third folds, drawn at random, whose
  folded papers overlap); the cut is placed where all four lie, so it goes through every option's paper, each cutout
  placed so that it cuts no sliver off, and keeps clear of the creases and edge of, the layers of the option
  preferred as the answer (legible by construction), the first also touching the paper at least three of the third
  folds change (v4); the question shows the result of one of them, and the others unfold to visibly different
  results.
* **inverse** (1-fold, 2-fold, others): the unfolded sheet is shown; choose the fold sequence that makes it. The
  four options are drawn alike (fresh random sequences of the family, never edits of the answer; corner folds
  all fold the same corners, each with its own creases); the cut is made through the one at the answer's letter
  and kept only when no other option can make its holes (each cutout is placed where its own hole pieces are not
  too small, nor too close to each other or to the edge; a cut whose pieces fail those rules together is dropped
  before they are joined; for corner folds the first cutout's holes touch every other option's flaps, v4). A
  sequence is consistent when some cut
  through it gives exactly the holes shown (:func:`foldbench.pfp.puzzle.refold_mismatch`); every wrong option
  misses by at least ``DISTINCT_AREA``.

Options as a set: the four options of an item are drawn alike and the answer is one of them at random, so no rule
that sees only the options can single the answer out (``foldbench audit`` checks this; see docs/families/pfp.md).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import shapely
from shapely import affinity

from foldbench.pfp.cutouts import capacity, capacity_of, sample_cutouts
from foldbench.pfp.folding import (
    Crease,
    FoldState,
    UnfoldedPieces,
    apply_step,
    carry_back,
    cut_layers,
    half_plane,
    pieces_difference_area,
    reflection,
    step_problem,
)
from foldbench.pfp.memo import FoldMemo
from foldbench.pfp.puzzle import (
    Puzzle,
    clean_paper,
    cut_region,
    cutout_problem,
    holes_of,
    piece_size_problem,
    piece_spacing_problem,
    puzzle_holes,
    refold_mismatch,
    refold_misses_by,
    remember_states,
    sheet_states,
)
from foldbench.pfp.sequences import SYMMETRIC_CODES, Step, resolve_code, sample_corner_step, sample_sequence
from foldbench.pfp.shapes import SheetShape, sheet_polygon
from foldbench.pfp.tolerance import DISTINCT_AREA, SAME_AREA, difference_area, distinct_regions, same_region
from foldbench.pfp.variants import make_variant
from foldbench.pfp.weighted import cumulative, weighted_index
from foldbench.tasks.base import Item
from foldbench.tasks.choice_fields import option_records, options_field
from foldbench.tasks.knobs import Knobs
from foldbench.tasks.pfp.common import PfpTaskBase
from foldbench.tasks.pfp.fold_sampling import (
    SUBTASK_FOLDS,
    check_fold_knobs,
    cuts_through,
    draw_cutout_count,
    legible_pieces,
    sample_puzzle,
)
from foldbench.tasks.pfp.knobs import PfpFoldKnobs

__all__ = ["OPTION_SIZE", "QUESTION_SIZE", "FinalFoldTask", "FoldTaskBase", "InverseTask", "SingleStepTask",
           "first_cut_missing_others", "options_make_the_holes"]

QUESTION_SIZE = 128
OPTION_SIZE = 168
_STRIP_SIZE = 112
_STEP_PICTURES = 512
"""Fold-step pictures a task keeps (about 16 kB each)."""
_PROCESS_KINDS = ("axis", "count", "size", "shape", "position")
_PROCESS_WEIGHTS = np.array([0.3, 0.175, 0.175, 0.175, 0.175])
_PROCESS_SUMS = cumulative(_PROCESS_WEIGHTS)
_DISTRACTOR_TRIES = 40
_INVERSE_CUT_TRIES = 8
"""Inverse: cuts tried through the answer's folds before all four sequences are drawn again."""
_MULTI_STEP_CUT_TRIES = 10
"""Multi-step: cuts tried through the four folded papers before the folds are drawn again (folding costs more than
a cut)."""
_MIN_SHARED_FRACTION = 0.35
"""Multi-step: the four folded papers must share at least this fraction of each one's outline (the cut lies there)."""
_ROUNDING_MARGIN = 1.0
"""Square units: a cheap estimate of an area is trusted to decide a check only when it misses by more than this."""
Drawn = tuple[dict[str, Any], dict[str, Any], dict[str, Any]]


def _clearly_same(first: Any, second: Any) -> bool:
    """Whether two outlines are not visibly different with room to spare (``DISTINCT_AREA`` less the margin)."""
    if abs(first.area - second.area) >= DISTINCT_AREA - _ROUNDING_MARGIN:
        return False
    return difference_area(first, second) < DISTINCT_AREA - _ROUNDING_MARGIN


def _steps_data(steps: tuple[Step, ...]) -> list[list[dict[str, Any]]]:
    return [[c.to_dict() for c in step] for step in steps]


def _steps_from(data: list[list[dict[str, Any]]]) -> tuple[Step, ...]:
    return tuple(tuple(Crease.from_dict(c) for c in step) for step in data)


def first_cut_missing_others(sheet: Any, cuts: Iterable[tuple[Puzzle, Any]],
                             others: Sequence[tuple[tuple[Step, ...], Sequence[FoldState]]]
                             ) -> tuple[Puzzle, Any, Any] | None:
    """The first of ``cuts`` (puzzles with their holes) that leaves clean paper and whose holes every other
    folding (steps, states) misses by at least ``DISTINCT_AREA`` under any cut, with the paper left; None if none."""
    for cut, holes in cuts:
        left = clean_paper(sheet, holes)
        if left is not None and all(
            refold_misses_by(sheet, steps, holes, DISTINCT_AREA, states[-1]) for steps, states in others
        ):
            return cut, holes, left
    return None


def options_make_the_holes(item: Item, memo: FoldMemo) -> list[bool]:
    """For each option of an item whose options are fold sequences of its puzzle's sheet: whether some cut through
    the paper folded so makes exactly the holes the puzzle shows (:func:`foldbench.pfp.puzzle.refold_mismatch`)."""
    puzzle = Puzzle.from_dict(item.inputs["puzzle"])
    holes = holes_of(puzzle)
    return [refold_mismatch(puzzle.sheet, _steps_from(o), holes, memo=memo) < SAME_AREA
            for o in option_records(item.inputs)]


def _describe(puzzle: Puzzle) -> dict[str, Any]:
    return {
        "sheet": puzzle.sheet,
        "folds": [[c.code for c in step] for step in puzzle.steps],
        "cutouts": [c.shape for c in puzzle.cutouts],
    }


class _LazyHoles:
    """The holes a cut makes through each option's folded paper: each option's layers' parts of the cut, those
    pieces carried back to the sheet, and joined, each computed only when asked for."""

    def __init__(self, finals: list[FoldState], cut: Any) -> None:
        self._finals = finals
        self._cut = cut
        self._parts: dict[int, np.ndarray] = {}
        self._areas: dict[int, float] = {}
        self._unfolded: dict[int, UnfoldedPieces] = {}
        self._holes: dict[int, Any] = {}

    def parts(self, k: int) -> np.ndarray:
        """Option ``k``'s layers' parts of the cut, where they lie folded."""
        if k not in self._parts:
            self._parts[k] = cut_layers(self._finals[k], self._cut)
        return self._parts[k]

    def area(self, k: int) -> float:
        """The summed area of option ``k``'s unjoined holes (the layers' maps keep areas)."""
        if k not in self._areas:
            self._areas[k] = float(shapely.area(self.parts(k)).sum())
        return self._areas[k]

    def pieces(self, k: int) -> UnfoldedPieces:
        """Option ``k``'s unjoined pieces on the sheet."""
        if k not in self._unfolded:
            self._unfolded[k] = carry_back(self._finals[k], self.parts(k))
        return self._unfolded[k]

    def __getitem__(self, k: int) -> Any:
        if k not in self._holes:
            self._holes[k] = self.pieces(k).holes()
        return self._holes[k]

    def same(self, i: int, j: int) -> bool:
        """Whether options ``i`` and ``j`` make holes less than ``DISTINCT_AREA`` apart: decided by the summed areas
        and overlaps of their pieces, unjoined (:func:`~foldbench.pfp.folding.pieces_difference_area`), and only
        within rounding of ``DISTINCT_AREA`` by the joined holes themselves."""
        if abs(self.area(i) - self.area(j)) >= DISTINCT_AREA + _ROUNDING_MARGIN:
            return False
        estimate = pieces_difference_area(self.pieces(i), self.pieces(j))
        if abs(estimate - DISTINCT_AREA) > _ROUNDING_MARGIN:  # False for NaN
            return estimate < DISTINCT_AREA
        return not distinct_regions(self[i], self[j])


def _answer_and_results(
    by_preference: list[int], sheet: SheetShape, finals: list[FoldState], cutouts: tuple[Any, ...]
) -> tuple[int, _LazyHoles, Any] | None:
    """The answer's index, the holes the cut makes through each folded paper and the answer's paper left, or None
    when two options make the same holes (checked first: the commoner and cheaper failure) or no option's result
    is legible. The cutouts lie on every option's paper (they are placed on the paper all four share).

    Only the answer's result is drawn (in the question): it alone must pass the quality rules. The answer is the
    first option in ``by_preference`` whose result passes them. A candidate's unjoined pieces are
    checked first (:func:`~foldbench.pfp.puzzle.piece_size_problem` while folded, then
    :func:`~foldbench.pfp.puzzle.piece_spacing_problem`); only those that pass are joined and
    checked whole. Two options' holes are compared by :meth:`_LazyHoles.same`."""
    results = _LazyHoles(finals, cut_region(cutouts))
    if any(results.same(i, j) for i in range(len(finals)) for j in range(i)):
        return None
    for chosen in by_preference:
        if piece_size_problem(results.parts(chosen)) is not None:
            continue
        if piece_spacing_problem(sheet, results.pieces(chosen).pieces) is not None:
            continue
        left = clean_paper(sheet, results[chosen])
        if left is not None:
            break
    else:
        return None
    return chosen, results, left


def _changed_paper(before: FoldState, crease: Crease) -> Any:
    """The paper a one-crease fold of ``before`` changes, where it lies folded: its flap before and after the fold
    (elsewhere the folded paper has the layers it had before)."""
    flap = before.silhouette.intersection(half_plane(crease))
    return shapely.union_all([flap, affinity.affine_transform(flap, reflection(crease))])


def _touches_every_step(state: FoldState, steps: list[Step]) -> Callable[[UnfoldedPieces], bool]:
    """A rule for a cut's unjoined hole pieces: for every one-step fold of ``state`` in ``steps``, some crease moves
    paper with holes or lays its flap on holes. Holes that no crease of a fold touches are left alone by that fold,
    which is then consistent with them; holes only grow as cutouts are added, so a cut whose first cutout passes
    the rule passes it whole."""
    regions = [shapely.union_all([_changed_paper(state, crease) for crease in step]) for step in steps]

    def rule(pieces: UnfoldedPieces) -> bool:
        parts = np.empty(len(pieces.pieces), dtype=object)
        parts[:] = pieces.pieces
        return all(shapely.intersects(parts, region).any() for region in regions)

    return rule


class FoldTaskBase(PfpTaskBase):
    """The shared half of the fold-and-cut tasks: their knobs, fold memo and step pictures."""

    knob_schema: type[Knobs] = PfpFoldKnobs
    balance_shapes = False
    """Whether the ``paper`` preset balances the base shapes (item ``i`` on the ``i``-th shape in turn)."""

    def __init__(self, memo: FoldMemo | None = None) -> None:
        self.memo = memo if memo is not None else FoldMemo()
        """The fold states and holes this task has computed recently (its own; pass one in to share it)."""
        self.step_pictures = FoldMemo(size=_STEP_PICTURES)
        """The pictures of fold steps this task has drawn recently (see :meth:`_sequence_pictures`)."""

    def _check_knobs(self, config: dict[str, Any]) -> None:
        check_fold_knobs(self.id, config)

    def _item_config(self, index: int, config: Mapping[str, Any]) -> Mapping[str, Any]:
        """With the ``paper`` preset and :attr:`balance_shapes`, item ``index`` is drawn on the ``index``-th shape in
        turn (120 of each of the five in 600 items, as the papers' multi-step table)."""
        if config.get("preset") != "paper" or not self.balance_shapes:
            return config
        shapes = config["shapes"]
        return {**config, "shapes": (shapes[index % len(shapes)],)}

    def _sequence_pictures(self, sheet: SheetShape, steps: tuple[Step, ...], size: int) -> list[Any]:
        """The picture of each fold step (the paper before it in grey, its creases in red, the paper after it), as
        copies. A step's picture depends only on the sheet, the steps up to it and the size, and the options of an
        item (and of the items after it) share their first steps, so each is drawn once and kept in
        :attr:`step_pictures`."""
        from foldbench.pfp.render_folds import draw_state

        states: tuple[FoldState, ...] | None = None
        pictures = []
        for k in range(len(steps)):
            key = (sheet, steps[: k + 1], size)
            picture = self.step_pictures.get("step", key)
            if picture is None:
                states = states if states is not None else sheet_states(sheet, steps, self.memo)
                picture = draw_state(states[k + 1], size, previous=states[k], creases=steps[k])
                self.step_pictures.put("step", key, picture)
            pictures.append(picture.copy())
        return pictures


    def _flat_to_result_row(self, puzzle: Puzzle) -> list[Any]:
        """The question row from the flat sheet to the unfolded result: the sheet, "?", the cutouts, the holes."""
        from foldbench.pfp.drawing import question_panel
        from foldbench.pfp.puzzle import pattern_of
        from foldbench.pfp.render_folds import draw_cutouts_alone, draw_pattern, draw_state

        return [
            draw_state(puzzle.states(self.memo)[0], QUESTION_SIZE),
            question_panel(QUESTION_SIZE),
            draw_cutouts_alone(puzzle.cutouts, QUESTION_SIZE),
            draw_pattern(pattern_of(puzzle, memo=self.memo), QUESTION_SIZE),
        ]


class SingleStepTask(FoldTaskBase):
    """Choose the unfolded sheet after the shown folds and cut."""

    id = "pfp/single-step-v2"
    name = "single-step"
    type_name = "single-step"
    subtasks = ("1-fold", "2-fold", "3-fold", "others")
    paper_counts = {"1-fold": 122, "2-fold": 200, "3-fold": 200, "others": 78}

    def _draw(
        self, rng: np.random.Generator, subtask: str, answer_index: int, config: Mapping[str, Any]
    ) -> Drawn | None:
        sampled = sample_puzzle(rng, subtask, config, self.memo)
        if sampled is None:
            return None
        centre, states, _ = sampled
        chosen: list[tuple[Puzzle, str]] = []
        seen: list[Any] = []
        for _ in range(_DISTRACTOR_TRIES):
            kind = _PROCESS_KINDS[weighted_index(rng, _PROCESS_SUMS)]
            variant = make_variant(rng, centre, states, kind)
            if variant is None:
                continue
            puzzle, variant_states = variant
            if cutout_problem(puzzle, variant_states[-1]) is not None:
                continue  # every option is a real fold-and-cut: its cutouts lie on its own folded paper
            variant_holes = holes_of(puzzle, variant_states[-1])
            if any(not distinct_regions(variant_holes, other) for other in seen):
                continue
            pattern = clean_paper(puzzle.sheet, variant_holes)
            if pattern is None:
                continue
            remember_states(self.memo, puzzle.sheet, puzzle.steps, variant_states)
            self.memo.put("holes", puzzle, variant_holes)
            self.memo.put("pattern", puzzle, pattern)
            chosen.append((puzzle, kind))
            seen.append(variant_holes)
            if len(chosen) == 4:
                break
        else:
            return None
        truth = chosen[answer_index][0]
        inputs = {"puzzle": truth.to_dict(), **options_field([p.to_dict() for p, _ in chosen])}
        metadata = {**_describe(truth), "option_kinds": [k for _, k in chosen]}
        return inputs, {}, metadata

    def consistent_options(self, item: Item) -> list[bool]:
        """An option is right when its holes are the puzzle's holes."""
        truth = puzzle_holes(Puzzle.from_dict(item.inputs["puzzle"]), self.memo)
        return [same_region(puzzle_holes(Puzzle.from_dict(o), self.memo), truth) for o in option_records(item.inputs)]

    def options_distinct(self, item: Item) -> bool:
        """Every two options' holes differ by at least ``DISTINCT_AREA``."""
        holes = [puzzle_holes(Puzzle.from_dict(o), self.memo) for o in option_records(item.inputs)]
        return all(distinct_regions(holes[i], holes[j]) for i in range(4) for j in range(i))

    def _question_panel_count(self, inputs: Mapping[str, Any]) -> int:
        return len(inputs["puzzle"]["steps"]) + 3

    def _pictures(self, item: Item) -> tuple[list[Any], list[Any]]:
        from foldbench.pfp.drawing import question_panel
        from foldbench.pfp.puzzle import cut_region, pattern_of
        from foldbench.pfp.render_folds import draw_cut_state, draw_pattern, draw_state

        puzzle = Puzzle.from_dict(item.inputs["puzzle"])
        states = puzzle.states(self.memo)
        question = [draw_state(states[0], QUESTION_SIZE)]
        question += self._sequence_pictures(puzzle.sheet, puzzle.steps, QUESTION_SIZE)
        question += [
            draw_cut_state(states[-1], cut_region(puzzle.cutouts), QUESTION_SIZE),
            question_panel(QUESTION_SIZE),
        ]
        options = [
            draw_pattern(pattern_of(Puzzle.from_dict(o), memo=self.memo), OPTION_SIZE)
            for o in option_records(item.inputs)
        ]
        return question, options


class FinalFoldTask(FoldTaskBase):
    """Choose the folded paper (after all three folds) that the shown cut turns into the shown result.

    Not in the default suite (``foldbench suite`` runs it only when asked for with ``--tasks pfp/final-fold``): it
    fails the multiple-choice audit (at 600 items, seed 2027, the reference farthest by grey L1 picks 35.7 %) and a
    reader that never unfolds, picking the option whose folded paper covers least of the result's hole area, scores
    56.8 %, since the holes made by the answer's third fold lie where that fold's flap was (docs/papers/pfp.md).
    """

    id = "pfp/final-fold-v4"
    in_default_suite = False
    name = "final-fold"
    type_name = "final-fold"
    subtasks = ("3-fold",)

    def _draw(
        self, rng: np.random.Generator, subtask: str, answer_index: int, config: Mapping[str, Any]
    ) -> Drawn | None:
        shapes = config["shapes"]
        sheet = shapes[int(rng.integers(len(shapes)))]
        prefix = sample_sequence(rng, sheet_polygon(sheet), 2, "symmetric", memo=self.memo, sheet_name=sheet)
        if prefix is None:
            return None
        first_steps, first_states = prefix
        before = first_states[-1]
        lasts: list[Step] = []
        finals: list[FoldState] = []
        common = before.silhouette
        for code_index in rng.permutation(len(SYMMETRIC_CODES)):
            last = (resolve_code(before.silhouette, SYMMETRIC_CODES[int(code_index)]),)
            # A valid fold lays its flap inside the paper that stays, so that paper is the folded outline (up to
            # rounding): third folds that clearly fail the checks below are dropped before the fold is checked and
            # the layers are folded (the checks only filter, so their order changes no item).
            staying = before.silhouette.difference(half_plane(last[0]))
            if any(_clearly_same(staying, other.silhouette) for other in finals) or (
                common.intersection(staying).area < _MIN_SHARED_FRACTION * staying.area - _ROUNDING_MARGIN
            ):
                continue
            if step_problem(before, last) is not None:
                continue
            final = apply_step(before, last)
            if any(not distinct_regions(final.silhouette, other.silhouette) for other in finals):
                continue
            shared = common.intersection(final.silhouette)
            if shared.area < _MIN_SHARED_FRACTION * final.silhouette.area:
                continue
            lasts.append(last)
            finals.append(final)
            common = shared
            if len(lasts) == 4:
                break
        else:
            return None
        count = draw_cutout_count(rng, config["cutouts"], capacity_of(common))
        if count is None:
            return None
        # Small folded papers pass the quality rules more often, so the answer is the option nearest to a size rank
        # drawn at random (ties broken at random) among those whose result passes; otherwise "the smallest paper"
        # would beat chance. The cutouts are placed so that none cuts a sliver off a layer of the preferred option
        # (legible by construction: most cuts then pass).
        size_rank = np.argsort(np.argsort([final.silhouette.area for final in finals]))
        target, tie_break = int(rng.integers(4)), rng.random(4)
        by_preference = sorted(range(4), key=lambda k: (abs(int(size_rank[k]) - target), tie_break[k]))
        preferred = finals[by_preference[0]]

        sequences = [first_steps + (last,) for last in lasts]
        changed = np.empty(4, dtype=object)
        changed[:] = [_changed_paper(before, last[0]) for last in lasts]

        def placement(polygon: Any, placed: tuple[Any, ...]) -> bool:
            # A cut that misses the paper two third folds change makes the same holes through both options: the
            # first cutout touches the changed paper of at least three options.
            if not placed and int(shapely.intersects(changed, polygon).sum()) < 3:
                return False
            return legible_pieces(sheet, preferred, polygon) is not None

        for _ in range(_MULTI_STEP_CUT_TRIES):
            cutouts = sample_cutouts(rng, common, count, accept=placement)
            if cutouts is None:
                continue
            found = _answer_and_results(by_preference, sheet, finals, cutouts)
            if found is not None:
                chosen, results, left = found
                break
        else:
            return None
        order = [k for k in rng.permutation(4).tolist() if k != chosen]
        order.insert(answer_index, chosen)
        sequences = [sequences[k] for k in order]
        finals = [finals[k] for k in order]
        for steps, final in zip(sequences, finals, strict=True):
            remember_states(self.memo, sheet, steps, (*first_states, final))
        centre = Puzzle(sheet, first_steps, cutouts)
        truth = Puzzle(centre.sheet, sequences[answer_index], centre.cutouts)
        self.memo.put("holes", truth, results[chosen])
        self.memo.put("pattern", truth, left)
        inputs = {"puzzle": truth.to_dict(), **options_field([_steps_data(steps) for steps in sequences])}
        return inputs, {}, _describe(truth)

    def consistent_options(self, item: Item) -> list[bool]:
        """An option is right when the shown cut through its folded paper unfolds to the shown result."""
        puzzle = Puzzle.from_dict(item.inputs["puzzle"])
        truth = puzzle_holes(puzzle, self.memo)
        return [
            same_region(puzzle_holes(Puzzle(puzzle.sheet, _steps_from(o), puzzle.cutouts), self.memo), truth)
            for o in option_records(item.inputs)
        ]

    def options_distinct(self, item: Item) -> bool:
        """Every two options' outlines differ by at least ``DISTINCT_AREA``."""
        sheet = item.inputs["puzzle"]["sheet"]
        outlines = [sheet_states(sheet, _steps_from(o), self.memo)[-1].silhouette for o in option_records(item.inputs)]
        return all(distinct_regions(outlines[i], outlines[j]) for i in range(4) for j in range(i))

    def _question_panel_count(self, inputs: Mapping[str, Any]) -> int:
        return 4

    def _pictures(self, item: Item) -> tuple[list[Any], list[Any]]:
        from foldbench.pfp.render_folds import draw_state

        puzzle = Puzzle.from_dict(item.inputs["puzzle"])
        question = self._flat_to_result_row(puzzle)
        sheet = puzzle.sheet
        options = [
            draw_state(sheet_states(sheet, _steps_from(o), self.memo)[-1], OPTION_SIZE)
            for o in option_records(item.inputs)
        ]
        return question, options


class InverseTask(FoldTaskBase):
    """Choose the fold sequence that produces the shown unfolded sheet."""

    id = "pfp/inverse-v4"
    name = "inverse"
    type_name = "inverse"
    subtasks = ("1-fold", "2-fold", "others")
    paper_counts = {"1-fold": 200, "2-fold": 200, "others": 200}

    def _draw(
        self, rng: np.random.Generator, subtask: str, answer_index: int, config: Mapping[str, Any]
    ) -> Drawn | None:
        num_folds, family = SUBTASK_FOLDS[subtask]
        shapes = config["shapes"]
        sheet = shapes[int(rng.integers(len(shapes)))]
        flat = sheet_states(sheet, (), self.memo)[0]
        sequences: list[tuple[tuple[Step, ...], tuple[FoldState, ...]]] = []
        corners: tuple[int, ...] | None = None  # corner folds: every option folds the corners the first one folds
        for _ in range(_DISTRACTOR_TRIES):
            candidate: tuple[tuple[Step, ...], tuple[FoldState, ...]] | None
            if family == "corner":
                step = sample_corner_step(rng, flat, corners=corners)
                candidate = None if step is None else ((step,), (flat, apply_step(flat, step)))
            else:
                candidate = sample_sequence(rng, flat.silhouette, num_folds, family, memo=self.memo, sheet_name=sheet)
            if candidate is None:
                continue
            if family == "corner":
                corners = tuple(int(crease.code[1:]) for crease in candidate[0][0])
            outlines = [s.silhouette for s in candidate[1][1:]]
            if any(
                all(not distinct_regions(a, b.silhouette) for a, b in zip(outlines, other[1][1:], strict=True))
                for other in sequences
            ):
                continue
            sequences.append(candidate)
            if len(sequences) == 4:
                break
        else:
            return None
        # The four sequences are drawn alike; the answer is the one at the answer's letter, and the cut is made
        # through it. A cut is kept only when every other sequence fails to make its holes.
        steps, states = sequences[answer_index]
        count = draw_cutout_count(rng, config["cutouts"], capacity(sheet, num_folds))
        if count is None:
            return None
        # The other sequences, the one whose folded paper looks most like the answer's first: it is the likeliest to
        # make the answer's holes too, so a cut it explains is refused after one check.
        others = sorted(
            (other for k, other in enumerate(sequences) if k != answer_index),
            key=lambda other: difference_area(other[1][-1].silhouette, states[-1].silhouette),
        )
        rule = None
        if family == "corner":  # the first cutout's holes touch every other option's flaps
            rule = _touches_every_step(flat, [other[0][0] for other in others])
        cuts = cuts_through(
            rng, sheet, steps, states[-1], count, _INVERSE_CUT_TRIES, legible=True, first_pieces_rule=rule
        )
        kept = first_cut_missing_others(sheet, cuts, others)
        if kept is None:
            return None
        puzzle, holes, left = kept
        for other_steps, other_states in sequences:
            remember_states(self.memo, sheet, other_steps, other_states)
        self.memo.put("holes", puzzle, holes)
        self.memo.put("pattern", puzzle, left)
        inputs = {"puzzle": puzzle.to_dict(), **options_field([_steps_data(s) for s, _ in sequences])}
        return inputs, {}, _describe(puzzle)

    def consistent_options(self, item: Item) -> list[bool]:
        """An option is right when some cut through its folds makes exactly the holes shown."""
        return options_make_the_holes(item, self.memo)

    def options_distinct(self, item: Item) -> bool:
        """Every two options differ visibly in the outline of at least one folded state."""
        sheet = item.inputs["puzzle"]["sheet"]
        outlines = [
            [s.silhouette for s in sheet_states(sheet, _steps_from(o), self.memo)[1:]]
            for o in option_records(item.inputs)
        ]
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
        question = [draw_pattern(pattern_of(puzzle, memo=self.memo), 2 * QUESTION_SIZE), question_panel(QUESTION_SIZE)]
        size = OPTION_SIZE if len(puzzle.steps) == 1 else _STRIP_SIZE
        options = [hstack(self._sequence_pictures(puzzle.sheet, _steps_from(o), size))
            for o in option_records(item.inputs)]
        return question, options
