"""What every multiple-choice task shares: the option letters, the answer (one letter read strictly from a
model's reply), its score, and the balanced placement of the answer among the options.

Accepted replies, in order of precedence:

1. a JSON object with an ``"answer"`` key anywhere in the reply (the last complete one wins), e.g.
   ``{"answer": "B"}``; its value must be one letter A-D (surrounding spaces and case are forgiven);
2. a reply that is a lone letter (``B``, ``(B)``, ``B.``);
3. a reply whose last line ends with ``Answer: B`` (``answer is B``, ``Final answer: (B)``).

A reply that offers different final letters (``Answer: B`` then ``Answer: C``) is ambiguous and fails, as does
anything else. Nothing in a reply is ever evaluated, and the time spent is bounded: only the end of a long reply
is read (:data:`~foldbench.text.replies.SCAN_LIMIT` characters; a ``too_long`` failure says so when nothing is
found there), and the patterns run on the text with its whitespace runs collapsed, so none can backtrack.

Where a choice item keeps its pictures is :mod:`foldbench.tasks.choice_fields`' to say; its ``choice_images``,
``option_pictures`` and ``reference_picture`` are re-exported here.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict

from foldbench.tasks.base import ParseFailure, Scores
from foldbench.tasks.choice_fields import choice_images, option_pictures, reference_picture
from foldbench.text.replies import reply_tail, scan_json_objects

__all__ = ["GREY_SIZE", "LETTERS", "MASK_SIZE", "WHITE_LEVEL", "Choice", "answer_slot", "choice_images",
           "option_pictures", "parse_choice", "random_choice", "reference_picture",
           "score_choice", "the_true_option", "wrong_choice"]

LETTERS: tuple[str, ...] = ("A", "B", "C", "D")
# Applied to text whose whitespace runs are single spaces, so that every " ?" matches at most one character.
_LONE = re.compile(r"[\(\[]? ?([A-Da-d]) ?[\)\]]? ?\.?")
_FINAL = re.compile(r"answer ?(?:is)? ?[:=]? ?[\(\[]? ?\*{0,2}([A-D])\*{0,2} ?[\)\]]? ?\.?$", re.IGNORECASE)
_ANY_FINAL = re.compile(r"answer ?(?:is)? ?[:=]? ?[\(\[]? ?\*{0,2}([A-D])\b", re.IGNORECASE)
_LONE_MAX = 12
_EXCERPT = 120

GREY_SIZE = 48
"""Side of the small grey square on which a picture's grey levels are compared (the audit's pixel rules)."""
MASK_SIZE = 64
"""Side of the square on which a picture's ink mask is compared (the audit's ink and outline rules)."""
WHITE_LEVEL = 245
"""Grey levels at or above this count as background (white); below, as ink."""


class Choice(BaseModel):
    """One option letter."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    answer: Literal["A", "B", "C", "D"]


def parse_choice(text: str) -> Choice | ParseFailure:
    """Read one option letter from a reply (see the module docstring).

    >>> parse_choice('I think {"answer": "C"}').answer
    'C'
    >>> parse_choice("").kind
    'empty'
    """
    excerpt = text[-_EXCERPT:].strip()
    if not text.strip():
        return ParseFailure("empty", "the reply is empty", excerpt)
    tail = reply_tail(text)
    scan = scan_json_objects(text)
    answers = [o for o in scan.objects if "answer" in o]
    if answers:
        value = answers[-1]["answer"]
        if isinstance(value, str) and value.strip().upper() in LETTERS:
            return Choice(answer=value.strip().upper())  # type: ignore[arg-type]
        shown = repr(value) if isinstance(value, str | int | float | bool) or value is None else type(value).__name__
        return ParseFailure("schema", f'"answer" must be one of A, B, C, D, got {shown[:40]}', excerpt)
    stripped = tail.strip()
    if len(stripped) <= _LONE_MAX:
        lone = _LONE.fullmatch(" ".join(stripped.split()))
        if lone:
            return Choice(answer=lone.group(1).upper())  # type: ignore[arg-type]
    last_line = " ".join(stripped.splitlines()[-1].split()) if stripped else ""
    final = _FINAL.search(last_line)
    if final:
        offered = {m.group(1).upper() for m in _ANY_FINAL.finditer(" ".join(tail.split()))}
        if offered != {final.group(1).upper()}:
            return ParseFailure("schema", f"the reply offers several answers: {', '.join(sorted(offered))}", excerpt)
        return Choice(answer=final.group(1).upper())  # type: ignore[arg-type]
    limited = scan.limit_failure(len(text))
    if limited is not None:
        return ParseFailure(limited.kind, limited.message, excerpt)
    if scan.broken or scan.objects:
        return ParseFailure("invalid_json", 'no JSON object with an "answer" key could be read', excerpt)
    return ParseFailure("no_json", 'expected {"answer": "<letter>"} or a single letter A-D', excerpt)


def score_choice(correct: str, answer: BaseModel | ParseFailure) -> Scores:
    """Accuracy 1 or 0 for one item; a parse failure scores 0 and is noted by kind.

    >>> score_choice("A", Choice(answer="A")).values["accuracy"]
    1.0
    """
    if isinstance(answer, ParseFailure):
        return Scores({"accuracy": 0.0}, {"correct": 0, "total": 1}, (f"parse failure: {answer.kind}",))
    if not isinstance(answer, Choice):
        raise TypeError(f"expected a Choice answer, got {type(answer).__name__}")
    right = answer.answer == correct
    return Scores({"accuracy": 1.0 if right else 0.0}, {"correct": int(right), "total": 1})


def answer_slot(seed: int, index: int, salt: int) -> int:
    """The answer's position (0-3) of item ``index``: every block of four items (0-3, 4-7, ...) uses each
    position once, in an order drawn from ``(seed, block, salt)``, so the letters of any dataset are balanced.
    Each task uses a salt of its own.

    >>> sorted(answer_slot(5, i, salt=0xA4) for i in range(8, 12))
    [0, 1, 2, 3]
    """
    order = np.random.default_rng(np.random.SeedSequence([seed, index // 4, salt])).permutation(4)
    return int(order[index % 4])


def random_choice(rng: np.random.Generator, options: int = 4) -> Choice:
    """A letter among the first ``options`` drawn uniformly (the ``random`` baseline of a choice task)."""
    return Choice(answer=LETTERS[int(rng.integers(options))])  # type: ignore[arg-type]


def the_true_option(flags: list[bool], item_id: str, what: str) -> Choice:
    """The letter of the one option an engine found true (``flags``, one per option).

    >>> the_true_option([False, True, False, False], "q1", "match").answer
    'B'

    Raises:
        AssertionError: not exactly one option is true (the item is broken: ``what`` says of what).
    """
    if flags.count(True) != 1:
        raise AssertionError(f"{item_id}: {flags.count(True)} options {what}")
    return Choice(answer=LETTERS[flags.index(True)])  # type: ignore[arg-type]


def wrong_choice(correct: str, answer: Mapping[str, Any] | None) -> tuple[str | None, str]:
    """For a report's gallery: the letter a stored answer chose when it is wrong (None otherwise), and a caption
    naming the right letter and that choice.

    >>> wrong_choice("B", {"answer": "D"})
    ('D', 'answer B, model chose D')
    >>> wrong_choice("B", None)
    (None, 'answer B, no readable choice')
    """
    chosen = (answer or {}).get("answer")
    caption = f"answer {correct}"
    if chosen in LETTERS and chosen != correct:
        return chosen, f"{caption}, model chose {chosen}"
    if chosen is None:
        return None, f"{caption}, no readable choice"
    return None, caption
