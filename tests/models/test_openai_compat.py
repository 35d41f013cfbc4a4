"""The OpenAI-compatible adapter, driven against the scripted server over real HTTP."""

from __future__ import annotations

import asyncio
import base64
import os
import socket
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from foldbench.models import (
    ModelConfigError,
    ModelReply,
    ModelRequest,
    OpenAICompatibleModel,
    PromptInputError,
)
from foldbench.models._files import PromptFiles
from foldbench.models.openai_compat import message_payload
from foldbench.tasks.base import ImagePart, TextPart, VideoPart
from foldbench.testing.fake_openai import (
    FakeOpenAI,
    Script,
    always,
    answering,
    disconnect,
    empty,
    malformed,
    no_choices,
    reply,
    sequence,
    slow,
    status,
    truncated,
)
from foldbench.testing.model_requests import make_conversation_request, make_request, write_png

Server = Callable[[Script], FakeOpenAI]


def _model(server: FakeOpenAI, **settings: Any) -> OpenAICompatibleModel:
    settings = {"api_key": None, "backoff_base_s": 0.01, "backoff_max_s": 0.05, **settings}
    return OpenAICompatibleModel("fake-vlm", base_url=server.base_url + "/", **settings)


def _ask(model: OpenAICompatibleModel, *requests: ModelRequest) -> list[ModelReply]:
    async def run() -> list[ModelReply]:
        try:
            return list(await asyncio.gather(*(model.complete(r) for r in requests)))
        finally:
            await model.aclose()

    return asyncio.run(run())


def _decode(url: str) -> bytes:
    header, _, data = url.partition(",")
    assert header == "data:image/png;base64"
    return base64.b64decode(data)


def test_the_payload_carries_system_text_images_and_video_frames(tmp_path: Path, fake_openai_server: Server) -> None:
    red = write_png(tmp_path / "images/red.png", (255, 0, 0))
    green = write_png(tmp_path / "images/clip/f0.png", (0, 255, 0))
    blue = write_png(tmp_path / "images/clip/f1.png", (0, 0, 255))
    parts = (
        TextPart("Look at the sheet."),
        ImagePart("images/red.png"),
        VideoPart("images/clip.mp4", frames=("images/clip/f0.png", "images/clip/f1.png")),
        TextPart("Which location?"),
    )
    server = fake_openai_server(always(reply("B", {"prompt_tokens": 11, "completion_tokens": 2})))
    model = _model(server, api_key="sk-test", temperature=0.5, max_tokens=64, extra_body={"top_p": 0.9})
    (answer,) = _ask(model, make_request(tmp_path, parts, system="Answer in JSON."))

    assert answer.error is None and answer.text == "B" and answer.attempts == 1
    assert (answer.prompt_tokens, answer.completion_tokens, answer.finish_reason) == (11, 2, "stop")
    (received,) = server.requests
    assert received.path == "/v1/chat/completions"
    assert received.headers["Authorization"] == "Bearer sk-test"
    body = received.json
    assert body is not None
    assert (body["model"], body["temperature"], body["max_tokens"], body["top_p"]) == ("fake-vlm", 0.5, 64, 0.9)
    system, user = body["messages"]
    assert system == {"role": "system", "content": "Answer in JSON."}
    assert user["role"] == "user"
    kinds = [p["type"] for p in user["content"]]
    assert kinds == ["text", "image_url", "image_url", "image_url", "text"]
    images = [_decode(p["image_url"]["url"]) for p in user["content"] if p["type"] == "image_url"]
    assert images == [red.read_bytes(), green.read_bytes(), blue.read_bytes()]
    assert user["content"][0]["text"] == "Look at the sheet." and user["content"][-1]["text"] == "Which location?"


