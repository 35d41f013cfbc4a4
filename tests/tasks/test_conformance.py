"""Every registered task keeps the protocol: its spec declares every metric its scores carry, the oracle scores
100 % on the headline metric through the whole harness, the same seed writes the same bytes, and a reply that
cannot be parsed scores as a failure."""

from __future__ import annotations

import asyncio
import functools
import hashlib
from pathlib import Path

import pytest

from foldbench.harness import Store, aggregate, evaluate
from foldbench.models import OracleModel
from foldbench.tasks import make, task_ids
from foldbench.tasks.base import Item, ParseFailure, Task
from foldbench.tasks.dataset import read_items
from foldbench.testing.toy_task import AdditionTask, GuessTask
from tests.support.datasets import Recipe, every_task_recipe, shared_datasets

N = 3
SEED = 7


def _toys() -> list[Task]:
    return [AdditionTask(), GuessTask()]


ALL_TASKS = [*task_ids(), *(toy.id for toy in _toys())]


def _task(task_id: str) -> Task:
    toys = {toy.id: toy for toy in _toys()}
    return toys[task_id] if task_id in toys else make(task_id)


def _generate(task: Task) -> list[Item]:
    return list(task.generate(N, SEED, modalities=task.modalities[:1], knobs={}))


@functools.cache
def _generated(task_id: str) -> tuple[Item, ...]:
    return tuple(_generate(_task(task_id)))


def _items(task: Task, shared: dict[str, Path]) -> list[Item]:
    """A registered task's items from the suite's shared three-item dataset of it (``every_task_dataset``, written
    once per run), a toy's generated once for the module; the tests only read them."""
    return read_items(shared[task.id]) if task.id in shared else list(_generated(task.id))


def _digests(folder: Path) -> dict[str, str]:
    return {
        str(path.relative_to(folder)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def _same_seed_recipe(task_id: str) -> Recipe:
    """The dataset the same-seed test writes a second time: the suite's shared three-item one of the task
    (``every_task_dataset``, written once per run for the other tests) when it is in the task's first modality
    alone, else three items of seed 7 in that modality (the MentalBlackboard tasks' shared ones add pictures)."""
    task = make(task_id)
    shared = every_task_recipe(task_id)
    return shared if shared.modalities == task.modalities[:1] else Recipe(task.id, N, SEED, task.modalities[:1])


@pytest.fixture(scope="module")
def datasets(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One small dataset per registered task, in its first modality (see :func:`_same_seed_recipe`)."""
    return shared_datasets(tmp_path_factory, {task_id: _same_seed_recipe(task_id) for task_id in task_ids()})


@pytest.mark.parametrize("task_id", ALL_TASKS)
def test_the_spec_declares_every_metric_the_scores_carry(task_id: str, every_task_dataset: dict[str, Path]) -> None:
    task = _task(task_id)
    spec = task.spec
    declared = {m.name for m in spec.metrics}
    items = _items(task, every_task_dataset)
    for item in items:
        assert item.engine_version == spec.engine_version
        for answer in (task.oracle(item), task.parse(item, "no answer")):
            scores = task.score(item, answer)
            assert set(scores.values) <= declared, set(scores.values) - declared
            for metric in spec.metrics:
                if metric.kind == "pooled":
                    assert {metric.numerator, metric.denominator} <= set(scores.counts), metric
    assert set(spec.breakdowns) <= {key for item in items for key in item.metadata}


@pytest.mark.parametrize("task_id", ALL_TASKS)
def test_a_parse_failure_scores_as_a_failure(task_id: str, every_task_dataset: dict[str, Path]) -> None:
    task = _task(task_id)
    for item in _items(task, every_task_dataset):
        for reply in ("", "I cannot tell.", "{", '{"unexpected": true}'):
            answer = task.parse(item, reply)
            assert isinstance(answer, ParseFailure), (reply, answer)
            assert task.score(item, answer).values[task.spec.headline] == 0.0


@pytest.mark.parametrize("task_id", task_ids())
def test_the_oracle_scores_100_percent_through_the_harness(task_id: str, every_task_dataset: dict[str, Path],
                                                           tmp_path: Path) -> None:  # fmt: skip
    task, data = make(task_id), every_task_dataset[task_id]
    items = read_items(data)
    with Store(tmp_path / "runs.db") as store:
        asyncio.run(
            evaluate(
                store=store, run_name="oracle", task=task, dataset_dir=data, items=items, model=OracleModel(),
                modality=task.modalities[0],
            )
        )  # fmt: skip
        summary = aggregate(store.scores("oracle"), task.spec)
    assert summary.n == N and summary.value(task.spec.headline) == 1.0


@pytest.mark.parametrize("task", _toys(), ids=lambda t: t.id)
def test_the_oracle_scores_100_percent_on_the_toy_tasks(task: Task, tmp_path: Path) -> None:
    with Store(tmp_path / "runs.db") as store:
        asyncio.run(
            evaluate(
                store=store, run_name="oracle", task=task, dataset_dir=tmp_path, items=_items(task, {}),
                model=OracleModel(), modality="text",
            )
        )  # fmt: skip
        assert aggregate(store.scores("oracle"), task.spec).value(task.spec.headline) == 1.0


@pytest.mark.parametrize("task_id", task_ids())
def test_the_same_seed_writes_the_same_bytes(task_id: str, datasets: dict[str, Path], tmp_path: Path) -> None:
    recipe = _same_seed_recipe(task_id)
    again = tmp_path / "again"
    recipe.write(again)
    first, second = _digests(datasets[task_id]), _digests(again)
    assert first == second and "items.jsonl" in first and len(first) > 1
    # another seed gives other items (their records; drawing their pictures would show nothing more)
    other = list(make(task_id).generate(N, recipe.seed + 1, modalities=recipe.modalities))
    assert [item.id for item in other] == [item.id for item in read_items(datasets[task_id])]
    assert other != read_items(datasets[task_id])


@pytest.mark.parametrize("task", _toys(), ids=lambda t: t.id)
def test_the_toy_tasks_are_deterministic(task: Task) -> None:
    assert _generate(task) == _generate(task)
