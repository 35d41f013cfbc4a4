"""Run reports: Markdown and a self-contained HTML page with the metric tables (each value with its 95 %
interval), the breakdowns and plots the task declares (and, for multi-turn tasks, its per-round plots with their
tables), the cost summary, and a gallery of failed items drawn by the task (the model's answer beside the ground
truth) with, for multi-turn runs, the conversation turn by turn.
"""

from __future__ import annotations

import base64
import io
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jinja2

from foldbench.errors import FoldbenchError
from foldbench.harness.metrics import Summary, aggregate, aggregate_by, cost_summary, paired_differences
from foldbench.harness.repeats import RepeatSummary, format_mean_std, repeat_summary
from foldbench.harness.rounds import round_estimates, round_plot_png
from foldbench.harness.stats import Estimate
from foldbench.harness.store import RunInfo, ScoreRow, Store, TurnRow
from foldbench.tasks.base import Item, Task
from foldbench.tasks.spec import Plot, RoundPlot, TaskSpec

__all__ = ["GalleryEntry", "compare_runs", "format_estimate", "repeats_of", "runs_overview", "write_report"]

_GALLERY_LIMIT = 24


@dataclass(frozen=True, slots=True)
class GalleryEntry:
    """One failed item in the gallery: its pictures (caption, PNG bytes), notes, and its conversation turn by turn
    (empty for one-shot runs)."""

    item_id: str
    images: list[tuple[str, bytes]]
    notes: list[str]
    reply_excerpt: str
    turns: list[TurnRow] = field(default_factory=list)


def _percent(value: float | None) -> str:
    return "—" if value is None else f"{100 * value:.1f}"


def _format(value: Any) -> str:
    """A value in percent (an estimate by its point value; None as a dash)."""
    if isinstance(value, Estimate):
        return _percent(value.value)
    if value is None:
        return "—"
    if isinstance(value, float):
        return _percent(value)
    return str(value)


def _interval(estimate: Estimate | None, digits: int = 1) -> str:
    """``low–high`` in percent, or a dash."""
    if estimate is None or estimate.low is None or estimate.high is None:
        return "—"
    return f"{100 * estimate.low:.{digits}f}–{100 * estimate.high:.{digits}f}"


def format_estimate(estimate: Estimate | None, *, digits: int = 1) -> str:
    """``value (low–high)`` in percent: a metric with its 95 % interval, e.g. ``35.0 (18.1–56.7)``.

    >>> format_estimate(Estimate(0.35, 0.181, 0.567, 20))
    '35.0 (18.1–56.7)'
    """
    if estimate is None or estimate.value is None:
        return "—"
    return f"{_percent(estimate.value)} ({_interval(estimate, digits)})"


def _main_metrics(spec: TaskSpec) -> list[str]:
    return [m.name for m in spec.metrics if m.group is None]


def _grouped_metrics(spec: TaskSpec) -> dict[str, list[tuple[str, str]]]:
    groups: dict[str, list[tuple[str, str]]] = {}
    for metric in spec.metrics:
        if metric.group is not None:
            groups.setdefault(metric.group, []).append((metric.label or metric.name, metric.name))
    return groups


def _plot(plot: Plot, table: dict[Any, Summary]) -> bytes:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    xs = list(table)
    figure, axis = plt.subplots(figsize=(5.5, 3.2), dpi=110)
    for metric in plot.metrics:
        values = [table[x].value(metric) for x in xs]
        if any(v is not None for v in values):
            axis.plot(xs, [100 * v if v is not None else float("nan") for v in values], marker="o", label=metric)
    axis.set_xlabel(plot.x_label)
    axis.set_ylabel("%")
    axis.set_ylim(-2, 102)
    axis.set_xticks(xs)
    axis.grid(alpha=0.3)
    axis.legend(fontsize=8)
    figure.tight_layout()
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", metadata={"Software": None})
    plt.close(figure)
    return buffer.getvalue()


def _round_rows(plot: RoundPlot, estimates: dict[str, list[Estimate]]) -> list[tuple[int, int, list[Estimate]]]:
    """(round, conversations, the estimate of each score) for the table under a per-round plot."""
    series = [estimates[name] for name in plot.scores]
    return [(index + 1, cells[0].n, list(cells)) for index, cells in enumerate(zip(*series, strict=True))]


