"""Multi-step as the papers ask it: which of four fold steps does not occur between the flat sheet and the result."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import box

from foldbench.errors import InvalidKnobError
from foldbench.pfp.puzzle import Puzzle, holes_of, refold_mismatch, sheet_states
from foldbench.pfp.render_folds import draw_step_filled, filling
from foldbench.pfp.sequences import resolve_code
from foldbench.pfp.tolerance import DISTINCT_AREA, SHEET_SIZE
from foldbench.tasks.base import Item, TextPart
from foldbench.tasks.choice import LETTERS
from foldbench.tasks.pfp import MissingStepTask
from foldbench.tasks.pfp.missing_step import MIN_SIZE, _steps_from


@pytest.fixture(scope="module")
def task_and_items() -> tuple[MissingStepTask, list[Item]]:
    task = MissingStepTask()
    return task, list(task.generate(16, 31))


def test_three_options_are_the_folding_s_steps_and_the_answer_is_none_of_them(task_and_items: tuple) -> None:
    task, items = task_and_items
    for item in items:
        truth = item.inputs["puzzle"]["steps"]
        options = item.inputs["options"]
        answer = LETTERS.index(item.target["answer"])
        others = [o for k, o in enumerate(options) if k != answer]
        assert sorted(others, key=len) == [truth[:1], truth[:2], truth[:3]], item.id
        odd = options[answer]
        assert odd[:-1] == truth[: len(odd) - 1] and odd != truth[: len(odd)], item.id
        assert item.metadata["odd_step"] == len(odd)
        assert task.occurs(item) == [k != answer for k in range(4)], item.id
        assert task.options_distinct(item)


def test_no_cut_through_the_odd_step_s_folds_makes_the_holes_shown(task_and_items: tuple) -> None:
    task, items = task_and_items
    for item in items:
        puzzle = Puzzle.from_dict(item.inputs["puzzle"])
        holes = holes_of(puzzle)
        odd = _steps_from(item.inputs["options"][LETTERS.index(item.target["answer"])])
        assert refold_mismatch(puzzle.sheet, odd, holes) >= DISTINCT_AREA, item.id
        for k in range(1, 4):  # the true steps: a cut through the paper folded up to step k makes the holes
            assert refold_mismatch(puzzle.sheet, puzzle.steps[:k], holes) < 1.0, (item.id, k)


def test_a_step_of_the_folding_put_in_the_odd_one_s_place_leaves_no_answer(task_and_items: tuple) -> None:
    task, items = task_and_items
    item = items[0]
    answer = LETTERS.index(item.target["answer"])
    steps = list(item.inputs["options"])
    steps[answer] = item.inputs["puzzle"]["steps"][:2]  # a true step shown twice: every option occurs
    changed = item.model_copy(update={"inputs": {**item.inputs, "options": steps}})
    assert task.consistent_options(changed) == [False] * 4
    with pytest.raises(AssertionError, match="0 options are consistent"):
        task.oracle(changed)


def _is_prefix_chain(sequences: list[list]) -> bool:
    """The fold sequences, shortest first, each extend the one before by one step, starting from the flat sheet."""
    ordered = sorted(sequences, key=len)
    return all(len(s) == k + 1 and s[:k] == (ordered[k - 1] if k else []) for k, s in enumerate(ordered))


def test_by_default_the_odd_step_and_the_true_third_step_both_continue_the_chain_of_the_others(
    task_and_items: tuple,
) -> None:
    # The options alone cannot single out the answer: leaving out the odd step or the true third step leaves a
    # chain from the flat sheet either way; only the result decides between those two.
    task, items = task_and_items
    for item in items:
        options = item.inputs["options"]
        answer = LETTERS.index(item.target["answer"])
        third = next(k for k, o in enumerate(options) if k != answer and len(o) == 3)
        for left_out in (answer, third):
            assert _is_prefix_chain([o for k, o in enumerate(options) if k != left_out]), item.id
        assert item.metadata["odd_step"] == 3


def test_the_knob_odd_step_any_branches_off_at_each_of_the_three_steps_and_is_of_the_other_kind() -> None:
    task = MissingStepTask()
    items = list(task.generate(24, 5, knobs={"odd_step": "any"}))
    assert set(Counter(item.metadata["odd_step"] for item in items)) == {1, 2, 3}
    for item in items:
        level = item.metadata["odd_step"]
        true_code = item.metadata["folds"][level - 1][0]
        assert (true_code[1] == "c") != (item.metadata["odd_fold"][1] == "c"), item.id


def test_an_unknown_odd_step_knob_is_refused_in_one_line() -> None:
    with pytest.raises(InvalidKnobError, match="odd_step") as error:
        list(MissingStepTask().generate(1, 5, knobs={"odd_step": "first"}))
    assert "\n" not in str(error.value)


def test_the_prompt_asks_which_step_does_not_occur(task_and_items: tuple) -> None:
    task, items = task_and_items
    prompt = task.render(items[0])
    text = "".join(p.text for p in prompt.parts if isinstance(p, TextPart))
    assert "does not occur" in text and "three folds" in text and '{"answer": "A"}' in text
    assert prompt.template_version == "pfp-multi-step-prompt-3"


def test_results_break_down_by_base_shape_and_by_the_odd_step(task_and_items: tuple) -> None:
    task, items = task_and_items
    assert {"sheet", "odd_step"} <= set(task.spec.breakdowns)
    assert all(item.metadata["sheet"] == item.inputs["puzzle"]["sheet"] for item in items)


@settings(max_examples=60, deadline=None)
@given(
    st.floats(-150, 150),
    st.floats(-150, 150),
    st.floats(5, 300),
    st.floats(5, 300),
    st.floats(MIN_SIZE, 1.0),
    st.floats(-20, 20),
    st.floats(-20, 20),
)
def test_filling_scales_the_longer_side_to_the_placement_s_size(
    x: float, y: float, width: float, height: float, size: float, dx: float, dy: float
) -> None:
    from shapely import affinity

    outline = box(x, y, x + width, y + height)
    placed = affinity.affine_transform(outline, filling(outline, (size, dx, dy)))
    minx, miny, maxx, maxy = placed.bounds
    assert max(maxx - minx, maxy - miny) == pytest.approx(size * SHEET_SIZE)
    assert (minx + maxx) / 2 == pytest.approx(dx, abs=1e-6) and (miny + maxy) / 2 == pytest.approx(dy, abs=1e-6)
    assert (maxx - minx) * height == pytest.approx((maxy - miny) * width)  # the shape is not stretched


def test_a_drawn_step_shows_the_paper_after_the_fold_inside_the_grey_outline_before_it() -> None:
    from foldbench.pfp.drawing import CREASE, FAINT, PAPER, PAPER_BACK

    states = sheet_states("square", ())
    step = (resolve_code(states[0].silhouette, "Vc+"),)  # the right half folded over onto the left
    after = sheet_states("square", (step,))[-1]
    picture = np.asarray(draw_step_filled(after, states[0], step, 200))
    columns = np.nonzero(np.isin(picture, [PAPER, PAPER_BACK]).any(axis=0))[0]
    faint = np.nonzero((picture == FAINT).any(axis=0))[0]
    crease = np.nonzero((picture == CREASE).any(axis=0))[0]
    assert columns.max() <= 101 and faint.max() > 170  # paper on the left half only, the outline spans the sheet
    assert crease.size and abs(float(crease.mean()) - 100) <= 2  # the red crease down the middle


def _hand_made_item(options: list[tuple]) -> Item:
    """A square folded in half (right over left), in half again (top over bottom) and once more in half across the
    first crease, cut with one small square at the middle of the folded strip: holes symmetric about both
    midlines of the sheet and not about its diagonals."""
    from foldbench.pfp import ENGINE_VERSION
    from foldbench.pfp.shapes import Cutout

    states = sheet_states("square", ())
    steps: tuple = ()
    for code in ("Vc+", "Hc+", "Vc+"):
        steps = (*steps, (resolve_code(states[-1].silhouette, code),))
        states = sheet_states("square", steps)
    centre = states[-1].silhouette.centroid
    puzzle = Puzzle("square", steps, (Cutout("square", (centre.x, centre.y), 30.0),))
    data = [[[c.to_dict() for c in step] for step in option] for option in options]
    return Item(id="hand-made", task=MissingStepTask.id, seed=0, engine_version=ENGINE_VERSION,
                inputs={"puzzle": puzzle.to_dict(), "options": data}, target={"answer": "D"}, metadata={})  # fmt: skip


def test_a_first_fold_the_holes_are_symmetric_about_occurs_and_a_diagonal_one_does_not() -> None:
    flat = sheet_states("square", ())[0].silhouette
    true_steps = _hand_made_item([]).inputs["puzzle"]["steps"]
    truth = _steps_from(true_steps)
    diagonal, horizontal = ((resolve_code(flat, code),) for code in ("Dc+", "Hc+"))
    item = _hand_made_item([truth[:1], truth[:2], truth[:3], (diagonal,), (horizontal,)])
    assert MissingStepTask().occurs(item) == [True, True, True, False, True]
    four = _hand_made_item([truth[:2], truth[:1], truth[:3], (diagonal,)])
    assert MissingStepTask().oracle(four).answer == "D"
