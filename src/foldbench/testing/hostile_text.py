"""Adversarial model replies for the parsers: shapes that made a naive search slow, built to any size."""

from __future__ import annotations

import random
from collections.abc import Callable

__all__ = ["HOSTILE_REPLIES", "hostile_reply"]


def _repeat(unit: str, size: int) -> str:
    return (unit * (size // len(unit) + 1))[:size]


def _prose_with_braces(size: int) -> str:
    return _repeat('The set {"x": a} is {b}, "c" {"holes": [ {} ] and } more: {"answer" ', size)


def _random_text(size: int) -> str:
    rng = random.Random(11)
    alphabet = 'abcdefghijklmnopqrstuvwxyz ABCD{}[]":,.0123456789\n\t\\'
    return "".join(rng.choice(alphabet) for _ in range(size))


HOSTILE_REPLIES: dict[str, Callable[[int], str]] = {
    "open_braces": lambda n: "{" * n,
    "object_starts": lambda n: _repeat('{"', n),
    "unfinished_objects": lambda n: _repeat('{"a": ', n),
    "unfinished_siblings": lambda n: _repeat('{"k": "v", "l": [1, 2], "m": ', n),
    "unclosed_string": lambda n: '{"a": "' + "x" * n,
    "open_arrays": lambda n: '{"a": ' + "[" * n,
    "long_number": lambda n: '{"total_holes": ' + "9" * n + "}",
    "empty_objects": lambda n: _repeat("{}", n),
    "prose_with_braces": _prose_with_braces,
    "random_text": _random_text,
    "spaces": lambda n: " " * n,
    "answer_then_spaces": lambda n: "answer" + " " * n,
    "answer_words": lambda n: _repeat("answer is : ( ", n),
    "lone_letter_spaces": lambda n: " " * (n // 2) + "B" + " " * (n // 2),
    "letter_then_spaces": lambda n: "B" + " " * max(0, n - 2) + "x",
}
"""Each maker returns a reply of about ``n`` characters."""


def hostile_reply(name: str, size: int) -> str:
    """The hostile reply ``name`` at exactly ``size`` characters."""
    return HOSTILE_REPLIES[name](size)[:size]
