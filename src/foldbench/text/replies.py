"""Reading model replies: find the JSON objects a model answered with, strictly, in bounded time, never evaluating.

A reply may wrap its answer in prose and code fences. :func:`last_json_object` returns the last complete
top-level JSON object in the text (so a model that drafts an answer and then corrects it is read by its final
answer); anything else is a :class:`ParseFailure` with a kind and a short excerpt.

Replies are untrusted, so the search is bounded whatever the reply holds:

- only the last :data:`SCAN_LIMIT` characters are searched (an answer comes at the end of a reply);
- an object is tried only where a ``{`` is followed by ``"`` or ``}``, from the end of the reply backwards, and
  may span at most :data:`MAX_OBJECT_CHARS` characters and nest :data:`MAX_DEPTH` deep;
- at most :data:`MAX_ATTEMPTS` starts are tried, decoding at most :data:`WORK_BUDGET` characters in all;
- an integer literal of more than :data:`MAX_NUMBER_DIGITS` digits makes its object unreadable.

When a bound stops the search before any object is found, the failure has kind ``too_long`` and says which.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Literal

__all__ = [
    "MAX_ATTEMPTS",
    "MAX_DEPTH",
    "MAX_NUMBER_DIGITS",
    "MAX_OBJECT_CHARS",
    "SCAN_LIMIT",
    "WORK_BUDGET",
    "JsonScan",
    "ParseFailure",
    "excerpt",
    "json_objects",
    "last_json_object",
    "reply_tail",
    "scan_json_objects",
]

SCAN_LIMIT = 32_768
"""Characters at the end of a reply that are searched for an answer."""
MAX_OBJECT_CHARS = 16_384
"""The longest answer object read (a full MentalBlackboard answer is a few thousand characters)."""
MAX_DEPTH = 32
"""The deepest nesting of arrays and objects in an answer object."""
MAX_ATTEMPTS = 512
"""The most object starts tried in one reply."""
WORK_BUDGET = 1 << 19
"""The most characters decoded, over all attempts, in one reply."""
MAX_NUMBER_DIGITS = 100
"""The longest integer literal read."""

_OBJECT_START = re.compile(r'\{[ \t\r\n]*["}]')


@dataclass(frozen=True, slots=True)
class ParseFailure:
    """A reply that could not be read as an answer; it scores as wrong and is reported by kind."""

    kind: Literal["no_json", "invalid_json", "schema", "empty", "too_long"]
    message: str
    raw_excerpt: str = ""


class _NumberTooLong(ValueError):
    """An integer literal longer than :data:`MAX_NUMBER_DIGITS` digits."""


def _bounded_int(literal: str) -> int:
    if len(literal) > MAX_NUMBER_DIGITS + 1:
        raise _NumberTooLong(literal[:20])
    return int(literal)


_DECODER = json.JSONDecoder(parse_int=_bounded_int)
_PLAIN_DECODER = json.JSONDecoder()
_LONG_DIGIT_RUN = re.compile(rf"\d{{{MAX_NUMBER_DIGITS + 1}}}")
"""A text without such a run holds no integer :func:`_bounded_int` refuses, so the C decoder alone reads it the same
(without a Python call per integer)."""


@dataclass(frozen=True, slots=True)
class JsonScan:
    """What a search of a reply found.

    Attributes:
        objects: the complete top-level JSON objects found, in the order they end in the reply.
        broken: some object start began no complete, valid object.
        truncated: the reply was longer than :data:`SCAN_LIMIT` and only its end was searched.
        gave_up: the attempt or work budget ran out before every start was tried.
    """

    objects: list[dict[str, Any]] = field(default_factory=list)
    broken: bool = False
    truncated: bool = False
    gave_up: bool = False

    def limit_failure(self, length: int) -> ParseFailure | None:
        """The ``too_long`` failure to report when a bound cut the search short, else None."""
        if self.gave_up:
            return ParseFailure(
                "too_long",
                f"gave up searching the reply for a JSON object after {MAX_ATTEMPTS} starts or "
                f"{WORK_BUDGET:,} decoded characters",
            )
        if self.truncated:
            return ParseFailure(
                "too_long",
                f"only the last {SCAN_LIMIT:,} of the reply's {length:,} characters are searched for the answer",
            )
        return None


def excerpt(text: str, limit: int = 160) -> str:
    """The end of a reply, shortened for reports."""
    text = text[-4 * limit :].strip()
    return text if len(text) <= limit else "…" + text[-limit:]


def reply_tail(text: str) -> str:
    """The part of a reply that is searched: its last :data:`SCAN_LIMIT` characters."""
    return text[-SCAN_LIMIT:] if len(text) > SCAN_LIMIT else text


def _too_deep(value: Any) -> bool:
    """Whether ``value`` nests lists and dicts more than :data:`MAX_DEPTH` deep (walked without recursion)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        current, depth = stack.pop()
        if depth > MAX_DEPTH:
            return True
        children = current.values() if isinstance(current, dict) else current
        stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    return False


