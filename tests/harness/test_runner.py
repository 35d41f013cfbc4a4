"""The harness against a real protocol peer: a scripted OpenAI-compatible server on 127.0.0.1."""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from foldbench.harness import RunAborted, Store, aggregate, evaluate
from foldbench.models.registry import make_model
from foldbench.tasks import make
from foldbench.tasks.dataset import read_items
from foldbench.testing.fake_openai import always, answering, reply, status
from tests.harness.conftest import prompt_index
from tests.support.gate import ReplyGate, kill_once_stored

TASK = make("mentalblackboard/prediction")


def _run(store: Store, dataset: Path, base_url: str, run: str = "r", modality: str = "text", **kw: Any) -> Any:
    model = make_model(
        "openai:fake",
        base_url=base_url,
        max_retries=kw.pop("max_retries", 3),
        backoff_base_s=0.01,
        backoff_max_s=0.05,
        timeout_s=kw.pop("timeout_s", 5),
    )

    async def go() -> Any:
        try:
            return await evaluate(
                store=store,
                run_name=run,
                task=TASK,
                dataset_dir=dataset,
                items=kw.pop("items", read_items(dataset)),
                model=model,
                modality=modality,
                concurrency=kw.pop("concurrency", 4),
            )
        finally:
            await model.aclose()

    return asyncio.run(go())


def _kind_of_reply(index: int, item: Any) -> str:
    oracle = TASK.oracle(item).model_dump_json()
    wrong = TASK.random_answer(item, np.random.default_rng(index)).model_dump_json()
    return [
        f"Let me think. The answer:\n{oracle}",
        wrong,
        '{"total_holes": 3, "unfolding": [',
        "",
        f"```json\n{oracle}\n```",
        "I cannot tell.",
    ][index % 6]


def test_scores_and_parse_failures_are_recorded(tmp_path: Path, prediction_dataset: Path, fake_openai_server) -> None:  # type: ignore[no-untyped-def]
    index = prompt_index(prediction_dataset)
    order = {item.id: i for i, item in enumerate(read_items(prediction_dataset))}
    server = fake_openai_server(answering(lambda text: _kind_of_reply(order[index[text].id], index[text])))
    with Store(tmp_path / "runs.db") as store:
        summary = _run(store, prediction_dataset, server.base_url)
        assert summary.scored == 12 and summary.failed == 0 and summary.parse_failures == 6
        rows = {r.item_id: r for r in store.scores("r")}
    for item_id, i in order.items():
        row = rows[item_id]
        if i % 6 in (0, 4):
            assert row.values["exact_match"] == 1.0 and row.parse_failure is None
        elif i % 6 == 1:
            assert row.parse_failure is None and row.values["exact_match"] == 0.0
        else:
            expected = {2: "invalid_json", 3: "empty", 5: "no_json"}[i % 6]
            assert row.parse_failure["kind"] == expected
            assert row.values["exact_match"] == 0.0 and row.values["partial_accuracy"] == 0.0


def test_rate_limits_are_retried_and_counted(tmp_path: Path, prediction_dataset: Path, fake_openai_server) -> None:  # type: ignore[no-untyped-def]
    index = prompt_index(prediction_dataset)
    correct = answering(lambda text: TASK.oracle(index[text]).model_dump_json())
    server = fake_openai_server(
        lambda request, attempt: status(429, retry_after=0.01) if attempt == 1 else correct(request, attempt)
    )
    with Store(tmp_path / "runs.db") as store:
        summary = _run(store, prediction_dataset, server.base_url)
        rows = list(store.scores("r"))
    assert summary.scored == 12 and summary.requested == 12
    assert all(r.attempts == 2 for r in rows)
    assert aggregate(rows, TASK.spec).value("exact_match") == 1.0
    assert len(server.requests) == 24


