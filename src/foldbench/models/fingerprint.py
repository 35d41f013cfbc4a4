"""The request key: one sha256 over everything that can change a model's reply, and nothing else.

The harness stores replies under this key, so a rerun asks only what it has not asked before. Images and videos
enter by the sha256 of their bytes (not by path or data URL): the same picture under another name, or held in
memory, is the same request, and a re-rendered picture is a new one.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from foldbench.messages import Conversation, ImagePart, Part, TextPart, VideoPart
from foldbench.models._files import PromptFiles, dataset_file
from foldbench.models.errors import ModelConfigError

__all__ = [
    "FINGERPRINT_FORMAT",
    "canonical_json",
    "conversation_record",
    "keyed_record",
    "record_fingerprint",
    "request_fingerprint",
]

#: Bumped whenever the fingerprinted record changes shape, so old keys never collide with new ones.
FINGERPRINT_FORMAT = "foldbench-request/1"


_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def canonical_json(value: Any) -> str:
    """``value`` as JSON with sorted keys, no spaces and no NaN: equal values give equal strings.

    >>> canonical_json({"b": [1, 2.5], "a": None, "c": {}})
    '{"a":null,"b":[1,2.5],"c":{}}'
    """
    return _CANONICAL.encode(value)


def _part_record(part: Part, dataset_dir: Path | None, files: PromptFiles) -> dict[str, Any]:
    if isinstance(part, TextPart):
        return {"type": "text", "text": part.text}
    if isinstance(part, ImagePart):
        return {"type": "image", "sha256": files.image_sha256(part, dataset_dir)}
    if isinstance(part, VideoPart):
        return {
            "type": "video",
            "sha256": files.sha256(dataset_file(dataset_dir, part.path)),
            "frames": [files.sha256(dataset_file(dataset_dir, frame)) for frame in part.frames],
        }
    raise TypeError(f"unknown message part {part!r}")  # pragma: no cover - Part admits nothing else


def _is_opening(conversation: Conversation) -> bool:
    """Whether the conversation is an optional system message and one user turn (a one-shot prompt)."""
    roles = [m.role for m in conversation.messages]
    return roles in (["user"], ["system", "user"])


def conversation_record(
    conversation: Conversation, dataset_dir: Path | None, files: PromptFiles | None = None
) -> dict[str, Any]:
    """The conversation as plain data, pictures by the sha256 of their bytes.

    A one-shot prompt (an optional system message and one user turn) keeps the record shape of
    ``foldbench-request/1``, ``{"system": ..., "parts": [...]}``, so stored replies to unchanged prompts stay
    valid; any longer conversation is ``{"messages": [{"role": ..., "parts": [...]}, ...]}``.

    Raises :class:`~foldbench.models.errors.PromptInputError` when a file of the conversation cannot be read.
    """
    files = files if files is not None else PromptFiles(max_bytes=0)
    if _is_opening(conversation):
        parts = conversation.messages[-1].parts
        return {"system": conversation.system, "parts": [_part_record(p, dataset_dir, files) for p in parts]}
    return {
        "messages": [
            {"role": m.role, "parts": [_part_record(p, dataset_dir, files) for p in m.parts]}
            for m in conversation.messages
        ]
    }


def request_fingerprint(
    model_name: str,
    params: Mapping[str, Any],
    conversation: Conversation,
    dataset_dir: Path | None,
    *,
    files: PromptFiles | None = None,
    request_params: Mapping[str, Any] | None = None,
) -> str:
    """The sha256 hex key of asking ``model_name`` with ``params`` to continue ``conversation``.

    Args:
        model_name: the adapter's ``name`` (``"openai:gpt-4o"``, ``"random"``, ...).
        params: the adapter's ``params`` (generation parameters; never keys or URLs).
        conversation: the messages so far.
        dataset_dir: where the conversation's file paths are relative to.
        files: a cache of file digests to reuse across calls (optional).
        request_params: the request's own generation parameters (they enter the key only when given).

    Raises:
        PromptInputError: a file of the conversation cannot be read.
        ModelConfigError: ``params`` holds a value that is not plain JSON data.

    >>> from foldbench.messages import Prompt
    >>> opening = Prompt(parts=(), template_version="t1").conversation()
    >>> key = request_fingerprint("random", {}, opening, Path("."))
    >>> len(key), key == request_fingerprint("oracle", {}, opening, Path("."))
    (64, False)
    """
    return record_fingerprint(
        model_name, params, conversation_record(conversation, dataset_dir, files), request_params=request_params
    )


def record_fingerprint(
    model_name: str,
    params: Mapping[str, Any],
    record_of_conversation: Mapping[str, Any],
    *,
    request_params: Mapping[str, Any] | None = None,
) -> str:
    """:func:`request_fingerprint` from a conversation already turned into its record (:func:`conversation_record`).

    Raises:
        ModelConfigError: ``params`` holds a value that is not plain JSON data.
    """
    return keyed_record(model_name, params, record_of_conversation, request_params=request_params)[0]


def keyed_record(
    model_name: str,
    params: Mapping[str, Any],
    record_of_conversation: Mapping[str, Any],
    *,
    request_params: Mapping[str, Any] | None = None,
) -> tuple[str, str]:
    """:func:`record_fingerprint` and the record's own :func:`canonical_json`, which the key is made from (a run
    store keeps the record, and encodes it once).

    The key hashes the canonical JSON of ``{"format", "model", "params", "prompt", "request_params"}``; with
    sorted keys and no spaces that text is the five values' own canonical texts in that order, so it is put
    together from them.

    Raises:
        ModelConfigError: ``params`` holds a value that is not plain JSON data.
    """
    try:
        head = canonical_json({"format": FINGERPRINT_FORMAT, "model": model_name, "params": dict(params)})
        prompt = canonical_json(record_of_conversation)
        tail = f',"request_params":{canonical_json(dict(request_params))}}}' if request_params else "}"
    except (TypeError, ValueError) as error:
        raise ModelConfigError(
            f"model {model_name}: parameters {dict(params)!r} are not plain JSON data: {error}"
        ) from None
    text = f'{head[:-1]},"prompt":{prompt}{tail}'
    return hashlib.sha256(text.encode("utf-8")).hexdigest(), prompt
