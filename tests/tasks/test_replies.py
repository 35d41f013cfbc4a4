"""Reply parsers on untrusted text: they never raise, find an answer in prose, and stay bounded on hostile input."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from foldbench.tasks.base import ParseFailure
from foldbench.tasks.choice import Choice, parse_choice
from foldbench.tasks.mentalblackboard.answers import (
    PlanningAnswer,
    PredictionAnswer,
    parse_planning,
    parse_prediction,
)
from foldbench.testing.hostile_text import HOSTILE_REPLIES, hostile_reply
from foldbench.text.replies import MAX_DEPTH, MAX_OBJECT_CHARS, SCAN_LIMIT, last_json_object, scan_json_objects

PARSERS = {"prediction": parse_prediction, "planning": parse_planning, "pfp": parse_choice}
ANSWER_TYPES = (PredictionAnswer, PlanningAnswer, Choice)

jsonish = st.text(alphabet='{}[]":,.-0123456789 \n\t\\aeilnrstuABCD\u00e9\ud800', max_size=400)
any_text = st.one_of(st.text(max_size=400), jsonish)
free_prose = st.text(alphabet=st.characters(blacklist_characters="{}"), max_size=120)

holes = st.lists(
    st.fixed_dictionaries(
        {
            "shape": st.sampled_from(["circle", "square", "star", "letter", "triangle"]),
            "size": st.sampled_from(["small", "large"]),
            "direction": st.sampled_from([0, 90, 180, 270]),
            "location": st.integers(1, 32),
        }
    ),
    max_size=8,
    unique_by=lambda hole: hole["location"],
)
folds = st.lists(st.sampled_from(["H1-F", "H2-B", "V1-F", "V2-B", "D1-F", "D4-B"]), max_size=4)


def _is_result(value: Any) -> bool:
    return isinstance(value, (ParseFailure, *ANSWER_TYPES))


@pytest.mark.parametrize("name", sorted(PARSERS))
@given(text=any_text)
def test_no_text_makes_a_parser_raise(name: str, text: str) -> None:
    assert _is_result(PARSERS[name](text))


@given(prefix=jsonish, unfolding=folds, result_holes=holes, suffix=free_prose, indent=st.sampled_from([None, 2]))
def test_a_prediction_answer_in_any_prose_is_found(
    prefix: str, unfolding: list[str], result_holes: list[dict[str, Any]], suffix: str, indent: int | None
) -> None:
    answer = {"total_holes": len(result_holes), "unfolding": unfolding, "result_holes": result_holes}
    reply = f"{prefix}\n```json\n{json.dumps(answer, indent=indent)}\n```{suffix}"
    assert parse_prediction(reply) == PredictionAnswer.model_validate(answer)


@given(prefix=jsonish, planned=folds, initial_holes=holes, suffix=free_prose)
def test_a_planning_answer_in_any_prose_is_found(
    prefix: str, planned: list[str], initial_holes: list[dict[str, Any]], suffix: str
) -> None:
    answer = {"folds": planned, "initial_holes": initial_holes}
    assert parse_planning(prefix + json.dumps(answer) + suffix) == PlanningAnswer.model_validate(answer)


@given(prefix=jsonish, letter=st.sampled_from("ABCD"), suffix=free_prose)
def test_a_letter_answer_in_any_prose_is_found(prefix: str, letter: str, suffix: str) -> None:
    assert parse_choice(f'{prefix}{{"answer": "{letter}"}}{suffix}') == Choice(answer=letter)


@settings(max_examples=30, deadline=None)
@given(name=st.sampled_from(sorted(HOSTILE_REPLIES)), size=st.integers(0, 3 * SCAN_LIMIT))
def test_hostile_replies_of_any_size_give_a_result(name: str, size: int) -> None:
    text = hostile_reply(name, size)
    for parse in PARSERS.values():
        assert _is_result(parse(text))


@pytest.mark.parametrize("size", [2_000, SCAN_LIMIT, 1_000_000])
@pytest.mark.parametrize("name", sorted(HOSTILE_REPLIES))
def test_a_hostile_reply_of_up_to_one_megabyte_gives_a_result(name: str, size: int) -> None:
    # how fast is measured by bench/bench_parse.py (the README's performance table), not here
    text = hostile_reply(name, size)
    for parse in PARSERS.values():
        assert _is_result(parse(text))


def test_only_the_end_of_a_long_reply_is_searched_and_the_failure_says_so() -> None:
    answer = '{"unfolding": [], "result_holes": []}'
    assert parse_prediction("x" * (SCAN_LIMIT - 100) + answer) == PredictionAnswer(unfolding=[], result_holes=[])
    failure = parse_prediction(answer + " padding" * SCAN_LIMIT)
    assert isinstance(failure, ParseFailure) and failure.kind == "too_long"
    assert f"last {SCAN_LIMIT:,}" in failure.message
    letter = parse_choice('{"answer": "B"}' + " padding" * SCAN_LIMIT)
    assert isinstance(letter, ParseFailure) and letter.kind == "too_long"


def test_a_search_that_runs_out_of_budget_says_so() -> None:
    failure = last_json_object(hostile_reply("unfinished_siblings", SCAN_LIMIT))
    assert isinstance(failure, ParseFailure) and failure.kind == "too_long" and "gave up" in failure.message


def test_an_answer_after_hostile_text_is_still_found() -> None:
    answer = '{"answer": "C"}'
    for name in HOSTILE_REPLIES:
        reply = hostile_reply(name, 200_000) + "\n" + answer
        if name in ("unclosed_string",):  # the answer sits inside an unterminated string: not an object
            continue
        assert parse_choice(reply) == Choice(answer="C"), name


def test_a_long_answer_is_read_and_an_oversized_object_is_not() -> None:
    holes = [{"shape": "star", "size": "small", "direction": 90, "location": n} for n in range(1, 33)]
    answer = {"unfolding": ["H1-F", "V2-B"], "result_holes": holes}
    text = json.dumps(answer, indent=4)
    assert len(text) < MAX_OBJECT_CHARS
    assert parse_prediction("Here it is:\n" + text) == PredictionAnswer.model_validate(answer)
    oversized = {"notes": "x" * MAX_OBJECT_CHARS, **answer}
    failure = parse_prediction(json.dumps(oversized))  # only its hole objects are read, and they are no answer
    assert isinstance(failure, ParseFailure) and failure.kind == "schema"


def test_numbers_of_thousands_of_digits_and_deep_nesting_are_failures() -> None:
    long_number = '{"total_holes": ' + "9" * 5000 + ', "unfolding": [], "result_holes": []}'
    assert isinstance(parse_prediction(long_number), ParseFailure)
    deep = '{"answer": ' + "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1) + "}"
    assert scan_json_objects(deep).objects == []
    shallow = '{"answer": ' + "[" * (MAX_DEPTH - 2) + "]" * (MAX_DEPTH - 2) + "}"
    assert len(scan_json_objects(shallow).objects) == 1
    assert isinstance(parse_choice('{"answer": ' + "[" * 900 + "]" * 900 + "}"), ParseFailure)


def test_objects_inside_a_later_object_are_not_top_level() -> None:
    scan = scan_json_objects('{"a": {"b": {}}, "c": [{"d": 1}]} then {"e": "{}"}')
    assert scan.objects == [{"a": {"b": {}}, "c": [{"d": 1}]}, {"e": "{}"}] and not scan.broken


_json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**120), 10**120) | st.text(alphabet='{}[]" :ab\\\n', max_size=6),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(alphabet='{}"ab ', max_size=3), inner, max_size=4)
    ),
    max_leaves=40,
)


@settings(max_examples=300, deadline=None)
@given(
    value=st.dictionaries(st.text(alphabet='{}"ab ', max_size=3), _json_values, max_size=5),
    before=st.sampled_from(["", " ", "\n\t", "\u00a0"]),
    after=st.sampled_from(["", " ", "\n", "}", " x", "{", ' {"a": 1}']),
    indent=st.sampled_from([None, 2]),
)
def test_a_reply_that_is_one_object_is_read_as_the_full_search_reads_it(
    value: dict[str, Any], before: str, after: str, indent: int | None
) -> None:
    from foldbench.text.replies import _searched_last

    text = before + json.dumps(value, indent=indent) + after
    assert last_json_object(text) == _searched_last(text)


@pytest.mark.parametrize("depth", [MAX_DEPTH - 1, MAX_DEPTH, MAX_DEPTH + 1, MAX_DEPTH + 5])
def test_a_deep_object_that_is_the_whole_reply_is_judged_as_the_search_judges_it(depth: int) -> None:
    from foldbench.text.replies import _searched_last

    text = '{"a": ' * depth + "1" + "}" * depth
    assert last_json_object(text) == _searched_last(text)
