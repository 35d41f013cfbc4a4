"""Per-round plots in reports: a multi-turn task declares them, the report draws each score's mean per round
with its interval and tabulates it (here with ``origamispace/codegen-feedback-v1`` and the random baseline)."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest

from foldbench.harness import Store, evaluate
from foldbench.harness.report import write_report
from foldbench.models import RandomModel
from foldbench.tasks import make
from foldbench.tasks.dataset import read_items, write_dataset
from foldbench.tasks.spec import Metric, RoundPlot, TaskSpec

TASK_ID = "origamispace/codegen-feedback-v1"


def test_a_round_plot_needs_a_multi_turn_task() -> None:
    plot = RoundPlot("per round", ("score",), lambda text: None, "rounds.png")
    with pytest.raises(ValueError, match="multi-turn"):
        TaskSpec("x-1", (Metric("accuracy"),), "accuracy", round_plots=(plot,))
    assert TaskSpec("x-1", (Metric("accuracy"),), "accuracy", round_plots=(plot,), max_turns=3).round_plots


def _rows(markdown: str) -> dict[int, list[str]]:
    """The per-round table: round -> cells after the round number."""
    table = markdown.split("Per feedback round", 1)[1]
    rows = {}
    for line in table.splitlines():
        match = re.match(r"\| (\d+) \| (.*) \|$", line)
        if match:
            rows[int(match.group(1))] = [cell.strip() for cell in match.group(2).split("|")]
    return rows


def test_the_report_of_a_feedback_run_plots_the_scores_per_round(tmp_path: Path) -> None:
    task = make(TASK_ID)
    data = tmp_path / "data"
    write_dataset(TASK_ID, data, n=3, seed=2, modalities=("image",), knobs={"folds": "2,3"})
    items = read_items(data)
    with Store(tmp_path / "runs.db") as store:
        asyncio.run(evaluate(store=store, run_name="random", task=task, dataset_dir=data, items=items,
                             model=RandomModel(), modality="image"))
        turns = store.turns("random")
        markdown, html = write_report(store, "random", tmp_path / "report", task=task, items=items)
    text = markdown.read_text()
    assert "## Score per feedback round" in text
    picture = tmp_path / "report" / "images" / "codegen_by_round.png"
    assert picture.read_bytes().startswith(b"\x89PNG") and picture.stat().st_size > 2000
    assert "Score per feedback round" in html.read_text() and "codegen_by_round" not in html.read_text()
    rows = _rows(text)
    assert sorted(rows) == list(range(1, 11))
    # rescore the stored replies: round 1 is each item's first answer, round 10 its last answer
    by_id = {item.id: item for item in items}
    for number, position in ((1, 0), (10, -1)):
        headline, totals, passed = [], [], []
        for item_id, conversation in turns.items():
            reply = sorted(conversation, key=lambda t: t.turn)[position].text
            scores = task.score(by_id[item_id], task.parse(by_id[item_id], reply)).values
            headline.append(scores["score"])
            totals.append(scores["paper_total"])
            passed.append(scores["pass_rate"])
        n, score, total, pass_rate = rows[number][:4]
        assert n == "3"
        assert score.startswith(f"{100 * sum(headline) / 3:.1f} (")
        assert total.startswith(f"{100 * sum(totals) / 3:.1f} (")
        assert pass_rate.startswith(f"{100 * sum(passed) / 3:.1f} (")
    assert all(len(conversation) == 10 for conversation in turns.values())  # random never solves these
