"""``foldbench eval --executor ray`` killed with SIGKILL half-way, then run again: nothing answered is lost and no
answered item is requested twice (requests counted per item by the scripted server).

The killed run is a process of its own that starts its own local Ray, as a user's would; the same command run
again resumes in this process, in the Ray instance the package's Ray tests share (the resumption is the driver's
work on the run store, whichever Ray it uses)."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from foldbench.harness import Store
from foldbench.harness.config import EvalConfig, RunOptions
from foldbench.harness.evaluation import run_dataset
from foldbench.tasks import make
from foldbench.tasks.dataset import read_items, write_dataset
from foldbench.testing.fake_openai import prompt_text, reply
from tests.export.conftest import run_cli

TASK = "mentalblackboard/prediction-v1"
ITEMS = 16
CONCURRENCY = 2

# one local Ray instance at a time: under xdist these modules run on the same worker, one after the other
pytestmark = [pytest.mark.ray, pytest.mark.xdist_group("ray")]


def _committed(db: Path) -> tuple[set[str], set[str]]:
    """The request keys with a stored reply and the items with a stored score, read without writing."""
    if not db.exists():
        return set(), set()
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5) as connection:
            keys = {row[0] for row in connection.execute("SELECT key FROM responses WHERE error IS NULL")}
            items = {row[0] for row in connection.execute("SELECT item_id FROM scores WHERE run = 'killed'")}
    except sqlite3.OperationalError:  # the tables are not created yet
        return set(), set()
    return keys, items


def test_a_ray_eval_killed_with_sigkill_resumes_without_loss_or_repeats(
    local_ray: None, tmp_path: Path, fake_openai_server: Any
) -> None:
    task = make(TASK)
    data, db = tmp_path / "data", tmp_path / "runs.db"
    write_dataset(TASK, data, n=ITEMS, seed=4, modalities=("text",))
    item_of_prompt, answer_of_prompt = {}, {}
    for index, item in enumerate(read_items(data)):  # every other item answered right, the rest garbled
        text = "\n".join(p.text for p in task.render(item, "text").parts if hasattr(p, "text"))
        item_of_prompt[text] = item.id
        answer_of_prompt[text] = task.oracle(item).model_dump_json() if index % 2 == 0 else "no idea"

    def answer(request: dict[str, Any], _attempt: int) -> Any:
        time.sleep(0.4)  # slow enough to kill the run with some items answered and others not
        return reply(answer_of_prompt[prompt_text(request)])

    server = fake_openai_server(answer)
    args = ["eval", "--task", TASK, "--data", str(data), "--model", "openai:fake", "--base-url", server.base_url,
            "--run", "killed", "--db", str(db), "--executor", "ray", "--workers", "2", "--concurrency",
            str(CONCURRENCY)]  # fmt: skip
    first = subprocess.Popen([sys.executable, "-m", "foldbench", *args], stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, start_new_session=True)  # fmt: skip
    try:  # waits on the store itself; the per-test timeout bounds a run that never commits
        while len(_committed(db)[1]) < 4:
            assert first.poll() is None, "the run ended before it was killed"
            time.sleep(0.05)
    finally:  # the driver and every Ray process it started (they share its session)
        os.killpg(first.pid, signal.SIGKILL)
        first.wait()
    assert first.returncode == -signal.SIGKILL
    time.sleep(0.5)  # a request already on the wire reaches the server's log
    answered_keys, scored_items = _committed(db)
    requested_before = len(server.requests)
    assert 4 <= len(scored_items) < ITEMS  # killed half-way

    assert run_cli(*args) == 0  # joins the running Ray instead of starting one

    with Store(db) as store:
        final = {row.item_id: row.values for row in store.scores("killed")}
    with sqlite3.connect(db) as connection:
        key_of_item = dict(connection.execute("SELECT item_id, request_key FROM scores WHERE run = 'killed'"))
    assert len(final) == ITEMS  # every item scored once the run is resumed
    requests_per_item = Counter(item_of_prompt[prompt_text(r.json)] for r in server.requests if r.json is not None)
    answered_items = {item for item, key in key_of_item.items() if key in answered_keys}
    assert scored_items <= answered_items
    # nothing answered before the kill was requested again; each other item was requested again at most once
    # (a reply on its way when the run was killed is lost with it)
    assert {item: requests_per_item[item] for item in answered_items} == dict.fromkeys(answered_items, 1)
    assert set(requests_per_item) == set(final) and max(requests_per_item.values()) <= 2
    assert len(server.requests) - requested_before == ITEMS - len(answered_items)
    assert sum(count - 1 for count in requests_per_item.values()) <= CONCURRENCY
    # and the resumed run scored exactly like an uninterrupted local one
    options = RunOptions(base_url=server.base_url, concurrency=4)
    run_dataset(EvalConfig(task=TASK, data=data, model="openai:fake", run_name="local", db=tmp_path / "local.db",
                           options=options))  # fmt: skip
    with Store(tmp_path / "local.db") as store:
        assert final == {row.item_id: row.values for row in store.scores("local")}
