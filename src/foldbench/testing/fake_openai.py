"""A scripted OpenAI-compatible chat-completions server for tests and benchmarks (foldbench's tests use it through
their ``fake_openai_server`` fixture, which stops every server it started after the test).

``FakeOpenAI(script)`` listens on 127.0.0.1 (an ephemeral port) in a background thread. For every
``POST .../chat/completions`` it calls ``script(request_json, attempt)``, where ``attempt`` counts the requests
carrying the same messages (1 for the first), and plays the :class:`Behaviour` it returns: a reply, an HTTP
error (with ``Retry-After``), a malformed body, a pause, or a dropped connection. Every request is recorded.
The hostile behaviours (:data:`HOSTILE`) send bodies an untrusted server might: a number of thousands of
digits, a lone UTF-16 surrogate, JSON nested 100,000 deep, a body in UTF-16, an oversized body.

    with FakeOpenAI(sequence(status(429, retry_after=0.05), reply("B"))) as server:
        model = OpenAICompatibleModel("m", base_url=server.base_url, api_key=None)
        ...
        assert server.attempts_for("Which hole?") == 2
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any, Self

__all__ = [
    "HOSTILE",
    "Behaviour",
    "FakeOpenAI",
    "ReceivedRequest",
    "Script",
    "always",
    "answering",
    "deeply_nested",
    "disconnect",
    "empty",
    "huge_number",
    "lone_surrogate",
    "oversized",
    "malformed",
    "no_choices",
    "prompt_key",
    "prompt_text",
    "reply",
    "sequence",
    "slow",
    "status",
    "truncated",
    "utf16_body",
]


@dataclass(frozen=True, slots=True)
class Behaviour:
    """What the server does with one request: wait ``delay_s``, then answer (or hang up if ``disconnect``)."""

    status: int = 200
    body: bytes = b""
    headers: tuple[tuple[str, str], ...] = (("Content-Type", "application/json"),)
    delay_s: float = 0.0
    disconnect: bool = False


Script = Callable[[dict[str, Any], int], Behaviour]


def _json(data: Any) -> bytes:
    return json.dumps(data).encode("utf-8")


def reply(
    text: str | None,
    usage: dict[str, int] | None = None,
    *,
    finish_reason: str = "stop",
    model: str = "fake-model",
) -> Behaviour:
    """A successful completion with ``text`` as the message content (None sends ``"content": null``)."""
    body: dict[str, Any] = {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "model": model,
        "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": finish_reason}],
    }
    if usage is not None:
        body["usage"] = usage
    return Behaviour(body=_json(body))


def empty() -> Behaviour:
    """A completion whose content is the empty string."""
    return reply("")


def truncated(text: str = "The holes are at loc") -> Behaviour:
    """A completion cut off by the token limit (``finish_reason: "length"``)."""
    return reply(text, finish_reason="length")


def malformed(body: bytes = b"<html>Bad gateway</html>") -> Behaviour:
    """A 200 whose body is not JSON."""
    return Behaviour(body=body, headers=(("Content-Type", "text/html"),))


def no_choices() -> Behaviour:
    """A 200 with a JSON body that has no choices."""
    return Behaviour(body=_json({"id": "chatcmpl-fake", "choices": []}))


def huge_number(digits: int = 5000, *, where: str = "usage") -> Behaviour:
    """A completion carrying an integer of ``digits`` digits as its token count (``where="usage"``) or as its
    message content (``where="content"``)."""
    number = "9" * digits
    content = number if where == "content" else '"B"'
    usage = f', "usage": {{"prompt_tokens": {number}, "completion_tokens": 1}}' if where == "usage" else ""
    choice = f'{{"message": {{"role": "assistant", "content": {content}}}, "finish_reason": "stop"}}'
    body = f'{{"choices": [{choice}]{usage}}}'
    return Behaviour(body=body.encode("ascii"))


def lone_surrogate(text: str = "the answer is \ud800 B") -> Behaviour:
    """A completion whose content holds lone UTF-16 surrogates (sent as ``\\ud800`` escapes, valid JSON syntax
    whose decoded string cannot be encoded as UTF-8)."""
    return reply(text)


def deeply_nested(levels: int = 100_000, *, where: str = "content") -> Behaviour:
    """A body whose message content (``where="content"``) or whole body (``where="body"``) is JSON arrays nested
    ``levels`` deep."""
    nested = "[" * levels + "]" * levels
    if where == "body":
        return Behaviour(body=nested.encode("ascii"))
    body = f'{{"choices": [{{"message": {{"role": "assistant", "content": {nested}}}, "finish_reason": "stop"}}]}}'
    return Behaviour(body=body.encode("ascii"))


def utf16_body(text: str = "B", *, bom: bool = True) -> Behaviour:
    """A well-formed completion encoded as UTF-16 (with or without its byte-order mark) instead of UTF-8."""
    data = json.loads(reply(text).body)
    if bom:
        encoded = json.dumps(data).encode("utf-16")
    else:  # a non-object value, so that JSON's encoding detection cannot rescue it either
        encoded = json.dumps([data]).encode("utf-16-le")
    return Behaviour(body=encoded, headers=(("Content-Type", "application/json; charset=utf-16"),))


def oversized(size: int, text: str = "B") -> Behaviour:
    """A completion padded with spaces to ``size`` bytes (JSON allows any whitespace after the value)."""
    body = reply(text).body
    return Behaviour(body=body + b" " * max(0, size - len(body)))


HOSTILE: dict[str, Behaviour] = {
    "huge_number_in_usage": huge_number(where="usage"),
    "huge_number_as_content": huge_number(where="content"),
    "deep_content": deeply_nested(where="content"),
    "deep_body": deeply_nested(where="body"),
    "utf16_with_bom": utf16_body(bom=True),
    "utf16_without_bom": utf16_body(bom=False),
}
"""Bodies an untrusted server may send that must each come back as a ``bad_response`` failure."""


def slow(seconds: float, then: Behaviour | None = None) -> Behaviour:
    """``then`` (a short reply by default), after a pause of ``seconds``."""
    return replace(then if then is not None else reply("slow reply"), delay_s=seconds)


def status(code: int, retry_after: float | str | None = None, message: str | None = None) -> Behaviour:
    """An HTTP error with an OpenAI-style error body, and a ``Retry-After`` header when given."""
    headers: tuple[tuple[str, str], ...] = (("Content-Type", "application/json"),)
    if retry_after is not None:
        headers += (("Retry-After", str(retry_after)),)
    text = message if message is not None else f"scripted HTTP {code}"
    return Behaviour(
        status=code, body=_json({"error": {"message": text, "type": "fake", "code": code}}), headers=headers
    )


def disconnect() -> Behaviour:
    """Close the connection without answering."""
    return Behaviour(disconnect=True)


def always(behaviour: Behaviour) -> Script:
    """A script that plays ``behaviour`` for every request."""
    return lambda _request, _attempt: behaviour


def sequence(*behaviours: Behaviour) -> Script:
    """A script that plays the n-th behaviour on a prompt's n-th attempt (the last one from then on)."""
    if not behaviours:
        raise ValueError("sequence needs at least one behaviour")
    return lambda _request, attempt: behaviours[min(attempt, len(behaviours)) - 1]


