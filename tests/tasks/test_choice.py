from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from foldbench.tasks.base import ParseFailure
from foldbench.tasks.choice import Choice, parse_choice, score_choice

letters = st.sampled_from("ABCD")
prose = st.text(alphabet=st.characters(blacklist_characters="{}"), max_size=80)


@given(prose, letters)
def test_a_json_object_anywhere_is_read(prefix: str, letter: str) -> None:
    result = parse_choice(f'{prefix} {{"answer": "{letter}"}} thanks')
    assert isinstance(result, Choice) and result.answer == letter


@given(letters, letters)
def test_the_last_complete_json_object_wins(first: str, last: str) -> None:
    result = parse_choice(f'draft {{"answer": "{first}"}} final {{"answer": "{last}"}}')
    assert isinstance(result, Choice) and result.answer == last


@pytest.mark.parametrize("reply", ["B", " b ", "(B)", "B.", "[B]"])
def test_a_lone_letter_is_read(reply: str) -> None:
    assert parse_choice(reply) == Choice(answer="B")


@pytest.mark.parametrize(
    "reply", ["The folds mirror the holes.\nAnswer: C", "so the answer is C.", "Final answer: (C)", "Answer: **C**"]
)
def test_a_final_answer_line_is_read(reply: str) -> None:
    assert parse_choice(reply) == Choice(answer="C")


@pytest.mark.parametrize(
    "reply",
    [
        "Answer: B\nAnswer: C",
        "The answer is A. Hmm, no.\nAnswer: D",
        "A or B",
        "Answer: B or C",
        "B, C",
    ],
)
def test_ambiguous_replies_fail(reply: str) -> None:
    assert isinstance(parse_choice(reply), ParseFailure)


@pytest.mark.parametrize(
    ("reply", "kind"),
    [
        ("", "empty"),
        ("   \n", "empty"),
        ("I cannot tell from the picture.", "no_json"),
        ('{"answer": "E"}', "schema"),
        ('{"answer": 2}', "schema"),
        ('{"answer": ["A"]}', "schema"),
        ("{answer: B, but unsure", "invalid_json"),
        ('__import__("os").system("true")', "no_json"),
    ],
)
def test_garbage_is_a_typed_failure(reply: str, kind: str) -> None:
    result = parse_choice(reply)
    assert isinstance(result, ParseFailure) and result.kind == kind


@given(st.text(max_size=200))
def test_any_text_gives_a_choice_or_a_failure(reply: str) -> None:
    result = parse_choice(reply)
    assert isinstance(result, (Choice, ParseFailure))
    if isinstance(result, Choice):
        assert result.answer in reply.upper()


def test_scores_count_exactly() -> None:
    right = score_choice("B", Choice(answer="B"))
    wrong = score_choice("B", Choice(answer="A"))
    failed = score_choice("B", ParseFailure("no_json", "x"))
    assert (right.values["accuracy"], right.counts) == (1.0, {"correct": 1, "total": 1})
    assert (wrong.values["accuracy"], wrong.counts) == (0.0, {"correct": 0, "total": 1})
    assert failed.values["accuracy"] == 0.0 and failed.notes == ("parse failure: no_json",)
