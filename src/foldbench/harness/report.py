"""Run reports: Markdown and a self-contained HTML page with the metric tables, a plot of accuracy against the
number of folds, the cost summary, and a gallery of failed items with the model's answer drawn by the engine
beside the ground truth.
"""

from __future__ import annotations

import base64
import io
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2

from foldbench.errors import FoldbenchError
from foldbench.harness.metrics import GROUPING_KEYS, aggregate, aggregate_by, cost_summary
from foldbench.harness.store import RunInfo, ScoreRow, Store
from foldbench.tasks.base import Item, Task

__all__ = ["write_report", "compare_runs", "runs_overview", "HEADLINE_METRICS", "GalleryEntry"]

#: The metrics shown first, in this order, when a run has them.
HEADLINE_METRICS = (
    "accuracy",
    "exact_match",
    "partial_accuracy",
    "holes_exact",
    "unfolding_exact",
    "unfolding_steps",
    "valid_plan",
    "extra_holes",
    "missing_holes",
    "parse_failure",
)
FIELD_METRICS = ("shape_accuracy", "size_accuracy", "location_accuracy", "direction_accuracy")
_GALLERY_LIMIT = 24


@dataclass(frozen=True, slots=True)
class GalleryEntry:
    """One failed item in the gallery: its pictures (caption, PNG bytes) and notes."""

    item_id: str
    images: list[tuple[str, bytes]]
    notes: list[str]
    reply_excerpt: str


def _metric_names(summary: dict[str, Any]) -> list[str]:
    present = [m for m in HEADLINE_METRICS if m in summary]
    return present + [m for m in summary if m not in present and m != "n" and m not in FIELD_METRICS]


def _format(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, float):
        return f"{100 * value:.1f}"
    return str(value)


def _plot_by_folds(by_folds: dict[Any, dict[str, Any]]) -> bytes | None:
    if len(by_folds) < 1:
        return None
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    folds = list(by_folds)
    figure, axis = plt.subplots(figsize=(5.5, 3.2), dpi=110)
    for metric in ("accuracy", "exact_match", "partial_accuracy"):
        values = [by_folds[f].get(metric) for f in folds]
        if any(v is not None for v in values):
            axis.plot(folds, [100 * v if v is not None else float("nan") for v in values], marker="o", label=metric)
    axis.set_xlabel("number of folds")
    axis.set_ylabel("%")
    axis.set_ylim(-2, 102)
    axis.set_xticks(folds)
    axis.grid(alpha=0.3)
    axis.legend(fontsize=8)
    figure.tight_layout()
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", metadata={"Software": None})
    plt.close(figure)
    return buffer.getvalue()


def _failed(row: ScoreRow) -> bool:
    for metric in ("exact_match", "accuracy"):
        value = row.values.get(metric)
        if value is not None:
            return value < 1.0
    return False


def _gallery(task: Task, items: dict[str, Item], rows: Sequence[ScoreRow]) -> list[GalleryEntry]:
    entries = []
    draw = getattr(task, "gallery", None)
    for row in [r for r in rows if _failed(r)][:_GALLERY_LIMIT]:
        item = items.get(row.item_id)
        images: list[tuple[str, bytes]] = []
        if draw is not None and item is not None:
            images = draw(item, row.answer)
        text = row.text.strip()
        entries.append(GalleryEntry(row.item_id, images, list(row.notes), text[-600:]))
    return entries


def _environment() -> jinja2.Environment:
    environment = jinja2.Environment(
        loader=jinja2.FileSystemLoader(Path(__file__).with_name("templates")),
        undefined=jinja2.StrictUndefined,
        autoescape=jinja2.select_autoescape(["html"]),
    )
    environment.filters["pct"] = _format
    environment.filters["b64"] = lambda data: base64.b64encode(data).decode("ascii")
    return environment