def prompt_text(request_json: dict[str, Any]) -> str:
    """The text of a request's user messages (text parts joined by newlines; images left out)."""
    texts: list[str] = []
    for message in request_json.get("messages", []):
        if message.get("role") != "user":
            continue
        content = message.get("content")
        if isinstance(content, str):
            texts.append(content)
        elif isinstance(content, list):
            texts.extend(p["text"] for p in content if isinstance(p, dict) and p.get("type") == "text")
    return "\n".join(texts)


def prompt_key(request_json: dict[str, Any]) -> str:
    """A digest of a request's messages: requests for the same prompt share it."""
    messages = json.dumps(request_json.get("messages"), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(messages.encode("utf-8")).hexdigest()


def answering(answer: Callable[[str], str], usage: dict[str, int] | None = None) -> Script:
    """A script that replies ``answer(prompt text)``: right or wrong as the test decides from the prompt."""
    return lambda request, _attempt: reply(answer(prompt_text(request)), usage)


@dataclass(frozen=True, slots=True)
class ReceivedRequest:
    """One request as the server saw it."""

    path: str
    headers: dict[str, str]
    json: dict[str, Any] | None
    prompt_key: str
    attempt: int
    received_at: float


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 256
    allow_reuse_address = True

    def __init__(self, fake: FakeOpenAI) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.fake = fake


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:
        """Keep test output quiet."""

    def _send(self, code: int, body: bytes, headers: tuple[tuple[str, str], ...]) -> None:
        self.send_response(code)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self) -> None:
        """Record the request and play the script's behaviour for it."""
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length)
        try:
            data = json.loads(raw)
        except ValueError:
            data = None
        fake = self.server.fake
        if not isinstance(data, dict) or not self.path.endswith("/chat/completions"):
            fake._record(self.path, dict(self.headers), data if isinstance(data, dict) else None)
            code = 404 if isinstance(data, dict) else 400
            self._send(code, _json({"error": {"message": f"fake server: cannot serve {self.path}"}}), ())
            return
        attempt = fake._record(self.path, dict(self.headers), data)
        try:
            behaviour = fake.script(data, attempt)
        except Exception as error:
            fake._script_errors.append(error)
            self._send(500, _json({"error": {"message": f"fake server script failed: {error!r}"}}), ())
            return
        if behaviour.delay_s:
            time.sleep(behaviour.delay_s)
        try:
            if behaviour.disconnect:
                self.close_connection = True
                return
            self._send(behaviour.status, behaviour.body, behaviour.headers)
        except (BrokenPipeError, ConnectionResetError):  # the client gave up (timed out) first
            self.close_connection = True


