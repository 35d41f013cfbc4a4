"""Reading a generated crease pattern from a model's reply: a FOLD JSON object, found strictly and in bounded time.

The whole reply (or its last fenced code block) is read as JSON first, up to
:data:`~foldbench.crease.io.generated.MAX_REPLY_CHARS` characters, since a crease pattern may be longer than the
answers the general reply search reads; otherwise the bounded search of :mod:`foldbench.text.replies` finds the
last JSON object with FOLD fields. Whether the fields are well formed is not checked here: the compiler's
syntax verdict (CSE, naming field and index) is part of the score.
"""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from foldbench.crease.io.generated import MAX_REPLY_CHARS
from foldbench.text.replies import ParseFailure, excerpt, scan_json_objects

__all__ = ["FOLD_KEYS", "FoldAnswer", "parse_fold_reply"]

FOLD_KEYS: frozenset[str] = frozenset({"vertices_coords", "edges_vertices"})
"""A JSON object in a reply is read as a crease pattern when it has one of these keys."""


class FoldAnswer(BaseModel):
    """A generated crease pattern: the FOLD fields the compiler reads, of any shape (the compiler judges them);
    other fields are dropped."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    vertices_coords: Any = None
    edges_vertices: Any = None
    edges_assignment: Any = None
    faces_vertices: Any = None
    edges_foldAngle: Any = None

    def document(self) -> dict[str, Any]:
        """The FOLD document the answer holds."""
        return self.model_dump(exclude_none=True)


def _last_fenced_block(text: str) -> str | None:
    closing = text.rfind("```")
    opening = text.rfind("```", 0, closing) if closing > 0 else -1
    if opening < 0:
        return None
    block = text[opening + 3:closing]
    first_line, newline, rest = block.partition("\n")
    return rest if newline and first_line.strip().isalpha() else block


def _whole(text: str) -> dict[str, Any] | None:
    for candidate in (text.strip(), _last_fenced_block(text)):
        if not candidate or len(candidate) > MAX_REPLY_CHARS or not candidate.lstrip().startswith("{"):
            continue
        try:
            value = json.loads(candidate)
        except (ValueError, RecursionError):
            continue
        if isinstance(value, dict) and FOLD_KEYS & value.keys():
            return value
    return None


def parse_fold_reply(text: str) -> FoldAnswer | ParseFailure:
    """The crease pattern in a reply, or why there is none.

    >>> parse_fold_reply('Here: {"vertices_coords": [[0, 0]], "edges_vertices": []}').vertices_coords
    [[0, 0]]
    >>> parse_fold_reply('{"unexpected": true}').kind
    'invalid_json'
    """
    if not text.strip():
        return ParseFailure("empty", "the reply is empty")
    if len(text) > MAX_REPLY_CHARS:
        return ParseFailure("too_long", f"the reply has {len(text):,} characters (limit {MAX_REPLY_CHARS:,})",
                            excerpt(text))
    document = _whole(text)
    if document is None:
        scan = scan_json_objects(text)
        patterns = [o for o in scan.objects if FOLD_KEYS & o.keys()]
        if patterns:
            document = patterns[-1]
        else:
            limited = scan.limit_failure(len(text))
            if limited is not None:
                return ParseFailure(limited.kind, limited.message, excerpt(text))
            kind: Literal["invalid_json", "no_json"] = "invalid_json" if scan.broken or scan.objects else "no_json"
            return ParseFailure(kind, "no JSON object with FOLD fields (vertices_coords, edges_vertices) found",
                                excerpt(text))
    return FoldAnswer.model_validate(document)