def test_server_errors_are_failures_not_scores_and_are_retried_next_time(
    tmp_path: Path,
    prediction_dataset: Path,
    fake_openai_server,  # type: ignore[no-untyped-def]
) -> None:
    broken = fake_openai_server(always(status(500)))
    with Store(tmp_path / "runs.db") as store:
        summary = _run(store, prediction_dataset, broken.base_url, max_retries=2)
        assert summary.failed == 12 and summary.scored == 0
        assert list(store.scores("r")) == []
        assert {kind for _, kind, _ in store.failures("r")} == {"http_500"}
    index = prompt_index(prediction_dataset)
    healthy = fake_openai_server(answering(lambda text: TASK.oracle(index[text]).model_dump_json()))
    with Store(tmp_path / "runs.db") as store:
        summary = _run(store, prediction_dataset, healthy.base_url)
        assert summary.scored == 12 and store.failures("r") == []


def test_a_rerun_sends_nothing_already_answered(tmp_path: Path, prediction_dataset: Path, fake_openai_server) -> None:  # type: ignore[no-untyped-def]
    index = prompt_index(prediction_dataset)
    server = fake_openai_server(answering(lambda text: TASK.oracle(index[text]).model_dump_json()))
    items = read_items(prediction_dataset)
    with Store(tmp_path / "runs.db") as store:
        first = _run(store, prediction_dataset, server.base_url, items=items[:5])
        second = _run(store, prediction_dataset, server.base_url)
        # a second run name with the same model and prompts is served from the store
        third = _run(store, prediction_dataset, server.base_url, run="again")
    assert (first.requested, second.requested, second.already_scored) == (5, 7, 5)
    assert (third.requested, third.from_store) == (0, 12)
    assert len(server.requests) == 12


def test_wrong_key_stops_the_run_with_one_error(tmp_path: Path, prediction_dataset: Path, fake_openai_server) -> None:  # type: ignore[no-untyped-def]
    server = fake_openai_server(always(status(401, message="invalid api key")))
    with Store(tmp_path / "runs.db") as store, pytest.raises(RunAborted, match="API key"):
        _run(store, prediction_dataset, server.base_url, concurrency=2)
    assert len(server.requests) <= 2


def _eval_cli(dataset: Path, db: Path, base_url: str, *extra: str, env: dict[str, str] | None = None) -> list[str]:
    return [
        sys.executable,
        "-m",
        "foldbench",
        "eval",
        "--task",
        "mentalblackboard/prediction",
        "--data",
        str(dataset),
        "--model",
        "openai:fake",
        "--base-url",
        base_url,
        "--run",
        "killed",
        "--db",
        str(db),
        "--modality",
        "text",
        *extra,
    ]


def test_a_killed_run_resumes_without_losing_or_repeating_requests(
    tmp_path: Path,
    prediction_dataset: Path,
    fake_openai_server,  # type: ignore[no-untyped-def]
) -> None:
    index = prompt_index(prediction_dataset)
    gate = ReplyGate(passing=4)  # four answers, then the run is held with two requests in flight
    server = fake_openai_server(lambda request, attempt: gate(reply(_oracle_for(index, request))))
    db = tmp_path / "runs.db"
    process = subprocess.Popen(
        _eval_cli(prediction_dataset, db, server.base_url, "--concurrency", "2"),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    kill_once_stored(process, db, "SELECT COUNT(*) FROM scores", 4, gate)
    with sqlite3.connect(db) as connection:
        stored_before = connection.execute("SELECT COUNT(*) FROM responses").fetchone()[0]
    assert 4 <= stored_before < 12
    received_before = len(server.requests)
    finished = subprocess.run(
        _eval_cli(prediction_dataset, db, server.base_url, "--concurrency", "2"),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert finished.returncode == 0, finished.stderr
    with sqlite3.connect(db) as connection:
        scores = connection.execute("SELECT COUNT(*), COUNT(DISTINCT item_id) FROM scores").fetchone()
        responses = connection.execute("SELECT COUNT(*), COUNT(DISTINCT key) FROM responses").fetchone()
    assert scores == (12, 12)
    assert responses == (12, 12)  # one stored response per request: nothing stored twice
    # the resumed run asked only what had no stored response; at most the requests in flight were asked again
    resumed = len(server.requests) - received_before
    assert resumed == 12 - stored_before
    assert received_before - stored_before <= 2


def _oracle_for(index: dict[str, Any], request: dict[str, Any]) -> str:
    from foldbench.testing.fake_openai import prompt_text

    return TASK.oracle(index[prompt_text(request)]).model_dump_json()
