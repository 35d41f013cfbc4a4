"""The typed contract of a choice item: it reads what the choice tasks write, agrees with their engines, and never
fails on a record that is not a choice item."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from foldbench.tasks import make
from foldbench.tasks.choice import LETTERS
from foldbench.tasks.choice_question import ChoiceQuestion, offered_choices


@pytest.mark.parametrize(
    ("task_id", "pictures", "reference"),
    [
        ("pfp/single-step-v2", 4, True),  # its last question picture
        ("origamibench/one-step-associative-v5", 4, True),
        ("origamispace/foldability-v2", 4, False),
    ],
)
def test_a_lettered_item_gives_its_answer_pictures_and_subtask(task_id: str, pictures: int, reference: bool):
    task = make(task_id)
    for item in task.generate(2, 3):
        question = ChoiceQuestion.of(item)
        assert question is not None and not question.is_probe
        assert LETTERS[question.answer_index] == task.oracle(item).answer  # type: ignore[index,attr-defined]
        assert len(question.option_pictures) == pictures
        assert all(path.startswith(f"images/{item.id}/") for path in question.option_pictures)
        assert (question.reference_picture is not None) == reference
        assert question.subtask == (item.metadata.get("subtask") if task_id.startswith("pfp/") else None)


def test_a_probe_offers_its_answers_as_text_and_names_its_question():
    task = make("mentalblackboard/perception-v2")
    for item in task.generate(6, 2):
        question = ChoiceQuestion.of(item)
        assert question is not None and question.is_probe
        assert question.choices[question.answer_index] == task.oracle(item).answer  # type: ignore[index,attr-defined]
        assert question.question_kind == item.metadata["question"]


def test_a_record_read_back_from_json_is_the_same_question():
    item = next(iter(make("pfp/single-step-v2").generate(1, 8)))
    record = json.loads(item.model_dump_json())
    assert ChoiceQuestion.of_record(record) == ChoiceQuestion.of(item)


def test_an_open_answer_task_has_no_choice_question():
    item = next(iter(make("mentalblackboard/prediction-v1").generate(1, 0)))
    assert ChoiceQuestion.of(item) is None


def test_offered_choices_are_read_back():
    record = {"inputs": offered_choices(("left", "right")), "target": {"answer": "right"}, "metadata": {}}
    question = ChoiceQuestion.of_record(record)
    assert question is not None and question.choices == ("left", "right") and question.answer_index == 1


def test_a_letter_beyond_d_keeps_its_place_and_an_answer_not_offered_has_none():
    assert ChoiceQuestion.of_record({"target": {"answer": "F"}}).answer_index == 5  # type: ignore[union-attr]
    probe = {"inputs": {"choices": ["1", "2"]}, "target": {"answer": "3"}}
    assert ChoiceQuestion.of_record(probe).answer_index is None  # type: ignore[union-attr]


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(
        ["answer", "choices", "options", "images", "reference", "question", "subtask"]), inner, max_size=4),
    max_leaves=12,
)  # fmt: skip


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.sampled_from(["inputs", "target", "metadata", "id"]), JSON, max_size=4))
def test_any_json_record_is_read_or_refused_without_an_error(record: dict):
    question = ChoiceQuestion.of_record(record)
    if question is not None:
        assert isinstance(question.answer, str)
        assert all(isinstance(p, str) for p in question.option_pictures)