def test_no_system_message_and_no_key_header_when_not_given(tmp_path: Path, fake_openai_server: Server) -> None:
    server = fake_openai_server(always(reply("ok")))
    _ask(_model(server), make_request(tmp_path))
    (received,) = server.requests
    assert "Authorization" not in received.headers
    assert received.json is not None and [m["role"] for m in received.json["messages"]] == ["user"]
    assert "max_tokens" not in received.json


def test_a_repeated_image_is_read_once_until_it_changes(tmp_path: Path) -> None:
    path = write_png(tmp_path / "a.png", (1, 2, 3))
    files = PromptFiles()
    request = make_request(tmp_path, (ImagePart("a.png"), ImagePart("a.png")))
    first = message_payload(request, files)
    second = message_payload(request, files)
    assert files.reads == 1 and first == second
    write_png(path, (200, 100, 50))
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))
    changed = message_payload(request, files)
    assert files.reads == 2
    assert _decode(changed[0]["content"][0]["image_url"]["url"]) == path.read_bytes()


@pytest.mark.parametrize(
    ("parts", "message"),
    [
        ((ImagePart("missing.png"),), "cannot be read"),
        ((ImagePart("../outside.png"),), "not inside the dataset directory"),
        ((ImagePart("/etc/hostname"),), "not inside the dataset directory"),
        ((VideoPart("clip.mp4"),), "no key frames"),
    ],
)
def test_unreadable_prompt_files_are_typed_errors(tmp_path: Path, parts: tuple[Any, ...], message: str) -> None:
    with pytest.raises(PromptInputError, match=message):
        message_payload(make_request(tmp_path / "data", parts))


def test_rate_limit_then_success_honours_retry_after(tmp_path: Path, fake_openai_server: Server) -> None:
    server = fake_openai_server(sequence(status(429, retry_after=0.2), reply("B", {"prompt_tokens": 5})))
    (answer,) = _ask(_model(server, backoff_max_s=1.0), make_request(tmp_path))
    assert answer.error is None and answer.text == "B"
    assert answer.attempts == 2 and server.attempts_for("Which location?") == 2
    assert answer.prompt_tokens == 5 and answer.completion_tokens is None
    assert answer.extra["retries"] == [{"kind": "http_429", "delay_s": 0.2}]
    first, second = server.requests
    assert second.received_at - first.received_at >= 0.2


def test_retry_after_is_capped_by_the_longest_backoff(tmp_path: Path, fake_openai_server: Server) -> None:
    server = fake_openai_server(sequence(status(503, retry_after=30), reply("ok")))
    (answer,) = _ask(_model(server, backoff_max_s=0.05), make_request(tmp_path))
    assert answer.text == "ok" and answer.extra["retries"] == [{"kind": "http_503", "delay_s": 0.05}]


def test_server_errors_forever_end_after_max_retries(tmp_path: Path, fake_openai_server: Server) -> None:
    server = fake_openai_server(always(status(500, message="upstream exploded")))
    (answer,) = _ask(_model(server, max_retries=3), make_request(tmp_path))
    assert answer.text == "" and answer.error_kind == "http_500"
    assert answer.attempts == 4 and len(server.requests) == 4
    assert answer.error is not None and "upstream exploded" in answer.error and "4 attempts" in answer.error
    delays = [r["delay_s"] for r in answer.extra["retries"]]
    ceilings = [min(0.05, 0.01 * 2**i) for i in range(3)]
    assert all(c / 2 <= d <= c for d, c in zip(delays, ceilings, strict=True))


def test_backoff_jitter_is_deterministic_for_a_seed(tmp_path: Path, fake_openai_server: Server) -> None:
    server = fake_openai_server(always(status(502)))
    runs = [_ask(_model(server, max_retries=3, jitter_seed=seed), make_request(tmp_path))[0] for seed in (7, 7, 8)]
    delays = [[r["delay_s"] for r in run.extra["retries"]] for run in runs]
    assert delays[0] == delays[1] != delays[2]


