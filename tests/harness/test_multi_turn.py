"""Multi-turn runs: a toy guessing game played against the scripted server, turn by turn, stored and resumable."""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

from foldbench.harness import MultiTurnSolver, OneShotSolver, Store, aggregate, evaluate
from foldbench.harness.report import write_report
from foldbench.models.registry import make_model
from foldbench.tasks.base import Item, Task
from foldbench.testing.fake_openai import prompt_text, reply
from foldbench.testing.toy_task import GuessTask, bisect_reply
from tests.support.gate import ReplyGate, kill_once_stored

TASK = GuessTask()
ITEMS = list(TASK.generate(6, seed=11))
ROOT = Path(__file__).resolve().parents[2]


def _bisections(secret: int) -> int:
    """How many guesses bisection needs for ``secret`` (the same rule as :func:`bisect_reply`)."""
    low, high, guesses = 1, 100, 0
    while True:
        guess = (low + high) // 2 if guesses else 50
        guesses += 1
        if guess == secret:
            return guesses
        low, high = (guess + 1, high) if guess < secret else (low, guess - 1)


def _play(store: Store, base_url: str, run: str = "guess", model: str = "openai:fake", **kw: Any) -> Any:
    adapter = make_model(model, base_url=base_url) if model.startswith("openai:") else make_model(model)

    async def go() -> Any:
        try:
            return await evaluate(
                store=store, run_name=run, task=TASK, dataset_dir=Path("."), items=ITEMS, model=adapter,
                modality="text", concurrency=3, **kw,
            )  # fmt: skip
        finally:
            await adapter.aclose()

    return asyncio.run(go())


def _bisecting(request: dict[str, Any], _attempt: int) -> Any:
    return reply(bisect_reply(prompt_text(request)))


