"""Reports and comparisons are built from what the task declares, every metric with its interval."""

from __future__ import annotations

import asyncio
from pathlib import Path

from foldbench.harness import Store, evaluate
from foldbench.harness.report import compare_runs, runs_overview, write_report
from foldbench.harness.stats import wilson
from foldbench.models import OracleModel, RandomModel
from foldbench.tasks import make
from foldbench.tasks.dataset import read_items

TASK = make("mentalblackboard/prediction")


def _runs(store: Store, dataset: Path) -> None:
    items = read_items(dataset)
    for name, model in (("oracle", OracleModel()), ("random", RandomModel()), ("half", OracleModel())):
        chosen = items[: len(items) // 2] if name == "half" else items
        asyncio.run(
            evaluate(store=store, run_name=name, task=TASK, dataset_dir=dataset, items=chosen, model=model,
                     modality="text")
        )  # fmt: skip


def test_the_report_follows_the_spec(tmp_path: Path, prediction_dataset: Path) -> None:
    with Store(tmp_path / "runs.db") as store:
        _runs(store, prediction_dataset)
        markdown, _ = write_report(store, "random", tmp_path / "r", task=TASK, items=read_items(prediction_dataset))
    text = markdown.read_text()
    low, high = wilson(0, 12)
    assert f"| exact_match | 0.0 | {100 * low:.1f}–{100 * high:.1f} |" in text
    assert "## Per field" in text and "| shape |" in text  # the metrics declared in the "field" group
    assert "## By num_folds" in text and "## By group" in text
    assert "## Accuracy by number of folds" in text  # the plot MentalBlackboard declares
    assert (tmp_path / "r" / "images" / "accuracy_by_folds.png").stat().st_size > 1000
    assert "The headline metric is exact_match." in text


def test_compare_gives_the_paired_difference_over_common_items(tmp_path: Path, prediction_dataset: Path) -> None:
    with Store(tmp_path / "runs.db") as store:
        _runs(store, prediction_dataset)
        header, rows = compare_runs(store, ["random", "oracle", "half"])
        _, overview = runs_overview(store, ["oracle", "half"])
    assert header == ["metric", "random", "oracle", "half", "oracle − random (paired)", "half − random (paired)"]
    table = {row[0]: row[1:] for row in rows}
    assert table["n"] == ["12", "12", "6", "12", "6"]
    assert table["exact_match"][3] == "+100.0 (+100 to +100)"
    low, high = wilson(6, 6)
    assert table["exact_match"][2] == f"100.0 ({100 * low:.0f}–{100 * high:.0f})"
    assert [row[4:] for row in overview] == [["exact_match", "100.0 (76–100)"], ["exact_match", "100.0 (61–100)"]]
