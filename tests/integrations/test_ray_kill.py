"""``foldbench eval --executor ray`` killed with SIGKILL half-way, then run again: nothing answered is lost and no
answered item is requested twice (requests counted per item by the scripted server).

The killed run is a process of its own that joins the Ray instance the package's Ray tests share at its address, as
a user's run joins a cluster (``--ray-address``); Ray ends the workers of a driver that died. The same command run
again resumes in this process, in the same Ray instance: the resumption is the driver's work on the run store."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from foldbench.harness import Store
from foldbench.harness.config import EvalConfig, RunOptions
from foldbench.harness.evaluation import run_dataset
from foldbench.integrations.ray_eval import limiter_name
from foldbench.tasks import make
from foldbench.tasks.dataset import read_items, write_dataset
from foldbench.testing.fake_openai import disconnect, prompt_text, reply
from tests.export.conftest import run_cli

TASK = "mentalblackboard/prediction-v1"
ANSWERED = 3
"""Requests the server answers before it holds every further one until the run is killed."""
CONCURRENCY = 2
ITEMS = 8
"""Enough for the kill to find items of every kind: answered and stored (3), on the wire (2, one per slot of the
endpoint), never asked (3). The server decides where the run stands when it is killed, so more items would only
repeat these three cases."""
WAIT_S = 120.0

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


def _wait_until_the_slots_are_free(limiter: Any, deadline: float) -> None:
    """Return once the endpoint's limiter has every slot free again: Ray ends the actors of a driver that died,
    and a resize frees the slots held by workers that no longer answer (as a resumed run's first resize does)."""
    import ray

    while ray.get(limiter.resize.remote(CONCURRENCY)) < CONCURRENCY:
        assert time.monotonic() < deadline, "the killed run's worker was never ended"
        time.sleep(0.05)


def test_a_ray_eval_killed_with_sigkill_resumes_without_loss_or_repeats(
    local_ray: None, tmp_path: Path, fake_openai_server: Any
) -> None:
    import ray

    task = make(TASK)
    data, db = tmp_path / "data", tmp_path / "runs.db"
    write_dataset(TASK, data, n=ITEMS, seed=4, modalities=("text",))
    item_of_prompt, answer_of_prompt = {}, {}
    for index, item in enumerate(read_items(data)):  # every other item answered right, the rest garbled
        text = "\n".join(p.text for p in task.render(item, "text").parts if hasattr(p, "text"))
        item_of_prompt[text] = item.id
        answer_of_prompt[text] = task.oracle(item).model_dump_json() if index % 2 == 0 else "no idea"

    lock = threading.Lock()
    answered: list[str] = []
    held: list[str] = []
    slots_held, killed = threading.Event(), threading.Event()

    def answer(request: dict[str, Any], _attempt: int) -> Any:  # runs in the server's request threads
        prompt = prompt_text(request)
        if killed.is_set():  # the resumed run and the local one
            return reply(answer_of_prompt[prompt])
        with lock:
            if len(answered) < ANSWERED:
                answered.append(prompt)
                return reply(answer_of_prompt[prompt])
            held.append(prompt)
            if len(held) == CONCURRENCY:
                slots_held.set()
        # kept on the wire until the run is dead: the endpoint's slots are all taken, so nothing else is sent
        killed.wait(WAIT_S)
        return disconnect()

    server = fake_openai_server(answer)
    args = ["eval", "--task", TASK, "--data", str(data), "--model", "openai:fake", "--base-url", server.base_url,
            "--run", "killed", "--db", str(db), "--executor", "ray", "--workers", "1", "--concurrency",
            str(CONCURRENCY)]  # fmt: skip
    # one Ray worker serves both slots of the endpoint: what is lost or kept is the driver's run store
    address = ray.get_runtime_context().gcs_address
    first = subprocess.Popen([sys.executable, "-m", "foldbench", *args, "--ray-address", address],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    deadline = time.monotonic() + WAIT_S
    try:  # killed once the server holds both slots and the driver has stored the answered items' scores
        while not (slots_held.is_set() and len(_committed(db)[1]) == ANSWERED):
            assert first.poll() is None, "the run ended before it was killed"
            assert time.monotonic() < deadline, "the run never reached the point where it is killed"
            slots_held.wait(0.05)
    finally:
        first.kill()  # SIGKILL
        first.wait()
    try:
        limiter = ray.get_actor(limiter_name("openai:fake", server.base_url), namespace="foldbench")
        _wait_until_the_slots_are_free(limiter, deadline)
    finally:  # the held requests are let go only now, when no worker of the killed run is left to send them again
        killed.set()
    assert first.returncode == -signal.SIGKILL
    answered_keys, scored_items = _committed(db)
    # with both slots held no other request can be on its way: the server has seen all the killed run sent
    requested_before = len(server.requests)
    assert requested_before == ANSWERED + CONCURRENCY
    assert scored_items == {item_of_prompt[prompt] for prompt in answered}  # killed half-way

    assert run_cli(*args) == 0  # joins the running Ray instead of starting one

    with Store(db) as store:
        final = {row.item_id: row.values for row in store.scores("killed")}
    with sqlite3.connect(db) as connection:
        key_of_item = dict(connection.execute("SELECT item_id, request_key FROM scores WHERE run = 'killed'"))
    assert len(final) == ITEMS  # every item scored once the run is resumed
    requests_per_item = Counter(item_of_prompt[prompt_text(r.json)] for r in server.requests if r.json is not None)
    answered_items = {item for item, key in key_of_item.items() if key in answered_keys}
    assert answered_items == scored_items
    # nothing answered before the kill was requested again; the two replies lost with the run were asked again
    # once, every other item once
    assert requests_per_item == {item: 1 + (prompt in held) for prompt, item in item_of_prompt.items()}
    assert len(server.requests) - requested_before == ITEMS - ANSWERED
    # and the resumed run scored exactly like an uninterrupted local one
    options = RunOptions(base_url=server.base_url, concurrency=4)
    run_dataset(EvalConfig(task=TASK, data=data, model="openai:fake", run_name="local", db=tmp_path / "local.db",
                           options=options))  # fmt: skip
    with Store(tmp_path / "local.db") as store:
        assert final == {row.item_id: row.values for row in store.scores("local")}
