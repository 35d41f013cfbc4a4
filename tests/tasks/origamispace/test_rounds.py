"""Environmental learning through the harness: a scripted model improves its pattern round by round; the scores
per round are stored in the turn feedback and plotted."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import numpy as np

from foldbench.harness import Store, aggregate, evaluate
from foldbench.models.registry import make_model
from foldbench.tasks import make
from foldbench.tasks.dataset import read_items, write_dataset
from foldbench.tasks.origamispace.rounds import plot_round_scores, round_scores
from foldbench.testing.fake_openai import reply

TASK_ID = "origamispace/codegen-feedback-v1"


def test_scores_per_round_rise_as_the_model_uses_the_feedback(tmp_path: Path, fake_openai_server) -> None:  # type: ignore[no-untyped-def]
    task = make(TASK_ID)
    data = tmp_path / "data"
    write_dataset(TASK_ID, data, n=1, seed=3, modalities=("image",))
    items = read_items(data)
    item = items[0]
    scripted = [
        "I am not sure yet.",
        task.random_answer(item, np.random.default_rng(5)).model_dump_json(),
        task.oracle(item).model_dump_json(),
    ]

    def answer(request: dict[str, Any], _attempt: int) -> Any:
        answered = sum(1 for m in request["messages"] if m["role"] == "assistant")
        return reply(scripted[min(answered, len(scripted) - 1)])

    server = fake_openai_server(answer)
    adapter = make_model("openai:fake", base_url=server.base_url)

    async def go() -> None:
        try:
            await evaluate(store=store, run_name="feedback", task=task, dataset_dir=data, items=items,
                           model=adapter, modality="image")
        finally:
            await adapter.aclose()

    with Store(tmp_path / "runs.db") as store:
        asyncio.run(go())
        turns = store.turns("feedback")
        summary = aggregate(store.scores("feedback"), task.spec)
    assert [t.done for t in turns[item.id]] == [False, False, True]
    scores = round_scores(turns, 10)
    assert scores[0] == 0.0 and 0.0 < scores[1] < 1.0 and scores[2:] == [1.0] * 8
    assert summary.value("score") == summary.value("paper_total") == 1.0  # the last answer counts
    picture = plot_round_scores({"scripted": scores}, tmp_path / "rounds.png")
    assert picture.read_bytes().startswith(b"\x89PNG")
