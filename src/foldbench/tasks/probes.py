"""What perception probes of every family share: an item offers its answers in ``inputs["choices"]``, the reply
names one of them as ``{"answer": ...}`` (read strictly), and it scores 1 when it is the engine's
(``target["answer"]``).

Probes are drawn so that no prior answers them: :func:`balanced_plan` picks, from every question the source
configurations allow, as many of each question type and, within a type, as many of each answer as it can, and
offers only the answers the type's items take. A type whose answer cannot vary over the configurations (one value
only) is not asked. :func:`configuration_hash` names a source configuration so that a probe run pairs only with a
reasoning run over the same configurations."""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from pydantic import BaseModel, ConfigDict

from foldbench.errors import FoldbenchError
from foldbench.tasks.answer_forms import HumanForm
from foldbench.tasks.base import Item, Metric, ParseFailure, Scores
from foldbench.tasks.choice_fields import PROBE_INPUT_KEYS
from foldbench.tasks.choice_question import ChoiceQuestion
from foldbench.text.replies import excerpt, last_json_object

__all__ = [
    "PROBE_METRICS",
    "Candidate",
    "PerceptionAnswer",
    "ProbeAnswers",
    "asked_question",
    "balanced_plan",
    "balanced_plan_over_sources",
    "configuration_hash",
    "offered_answers",
    "parse_probe",
    "random_probe",
    "score_probe",
]

#: Input keys that only present a configuration (encodings, the prompt style), left out of its hash.
PRESENTATION_KEYS = PROBE_INPUT_KEYS | {"text", "images", "video", "frames", "questions", "source_item", "prompt"}

#: A probe is answered right or not; parse failures are counted as well.
PROBE_METRICS = (Metric("correct"), Metric("parse_failure"))


class PerceptionAnswer(BaseModel):
    """One of the answers an item offers."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    answer: str


def parse_probe(item: Item, text: str) -> PerceptionAnswer | ParseFailure:
    """The last JSON object of the reply must be ``{"answer": <one of the item's choices>}`` (a number may be given
    as a number; case and surrounding spaces are forgiven)."""
    data = last_json_object(text)
    if isinstance(data, ParseFailure):
        return data
    value = data.get("answer")
    if isinstance(value, bool) or not isinstance(value, str | int):
        return ParseFailure("schema", 'the reply needs "answer" with one of the possible answers', excerpt(text))
    given = str(value).strip().lower()
    for choice in offered_answers(item):
        if choice.lower() == given:
            return PerceptionAnswer(answer=choice)
    return ParseFailure("schema", f"{given[:40]!r} is not one of the possible answers", excerpt(text))


def score_probe(item: Item, answer: Any) -> Scores:
    """1 when the answer is the engine's, else 0 (a parse failure scores 0 and is counted)."""
    failed = isinstance(answer, ParseFailure)
    correct = not failed and answer.answer == item.target["answer"]
    return Scores({"correct": float(correct), "parse_failure": float(failed)})


def offered_answers(item: Item) -> tuple[str, ...]:
    """The answers a probe item offers (:attr:`~foldbench.tasks.choice_question.ChoiceQuestion.choices`)."""
    question = ChoiceQuestion.of(item)
    if question is None or not question.choices:
        raise FoldbenchError(f"item {item.id} offers no answers: it is not a perception probe")
    return question.choices


def asked_question(item: Item) -> str:
    """The question a probe item asks (:attr:`~foldbench.tasks.choice_question.ChoiceQuestion.question_text`)."""
    question = ChoiceQuestion.of(item)
    if question is None or question.question_text is None:
        raise FoldbenchError(f"item {item.id} asks no question: it is not a perception probe")
    return question.question_text


def random_probe(item: Item, rng: np.random.Generator) -> PerceptionAnswer:
    """One of the offered answers at random."""
    choices = offered_answers(item)
    return PerceptionAnswer(answer=choices[int(rng.integers(len(choices)))])


class ProbeAnswers:
    """The answer half of a probe task (every family's probes share it): strict reading, scoring, the engine's
    answer and a random offered answer."""

    def parse(self, item: Item, text: str) -> PerceptionAnswer | ParseFailure:
        """Read the reply strictly (see :func:`parse_probe`)."""
        return parse_probe(item, text)

    def score(self, item: Item, answer: Any) -> Scores:
        """1 when the answer is the engine's, else 0 (a parse failure scores 0 and is counted)."""
        return score_probe(item, answer)

    def oracle(self, item: Item) -> PerceptionAnswer:
        """The engine's answer."""
        return PerceptionAnswer(answer=item.target["answer"])

    def random_answer(self, item: Item, rng: np.random.Generator) -> PerceptionAnswer:
        """One of the offered answers at random."""
        return random_probe(item, rng)

    def human_form(self, item: Item) -> HumanForm:
        """People pick one of the offered answers."""
        return HumanForm.choice(offered_answers(item))


def configuration_hash(inputs: Mapping[str, Any]) -> str:
    """A short hash of what defines a configuration: an item's inputs without their encodings (pictures, text
    grids, video) and without a probe's question. A probe and its source reasoning item have the same hash.

    >>> configuration_hash({"actions": ["H1-F"], "text": "11, 11"}) == configuration_hash({"actions": ["H1-F"]})
    True
    """
    defining = {k: v for k, v in inputs.items() if k not in PRESENTATION_KEYS}
    return hashlib.sha256(json.dumps(defining, sort_keys=True).encode("utf-8")).hexdigest()[:16]


