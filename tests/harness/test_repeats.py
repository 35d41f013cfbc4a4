"""Repeats: each item asked N times, stored per repeat, resumable; mean ± std over repeats and the best of N."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from foldbench.harness import Store, evaluate
from foldbench.harness.repeats import mean_std, repeat_summary
from foldbench.harness.report import compare_runs, write_report
from foldbench.harness.store import ScoreRow
from foldbench.models.baselines import RandomModel
from foldbench.tasks import make
from foldbench.tasks.base import Scores
from foldbench.tasks.dataset import read_items
from foldbench.tasks.spec import Metric, TaskSpec
from foldbench.testing.fake_openai import prompt_text, reply
from tests.harness.conftest import prompt_index
from tests.support.gate import ReplyGate, kill_once_stored

TASK = make("mentalblackboard/prediction")

#: The run store's layout before repeats existed (foldbench 4fa5266), written by hand as such a file holds it.
_OLD_LAYOUT = """
CREATE TABLE runs (name TEXT PRIMARY KEY, task TEXT NOT NULL, dataset TEXT NOT NULL, engine_version TEXT NOT NULL,
    model TEXT NOT NULL, params TEXT NOT NULL, modality TEXT NOT NULL, template_version TEXT NOT NULL,
    foldbench_version TEXT NOT NULL, created TEXT NOT NULL);
CREATE TABLE requests (key TEXT PRIMARY KEY, model TEXT NOT NULL, params TEXT NOT NULL, prompt TEXT NOT NULL);
CREATE TABLE responses (id INTEGER PRIMARY KEY AUTOINCREMENT, key TEXT NOT NULL REFERENCES requests(key),
    text TEXT NOT NULL, error TEXT, error_kind TEXT, latency_s REAL NOT NULL, attempts INTEGER NOT NULL,
    prompt_tokens INTEGER, completion_tokens INTEGER, finish_reason TEXT, created TEXT NOT NULL);
CREATE TABLE scores (run TEXT NOT NULL REFERENCES runs(name), item_id TEXT NOT NULL, request_key TEXT NOT NULL,
    response_id INTEGER NOT NULL REFERENCES responses(id), cached INTEGER NOT NULL, answer TEXT, parse_failure TEXT,
    score_values TEXT NOT NULL, score_counts TEXT NOT NULL, notes TEXT NOT NULL, metadata TEXT NOT NULL,
    PRIMARY KEY (run, item_id));
CREATE TABLE turns (run TEXT NOT NULL REFERENCES runs(name), item_id TEXT NOT NULL, turn INTEGER NOT NULL,
    request_key TEXT NOT NULL, response_id INTEGER NOT NULL REFERENCES responses(id), cached INTEGER NOT NULL,
    feedback TEXT, done INTEGER NOT NULL, PRIMARY KEY (run, item_id, turn));
CREATE TABLE failures (run TEXT NOT NULL REFERENCES runs(name), item_id TEXT NOT NULL,
    response_id INTEGER NOT NULL REFERENCES responses(id), PRIMARY KEY (run, item_id));
INSERT INTO runs VALUES ('old', 'mentalblackboard/prediction-v1', '/data', 'e1', 'random', '{}', 'text', 't1', '0.1',
    '2026-01-01T00:00:00+00:00');
