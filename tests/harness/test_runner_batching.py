"""What a run does once rather than once per item: rendering (the dataset check's prompts are the ones asked),
committing (replies that arrive together share a transaction), and loading the HTTP client and pyarrow only when
a run needs them; and what it must keep while doing less: the concurrency limit and the stored rows."""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import foldbench
from foldbench.harness import Store, evaluate
from foldbench.harness.config import EvalConfig
from foldbench.harness.evaluation import run_dataset
from foldbench.models.base import ModelReply, ModelRequest
from foldbench.tasks import make
from foldbench.tasks.dataset import check_items, read_items

TASK = make("mentalblackboard/prediction")


class ReleasedTogether:
    """A model that holds each request until ``size`` are waiting, then answers them all in the same pass of the
    event loop (the oracle's answer to even items, an unreadable reply to odd ones); it records the most requests
    it ever held at once."""

    name = "together"
    params: dict[str, Any] = {}

    def __init__(self, items: list[Any], size: int) -> None:
        self.size = size
        self.waiting: list[asyncio.Future[None]] = []
        self.in_flight = 0
        self.peak = 0
        self._answers = {
            TASK.render(item, "text").conversation().text: TASK.oracle(item).model_dump_json() if i % 2 == 0 else "?"
            for i, item in enumerate(items)
        }

    async def complete(self, request: ModelRequest) -> ModelReply:
        self.in_flight += 1
        self.peak = max(self.peak, self.in_flight)
        future = asyncio.get_running_loop().create_future()
        self.waiting.append(future)
        if len(self.waiting) == self.size:
            for held in self.waiting:
                held.set_result(None)
            self.waiting.clear()
        await future
        self.in_flight -= 1
        return ModelReply(self._answers[request.conversation.text], finish_reason="stop")

    async def aclose(self) -> None:
        pass


def _evaluate(store: Store, dataset: Path, items: list[Any], model: Any, **kw: Any) -> Any:
    async def go() -> Any:
        return await evaluate(
            store=store, run_name="r", task=TASK, dataset_dir=dataset, items=items, model=model, modality="text", **kw
        )  # fmt: skip

    return asyncio.run(go())


def _rows(db: Path) -> dict[str, list[tuple[Any, ...]]]:
    """The stored rows that do not depend on timing (ids, latencies and clock times left out), sorted."""
    with sqlite3.connect(db) as connection:
        return {
            "requests": sorted(connection.execute("SELECT key, model, params, prompt FROM requests")),
            "responses": sorted(connection.execute("SELECT key, text, error, attempts, finish_reason FROM responses")),
            "turns": sorted(
                connection.execute("SELECT run, item_id, turn, request_key, cached, feedback, done, repeat FROM turns")
            ),
            "scores": sorted(
                connection.execute(
                    "SELECT run, item_id, request_key, cached, answer, parse_failure, score_values, score_counts, "
                    "notes, metadata, repeat FROM scores"
                )
            ),
        }


def test_replies_that_arrive_together_share_one_commit(tmp_path: Path, prediction_dataset: Path) -> None:
    items = read_items(prediction_dataset)
    model = ReleasedTogether(items, size=4)
    commits: list[str] = []
    with Store(tmp_path / "runs.db") as store:
        store._db.set_trace_callback(lambda sql: commits.append(sql) if sql == "COMMIT" else None)
        summary = _evaluate(store, prediction_dataset, items, model, concurrency=4)
    assert summary.scored == summary.requested == len(items) == 12
    # three rounds of four replies released together: one commit each (and none left open at the end), where
    # committing each turn and each score on its own took two per item
    assert 3 <= len(commits) <= 4, commits
    rows = _rows(tmp_path / "runs.db")
    assert len(rows["turns"]) == len(rows["scores"]) == len(rows["responses"]) == 12


def test_the_concurrency_limit_holds_with_replies_released_together(tmp_path: Path, prediction_dataset: Path) -> None:
    items = read_items(prediction_dataset)
    model = ReleasedTogether(items, size=3)
    with Store(tmp_path / "runs.db") as store:
        summary = _evaluate(store, prediction_dataset, items, model, concurrency=3)
    assert model.peak == 3 and summary.scored == 12


def test_prompts_from_the_dataset_check_store_the_same_rows_as_rendering(
    tmp_path: Path, prediction_dataset: Path
) -> None:
    items = read_items(prediction_dataset)
    prompts = check_items(TASK, items, prediction_dataset, "text")
    assert [p.conversation().text for p in prompts] == [TASK.render(i, "text").conversation().text for i in items]
    with Store(tmp_path / "rendered.db") as store:
        _evaluate(store, prediction_dataset, items, ReleasedTogether(items, 2), concurrency=2)
    with Store(tmp_path / "given.db") as store:
        _evaluate(store, prediction_dataset, items, ReleasedTogether(items, 2), concurrency=2, prompts=prompts)
    assert _rows(tmp_path / "rendered.db") == _rows(tmp_path / "given.db")
    with Store(tmp_path / "given.db") as store, pytest.raises(ValueError, match="11 prompts for 12 items"):
        _evaluate(store, prediction_dataset, items, ReleasedTogether(items, 2), prompts=prompts[:-1])


def test_a_run_renders_each_item_once(
    tmp_path: Path, prediction_dataset: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rendered: list[str] = []
    render = type(TASK).render

    def counting(self: Any, item: Any, modality: str) -> Any:
        rendered.append(item.id)
        return render(self, item, modality)

    monkeypatch.setattr(type(TASK), "render", counting)
    config = EvalConfig(task="mentalblackboard/prediction", data=prediction_dataset, model="oracle", run_name="once",
                        db=tmp_path / "runs.db", modality="text")  # fmt: skip
    _, summary = run_dataset(config)
    assert summary.scored == 12
    assert sorted(rendered) == sorted(item.id for item in read_items(prediction_dataset))


_LIST_MODULES = """
import json, sys
from foldbench.cli import main
try:
    main(sys.argv[1:])
except SystemExit as stop:
    code = stop.code
print(json.dumps({"code": code, "modules": sorted({name.split(".")[0] for name in sys.modules})}), file=sys.stderr)
"""


def test_an_eval_of_a_baseline_loads_neither_the_http_client_nor_pyarrow(
    tmp_path: Path, prediction_dataset: Path
) -> None:
    env = {**os.environ, "PYTHONPATH": str(Path(foldbench.__file__).parents[1])}
    args = ["eval", "-t", "mentalblackboard/prediction", "-d", str(prediction_dataset), "-m", "random",
            "--modality", "text", "--limit", "3", "--db", str(tmp_path / "runs.db")]  # fmt: skip
    done = subprocess.run([sys.executable, "-c", _LIST_MODULES, *args], capture_output=True, text=True, env=env,
                          timeout=600)  # fmt: skip
    report = json.loads(done.stderr.strip().splitlines()[-1])
    assert report["code"] in (0, None) and "3/3 items scored" in done.stdout, done.stdout + done.stderr
    assert {"aiohttp", "yarl", "h11", "pyarrow"} & set(report["modules"]) == set()
