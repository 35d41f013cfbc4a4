"""Run a choice task's oracle and random baselines through the harness (dataset, store, evaluation, metrics)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from foldbench.harness import Store, aggregate, evaluate
from foldbench.models import OracleModel, RandomModel
from foldbench.tasks.dataset import read_items, write_dataset


def oracle_and_random_accuracy(task_id: str, task: Any, tmp_path: Path, *, n: int,
                               knobs: dict[str, Any]) -> dict[str, float]:
    """Accuracy of the oracle and of a seeded random letter on ``n`` image items (seed 5) of ``task_id``."""
    data = tmp_path / "data"
    write_dataset(task_id, data, n=n, seed=5, modalities=("image",), knobs=knobs)
    items = read_items(data)
    results = {}
    with Store(tmp_path / "runs.db") as store:
        for name, model in (("oracle", OracleModel()), ("random", RandomModel(3))):
            asyncio.run(evaluate(store=store, run_name=name, task=task, dataset_dir=data, items=items, model=model,
                                 modality="image"))
            results[name] = aggregate(store.scores(name), task.spec).value("accuracy")
    return results
