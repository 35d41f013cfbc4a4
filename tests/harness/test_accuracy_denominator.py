"""Multiple-choice accuracy through the harness counts a parse failure as a wrong answer: in the denominator."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

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