def _failed(row: ScoreRow, spec: TaskSpec) -> bool:
    value = row.values.get(spec.headline)
    return value is not None and value < 1.0


def _gallery(
    spec: TaskSpec, items: dict[str, Item], rows: Sequence[ScoreRow], turns: dict[str, list[TurnRow]]
) -> list[GalleryEntry]:
    entries = []
    multi_turn = any(len(t) > 1 for t in turns.values())
    for row in [r for r in rows if _failed(r, spec)][:_GALLERY_LIMIT]:
        item = items.get(row.item_id)
        images: list[tuple[str, bytes]] = []
        if spec.gallery is not None and item is not None:
            images = spec.gallery(item, row.answer)
        text = row.text.strip()
        conversation = turns.get(row.item_id, []) if multi_turn else []
        entries.append(GalleryEntry(row.item_id, images, list(row.notes), text[-600:], conversation))
    return entries


def _environment() -> jinja2.Environment:
    environment = jinja2.Environment(
        loader=jinja2.FileSystemLoader(Path(__file__).with_name("templates")),
        undefined=jinja2.StrictUndefined,
        autoescape=jinja2.select_autoescape(["html"]),
    )
    environment.filters["pct"] = _format
    environment.filters["ci"] = _interval
    environment.filters["est"] = lambda estimate: format_estimate(estimate, digits=0)
    environment.filters["b64"] = lambda data: base64.b64encode(data).decode("ascii")
    environment.filters["excerpt"] = lambda text: (text or "").strip()[-600:]
    return environment


def repeats_of(store: Store, run: str, spec: TaskSpec) -> RepeatSummary | None:
    """The run's summary over its repeats, or None when it was asked once."""
    if len(store.repeats(run)) < 2:
        return None
    return repeat_summary(store.scores(run, repeat=None), spec)


def _repeat_section(summary: RepeatSummary | None, spec: TaskSpec) -> dict[str, Any] | None:
    """The report's table over repeats: (metric, mean ± std, best of N, each repeat's value) per metric."""
    if summary is None:
        return None
    rows = [
        (
            metric.name,
            format_mean_std(summary.mean[metric.name], summary.std[metric.name]),
            _format(summary.best.estimates[metric.name]),
            [_format(s.estimates[metric.name]) for s in summary.per_repeat.values()],
        )
        for metric in spec.metrics
    ]
    return {"header": list(summary.per_repeat), "rows": rows, "best": summary.best_repeat}


def _unknown_run(store: Store, run: str) -> FoldbenchError:
    known = ", ".join(r.name for r in store.runs()) or "none"
    return FoldbenchError(f"no run named '{run}' in {store.path} (runs: {known})")


def write_report(store: Store, run: str, out: Path, *, task: Task, items: Sequence[Item] = ()) -> tuple[Path, Path]:
    """Write ``report.md`` and ``report.html`` (and the pictures the Markdown links) into ``out``: the metrics the
    task declares with their 95 % intervals, its breakdowns and plots, the cost, and a gallery of failed items
    (with each conversation turn by turn for multi-turn runs)."""
    info: RunInfo | None = store.run(run)
    if info is None:
        raise _unknown_run(store, run)
    spec = task.spec
    rows = list(store.scores(run))
    summary = aggregate(rows, spec)
    breakdowns = {}
    for key in spec.breakdowns:
        table = aggregate_by(rows, key, spec)
        if len(table) > 1:
            breakdowns[key] = table
    plots = []
    for plot in spec.plots:
        table = aggregate_by(rows, plot.by, spec)
        if len(table) > 1:
            plots.append((plot, _plot(plot, table)))
    turns = store.turns(run)
    round_tables = []
    for round_plot in spec.round_plots:
        estimates = round_estimates(turns, round_plot, spec.max_turns)
        if any(estimates.values()):
            plots.append((round_plot, round_plot_png(round_plot, estimates)))
            round_tables.append((round_plot, _round_rows(round_plot, estimates)))
    failures = store.failures(run)
    gallery = _gallery(spec, {i.id: i for i in items}, rows, turns)
    out.mkdir(parents=True, exist_ok=True)
    pictures = out / "images"
    files: dict[str, str] = {}
    for plot, data in plots:
        pictures.mkdir(exist_ok=True)
        (pictures / plot.file).write_bytes(data)
        files[plot.file] = f"images/{plot.file}"
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
        "headline": spec.headline,
        "metrics": _main_metrics(spec),
        "groups": _grouped_metrics(spec),
        "breakdowns": breakdowns,
        "cost": cost_summary(rows),
        "plots": plots,
        "round_tables": round_tables,
        "files": files,
        "gallery": gallery,
        "failures": failures,
        "failed_count": sum(_failed(r, spec) for r in rows),
        "repeats": _repeat_section(repeats_of(store, run, spec), spec),
    }
    environment = _environment()
    markdown = out / "report.md"
    html = out / "report.html"
    markdown.write_text(environment.get_template("report.md.j2").render(**context), encoding="utf-8")
    html.write_text(environment.get_template("report.html.j2").render(**context), encoding="utf-8")
    return markdown, html