@pytest.mark.parametrize("code", [401, 403])
def test_auth_errors_are_not_retried_and_name_the_key_variable(
    tmp_path: Path, fake_openai_server: Server, code: int
) -> None:
    server = fake_openai_server(always(status(code, message="invalid api key")))
    (answer,) = _ask(_model(server, api_key="wrong", api_key_env="MY_VLM_KEY"), make_request(tmp_path))
    assert answer.error_kind == "auth" and answer.attempts == 1 and len(server.requests) == 1
    assert answer.error is not None and "MY_VLM_KEY" in answer.error and "invalid api key" in answer.error


def test_not_found_names_the_model_and_url(tmp_path: Path, fake_openai_server: Server) -> None:
    server = fake_openai_server(always(status(404, message="model does not exist")))
    (answer,) = _ask(_model(server), make_request(tmp_path))
    assert answer.error_kind == "not_found" and answer.attempts == 1
    assert answer.error is not None and "'fake-vlm'" in answer.error and server.base_url in answer.error


def test_other_client_errors_are_not_retried(tmp_path: Path, fake_openai_server: Server) -> None:
    server = fake_openai_server(always(status(400, message="image too large")))
    (answer,) = _ask(_model(server), make_request(tmp_path))
    assert (answer.error_kind, answer.attempts, len(server.requests)) == ("http_400", 1, 1)
    assert answer.error is not None and "image too large" in answer.error


def test_a_slow_server_times_out_and_is_retried(tmp_path: Path, fake_openai_server: Server) -> None:
    server = fake_openai_server(always(slow(1.0)))
    (answer,) = _ask(_model(server, timeout_s=0.15, max_retries=1), make_request(tmp_path))
    assert answer.error_kind == "timeout" and answer.attempts == 2 and len(server.requests) == 2
    recovering = fake_openai_server(sequence(slow(1.0), reply("late but fine")))
    (answer,) = _ask(_model(recovering, timeout_s=0.15, max_retries=1), make_request(tmp_path))
    assert answer.text == "late but fine" and answer.attempts == 2 and answer.latency_s < 0.15


def test_connection_errors_are_retried(tmp_path: Path, fake_openai_server: Server) -> None:
    server = fake_openai_server(sequence(disconnect(), reply("back")))
    (answer,) = _ask(_model(server), make_request(tmp_path))
    assert answer.text == "back" and answer.attempts == 2
    assert answer.extra["retries"][0]["kind"] == "connection"


def test_nothing_listening_fails_at_once_with_a_hint(tmp_path: Path) -> None:
    # a refused connection is not retried: no wait would start the server, and the user should hear at once
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    model = OpenAICompatibleModel(
        "m", base_url=f"http://127.0.0.1:{port}/v1", api_key=None, max_retries=2, backoff_base_s=0.01
    )
    (answer,) = _ask(model, make_request(tmp_path))
    assert answer.error_kind == "connection" and answer.attempts == 1 and answer.text == ""
    assert "check --base-url" in (answer.error or "")


@pytest.mark.parametrize("behaviour", [malformed(), malformed(b"[1, 2]"), no_choices()])
def test_malformed_bodies_are_bad_responses(tmp_path: Path, fake_openai_server: Server, behaviour: Any) -> None:
    server = fake_openai_server(always(behaviour))
    (answer,) = _ask(_model(server), make_request(tmp_path))
    assert answer.error_kind == "bad_response" and answer.text == "" and answer.attempts == 1
    assert len(server.requests) == 1


def test_empty_and_truncated_replies_are_text_with_their_finish_reason(
    tmp_path: Path, fake_openai_server: Server
) -> None:
    for behaviour, text, reason in [
        (empty(), "", "stop"),
        (reply(None), "", "stop"),
        (truncated("The holes are at"), "The holes are at", "length"),
    ]:
        server = fake_openai_server(always(behaviour))
        (answer,) = _ask(_model(server), make_request(tmp_path))
        assert (answer.text, answer.finish_reason, answer.error, answer.error_kind) == (text, reason, None, None)