INSERT INTO requests VALUES ('k1', 'random', '{}', '{}');
INSERT INTO requests VALUES ('k2', 'random', '{}', '{}');
INSERT INTO responses VALUES (1, 'k1', 'reply one', NULL, NULL, 0.5, 1, 10, 2, 'stop', '2026-01-01T00:00:00+00:00');
INSERT INTO responses VALUES (2, 'k2', '', 'boom', 'http_500', 0.1, 3, NULL, NULL, NULL, '2026-01-01T00:00:00+00:00');
INSERT INTO scores VALUES ('old', 'item-1', 'k1', 1, 0, NULL, NULL, '{"exact_match":1.0}', '{}', '[]', '{}');
INSERT INTO turns VALUES ('old', 'item-1', 0, 'k1', 1, 0, NULL, 1);
INSERT INTO turns VALUES ('old', 'item-2', 0, 'k2', 2, 0, NULL, 1);
INSERT INTO failures VALUES ('old', 'item-2', 2);
"""


def _row(item_id: str, repeat: int, correct: float) -> ScoreRow:
    return ScoreRow(item_id, {"accuracy": correct}, {}, [], {}, None, None, "", 0.0, 1, None, None, False, repeat)


SPEC = TaskSpec(engine_version="t", metrics=(Metric("accuracy"),), headline="accuracy")


def test_a_store_written_before_repeats_opens_with_its_rows_as_repeat_0(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    with sqlite3.connect(path) as connection:
        connection.executescript(_OLD_LAYOUT)
    with Store(path) as store:
        (row,) = store.scores("old")
        assert (row.item_id, row.repeat, row.values, row.text) == ("item-1", 0, {"exact_match": 1.0}, "reply one")
        assert store.repeats("old") == [0]
        assert store.failures("old") == [("item-2", "http_500", "boom")]
        assert [t.text for t in store.turns("old")["item-1"]] == ["reply one"]
        # the migrated tables take a second asking of the same item
        store.record_score(
            run="old", item_id="item-1", key="k1", response_id=1, cached=True,
            scores=Scores({"exact_match": 0.0}),
            answer=None, parse_failure=None, metadata={}, repeat=1,
        )  # fmt: skip
        assert store.repeats("old") == [0, 1]
        assert [r.values["exact_match"] for r in store.scores("old", repeat=None)] == [1.0, 0.0]
    with Store(path) as again:  # opening it again changes nothing
        assert len(list(again.scores("old", repeat=None))) == 2


def test_mean_std_and_best_of_n_over_repeats_by_hand() -> None:
    # repeat 0: 1 of 2 right; repeat 1: 2 of 2; repeat 2: 0 of 2
    rows = [_row("a", 0, 1.0), _row("b", 0, 0.0), _row("a", 1, 1.0), _row("b", 1, 1.0)]
    rows += [_row("a", 2, 0.0), _row("b", 2, 0.0)]
    summary = repeat_summary(rows, SPEC)
    assert summary is not None
    assert summary.repeats == 3
    assert summary.mean["accuracy"] == pytest.approx(0.5)
    assert summary.std["accuracy"] == pytest.approx(0.5)  # sqrt(((0)^2 + 0.5^2 + 0.5^2) / 2)
    assert summary.best_repeat == 1 and summary.best.value("accuracy") == 1.0


def test_a_tie_for_best_goes_to_the_earlier_repeat() -> None:
    rows = [_row("a", 0, 0.0), _row("a", 1, 1.0), _row("a", 2, 1.0)]
    summary = repeat_summary(rows, SPEC)
    assert summary is not None and summary.best_repeat == 1


@given(st.lists(st.floats(0, 1), min_size=2, max_size=8))
def test_mean_std_agrees_with_the_statistics_module(values: list[float]) -> None:
    import statistics

    mean, std = mean_std(values)
    assert mean == pytest.approx(statistics.fmean(values))
    assert std == pytest.approx(statistics.stdev(values), abs=1e-9)


def _evaluate(store: Store, dataset: Path, run: str, repeats: int) -> Any:
    items = read_items(dataset)[:6]

    async def go() -> Any:
        return await evaluate(
            store=store, run_name=run, task=TASK, dataset_dir=dataset, items=items, model=RandomModel(seed=1),
            modality="text", repeats=repeats,
        )  # fmt: skip

    return asyncio.run(go())


def test_each_repeat_is_stored_and_raising_n_asks_only_the_new_repeats(
    tmp_path: Path, prediction_dataset: Path
) -> None:
    with Store(tmp_path / "runs.db") as store:
        once = _evaluate(store, prediction_dataset, "once", 1)
        thrice = _evaluate(store, prediction_dataset, "thrice", 3)
        assert (once.scored, thrice.scored, thrice.repeats) == (6, 18, 3)
        # repeat 0 is the run without repeats: the same request keys, answered from the store
        assert thrice.from_store == 6 and thrice.requested == 12
        first = {r.item_id: r.text for r in store.scores("once")}
        assert {r.item_id: r.text for r in store.scores("thrice")} == first
        by_repeat: dict[int, list[str]] = {}
        for row in store.scores("thrice", repeat=None):
            by_repeat.setdefault(row.repeat, []).append(row.text)
        assert sorted(by_repeat) == [0, 1, 2]
        assert by_repeat[1] != by_repeat[0] and by_repeat[2] != by_repeat[1]  # the random baseline draws afresh
        again = _evaluate(store, prediction_dataset, "thrice", 3)
        assert (again.scored, again.requested, again.already_scored) == (0, 0, 18)
        more = _evaluate(store, prediction_dataset, "thrice", 4)
        assert (more.scored, more.requested) == (6, 6)
        assert store.repeats("thrice") == [0, 1, 2, 3]


def test_report_and_compare_give_mean_std_and_best_of_n(tmp_path: Path, prediction_dataset: Path) -> None:
    with Store(tmp_path / "runs.db") as store:
        _evaluate(store, prediction_dataset, "once", 1)
        _evaluate(store, prediction_dataset, "thrice", 3)
        rows = list(store.scores("thrice", repeat=None))
        per_repeat = []
        for repeat in range(3):
            values = [r.values["exact_match"] for r in rows if r.repeat == repeat]
            per_repeat.append(sum(values) / len(values))
        import statistics

        mean, std = statistics.fmean(per_repeat), statistics.stdev(per_repeat)
        header, table = compare_runs(store, ["once", "thrice"])
        cells = {row[0]: row[1:] for row in table}
        assert cells["n"][:2] == ["6", "6 × 3"]
        assert cells["exact_match"][1].startswith(f"{100 * mean:.1f} ± {100 * std:.1f}, best ")
        assert "±" not in cells["exact_match"][0]
        markdown, _ = write_report(store, "thrice", tmp_path / "report", task=TASK)
        text = markdown.read_text(encoding="utf-8")
        assert "## Over 3 repeats" in text
        assert f"| exact_match | {100 * mean:.1f} ± {100 * std:.1f} |" in text
        once, _ = write_report(store, "once", tmp_path / "report-once", task=TASK)
        assert "repeats" not in once.read_text(encoding="utf-8")


def _eval_cli(dataset: Path, db: Path, base_url: str, *extra: str) -> list[str]:
    return [
        sys.executable, "-m", "foldbench", "eval", "--task", "mentalblackboard/prediction", "--data", str(dataset),
        "--model", "openai:fake", "--base-url", base_url, "--run", "killed", "--db", str(db), "--modality", "text",
        "--repeats", "3", "--concurrency", "2", *extra,
    ]  # fmt: skip


def test_a_killed_run_with_repeats_resumes_without_resending_what_was_stored(
    tmp_path: Path,
    prediction_dataset: Path,
    fake_openai_server,  # type: ignore[no-untyped-def]
) -> None:
    index = prompt_index(prediction_dataset)

    def answer(request: dict[str, Any], attempt: int) -> Any:
        # the first asking of a prompt gets the right answer, later ones a reply with no answer in it
        text = TASK.oracle(index[prompt_text(request)]).model_dump_json() if attempt == 1 else "I cannot tell."
        return gate(reply(text))

    gate = ReplyGate(passing=8)  # eight answers, then the run is held with two requests in flight
    server = fake_openai_server(answer)
    db = tmp_path / "runs.db"
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2] / "src")}
    process = subprocess.Popen(
        _eval_cli(prediction_dataset, db, server.base_url), stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env
    )
    kill_once_stored(process, db, "SELECT COUNT(*) FROM scores", 8, gate)
    with sqlite3.connect(db) as connection:
        stored_before = connection.execute("SELECT COUNT(*) FROM responses").fetchone()[0]
    askings = 12 * 3
    assert 8 <= stored_before < askings
    received_before = len(server.requests)
    finished = subprocess.run(
        _eval_cli(prediction_dataset, db, server.base_url), capture_output=True, text=True, timeout=180, env=env
    )
    assert finished.returncode == 0, finished.stderr
    with sqlite3.connect(db) as connection:
        scores = connection.execute("SELECT COUNT(*), COUNT(DISTINCT item_id || '/' || repeat) FROM scores").fetchone()
        responses = connection.execute("SELECT COUNT(*), COUNT(DISTINCT key) FROM responses").fetchone()
        repeats = [r[0] for r in connection.execute("SELECT DISTINCT repeat FROM scores ORDER BY repeat")]
    assert scores == (askings, askings) and repeats == [0, 1, 2]
    assert responses == (askings, askings)  # one stored response per asking: nothing stored twice
    # the resumed run sent only what had no stored response; at most the two requests in flight were lost
    assert len(server.requests) - received_before == askings - stored_before
    assert received_before - stored_before <= 2
    assert "36/36 askings scored (12 items × 3)" in finished.stdout.replace("\n", " ")
