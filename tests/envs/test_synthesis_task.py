"""The synthesis task through the harness: oracle GS = 1, random baseline, resumed conversations, knobs,
parse failures and the report gallery (determinism: tests/tasks/test_conformance.py)."""

from __future__ import annotations

import asyncio
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

import foldbench.tasks  # noqa: F401  (registers the tasks, the synthesis task among them)
from foldbench.errors import InvalidKnobError
from foldbench.harness import Store, aggregate, evaluate
from foldbench.models import OracleModel, RandomModel
from foldbench.tasks import make
from foldbench.tasks.base import ImagePart, ParseFailure
from foldbench.tasks.dataset import read_items
from foldbench.tasks.origamibench.synthesis import SynthesisAnswer, SynthesisTask
from tests.support.datasets import every_task_recipe, shared_datasets

TASK_ID = SynthesisTask.id
N = 3


@pytest.fixture(scope="module")
def dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The suite's shared three-item synthesis dataset (``every_task_recipe``, written once per run; that the
    same seed writes the same bytes is tests/tasks/test_conformance.py's check); read-only."""
    return shared_datasets(tmp_path_factory, {0: every_task_recipe(TASK_ID)})[0]


def _run(task: SynthesisTask, data: Path, store_path: Path, model, run: str = "run") -> Any:
    with Store(store_path) as store:
        asyncio.run(evaluate(store=store, run_name=run, task=task, dataset_dir=data, items=read_items(data),
                             model=model, modality="image"))
        return aggregate(store.scores(run), task.spec), store.turns(run)


@pytest.fixture(scope="module")
def random_run(dataset: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Any, Any]:
    """The random baseline's run (seed 1) on the dataset: its store, summary and turns; the store is only read."""
    store_path = tmp_path_factory.mktemp("synthesis-random") / "runs.db"
    summary, turns = _run(make(TASK_ID), dataset, store_path, RandomModel(seed=1))
    return store_path, summary, turns


def test_the_oracle_replays_the_targets_to_gs_one(dataset: Path, tmp_path: Path) -> None:
    summary, turns = _run(make(TASK_ID), dataset, tmp_path / "runs.db", OracleModel())
    assert summary.n == N and summary.value("gs") == 1.0 and summary.value("qe") == 1.0
    assert summary.value("gs_raster") == 1.0 and summary.value("ss_shape") > 0.98
    items = read_items(dataset)
    for item in items:  # one turn per fold step, the last one ends the conversation
        assert len(turns[item.id]) == item.metadata["folds"]


def test_the_random_baseline_is_below_the_oracle_and_its_steps_are_kept(random_run: tuple[Path, Any, Any]) -> None:
    _, summary, turns = random_run
    assert summary.n == N and summary.value("gs") < 1.0
    assert summary.value("qe") > 0.5  # random creases are drawn among those the sheet accepts
    assert all(len(t) <= 10 for t in turns.values())


def test_a_resumed_run_replays_stored_turns_to_the_same_scores(dataset: Path, random_run: tuple[Path, Any, Any],
                                                               tmp_path: Path) -> None:  # fmt: skip
    stored, first, _ = random_run
    shutil.copyfile(stored, tmp_path / "a.db")  # the random baseline's run, asked again under another name
    with Store(tmp_path / "a.db") as store:
        rows = list(store.scores("run"))
    again, _ = _run(make(TASK_ID), dataset, tmp_path / "a.db", RandomModel(seed=1), run="again")
    with Store(tmp_path / "a.db") as store:
        replayed = list(store.scores("again"))
    assert {r.item_id: r.values for r in replayed} == {r.item_id: r.values for r in rows}
    assert all(r.cached for r in replayed)
    assert again.value("gs") == first.value("gs")


def test_detailed_feedback_carries_pictures_and_state() -> None:
    task = make(TASK_ID)
    item = next(task.generate(1, 3, knobs={"prompt": "foldbench", "feedback": "detailed"}))
    feedback = task.step(item, json.dumps(item.target["actions"][0]), 0)
    pictures = [p for p in feedback.parts if isinstance(p, ImagePart)]
    assert len(pictures) == 4 and all(p.data and p.data.startswith(b"\x89PNG") for p in pictures)
    assert "kept" in feedback.text and json.loads(feedback.text.split("State:\n", 1)[1])["step"] == 1
    refused = task.step(item, '{"action": "add_crease", "p1": [0, 0], "p2": [0, 10], "assignment": "V"}', 1)
    assert "E_ACTION_OVERLAPS_CREASE" in refused.text and not refused.done