class FakeOpenAI:
    """A scripted OpenAI-compatible server on 127.0.0.1, running while the context is open.

    Args:
        script: ``script(request_json, attempt) -> Behaviour``; ``attempt`` is 1 for the first request carrying
            these messages, 2 for the next, and so on.
    """

    def __init__(self, script: Script | None = None) -> None:
        self.script: Script = script if script is not None else always(reply("ok"))
        self._lock = threading.Lock()
        self._requests: list[ReceivedRequest] = []
        self._attempts: Counter[str] = Counter()
        self._script_errors: list[Exception] = []
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    def _record(self, path: str, headers: dict[str, str], data: dict[str, Any] | None) -> int:
        key = prompt_key(data) if data is not None else ""
        with self._lock:
            self._attempts[key] += 1
            attempt = self._attempts[key]
            self._requests.append(ReceivedRequest(path, headers, data, key, attempt, time.monotonic()))
        return attempt

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT/v1``."""
        if self._server is None:
            raise RuntimeError("the fake server is not running; use it as a context manager")
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    @property
    def requests(self) -> list[ReceivedRequest]:
        """Every request received so far, in arrival order."""
        with self._lock:
            return list(self._requests)

    def attempts_for(self, text: str) -> int:
        """How many requests carried a prompt whose user text is exactly ``text``."""
        return sum(1 for r in self.requests if r.json is not None and prompt_text(r.json) == text)

    def start(self) -> Self:
        """Start serving in a background thread."""
        if self._server is not None:
            raise RuntimeError("the fake server is already running")
        self._server = _Server(self)
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, name="fake-openai", daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving; raises if the script failed on some request."""
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None
        if self._script_errors:
            errors, self._script_errors = self._script_errors, []
            raise AssertionError(f"the fake server's script failed {len(errors)} times; first: {errors[0]!r}")

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, traceback: TracebackType | None
    ) -> None:
        if kind is None:
            self.stop()
        else:  # do not hide the test's own failure behind a script error
            self._script_errors.clear()
            self.stop()