def write_report(store: Store, run: str, out: Path, *, task: Task, items: Sequence[Item] = ()) -> tuple[Path, Path]:
    """Write ``report.md`` and ``report.html`` (and the pictures the Markdown links) into ``out``."""
    info: RunInfo | None = store.run(run)
    if info is None:
        known = ", ".join(r.name for r in store.runs()) or "none"
        raise FoldbenchError(f"no run named '{run}' in {store.path} (runs: {known})")
    rows = list(store.scores(run))
    summary = aggregate(rows)
    breakdowns = {}
    for key in GROUPING_KEYS:
        table = aggregate_by(rows, key)
        if len(table) > 1:
            breakdowns[key] = table
    by_folds = aggregate_by(rows, "num_folds")
    plot = _plot_by_folds(by_folds) if len(by_folds) > 1 else None
    failures = store.failures(run)
    gallery = _gallery(task, {i.id: i for i in items}, rows)
    out.mkdir(parents=True, exist_ok=True)
    pictures = out / "images"
    files: dict[str, str] = {}
    if plot:
        pictures.mkdir(exist_ok=True)
        (pictures / "accuracy_by_folds.png").write_bytes(plot)
        files["plot"] = "images/accuracy_by_folds.png"
    for entry in gallery:
        for index, (_caption, data) in enumerate(entry.images):
            pictures.mkdir(exist_ok=True)
            name = f"images/{entry.item_id}-{index}.png"
            (out / name).write_bytes(data)
            files[f"{entry.item_id}-{index}"] = name
    context = {
        "info": info,
        "params": json.dumps(info.params, sort_keys=True),
        "summary": summary,
        "metrics": _metric_names(summary),
        "fields": [m for m in FIELD_METRICS if m in summary],
        "breakdowns": breakdowns,
        "cost": cost_summary(rows),
        "plot": plot,
        "files": files,
        "gallery": gallery,
        "failures": failures,
        "failed_count": sum(_failed(r) for r in rows),
    }
    environment = _environment()
    markdown = out / "report.md"
    html = out / "report.html"
    markdown.write_text(environment.get_template("report.md.j2").render(**context), encoding="utf-8")
    html.write_text(environment.get_template("report.html.j2").render(**context), encoding="utf-8")
    return markdown, html


def compare_runs(store: Store, runs: Sequence[str]) -> tuple[list[str], list[list[str]]]:
    """A side-by-side table of the runs' overall metrics: (header, rows)."""
    summaries = {}
    for run in runs:
        if store.run(run) is None:
            known = ", ".join(r.name for r in store.runs()) or "none"
            raise FoldbenchError(f"no run named '{run}' in {store.path} (runs: {known})")
        summaries[run] = aggregate(store.scores(run))
    metrics: list[str] = []
    for summary in summaries.values():
        for name in ["n", *_metric_names(summary), *[m for m in FIELD_METRICS if m in summary]]:
            if name not in metrics:
                metrics.append(name)
    header = ["metric", *runs]
    table = [[metric, *[_format(summaries[run].get(metric)) for run in runs]] for metric in metrics]
    return header, table


#: The columns of :func:`runs_overview`.
OVERVIEW_METRICS = ("accuracy", "exact_match", "partial_accuracy", "unfolding_exact", "valid_plan", "parse_failure")


def runs_overview(store: Store, runs: Sequence[str]) -> tuple[list[str], list[list[str]]]:
    """One row per run (task name, modality, model, items, headline metrics in percent): (header, rows)."""
    summaries = {run: aggregate(store.scores(run)) for run in runs}
    columns = [m for m in OVERVIEW_METRICS if any(m in s for s in summaries.values())]
    header = ["task", "modality", "model", "n", *columns]
    table = []
    for run in runs:
        info = store.run(run)
        assert info is not None
        summary = summaries[run]
        table.append(
            [
                info.task.split("/")[-1],
                info.modality,
                info.model,
                str(summary["n"]),
                *[_format(summary.get(m)) for m in columns],
            ]
        )
    return header, table