def test_a_conversation_goes_on_until_the_task_says_done(tmp_path: Path, fake_openai_server) -> None:  # type: ignore[no-untyped-def]
    server = fake_openai_server(_bisecting)
    with Store(tmp_path / "runs.db") as store:
        summary = _play(store, server.base_url)
        turns = store.turns("guess")
        rows = list(store.scores("guess"))
    expected = {item.id: _bisections(item.target["secret"]) for item in ITEMS}
    assert max(expected.values()) <= GuessTask.MAX_TURNS
    assert {item_id: len(t) for item_id, t in turns.items()} == expected
    assert summary.requested == len(server.requests) == sum(expected.values())
    assert all(r.values["accuracy"] == 1.0 for r in rows) and len(rows) == len(ITEMS)
    for item in ITEMS:
        conversation = turns[item.id]
        assert [t.turn for t in conversation] == list(range(len(conversation)))
        assert conversation[-1].feedback == "right" and conversation[-1].done
        assert all(t.feedback in ("higher", "lower") and not t.done for t in conversation[:-1])
    # the server saw the whole conversation each time: user and assistant turns alternate
    longest = max(server.requests, key=lambda r: len(r.json["messages"]))  # type: ignore[index]
    roles = [m["role"] for m in longest.json["messages"]]  # type: ignore[index]
    assert roles == ["user", *["assistant", "user"] * ((len(roles) - 1) // 2)]


def test_the_turn_budget_stops_a_conversation_and_the_report_shows_it(tmp_path: Path, fake_openai_server) -> None:  # type: ignore[no-untyped-def]
    server = fake_openai_server(_bisecting)

    def three_turns(task: Task, item: Item) -> MultiTurnSolver:
        return MultiTurnSolver(lambda text, turn: TASK.step(item, text, turn), max_turns=3)

    with Store(tmp_path / "runs.db") as store:
        _play(store, server.base_url, solver_for=three_turns)
        turns = store.turns("guess")
        summary = aggregate(store.scores("guess"), TASK.spec)
        markdown, html = write_report(store, "guess", tmp_path / "report", task=TASK, items=ITEMS)
    solved = {item.id for item in ITEMS if _bisections(item.target["secret"]) <= 3}
    assert summary.value("accuracy") == len(solved) / len(ITEMS)
    played = {item.id: _bisections(item.target["secret"]) if item.id in solved else 3 for item in ITEMS}
    assert {item_id: len(t) for item_id, t in turns.items()} == played
    text = markdown.read_text()
    unsolved = next(item for item in ITEMS if item.id not in solved)
    section = text.split(f"### {unsolved.id}")[1].split("### ")[0]
    assert "Turn 1" in section and "Turn 3" in section and "Turn 4" not in section
    assert '{"guess": 50}' in section and ("Feedback: higher" in section or "Feedback: lower" in section)
    assert "feedback: " in html.read_text()


def test_baselines_play_through_the_harness(tmp_path: Path) -> None:
    with Store(tmp_path / "runs.db") as store:
        _play(store, "", run="oracle", model="oracle")
        _play(store, "", run="random", model="random")
        oracle_turns, random_turns = store.turns("oracle"), store.turns("random")
        assert aggregate(store.scores("oracle"), TASK.spec).value("accuracy") == 1.0
    assert all(len(t) == 1 for t in oracle_turns.values())
    # the random baseline draws a fresh guess each turn (its generator is seeded by item and turn)
    guesses = [t.text for conversation in random_turns.values() for t in conversation]
    assert max(len(c) for c in random_turns.values()) == GuessTask.MAX_TURNS
    assert len(set(guesses)) > len(guesses) // 2


_PLAYER = """
import asyncio, sys
sys.path.insert(0, {root!r})
from pathlib import Path
from foldbench.harness import Store, evaluate
from foldbench.models.registry import make_model
from foldbench.testing.toy_task import GuessTask

task = GuessTask()
model = make_model("openai:fake", base_url={base_url!r})
async def go():
    try:
        return await evaluate(store=store, run_name="killed", task=task, dataset_dir=Path("."),
                              items=list(task.generate(6, seed=11)), model=model, modality="text", concurrency=3)
    finally:
        await model.aclose()
with Store(Path({db!r})) as store:
    print(asyncio.run(go()))
"""


def test_a_killed_conversation_resumes_without_resending_answered_turns(tmp_path: Path, fake_openai_server) -> None:  # type: ignore[no-untyped-def]
    gate = ReplyGate(passing=7)  # seven turns answered, then the run is held with three requests in flight
    server = fake_openai_server(lambda request, attempt: gate(_bisecting(request, attempt)))
    db = tmp_path / "runs.db"
    script = _PLAYER.format(root=str(ROOT), base_url=server.base_url, db=str(db))
    process = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    kill_once_stored(process, db, "SELECT COUNT(*) FROM turns", 7, gate)
    with sqlite3.connect(db) as connection:
        turns_before = connection.execute("SELECT COUNT(*) FROM turns").fetchone()[0]
        scored_before = connection.execute("SELECT COUNT(*) FROM scores").fetchone()[0]
    total = sum(_bisections(item.target["secret"]) for item in ITEMS)
    assert 7 <= turns_before < total and scored_before < len(ITEMS)  # killed in the middle of conversations
    received_before = len(server.requests)

    finished = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert finished.returncode == 0, finished.stderr
    with sqlite3.connect(db) as connection:
        turns = connection.execute("SELECT COUNT(*) FROM turns").fetchone()[0]
        responses = connection.execute("SELECT COUNT(*), COUNT(DISTINCT key) FROM responses").fetchone()
        accuracy = connection.execute("SELECT score_values FROM scores").fetchall()
    assert turns == total and responses == (total, total)  # every turn stored once
    assert len(accuracy) == len(ITEMS) and all('"accuracy":1.0' in row[0] for row in accuracy)
    # the restart asked only the turns without a stored reply; at most those in flight were asked twice
    assert len(server.requests) - received_before == total - turns_before
    assert received_before - turns_before <= 3


class _ShortReplies:
    """A solver that asks once with its own generation parameters."""

    async def solve(self, prompt: Any, generate: Any) -> Any:
        return (await generate(prompt.conversation(), params={"max_tokens": 5})).reply


def test_a_solver_can_ask_with_its_own_generation_parameters(tmp_path: Path, fake_openai_server) -> None:  # type: ignore[no-untyped-def]
    server = fake_openai_server(_bisecting)
    with Store(tmp_path / "runs.db") as store:
        _play(store, server.base_url, run="short", solver_for=lambda task, item: _ShortReplies())
        _play(store, server.base_url, run="plain", solver_for=lambda task, item: OneShotSolver())
    short = [r for r in server.requests if r.json is not None and r.json.get("max_tokens") == 5]
    assert len(short) == len(ITEMS)
    # the same opening asked without the parameter is another request: it was sent, not taken from the store
    assert len(server.requests) == 2 * len(ITEMS)