def _decode_at(window: str, start: int) -> tuple[dict[str, Any] | None, int, int]:
    """Decode the object starting at ``start``: (the object or None, its end, the characters the attempt cost)."""
    piece = window[start : start + MAX_OBJECT_CHARS]
    try:
        value, length = _DECODER.raw_decode(piece)
    except json.JSONDecodeError as error:
        return None, start, error.pos + 1
    except (ValueError, RecursionError):  # a number too long, or nesting past the interpreter's limit
        return None, start, len(piece)
    if not isinstance(value, dict) or _too_deep(value):
        return None, start, length
    return value, start + length, length


def scan_json_objects(text: str, *, last_only: bool = False) -> JsonScan:
    """Search the end of ``text`` for complete top-level JSON objects, within the module's bounds.

    Starts are tried from the end backwards; an object found inside one found later (further left) is not
    top-level and is dropped. With ``last_only``, the search stops once no earlier start could end after the last
    object found.

    >>> scan = scan_json_objects('a {"x": 1} b {"y": [{"z": 2}]} c {"broken')
    >>> scan.objects, scan.broken
    ([{'x': 1}, {'y': [{'z': 2}]}], True)
    """
    window = reply_tail(text)
    starts = [m.start() for m in _OBJECT_START.finditer(window)]
    found: list[tuple[int, int, dict[str, Any]]] = []  # (start, end, object); the most recent is leftmost
    broken = gave_up = False
    budget = WORK_BUDGET
    last_end = -1
    for attempt, start in enumerate(reversed(starts)):
        if last_only and found and start + MAX_OBJECT_CHARS < last_end:
            break
        if attempt >= MAX_ATTEMPTS or budget <= 0:
            gave_up = True
            break
        value, end, cost = _decode_at(window, start)
        budget -= cost
        if value is None:
            broken = True
            continue
        while found and found[-1][1] <= end:  # objects this one contains
            found.pop()
        found.append((start, end, value))
        last_end = max(last_end, end)
    found.sort(key=lambda span: span[1])
    broken = broken or _stray_brace(window, found)
    return JsonScan([span[2] for span in found], broken, len(text) > SCAN_LIMIT, gave_up)


def _stray_brace(window: str, found: list[tuple[int, int, dict[str, Any]]]) -> bool:
    """Whether a ``{`` of the window lies outside every object found (one that began no object)."""
    covered = 0
    for start, end, _ in sorted(found, key=lambda span: span[0]):
        if window.find("{", covered, start) != -1:
            return True
        covered = max(covered, end)
    return window.find("{", covered) != -1


def json_objects(text: str) -> tuple[list[dict[str, Any]], bool]:
    """The complete top-level JSON objects at the end of ``text`` (see :func:`scan_json_objects`), and whether
    some object start began none.

    >>> json_objects('a {"x": 1} b {"y": [2]} c {"broken')
    ([{'x': 1}, {'y': [2]}], True)
    """
    scan = scan_json_objects(text)
    return scan.objects, scan.broken


def last_json_object(text: str) -> dict[str, Any] | ParseFailure:
    """The last complete top-level JSON object in ``text``, or why there is none.

    >>> last_json_object('draft {"a": 1} then ```json\\n{"a": 2}\\n```')
    {'a': 2}
    >>> last_json_object("").kind, last_json_object("no braces").kind, last_json_object('{"a": ').kind
    ('empty', 'no_json', 'invalid_json')
    """
    if not isinstance(text, str) or not text.strip():
        return ParseFailure("empty", "the reply is empty")
    whole = _whole_object(text)
    if whole is not None:
        return whole
    return _searched_last(text)


def _whole_object(text: str) -> dict[str, Any] | None:
    """``text`` decoded when it is one JSON object and nothing else (whitespace aside) and small enough that the
    search would try every start within its bounds and find this object last; None otherwise (then the search
    decides). The search's answer is the same, found without decoding every nested object on its own."""
    body = text.strip()
    if len(text) > SCAN_LIMIT or len(body) > MAX_OBJECT_CHARS or not body.endswith("}"):
        return None
    if _OBJECT_START.match(body) is None:
        return None
    opens = body.count("{")
    if opens > MAX_ATTEMPTS or opens * len(text) >= WORK_BUDGET or opens + body.count("[") > MAX_DEPTH:
        return None  # the depth is at most the number of brackets, so within these bounds nothing is too deep
    try:
        value = (_DECODER if _LONG_DIGIT_RUN.search(body) else _PLAIN_DECODER).decode(body)
    except (ValueError, RecursionError):  # not JSON, more after the object, or a number too long
        return None
    return value if isinstance(value, dict) else None


def _searched_last(text: str) -> dict[str, Any] | ParseFailure:
    """:func:`last_json_object` by searching every start (the general case)."""
    scan = scan_json_objects(text, last_only=True)
    if scan.objects:
        return scan.objects[-1]
    limited = scan.limit_failure(len(text))
    if limited is not None:
        return ParseFailure(limited.kind, limited.message, excerpt(text))
    if scan.broken:
        return ParseFailure("invalid_json", "the reply has no complete, valid JSON object", excerpt(text))
    return ParseFailure("no_json", "the reply contains no JSON object", excerpt(text))
