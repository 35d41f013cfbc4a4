"""Run a choice task's oracle and random baselines through the harness (dataset, store, evaluation, metrics)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from foldbench.harness import Store, aggregate, evaluate
from foldbench.models import OracleModel, RandomModel
from foldbench.tasks.dataset import read_items


def oracle_and_random_accuracy(task: Any, data: Path, tmp_path: Path) -> dict[str, float]:
    """Accuracy of the oracle and of a seeded random letter on the image items of the dataset ``data`` (only
    read; a shared dataset of ``tests/support/datasets.py``), the runs stored under ``tmp_path``."""
    items = read_items(data)
    results = {}
    with Store(tmp_path / "runs.db") as store:
        for name, model in (("oracle", OracleModel()), ("random", RandomModel(3))):
            asyncio.run(evaluate(store=store, run_name=name, task=task, dataset_dir=data, items=items, model=model,
                                 modality="image"))
            results[name] = aggregate(store.scores(name), task.spec).value("accuracy")
    return results