def test_parse_is_strict_and_parse_failures_score_zero(dataset: Path) -> None:
    task = make(TASK_ID)
    item = read_items(dataset)[0]
    for reply in ("", "I would fold it in half.", "{", '{"action": "add_crease", "p1": [0, 0]}',
                  '{"action": "add_crease", "p1": [0, 0], "p2": [NaN, 1], "assignment": "V"}'):
        answer = task.parse(item, reply)
        assert isinstance(answer, ParseFailure)
        assert task.score(item, answer).values["gs"] == 0.0
    answer = task.parse(item, '```json\n{"action": "add_crease", "p1": [5, 0], "p2": [5, 10], "assignment": "V"}\n```')
    assert isinstance(answer, SynthesisAnswer) and answer.action["p2"] == [5.0, 10.0]


def test_knobs_are_checked_and_budget_25_is_recorded() -> None:
    task = make(TASK_ID)
    with pytest.raises(InvalidKnobError, match="budgt"):
        next(task.generate(1, 0, knobs={"budgt": 25}))
    with pytest.raises(InvalidKnobError):
        next(task.generate(1, 0, knobs={"budget": 12}))
    with pytest.raises(InvalidKnobError, match="min_folds"):
        next(task.generate(1, 0, knobs={"min_folds": 4, "max_folds": 2}))
    item = next(task.generate(1, 0, knobs={"budget": 25, "grid": 0, "min_folds": 2, "max_folds": 2}))
    assert item.inputs["budget"] == 25 and item.metadata["folds"] == 2 and item.metadata["category"].startswith("free")


def test_the_gallery_draws_the_episode_strip_and_gs_plot(dataset: Path) -> None:
    task = make(TASK_ID)
    item = read_items(dataset)[0]
    for turn, action in enumerate(item.target["actions"]):
        task.step(item, json.dumps(action), turn)
    answer = task.parse(item, json.dumps(item.target["actions"][-1]))
    assert isinstance(answer, SynthesisAnswer) and len(answer.episode) == len(item.target["actions"])
    images = task.gallery(item, json.loads(answer.model_dump_json()))
    assert [caption for caption, _ in images][1] == "GS per step"
    assert all(png.startswith(b"\x89PNG") for _, png in images)
    assert task.score(item, answer).values["gs"] == 1.0


def _play_oracle(task: SynthesisTask, item) -> float:
    for turn in range(int(item.inputs["budget"])):
        answer = task.oracle(item)
        feedback = task.step(item, json.dumps(answer.model_dump(mode="json")), turn)
        if feedback.done:
            break
    return task.score(item, task.parse(item, json.dumps(answer.model_dump(mode="json")))).values["gs"]


def test_builtin_source_names_the_sequences_and_the_oracle_solves_them() -> None:
    from foldbench.crease.sequences import builtin_sequences

    task = SynthesisTask()
    items = list(task.generate(len(builtin_sequences()) + 1, seed=0, knobs={"source": "builtin"}))
    sequences = builtin_sequences()
    assert [i.target["name"] for i in items[:-1]] == [s.name for s in sequences]
    assert items[-1].target["name"] == sequences[0].name
    assert {i.metadata["category"] for i in items} == {s.category for s in sequences}
    for item in (items[0], items[-2]):
        assert _play_oracle(task, item) == 1.0


def test_folder_source_reads_square_patterns_and_refuses_the_oracle(tmp_path: Path) -> None:
    (tmp_path / "diagonal.cp").write_text("1 -200 -200 200 -200\n1 200 -200 200 200\n1 200 200 -200 200\n"
                                          "1 -200 200 -200 -200\n3 -200 -200 200 200\n")
    (tmp_path / "notes.txt").write_text("not a pattern")
    task = SynthesisTask()
    items = list(task.generate(2, seed=0, knobs={"source": str(tmp_path)}))
    assert [i.target["name"] for i in items] == ["diagonal", "diagonal"] and items[0].target["actions"] is None
    assert items[0].metadata["category"] == "uncategorised" and items[0].metadata["folds"] == 0
    with pytest.raises(InvalidKnobError, match="no oracle"):
        task.oracle(items[0])
    with pytest.raises(InvalidKnobError, match="not random, builtin or a folder"):
        list(task.generate(1, seed=0, knobs={"source": str(tmp_path / "missing")}))