def test_32_concurrent_requests_all_get_their_own_answer(tmp_path: Path, fake_openai_server: Server) -> None:
    write_png(tmp_path / "sheet.png", (9, 9, 9))
    server = fake_openai_server(answering(lambda prompt: prompt.upper(), {"prompt_tokens": 3, "completion_tokens": 1}))
    requests = [
        make_request(tmp_path, (TextPart(f"question {i}"), ImagePart("sheet.png"))) for i in range(32)
    ]
    model = _model(server)
    answers = _ask(model, *requests)
    assert [a.text for a in answers] == [f"QUESTION {i}" for i in range(32)]
    assert all(a.error is None and a.attempts == 1 and a.completion_tokens == 1 for a in answers)
    assert len(server.requests) == 32
    assert model._files.reads == 1


def test_the_model_works_again_after_close_and_in_a_new_event_loop(tmp_path: Path, fake_openai_server: Server) -> None:
    server = fake_openai_server(always(reply("again")))
    model = _model(server)
    assert [_ask(model, make_request(tmp_path))[0].text for _ in range(2)] == ["again", "again"]


def test_name_and_params_leave_out_the_key_and_url() -> None:
    model = OpenAICompatibleModel(
        "gpt-x", base_url="http://localhost:1/v1/", api_key="sk-secret", temperature=0, max_tokens=10
    )
    assert model.name == "openai:gpt-x" and model.url == "http://localhost:1/v1/chat/completions"
    assert dict(model.params) == {"temperature": 0.0, "max_tokens": 10, "extra_body": {}}
    assert "sk-secret" not in repr(model) and "sk-secret" not in str(model.params)


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"temperature": -1}, "temperature"),
        ({"max_tokens": 0}, "max_tokens"),
        ({"timeout_s": 0}, "timeout_s"),
        ({"max_retries": -1}, "max_retries"),
        ({"extra_body": {"messages": []}}, "extra_body may not set messages"),
        ({"base_url": "localhost:8000/v1"}, "must start with http"),
    ],
)
def test_bad_settings_are_config_errors(settings: dict[str, Any], message: str) -> None:
    arguments: dict[str, Any] = {"base_url": "http://localhost:8000/v1", "api_key": None, **settings}
    with pytest.raises(ModelConfigError, match=message):
        OpenAICompatibleModel("m", **arguments)


def test_a_conversation_is_sent_turn_by_turn_with_assistant_turns(tmp_path: Path, fake_openai_server: Server) -> None:
    data = write_png(tmp_path / "a.png", (9, 8, 7)).read_bytes()
    request = make_conversation_request(
        None,
        ("system", (TextPart("Play fair."),)),
        ("user", (TextPart("Guess."), ImagePart(data=data))),
        ("assistant", (TextPart('{"guess": 50}'),)),
        ("user", (TextPart("higher"),)),
    )
    server = fake_openai_server(always(reply('{"guess": 75}')))
    (answer,) = _ask(_model(server), request)
    assert answer.text == '{"guess": 75}'
    (received,) = server.requests
    assert received.json is not None
    messages = received.json["messages"]
    assert [m["role"] for m in messages] == ["system", "user", "assistant", "user"]
    assert messages[0]["content"] == "Play fair." and messages[2]["content"] == '{"guess": 50}'
    assert messages[1]["content"][0] == {"type": "text", "text": "Guess."}
    assert _decode(messages[1]["content"][1]["image_url"]["url"]) == data  # the bytes in memory, sent as they are
    assert messages[3]["content"] == [{"type": "text", "text": "higher"}]


def test_a_dataset_file_without_a_dataset_directory_is_a_typed_error() -> None:
    with pytest.raises(PromptInputError, match="needs a dataset directory"):
        message_payload(make_conversation_request(None, ("user", (ImagePart("a.png"),))))
