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


def test_a_probe_asks_the_question_its_prompt_shows_and_a_lettered_item_asks_none():
    from foldbench.errors import FoldbenchError
    from foldbench.tasks.probes import asked_question

    task = make("mentalblackboard/perception-v2")
    for item in task.generate(3, 4, modalities=("text",)):
        question = ChoiceQuestion.of(item)
        assert question is not None and question.question_text == asked_question(item)
        assert asked_question(item) in task.render(item, "text").text
    lettered = next(iter(make("pfp/single-step-v2").generate(1, 8)))
    with pytest.raises(FoldbenchError, match="asks no question"):
        asked_question(lettered)


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


JSON_VALUE = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=8,
)
TEXT = st.text(max_size=8)


@st.composite
def questions(draw: st.DrawFn) -> ChoiceQuestion:
    """Any valid choice question: lettered, or offering its answers as text (the answer offered or not)."""
    choices = tuple(draw(st.lists(TEXT, max_size=5)))
    answer = draw(st.sampled_from(choices) | TEXT) if choices else draw(st.sampled_from("ABCDEFGHIJKLMNOPQRSTUVWXYZ"))
    return ChoiceQuestion(
        answer=answer,
        choices=choices,
        question_text=draw(st.none() | TEXT),
        option_records=tuple(draw(st.lists(JSON_VALUE, max_size=4))),
        option_sources=tuple(draw(st.lists(JSON_VALUE, max_size=4))),
        option_pictures=tuple(draw(st.lists(TEXT, max_size=4))),
        question_pictures=tuple(draw(st.lists(TEXT, max_size=4))),
        reference=draw(st.none() | TEXT),
        subtask=draw(st.none() | TEXT),
        question_kind=draw(st.none() | TEXT),
    )


@settings(max_examples=200, deadline=None)
@given(questions())
def test_a_written_question_reads_back_as_itself_through_json(question: ChoiceQuestion):
    record = json.loads(json.dumps(question.item_fields()._asdict()))
    assert ChoiceQuestion.of_record(record) == question


@settings(max_examples=100, deadline=None)
@given(questions())
def test_the_reference_picture_is_the_named_one_else_the_last_question_picture(question: ChoiceQuestion):
    read = ChoiceQuestion.of_record(question.item_fields()._asdict())
    assert read is not None
    if question.reference:
        assert read.reference_picture == question.reference
    elif question.question_pictures and question.question_pictures[-1]:
        assert read.reference_picture == question.question_pictures[-1]
    else:
        assert read.reference_picture is None


def test_a_question_needs_a_letter_or_offered_answers():
    with pytest.raises(ValueError, match="not an option letter"):
        ChoiceQuestion(answer="left")
    assert ChoiceQuestion(answer="left", choices=("left", "right")).answer_index == 0


def _contains(outer: object, inner: object) -> bool:
    """Whether every key of the (nested) dict ``inner`` is in ``outer`` with the same value."""
    if isinstance(inner, dict):
        return isinstance(outer, dict) and all(k in outer and _contains(outer[k], v) for k, v in inner.items())
    return outer == inner


@pytest.mark.parametrize(
    "task_id",
    [
        "pfp/single-step-v2",
        "pfp/single-step-perception-v2",
        "origamispace/foldability-v2",
        "origamispace/pattern-prediction-v2",
        "mentalblackboard/perception-v2",
    ],
)
def test_each_task_stores_what_its_question_writes(task_id: str):
    """The writers a task splices into its records are the contract's: the fields its question writes are in the
    item, value for value, so that reading and writing agree on where every part is kept."""
    task = make(task_id)
    for item in task.generate(3, 5, modalities=(task.modalities[0],)):
        question = ChoiceQuestion.of(item)
        assert question is not None
        assert question.option_records or question.option_pictures or question.choices
        written = question.item_fields()
        assert _contains(item.inputs, written.inputs)
        assert _contains(item.target, written.target)
        assert _contains(item.metadata, written.metadata)
