"""Fill a declared paper table from stored runs: one row per model in each section, each cell the declared metric
of that model's run of the column's task, over the repeats as the table's paper combines them."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from foldbench.errors import FoldbenchError, UsageError
from foldbench.harness.metrics import metric_arrays
from foldbench.harness.paper_tables.layout import Column, PaperTable, task_name
from foldbench.harness.repeats import mean_std
from foldbench.harness.store import RunInfo, ScoreRow, Store
from foldbench.tasks.spec import Metric, TaskSpec

__all__ = ["FilledTable", "fill_table", "run_infos"]

DASH = "—"


@dataclass(frozen=True, slots=True)
class FilledTable:
    """A paper table filled from runs.

    Attributes:
        table: its declaration.
        blocks: (section label, rows) in the paper's order; a row is the model's name, then one text per column.
        runs: the runs it was filled from.
    """

    table: PaperTable
    blocks: list[tuple[str | None, list[list[str]]]]
    runs: list[str]

    def relabelled(self, names: Mapping[str, str]) -> FilledTable:
        """The same table with each row's model name replaced by ``names[model]`` where given."""
        blocks = [(label, [[names.get(row[0], row[0]), *row[1:]] for row in rows]) for label, rows in self.blocks]
        return FilledTable(self.table, blocks, self.runs)

    @property
    def header(self) -> list[tuple[str, ...]]:
        """Each column's header padded to the table's levels (the model column first)."""
        levels = self.table.header_levels
        first = (self.table.row_header, *[""] * (levels - 1))
        return [first, *[(*c.header, *[""] * (levels - len(c.header))) for c in self.table.columns]]


def run_infos(store: Store, runs: Sequence[str]) -> list[RunInfo]:
    """The stored settings of each named run; a clear error naming the first unknown one."""
    infos = []
    for run in runs:
        info = store.run(run)
        if info is None:
            known = ", ".join(r.name for r in store.runs()) or "none"
            raise UsageError(f"no run named '{run}' in {store.path} (runs: {known})")
        infos.append(info)
    return infos


def _spec(task_id: str) -> TaskSpec:
    from foldbench.tasks import make

    return make(task_id).spec


def _metric(spec: TaskSpec, table: PaperTable, column: Column, task_id: str, name: str) -> Metric:
    try:
        return spec.metric(name)
    except KeyError:
        declared = ", ".join(m.name for m in spec.metrics)
        raise FoldbenchError(
            f"paper table {table.key}: column {' / '.join(column.header)!r} reads metric {name!r}, which "
            f"{task_id} does not declare (it declares {declared})"
        ) from None


def _values(rows: Sequence[ScoreRow], metric: Metric) -> tuple[np.ndarray, np.ndarray]:
    numerators, denominators, present = metric_arrays(rows, metric)
    return numerators[present], denominators[present]


def _point(rows: Sequence[ScoreRow], metric: Metric) -> float | None:
    numerators, denominators = _values(rows, metric)
    total = float(denominators.sum())
    return float(numerators.sum()) / total if total > 0 else None


def _selected(rows: Sequence[ScoreRow], column: Column, spec: TaskSpec) -> list[ScoreRow]:
    if column.where is not None:
        key, value = column.where
        rows = [r for r in rows if r.metadata.get(key) == value]
    if column.compiled_only is not None:
        rows = [r for r in rows if r.values.get(column.compiled_only) == 1.0]
    return list(rows)


def _format(value: float | None, table: PaperTable) -> str:
    if value is None or math.isnan(value):
        return DASH
    return f"{table.scale * value:.{table.digits}f}{table.suffix}"


def _spread(mean: float | None, std: float | None, table: PaperTable) -> str:
    if mean is None or std is None:
        return _format(mean, table)
    return f"{_format(mean, table)}±{table.scale * std:.{table.digits}f}"


class _RunCells:
    """The cells a model's runs of one task fill (their items together, e.g. one run per step budget): their rows
    by repeat, the task's spec, and the repeat(s) the table reads."""

    def __init__(self, store: Store, infos: Sequence[RunInfo], table: PaperTable) -> None:
        self.info, self.table = infos[0], table
        self.latencies = [s for info in infos for s in store.turn_latencies(info.name)]
        self.spec = _spec(self.info.task)
        by_repeat: dict[int, list[ScoreRow]] = defaultdict(list)
        for info in infos:
            for row in store.scores(info.name, repeat=None):
                by_repeat[row.repeat].append(row)
        if table.repeats == "pool":
            self.sets = [[r for rows in by_repeat.values() for r in rows]] if by_repeat else []
        elif table.repeats == "best" and by_repeat:
            headline = self.spec.metric(self.spec.headline)

            def rank(repeat: int) -> tuple[float, int]:
                value = _point(by_repeat[repeat], headline)
                return (-math.inf if value is None else value, -repeat)

            self.sets = [by_repeat[max(by_repeat, key=rank)]]
        else:
            self.sets = [by_repeat[r] for r in sorted(by_repeat)]

    def text(self, column: Column) -> str:
        """The text of ``column`` for this run."""
        if column.rule == "seconds_per_turn":
            return f"{sum(self.latencies) / len(self.latencies):.1f}" if self.latencies else DASH
        name = column.metric_for(self.info.modality)
        if name is None or (column.modalities and self.info.modality not in column.modalities):
            return DASH
        metric = _metric(self.spec, self.table, column, self.info.task, name)
        values = []
        for rows in self.sets:
            chosen = _selected(rows, column, self.spec)
            if column.rule == "items_mean_std":
                numerators, denominators = _values(chosen, metric)
                mean, std = mean_std((numerators / denominators).tolist()) if len(numerators) else (None, None)
                return _spread(mean, std, self.table)
            value = _point(chosen, metric)
            values.append(None if value is None else (1.0 - value if column.rule == "complement" else value))
        mean, std = mean_std(values)
        return _spread(mean, std if self.table.repeats == "mean_std" else None, self.table)


def fill_table(store: Store, table: PaperTable, infos: Sequence[RunInfo]) -> FilledTable | None:
    """The table filled from those of ``infos`` that belong to one of its sections (None when none does).

    A model's runs of one task in one section count as one (their items together: OrigamiBench's step budgets are
    datasets of their own), unless two of them are on the same dataset.

    Raises:
        FoldbenchError: two runs of one model and task on the same dataset fall in one section, or a column names a
            metric its task does not declare.
    """
    placed: dict[int, dict[str, dict[str, list[RunInfo]]]] = defaultdict(lambda: defaultdict(dict))
    used = []
    for info in infos:
        task = task_name(info.task)
        section = table.section_of(task, info.modality)
        if section is None:
            continue
        runs_of_model = placed[table.sections.index(section)][info.model].setdefault(task, [])
        twin = next((other for other in runs_of_model if other.dataset == info.dataset), None)
        if twin is not None:
            raise UsageError(
                f"paper table {table.key}: runs '{twin.name}' and '{info.name}' are both {info.model} on the same "
                f"{task} dataset{f' ({info.modality})' if section.modalities else ''}; give one of them"
            )
        runs_of_model.append(info)
        used.append(info.name)
    if not used:
        return None
    blocks = []
    for index, section in enumerate(table.sections):
        if index not in placed:
            continue
        rows = []
        for model, runs in placed[index].items():
            cells = {task: _RunCells(store, of_task, table) for task, of_task in runs.items()}
            row = [model]
            for column in table.columns:
                source = next((t for t in column.tasks if t in cells), None)
                row.append(cells[source].text(column) if source is not None else DASH)
            rows.append(row)
        blocks.append((section.label, rows))
    return FilledTable(table, blocks, used)
