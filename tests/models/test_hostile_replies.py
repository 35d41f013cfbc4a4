"""Hostile response bodies, sent over real HTTP by the scripted server: each is a typed failure or a clean reply."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from foldbench.models import ModelReply, OpenAICompatibleModel, openai_compat
from foldbench.models._response import MAX_NUMBER_DIGITS, SQLITE_INTEGER_MAX, Failure, reply_from_body
from foldbench.tasks.base import TextPart
from foldbench.testing.fake_openai import (
    HOSTILE,
    FakeOpenAI,
    Script,
    always,
    deeply_nested,
    huge_number,
    lone_surrogate,
    oversized,
    reply,
)
from foldbench.testing.model_requests import make_request

Server = Callable[[Script], FakeOpenAI]


def _ask(server: FakeOpenAI, tmp_path: Path) -> ModelReply:
    model = OpenAICompatibleModel(
        "fake-vlm", base_url=server.base_url, api_key=None, backoff_base_s=0.01, backoff_max_s=0.02, timeout_s=20
    )

    async def run() -> ModelReply:
        try:
            return await model.complete(make_request(tmp_path, (TextPart("Which hole?"),)))
        finally:
            await model.aclose()

    return asyncio.run(run())


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_hostile_body_is_a_bad_response_failure(name: str, tmp_path: Path, fake_openai_server: Server) -> None:
    server = fake_openai_server(always(HOSTILE[name]))
    answer = _ask(server, tmp_path)
    assert answer.error_kind == "bad_response" and answer.text == ""
    assert answer.error is not None and "\n" not in answer.error and len(answer.error) < 600
    assert answer.attempts == 1  # the same body would come back: not retried
    answer.error.encode("utf-8")


def test_the_failure_says_what_was_wrong(tmp_path: Path, fake_openai_server: Server) -> None:
    expected = {
        "huge_number_in_usage": "5,000 digits",
        "deep_body": "deeper than 64 levels",
        "utf16_with_bom": "not UTF-8",
        "utf16_without_bom": "not UTF-8",
    }
    for name, words in expected.items():
        server = fake_openai_server(always(HOSTILE[name]))
        answer = _ask(server, tmp_path)
        assert answer.error is not None and words in answer.error, (name, answer.error)


def test_moderate_nesting_and_long_numbers_are_still_read(tmp_path: Path, fake_openai_server: Server) -> None:
    server = fake_openai_server(always(huge_number(100, where="usage")))
    assert _ask(server, tmp_path).text == "B"
    server = fake_openai_server(always(deeply_nested(20)))  # content parts that hold no text part: no text
    answer = _ask(server, tmp_path)
    assert answer.error is None and answer.text == ""


def test_a_lone_surrogate_is_replaced_and_the_reply_can_be_stored(tmp_path: Path, fake_openai_server: Server) -> None:
    server = fake_openai_server(always(lone_surrogate("hole \ud800 at \udfff 12, pair \U0001f600 kept")))
    answer = _ask(server, tmp_path)
    assert answer.error is None
    assert answer.text == "hole \ufffd at \ufffd 12, pair \U0001f600 kept"
    with sqlite3.connect(":memory:") as db:
        db.execute("CREATE TABLE t (text TEXT)")
        db.execute("INSERT INTO t VALUES (?)", (answer.text,))
        assert db.execute("SELECT text FROM t").fetchone()[0] == answer.text
    (tmp_path / "reply.md").write_text(answer.text, encoding="utf-8")


def test_lone_surrogates_in_the_other_fields_are_replaced(tmp_path: Path, fake_openai_server: Server) -> None:
    server = fake_openai_server(always(reply("ok", finish_reason="stop\udc80", model="m\ud800")))
    answer = _ask(server, tmp_path)
    assert answer.finish_reason == "stop\ufffd" and answer.extra["response_model"] == "m\ufffd"
    answer.finish_reason.encode("utf-8")


def test_an_oversized_body_is_not_read(
    tmp_path: Path, fake_openai_server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(openai_compat, "MAX_BODY_BYTES", 4096)
    server = fake_openai_server(always(oversized(100_000)))
    answer = _ask(server, tmp_path)
    assert answer.error_kind == "bad_response" and "over" in (answer.error or "")
    server = fake_openai_server(always(oversized(4000)))
    assert _ask(server, tmp_path).text == "B"


def test_an_ordinary_reply_is_unchanged(tmp_path: Path, fake_openai_server: Server) -> None:
    server = fake_openai_server(always(reply('Café {"answer": "B"} ✓')))
    assert _ask(server, tmp_path).text == 'Café {"answer": "B"} ✓'


@settings(max_examples=150, deadline=None)
@given(
    digits=st.lists(st.integers(1, 130), min_size=2, max_size=2),
    negative=st.booleans(),
    in_text=st.integers(0, 130),
)
def test_a_count_is_read_or_refused_by_its_number_of_digits_alone(
    digits: list[int], negative: bool, in_text: int
) -> None:
    # Only an integer literal of more than MAX_NUMBER_DIGITS digits makes the body unreadable; a long run of digits
    # inside a string (the reply's text) is text, whatever its length.
    prompt_tokens, completion_tokens = (int("7" * n) for n in digits)
    if negative:
        prompt_tokens = -prompt_tokens
    text = "answer " + "3" * in_text
    choices = f'[{{"message": {{"content": "{text}"}}, "finish_reason": "stop"}}]'
    usage = f'{{"prompt_tokens": {prompt_tokens}, "completion_tokens": {completion_tokens}}}'
    body = f'{{"choices": {choices}, "usage": {usage}}}'.encode()
    outcome = reply_from_body(body)
    if max(digits) > MAX_NUMBER_DIGITS:
        assert isinstance(outcome, Failure) and outcome.kind == "bad_response" and "digits" in outcome.message
    else:
        assert isinstance(outcome, ModelReply) and outcome.text == text
        fits = [n if 0 <= n <= SQLITE_INTEGER_MAX else None for n in (prompt_tokens, completion_tokens)]
        assert [outcome.prompt_tokens, outcome.completion_tokens] == fits
