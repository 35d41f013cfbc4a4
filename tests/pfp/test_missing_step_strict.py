"""foldbench's variant of multi-step: four whole foldings made alike from one hidden folding; only the answer's folds
can all occur on the way to the result, and the options alone do not reveal which one it is."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from foldbench.harness.audit import ChoiceItem, audit_choice_items
from foldbench.harness.suite import plan_suite
from foldbench.pfp.errors import PfpKnobError
from foldbench.pfp.memo import FoldMemo
from foldbench.pfp.puzzle import Puzzle, holes_of, refold_mismatch, sheet_states
from foldbench.pfp.sequences import SYMMETRIC_CODES, replay
from foldbench.pfp.shapes import SHEET_SHAPES, sheet_polygon
from foldbench.pfp.tolerance import DISTINCT_AREA
from foldbench.tasks.base import Item, TextPart
from foldbench.tasks.choice import LETTERS
from foldbench.tasks.pfp import MissingStepStrictTask, MissingStepTask
from foldbench.tasks.pfp.missing_step_strict import _steps_from, variant_of
from foldbench.tasks.registry import task_ids


@pytest.fixture(scope="module")
def task_and_items() -> tuple[MissingStepStrictTask, list[Item]]:
    task = MissingStepStrictTask()
    return task, list(task.generate(24, 77))


def _codes(option: list) -> list[str]:
    return [step[0]["code"] for step in option]


def test_every_option_is_the_hidden_folding_with_one_fold_replaced(task_and_items: tuple) -> None:
    _, items = task_and_items
    for item in items:
        hub = item.metadata["hub"]
        options = [_codes(o) for o in item.inputs["options"]]
        assert len({tuple(o) for o in options}) == 4, item.id
        for option, changed in zip(options, item.metadata["changed_step"], strict=True):
            assert len(option) == 3
            differing = [k for k in range(3) if option[k] != hub[k]]
            assert differing == [changed - 1], (item.id, option, hub)
        assert options[LETTERS.index(item.target["answer"])] == item.metadata["folds"]
        assert _codes(item.inputs["puzzle"]["steps"]) == item.metadata["folds"]


def test_no_option_is_a_prefix_of_another_so_no_chain_can_be_read(task_and_items: tuple) -> None:
    _, items = task_and_items
    for item in items:
        options = item.inputs["options"]
        for i, first in enumerate(options):
            for j, second in enumerate(options):
                assert i == j or second[: len(first)] != first, item.id


def test_the_engine_proves_the_answer_and_every_other_option_misses_by_a_visible_area(task_and_items: tuple) -> None:
    task, items = task_and_items
    for item in items:
        puzzle = Puzzle.from_dict(item.inputs["puzzle"])
        holes = holes_of(puzzle)
        answer = LETTERS.index(item.target["answer"])
        for k, option in enumerate(item.inputs["options"]):
            mismatch = refold_mismatch(puzzle.sheet, _steps_from(option), holes)
            if k == answer:
                assert mismatch < 1.0, item.id
            else:
                assert mismatch >= DISTINCT_AREA, (item.id, k, mismatch)
        assert task.consistent_options(item) == [k == answer for k in range(4)]
        assert task.oracle(item).answer == item.target["answer"]
        assert task.options_distinct(item)


def test_the_answer_s_folding_shown_twice_leaves_two_answers_and_the_oracle_refuses(task_and_items: tuple) -> None:
    task, items = task_and_items
    item = items[0]
    answer = LETTERS.index(item.target["answer"])
    options = list(item.inputs["options"])
    options[(answer + 1) % 4] = options[answer]
    changed = item.model_copy(update={"inputs": {**item.inputs, "options": options}})
    assert task.consistent_options(changed).count(True) == 2
    assert not task.options_distinct(changed)
    with pytest.raises(AssertionError, match="2 options are consistent"):
        task.oracle(changed)


def test_answer_letters_and_changed_steps_are_spread(task_and_items: tuple) -> None:
    _, items = task_and_items
    assert Counter(item.target["answer"] for item in items) == dict.fromkeys(LETTERS, 6)
    changed = Counter(step for item in items for step in item.metadata["changed_step"])
    assert set(changed) == {1, 2, 3}


def test_the_prefix_chain_rule_that_finds_the_paper_task_s_answer_is_at_chance_here(task_and_items: tuple) -> None:
    # The same options-only reader that narrows the paper's multi-step to two options ties all four here.
    _, items = task_and_items
    paper_items = list(MissingStepTask().generate(8, 77))

    def chain_accuracy(batch: list[Item]) -> float:
        choice = [ChoiceItem(i.id, LETTERS.index(i.target["answer"]), (), tuple(i.inputs["options"])) for i in batch]
        report = audit_choice_items(choice)
        return next(b.accuracy for b in report.baselines if b.name == "prefix chain odd one out")

    assert chain_accuracy(items) == pytest.approx(0.25)
    assert chain_accuracy(paper_items) == pytest.approx(0.5)


def test_the_prompt_asks_for_the_folding_whose_folds_can_all_occur(task_and_items: tuple) -> None:
    task, items = task_and_items
    assert task.modalities == ("image",)
    prompt = task.render(items[0], "image")
    text = "".join(p.text for p in prompt.parts if isinstance(p, TextPart))
    assert "three" in text and "cannot occur" in text and '{"answer": "A"}' in text
    assert prompt.template_version == "pfp-missing-step-strict-prompt-1"
    assert task.parse(items[0], '{"answer": "C"}').answer == "C"
    with pytest.raises(PfpKnobError, match="modality"):
        task.render(items[0], "text")


def test_the_question_shows_the_sheet_and_the_result_but_not_where_the_cut_was_made(task_and_items: tuple) -> None:
    # The cut lies on the answer's folded paper, often on no other option's: its position would point at the answer.
    from foldbench.pfp.drawing import png_bytes
    from foldbench.pfp.puzzle import pattern_of
    from foldbench.pfp.render_folds import draw_cutouts_alone, draw_pattern
    from foldbench.tasks.pfp.fold_tasks import QUESTION_SIZE

    task, items = task_and_items
    item = items[1]
    puzzle = Puzzle.from_dict(item.inputs["puzzle"])
    files = dict(task.assets(item))
    question = [files[path] for path in item.inputs["images"]["question"]]
    assert len(question) == 3
    assert png_bytes(draw_cutouts_alone(puzzle.cutouts, QUESTION_SIZE)) not in question
    assert question[-1] == png_bytes(draw_pattern(pattern_of(puzzle), QUESTION_SIZE))
    text = "".join(p.text for p in task.render(item).parts if isinstance(p, TextPart))
    assert "where they were cut" not in text and "holes" in text


def test_it_has_no_paper_preset_and_says_so_in_one_line() -> None:
    with pytest.raises(PfpKnobError, match="not one of the papers' tasks") as error:
        list(MissingStepStrictTask().generate(1, 0, knobs={"preset": "paper"}))
    assert "\n" not in str(error.value)


def test_it_is_registered_and_part_of_the_default_suite() -> None:
    assert MissingStepStrictTask.id in task_ids()
    parts = {part.task_id: part for part in plan_suite(10, with_video=False)}
    assert parts[MissingStepStrictTask.id].modalities == ("image",)
    assert MissingStepTask.id in parts  # the paper's question stays beside it


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from(SHEET_SHAPES),
    st.lists(st.sampled_from(SYMMETRIC_CODES), min_size=3, max_size=3),
    st.integers(0, 2),
    st.sampled_from(SYMMETRIC_CODES),
)
def test_a_variant_is_the_replayed_folding_of_its_codes(
    sheet: str, codes: list[str], position: int, code: str
) -> None:
    memo = FoldMemo()
    found = variant_of(sheet, tuple(codes), position, code, memo)
    wanted = [*codes[:position], code, *codes[position + 1 :]]
    assume(found is not None)
    assert found is not None
    steps, states = found
    assert [step[0].code for step in steps] == wanted
    replayed = replay(sheet_polygon(sheet), steps)
    assert len(states) == len(replayed) == 4
    for ours, theirs in zip(states, replayed, strict=True):
        assert ours.silhouette.symmetric_difference(theirs.silhouette).area < 1e-6
    assert sheet_states(sheet, steps, memo) == states  # kept in the memo under the key the tasks look up
