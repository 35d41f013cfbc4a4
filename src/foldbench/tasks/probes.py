"""What perception probes of every family share: an item offers its answers in ``inputs["choices"]``, the reply
names one of them as ``{"answer": ...}`` (read strictly), and it scores 1 when it is the engine's
(``target["answer"]``)."""

from __future__ import annotations

from typing import Any

import numpy as np
from pydantic import BaseModel, ConfigDict

from foldbench.tasks.base import Item, Metric, ParseFailure, Scores
from foldbench.tasks.replies import excerpt, last_json_object

__all__ = ["PROBE_METRICS", "PerceptionAnswer", "ProbeAnswers", "parse_probe", "random_probe", "score_probe"]

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
    for choice in item.inputs["choices"]:
        if choice.lower() == given:
            return PerceptionAnswer(answer=choice)
    return ParseFailure("schema", f"{given[:40]!r} is not one of the possible answers", excerpt(text))


def score_probe(item: Item, answer: Any) -> Scores:
    """1 when the answer is the engine's, else 0 (a parse failure scores 0 and is counted)."""
    failed = isinstance(answer, ParseFailure)
    correct = not failed and answer.answer == item.target["answer"]
    return Scores({"correct": float(correct), "parse_failure": float(failed)})


def random_probe(item: Item, rng: np.random.Generator) -> PerceptionAnswer:
    """One of the offered answers at random."""
    choices = item.inputs["choices"]
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
