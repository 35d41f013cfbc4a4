"""``toyfam/parity-v1``: is a number even or odd? One turn, text only, scored right or wrong. The third-party
family of the registry tests ships this file as ``toyfam/parity.py`` (tests/support/distributions.py)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, Literal

import numpy as np
from pydantic import BaseModel, ValidationError

from foldbench.tasks.base import Item, Metric, ParseFailure, Prompt, Scores, TaskSpec, TextPart
from foldbench.tasks.knobs import Knobs


class Parity(BaseModel):
    """The answer: ``{"parity": "even"}`` or ``{"parity": "odd"}``."""

    parity: Literal["even", "odd"]


class ParityTask:
    """Is n even or odd?"""

    id = "toyfam/parity-v1"
    modalities = ("text",)
    knob_schema = Knobs
    spec = TaskSpec(
        engine_version="toyfam-1",
        metrics=(Metric("accuracy"), Metric("parse_failure")),
        headline="accuracy",
        breakdowns=("digits",),
    )

    def generate(
        self, n: int, seed: int, *, modalities: tuple[str, ...] = ("text",), knobs: Mapping[str, Any] | None = None,
        start: int = 0,
    ) -> Iterator[Item]:  # fmt: skip
        for index in range(start, n):
            rng = np.random.default_rng([seed, index])
            digits = int(rng.integers(1, 3))
            number = int(rng.integers(10 ** (digits - 1), 10**digits))
            yield Item(
                id=f"parity-{index:05d}", task=self.id, seed=seed, engine_version="toyfam-1",
                inputs={"number": number}, target={"parity": "odd" if number % 2 else "even"},
                metadata={"digits": digits},
            )  # fmt: skip

    def assets(self, item: Item) -> Iterator[tuple[str, bytes]]:
        return iter(())

    def render(self, item: Item, modality: str) -> Prompt:
        question = f'Is {item.inputs["number"]} even or odd? Reply with JSON: {{"parity": "even" or "odd"}}'
        return Prompt((TextPart(question),), template_version="parity-1")

    def parse(self, item: Item, text: str) -> Parity | ParseFailure:
        try:
            return Parity.model_validate_json(text.strip())
        except ValidationError as error:
            return ParseFailure("schema", str(error).splitlines()[0], text[:200])

    def score(self, item: Item, answer: Parity | ParseFailure) -> Scores:
        failed = isinstance(answer, ParseFailure)
        right = not failed and answer.parity == item.target["parity"]  # type: ignore[union-attr]
        return Scores({"accuracy": float(right), "parse_failure": float(failed)})

    def oracle(self, item: Item) -> Parity:
        return Parity(parity=item.target["parity"])

    def random_answer(self, item: Item, rng: np.random.Generator) -> Parity:
        return Parity(parity="even" if rng.integers(0, 2) == 0 else "odd")
