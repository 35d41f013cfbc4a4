"""Reading chat-completions responses: the reply in a 2xx body, or why an attempt failed."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from foldbench.models.base import ModelReply

__all__ = ["Failure", "reply_from_body", "server_message"]

_EXCERPT = 300


@dataclass(frozen=True, slots=True)
class Failure:
    """One failed attempt: its kind, a one-line message, and whether (and after how long) to try again."""

    kind: str
    message: str
    retryable: bool
    retry_after_s: float | None = None


def _excerpt(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= _EXCERPT else text[: _EXCERPT - 3] + "..."


def server_message(body: bytes) -> str:
    """The error message a server put in its body (OpenAI's ``{"error": {"message": ...}}`` or plain text)."""
    text = body.decode("utf-8", errors="replace")
    try:
        data = json.loads(text)
    except ValueError:
        return _excerpt(text)
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


def _token_count(usage: Any, key: str) -> int | None:
    value = usage.get(key) if isinstance(usage, dict) else None
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def reply_from_body(body: bytes) -> ModelReply | Failure:
    """A successful reply read from a chat-completions response body, or a ``bad_response`` failure.

    >>> reply_from_body(b'{"choices": [{"message": {"content": "B"}, "finish_reason": "stop"}]}').text
    'B'
    >>> reply_from_body(b'{"choices": []}').kind
    'bad_response'
    """
    try:
        data = json.loads(body)
    except ValueError:
        return Failure(
            "bad_response", f"the response is not JSON: {_excerpt(body.decode('utf-8', 'replace'))!r}", False
        )
    if not isinstance(data, dict):
        return Failure("bad_response", f"the response is JSON but not an object: {_excerpt(body.decode())!r}", False)
    choices = data.get("choices")
    if not isinstance(choices, list) or not choices:
        detail = f"; it says: {data['error']}" if "error" in data else ""
        return Failure("bad_response", f"the response has no choices{_excerpt(detail)}", False)
    choice = choices[0]
    message = choice.get("message") if isinstance(choice, dict) else None
    if not isinstance(message, dict):
        return Failure("bad_response", "the first choice of the response has no message object", False)
    text = _content_text(message.get("content"))
    if text is None:
        return Failure(
            "bad_response", f"the message content is not text: {_excerpt(repr(message.get('content')))}", False
        )
    finish_reason = choice.get("finish_reason")
    usage = data.get("usage")
    extra: dict[str, Any] = {}
    if isinstance(data.get("model"), str):
        extra["response_model"] = data["model"]
    reasoning = message.get("reasoning_content", message.get("reasoning"))
    if isinstance(reasoning, str) and reasoning:
        extra["reasoning"] = reasoning
    return ModelReply(
        text=text,
        prompt_tokens=_token_count(usage, "prompt_tokens"),
        completion_tokens=_token_count(usage, "completion_tokens"),
        finish_reason=finish_reason if isinstance(finish_reason, str) else None,
        extra=extra,
    )
