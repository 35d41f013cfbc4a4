"""The suite's summary table stays readable in an 80-column terminal: no line is wider, and task names,
headline names and figures are never cut or split (a long model name may wrap)."""

from __future__ import annotations

from rich.console import Console

from foldbench.cli.evaluate import overview_table
from foldbench.harness.report import format_estimate
from foldbench.harness.stats import Estimate
from foldbench.tasks import make, task_ids


def test_every_registered_task_fits_80_columns_with_names_and_figures_whole() -> None:
    header = ["task", "modality", "model", "n", "headline", "% (95 % CI)"]
    widest = format_estimate(Estimate(1.0, 0.996, 1.0, 1000), digits=0)  # as the suite prints it
    rows = [
        [task_id, "frames", "openai:a-rather-long-model-name", "1000", make(task_id).spec.headline, widest]
        for task_id in task_ids()
    ]
    console = Console(width=80, record=True)
    console.print(overview_table(header, rows))
    lines = console.export_text().splitlines()
    assert max(len(line) for line in lines) <= 80
    for task_id, row in zip(task_ids(), rows, strict=True):
        short = task_id.split("/")[-1].rsplit("-v", 1)[0]
        line = next((line for line in lines if line.split()[:1] == [short]), None)
        assert line is not None, short
        assert f" {row[4]} " in line and line.rstrip().endswith(widest), line
