"""Multiple-choice accuracy through the harness counts a parse failure as a wrong answer: in the denominator."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from foldbench.cli import main
from foldbench.harness.evaluation import load_dataset
from foldbench.harness.metrics import aggregate
from foldbench.harness.runner import evaluate
from foldbench.harness.store import Store
from foldbench.models.base import ModelReply, ModelRequest


class ScriptedModel:
    """Replies in item order (concurrency 1): the given texts, one per request."""

    name = "scripted"
    params: dict[str, Any] = {}

    def __init__(self, replies: list[str]) -> None:
        self.replies = list(replies)

    async def complete(self, request: ModelRequest) -> ModelReply:
        return ModelReply(text=self.replies.pop(0))

    async def aclose(self) -> None:
        return None


def test_parse_failures_stay_in_the_accuracy_denominator(tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as done:
        main(["generate", "pfp", "--task", "single-step", "-n", "4", "--seed", "5", "--out", str(tmp_path / "d")])
    assert done.value.code == 0
    task, items, _ = load_dataset("pfp/single-step", tmp_path / "d")
    letters = [item.target["answer"] for item in items]
    wrong = next(letter for letter in "ABCD" if letter != letters[2])
    # Two right, one wrong, one reply with no answer in it.
    replies = [f'{{"answer": "{letters[0]}"}}', f'{{"answer": "{letters[1]}"}}', f'{{"answer": "{wrong}"}}',
               "I cannot tell from these pictures."]
    with Store(tmp_path / "runs.db") as store:
        summary = asyncio.run(evaluate(store=store, run_name="r", task=task, dataset_dir=tmp_path / "d",
                                       items=items, model=ScriptedModel(replies), modality="image",
                                       concurrency=1))  # type: ignore[arg-type]
        rows = list(store.scores("r"))
    assert summary.parse_failures == 1 and summary.scored == 4
    result = aggregate(rows, task.spec)
    # By hand: 2 right out of 4 asked = 0.5 (leaving the failure out would give 2 / 3).
    assert result.value("accuracy") == 0.5
    assert result.n == 4


@settings(max_examples=50, deadline=None, derandomize=True)
@given(st.lists(st.tuples(st.sampled_from("ABCD"), st.sampled_from(["A", "B", "C", "D", "junk"])), min_size=1,
                max_size=30))
def test_accuracy_is_right_answers_over_every_item_asked(pairs: list[tuple[str, str]]) -> None:
    """Over any mix of right, wrong and unparseable replies, accuracy is the right ones over all items: the
    answer key scores 1 on every item, and each reply turned into junk lowers it by exactly one item's share."""
    from foldbench.harness.store import ScoreRow
    from foldbench.tasks import make
    from foldbench.tasks.choice import parse_choice, score_choice

    spec = make("pfp/single-step").spec

    def accuracy(replies: list[str]) -> float | None:
        rows = []
        for index, ((correct, _), reply) in enumerate(zip(pairs, replies, strict=True)):
            scores = score_choice(correct, parse_choice(reply if reply != "junk" else "no letter here"))
            rows.append(ScoreRow(item_id=str(index), values=dict(scores.values), counts=dict(scores.counts),
                                 notes=list(scores.notes), metadata={}, answer=None, parse_failure=None, text=reply,
                                 latency_s=0.0, attempts=1, prompt_tokens=None, completion_tokens=None, cached=False))
        return aggregate(rows, spec).value("accuracy")

    assert accuracy([correct for correct, _ in pairs]) == 1.0
    replies = [reply for _, reply in pairs]
    right = sum(correct == reply for correct, reply in pairs)
    assert accuracy(replies) == pytest.approx(right / len(pairs))
