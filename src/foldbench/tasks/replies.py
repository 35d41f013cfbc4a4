"""Reading model replies: find the JSON object a model answered with, strictly, without ever evaluating code.

A reply may wrap its answer in prose and code fences. :func:`last_json_object` returns the last complete
top-level JSON object in the text (so a model that drafts an answer and then corrects it is read by its final
answer); anything else is a :class:`~foldbench.tasks.base.ParseFailure` with a kind and a short excerpt.
"""

from __future__ import annotations

import json
from typing import Any

from foldbench.tasks.base import ParseFailure

__all__ = ["json_objects", "last_json_object", "excerpt"]

_DECODER = json.JSONDecoder()


def excerpt(text: str, limit: int = 160) -> str:
    """The end of a reply, shortened for reports."""
    text = text.strip()
    return text if len(text) <= limit else "…" + text[-limit:]


def json_objects(text: str) -> tuple[list[dict[str, Any]], bool]:
    """Every complete top-level JSON object in ``text``, in order, and whether some ``{`` began none.

    >>> json_objects('a {"x": 1} b {"y": [2]} c {broken')
    ([{'x': 1}, {'y': [2]}], True)
    """
    found: list[dict[str, Any]] = []
    broken = False
    position = text.find("{")
    while position != -1:
        try:
            value, end = _DECODER.raw_decode(text, position)
        except json.JSONDecodeError:
            broken = True
            position = text.find("{", position + 1)
            continue
        if isinstance(value, dict):
            found.append(value)
        position = text.find("{", end)
    return found, broken


def last_json_object(text: str) -> dict[str, Any] | ParseFailure:
    """The last complete top-level JSON object in ``text``, or why there is none.

    >>> last_json_object('draft {"a": 1} then ```json\\n{"a": 2}\\n```')
    {'a': 2}
    >>> last_json_object("").kind, last_json_object("no braces").kind, last_json_object('{"a": ').kind
    ('empty', 'no_json', 'invalid_json')
    """
    if not isinstance(text, str) or not text.strip():
        return ParseFailure("empty", "the reply is empty")
    found, broken = json_objects(text)
    if found:
        return found[-1]
    if broken:
        return ParseFailure("invalid_json", "the reply has no complete, valid JSON object", excerpt(text))
    return ParseFailure("no_json", "the reply contains no JSON object", excerpt(text))