def _spec_of(info: RunInfo) -> TaskSpec:
    from foldbench.tasks import make

    return make(info.task).spec


def compare_runs(store: Store, runs: Sequence[str]) -> tuple[list[str], list[list[str]]]:
    """A side-by-side table of the runs' metrics with their 95 % intervals: (header, rows).

    Every run after the first that scored items in common with it (and is of the same task) gets a column with
    the paired difference to the first run, over those common items, with its paired-bootstrap interval.
    """
    infos = []
    for run in runs:
        info = store.run(run)
        if info is None:
            raise _unknown_run(store, run)
        infos.append(info)
    specs = {info.task: _spec_of(info) for info in infos}
    rows = {run: list(store.scores(run)) for run in runs}
    summaries = {info.name: aggregate(rows[info.name], specs[info.task]) for info in infos}
    names: list[str] = []
    for info in infos:
        for metric in specs[info.task].metrics:
            if metric.name not in names:
                names.append(metric.name)
    first = infos[0]
    paired, common_counts = {}, []
    for info in infos[1:]:
        common = {r.item_id for r in rows[first.name]} & {r.item_id for r in rows[info.name]}
        if info.task == first.task and common:
            paired[info.name] = paired_differences(rows[info.name], rows[first.name], specs[info.task])
            common_counts.append(str(len(common)))
    repeated = {info.name: repeats_of(store, info.name, specs[info.task]) for info in infos}
    header = ["metric", *runs, *[f"{name} − {first.name} (paired)" for name in paired]]
    table = [["n", *[_count(summaries[run].n, repeated[run]) for run in runs], *common_counts]]
    for name in names:
        cells = [_cell(summaries[run].estimates.get(name), repeated[run], name) for run in runs]
        differences = [_signed(d.get(name)) for d in paired.values()]
        table.append([name, *cells, *differences])
    return header, table


def _count(n: int, repeated: RepeatSummary | None) -> str:
    """Items scored, ``items × repeats`` for a run asked several times."""
    return str(n) if repeated is None else f"{n} × {repeated.repeats}"


def _cell(estimate: Estimate | None, repeated: RepeatSummary | None, name: str) -> str:
    """A run's value of a metric: with its 95 % interval, or over repeats ``mean ± std, best B``."""
    if repeated is None:
        return format_estimate(estimate, digits=0)
    if name not in repeated.mean:
        return "—"
    best = repeated.best.value(name)
    spread = format_mean_std(repeated.mean[name], repeated.std[name])
    return spread if best is None else f"{spread}, best {_percent(best)}"


def _signed(estimate: Estimate | None) -> str:
    """A difference in percentage points with its interval, e.g. ``+15.0 (-5 to +35)``."""
    if estimate is None or estimate.value is None:
        return "—"
    low = "—" if estimate.low is None else f"{100 * estimate.low:+.0f}"
    high = "—" if estimate.high is None else f"{100 * estimate.high:+.0f}"
    return f"{100 * estimate.value:+.1f} ({low} to {high})"


def runs_overview(store: Store, runs: Sequence[str]) -> tuple[list[str], list[list[str]]]:
    """One row per run: task, modality, model, items, headline metric and its value with the 95 % interval."""
    header = ["task", "modality", "model", "n", "headline", "% (95 % CI)"]
    table = []
    for run in runs:
        info = store.run(run)
        if info is None:
            raise _unknown_run(store, run)
        spec = _spec_of(info)
        summary = aggregate(store.scores(run), spec)
        table.append(
            [
                info.task,
                info.modality,
                info.model,
                str(summary.n),
                spec.headline,
                format_estimate(summary.estimates[spec.headline], digits=0),
            ]
        )
    return header, table
