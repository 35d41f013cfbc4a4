"""The scripted server itself: attempt counting, recording, and failures of the script or the request."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from foldbench.testing.fake_openai import Behaviour, FakeOpenAI, prompt_text, reply, sequence, status


def _post(url: str, body: bytes) -> tuple[int, dict[str, Any], dict[str, str]]:
    request = urllib.request.Request(url, data=body, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, json.loads(response.read()), dict(response.headers)
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read()), dict(error.headers)


def _chat(text: str) -> bytes:
    return json.dumps(
        {"model": "m", "messages": [{"role": "user", "content": [{"type": "text", "text": text}]}]}
    ).encode()


def test_attempts_are_counted_per_prompt_under_concurrency() -> None:
    seen: list[tuple[str, int]] = []

    def script(request: dict[str, Any], attempt: int) -> Behaviour:
        seen.append((prompt_text(request), attempt))
        return reply(f"{prompt_text(request)}#{attempt}")

    with FakeOpenAI(script) as server:
        url = server.base_url + "/chat/completions"
        with ThreadPoolExecutor(8) as pool:
            results = list(pool.map(lambda i: _post(url, _chat(f"p{i % 4}")), range(40)))
        assert all(code == 200 for code, _, _ in results)
        assert sorted(seen) == sorted((f"p{p}", a) for p in range(4) for a in range(1, 11))
        assert [server.attempts_for(f"p{p}") for p in range(4)] == [10] * 4
        assert len(server.requests) == 40 and len({r.prompt_key for r in server.requests}) == 4


def test_sequence_and_status_headers() -> None:
    with FakeOpenAI(sequence(status(429, retry_after=3), reply("fine"))) as server:
        url = server.base_url + "/chat/completions"
        code, body, headers = _post(url, _chat("q"))
        assert code == 429 and headers["Retry-After"] == "3" and body["error"]["code"] == 429
        code, body, _ = _post(url, _chat("q"))
        assert code == 200 and body["choices"][0]["message"]["content"] == "fine"
        code, body, _ = _post(url, _chat("q"))
        assert body["choices"][0]["message"]["content"] == "fine"


def test_wrong_paths_and_bodies_are_refused() -> None:
    with FakeOpenAI() as server:
        assert _post(server.base_url + "/completions", _chat("q"))[0] == 404
        assert _post(server.base_url + "/chat/completions", b"{not json")[0] == 400
        assert len(server.requests) == 2


def test_a_failing_script_fails_the_test_when_the_server_stops() -> None:
    def script(request: dict[str, Any], attempt: int) -> Behaviour:
        raise KeyError("no answer scripted")

    server = FakeOpenAI(script).start()
    code, body, _ = _post(server.base_url + "/chat/completions", _chat("q"))
    assert code == 500 and "no answer scripted" in body["error"]["message"]
    with pytest.raises(AssertionError, match="script failed 1 times"):
        server.stop()
    with pytest.raises(RuntimeError, match="not running"):
        _ = server.base_url
