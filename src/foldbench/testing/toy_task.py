"""Two toy task families that plug into foldbench the way a real one does (docs/concepts/task-protocol.md shows the
first): ``toy/addition-v1`` (one turn: add two numbers) and ``toy/guess-v1`` (several turns: guess a number with
"higher" / "lower" feedback after each guess)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np
from pydantic import BaseModel, Field, ValidationError

from foldbench.tasks.base import Feedback, Item, Metric, ParseFailure, Prompt, Scores, TaskSpec, TextPart
from foldbench.tasks.knobs import Knobs, parse_knobs


# -- the toy task of docs/concepts/task-protocol.md starts here --
class Sum(BaseModel):
    """The answer to an addition item."""

    sum: int


class AdditionKnobs(Knobs):
    """What ``generate`` accepts (unknown or ill-typed knobs are refused with a one-line error)."""

    max_digits: int = Field(3, ge=1, le=9)
    """The most digits a number may have."""


class AdditionTask:
    """What is a + b? One turn, scored right or wrong."""

    id = "toy/addition-v1"
    modalities = ("text",)
    knob_schema = AdditionKnobs
    spec = TaskSpec(
        engine_version="toy-1",
        metrics=(Metric("accuracy"), Metric("parse_failure")),
        headline="accuracy",
        breakdowns=("digits",),
    )

    def generate(self, n, seed, *, modalities=("text",), knobs=None, start=0) -> Iterator[Item]:
        max_digits = parse_knobs(self.knob_schema, self.id, knobs).max_digits
        for index in range(start, n):
            rng = np.random.default_rng([seed, index])
            digits = int(rng.integers(1, max_digits + 1))
            a, b = (int(x) for x in rng.integers(0, 10**digits, size=2))
            yield Item(
                id=f"addition-{index:05d}",
                task=self.id,
                seed=seed,
                engine_version="toy-1",
                inputs={"a": a, "b": b},
                target={"sum": a + b},
                metadata={"digits": digits},
            )

    def assets(self, item: Item) -> Iterator[tuple[str, bytes]]:
        return iter(())  # no pictures

    def render(self, item: Item, modality: str) -> Prompt:
        a, b = item.inputs["a"], item.inputs["b"]
        question = f'What is {a} + {b}? Reply with JSON: {{"sum": <number>}}'
        return Prompt((TextPart(question),), template_version="addition-1")

    def parse(self, item: Item, text: str) -> Sum | ParseFailure:
        try:
            return Sum.model_validate_json(text.strip())
        except ValidationError as error:
            return ParseFailure("schema", str(error).splitlines()[0], text[:200])

    def score(self, item: Item, answer: Sum | ParseFailure) -> Scores:
        failed = isinstance(answer, ParseFailure)
        right = not failed and answer.sum == item.target["sum"]
        return Scores({"accuracy": float(right), "parse_failure": float(failed)})

    def oracle(self, item: Item) -> Sum:
        return Sum(sum=item.target["sum"])

    def random_answer(self, item: Item, rng: np.random.Generator) -> Sum:
        return Sum(sum=int(rng.integers(0, 2000)))
# -- the toy task ends here --


class Guess(BaseModel):
    """One guess of the guessing game."""

    guess: int


class GuessTask:
    """Guess a number from 1 to 100 in at most :attr:`MAX_TURNS` guesses; after each guess the task says
    "higher", "lower" or "right". Scored on the last guess."""

    id = "toy/guess-v1"
    modalities = ("text",)
    knob_schema = Knobs  # no knobs
    MAX_TURNS = 8
    spec = TaskSpec(
        engine_version="toy-1",
        metrics=(Metric("accuracy"), Metric("parse_failure")),
        headline="accuracy",
        max_turns=MAX_TURNS,
    )

    def generate(
        self, n: int, seed: int, *, modalities: tuple[str, ...] = ("text",), knobs: Mapping[str, Any] | None = None,
        start: int = 0,
    ) -> Iterator[Item]:  # fmt: skip
        for index in range(start, n):
            secret = int(np.random.default_rng([seed, index, 7]).integers(1, 101))
            yield Item(
                id=f"guess-{index:05d}", task=self.id, seed=seed, engine_version="toy-1", inputs={},
                target={"secret": secret},
            )  # fmt: skip

    def assets(self, item: Item) -> Iterator[tuple[str, bytes]]:
        return iter(())

    def render(self, item: Item, modality: str) -> Prompt:
        text = f"Game {item.id}: I am thinking of a number from 1 to 100. Guess it; "
        text += 'reply with JSON: {"guess": <number>}'
        return Prompt((TextPart(text),), template_version="guess-1")

    def parse(self, item: Item, text: str) -> Guess | ParseFailure:
        try:
            return Guess.model_validate_json(text.strip())
        except ValidationError as error:
            return ParseFailure("schema", str(error).splitlines()[0], text[:200])

    def step(self, item: Item, reply: str, turn: int) -> Feedback:
        """"higher" / "lower" after a wrong guess, "right" (and done) after the right one."""
        answer = self.parse(item, reply)
        if isinstance(answer, ParseFailure):
            return Feedback((TextPart('Reply with JSON: {"guess": <number>}'),))
        secret = item.target["secret"]
        if answer.guess == secret:
            return Feedback((TextPart("right"),), done=True)
        return Feedback((TextPart("higher" if answer.guess < secret else "lower"),))

    def score(self, item: Item, answer: Guess | ParseFailure) -> Scores:
        failed = isinstance(answer, ParseFailure)
        right = not failed and answer.guess == item.target["secret"]  # type: ignore[union-attr]
        return Scores({"accuracy": float(right), "parse_failure": float(failed)})

    def oracle(self, item: Item) -> Guess:
        return Guess(guess=item.target["secret"])

    def random_answer(self, item: Item, rng: np.random.Generator) -> Guess:
        return Guess(guess=int(rng.integers(1, 101)))


def bisect_reply(conversation_text: str) -> str:
    """The guess a bisecting player makes after the feedback in ``conversation_text`` (lines ``higher`` /
    ``lower`` after each guess): what a scripted server answers in the tests."""
    low, high, guess = 1, 100, 50
    for line in conversation_text.splitlines():
        if line.strip() == "higher":
            low = guess + 1
        elif line.strip() == "lower":
            high = guess - 1
        else:
            continue
        guess = (low + high) // 2
    return f'{{"guess": {guess}}}'