@dataclass(frozen=True, slots=True)
class Candidate:
    """A question a source configuration allows: the configuration's index, the question type, the engine's
    answer, the type's answers in their order, and the question itself (any family's record)."""

    source: int
    kind: str
    answer: str
    vocabulary: tuple[str, ...]
    question: Any


def _values_for(supply: Mapping[str, int], wanted: int) -> list[str]:
    """The most answer values (by supply, most first) such that each can be asked ``ceil(wanted / values)``
    times without repeating a question; empty when fewer than two values can."""
    ranked = sorted(supply, key=lambda value: (-supply[value], value))
    for count in range(len(ranked), 1, -1):
        if supply[ranked[count - 1]] >= -(-wanted // count):
            return ranked[:count]
    return []


def _capacity(supply: Mapping[str, int]) -> int:
    """The most items a type can give with its answers balanced (two values at least)."""
    ranked = sorted(supply.values(), reverse=True)
    return max((count * ranked[count - 1] for count in range(2, len(ranked) + 1)), default=0)


def balanced_plan(
    candidates: Sequence[Candidate], n: int, rng: np.random.Generator
) -> tuple[list[Candidate], dict[str, tuple[str, ...]]]:
    """``n`` questions drawn from ``candidates`` (no question twice) with the question types as equally often as
    their supply allows and, within a type, every answer equally often (counts differ by one at most); and each
    type's offered answers (its answers that are asked, in the type's order). Types with one answer value are
    left out. Raises :class:`FoldbenchError` when the candidates cannot give ``n`` balanced questions.
    """
    by_kind: dict[str, dict[str, list[Candidate]]] = defaultdict(lambda: defaultdict(list))
    for candidate in candidates:
        by_kind[candidate.kind][candidate.answer].append(candidate)
    supply = {kind: {value: len(c) for value, c in values.items()} for kind, values in by_kind.items()}
    capacity = {kind: _capacity(values) for kind, values in supply.items()}
    kinds = sorted(kind for kind, cap in capacity.items() if cap > 0)
    if sum(capacity[k] for k in kinds) < n:
        raise FoldbenchError(
            f"the configurations allow only {sum(capacity[k] for k in kinds)} balanced probes, not {n}: ask fewer "
            "questions per configuration (knob 'questions')"
        )
    wanted = dict.fromkeys(kinds, 0)
    open_kinds = list(kinds)
    left = n
    while left > 0:  # share the items out, a type never above its capacity
        order = [open_kinds[i] for i in rng.permutation(len(open_kinds))]
        share, extra = divmod(left, len(order))
        for rank, kind in enumerate(order):
            wanted[kind] += share + (rank < extra)
        left = 0
        for kind in order:
            if wanted[kind] > capacity[kind]:
                left += wanted[kind] - capacity[kind]
                wanted[kind] = capacity[kind]
        open_kinds = [kind for kind in open_kinds if wanted[kind] < capacity[kind]]
    plan: list[Candidate] = []
    offered: dict[str, tuple[str, ...]] = {}
    for kind in kinds:
        if wanted[kind] == 0:
            continue
        values = _values_for(supply[kind], wanted[kind])
        vocabulary = by_kind[kind][values[0]][0].vocabulary
        offered[kind] = tuple(v for v in vocabulary if v in values) + tuple(sorted(set(values) - set(vocabulary)))
        order = [values[i] for i in rng.permutation(len(values))]
        share, extra = divmod(wanted[kind], len(values))
        for rank, value in enumerate(order):
            pool = by_kind[kind][value]
            picks = rng.permutation(len(pool))[: share + (rank < extra)]
            plan.extend(pool[i] for i in picks)
    shuffled = [plan[i] for i in rng.permutation(len(plan))]
    return shuffled, offered


MAX_SOURCES_FACTOR = 4
"""A plan over sources stops growing once it would need more than ``MAX_SOURCES_FACTOR * n + 8`` sources."""


def balanced_plan_over_sources(
    n: int,
    per_source: int,
    candidates_from: Callable[[int], Sequence[Candidate]],
    seed_words: Sequence[int],
) -> tuple[list[Candidate], dict[str, tuple[str, ...]]]:
    """:func:`balanced_plan` of ``n`` questions over the first ``ceil(n / per_source)`` sources, doubling the
    number of sources until their questions allow ``n`` balanced ones (a tiny dataset's few sources may give every
    question type one answer only). ``candidates_from(count)`` gives every candidate question of the first
    ``count`` sources (the caller keeps what it has drawn and adds the rest); every attempt draws from a fresh
    generator seeded with ``seed_words``. Raises :class:`FoldbenchError` when even ``4 n + 8`` or more sources do
    not suffice.

    >>> plan, offered = balanced_plan_over_sources(
    ...     2, 1, lambda count: [Candidate(k, "parity", str(k % 2), ("0", "1"), k) for k in range(count)], [0, 1])
    >>> sorted(c.answer for c in plan), offered
    (['0', '1'], {'parity': ('0', '1')})
    """
    wanted = -(-n // per_source)
    while True:
        candidates = candidates_from(wanted)
        try:
            return balanced_plan(candidates, n, np.random.default_rng(list(seed_words)))
        except FoldbenchError:
            if wanted > MAX_SOURCES_FACTOR * n + 8:
                raise
            wanted *= 2
