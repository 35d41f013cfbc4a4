"""Reading chat-completions responses: the reply in a 2xx body, or why an attempt failed.

A response body is untrusted input. It is read as UTF-8 (RFC 8259 requires it for JSON between systems);
another encoding, JSON nested deeper than :data:`MAX_JSON_DEPTH`, or a number longer than
:data:`MAX_NUMBER_DIGITS` digits is a ``bad_response`` failure, never an exception. Lone UTF-16 surrogates in
any string taken from a body (``"\\ud800"`` decodes to one) are replaced with U+FFFD, so every reply can be
stored in SQLite and written to reports as UTF-8.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from foldbench.models.base import ModelReply
from foldbench.text import valid_text

__all__ = ["Failure", "reply_from_body", "server_message"]

_EXCERPT = 300

MAX_JSON_DEPTH = 64
"""The deepest nesting of arrays and objects read from a response body (real responses need about 6)."""
MAX_NUMBER_DIGITS = 100
"""The longest integer literal read from a response body; token counts need a handful of digits."""

_CONTROL = re.compile("[\x00-\x08\x0e-\x1f\x7f]")
_JSON_STRUCTURE = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]')


class _NumberTooLong(ValueError):
    """An integer literal longer than :data:`MAX_NUMBER_DIGITS` digits."""


def _bounded_int(literal: str) -> int:
    if len(literal.lstrip("-")) > MAX_NUMBER_DIGITS:
        raise _NumberTooLong(f"a number in the response has {len(literal.lstrip('-')):,} digits")
    return int(literal)


_DECODER = json.JSONDecoder(parse_int=_bounded_int)


def json_depth(text: str) -> int:
    """The deepest nesting of ``[``/``{`` in ``text`` outside JSON strings, in one linear pass.

    >>> json_depth('{"a": [1, {"b": "[[["}]}')
    3
    """
    depth = deepest = 0
    for match in _JSON_STRUCTURE.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif token in "]}":
            depth -= 1
    return deepest


def _load_json(body: bytes) -> tuple[str, Any] | Failure:
    """The body as text and its JSON value, or a ``bad_response`` failure saying why it cannot be read."""
    if b"\x00" in body:  # never in UTF-8 JSON: every other byte of ASCII text in UTF-16 or UTF-32
        return Failure("bad_response", "the response body is not UTF-8 (it has NUL bytes, as UTF-16 does)", False)
    try:
        text = body.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        return Failure(
            "bad_response",
            f"the response body is not UTF-8 (byte {error.start} is 0x{body[error.start]:02x}); JSON must be UTF-8",
            False,
        )
    openers = text.count("{") + text.count("[")  # the depth is at most this: most bodies need no deeper look
    if openers > MAX_JSON_DEPTH and json_depth(text) > MAX_JSON_DEPTH:
        return Failure("bad_response", f"the response nests JSON deeper than {MAX_JSON_DEPTH} levels", False)
    try:
        return text, _DECODER.decode(text)
    except _NumberTooLong as error:
        return Failure("bad_response", f"{error}, more than the {MAX_NUMBER_DIGITS} accepted", False)
    except ValueError:
        return Failure("bad_response", f"the response is not JSON: {_excerpt(text)!r}", False)


@dataclass(frozen=True, slots=True)
class Failure:
    """One failed attempt: its kind, a one-line message, and whether (and after how long) to try again."""

    kind: str
    message: str
    retryable: bool
    retry_after_s: float | None = None


def _excerpt(text: str) -> str:
    text = " ".join(_CONTROL.sub("?", valid_text(text[: 4 * _EXCERPT])).split())
    return text if len(text) <= _EXCERPT else text[: _EXCERPT - 3] + "..."


def server_message(body: bytes) -> str:
    """The error message a server put in its body (OpenAI's ``{"error": {"message": ...}}`` or plain text)."""
    loaded = _load_json(body)
    if isinstance(loaded, Failure):
        return _excerpt(body.decode("utf-8", errors="replace"))
    text, data = loaded
    if isinstance(data, dict):
        error = data.get("error", data.get("detail", data.get("message")))
        if isinstance(error, dict) and isinstance(error.get("message"), str):
            return _excerpt(error["message"])
        if isinstance(error, str):
            return _excerpt(error)
    return _excerpt(text)


def _content_text(content: Any) -> str | None:
    """A message's content as text: a string, null (no text), or a list of text parts; None if it is none of these."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        texts = [p.get("text") for p in content if isinstance(p, dict) and p.get("type") in ("text", "output_text")]
        if all(isinstance(t, str) for t in texts):
            return "".join(t for t in texts if isinstance(t, str))
    return None


def _short_repr(value: Any) -> str:
    """The start of ``repr(value)`` for a message (values come from a depth- and digit-bounded decode)."""
    return repr(value)[: 4 * _EXCERPT]


SQLITE_INTEGER_MAX = 2**63 - 1
"""The largest integer the run store (SQLite) holds; a usage count above it is not a count anyone incurred."""


def _token_count(usage: Any, key: str) -> int | None:
    value = usage.get(key) if isinstance(usage, dict) else None
    fits = isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= SQLITE_INTEGER_MAX
    return value if fits else None


def _usage_out_of_range(usage: Any) -> list[str]:
    """The usage fields whose integer value is too large to be a count (they are stored as unknown)."""
    if not isinstance(usage, dict):
        return []
    return sorted(key for key in ("prompt_tokens", "completion_tokens")
                  if isinstance(usage.get(key), int) and not isinstance(usage.get(key), bool)
                  and usage[key] > SQLITE_INTEGER_MAX)


def reply_from_body(body: bytes) -> ModelReply | Failure:
    """A successful reply read from a chat-completions response body, or a ``bad_response`` failure.

    >>> reply_from_body(b'{"choices": [{"message": {"content": "B"}, "finish_reason": "stop"}]}').text
    'B'
    >>> reply_from_body(b'{"choices": []}').kind
    'bad_response'
    """
    loaded = _load_json(body)
    if isinstance(loaded, Failure):
        return loaded
    body_text, data = loaded
    if not isinstance(data, dict):
        return Failure("bad_response", f"the response is JSON but not an object: {_excerpt(body_text)!r}", False)
    choices = data.get("choices")
    if not isinstance(choices, list) or not choices:
        detail = f"; it says: {_excerpt(repr(data['error'])[: 4 * _EXCERPT])}" if "error" in data else ""
        return Failure("bad_response", f"the response has no choices{detail}", False)
    choice = choices[0]
    message = choice.get("message") if isinstance(choice, dict) else None
    if not isinstance(message, dict):
        return Failure("bad_response", "the first choice of the response has no message object", False)
    text = _content_text(message.get("content"))
    if text is None:
        return Failure(
            "bad_response", f"the message content is not text: {_excerpt(_short_repr(message.get('content')))}", False
        )
    finish_reason = choice.get("finish_reason")
    usage = data.get("usage")
    extra: dict[str, Any] = {}
    if isinstance(data.get("model"), str):
        extra["response_model"] = valid_text(data["model"])
    reasoning = message.get("reasoning_content", message.get("reasoning"))
    if isinstance(reasoning, str) and reasoning:
        extra["reasoning"] = valid_text(reasoning)
    if _usage_out_of_range(usage):
        extra["usage_out_of_range"] = _usage_out_of_range(usage)
    return ModelReply(
        text=valid_text(text),
        prompt_tokens=_token_count(usage, "prompt_tokens"),
        completion_tokens=_token_count(usage, "completion_tokens"),
        finish_reason=valid_text(finish_reason) if isinstance(finish_reason, str) else None,
        extra=extra,
    )
