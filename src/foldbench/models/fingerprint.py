"""The request key: one sha256 over everything that can change a model's reply, and nothing else.

The harness stores replies under this key, so a rerun asks only what it has not asked before. Images and videos
enter by the sha256 of their bytes (not by path or data URL): the same picture under another name is the same
request, and a re-rendered picture is a new one.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from foldbench.models._files import PromptFiles, dataset_file
from foldbench.models.errors import ModelConfigError
from foldbench.tasks.base import ImagePart, Prompt, TextPart, VideoPart

__all__ = ["FINGERPRINT_FORMAT", "canonical_json", "prompt_record", "request_fingerprint"]

#: Bumped whenever the fingerprinted record changes shape, so old keys never collide with new ones.
FINGERPRINT_FORMAT = "foldbench-request/1"


def canonical_json(value: Any) -> str:
    """``value`` as JSON with sorted keys, no spaces and no NaN: equal values give equal strings.

    >>> canonical_json({"b": [1, 2.5], "a": None, "c": {}})
    '{"a":null,"b":[1,2.5],"c":{}}'
    """
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def prompt_record(prompt: Prompt, dataset_dir: Path, files: PromptFiles | None = None) -> dict[str, Any]:
    """The prompt as plain data: its system text and parts, files by the sha256 of their bytes.

    Raises :class:`~foldbench.models.errors.PromptInputError` when a file of the prompt cannot be read.
    """
    files = files if files is not None else PromptFiles(max_bytes=0)
    parts: list[dict[str, Any]] = []
    for part in prompt.parts:
        if isinstance(part, TextPart):
            parts.append({"type": "text", "text": part.text})
        elif isinstance(part, ImagePart):
            parts.append({"type": "image", "sha256": files.sha256(dataset_file(dataset_dir, part.path))})
        elif isinstance(part, VideoPart):
            parts.append(
                {
                    "type": "video",
                    "sha256": files.sha256(dataset_file(dataset_dir, part.path)),
                    "frames": [files.sha256(dataset_file(dataset_dir, frame)) for frame in part.frames],
                }
            )
        else:  # pragma: no cover - the Prompt type admits nothing else
            raise TypeError(f"unknown prompt part {part!r}")
    return {"system": prompt.system, "parts": parts}


def request_fingerprint(
    model_name: str,
    params: Mapping[str, Any],
    prompt: Prompt,
    dataset_dir: Path,
    *,
    files: PromptFiles | None = None,
) -> str:
    """The sha256 hex key of asking ``model_name`` with ``params`` the prompt ``prompt``.

    Args:
        model_name: the adapter's ``name`` (``"openai:gpt-4o"``, ``"random"``, ...).
        params: the adapter's ``params`` (generation parameters; never keys or URLs).
        prompt: the rendered prompt.
        dataset_dir: where the prompt's file paths are relative to.
        files: a cache of file digests to reuse across calls (optional).

    Raises:
        PromptInputError: a file of the prompt cannot be read.
        ModelConfigError: ``params`` holds a value that is not plain JSON data.

    >>> from foldbench.tasks.base import Prompt
    >>> key = request_fingerprint("random", {}, Prompt(parts=(), template_version="t1"), Path("."))
    >>> len(key), key == request_fingerprint("oracle", {}, Prompt(parts=(), template_version="t1"), Path("."))
    (64, False)
    """
    record = {
        "format": FINGERPRINT_FORMAT,
        "model": model_name,
        "params": dict(params),
        "prompt": prompt_record(prompt, dataset_dir, files),
    }
    try:
        text = canonical_json(record)
    except (TypeError, ValueError) as error:
        raise ModelConfigError(
            f"model {model_name}: parameters {dict(params)!r} are not plain JSON data: {error}"
        ) from None
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
