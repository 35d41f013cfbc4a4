"""The model interface: one async ``complete`` call from a conversation to a reply, with its cost recorded.

Adapters turn a :class:`~foldbench.messages.Conversation` into whatever their backend takes; they know nothing
of tasks or items. A failed call (after the adapter's retries) is returned as a :class:`ModelReply` with
``error`` set: it is an error to report or retry later, never a score.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from foldbench.messages import Conversation

__all__ = ["ModelRequest", "ModelReply", "Model"]


@dataclass(frozen=True, slots=True)
class ModelRequest:
    """What a model is asked: a conversation, where its files live, and generation parameters.

    Attributes:
        conversation: the messages so far; the model writes the next assistant turn.
        dataset_dir: where the conversation's image and video paths are relative to (None when every picture is
            held in memory).
        params: generation parameters for this request only (``max_tokens``, ``temperature``, ...), over the
            adapter's own; empty for most requests.
    """

    conversation: Conversation
    dataset_dir: Path | None = None
    params: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ModelReply:
    """A model's reply, or the error that prevented one, with what it cost.

    Attributes:
        text: the reply text (empty when ``error`` is set).
        error: None, or a one-line description of the final failure (after retries).
        error_kind: a short code for grouping failures: ``"http_429"``, ``"http_500"``, ``"timeout"``,
            ``"connection"``, ``"auth"``, ``"bad_response"``, ...
        latency_s: wall time of the successful attempt (or of the last one).
        attempts: how many attempts were made.
        prompt_tokens / completion_tokens: usage reported by the backend, when it reports it.
        finish_reason: as reported (e.g. ``"stop"``, ``"length"``).
    """

    text: str
    error: str | None = None
    error_kind: str | None = None
    latency_s: float = 0.0
    attempts: int = 1
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    finish_reason: str | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)


@runtime_checkable
class Model(Protocol):
    """A model adapter."""

    name: str
    """A stable name, e.g. ``"openai:gpt-4o"``, ``"random"``, ``"oracle"``."""
    params: Mapping[str, Any]
    """Generation parameters that change replies (temperature, max tokens, ...); part of the request key."""

    async def complete(self, request: ModelRequest) -> ModelReply:
        """Ask once (with the adapter's own retries); never raises for a backend failure."""
        ...

    async def aclose(self) -> None:
        """Release connections."""
        ...
